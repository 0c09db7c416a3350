"""nvdisasm's SASS syntax: split a statement, parse and print operands.

A statement is `[@[!]P0 ]OPCODE[.MOD...] [operand, operand ...] ;`. Operands are:

    registers   R0..R254 RZ, UR0..UR62 URZ, P0..P6 PT, UP0..UP6 UPT, with -x, |x|, !p, ~x
                and suffixes (.reuse, .H0_H0, .64, .ROW, .SIGN ...)
    names       SR_TID.X, SRZ, B0, SB0, TRAP_RETURN_PC.HI ... (special registers, convergence
                barriers, scoreboards: a table per field)
    immediates  0x1f, -0x3, 1.5, -24, 1.175494350822287508e-38, +INF, -QNAN ...
    constants   c[0x0][0x160], c[0x3][R2+0x10], cx[UR4][0x8] (c[0x0] [0x170] also appears)
    memory      [R2.64+0x10], [R17+UR5+0x40], [R2.X4+-0x4], desc[UR4][R2.64], [0x10]
    targets     0x140 (raw listing) or `(.L_x_0) / `(name) (cubin listing)
    bit sets    {0,1}

An operand is parsed into an `Operand`: a *shape* (what it looks like, numbers replaced by
holes) and its *holes* (the numbers). The tables map each hole to bits of the instruction word;
`Operand.render()` prints an operand back exactly as nvdisasm does (`+INF ` keeps nvdisasm's
trailing blank; an address omits URZ, a zero offset, and RZ when an offset remains).
"""
import math
import re
import struct

REG_FILES = {"R": 255, "UR": 63, "P": 7, "UP": 7}
_ZERO_NAME = {"R": "RZ", "UR": "URZ", "P": "PT", "UP": "UPT"}
_REG = re.compile(r"^(UR|UP|R|P)(\d+|Z|T)$")
_NAME = re.compile(r"^([A-Z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*|\?\?\?\d+)$")
_NUM = re.compile(r"^[-+]?(0x[0-9a-fA-F]+|\d+(\.\d*)?(e[-+]?\d+)?|INF|QNAN|NAN|SNAN)$")


class SyntaxProblem(ValueError):
    """Text that is not nvdisasm syntax; .column is the 0-based offset within the statement."""

    def __init__(self, msg, column=0):
        super().__init__(msg)
        self.column = column


def split_top(text, sep=","):
    """Split on sep outside (), [], {} and backquoted labels: [(piece, start offset)]."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == sep and depth == 0:
            parts.append((text[start:i], start))
            start = i + 1
    parts.append((text[start:], start))
    return parts


class Statement:
    """One instruction statement split into guard predicate, opcode tokens and operand texts."""
    __slots__ = ("guard", "opcode", "modifiers", "operands", "columns", "semicolon")

    def __init__(self, guard, opcode, modifiers, operands, columns, semicolon=" ;"):
        self.guard, self.opcode, self.modifiers = guard, opcode, modifiers
        self.operands, self.columns, self.semicolon = operands, columns, semicolon

    @property
    def mnemonic(self):
        return ".".join((self.opcode,) + tuple(self.modifiers))


_GUARD = re.compile(r"@(!?)(U?P)(\d|T)\s+")


def split_statement(text):
    """'@!P0 IMAD.WIDE R2, R4, 0x4, R2 ;' -> Statement. Columns are 0-based offsets."""
    s = text.rstrip()
    semicolon = ""
    if s.endswith(";"):
        semicolon = " ;" if s[:-1].endswith(" ") else ";"
        s = s[:-1].rstrip()
    pos = len(text) - len(text.lstrip())
    body = s.lstrip()
    guard = None
    m = _GUARD.match(body)
    if m:
        guard = (m.group(2), 7 if m.group(3) == "T" else int(m.group(3)), m.group(1) == "!")
        pos += m.end()
        body = body[m.end():]
    mnem, _, rest = body.partition(" ")
    if not mnem or not re.match(r"^[A-Z_][A-Z0-9_]*(\.[A-Za-z0-9_?]+)*$", mnem):
        raise SyntaxProblem("expected an opcode, found %r" % (mnem or body), pos)
    toks = mnem.split(".")
    operands, columns = [], []
    base = pos + len(mnem) + 1
    if rest.strip():
        for piece, off in split_top(rest):
            if not piece.strip():
                raise SyntaxProblem("empty operand", base + off)
            # one blank separates operands; nvdisasm pads some names with more, which are kept
            p = piece[1:] if piece.startswith(" ") and off else piece
            operands.append(p.rstrip())
            columns.append(base + off + len(piece) - len(piece.lstrip()))
    return Statement(guard, toks[0], tuple(toks[1:]), operands, columns, semicolon)


# ----------------------------------------------------------------------------- numbers

# NaNs are held as nvdisasm prints them, "+QNAN" / "-QNAN" / "+SNAN" / "-SNAN" (quiet or
# signalling, payload dropped), so that operands holding one compare equal.
NAN, NEG_NAN = "+QNAN", "-QNAN"


def canonical_float(v):
    if isinstance(v, float) and math.isnan(v):
        return NEG_NAN if math.copysign(1, v) < 0 else NAN
    return v


def parse_number(tok):
    """Immediate text -> ('hex', int) or ('float', float); None if it is not a number."""
    t = tok.strip()
    if not _NUM.match(t):
        return None
    sign = -1 if t.startswith("-") else 1
    body = t.lstrip("+-")
    if body.startswith("0x") or body.startswith("0X"):
        return ("hex", sign * int(body, 16))
    if body == "INF":
        return ("float", sign * math.inf)
    if body in ("QNAN", "NAN", "SNAN"):
        return ("float", ("-" if sign < 0 else "+") + ("SNAN" if body == "SNAN" else "QNAN"))
    return ("float", sign * float(body))


def format_hex(v):
    return "-0x%x" % -v if v < 0 else "0x%x" % v


def format_float(v, bits=32):
    """Print a floating-point immediate the way nvdisasm does: %.20g, or %.20e from 1e9 up;
    infinities, NaNs and negative zero as +INF / -QNAN / +SNAN / -0.0 (with nvdisasm's
    trailing blank)."""
    if isinstance(v, str):
        return v + " "
    if math.isinf(v):
        return ("-" if v < 0 else "+") + "INF "
    if v == 0 and math.copysign(1.0, v) < 0:
        return "-0.0 "
    if abs(v) >= 1e9:
        return "%.20e" % v
    return "%.20g" % v


def f32_bits(v):
    return struct.unpack("<I", struct.pack("<f", v))[0]


# ----------------------------------------------------------------------------- operands

class Operand:
    """A parsed operand.

    kind: 'reg' | 'name' | 'imm' | 'cbuf' | 'mem' | 'desc' | 'target' | 'label' | 'set' | 'pair'
    shape: hashable description of everything but the numbers (decorations, register files,
           suffixes, which address parts exist); equal shapes differ only in their holes.
    holes: tuple of values (register numbers, immediates, names) in a fixed order per kind.
    rz:    for an address on RZ with an offset: True / False when the instruction prints / hides
           that base (as the tables learned), None for the usual rule (see _render_addr).
    """
    __slots__ = ("kind", "shape", "holes", "rz")

    def __init__(self, kind, shape, holes, rz=None):
        self.kind, self.shape, self.holes, self.rz = kind, shape, holes, rz

    def __eq__(self, other):
        return isinstance(other, Operand) and (self.kind, self.shape, self.holes) == \
            (other.kind, other.shape, other.holes)

    def __hash__(self):
        return hash((self.kind, self.shape, self.holes))

    def __repr__(self):
        return "Operand(%r, %r, %r)" % (self.kind, self.shape, self.holes)

    def render(self):
        if self.rz is not None and self.kind == "mem":
            return _render_mem(self.shape, self.holes, self.rz)
        return RENDER[self.kind](self.shape, self.holes)

    def norm_shape(self):
        """The shape without the parts nvdisasm derives from values: an address prints no RZ
        base when an offset remains (so neither that base nor its suffix shows)."""
        if self.kind == "mem":
            return (self.shape[0], self.shape[3])
        if self.kind == "cbuf":
            return self.shape[:4] + self.shape[6:]
        return self.shape


def _reg_number(file, num):
    if num in ("Z", "T"):
        zero = REG_FILES[file]
        if zero is None or (num == "Z") != (file in ("R", "UR")):
            raise SyntaxProblem("bad register %s%s" % (file, num))
        return zero
    n = int(num)
    zero = REG_FILES[file]
    if zero is not None and n >= zero:
        raise SyntaxProblem("register %s%d is out of range (the last one is %s%d, then %s)"
                            % (file, n, file, zero - 1, _ZERO_NAME[file]))
    return n


def reg_name(file, n):
    if REG_FILES.get(file) == n:
        return _ZERO_NAME[file]
    return "%s%d" % (file, n)


def _parse_reg_core(text):
    """'R12.64' -> (file, number, suffixes) or None."""
    head, *suffixes = text.split(".")
    m = _REG.match(head)
    if not m:
        return None
    return m.group(1), _reg_number(m.group(1), m.group(2)), tuple(suffixes)


_DECOR = re.compile(r"^(-?)(\|?)(.*?)(\|?)((?:\.[A-Za-z0-9_]+)*)$")


def parse_operand(text):
    t = text.strip()
    if not t:
        raise SyntaxProblem("empty operand")
    if t.startswith("`(") and t.endswith(")"):
        return Operand("label", (), (t[2:-1],))
    if t.startswith("{") and t.endswith("}"):
        inner = t[1:-1].strip()
        vals = tuple(int(x) for x in inner.split(",")) if inner else ()
        return Operand("set", (), (sum(1 << v for v in vals),))
    m = _CBUF.match(t)
    if m:
        return _parse_cbuf(m, t)
    # 'R2 -0x90' (BRX/RET register + target), 'R2 `(label)'
    sp = split_top(t, " ")
    pieces = [p for p, _ in sp if p]
    if len(pieces) == 2:
        a, b = parse_operand(pieces[0]), parse_operand(pieces[1])
        return Operand("pair", (a.kind, a.shape, b.kind, b.shape), a.holes + b.holes)
    if t.startswith("desc[") and t.endswith("]") and t.index("]") == len(t) - 1:
        core = _parse_reg_core(t[5:-1])          # a descriptor alone: UBLKCP ..., desc[UR0]
        if core is None or core[0] != "UR":
            raise SyntaxProblem("desc[] takes a uniform register: %r" % t)
        return Operand("desc", (), (core[1],))
    if t.startswith("desc[") or t.startswith("["):
        return _parse_mem(t)
    num = parse_number(t)
    if num is not None:
        return Operand("imm", (num[0],), (num[1],))
    neg = ""
    body = t
    if body[:1] in "-!~":
        neg, body = body[0], body[1:]
    bars = False
    if body.startswith("|"):
        end = body.find("|", 1)
        if end < 0:
            raise SyntaxProblem("unmatched | in %r" % t)
        inner, rest = body[1:end], body[end + 1:]
        bars = True
    else:
        inner, _, rest = body.partition(".")
        rest = "." + rest if rest else ""
    core = _parse_reg_core(inner)
    if core is None:
        if not neg and not bars and _NAME.match(t):
            # nvdisasm pads names it has no word for ('???38'): the blanks are kept
            return Operand("name", (), (text.rstrip() if t.startswith("???") else t,))
        raise SyntaxProblem("cannot read operand %r" % t)
    file, n, suff0 = core
    suffixes = tuple(s for s in rest.split(".") if s)
    return Operand("reg", (file, neg, bars, suff0, suffixes), (n,))


_CBUF = re.compile(r"^([-~]?)(\|?)(cx?)\[([^\]]*)\](\s?)\[([^\]]*)\]((?:\.[A-Za-z0-9_]+)*)(\|?)"
                   r"((?:\.[A-Za-z0-9_]+)*)$")


def _parse_cbuf(m, t):
    neg, bar, c, bank, space, addr, suffix, bar2, suffix2 = m.groups()
    if bool(bar) != bool(bar2):
        raise SyntaxProblem("unmatched | in %r" % t)
    if c == "cx":
        core = _parse_reg_core(bank)
        if core is None or core[0] != "UR":
            raise SyntaxProblem("cx[] takes a uniform register: %r" % t)
        bankv = core[1]
    else:
        v = parse_number(bank)
        if v is None or v[0] != "hex":
            raise SyntaxProblem("constant bank must be a number: %r" % t)
        bankv = v[1]
    reg, off, ureg = _addr_parts(addr, t)
    shape = ("c" if c == "c" else "cx", neg, bool(bar), bool(space), reg[0] is not None, reg[1],
             ureg is not None, tuple(x for x in suffix.split(".") if x),
             tuple(x for x in suffix2.split(".") if x))
    return Operand("cbuf", shape, (bankv, reg[0] if reg[0] is not None else 255, off,
                                    ureg if ureg is not None else 63))


def _addr_parts(addr, whole):
    """'R2.64+UR4+-0x10' -> ((reg or None, suffixes), offset, ureg or None)."""
    reg, suff, off, ureg = None, (), 0, None
    for piece in addr.split("+"):
        p = piece.strip()
        if not p:
            raise SyntaxProblem("empty address part in %r" % whole)
        num = parse_number(p)
        if num is not None:
            if num[0] != "hex":
                raise SyntaxProblem("address offsets are hexadecimal: %r" % whole)
            off = num[1]
            continue
        core = _parse_reg_core(p)
        if core is None:
            raise SyntaxProblem("cannot read address part %r in %r" % (p, whole))
        if core[0] == "UR":
            ureg = core[1]
        elif core[0] == "R":
            reg, suff = core[1], core[2]
        else:
            raise SyntaxProblem("%r cannot address memory in %r" % (p, whole))
    return (reg, suff), off, ureg


def _parse_mem(t):
    desc = None
    body = t
    if body.startswith("desc["):
        end = body.index("]")
        core = _parse_reg_core(body[5:end])
        if core is None or core[0] != "UR":
            raise SyntaxProblem("desc[] takes a uniform register: %r" % t)
        desc = core[1]
        body = body[end + 1:]
    if not (body.startswith("[") and body.endswith("]")):
        raise SyntaxProblem("cannot read address %r" % t)
    (reg, suff), off, ureg = _addr_parts(body[1:-1], t)
    shape = (desc is not None, suff, reg is not None, ureg is not None)
    return Operand("mem", shape, (desc if desc is not None else 63, reg if reg is not None else 255,
                                  ureg if ureg is not None else 63, off))


# ----------------------------------------------------------------------------- printing

def _render_reg(shape, holes):
    file, neg, bars, suff0, suffixes = shape
    core = reg_name(file, holes[0]) + "".join("." + s for s in suff0)
    if bars:
        core = "|" + core + "|"
    return neg + core + "".join("." + s for s in suffixes)


def _render_imm(shape, holes):
    v = holes[0]
    if shape[0] == "hex":
        return format_hex(v)
    return format_float(v)


def _render_addr(reg_present, suff, reg, ureg_present, ureg, off, desc=False, rz=None):
    """reg_present: the instruction has a base register; RZ prints when nothing else does, or
    with its suffix inside a descriptor (desc[UR6][RZ.64]) or scaled beside a uniform register
    (RZ.X8+URZ); rz True / False overrides that beside an offset (LDGSTS [RZ.64+0x10])."""
    parts = []
    scaled = any(x[:1] == "X" for x in suff)
    if rz is not None and reg == 255 and off:
        show = rz
    else:
        show = reg != 255 or (suff and ((ureg_present and scaled) or desc)) or (not ureg_present and not off)
    if reg_present and show:
        parts.append(reg_name("R", reg) + "".join("." + s for s in suff))
    if ureg_present:
        parts.append(reg_name("UR", ureg))
    if off or not parts:
        parts.append(format_hex(off))
    return "+".join(parts)


def _render_cbuf(shape, holes):
    c, neg, bar, space, reg_present, suff, ureg_present, suffix, suffix2 = shape
    bank, reg, off, ureg = holes
    b = reg_name("UR", bank) if c == "cx" else format_hex(bank)
    s = "%s[%s]%s[%s]" % (c, b, " " if space else "", _render_addr(reg_present, suff, reg, ureg_present, ureg, off))
    s += "".join("." + x for x in suffix)
    if bar:
        s = "|" + s + "|"
    return neg + s + "".join("." + x for x in suffix2)


def _render_mem(shape, holes, rz=None):
    has_desc, suff, reg_present, ureg_present = shape
    desc, reg, ureg, off = holes
    if reg == 255 and not (ureg_present or off or has_desc):
        # RZ alone scales nothing: nvdisasm prints LDS [RZ] whatever .X4/.X8/.X16 the word holds
        suff = tuple(x for x in suff if x[:1] != "X")
    s = "[%s]" % _render_addr(reg_present, suff, reg, ureg_present, ureg, off, has_desc, rz)
    return ("desc[%s]" % reg_name("UR", desc) + s) if has_desc else s


def _render_pair(shape, holes):
    ka, sa, kb, sb = shape
    na = len(_HOLES_OF[ka](sa))
    return RENDER[ka](sa, holes[:na]) + " " + RENDER[kb](sb, holes[na:])


def _render_set(shape, holes):
    v = holes[0]
    return "{" + ",".join(str(i) for i in reversed(range(64)) if v >> i & 1) + "}"


RENDER = {"desc": lambda shape, holes: "desc[%s]" % reg_name("UR", holes[0]), "reg": _render_reg, "imm": _render_imm, "cbuf": _render_cbuf, "mem": _render_mem,
          "name": lambda shape, holes: holes[0],
          "label": lambda shape, holes: "`(" + holes[0] + ")", "set": _render_set,
          "target": lambda shape, holes: format_hex(holes[0]),
          "pair": _render_pair}
_HOLES_OF = {"reg": lambda s: (0,), "imm": lambda s: (0,), "target": lambda s: (0,), "cbuf": lambda s: (0, 1, 2, 3),
             "mem": lambda s: (0, 1, 2, 3), "name": lambda s: (0,), "label": lambda s: (0,),
             "set": lambda s: (0,), "desc": lambda s: (0,)}
