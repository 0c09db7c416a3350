"""Wait counts and hazards, after register allocation.

``s_waitcnt`` placement tracks the loads in flight, in issue order, per counter:

* vmcnt: GLOBAL and SCRATCH loads; they return in order, so reading a register the k-th most
  recent load writes needs ``vmcnt(k-1)`` -- earlier loads keep flying;
* lgkmcnt: LDS loads and stores (in order) and scalar loads (out of order: once one is in
  flight, only ``lgkmcnt(0)`` proves anything).

A wait is inserted only before an instruction that reads (or overwrites) a register a load in
flight will write, before ``s_barrier`` while LDS stores are in flight (other waves must see
them), and before a scratch reload of a slot whose store is still in flight (``vscnt``).  A wait
also covers what the next few instructions (up to ``AHEAD``, stopping at a memory instruction
or label) need, so one ``s_waitcnt`` replaces a ladder of them.  At a
loop head the state is the merge of the entry and the back edge (a register pending on either
path is pending), iterated until it settles.

Hazards gfx11 wave32 does not interlock (LLVM's and Mesa's hazard recognizers agree on them):

* VALUTransUseHazard: a VALU reading a VGPR written by a transcendental op with at most five
  VALU and at most one transcendental op in between -> ``s_waitcnt_depctr 0xfff`` (va_vdst=0);
* WMMA: a WMMA reading, as matrix A or B, the result of the previous WMMA -> ``v_nop``;
* VcmpxExecWARHazard: a non-VALU instruction reads EXEC, then a VALU writes it ->
  ``s_waitcnt_depctr 0xfffe``;
* VcmpxPermlaneHazard: a ``v_permlane*`` right after a ``v_cmpx`` (no VALU between) -> one
  VALU that changes nothing (``v_mov_b32`` of the permlane's source onto itself).

``s_delay_alu`` is a scheduling hint (the hardware interlocks ordinary VALU dependencies), so
none is emitted.
"""
from .mir import MI, regs_of

VM_MAX, LGKM_MAX = 63, 63


def _regs(op):
    """Physical register keys ('v', n) / ('s', n) an operand names."""
    r = regs_of(op)
    if r is None:
        return ()
    reg, off, size = r
    base = reg.phys + off
    return tuple((reg.cls, base + k) for k in range(size))


def _touched(mi):
    out = set()
    for op in mi.ops:
        out.update(_regs(op))
    return out


def _written(mi):
    out = set()
    for op in mi.ops[:mi.ndef]:
        out.update(_regs(op))
    return frozenset(out)


class _State:
    __slots__ = ("vm", "lgkm", "stores")

    def __init__(self, vm=(), lgkm=(), stores=frozenset()):
        self.vm, self.lgkm, self.stores = tuple(vm), tuple(lgkm), stores

    def key(self):
        return (self.vm, self.lgkm, self.stores)

    def merge(self, other):
        def join(a, b, pair):
            n = max(len(a), len(b))
            out = []
            for k in range(n, 0, -1):
                x = a[-k] if k <= len(a) else None
                y = b[-k] if k <= len(b) else None
                if x is None or y is None:
                    out.append(x or y)
                elif pair:
                    out.append((x[0] if x[0] == y[0] else "smem", x[1] | y[1]))
                else:
                    out.append(x | y)
            return tuple(out)
        return _State(join(self.vm, other.vm, False), join(self.lgkm, other.lgkm, True),
                      self.stores | other.stores)


def _needs(state, mi):
    """(vmcnt, lgkmcnt, vscnt) this instruction must wait for (None = no wait).  A load may
    overwrite a register an earlier load of its own in-order counter still writes (halves of
    one VGPR filled by two d16 loads): those return in order."""
    regs = _touched(mi)
    vm = lg = vs = None
    if regs:
        vm_regs = regs - _written(mi) if mi.kind == "vmem_load" else regs
        for k in range(len(state.vm) - 1, -1, -1):
            if state.vm[k] & vm_regs:
                vm = len(state.vm) - 1 - k
                break
        smem = any(kind == "smem" for kind, _ in state.lgkm)
        for k in range(len(state.lgkm) - 1, -1, -1):
            if state.lgkm[k][1] & regs:
                lg = 0 if smem else len(state.lgkm) - 1 - k
                break
    if mi.op == "s_barrier" and state.lgkm:
        lg = 0
    if mi.op.startswith("scratch_load") and mi.mods in state.stores:
        vs = 0
    return vm, lg, vs


def _apply(state, vm, lg, vs):
    v = state.vm if vm is None else state.vm[len(state.vm) - vm:] if vm else ()
    g = state.lgkm if lg is None else state.lgkm[len(state.lgkm) - lg:] if lg else ()
    return _State(v, g, frozenset() if vs is not None else state.stores)


def _issue(state, mi):
    k = mi.kind
    if k == "vmem_load":
        return _State(state.vm + (_written(mi),), state.lgkm, state.stores)
    if k == "smem":
        return _State(state.vm, state.lgkm + (("smem", _written(mi)),), state.stores)
    if k in ("ds_load", "ds_store"):
        return _State(state.vm, state.lgkm + (("ds", _written(mi)),), state.stores)
    if k == "vmem_store" and mi.op.startswith("scratch_store"):
        return _State(state.vm, state.lgkm, state.stores | {mi.mods})
    if mi.op == "s_waitcnt_vscnt":
        return _State(state.vm, state.lgkm, frozenset())
    return state


def _wait_text(vm, lg):
    parts = []
    if vm is not None:
        parts.append(f"vmcnt({min(vm, VM_MAX)})")
    if lg is not None:
        parts.append(f"lgkmcnt({min(lg, LGKM_MAX)})")
    return " ".join(parts)


AHEAD = 8


def _ahead(state, code, n, vm, lg):
    """A wait that also covers what the next few instructions (up to the next memory
    instruction or label) will need: one s_waitcnt instead of a ladder of them."""
    for mi in code[n + 1:n + 1 + AHEAD]:
        if mi.kind in ("label", "branch", "vmem_load", "vmem_store", "smem", "ds_load", "ds_store"):
            break
        v2, l2, _ = _needs(state, mi)
        if v2 is not None:
            vm = v2 if vm is None else min(vm, v2)
        if l2 is not None:
            lg = l2 if lg is None else min(lg, l2)
    return vm, lg


def _back_edges(code, loops, start, step):
    """(loop heads by instruction id, loop id -> the state at its back edge): one pass over the
    code per round, the state at each loop head merged with its back edge's, until no back-edge
    state changes (at most 8 rounds).  ``step(state, mi)`` is the state after ``mi``."""
    heads = {id(lp.head): lp for lp in loops}
    latches = {id(lp.latch): lp for lp in loops}
    back = {}
    for _ in range(8):
        changed = False
        state = start()
        for mi in code:
            lp = heads.get(id(mi))
            if lp is not None and id(lp) in back:
                state = state.merge(back[id(lp)])
            state = step(state, mi)
            lp = latches.get(id(mi))
            if lp is not None:
                old = back.get(id(lp))
                new = state if old is None else old.merge(state)
                if old is None or new.key() != old.key():
                    back[id(lp)] = new
                    changed = True
        if not changed:
            break
    return heads, back


def _wait_step(state, mi):
    vm, lg, vs = _needs(state, mi)
    return _issue(_apply(state, vm, lg, vs), mi)


def insert_waits(code, loops):
    heads, back = _back_edges(code, loops, _State, _wait_step)
    out = []
    state = _State()
    for n, mi in enumerate(code):
        lp = heads.get(id(mi))
        if lp is not None and id(lp) in back:
            state = state.merge(back[id(lp)])
        vm, lg, vs = _needs(state, mi)
        if vm is not None or lg is not None:
            vm, lg = _ahead(state, code, n, vm, lg)
        if vs is not None:
            out.append(MI("s_waitcnt_vscnt", ["null", "0x0"], 0))
        if vm is not None or lg is not None:
            out.append(MI("s_waitcnt", [_wait_text(vm, lg)], 0))
        state = _issue(_apply(state, vm, lg, vs), mi)
        out.append(mi)
    return out


# ---- hazards ---------------------------------------------------------------------------------
def _vgprs_read(mi):
    out = set()
    ops = mi.ops[mi.ndef:]
    if mi.op.startswith("v_fmac"):
        ops = ops + mi.ops[:1]                    # the accumulator is read too
    for half in (getattr(mi, "x", None), getattr(mi, "y", None)):
        if half is not None and half.name.startswith("fmac"):
            ops = ops + [half.dst]
    for op in ops:
        for cls, n in _regs(op):
            if cls == "v":
                out.add(n)
    return out


def _reads_exec(mi):
    return "exec_lo" in mi.imp_use or any(op == "exec_lo" for op in mi.ops[mi.ndef:])


class _Hz:
    """Hazard state: VGPRs written by transcendental ops (VALU and trans ops since), the last
    WMMA's destination, whether a non-VALU read EXEC since the last VALU with an SGPR result."""
    __slots__ = ("trans", "wmma", "exec_read", "cmpx")

    def __init__(self, trans=None, wmma=frozenset(), exec_read=False, cmpx=False):
        self.trans, self.wmma, self.exec_read, self.cmpx = dict(trans or {}), wmma, exec_read, cmpx

    def key(self):
        return (tuple(sorted(self.trans.items())), self.wmma, self.exec_read, self.cmpx)

    def merge(self, other):
        t = dict(self.trans)
        for n, (v, tr) in other.trans.items():
            old = t.get(n)
            t[n] = (v, tr) if old is None else (min(old[0], v), min(old[1], tr))
        return _Hz(t, self.wmma | other.wmma, self.exec_read or other.exec_read,
                   self.cmpx or other.cmpx)


def _hazard_step(st, mi, emit):
    """Advance the hazard state over ``mi``; ``emit(MI)`` receives the fixes to put before it."""
    valu = mi.kind in ("valu", "trans", "wmma")
    trans = dict(st.trans)
    wmma, exec_read = st.wmma, st.exec_read
    if valu and trans:
        hit = [trans[n] for n in _vgprs_read(mi) if n in trans]
        if any(v <= 5 and t <= 1 for v, t in hit):
            emit(MI("s_waitcnt_depctr", ["0xfff"], 0))
            trans = {}
    if mi.kind == "wmma" and wmma:
        ab = set()
        for op in mi.ops[1:3]:
            ab.update(n for _, n in _regs(op))
        if ab & wmma:
            emit(MI("v_nop", [], 0))
    if valu and "exec_lo" in mi.imp_def and exec_read:
        emit(MI("s_waitcnt_depctr", ["0xfffe"], 0))
        exec_read = False
    cmpx = st.cmpx
    if mi.op.startswith("v_permlane") and cmpx:
        emit(MI("v_mov_b32", [mi.ops[1], mi.ops[1]], 1))
        cmpx = False
    if mi.op == "s_waitcnt_depctr":
        trans = {}
    if valu:
        is_trans = mi.kind == "trans"
        trans = {n: (v + 1, t + is_trans) for n, (v, t) in trans.items() if v + 1 <= 5 and t + is_trans <= 1}
        if is_trans:
            for op in mi.ops[:mi.ndef]:
                for cls, n in _regs(op):
                    if cls == "v":
                        trans[n] = (0, 0)
        if any(not isinstance(op, str) and op.cls == "s" for op in mi.ops[:mi.ndef]):
            exec_read = False
        wmma = frozenset(n for _, n in _regs(mi.ops[0])) if mi.kind == "wmma" else frozenset()
        cmpx = mi.op.startswith("v_cmpx")
    elif _reads_exec(mi):
        exec_read = True
    return _Hz(trans, wmma, exec_read, cmpx)


def fix_hazards(code, loops):
    heads, back = _back_edges(code, loops, _Hz, lambda st, mi: _hazard_step(st, mi, lambda fix: None))
    out = []
    st = _Hz()
    for mi in code:
        lp = heads.get(id(mi))
        if lp is not None and id(lp) in back:
            st = st.merge(back[id(lp)])
        st = _hazard_step(st, mi, out.append)
        out.append(mi)
    return out
