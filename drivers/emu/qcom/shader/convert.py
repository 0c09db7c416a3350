"""Numbers in ir3 registers: the #type enum, bit patterns <-> values, conversions with rounding.

Float arithmetic is done in float64 and rounded once to the destination precision, which for
one add, multiply, compare or conversion of f32/f16 operands is the correctly rounded IEEE
result (f64 holds every exact product of two f32). Denormals are kept, NaNs propagate.
"""
import numpy as np

# #type: cat1/cat6 TYPE field
F16, F32, U16, U32, S16, S32, U8, U8_32 = range(8)
TYPE_NAMES = ("f16", "f32", "u16", "u32", "s16", "s32", "u8", "u8_32")
# Read and written as half registers (u8_32 is a byte in a full register: loads only)
HALF_TYPES = (F16, U16, S16, U8)
FLOAT_TYPES = (F16, F32)
SIGNED = (S16, S32)
WIDTH = {F16: 16, F32: 32, U16: 16, U32: 32, S16: 16, S32: 32, U8: 8, U8_32: 8}

# #round (cat1 ROUND): 0 toward zero, 1 to nearest even, 2 toward +inf, 3 toward -inf
RTZ, RNE, RUP, RDN = range(4)


def as_float(bits, half):
    """Register bits (uint16 for half, uint32 for full) -> float64 values."""
    return bits.view(np.float16 if half else np.float32).astype(np.float64)


def to_bits(values, half):
    """float64 -> f16/f32 (round to nearest even) -> register bits."""
    return values.astype(np.float16 if half else np.float32).view(np.uint16 if half else np.uint32)


def round_float(values, half, mode=RNE):
    """float64 -> f16/f32 bits with one of the four #round modes."""
    dtype = np.float16 if half else np.float32
    with np.errstate(all="ignore"):
        near = values.astype(dtype)
        if mode != RNE:
            back = near.astype(np.float64)
            fin = np.isfinite(values)
            if mode == RTZ:
                fix = fin & (np.abs(back) > np.abs(values))
                near = np.where(fix, np.nextafter(near, dtype(0)), near)
            elif mode == RUP:
                near = np.where(fin & (back < values), np.nextafter(near, dtype(np.inf)), near)
            else:
                near = np.where(fin & (back > values), np.nextafter(near, dtype(-np.inf)), near)
    return near.view(np.uint16 if half else np.uint32)


def value_of(bits, type_):
    """Register bits of ``type_`` -> float64 (floats) or int64 (integers)."""
    if type_ == F16:
        return bits.astype(np.uint16).view(np.float16).astype(np.float64)
    if type_ == F32:
        return bits.astype(np.uint32).view(np.float32).astype(np.float64)
    if type_ == U16:
        return (bits & 0xFFFF).astype(np.int64)
    if type_ == U32:
        return bits.astype(np.int64) & 0xFFFFFFFF
    if type_ == S16:
        return (bits & 0xFFFF).astype(np.uint16).view(np.int16).astype(np.int64)
    if type_ == S32:
        return bits.astype(np.uint32).view(np.int32).astype(np.int64)
    return (bits & 0xFF).astype(np.int64)                  # u8, u8_32


def convert(bits, src, dst, mode=RTZ):
    """cov: ``bits`` of type ``src`` -> bits of type ``dst`` (uint16 for half types)."""
    half = dst in HALF_TYPES
    if src == dst:
        return bits.astype(np.uint16 if half else np.uint32)
    v = value_of(bits, src)
    if dst in FLOAT_TYPES:
        return round_float(v.astype(np.float64), dst == F16, mode)
    width = WIDTH[dst]
    if src in FLOAT_TYPES:
        with np.errstate(all="ignore"):
            r = (np.trunc, np.rint, np.ceil, np.floor)[mode](v)
            lo, hi = (-(1 << (width - 1)), (1 << (width - 1)) - 1) if dst in SIGNED else (0, (1 << width) - 1)
            r = np.where(np.isnan(r), 0, np.clip(r, lo, hi)).astype(np.int64)
    else:
        r = v
    out = r & ((1 << width) - 1)
    return out.astype(np.uint16 if half else np.uint32)
