"""The (ss)/(sy) scoreboard: a program that reads a result before the sync it needs fails here.

ir3 leaves synchronisation to the program (mesa's ir3_legalize.c places the flags):

- (ss) waits for the SFU (cat4), local-memory loads and atomics, resinfo, and writes to shared
  registers;
- (sy) waits for global, private and IBO loads, UBO loads (ldc) and global/IBO atomics;
- an instruction that overwrites a register an SFU op or a store may still be reading needs
  (ss) (write after read); one that overwrites a source of a pending (sy) load needs (ss) or
  (sy).

The tracker keeps, per wave and 16-bit register unit (two per full register, one per half
register, as mesa's regmask does with merged registers), which sync the last producer needs and
where it was, and checks every instruction's reads and writes before it executes. Relative
(a0.x) accesses are not tracked, and a branch does not reset anything: the state flows along
the path the wave actually took, which is what the hardware scoreboard sees.
"""
import numpy as np

from drivers.emu.faults import HazardError

from .op import SS, SY, WAR_SS, WAR_SY
from .state import NUNITS, unit_name

_SYNC = {SS: "(ss)", SY: "(sy)"}
_WAR = {WAR_SS: "(ss)", WAR_SY: "(sy)", 3: "(ss) or (sy)"}


class Hazards:
    def __init__(self, waves, ops):
        self.ops = ops
        self.pend = np.zeros((waves, NUNITS), np.int8)        # SS / SY the last producer needs
        self.pend_pc = np.zeros((waves, NUNITS), np.int32)
        self.war = np.zeros((waves, NUNITS), np.int8)         # which sync lets a write through
        self.war_pc = np.zeros((waves, NUNITS), np.int32)

    def _producer(self, pc):
        return f"`{self.ops[pc].text}` at PC 0x{pc:x}"

    def before(self, op, waves):
        """Apply op's (ss)/(sy), then check its reads and writes (``waves``: indices)."""
        pend, war = self.pend, self.war
        if op.ss:
            p = pend[waves]
            p[p == SS] = 0
            pend[waves] = p
            w = war[waves]
            w[(w & WAR_SS) != 0] = 0
            war[waves] = w
        if op.sy:
            p = pend[waves]
            p[p == SY] = 0
            pend[waves] = p
            w = war[waves]
            w[(w & WAR_SY) != 0] = 0
            war[waves] = w
        reads = [r for r in op.reads if r is not None]
        if reads:
            hit = pend[np.ix_(waves, reads)]
            if hit.any():
                wi, ri = np.argwhere(hit)[0]
                row, w = reads[ri], waves[wi]
                raise HazardError(op.pc, op.text, f"reads {unit_name(row, reads)} before {_SYNC[int(hit[wi, ri])]}: "
                                  f"{self._producer(int(self.pend_pc[w, row]))} writes it (wave {w})")
        writes = [r for r in op.writes if r is not None]
        if writes:
            hit = pend[np.ix_(waves, writes)]
            if hit.any():
                wi, ri = np.argwhere(hit)[0]
                row, w = writes[ri], waves[wi]
                raise HazardError(op.pc, op.text, f"overwrites {unit_name(row, writes)} before "
                                  f"{_SYNC[int(hit[wi, ri])]}: {self._producer(int(self.pend_pc[w, row]))} "
                                  f"still writes it (wave {w})")
            hit = war[np.ix_(waves, writes)]
            if hit.any():
                wi, ri = np.argwhere(hit)[0]
                row, w = writes[ri], waves[wi]
                raise HazardError(op.pc, op.text, f"overwrites {unit_name(row, writes)} before "
                                  f"{_WAR[int(hit[wi, ri])]}: {self._producer(int(self.war_pc[w, row]))} "
                                  f"may still be reading it (wave {w})")

    def after(self, op, waves):
        if op.produces:
            rows = [r for r in op.produce_rows if r is not None]
            if rows:
                idx = np.ix_(waves, rows)
                self.pend[idx] = op.produces
                self.pend_pc[idx] = op.pc
        if op.war:
            rows = [r for r in op.war_rows if r is not None]
            if rows:
                idx = np.ix_(waves, rows)
                old = self.war[idx]
                both = old & op.war
                self.war[idx] = np.where(old == 0, op.war, np.where(both != 0, both, old))
                self.war_pc[idx] = op.pc
