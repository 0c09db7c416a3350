"""VOPC: v_cmp_* / v_cmpx_* (the core writes v_cmpx results to EXEC) and v_cmp_class_*.

Every entry returns the lane mask (bool (W, 32)). Float compares see their sources after abs/neg
and input denormal flushing; ordered predicates are false and the N* (unordered-or) forms true
when either source is NaN. v_cmp_class tests S0 against the class bits of S1:
0 sNaN, 1 qNaN, 2 -inf, 3 -normal, 4 -denormal, 5 -0, 6 +0, 7 +denormal, 8 +normal, 9 +inf.
"""
import numpy as np

from .bits import i16, i32, i64, src_half
from .kinds import KINDS
from .registry import op

_FLOAT = {
    "f": lambda a, b: np.zeros(a.shape, bool),
    "lt": lambda a, b: a < b,
    "eq": lambda a, b: a == b,
    "le": lambda a, b: a <= b,
    "gt": lambda a, b: a > b,
    "lg": lambda a, b: (a < b) | (a > b),
    "ge": lambda a, b: a >= b,
    "o": lambda a, b: ~np.isnan(a) & ~np.isnan(b),
    "u": lambda a, b: np.isnan(a) | np.isnan(b),
    "nge": lambda a, b: ~(a >= b),
    "nlg": lambda a, b: ~((a < b) | (a > b)),
    "ngt": lambda a, b: ~(a > b),
    "nle": lambda a, b: ~(a <= b),
    "neq": lambda a, b: ~(a == b),
    "nlt": lambda a, b: ~(a < b),
    "t": lambda a, b: np.ones(a.shape, bool),
}
_INT = {
    "f": _FLOAT["f"], "lt": _FLOAT["lt"], "eq": _FLOAT["eq"], "le": _FLOAT["le"],
    "gt": _FLOAT["gt"], "ne": lambda a, b: a != b, "ge": _FLOAT["ge"], "t": _FLOAT["t"],
}
_INT_READ = {
    "i16": lambda ctx, srcs, i: i16(src_half(ctx, srcs, i)),
    "u16": lambda ctx, srcs, i: src_half(ctx, srcs, i),
    "i32": lambda ctx, srcs, i: i32(srcs[i]),
    "u32": lambda ctx, srcs, i: srcs[i],
    "i64": lambda ctx, srcs, i: i64(srcs[i]),
    "u64": lambda ctx, srcs, i: srcs[i],
}


def _register(name, bits, run):
    op(name, (bits, bits), 0, mask_out=True)(run)


for _t, _kind in KINDS.items():
    for _p, _f in _FLOAT.items():
        def _run(ctx, srcs, old, kind=_kind, f=_f):
            return f(kind.read(ctx, srcs, 0), kind.read(ctx, srcs, 1))
        for _prefix in ("v_cmp_", "v_cmpx_"):
            _register("%s%s_%s" % (_prefix, _p, _t), _kind.reg_bits, _run)

for _t, _read in _INT_READ.items():
    for _p, _f in _INT.items():
        if _t.endswith("16") and _p in ("f", "t"):
            continue                                  # gfx11 has no v_cmp_{f,t}_{i,u}16
        def _run(ctx, srcs, old, read=_read, f=_f):
            return f(read(ctx, srcs, 0), read(ctx, srcs, 1))
        for _prefix in ("v_cmp_", "v_cmpx_"):
            _register("%s%s_%s" % (_prefix, _p, _t), 64 if _t.endswith("64") else 32, _run)


# the class of each magnitude range of a float's bits: zero, denormal, normal, infinity,
# signalling NaN, quiet NaN (columns), for a positive and a negative sign (rows)
_CLASS_OF = np.array([[6, 7, 8, 9, 0, 1], [5, 4, 3, 2, 0, 1]], np.uint32)


def _class_bounds(fmt):
    """The lowest magnitude bits of each range after zero (np.searchsorted's boundaries)."""
    inf = fmt.exp_mask
    return np.array([1, 1 << fmt.mant, inf, inf + 1, inf | fmt.quiet_bit], fmt.utype)


_BOUNDS = {}


def float_class(fmt, x):
    """The 10-bit class index of each value of float array x (see the module docstring), as
    uint32: its magnitude's range found among the bounds, and its sign, on the bits."""
    bounds = _BOUNDS.get(fmt.name)
    if bounds is None:
        bounds = _BOUNDS[fmt.name] = _class_bounds(fmt)
    b = fmt.bits(x)
    kind = np.searchsorted(bounds, np.bitwise_and(b, fmt.u_abs), side="right")
    return _CLASS_OF[np.right_shift(b, fmt.utype(fmt.width - 1)), kind]


for _t, _kind in KINDS.items():
    def _class(ctx, srcs, old, kind=_kind):
        x = kind.read(ctx, srcs, 0, flush_denorm=False)          # class sees the raw value
        mask = kind.raw(ctx, srcs, 1).astype(np.uint32)           # f16: the op_sel half
        return (mask >> float_class(kind.fmt, x)) & 1 == 1
    for _prefix in ("v_cmp_", "v_cmpx_"):
        op("%sclass_%s" % (_prefix, _t), (_kind.reg_bits, 32), 0, mask_out=True)(_class)
