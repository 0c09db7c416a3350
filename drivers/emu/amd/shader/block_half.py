"""16-bit VALU ops of a compiled block (see block.py) written out: the VALU library's computation
for the op without modifiers, on the 32-bit registers as the block reads them.

* 16-bit integer ops with op_sel clear (the low halves in, the low half out, the high half of the
  destination kept) and no clamp: the result's low 16 bits are the uint32 arithmetic's (a sum,
  difference or product modulo 2**16 only depends on the operands' low 16 bits; a signed add or
  multiply has the unsigned one's bits), merged into the destination's old high half.  No MODE
  reads them.
* f16 ops with op_sel clear (the low halves as float16) and the packed f16 ops whose halves map
  straight through (op_sel clear, op_sel_hi set, the same negation for both halves): the packed
  ones are one numpy operation over the registers viewed as float16 pairs, which pairs the halves
  as the library's (..., 32, 2) view does.  They stand for the library behind the per-MODE flag
  of the f16/f64 fields (rounded to nearest even, denormals kept in and out), where its operand
  reads are plain views and its finish is the NaN quieting alone (none for min / max, whose
  NaN results are operands passed through; v_pk_max_f16 / v_pk_min_f16 of a register with
  itself, clang's canonicalize, is the register with its signalling NaNs quieted in IEEE mode).

``half_op(e, op)`` returns (the flag's slot or None, the expression of the uint32 result) or
None; the sources are read as block.py reads them."""
import numpy as np

from .block_float import canonical, quiet32
from .operands import constant_value
from .valu.fp import F16 as F16_FORMAT, fma_narrow, fmax, fmin, quiet

U16, U32, I16, F16, F32, F64 = np.uint16, np.uint32, np.int16, np.float16, np.float32, np.float64
_HIGH, _LOW = U32(0xFFFF0000), U32(0xFFFF)


def merge16(old, v):
    """A 16-bit result (the low 16 bits of v) in the low half of the destination's old bits."""
    return np.bitwise_or(np.bitwise_and(old, _HIGH), np.bitwise_and(v, _LOW, dtype=U32))


def low16(x):
    """The low halves of uint32 registers as float16."""
    return x.astype(U16).view(F16)


def pair16(x):
    """uint32 registers as float16 pairs (low half first), (w, 64)."""
    return np.ascontiguousarray(x).view(F16)


def joined16(r):
    """float16 pairs back into uint32 registers."""
    return np.ascontiguousarray(r).view(U32)


def canonical16(ctx, x):
    """v_pk_max_f16 / v_pk_min_f16 of x and x (uint32 registers): block_float.canonical of both
    halves (signalling NaNs quieted in IEEE mode)."""
    return canonical(ctx, np.ascontiguousarray(x).view(U16)).view(U32)


def quiet16(r):
    return quiet(F16_FORMAT, r)


HELPERS = {"M16": merge16, "L16": low16, "P16": pair16, "J16": joined16, "CANON16": canonical16,
           "QUIET16": quiet16, "QUIET32H": quiet32, "FMAH": fma_narrow, "FMAXH": fmax, "FMINH": fmin,
           "F16F": F16_FORMAT, "F16": F16, "F32": F32, "F64": F64, "U16": U16, "I16": I16}

# integer: the uint32 expression whose low 16 bits are the result ({0}, {1}, {2}: sources)
_SHIFT = "np.bitwise_and({0}, U32(15))"
INT16 = {
    "v_add_nc_u16": "np.add({0}, {1})", "v_add_nc_i16": "np.add({0}, {1})",
    "v_sub_nc_u16": "np.subtract({0}, {1})", "v_sub_nc_i16": "np.subtract({0}, {1})",
    "v_mul_lo_u16": "np.multiply({0}, {1})",
    "v_mad_u16": "np.add(np.multiply({0}, {1}), {2})", "v_mad_i16": "np.add(np.multiply({0}, {1}), {2})",
    "v_and_b16": "np.bitwise_and({0}, {1})", "v_or_b16": "np.bitwise_or({0}, {1})",
    "v_xor_b16": "np.bitwise_xor({0}, {1})",
    "v_lshlrev_b16": f"np.left_shift({{1}}, {_SHIFT})",
    "v_lshrrev_b16": f"np.right_shift(np.bitwise_and({{1}}, U32(0xFFFF)), {_SHIFT})",
    "v_ashrrev_i16": f"np.right_shift({{1}}.astype(U16).view(I16), {_SHIFT}.astype(I16)).view(U16)",
    "v_max_u16": "np.maximum({0}.astype(U16), {1}.astype(U16))",
    "v_min_u16": "np.minimum({0}.astype(U16), {1}.astype(U16))",
    "v_max_i16": "np.maximum({0}.astype(U16).view(I16), {1}.astype(U16).view(I16)).view(U16)",
    "v_min_i16": "np.minimum({0}.astype(U16).view(I16), {1}.astype(U16).view(I16)).view(U16)",
}

# f16 with op_sel clear: the float16 result of the low halves {0}, {1}, {2} (arithmetic: IEEE
# results, nothing to quiet; min / max pass NaN operands through), merged into the old bits
_L = ["L16({%d})" % i for i in range(3)]
F16_OPS = {
    "v_add_f16": f"np.add({_L[0]}, {_L[1]})", "v_mul_f16": f"np.multiply({_L[0]}, {_L[1]})",
    "v_sub_f16": f"np.add({_L[0]}, np.negative({_L[1]}))",
    "v_subrev_f16": f"np.add({_L[1]}, np.negative({_L[0]}))",
    "v_fma_f16": f"FMAH(F16F, {_L[0]}, {_L[1]}, {_L[2]})",
    "v_max_f16": f"FMAXH({{ctx}}, F16F, {_L[0]}, {_L[1]})", "v_min_f16": f"FMINH({{ctx}}, F16F, {_L[0]}, {_L[1]})",
    "v_cvt_f16_f32": "QUIET16({0}.view(F32).astype(F64).astype(F16))",
}
# the whole uint32 result of a conversion out of f16
F16_TO_32 = {"v_cvt_f32_f16": f"QUIET32H({_L[0]}.astype(F64).astype(F32)).view(U32)"}

# packed: the float16 pairs of the result over the sources' pairs {0}, {1}, {2}
_P = ["P16({%d})" % i for i in range(3)]
PACKED = {
    "v_pk_add_f16": f"QUIET16(np.add({_P[0]}, {_P[1]}))", "v_pk_mul_f16": f"QUIET16(np.multiply({_P[0]}, {_P[1]}))",
    "v_pk_fma_f16": f"QUIET16(FMAH(F16F, {_P[0]}, {_P[1]}, {_P[2]}))",
    "v_pk_max_f16": f"FMAXH({{ctx}}, F16F, {_P[0]}, {_P[1]})", "v_pk_min_f16": f"FMINH({{ctx}}, F16F, {_P[0]}, {_P[1]})",
}


def half_op(e, op):
    """(flag slot or None, uint32 result expression) of a 16-bit op written out, or None."""
    from .valu import VALU
    m = op.mnemonic
    if VALU.get(m) is not op.op or op.dst_bits != 32 or op.op.mask_in or op.op.mask_out:
        return None
    kw = op.kw
    if kw.get("clamp") or kw.get("omod") or kw.get("abs") or kw.get("opsel"):
        return None
    if m in PACKED:
        return _packed(e, op, kw)
    form = INT16.get(m) or F16_OPS.get(m) or F16_TO_32.get(m)
    if form is None or kw.get("neg") or kw.get("neg_hi"):
        return None
    args = _sources(e, op, packed=False)
    if args is None:
        return None
    e.globals.update(HELPERS)
    if m in INT16:
        consts = {i: int(constant_value(o, 32, m)) for i, o in enumerate(op.sources) if o.kind in ("const", "literal")}
        if "U32(15)" in form and 0 in consts:         # a constant shift count folded
            form = form.replace(_SHIFT, e.name(U32(consts[0] & 15), "cst"))
        return None, f"M16({_old(op)}, {form.format(*args)})"
    flag = _flag(e)
    ctx = _ctx(e, op) if "{ctx}" in form else ""
    expr = form.replace("{ctx}", ctx).format(*args)
    if m in F16_TO_32:
        return flag, expr
    return flag, f"M16({_old(op)}, {expr}.view(U16))"


def _packed(e, op, kw):
    n = len(op.sources)
    every = (1 << n) - 1
    if kw.get("opsel_hi", every) & every != every or (kw.get("neg", 0) ^ kw.get("neg_hi", 0)) & every:
        return None
    args = _sources(e, op, packed=True)
    if args is None:
        return None
    e.globals.update(HELPERS)
    neg = kw.get("neg", 0)
    for i in range(n):
        if neg >> i & 1:
            args[i] = f"np.bitwise_xor({args[i]}, U32(0x80008000))"
    flag = _flag(e)
    m = op.mnemonic
    ctx = _ctx(e, op) if m in ("v_pk_max_f16", "v_pk_min_f16") else ""
    if ctx and not neg and op.sources[0].kind == op.sources[1].kind == "vgpr" \
            and op.sources[0].value == op.sources[1].value:
        return flag, f"CANON16({ctx}, {args[0]})"
    return flag, f"J16({PACKED[m].replace('{ctx}', ctx).format(*args)})"


def _sources(e, op, packed):
    """The sources as uint32 (w, 32) lanes (an SGPR as a (w, 1) column, but not for packed ops,
    whose halves are viewed side by side), or None for other operands."""
    from .block import _inline_sources
    return _inline_sources(e, op, sgpr=not packed)


def _old(op):
    return f"V[{op.vdst}, sel]"


def _flag(e):
    from .block import _f64_plain                   # the f16 fields are the f64 ones
    return e.slot(lambda fm, n, lane: _f64_plain(fm) and _f32_plain_fm(fm))


def _f32_plain_fm(fm):
    from .block import _f32_plain
    return _f32_plain(fm)


def _ctx(e, op):
    from .block import _plain_ctx
    return _plain_ctx(e, op)
