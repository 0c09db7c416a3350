"""Running a grid: CTAs in batches, warps grouped by PC, instructions compiled once into closures.

Scheduling (Volta and later give every thread its own PC): each warp runs its runnable lanes at their
lowest PC; the warps whose lowest PC is the smallest of the batch execute together, as one numpy call
per instruction, through straight-line code up to the next control instruction.  Lanes that branch
apart run one path after the other and meet again at the BSYNC / WARPSYNC the compiler put there;
BAR.SYNC blocks a warp until every thread of its CTA arrived.  A batch where nothing can run and
nothing can be released is a deadlock, reported with the PCs where lanes wait.

Each instruction is compiled the first time a launch meets it (assembler.sass decodes the words,
ops_*.py turn opcode, modifiers and operands into a closure); the closures are cached with the decoded
block.  Before an instruction runs its wait mask completes scoreboards and its register reads and
writes are checked against pending ones (hazards.py), and against the fixed-latency results its
warp's stall counts have not yet covered (stalls.py); an opcode the simulator does not know, or an
operand form it does not emulate, is an ILLEGAL_INSTR_ENCODING SM exception naming the instruction.
"""
import numpy as np

from drivers.emu.faults import MemoryFault
from drivers.emu.nv.faults import (ESR_ILLEGAL_INSTR_ENCODING, ESR_MISALIGNED_PC, ESR_PC_OVERFLOW, Preempted,
                                   SmException)
from drivers.emu.nv.sass.decode import BLOCK, decode_block
from drivers.emu.nv.sass.hazards import FILES, Scoreboards
from drivers.emu.nv.sass.instr import NO_SB
from drivers.emu.nv.sass.stalls import StallClock, Timing
from drivers.emu.nv.sass.state import (LANES, WAIT_BAR, WAIT_BSYNC, WAIT_NONE, WAIT_WARPSYNC, Batch, mask_bits)

OPS = {}                       # opcode -> compile(ins, ctx) -> Impl
BIG = np.int64(1) << 62
MAX_BATCH_WARPS = 2048
STOP_CHECK = 64                # straight-line runs between preemption checks


class Impl:
    """A compiled instruction: `fn(st, G, m, gm, ins)`; `control` ones set the PCs of their lanes
    themselves.  reads/writes: (file, number) pairs for the scoreboard checks; `queue` names the
    in-order queue of a variable-latency instruction."""
    __slots__ = ("fn", "control", "reads", "writes", "queue", "ins", "max_reg", "checked", "timing")

    def __init__(self, fn, reads=(), writes=(), control=False, queue=None):
        self.fn, self.reads, self.writes, self.control, self.queue = fn, tuple(reads), tuple(writes), control, queue
        self.ins = self.timing = None
        self.max_reg = max([n for f, n in self.reads + self.writes if f == "R" and n != 255], default=-1)
        self.checked = None


def op(*names):
    def register(fn):
        for name in names:
            OPS[name] = fn
        return fn
    return register


def _illegal(ins, why):
    def fn(st, G, m, gm, ins_=ins):
        raise SmException(ESR_ILLEGAL_INSTR_ENCODING, ins.pc, f"{ins}: {why}")
    impl = Impl(fn)
    impl.timing = Timing(ins, impl, None)
    return impl


class Context:
    """What compiling an instruction may depend on: the SM version (0x806), and the arch's fixed
    latencies (assembler.sass.latency) for the stall check."""

    def __init__(self, sm):
        self.sm = sm
        self._latencies = None

    @property
    def latencies(self):
        if self._latencies is None:
            from assembler.sass.latency import latencies
            self._latencies = latencies(f"sm_{self.sm >> 8}{self.sm & 0xF}")
        return self._latencies


class Code:
    """The decoded and compiled instructions of one program (by offset from its start)."""
    _compiled = {}             # (sm, block bytes) -> {offset: (Instr, Impl)}

    def __init__(self, launch):
        self.vm, self.base, self.sm = launch.vm, launch.program_va, launch.sm_version
        self.ctx = Context(self.sm)
        self.instrs = {}

    def get(self, pc):
        hit = self.instrs.get(pc)
        if hit is not None:
            return hit
        if pc % 16:
            raise SmException(ESR_MISALIGNED_PC, pc, f"PC 0x{pc:x} is not 16-byte aligned")
        va = self.base + pc
        page = max(va - va % BLOCK, self.base)      # what precedes the entry is not this kernel's code
        end = va - va % BLOCK + BLOCK
        try:
            words = self.vm.read(page, end - page, execute=False)
        except MemoryFault as f:
            f.pc = pc
            raise
        sm = (self.sm >> 8) * 10 + (self.sm & 0xF)
        key = (sm, words)
        block = Code._compiled.get(key)
        if block is None:
            if len(Code._compiled) > 512:
                Code._compiled.clear()
            block = Code._compiled[key] = {}
            for off, ins in decode_block(words, sm).items():
                block[off] = (ins, None)
        start = page - self.base
        for off, (ins, impl) in list(block.items()):
            if impl is None:
                impl = self._compile(ins)
                block[off] = (ins, impl)
            abs_pc = start + off
            if abs_pc >= 0 and abs_pc not in self.instrs:
                ins_at = ins if ins.pc == abs_pc else _rebase(ins, abs_pc)
                self.instrs[abs_pc] = (ins_at, impl)
        hit = self.instrs.get(pc)
        if hit is None:
            raise SmException(ESR_PC_OVERFLOW, pc, f"no instruction decodes at PC 0x{pc:x} (program VA 0x{va:x})")
        return hit

    def _compile(self, ins):
        comp = OPS.get(ins.opcode)
        if ins.opcode == "???":
            return _illegal(ins, "the SASS decoder refuses the word")
        if comp is None:
            return _illegal(ins, f"opcode {ins.opcode} is not one the virtual SM implements")
        try:
            impl = comp(ins, self.ctx)
        except SmException as e:
            return _illegal(ins, e.reason)
        impl.ins = ins
        impl.timing = Timing(ins, impl, self.ctx.latencies)
        return impl


def _rebase(ins, pc):
    import copy
    c = copy.copy(ins)
    c.pc = pc
    return c


def execute(launch):
    """Run the grid of `launch` (drivers.emu.nv.compute.Launch) to completion -> warp-instructions run."""
    from drivers.emu.nv.sass import ops_control, ops_float, ops_half, ops_int, ops_memory, ops_uniform, ops_warp  # noqa
    code = Code(launch)
    gx, gy, gz = launch.grid
    ctas = gx * gy * gz
    wpc = -(-launch.threads // 32)
    per_batch = max(1, MAX_BATCH_WARPS // wpc)
    total = 0
    for start in range(0, ctas, per_batch):
        batch = Batch(launch, range(start, min(ctas, start + per_batch)), launch.shared_bytes, launch.local_low,
                      launch.local_high)
        run_batch(batch, code, launch)
        total += batch.executed
    launch.gpu.warp_instructions = getattr(launch.gpu, "warp_instructions", 0) + total
    return total


def _group(idx):
    if idx[-1] - idx[0] + 1 == len(idx):
        return slice(int(idx[0]), int(idx[-1]) + 1)
    return idx


def run_batch(st, code, launch):
    st.hazards = Scoreboards(st.nw, st.nregs)
    st.clock = StallClock(st.nw, code.get)
    stop = launch.should_stop
    runs = 0
    while True:
        runnable = ~st.exited & (st.wait == WAIT_NONE)
        if not runnable.any():
            if st.exited.all():
                return
            if not release(st):
                deadlock(st)
            continue
        wpc = np.where(runnable, st.pc, BIG).min(axis=1)
        p = int(wpc.min())
        G = _group(np.flatnonzero(wpc == p))
        m = runnable[G] & (st.pc[G] == p)
        run_straight(st, code, p, G, m)
        runs += 1
        if runs % STOP_CHECK == 0 and stop():
            raise Preempted(f"the channel was torn down while a grid ran (PC 0x{p:x})")


def run_straight(st, code, p, G, m):
    """Execute from PC `p` for lanes `m` of warps `G` until a control instruction has run."""
    warps = m.any(axis=1)
    nwarps, nlanes = int(warps.sum()), int(m.sum())
    hz, clock = st.hazards, st.clock
    clock.start(G)
    while True:
        ins, impl = code.get(p)
        if impl.checked is not st:
            if impl.max_reg >= st.nregs:
                st.check_reg(impl.max_reg, p)
            impl.checked = st
        if ins.ctrl.wait:
            hz.wait(G, ins.ctrl.wait)
        if impl.reads or impl.writes:
            hz.check(G, warps, impl.reads, impl.writes, ins)
        timing = impl.timing
        clock.step(ins, timing)
        gm = m
        if ins.guard is not None:
            file, n, neg = ins.guard
            g = st.P[n][G] if file == "P" else st.UP[n][G][:, None]
            gm = m & (~g if neg else g)
        try:
            impl.fn(st, G, m, gm, ins)
        except MemoryFault as f:
            if getattr(f, "pc", None) is None:
                f.pc = ins.pc
            raise
        if impl.queue is not None:
            wsb, rsb = ins.ctrl.write_sb, ins.ctrl.read_sb
            hz.issue(G, warps, impl.queue, wsb if wsb != NO_SB else -1, impl.writes,
                     rsb if rsb != NO_SB else None, impl.reads, ins.pc)
        elif not timing.fixed:
            # a fixed-latency instruction given a write scoreboard anyway: its readers wait for that
            hz.issue(G, warps, "fixed", ins.ctrl.write_sb, [w for w in impl.writes if w[0] in FILES], None, (),
                     ins.pc)
        st.executed += nwarps
        st.thread_ops += nlanes
        if impl.control:
            clock.end()
            return
        p += 16
        if isinstance(G, slice):
            np.copyto(st.pc[G], p, where=m)
        else:
            st.pc[G] = np.where(m, p, st.pc[G])


def release(st):
    """Let go of the lanes whose BSYNC, WARPSYNC or BAR is satisfied -> True if any were."""
    released = False
    waiting = st.wait != WAIT_NONE
    live = ~st.exited
    for kind in (WAIT_BSYNC, WAIT_WARPSYNC):
        w = st.wait == kind
        if not w.any():
            continue
        for arg in np.unique(st.wait_arg[w]):
            mine = w & (st.wait_arg == arg)
            warps = np.flatnonzero(mine.any(axis=1))
            if kind == WAIT_BSYNC:
                need = mask_bits(st.B[int(arg)][warps])
            else:
                need = np.broadcast_to(mask_bits(np.uint32(int(arg) & 0xFFFFFFFF)), (len(warps), 32))
            need = need & live[warps]
            here = mine[warps]
            pcs = np.where(here, st.pc[warps], -1)
            top = pcs.max(axis=1, keepdims=True)
            ok = ~(need & ~(here & (st.pc[warps] == top))).any(axis=1)
            for i in np.flatnonzero(ok):
                wi = warps[i]
                lanes = here[i]
                st.wait[wi][lanes] = WAIT_NONE
                st.pc[wi][lanes] += 16
                released = True
    w = st.wait == WAIT_BAR
    if w.any():
        cta = st.cta_of_warp
        for c in np.unique(cta[w.any(axis=1)]):
            rows = cta == c
            if ((live[rows] & ~w[rows]).any()):
                continue
            for arg in np.unique(st.wait_arg[rows][w[rows]]):
                lanes = w & rows[:, None] & (st.wait_arg == arg)
                if (live[rows] & ~lanes[rows]).any():
                    continue                    # threads of the CTA wait at another barrier
                st.wait[lanes] = WAIT_NONE
                st.pc[lanes] += 16
                released = True
    del waiting
    return released


def deadlock(st):
    w = np.argwhere(st.wait != WAIT_NONE)
    warp, lane = (int(x) for x in w[0])
    kind = {WAIT_BSYNC: "BSYNC", WAIT_WARPSYNC: "WARPSYNC", WAIT_BAR: "BAR.SYNC"}[int(st.wait[warp, lane])]
    pc = int(st.pc[warp, lane])
    raise SmException(ESR_ILLEGAL_INSTR_ENCODING, pc, f"deadlock: warp {warp} lane {lane} waits at {kind} (PC 0x{pc:x}) "
                      "for threads that never arrive (they exited or wait elsewhere)")


__all__ = ["OPS", "Impl", "op", "execute", "LANES"]
