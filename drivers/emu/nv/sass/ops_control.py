"""Control flow with per-thread PCs: BRA, BRX, CALL, RET, EXIT, the convergence barriers BSSY / BSYNC /
BREAK / BMOV, WARPSYNC, and the instructions that only pace a warp (NOP, YIELD, NANOSLEEP).

Targets are relative to the instruction ('target' operands); BRX and RET jump to a register's value
(an offset from the kernel's entry) plus their immediate.  A lane whose guard predicate is false just
moves on.  BSSY Bn records the lanes executing it; BSYNC Bn blocks them until every lane of that mask
that has not exited is there too (the executor releases them together); WARPSYNC does the same for an
explicit lane mask.
"""
import numpy as np

from drivers.emu.nv.faults import ESR_ILLEGAL_INSTR_PARAM, SmException
from drivers.emu.nv.sass.executor import Impl, op
from drivers.emu.nv.sass.operands import DecodeProblem, reg_file, src
from drivers.emu.nv.sass.state import WAIT_BSYNC, WAIT_WARPSYNC, bits_mask, mask_bits


def set_pc(st, G, mask, value):
    if isinstance(G, slice):
        np.copyto(st.pc[G], value, where=mask)
    else:
        st.pc[G] = np.where(mask, value, st.pc[G])


def _target(ins, op_):
    """The branch offset relative to the instruction (the closure adds the PC it runs at)."""
    if op_.kind == "target":
        return op_.holes[0]
    raise DecodeProblem(ins, f"branch target {op_.render() if hasattr(op_, 'render') else op_}")


def _barrier(ins, op_):
    rf = reg_file(op_)
    if rf is None or rf[0] != "B":
        raise DecodeProblem(ins, f"{op_} is not a convergence barrier B0..B15")
    return rf[1]


@op("BRA")
def bra(ins, ctx):
    ops = [o for o in ins.operands if not (reg_file(o) and reg_file(o)[0] in ("P", "UP"))]
    preds = [o for o in ins.operands if reg_file(o) and reg_file(o)[0] in ("P", "UP")]
    if preds:
        raise DecodeProblem(ins, "a BRA with a predicate operand (BRA.DIV/CONV forms)")
    rel = _target(ins, ops[0])

    def fn(st, G, m, gm, ins):
        set_pc(st, G, m, ins.pc + 16)
        set_pc(st, G, gm, ins.pc + rel)
    return Impl(fn, control=True)


@op("BRX", "JMX")
def brx(ins, ctx):
    o = ins.operands[0]
    if o.kind != "pair" or o.shape[0] != "reg":
        raise DecodeProblem(ins, "an indirect branch without a register")
    r, imm = o.holes[0], o.holes[-1]

    def fn(st, G, m, gm, ins):
        dest = st.r(r, G).astype(np.int64) + imm + ins.pc + 16
        set_pc(st, G, m, ins.pc + 16)
        set_pc(st, G, gm, dest)
    return Impl(fn, [("R", r)], control=True)


@op("CALL")
def call(ins, ctx):
    if not ins.has("REL"):
        raise DecodeProblem(ins, "an absolute CALL")
    rel = _target(ins, ins.operands[0])

    def fn(st, G, m, gm, ins):
        set_pc(st, G, m, ins.pc + 16)
        set_pc(st, G, gm, ins.pc + rel)
    return Impl(fn, control=True)


@op("RET")
def ret(ins, ctx):
    o = ins.operands[0]
    if o.kind != "pair" or o.shape[0] != "reg" or o.shape[2] != "target":
        raise DecodeProblem(ins, "a RET without a return-address register")
    r, rel = o.holes[0], o.holes[-1]

    def fn(st, G, m, gm, ins):
        dest = st.r(r, G).astype(np.int64) + ins.pc + rel
        set_pc(st, G, m, ins.pc + 16)
        set_pc(st, G, gm, dest)
    return Impl(fn, [("R", r)], control=True)


@op("EXIT", "KILL")
def exit_(ins, ctx):
    def fn(st, G, m, gm, ins):
        set_pc(st, G, m, ins.pc + 16)
        if isinstance(G, slice):
            np.copyto(st.exited[G], True, where=gm)
        else:
            st.exited[G] = st.exited[G] | gm
    return Impl(fn, control=True)


@op("BSSY")
def bssy(ins, ctx):
    b = _barrier(ins, ins.operands[0])
    _target(ins, ins.operands[1])                      # where the matching BSYNC is (checked, not needed)

    def fn(st, G, m, gm, ins):
        warps = m.any(axis=1)
        st.B[b][G] = np.where(warps, bits_mask(gm), st.B[b][G])
        set_pc(st, G, m, ins.pc + 16)
    return Impl(fn, control=True)


def _arrive(st, G, m, gm, ins, need, kind, arg):
    """Lanes `gm` arrive at a convergence point that waits for `need` (bool [len(G), 32])."""
    live = ~st.exited[G]
    ready = ~((need & live) & ~gm).any(axis=1, keepdims=True)
    set_pc(st, G, m & ~gm, ins.pc + 16)
    set_pc(st, G, gm & ready, ins.pc + 16)
    blocked = gm & ~ready
    if blocked.any():
        if isinstance(G, slice):
            np.copyto(st.wait[G], kind, where=blocked)
            np.copyto(st.wait_arg[G], arg, where=blocked)
        else:
            st.wait[G] = np.where(blocked, kind, st.wait[G])
            st.wait_arg[G] = np.where(blocked, arg, st.wait_arg[G])


@op("BSYNC")
def bsync(ins, ctx):
    b = _barrier(ins, ins.operands[-1])

    def fn(st, G, m, gm, ins):
        _arrive(st, G, m, gm, ins, mask_bits(st.B[b][G]), WAIT_BSYNC, b)
    return Impl(fn, control=True)


@op("WARPSYNC")
def warpsync(ins, ctx):
    s = src(ins, ins.operands[-1])

    def fn(st, G, m, gm, ins):
        masks = np.broadcast_to(s.u32(st, G, ins.pc), m.shape)
        if s.kind == "R":                              # a register mask: the lanes' own values must agree
            first = masks[np.arange(len(masks)), np.argmax(gm, axis=1)]
            masks = np.broadcast_to(first[:, None], m.shape)
            mask_value = int(first[gm.any(axis=1)][0]) if gm.any() else 0xFFFFFFFF
        else:
            mask_value = int(masks.flat[0])
        need = mask_bits(masks[:, 0])
        if (gm & ~need).any():
            raise SmException(ESR_ILLEGAL_INSTR_PARAM, ins.pc, "WARPSYNC executed by a lane its mask does not name")
        _arrive(st, G, m, gm, ins, need, WAIT_WARPSYNC, mask_value)
    return Impl(fn, [("R", s.n)] if s.kind == "R" else [], control=True)


@op("BREAK")
def break_(ins, ctx):
    b = _barrier(ins, ins.operands[-1])

    def fn(st, G, m, gm, ins):
        st.B[b][G] = st.B[b][G] & ~bits_mask(gm)
        set_pc(st, G, m, ins.pc + 16)
    return Impl(fn, control=True)


@op("BMOV")
def bmov(ins, ctx):
    dst, srcop = ins.operands[0], ins.operands[1]
    rd, rs = reg_file(dst), reg_file(srcop)
    clear = ins.has("CLEAR")
    if rd and rd[0] == "R" and rs and rs[0] == "B":
        def fn(st, G, m, gm, ins):
            st.w(rd[1], G, gm, np.broadcast_to(st.B[rs[1]][G][:, None], gm.shape))
            if clear:
                st.B[rs[1]][G] = np.where(gm.any(axis=1), 0, st.B[rs[1]][G])
        return Impl(fn, (), [("R", rd[1])])
    if rd and rd[0] == "B":
        s = src(ins, srcop)

        def fn(st, G, m, gm, ins):
            v = np.broadcast_to(s.u32(st, G, ins.pc), gm.shape)
            first = v[np.arange(len(v)), np.argmax(gm, axis=1)]
            st.B[rd[1]][G] = np.where(gm.any(axis=1), first, st.B[rd[1]][G])
        return Impl(fn, [("R", s.n)] if s.kind == "R" else [])
    raise DecodeProblem(ins, "a BMOV form other than R <- B or B <- R")


@op("NOP", "YIELD", "NANOSLEEP", "MEMBAR", "ERRBAR", "CCTL", "CGAERRBAR", "FENCE")
def nop(ins, ctx):
    def fn(st, G, m, gm, ins):
        pass
    return Impl(fn)


@op("DEPBAR")
def depbar(ins, ctx):
    """DEPBAR.LE SBn, count: wait until at most `count` instructions of SBn are outstanding; the
    in-order model completes them all."""
    sb = next((o for o in ins.operands if o.kind == "reg" and o.shape[0] == "SB"), None)
    if sb is None:
        raise DecodeProblem(ins, "a DEPBAR without a scoreboard")
    n = sb.holes[0]

    def fn(st, G, m, gm, ins):
        st.hazards.wait(G, 1 << n)
    return Impl(fn)


__all__ = ["set_pc"]
