"""Instruction scheduling before register allocation, within straight-line code.

Instruction selection emits one value's chain after another; this pass reorders each
straight-line stretch (between labels, branches, barriers and EXEC changes) as a list
scheduler over the dependence graph:

* dependences: read-after-write, write-after-read and write-after-write on virtual registers
  (a FMAC reads its destination; a write of part of a register also reads it), on VCC/M0/SCC
  (the scalar ALU's instructions keep their order: most of them write SCC), and memory order
  (loads may pass loads; a store keeps its place among memory instructions);
* priority: the longest latency path to the end of the stretch (memory loads first, so their
  latency overlaps the arithmetic), then the original order;
* a VALU instruction that would read the result of a transcendental op issued fewer than six
  VALU ops (and two transcendental ops) earlier waits while anything else is ready, so the
  hardware's trans-use hazard needs no ``s_waitcnt_depctr``; independent chains interleave,
  which also gives the VOPD pass independent neighbours to pair.
"""
import heapq

from .mir import Neg, Sub, VReg

LATENCY = {"vmem_load": 60, "smem": 20, "ds_load": 12, "trans": 4, "wmma": 8}
NAMED = ("vcc_lo", "exec_lo", "m0", "scc")
BOUNDARY = {"s_barrier", "s_endpgm", "s_and_saveexec_b32", "s_cbranch_execz"}


def _reg(op):
    if isinstance(op, Neg):
        op = op.op
    if isinstance(op, VReg):
        return ("r", op.n), op.size
    if isinstance(op, Sub):
        return ("r", op.reg.n), (op.size if op.off == 0 and op.size == op.reg.size else -1)
    if isinstance(op, str) and op in NAMED:
        return ("x", op), 1
    return None, 0


def _effects(mi):
    """(reads, writes) as sets of keys."""
    reads, writes = set(), set()
    for k, op in enumerate(mi.ops):
        key, whole = _reg(op)
        if key is None:
            continue
        if k < mi.ndef:
            writes.add(key)
            if whole == -1 or (isinstance(op, Sub) and op.size < op.reg.size):
                reads.add(key)                 # a partial write keeps the rest
        else:
            reads.add(key)
    if mi.op.startswith("v_fmac") or mi.op.startswith("global_load_d16") or \
            mi.op.startswith("ds_load_u16_d16"):
        for op in mi.ops[:1]:
            key, _ = _reg(op)
            if key is not None:
                reads.add(key)
    for name in mi.imp_use:
        reads.add(("x", name) if isinstance(name, str) else ("r", name.n))
    for name in mi.imp_def:
        writes.add(("x", name) if isinstance(name, str) else ("r", name.n))
    if mi.kind == "salu" or mi.kind == "branch":
        reads.add(("x", "scc"))
        writes.add(("x", "scc"))
    return reads, writes


def _boundary(mi):
    return mi.kind in ("label", "branch") or mi.op in BOUNDARY or "exec_lo" in mi.imp_def


def schedule(code):
    out, seg = [], []
    for mi in code:
        if _boundary(mi):
            out.extend(_schedule(seg))
            seg = []
            out.append(mi)
        else:
            seg.append(mi)
    out.extend(_schedule(seg))
    return out


def _schedule(seg):
    n = len(seg)
    if n < 3:
        return seg
    succ = [[] for _ in range(n)]
    npred = [0] * n
    last_write, reads_since = {}, {}
    last_store, loads_since_store = None, []
    effects = [_effects(mi) for mi in seg]

    def edge(a, b):
        succ[a].append(b)
        npred[b] += 1

    for i, mi in enumerate(seg):
        rd, wr = effects[i]
        deps = set()
        for key in rd:
            w = last_write.get(key)
            if w is not None:
                deps.add(w)
        for key in wr:
            w = last_write.get(key)
            if w is not None:
                deps.add(w)
            deps.update(reads_since.get(key, ()))
        if mi.kind in ("vmem_load", "smem", "ds_load"):
            if last_store is not None:
                deps.add(last_store)
            loads_since_store.append(i)
        elif mi.kind in ("vmem_store", "ds_store"):
            if last_store is not None:
                deps.add(last_store)
            deps.update(loads_since_store)
            last_store, loads_since_store = i, []
        deps.discard(i)
        for d in deps:
            edge(d, i)
        for key in rd:
            reads_since.setdefault(key, []).append(i)
        for key in wr:
            last_write[key] = i
            reads_since[key] = []
    height = [0] * n
    for i in range(n - 1, -1, -1):
        lat = LATENCY.get(seg[i].kind, 1)
        height[i] = lat + max((height[s] for s in succ[i]), default=0)
    trans_of = {}                   # vreg key -> (VALU count, trans count) when written
    valu_count = trans_count = 0
    ready = [(-height[i], i) for i in range(n) if npred[i] == 0]
    heapq.heapify(ready)
    order = []
    while ready:
        held, pick = [], None
        while ready:
            item = heapq.heappop(ready)
            i = item[1]
            mi = seg[i]
            if mi.kind in ("valu", "trans", "wmma") and trans_of:
                hot = any(valu_count - trans_of[k][0] <= 5 and trans_count - trans_of[k][1] <= 1
                          for k in effects[i][0] if k in trans_of)
                if hot:
                    held.append(item)
                    continue
            pick = i
            break
        if pick is None:
            pick = held.pop(0)[1]
        for item in held:
            heapq.heappush(ready, item)
        order.append(seg[pick])
        mi = seg[pick]
        if mi.kind in ("valu", "trans", "wmma"):
            valu_count += 1
            if mi.kind == "trans":
                trans_count += 1
                for key in effects[pick][1]:
                    trans_of[key] = (valu_count, trans_count)
        for s in succ[pick]:
            npred[s] -= 1
            if npred[s] == 0:
                heapq.heappush(ready, (-height[s], s))
    return order
