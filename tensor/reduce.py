"""Reductions: sum/max are primitives; mean, var, prod, argmax, softmax... are built on them.

As in PyTorch, ``sum`` of integers or bools gives int64, float16/bfloat16 sums accumulate
in float32, ``max(dim=...)`` returns (values, indices), ``amax`` the values only, and ``mean``
of an integer tensor is an error.
"""
from collections import namedtuple

from tensor import ops
from tensor.dtypes import DTypeError, dtypes, to_dtype
from tensor.view import prod

MaxResult = namedtuple("MaxResult", ["values", "indices"])


class ReduceMixin:
    __slots__ = ()

    def _axes(self, axis, dim):
        if axis is None:
            axis = dim
        if axis is None:
            return tuple(range(self.ndim))
        axes = axis if isinstance(axis, (tuple, list)) else (axis,)
        out = tuple(sorted({self._axis(a) for a in axes}))
        return out if self.ndim else ()

    def _reduce(self, op, axes, keepdim):
        from tensor.tensor import Tensor
        out = Tensor._wrap(ops.reduce(self.node, op, axes), self)
        if not keepdim:
            out = out.reshape(tuple(s for i, s in enumerate(self.shape) if i not in axes))
        return out

    def _sum_keep_dtype(self, axes, keepdim=False):
        return self._reduce("add", axes, keepdim)

    def sum(self, axis=None, keepdim=False, dim=None, dtype=None):
        axes = self._axes(axis, dim)
        if dtype is not None:
            out_dt = to_dtype(dtype)
        elif self.dtype.is_bool or self.dtype.is_int:
            out_dt = dtypes.int64
        else:
            out_dt = self.dtype
        acc = dtypes.float32 if out_dt in (dtypes.float16, dtypes.bfloat16) else out_dt
        return self.cast(acc)._reduce("add", axes, keepdim).cast(out_dt)

    def mean(self, axis=None, keepdim=False, dim=None, dtype=None):
        if not self.dtype.is_float and dtype is None:
            raise DTypeError(f"mean: needs a floating-point tensor, got {self.dtype.name} "
                             "(cast it first, or pass dtype=)")
        axes = self._axes(axis, dim)
        n = prod(self.shape[a] for a in axes)
        out_dt = to_dtype(dtype) if dtype is not None else self.dtype
        acc = dtypes.float32 if out_dt in (dtypes.float16, dtypes.bfloat16) else out_dt
        s = self.cast(acc)._reduce("add", axes, keepdim)    # divide before narrowing
        out = s * (1.0 / n) if n else s * float("nan")
        return out.cast(out_dt)

    def var(self, axis=None, keepdim=False, dim=None, correction=None, unbiased=None):
        if correction is None:
            correction = 1 if unbiased is None or unbiased else 0
        axes = self._axes(axis, dim)
        n = prod(self.shape[a] for a in axes)
        dev = self - self.mean(axes, keepdim=True)
        ss = (dev * dev).sum(axes, keepdim)
        d = n - correction
        return ss * (1.0 / d) if d > 0 else ss * float("nan") if n else ss * float("nan")

    def std(self, axis=None, keepdim=False, dim=None, correction=None, unbiased=None):
        return self.var(axis, keepdim, dim, correction, unbiased).sqrt()

    def var_mean(self, axis=None, keepdim=False, dim=None, correction=None):
        return self.var(axis, keepdim, dim, correction), self.mean(axis, keepdim, dim)

    def amax(self, axis=None, keepdim=False, dim=None):
        axes = self._axes(axis, dim)
        if any(self.shape[a] == 0 for a in axes):
            raise ValueError(f"amax: cannot reduce over an empty dimension (shape {self.shape})")
        return self._reduce("max", axes, keepdim)

    def amin(self, axis=None, keepdim=False, dim=None):
        axes = self._axes(axis, dim)
        if any(self.shape[a] == 0 for a in axes):
            raise ValueError(f"amin: cannot reduce over an empty dimension (shape {self.shape})")
        if self.dtype.is_bool:
            return self.logical_not()._reduce("max", axes, keepdim).logical_not()
        if self.dtype.is_unsigned:
            return (self.bitwise_not()._reduce("max", axes, keepdim)).bitwise_not()
        return (-self)._reduce("max", axes, keepdim).neg()

    def max(self, axis=None, keepdim=False, dim=None):
        from tensor.tensor import Tensor
        if isinstance(axis, Tensor):
            return self.maximum(axis)
        if axis is None and dim is None:
            return self.amax()
        return MaxResult(self.amax(axis, keepdim, dim), self.argmax(axis if axis is not None else dim, keepdim))

    def min(self, axis=None, keepdim=False, dim=None):
        from tensor.tensor import Tensor
        if isinstance(axis, Tensor):
            return self.minimum(axis)
        if axis is None and dim is None:
            return self.amin()
        return MaxResult(self.amin(axis, keepdim, dim), self.argmin(axis if axis is not None else dim, keepdim))

    def argmax(self, axis=None, keepdim=False, dim=None):
        from tensor.tensor import Tensor
        if axis is None:
            axis = dim
        if axis is None:
            return self.flatten().argmax(0)
        d = self._axis(axis)
        n = self.shape[d]
        if n == 0:
            raise ValueError(f"argmax: cannot reduce over an empty dimension (shape {self.shape})")
        m = self.amax(d, keepdim=True).detach()
        hit = self == m
        if self.dtype.is_float:
            hit = hit.logical_or(self != self)        # NaN is the maximum, as in PyTorch
        shape = tuple(n if i == d else 1 for i in range(self.ndim))
        rev = Tensor(ops.iota(n, self.device)).cast(dtypes.int32).reshape(shape) * -1 + n
        first = hit.where(rev, 0).amax(d, keepdim)
        return (first * -1 + n).cast(dtypes.int64)

    def argmin(self, axis=None, keepdim=False, dim=None):
        if self.dtype.is_bool:
            return self.logical_not().argmax(axis, keepdim, dim)
        if self.dtype.is_unsigned:
            return self.bitwise_not().argmax(axis, keepdim, dim)
        return (-self).argmax(axis, keepdim, dim)

    def any(self, axis=None, keepdim=False, dim=None):
        return self.cast(dtypes.bool)._reduce("max", self._axes(axis, dim), keepdim)

    def all(self, axis=None, keepdim=False, dim=None):
        return self.logical_not().any(axis, keepdim, dim).logical_not()

    def prod(self, axis=None, keepdim=False, dim=None, dtype=None):
        axes = self._axes(axis, dim)
        out_dt = to_dtype(dtype) if dtype is not None else \
            (dtypes.int64 if self.dtype.is_int or self.dtype.is_bool else self.dtype)
        rest = [i for i in range(self.ndim) if i not in axes]
        x = self.cast(out_dt).permute(rest + list(axes))
        n = prod(self.shape[a] for a in axes)
        x = x.reshape(tuple(self.shape[i] for i in rest) + (n,))
        if n == 0:
            out = x.sum(-1, keepdim=True).cast(out_dt) * 0 + 1
        else:
            size, level = 1, 0
            while size < n:
                size *= 2
            if size != n:
                x = x.pad([(0, 0)] * (x.ndim - 1) + [(0, size - n)], value=1)
            while x.shape[-1] > 1:
                half = x.shape[-1] // 2
                x = x[..., :half] * x[..., half:]
                level += 1
                if level % 4 == 0 and x.shape[-1] > 1:
                    x = x.contiguous()              # keep each kernel's tree small
            out = x
        out = out.reshape(tuple(self.shape[i] for i in rest))
        if keepdim:
            out = out.reshape(tuple(1 if i in axes else s for i, s in enumerate(self.shape)))
        return out

    def logsumexp(self, axis=None, keepdim=False, dim=None):
        axes = self._axes(axis, dim)
        x = self._f()
        m = x.amax(axes, keepdim=True).detach()
        m = m.isinf().where(0.0, m)
        out = (x - m).exp().sum(axes, keepdim=True).log() + m
        return out if keepdim else out.reshape(tuple(s for i, s in enumerate(self.shape) if i not in axes))

    def softmax(self, dim=-1, dtype=None):
        x = self._f() if dtype is None else self.cast(dtype)
        d = self._axis(dim)
        m = x.amax(d, keepdim=True).detach()
        e = (x - m).exp()
        return e / e.sum(d, keepdim=True)

    def log_softmax(self, dim=-1, dtype=None):
        x = self._f() if dtype is None else self.cast(dtype)
        d = self._axis(dim)
        m = x.amax(d, keepdim=True).detach()
        shifted = x - m
        return shifted - shifted.exp().sum(d, keepdim=True).log()

    def cumsum(self, dim=0, dtype=None):
        from tensor.tensor import Tensor
        d = self._axis(dim)
        out_dt = to_dtype(dtype) if dtype is not None else \
            (dtypes.int64 if self.dtype.is_int or self.dtype.is_bool else self.dtype)
        if self.ndim == 0:
            return self.cast(out_dt)
        n = self.shape[d]
        x = self.cast(out_dt).transpose(d, -1)
        i = Tensor(ops.iota(n, self.device)).reshape(n, 1)
        j = Tensor(ops.iota(n, self.device)).reshape(1, n)
        lower = j <= i                                     # (n, n): row i sums columns j <= i
        tri = lower.where(x.unsqueeze(-2).expand(x.shape[:-1] + (n, n)), 0)
        out = tri.sum(-1, dtype=out_dt)
        return out.transpose(d, -1)
