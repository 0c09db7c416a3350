"""Shared helpers of the VALU semantics tests: lane arrays, bit views, exact rounding.

References in the tests are computed independently of the library: numpy float64 (exact or
innocuously double-rounded for + - * / sqrt of f16/f32 operands), Python integers, and exact
rationals rounded by `round_fraction` below.
"""
import struct
from fractions import Fraction

import numpy as np

from drivers.emu.amd.shader.valu import VALU, Ctx, FloatMode

W = 2                    # two waves exercise the leading wave axis
LANE = np.tile(np.arange(32, dtype=np.uint32), (W, 1))


def lanes(values, dtype=np.uint32):
    """(W, 32) array cycling through `values` (wave 1 continues where wave 0 stopped)."""
    flat = [values[i % len(values)] for i in range(W * 32)]
    return np.array(flat, dtype=dtype).reshape(W, 32)


def flat(a):
    return [int(v) for v in np.asarray(a).reshape(-1)]


def f32_bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def bits_f32(b):
    return struct.unpack("<f", struct.pack("<I", b))[0]


def f64_bits(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def bits_f64(b):
    return struct.unpack("<d", struct.pack("<Q", b))[0]


def f16_bits(x):
    return int(np.array(x, np.float16).view(np.uint16))


def bits_f16(b):
    return float(np.array(b, np.uint16).view(np.float16))


def ctx(**kw):
    mode = kw.pop("mode", None)
    mode_kw = {k: kw.pop(k) for k in list(kw) if k in FloatMode.__dataclass_fields__}
    return Ctx(mode=mode or FloatMode(**mode_kw), lane=LANE, **kw)


def run(name, srcs, old=None, **kw):
    o = VALU[name]
    if old is None and o.dst_bits:
        old = np.zeros((W, 32), np.uint64 if o.dst_bits == 64 else np.uint32) \
            if o.dst_bits <= 64 else np.zeros((W, o.dst_bits // 32, 32), np.uint32)
    return o.fn(ctx(**kw), srcs, old)


FORMATS = {  # name: (mantissa bits, exponent bias, exponent max field, width)
    "f16": (10, 15, 31, 16), "f32": (23, 127, 255, 32), "f64": (52, 1023, 2047, 64)}


def round_fraction(x, fmt="f32", mode=0):
    """Exact rounding of a rational to the format's bits (denormals, overflow); mode is
    MODE.FP_ROUND: 0 nearest even, 1 toward +inf, 2 toward -inf, 3 toward zero."""
    mant, bias, emax, width = FORMATS[fmt]
    sign = 1 << (width - 1)
    if x == 0:
        return 0
    s = sign if x < 0 else 0
    up = {0: None, 1: x > 0, 2: x < 0, 3: False}[mode]      # round the magnitude up?
    x = abs(x)
    e = x.numerator.bit_length() - x.denominator.bit_length()
    if Fraction(2) ** e > x:
        e -= 1
    e = max(e, 1 - bias)                         # denormals share the minimum exponent
    scaled = x / Fraction(2) ** (e - mant)       # integer part carries mant+1 bits
    q, r = divmod(scaled.numerator, scaled.denominator)
    if up is None:
        q += 2 * r > scaled.denominator or (2 * r == scaled.denominator and q & 1)
    else:
        q += bool(up and r)
    if q >> (mant + 1):                          # rounding carried into a new binade
        q >>= 1
        e += 1
    biased = e + bias if q >> mant else 0
    if biased >= emax:                           # overflow: infinity or the largest finite
        return s | (emax << mant) if up is None or up else s | ((emax << mant) - 1)
    return s | (biased << mant) | (q & ((1 << mant) - 1))


def exact(bits, fmt="f32"):
    """The rational value of finite float bits."""
    f = {"f16": bits_f16, "f32": bits_f32, "f64": bits_f64}[fmt](bits)
    return Fraction(f)
