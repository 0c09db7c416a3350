"""Raw register bits <-> typed lanes: halves, sign extension, float views.

A 32-bit operand is uint32 (W, 32) holding the register bits; 64-bit operands are uint64. Every
helper here is pure bit manipulation; float semantics live in fp.py.
"""
import numpy as np

U16, U32, U64 = np.uint16, np.uint32, np.uint64
SIGN16, SIGN32, SIGN64 = 0x8000, 0x80000000, 1 << 63


def u32(x):
    return np.asarray(x).astype(U32)


def half(x, high):
    """The 16-bit half of a 32-bit register (high half when `high`)."""
    return ((x >> U32(16)) if high else x).astype(U16)


def src_half(ctx, srcs, i):
    """16-bit source i as selected by VOP3 op_sel bit i."""
    return half(srcs[i], ctx.opsel >> i & 1)


def write_half(ctx, old, value16):
    """A 16-bit result merged into the destination: op_sel bit 3 picks the half, the other half
    keeps its old content (gfx10+ 16-bit VALU ops preserve the unwritten half)."""
    v = value16.astype(U32) & U32(0xFFFF)
    if ctx.opsel >> 3 & 1:
        return (old & U32(0xFFFF)) | (v << U32(16))
    return (old & U32(0xFFFF0000)) | v


def pack16(lo, hi):
    return (lo.astype(U32) & U32(0xFFFF)) | (hi.astype(U32) << U32(16))


def i16(x16):
    return x16.astype(U16).view(np.int16)


def i32(x):
    return x.astype(U32).view(np.int32)


def i64(x):
    return x.astype(U64).view(np.int64)


def sext(value, bits):
    """Sign-extend the low `bits` bits of an unsigned array to int64."""
    v = value.astype(np.int64) & ((1 << bits) - 1)
    return np.where(v >> (bits - 1) & 1, v - (1 << bits), v)


def byte(x, k):
    return (x >> U32(8 * k)) & U32(0xFF)


def lo32(x64):
    return (x64 & U64(0xFFFFFFFF)).astype(U32)


def hi32(x64):
    return (x64 >> U64(32)).astype(U32)


def join64(lo, hi):
    return lo.astype(U64) | (hi.astype(U64) << U64(32))


def f32(bits):
    return bits.astype(U32).view(np.float32)


def f16(bits16):
    return bits16.astype(U16).view(np.float16)


def f64(bits):
    return bits.astype(U64).view(np.float64)


def bits_of(x):
    """The raw bits of a float array as the unsigned type of the same width."""
    return x.view({2: U16, 4: U32, 8: U64}[x.dtype.itemsize])


def bf16_to_f32(bits16):
    return (bits16.astype(U32) << U32(16)).view(np.float32)


_BITWISE_COUNT = getattr(np, "bitwise_count", None)      # numpy >= 2.0


def popcount(x):
    """Set bits of each unsigned integer (up to 64 bits wide), as int64."""
    if _BITWISE_COUNT is not None:
        return _BITWISE_COUNT(np.asarray(x).astype(U64, copy=False)).astype(np.int64)
    v = x.astype(U64)
    v = v - ((v >> U64(1)) & U64(0x5555555555555555))
    v = (v & U64(0x3333333333333333)) + ((v >> U64(2)) & U64(0x3333333333333333))
    v = (v + (v >> U64(4))) & U64(0x0F0F0F0F0F0F0F0F)
    return ((v * U64(0x0101010101010101)) >> U64(56)).astype(np.int64)
