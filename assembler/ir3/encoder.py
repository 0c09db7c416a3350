"""One line of mesa's ir3 disassembly syntax -> one 64-bit word.

The display templates of the bitset tree are read backwards: a line is matched against the
templates of every instruction form whose mnemonic fits, recursively through operand bitsets
(registers, multi-source operands) and <param> renames, binding the fields it shows. Fields the
text does not show (FULL, DST_CONV, the (r) bits that hold (nopN)...) are then searched, zero
first, until the word decodes to exactly the text the match implies; the decoder is the judge,
so an assembled word always disassembles back to the canonical form of its source.
"""
import re
import struct

from assembler.errors import AssemblerError

from . import isa
from .decoder import _c_float, _Scope, _State, find_bitset

_U64 = (1 << 64) - 1
_INT = re.compile(r"[-+]?(?:0[xX][0-9a-fA-F]+|\d+)")
_HEX = re.compile(r"(?:0[xX])?[0-9a-fA-F]+")
_FLOAT = re.compile(r"[-+]?(?:nan|inf|(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)", re.I)
_LABEL = re.compile(r"[A-Za-z_.$][A-Za-z0-9_.$]*")
_MAX_TRIES = 4096


class _Frame:
    """Bits bound so far in one bitset scope (the instruction, or an operand inside it)."""
    __slots__ = ("bitset", "case", "val", "known", "params", "parent", "low")

    def __init__(self, bitset, case, val, known, params, parent, low):
        self.bitset, self.case, self.val, self.known = bitset, case, val, known
        self.params, self.parent, self.low = params, parent, low

    def copy(self):
        return _Frame(self.bitset, self.case, self.val, self.known, self.params, self.parent, self.low)


def _reachable_cases(leaf):
    """The cases whose display find_display() can pick for `leaf`, in its order."""
    out = []
    for b in leaf.chain:
        for case in b.cases:
            if case.parts is not None:
                out.append(case)
                if case.expr is None:
                    return out
    return out


def _head(leaf, case):
    parts = case.parts
    for i, (kind, text) in enumerate(parts):
        if kind == "ref" and text == "NAME":
            tail = parts[i + 1][1] if i + 1 < len(parts) and parts[i + 1][0] == "lit" else ""
            return leaf.name + re.split(r"[ {]", tail, 1)[0]
    for kind, text in parts:
        if kind == "lit" and re.match(r"[a-z]", text):
            return text.split(" ", 1)[0]
    return ""


def _field_lookup(bitset, case, name):
    """The fields `name` may be when `case` supplies the display: the case's own, those of
    overrides without a display (find_field may pick them while the display comes from another
    case), then the default case; up the chain."""
    out = []
    b = bitset
    while b is not None:
        if case in b.cases:
            f = case.fields.get(name)
            if f is not None:
                out.append(f)
        for c in b.cases:
            if c is not case and c.expr is not None and c.parts is None:
                f = c.fields.get(name)
                if f is not None and f not in out:
                    out.append(f)
        f = b.cases[-1].fields.get(name)
        if f is not None and f not in out:
            out.append(f)
        if out:
            return out
        b = b.parent
    return out


def _bind(frame, f, raw):
    """frame with field f set to raw, or None when it contradicts what is bound."""
    m = f.mask << f.low
    if frame.known & m:
        return frame if (frame.val >> f.low) & f.mask == raw else None
    nf = frame.copy()
    nf.val = (nf.val & ~m) | (raw << f.low)
    nf.known |= m
    return nf


def _new_frame(leaf, case, params, parent, low):
    """A frame with the leaf's pattern, and what the case's expression and asserts require."""
    fr = _Frame(leaf, case, leaf.match & ~leaf.dontcare, leaf.mask, params, parent, low)
    for f in case.fields.values():
        if f.kind == "assert":
            fr = _bind(fr, f, f.val)
    for fname, val in isa.tables.EXPR_EQ.get(case.expr_name, ()):
        for f in _field_lookup(leaf, case, fname)[:1]:
            if f.expr is None and f.kind != "bitset" and fr is not None:
                fr = _bind(fr, f, val & f.mask)
    return fr


def _invert(f, target, frame):
    """Values of the real fields a derived field reads that make it `target`, or None."""
    names = isa.tables.EXPR_FIELDS.get(f.expr_name, ())
    fields = []
    for n in names:
        cands = _field_lookup(frame.bitset, frame.case, n)
        if not cands or cands[0].expr is not None or cands[0].kind == "bitset":
            return None
        fields.append(cands[0])
    bits = sum(x.width for x in fields)
    if not fields or bits > 16:
        return None
    fixed = {x.name: (frame.val >> x.low) & x.mask for x in fields if frame.known & (x.mask << x.low)}
    free = [x for x in fields if x.name not in fixed]

    def ev(values):
        env = dict(fixed)
        env.update(values)
        return f.expr(lambda n: env.get(n, 0), isa.GPU_ID) & ((1 << 64) - 1)

    # a bit-field concatenation ((HI << 8) | LO): each input bit lands on its own output bit
    mapping, linear = [], ev({}) == 0 and not fixed
    if linear:
        for x in free:
            for b in range(x.width):
                out = ev({x.name: 1 << b})
                if out & (out - 1) or out == 0 or any(o == out for _, _, o in mapping):
                    linear = False
                    break
                mapping.append((x, b, out))
            if not linear:
                break
    if linear:
        values = {x.name: 0 for x in free}
        rest = target & f.mask if f.width > 1 else target
        for x, b, out in mapping:
            if rest & out:
                values[x.name] |= 1 << b
                rest &= ~out
        if rest == 0 and ev(values) & f.mask == target & f.mask:
            return [(x, values[x.name]) for x in free]
        return None
    if sum(x.width for x in free) > 10:
        return None
    from itertools import product
    for combo in product(*[range(1 << x.width) for x in free]):
        values = {x.name: v for x, v in zip(free, combo)}
        if ev(values) == target:
            return [(x, values[x.name]) for x in free]
    return None


# per leaf: [(case, head)], per root leaf: reachable cases
_FORMS = {}
_SUBFORMS = {}


def _forms():
    if not _FORMS:
        for leaf in isa.INSTRUCTIONS:
            for case in _reachable_cases(leaf):
                head = _head(leaf, case)
                _FORMS.setdefault(head[:1], []).append((head, leaf, case))
    return _FORMS


def _subforms(root):
    forms = _SUBFORMS.get(root)
    if forms is None:
        forms = [(leaf, case) for leaf in isa.LEAVES[root] for case in _reachable_cases(leaf)]
        _SUBFORMS[root] = forms
    return forms


def _mnemonic(text):
    pos = 0
    while True:
        while pos < len(text) and text[pos] == " ":
            pos += 1
        if pos < len(text) and text[pos] == "(":
            end = text.find(")", pos)
            if end < 0:
                break
            pos = end + 1
            continue
        break
    end = text.find(" ", pos)
    return text[pos:end if end >= 0 else len(text)]


def normalize(text):
    text = " ".join(text.split())
    text = re.sub(r"\s*,\s*", ", ", text)
    text = re.sub(r"\s*([-+<>\[\]])\s*", r"\1", text)   # "p[r0.x + 0]" -> "p[r0.x+0]"
    m = re.fullmatch(r"([a-z][a-z0-9._]*)((?:\((?:sy|ss|jp|ul|sat|eq)\))+)", text)
    return m.group(2) + m.group(1) if m else text           # "nop(sy)" -> "(sy)nop"


class _Matcher:
    def __init__(self, text, pc, labels):
        self.text, self.pc, self.labels = text, pc, labels
        self.label_used = None

    # Each step yields (pos, frames, out) where frames is a dict id -> _Frame (copied on write)
    # and out the canonical text so far (a tuple of strings).

    def match_parts(self, parts, i, pos, fid, frames, out):
        if i == len(parts):
            yield pos, frames, out
            return
        kind, item = parts[i]
        text = self.text
        if kind == "lit":
            p = pos
            for ch in item:
                if ch == " ":
                    while p < len(text) and text[p] == " ":
                        p += 1
                elif p < len(text) and text[p] == ch:
                    p += 1
                else:
                    return
            yield from self.match_parts(parts, i + 1, p, fid, frames, out + (item,))
            return
        for p2, fr2, out2 in self.match_ref(item, pos, fid, frames, out):
            yield from self.match_parts(parts, i + 1, p2, fid, fr2, out2)

    def match_ref(self, name, pos, fid, frames, out):
        frame = frames[fid]
        if name == "NAME":
            if self.text.startswith(frame.bitset.name, pos):
                yield pos + len(frame.bitset.name), frames, out + (frame.bitset.name,)
            return
        cands = _field_lookup(frame.bitset, frame.case, name)
        if not cands:
            for pname, alias in frame.params:
                if alias == name:
                    yield from self.match_ref(pname, pos, frame.parent, frames, out)
                    return
            return
        for f in cands:
            if f.kind == "bitset":
                yield from self.match_bitset(f, pos, fid, frames, out)
                continue
            for p2, raw, canon in self.values(f, pos):
                if f.expr is not None:
                    # derived: bind what it reads when that can be solved; the decode check
                    # at the end holds the rest to what the text says
                    solved = _invert(f, raw, frames[fid])
                    fr = frames[fid]
                    for x, v in solved or ():
                        fr = _bind(fr, x, v) if fr is not None else None
                    if fr is None:
                        continue
                    yield p2, dict(frames, **{fid: fr}), out + (canon,)
                    continue
                nf = _bind(frames[fid], f, raw)
                if nf is None:
                    continue
                yield p2, dict(frames, **{fid: nf}), out + (canon,)

    def match_bitset(self, f, pos, fid, frames, out):
        for leaf, case in _subforms(f.type):
            sub_id = "%s/%s@%d" % (fid, f.name, len(frames))
            sub = _new_frame(leaf, case, f.params, fid, f.low)
            if sub is None:
                continue
            fr = dict(frames)
            fr[sub_id] = sub
            for p2, fr2, out2 in self.match_parts(case.parts, 0, pos, sub_id, fr, out):
                s = fr2[sub_id]
                parent = fr2[fid]
                m = f.mask << f.low
                val = s.val & f.mask
                if parent.known & m and (parent.val >> f.low) & f.mask != val:
                    continue
                np = parent.copy()
                np.val = (np.val & ~m) | (val << f.low)
                np.known |= (s.known & f.mask) << f.low   # operand bits its text left open stay open
                fr3 = dict(fr2)
                fr3[fid] = np
                del fr3[sub_id]
                yield p2, fr3, out2

    def values(self, f, pos):
        """(new pos, raw field value, canonical text) for each reading of the text at pos."""
        text, kind, width = self.text, f.kind, f.width
        mask = f.mask
        if f.expr is not None and width == 1 and kind not in ("bool", "bool_inv"):
            width, mask = 64, (1 << 64) - 1     # a derived field without width: any value
        if kind in ("bool", "bool_inv"):
            on, off = (1, 0) if kind == "bool" else (0, 1)
            if f.display is not None:
                if f.display and text.startswith(f.display, pos):
                    yield pos + len(f.display), on, f.display
                yield pos, off, ""
            else:
                if text.startswith("1", pos):
                    yield pos + 1, on, "1"
                if text.startswith("0", pos):
                    yield pos + 1, off, "0"
            return
        if kind == "enum":
            values = isa.tables.ENUMS[f.type]
            for v, disp in sorted(values.items(), key=lambda kv: -len(kv[1])):
                if v <= f.mask and text.startswith(disp, pos):
                    yield pos + len(disp), v, disp
            m = re.compile(r"\d+").match(text, pos)
            if m and int(m.group()) <= f.mask and int(m.group()) not in values:
                yield m.end(), int(m.group()), m.group()
            return
        if kind in ("offset", "uoffset"):
            m = _INT.match(text, pos)
            if m and m.group()[0] in "+-":
                v = int(m.group(), 0)
                if kind == "uoffset" and v > 0 and v <= mask:
                    yield m.end(), v, "+%d" % v
                if kind == "offset" and v != 0 and -(1 << (width - 1)) <= v < (1 << (width - 1)):
                    yield m.end(), v & mask, "%+d" % v
                if v == 0:
                    yield m.end(), 0, ""
            yield pos, 0, ""
            return
        if kind in ("branch", "absbranch"):
            m = _INT.match(text, pos)
            if m is None:
                lm = _LABEL.match(text, pos)
                if lm is None or self.labels is None or lm.group() not in self.labels:
                    if lm is not None:
                        self.label_used = lm.group()
                    return
                target = self.labels[lm.group()]
                v = target - self.pc if kind == "branch" else target
                end = lm.end()
            else:
                v, end = int(m.group(), 0), m.end()
            if -(1 << (width - 1)) <= v < (1 << width):
                raw = v & mask
                yield end, raw, str(_sext(raw, width) if kind == "branch" or v < 0 else raw)
            return
        if kind == "int":
            m = _INT.match(text, pos)
            if m:
                v = int(m.group(), 0)
                if -(1 << (width - 1)) <= v < (1 << width):
                    raw = v & mask
                    yield m.end(), raw, str(_sext(raw, width))
            return
        if kind == "uint":
            m = _INT.match(text, pos)
            if m:
                v = int(m.group(), 0)
                if f.expr is not None or 0 <= v <= mask:
                    yield m.end(), v, str(v)
            return
        if kind == "hex":
            m = _HEX.match(text, pos)
            if m:
                v = int(m.group(), 16)
                if v <= mask:
                    yield m.end(), v, "%x" % v
            return
        if kind == "float":
            m = _FLOAT.match(text, pos)
            if m:
                x = float(m.group())
                try:
                    if width == 16:
                        raw = struct.unpack("<H", struct.pack("<e", x))[0]
                    else:
                        raw = struct.unpack("<I", struct.pack("<f", x))[0]
                except (OverflowError, struct.error):
                    return
                if m.group().lstrip("+-").lower() == "nan" and m.group().startswith("-"):
                    raw |= 1 << (width - 1)
                canon = _c_float(struct.unpack("<e" if width == 16 else "<f",
                                               struct.pack("<H" if width == 16 else "<I", raw))[0])
                yield m.end(), raw, canon
            return


def _sext(v, w):
    return v - (1 << w) if v >> (w - 1) & 1 else v


def _render(word, gpu, pc, labels):
    state = _State(gpu)
    leaf = find_bitset(state, "#instruction", word)
    if leaf is None:
        return None, None
    _Scope(state, leaf, word, None).display()
    errors = [e for e in state.errors if not e.startswith("dontcare")]
    return "".join(state.out), errors


def _unknown_fields(leaf, known):
    """(low, width) of fields the text did not bind, narrow ones first (searched exhaustively)."""
    full = (1 << 64) - 1
    missing = full & ~known
    spans = {}
    for b in leaf.chain:
        for case in b.cases:
            for f in case.fields.values():
                if f.expr is None and f.kind != "assert":
                    m = f.mask << f.low
                    if missing & m == m:
                        spans[(f.low, f.width)] = True
    out = [s for s in sorted(spans, key=lambda s: (s[1], s[0])) if s[1] <= 4]
    for low, width in out:
        missing &= ~(((1 << width) - 1) << low)
    for f in spans:
        missing &= ~(((1 << f[1]) - 1) << f[0])
    # bits inside operands that their text left open (a 1-bit BASE_LO), one by one
    out += [(b, 1) for b in range(64) if missing >> b & 1][:8]
    return out


def _assignments(spans):
    """Values for the unbound fields, fewest non-zero fields first."""
    yield {}
    n = len(spans)
    from itertools import combinations, product
    for k in range(1, n + 1):
        for combo in combinations(range(n), k):
            for vals in product(*[range(1, 1 << spans[i][1]) for i in combo]):
                yield dict(zip(combo, vals))


def encode_line(text, gpu=isa.GPU_ID, pc=0, labels=None):
    """Encode one instruction in mesa's syntax. Raises AssemblerError naming the problem."""
    norm = normalize(text)
    if not norm:
        raise AssemblerError("empty instruction")
    mnem = _mnemonic(norm)
    forms = [(h, leaf, case) for h, leaf, case in _forms().get(mnem[:1], ())
             if mnem.startswith(h)]
    if not forms:
        raise AssemblerError("unknown instruction %r" % mnem)
    matcher = _Matcher(norm, pc, labels)
    tries = 0
    near = None
    for head, leaf, case in forms:
        first = _new_frame(leaf, case, (), None, 0)
        if first is None:
            continue
        frames = {"i": first}
        for pos, fr, out in matcher.match_parts(case.parts, 0, 0, "i", frames, ()):
            if pos != len(norm):
                near = near if near is not None and near[0] >= pos else (pos, leaf.name)
                continue
            top = fr["i"]
            canon = "".join(out)
            base = top.val
            for b in leaf.chain:       # constants mesa's encoder writes (stg's DST_OFF = 1)
                for fname, v in isa.tables.ENCODE_CONSTS.get(b.name, {}).items():
                    for f in _field_lookup(leaf, case, fname)[:1]:
                        if f.expr is None and not top.known & (f.mask << f.low):
                            base |= (v & f.mask) << f.low
            spans = _unknown_fields(leaf, top.known)
            for assign in _assignments(spans):
                word = base
                for i, v in assign.items():
                    low, width = spans[i]
                    word |= v << low
                got, errors = _render(word, gpu, pc, labels)
                tries += 1
                if got == canon and not errors:
                    return word
                if tries > _MAX_TRIES:
                    break
    if matcher.label_used is not None and (labels is None or matcher.label_used not in labels):
        raise AssemblerError("undefined label %r" % matcher.label_used)
    if near is not None:
        raise AssemblerError("cannot encode %r: %s matches up to column %d (%r)"
                             % (norm, near[1], near[0] + 1, norm[near[0]:near[0] + 12]))
    raise AssemblerError("cannot encode %r as %s: no operand form fits" % (norm, "/".join(
        sorted({leaf.name for _, leaf, _ in forms}))))
