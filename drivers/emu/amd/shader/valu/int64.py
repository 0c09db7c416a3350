"""64-bit shifts: the count is S0[5:0], the value the 64-bit S1."""
import numpy as np

from .bits import U32, U64
from .registry import integer_op as op


def _count(s0):
    return (s0 & U32(63)).astype(U64)


op("v_lshlrev_b64", (32, 64), 64)(lambda ctx, srcs, old: srcs[1] << _count(srcs[0]))
op("v_lshrrev_b64", (32, 64), 64)(lambda ctx, srcs, old: srcs[1] >> _count(srcs[0]))
op("v_ashrrev_i64", (32, 64), 64)(
    lambda ctx, srcs, old: (srcs[1].view(np.int64) >> _count(srcs[0]).astype(np.int64)).view(U64))
