"""Scoreboards: the control bits checked the way the hardware would punish them.

A variable-latency instruction (memory, MUFU, conversions, S2R, SHFL, FP64...) writes its
destination registers some time after it issues; ptxas gives it a write scoreboard (SB0..SB5) and
makes the first reader wait for it (the wait mask of the reader's control bits).  A store or another
instruction that reads its sources late gets a read scoreboard, and whatever overwrites those sources
waits for it.  Here each such instruction leaves its registers pending, per warp, until a wait mask
names its scoreboard; reading a register whose write is pending (RAW), writing one (WAW), or writing a
register a pending read still needs (WAR) raises HazardError naming the PC, the register and the
instruction it waited for, because on a real GPU that instruction would see (or leave) the wrong value.

Results of one queue come back in order (shared/local memory, global memory, constants, the
transcendental unit, FP64), so waiting for one instruction's scoreboard also completes the earlier ones
of its queue; that is how ptxas gets away with leaving some loads without a scoreboard.
"""
import numpy as np

from drivers.emu.nv.faults import ESR_SCOREBOARD_HAZARD, SmException

FILES = ("R", "UR", "P")


class HazardError(SmException):
    """A register read or written before the scoreboard protecting it was waited for (kind
    'scoreboard'), or before the stall counts covered its producer's fixed latency (kind 'stall',
    stalls.py)."""

    def __init__(self, pc, text, reason, kind="scoreboard"):
        super().__init__(ESR_SCOREBOARD_HAZARD, pc, f"{kind} hazard ({text}): {reason}")


class Scoreboards:
    def __init__(self, nw, nregs):
        self.nw = nw
        self.size = {"R": nregs, "UR": 64, "P": 8}
        # per file: [warps, regs] seq of the pending write (0 none), its scoreboard, its queue, issuing PC
        self.w_seq = {f: np.zeros((nw, n), np.int64) for f, n in self.size.items()}
        self.w_sb = {f: np.full((nw, n), -1, np.int8) for f, n in self.size.items()}
        self.w_q = {f: np.zeros((nw, n), np.int8) for f, n in self.size.items()}
        self.w_pc = {f: np.zeros((nw, n), np.int64) for f, n in self.size.items()}
        self.r_seq = {f: np.zeros((nw, n), np.int64) for f, n in self.size.items()}
        self.r_sb = {f: np.full((nw, n), -1, np.int8) for f, n in self.size.items()}
        self.r_q = {f: np.zeros((nw, n), np.int8) for f, n in self.size.items()}
        self.seq = np.zeros(nw, np.int64)
        self.queue_ids = {}

    def _qid(self, queue):
        return self.queue_ids.setdefault(queue, len(self.queue_ids) + 1)

    def wait(self, G, mask):
        """The wait mask of an issuing instruction: complete what those scoreboards protect, and what came
        before it in the same queues."""
        for seqs, sbs, qs in ((self.w_seq, self.w_sb, self.w_q), (self.r_seq, self.r_sb, self.r_q)):
            upto = {}                        # queue -> newest completed seq per warp
            for sb in range(6):
                if not mask >> sb & 1:
                    continue
                for f in FILES:
                    seq, q = seqs[f][G], qs[f][G]
                    hit = (sbs[f][G] == sb) & (seq > 0)
                    if not hit.any():
                        continue
                    for qid in np.unique(q[hit]):
                        t = np.where(hit & (q == qid), seq, 0).max(axis=1)
                        upto[qid] = np.maximum(upto.get(qid, 0), t)
            for qid, t in upto.items():
                for f in FILES:
                    seq, q = seqs[f][G], qs[f][G]
                    seqs[f][G] = np.where((q == qid) & (seq <= t[:, None]), 0, seq)

    def check(self, G, warps, reads, writes, ins):
        """RAW/WAW/WAR checks for an instruction about to execute on `warps` (bool [len(G)])."""
        for f, n in reads:
            pend = self.w_seq[f][G][:, n] > 0
            if (pend & warps).any():
                self._raise(G, warps & pend, f, n, ins, "read")
        for f, n in writes:
            pend = self.w_seq[f][G][:, n] > 0
            if (pend & warps).any():
                self._raise(G, warps & pend, f, n, ins, "overwritten (WAW)")
            pend = self.r_seq[f][G][:, n] > 0
            if (pend & warps).any():
                self._raise(G, warps & pend, f, n, ins, "overwritten while a pending read needs it (WAR)",
                            read=True)

    def _raise(self, G, bad, f, n, ins, how, read=False):
        w = int(np.flatnonzero(bad)[0])
        sb = int((self.r_sb if read else self.w_sb)[f][G][w, n])
        src_pc = int(self.w_pc[f][G][w, n]) if not read else None
        name = {"R": f"R{n}", "UR": f"UR{n}", "P": f"P{n}"}[f]
        if read:
            why = f"{name} is {how}: the instruction reading it asynchronously has read scoreboard SB{sb} " \
                  "and nothing waited for it"
        elif sb >= 0:
            why = f"{name} is {how} before SB{sb} was waited for (its producer at PC 0x{src_pc:x} has not completed)"
        else:
            why = f"{name} is {how} while the variable-latency instruction at PC 0x{src_pc:x} that writes it has " \
                  "no scoreboard to wait for"
        raise HazardError(ins.pc, str(ins), why)

    def issue(self, G, warps, queue, write_sb, writes, read_sb, reads, pc):
        """A variable-latency instruction issued on `warps`: leave its registers pending."""
        qid = self._qid(queue)
        w = warps
        seq = self.seq[G] + w
        self.seq[G] = seq
        for f, n in writes:
            self.w_seq[f][G, n] = np.where(w, seq, self.w_seq[f][G, n])
            self.w_sb[f][G, n] = np.where(w, write_sb, self.w_sb[f][G, n])
            self.w_q[f][G, n] = np.where(w, qid, self.w_q[f][G, n])
            self.w_pc[f][G, n] = np.where(w, pc, self.w_pc[f][G, n])
        if read_sb is not None:
            for f, n in reads:
                self.r_seq[f][G, n] = np.where(w, seq, self.r_seq[f][G, n])
                self.r_sb[f][G, n] = np.where(w, read_sb, self.r_sb[f][G, n])
                self.r_q[f][G, n] = np.where(w, qid, self.r_q[f][G, n])
