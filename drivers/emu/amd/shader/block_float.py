"""f32 conversions, roundings and transcendentals of a compiled block (see block.py), for the
MODE the FLOAT_FAST forms need (f32 rounded to nearest even, denormals kept in and out) and no
modifiers: the VALU library's computation with its operand reads and result finish worked out
for that MODE (plain views of the bits), and steps that cannot change the bits left out:

* a NaN result is already quiet: a signalling NaN is quieted by the float64 conversions (and
  the floor / trunc / ceil / rint ufuncs keep the library's quieting); an integer converted to
  float is no NaN;
* conversions to integers saturate and turn NaN into 0 as convert.to_int does, in fewer steps
  (fmax(NaN, 0) is 0 for the unsigned form), and exact integers convert straight to f32 (the
  rounding of a uint32 / int32 to the nearest f32 is the float64 value's, which is exact).

The f32 exp / log / rcp / rsq / sqrt flush denormal inputs and results whatever MODE says: the
library's own functions for them without modifiers (transcendental.PLAIN32) stand for them in
every MODE (MODELESS: no flag).  DOUBLE holds the f64 ops and the f32 <-> f64 conversions, and
``canonical`` is v_max / v_min of a register with itself (f32 and f64).

UNARY maps a mnemonic to the expression of its result bits over the uint32 sources {0}, {1};
HELPERS are the functions it names."""
import numpy as np

from .block_forms import with_signs
from .state import SGPR_CODES
from .valu.fp import F32 as F32_FORMAT, F64 as F64_FORMAT, quiet
from .valu.transcendental import _FN, _sin_cos, exp32, log32, rcp32, rsq32, sqrt32

F32, F64, U32, I32 = np.float32, np.float64, np.uint32, np.int32
_RSQ = _FN["rsq"]                   # in extended precision, as the library computes it
_BELOW_ONE32 = np.nextafter(F32(1), F32(0))


def fract32(x):
    """x + -floor(x), the largest float below one for a sum that rounds up to one."""
    r = np.add(x, np.negative(np.floor(x)))
    return np.where(r >= 1, _BELOW_ONE32, r).astype(F32)


def sincos32(x, cos):
    return _sin_cos(x.astype(F64), cos).astype(F32)


def to_u32(x):
    """Truncated toward zero, saturated to [0, 2**32 - 1], NaN -> 0."""
    return np.minimum(np.fmax(x.astype(F64), 0.0), 4294967295.0).astype(U32)


def to_i32(x):
    """Truncated toward zero, saturated to the int32 range, NaN -> 0; the bits as uint32."""
    t = x.astype(F64)
    np.maximum(t, -2147483648.0, out=t)
    np.minimum(t, 2147483647.0, out=t)         # a NaN stays NaN through both
    nan = np.isnan(t)
    if np.count_nonzero(nan):
        t[nan] = 0
    return t.astype(I32).view(U32)


def ldexp32(x, n):
    """x * 2**n, n clamped to +-400 as the library clamps it (exact in float64, rounded once)."""
    n = np.minimum(np.maximum(n, I32(-400)), I32(400))
    return np.ldexp(x.astype(F64), n).astype(F32)


def frexp_mant32(x):
    """The mantissa in [0.5, 1); infinities and NaNs are returned as they are."""
    return np.where(np.isfinite(x), np.frexp(x)[0], x)


def frexp_exp32(x):
    """The exponent (0 for infinities and NaNs), as uint32 bits of the int32."""
    return np.where(np.isfinite(x), np.frexp(x)[1], I32(0)).view(U32)


def quiet32(r):
    return quiet(F32_FORMAT, r)


_F = "{0}.view(F32)"
UNARY = {
    "v_exp_f32": f"EXP32({_F}).view(U32)", "v_log_f32": f"LOG32({_F}).view(U32)",
    "v_sqrt_f32": f"SQRT32({_F}).view(U32)", "v_rsq_f32": f"RSQ32({_F}).view(U32)",
    "v_rcp_f32": f"RCP32({_F}).view(U32)", "v_rcp_iflag_f32": f"RCP32({_F}).view(U32)",
    "v_cvt_f32_u32": "{0}.astype(F32).view(U32)", "v_cvt_f32_i32": "{0}.view(I32).astype(F32).view(U32)",
    "v_cvt_u32_f32": f"TOU32({_F})", "v_cvt_i32_f32": f"TOI32({_F})",
    "v_ldexp_f32": f"LDEXP32({_F}, {{1}}.view(I32)).view(U32)",
    "v_frexp_mant_f32": f"MANT32({_F}).view(U32)", "v_frexp_exp_i32_f32": f"EXPONENT32({_F})",
    "v_fract_f32": f"QUIET32(FRACT32({_F})).view(U32)",
    "v_sin_f32": f"QUIET32(SINCOS32({_F}, False)).view(U32)", "v_cos_f32": f"QUIET32(SINCOS32({_F}, True)).view(U32)",
    **{f"v_{f}_f32": f"QUIET32(np.{u}({_F})).view(U32)"
       for f, u in (("trunc", "trunc"), ("floor", "floor"), ("ceil", "ceil"), ("rndne", "rint"))},
}
_FLOAT_OF = {np.dtype(U32): (F32, U32(0x400000)), np.dtype(np.uint64): (F64, np.uint64(1 << 51)),
             np.dtype(np.uint16): (np.float16, np.uint16(0x200))}


def canonical(ctx, x):
    """v_max / v_min (f32, f64, or the f16 halves of v_pk_max / v_pk_min) of x and x, on the
    bits, in a MODE that keeps denormals: x, with its signalling NaNs quieted in IEEE mode
    (fp.fmax / fp.fmin pick x; fp._nan_pick quiets)."""
    if not ctx.mode.ieee:
        return x
    ftype, quiet_bit = _FLOAT_OF[x.dtype]
    nan = np.isnan(x.view(ftype))
    if not np.count_nonzero(nan):
        return x
    return np.where(nan, np.bitwise_or(x, quiet_bit), x)


def quiet64(r):
    return quiet(F64_FORMAT, r)


# f64 ops and the conversions between f32 and f64 (their sources as the library reads them:
# uint64 lanes, uint32 lanes for f32 and for ldexp's exponent {1}): the library's computation
# (the unary ops of transcendental.py and rounding.py, convert._f2f, arith._ldexp, whose
# exponent clamp to +-2200 saturates every result alike) and its finish, the NaN quieting
DOUBLE = {
    "v_rcp_f64": "QUIET64(np.divide(1.0, {0}.view(F64))).view(U64)",
    "v_sqrt_f64": "QUIET64(np.sqrt({0}.view(F64))).view(U64)",
    "v_rsq_f64": "QUIET64(RSQ64({0}.view(F64))).view(U64)",
    "v_ldexp_f64": "QUIET64(np.ldexp({0}.view(F64), np.clip({1}.view(I32), -2200, 2200))).view(U64)",
    "v_cvt_f64_f32": "QUIET64({0}.view(F32).astype(F64)).view(U64)",
    "v_cvt_f32_f64": "QUIET32({0}.view(F64).astype(F32)).view(U32)",
    **{f"v_{f}_f64": f"QUIET64(np.{u}({{0}}.view(F64))).view(U64)"
       for f, u in (("trunc", "trunc"), ("floor", "floor"), ("ceil", "ceil"), ("rndne", "rint"))},
}


def double_op(e, op):
    """(the per-MODE flag, the expression of the result) of a DOUBLE op without modifiers, or
    None.  The flag asks for both the f32 and the f16/f64 fields to be plain (the conversions
    read one and write the other)."""
    from .block import _f32_plain, _f64_plain, _library_op, _vector_source
    form = DOUBLE.get(op.mnemonic)
    if form is None or op.op.mask_in or op.op.mask_out or not _library_op(op, wide=op.dst_bits == 64, signs=True):
        return None
    neg, abs_ = op.kw.get("neg", 0), op.kw.get("abs", 0)
    if (neg | abs_) >> 1:                     # only the float source's: ldexp's exponent has none
        return None
    args = [_vector_source(e, op, o, b, r) for o, b, r in zip(op.sources, op.op.src_bits, op.readers)]
    args = with_signs(args, abs_, neg, op.op.src_bits[0] == 64, 1)
    e.globals.update(HELPERS)
    return e.slot(lambda fm, n, lane: _f32_plain(fm) and _f64_plain(fm)), form.format(*args)


MODELESS = frozenset(f"v_{f}_f32" for f in ("exp", "log", "sqrt", "rsq", "rcp", "rcp_iflag"))
_PREDICATES = ("lt", "eq", "le", "gt", "lg", "ge", "o", "u", "nge", "nlg", "ngt", "nle", "neq", "nlt")


def float_compare(e, op):
    """(the per-MODE flag, or None for v_cmp_class, which reads the raw value in every MODE; the
    expression of the lane mask) of an f32 / f64 v_cmp / v_cmpx and v_cmp_class without
    modifiers but the sources' abs and neg bits: compare._FLOAT's own predicate on the values
    (the library's operand reads are plain views in the plain MODE), or
    compare.float_class's index picking the bit of S1; None for any other op."""
    from .block import _f32_plain, _f64_plain, _library_op, _vector_source
    from .valu.compare import _FLOAT, float_class
    from .valu.fp import F32 as F32F, F64 as F64F
    parts = op.mnemonic.split("_")
    if len(parts) != 4 or parts[1] not in ("cmp", "cmpx") or parts[3] not in ("f32", "f64") \
            or parts[2] not in _PREDICATES + ("class",) or not _library_op(op, signs=True):
        return None
    neg, abs_ = op.kw.get("neg", 0), op.kw.get("abs", 0)
    if parts[2] == "class" and (neg | abs_) >> 1:
        return None
    wide = parts[3] == "f64"
    args = []
    for o, b, r in zip(op.sources, op.op.src_bits, op.readers):
        if o.kind == "sgpr" and o.value < SGPR_CODES and b == 32:
            args.append(f"S[{o.value}, sel][:, None]")
        else:
            args.append(_vector_source(e, op, o, b, r))
    args = with_signs(args, abs_, neg, wide, 2 if parts[2] != "class" else 1)
    e.globals.update(HELPERS)
    ftype, fmt = ("F64", "F64F") if wide else ("F32", "F32F")
    if parts[2] == "class":
        e.globals.update(FCLASS=float_class, F32F=F32F, F64F=F64F)
        return None, (f"np.bitwise_and(np.right_shift({args[1]}, FCLASS({fmt}, {args[0]}.view({ftype}))), U32(1)) "
                      f"== U32(1)")
    e.globals["FCMP_" + parts[2]] = _FLOAT[parts[2]]
    flag = e.slot(lambda fm, n, lane: _f64_plain(fm)) if wide else e.slot(lambda fm, n, lane: _f32_plain(fm))
    return flag, f"FCMP_{parts[2]}({args[0]}.view({ftype}), {args[1]}.view({ftype}))"


HELPERS = {"EXP32": exp32, "LOG32": log32, "SQRT32": sqrt32, "RSQ32": rsq32, "RCP32": rcp32, "TOU32": to_u32,
           "TOI32": to_i32, "LDEXP32": ldexp32, "MANT32": frexp_mant32, "EXPONENT32": frexp_exp32,
           "QUIET32": quiet32, "FRACT32": fract32, "SINCOS32": sincos32, "F32": F32, "F64": F64, "I32": I32, "QUIET64": quiet64, "RSQ64": _RSQ,
           "CANON": canonical, "U64": np.uint64}
