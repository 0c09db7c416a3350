"""Scheduling control for instructions written without it: a simple, conservative scoreboard.

The model (the one the hardware implements, and the one a strict simulator checks):

  * Instructions issue in order; instruction i+1 issues `stall` cycles after instruction i.
  * A fixed-latency instruction's results are ready `latency` cycles after it issues; nothing
    interlocks, so a reader must issue no earlier (the stall counts in between add up to it).
  * A variable-latency instruction (memory, MUFU, S2R, conversions ... as ptxas treats them)
    names a write scoreboard (wbar) released when its results land; readers, and later writers
    of the same registers, wait on it (wait mask). An instruction that reads its sources late
    (stores, atomics ...) names a read scoreboard (rbar); a later writer of those registers
    waits on it. There are six scoreboards; when all are busy the oldest is waited for.
  * Blocks are joined conservatively: the instruction ending a block (a branch, a call, a
    return, or the one before a label) stalls until every fixed latency is covered, and the
    first instruction of the next block waits on all six scoreboards (waiting on a free one
    costs nothing), whatever its predecessor left pending.

Which opcodes are variable-latency and the smallest stall ptxas leaves after each opcode are
measured on ptxas's own output (tables SCHEDULE, from scripts/gen_sass_tables.py); fixed latencies
come from assembler.sass.latency (the model the virtual SM checks, never shorter than SCHEDULE's),
with the longer one of a predicate read as a guard (@P); registers come from assembler.sass.usage,
which over-approximates.
Explicit controls in the source are kept and their scoreboards tracked.
"""
from .control import CONTROL_MASK, Control
from .decoder import decode_word
from .latency import latencies
from .tables import load
from .usage import usage

BRANCHES = frozenset("BRA BRX JMP JMX CALL RET EXIT BREAK BSYNC WARPSYNC KILL".split())
NUM_SB = 6
_NEUTRAL = Control(stall=1, yield_=False).bits()


def _yield_for(stall):
    # '-' (bit 109 set) is only valid for stalls 1..11; ptxas's usual choice there
    return not (1 <= stall <= 11)


class _State:
    def __init__(self):
        self.ready = {}          # reg -> cycle its fixed-latency value is ready
        self.gready = {}         # predicate -> cycle it is ready to be read as a guard
        self.wsb = {}            # reg -> scoreboard its pending variable-latency write releases
        self.rsb = {}            # reg -> scoreboard a pending late read of it releases
        self.busy = []           # scoreboards in use, oldest first

    def pending(self, reg, t, model, op):
        """`reg` written at cycle t by fixed-latency `op`."""
        self.ready[reg] = t + model.schedule_latency(op, reg[0])
        if reg[0] in ("P", "UP"):
            self.gready[reg] = t + model.schedule_latency(op, reg[0], guard=True)

    def forget(self, reg):
        self.ready.pop(reg, None)
        self.gready.pop(reg, None)

    def release(self, sbs):
        for m in (self.wsb, self.rsb):
            for r in [r for r, b in m.items() if b in sbs]:
                del m[r]
        self.busy = [b for b in self.busy if b not in sbs]

    def allocate(self, wait):
        free = [b for b in range(NUM_SB) if b not in self.busy and b not in wait]
        if not free:
            oldest = self.busy[0]
            wait.add(oldest)
            self.release({oldest})
            free = [oldest]
        b = free[0]
        self.busy.append(b)
        return b


def schedule(words, arch, controls, labels=()):
    """Controls for every instruction: the given ones kept, the None ones computed."""
    sched = load(arch).SCHEDULE
    var_w, var_r = set(sched["variable_write"]), set(sched["variable_read"])
    model = latencies(arch)
    min_stall = sched["min_stall"]
    starts = set(labels)
    n = len(words)
    out = [None] * n
    st = _State()
    t = 0
    prev = None
    words_ops = [None] * n
    for i, w in enumerate(words):
        # decoded under a neutral control (the word's own may not be set yet)
        ins = decode_word(w & ~CONTROL_MASK | _NEUTRAL, arch, 16 * i)
        op = ins.opcode
        lop = model.key(op, ins.modifiers)      # the latency tables' name for it
        reads, writes = usage(ins)
        given = controls[i]
        # the cycle this instruction may issue at, and the scoreboards it must wait for
        need_t = t
        wait = set()
        guard = (ins.guard[0], ins.guard[1]) if ins.guard is not None else None
        for r in reads | writes:
            if r in st.ready:
                need_t = max(need_t, st.ready[r])
            if r == guard and r in st.gready:
                need_t = max(need_t, st.gready[r])
            if r in st.wsb:
                wait.add(st.wsb[r])
        for r in writes:
            if r in st.rsb:
                wait.add(st.rsb[r])
        block_start = i == 0 or i in starts or (prev is not None and out[prev] is not None and
                                                  words_ops[prev] in BRANCHES)
        if prev is not None and need_t > t:
            # lengthen the previous stall (if it is ours) so that this one issues late enough
            c = out[prev]
            if controls[prev] is None:
                extra = min(15, c.stall + need_t - t)
                t += extra - c.stall
                c.stall = extra
                c.yield_ = _yield_for(extra)
        if given is not None:
            c = Control(given.stall, given.yield_, given.wbar, given.rbar, given.wait)
            st.release({b for b in range(NUM_SB) if c.wait >> b & 1})
            if c.wbar != 7:
                st.busy.append(c.wbar)
                for r in writes:
                    st.wsb[r] = c.wbar
                    st.forget(r)
            else:
                for r in writes:
                    st.pending(r, t, model, lop)
                    st.wsb.pop(r, None)
            if c.rbar != 7:
                st.busy.append(c.rbar)
                for r in reads:
                    st.rsb[r] = c.rbar
        else:
            st.release(wait)
            c = Control(stall=max(1, min_stall.get(op, 1)), wait=sum(1 << b for b in wait))
            if writes and "w" not in ins.nosb and \
                    (op in var_w or max(model.schedule_latency(lop, r[0], True) for r in writes) > 15):
                # a latency no stall can cover (stalls stop at 15; unknown opcodes get the
                # largest one measured) is waited for on a scoreboard instead
                c.wbar = st.allocate(wait)
                for r in writes:
                    st.wsb[r] = c.wbar
                    st.forget(r)
            else:
                for r in writes:
                    st.pending(r, t, model, lop)
                    st.wsb.pop(r, None)
            if op in var_r and reads and "r" not in ins.nosb:       # (BMOV B0, R2 takes none)
                c.rbar = st.allocate(wait)
                for r in reads:
                    st.rsb[r] = c.rbar
            c.wait = sum(1 << b for b in wait) | (0x3f if block_start else 0)
            if op in BRANCHES or (i + 1 in starts) or i + 1 == n:
                # cover every fixed latency before control leaves (or a label is reached)
                pending = max(list(st.ready.values()) + list(st.gready.values()) + [t]) - t
                c.stall = max(c.stall, min(15, pending))
            c.yield_ = _yield_for(c.stall)
        if op in BRANCHES or (i + 1 in starts):
            st = _State()
        words_ops[i] = op
        out[i] = c
        prev = i
        t += c.stall
    return out
