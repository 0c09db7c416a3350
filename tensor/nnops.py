"""Matmul, convolution, pooling, dropout, one_hot: multiplies and sums over views.

A matmul is ``(a[..., M, 1, K] * b[..., 1, N, K]).sum(-1)``, one kernel.  A convolution
first builds the sliding-window view of its input with movement primitives only (see
:meth:`NNMixin._windows`), then multiplies by the weights and sums: one kernel again, no
im2col copy.  Pooling is a max or a mean over the same window view.
"""
from tensor import ops
from tensor.dtypes import DTypeError, dtypes


def _pair(x, n=2):
    return tuple(x) if isinstance(x, (tuple, list)) else (x,) * n


def _shape_error(msg):
    from tensor.tensor import ShapeError
    return ShapeError(msg)


class NNMixin:
    __slots__ = ()

    # ---- matmul --------------------------------------------------------------------------------
    def matmul(self, other):
        a, b = self, other
        if a.ndim == 0 or b.ndim == 0:
            raise _shape_error(f"matmul: both operands need at least one dimension, got shapes "
                               f"{a.shape} and {b.shape}")
        k_a = a.shape[-1]
        k_b = b.shape[-2] if b.ndim > 1 else b.shape[0]
        if k_a != k_b:
            raise _shape_error(f"matmul: {a.shape} @ {b.shape}: inner dimensions {k_a} and {k_b} differ")
        dt = a._binary_dtype(b)
        if dt.is_bool:
            raise DTypeError("matmul: bool tensors are not supported")
        a, b = a.cast(dt), b.cast(dt)
        va, vb = a.ndim == 1, b.ndim == 1
        if va:
            a = a.reshape(1, k_a)
        if vb:
            b = b.reshape(k_b, 1)
        from tensor.tensor import Tensor
        batch = Tensor.broadcast_shapes(a.shape[:-2], b.shape[:-2])
        M, N = a.shape[-2], b.shape[-1]
        acc = dtypes.float32 if dt in (dtypes.float16, dtypes.bfloat16) else dt
        x = a.cast(acc).reshape(a.shape[:-1] + (1, k_a)).broadcast_to(batch + (M, N, k_a))
        y = b.cast(acc).transpose(-1, -2).reshape(b.shape[:-2] + (1, N, k_b)).broadcast_to(batch + (M, N, k_a))
        out = (x * y)._reduce("add", (len(batch) + 2,), False).cast(dt)
        if va:
            out = out.reshape(out.shape[:-2] + (N,))
        if vb:
            out = out.reshape(out.shape[:-1]) if not va else out.reshape(out.shape[:-1])
        return out

    def dot(self, other):
        if self.ndim != 1 or other.ndim != 1:
            raise _shape_error(f"dot: needs two 1-D tensors, got shapes {self.shape} and {other.shape}")
        return self.matmul(other)

    def linear(self, weight, bias=None):
        """x @ weight.T + bias (PyTorch's F.linear)."""
        out = self.matmul(weight.transpose(-1, -2) if weight.ndim > 1 else weight)
        return out + bias if bias is not None else out

    # ---- windows -------------------------------------------------------------------------------
    def _windows(self, kernel, stride, dilation):
        """(..., H, W) -> (..., OH, OW, KH, KW) sliding windows, as a view.

        For one dimension of length i, kernel k, stride s, dilation d and o outputs: pad to a
        length L, repeat it enough times, flatten, and read it back in rows of L + d: row j
        then starts j*d elements further into the data, so element (j, o*s) is x[j*d + o*s].
        """
        nd = len(kernel)
        x = self
        lead = x.shape[:-nd]
        for axis in range(nd):
            pos = len(lead) + axis * 2                    # each done dim leaves (o, k) pairs
            i, k, s, d = x.shape[pos], kernel[axis], stride[axis], dilation[axis]
            o = (i - d * (k - 1) - 1) // s + 1
            if o <= 0:
                raise _shape_error(f"window of {k} (dilation {d}) does not fit an input of size {i}")
            before, after = x.shape[:pos], x.shape[pos + 1:]
            if d == 1 and s >= k:
                # windows that do not overlap: rows of s elements, keep the first k of each
                # (a plain reshape, whose gradient is a reshape too)
                need = o * s
                if need > i:
                    x = x.pad([(0, 0)] * pos + [(0, need - i)] + [(0, 0)] * len(after))
                x = x.shrink([None] * pos + [(0, need)] + [None] * len(after))
                x = x.reshape(before + (o, s) + after)
                x = x.shrink([None] * (pos + 1) + [(0, k)] + [None] * len(after))
                continue
            L = max(i + d, o * s - d)
            reps = -(-k * (L + d) // L)
            x = x.pad([(0, 0)] * pos + [(0, L - i)] + [(0, 0)] * len(after))
            x = x.reshape(before + (1, L) + after).expand(before + (reps, L) + after)
            x = x.reshape(before + (reps * L,) + after)
            x = x.shrink([None] * pos + [(0, k * (L + d))] + [None] * len(after))
            x = x.reshape(before + (k, L + d) + after)
            x = x.shrink([None] * (pos + 1) + [(0, o * s)] + [None] * len(after))
            x = x.reshape(before + (k, o, s) + after)
            x = x.shrink([None] * (pos + 2) + [(0, 1)] + [None] * len(after))
            x = x.reshape(before + (k, o) + after)
            x = x.transpose(pos, pos + 1)                  # (o, k)
        # (..., OH, KH, OW, KW) -> (..., OH, OW, KH, KW)
        n = len(lead)
        order = list(range(n)) + [n + 2 * j for j in range(nd)] + [n + 2 * j + 1 for j in range(nd)]
        return x.permute(order)

    def conv2d(self, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
        if self.ndim != 4 or weight.ndim != 4:
            raise _shape_error(f"conv2d: needs a 4-D input (N, C, H, W) and 4-D weight, got "
                               f"{self.shape} and {weight.shape}")
        N, C, H, W = self.shape
        Cout, Cg, KH, KW = weight.shape
        if C != Cg * groups or Cout % groups:
            raise _shape_error(f"conv2d: input {self.shape} with {C} channels, weight {weight.shape} "
                               f"and groups={groups} do not fit (input channels must be "
                               f"{Cg}*{groups}, output channels divisible by {groups})")
        stride, dilation = _pair(stride), _pair(dilation)
        if isinstance(padding, str):
            if padding == "valid":
                padding = (0, 0)
            elif padding == "same":
                padding = tuple(dilation[i] * ((KH, KW)[i] - 1) // 2 for i in range(2))
            else:
                raise ValueError(f"conv2d: padding must be an int, a pair, 'same' or 'valid', got {padding!r}")
        ph, pw = _pair(padding)
        dt = self._binary_dtype(weight)
        x = self.cast(dt).pad([(0, 0), (0, 0), (ph, ph), (pw, pw)])
        win = x._windows((KH, KW), stride, dilation)              # (N, C, OH, OW, KH, KW)
        OH, OW = win.shape[2], win.shape[3]
        G, Og = groups, Cout // groups
        acc = dtypes.float32 if dt in (dtypes.float16, dtypes.bfloat16) else dt
        win = win.cast(acc).reshape(N, G, 1, Cg, OH, OW, KH, KW)
        w = weight.cast(acc).reshape(1, G, Og, Cg, 1, 1, KH, KW)
        full = (N, G, Og, Cg, OH, OW, KH, KW)
        prod = win.broadcast_to(full) * w.broadcast_to(full)
        out = prod._reduce("add", (3, 6, 7), False).reshape(N, Cout, OH, OW).cast(dt)
        if bias is not None:
            out = out + bias.reshape(1, Cout, 1, 1)
        return out

    def _pool_setup(self, kernel_size, stride, padding, dilation, name):
        if self.ndim < 3:
            raise _shape_error(f"{name}: needs (N, C, H, W) or (C, H, W), got {self.shape}")
        k = _pair(kernel_size)
        s = _pair(stride) if stride is not None else k
        p = _pair(padding)
        d = _pair(dilation)
        if any(pp > kk // 2 for pp, kk in zip(p, k)):
            raise _shape_error(f"{name}: padding {p} must be at most half the kernel size {k}")
        return k, s, p, d

    def max_pool2d(self, kernel_size, stride=None, padding=0, dilation=1):
        k, s, p, d = self._pool_setup(kernel_size, stride, padding, dilation, "max_pool2d")
        x = self.pad([(0, 0)] * (self.ndim - 2) + [(p[0], p[0]), (p[1], p[1])],
                     value=float("-inf") if self.dtype.is_float else self.dtype.min)
        win = x._windows(k, s, d)
        return win.amax((-2, -1))

    def avg_pool2d(self, kernel_size, stride=None, padding=0, count_include_pad=True):
        k, s, p, d = self._pool_setup(kernel_size, stride, padding, 1, "avg_pool2d")
        pads = [(0, 0)] * (self.ndim - 2) + [(p[0], p[0]), (p[1], p[1])]
        win = self.pad(pads)._windows(k, s, d)
        total = win.sum((-2, -1))
        if count_include_pad or p == (0, 0):
            return total * (1.0 / (k[0] * k[1]))
        ones = self.ones_like().pad(pads)._windows(k, s, d).sum((-2, -1))
        return total / ones

    # ---- misc ----------------------------------------------------------------------------------
    def dropout(self, p=0.5, training=None):
        from tensor.tensor import Tensor
        training = Tensor.training if training is None else training
        if not 0 <= p <= 1:
            raise ValueError(f"dropout: probability must be in [0, 1], got {p}")
        if not training or p == 0:
            return self
        if p == 1:
            return self * 0
        keep = Tensor.rand(*self.shape, device=self.device) >= p
        return keep.where(self * (1.0 / (1 - p)), 0)

    def one_hot(self, num_classes=-1):
        from tensor.tensor import Tensor
        if not self.dtype.is_int:
            raise DTypeError(f"one_hot: needs an integer tensor, got {self.dtype.name}")
        if num_classes < 0:
            num_classes = int(self.max().item()) + 1
        ar = Tensor(ops.iota(num_classes, self.device)).cast(self.dtype)
        return (self.unsqueeze(-1) == ar).cast(dtypes.int64)
