"""Decode once, execute many times: a code object's instructions as closures keyed by PC.

``Program.step(pc)`` decodes the instruction at ``pc`` on first use (through the GPU VM, so a
PC outside executable memory is a fault) and caches a Step: the closure, the next PC and what
the executor must do after it (regroup waves after a branch, retire waves after s_endpgm).
DEBUG=5 prints each instruction as it is decoded (DEBUG=3 is the driver's disassembly of each kernel).
A Program is reused by later dispatches of the same code VA, in any GPU VM, after checking that
the bytes it decoded are still the ones in memory there.
"""
from dataclasses import dataclass

import numpy as np

from drivers.emu.faults import NO_EXECUTE, NOT_PRESENT, IllegalInstruction, MemoryFault
from drivers.emu.amd.gpu import log
from drivers.errors import AssemblerError

from .waits import WaitModel


MAX_INSTRUCTION_BYTES = 16
VALU_FAMILIES = ("VOP1", "VOP2", "VOP3", "VOP3SD", "VOP3P", "VOPC")
MEMORY_FAMILIES = ("GLOBAL", "FLAT", "SCRATCH")


@dataclass(slots=True)
class Step:
    fn: object            # fn(st, sel) or None for instructions with no effect
    next_pc: int
    size: int
    sets_pc: bool         # the closure moved the PC: regroup waves afterwards
    ends: bool            # s_endpgm
    vector: bool          # counts lane operations
    raw: bytes
    text: str
    ins: object = None    # the decoded instruction (the block compiler reads its operands)
    body: object = None   # fn before the per-MODE wrapper (blocks run with one MODE throughout)


class Program:
    def __init__(self, vm, vgprs, env):
        self.vm, self.vgprs, self.env = vm, vgprs, env
        self.steps = {}
        self.blocks = {}
        self.rides = {}                       # (PC, branch target) -> ride()
        self.parks = {}                       # PC -> the next PC if the instruction there parks
                                              # its waves (s_barrier), else 0
        self.waits = WaitModel(self)          # the memory counters of its waves (waits.py)
        self._span_of, self._span_cache = 0, None

    def block(self, pc):
        """The compiled straight-line block starting at ``pc`` (see block.py)."""
        b = self.blocks.get(pc)
        if b is None:
            from .block import compile_block
            b = self.blocks[pc] = compile_block(self, pc)
        return b

    def ride(self, pc, target):
        """Whether the waves of a divergent conditional branch that jump to ``target`` with EXEC
        zero may run the compiled block at ``pc`` (the fall-through, where the other waves go)
        along with them, as their own path: every instruction of the block before ``target``
        leaves them as they were (EXEC-masked), the block ends with ``s_branch target`` or holds
        ``target``, after which nothing accesses memory, and nothing in it reads or changes what
        the group's waves do not share (MODE, the counters): see _rides.  Returns (instructions,
        vector instructions) of the block those waves do not execute, or None."""
        key = (pc, target)
        r = self.rides.get(key, False)
        if r is False:
            r = self.rides[key] = self._ride(pc, target)
        return r

    def _ride(self, pc, target):
        from .control import _simm16
        b = self.block(pc)
        if target in b.pcs:
            skipped = b.pcs.index(target)
        elif b.sets_pc and self.step(b.pcs[-1]).ins.mnemonic == "s_branch" and \
                b.next_pc + 4 * _simm16(self.step(b.pcs[-1]).ins) == target:
            skipped = b.count
        else:
            return None
        for i, at in enumerate(b.pcs):
            ins = self.step(at).ins
            if ins is None or not _rides(ins, at, masked=i < skipped):
                return None
        return skipped, b.vector_upto[skipped - 1] if skipped else 0

    def step(self, pc):
        s = self.steps.get(pc)
        if s is None:
            s = self.steps[pc] = self._build(pc)
        return s

    def parks_at(self, pc):
        """The PC waves parked by the instruction at ``pc`` (s_barrier) go on from, 0 when it
        does not park them; remembered in ``parks``."""
        step = self.step(pc)
        p = self.parks[pc] = step.next_pc if getattr(step.fn, "parks", False) else 0
        return p

    def matches(self, vm):
        """True when every decoded instruction's bytes are the ones ``vm`` holds at its PC (the
        same code object may be reloaded in another VM, or other code put at the same VA).
        On success the program fetches from ``vm`` from now on."""
        span = self._span()
        if span is not None:           # one comparison of everything decoded, in one mapping
            lo, hi, raw = span
            r = vm.lookup(lo)
            if r is not None and r.executable and hi <= r.end and r.mem[lo - r.start:hi - r.start].tobytes() == raw:
                self.vm = vm
                return True
        for pc, s in self.steps.items():
            r = vm.lookup(pc)
            if r is None or not r.executable or pc + s.size > r.end \
                    or r.mem[pc - r.start:pc - r.start + s.size].tobytes() != s.raw:
                return False
        self.vm = vm
        return True

    def _span(self):
        """(lo, hi, bytes) of the code from the first to the end of the last decoded instruction
        as it was when decoded, or None when the decoded instructions are not in one mapping."""
        if self._span_of != len(self.steps):
            self._span_of, self._span_cache = len(self.steps), None
            lo = min(self.steps)
            hi = max(pc + s.size for pc, s in self.steps.items())
            r = self.vm.lookup(lo) if self.vm is not None else None
            if r is not None and hi <= r.end:
                raw = r.mem[lo - r.start:hi - r.start].tobytes()
                if all(raw[pc - lo:pc - lo + s.size] == s.raw for pc, s in self.steps.items()):
                    self._span_cache = (lo, hi, raw)
        return self._span_cache

    def _fetch(self, pc):
        if pc % 4:
            raise IllegalInstruction(pc, f"misaligned PC: 0x{pc:x} is not 4-byte aligned (a branch or "
                                         "s_setpc_b64 left the instruction stream)")
        r = self.vm.lookup(pc)
        if r is None:
            raise MemoryFault(pc, NOT_PRESENT, False, "instruction fetch")
        if not r.executable:
            raise MemoryFault(pc, NO_EXECUTE, False, "instruction fetch")
        return r.mem[pc - r.start:min(r.end, pc + MAX_INSTRUCTION_BYTES)].tobytes()

    def _build(self, pc):
        from assembler.rdna3.decoder import decode
        data = self._fetch(pc)
        try:
            ins, size = decode(data, 0)
        except AssemblerError as e:
            raise IllegalInstruction(pc, str(e).replace(" at offset 0", "")) from None
        try:
            fn = self._closure(ins, pc, size)
        except IllegalInstruction as e:
            if e.pc == pc:
                raise
            raise IllegalInstruction(pc, f"{ins.text}: {e.text}") from None
        except KeyError as e:
            raise IllegalInstruction(pc, f"{ins.text}: not supported by the simulator ({e})") from None
        log(5, f"  0x{pc:x}: {ins.text}")
        vector = ins.family in VALU_FAMILIES or ins.family in MEMORY_FAMILIES or ins.family in ("VOPD", "DS")
        body = fn
        if vector and fn is not None and ins.family not in MEMORY_FAMILIES and ins.family != "DS":
            fn = _per_mode(fn)
        return Step(fn, pc + size, size, bool(getattr(fn, "sets_pc", False)), bool(getattr(fn, "ends", False)),
                    vector, data[:size], ins.text, ins, body)

    def _closure(self, ins, pc, size):
        # the instruction families' builders, loaded with the first program decoded (a virtual
        # GPU that never runs a kernel, a probe's, does not load them)
        from .control import build_sopp
        from .lds import build_ds
        from .memory import build_flat
        from .scalar import build_sop1, build_sop2, build_sopc, build_sopk
        from .smem import build_smem
        from .vector import CORE_OPS, VectorOp, base_mnemonic, build_cross_lane, build_vopd
        fam = ins.family
        if fam == "SOP2":
            return build_sop2(ins, pc)
        if fam == "SOP1":
            return build_sop1(ins, pc, size)
        if fam == "SOPC":
            return build_sopc(ins, pc)
        if fam == "SOPK":
            return build_sopk(ins, pc, size)
        if fam == "SOPP":
            return build_sopp(ins, pc, size)
        if fam == "SMEM":
            return build_smem(ins, pc)
        if fam in MEMORY_FAMILIES:
            return build_flat(ins, pc, self.vgprs)
        if fam == "DS":
            return build_ds(ins, pc, self.vgprs)
        if fam == "VOPD":
            return build_vopd(ins, pc, self.vgprs, self.env.registry, self.env)
        if fam in VALU_FAMILIES:
            if base_mnemonic(ins.mnemonic) in CORE_OPS:
                return build_cross_lane(ins, pc, self.vgprs)
            return VectorOp(ins, pc, self.vgprs, self.env.registry, self.env)
        if fam in ("MUBUF", "MTBUF"):
            from .buffer import build_buffer
            return build_buffer(ins, pc, self.vgprs)
        if fam == "MIMG":
            raise IllegalInstruction(pc, f"{ins.text}: image instructions (MIMG) are not supported: the "
                                         "virtual GPU has no texture unit")
        raise IllegalInstruction(pc, f"{ins.text}: {fam} instructions are not supported by the simulator")


# what a block that waves with EXEC zero ride along may hold (Program.ride): before their target
# (masked), what leaves such a wave as it was: vector ops writing only VGPRs, vector memory and
# LDS accesses (no lane touches memory), waits; from it on, anything but memory accesses (whose
# order among the waves would change) and what waves do not share
_RIDE_MASKED_SOPP = frozenset(("s_delay_alu", "s_nop", "s_waitcnt", "s_branch"))
_RIDE_SOPP = frozenset(("s_delay_alu", "s_nop", "s_waitcnt", "s_branch", "s_cbranch_scc0", "s_cbranch_scc1",
                        "s_cbranch_vccz", "s_cbranch_vccnz", "s_cbranch_execz", "s_cbranch_execnz", "s_barrier",
                        "s_endpgm"))
_RIDE_SALU_NOT = ("s_getreg", "s_setreg", "s_sendmsg", "s_movrel", "s_setpc", "s_swappc", "s_call", "s_rfe",
                  "s_round_mode", "s_denorm_mode", "s_getpc", "s_trap", "s_sethalt")
_RIDE_VALU_NOT = ("v_readlane", "v_readfirstlane", "v_writelane", "v_movrel", "v_swaprel", "v_cmp")
_RIDE_DS_NOT = ("ds_append", "ds_consume", "ds_gws", "ds_ordered", "ds_sema")


def _rides(ins, pc, masked):
    """Whether ``ins`` may run in a block that waves with EXEC zero ride along (Program.ride);
    ``masked``: it comes before their target."""
    from .waits import effect_of
    m, fam = ins.mnemonic, ins.family
    if fam == "SOPP":
        return m in (_RIDE_MASKED_SOPP if masked else _RIDE_SOPP)
    if fam in VALU_FAMILIES or fam == "VOPD":
        if masked and (fam == "VOPC" or m.startswith(_RIDE_VALU_NOT) or effect_of(ins, pc).swrite):
            return False
        return not m.startswith(("v_readlane", "v_writelane", "v_movrel", "v_swaprel"))
    if fam in ("SOP1", "SOP2", "SOPC", "SOPK"):
        return not masked and not m.startswith(_RIDE_SALU_NOT)
    if fam in MEMORY_FAMILIES or fam == "DS":
        return masked and not m.startswith(_RIDE_DS_NOT)
    return False


def _per_mode(fn):
    """Run a VALU closure once per distinct MODE register value among the waves (s_setreg can
    give waves of one group different float modes)."""
    def run(st, sel):
        if st.mode_uniform:
            return fn(st, sel)
        rows = st.wave_ids[sel]
        modes = st.mode[rows]
        for v in np.unique(modes):
            fn(st, rows[modes == v])
    return run
