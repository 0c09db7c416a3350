"""32-bit integer VALU ops of a compiled block with what is constant worked out when the block is
compiled (see block.py): a constant shift count or bit field folded into the expression, and bit
ops the VALU library computes through wider integers or byte tables (v_bfe_i32 of a constant
field, v_bcnt_u32_b32, v_bfrev_b32, v_perm_b32 of a constant selector, v_clz_i32_u32,
v_ctz_i32_b32, v_alignbit_b32) written as a few uint32 operations giving the same bits.  ``e``
is block.py's emitter, ``args`` the sources as the block reads them (VGPR slices, SGPR columns,
constants' lanes)."""
import numpy as np

from .operands import constant_value

U32, I32, U8 = np.uint32, np.int32, np.uint8
# each byte's bits reversed
_REV8 = np.array([int(f"{i:08b}"[::-1], 2) for i in range(256)], U8)


def _constants(op):
    """{source index: its 32 bits} of the constant sources of op."""
    return {i: int(constant_value(o, 32, op.mnemonic)) for i, o in enumerate(op.sources)
            if o.kind in ("const", "literal")}


def folded(e, op, form, args):
    """The EXPRESSIONS ``form`` of op over ``args`` with its constant shift counts (S[4:0]) folded,
    and v_bfe_u32 of a constant field as one shift and one mask."""
    consts = _constants(op)
    if op.mnemonic == "v_bfe_u32" and 1 in consts and 2 in consts:
        offset, width = consts[1] & 31, consts[2] & 31
        field = args[0] if offset == 0 else f"np.right_shift({args[0]}, {e.name(U32(offset), 'cst')})"
        return f"np.bitwise_and({field}, {e.name(U32((1 << width) - 1), 'cst')})"
    expr = form.format(**dict(zip("abc", args)))
    for i, v in consts.items():
        expr = expr.replace(f"np.bitwise_and({args[i]}, U32(31))", e.name(U32(v & 31), "cst"))
    return expr


BIT_OPS = frozenset(("v_bfe_i32", "v_bcnt_u32_b32", "v_bfrev_b32", "v_perm_b32", "v_clz_i32_u32", "v_ctz_i32_b32",
                     "v_alignbit_b32"))


def bit_op(e, op, sources):
    """The expression of a bit op of BIT_OPS written out (see the module's doc), or None;
    ``sources()`` makes the sources' expressions."""
    m, consts = op.mnemonic, _constants(op)
    if m in ("v_bfe_i32", "v_perm_b32") and 2 not in consts:
        return None
    args = sources()
    if m == "v_bfe_i32" and 1 in consts and 2 in consts:
        # the field shifted up to bit 31, then arithmetically down to bit 0: its sign extended
        # (a field reaching past bit 31 is S0 >> offset, which the library's shift fills with
        # the sign too)
        offset, width = consts[1] & 31, consts[2] & 31
        if width == 0:
            return None
        up = max(0, 32 - offset - width)
        return (f"np.right_shift(np.left_shift({args[0]}, {e.name(U32(up), 'cst')}).view(I32), "
                f"{e.name(I32(up + offset), 'cst')}).view(U32)")
    if m == "v_bcnt_u32_b32" and hasattr(np, "bitwise_count"):
        return f"np.add(np.bitwise_count({args[0]}), {args[1]}, dtype=U32)"
    if m == "v_clz_i32_u32":
        # 32 less the exponent frexp gives the value (exact in float64, 0 for zero: 32 -> -1)
        e.globals["NONE_IS_M1"] = none_is_minus_one
        return f"NONE_IS_M1(np.subtract(U32(32), np.frexp({args[0]}.astype(np.float64))[1].astype(U32)))"
    if m == "v_ctz_i32_b32" and hasattr(np, "bitwise_count"):
        # the bits below the lowest set one, counted (all 32 for zero: -> -1)
        e.globals["NONE_IS_M1"] = none_is_minus_one
        return (f"NONE_IS_M1(np.bitwise_count(np.subtract(np.bitwise_and({args[0]}, np.negative({args[0]})), "
                f"U32(1))).astype(U32))")
    if m == "v_alignbit_b32":
        # {S0, S1} as one 64-bit value shifted right by S2[4:0], its low dword
        count = f"np.bitwise_and({args[2]}, U32(31)).astype(np.uint64)" if 2 not in consts \
            else e.name(np.uint64(consts[2] & 31), "cst")
        return (f"np.right_shift(np.bitwise_or(np.left_shift({args[0]}.astype(np.uint64), np.uint64(32)), "
                f"{args[1]}.astype(np.uint64)), {count}).astype(U32)")
    if m == "v_bfrev_b32":
        e.globals["BFREV"] = bfrev
        return f"BFREV({args[0]})"
    if m == "v_perm_b32" and 2 in consts and all((consts[2] >> 8 * k & 0xFF) < 8 for k in range(4)):
        e.globals["PERM"] = perm_bytes
        picks = tuple(consts[2] >> 8 * k & 0xFF for k in range(4))
        if picks == (3, 2, 1, 0):                     # S1's bytes the other way round
            return f"{args[1]}.byteswap()"
        return f"PERM({args[0]}, {args[1]}, {e.name(np.array(picks, np.intp), 'cst')})"
    return None


def none_is_minus_one(v):
    """A bit count v in [0, 32] (uint32), with 32 (no bit found) made -1: v | -(v >> 5)."""
    return np.bitwise_or(v, np.negative(np.right_shift(v, U32(5))))


def bfrev(x):
    """uint32 bits reversed: the bytes in the other order, each byte's bits reversed."""
    return _REV8[np.ascontiguousarray(x).byteswap().view(U8)].view(U32)


def perm_bytes(s0, s1, picks):
    """v_perm_b32 with every selector byte below 8: result byte k is byte picks[k] of S1 (0-3)
    and S0 (4-7), the bytes of {S0, S1} read as one little-endian 64-bit value."""
    table = np.empty(np.broadcast(s0, s1).shape + (2,), U32)
    table[..., 0] = s1
    table[..., 1] = s0
    return table.view(U8).take(picks, axis=-1).view(U32)[..., 0]
