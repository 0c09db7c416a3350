"""Instructions across the lanes of a warp or the warps of a CTA: SHFL, VOTE, VOTEU, REDUX, MATCH, BAR.

SHFL follows the PTX ISA's shfl.sync: the c operand packs the clamp (bits 0..4) and the segment mask
(bits 8..12); a lane whose source is out of its segment keeps its own value and gets a false predicate.
Reading an inactive lane gives whatever that lane's register holds (undefined on hardware).  VOTE
results count the executing lanes only; REDUX reduces them into a uniform register.  BAR.SYNC blocks
the warp's lanes until every live thread of the CTA has arrived (the executor releases them); BAR.RED
also reduces a predicate over them; BAR.ARV arrives without waiting.
"""
import numpy as np

from drivers.emu.nv.faults import ESR_ILLEGAL_INSTR_PARAM, SmException
from drivers.emu.nv.sass.executor import Impl, op
from drivers.emu.nv.sass.operands import DecodeProblem, dst_reg, pred_src, reg_file, src
from drivers.emu.nv.sass.ops_control import set_pc
from drivers.emu.nv.sass.ops_int import _reads, popcount32
from drivers.emu.nv.sass.state import LANES, PT, RZ, URZ, WAIT_BAR, bits_mask

U32 = np.uint32


@op("SHFL")
def shfl(ins, ctx):
    ops = list(ins.operands)
    p = pred_src(ins, ops[0])
    d = dst_reg(ins, ops[1])[1]
    a, b, c = (src(ins, o) for o in ops[2:5])
    mode = next((x for x in ins.mods if x in ("IDX", "UP", "DOWN", "BFLY")), None)
    if mode is None:
        raise DecodeProblem(ins, "no shuffle mode")

    def fn(st, G, m, gm, ins):
        val = np.broadcast_to(st.r(a.n, G) if a.kind == "R" else a.u32(st, G, ins.pc), gm.shape)
        bv = np.broadcast_to(np.asarray(b.u32(st, G, ins.pc), U32), gm.shape).astype(np.int64) & 31
        cv = np.broadcast_to(np.asarray(c.u32(st, G, ins.pc), U32), gm.shape).astype(np.int64)
        clamp, seg = cv & 31, (cv >> 8) & 31
        lane = LANES.astype(np.int64)[None, :]
        max_lane = (lane & seg) | (clamp & ~seg)
        min_lane = lane & seg
        if mode == "UP":
            j = lane - bv
            ok = j >= max_lane
        elif mode == "DOWN":
            j = lane + bv
            ok = j <= max_lane
        elif mode == "BFLY":
            j = lane ^ bv
            ok = j <= max_lane
        else:
            j = min_lane | (bv & ~seg)
            ok = j <= max_lane
        j = np.where(ok, j, lane)
        res = np.take_along_axis(val, j.astype(np.int64), axis=1)
        st.w(d, G, gm, res)
        st.wp(p.n, G, gm, ok)
    writes = ([("R", d)] if d != RZ else []) + ([("P", p.n)] if p.n != PT else [])
    return Impl(fn, _reads(a, b, c), writes, queue="mio")


def _vote_value(kind, pred, gm):
    """VOTE.ANY / ALL / EQ over the executing lanes -> (per-warp bool, ballot mask)."""
    ballot = bits_mask(pred & gm)
    active = gm.any(axis=1)
    if kind == "ANY":
        r = (pred & gm).any(axis=1)
    elif kind == "ALL":
        r = ~(gm & ~pred).any(axis=1)
    else:
        r = ~(gm & ~pred).any(axis=1) | ~(gm & pred).any(axis=1)
    return r & active, ballot


@op("VOTE")
def vote(ins, ctx):
    ops = list(ins.operands)
    kind = next((x for x in ins.mods if x in ("ANY", "ALL", "EQ")), None)
    if kind is None:
        raise DecodeProblem(ins, "no vote kind")
    rf = reg_file(ops[0])
    d = rf[1] if rf and rf[0] == "R" else RZ
    if rf and rf[0] == "R":
        ops = ops[1:]
    pd, ps = pred_src(ins, ops[0]), pred_src(ins, ops[1])

    def fn(st, G, m, gm, ins):
        pv = np.broadcast_to(ps.pred(st, G) if ps.n != PT else np.bool_(not ps.neg), gm.shape)
        r, ballot = _vote_value(kind, pv, gm)
        st.w(d, G, gm, np.broadcast_to(ballot[:, None], gm.shape))
        st.wp(pd.n, G, gm, np.broadcast_to(r[:, None], gm.shape))
    writes = ([("R", d)] if d != RZ else []) + ([("P", pd.n)] if pd.n != PT else [])
    return Impl(fn, [("P", ps.n)] if ps.n != PT else [], writes)


@op("VOTEU")
def voteu(ins, ctx):
    ops = list(ins.operands)
    kind = next((x for x in ins.mods if x in ("ANY", "ALL", "EQ")), None)
    rf = reg_file(ops[0])
    d = rf[1] if rf and rf[0] == "UR" else URZ
    if rf and rf[0] == "UR":
        ops = ops[1:]
    upd, ps = pred_src(ins, ops[0]), pred_src(ins, ops[1])

    def fn(st, G, m, gm, ins):
        pv = np.broadcast_to(ps.pred(st, G) if ps.n != PT else np.bool_(not ps.neg), gm.shape)
        r, ballot = _vote_value(kind, pv, gm)
        warps = gm.any(axis=1)
        st.wur(d, G, warps, ballot)
        st.wup(upd.n, G, warps, r)
    return Impl(fn, [("P", ps.n)] if ps.n != PT else [], [("UR", d)] if d != URZ else [])


@op("REDUX")
def redux(ins, ctx):
    d = dst_reg(ins, ins.operands[0], ("UR",))[1]
    a = src(ins, ins.operands[1])
    kind = next((x for x in ins.mods if x in ("SUM", "MIN", "MAX", "AND", "OR", "XOR")), None)
    signed = ins.has("S32")
    if kind is None:
        raise DecodeProblem(ins, "no reduction")

    def fn(st, G, m, gm, ins):
        v = np.broadcast_to(a.u32(st, G, ins.pc), gm.shape)
        v = v.view(np.int32).astype(np.int64) if signed else v.astype(np.int64)
        if kind == "SUM":
            r = np.where(gm, v, 0).sum(axis=1)
        elif kind == "MIN":
            r = np.where(gm, v, np.iinfo(np.int64).max).min(axis=1)
        elif kind == "MAX":
            r = np.where(gm, v, np.iinfo(np.int64).min).max(axis=1)
        elif kind == "AND":
            r = np.bitwise_and.reduce(np.where(gm, v, 0xFFFFFFFF), axis=1)
        elif kind == "OR":
            r = np.bitwise_or.reduce(np.where(gm, v, 0), axis=1)
        else:
            r = np.bitwise_xor.reduce(np.where(gm, v, 0), axis=1)
        st.wur(d, G, gm.any(axis=1), (r & 0xFFFFFFFF).astype(U32))
    return Impl(fn, _reads(a), [("UR", d)] if d != URZ else [], queue="mio")


@op("MATCH")
def match(ins, ctx):
    if not ins.has("ANY"):
        raise DecodeProblem(ins, "MATCH.ALL")
    d = dst_reg(ins, ins.operands[0])[1]
    a = src(ins, ins.operands[-1])
    wide = ins.has("U64")

    def fn(st, G, m, gm, ins):
        v = a.u64(st, G, ins.pc) if wide else np.broadcast_to(a.u32(st, G, ins.pc), gm.shape)
        v = np.broadcast_to(v, gm.shape)
        same = (v[:, :, None] == v[:, None, :]) & gm[:, None, :]
        st.w(d, G, gm, bits_mask(same))
    return Impl(fn, _reads(a), [("R", d)] if d != RZ else [], queue="mio")


@op("BAR")
def bar(ins, ctx):
    kind = next((x for x in ins.mods if x in ("SYNC", "ARV", "RED")), None)
    if kind is None:
        raise DecodeProblem(ins, "a BAR form other than SYNC / ARV / RED")
    ops = list(ins.operands)
    pd = None
    if kind == "RED":
        pd, ops = pred_src(ins, ops[0]), ops[1:]
        raise DecodeProblem(ins, "BAR.RED (__syncthreads_count/and/or)")
    barrier = src(ins, ops[0])
    if len(ops) > 1:
        raise DecodeProblem(ins, "a BAR with a thread count")
    del pd

    def fn(st, G, m, gm, ins):
        ids = np.broadcast_to(np.asarray(barrier.u32(st, G, ins.pc), U32), gm.shape).astype(np.int64)
        if (ids[gm] >= max(1, st.launch.barriers)).any():
            raise SmException(ESR_ILLEGAL_INSTR_PARAM, ins.pc, f"barrier {int(ids[gm].max())} used, but the QMD gives "
                              f"BARRIER_COUNT {st.launch.barriers}")
        if st.launch.barriers == 0:
            raise SmException(ESR_ILLEGAL_INSTR_PARAM, ins.pc, "BAR.SYNC in a kernel launched with BARRIER_COUNT 0")
        set_pc(st, G, m & ~gm, ins.pc + 16)
        if kind == "ARV":
            set_pc(st, G, gm, ins.pc + 16)
            return
        if isinstance(G, slice):
            np.copyto(st.wait[G], WAIT_BAR, where=gm)
            np.copyto(st.wait_arg[G], ids, where=gm)
        else:
            st.wait[G] = np.where(gm, WAIT_BAR, st.wait[G])
            st.wait_arg[G] = np.where(gm, ids, st.wait_arg[G])
    return Impl(fn, _reads(barrier), (), control=True)


__all__ = ["popcount32"]
