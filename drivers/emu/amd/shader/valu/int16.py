"""16-bit integer VALU ops: each source is the op_sel-selected half of its register and the
result lands in the op_sel[3] half, the other half preserved. Shift counts use S0[3:0]; the clamp
bit saturates v_add/sub_nc_{u16,i16} and v_mad_{u16,i16}.
"""
import numpy as np

from .bits import U16, U32, i16, src_half, write_half
from .fp import F16, neg_abs
from .registry import integer_op as op


def _u(ctx, srcs, i):
    return src_half(ctx, srcs, i).astype(np.int64)


def _s(ctx, srcs, i):
    return i16(src_half(ctx, srcs, i)).astype(np.int64)


def _sat(ctx, v, lo, hi):
    return np.clip(v, lo, hi) if ctx.clamp else v


def _store(ctx, old, v):
    return write_half(ctx, old, (v & 0xFFFF).astype(U16))


def _unsigned(name, f, nsrc=2, lo=0, hi=0xFFFF):
    @op(name, (32,) * nsrc, 32)
    def run(ctx, srcs, old):
        return _store(ctx, old, _sat(ctx, f(*(_u(ctx, srcs, i) for i in range(nsrc))), lo, hi))


def _signed(name, f, nsrc=2):
    @op(name, (32,) * nsrc, 32)
    def run(ctx, srcs, old):
        return _store(ctx, old, _sat(ctx, f(*(_s(ctx, srcs, i) for i in range(nsrc))),
                                     -2**15, 2**15 - 1))


_unsigned("v_add_nc_u16", lambda a, b: a + b)
_unsigned("v_sub_nc_u16", lambda a, b: a - b)
_signed("v_add_nc_i16", lambda a, b: a + b)
_signed("v_sub_nc_i16", lambda a, b: a - b)
_unsigned("v_mul_lo_u16", lambda a, b: a * b)
_unsigned("v_mad_u16", lambda a, b, c: a * b + c, 3)
_signed("v_mad_i16", lambda a, b, c: a * b + c, 3)
_unsigned("v_max_u16", np.maximum)
_unsigned("v_min_u16", np.minimum)
_signed("v_max_i16", np.maximum)
_signed("v_min_i16", np.minimum)
_unsigned("v_max3_u16", lambda a, b, c: np.maximum(np.maximum(a, b), c), 3)
_unsigned("v_min3_u16", lambda a, b, c: np.minimum(np.minimum(a, b), c), 3)
_signed("v_max3_i16", lambda a, b, c: np.maximum(np.maximum(a, b), c), 3)
_signed("v_min3_i16", lambda a, b, c: np.minimum(np.minimum(a, b), c), 3)
_med3 = lambda a, b, c: np.maximum(np.minimum(a, b), np.minimum(np.maximum(a, b), c))
_unsigned("v_med3_u16", _med3, 3)
_signed("v_med3_i16", _med3, 3)
_unsigned("v_lshlrev_b16", lambda a, b: b << (a & 15))
_unsigned("v_lshrrev_b16", lambda a, b: b >> (a & 15))
_signed("v_ashrrev_i16", lambda a, b: b >> (a & 15))
_unsigned("v_and_b16", lambda a, b: a & b)
_unsigned("v_or_b16", lambda a, b: a | b)
_unsigned("v_xor_b16", lambda a, b: a ^ b)
_unsigned("v_not_b16", lambda a: ~a, 1)


@op("v_mad_u32_u16", (32, 32, 32), 32)
def v_mad_u32_u16(ctx, srcs, old):
    v = _u(ctx, srcs, 0) * _u(ctx, srcs, 1) + srcs[2].astype(np.int64)
    return (np.clip(v, 0, 0xFFFFFFFF) if ctx.clamp else v & 0xFFFFFFFF).astype(U32)


@op("v_mad_i32_i16", (32, 32, 32), 32)
def v_mad_i32_i16(ctx, srcs, old):
    v = _s(ctx, srcs, 0) * _s(ctx, srcs, 1) + srcs[2].view(np.int32).astype(np.int64)
    v = np.clip(v, -2**31, 2**31 - 1) if ctx.clamp else v
    return (v & 0xFFFFFFFF).astype(U32)


@op("v_mov_b16", (32,), 32)
def v_mov_b16(ctx, srcs, old):
    """A 16-bit move; VOP3/DPP neg/abs act on the f16 sign bit."""
    v = neg_abs(F16, src_half(ctx, srcs, 0), ctx.neg & 1, ctx.abs & 1)
    return write_half(ctx, old, v)


@op("v_cndmask_b16", (32, 32), 32, mask_in=True)
def v_cndmask_b16(ctx, srcs, old):
    a = neg_abs(F16, src_half(ctx, srcs, 0), ctx.neg & 1, ctx.abs & 1)
    b = neg_abs(F16, src_half(ctx, srcs, 1), ctx.neg >> 1 & 1, ctx.abs >> 1 & 1)
    return write_half(ctx, old, np.where(ctx.mask, b, a))
