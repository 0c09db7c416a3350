"""Source constants in assembly text -> an inline constant code or a literal, as llvm-mc-19 does.

A constant is an integer (a 64-bit value) or a real (a double), per lexer.py. How it becomes an
operand follows llvm-mc in two steps, per operand type (`dtype`, learned by
scripts/gen_rdna3_tables.py):

1. acceptance: an operand takes a constant that is an inline value of its type, or (where the
   encoding has a literal) a literal: an integer must fit the operand width (signed or unsigned;
   64-bit operands take 32-bit literals), a real must convert to the operand's float format
   without overflow or underflow (precision may be lost);
2. value: in encodings without source-modifier bits (VOP1/2/C e32), neg()/abs() of a constant
   flip/clear the sign bit of its bits (bit 63 of a real's double, else the operand's top bit);
   integers that are inline values after truncation to the operand width take the inline code
   (0xfffffff0 is -16 for a 32-bit operand, not for a 16-bit one); reals are rounded to the
   operand's format; a 64-bit float operand's literal is the high dword.

dtype: b32 / i32 (32-bit), f16, bf16, i16 (16-bit; integers inline only from -16..64, reals
read as f32), pf16 / pbf16 (packed 16-bit: an integer literal fills the dword), f64, i64.
"""
import struct

from .lexer import END, REAL, Cursor, LexError, Unresolved, plain_number, real_value, tokenize
from .operands import INLINE_BITS

M32, M64 = 0xFFFFFFFF, (1 << 64) - 1
_F32 = {bits: code for code, bits in INLINE_BITS[32].items()}
_F16 = {bits: code for code, bits in INLINE_BITS[16].items()}
_F64 = {bits: code for code, bits in INLINE_BITS[64].items()}
_BF16 = {0x3F00: 240, 0xBF00: 241, 0x3F80: 242, 0xBF80: 243, 0x4000: 244, 0xC000: 245,
         0x4080: 246, 0xC080: 247, 0x3E22: 248}
_SIZE = {"b32": 4, "i32": 4, "f16": 2, "bf16": 2, "i16": 2, "pf16": 4, "pbf16": 4, "pf16v": 4,
         "pbf16v": 4, "i16d": 2, "bf16d": 2, "f64": 8, "i64": 8}


class ConstError(ValueError):
    """The constant cannot be encoded for this operand (message says why)."""


def parse_number(tok):
    """'12', '-0x1f', '1.5', '-4.0', '1e3', '(1<<4)', '017' -> (value, is_float) or None, read
    the way llvm-mc reads them (lexer.py)."""
    num = plain_number(tok.strip())
    if num is not None:
        return num
    try:
        toks = tokenize(tok.strip())
        cur = Cursor(toks)
        if cur.at("-") and cur.peek().kind == REAL or cur.tok.kind == REAL:
            neg = cur.skip("-")
            t = cur.next()
            if cur.tok.kind != END:
                return None
            v = real_value(t.text)
            return (-v if neg else v), True
        v = cur.expression()
        if cur.tok.kind != END:
            return None
        return v, False
    except (LexError, Unresolved, ValueError):
        return None


def strip_lit(tok):
    """'lit(x)' -> 'x': llvm-mc-19 parses the lit() wrapper on immediates (on gfx11 it changes
    nothing: an inline value stays inline)."""
    t = tok.strip()
    if t.startswith("lit") and t[3:].lstrip().startswith("(") and t.endswith(")"):
        return t[3:].lstrip()[1:-1]
    return tok


# ---- float formats ----------------------------------------------------------------------------

# name: (explicit mantissa bits, exponent bits)
_FORMATS = {"f16": (10, 5), "bf16": (7, 8), "f32": (23, 8), "f64": (52, 11)}


def convert(x, fmt):
    """Round the double x to format fmt (nearest even) -> (bits, inexact, overflow, underflow),
    the status APFloat reports (underflow: an inexact result below the normal range)."""
    mant, ebits = _FORMATS[fmt]
    width = 1 + ebits + mant
    bias = (1 << (ebits - 1)) - 1
    emax = (1 << ebits) - 1
    sign = 1 << (width - 1)
    if x != x:                                              # NaN: quiet, payload truncated
        return ((emax << mant) | (1 << (mant - 1))) | (sign if str(x)[0] == "-" else 0), False, \
            False, False
    s = sign if (x < 0 or (x == 0 and str(x)[0] == "-")) else 0
    x = abs(x)
    if x == float("inf"):
        return s | (emax << mant), False, False, False
    if x == 0:
        return s, False, False, False
    num, den = x.as_integer_ratio()
    e = num.bit_length() - den.bit_length()
    if (num << max(0, -e)) < (den << max(0, e)):
        e -= 1
    e = max(e, 1 - bias)                                    # denormals share the minimum exponent
    shift = mant - e                                        # scaled = x * 2**shift
    if shift >= 0:
        q, r = divmod(num << shift, den)
        d = den
    else:
        q, r = divmod(num, den << -shift)
        d = den << -shift
    inexact = r != 0
    if 2 * r > d or (2 * r == d and q & 1):
        q += 1
    if q >> (mant + 1):
        q >>= 1
        e += 1
    biased = e + bias if q >> mant else 0
    if biased >= emax:
        return s | (emax << mant), True, True, False
    bits = s | (biased << mant) | (q & ((1 << mant) - 1))
    return bits, inexact, False, inexact and biased == 0


def _lossless(x, fmt):
    """llvm-mc's rule: precision may be lost, but not by overflow or underflow."""
    _, inexact, over, under = convert(x, fmt)
    return not (inexact and (over or under))


def _double_bits(x):
    return convert(x, "f64")[0]


def _sext(v, bits):
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


def _safe(v, bits):
    return -(1 << (bits - 1)) <= v < (1 << bits)


def _int_inline(v):
    return 128 + v if 0 <= v <= 64 else (192 - v if -16 <= v <= -1 else None)


def _inline32(v):
    """The inline code of a 32-bit pattern (integer or f32 constant), or None."""
    code = _int_inline(_sext(v, 32))
    return code if code is not None else _F32.get(v & M32)


def _inline64(v):
    code = _int_inline(_sext(v, 64))
    return code if code is not None else _F64.get(v & M64)


def _inline16(v, dtype):
    code = _int_inline(_sext(v, 16))
    if code is not None:
        return code
    return (_BF16 if dtype in ("bf16", "pbf16") else _F16).get(v & 0xFFFF)


# ---- acceptance --------------------------------------------------------------------------------

# Reals, per operand type: the IEEE format llvm-mc checks for a lossless conversion (no overflow
# or underflow) before testing for an inline value, the format whose bits it tests, and the
# format it checks a literal against. The packed pairs of VOP3 forms ('v' types) test the f16
# bits of the single-rounded value (so 1e-6 is the integer inline constant 17 there).
_REAL_RULES = {
    "b32": ("f32", "f32", "f32"), "i32": ("f32", "f32", "f32"), "i16": ("f16", "f32", "f16"),
    "f16": ("f16", "f16", "f16"), "bf16": ("f16", "bf16", "f16"),
    "pf16": ("f16", "f16", "f16"), "pbf16": ("f32", "bf16", "f32"),
    "pf16v": ("f32", "f16", "f16"), "pbf16v": ("f32", "f16", "f16"),
}
_PACKED = frozenset(("pf16", "pbf16", "pf16v", "pbf16v"))
# 16-bit sources of VOP3 DPP forms: llvm-mc-19 checks them as inline constants of another type
# (i16d: a 32-bit integer, bf16d: f16) and encodes them as their own type (i16, bf16), so a
# value can pass and then need a literal, which the DPP form drops (code 255, no dword)
_DPP_PROXY = {"i16d": "b32", "bf16d": "f16"}
_HALF16 = frozenset(("f16", "bf16", "i16"))


def _inline16_of(bits, dtype):
    """An f16/bf16 bit pattern tested the way the operand type tests it (i16: f32 bits)."""
    if dtype == "i16":
        return _inline32(bits) is not None
    if dtype in ("pbf16", "bf16"):
        return _inline16(bits, "bf16") is not None
    return _inline16(bits, "f16") is not None


def is_inline(value, is_float, dtype):
    """llvm's isInlinableImm for an operand of type dtype (before modifiers). i16d: a 16-bit
    integer source of a VOP3 DPP form, which llvm-mc matches as a 32-bit inline operand."""
    if dtype in _DPP_PROXY:
        dtype = _DPP_PROXY[dtype]
    if dtype in ("f64", "i64"):
        return _inline64(_double_bits(value) if is_float else value) is not None
    if is_float:
        check, test, _ = _REAL_RULES[dtype]
        if not _lossless(value, check):
            return False
        x = value
        if check == "f32":                       # llvm holds the value rounded to single now
            x = struct.unpack("<f", struct.pack("<I", convert(value, "f32")[0]))[0]
        elif check == "f16" and test != "f16":   # ... or to half
            x = float(struct.unpack("<e", struct.pack("<H", convert(value, "f16")[0]))[0])
        bits = convert(x, test)[0]
        if test == "f32":
            return _inline32(bits) is not None
        return _inline16_of(bits, dtype)
    if dtype in _HALF16 or dtype in _PACKED:
        if not _safe(value, 16):
            return False
        if dtype == "i16":
            return _int_inline(_sext(value, 16)) is not None
        return _inline16(value, "bf16" if "bf16" in dtype else "f16") is not None
    return _safe(value, 32) and _inline32(value) is not None


def is_literal(value, is_float, dtype, fp_mods=False):
    """llvm's isLiteralImm: can the constant be a literal of this operand type?"""
    if dtype in _DPP_PROXY:
        return False
    if not is_float:
        if dtype == "f64" and fp_mods:
            return False               # neg/abs of an integer: ambiguous between e32 and VOP3
        return _safe(value, 16 if dtype in _HALF16 else 32)
    if dtype == "f64":
        return True
    if dtype == "i64":
        return False
    return _lossless(value, _REAL_RULES[dtype][2])


# ---- encoding ----------------------------------------------------------------------------------

def encode_constant(value, is_float, dtype, neg=False, abs_=False, literal_ok=True, inline_ok=True,
                    fp_mods=False):
    """-> (operand code, literal dword or None) for a constant of type `dtype`.
    neg/abs_: source modifiers folded into the constant (encodings without modifier bits);
    fp_mods: neg/abs present but kept as modifier bits; literal_ok False: the operand takes no
    literal; inline_ok False: llvm-mc matches the operand as a literal-capable one only (an e32
    operand that carries modifiers)."""
    fp_mods = fp_mods or neg or abs_
    ok = (inline_ok and is_inline(value, is_float, dtype)) or (
        literal_ok and is_literal(value, is_float, dtype, fp_mods))
    if not ok:
        if is_float:
            raise ConstError("floating-point constant %r does not fit this operand (overflow, "
                             "underflow, or no literal allowed here)" % value)
        if not literal_ok or not inline_ok:
            raise ConstError("constant %d is not %s" % (value, "an inline constant (no literal "
                             "here)" if not literal_ok else "a literal this encoding takes"))
        width = 16 if dtype in _HALF16 else 32
        raise ConstError("literal %s does not fit in %d bits" % (hex(value) if value >= 0 else value,
                                                                 width))
    v = _double_bits(value) if is_float else value
    size = 8 if is_float else _SIZE[dtype]
    if neg or abs_:
        sign = 1 << (size * 8 - 1)
        v &= M64
        if abs_:
            v &= ~sign
        if neg:
            v ^= sign
        v = v - (1 << 64) if v >> 63 else v
    return _encode_value(v, is_float, dtype)


def _encode_value(v, is_float, dtype):
    """The MCOperand value llvm's parser makes (v: an int64, or a real's double bits), then the
    code its emitter picks for that value."""
    if dtype in ("f64", "i64"):
        if _inline64(v) is not None:
            m = v
        elif is_float:
            m = v & 0xFFFFFFFF00000000                     # the low dword cannot be encoded
        elif _safe(v, 32):
            m = (v << 32) & M64 if dtype == "f64" else v & M32
        else:
            m = v
        code = _inline64(m)
        if code is not None:
            return code, None
        return 255, ((m & M64) >> 32) if dtype == "f64" else m & M32
    if is_float:
        x = _bits_double(v)
        if dtype in ("bf16", "pbf16", "pbf16v", "bf16d"):
            m = 0x3E22 if v & M64 == 0x3FC45F306725FEED else convert(x, "bf16")[0]
        elif dtype in ("f16", "pf16", "pf16v"):
            m = convert(x, "f16")[0]
        else:                                              # 32-bit and i16 operands: f32 bits
            m = convert(x, "f32")[0]
    elif dtype in ("i16", "i16d"):
        m = v & M32 if _safe(v, 16) and _int_inline(_sext(v, 16)) is not None else v & 0xFFFF
    elif dtype in ("f16", "bf16", "bf16d"):
        dt = "bf16" if dtype == "bf16d" else dtype
        m = v if _safe(v, 16) and _inline16(v, dt) is not None else v & 0xFFFF
    else:
        m = v if _safe(v, 32) and _inline32(v) is not None else v & M32
    # the emitter's choice from the value
    if dtype in ("f16", "bf16", "bf16d"):
        code = _inline16(m, "bf16" if dtype == "bf16d" else dtype)
        return (code, None) if code is not None else (255, m & 0xFFFF)
    if dtype in _PACKED:
        code = _int_inline(_sext(m, 32))
        if code is None:
            code = (_BF16 if "bf16" in dtype else _F16).get(m & M32)
        return (code, None) if code is not None else (255, m & M32)
    code = _inline32(m)
    return (code, None) if code is not None else (255, m & M32)


def _bits_double(v):
    return struct.unpack("<d", (v & M64).to_bytes(8, "little"))[0]


def literal_bits(value, is_float, dtype):
    """A mandatory literal (the K of v_fmamk/v_fmaak, s_setreg_imm32): reals are rounded to the
    operand's format; integers keep the low 32 (16) bits, as llvm-mc's KIMM operands do."""
    if is_float:
        fmt = "f16" if dtype in ("f16", "pf16") else "f32"
        if not _lossless(value, fmt):
            raise ConstError("floating-point constant %r does not fit a %s literal" % (value, fmt))
        return convert(value, fmt)[0]
    if not _safe(value, 16 if dtype in ("f16", "pf16") else 32):
        raise ConstError("literal %d does not fit in %d bits" % (value, 16 if dtype in (
            "f16", "pf16") else 32))
    return value & (0xFFFF if dtype in ("f16", "pf16") else M32)
