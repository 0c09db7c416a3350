"""The lazy graph: about twenty primitive ops that every Tensor method lowers to.

    leaves      BUFFER (device memory)  CONST (a scalar)  IOTA (0, 1, ... n-1 as int32)
    unary       EXP2 LOG2 SIN SQRT RECIPROCAL
    binary      ADD MUL MAX CMPLT CMPNE IDIV MOD AND OR XOR SHL SHR
    ternary     WHERE
    convert     CAST BITCAST
    reduce      REDUCE (arg: ('add' | 'max', axes); the reduced axes keep size 1)
    movement    RESHAPE PERMUTE EXPAND PAD SHRINK FLIP (views: no data moves)
    buffers     CONTIGUOUS (materialize)  COPY (to another device)  ASSIGN (into an existing
                buffer, keeping its identity)
    devices     ALLREDUCE (a placeholder for one device's share of a sum across devices; the
                scheduler replaces it before anything else sees it: :mod:`tensor.allreduce`)

ALU ops are the loop-level IR's own (:class:`tensor.loopir.Op`), with its semantics; a binary op
takes operands of one shape and dtype (the Tensor layer broadcasts and promotes first).

A movement node knows its *base* (the nearest node that is not a movement) and the
:class:`~tensor.view.ShapeTracker` from the base's shape to its own, so a chain of views costs
nothing.  Constructors fold constants (``2*3`` is a CONST; ``x*1`` and ``x+0`` are ``x``) with
the IR's own ALU semantics.
"""
import itertools
from enum import Enum

from tensor.backends import npalu
from tensor.dtypes import dtypes
from tensor.loopir import Op
from tensor.view import ShapeTracker, prod


class G(Enum):
    """Graph-only ops (the ALU ops are :class:`tensor.loopir.Op`)."""
    BUFFER = "BUFFER"
    CONST = "CONST"
    IOTA = "IOTA"
    REDUCE = "REDUCE"
    RESHAPE = "RESHAPE"
    PERMUTE = "PERMUTE"
    EXPAND = "EXPAND"
    PAD = "PAD"
    SHRINK = "SHRINK"
    FLIP = "FLIP"
    CONTIGUOUS = "CONTIGUOUS"
    COPY = "COPY"
    ASSIGN = "ASSIGN"
    ALLREDUCE = "ALLREDUCE"

    def __repr__(self):
        return self.value


MOVEMENT = frozenset({G.RESHAPE, G.PERMUTE, G.EXPAND, G.PAD, G.SHRINK, G.FLIP})
ELEMENTWISE = frozenset({Op.EXP2, Op.LOG2, Op.SIN, Op.SQRT, Op.RECIPROCAL, Op.ADD, Op.MUL, Op.MAX,
                         Op.CMPLT, Op.CMPNE, Op.IDIV, Op.MOD, Op.AND, Op.OR, Op.XOR, Op.SHL,
                         Op.SHR, Op.WHERE, Op.CAST, Op.BITCAST})
_ids = itertools.count()


class Node:
    __slots__ = ("op", "src", "arg", "dtype", "shape", "device", "buffer", "version", "st",
                 "base", "refs", "id", "requires_grad", "__weakref__")
    is_multi = False          # tensor.multi.MultiNode: one tensor kept on several devices

    def __init__(self, op, src, arg, dtype, shape, device):
        self.op, self.src, self.arg, self.dtype, self.shape, self.device = \
            op, src, arg, dtype, shape, device
        self.buffer, self.version, self.refs, self.id = None, 0, 0, next(_ids)
        self.requires_grad = False
        if op in MOVEMENT:
            self.base, st = src[0].view()
            self.st = _apply(st, op, arg)
        else:
            self.base, self.st = self, None

    def __repr__(self):
        return f"<{self.op.value} {self.dtype.name} {self.shape} #{self.id}>"

    @property
    def realized(self):
        return self.buffer is not None

    def view(self):
        """(base node, ShapeTracker from the base's shape to this node's shape)."""
        if self.st is None or self.buffer is not None:
            return self, ShapeTracker.contiguous(self.shape)
        base = self.base
        if base.st is not None and base.buffer is None:
            self._rebase()
        return self.base, self.st

    def _rebase(self):
        """The base became a view itself (see :func:`become`): view the base's base."""
        chain, n = [], self
        while n is not self.base:
            chain.append((n.op, n.arg))
            n = n.src[0]
        base, st = n.view()
        for op, arg in reversed(chain):
            st = _apply(st, op, arg)
        self.base, self.st = base, st

    def const_value(self):
        """The value if this node is one constant everywhere, else None."""
        base, st = self.view()
        if base.op is G.CONST and (self.st is None or all(v.mask is None for v in st.views)):
            return base.arg
        return None


def become(node, op, src, arg):
    """Turn ``node`` into another op in place (its consumers see the new definition): how an
    all-reduce placeholder becomes a view of its bucket.  Views made on it re-base lazily."""
    node.op, node.src, node.arg = op, tuple(src), arg
    if op in MOVEMENT:
        node.base, st = node.src[0].view()
        node.st = _apply(st, op, arg)
    else:
        node.base, node.st = node, None


def _multi():
    from tensor import multi
    return multi


def _apply(st, op, arg):
    if op is G.RESHAPE:
        return st.reshape(arg)
    if op is G.PERMUTE:
        return st.permute(arg)
    if op is G.EXPAND:
        return st.expand(arg)
    if op is G.PAD:
        return st.pad(arg)
    if op is G.SHRINK:
        return st.shrink(arg)
    return st.flip(arg)


# ---- leaves ------------------------------------------------------------------------------------

def buffer(buf, shape):
    n = Node(G.BUFFER, (), None, buf.dtype, tuple(shape), buf.device)
    n.buffer, n.version = buf, buf.version
    return n


def const(value, dtype, shape=(), device="CPU"):
    if isinstance(device, tuple):
        return _multi().const(value, dtype, tuple(shape), device)
    value = npalu.to_python(npalu.scalar(value, dtype), dtype)
    n = Node(G.CONST, (), value, dtype, (), device)
    if shape:
        n = expand(reshape(n, (1,) * len(shape)), tuple(shape))
    return n


def iota(n, device="CPU"):
    if isinstance(device, tuple):
        return _multi().iota(n, device)
    return Node(G.IOTA, (), None, dtypes.int32, (n,), device)


# ---- ALU -------------------------------------------------------------------------------------

def alu(op, *srcs, dtype=None):
    if any(x.is_multi for x in srcs):
        return _multi().alu(op, *srcs, dtype=dtype)
    a = srcs[0]
    if op in (Op.CMPLT, Op.CMPNE):
        out = dtypes.bool
    elif op is Op.WHERE:
        out = srcs[1].dtype
    elif op in (Op.CAST, Op.BITCAST):
        out = dtype
    else:
        out = a.dtype
    consts = [s.const_value() for s in srcs]
    if all(c is not None for c in consts):
        v = npalu.alu_quiet(op, out, [npalu.scalar(c, s.dtype) for c, s in zip(consts, srcs)],
                      [s.dtype for s in srcs])
        return const(npalu.to_python(v, out), out, a.shape, a.device)
    if op is Op.ADD:
        for x, c in ((srcs[0], consts[1]), (srcs[1], consts[0])):
            if c == 0 and c is not None and not isinstance(c, bool) and x.dtype.is_int:
                return x
    if op is Op.MUL:
        for x, c in ((srcs[0], consts[1]), (srcs[1], consts[0])):
            if c is not None and c == 1 and not isinstance(c, bool):
                return x
            if c is not None and c == 0 and not x.dtype.is_float:
                return const(0, out, x.shape, x.device)
    if op is Op.WHERE and consts[0] is not None:
        return srcs[1] if consts[0] else srcs[2]
    if op is Op.CAST and a.dtype is out:
        return a
    return Node(op, srcs, None, out, a.shape, a.device)


def cast(x, dtype):
    return x if x.dtype is dtype else alu(Op.CAST, x, dtype=dtype)


def reduce(x, op, axes):
    if x.is_multi:
        return _multi().reduce(x, op, axes)
    axes = tuple(sorted(set(axes)))
    if not axes or all(x.shape[a] == 1 for a in axes):
        return x
    shape = tuple(1 if i in axes else s for i, s in enumerate(x.shape))
    return Node(G.REDUCE, (x,), (op, axes), x.dtype, shape, x.device)


# ---- movement ----------------------------------------------------------------------------------

def reshape(x, shape):
    if x.is_multi:
        return _multi().reshape(x, shape)
    shape = tuple(shape)
    if shape == x.shape:
        return x
    if x.op is G.RESHAPE and x.buffer is None:
        x = x.src[0]                                 # reshape of reshape: one reshape
        if shape == x.shape:
            return x
    return Node(G.RESHAPE, (x,), shape, x.dtype, shape, x.device)


def permute(x, order):
    if x.is_multi:
        return _multi().permute(x, order)
    order = tuple(order)
    if order == tuple(range(len(order))):
        return x
    return Node(G.PERMUTE, (x,), order, x.dtype, tuple(x.shape[i] for i in order), x.device)


def expand(x, shape):
    if x.is_multi:
        return _multi().expand(x, shape)
    shape = tuple(shape)
    if shape == x.shape:
        return x
    return Node(G.EXPAND, (x,), shape, x.dtype, shape, x.device)


def pad(x, pads):
    if x.is_multi:
        return _multi().pad(x, pads)
    pads = tuple(tuple(p) for p in pads)
    if all(p == (0, 0) for p in pads):
        return x
    shape = tuple(s + lo + hi for s, (lo, hi) in zip(x.shape, pads))
    return Node(G.PAD, (x,), pads, x.dtype, shape, x.device)


def shrink(x, bounds):
    if x.is_multi:
        return _multi().shrink(x, bounds)
    bounds = tuple(tuple(b) for b in bounds)
    if all(b == (0, s) for b, s in zip(bounds, x.shape)):
        return x
    return Node(G.SHRINK, (x,), bounds, x.dtype, tuple(hi - lo for lo, hi in bounds), x.device)


def flip(x, axes):
    if x.is_multi:
        return _multi().flip(x, axes)
    axes = tuple(sorted(a for a in set(axes) if x.shape[a] > 1))
    if not axes:
        return x
    return Node(G.FLIP, (x,), axes, x.dtype, x.shape, x.device)


# ---- buffers -----------------------------------------------------------------------------------

def contiguous(x):
    if x.is_multi:
        return _multi().contiguous(x)
    base, st = x.view()
    if base.realized and st.is_contiguous and base.shape == x.shape:
        return x
    return Node(G.CONTIGUOUS, (x,), None, x.dtype, x.shape, x.device)


def copy(x, device):
    if x.is_multi:
        return _multi().copy(x, device)
    return x if x.device == device else Node(G.COPY, (x,), device, x.dtype, x.shape, device)


def assign(target, value):
    if target.is_multi:
        return _multi().assign(target, value)
    return Node(G.ASSIGN, (target, value), None, target.dtype, target.shape, target.device)


def numel(shape):
    return prod(shape)


def walk(roots, stop=lambda n: False):
    """Nodes reachable from ``roots`` in dependency order (sources first)."""
    order, seen = [], set()
    stack = [(r, False) for r in reversed(roots)]
    while stack:
        n, done = stack.pop()
        if done:
            order.append(n)
            continue
        if n.id in seen:
            continue
        seen.add(n.id)
        stack.append((n, True))
        if not stop(n):
            for s in reversed(n.src):
                if s.id not in seen:
                    stack.append((s, False))
    return order


def graph_text(roots):
    """DEBUG=4: one line per node, sources by number."""
    nodes = walk(roots, stop=lambda n: n.realized)
    num = {n.id: i for i, n in enumerate(nodes)}
    lines = []
    for i, n in enumerate(nodes):
        src = ", ".join(f"%{num[s.id]}" for s in n.src)
        arg = "" if n.arg is None else f" {n.arg!r}"
        state = " [realized]" if n.realized else ""
        lines.append(f"  %{i:<4} {n.op.value:<11} {n.dtype.name:<8} {str(n.shape):<16} {src}{arg}{state}")
    return "\n".join(lines)
