"""Parse the 16-bit immediates of SOPP/SOPK text: numbers, labels and symbolic forms
(s_waitcnt counters, s_delay_alu, s_waitcnt_depctr, hwreg(), sendmsg(), s_version names)."""
import re

from .constants import parse_number
from .simm import DELAY_ID, DELAY_SKIP, DEPCTR, VERSION_FLAGS, WAITCNT
from .syntax import SyntaxErr
from .tables import HWREG_NAMES, SENDMSG_NAMES, VERSION_NAMES

_HWREG_IDS = {v: k for k, v in HWREG_NAMES.items()}
_MSG_IDS = {v: k for k, v in SENDMSG_NAMES.items()}
_VERSION_IDS = {v: k for k, v in VERSION_NAMES.items()}
_VERSION_FLAG_IDS = {name: bit for bit, name in VERSION_FLAGS}
_CALL = re.compile(r"\s*([A-Za-z_]\w*)\s*\(\s*([^()]*)\)\s*")
BRANCHES = re.compile(r"^s_(branch|cbranch_\w+|call_b64)$")
_LABEL = re.compile(r"^[A-Za-z_.$][\w.$]*$")


def _int(text, col, what, lo=-0x8000, hi=0xFFFF):
    num = parse_number(text)
    if num is None or num[1]:
        raise SyntaxErr("%s: expected an integer, got %r" % (what, text), col)
    if not lo <= num[0] <= hi:
        raise SyntaxErr("%s: value %d out of range [%d, %d]" % (what, num[0], lo, hi), col)
    return num[0]


def _calls(text, col, what):
    """'a(1) b(2) & c(3)' -> [(name, arg, col)]; separators: blanks, '&', ','."""
    out, pos = [], 0
    while pos < len(text):
        ch = text[pos]
        if ch in " \t&,|":
            pos += 1
            continue
        m = _CALL.match(text, pos)
        if not m:
            raise SyntaxErr("%s: cannot parse %r" % (what, text[pos:]), col + pos)
        out.append((m.group(1), m.group(2).strip(), col + pos))
        pos = m.end()
    return out


def parse_simm(style, tok, col, mnem, ctx):
    """-> (16-bit value, fixup or None); a fixup is (label, column) resolved after layout."""
    if style in ("hex", "int16", "opt_dec"):
        return _int(tok, col, mnem) & 0xFFFF, None
    if style == "udec":
        if BRANCHES.match(mnem) and parse_number(tok) is None:
            if not _LABEL.match(tok):
                raise SyntaxErr("%s: expected a label or an offset, got %r" % (mnem, tok), col)
            return 0, (tok, col)
        return _int(tok, col, mnem) & 0xFFFF, None
    if parse_number(tok) is not None:
        return _int(tok, col, mnem) & 0xFFFF, None
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
        for name, arg, c in _calls(tok, col, mnem):
            if name not in fields:
                raise SyntaxErr("unknown dependency counter %r" % name, c)
            lo, w = fields[name]
            n = _int(arg, c, name, 0, (1 << w) - 1)
            v = (v & ~(((1 << w) - 1) << lo)) | n << lo
        return v, None
    if style == "delay_alu":
        v = 0
        for name, arg, c in _calls(tok, col, mnem):
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
