"""The loop-level IR's ALU semantics in numpy: one function per op, on arrays or scalars.

This is the reference every code generator is held to (the module docstring of
:mod:`tensor.loopir` states the rules); constant folding in the graph uses it too, so a folded
constant equals what a kernel would compute.  bfloat16 values travel as float32 arrays rounded
to bfloat16 after every op (storage is uint16 bits, see :mod:`tensor.dtypes`).
"""
import numpy as np

from tensor.dtypes import bf16_bits_to_float32, dtypes, float32_to_bf16_bits
from tensor.loopir import Op


def value_type(dtype):
    """The numpy type values of ``dtype`` are computed in (bfloat16 -> float32)."""
    return np.dtype(np.float32) if dtype is dtypes.bfloat16 else dtype.np


def round_bf16(x):
    return bf16_bits_to_float32(float32_to_bf16_bits(x))


def _fix(x, dtype):
    x = np.asarray(x)
    if dtype is dtypes.bfloat16:
        return round_bf16(x.astype(np.float32, copy=False))
    return x.astype(dtype.np, copy=False)


def _idiv(a, b):
    b = np.where(b == 0, 1, b)                  # x/0 is unspecified; the reference gives x
    q = np.floor_divide(a, b)
    fix = (np.remainder(a, b) != 0) & ((a < 0) != (b < 0))
    return q + fix


def _mod(a, b):
    b = np.where(b == 0, 1, b)
    return a - _idiv(a, b) * b


def _shift_count(b, dtype):
    return np.bitwise_and(b, dtype.bits - 1).astype(b.dtype if hasattr(b, "dtype") else dtype.np)


def _shl(a, b, dtype):
    return np.left_shift(a, _shift_count(np.asarray(b), dtype))


def _shr(a, b, dtype):
    return np.right_shift(a, _shift_count(np.asarray(b), dtype))


def _max(a, b):
    return np.maximum(a, b)                     # NaN-propagating, like torch.maximum


def _cast(x, src, dst):
    x = np.asarray(x)
    if dst is dtypes.bool:
        return x != 0
    if src.is_float and dst.is_int:
        xf = np.nan_to_num(np.trunc(x), nan=0.0, posinf=0.0, neginf=0.0)
        lo, hi = dst.min, dst.max
        # out-of-range float->int is unspecified; the reference wraps like a C cast on x86-64
        # for in-range values and clamps the rest, so results never depend on warnings
        xf = np.clip(xf, lo, hi) if dst.bits < 64 else np.clip(xf, -2.0**63, 2.0**63 - 1024)
        return xf.astype(dst.np)
    if dst is dtypes.bfloat16:
        return round_bf16(x.astype(np.float32))
    return x.astype(value_type(dst))


def _bitcast(x, src, dst):
    x = np.asarray(x)
    storage = float32_to_bf16_bits(x) if src is dtypes.bfloat16 else x.astype(src.np, copy=False)
    out = np.ascontiguousarray(storage).reshape(-1).view(dst.np).reshape(np.shape(storage))
    return bf16_bits_to_float32(out) if dst is dtypes.bfloat16 else out


UNARY_FN = {Op.EXP2: np.exp2, Op.LOG2: np.log2, Op.SIN: np.sin, Op.SQRT: np.sqrt,
            Op.RECIPROCAL: np.reciprocal}
BINARY_FN = {Op.ADD: np.add, Op.MUL: np.multiply, Op.MAX: _max, Op.CMPLT: np.less,
             Op.CMPNE: np.not_equal, Op.IDIV: _idiv, Op.MOD: _mod, Op.AND: np.bitwise_and,
             Op.OR: np.bitwise_or, Op.XOR: np.bitwise_xor}


def alu_quiet(op, dtype, srcs, src_dtypes):
    """:func:`alu` with numpy's floating-point warnings silenced (NaN and inf are values)."""
    with np.errstate(all="ignore"):
        return alu(op, dtype, srcs, src_dtypes)


def alu(op, dtype, srcs, src_dtypes):
    """Evaluate one ALU instruction: ``dtype`` is the result's, ``src_dtypes`` the operands'.
    Callers silence numpy's warnings (the reference backend does, per launch)."""
    if True:
        if op in UNARY_FN:
            x = np.asarray(srcs[0])
            if dtype is dtypes.float16:           # numpy's float16 transcendentals round twice
                return UNARY_FN[op](x.astype(np.float32)).astype(np.float16)
            return _fix(UNARY_FN[op](x), dtype)
        if op in BINARY_FN:
            out = BINARY_FN[op](srcs[0], srcs[1])
            return np.asarray(out) if op in (Op.CMPLT, Op.CMPNE) else _fix(out, dtype)
        if op is Op.SHL:
            return _fix(_shl(srcs[0], srcs[1], dtype), dtype)
        if op is Op.SHR:
            return _fix(_shr(srcs[0], srcs[1], dtype), dtype)
        if op is Op.WHERE:
            return _fix(np.where(srcs[0], srcs[1], srcs[2]), dtype)
        if op is Op.CAST:
            return _cast(srcs[0], src_dtypes[0], dtype)
        if op is Op.BITCAST:
            return _bitcast(srcs[0], src_dtypes[0], dtype)
    raise ValueError(f"not an ALU op: {op}")


def scalar(value, dtype):
    """A Python value as a numpy scalar of ``dtype``'s value type (ints wrap)."""
    if dtype is dtypes.bool:
        return np.bool_(value)
    if dtype.is_int:
        v = int(value)
        bits = dtype.bits
        v &= (1 << bits) - 1
        if dtype.kind == "i" and v >= 1 << (bits - 1):
            v -= 1 << bits
        return dtype.np.type(v)
    if dtype is dtypes.bfloat16:
        return np.float32(round_bf16(np.float32(value)))
    return dtype.np.type(value)


def to_python(x, dtype):
    x = np.asarray(x).item()
    if dtype is dtypes.bool:
        return bool(x)
    if dtype.is_int:
        return int(x)
    return float(x)
