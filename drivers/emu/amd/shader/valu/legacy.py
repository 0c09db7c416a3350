"""Graphics-legacy float ops: DX9 zero rule multiplies, v_mullit_f32, cube map helpers.

DX9 rule (v_mul_dx9_zero_f32, v_fma_dx9_zero_f32, v_fmac_dx9_zero_f32), as the pseudocode has it:
when either factor is +-0 (after MODE's input denormal flush; even against inf or NaN) the
multiply gives +0 and the fma gives S2 exactly -- a -0 addend stays -0, a NaN addend is not
quieted, and the result goes through MODE's output denormal rule like any other. LLVM's folding of
llvm.amdgcn.fma.legacy computes +0 + S2 instead (-0 becomes +0): the pseudocode is followed
(scripts/check_rdna3_semantics.py lists the disagreement).
v_mullit_f32, v_cubema_f32 multiply under MODE.FP_ROUND; v_cubesc / v_cubetc return an operand
(or its negation) unchanged, NaNs included.
"""
import numpy as np

from . import fp_round
from .fp import F32
from .kinds import K32
from .registry import op


def _zero_product(a, b):
    return (a == 0) | (b == 0)


@op("v_mul_dx9_zero_f32", (32, 32), 32)
def v_mul_dx9_zero_f32(ctx, srcs, old):
    a, b = K32.read(ctx, srcs, 0), K32.read(ctx, srcs, 1)
    return K32.write(ctx, old, np.where(_zero_product(a, b), np.float32(0),
                                        fp_round.mul(ctx, F32, a, b)))


def _fma_dx9(ctx, a, b, c):
    """(result, lanes whose NaNs are quieted): S2 itself where a factor is zero."""
    zero = _zero_product(a, b)
    return np.where(zero, c, fp_round.fma(ctx, F32, a, b, c)).astype(np.float32), ~zero


@op("v_fma_dx9_zero_f32", (32, 32, 32), 32)
def v_fma_dx9_zero_f32(ctx, srcs, old):
    a, b, c = (K32.read(ctx, srcs, i) for i in range(3))
    r, q = _fma_dx9(ctx, a, b, c)
    return K32.write(ctx, old, r, quiet_nans=q)


@op("v_fmac_dx9_zero_f32", (32, 32), 32)
def v_fmac_dx9_zero_f32(ctx, srcs, old):
    a, b = K32.read(ctx, srcs, 0), K32.read(ctx, srcs, 1)
    r, q = _fma_dx9(ctx, a, b, K32.accumulator(ctx, old, 2))
    return K32.write(ctx, old, r, quiet_nans=q)


@op("v_mullit_f32", (32, 32, 32), 32)
def v_mullit_f32(ctx, srcs, old):
    """S0 * S1 (DX9 zero rule), or -FLT_MAX when S1 is -FLT_MAX / -inf / NaN or S2 <= 0 / NaN."""
    a, b, c = (K32.read(ctx, srcs, i) for i in range(3))
    fmax = np.finfo(np.float32).max
    lit_off = (b == -fmax) | (b == -np.inf) | np.isnan(b) | ~(c > 0)
    with np.errstate(all="ignore"):
        prod = np.where(_zero_product(a, b), np.float32(0), fp_round.mul(ctx, F32, a, b))
    return K32.write(ctx, old, np.where(lit_off, -fmax, prod).astype(np.float32))


def _cube(name, pick, passthrough=False):
    @op(name, (32, 32, 32), 32)
    def run(ctx, srcs, old):
        x, y, z = (K32.read(ctx, srcs, i) for i in range(3))
        ax, ay, az = np.abs(x), np.abs(y), np.abs(z)
        zmajor = (az >= ax) & (az >= ay)
        ymajor = ~zmajor & (ay >= ax)
        with np.errstate(all="ignore"):
            r = pick(ctx, x, y, z, zmajor, ymajor)
        return K32.write(ctx, old, np.asarray(r, np.float32), quiet_nans=not passthrough)
    return run


one = np.float32
_cube("v_cubeid_f32", lambda ctx, x, y, z, zm, ym: np.where(
    zm, np.where(z < 0, one(5), one(4)),
    np.where(ym, np.where(y < 0, one(3), one(2)), np.where(x < 0, one(1), one(0)))))
_cube("v_cubesc_f32", lambda ctx, x, y, z, zm, ym: np.where(
    zm, np.where(z < 0, -x, x), np.where(ym, x, np.where(x < 0, z, -z))), passthrough=True)
_cube("v_cubetc_f32", lambda ctx, x, y, z, zm, ym: np.where(
    zm, -y, np.where(ym, np.where(y < 0, -z, z), -y)), passthrough=True)
_cube("v_cubema_f32", lambda ctx, x, y, z, zm, ym: fp_round.mul(
    ctx, F32, np.where(zm, z, np.where(ym, y, x)).astype(np.float32), np.full(x.shape, one(2))))
