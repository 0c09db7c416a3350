"""VALU dispatch: fetch operands, apply DPP, call the VALU semantics library, write under EXEC.

The semantics of each opcode live in ``valu.VALU`` (keyed by the base mnemonic).  This module
knows the encodings: which operands are sources, which destination is a VGPR and which a lane
mask (VCC, an SGPR, or EXEC for v_cmpx), where a mask_in op reads its mask (src2 of VOP3, VCC
otherwise), and VOPD dual issue (both halves read every source before either writes).  The
cross-lane moves (v_readlane, v_readfirstlane, v_writelane, v_permlane16/x16, v_swap) are here.
"""
import numpy as np

from drivers.emu.faults import IllegalInstruction

from .dpp import DppSelect
from .operands import scalar_reader, scalar_writer, vector_reader, vgpr_index
from .state import EXEC_LO, LANE_IDS, M0, NULL, VCC_LO, WAVE32, unpack_lanes

U32, U64 = np.uint32, np.uint64
SOURCE_ROLES = ("src0", "vsrc1", "src1", "src2", "simm32")
CORE_OPS = ("v_readlane_b32", "v_readfirstlane_b32", "v_writelane_b32", "v_permlane16_b32",
            "v_permlanex16_b32", "v_nop", "v_pipeflush", "v_swap_b32", "v_permlane64_b32",
            "v_movrels_b32", "v_movreld_b32", "v_movrelsd_b32", "v_movrelsd_2_b32", "v_swaprel_b32",
            "v_illegal")
# M0-relative VGPR moves: (source index from M0 bits, destination index from M0 bits), each
# None (not relative) or (shift, mask) of the M0 field added to the register number.
_MOVREL = {"v_movrels_b32": ((0, 0xFFFFFFFF), None), "v_movreld_b32": (None, (0, 0xFFFFFFFF)),
           "v_movrelsd_b32": ((0, 0xFFFFFFFF), (0, 0xFFFFFFFF)),
           "v_movrelsd_2_b32": ((0, 0x3FF), (16, 0x3FF)), "v_swaprel_b32": ((0, 0x3FF), (16, 0x3FF))}


def base_mnemonic(m):
    for suffix in ("_e64_dpp", "_dpp", "_e32", "_e64"):
        if m.endswith(suffix):
            return m[:-len(suffix)]
    if m.startswith("v_dual_"):
        return "v_" + m[len("v_dual_"):]
    return m


def pack_mask(mask):
    """bool (w, 32) -> uint32 (w,) lane bits."""
    return np.packbits(mask, axis=1, bitorder="little").view(U32)[:, 0]


def unpack_mask(bits):
    return unpack_lanes(bits)


class VectorOp:
    """One decoded VALU instruction (or one VOPD half) ready to execute."""

    def __init__(self, ins, pc, vgprs, registry, env):
        self.text, self.pc = ins.text, pc
        m = base_mnemonic(ins.mnemonic)
        if m not in registry:
            raise IllegalInstruction(pc, f"{ins.text}: the VALU library has no {m}")
        op = self.op = registry[m]
        self.make_ctx = env.ctx_factory
        operands = ins.operands
        first_src = next((i for i, o in enumerate(operands) if o.role in SOURCE_ROLES), len(operands))
        dests, sources = operands[:first_src], [o for o in operands[first_src:] if o.role in SOURCE_ROLES]
        self.vdst = None
        self.mask_dst = None                 # SGPR code the lane mask goes to, EXEC_LO for v_cmpx
        for o in dests:
            if o.kind == "vgpr":
                self.vdst = vgpr_index(o, op.dst_bits or 32, vgprs)
            elif o.kind in ("sgpr", "fixed"):
                self.mask_dst = o.value
        if m.startswith("v_cmpx"):
            self.mask_dst = EXEC_LO
        elif op.mask_out and self.mask_dst is None:
            self.mask_dst = VCC_LO           # VOPD / e32 forms write VCC implicitly
        if op.dst_bits and self.vdst is None:
            raise IllegalInstruction(pc, f"{ins.text}: no VGPR destination decoded")
        if len(sources) < len(op.src_bits) - (1 if op.mask_in else 0):
            raise IllegalInstruction(pc, f"{ins.text}: {len(sources)} sources decoded, "
                                         f"{m} reads {len(op.src_bits)}")
        self.mnemonic = m
        self.sources = sources[:len(op.src_bits)]        # the operands the readers read
        self.readers = [vector_reader(o, bits, m, vgprs) for o, bits in zip(sources, op.src_bits)]
        self.mask_reader = self.mask_operand = None
        if op.mask_in:
            src2 = next((o for o in sources if o.role == "src2"), None)
            if src2 is not None and not m.startswith("v_div_fmas"):
                self.mask_reader = scalar_reader(src2, 32, m)
                self.mask_operand = src2
        self.dpp = DppSelect(ins.dpp) if ins.dpp else None
        self.kw = _modifiers(ins, sources)
        self.ctx_cache = {}
        self.old_reader = (vector_reader(_VgprOperand(self.vdst, op.dst_bits), op.dst_bits, m, vgprs)
                           if op.dst_bits else None)
        self.dst_bits = op.dst_bits

    def compute(self, st, sel, exec_mask):
        """Results for the waves ``sel``: (dst or None, mask or None, lanes allowed to write,
        old destination).  exec_mask None means every lane is active."""
        srcs = [r(st, sel) for r in self.readers]
        write = exec_mask
        if self.dpp is not None:
            ex = exec_mask if exec_mask is not None else np.ones(srcs[0].shape, bool)
            srcs[0], enabled = self.dpp.apply(srcs[0], ex)
            write = ex & enabled
        if self.mask_reader is not None:
            lane_mask = unpack_mask(self.mask_reader(st, sel))
        elif self.op.mask_in:
            lane_mask = unpack_mask(st.sgpr[sel, VCC_LO])
        else:
            lane_mask = None
        old = self.old_reader(st, sel) if self.old_reader is not None else None
        ctx = self.make_ctx(st, sel, lane_mask, self.kw, self.ctx_cache)
        out = self.op.fn(ctx, srcs, old)
        if self.op.mask_out:
            if self.dst_bits:
                dst, mask = out
            else:
                dst, mask = None, out
        else:
            dst, mask = out, None
        return dst, mask, write, old

    def commit(self, st, sel, dst, mask, write, old, exec_mask):
        if dst is not None:
            write_vgpr(st, sel, self.vdst, self.dst_bits, dst, write, old)
        if mask is not None and self.mask_dst != NULL:
            mask = np.broadcast_to(np.asarray(mask, bool), (st.pc[sel].shape[0], WAVE32))
            st.sgpr[sel, self.mask_dst] = pack_mask(mask if exec_mask is None else mask & exec_mask)

    def __call__(self, st, sel):
        exec_mask = st.exec_or_none(sel)
        dst, mask, write, old = self.compute(st, sel, exec_mask)
        self.commit(st, sel, dst, mask, write, old, exec_mask)


class _VgprOperand:
    kind, dtype, text = "vgpr", "", "vdst"

    def __init__(self, value, bits):
        self.value, self.nregs = value, max(1, bits // 32)


def write_vgpr(st, sel, reg, bits, value, write, old):
    """Store a result under a lane mask: 32-bit (w,32), 64-bit (w,32) uint64, or (w,k,32)."""
    if write is None:                         # every lane active
        if bits == 32:
            st.vgpr[sel, reg] = value
        elif bits == 64:
            v = value.astype(U64, copy=False)
            st.vgpr[sel, reg] = v & U64(0xFFFFFFFF)
            st.vgpr[sel, reg + 1] = v >> U64(32)
        else:
            st.vgpr[sel, reg:reg + bits // 32] = value
        return
    if bits == 32:
        new = value.astype(U32, copy=False)
        if isinstance(sel, slice):
            np.copyto(st.vgpr[sel, reg], new, where=write)
        else:
            st.vgpr[sel, reg] = np.where(write, new, old)
        return
    if bits == 64:
        v = value.astype(U64, copy=False)
        lo, hi = (v & U64(0xFFFFFFFF)).astype(U32), (v >> U64(32)).astype(U32)
        for r, part in ((reg, lo), (reg + 1, hi)):
            st.vgpr[sel, r] = np.where(write, part, st.vgpr[sel, r])
        return
    k = bits // 32
    st.vgpr[sel, reg:reg + k] = np.where(write[:, None, :], value.astype(U32, copy=False), old)


def _modifiers(ins, sources):
    """Ctx keyword arguments that do not change between executions."""
    mods = ins.modifiers or {}
    neg = sum(1 << i for i, o in enumerate(sources) if o.neg)
    abs_ = sum(1 << i for i, o in enumerate(sources) if o.abs)
    kw = dict(neg=neg, abs=abs_, clamp=bool(mods.get("clamp", 0)), omod=mods.get("omod", 0))
    if ins.family == "VOP3P":
        bits = lambda xs: sum(b << i for i, b in enumerate(xs))    # noqa: E731
        kw.update(opsel=bits(mods.get("op_sel", [])), opsel_hi=bits(mods.get("op_sel_hi", [1, 1, 1])),
                  neg=bits(mods.get("neg_lo", [])), neg_hi=bits(mods.get("neg_hi", [])))
        if ins.mnemonic.startswith("v_fma_mix"):
            kw.update(neg=neg, neg_hi=abs_)
    else:
        kw["opsel"] = mods.get("op_sel", 0) if isinstance(mods.get("op_sel", 0), int) else 0
    return kw


class DualOp:
    """A VOPD pair: both halves read every source before either writes."""

    def __init__(self, ins, pc, vgprs, registry, env):
        self.x = VectorOp(ins, pc, vgprs, registry, env)
        self.y = VectorOp(ins.second, pc, vgprs, registry, env)
        # a result may be a view of a source register (a move): Y's must not change when X writes
        self.y_reads_x_dst = any(o.kind == "vgpr" and o.value == self.x.vdst for o in self.y.sources)

    def __call__(self, st, sel):
        x, y = self.x, self.y
        exec_mask = st.exec_or_none(sel)
        rx = x.compute(st, sel, exec_mask)
        ry = y.compute(st, sel, exec_mask)
        if self.y_reads_x_dst and ry[0] is not None:
            ry = (np.array(ry[0]),) + ry[1:]
        x.commit(st, sel, *rx, exec_mask)
        y.commit(st, sel, *ry, exec_mask)


def build_vopd(ins, pc, vgprs, registry, env):
    return DualOp(ins, pc, vgprs, registry, env)


# -- cross-lane operations the core implements -----------------------------------------------
def build_cross_lane(ins, pc, vgprs):
    m = base_mnemonic(ins.mnemonic)
    ops = ins.operands
    if m in ("v_nop", "v_pipeflush"):
        return None
    if m == "v_illegal":
        raise IllegalInstruction(pc, "v_illegal executed")
    if m == "v_readlane_b32":
        dst, src, lane = ops
        read, lane_read, w = vector_reader(src, 32, m, vgprs), scalar_reader(lane, 32, m), scalar_writer(dst, 32)

        def readlane(st, sel):
            values = read(st, sel)
            pick = (lane_read(st, sel) & U32(WAVE32 - 1)).astype(np.intp)
            w(st, sel, values[np.arange(values.shape[0]), pick])
        return readlane
    if m == "v_readfirstlane_b32":
        dst, src = ops
        read, w = vector_reader(src, 32, m, vgprs), scalar_writer(dst, 32)

        def readfirstlane(st, sel):
            values = read(st, sel)
            # each wave's lowest EXEC bit (x & -x), lane 0 when EXEC is empty: on the few
            # waves' ints, cheaper than unpacking their lanes
            first = [max((x & -x).bit_length() - 1, 0) for x in st.sregs[EXEC_LO, sel].tolist()]
            w(st, sel, values[np.arange(len(first)), first])
        return readfirstlane
    if m == "v_writelane_b32":
        dst, src, lane = ops
        d = vgpr_index(dst, 32, vgprs)
        read, lane_read = scalar_reader(src, 32, m), scalar_reader(lane, 32, m)

        def writelane(st, sel):
            rows = st.wave_ids[sel]
            pick = (lane_read(st, sel) & U32(WAVE32 - 1)).astype(np.intp)
            st.vgpr[rows, d, pick] = read(st, sel)              # ignores EXEC, as the ISA says
        return writelane
    if m in ("v_permlane16_b32", "v_permlanex16_b32"):
        return _build_permlane(ins, m, pc, vgprs)
    if m in _MOVREL:
        return _build_movrel(ins, m, pc, vgprs)
    if m == "v_swap_b32":
        a, b = ops
        ra, rb = vgpr_index(a, 32, vgprs), vgpr_index(b, 32, vgprs)

        def swap(st, sel):
            ex = st.exec_mask(sel)
            va, vb = st.vgpr[sel, ra].copy(), st.vgpr[sel, rb].copy()
            st.vgpr[sel, ra] = np.where(ex, vb, va)
            st.vgpr[sel, rb] = np.where(ex, va, vb)
        return swap
    raise IllegalInstruction(pc, f"{ins.text}: {m} needs wave64, the virtual GPU runs wave32")


def _build_permlane(ins, m, pc, vgprs):
    dst, src, s1, s2 = ins.operands
    d = vgpr_index(dst, 32, vgprs)
    read = vector_reader(src, 32, m, vgprs)
    r1, r2 = scalar_reader(s1, 32, m), scalar_reader(s2, 32, m)
    opsel = ins.modifiers.get("op_sel", 0)
    fetch_inactive, bound_ctrl = bool(opsel & 1), bool(opsel & 2)
    row_base = (LANE_IDS & ~np.uint32(15)).astype(np.intp)
    if m == "v_permlanex16_b32":
        row_base = row_base ^ 16
    nibble_shift = ((LANE_IDS & 7) * 4).astype(U64)
    use_hi = (LANE_IDS & 15) >= 8

    def permlane(st, sel):
        ex = st.exec_mask(sel)
        values = read(st, sel)
        lo, hi = r1(st, sel), r2(st, sel)
        word = np.where(use_hi, hi[:, None], lo[:, None]).astype(U64)
        src_lane = row_base + ((word >> nibble_shift) & U64(15)).astype(np.intp)
        picked = np.take_along_axis(values, src_lane, axis=1)
        ok = np.ones_like(ex) if fetch_inactive else np.take_along_axis(ex, src_lane, axis=1)
        old = st.vgpr[sel, d]
        result = np.where(ok, picked, U32(0) if bound_ctrl else old)
        st.vgpr[sel, d] = np.where(ex, result, old)
    return permlane


def _build_movrel(ins, m, pc, vgprs):
    """v_movrel*/v_swaprel: registers indexed by M0 per wave; an index past the kernel's VGPRs is
    an error naming it (the kernel computed a bad index)."""
    dst, src = ins.operands
    if src.kind != "vgpr" or dst.kind != "vgpr":
        raise IllegalInstruction(pc, f"{ins.text}: M0-relative moves take VGPR operands")
    src_field, dst_field = _MOVREL[m]

    def index(st, sel, base, fld):
        if fld is None:
            return np.full(st.pc[sel].shape[0], base, np.int64)
        shift, mask = fld
        i = base + ((st.sgpr[sel, M0].astype(np.int64) >> shift) & mask)
        if (i >= vgprs).any():
            raise IllegalInstruction(pc, f"{ins.text}: M0 selects v{int(i[i >= vgprs][0])}, beyond the "
                                         f"{vgprs} VGPRs the kernel allocates")
        return i

    def movrel(st, sel):
        rows = st.wave_ids[sel]
        si, di = index(st, sel, src.value, src_field), index(st, sel, dst.value, dst_field)
        ex = st.exec_mask(sel)
        value, old = st.vgpr[rows, si], st.vgpr[rows, di]
        st.vgpr[rows, di] = np.where(ex, value, old)
        if m == "v_swaprel_b32":
            st.vgpr[rows, si] = np.where(ex, old, value)
    return movrel
