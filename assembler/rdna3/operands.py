"""Operand codes of gfx11 and their text: registers, inline constants, literals.

A scalar operand is an 8-bit code (SGPR, vcc, ttmp, null, m0, exec, constants); a vector source
adds 256..511 for v0..v255. Text follows LLVM's AMDGPU syntax, as llvm-mc-19 prints it.
"""
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


def parse_register(tok):
    """'v4' / 'v[4:7]' / 's[2:3]' / 'ttmp[4:5]' / 'vcc' / 'exec_lo' / 'm0' ... ->
    ('v', number, nregs) or ('s', operand code, nregs); None when `tok` is not a register.
    Raises AssemblerError-worthy ValueError on a malformed range."""
    t = tok
    c = t[:1]
    if c in ("v", "s", "t"):
        if c == "t":
            if not t.startswith("ttmp"):
                return None
            pre, rest, base = "ttmp", t[4:], 108
        else:
            pre, rest, base = c, t[1:], 0
        if rest.isascii() and rest.isdigit():
            n = int(rest)
            return _check(pre, n, 1, base)
        if rest[:1] == "[" and rest[-1:] == "]":
            lo, sep, hi = rest[1:-1].partition(":")
            lo, hi = lo.strip(), (hi.strip() if sep else lo.strip())
            if not (lo.isascii() and hi.isascii() and lo.isdigit() and hi.isdigit()):
                raise ValueError("malformed register range %r" % tok)
            lo, hi = int(lo), int(hi)
            if hi < lo:
                raise ValueError("register range %r ends before it starts" % tok)
            return _check(pre, lo, hi - lo + 1, base)
    code = NAMED_CODES.get(t)
    if code is not None and code < 128:
        return "s", code, NAMED_WIDTH.get(t, 1)
    return None


def _check(pre, n, nregs, base):
    limit = {"v": 256, "s": 106, "ttmp": 16}[pre]
    if n + nregs > limit:
        raise ValueError("register %s%d%s out of range"
                         % (pre, n, "" if nregs == 1 else " (+%d)" % (nregs - 1)))
    if nregs > 1 and pre != "v" and n % min(nregs, 4):
        raise ValueError("misaligned register range %s[%d:%d]: a %d-register %s tuple must start "
                         "at a multiple of %d" % (pre, n, n + nregs - 1, nregs, pre.upper() if pre
                                                  == "ttmp" else "SGPR", min(nregs, 4)))
    return ("v", n, nregs) if pre == "v" else ("s", base + n, nregs)
