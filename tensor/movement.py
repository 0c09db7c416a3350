"""Movement Tensor methods: views (no copy, no kernel), indexing, cat/stack/split.

Everything here is the six movement primitives (reshape, permute, expand, pad, shrink,
flip), except indexing with integer tensors, which is a one-hot select-and-sum (a gather
that stays in the primitive graph and so has a gradient; embeddings use it).
"""
from tensor import ops
from tensor.dtypes import dtypes
from tensor.view import prod


def _shape_error(msg):
    from tensor.tensor import ShapeError
    return ShapeError(msg)


def _flat_args(args):
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        return tuple(args[0])
    return tuple(args)


class MovementMixin:
    __slots__ = ()

    def _mv(self, fn, arg):
        from tensor.tensor import Tensor
        return Tensor._wrap(fn(self.node, arg), self)

    # ---- the primitives ------------------------------------------------------------------------
    def reshape(self, *shape):
        shape = _flat_args(shape)
        shape = tuple(int(s) for s in shape)
        if shape.count(-1) > 1:
            raise _shape_error(f"reshape: only one dimension can be -1, got {shape}")
        n = self.numel()
        if -1 in shape:
            known = prod(s for s in shape if s != -1)
            if known == 0 or n % known:
                raise _shape_error(f"reshape: shape {shape} is invalid for input of size {n} "
                                   f"(shape {self.shape})")
            shape = tuple(n // known if s == -1 else s for s in shape)
        if any(s < 0 for s in shape) or prod(shape) != n:
            raise _shape_error(f"reshape: shape {shape} is invalid for input of size {n} "
                               f"(shape {self.shape})")
        return self._mv(ops.reshape, shape)

    view = reshape

    def permute(self, *dims):
        dims = _flat_args(dims)
        order = tuple(self._axis(d) for d in dims)
        if sorted(order) != list(range(self.ndim)):
            raise _shape_error(f"permute: {dims} is not a permutation of the {self.ndim} "
                               f"dimensions of shape {self.shape}")
        return self._mv(ops.permute, order)

    def expand(self, *sizes):
        sizes = _flat_args(sizes)
        if len(sizes) < self.ndim:
            raise _shape_error(f"expand: {sizes} has fewer dimensions than shape {self.shape}")
        x = self.reshape((1,) * (len(sizes) - self.ndim) + self.shape) if len(sizes) > self.ndim else self
        new = []
        for s, old in zip(sizes, x.shape):
            s = old if s == -1 else s
            if old != 1 and s != old:
                raise _shape_error(f"expand: cannot expand shape {self.shape} to {tuple(sizes)}")
            new.append(s)
        return x._mv(ops.expand, tuple(new))

    def broadcast_to(self, *shape):
        shape = _flat_args(shape)
        if shape == self.shape:
            return self
        from tensor.tensor import Tensor
        if Tensor.broadcast_shapes(self.shape, shape) != tuple(shape):
            raise _shape_error(f"cannot broadcast shapes {self.shape} and {tuple(shape)}")
        return self.expand(shape)

    def pad(self, padding, mode="constant", value=0.0):
        """PyTorch's F.pad order (last dimension first: (left, right, top, bottom, ...)) or a
        sequence of (before, after) pairs per dimension, first dimension first; negative
        amounts crop."""
        if mode != "constant":
            raise ValueError(f"pad: only mode='constant' is supported, got {mode!r}")
        padding = list(padding)
        if padding and isinstance(padding[0], (tuple, list)) or any(p is None for p in padding):
            pairs = [(0, 0) if p is None else tuple(p) for p in padding]
            if len(pairs) != self.ndim:
                raise _shape_error(f"pad: {len(pairs)} pairs for a tensor of {self.ndim} dimensions")
        else:
            if len(padding) % 2 or len(padding) // 2 > self.ndim:
                raise _shape_error(f"pad: padding {tuple(padding)} does not fit shape {self.shape}")
            pairs = [(0, 0)] * self.ndim
            for i in range(len(padding) // 2):
                pairs[self.ndim - 1 - i] = (padding[2 * i], padding[2 * i + 1])
        crop = [(max(-lo, 0), s - max(-hi, 0)) for (lo, hi), s in zip(pairs, self.shape)]
        if any(lo > hi for lo, hi in crop):
            raise _shape_error(f"pad: negative padding {pairs} crops more than shape {self.shape}")
        x = self.shrink(crop)
        grow = tuple((max(lo, 0), max(hi, 0)) for lo, hi in pairs)
        out = x._mv(ops.pad, grow)
        if value != 0 and any(p != (0, 0) for p in grow):
            inside = x.ones_like(dtype=dtypes.bool)._mv(ops.pad, grow)
            out = inside.where(out, value)
        return out

    def shrink(self, bounds):
        bounds = tuple((0, s) if b is None else (int(b[0]), int(b[1])) for b, s in zip(bounds, self.shape))
        if any(not (0 <= lo <= hi <= s) for (lo, hi), s in zip(bounds, self.shape)):
            raise _shape_error(f"shrink: bounds {bounds} do not fit shape {self.shape}")
        return self._mv(ops.shrink, bounds)

    def flip(self, *dims):
        dims = _flat_args(dims)
        return self._mv(ops.flip, tuple(self._axis(d) for d in dims))

    # ---- derived views -------------------------------------------------------------------------
    def flatten(self, start_dim=0, end_dim=-1):
        if self.ndim == 0:
            return self.reshape(1)
        s, e = self._axis(start_dim), self._axis(end_dim)
        return self.reshape(self.shape[:s] + (prod(self.shape[s:e + 1]),) + self.shape[e + 1:])

    def unflatten(self, dim, sizes):
        d = self._axis(dim)
        return self.reshape(self.shape[:d] + tuple(sizes) + self.shape[d + 1:])

    def unsqueeze(self, dim):
        d = self._axis(dim, self.ndim + 1)
        return self.reshape(self.shape[:d] + (1,) + self.shape[d:])

    def squeeze(self, dim=None):
        if dim is None:
            return self.reshape(tuple(s for s in self.shape if s != 1))
        dims = {self._axis(d) for d in (dim if isinstance(dim, (tuple, list)) else (dim,))} \
            if self.ndim else set()
        return self.reshape(tuple(s for i, s in enumerate(self.shape) if not (i in dims and s == 1)))

    def transpose(self, dim0=-2, dim1=-1):
        order = list(range(self.ndim))
        a, b = self._axis(dim0), self._axis(dim1)
        order[a], order[b] = order[b], order[a]
        return self.permute(order)

    swapaxes = transpose

    @property
    def T(self):
        return self.permute(tuple(reversed(range(self.ndim))))

    @property
    def mT(self):
        return self.transpose(-2, -1)

    def expand_as(self, other):
        return self.expand(other.shape)

    def view_as(self, other):
        return self.reshape(other.shape)

    def repeat(self, *sizes):
        sizes = _flat_args(sizes)
        if len(sizes) < self.ndim:
            raise _shape_error(f"repeat: {len(sizes)} repeat counts for a tensor of {self.ndim} "
                               "dimensions")
        shape = (1,) * (len(sizes) - self.ndim) + self.shape
        x = self.reshape(tuple(d for s in shape for d in (1, s)))
        x = x.expand(tuple(d for r, s in zip(sizes, shape) for d in (r, s)))
        return x.reshape(tuple(r * s for r, s in zip(sizes, shape)))

    def tile(self, *sizes):
        sizes = _flat_args(sizes)
        return self.repeat((1,) * (self.ndim - len(sizes)) + tuple(sizes))

    def split(self, split_size_or_sections, dim=0):
        d = self._axis(dim)
        n = self.shape[d]
        if isinstance(split_size_or_sections, int):
            if split_size_or_sections <= 0:
                raise ValueError("split: split size must be positive")
            sizes = [min(split_size_or_sections, n - i) for i in range(0, n, split_size_or_sections)] or [0]
        else:
            sizes = list(split_size_or_sections)
            if sum(sizes) != n:
                raise _shape_error(f"split: sections {sizes} do not add up to {n} (dimension {d} "
                                   f"of shape {self.shape})")
        out, start = [], 0
        for s in sizes:
            out.append(self.shrink([(start, start + s) if i == d else None for i in range(self.ndim)]))
            start += s
        return tuple(out)

    def chunk(self, chunks, dim=0):
        if chunks <= 0:
            raise ValueError("chunk: chunks must be positive")
        n = self.shape[self._axis(dim)]
        return self.split(max(1, -(-n // chunks)), dim)

    @staticmethod
    def cat_(tensors, dim=0):
        tensors = list(tensors)
        if not tensors:
            raise ValueError("cat: needs at least one tensor")
        first = tensors[0]
        d = first._axis(dim)
        for t in tensors[1:]:
            if t.ndim != first.ndim or any(a != b for i, (a, b) in enumerate(zip(t.shape, first.shape)) if i != d):
                raise _shape_error(f"cat: shapes {first.shape} and {t.shape} differ outside "
                                   f"dimension {d}")
        dt = first.dtype
        for t in tensors[1:]:
            dt = first._binary_dtype(t) if t.dtype is not dt else dt
        total = sum(t.shape[d] for t in tensors)
        out, start = None, 0
        for t in tensors:
            pads = [(0, 0)] * first.ndim
            pads[d] = (start, total - start - t.shape[d])
            p = t.cast(dt).pad(pads)
            out = p if out is None else (out + p if not dt.is_bool else out.logical_or(p))
            start += t.shape[d]
        return out

    @staticmethod
    def stack_(tensors, dim=0):
        tensors = list(tensors)
        if not tensors:
            raise ValueError("stack: needs at least one tensor")
        d = tensors[0]._axis(dim, tensors[0].ndim + 1)
        for t in tensors[1:]:
            if t.shape != tensors[0].shape:
                raise _shape_error(f"stack: shapes {tensors[0].shape} and {t.shape} differ")
        return MovementMixin.cat_([t.unsqueeze(d) for t in tensors], d)

    # ---- indexing ------------------------------------------------------------------------------
    def __getitem__(self, index):
        from tensor.tensor import Tensor
        if not isinstance(index, tuple):
            index = (index,)
        index = tuple(Tensor(i, device=self.device) if isinstance(i, list) else i for i in index)
        for i in index:
            if isinstance(i, Tensor) and i.dtype.is_bool:
                raise TypeError("indexing with a bool tensor gives a data-dependent shape, which "
                                "a lazy tensor cannot have; use where() instead")
        consumed = sum(1 for i in index if i is not None and i is not Ellipsis)
        if consumed > self.ndim:
            raise IndexError(f"too many indices ({consumed}) for a tensor of {self.ndim} dimensions "
                             f"(shape {self.shape})")
        ellipses = sum(1 for i in index if i is Ellipsis)
        if ellipses > 1:
            raise IndexError("an index can have only one Ellipsis")
        expanded = []
        for i in index:
            if i is Ellipsis:
                expanded.extend([slice(None)] * (self.ndim - consumed))
            else:
                expanded.append(i)
        if not ellipses:
            expanded.extend([slice(None)] * (self.ndim - consumed))
        x, dim, out_dim = self, 0, 0
        advanced = []                       # (output dim position, index tensor)
        for i in expanded:
            if i is None:
                x = x.unsqueeze(out_dim)
                out_dim += 1
            elif isinstance(i, Tensor) or (hasattr(i, "__array__") and not isinstance(i, (int, slice))):
                t = i if isinstance(i, Tensor) else Tensor(i, device=self.device)
                advanced.append((out_dim, t))
                out_dim += 1
                dim += 1
            elif isinstance(i, slice):
                x = x._slice(out_dim, i)
                out_dim += 1
                dim += 1
            else:
                n = x.shape[out_dim]
                k = int(i)
                if not -n <= k < n:
                    raise IndexError(f"index {k} is out of bounds for dimension {dim} with size {n}")
                k %= n
                x = x.shrink([(k, k + 1) if j == out_dim else None for j in range(x.ndim)])
                x = x.reshape(x.shape[:out_dim] + x.shape[out_dim + 1:])
                dim += 1
        if advanced:
            x = x._gather_advanced(advanced)
        return x

    def __setitem__(self, index, value):
        raise TypeError("item assignment is not supported: tensors are lazy values; build the "
                        "new value with where() or pad() and store it with assign()")

    def _slice(self, d, s):
        n = self.shape[d]
        start, stop, step = s.indices(n)
        count = len(range(start, stop, step))
        x = self
        if step < 0:
            x = x.flip(d)
            start, step = n - 1 - start, -step
        if count == 0:
            return x.shrink([(0, 0) if j == d else None for j in range(x.ndim)])
        end = start + count * step
        if end > n:
            x = x.pad([(0, end - n) if j == d else (0, 0) for j in range(x.ndim)])
        x = x.shrink([(start, end) if j == d else None for j in range(x.ndim)])
        if step > 1:
            sh = x.shape
            x = x.reshape(sh[:d] + (count, step) + sh[d + 1:])
            x = x.shrink([(0, 1) if j == d + 1 else None for j in range(x.ndim)])
            x = x.reshape(sh[:d] + (count,) + sh[d + 1:])
        return x

    def _gather_advanced(self, advanced):
        """x[..., I1, ..., Ik, ...] for integer tensors I: a one-hot select and sum."""
        from tensor.tensor import Tensor
        dims = [d for d, _ in advanced]
        idx = [t for _, t in advanced]
        for d, t in advanced:
            if not (t.dtype.is_int):
                raise TypeError(f"tensors used as indices must be integer tensors, got {t.dtype.name}")
            _check_host_index(t, self.shape[d], d)
        bshape = Tensor.broadcast_shapes(*[t.shape for t in idx])
        rest = [d for d in range(self.ndim) if d not in dims]
        x = self.permute(rest + dims)             # (rest..., n1..nk)
        nr, nb, k = len(rest), len(bshape), len(dims)
        x = x.reshape(x.shape[:nr] + (1,) * nb + x.shape[nr:])
        mask = None
        for j, (d, t) in enumerate(advanced):
            n = self.shape[d]
            t = t.broadcast_to(bshape)
            t = (t < 0).where(t + n, t)
            shape = (1,) * (nr + nb) + tuple(n if i == j else 1 for i in range(k))
            ar = Tensor(ops.iota(n, self.device)).cast(t.dtype).reshape(shape)
            m = t.reshape((1,) * nr + bshape + (1,) * k) == ar
            mask = m if mask is None else mask.logical_and(m)
        picked = mask.where(x, 0)
        out = picked._sum_keep_dtype(tuple(range(nr + nb, nr + nb + k)))
        out = out.reshape(out.shape[:nr + nb])
        # PyTorch: adjacent advanced indices keep their place, separated ones go first
        adjacent = dims == list(range(dims[0], dims[0] + k))
        first = dims[0] if adjacent else 0
        order = list(range(first)) + list(range(nr, nr + nb)) + list(range(first, nr))
        out = out.permute(order)
        return out

    def gather(self, dim, index):
        """torch.gather: out[..., j, ...] = x[..., index[..., j, ...], ...] along ``dim``."""
        from tensor.tensor import Tensor
        d = self._axis(dim)
        if index.ndim != self.ndim:
            raise _shape_error(f"gather: index has {index.ndim} dimensions, input {self.ndim}")
        if any(index.shape[i] > self.shape[i] for i in range(self.ndim) if i != d):
            raise _shape_error(f"gather: index shape {index.shape} is larger than input shape "
                               f"{self.shape} outside dimension {d}")
        _check_host_index(index, self.shape[d], d)
        n = self.shape[d]
        x = self.shrink([None if i == d else (0, index.shape[i]) for i in range(self.ndim)])
        x = x.unsqueeze(-1).transpose(d, -1)                     # size 1 at d, n at the end
        ar = Tensor(ops.iota(n, self.device)).cast(index.dtype)
        idx = (index < 0).where(index + n, index)
        mask = idx.unsqueeze(-1) == ar
        return mask.where(x, 0)._sum_keep_dtype((self.ndim,)).reshape(index.shape)


def _check_host_index(t, n, dim):
    """Indices still held on the host (a tensor made from a list or array) are checked now."""
    node = t.node
    base, _ = node.view()
    buf = base.buffer if base.op is ops.G.BUFFER else None
    if buf is not None and buf._pending is not None and buf.size:
        import numpy as np
        vals = np.asarray(buf._pending)
        bad = vals[(vals < -n) | (vals >= n)]
        if bad.size:
            raise IndexError(f"index {int(bad[0])} is out of bounds for dimension {dim} with size {n}")
