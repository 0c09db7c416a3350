"""Dot products (v_dot2*, v_dot4*, v_dot8*, v_dot2acc) and the mixed-precision v_fma_mix*.

v_dot2_f32_{f16,bf16} / v_dot2acc_f32_f16 follow the ISA pseudocode: tmp = S2; tmp += a.lo*b.lo;
tmp += a.hi*b.hi, each += rounded to f32 under MODE.FP_ROUND (the 16-bit products are exact in
f32). v_dot2_f16_f16 does the same in f16 (each product and each sum rounded under the f16
rounding mode); v_dot2_bf16_bf16 in bf16, rounded to nearest even (MODE has no bf16 field).
v_dot4_i32_iu8 / v_dot8_i32_iu4 treat source 0 / 1 as signed when neg_lo[0] / neg_lo[1] is set
(the IU forms); clamp saturates the 32-bit sum.
v_fma_mix*: source i is f16 (the op_sel[i] half) when op_sel_hi[i] is set, else f32; neg_lo[i]
negates and neg_hi[i] takes the absolute value; one rounding to the destination (f32, or f16 into
the low / high half with the other half preserved).
"""
import numpy as np

from . import fp_round
from .bits import U16, U32, bf16_to_f32, half, i32, sext, write_half
from .fp import F16, F32, finish, modify, neg_abs, operand
from .kinds import K16, K32
from .packed import f16_lanes, lanes
from .registry import op


def _bf16_lanes(ctx, srcs, i):
    lo, hi = lanes(ctx, srcs, i)
    lo = neg_abs(F16, lo, ctx.neg >> i & 1, 0)
    hi = neg_abs(F16, hi, ctx.neg_hi >> i & 1, 0)
    return bf16_to_f32(lo), bf16_to_f32(hi)


def round_bf16(x):
    """float32 -> bf16 bits, round to nearest even (NaN kept quiet)."""
    b = x.astype(np.float32).view(U32)
    rounded = (b + U32(0x7FFF) + ((b >> U32(16)) & U32(1))) >> U32(16)
    nan = np.isnan(x)
    return np.where(nan, (b >> U32(16)) | U32(0x40), rounded).astype(U16)


def _dot2_f32(ctx, a_lanes, b_lanes, acc):
    """tmp += a * b twice: each product and each sum an f32 operation under MODE.FP_ROUND (an
    f16 product is exact in f32; a bf16 one can underflow)."""
    with np.errstate(all="ignore"):
        p = [fp_round.mul(ctx, F32, a_lanes[k].astype(np.float32), b_lanes[k].astype(np.float32))
             for k in (0, 1)]
        t = fp_round.add(ctx, F32, acc, p[0])
        return fp_round.add(ctx, F32, t, p[1])


@op("v_dot2_f32_f16", (32, 32, 32), 32)
def v_dot2_f32_f16(ctx, srcs, old):
    acc = K32.read(ctx, srcs, 2)
    return K32.write(ctx, old, _dot2_f32(ctx, f16_lanes(ctx, srcs, 0), f16_lanes(ctx, srcs, 1), acc))


@op("v_dot2_f32_bf16", (32, 32, 32), 32)
def v_dot2_f32_bf16(ctx, srcs, old):
    acc = K32.read(ctx, srcs, 2)
    return K32.write(ctx, old, _dot2_f32(ctx, _bf16_lanes(ctx, srcs, 0), _bf16_lanes(ctx, srcs, 1), acc))


@op("v_dot2acc_f32_f16", (32, 32), 32)
def v_dot2acc_f32_f16(ctx, srcs, old):
    """VOP2: D = S0.lo * S1.lo + S0.hi * S1.hi + D (halves map straight through)."""
    acc = operand(F32, old, ctx.mode)
    a = [modify(ctx, F16, half(srcs[0], k), 0) for k in (0, 1)]   # DPP neg / abs of S0, S1
    b = [modify(ctx, F16, half(srcs[1], k), 1) for k in (0, 1)]
    return K32.write(ctx, old, _dot2_f32(ctx, a, b, acc))


@op("v_dot2_f16_f16", (32, 32, 32), 32)
def v_dot2_f16_f16(ctx, srcs, old):
    a, b = f16_lanes(ctx, srcs, 0), f16_lanes(ctx, srcs, 1)
    acc = K16.read(ctx, srcs, 2)
    with np.errstate(all="ignore"):
        t = fp_round.add(ctx, F16, acc, fp_round.mul(ctx, F16, a[0], b[0]))
        t = fp_round.add(ctx, F16, t, fp_round.mul(ctx, F16, a[1], b[1]))
    return K16.write(ctx, old, t)


@op("v_dot2_bf16_bf16", (32, 32, 32), 32)
def v_dot2_bf16_bf16(ctx, srcs, old):
    a, b = _bf16_lanes(ctx, srcs, 0), _bf16_lanes(ctx, srcs, 1)
    acc = bf16_to_f32(neg_abs(F16, half(srcs[2], ctx.opsel >> 2 & 1), ctx.neg >> 2 & 1, 0))
    as_bf16 = lambda x: bf16_to_f32(round_bf16(x))
    with np.errstate(all="ignore"):
        t = as_bf16(acc + as_bf16(a[0] * b[0]))
        t = round_bf16(t + as_bf16(a[1] * b[1]))
    if ctx.clamp:
        t = round_bf16(np.clip(np.nan_to_num(bf16_to_f32(t), nan=0.0), 0, 1))
    return write_half(ctx, old, t)


def _int_dot(name, width, count):
    signed_form = "_i32_" in name

    @op(name, (32, 32, 32), 32)
    def run(ctx, srcs, old):
        total = (i32(srcs[2]) if signed_form else srcs[2]).astype(np.int64)
        sa = signed_form and ctx.neg & 1
        sb = signed_form and ctx.neg >> 1 & 1
        mask = (1 << width) - 1
        for k in range(count):
            a = (srcs[0].astype(np.int64) >> (width * k)) & mask
            b = (srcs[1].astype(np.int64) >> (width * k)) & mask
            total = total + (sext(a, width) if sa else a) * (sext(b, width) if sb else b)
        if ctx.clamp:
            total = np.clip(total, -2**31, 2**31 - 1) if signed_form else np.clip(total, 0, 2**32 - 1)
        return (total & 0xFFFFFFFF).astype(U32)
    return run


_int_dot("v_dot4_i32_iu8", 8, 4)
_int_dot("v_dot4_u32_u8", 8, 4)
_int_dot("v_dot8_i32_iu4", 4, 8)
_int_dot("v_dot8_u32_u4", 4, 8)


def _mix_source(ctx, srcs, i):
    """f16 (op_sel half) when op_sel_hi[i], else f32; neg_lo = negate, neg_hi = abs."""
    neg, absolute = ctx.neg >> i & 1, ctx.neg_hi >> i & 1
    if ctx.opsel_hi >> i & 1:
        h = half(srcs[i], ctx.opsel >> i & 1)
        return operand(F16, h, ctx.mode, neg, absolute).astype(np.float32)
    return operand(F32, srcs[i], ctx.mode, neg, absolute)


def _mix(ctx, srcs, fmt):
    """fma in f32-or-wider inputs, rounded once to fmt under MODE.FP_ROUND of fmt."""
    a, b, c = (_mix_source(ctx, srcs, i) for i in range(3))
    if fmt is F16:
        p, c64 = a.astype(np.float64) * b.astype(np.float64), c.astype(np.float64)
        rm = fp_round.round_mode(ctx, F16)
        r = fp_round.narrow(F16, fp_round.round_to_odd_sum(p, c64), rm)
        return fp_round._zero_sign(r, p, c64, rm)
    return fp_round.fma(ctx, F32, a, b, c)


@op("v_fma_mix_f32", (32, 32, 32), 32)
def v_fma_mix_f32(ctx, srcs, old):
    return finish(ctx, F32, _mix(ctx, srcs, F32), omod=False)


@op("v_fma_mixlo_f16", (32, 32, 32), 32)
def v_fma_mixlo_f16(ctx, srcs, old):
    r = finish(ctx, F16, _mix(ctx, srcs, F16), omod=False)
    return (old & U32(0xFFFF0000)) | r.astype(U32)


@op("v_fma_mixhi_f16", (32, 32, 32), 32)
def v_fma_mixhi_f16(ctx, srcs, old):
    r = finish(ctx, F16, _mix(ctx, srcs, F16), omod=False)
    return (old & U32(0xFFFF)) | (r.astype(U32) << U32(16))
