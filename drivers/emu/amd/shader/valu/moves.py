"""Moves and selects: v_mov_b32, v_cndmask_b32, the v_movrel* family.

Float source modifiers on these are pure sign-bit operations (the ISA calls them suitable for
negating or taking the absolute value): no denormal flushing, no NaN quieting.
v_movrels/v_movreld/v_movrelsd/v_movrelsd_2 address their VGPRs through M0; the core resolves
the registers (src0 + M0, vdst + M0) and these entries perform the move itself.
"""
import numpy as np

from .fp import F32, neg_abs
from .registry import integer_op as op


def _mov(ctx, srcs, old):
    return neg_abs(F32, srcs[0], ctx.neg & 1, ctx.abs & 1)


for _name in ("v_mov_b32", "v_movrels_b32", "v_movreld_b32", "v_movrelsd_b32",
              "v_movrelsd_2_b32"):
    op(_name, (32,))(_mov)


@op("v_cndmask_b32", (32, 32), 32, mask_in=True)
def v_cndmask_b32(ctx, srcs, old):
    """D = mask ? S1 : S0; the mask (VCC for VOP2/VOPD, the SGPR(s) of src2 for VOP3) is ctx.mask,
    not a source."""
    a = neg_abs(F32, srcs[0], ctx.neg & 1, ctx.abs & 1)
    b = neg_abs(F32, srcs[1], ctx.neg >> 1 & 1, ctx.abs >> 1 & 1)
    return np.where(ctx.mask, b, a)
