"""The SALU part of a compiled block (see block.py), its branches and v_readfirstlane_b32 into an
SGPR: the table-driven scalar ops of scalar.py (SOP1, SOP2, SOPC, SOPK and the 32-bit saveexec /
wrexec forms) written out as calls of their table functions on the block's SGPR slices, SCC
updated in place; s_mov_b32, s_cselect_b32, the 32-bit logic ops, shifts, adds, subs, multiplies
and min / max as their numpy expressions (the tables' own arithmetic, a constant shift count
folded). An SCC result that a later instruction of the block overwrites before anything can read
it is not written (``scc_dead``); the SCC a block leaves behind is always exact. ``e`` is
block.py's emitter."""
import numpy as np

from .block_runtime import readonly
from .operands import constant_value
from .state import EXEC_HI, EXEC_LO, NULL, SGPR_CODES, VCC_LO

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


def emit_salu(e, ins, dead_scc=False):
    """Inline the table-driven SALU ops (semantics from scalar.py's tables); False leaves the
    instruction to its closure.  ``dead_scc``: the SCC this instruction writes is overwritten
    before anything reads it (see scc_dead), so it need not be written."""
    from . import scalar as salu
    m, ops = ins.mnemonic, ins.operands
    if m in _LOGIC32 or m == "s_cselect_b32":
        dst, s0, s1 = ops
        if not _dest_ok(dst, 32):
            return False
        a, b = _scalar_source(e, s0, 32, m), _scalar_source(e, s1, 32, m)
        if m == "s_cselect_b32":                   # SCC unchanged
            return _scalar_dest(e, dst, 32, f"np.where(SCC[sel] != 0, {a}, {b})")
        if dead_scc:
            return _scalar_dest(e, dst, 32, _LOGIC32[m].format(a=a, b=b))
        e.emit(f"r = {_LOGIC32[m].format(a=a, b=b)}; SCC[sel] = r != 0")
        return _scalar_dest(e, dst, 32, "r")
    if ins.family == "SOP2" and m in _SOP2_FORMS and salu.SOP2.get(m, (0,))[0] == 32:
        return _emit_sop2(e, ins, dead_scc)
    if m in ("s_lshl_b64", "s_lshr_b64") and _emit_shift64(e, ins, dead_scc):
        return True
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
        if dead_scc:                              # a compare nothing reads
            return True
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
        if dead_scc:
            return True
        _, _, cond, typ = m.split("_")
        cmp = e.name(salu._CMP[cond], "s")
        # the immediate as lanes of the group (numpy converts a scalar operand slowly)
        if typ == "i32":
            e.globals["S32"] = salu._s32
            k = e.slot(lambda fm, n, lane, v=simm: readonly(np.full(n, v, np.int32)))
            e.emit(f"SCC[sel] = {cmp}(S32(S[{dst.value}, sel]), {k})")
        else:
            k = e.slot(lambda fm, n, lane, v=imm: readonly(np.full(n, v, U32)))
            e.emit(f"SCC[sel] = {cmp}(S[{dst.value}, sel], {k})")
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
        e.emit(f"S[{EXEC_LO}, sel] = new" + ("" if dead_scc else "; SCC[sel] = new != 0"))
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


# scalar.py's 32-bit SOP2 ops as numpy expressions of their uint32 operands {a}, {b}: (the
# result r, SCC from r, a and b or None when the op leaves SCC alone); {n} is a shift's count,
# S1[4:0], folded when S1 is a constant.  The same arithmetic as the table functions.
_SHIFTS = {"s_lshl_b32": "np.left_shift({a}, {n})", "s_lshr_b32": "np.right_shift({a}, {n})",
           "s_ashr_i32": "np.right_shift({a}.view(I32), {n}.view(I32)).view(U32)"}
_SOP2_FORMS = {
    "s_add_u32": ("np.add({a}, {b})", "np.less(r, {a})"),
    "s_sub_u32": ("np.subtract({a}, {b})", "np.greater({b}, {a})"),
    "s_add_i32": ("np.add({a}, {b})", "np.right_shift(np.bitwise_and(np.bitwise_xor({a}, r), "
                                      "np.bitwise_xor({b}, r)), U32(31))"),
    "s_sub_i32": ("np.subtract({a}, {b})", "np.right_shift(np.bitwise_and(np.bitwise_xor({a}, {b}), "
                                           "np.bitwise_xor({a}, r)), U32(31))"),
    "s_addc_u32": ("np.add(t, SCC[sel])", "np.less(t, {a}) | np.less(r, t)"),
    "s_subb_u32": ("np.subtract(t, SCC[sel])", "np.greater({b}, {a}) | np.less(t, SCC[sel])"),
    "s_mul_i32": ("np.multiply({a}, {b})", None),
    "s_min_u32": ("np.where(p, {a}, {b})", "p"), "s_max_u32": ("np.where(p, {a}, {b})", "p"),
    "s_min_i32": ("np.where(p, {a}, {b})", "p"), "s_max_i32": ("np.where(p, {a}, {b})", "p"),
    **{k: (v, "np.not_equal(r, U32(0))") for k, v in _SHIFTS.items()},
}
# what r is made of: the carry ops' wrapped sum / difference, min / max's pick (the pseudocode's
# comparisons: s_max: S0 >= S1, s_min: S0 < S1)
_SOP2_FIRST = {"s_addc_u32": "t = np.add({a}, {b})", "s_subb_u32": "t = np.subtract({a}, {b})",
               "s_min_u32": "p = np.less({a}, {b})", "s_max_u32": "p = np.greater_equal({a}, {b})",
               "s_min_i32": "p = np.less({a}.view(I32), {b}.view(I32))",
               "s_max_i32": "p = np.greater_equal({a}.view(I32), {b}.view(I32))"}


def _emit_sop2(e, ins, dead_scc):
    m, (dst, s0, s1) = ins.mnemonic, ins.operands
    if not _dest_ok(dst, 32):
        return False
    a, b = _scalar_source(e, s0, 32, m), _scalar_source(e, s1, 32, m)
    n = None
    if m in _SHIFTS:
        if s1.kind in ("const", "literal"):
            n = e.name(U32(int(constant_value(s1, 32, m)) & 31), "shift")
        else:
            e.emit(f"sn = np.bitwise_and({b}, U32(31))")
            n = "sn"                  # (not n: the block's wave count)
    result, scc = _SOP2_FORMS[m]
    if m in _SOP2_FIRST:
        e.emit(_SOP2_FIRST[m].format(a=a, b=b))
    if scc is None or dead_scc:
        return _scalar_dest(e, dst, 32, result.format(a=a, b=b, n=n))
    e.emit(f"r = {result.format(a=a, b=b, n=n)}; SCC[sel] = {scc.format(a=a, b=b)}")
    return _scalar_dest(e, dst, 32, "r")


def _emit_shift64(e, ins, dead_scc):
    """s_lshl_b64 / s_lshr_b64 of an SGPR pair by a constant count, on the two dwords: each
    result dword is a source dword moved over plus the bits the other passes across (the table's
    uint64 shift by S1[5:0] without joining and splitting the pair); SCC = result != 0."""
    m, (dst, src, count) = ins.mnemonic, ins.operands
    if not _dest_ok(dst, 64) or count.kind not in ("const", "literal") or src.kind != "sgpr" \
            or src.value == NULL or src.value + 1 >= SGPR_CODES:
        return False
    n = int(constant_value(count, 32, m)) & 63
    lo, hi = f"S[{src.value}, sel]", f"S[{src.value + 1}, sel]"
    left = m == "s_lshl_b64"
    near, far = (lo, hi) if left else (hi, lo)      # the dword bits move away from / into
    into, away = ("np.left_shift", "np.right_shift") if left else ("np.right_shift", "np.left_shift")
    if n == 0:
        e.emit(f"x = {near}.copy(); y = {far}.copy()")
    elif n < 32:
        e.emit(f"y = {into}({far}, U32({n})); y |= {away}({near}, U32({32 - n})); x = {into}({near}, U32({n}))")
    else:
        e.emit(f"y = {into}({near}, U32({n - 32})); x = np.zeros_like(y)")
    low, high = ("x", "y") if left else ("y", "x")
    if not dead_scc:
        e.emit("SCC[sel] = np.not_equal(np.bitwise_or(x, y), U32(0))")
    if dst.value != NULL:
        e.emit(f"S[{dst.value}, sel] = {low}; S[{dst.value + 1}, sel] = {high}")
    return True


# -- SCC liveness --------------------------------------------------------------------------------
# SOP2 ops of scalar.py's table that leave SCC alone, and those that read it
_SOP2_KEEP_SCC = frozenset(("s_mul_i32", "s_mul_hi_u32", "s_mul_hi_i32", "s_bfm_b32", "s_bfm_b64",
                            "s_pack_ll_b32_b16", "s_pack_lh_b32_b16", "s_pack_hh_b32_b16",
                            "s_pack_hl_b32_b16"))
_SOP2_READ_SCC = frozenset(("s_addc_u32", "s_subb_u32", "s_cselect_b32", "s_cselect_b64"))
_SOPK_WRITE_SCC = frozenset(m for m in ("s_cmpk_eq_i32", "s_cmpk_lg_i32", "s_cmpk_gt_i32", "s_cmpk_ge_i32",
                                        "s_cmpk_lt_i32", "s_cmpk_le_i32", "s_cmpk_eq_u32", "s_cmpk_lg_u32",
                                        "s_cmpk_gt_u32", "s_cmpk_ge_u32", "s_cmpk_lt_u32", "s_cmpk_le_u32"))


def _scc_use(step, inline):
    """How ``step`` uses SCC, as (reads it, writes it): a VALU op the block writes out and an
    ordering instruction neither read nor write it (nor fault); an SALU op known to leave it
    alone neither; anything else reads it as far as this is concerned (it may, or may fault,
    which shows the SCC of the instructions before it)."""
    if step.body is None or inline:
        return False, False
    from . import scalar as salu
    ins, m = step.ins, step.ins.mnemonic
    fam = ins.family
    if fam == "SOPC":
        return False, True
    if fam == "SOPK" and m in _SOPK_WRITE_SCC:
        return False, True
    if fam == "SOPK" and m in ("s_movk_i32", "s_mulk_i32"):
        return False, False
    if fam == "SOP2" and m in salu.SOP2:
        if m in _SOP2_KEEP_SCC:
            return False, False
        return m in _SOP2_READ_SCC, m not in ("s_cselect_b32", "s_cselect_b64")
    if fam == "SOP1" and m in ("s_mov_b32", "s_mov_b64"):
        return False, False
    if fam == "SOP1" and (m in ("s_not_b32", "s_not_b64") or "saveexec" in m or "wrexec" in m):
        return False, True
    return True, False


def scc_dead(steps, inline):
    """Indices of the steps whose SCC result a later step of the block overwrites before any step
    reads it (or may); ``inline(step)``: whether the block writes that step out as VALU code
    that touches no SCC.  The last write of the block is never dead: SCC leaves it exact."""
    dead, overwritten = set(), False     # whether SCC is overwritten unread after a position
    for i in range(len(steps) - 1, -1, -1):
        reads, writes = _scc_use(steps[i], inline(steps[i]))
        if writes and overwritten:
            dead.add(i)
        if reads:
            overwritten = False
        elif writes:
            overwritten = True
    return dead


# the condition of each conditional branch (control._COND), as the block reads it
_BRANCH_CONDITIONS = {"s_cbranch_scc0": "SCC[sel] == 0", "s_cbranch_scc1": "SCC[sel] != 0",
                      "s_cbranch_vccz": f"S[{VCC_LO}, sel] == 0", "s_cbranch_vccnz": f"S[{VCC_LO}, sel] != 0",
                      "s_cbranch_execz": f"S[{EXEC_LO}, sel] == 0", "s_cbranch_execnz": f"S[{EXEC_LO}, sel] != 0"}


def emit_branch(e, s):
    """s_branch and the conditional branches written out (control.py's closures): a group of
    a slice of the batch writes its PCs through the kept view (block_views.py), an index-array
    group calls the closure.  False for anything else."""
    from .control import _simm16
    m = s.ins.mnemonic
    target = s.next_pc + 4 * _simm16(s.ins)
    if m == "s_branch":
        e.emit(f"st.pc[sel] = {target}")
        e.emit(f"return {target}")
        return True
    cond = _BRANCH_CONDITIONS.get(m)
    if cond is None:
        return False
    e.emit(f"if IX: st.pc[sel] = {s.next_pc - s.size}; return {e.name(s.body, 'f')}(st, sel)")
    e.emit(f"return BR(st, st.pc[sel], {cond}, {target}, {s.next_pc}, n)")
    return True


def emit_readfirstlane(e, ins, fn):
    """v_readfirstlane_b32 of a VGPR into an SGPR: with every lane on, lane 0 of each wave; under
    a partial EXEC the instruction's own closure.  False for other operands."""
    dst, src = ins.operands
    if dst.kind != "sgpr" or dst.value >= SGPR_CODES or dst.value in (NULL, EXEC_LO, EXEC_HI) \
            or src.kind != "vgpr":
        return False
    e.need_em()
    e.fwd.pop(dst.value, None)
    e.emit(f"if em is None: S[{dst.value}, sel] = V[{src.value}, sel][:, 0]")
    e.emit(f"else: {e.name(fn, 'f')}(st, sel)")
    return True
