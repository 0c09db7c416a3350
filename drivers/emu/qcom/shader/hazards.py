"""The (ss)/(sy) scoreboard and the ALU latency check: a program that reads a result before the
sync or the delay it needs fails here.

ir3 leaves synchronisation to the program (mesa's ir3_legalize.c places the flags):

- (ss) waits for the SFU (cat4), local-memory loads and atomics, resinfo, and writes to shared
  registers;
- (sy) waits for global, private and IBO loads, UBO loads (ldc) and global/IBO atomics;
- an instruction that overwrites a register an SFU op or a store may still be reading needs
  (ss) (write after read); one that overwrites a source of a pending (sy) load needs (ss) or
  (sy).

The tracker keeps, per fiber and 16-bit register unit (two per full register, one per half
register, as mesa's regmask does with merged registers), which sync the last producer needs and
where it was, and checks every instruction's reads and writes before it executes. Following
each fiber's own path is what mesa's legalization does along the control-flow graph: the state
at an instruction is what any path reaching it left (divergent fibers that meet again bring
theirs together), while the other side of an if never taints this one. Relative (a0.x)
accesses are not tracked.
"""
import numpy as np

from drivers.emu.faults import HazardError

from .op import SS, SY, WAR_SS, WAR_SY
from .state import A0, NUNITS, SHARED_END, SHARED_FIRST, unit_name

ALU_TO_ALU = 3              # cycles before an ALU instruction may read an ALU result of the same size
NON_ALU = 6                 # ... before anything else may (other size, SFU, memory, a branch on p0, a0)

_SYNC = {SS: "(ss)", SY: "(sy)"}
_WAR = {WAR_SS: "(ss)", WAR_SY: "(sy)", 3: "(ss) or (sy)"}


def _rows(units):
    return np.array(sorted({u for u in units if u is not None}), np.int64)


def _index(rows):
    """A slice for a run of consecutive rows (numpy views, no copies), else the array."""
    if rows.size and rows[-1] - rows[0] == rows.size - 1 and (np.diff(rows) == 1).all():
        return slice(int(rows[0]), int(rows[-1]) + 1)
    return rows


def _first(hit, rows, active):
    """(unit, fiber) of the first hit among the active fibers (``hit``: rows x fibers)."""
    k, f = np.argwhere(hit & active[None, :])[0]
    return int(rows[k]), int(f)


def _some(index):
    return isinstance(index, slice) or index.size > 0


def _put(array, rows, value, active):
    """array[rows] = value where active (rows: a slice or an index array)."""
    if isinstance(rows, slice):
        np.copyto(array[rows], value, where=active)
    else:
        array[rows] = np.where(active, value, array[rows])


class Hazards:
    """State per (register unit, fiber); ``before``/``after`` take the active fibers' mask."""

    def __init__(self, fibers, ops, wave):
        self.ops, self.wave = ops, wave
        self.pend = np.zeros((NUNITS, fibers), np.int8)        # SS / SY the last producer needs
        self.pend_pc = np.zeros((NUNITS, fibers), np.int32)
        self.war = np.zeros((NUNITS, fibers), np.int8)         # which sync lets a write through
        self.war_pc = np.zeros((NUNITS, fibers), np.int32)
        self.pending = self.reading = False                    # anything in pend / war at all
        self._cache = {}

    def _arrays(self, op):
        got = self._cache.get(op.pc)
        if got is None:
            got = self._cache[op.pc] = (_rows(op.reads), _rows(op.writes), _index(_rows(op.produce_rows)),
                                        _index(_rows(op.war_rows)))
        return got

    def _producer(self, pc):
        return f"`{self.ops[pc].text}` at PC 0x{pc:x}"

    def where(self, f):
        return f"fiber {f}, wave {f // self.wave}"

    def before(self, op, active):
        """Apply op's (ss)/(sy), then check its reads and writes (``active``: bool per fiber)."""
        pend, war = self.pend, self.war
        if op.ss or op.sy:
            for flag, sync, war_sync in ((op.ss, SS, WAR_SS), (op.sy, SY, WAR_SY)):
                if flag and self.pending:
                    pend[(pend == sync) & active] = 0
                if flag and self.reading:
                    war[((war & war_sync) != 0) & active] = 0
            self.pending, self.reading = bool(pend.any()), bool(war.any())
        reads, writes = self._arrays(op)[:2]
        if reads.size and self.pending:
            hit = pend[reads]
            if (hit[:, active] != 0).any():
                u, f = _first(hit != 0, reads, active)
                raise HazardError(op.pc, op.text, f"reads {unit_name(u, set(reads.tolist()))} before "
                                  f"{_SYNC[int(pend[u, f])]}: {self._producer(int(self.pend_pc[u, f]))} "
                                  f"writes it ({self.where(f)})")
        if writes.size and self.pending:
            hit = pend[writes]
            if (hit[:, active] != 0).any():
                u, f = _first(hit != 0, writes, active)
                raise HazardError(op.pc, op.text, f"overwrites {unit_name(u, set(writes.tolist()))} before "
                                  f"{_SYNC[int(pend[u, f])]}: {self._producer(int(self.pend_pc[u, f]))} "
                                  f"still writes it ({self.where(f)})")
        if writes.size and self.reading:
            hit = war[writes]
            if (hit[:, active] != 0).any():
                u, f = _first(hit != 0, writes, active)
                raise HazardError(op.pc, op.text, f"overwrites {unit_name(u, set(writes.tolist()))} before "
                                  f"{_WAR[int(war[u, f])]}: {self._producer(int(self.war_pc[u, f]))} "
                                  f"may still be reading it ({self.where(f)})")

    def after(self, op, active):
        rows, war_rows = self._arrays(op)[2:]
        if op.produces and _some(rows):
            _put(self.pend, rows, op.produces, active)
            _put(self.pend_pc, rows, op.pc, active)
            self.pending = True
        if op.war and _some(war_rows):
            old = self.war[war_rows]
            both = old & op.war
            _put(self.war, war_rows, np.where(old == 0, op.war, np.where(both != 0, both, old)), active)
            _put(self.war_pc, war_rows, op.pc, active)
            self.reading = True


class Latency:
    """ALU results are not interlocked: an instruction that reads one too soon reads the old value
    on hardware. The delays are mesa's (ir3_legalize.c, delay_slots of a6xx): an ALU (cat1-3)
    result may be read by an ALU instruction of the same register size 3 cycles after the
    producer issued, by anything else (a half read of a full result, cat4-7, a branch on p0, an
    a0 user) 6 cycles after; a result written to p0 or a0 needs 6 for everyone. The third source
    of a cat3 is read 2 cycles late, and each (rptN) repetition one cycle later. Cycles: every
    ALU and flow instruction but jump and branches takes one, plus its (rptN) and (nopN) count.
    Results of the SFU and memory instructions are (ss)/(sy)'s business, shared registers too.
    Like the scoreboard, the state follows each fiber's path (cycles included)."""
    def __init__(self, fibers, ops, wave):
        self.ops, self.wave = ops, wave
        self.cycle = np.zeros(fibers, np.int64)
        self.written = np.full((NUNITS, fibers), -NON_ALU, np.int64)  # cycle an ALU op wrote it
        self.half = np.zeros((NUNITS, fibers), bool)      # ... as a half register
        self.pc = np.zeros((NUNITS, fibers), np.int32)
        self._cache = {}

    def _arrays(self, op):
        got = self._cache.get(op.pc)
        if got is None:
            def split(timing):
                keep = [t for t in timing if not 2 * SHARED_FIRST <= t[0] < 2 * SHARED_END]
                return (np.array([t[0] for t in keep], np.int64), np.array([t[1] for t in keep], np.int64)[:, None],
                        np.array([t[2] for t in keep], bool)[:, None])
            checked = op.name not in ("end", "chmask")
            units, offs, halves = split(op.timing if checked else ())
            # an ALU reader may read an ALU result of its own size sooner (p0 and a0 excepted)
            fast = np.where(units < 2 * A0, ALU_TO_ALU, NON_ALU)[:, None] if op.alu else None
            dst, dst_offs, dst_halves = split(op.dst_timing)
            index = _index(dst) if dst.size and (np.diff(dst) > 0).all() else dst
            got = self._cache[op.pc] = (units, offs, halves, fast, index, dst_offs, dst_halves, dst.size > 0)
        return got

    def before(self, op, active):
        units, offs, halves, fast = self._arrays(op)[:4]
        if not units.size:
            return
        delay = np.where(self.half[units] == halves, fast, NON_ALU) if op.alu else NON_ALU
        short = self.written[units] + delay - (self.cycle[None, :] + offs)
        if (short[:, active] > 0).any():
            k, f = np.argwhere((short > 0) & active[None, :])[0]
            u = int(units[k])
            producer = self.ops[int(self.pc[u, f])]
            wait = delay if isinstance(delay, int) else int(delay[k, f])
            raise HazardError(op.pc, op.text, f"reads {unit_name(u, set(units.tolist()))} {int(short[k, f])} "
                              f"cycle(s) too early: `{producer.text}` at PC 0x{producer.pc:x} is an ALU result "
                              f"this instruction may read {wait} cycles after it issues (add nops: (nopN) or "
                              f"(rptN)nop) (fiber {f}, wave {f // self.wave})")

    def after(self, op, active):
        if op.cycles:
            self.cycle[active] += 1
        index, offs, halves, some = self._arrays(op)[4:]
        if some:
            if op.alu:
                _put(self.written, index, self.cycle[None, :] + offs, active)
                _put(self.half, index, halves, active)
                _put(self.pc, index, op.pc, active)
            else:                   # synchronised by (ss)/(sy) instead
                _put(self.written, index, -NON_ALU, active)
        if op.cycles:
            self.cycle[active] += op.repeat + op.nops
