"""The SALU part of a compiled block (see block.py): the table-driven scalar ops of scalar.py
(SOP1, SOP2, SOPC, SOPK and the 32-bit saveexec / wrexec forms) written out as calls of their
table functions on the block's SGPR slices, SCC updated in place; s_mov_b32, s_cselect_b32 and
the 32-bit logic ops as their numpy expressions.  ``e`` is block.py's emitter."""
import numpy as np

from .block_runtime import readonly
from .operands import constant_value
from .state import EXEC_LO, NULL, SGPR_CODES

U32, U64 = np.uint32, np.uint64


def _scalar_source(e, o, width, m):
    if o.kind == "sgpr" and o.value < SGPR_CODES:
        if width == 32:
            return f"S[{o.value}, sel]"
        if o.value + 1 < SGPR_CODES and o.value != NULL:
            return f"JS(S, {o.value}, sel)"
    if o.kind in ("const", "literal"):
        dt = U64 if width == 64 else U32
        value = dt(constant_value(o, width, m))
        return e.slot(lambda fm, n, lane, v=value, dt=dt: readonly(np.full(n, v, dt)))
    from .operands import scalar_reader
    return f"{e.name(scalar_reader(o, width, m), 'r')}(st, sel)"


def _scalar_dest(e, o, width, value):
    if o.kind != "sgpr" or o.value >= SGPR_CODES or (width == 64 and o.value + 1 >= SGPR_CODES):
        return False
    if o.value == NULL:
        return True
    if width == 32:
        e.emit(f"S[{o.value}, sel] = {value}")
    else:
        e.emit(f"PUT64S(S, {o.value}, sel, {value})")
    return True


def emit_salu(e, ins):
    """Inline the table-driven SALU ops (semantics from scalar.py's tables); False leaves the
    instruction to its closure."""
    from . import scalar as salu
    m, ops = ins.mnemonic, ins.operands
    if m in _LOGIC32 or m == "s_cselect_b32":
        dst, s0, s1 = ops
        if not _dest_ok(dst, 32):
            return False
        a, b = _scalar_source(e, s0, 32, m), _scalar_source(e, s1, 32, m)
        if m == "s_cselect_b32":                   # SCC unchanged
            return _scalar_dest(e, dst, 32, f"np.where(SCC[sel] != 0, {a}, {b})")
        e.emit(f"r = {_LOGIC32[m].format(a=a, b=b)}; SCC[sel] = r != 0")
        return _scalar_dest(e, dst, 32, "r")
    if m == "s_mov_b32" and ins.family == "SOP1":
        if not _dest_ok(ops[0], 32):
            return False
        return _scalar_dest(e, ops[0], 32, _scalar_source(e, ops[1], 32, m))
    if ins.family == "SOP2" and m in salu.SOP2:
        width, f = salu.SOP2[m]
        wa, wb = salu.SOP2_SRC_BITS.get(m, (width, width))
        dst, s0, s1 = ops
        if not _dest_ok(dst, width):
            return False
        a, b = _scalar_source(e, s0, wa, m), _scalar_source(e, s1, wb, m)
        e.emit(f"r, c = {e.name(f, 's')}({a}, {b}, SCC[sel])")
        e.emit("if c is not None: SCC[sel] = c")
        return _scalar_dest(e, dst, width, "r")
    if ins.family == "SOP1" and m in salu.SOP1:
        width, swidth, f = salu.SOP1[m]
        if not _dest_ok(ops[0], width):
            return False
        a = _scalar_source(e, ops[1], swidth, m)
        e.emit(f"r, c = {e.name(f, 's')}({a})")
        e.emit("if c is not None: SCC[sel] = c")
        return _scalar_dest(e, ops[0], width, "r")
    if ins.family == "SOPC" and not m.startswith("s_bitcmp"):
        _, _, cond, typ = m.split("_")
        width = 64 if typ.endswith("64") else 32
        a, b = _scalar_source(e, ops[0], width, m), _scalar_source(e, ops[1], width, m)
        if typ.startswith("i"):
            a, b = f"S32({a})", f"S32({b})"
            e.globals["S32"] = salu._s32
        e.emit(f"SCC[sel] = {e.name(salu._CMP[cond], 's')}({a}, {b})")
        return True
    if ins.family == "SOPK" and m in ("s_movk_i32", "s_cmpk_eq_i32", "s_cmpk_lg_i32", "s_cmpk_gt_i32",
                                      "s_cmpk_ge_i32", "s_cmpk_lt_i32", "s_cmpk_le_i32", "s_cmpk_eq_u32",
                                      "s_cmpk_lg_u32", "s_cmpk_gt_u32", "s_cmpk_ge_u32", "s_cmpk_lt_u32",
                                      "s_cmpk_le_u32"):
        dst = ops[0]
        imm = ops[1].value if len(ops) > 1 else 0
        simm = imm - 0x10000 if imm & 0x8000 else imm
        if m == "s_movk_i32":
            if not _dest_ok(dst, 32):
                return False
            return _scalar_dest(e, dst, 32, f"U32({simm & 0xFFFFFFFF})")
        if dst.kind != "sgpr" or dst.value >= SGPR_CODES:
            return False
        _, _, cond, typ = m.split("_")
        cmp = e.name(salu._CMP[cond], "s")
        if typ == "i32":
            e.globals["S32"] = salu._s32
            e.emit(f"SCC[sel] = {cmp}(S32(S[{dst.value}, sel]), I32({simm}))")
        else:
            e.emit(f"SCC[sel] = {cmp}(S[{dst.value}, sel], U32({imm}))")
        return True
    if ins.family == "SOP1" and m.endswith("_b32") and ("saveexec" in m or "wrexec" in m):
        # EXEC = f(S0, EXEC); SCC = EXEC != 0; D = the old EXEC (saveexec) or the new (wrexec)
        kind = m[2:].rsplit("_", 2)[0]
        f = (salu.WREXEC if "wrexec" in m else salu.SAVEEXEC)[kind]
        dst, src = ops
        if not _dest_ok(dst, 32):
            return False
        e.emit(f"x = {_scalar_source(e, src, 32, m)}; old = S[{EXEC_LO}, sel].copy()")
        e.emit(f"new = {e.name(f, 's')}(x, old)")
        e.emit(f"S[{EXEC_LO}, sel] = new; SCC[sel] = new != 0")
        return _scalar_dest(e, dst, 32, "new" if "wrexec" in m else "old")
    return False


# scalar.py's 32-bit logic ops as one numpy expression of uint32 operands (SCC = result != 0),
# the commonest SALU ops of compiled code (EXEC masks of branches and loops)
_LOGIC32 = {"s_and_b32": "np.bitwise_and({a}, {b})", "s_or_b32": "np.bitwise_or({a}, {b})",
            "s_xor_b32": "np.bitwise_xor({a}, {b})", "s_and_not1_b32": "np.bitwise_and({a}, np.invert({b}))",
            "s_or_not1_b32": "np.bitwise_or({a}, np.invert({b}))", "s_nand_b32": "np.invert(np.bitwise_and({a}, {b}))",
            "s_nor_b32": "np.invert(np.bitwise_or({a}, {b}))", "s_xnor_b32": "np.invert(np.bitwise_xor({a}, {b}))"}


def _dest_ok(o, width):
    return o.kind == "sgpr" and o.value < SGPR_CODES and (width == 32 or o.value + 1 < SGPR_CODES)
