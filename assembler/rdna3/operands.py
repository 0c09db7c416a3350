"""Operand codes of gfx11 and their text: registers, inline constants, literals.

A scalar operand is an 8-bit code (SGPR, vcc, ttmp, null, m0, exec, constants); a vector source
adds 256..511 for v0..v255. Text follows LLVM's AMDGPU syntax, as llvm-mc-19 prints it.
"""
import re
import struct

LITERAL = 255
DPP8, DPP8FI, DPP16 = 233, 234, 250
VGPR_BASE = 256

# Scalar operand codes with a name of their own (one dword).
_SPECIAL = {106: "vcc_lo", 107: "vcc_hi", 124: "null", 125: "m0", 126: "exec_lo", 127: "exec_hi",
            235: "src_shared_base", 236: "src_shared_limit", 237: "src_private_base",
            238: "src_private_limit", 239: "src_pops_exiting_wave_id", 251: "src_vccz",
            252: "src_execz", 253: "src_scc", 254: "src_lds_direct"}
# Pairs of dwords that have a name of their own.
_SPECIAL64 = {106: "vcc", 126: "exec", 124: "null", 235: "src_shared_base",
              236: "src_shared_limit", 237: "src_private_base", 238: "src_private_limit",
              239: "src_pops_exiting_wave_id", 251: "src_vccz", 252: "src_execz", 253: "src_scc",
              254: "src_lds_direct"}
# Names accepted in source text -> code (the printed names plus LLVM's accepted aliases).
NAMED_CODES = {name: code for code, name in _SPECIAL.items()}
NAMED_CODES.update({"vcc": 106, "exec": 126, "shared_base": 235, "shared_limit": 236,
                    "private_base": 237, "private_limit": 238, "pops_exiting_wave_id": 239,
                    "vccz": 251, "execz": 252, "scc": 253, "lds_direct": 254})
NAMED_WIDTH = {"vcc": 2, "exec": 2}

FLOAT_CODES = {240: 0.5, 241: -0.5, 242: 1.0, 243: -1.0, 244: 2.0, 245: -2.0, 246: 4.0, 247: -4.0}
INV_2PI = 248
# Bit patterns of the float inline constants, per operand float width.
_F16_BITS = {240: 0x3800, 241: 0xB800, 242: 0x3C00, 243: 0xBC00, 244: 0x4000, 245: 0xC000,
             246: 0x4400, 247: 0xC400, 248: 0x3118}
_F32_BITS = {c: struct.unpack("<I", struct.pack("<f", v))[0] for c, v in FLOAT_CODES.items()}
_F32_BITS[248] = 0x3E22F983
_F64_BITS = {c: struct.unpack("<Q", struct.pack("<d", v))[0] for c, v in FLOAT_CODES.items()}
_F64_BITS[248] = 0x3FC45F306DC9C882
INLINE_BITS = {16: _F16_BITS, 32: _F32_BITS, 64: _F64_BITS}


def sgpr_text(code, nregs=1):
    """Text of a scalar register operand of nregs dwords starting at `code`, or None."""
    if nregs == 1:
        if code <= 105:
            return "s%d" % code
        if 108 <= code <= 123:
            return "ttmp%d" % (code - 108)
        return _SPECIAL.get(code)
    if code <= 105:
        return "s[%d:%d]" % (code, code + nregs - 1)
    if code >= 235 or code == 124:
        return _SPECIAL.get(code)
    if 108 <= code <= 123:
        return "ttmp[%d:%d]" % (code - 108, code - 108 + nregs - 1)
    return _SPECIAL64.get(code) if nregs == 2 else None


def vgpr_text(n, nregs=1):
    return "v%d" % n if nregs == 1 else "v[%d:%d]" % (n, n + nregs - 1)


def inline_text(code, fbits):
    """Text of an inline constant code (128..208, 240..248) for an operand of `fbits` float
    width (64 prints 1/(2*pi) with double precision)."""
    if 128 <= code <= 192:
        return str(code - 128)
    if 193 <= code <= 208:
        return str(192 - code)
    if code == INV_2PI:
        return "0.15915494309189532" if fbits == 64 else "0.15915494"
    return repr(FLOAT_CODES[code])


_SIMPLE_REG = re.compile(r"^(v|s|ttmp)(?:(\d+)|\[(\d+):(\d+)\])$", re.ASCII)
# names llvm-mc knows but gfx11 does not have (refused as registers, not read as symbols)
_UNAVAILABLE = frozenset(("flat_scratch", "flat_scratch_lo", "flat_scratch_hi", "xnack_mask",
                          "xnack_mask_lo", "xnack_mask_hi", "tba", "tba_lo", "tba_hi", "tma",
                          "tma_lo", "tma_hi", "pc", "pops_exiting_wave_id",
                          "src_pops_exiting_wave_id"))
_REFUSED = {}     # names refused wherever they appear (vccz/execz are checked at their use)
VCCZ_EXECZ = frozenset((251, 252))
_PREFIXES = (("v", "v"), ("s", "s"), ("ttmp", "ttmp"), ("acc", "a"), ("a", "a"))


def _regular_prefix(name):
    for pre, kind in _PREFIXES:
        if name.startswith(pre):
            return pre, kind
    return None, None


def is_register_name(name, bracket):
    """llvm's isRegister: a special name, a regular name with an index, or a regular prefix
    followed by '['."""
    if name in NAMED_CODES or name in _UNAVAILABLE:
        return True
    pre, _ = _regular_prefix(name)
    if pre is None:
        return False
    suffix = name[len(pre):]
    if not suffix:
        return bracket
    if suffix.endswith((".l", ".h")):
        suffix = suffix[:-2]
    return suffix.isascii() and suffix.isdigit()


def parse_register(tok):
    """'v4' / 'v[4:7]' / 's[2:3]' / 'ttmp[4:5]' / 'vcc' / '[s0,s1]' / 'v[1+1]' ... ->
    ('v', number, nregs) or ('s', operand code, nregs); None when `tok` is not a register.
    Raises ValueError on a register llvm-mc refuses (malformed, misaligned, out of range, not on
    gfx11)."""
    m = _SIMPLE_REG.match(tok)
    if m is not None:
        pre = m.group(1)
        if m.group(2) is not None:
            return _check(pre, int(m.group(2)), 1, 108 if pre == "ttmp" else 0)
        lo, hi = int(m.group(3)), int(m.group(4))
        if hi < lo:
            raise ValueError("register range %r ends before it starts" % tok)
        return _check(pre, lo, hi - lo + 1, 108 if pre == "ttmp" else 0)
    if tok in _UNAVAILABLE:
        raise ValueError("register %s is not available on gfx11" % tok)
    code = NAMED_CODES.get(tok)
    if code is not None:
        if tok in _REFUSED:
            raise ValueError(_REFUSED[tok])
        return "s", code, NAMED_WIDTH.get(tok, 1)
    from .lexer import END, Cursor, LexError, tokenize
    try:
        cur = Cursor(tokenize(tok))
        r = _parse_tokens(cur, tok)
    except LexError as e:
        raise ValueError(e.reason) from None
    if r is not None and cur.tok.kind != END:
        raise ValueError("unexpected %r after register %s" % (cur.tok.text, tok))
    return r


def _parse_tokens(cur, text):
    from .lexer import IDENT, LexError
    t = cur.tok
    if t.is_punct("["):                                   # [s0, s1, s2]: consecutive registers
        cur.next()
        regs = []
        while True:
            r = _parse_tokens(cur, text)
            if r is None:
                raise ValueError("expected a register or a list of registers")
            if r[2] != 1:
                raise ValueError("expected a single 32-bit register in a register list")
            regs.append(r)
            if cur.skip(","):
                continue
            cur.expect("]", "expected a comma or a closing square bracket")
            break
        kind, first, _ = regs[0]
        for i, r in enumerate(regs):
            if r[0] != kind:
                raise ValueError("registers in a list must be of the same kind")
            if r[1] != first + i:
                raise ValueError("registers in a list must have consecutive indices")
        if kind == "s" and first >= 106 and not 108 <= first <= 123:
            raise ValueError("special registers cannot form a register list")
        base = 108 if kind == "s" and first >= 108 else 0
        return _check("v" if kind == "v" else ("ttmp" if base else "s"), first - base, len(regs),
                      base)
    if t.kind != IDENT:
        return None
    name = t.text
    if not is_register_name(name, cur.peek().is_punct("[")):
        return None
    cur.next()
    if name in _UNAVAILABLE:
        raise ValueError("register %s is not available on gfx11" % name)
    if name in _REFUSED:
        raise ValueError(_REFUSED[name])
    if name in NAMED_CODES:
        return "s", NAMED_CODES[name], NAMED_WIDTH.get(name, 1)
    pre, kind = _regular_prefix(name)
    if kind == "a":
        raise ValueError("gfx11 has no AGPRs (%s)" % name)
    suffix = name[len(pre):]
    base = 108 if pre == "ttmp" else 0
    if suffix:
        if suffix.endswith((".l", ".h")):
            raise ValueError("a 16-bit register half (%s) is not a 32-bit operand" % name)
        return _check(pre, int(suffix), 1, base)
    cur.expect("[", "missing register index")
    try:
        lo = cur.expression()
        hi = cur.expression() if cur.skip(":") else lo
    except LexError:
        raise
    except Exception:
        raise ValueError("register index of %r is not a constant" % text) from None
    cur.expect("]", "expected a closing square bracket")
    if not (0 <= lo < 1 << 32) or not (0 <= hi < 1 << 32):
        raise ValueError("invalid register index")
    if lo > hi:
        raise ValueError("first register index should not exceed second index")
    return _check(pre, lo, hi - lo + 1, base)


_SGPR_WIDTHS = frozenset((1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 16))
_TTMP_WIDTHS = frozenset((1, 2, 4, 8, 16))
_VGPR_WIDTHS = frozenset((1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 16, 32))


def _check(pre, n, nregs, base):
    if pre == "v":
        if nregs not in _VGPR_WIDTHS:
            raise ValueError("invalid or unsupported register size (%d VGPRs)" % nregs)
        if n + nregs > 256:
            raise ValueError("register v%d%s out of range" % (n, "" if nregs == 1 else " (+%d)" % (nregs - 1)))
        return "v", n, nregs
    if nregs not in (_TTMP_WIDTHS if pre == "ttmp" else _SGPR_WIDTHS):
        raise ValueError("invalid or unsupported register size (%d %s)" % (nregs, pre.upper()))
    align = min(1 << (nregs - 1).bit_length(), 4)
    if n % align:
        raise ValueError("misaligned register range %s[%d:%d]: a %d-register %s tuple must start "
                         "at a multiple of %d" % (pre, n, n + nregs - 1, nregs, "TTMP" if pre ==
                                                  "ttmp" else "SGPR", align))
    limit = 16 if pre == "ttmp" else 106
    if n + nregs > limit:
        raise ValueError("register %s%d%s out of range" % (pre, n, "" if nregs == 1 else " (+%d)" % (nregs - 1)))
    return "s", base + n, nregs
