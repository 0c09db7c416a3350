"""Float add / sub / mul / fma / min / max / ldexp for f16, f32 and f64.

Sources are read per kinds.Kind (modifiers, op_sel, input denormal flush); the result goes through
fp.finish (NaN quieting, output denormal flush, omod, clamp). add / sub / mul / fma / ldexp are
correctly rounded under MODE.FP_ROUND (fp_round); min / max follow the IEEE-mode rules (fp).
"""
import numpy as np

from . import fp_round
from .bits import i16, i32
from .fp import fmax, fmed3, fmin
from .kinds import K16, K32, K64
from .registry import op


def _fma(ctx, kind, a, b, c):
    return fp_round.fma(ctx, kind.fmt, a, b, c)


def _binary(kind, name, f, arithmetic=False, passthrough=False):
    """arithmetic: f is IEEE arithmetic, whose NaN results are already quiet (fp.finish);
    passthrough: the result is one of the operands (min/max), whose NaNs are not quieted."""
    bits = kind.reg_bits

    @op(name, (bits, bits), bits)
    def run(ctx, srcs, old):
        a, b = kind.read(ctx, srcs, 0), kind.read(ctx, srcs, 1)
        return kind.write(ctx, old, f(ctx, a, b), arithmetic=arithmetic,
                          quiet_nans=not passthrough)
    return run


def _ternary(kind, name, f, arithmetic=False, passthrough=False):
    bits = kind.reg_bits

    @op(name, (bits, bits, bits), bits)
    def run(ctx, srcs, old):
        a, b, c = (kind.read(ctx, srcs, i) for i in range(3))
        return kind.write(ctx, old, f(ctx, a, b, c), arithmetic=arithmetic,
                          quiet_nans=not passthrough)
    return run


def _fmac(kind, name):
    bits = kind.reg_bits

    @op(name, (bits, bits), bits)
    def run(ctx, srcs, old):
        a, b = kind.read(ctx, srcs, 0), kind.read(ctx, srcs, 1)
        return kind.write(ctx, old, _fma(ctx, kind, a, b, kind.accumulator(ctx, old, 2)),
                          arithmetic=True)
    return run


def _ldexp(kind, name, exp_bits):
    bits = kind.reg_bits

    @op(name, (bits, 32), bits)
    def run(ctx, srcs, old):
        x = kind.read(ctx, srcs, 0)
        # the exponent is an integer operand: i16 (op_sel-selected half) for f16, else i32
        n = i16(K16.raw(ctx, srcs, 1)) if exp_bits == 16 else i32(srcs[1])
        if kind.fmt is K64.fmt:
            n = np.minimum(np.maximum(n.astype(np.int64), -2200), 2200)   # past these every result saturates
            return kind.write(ctx, old, fp_round.ldexp64(ctx, x, n))
        # +-400 keeps every f16/f32 value times 2**n finite and normal in float64, so that the
        # directed rounding modes see the true magnitude of an overflowing result
        n = np.minimum(np.maximum(n.astype(np.int64), -400), 400)
        r = np.ldexp(x.astype(np.float64), n)           # exact in float64, rounded once below
        return kind.write(ctx, old, fp_round.narrow(kind.fmt, r, fp_round.round_mode(ctx, kind.fmt)))
    return run


for _t, _k in (("f16", K16), ("f32", K32), ("f64", K64)):
    fmt = _k.fmt
    _binary(_k, "v_add_" + _t, lambda ctx, a, b, f=fmt: fp_round.add(ctx, f, a, b), True)
    _binary(_k, "v_mul_" + _t, lambda ctx, a, b, f=fmt: fp_round.mul(ctx, f, a, b), True)
    _binary(_k, "v_min_" + _t, lambda ctx, a, b, f=fmt: fmin(ctx, f, a, b), passthrough=True)
    _binary(_k, "v_max_" + _t, lambda ctx, a, b, f=fmt: fmax(ctx, f, a, b), passthrough=True)
    _ternary(_k, "v_fma_" + _t, lambda ctx, a, b, c, k=_k: _fma(ctx, k, a, b, c), True)
    _ldexp(_k, "v_ldexp_" + _t, 16 if _t == "f16" else 32)
    if _t == "f64":
        continue
    _binary(_k, "v_sub_" + _t, lambda ctx, a, b, f=fmt: fp_round.add(ctx, f, a, -b), True)
    _binary(_k, "v_subrev_" + _t, lambda ctx, a, b, f=fmt: fp_round.add(ctx, f, b, -a), True)
    _fmac(_k, "v_fmac_" + _t)
    # fmamk (S0 * K + S1) and fmaak (S0 * S1 + K) are fma over the printed operand order
    _ternary(_k, "v_fmamk_" + _t, lambda ctx, a, b, c, k=_k: _fma(ctx, k, a, b, c), True)
    _ternary(_k, "v_fmaak_" + _t, lambda ctx, a, b, c, k=_k: _fma(ctx, k, a, b, c), True)
    _ternary(_k, "v_min3_" + _t, lambda ctx, a, b, c, f=fmt: fmin(ctx, f, fmin(ctx, f, a, b), c),
             passthrough=True)
    _ternary(_k, "v_max3_" + _t, lambda ctx, a, b, c, f=fmt: fmax(ctx, f, fmax(ctx, f, a, b), c),
             passthrough=True)
    _ternary(_k, "v_med3_" + _t, lambda ctx, a, b, c, f=fmt: fmed3(ctx, f, a, b, c),
             passthrough=True)
    # RDNA3 v_minmax: max(min(a, b), c); v_maxmin: min(max(a, b), c)
    _ternary(_k, "v_minmax_" + _t, lambda ctx, a, b, c, f=fmt: fmax(ctx, f, fmin(ctx, f, a, b), c),
             passthrough=True)
    _ternary(_k, "v_maxmin_" + _t, lambda ctx, a, b, c, f=fmt: fmin(ctx, f, fmax(ctx, f, a, b), c),
             passthrough=True)
