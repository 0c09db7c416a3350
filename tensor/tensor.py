"""Tensor: PyTorch's names and semantics over the lazy primitive graph.

Nothing is computed until a value is asked for (``numpy()``, ``item()``, ``tolist()``,
``realize()``).  Operators broadcast like numpy and promote dtypes like PyTorch.  Methods
live in mixins by kind: :mod:`tensor.elementwise`, :mod:`tensor.movement`,
:mod:`tensor.reduce`, :mod:`tensor.nnops`, :mod:`tensor.random`; this module holds creation,
data access, broadcasting, autograd and assign.
"""
import math
import weakref

import numpy as np

from tensor import autograd, ops
from tensor import device as devices
from tensor.device import Buffer
from tensor.dtypes import (BY_NAME, DType, DTypeError, dtypes, from_numpy, from_numpy_values, result_type,
                           scalar_dtype, to_dtype)
from tensor.elementwise import ElementwiseMixin
from tensor.loopir import Op
from tensor.losses import LossMixin
from tensor.movement import MovementMixin
from tensor.nnops import NNMixin
from tensor.ops import G
from tensor.random import RandomMixin
from tensor import engine
from tensor.engine import realize_nodes
from tensor.reduce import ReduceMixin
from tensor.view import prod


class ShapeError(ValueError):
    """Shapes that do not fit an operation; the message names them."""


_leaves = weakref.WeakValueDictionary()   # id -> tensors the user asked gradients for
_pending_assigns = weakref.WeakValueDictionary()   # id -> tensors with an ASSIGN not yet run
_backward_roots = weakref.WeakValueDictionary()    # id -> lazy losses and grads of backward()


class _NoGrad:
    def __enter__(self):
        Tensor._grad_enabled.append(False)
        return self

    def __exit__(self, *exc):
        Tensor._grad_enabled.pop()

    def __call__(self, fn):
        import functools

        @functools.wraps(fn)
        def wrapper(*a, **k):
            with _NoGrad():
                return fn(*a, **k)
        return wrapper


def no_grad():
    """``with no_grad():`` (or ``@no_grad()``): operations inside record no gradients."""
    return _NoGrad()


def _host_array(data, dtype):
    arr = np.array(data, copy=True) if not isinstance(data, np.ndarray) else np.array(data, copy=True)
    if arr.dtype == object:
        raise DTypeError(f"cannot make a tensor from {type(data).__name__} of mixed or ragged data")
    if dtype is None:
        if arr.dtype.kind == "f" and not isinstance(data, np.ndarray):
            dtype = dtypes.default_float
        elif arr.dtype.kind in "iu" and not isinstance(data, np.ndarray):
            dtype = dtypes.default_int
        elif arr.size == 0 and not isinstance(data, np.ndarray):
            dtype = dtypes.default_float
        else:
            dtype = from_numpy(arr.dtype)
    return from_numpy_values(arr, dtype), dtype


def _with_dependent_assigns(targets):
    """Targets plus every pending assign that still reads a buffer these targets overwrite
    (an optimizer step's updates read each other's old values: they run together), and the
    lazy loss and gradients of a ``backward()`` that read one, so they can still be read after
    the step, as in PyTorch."""
    candidates = [(t.node, t.node.src[1]) for t in list(_pending_assigns.values())
                  if t.node.op is G.ASSIGN and not t.node.realized]
    for key, t in list(_backward_roots.items()):
        target = None if t.node.realized else _schedulable(t.node)
        if target is None:
            _backward_roots.pop(key, None)
        else:
            candidates.append((target, target))
    if not candidates:
        return targets
    written = _written_by(targets)
    chosen = {n.id for n in targets}
    while written:
        memo, extra = {}, []
        for node, value in candidates:
            # a value computed from a buffer's current contents, which the targets overwrite
            # (one that reads an older version is stale already and stays out)
            if node.id not in chosen and _reads(value, written, memo) == (True, False):
                extra.append(node)
                chosen.add(node.id)
        if not extra:
            break
        targets = targets + extra
        written = _written_by(extra) - written
    return targets


def _written_by(nodes):
    """ids of the buffers the unrealized assigns under ``nodes`` overwrite."""
    out = set()
    for n in ops.walk(nodes, stop=lambda n: n.realized):
        if n.op is G.ASSIGN:
            for target in (n.src[0].parts if n.is_multi else (n.src[0],)):   # per device part
                out.add(id(target.view()[0].buffer))
    return out


def _reads(value, written, memo):
    """(does ``value`` read a buffer in ``written``, does it read a buffer at an older version);
    ``memo`` is shared between calls with the same ``written`` (the candidates share graphs)."""
    for n in ops.walk([value], stop=lambda n: n.realized or n.id in memo):
        if n.id in memo:
            continue
        if n.realized and n.is_multi:           # on several devices: its parts' buffers
            bases = [p.view()[0] for p in n.parts]
            memo[n.id] = (any(id(b.buffer) in written for b in bases),
                          any(b.version != b.buffer.version for b in bases))
        elif n.realized:
            memo[n.id] = (id(n.buffer) in written, n.version != n.buffer.version)
        else:
            parts = [memo[s.id] for s in n.src]
            memo[n.id] = (any(p[0] for p in parts), any(p[1] for p in parts))
    return memo[value.id]


def _schedulable(n):
    """The node a realize schedules for a tensor holding ``n`` (None: nothing, or a copy)."""
    base, st = n.view()
    if n.realized or (base.realized and n is not base):
        return None
    if n.op in ops.MOVEMENT or n.op in (G.CONST, G.IOTA):
        return None if base.op in (G.CONST, G.IOTA) or base.realized else base
    return n


class Tensor(ElementwiseMixin, MovementMixin, ReduceMixin, NNMixin, LossMixin, RandomMixin):
    __slots__ = ("_node", "requires_grad", "grad", "__weakref__")
    __array_priority__ = 1000                  # numpy scalars defer to our operators
    _grad_enabled = [True]
    training = False                           # dropout is active only when True

    def __init__(self, data, dtype=None, device=None, requires_grad=False):
        dtype = to_dtype(dtype) if dtype is not None else None
        dev = devices.canonical(device)
        if isinstance(dev, tuple):              # several devices: made on the first, copied
            from tensor.multi import shard
            first = Tensor(data, dtype=dtype, device=dev[0])
            data = shard(first.node, dev, None) if not first.node.is_multi else first.node
        if isinstance(data, ops.Node):
            node = data
        elif isinstance(data, Tensor):
            node = data.node if dtype is None else ops.cast(data.node, dtype)
            node = ops.copy(node, dev) if device is not None else node
        elif isinstance(data, (bool, int, float)) and not isinstance(data, np.generic):
            node = ops.const(data, dtype or scalar_dtype(data), (), dev)
        else:
            storage, dtype = _host_array(data, dtype)
            buf = Buffer(dev, storage.size, dtype, initial=storage.reshape(-1))
            node = ops.buffer(buf, storage.shape)
        self._node = None
        self.node = node
        self.grad = None
        self.requires_grad = False
        if requires_grad:
            self.requires_grad_(True)

    # the node a Tensor holds is counted, so the scheduler keeps buffers the user can still read
    @property
    def node(self):
        return self._node

    @node.setter
    def node(self, n):
        if self._node is not None:
            self._node.refs -= 1
        n.refs += 1
        self._node = n

    def __del__(self):
        n = getattr(self, "_node", None)
        if n is not None:
            n.refs -= 1

    @classmethod
    def _wrap(cls, node, *parents):
        t = cls.__new__(cls)
        t._node = None
        t.node = node
        t.grad = None
        rg = Tensor._grad_enabled[-1] and any(p.requires_grad for p in parents)
        t.requires_grad = rg
        if rg and not node.requires_grad:
            node.requires_grad = True
        return t

    def requires_grad_(self, flag=True):
        if flag and not (self.dtype.is_float):
            raise DTypeError(f"only floating-point tensors can require gradients, not {self.dtype.name}")
        self.requires_grad = flag
        if flag:
            self.node.requires_grad = True
            _leaves[id(self)] = self
        else:
            _leaves.pop(id(self), None)
        return self

    # ---- properties ---------------------------------------------------------------------------
    @property
    def shape(self):
        return self.node.shape

    @property
    def dtype(self):
        return self.node.dtype

    @property
    def device(self):
        return self.node.device

    @property
    def ndim(self):
        return len(self.node.shape)

    def numel(self):
        return prod(self.shape)

    def size(self, dim=None):
        return self.shape if dim is None else self.shape[self._axis(dim)]

    def dim(self):
        return self.ndim

    def element_size(self):
        return self.dtype.itemsize

    @property
    def is_leaf(self):
        return not self.requires_grad or _leaves.get(id(self)) is self

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of a 0-d tensor")
        return self.shape[0]

    def __repr__(self):
        state = "realized" if self.node.view()[0].realized else "lazy"
        rg = ", requires_grad=True" if self.requires_grad else ""
        return f"<Tensor shape={self.shape} dtype={self.dtype.name} device={self.device} {state}{rg}>"

    def __hash__(self):
        return id(self)

    def __bool__(self):
        if self.numel() != 1:
            raise ValueError(f"the truth value of a tensor of shape {self.shape} is ambiguous")
        return bool(self.item())

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    # ---- creation -----------------------------------------------------------------------------
    @staticmethod
    def _shape_arg(shape):
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        shape = tuple(int(s) for s in shape)
        if any(s < 0 for s in shape):
            raise ShapeError(f"negative dimension in shape {shape}")
        return shape

    @classmethod
    def full(cls, shape, fill_value, dtype=None, device=None, requires_grad=False):
        shape = cls._shape_arg((shape,) if isinstance(shape, int) else tuple(shape))
        dtype = to_dtype(dtype) if dtype is not None else scalar_dtype(fill_value)
        t = cls(ops.const(fill_value, dtype, shape, devices.canonical(device)))
        return t.requires_grad_() if requires_grad else t

    @classmethod
    def zeros(cls, *shape, dtype=None, device=None, requires_grad=False):
        return cls.full(cls._shape_arg(shape), 0.0, dtype or dtypes.default_float, device, requires_grad)

    @classmethod
    def ones(cls, *shape, dtype=None, device=None, requires_grad=False):
        return cls.full(cls._shape_arg(shape), 1.0, dtype or dtypes.default_float, device, requires_grad)

    @classmethod
    def empty(cls, *shape, dtype=None, device=None, requires_grad=False):
        return cls.zeros(*shape, dtype=dtype, device=device, requires_grad=requires_grad)

    def full_like(self, fill_value, dtype=None, device=None, requires_grad=False):
        return Tensor.full(self.shape, fill_value, dtype or self.dtype, device or self.device, requires_grad)

    def zeros_like(self, dtype=None, device=None, requires_grad=False):
        return self.full_like(0, dtype, device, requires_grad)

    def ones_like(self, dtype=None, device=None, requires_grad=False):
        return self.full_like(1, dtype, device, requires_grad)

    def empty_like(self, dtype=None, device=None, requires_grad=False):
        return self.full_like(0, dtype, device, requires_grad)

    @classmethod
    def arange(cls, start, end=None, step=1, dtype=None, device=None, requires_grad=False):
        if end is None:
            start, end = 0, start
        if step == 0:
            raise ValueError("arange: step must be nonzero")
        n = max(0, math.ceil((end - start) / step))
        is_float = any(isinstance(v, float) for v in (start, end, step))
        dtype = to_dtype(dtype) if dtype is not None else \
            (dtypes.default_float if is_float else dtypes.default_int)
        dev = devices.canonical(device)
        idx = cls(ops.iota(n, dev))
        if dtype.is_float:
            out = idx.cast(dtypes.float64 if dtype is dtypes.float64 else dtypes.float32) * step + start
        else:
            out = idx.cast(dtype) * step + start
        out = out.cast(dtype)
        return out.requires_grad_() if requires_grad else out

    @classmethod
    def linspace(cls, start, end, steps, dtype=None, device=None, requires_grad=False):
        dtype = to_dtype(dtype) if dtype is not None else dtypes.default_float
        if steps < 0:
            raise ValueError("linspace: steps must be non-negative")
        if steps == 1:
            return cls.full((1,), start, dtype, device, requires_grad)
        wide = dtypes.float64 if dtype is dtypes.float64 else dtypes.float32
        idx = cls(ops.iota(steps, devices.canonical(device))).cast(wide)
        delta = (end - start) / (steps - 1)
        # from both ends, as PyTorch does, so the last value is exactly ``end``
        lo = idx * delta + start
        hi = end - (steps - 1 - idx) * delta
        out = (idx < steps // 2).where(lo, hi).cast(dtype)
        return out.requires_grad_() if requires_grad else out

    @classmethod
    def eye(cls, n, m=None, dtype=None, device=None, requires_grad=False):
        m = n if m is None else m
        dev = devices.canonical(device)
        r = cls(ops.iota(n, dev)).reshape(n, 1)
        c = cls(ops.iota(m, dev)).reshape(1, m)
        out = (r == c).cast(to_dtype(dtype) if dtype is not None else dtypes.default_float)
        return out.requires_grad_() if requires_grad else out

    # ---- broadcasting and promotion ------------------------------------------------------------
    def _to_tensor(self, x, dtype=None):
        if isinstance(x, Tensor):
            return x
        if isinstance(x, (bool, int, float)):
            return Tensor(ops.const(x, dtype or scalar_dtype(x), (), self.device))
        if isinstance(x, np.generic):
            return Tensor(ops.const(x.item(), dtype or from_numpy(x.dtype), (), self.device))
        return Tensor(x, dtype=dtype, device=self.device)

    def _binary_dtype(self, other):
        tensors = [t for t in (self, other) if isinstance(t, Tensor)]
        scalars = [scalar_dtype(x.item() if isinstance(x, np.generic) else x)
                   for x in (self, other) if not isinstance(x, Tensor)]
        dims = [t.dtype for t in tensors if t.ndim]
        zero = [t.dtype for t in tensors if not t.ndim]
        return result_type(dims, zero, scalars)

    @staticmethod
    def broadcast_shapes(*shapes):
        nd = max((len(s) for s in shapes), default=0)
        out = []
        for i in range(nd):
            dims = {s[len(s) - nd + i] for s in shapes if len(s) - nd + i >= 0}
            dims.discard(1)
            if len(dims) > 1:
                raise ShapeError("cannot broadcast shapes " + " and ".join(str(tuple(s)) for s in shapes))
            out.append(dims.pop() if dims else 1)
        return tuple(out)

    def _broadcast(self, other, dtype=None, reverse=False):
        """(a, b) as tensors of one shape and the promoted dtype (``dtype`` forces one)."""
        out_dt = dtype or self._binary_dtype(other)
        b = self._to_tensor(other, out_dt if not isinstance(other, Tensor) else None)
        a = self
        if a.device != b.device:
            raise devices.DeviceError(f"operands on different devices: {a.device} and {b.device}")
        shape = Tensor.broadcast_shapes(a.shape, b.shape)
        a, b = a.cast(out_dt).broadcast_to(shape), b.cast(out_dt).broadcast_to(shape)
        return (b, a) if reverse else (a, b)

    def _alu(self, op, *others, dtype=None):
        node = ops.alu(op, self.node, *[o.node for o in others], dtype=dtype)
        return Tensor._wrap(node, self, *others)

    # ---- data access --------------------------------------------------------------------------
    @staticmethod
    def pending_assigns():
        """Tensors whose assign() has not run yet (the jit realizes them with its outputs)."""
        return [t for t in list(_pending_assigns.values()) if not t.node.realized and
                t.node.op is G.ASSIGN]

    @staticmethod
    def realize_all(*tensors):
        """Realize several tensors in one schedule (shared work is computed once).

        A pending assign() runs when its tensor, or something that reads it, is realized."""
        targets, fix, made_from = [], [], {}
        for t in tensors:
            n = t.node
            base, st = n.view()
            if n.realized or (base.realized and n is not base):
                continue
            target = n
            if n.op in ops.MOVEMENT or n.op in (G.CONST, G.IOTA):
                if base.op in (G.CONST, G.IOTA) or base.realized:
                    target = ops.contiguous(n)
                    fix.append((n, target))
                else:
                    target = base
            targets.append(target)
            made_from[target.id] = n.id
        targets = _with_dependent_assigns(targets)
        if engine.capture is not None:
            # inside a jit capture: what existed before the call is state, realized outside it
            start = engine.capture_start
            old = [n for n in targets if made_from.get(n.id, n.id) < start]
            if old:
                saved, engine.capture = engine.capture, None
                try:
                    realize_nodes(old)
                finally:
                    engine.capture = saved
                targets = [n for n in targets if made_from.get(n.id, n.id) >= start]
        realize_nodes(targets)
        for n, c in fix:
            # the tensor's own node gets the buffer, so graphs built on it read the buffer
            # from now on (and see later assigns to it)
            for pn, pc in (zip(n.parts, c.parts) if n.is_multi else ((n, c),)):
                if pc.realized and not pn.realized:
                    pn.buffer, pn.version = pc.buffer, pc.version
        return tensors

    def realize(self):
        Tensor.realize_all(self)
        return self

    def _storage_numpy(self):
        self.realize()
        n = self.node
        if n.is_multi:
            from tensor.dtypes import to_numpy_values
            from tensor.multi import numpy_storage
            return to_numpy_values(numpy_storage(n), self.dtype).reshape(self.shape)
        base, st = n.view()
        if not (base.realized and st.is_contiguous and prod(base.shape) == self.numel()):
            c = ops.contiguous(n)
            realize_nodes([c])
            base = c
        from tensor.dtypes import to_numpy_values
        arr = to_numpy_values(base.buffer.storage(), self.dtype)
        return arr.reshape(self.shape)

    def numpy(self):
        """The values as a numpy array (bfloat16 comes back as float32)."""
        if self.numel() == 0:
            return np.zeros(self.shape, dtype=np.float32 if self.dtype is dtypes.bfloat16 else self.dtype.np)
        return self._storage_numpy()

    def item(self):
        if self.numel() != 1:
            raise ValueError(f"item() needs a tensor with one element, this one has shape {self.shape}")
        return self.numpy().reshape(-1)[0].item()

    def tolist(self):
        return self.numpy().tolist()

    def __array__(self, dtype=None, copy=None):
        a = self.numpy()
        return a.astype(dtype) if dtype is not None else a

    def __float__(self):
        return float(self.item())

    def __int__(self):
        return int(self.item())

    # ---- dtype and device -----------------------------------------------------------------------
    def cast(self, dtype):
        dtype = to_dtype(dtype)
        return self if dtype is self.dtype else self._alu(Op.CAST, dtype=dtype)

    def bitcast(self, dtype):
        dtype = to_dtype(dtype)
        if dtype.itemsize != self.dtype.itemsize:
            raise DTypeError(f"bitcast: {self.dtype.name} and {dtype.name} differ in size")
        return self if dtype is self.dtype else self._alu(Op.BITCAST, dtype=dtype)

    def to(self, *args, dtype=None, device=None):
        for a in args:                        # .to("float16"), .to("cpu"), .to(dtypes.half)...
            name = a.removeprefix("torch.").removeprefix("dtypes.") if isinstance(a, str) else None
            if isinstance(a, DType) or name in BY_NAME:
                dtype = a
            else:
                device = a
        out = self
        if device is not None and devices.canonical(device) != self.device:
            out = Tensor._wrap(ops.copy(ops.contiguous(out.node), devices.canonical(device)), out)
        return out.cast(dtype) if dtype is not None else out

    def float(self):
        return self.cast(dtypes.float32)

    def half(self):
        return self.cast(dtypes.float16)

    def double(self):
        return self.cast(dtypes.float64)

    def int(self):
        return self.cast(dtypes.int32)

    def long(self):
        return self.cast(dtypes.int64)

    def bool(self):
        return self.cast(dtypes.bool)

    def bfloat16(self):
        return self.cast(dtypes.bfloat16)

    def cpu(self):
        return self.to("CPU")

    # ---- autograd -------------------------------------------------------------------------------
    def detach(self):
        if self.node.is_multi:
            from tensor.multi import fresh
            return Tensor(fresh(self.node, G.RESHAPE))
        n = ops.Node(G.RESHAPE, (self.node,), self.shape, self.dtype, self.shape, self.device)
        return Tensor(n)

    def backward(self, gradient=None):
        if not self.requires_grad:
            raise RuntimeError("backward: this tensor does not require grad (no input to it "
                               "has requires_grad=True, or it was computed under no_grad)")
        if gradient is None:
            if self.numel() != 1:
                raise ShapeError(f"backward: grad can be implicitly created only for a tensor with "
                                 f"one element, this one has shape {self.shape}")
            g = ops.const(1.0, self.dtype, self.shape, self.device)
        else:
            gradient = self._to_tensor(gradient)
            if gradient.shape != self.shape:
                raise ShapeError(f"backward: gradient shape {gradient.shape} does not match "
                                 f"the tensor's shape {self.shape}")
            g = gradient.cast(self.dtype).node
        leaves = [t for t in list(_leaves.values()) if t.requires_grad]
        wanted = {t.node.id for t in leaves}
        if not self.node.realized:
            _backward_roots[id(self)] = self
        with no_grad():
            grads = autograd.gradients(self.node, g, wanted)
            for t in leaves:
                gn = grads.get(t.node.id)
                if gn is None:
                    continue
                gt = Tensor(gn)
                t.grad = gt if t.grad is None else t.grad + gt
                if not t.grad.node.realized:
                    _backward_roots[id(t.grad)] = t.grad

    # ---- in place ---------------------------------------------------------------------------------
    def assign(self, value):
        """Overwrite this tensor's contents in place (the buffer keeps its identity)."""
        value = self._to_tensor(value, self.dtype) if not isinstance(value, Tensor) else value
        if value.device != self.device:
            raise devices.DeviceError(f"assign: value on {value.device}, tensor on {self.device}")
        if self.requires_grad and _leaves.get(id(self)) is self and Tensor._grad_enabled[-1]:
            raise RuntimeError("assign: a leaf tensor that requires grad is used in an in-place "
                               "operation (wrap it in tensor.no_grad())")
        value = value.cast(self.dtype).broadcast_to(self.shape)
        target = self.node
        base, st = target.view()
        if not base.realized or not st.is_contiguous or base.shape != self.shape:
            if not base.realized:
                self.realize()
            base, st = self.node.view()
            if not st.is_contiguous:
                raise ShapeError("assign: the target is a view with a different layout; "
                                 "assign to the tensor it views")
        node = ops.assign(base, value.node)
        node.requires_grad = self.node.requires_grad
        self.node = node
        _pending_assigns[id(self)] = self
        return self

    def contiguous(self):
        return Tensor._wrap(ops.contiguous(self.node), self)

    def shard(self, devices, axis=None):
        """This tensor on several devices (:mod:`tensor.multi`): sliced along ``axis`` into
        near-equal parts, one per device, or (``axis=None``) copied whole to each."""
        from tensor.device import canonical
        from tensor.multi import shard
        if isinstance(devices, str):
            devices = (devices,)
        out = Tensor._wrap(shard(self.node, tuple(canonical(d) for d in devices), axis), self)
        if self.requires_grad and _leaves.get(id(self)) is self:
            out.requires_grad_(True)              # a sharded parameter is still a parameter
        return out

    def clone(self):
        if self.node.is_multi:
            from tensor.multi import fresh
            return Tensor._wrap(fresh(self.node, G.CONTIGUOUS), self)
        return Tensor._wrap(ops.Node(G.CONTIGUOUS, (self.node,), None, self.dtype, self.shape,
                                     self.device), self)

    def _inplace(self, value):
        return self.assign(value)

    def __iadd__(self, x):
        return self._inplace(self + x)

    def __isub__(self, x):
        return self._inplace(self - x)

    def __imul__(self, x):
        return self._inplace(self * x)

    def __itruediv__(self, x):
        return self._inplace(self / x)

    def _axis(self, axis, ndim=None):
        nd = self.ndim if ndim is None else ndim
        if not isinstance(axis, int):
            raise TypeError(f"axis must be an int, got {type(axis).__name__}")
        if not (-max(nd, 1) <= axis < max(nd, 1)):
            raise IndexError(f"axis {axis} is out of range for a tensor of {nd} dimensions "
                             f"(shape {self.shape})")
        return axis % max(nd, 1)

    no_grad = staticmethod(no_grad)
    cat = staticmethod(MovementMixin.cat_)
    stack = staticmethod(MovementMixin.stack_)
