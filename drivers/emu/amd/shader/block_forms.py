"""The numpy forms of VALU library ops that compiled blocks write out (see block.py): each is the
library's own computation for the op without modifiers, operand for operand, so that a block
gives the per-instruction path's bits.  Data only; block.py decides when a form applies."""

# Integer ops whose result is one numpy ufunc of uint32 operands, exactly what the VALU library
# computes for them (uint32 arithmetic wraps modulo 2**32; shift counts are S0[4:0]), emitted
# inline when the instruction has no modifiers: (ufunc, source order), "shift" ufuncs take
# (S1, S0 & 31), None is a move.
INLINE_OPS = {"v_add_nc_u32": ("np.add", (0, 1)), "v_sub_nc_u32": ("np.subtract", (0, 1)),
              "v_subrev_nc_u32": ("np.subtract", (1, 0)), "v_and_b32": ("np.bitwise_and", (0, 1)),
              "v_or_b32": ("np.bitwise_or", (0, 1)), "v_xor_b32": ("np.bitwise_xor", (0, 1)),
              "v_mul_lo_u32": ("np.multiply", (0, 1)), "v_min_u32": ("np.minimum", (0, 1)),
              "v_max_u32": ("np.maximum", (0, 1)), "v_lshlrev_b32": ("np.left_shift", "shift"),
              "v_lshrrev_b32": ("np.right_shift", "shift"), "v_mov_b32": None}


AUGMENTED = {"np.add": "+=", "np.subtract": "-=", "np.bitwise_and": "&=", "np.bitwise_or": "|=",
              "np.bitwise_xor": "^=", "np.multiply": "*=", "np.left_shift": "<<=", "np.right_shift": ">>="}
COMMUTATIVE = frozenset(("np.add", "np.bitwise_and", "np.bitwise_or", "np.bitwise_xor", "np.multiply",
                          "np.minimum", "np.maximum"))


# The VALU library's wrapping uint32 forms of the carry ops and v_cndmask_b32 (without clamp or
# source modifiers), as lines computing d{v} (and the carry or borrow m{v}) from a, b and the
# carry-in / select mask c: they are the library's expressions, operand for operand.
CARRY_LINES = {
    "v_add_co_u32": ("d{v} = np.add({a}, {b})", "m{v} = np.less(d{v}, {a})"),
    "v_sub_co_u32": ("d{v} = np.subtract({a}, {b})", "m{v} = np.greater({b}, {a})"),
    "v_subrev_co_u32": ("d{v} = np.subtract({b}, {a})", "m{v} = np.greater({a}, {b})"),
    "v_add_co_ci_u32": ("t{v} = np.add({a}, {b})", "d{v} = np.add(t{v}, {c})",
                        "m{v} = np.less(t{v}, {a}) | np.less(d{v}, t{v})"),
    "v_sub_co_ci_u32": ("t{v} = np.subtract({a}, {b})", "d{v} = np.subtract(t{v}, {c})",
                        "m{v} = np.greater({b}, {a}) | np.less(t{v}, {c})"),
    "v_subrev_co_ci_u32": ("t{v} = np.subtract({b}, {a})", "d{v} = np.subtract(t{v}, {c})",
                           "m{v} = np.greater({a}, {b}) | np.less(t{v}, {c})"),
    "v_cndmask_b32": ("d{v} = np.where({c}, {b}, {a})",),
}


# 32-bit integer ops of the VALU library (int32.py) as one numpy expression of their uint32
# sources {a}, {b}, {c}: the same arithmetic (uint32 wraps modulo 2**32, so a 24-bit product's
# low dword is the int64 product's; signed forms view the bits as int32; shift counts S[4:0]).
EXPRESSIONS = {
    "v_mul_hi_u32": "np.right_shift(np.multiply({a}, {b}, dtype=U64), U64(32)).astype(U32)",
    "v_lshl_add_u32": "np.add(np.left_shift({a}, np.bitwise_and({b}, U32(31))), {c})",
    "v_add_lshl_u32": "np.left_shift(np.add({a}, {b}), np.bitwise_and({c}, U32(31)))",
    "v_lshl_or_b32": "np.bitwise_or(np.left_shift({a}, np.bitwise_and({b}, U32(31))), {c})",
    "v_add3_u32": "np.add(np.add({a}, {b}), {c})",
    "v_xad_u32": "np.add(np.bitwise_xor({a}, {b}), {c})",
    "v_and_or_b32": "np.bitwise_or(np.bitwise_and({a}, {b}), {c})",
    "v_or3_b32": "np.bitwise_or(np.bitwise_or({a}, {b}), {c})",
    "v_xor3_b32": "np.bitwise_xor(np.bitwise_xor({a}, {b}), {c})",
    "v_bfi_b32": "np.bitwise_or(np.bitwise_and({a}, {b}), np.bitwise_and(np.invert({a}), {c}))",
    "v_not_b32": "np.invert({a})",
    "v_bfe_u32": "np.bitwise_and(np.right_shift({a}, np.bitwise_and({b}, U32(31))), "
                 "np.subtract(np.left_shift(U32(1), np.bitwise_and({c}, U32(31))), U32(1)))",
    "v_ashrrev_i32": "np.right_shift({b}.view(I32), np.bitwise_and({a}, U32(31)).view(I32)).view(U32)",
    "v_max_i32": "np.maximum({a}.view(I32), {b}.view(I32)).view(U32)",
    "v_min_i32": "np.minimum({a}.view(I32), {b}.view(I32)).view(U32)",
    "v_med3_i32": "np.maximum(np.minimum({a}.view(I32), {b}.view(I32)), np.minimum(np.maximum("
                  "{a}.view(I32), {b}.view(I32)), {c}.view(I32))).view(U32)",
    "v_min3_i32": "np.minimum(np.minimum({a}.view(I32), {b}.view(I32)), {c}.view(I32)).view(U32)",
    "v_max3_i32": "np.maximum(np.maximum({a}.view(I32), {b}.view(I32)), {c}.view(I32)).view(U32)",
    "v_minmax_i32": "np.maximum(np.minimum({a}.view(I32), {b}.view(I32)), {c}.view(I32)).view(U32)",
    "v_maxmin_i32": "np.minimum(np.maximum({a}.view(I32), {b}.view(I32)), {c}.view(I32)).view(U32)",
    "v_min3_u32": "np.minimum(np.minimum({a}, {b}), {c})", "v_max3_u32": "np.maximum(np.maximum({a}, {b}), {c})",
    "v_med3_u32": "np.maximum(np.minimum({a}, {b}), np.minimum(np.maximum({a}, {b}), {c}))",
    "v_minmax_u32": "np.maximum(np.minimum({a}, {b}), {c})", "v_maxmin_u32": "np.minimum(np.maximum({a}, {b}), {c})",
    "v_mul_u32_u24": "np.multiply(np.bitwise_and({a}, U32(0xFFFFFF)), np.bitwise_and({b}, U32(0xFFFFFF)))",
    "v_mul_i32_i24": "np.multiply(np.right_shift(np.left_shift({a}, U32(8)).view(I32), I32(8)), "
                     "np.right_shift(np.left_shift({b}, U32(8)).view(I32), I32(8))).view(U32)",
}


COMPARES = {"lt": "np.less", "eq": "np.equal", "le": "np.less_equal", "gt": "np.greater", "ne": "np.not_equal",
             "ge": "np.greater_equal"}


SHIFTS64 = {"v_lshlrev_b64": "np.left_shift", "v_lshrrev_b64": "np.right_shift"}


# f32 ops whose library function, under round-to-nearest-even with f32 denormals kept (inputs
# and results) and without modifiers, is the numpy expression below of the operands viewed as
# float32 (the library's reads are then plain views and its finish only takes the bits back):
# add/sub/mul are IEEE arithmetic, fma is fp.fma_narrow, min/max are fp.fmin/fp.fmax (which
# read nothing of the Ctx but MODE.IEEE; so do med3, min3, max3, minmax and maxmin, made of them).
# {d} is the destination (v_fmac's addend).  The f64
# ones are the same under MODE's f16/f64 round and denormal fields (fma is fp.fma64), on the
# register pairs read as the library reads them.
FLOAT_FAST = {
    "v_add_f32": "np.add({0}, {1})", "v_sub_f32": "np.add({0}, np.negative({1}))",
    "v_subrev_f32": "np.add({1}, np.negative({0}))", "v_mul_f32": "np.multiply({0}, {1})",
    "v_fma_f32": "FMA(F32F, {0}, {1}, {2})", "v_fmamk_f32": "FMA(F32F, {0}, {1}, {2})",
    "v_fmaak_f32": "FMA(F32F, {0}, {1}, {2})", "v_fmac_f32": "FMA(F32F, {0}, {1}, {d})",
    "v_max_f32": "FMAX({ctx}, F32F, {0}, {1})", "v_min_f32": "FMIN({ctx}, F32F, {0}, {1})",
    "v_med3_f32": "FMED3({ctx}, F32F, {0}, {1}, {2})",
    "v_min3_f32": "FMIN({ctx}, F32F, FMIN({ctx}, F32F, {0}, {1}), {2})",
    "v_max3_f32": "FMAX({ctx}, F32F, FMAX({ctx}, F32F, {0}, {1}), {2})",
    "v_minmax_f32": "FMAX({ctx}, F32F, FMIN({ctx}, F32F, {0}, {1}), {2})",
    "v_maxmin_f32": "FMIN({ctx}, F32F, FMAX({ctx}, F32F, {0}, {1}), {2})",
    "v_add_f64": "np.add({0}, {1})", "v_mul_f64": "np.multiply({0}, {1})",
    "v_fma_f64": "FMA64({0}, {1}, {2})",
    "v_max_f64": "FMAX({ctx}, F64F, {0}, {1})", "v_min_f64": "FMIN({ctx}, F64F, {0}, {1})",
}


def with_signs(args, abs_, neg, wide, count=None):
    """The source expressions ``args`` (uint32 lanes, or uint64 when ``wide``) with |x| and then
    -x applied to their bits where the op's abs / neg bits say, as the library's operand reads
    apply them; only the first ``count`` sources when given."""
    u, sign = ("U64", 1 << 63) if wide else ("U32", 1 << 31)
    out = list(args)
    for i in range(len(out) if count is None else count):
        if abs_ >> i & 1:
            out[i] = f"np.bitwise_and({out[i]}, {u}({sign - 1}))"
        if neg >> i & 1:
            out[i] = f"np.bitwise_xor({out[i]}, {u}({sign}))"
    return out
