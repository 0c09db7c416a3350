"""Conversions between f16 / f32 / f64 / integers, normalized and packed forms.

ISA rules: float -> int truncates toward zero, saturates out-of-range values (and infinities) and
turns NaN into 0; v_cvt_nearest_i32_f32 is floor(S0 + 0.5) (the add in f32), v_cvt_floor_i32_f32
is floor(S0); float -> float narrowing and int -> float round per MODE.FP_ROUND of the
destination type (v_cvt_pk_rtz_f16_f32: always toward zero) and make denormals of the
destination type, flushed when MODE drops them; *_norm_* scale a value
clamped to [-1, 1] / [0, 1] by 32767 / 65535 and round to nearest even.
"""
import numpy as np

from .bits import U16, U32, byte, half, i16, i32, pack16
from . import fp_round
from .fp import F16, F32, finish, neg_abs
from .ctx import ROUND_MINUS_INF, ROUND_NEAREST_EVEN, ROUND_PLUS_INF, ROUND_TOWARD_ZERO
from .fp_round import narrow, round_mode
from .kinds import K16, K32, K64
from .registry import op


def to_int(x, lo, hi):
    """Truncate toward zero and saturate to [lo, hi]; NaN -> 0 (returns int64)."""
    t = x.astype(np.float64)                      # a copy, worked on in place
    np.trunc(t, out=t)
    np.minimum(t, hi, out=t)                      # a NaN stays NaN through both
    np.maximum(t, lo, out=t)
    nan = np.isnan(t)
    if np.count_nonzero(nan):
        t[nan] = 0
    return t.astype(np.int64)


def to_int_rne(x, lo, hi):
    t = np.rint(np.where(np.isnan(x), 0, x).astype(np.float64))
    return np.clip(t, lo, hi).astype(np.int64)


def _int_result(v, dtype):
    return v.astype(dtype).view(U32) if np.dtype(dtype).itemsize == 4 else v.astype(dtype)


# ---- float -> 32-bit integer -----------------------------------------------------------------

def _f2i(name, kind, lo, hi, pre=None):
    @op(name, (kind.reg_bits,), 32)
    def run(ctx, srcs, old):
        x = kind.read(ctx, srcs, 0)
        if pre is not None:
            with np.errstate(all="ignore"):
                x = pre(ctx, x)
        return to_int(x, lo, hi).astype(U32)        # integer casts keep the low 32 bits
    return run


_f2i("v_cvt_i32_f32", K32, -2**31, 2**31 - 1)
_f2i("v_cvt_u32_f32", K32, 0, 2**32 - 1)
_f2i("v_cvt_i32_f64", K64, -2**31, 2**31 - 1)
_f2i("v_cvt_u32_f64", K64, 0, 2**32 - 1)
_f2i("v_cvt_nearest_i32_f32", K32, -2**31, 2**31 - 1,
     lambda ctx, x: np.floor(fp_round.add(ctx, F32, x, np.full(x.shape, np.float32(0.5)))))
_f2i("v_cvt_floor_i32_f32", K32, -2**31, 2**31 - 1, lambda ctx, x: np.floor(x))


# ---- integer -> float ------------------------------------------------------------------------

def _i2f(name, kind, src_view):
    @op(name, (32,), kind.reg_bits)
    def run(ctx, srcs, old):
        v = src_view(ctx, srcs[0]).astype(np.float64)          # exact
        return kind.write(ctx, old, narrow(kind.fmt, v, round_mode(ctx, kind.fmt)))
    return run


_i2f("v_cvt_f32_i32", K32, lambda ctx, s: i32(s))
_i2f("v_cvt_f32_u32", K32, lambda ctx, s: s)
_i2f("v_cvt_f64_i32", K64, lambda ctx, s: i32(s))
_i2f("v_cvt_f64_u32", K64, lambda ctx, s: s)
_i2f("v_cvt_f16_i16", K16, lambda ctx, s: i16(half(s, ctx.opsel & 1)))
_i2f("v_cvt_f16_u16", K16, lambda ctx, s: half(s, ctx.opsel & 1))
for _k in range(4):
    _i2f("v_cvt_f32_ubyte%d" % _k, K32, lambda ctx, s, k=_k: byte(s, k))


@op("v_cvt_off_f32_i4", (32,), 32)
def v_cvt_off_f32_i4(ctx, srcs, old):
    """S0[3:0] as a signed 4-bit value, times 1/16 (the ISA's CVT_OFF_TABLE)."""
    n = (srcs[0] & U32(15)).astype(np.int64)
    n = np.where(n >= 8, n - 16, n)
    return K32.write(ctx, old, (n / 16).astype(np.float32))


# ---- float <-> float ---------------------------------------------------------------------------

def _f2f(name, src, dst):
    @op(name, (src.reg_bits,), dst.reg_bits)
    def run(ctx, srcs, old):
        x = src.read(ctx, srcs, 0).astype(np.float64)          # exact
        return dst.write(ctx, old, narrow(dst.fmt, x, round_mode(ctx, dst.fmt)))
    return run


_f2f("v_cvt_f16_f32", K32, K16)
_f2f("v_cvt_f32_f16", K16, K32)
_f2f("v_cvt_f32_f64", K64, K32)
_f2f("v_cvt_f64_f32", K32, K64)


# ---- f16 -> 16-bit integers ------------------------------------------------------------------

def _f16_to_16(name, conv):
    @op(name, (32,), 32)
    def run(ctx, srcs, old):
        x = K16.read(ctx, srcs, 0)
        return K16.store(ctx, old, (conv(x) & 0xFFFF).astype(U16))
    return run


_f16_to_16("v_cvt_i16_f16", lambda x: to_int(x, -2**15, 2**15 - 1))
_f16_to_16("v_cvt_u16_f16", lambda x: to_int(x, 0, 2**16 - 1))
_f16_to_16("v_cvt_norm_i16_f16", lambda x: to_int_rne(np.clip(x.astype(np.float64), -1, 1) * 32767,
                                                        -32767, 32767))
_f16_to_16("v_cvt_norm_u16_f16", lambda x: to_int_rne(np.clip(x.astype(np.float64), 0, 1) * 65535,
                                                        0, 65535))


@op("v_cvt_i32_i16", (32,), 32)
def v_cvt_i32_i16(ctx, srcs, old):
    return i16(half(srcs[0], ctx.opsel & 1)).astype(np.int32).view(U32)


@op("v_cvt_u32_u16", (32,), 32)
def v_cvt_u32_u16(ctx, srcs, old):
    return half(srcs[0], ctx.opsel & 1).astype(U32)


@op("v_sat_pk_u8_i16", (32,), 32)
def v_sat_pk_u8_i16(ctx, srcs, old):
    """Both i16 halves of S0 saturated to u8, packed into a 16-bit result."""
    s = srcs[0]
    lo = np.clip(i16(half(s, 0)), 0, 255).astype(U16)
    hi = np.clip(i16(half(s, 1)), 0, 255).astype(U16)
    return K16.store(ctx, old, lo | (hi << U16(8)))


# ---- packed results (two 16-bit values in one register) --------------------------------------

def _pack_f32_pair(name, conv):
    @op(name, (32, 32), 32)
    def run(ctx, srcs, old):
        a, b = K32.read(ctx, srcs, 0), K32.read(ctx, srcs, 1)
        with np.errstate(all="ignore"):
            return pack16(conv(ctx, a), conv(ctx, b))
    return run


def _f16_rtz(ctx, x):
    """f32 -> f16 rounding toward zero: the nearest-even result stepped back when it grew."""
    y = x.astype(np.float16)
    grew = np.isfinite(x) & (np.abs(y.astype(np.float32)) > np.abs(x))
    y = np.where(grew, np.nextafter(y, np.float16(0)), y)
    return finish(ctx, F16, y, omod=False, clamp=False)


_pack_f32_pair("v_cvt_pk_rtz_f16_f32", _f16_rtz)
_pack_f32_pair("v_cvt_pk_i16_f32", lambda ctx, x: to_int(x, -2**15, 2**15 - 1) & 0xFFFF)
_pack_f32_pair("v_cvt_pk_u16_f32", lambda ctx, x: to_int(x, 0, 2**16 - 1))
_pack_f32_pair("v_cvt_pk_norm_i16_f32",
               lambda ctx, x: to_int_rne(np.clip(x.astype(np.float64), -1, 1) * 32767,
                                         -32767, 32767) & 0xFFFF)
_pack_f32_pair("v_cvt_pk_norm_u16_f32",
               lambda ctx, x: to_int_rne(np.clip(x.astype(np.float64), 0, 1) * 65535, 0, 65535))


def _pack_f16_pair(name, conv):
    @op(name, (32, 32), 32)
    def run(ctx, srcs, old):
        a, b = K16.read(ctx, srcs, 0), K16.read(ctx, srcs, 1)
        return pack16(conv(a), conv(b))
    return run


_pack_f16_pair("v_cvt_pk_norm_i16_f16",
               lambda x: to_int_rne(np.clip(x.astype(np.float64), -1, 1) * 32767,
                                    -32767, 32767) & 0xFFFF)
_pack_f16_pair("v_cvt_pk_norm_u16_f16",
               lambda x: to_int_rne(np.clip(x.astype(np.float64), 0, 1) * 65535, 0, 65535))


@op("v_pack_b32_f16", (32, 32), 32)
def v_pack_b32_f16(ctx, srcs, old):
    """{S1.f16, S0.f16} with the sign modifiers applied to the bits (a move, no flushing)."""
    lo = neg_abs(F16, half(srcs[0], ctx.opsel & 1), ctx.neg & 1, ctx.abs & 1)
    hi = neg_abs(F16, half(srcs[1], ctx.opsel >> 1 & 1), ctx.neg >> 1 & 1, ctx.abs >> 1 & 1)
    return pack16(lo, hi)


@op("v_cvt_pk_u16_u32", (32, 32), 32)
def v_cvt_pk_u16_u32(ctx, srcs, old):
    return pack16(np.minimum(srcs[0], U32(0xFFFF)), np.minimum(srcs[1], U32(0xFFFF)))


@op("v_cvt_pk_i16_i32", (32, 32), 32)
def v_cvt_pk_i16_i32(ctx, srcs, old):
    sat = lambda s: np.clip(i32(s), -2**15, 2**15 - 1).astype(np.int16).view(U16)
    return pack16(sat(srcs[0]), sat(srcs[1]))


_INTEGRAL = {ROUND_NEAREST_EVEN: np.rint, ROUND_PLUS_INF: np.ceil, ROUND_MINUS_INF: np.floor,
             ROUND_TOWARD_ZERO: np.trunc}


@op("v_cvt_pk_u8_f32", (32, 32, 32), 32)
def v_cvt_pk_u8_f32(ctx, srcs, old):
    """S0 as u8 (rounded per MODE.FP_ROUND, saturated, NaN -> 0) into byte S1[1:0] of S2."""
    x = K32.read(ctx, srcs, 0)
    x = _INTEGRAL[ctx.mode.round_f32](np.where(np.isnan(x), 0, x))
    v = np.clip(x, 0, 255).astype(U32)
    sh = (srcs[1] & U32(3)) * U32(8)
    return (srcs[2] & ~(U32(0xFF) << sh)) | (v << sh)
