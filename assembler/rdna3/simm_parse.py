"""Parse the 16-bit immediates of SOPP/SOPK text: numbers, labels and symbolic forms
(s_waitcnt counters, s_delay_alu, s_waitcnt_depctr, hwreg(), sendmsg(), s_version names)."""
import re
import struct

from .constants import parse_number, strip_lit
from .simm import DELAY_ID, DELAY_SKIP, DEPCTR, VERSION_FLAGS, WAITCNT
from .syntax import SyntaxErr
from .tables import HWREG_NAMES, SENDMSG_NAMES, SIMM_RANGE, VERSION_NAMES

_HWREG_IDS = {v: k for k, v in HWREG_NAMES.items()}
_MSG_IDS = {v: k for k, v in SENDMSG_NAMES.items()}
_VERSION_IDS = {v: k for k, v in VERSION_NAMES.items()}
_VERSION_FLAG_IDS = {name: bit for bit, name in VERSION_FLAGS}
_CALL = re.compile(r"\s*([A-Za-z_]\w*)\s*\(\s*([^()]*)\)\s*")
BRANCHES = re.compile(r"^s_(branch|cbranch_\w+|call_b64)$")
_LABEL = re.compile(r"^[A-Za-z_.$][\w.$]*$")


def _simm(text, col, mnem, expr=False):
    """A plain number as a 16-bit immediate, in the range llvm-mc-19 takes for this mnemonic
    (tables.SIMM_RANGE): 'any' truncates every integer (and a real's double bits) to 16 bits.
    expr: the operand is read as an integer expression (branch targets, sendmsg, hwreg,
    s_endpgm, counters), where a real stands for its double's bits and '-' negates an integer;
    else as an immediate, where '-1.5' is the real -1.5."""
    rng = SIMM_RANGE.get(mnem, "i16")
    if expr:
        from .lexer import LexError, int_expression
        try:
            v = int_expression(text)
        except LexError:
            raise SyntaxErr("%s: expected an integer, got %r" % (mnem, text), col) from None
    else:
        num = parse_number(text)
        if num is None:
            raise SyntaxErr("%s: expected an integer, got %r" % (mnem, text), col)
        v, is_float = num
        if is_float:                     # a real counts by its double's bits (0.0 is 0)
            v = struct.unpack("<q", struct.pack("<d", v))[0]
    if rng == "any":
        return v & 0xFFFF
    lo = 0 if rng == "u16" else -0x8000
    if not lo <= v <= 0xFFFF:
        raise SyntaxErr("%s: value %d out of range [%d, %d]" % (mnem, v, lo, 0xFFFF), col)
    return v & 0xFFFF


def _int(text, col, what, lo=-0x8000, hi=0xFFFF):
    num = parse_number(text)
    if num is None or num[1]:
        raise SyntaxErr("%s: expected an integer, got %r" % (what, text), col)
    if not lo <= num[0] <= hi:
        raise SyntaxErr("%s: value %d out of range [%d, %d]" % (what, num[0], lo, hi), col)
    return num[0]


def _calls(text, col, what, pipes=False):
    """'a(1) b(2) & c(3)' -> [(name, argument text, col)] as llvm-mc reads counters: each call
    may be followed by '&' or ',' (not at the end); with pipes (s_delay_alu) calls are separated
    by '|' and nothing else."""
    from .lexer import END, IDENT, LexError, tokenize
    try:
        toks = tokenize(text, col)
    except LexError as e:
        raise SyntaxErr("%s: %s" % (what, e.reason), e.col) from None
    out, i = [], 0
    while toks[i].kind != END:
        t = toks[i]
        if t.kind != IDENT or not toks[i + 1].is_punct("("):
            raise SyntaxErr("%s: expected name(value), got %r" % (what, t.text), t.col)
        depth, j = 0, i + 1
        while toks[j].kind != END:
            depth += toks[j].is_punct("(") - toks[j].is_punct(")")
            if depth == 0:
                break
            j += 1
        if toks[j].kind == END:
            raise SyntaxErr("%s: expected a closing parenthesis" % what, toks[j].col)
        arg = text[toks[i + 2].col - col:toks[j].col - col].strip() if j > i + 2 else ""
        out.append((t.text, arg, t.col))
        i = j + 1
        if pipes:
            if toks[i].kind == END:
                break
            if not toks[i].is_punct("|") or toks[i + 1].kind == END:
                raise SyntaxErr("%s: fields are separated by '|'" % what, toks[i].col)
            i += 1
        elif toks[i].is_punct("&") or toks[i].is_punct(","):
            if toks[i + 1].kind == END:
                raise SyntaxErr("%s: expected a counter name" % what, toks[i].col)
            i += 1
    return out


def parse_simm(style, tok, col, mnem, ctx):
    """-> (16-bit value, fixup or None); a fixup is (label, column) resolved after layout."""
    inner = strip_lit(tok)
    if inner is not tok and parse_number(inner) is not None:
        if style not in ("hex", "int16", "version"):
            # these operands are expressions for llvm-mc, where lit() is not a thing
            raise SyntaxErr("%s: expected an absolute expression, got %r" % (mnem, tok), col)
        return _simm(inner, col, mnem), None
    if style in ("hex", "int16"):
        return _simm(tok, col, mnem), None
    if style == "opt_dec":
        return _simm(tok, col, mnem, expr=True), None
    if style == "udec":
        if BRANCHES.match(mnem) and parse_number(tok) is None:
            if not _LABEL.match(tok):
                raise SyntaxErr("%s: expected a label or an offset, got %r" % (mnem, tok), col)
            return 0, (tok, col)
        return _simm(tok, col, mnem, expr=True), None
    if parse_number(tok) is not None:
        return _simm(tok, col, mnem, expr=style != "version"), None
    if style == "waitcnt":
        v = 0xFFF7
        fields = {n: (lo, w) for n, lo, w in WAITCNT}
        for name, arg, c in _calls(tok, col, mnem):
            if name not in fields:
                raise SyntaxErr("unknown counter %r (expected vmcnt, expcnt or lgkmcnt)" % name, c)
            lo, w = fields[name]
            n = _int(arg, c, name, 0, (1 << w) - 1)
            v = (v & ~(((1 << w) - 1) << lo)) | n << lo
        return v, None
    if style == "depctr":
        v = 0xFF9F
        fields = {n: (lo, w) for n, lo, w in DEPCTR}
        seen = set()
        for name, arg, c in _calls(tok, col, mnem):
            if name not in fields:
                raise SyntaxErr("unknown dependency counter %r" % name, c)
            if name in seen:
                raise SyntaxErr("duplicate counter name %s" % name, c)
            seen.add(name)
            lo, w = fields[name]
            n = _int(arg, c, name, 0, (1 << w) - 1)
            v = (v & ~(((1 << w) - 1) << lo)) | n << lo
        return v, None
    if style == "delay_alu":
        v = 0
        for name, arg, c in _calls(tok, col, mnem, pipes=True):
            if name in ("instid0", "instid1"):
                if arg not in DELAY_ID:
                    raise SyntaxErr("unknown %s value %r" % (name, arg), c)
                v |= DELAY_ID.index(arg) << (0 if name == "instid0" else 7)
            elif name == "instskip":
                if arg not in DELAY_SKIP:
                    raise SyntaxErr("unknown instskip value %r" % arg, c)
                v |= DELAY_SKIP.index(arg) << 4
            else:
                raise SyntaxErr("unknown s_delay_alu field %r" % name, c)
        return v, None
    if style == "hwreg":
        calls = _calls(tok, col, mnem)
        if len(calls) != 1 or calls[0][0] != "hwreg":
            raise SyntaxErr("expected hwreg(name[, offset, size])", col)
        args = [a.strip() for a in calls[0][1].split(",")]
        if len(args) not in (1, 3):
            raise SyntaxErr("hwreg() takes a register and optionally offset and size", col)
        rid = _HWREG_IDS.get(args[0])
        if rid is None:
            if parse_number(args[0]) is None:
                raise SyntaxErr("unknown hardware register %r" % args[0], col)
            rid = _int(args[0], col, "hwreg id", 0, 63)
        off, size = 0, 32
        if len(args) == 3:
            off = _int(args[1], col, "hwreg offset", 0, 31)
            size = _int(args[2], col, "hwreg size", 1, 32)
        return rid | off << 6 | (size - 1) << 11, None
    if style == "sendmsg":
        calls = _calls(tok, col, mnem)
        if len(calls) != 1 or calls[0][0] != "sendmsg":
            raise SyntaxErr("expected sendmsg(MSG_...)", col)
        args = [a.strip() for a in calls[0][1].split(",")]
        mid = _MSG_IDS.get(args[0])
        if mid is None:
            if parse_number(args[0]) is None:
                raise SyntaxErr("unknown message %r" % args[0], col)
            mid = _int(args[0], col, "message id", 0, 0xFF)
        elif len(args) > 1:
            raise SyntaxErr("message %s does not take an operation" % args[0], col)
        if len(args) > 3:
            raise SyntaxErr("sendmsg() takes at most 3 arguments", col)
        op = _int(args[1], col, "message operation", 0, 7) if len(args) > 1 else 0
        stream = _int(args[2], col, "message stream", 0, 3) if len(args) > 2 else 0
        return mid | op << 4 | stream << 8, None
    if style == "version":
        v = 0
        for part in tok.replace("(", " ").replace(")", " ").split("|"):
            p = part.strip()
            if p in _VERSION_IDS:
                v |= _VERSION_IDS[p]
            elif p in _VERSION_FLAG_IDS:
                v |= _VERSION_FLAG_IDS[p]
            else:
                v |= _int(p, col, mnem)
        return v & 0xFFFF, None
    raise SyntaxErr("unsupported immediate form for %s" % mnem, col)
