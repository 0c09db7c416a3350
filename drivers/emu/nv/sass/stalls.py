"""Stall counts: fixed-latency results read before they are written, the way the hardware punishes it.

On Ampere, Ada and Hopper nothing interlocks on an ALU result (FFMA, IADD3, IMAD, LOP3, ISETP, ULDC
...): the compiler makes each instruction's stall count (control bits 105..108) hold the next one back
long enough, and a reader issued before its producer's latency has elapsed reads the register's old
value.  So each warp here keeps a clock, advanced at every issue by the instruction's stall count (a
stall of 0 still costs the cycle of the issue): the fewest cycles the real warp can have taken, since
waiting for a scoreboard, a taken branch or another warp only ever adds time.  Each register written
by a fixed-latency instruction (no write scoreboard) becomes readable at issue + its latency, from
assembler.sass.latency (what ptxas leaves: the same numbers the scheduler uses); a predicate read as
the guard needs the longer guard latency.  Reading a register before then, or writing it with a
result that would land no later than the pending one (write after write out of order), is a
HazardError naming the instruction, the register, the producer's PC and how many cycles were missing.

Not checked (the tables cannot support it): a variable-latency write after a pending fixed-latency
one (its landing time is unknown; the scoreboards cover everything after it), convergence and
barrier registers (B, SB), and which lanes wrote: the clock is per warp, as the hardware's is.
"""
import numpy as np

from drivers.emu.nv.sass.hazards import HazardError

# one column per register: R0..R255, UR0..UR63, P0..P7, UP0..UP7, then P and UP again as guards
BASE = {"R": 0, "UR": 256, "P": 320, "UP": 328}
GUARD = {"P": 336, "UP": 344}
COLS = 352
ZERO = {"R": 255, "UR": 63, "P": 7, "UP": 7}
SHIFT = 24                     # ready = (cycle << SHIFT) | producer PC (programs stay below 16 MiB)


def _name(col):
    for f, b in sorted(list(GUARD.items()) + list(BASE.items()), key=lambda x: -x[1]):
        if col >= b:
            return f"{f}{col - b}"
    return str(col)


class Timing:
    """What the clock needs of one compiled instruction: `checks`, (column, offset, written) for the
    columns it reads (sources and guard) and, for a fixed-latency result, those it writes: a pending
    value must be ready before cycle + offset (1 for a read; for a write the new result's latency,
    since it must land after the pending one); `writes`, the columns its fixed-latency result makes
    pending, with their latencies; `cleared`, those a variable-latency result takes over (its
    scoreboard protects them from then on); `cost`, the cycles its issue takes."""
    __slots__ = ("checks", "writes", "cleared", "fixed", "cost")

    def __init__(self, ins, impl, model):
        reads = [BASE[f] + n for f, n in impl.reads if f in BASE and n != ZERO[f]]
        if ins.guard is not None and ins.guard[1] != ZERO[ins.guard[0]]:
            reads.append(GUARD[ins.guard[0]] + ins.guard[1])
        self.fixed = impl.queue is None and ins.ctrl.write_sb == 7
        writes = []
        for f, n in impl.writes:
            if f not in BASE or n == ZERO[f]:
                continue
            op = model.key(ins.opcode, ins.mods)
            writes.append((BASE[f] + n, model.check_latency(op, f) if self.fixed else 0))
            if f in GUARD:
                writes.append((GUARD[f] + n, model.guard_latency(op, f) if self.fixed else 0))
        self.checks = tuple((c, 1, False) for c in reads) + \
            (tuple((c, lat, True) for c, lat in writes) if self.fixed else ())
        self.writes = tuple(writes) if self.fixed else ()
        self.cleared = () if self.fixed else tuple(c for c, _ in writes)
        self.cost = max(1, ins.ctrl.stall)


class StallClock:
    """Per warp: its clock, and when each register's pending fixed-latency result becomes readable
    (`ready`, (cycle << SHIFT) | producer PC; `last`, the latest of them).

    The warps of one straight-line run (executor.run_straight) issue the same instructions, so within
    a run the clock is kept relative to its start, in Python: `start` notes where the warps are and
    how far ahead anything written before the run is still pending, `step` checks and records one
    instruction (touching the arrays only for a register written before the run whose result may
    still be pending), `end` writes the run back."""

    def __init__(self, nw, lookup):
        self.cycle = np.zeros(nw, np.int64)
        self.last = np.zeros(nw, np.int64)
        self.ready = np.zeros((COLS, nw), np.int64)     # a row per register: a run's warps are a row slice
        self.lookup = lookup           # pc -> (Instr, Impl), to name a producer
        self.G = None

    def start(self, G):
        self.G = G
        self.rel = 0
        self.local = {}                # column -> (ready, pc) relative to the run's start; pc None: cleared
        self.pending = int((self.last[G] - self.cycle[G]).max())

    def step(self, ins, t):
        rel, local = self.rel, self.local
        for col, off, written in t.checks:
            hit = local.get(col)
            if hit is not None:
                if hit[1] is not None and hit[0] >= rel + off:
                    self._raise(ins, col, off, written, hit[0] - rel, hit[1])
            elif rel + off <= self.pending:
                self._outside(ins, col, off, written)
        for col, lat in t.writes:
            local[col] = (rel + lat, ins.pc)
        for col in t.cleared:
            local[col] = (0, None)
        self.rel = rel + t.cost

    def _outside(self, ins, col, off, written):
        G = self.G
        got = self.ready[col, G]
        ahead = (got >> SHIFT) - self.cycle[G] - self.rel
        bad = ahead >= off
        if bad.any():
            w = int(np.flatnonzero(bad)[0])
            self._raise(ins, col, off, written, int(ahead[w]), int(got[w]) & ((1 << SHIFT) - 1))

    def end(self):
        G, ready = self.G, self.ready
        c0 = self.cycle[G]
        if self.local:
            base = c0 << SHIFT
            latest = None
            for col, (rel, pc) in self.local.items():
                if pc is None:
                    ready[col, G] = 0
                else:
                    ready[col, G] = base + ((rel << SHIFT) | pc)
                    latest = rel if latest is None else max(latest, rel)
            if latest is not None:
                self.last[G] = np.maximum(self.last[G], c0 + latest)
        self.cycle[G] = c0 + self.rel

    def _raise(self, ins, col, off, written, ahead, pc):
        """`col`'s pending result (by the instruction at `pc`) is ready `ahead` cycles from now."""
        reg = _name(col)
        producer, lat = self._producer(pc, col)
        if not written:
            how = "read as the guard" if col >= GUARD["P"] else "read"
            why = (f"{reg} is {how} {ahead} cycle(s) too early: {producer} at PC 0x{pc:x} writes it with a "
                   f"fixed latency of {lat} cycles and the stall counts since it issued add up to {lat - ahead} "
                   f"(raise the stall counts in between)")
        else:
            why = (f"{reg} is overwritten out of order: this result (latency {off}) lands no later than the one "
                   f"{producer} at PC 0x{pc:x} still has pending, {ahead} cycle(s) from now "
                   f"({ahead - off + 1} cycle(s) short)")
        raise HazardError(ins.pc, str(ins), why, kind="stall")

    def _producer(self, pc, col):
        """(`text`, latency) of the instruction at `pc` that made `col` pending."""
        try:
            ins, impl = self.lookup(pc)
            return f"`{ins}`", dict(impl.timing.writes)[col]
        except Exception:              # noqa: BLE001 -- only the message needs it
            return "the instruction", 0
