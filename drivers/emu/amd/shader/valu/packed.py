"""VOP3P packed 16-bit ops (v_pk_*): two independent 16-bit lanes per register.

Source i feeds the low lane from its high half when op_sel[i] is set, and the high lane from its
high half when op_sel_hi[i] is set (the encoded default is 1: halves map straight through). Float
ops negate the low lane value with neg_lo[i] (ctx.neg) and the high lane value with neg_hi[i];
clamp clamps each f16 result to [0, 1] / saturates each integer result; f16 add / mul / fma round
per MODE.FP_ROUND (the f16/f64 field).
"""
import numpy as np

from .bits import U16, half, pack16
from . import fp_round
from .fp import F16, finish, fmax, fmin, operand
from .registry import op


def lanes(ctx, srcs, i):
    """(low lane, high lane) 16-bit bits of source i after op_sel / op_sel_hi."""
    s = srcs[i]
    return half(s, ctx.opsel >> i & 1), half(s, ctx.opsel_hi >> i & 1)


def f16_lanes(ctx, srcs, i):
    """(low lane, high lane) f16 values of source i: neg_lo / neg_hi applied, denormals per MODE."""
    lo, hi = lanes(ctx, srcs, i)
    return (operand(F16, lo, ctx.mode, ctx.neg >> i & 1),
            operand(F16, hi, ctx.mode, ctx.neg_hi >> i & 1))


def _halves(bits32):
    """uint32 (..., 32) -> its two 16-bit halves as uint16 (..., 32, 2): [..., 0] the low one."""
    b = np.ascontiguousarray(bits32, np.uint32)
    return b.view(U16).reshape(b.shape + (2,))


def _joined(bits16):
    """uint16 (..., 32, 2) halves -> the uint32 (..., 32) registers holding them."""
    b = np.ascontiguousarray(bits16, U16)
    return b.view(np.uint32).reshape(b.shape[:-1])


def _straight(ctx, nsrc):
    """Whether every source feeds its low lane from its low half and its high lane from its
    high half with the same negation: then both lanes are one elementwise computation over the
    halves side by side (what each lane computes alone)."""
    m = (1 << nsrc) - 1
    return not ctx.opsel & m and ctx.opsel_hi & m == m and ctx.neg & m == ctx.neg_hi & m


def _pk_float(name, nsrc, f, passthrough=False):
    @op(name, (32,) * nsrc, 32)
    def run(ctx, srcs, old):
        q = not passthrough
        if _straight(ctx, nsrc):
            xs = [operand(F16, _halves(srcs[i]), ctx.mode, ctx.neg >> i & 1) for i in range(nsrc)]
            with np.errstate(all="ignore"):
                r = f(ctx, *xs)
            return _joined(finish(ctx, F16, r, omod=False, quiet_nans=q))
        ins = [f16_lanes(ctx, srcs, i) for i in range(nsrc)]
        with np.errstate(all="ignore"):
            lo = f(ctx, *(x[0] for x in ins))
            hi = f(ctx, *(x[1] for x in ins))
        return pack16(finish(ctx, F16, lo, omod=False, quiet_nans=q),
                      finish(ctx, F16, hi, omod=False, quiet_nans=q))
    return run


_pk_float("v_pk_add_f16", 2, lambda ctx, a, b: fp_round.add(ctx, F16, a, b))
_pk_float("v_pk_mul_f16", 2, lambda ctx, a, b: fp_round.mul(ctx, F16, a, b))
_pk_float("v_pk_min_f16", 2, lambda ctx, a, b: fmin(ctx, F16, a, b), True)
_pk_float("v_pk_max_f16", 2, lambda ctx, a, b: fmax(ctx, F16, a, b), True)
_pk_float("v_pk_fma_f16", 3, lambda ctx, a, b, c: fp_round.fma(ctx, F16, a, b, c))


@op("v_pk_fmac_f16", (32, 32), 32)
def v_pk_fmac_f16(ctx, srcs, old):
    """VOP2: D.lo = fma(S0.lo, S1.lo, D.lo), D.hi likewise (no op_sel)."""
    a, b, c = (operand(F16, _halves(x), ctx.mode) for x in (srcs[0], srcs[1], old))
    return _joined(finish(ctx, F16, fp_round.fma(ctx, F16, a, b, c), omod=False))


def _pk_int(name, nsrc, f, signed, saturation=None):
    @op(name, (32,) * nsrc, 32, integer=True)
    def run(ctx, srcs, old):
        ins = [lanes(ctx, srcs, i) for i in range(nsrc)]
        conv = (lambda x: x.view(np.int16).astype(np.int64)) if signed \
            else (lambda x: x.astype(np.int64))
        out = []
        for k in range(2):
            v = f(*(conv(x[k]) for x in ins))
            if ctx.clamp and saturation:
                v = np.clip(v, *saturation)
            out.append((v & 0xFFFF).astype(U16))
        return pack16(*out)
    return run


for _sign, _range in (("u", (0, 0xFFFF)), ("i", (-2**15, 2**15 - 1))):
    _s = _sign == "i"
    _pk_int("v_pk_add_%s16" % _sign, 2, lambda a, b: a + b, _s, _range)
    _pk_int("v_pk_sub_%s16" % _sign, 2, lambda a, b: a - b, _s, _range)
    _pk_int("v_pk_max_%s16" % _sign, 2, np.maximum, _s)
    _pk_int("v_pk_min_%s16" % _sign, 2, np.minimum, _s)
    _pk_int("v_pk_mad_%s16" % _sign, 3, lambda a, b, c: a * b + c, _s, _range)
_pk_int("v_pk_mul_lo_u16", 2, lambda a, b: a * b, False, (0, 0xFFFF))
_pk_int("v_pk_lshlrev_b16", 2, lambda a, b: b << (a & 15), False)
_pk_int("v_pk_lshrrev_b16", 2, lambda a, b: b >> (a & 15), False)
_pk_int("v_pk_ashrrev_i16", 2, lambda a, b: b >> (a & 15), True)
