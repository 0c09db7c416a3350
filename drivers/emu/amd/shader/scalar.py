"""SALU: SOP1, SOP2, SOPK and SOPC semantics, vectorized over the waves sharing a PC.

Each builder returns a closure ``run(st, sel)``.  32-bit values are uint32 arrays, 64-bit ones
uint64; arithmetic that needs a carry or a sign is done in int64 / Python-free numpy.  SCC rules
follow the RDNA3 ISA: logical ops and shifts set SCC = (result != 0), unsigned add/sub the carry,
signed add/sub the overflow, min/max whether S0 was chosen (S0 >= S1 for max, S0 < S1 for min),
compares the comparison.
"""
import numpy as np

from assembler.rdna3.decoder import Operand
from drivers.emu.faults import IllegalInstruction

from .operands import scalar_reader, scalar_writer
from .valu.bits import popcount
from .state import EXEC_LO, M0

U32, U64, I32, I64 = np.uint32, np.uint64, np.int32, np.int64
M32 = 0xFFFFFFFF
ONE64 = U64(1)


def _nz(x):
    return x != 0                  # SCC: stored into the uint32 SCC array as 0 / 1


def _s32(x):
    return x.view(I32) if x.dtype == U32 else x.astype(U32).view(I32)


def _bfe(value, ctl, bits, signed):
    """s_bfe: offset in ctl[4:0] (ctl[5:0] for 64 bits), width in ctl[22:16].
    The signed forms shift S0 arithmetically (the pseudocode's `S0.i32 >> offset`), so a field
    reaching past the top bit is filled with copies of the sign, then sign-extend the field from
    its top bit (signext_from_bit); width 0 gives 0, a width of at least the word size keeps
    every shifted bit."""
    dt = U64 if bits == 64 else U32
    off = (ctl & (63 if bits == 64 else 31)).astype(U64)
    width = ((ctl >> 16) & 0x7F).astype(U64)
    width = np.minimum(width, U64(bits))
    if signed:
        sv = value.astype(np.int64) if bits == 64 else value.astype(U32).view(I32).astype(np.int64)
        v = (sv >> off.astype(np.int64)).astype(U64)
        if bits == 32:
            v &= U64(M32)
    else:
        v = value.astype(U64) >> off if bits == 64 else (value.astype(U64) >> off) & U64(M32)
    mask = np.where(width >= 64, U64(0xFFFFFFFFFFFFFFFF), (ONE64 << np.minimum(width, U64(63))) - ONE64)
    r = v & mask
    if signed:
        sign = np.where(width > 0, (r >> np.maximum(width, ONE64) - ONE64) & ONE64, U64(0))
        ext = np.where((sign == 1) & (width < bits), ~mask, U64(0))
        r = r | ext
        if bits == 32:
            r &= U64(M32)
    return r.astype(dt) if bits == 32 else r


def _shift_amount(b, bits):
    return (b & (bits - 1)).astype(U64 if bits == 64 else U32)


def _count_ones(x, bits):
    return popcount(x.astype(U64)).astype(U32)


def _ctz(x, bits):
    """Index of the lowest set bit, or -1 (0xFFFFFFFF) when none: the ones below it, counted
    in the lowest set bit less one."""
    x = x.astype(U64)
    low = x & (~x + ONE64)
    return np.where(x == 0, U32(M32), popcount(low - ONE64).astype(U32))


def _msb(x):
    """Index of the highest set bit of uint64 x (-1 for zero): the exponent frexp gives each
    32-bit half's value (exact in float64; frexp(0) has exponent 0)."""
    eh = np.frexp((x >> U64(32)).astype(np.float64))[1].astype(I64)
    el = np.frexp((x & U64(M32)).astype(np.float64))[1].astype(I64)
    return np.where(eh > 0, eh + 31, el - 1)


def _clz(x, bits):
    """Leading zeros counted from the MSB, or -1 when the value is zero."""
    x = x.astype(U64)
    return np.where(x == 0, U32(M32), (bits - 1 - _msb(x)).astype(U32))


def _cls(x, bits):
    """Leading bits equal to the sign bit, after it; -1 when every bit is the same."""
    x = x.astype(U64)
    sign = (x >> U64(bits - 1)) & ONE64
    flipped = np.where(sign == 1, ~x & (U64(0xFFFFFFFFFFFFFFFF) >> U64(64 - bits)), x)
    return _clz(flipped, bits)


def _brev(x, bits):
    x = x.astype(U64)
    r = np.zeros(x.shape, U64)
    for i in range(bits):
        r |= ((x >> U64(i)) & ONE64) << U64(bits - 1 - i)
    return r.astype(U32) if bits == 32 else r


def _quadmask(x, bits):
    x = x.astype(U64)
    r = np.zeros(x.shape, U64)
    for i in range(bits // 4):
        r |= (((x >> U64(4 * i)) & U64(15)) != 0).astype(U64) << U64(i)
    return r.astype(U32) if bits == 32 else r


def _wqm(x, bits):
    x = x.astype(U64)
    r = np.zeros(x.shape, U64)
    for i in range(bits // 4):
        r |= np.where((x >> U64(4 * i)) & U64(15), U64(15), U64(0)) << U64(4 * i)
    return r.astype(U32) if bits == 32 else r


def _bitreplicate(x):
    x = x.astype(U64)
    r = np.zeros(x.shape, U64)
    for i in range(32):
        r |= ((x >> U64(i)) & ONE64) * U64(3) << U64(2 * i)
    return r


# -- SOP2 ------------------------------------------------------------------------------------
# 32-bit sums wrap in uint32 arithmetic; a carry is a sum that came out below an addend, a
# borrow a subtrahend above the minuend, a signed overflow a result whose sign differs from
# that of both addends (of the minuend but not the subtrahend, for a difference)
def _add_u32(a, b, scc):
    r = a + b
    return r, r < a


def _sub_u32(a, b, scc):
    return a - b, b > a


def _addc_u32(a, b, scc):
    t = a + b
    r = t + scc
    return r, (t < a) | (r < t)


def _subb_u32(a, b, scc):
    t = a - b
    return t - scc, (b > a) | (t < scc)


def _add_i32(a, b, scc):
    r = a + b
    return r, ((a ^ r) & (b ^ r)) >> U32(31)


def _sub_i32(a, b, scc):
    r = a - b
    return r, ((a ^ b) & (a ^ r)) >> U32(31)


def _absdiff_i32(a, b, scc):
    # the absolute value of the wrapped 32-bit difference (what the hardware computes)
    d = a - b
    d = np.where(d >> U32(31), U32(0) - d, d)
    return d, _nz(d)


def _lshl_add(n):
    def op(a, b, scc):
        s = (a.astype(U64) << U64(n)) + b.astype(U64)
        return s.astype(U32), (s > U64(M32)).astype(U32)
    return op


def _logic(f, bits):
    def op(a, b, scc):
        r = f(a, b)                # uint32 / uint64 operands: the result has the operand width
        return r, _nz(r)
    return op


def _shift(kind, bits):
    def op(a, b, scc):
        n = _shift_amount(b, bits)
        if kind == "lshl":
            r = a << n
        elif kind == "lshr":
            r = a >> n
        else:
            r = (a.view(I64 if bits == 64 else I32) >> n.astype(I64 if bits == 64 else I32)).view(a.dtype)
        return r, _nz(r)
    return op


def _minmax(signed, is_max):
    # the pseudocode: s_max: SCC = S0 >= S1, s_min: SCC = S0 < S1; D = SCC ? S0 : S1 (equal
    # operands set SCC for s_max, clear it for s_min)
    def op(a, b, scc):
        x, y = (_s32(a), _s32(b)) if signed else (a, b)
        pick = x >= y if is_max else x < y
        return np.where(pick, a, b), pick.astype(U32)
    return op


def _bfm(bits):
    def op(a, b, scc):
        if bits == 32:
            w, o = (a & U32(31)).astype(U64), (b & U32(31)).astype(U64)
            return (((ONE64 << w) - ONE64) << o).astype(U32), None
        w, o = (a & U32(63)).astype(U64), (b & U32(63)).astype(U64)
        return ((ONE64 << w) - ONE64) << o, None
    return op


def _mul_hi(signed):
    def op(a, b, scc):
        if signed:
            p = _s32(a).astype(I64) * _s32(b).astype(I64)
            return (p >> 32).astype(U32), None
        return ((a.astype(U64) * b.astype(U64)) >> U64(32)).astype(U32), None
    return op


def _pack(lo_hi_a, lo_hi_b):
    def op(a, b, scc):
        x = (a >> U32(16)) if lo_hi_a else (a & U32(0xFFFF))
        y = (b >> U32(16)) if lo_hi_b else (b & U32(0xFFFF))
        return x | (y << U32(16)), None
    return op


_NOT64 = U64(0xFFFFFFFFFFFFFFFF)
SOP2 = {
    "s_add_u32": (32, _add_u32), "s_sub_u32": (32, _sub_u32), "s_add_i32": (32, _add_i32),
    "s_sub_i32": (32, _sub_i32), "s_addc_u32": (32, _addc_u32), "s_subb_u32": (32, _subb_u32),
    "s_absdiff_i32": (32, _absdiff_i32),
    "s_lshl1_add_u32": (32, _lshl_add(1)), "s_lshl2_add_u32": (32, _lshl_add(2)),
    "s_lshl3_add_u32": (32, _lshl_add(3)), "s_lshl4_add_u32": (32, _lshl_add(4)),
    "s_min_i32": (32, _minmax(True, False)), "s_min_u32": (32, _minmax(False, False)),
    "s_max_i32": (32, _minmax(True, True)), "s_max_u32": (32, _minmax(False, True)),
    "s_bfm_b32": (32, _bfm(32)), "s_bfm_b64": (64, _bfm(64)),
    "s_mul_i32": (32, lambda a, b, scc: (a * b, None)),
    "s_mul_hi_u32": (32, _mul_hi(False)), "s_mul_hi_i32": (32, _mul_hi(True)),
    "s_cselect_b32": (32, lambda a, b, scc: (np.where(scc != 0, a, b), None)),
    "s_cselect_b64": (64, lambda a, b, scc: (np.where(scc != 0, a, b), None)),
    "s_pack_ll_b32_b16": (32, _pack(False, False)), "s_pack_lh_b32_b16": (32, _pack(False, True)),
    "s_pack_hh_b32_b16": (32, _pack(True, True)), "s_pack_hl_b32_b16": (32, _pack(True, False)),
}
_LOGIC = {"and": lambda a, b: a & b, "or": lambda a, b: a | b, "xor": lambda a, b: a ^ b,
          "nand": lambda a, b: ~(a & b), "nor": lambda a, b: ~(a | b), "xnor": lambda a, b: ~(a ^ b),
          "and_not1": lambda a, b: a & ~b, "or_not1": lambda a, b: a | ~b}
for _name, _f in _LOGIC.items():
    SOP2[f"s_{_name}_b32"] = (32, _logic(_f, 32))
    SOP2[f"s_{_name}_b64"] = (64, _logic(_f, 64))
for _kind, _suffix in (("lshl", "b"), ("lshr", "b"), ("ashr", "i")):
    SOP2[f"s_{_kind}_{_suffix}32"] = (32, _shift(_kind, 32))
    SOP2[f"s_{_kind}_{_suffix}64"] = (64, _shift(_kind, 64))
for _bits in (32, 64):
    for _signed in (False, True):
        def _bfe_op(a, b, scc, bits=_bits, signed=_signed):
            r = _bfe(a, b.astype(U32) if b.dtype != U32 else b, bits, signed)
            return r, _nz(r)
        SOP2[f"s_bfe_{'i' if _signed else 'u'}{_bits}"] = (_bits, _bfe_op)
# operand widths that differ from the result width
SOP2_SRC_BITS = {"s_lshl_b64": (64, 32), "s_lshr_b64": (64, 32), "s_ashr_i64": (64, 32),
                 "s_bfe_u64": (64, 32), "s_bfe_i64": (64, 32), "s_bfm_b64": (32, 32)}


# -- SOP1 ------------------------------------------------------------------------------------
def _sop1_table():
    t = {
        "s_mov_b32": (32, 32, lambda a: (a, None)), "s_mov_b64": (64, 64, lambda a: (a, None)),
        "s_brev_b32": (32, 32, lambda a: (_brev(a, 32), None)),
        "s_brev_b64": (64, 64, lambda a: (_brev(a, 64), None)),
        "s_ctz_i32_b32": (32, 32, lambda a: (_ctz(a, 32), None)),
        "s_ctz_i32_b64": (32, 64, lambda a: (_ctz(a, 64), None)),
        "s_clz_i32_u32": (32, 32, lambda a: (_clz(a, 32), None)),
        "s_clz_i32_u64": (32, 64, lambda a: (_clz(a, 64), None)),
        "s_cls_i32": (32, 32, lambda a: (_cls(a, 32), None)),
        "s_cls_i32_i64": (32, 64, lambda a: (_cls(a, 64), None)),
        "s_sext_i32_i8": (32, 32, lambda a: (a.astype(np.uint8).view(np.int8).astype(I32).view(U32), None)),
        "s_sext_i32_i16": (32, 32, lambda a: (a.astype(np.uint16).view(np.int16).astype(I32).view(U32), None)),
        "s_bitreplicate_b64_b32": (64, 32, lambda a: (_bitreplicate(a), None)),
        "s_bcnt0_i32_b32": (32, 32, lambda a: _scc_nz(U32(32) - _count_ones(a, 32))),
        "s_bcnt0_i32_b64": (32, 64, lambda a: _scc_nz(U32(64) - _count_ones(a, 64))),
        "s_bcnt1_i32_b32": (32, 32, lambda a: _scc_nz(_count_ones(a, 32))),
        "s_bcnt1_i32_b64": (32, 64, lambda a: _scc_nz(_count_ones(a, 64))),
        "s_quadmask_b32": (32, 32, lambda a: _scc_nz(_quadmask(a, 32))),
        "s_quadmask_b64": (64, 64, lambda a: _scc_nz(_quadmask(a, 64))),
        "s_wqm_b32": (32, 32, lambda a: _scc_nz(_wqm(a, 32))),
        "s_wqm_b64": (64, 64, lambda a: _scc_nz(_wqm(a, 64))),
        "s_not_b32": (32, 32, lambda a: _scc_nz(~a)),
        "s_not_b64": (64, 64, lambda a: _scc_nz(~a)),
        "s_abs_i32": (32, 32, lambda a: _scc_nz(np.abs(_s32(a).astype(I64)).astype(U64).astype(U32))),
    }
    return t


def _scc_nz(r):
    return r, _nz(r)


SOP1 = _sop1_table()

# saveexec: EXEC = f(S0, EXEC); D = old EXEC; SCC = EXEC != 0
SAVEEXEC = {"and": lambda s, e: s & e, "or": lambda s, e: s | e, "xor": lambda s, e: s ^ e,
            "nand": lambda s, e: ~(s & e), "nor": lambda s, e: ~(s | e), "xnor": lambda s, e: ~(s ^ e),
            "and_not0": lambda s, e: ~s & e, "or_not0": lambda s, e: ~s | e,
            "and_not1": lambda s, e: s & ~e, "or_not1": lambda s, e: s | ~e}
WREXEC = {"and_not0": lambda s, e: ~s & e, "and_not1": lambda s, e: s & ~e}

# -- SOPC ------------------------------------------------------------------------------------
_CMP = {"eq": np.equal, "lg": np.not_equal, "gt": np.greater, "ge": np.greater_equal,
        "lt": np.less, "le": np.less_equal}


def build_sop2(ins, pc):
    width, f = SOP2[ins.mnemonic]
    wa, wb = SOP2_SRC_BITS.get(ins.mnemonic, (width, width))
    dst, s0, s1 = ins.operands
    ra, rb = scalar_reader(s0, wa, ins.mnemonic), scalar_reader(s1, wb, ins.mnemonic)
    w = scalar_writer(dst, width)

    def run(st, sel):
        r, scc = f(ra(st, sel), rb(st, sel), st.scc[sel])
        if scc is not None:
            st.scc[sel] = scc
        w(st, sel, r)
    return run


def build_sop1(ins, pc, size):
    m = ins.mnemonic
    ops = ins.operands
    if m in SOP1:
        width, swidth, f = SOP1[m]
        ra, w = scalar_reader(ops[1], swidth, m), scalar_writer(ops[0], width)

        def run(st, sel):
            r, scc = f(ra(st, sel))
            if scc is not None:
                st.scc[sel] = scc
            w(st, sel, r)
        return run
    if m in ("s_cmov_b32", "s_cmov_b64"):
        width = 64 if m.endswith("64") else 32
        ra, rd, w = scalar_reader(ops[1], width, m), scalar_reader(ops[0], width, m), scalar_writer(ops[0], width)

        def cmov(st, sel):
            w(st, sel, np.where(st.scc[sel] != 0, ra(st, sel), rd(st, sel)))
        return cmov
    if m.startswith(("s_bitset0", "s_bitset1")):
        width = 64 if m.endswith("64") else 32
        dt = U64 if width == 64 else U32
        ra, rd, w = scalar_reader(ops[1], 32, m), scalar_reader(ops[0], width, m), scalar_writer(ops[0], width)
        setting = m.startswith("s_bitset1")

        def bitset(st, sel):
            bit = dt(1) << (ra(st, sel) & U32(width - 1)).astype(dt)
            d = rd(st, sel)
            w(st, sel, d | bit if setting else d & ~bit)
        return bitset
    if "saveexec" in m or "wrexec" in m:
        return _build_exec_op(ins)
    if m in ("s_getpc_b64", "s_swappc_b64", "s_setpc_b64"):
        return _build_pc_op(ins, pc, size)
    if m.startswith(("s_movrels", "s_movreld")):
        return _build_movrel(ins)
    if m == "s_rfe_b64":
        raise IllegalInstruction(pc, f"{ins.text}: returns from a trap handler, and waves on the virtual "
                                     f"GPU run without one")
    if m.startswith("s_sendmsg_rtn"):
        width = 64 if m.endswith("64") else 32
        w = scalar_writer(ops[0], width)
        msg = ops[1].value

        def sendmsg_rtn(st, sel):
            n = st.pc[sel].shape[0]
            # MSG_RTN_GET_REALTIME reads the GPU timestamp; the doorbell, DDID and TMA/TBA
            # messages return 0 on the virtual GPU
            value = st.timestamp() if msg == 131 else 0
            w(st, sel, np.full(n, value, U64 if width == 64 else U32))
        return sendmsg_rtn
    raise IllegalInstruction(pc, f"{ins.text}: not supported by the simulator")


def _build_exec_op(ins):
    m = ins.mnemonic
    width = 64 if m.endswith("64") else 32
    dt = U64 if width == 64 else U32
    ops = ins.operands
    wrexec = "wrexec" in m
    kind = m[2:].rsplit("_", 2)[0]
    f = (WREXEC if wrexec else SAVEEXEC)[kind]
    ra, w = scalar_reader(ops[1], width, m), scalar_writer(ops[0], width)
    exec_reader = scalar_reader(_ExecOperand, width, m)
    exec_writer = scalar_writer(_ExecOperand, width)

    def run(st, sel):
        s = ra(st, sel)
        old = exec_reader(st, sel)
        new = f(s, old).astype(dt)
        exec_writer(st, sel, new)
        st.scc[sel] = _nz(new)
        w(st, sel, new if wrexec else old)
    return run


_ExecOperand = Operand("sdst", "sgpr", EXEC_LO, 1, "b32", text="exec")


def _build_pc_op(ins, pc, size):
    m = ins.mnemonic
    ops = ins.operands
    nxt = pc + size
    if m == "s_getpc_b64":
        w = scalar_writer(ops[0], 64)
        return lambda st, sel: w(st, sel, np.full(st.pc[sel].shape[0], nxt, U64))
    if m == "s_setpc_b64":
        ra = scalar_reader(ops[0], 64, m)

        def setpc(st, sel):
            st.pc[sel] = ra(st, sel).astype(I64)
        setpc.sets_pc = True
        return setpc
    ra, w = scalar_reader(ops[1], 64, m), scalar_writer(ops[0], 64)

    def swappc(st, sel):
        target = ra(st, sel).astype(I64)
        w(st, sel, np.full(target.shape[0], nxt, U64))
        st.pc[sel] = target
    swappc.sets_pc = True
    return swappc


def _build_movrel(ins):
    """SGPR-indexed moves: s_movrels reads s[S0 + M0], s_movreld writes s[D + M0]."""
    m = ins.mnemonic
    dst, src = ins.operands
    words = 2 if m.endswith("64") else 1

    def index(st, sel, base):
        i = base + st.sgpr[sel, M0].astype(I64)
        if np.any(i + words > 106) or np.any(i < 0):
            bad = int(i[(i + words > 106) | (i < 0)][0])
            raise IllegalInstruction(int(st.pc[sel][0]), f"{ins.text}: M0-relative SGPR s{bad} is out of range")
        return i

    rows = lambda st, sel: np.arange(st.W)[sel]        # noqa: E731
    if m.startswith("s_movrels"):
        if m == "s_movrelsd_2_b32":
            def movrelsd(st, sel):
                r = rows(st, sel)
                m0 = st.sgpr[sel, M0].astype(I64)
                si, di = src.value + (m0 & 0xFFFF), dst.value + (m0 >> 16)
                st.sgpr[r, di] = st.sgpr[r, si]
            return movrelsd

        def movrels(st, sel):
            r, i = rows(st, sel), index(st, sel, src.value)
            for k in range(words):
                st.sgpr[sel, dst.value + k] = st.sgpr[r, i + k]
        return movrels
    ra = scalar_reader(src, 32 * words, m)

    def movreld(st, sel):
        r, i = rows(st, sel), index(st, sel, dst.value)
        v = ra(st, sel).astype(U64)
        for k in range(words):
            st.sgpr[r, i + k] = ((v >> U64(32 * k)) & U64(M32)).astype(U32)
    return movreld


def build_sopc(ins, pc):
    m = ins.mnemonic
    s0, s1 = ins.operands
    if m.startswith("s_bitcmp"):
        width = 64 if m.endswith("64") else 32
        ra, rb = scalar_reader(s0, width, m), scalar_reader(s1, 32, m)
        want = 1 if m.startswith("s_bitcmp1") else 0
        dt = U64 if width == 64 else U32

        def bitcmp(st, sel):
            bit = (ra(st, sel) >> (rb(st, sel) & U32(width - 1)).astype(dt)) & dt(1)
            st.scc[sel] = (bit == want).astype(U32)
        return bitcmp
    _, _, cond, typ = m.split("_")
    width = 64 if typ.endswith("64") else 32
    ra, rb = scalar_reader(s0, width, m), scalar_reader(s1, width, m)
    cmp = _CMP[cond]
    signed = typ.startswith("i")

    def compare(st, sel):
        a, b = ra(st, sel), rb(st, sel)
        if signed:
            a, b = _s32(a), _s32(b)
        st.scc[sel] = cmp(a, b).astype(U32)
    return compare


def build_sopk(ins, pc, size):
    m = ins.mnemonic
    ops = ins.operands
    if m in ("s_version", "s_waitcnt_vscnt", "s_waitcnt_vmcnt", "s_waitcnt_expcnt", "s_waitcnt_lgkmcnt"):
        return None                      # ordering counters: execution is in order
    if m in ("s_getreg_b32", "s_setreg_b32", "s_setreg_imm32_b32"):
        from .hwreg import build_hwreg
        return build_hwreg(ins, pc)
    dst = ops[0]
    imm = ops[1].value if len(ops) > 1 else 0
    simm = imm - 0x10000 if imm & 0x8000 else imm
    if m == "s_call_b64":
        w = scalar_writer(dst, 64)
        nxt = pc + size
        target = nxt + simm * 4

        def call(st, sel):
            w(st, sel, np.full(st.pc[sel].shape[0], nxt, U64))
            st.pc[sel] = target
        call.sets_pc = True
        return call
    rd, w = scalar_reader(dst, 32, m), scalar_writer(dst, 32)
    k = U32(simm & M32)
    if m == "s_movk_i32":
        return lambda st, sel: w(st, sel, np.full(st.pc[sel].shape[0], k, U32))
    if m == "s_cmovk_i32":
        return lambda st, sel: w(st, sel, np.where(st.scc[sel] != 0, k, rd(st, sel)))
    if m == "s_addk_i32":
        def addk(st, sel):
            r, scc = _add_i32(rd(st, sel), np.full(st.pc[sel].shape[0], k, U32), None)
            st.scc[sel] = scc
            w(st, sel, r)
        return addk
    if m == "s_mulk_i32":
        return lambda st, sel: w(st, sel, rd(st, sel) * k)
    if m.startswith("s_cmpk_"):
        _, _, cond, typ = m.split("_")
        cmp = _CMP[cond]
        if typ == "i32":
            kk = np.int32(simm)
            return lambda st, sel: st.scc.__setitem__(sel, cmp(_s32(rd(st, sel)), kk).astype(U32))
        ku = U32(imm)
        return lambda st, sel: st.scc.__setitem__(sel, cmp(rd(st, sel), ku).astype(U32))
    raise IllegalInstruction(pc, f"{ins.text}: not supported by the simulator (wave64 subvector loops)")
