"""The memory counters of a wave: a load's destination is usable only after an s_waitcnt retires it.

The simulator performs a memory operation at once, so a kernel that reads a load's result
without waiting for it would pass by luck.  Real hardware returns the data later: each wave
counts its operations in flight (VM_CNT for vector memory loads and atomics that return,
VS_CNT for stores and atomics that do not, LGKM_CNT for LDS, scalar memory and messages), and
``s_waitcnt`` stalls the wave until a counter is at most the value it names.  Here each wave
keeps the operations it has in flight, in issue order, and every instruction is checked
against them: reading or overwriting a register an unretired operation still writes is a
``MissingWait`` fault naming the instruction, the register and the operation not waited for.

What a counter value guarantees:

* VM_CNT: vector memory loads (GLOBAL, SCRATCH, FLAT, MUBUF, and atomics with a return value)
  return in the order they were issued, so ``vmcnt(N)`` retires all but the N youngest;
* LGKM_CNT: LDS operations complete in order among themselves, scalar memory loads and messages
  in any order, so ``lgkmcnt(N)`` retires an LDS operation with at least N younger LDS
  operations behind it, and a scalar load (or an ``s_sendmsg_rtn``) only at ``lgkmcnt(0)``;
* a FLAT access may reach LDS or memory: it counts on both counters, returns in order with the
  other vector memory loads, and is retired by either counter's wait (``lgkmcnt(0)`` or the
  ``vmcnt`` that covers it);
* a counter saturates at 63 operations (the wave stalls at issue until the oldest completes).

A later load of the same in-order kind may overwrite a register an earlier one still writes
(it lands last); a scalar load may not (scalar loads return in any order).  Stores read their
data and address registers when they issue, and one wave's loads and stores to the same
address are kept in order by the memory pipeline, so VS_CNT (``s_waitcnt_vscnt``) guards
nothing a single wave can get wrong: stores are not tracked, and a wave may end with stores in
flight (the hardware drains them).  Exports and GDS, which EXP_CNT covers, are not simulated.

The bookkeeping costs nothing per lane: which operations are in flight depends only on the path
a wave took, so a wave's state is an interned ``WaitState`` (the PCs of its operations in
flight), and the effect of an instruction or a whole compiled block on a state is computed once
and remembered on the state (``steps``/``blocks``, keyed by PC).
"""
import numpy as np

from drivers.emu.faults import MissingWait

from .state import EXEC_HI, EXEC_LO, NULL, VCC_HI, VCC_LO

MAX_COUNT = 63                     # VM_CNT and LGKM_CNT are 6-bit counters on gfx11
VM, LDS, SCALAR, FLAT, MESSAGE = "vm", "lds", "scalar", "flat", "message"
# what each kind counts on: (on VM_CNT, on LGKM_CNT)
COUNTERS = {VM: (True, False), LDS: (False, True), SCALAR: (False, True), FLAT: (True, True),
            MESSAGE: (False, True)}
IN_ORDER = frozenset((VM, LDS))    # kinds whose later loads may overwrite an earlier one's registers
DEST_ROLES = frozenset(("vdst", "sdst", "sdata"))
SOPK_SDST_READ = ("s_waitcnt", "s_cmpk", "s_setreg")
VECTOR_FAMILIES = frozenset(("VOP1", "VOP2", "VOP3", "VOP3SD", "VOP3P", "VOPC", "VOPD", "DS", "GLOBAL",
                             "FLAT", "SCRATCH", "MUBUF", "MTBUF"))
WHAT = {VM: "vector memory load", LDS: "LDS operation", SCALAR: "scalar memory load", FLAT: "flat load",
        MESSAGE: "message"}


class Effect:
    """What one instruction means to the counters: the registers it reads and writes, the
    operation it puts in flight (its kind and the registers it will write), the counter values it
    waits for, and whether it ends the wave."""
    __slots__ = ("pc", "text", "vread", "sread", "vwrite", "swrite", "kind", "vdest", "sdest", "vm", "lgkm", "ends")

    def __init__(self, pc, text):
        self.pc, self.text = pc, text
        self.vread, self.sread, self.vwrite, self.swrite = set(), set(), set(), set()
        self.kind = None
        self.vdest = self.sdest = frozenset()
        self.vm = self.lgkm = None
        self.ends = False

    @property
    def touches(self):
        return bool(self.vread or self.sread or self.vwrite or self.swrite)


def _add(regs, o, count=None):
    n = o.nregs if count is None else count
    if o.kind == "vgpr":
        regs[0].update(range(o.value, o.value + n))
    elif o.kind in ("sgpr", "fixed") and o.value != NULL:
        regs[1].update(range(o.value, o.value + n))


def effect_of(ins, pc, ends=False):
    """The Effect of decoded instruction ``ins`` at ``pc``."""
    e = Effect(pc, ins.text)
    e.ends = ends
    m, fam = ins.mnemonic, ins.family
    reads, writes = (e.vread, e.sread), (e.vwrite, e.swrite)
    halves = [ins] if ins.second is None else [ins, ins.second]
    for half in halves:
        seen_source = False
        for o in half.operands:
            role = o.role
            if role.startswith(("src", "vsrc", "ssrc")):
                seen_source = True
            if role == "vdata" and fam in ("MUBUF", "MTBUF"):
                if not m.startswith(("buffer_load", "tbuffer_load")):
                    _add(reads, o)               # a store's data, an atomic's operands
                continue                         # what a load or atomic returns: _memory()
            if role in DEST_ROLES and not (fam == "SOPK" and m.startswith(SOPK_SDST_READ)) \
                    or role == "implicit" and not seen_source:
                _add(writes, o)
            elif role != "vdata":
                _add(reads, o)
    if fam in VECTOR_FAMILIES:
        e.sread.update((EXEC_LO, EXEC_HI))       # every vector instruction reads EXEC
    if "exec" in m and fam in ("SOP1", "SOPP"):    # saveexec/wrexec forms, s_cbranch_exec[n]z
        e.sread.update((EXEC_LO, EXEC_HI))
        if fam == "SOP1":
            e.swrite.update((EXEC_LO, EXEC_HI))
    if m.startswith("s_cbranch_vcc"):
        e.sread.update((VCC_LO, VCC_HI))
    _memory(e, ins)
    _wait(e, ins)
    return e


def _memory(e, ins):
    """The kind of operation ``ins`` puts in flight and the registers it will write."""
    m, fam, mods = ins.mnemonic, ins.family, ins.modifiers
    if fam in ("GLOBAL", "SCRATCH", "FLAT"):
        if e.vwrite:                              # loads, and atomics that return (glc)
            e.kind = FLAT if fam == "FLAT" else VM
            e.vdest, e.vwrite = frozenset(e.vwrite), set(e.vwrite)
    elif fam in ("MUBUF", "MTBUF"):
        data = next((o for o in ins.operands if o.role == "vdata"), None)
        if m.startswith(("buffer_load", "tbuffer_load")) and data is not None:
            n = data.nregs + (1 if mods.get("tfe") else 0)
            e.kind, e.vdest = VM, frozenset(range(data.value, data.value + n))
        elif m.startswith("buffer_atomic") and mods.get("glc") and data is not None:
            n = data.nregs // 2 if "cmpswap" in m else data.nregs
            e.kind, e.vdest = VM, frozenset(range(data.value, data.value + n))
        elif m.startswith("buffer_gl"):
            e.kind = VM                           # cache invalidates: counted, nothing returned
        e.vwrite = set(e.vdest)
    elif fam == "SMEM":
        e.kind, e.sdest = SCALAR, frozenset(e.swrite)
    elif fam == "DS":
        e.kind, e.vdest = LDS, frozenset(e.vwrite)
    elif m.startswith("s_sendmsg_rtn"):
        e.kind, e.sdest = MESSAGE, frozenset(e.swrite)
    elif m.startswith("s_sendmsg"):
        e.kind = MESSAGE


def _wait(e, ins):
    m = ins.mnemonic
    if m == "s_waitcnt":
        imm = ins.operands[0].value
        e.vm, e.lgkm = imm >> 10 & 63, imm >> 4 & 63
    elif m in ("s_waitcnt_vmcnt", "s_waitcnt_lgkmcnt"):
        reg, imm = ins.operands
        # the count is the immediate when the register is null (the only form llvm-mc takes);
        # another SGPR is taken as waiting for everything (never stricter than the hardware)
        n = imm.value & 0xFFFF if reg.kind == "sgpr" and reg.value == NULL else 0
        if m == "s_waitcnt_vmcnt":
            e.vm = n
        else:
            e.lgkm = n


class WaitState:
    """The operations a wave has in flight (their PCs, oldest first), interned per program;
    ``steps``/``blocks`` remember the state after the instruction / compiled block at a PC."""
    __slots__ = ("ops", "steps", "blocks")

    def __init__(self, ops):
        self.ops = ops
        self.steps = {}
        self.blocks = {}

    def __repr__(self):
        return "WaitState(%s)" % ", ".join("0x%x" % pc for pc in self.ops)


class WaitModel:
    """The counters of one program's waves: instruction effects per PC and interned states."""

    def __init__(self, program):
        self.program = program
        self.effects = {}
        self._states = {}
        self.empty = self.state(())

    def state(self, ops):
        s = self._states.get(ops)
        if s is None:
            s = self._states[ops] = WaitState(ops)
        return s

    def effect(self, pc):
        e = self.effects.get(pc)
        if e is None:
            step = self.program.step(pc)
            e = self.effects[pc] = effect_of(step.ins, pc, step.ends)
        return e

    def after_step(self, ws, pc):
        """The state after the instruction at ``pc`` (remembered); MissingWait when it touches a
        register an operation in flight still writes."""
        nxt = self.state(self._apply(ws.ops, self.effect(pc)))
        ws.steps[pc] = nxt
        return nxt

    def after_block(self, ws, block):
        """The state after compiled ``block`` (remembered), or None when one of its instructions
        misses a wait (the executor then takes the one-instruction path, which raises it at that
        instruction with the ones before it executed)."""
        ops = ws.ops
        try:
            for pc in block.pcs:
                ops = self._apply(ops, self.effect(pc))
        except MissingWait:
            return None
        nxt = self.state(ops)
        ws.blocks[block.pc] = nxt
        return nxt

    def _apply(self, ops, e):
        if e.vm is not None or e.lgkm is not None:
            ops = self._retire(ops, e.vm, e.lgkm)
        if ops and e.touches:
            self._check(ops, e)
        if e.ends:
            return ()
        if e.kind is not None and (e.kind not in (SCALAR, MESSAGE) or e.sdest):
            # (scalar operations that return nothing cannot be waited for wrongly: not kept)
            ops = self._saturate(ops + (e.pc,))
        return ops

    def _saturate(self, ops):
        """A wave stalls at issue while a counter is at its maximum: past MAX_COUNT operations on
        a counter, the oldest one has completed (exactly so for the in-order kinds)."""
        for c in (0, 1):
            while sum(COUNTERS[self.effects[pc].kind][c] for pc in ops) > MAX_COUNT:
                oldest = next(i for i, pc in enumerate(ops) if COUNTERS[self.effects[pc].kind][c])
                ops = ops[:oldest] + ops[oldest + 1:]
        return ops

    def _retire(self, ops, vm, lgkm):
        """``ops`` without what ``vmcnt(vm)`` / ``lgkmcnt(lgkm)`` (None: no wait) guarantee done."""
        keep = []
        vm_younger = lds_younger = 0              # younger operations counted so far, walking back
        for pc in reversed(ops):
            kind = self.effects[pc].kind
            on_vm, on_lgkm = COUNTERS[kind]
            done = False
            if vm is not None and on_vm and vm_younger >= vm:
                done = True
            if lgkm is not None and on_lgkm and (lgkm == 0 or kind == LDS and lds_younger >= lgkm):
                done = True
            if not done:
                keep.append(pc)
            if on_vm:
                vm_younger += 1
            if kind == LDS:
                lds_younger += 1
        keep.reverse()
        return tuple(keep) if len(keep) != len(ops) else ops

    def _check(self, ops, e):
        for i, pc in enumerate(ops):
            p = self.effects[pc]
            for regs, dest, prefix in ((e.vread, p.vdest, "v"), (e.sread, p.sdest, "s")):
                hit = regs & dest
                if hit:
                    self._raise(ops, i, e, p, f"reads {prefix}{min(hit)}")
            for regs, dest, prefix in ((e.vwrite, p.vdest, "v"), (e.swrite, p.sdest, "s")):
                hit = regs & dest
                if hit and not (e.kind == p.kind and p.kind in IN_ORDER):
                    self._raise(ops, i, e, p, f"overwrites {prefix}{min(hit)}")

    def _raise(self, ops, i, e, p, what):
        younger = ops[i + 1:]
        vm_younger = sum(COUNTERS[self.effects[pc].kind][0] for pc in younger)
        lds_younger = sum(self.effects[pc].kind == LDS for pc in younger)
        if p.kind == VM:
            need = f"s_waitcnt vmcnt({vm_younger})"
        elif p.kind == LDS:
            need = f"s_waitcnt lgkmcnt({lds_younger})"
        elif p.kind == FLAT:
            need = f"s_waitcnt vmcnt({vm_younger}) or lgkmcnt(0)"
        else:
            need = "s_waitcnt lgkmcnt(0)"
        raise MissingWait(e.pc, f"{e.text}: {what} before the {WHAT[p.kind]} '{p.text}' at PC 0x{p.pc:x} "
                                f"has written it (missing {need})")


class WaveStates:
    """The WaitState of every wave of a batch: one shared ``common`` state while every wave has
    the same one (the usual case: no list work per group), else one entry per wave."""
    __slots__ = ("common", "states", "W")

    def __init__(self, model, W):
        self.common, self.states, self.W = model.empty, None, W

    def enter(self, sel, n):
        """(state, sel, n, same) of a group about to run: its waves' state, and the waves that
        share it (``same`` False: only part of the group does, and the group is cut down to it;
        the rest run as a group of their own)."""
        if self.common is not None:
            return self.common, sel, n, True
        states = self.states
        part = states[sel] if type(sel) is slice else [states[i] for i in sel.tolist()]
        first = part[0]
        if part.count(first) == n:
            return first, sel, n, True
        rows = np.arange(self.W)[sel] if type(sel) is slice else sel
        rows = rows[[s is first for s in part]]
        return first, rows, len(rows), False

    def leave(self, sel, n, ws):
        """The group ``sel`` ends with state ``ws``."""
        if n == self.W:
            self.common, self.states = ws, None
            return
        if self.common is not None:
            self.states, self.common = [self.common] * self.W, None
        if type(sel) is slice:
            self.states[sel] = [ws] * n
        else:
            states = self.states
            for i in sel.tolist():
                states[i] = ws
