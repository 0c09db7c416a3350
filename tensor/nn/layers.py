"""The layers, with PyTorch's constructor arguments, parameter shapes and initializations.

Parameters are realized when a layer is built (one small kernel each), from the library's own
random numbers: ``Tensor.manual_seed(n)`` first makes a model reproducible.
"""
import math

from tensor import ops
from tensor.dtypes import DTypeError, dtypes
from tensor.nn import init
from tensor.nn.module import Module, Parameter
from tensor.tensor import ShapeError, Tensor, no_grad


def _pair(x):
    return tuple(x) if isinstance(x, (tuple, list)) else (x, x)


class Linear(Module):
    """y = x @ weight.T + bias; weight (out_features, in_features) ~ kaiming_uniform(a=sqrt(5)),
    bias ~ U(-1/sqrt(in_features), 1/sqrt(in_features)).  One kernel in the forward pass."""

    def __init__(self, in_features, out_features, bias=True, dtype=None, device=None):
        self.in_features, self.out_features = int(in_features), int(out_features)
        shape = (self.out_features, self.in_features)
        self.weight = Parameter(init.kaiming_uniform(shape, a=math.sqrt(5), dtype=dtype, device=device))
        self.bias = Parameter(init.fan_in_uniform((self.out_features,), self.in_features, dtype, device)) \
            if bias else None

    def forward(self, x):
        if x.ndim == 0 or x.shape[-1] != self.in_features:
            raise ShapeError(f"Linear({self.in_features}, {self.out_features}): input of shape {x.shape} "
                             f"does not end in {self.in_features} features")
        return x.linear(self.weight, self.bias)

    def extra_repr(self):
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"


class Conv2d(Module):
    """2-D convolution over (N, C, H, W); weight (out, in/groups, kh, kw) ~ kaiming_uniform(a=sqrt(5)),
    bias ~ U(-1/sqrt(fan_in), 1/sqrt(fan_in)) with fan_in = in/groups * kh * kw.  One kernel."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1,
                 groups=1, bias=True, padding_mode="zeros", dtype=None, device=None):
        if padding_mode != "zeros":
            raise ValueError(f"Conv2d: only padding_mode='zeros' is supported, got {padding_mode!r}")
        if groups <= 0 or in_channels % groups or out_channels % groups:
            raise ValueError(f"Conv2d: in_channels ({in_channels}) and out_channels ({out_channels}) "
                             f"must both be divisible by groups ({groups})")
        self.in_channels, self.out_channels, self.groups = in_channels, out_channels, groups
        self.kernel_size, self.stride, self.dilation = _pair(kernel_size), _pair(stride), _pair(dilation)
        self.padding = padding if isinstance(padding, str) else _pair(padding)
        shape = (out_channels, in_channels // groups) + self.kernel_size
        self.weight = Parameter(init.kaiming_uniform(shape, a=math.sqrt(5), dtype=dtype, device=device))
        fan_in, _ = init.fans(shape)
        self.bias = Parameter(init.fan_in_uniform((out_channels,), fan_in, dtype, device)) if bias else None

    def forward(self, x):
        if x.ndim != 4 or x.shape[1] != self.in_channels:
            raise ShapeError(f"Conv2d({self.in_channels}, {self.out_channels}): needs input of shape "
                             f"(N, {self.in_channels}, H, W), got {x.shape}")
        return x.conv2d(self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)

    def extra_repr(self):
        s = f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, stride={self.stride}"
        if self.padding not in ((0, 0), "valid"):
            s += f", padding={self.padding}"
        if self.dilation != (1, 1):
            s += f", dilation={self.dilation}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        return s + ("" if self.bias is not None else ", bias=False")


class _BatchNorm(Module):
    """Normalizes each channel (dimension 1) over the batch and every other dimension.

    Training: the batch's mean and biased variance normalize; running_mean and running_var
    move towards the batch's mean and unbiased variance by ``momentum`` (None: a cumulative
    average over num_batches_tracked batches).  Evaluation: the running statistics normalize.
    The updates are assigns, run with the next realize that overwrites what they read (an
    optimizer step), or with the outputs of a ``tensor.jit`` function."""
    dims = ()

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True,
                 dtype=None, device=None):
        self.num_features, self.eps, self.momentum = int(num_features), eps, momentum
        self.affine, self.track_running_stats = affine, track_running_stats
        C = (self.num_features,)
        if affine:
            self.weight = Parameter(init.ones(C, dtype, device))
            self.bias = Parameter(init.zeros(C, dtype, device))
        else:
            self.weight = self.bias = None
        if track_running_stats:
            self.register_buffer("running_mean", init.zeros(C, dtype, device).contiguous().realize())
            self.register_buffer("running_var", init.ones(C, dtype, device).contiguous().realize())
            self.register_buffer("num_batches_tracked",
                                 Tensor.zeros((), dtype=dtypes.int64, device=device).contiguous().realize())
        else:
            self.running_mean = self.running_var = self.num_batches_tracked = None

    def forward(self, x):
        name = type(self).__name__
        if x.ndim not in self.dims or x.shape[1] != self.num_features:
            want = " or ".join(f"{d}-D" for d in self.dims)
            raise ShapeError(f"{name}({self.num_features}): needs a {want} input with "
                             f"{self.num_features} channels in dimension 1, got shape {x.shape}")
        axes = (0,) + tuple(range(2, x.ndim))
        shape = (1, self.num_features) + (1,) * (x.ndim - 2)
        if self.training or not self.track_running_stats:
            n = x.numel() // self.num_features
            if self.training and n <= 1:
                raise ShapeError(f"{name}: expected more than 1 value per channel when training, "
                                 f"got input of shape {x.shape}")
            mean = x.mean(axes, keepdim=True)
            centered = x - mean
            var = (centered * centered).mean(axes, keepdim=True)
            if self.training and self.track_running_stats:
                self._update_running(mean.reshape(self.num_features), var.reshape(self.num_features), n)
        else:
            mean = self.running_mean.reshape(shape)
            var = self.running_var.reshape(shape)
            centered = x - mean
        scale = (var + self.eps).rsqrt()
        if self.weight is not None:
            scale = scale * self.weight.reshape(shape)
        out = centered * scale
        return out + self.bias.reshape(shape) if self.bias is not None else out

    def _update_running(self, mean, var, n):
        with no_grad():
            self.num_batches_tracked.assign(self.num_batches_tracked + 1)
            if self.momentum is None:
                f = 1.0 / self.num_batches_tracked.cast(self.running_mean.dtype)
            else:
                f = self.momentum
            self.running_mean.assign(self.running_mean * (1 - f) + mean.detach() * f)
            self.running_var.assign(self.running_var * (1 - f) + var.detach() * (n / (n - 1)) * f)

    def extra_repr(self):
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, affine={self.affine}, "
                f"track_running_stats={self.track_running_stats}")


class BatchNorm1d(_BatchNorm):
    """BatchNorm over (N, C) or (N, C, L)."""
    dims = (2, 3)


class BatchNorm2d(_BatchNorm):
    """BatchNorm over (N, C, H, W)."""
    dims = (4,)


class LayerNorm(Module):
    """Normalizes over the last dimensions (``normalized_shape``) with the biased variance;
    weight ones and bias zeros of that shape."""

    def __init__(self, normalized_shape, eps=1e-5, elementwise_affine=True, bias=True, dtype=None, device=None):
        shape = normalized_shape
        self.normalized_shape = (shape,) if isinstance(shape, int) else tuple(shape)
        self.eps, self.elementwise_affine = eps, elementwise_affine
        if elementwise_affine:
            self.weight = Parameter(init.ones(self.normalized_shape, dtype, device))
            self.bias = Parameter(init.zeros(self.normalized_shape, dtype, device)) if bias else None
        else:
            self.weight = self.bias = None

    def forward(self, x):
        k = len(self.normalized_shape)
        if x.shape[x.ndim - k:] != self.normalized_shape or x.ndim < k:
            raise ShapeError(f"LayerNorm({self.normalized_shape}): input shape {x.shape} does not end "
                             f"in {self.normalized_shape}")
        axes = tuple(range(x.ndim - k, x.ndim))
        centered = x - x.mean(axes, keepdim=True)
        out = centered * ((centered * centered).mean(axes, keepdim=True) + self.eps).rsqrt()
        if self.weight is not None:
            out = out * self.weight
        return out + self.bias if self.bias is not None else out

    def extra_repr(self):
        return f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}"


class Embedding(Module):
    """A table of ``num_embeddings`` vectors, weight ~ N(0, 1), looked up by integer index.
    Row ``padding_idx`` starts at zero and gets no gradient."""

    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, dtype=None, device=None):
        self.num_embeddings, self.embedding_dim = int(num_embeddings), int(embedding_dim)
        if padding_idx is not None:
            if not -num_embeddings <= padding_idx < num_embeddings:
                raise ValueError(f"Embedding: padding_idx {padding_idx} is out of range for "
                                 f"{num_embeddings} embeddings")
            padding_idx %= num_embeddings
        self.padding_idx = padding_idx
        w = init.normal((self.num_embeddings, self.embedding_dim), dtype=dtype, device=device)
        if padding_idx is not None:
            rows = Tensor(ops.iota(self.num_embeddings, w.device)).reshape(-1, 1)
            w = (rows == padding_idx).where(0.0, w)
        self.weight = Parameter(w)

    def forward(self, idx):
        if not isinstance(idx, Tensor):
            idx = Tensor(idx, device=self.weight.device)
        if not idx.dtype.is_int:
            raise DTypeError(f"Embedding: indices must be integers, got {idx.dtype.name}")
        out = self.weight[idx]
        if self.padding_idx is None:
            return out
        keep = (idx != self.padding_idx).unsqueeze(-1)
        return keep.where(out, out.detach())

    def extra_repr(self):
        pad = "" if self.padding_idx is None else f", padding_idx={self.padding_idx}"
        return f"{self.num_embeddings}, {self.embedding_dim}{pad}"


class Dropout(Module):
    """Zeroes each element with probability ``p`` in training and scales the rest by 1/(1-p);
    the identity in evaluation."""

    def __init__(self, p=0.5):
        if not 0 <= p <= 1:
            raise ValueError(f"Dropout: probability must be in [0, 1], got {p}")
        self.p = p

    def forward(self, x):
        return x.dropout(self.p, training=self.training)

    def extra_repr(self):
        return f"p={self.p}"


class MaxPool2d(Module):
    def __init__(self, kernel_size, stride=None, padding=0, dilation=1):
        self.kernel_size, self.stride, self.padding, self.dilation = kernel_size, stride, padding, dilation

    def forward(self, x):
        return x.max_pool2d(self.kernel_size, self.stride, self.padding, self.dilation)

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride or self.kernel_size}"


class AvgPool2d(Module):
    def __init__(self, kernel_size, stride=None, padding=0, count_include_pad=True):
        self.kernel_size, self.stride, self.padding = kernel_size, stride, padding
        self.count_include_pad = count_include_pad

    def forward(self, x):
        return x.avg_pool2d(self.kernel_size, self.stride, self.padding, self.count_include_pad)

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride or self.kernel_size}"


# ---- losses as modules ----------------------------------------------------------------------

class CrossEntropyLoss(Module):
    def __init__(self, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
        self.weight, self.ignore_index = weight, ignore_index
        self.reduction, self.label_smoothing = reduction, label_smoothing

    def forward(self, input, target):
        return input.cross_entropy(target, self.weight, self.ignore_index, self.reduction, self.label_smoothing)


class NLLLoss(Module):
    def __init__(self, weight=None, ignore_index=-100, reduction="mean"):
        self.weight, self.ignore_index, self.reduction = weight, ignore_index, reduction

    def forward(self, input, target):
        return input.nll_loss(target, self.weight, self.ignore_index, self.reduction)


class MSELoss(Module):
    def __init__(self, reduction="mean"):
        self.reduction = reduction

    def forward(self, input, target):
        return input.mse_loss(target, self.reduction)


class L1Loss(Module):
    def __init__(self, reduction="mean"):
        self.reduction = reduction

    def forward(self, input, target):
        return input.l1_loss(target, self.reduction)


class BCELoss(Module):
    def __init__(self, weight=None, reduction="mean"):
        self.weight, self.reduction = weight, reduction

    def forward(self, input, target):
        return input.binary_cross_entropy(target, self.weight, self.reduction)


class BCEWithLogitsLoss(Module):
    def __init__(self, weight=None, reduction="mean", pos_weight=None):
        self.weight, self.reduction, self.pos_weight = weight, reduction, pos_weight

    def forward(self, input, target):
        return input.binary_cross_entropy_with_logits(target, self.weight, self.pos_weight, self.reduction)
