"""Tensors on several devices: ``Tensor.shard(devices, axis)`` and the all-reduce.

A :class:`MultiNode` stands in the lazy graph for one tensor kept on several devices: part
``i`` is an ordinary node on ``devices[i]``.  With ``axis=None`` every part holds the whole
tensor (replicated, as the parameters of a data-parallel model); with an axis, the parts hold
consecutive slices along it (``numpy.array_split`` sizes, as a batch split over GPUs).

Every primitive of :mod:`tensor.ops` accepts MultiNodes and applies itself part by part:

* elementwise ops line their operands up: a replicated operand meets a sharded one as the
  slice each device needs (a view, no copy);
* a reduction over the sharded axis reduces each part, then combines the partial results
  with an **all-reduce** over peer copies, so the result is replicated;
* movement ops move the sharded axis along (reshape keeps it when the dimensions before it
  are unchanged); padding, shrinking or flipping along the sharded axis is refused;
* a copy to one device gathers the parts.

Autograd needs nothing more: it is defined on the primitives, which now work on MultiNodes.
In data-parallel training the gradient of a replicated weight used with a sharded batch comes
out of a reduction over the batch axis, i.e. out of the all-reduce.

The all-reduce is deferred: the reduction leaves a placeholder per device, and when the graph
is realized the scheduler packs every all-reduce that can go together into buckets, one
transfer and one sum per bucket instead of one per tensor (:mod:`tensor.allreduce`: two
devices exchange their buckets device to device, more go around a ring).
"""
from tensor import ops
from tensor.allreduce import pending, ring
from tensor.ops import G, Node
from tensor.view import prod


class MultiDeviceError(ValueError):
    """An operation that does not fit how a tensor is split over devices; names both."""


def split_bounds(size, n):
    """numpy.array_split boundaries of ``size`` elements over ``n`` parts."""
    q, r = divmod(size, n)
    out, lo = [], 0
    for i in range(n):
        hi = lo + q + (1 if i < r else 0)
        out.append((lo, hi))
        lo = hi
    return tuple(out)


class MultiNode(Node):
    __slots__ = ("parts", "axis", "bounds")
    is_multi = True

    def __init__(self, op, src, arg, parts, axis, bounds=None):
        parts = tuple(parts)
        p0 = parts[0]
        if axis is None:
            shape = p0.shape
        else:
            shape = tuple(sum(p.shape[axis] for p in parts) if i == axis else s
                          for i, s in enumerate(p0.shape))
            if bounds is None:
                lo, b = 0, []
                for p in parts:
                    b.append((lo, lo + p.shape[axis]))
                    lo += p.shape[axis]
                bounds = tuple(b)
        self.parts, self.axis, self.bounds = parts, axis, bounds
        devs = tuple(p.device for p in parts)
        # a MultiNode is never a movement node itself (its parts are): no base/view chain
        Node.__init__(self, G.CONTIGUOUS if op in ops.MOVEMENT else op, src, arg, p0.dtype, shape, devs)
        self.op = op
        self.base, self.st = self, None

    @property
    def realized(self):
        return all(p.view()[0].realized for p in self.parts)

    def const_value(self):
        vals = {repr(p.const_value()) for p in self.parts}
        v = self.parts[0].const_value()
        return v if len(vals) == 1 else None

    def __repr__(self):
        return f"<multi {self.op.value} {self.dtype.name} {self.shape} axis={self.axis} on {self.device}>"


def is_multi(x):
    return getattr(x, "is_multi", False)


def _local(shape, axis, lo_hi):
    lo, hi = lo_hi
    return tuple(hi - lo if i == axis else s for i, s in enumerate(shape))


def shard(node, devices, axis=None):
    """One node -> a MultiNode over ``devices`` (copies; sliced along ``axis`` if given)."""
    devices = tuple(devices)
    if len(devices) < 1 or len(set(devices)) != len(devices):
        raise MultiDeviceError(f"shard: need distinct devices, got {devices}")
    if is_multi(node):
        raise MultiDeviceError(f"shard: the tensor is already on {node.device}")
    if axis is not None:
        axis = axis % len(node.shape) if node.shape else 0
    bounds = None if axis is None else split_bounds(node.shape[axis], len(devices))
    host = node.buffer.host_data() if node.op is G.BUFFER and not node.requires_grad else None
    if host is not None:            # still on the host (a batch): each device gets its slice directly
        return _shard_host(host.reshape(node.shape), node.dtype, devices, axis, bounds)
    if axis is None:
        parts = [ops.copy(node, d) for d in devices]
        return MultiNode(G.COPY, (node,), devices, parts, None)
    parts = []
    for d, (lo, hi) in zip(devices, bounds):
        box = [(0, s) for s in node.shape]
        box[axis] = (lo, hi)
        parts.append(ops.copy(ops.contiguous(ops.shrink(node, box)), d))
    return MultiNode(G.COPY, (node,), devices, parts, axis, bounds)


def _shard_host(host, dtype, devices, axis, bounds):
    from tensor.device import Buffer
    parts = []
    for i, d in enumerate(devices):
        piece = host
        if axis is not None:
            box = [slice(None)] * host.ndim
            box[axis] = slice(*bounds[i])
            piece = host[tuple(box)]
        parts.append(ops.buffer(Buffer(d, piece.size, dtype, initial=piece.reshape(-1)), piece.shape))
    return MultiNode(G.BUFFER, (), None, parts, axis, bounds)


# ---- aligning operands ---------------------------------------------------------------------------

def _slices_of(x, axis, bounds):
    """The parts of ``x`` as they pair with a tensor sharded on ``axis`` with ``bounds``."""
    if x.axis == axis and x.bounds == bounds:
        return list(x.parts)
    if x.axis is None:
        out = []
        for p, (lo, hi) in zip(x.parts, bounds):
            box = [(0, s) for s in p.shape]
            box[axis] = (lo, hi)
            out.append(ops.shrink(p, box))
        return out
    raise MultiDeviceError(f"operands sharded differently: axis {x.axis} {x.bounds} and axis {axis} {bounds}")


def _align(srcs):
    multis = [s for s in srcs if is_multi(s)]
    devs = multis[0].device
    for m in multis:
        if m.device != devs:
            raise MultiDeviceError(f"operands on different devices: {m.device} and {devs}")
    sharded = [m for m in multis if m.axis is not None]
    axis, bounds = (sharded[0].axis, sharded[0].bounds) if sharded else (None, None)
    cols = []
    for s in srcs:
        if not is_multi(s):
            if s.const_value() is None:
                raise MultiDeviceError(f"operands on different devices: {s.device} and {devs}")
            s = const(s.const_value(), s.dtype, s.shape, devs)
        cols.append(list(s.parts) if axis is None else _slices_of(s, axis, bounds))
    return devs, axis, bounds, cols


# ---- the primitives ---------------------------------------------------------------------------

def const(value, dtype, shape, devices):
    parts = [ops.const(value, dtype, shape, d) for d in devices]
    return MultiNode(G.CONST, (), value, parts, None)


def iota(n, devices):
    return MultiNode(G.IOTA, (), None, [ops.iota(n, d) for d in devices], None)


def alu(op, *srcs, dtype=None):
    devs, axis, bounds, cols = _align(srcs)
    parts = [ops.alu(op, *[c[i] for c in cols], dtype=dtype) for i in range(len(devs))]
    return MultiNode(op, tuple(srcs), None, parts, axis, bounds)


def reduce(x, rop, axes):
    axes = tuple(sorted(set(axes)))
    parts = [ops.reduce(p, rop, axes) for p in x.parts]
    if x.axis is not None and x.axis in axes:
        parts = pending(parts, rop)
        return MultiNode(G.REDUCE, (x,), (rop, axes), parts, None)
    return MultiNode(G.REDUCE, (x,), (rop, axes), parts, x.axis, x.bounds)


def reshape(x, shape):
    shape = tuple(shape)
    if shape == x.shape:
        return x
    if x.axis is None:
        return MultiNode(G.RESHAPE, (x,), shape, [ops.reshape(p, shape) for p in x.parts], None)
    a, old = x.axis, x.shape
    before = prod(old[:a])
    k, acc = 0, 1
    while k < len(shape) and acc < before:
        acc *= shape[k]
        k += 1
    if acc != before or k >= len(shape) or shape[k] % old[a] and old[a] % shape[k]:
        raise MultiDeviceError(f"reshape {old} -> {shape} moves the sharded axis {a}")
    parts, bounds = [], []
    for p, (lo, hi) in zip(x.parts, x.bounds):
        n = hi - lo
        if shape[k] % old[a] == 0:          # merged with dimensions after it
            local = shape[k] // old[a] * n
            scale = shape[k] // old[a]
            b = (lo * scale, hi * scale)
        else:                               # split: every part must split the same way
            inner = old[a] // shape[k]
            if n % inner:
                raise MultiDeviceError(f"reshape {old} -> {shape}: a part of {n} along the sharded "
                                       f"axis does not split into {inner}")
            local, b = n // inner, (lo // inner, hi // inner)
        lshape = tuple(local if i == k else s for i, s in enumerate(shape))
        parts.append(ops.reshape(p, lshape))
        bounds.append(b)
    return MultiNode(G.RESHAPE, (x,), shape, parts, k, tuple(bounds))


def permute(x, order):
    order = tuple(order)
    if order == tuple(range(len(order))):
        return x
    parts = [ops.permute(p, order) for p in x.parts]
    axis = None if x.axis is None else order.index(x.axis)
    return MultiNode(G.PERMUTE, (x,), order, parts, axis, x.bounds)


def expand(x, shape):
    shape = tuple(shape)
    if shape == x.shape:
        return x
    if x.axis is not None and shape[x.axis] != x.shape[x.axis]:
        raise MultiDeviceError(f"expand {x.shape} -> {shape} along the sharded axis {x.axis}")
    parts = [ops.expand(p, shape if x.axis is None else _local(shape, x.axis, b))
             for p, b in zip(x.parts, x.bounds or [None] * len(x.parts))]
    return MultiNode(G.EXPAND, (x,), shape, parts, x.axis, x.bounds)


def _refuse_axis(x, what, touched):
    if x.axis is not None and touched:
        raise MultiDeviceError(f"{what} along the sharded axis {x.axis} of a tensor on {x.device}")


def pad(x, pads):
    pads = tuple(tuple(p) for p in pads)
    if all(p == (0, 0) for p in pads):
        return x
    _refuse_axis(x, "pad", x.axis is not None and pads[x.axis] != (0, 0))
    return MultiNode(G.PAD, (x,), pads, [ops.pad(p, pads) for p in x.parts], x.axis, x.bounds)


def shrink(x, box):
    box = tuple(tuple(b) for b in box)
    if all(b == (0, s) for b, s in zip(box, x.shape)):
        return x
    _refuse_axis(x, "shrink", x.axis is not None and box[x.axis] != (0, x.shape[x.axis]))
    parts = [ops.shrink(p, box if x.axis is None else
                        tuple((0, p.shape[i]) if i == x.axis else b for i, b in enumerate(box)))
             for p in x.parts]
    return MultiNode(G.SHRINK, (x,), box, parts, x.axis, x.bounds)


def flip(x, axes):
    _refuse_axis(x, "flip", x.axis in set(axes))
    return MultiNode(G.FLIP, (x,), tuple(axes), [ops.flip(p, axes) for p in x.parts], x.axis, x.bounds)


def contiguous(x):
    return MultiNode(G.CONTIGUOUS, (x,), None, [ops.contiguous(p) for p in x.parts], x.axis, x.bounds)


def copy(x, device):
    """To one device: gather (concatenate the slices, or take a replica)."""
    if isinstance(device, tuple):
        if device == x.device:
            return x
        raise MultiDeviceError(f"cannot move a tensor from {x.device} to {device}: gather it to "
                               f"one device, then shard again")
    if x.axis is None:
        src = next((p for p in x.parts if p.device == device), x.parts[0])
        return ops.copy(src, device)
    out = None
    for p, (lo, hi) in zip(x.parts, x.bounds):
        pads = [(0, 0)] * len(x.shape)
        pads[x.axis] = (lo, x.shape[x.axis] - hi)
        piece = ops.pad(ops.copy(ops.contiguous(p), device), pads)
        out = piece if out is None else ops.alu(_add_op(x.dtype), out, piece)
    return out


def _add_op(dtype):
    from tensor.loopir import Op
    return Op.OR if dtype.is_bool else Op.ADD


def assign(target, value):
    if not is_multi(value):
        raise MultiDeviceError(f"assign: value on {value.device}, tensor on {target.device}")
    parts = [ops.assign(t, v) for t, v in zip(target.parts, _slices_of(value, target.axis, target.bounds)
                                                 if target.axis is not None else value.parts)]
    return MultiNode(G.ASSIGN, (target, value), None, parts, target.axis, target.bounds)


# ---- the all-reduce ---------------------------------------------------------------------------

allreduce = ring    # the building block, usable on its own (tests, other collectives)


def settle(multis):
    """After their parts ran: an assign's MultiNode becomes a plain leaf, like a Node does."""
    for m in multis:
        if m.op is G.ASSIGN and m.realized:
            m.op, m.src, m.arg = G.BUFFER, (), None


def numpy_storage(node):
    """The values of a MultiNode as one host storage array (the slices gathered in order)."""
    import numpy as np
    from tensor.engine import realize_nodes
    parts = []
    for p in node.parts:
        base, st = p.view()
        if not (base.realized and st.is_contiguous and prod(base.shape) == prod(p.shape)):
            c = ops.contiguous(p)
            realize_nodes([c])
            base = c
        parts.append(base.buffer.storage().reshape(p.shape))
    if node.axis is None:
        return parts[0]
    return np.concatenate(parts, axis=node.axis)


def leaf(node):
    """A realized MultiNode as a graph leaf: one BUFFER node per part (a Parameter's node)."""
    parts = []
    for p in node.parts:
        base, st = p.view()
        if not (base.realized and st.is_contiguous and base.shape == p.shape):
            raise MultiDeviceError("a parameter's parts must be realized and contiguous")
        parts.append(ops.buffer(base.buffer, p.shape))
    return MultiNode(G.BUFFER, (), None, parts, node.axis, node.bounds)


def fresh(node, op):
    """A new MultiNode over new part nodes (``op`` RESHAPE: a detached view; CONTIGUOUS: a copy)."""
    parts = [Node(op, (p,), p.shape if op is G.RESHAPE else None, p.dtype, p.shape, p.device)
             for p in node.parts]
    return MultiNode(op, (node,), node.shape if op is G.RESHAPE else None, parts, node.axis, node.bounds)


def expand_nodes(nodes):
    """Nodes for the scheduler: a MultiNode stands for its parts."""
    out = []
    for n in nodes:
        if is_multi(n):
            out.extend(n.parts)
        else:
            out.append(n)
    return out
