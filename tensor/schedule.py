"""The scheduler: split a lazy graph into kernels, give each a buffer, order them.

Fusion rules
* Only what the requested values need is scheduled (dead work never reaches a kernel).
* Views cost nothing: a movement node becomes the ShapeTracker of the loads under it.
* Elementwise ops never get a kernel of their own unless requested: they are inlined into
  every kernel that consumes them (recomputed, which beats a round trip through memory).
* A reduction fuses its elementwise producers and, where shapes allow, its elementwise
  consumers: it follows the chain of single consumers that see it through a pure reshape
  and stores at the chain's end.  So ``x @ W.T + b`` and ``((a+b)*c).exp().sum(1)`` are one
  kernel each, and a matmul or a convolution is a multiply feeding a sum over a view.
* CONTIGUOUS, COPY and ASSIGN always materialize; ASSIGN writes into the target's buffer.

Each kernel is a :class:`KAST` tree rooted at a STORE, with a LOAD / CONST / IOTA leaf per
input view; :mod:`tensor.lower` turns it into loop-level IR.  Buffers of values nothing
outside the realize holds are reused once their last reader has run.
"""
from collections import defaultdict

from tensor.allreduce import resolve as resolve_allreduces
from tensor.device import Buffer
from tensor.dtypes import dtypes
from tensor.loopir import Op
from tensor.ops import ELEMENTWISE, MOVEMENT, G, walk
from tensor.view import ShapeTracker, prod


MAX_KERNEL_DEPTH = 200       # longest chain of ops one kernel computes

# ops whose value at all-zero operands is not zero, so padding cannot pass through them
UNSAFE_AT_ZERO = frozenset({Op.EXP2, Op.LOG2, Op.RECIPROCAL, Op.IDIV, Op.MOD})


class ScheduleError(RuntimeError):
    """A realize that cannot be done as asked; the message says why."""


class KAST:
    """A kernel's expression tree: op is a loopir ALU Op or one of the strings
    STORE LOAD CONST IOTA REDUCE.  arg: STORE/LOAD (buffer number, ShapeTracker),
    CONST (value, ShapeTracker), IOTA ShapeTracker, REDUCE (op, axes).

    Nodes are interned: equal trees are the same object, and ``key`` (a small int) names the
    structure, so kernels are cached by it cheaply however much the tree shares."""
    __slots__ = ("op", "src", "arg", "dtype", "key")
    _interned = {}

    def __new__(cls, op, src, arg, dtype):
        k = (op, repr(arg) if op == "CONST" else arg, dtype, tuple(s.key for s in src))
        node = cls._interned.get(k)
        if node is None:
            node = object.__new__(cls)
            node.op, node.src, node.arg, node.dtype = op, src, arg, dtype
            node.key = len(cls._interned)
            cls._interned[k] = node
        return node

    def __repr__(self):
        return f"<KAST #{self.key} {self.op}>"


class ScheduleItem:
    __slots__ = ("kind", "ast", "bufs", "node", "name")

    def __init__(self, kind, ast, bufs, node, name=""):
        self.kind, self.ast, self.bufs, self.node, self.name = kind, ast, bufs, node, name

    def __repr__(self):
        return f"<ScheduleItem {self.kind} {self.name} {self.bufs}>"


def _pure_reshape(via):
    base, st = via.view()
    return via is base or (len(st.views) == 1 and st.views[0].contiguous)


def create_schedule(targets):
    """Targets: nodes to materialize (not movement nodes). Returns a list of ScheduleItems."""
    targets = resolve_allreduces(targets)
    nodes = walk(targets, stop=lambda n: n.realized)
    order = {n.id: i for i, n in enumerate(nodes)}
    consumers = defaultdict(list)
    for n in nodes:
        if n.realized or n.op in MOVEMENT:
            continue
        for s in n.src:
            b, _ = s.view()
            consumers[b.id].append((n, s))
    materialize = {t.id for t in targets}
    for n in nodes:
        if n.realized:
            continue
        if n.op in (G.CONTIGUOUS, G.ASSIGN, G.COPY):
            materialize.add(n.id)
        if n.op is G.COPY:
            src, _ = n.src[0].view()
            if not src.realized:
                materialize.add(src.id)
    # reductions: fuse forward into the elementwise region they alone feed
    claimed = set()
    for n in nodes:
        if n.op is not G.REDUCE or n.realized:
            continue
        if n.id in materialize:
            claimed.add(n.id)
            continue
        end, region = _fusion_region(n, consumers, materialize, claimed)
        materialize.add(end.id)
        claimed.update(region)
    # bound how deep a kernel's expression gets (long chains of ops are split)
    depth = {}
    for n in nodes:
        if n.realized or n.op in (G.BUFFER, G.CONST, G.IOTA):
            depth[n.id] = 0
            continue
        d = 1 + max((depth.get(s.id, 0) for s in n.src), default=0)
        if n.id in materialize:
            depth[n.id] = 0
        elif d > MAX_KERNEL_DEPTH and n.op in ELEMENTWISE and n.id not in claimed:
            materialize.add(n.id)
            depth[n.id] = 0
        else:
            depth[n.id] = d
    roots = [n for n in nodes if n.id in materialize and not n.realized]
    return _build(roots, targets, order)


def _fusion_region(r, consumers, materialize, claimed, limit=64):
    """Grow the set of elementwise nodes fed by reduction ``r`` (through pure reshapes) for as
    long as it has a single exit; returns (the exit to store, the region's node ids)."""
    region = {r.id: r}
    best = (r, {r.id})
    while len(region) < limit:
        leaving = [(n, c, via) for n in region.values() for c, via in consumers[n.id]
                   if c.id not in region]
        exits = {n.id for n, _, _ in leaving} | {i for i in region if i in materialize}
        if len(exits) == 1:
            (eid,) = exits
            best = (region[eid], set(region))
            if eid in materialize:
                break
        if not leaving:
            break
        grow = {}
        for n, c, via in leaving:
            fusable = c.op in ELEMENTWISE or (c.op in (G.CONTIGUOUS, G.ASSIGN) and via is c.src[-1])
            if not fusable or not _pure_reshape(via) or c.id in claimed or c.realized:
                return best
            grow[c.id] = c
        region.update(grow)
    return best


def _find_reduce(value, root_ids, root):
    """The unrealized REDUCE fused into the kernel computing ``value`` (or None)."""
    stack, seen = [value], set()
    while stack:
        n = stack.pop()
        if n.id in seen or n.realized or (n.id in root_ids and n is not root):
            continue
        seen.add(n.id)
        if n.op is G.REDUCE and prod(n.src[0].shape):
            return n
        if n.op in ELEMENTWISE or n.op in MOVEMENT:
            stack.extend(n.src)
    return None


class _KernelBuilder:
    def __init__(self, root_ids):
        self.inputs = []          # realized base nodes, in param order (output is param 0)
        self.index = {}
        self.memo = {}
        self.root_ids = root_ids
        self.reduce = None
        self.unsafe_memo = {}

    def load_index(self, node):
        i = self.index.get(node.id)
        if i is None:
            if node.op is G.BUFFER and node.version != node.buffer.version:
                raise ScheduleError(
                    f"a lazy value reads a {node.dtype.name}{list(node.shape)} tensor whose buffer "
                    "has since been overwritten by assign(); realize it before the assign")
            self.inputs.append(node)
            i = self.index[node.id] = len(self.inputs)
        return i

    def ast(self, n, movs):
        key = (n.id, movs)
        out = self.memo.get(key)
        if out is None:
            out = self.memo[key] = self._ast(n, movs)
        return out

    def _unsafe(self, n):
        """Does the value inlined at ``n`` compute something nonzero from all-zero inputs?"""
        memo = self.unsafe_memo
        if n.id in memo:
            return memo[n.id]
        if n.realized or n.op in (G.BUFFER, G.CONST, G.IOTA) or \
                (n.id in self.root_ids and n is not self.root):
            out = False
        elif n.op in UNSAFE_AT_ZERO:
            out = True
        elif n.op in ELEMENTWISE or n.op in MOVEMENT or n.op is G.REDUCE:
            out = any(self._unsafe(s) for s in n.src)
        else:
            out = False
        memo[n.id] = out
        return out

    def _ast(self, n, movs):
        if n.op in MOVEMENT and not n.realized:
            chain = []
            while n.op in MOVEMENT and not n.realized:
                chain.append((n.op, n.arg))
                n = n.src[0]
            full = tuple(reversed(chain)) + movs
            inner = self.ast(n, full)
            if any(op is G.PAD for op, _ in chain) and self._unsafe(n):
                # padding is 0, but f(0) need not be (exp, reciprocal, log): select it
                st = _viewed(n.shape, full)
                valid = KAST("CONST", (), (True, st), dtypes.bool)
                zero = KAST("CONST", (), (0 if not n.dtype.is_bool else False, st), n.dtype)
                inner = KAST(Op.WHERE, (valid, inner, zero), None, n.dtype)
            return inner
        st = _viewed(n.shape, movs)
        if n.realized or n.op is G.BUFFER or (n.id in self.root_ids and n is not self.root):
            return KAST("LOAD", (), (self.load_index(n), st), n.dtype)
        if n.op is G.CONST:
            return KAST("CONST", (), (n.arg, st), n.dtype)
        if n.op is G.IOTA:
            return KAST("IOTA", (), st, n.dtype)
        if n.op in ELEMENTWISE:
            return KAST(n.op, tuple(self.ast(s, movs) for s in n.src), None, n.dtype)
        if n.op is G.REDUCE and not prod(n.src[0].shape):     # nothing to reduce: identity
            value = 0 if n.arg[0] == "add" else n.dtype.min
            return KAST("CONST", (), (value, st), n.dtype)
        if n.op is G.REDUCE:
            if st != ShapeTracker.contiguous(n.shape):
                raise ScheduleError(f"internal: a fused reduction is seen through a view {st}")
            self.reduce = n
            return KAST("REDUCE", (self.ast(n.src[0], ()),), n.arg, n.dtype)
        raise ScheduleError(f"internal: cannot inline {n.op} into a kernel")

    def build(self, root):
        value = root.src[-1] if root.op in (G.CONTIGUOUS, G.ASSIGN) else root
        self.value, self.root = value, root
        red = _find_reduce(value, self.root_ids, root)
        out_shape = red.shape if red is not None else root.shape
        movs = ((G.RESHAPE, out_shape),) if out_shape != root.shape else ()
        body = self.ast(value, movs)
        store_st = ShapeTracker.contiguous(out_shape)
        return KAST("STORE", (body,), (0, store_st), root.dtype)


_views = {}


def _viewed(shape, movs):
    """ShapeTracker of a contiguous ``shape`` after the movement ops ``movs`` (cached)."""
    key = (shape, movs)
    st = _views.get(key)
    if st is None:
        if len(_views) > 100000:
            _views.clear()
        st = _views[key] = _apply_all(ShapeTracker.contiguous(shape), movs)
    return st


def _apply_all(st, movs):
    for op, arg in movs:
        if op is G.RESHAPE:
            st = st.reshape(arg)
        elif op is G.PERMUTE:
            st = st.permute(arg)
        elif op is G.EXPAND:
            st = st.expand(arg)
        elif op is G.PAD:
            st = st.pad(arg)
        elif op is G.SHRINK:
            st = st.shrink(arg)
        else:
            st = st.flip(arg)
    return st


def _loads_of(ast, acc):
    from tensor.lower import _nodes
    acc.extend(n.arg for n, _ in _nodes(ast) if n.op == "LOAD")
    return acc


def ast_text(ast):
    """A kernel tree, one node a line (DEBUG=4)."""
    from tensor.lower import _nodes
    nodes = sorted({n.key: n for n, _ in _nodes(ast)}.values(), key=lambda n: n.key)
    lines = []
    for n in nodes:
        op = n.op if isinstance(n.op, str) else n.op.value
        src = ", ".join(f"#{s.key}" for s in n.src)
        lines.append(f"  #{n.key:<6} {op:<11} {n.dtype.name:<8} {src} {'' if n.arg is None else n.arg!r}")
    return "\n".join(lines)


def _build(roots, targets, order):
    root_ids = {r.id for r in roots}
    target_ids = {t.id for t in targets}
    kernels = []                  # (root, kind, ast, input nodes)
    for root in roots:
        if root.op is G.COPY:
            src, _ = root.src[0].view()
            kernels.append((root, "copy", None, [src]))
            continue
        kb = _KernelBuilder(root_ids)
        ast = kb.build(root)
        if root.op is G.ASSIGN:
            target = root.src[0].view()[0]
            store_st = ast.arg[1]
            unsafe = any(kb.inputs[i - 1].buffer is target.buffer and st != store_st
                         for i, st in _loads_of(ast, []) if kb.inputs[i - 1].realized)
            if unsafe:
                raise ScheduleError("assign: the new value reads the target through a different "
                                    "view (it would overwrite what it still has to read); "
                                    "assign a .contiguous() copy instead")
        kernels.append((root, "kernel", ast, kb.inputs))
    # order: data dependencies (walk order), plus every reader of an assigned buffer's old
    # contents before the assign
    pos = {r.id: i for i, r in enumerate(k[0] for k in kernels)}
    deps = [set() for _ in kernels]
    readers = defaultdict(set)
    for i, (root, kind, ast, inputs) in enumerate(kernels):
        for n in inputs + ([root.src[0].view()[0]] if root.op is G.ASSIGN else []):
            if n.id in pos and pos[n.id] != i:
                deps[i].add(pos[n.id])
        for n in inputs:
            if n.realized:
                readers[id(n.buffer)].add(i)
    for i, (root, kind, ast, inputs) in enumerate(kernels):
        if root.op is G.ASSIGN:
            target = root.src[0].view()[0]
            if target.buffer is None and target.id not in pos:
                raise ScheduleError("assign: the target tensor has no buffer (realize it first)")
            for r in readers[id(target.buffer)]:
                if r != i:
                    if i in _ancestors(r, deps):
                        raise ScheduleError("a kernel reads a buffer both before and after an "
                                            "assign to it in one realize")
                    deps[i].add(r)
    seq = _toposort(deps, [order[k[0].id] for k in kernels], [k[0].device for k in kernels])
    return _assign_buffers([kernels[i] for i in seq], target_ids)


def _ancestors(i, deps):
    out, stack = set(), [i]
    while stack:
        for d in deps[stack.pop()]:
            if d not in out:
                out.add(d)
                stack.append(d)
    return out


def _toposort(deps, prio, device):
    """Dependency order, earliest graph position first, but staying on one device while it has
    work ready: kernels of different devices never share a buffer (copies connect them), and
    consecutive launches on one device replay as one command buffer (tensor.jit)."""
    import heapq
    n = len(deps)
    users = defaultdict(list)
    indeg = [len(d) for d in deps]
    for i, d in enumerate(deps):
        for j in d:
            users[j].append(i)
    ready = defaultdict(list)           # device -> heap of (prio, index)
    for i in range(n):
        if indeg[i] == 0:
            heapq.heappush(ready[device[i]], (prio[i], i))
    out, current = [], None
    while len(out) < n:
        heap = ready.get(current)
        if not heap:
            current = min((h[0][0], d) for d, h in ready.items() if h)[1]
            heap = ready[current]
        _, i = heapq.heappop(heap)
        out.append(i)
        for u in users[i]:
            indeg[u] -= 1
            if indeg[u] == 0:
                heapq.heappush(ready[device[u]], (prio[u], u))
    return out


def _assign_buffers(kernels, target_ids):
    last_use = {}
    for i, (root, kind, ast, inputs) in enumerate(kernels):
        for n in inputs:
            last_use[n.id] = i
    pool = defaultdict(list)
    produced, temp = {}, set()    # node id -> Buffer; the ids nobody keeps after the realize
    items = []
    for i, (root, kind, ast, inputs) in enumerate(kernels):
        size = prod(root.shape)
        if root.op is G.ASSIGN:
            target = root.src[0].view()[0]
            out = produced.get(target.id) or target.buffer
        elif root.id in target_ids or root.refs > 0:
            out = Buffer(root.device, size, root.dtype)
        else:
            free = pool[(root.device, root.dtype, size)]
            out = free.pop() if free else Buffer(root.device, size, root.dtype)
            temp.add(root.id)
        produced[root.id] = out
        bufs = [out] + [produced.get(n.id) or n.buffer for n in inputs]
        items.append(ScheduleItem(kind, ast, bufs, root))
        for n in inputs:
            if n.id in temp and last_use[n.id] == i:
                b = produced[n.id]
                pool[(b.device, b.dtype, b.size)].append(b)
    return items
