"""v_trunc / v_ceil / v_floor / v_rndne / v_fract / v_frexp_* for f16, f32 and f64.

ISA rules: rndne rounds half to even (IEEE roundToIntegralTiesToEven, -0.5 -> -0); fract is
S0 + -floor(S0) clamped below 1.0 (0x3f7fffff for f32, 0x3fefffffffffffff for f64, 0x3bff for f16),
so fract(-tiny) is the largest float below one and fract(+-inf) is NaN; frexp of inf/NaN returns
the input as mantissa (pseudocode `D = S0`: a NaN unchanged, not quieted) and 0 as exponent.
"""
import numpy as np

from . import fp_round
from .bits import U16, U32
from .kinds import K16, K32, K64
from .registry import op


def _unary(kind, name, f, passthrough=False):
    """passthrough: NaN operands are the result unchanged (pseudocode `D = S0`), not quieted."""
    bits = kind.reg_bits

    @op(name, (bits,), bits)
    def run(ctx, srcs, old):
        x = kind.read(ctx, srcs, 0)
        return kind.write(ctx, old, f(x), quiet_nans=not passthrough)
    return run


def _fract(kind, name):
    @op(name, (kind.reg_bits,), kind.reg_bits)
    def run(ctx, srcs, old):
        """S0 + -floor(S0), rounded per MODE.FP_ROUND, clamped below 1.0."""
        x = kind.read(ctx, srcs, 0)
        below_one = np.nextafter(x.dtype.type(1), x.dtype.type(0))
        r = fp_round.add(ctx, kind.fmt, x, -np.floor(x))
        return kind.write(ctx, old, np.where(r >= 1, below_one, r).astype(x.dtype))
    return run


def _frexp_mant(x):
    m, _ = np.frexp(x)
    return np.where(np.isfinite(x), m, x).astype(x.dtype)


def _frexp_exp(x):
    _, e = np.frexp(x)
    return np.where(np.isfinite(x), e, 0)


for _t, _k in (("f16", K16), ("f32", K32), ("f64", K64)):
    _unary(_k, "v_trunc_" + _t, np.trunc)
    _unary(_k, "v_ceil_" + _t, np.ceil)
    _unary(_k, "v_floor_" + _t, np.floor)
    _unary(_k, "v_rndne_" + _t, np.rint)
    _fract(_k, "v_fract_" + _t)
    _unary(_k, "v_frexp_mant_" + _t, _frexp_mant, passthrough=True)


@op("v_frexp_exp_i32_f32", (32,), 32)
def v_frexp_exp_i32_f32(ctx, srcs, old):
    return _frexp_exp(K32.read(ctx, srcs, 0)).astype(np.int32).view(U32)


@op("v_frexp_exp_i32_f64", (64,), 32)
def v_frexp_exp_i32_f64(ctx, srcs, old):
    return _frexp_exp(K64.read(ctx, srcs, 0)).astype(np.int32).view(U32)


@op("v_frexp_exp_i16_f16", (32,), 32)
def v_frexp_exp_i16_f16(ctx, srcs, old):
    e = _frexp_exp(K16.read(ctx, srcs, 0)).astype(np.int16).view(U16)
    return K16.store(ctx, old, e)
