"""Weight initializations with PyTorch's formulas (``torch.nn.init``).

Each comes in two forms: ``kaiming_uniform(shape, ...)`` makes a new tensor, and
``kaiming_uniform_(tensor, ...)`` overwrites a tensor in place (with ``assign``), as PyTorch's
trailing underscore says.  Random numbers come from the tensor library's own generator, so
``Tensor.manual_seed(n)`` makes them reproducible on every device (they are not the numbers
PyTorch would draw).

Fans, as PyTorch computes them for a weight of shape (out, in, *kernel): fan_in is
``in * prod(kernel)``, fan_out is ``out * prod(kernel)``.  So Linear's default,
``kaiming_uniform(a=sqrt(5))``, is U(-1/sqrt(fan_in), 1/sqrt(fan_in)).
"""
import math

from tensor.dtypes import dtypes, to_dtype
from tensor.tensor import Tensor, no_grad

_GAINS = {"linear": 1.0, "conv1d": 1.0, "conv2d": 1.0, "conv3d": 1.0, "conv_transpose1d": 1.0,
          "conv_transpose2d": 1.0, "conv_transpose3d": 1.0, "sigmoid": 1.0, "tanh": 5.0 / 3,
          "relu": math.sqrt(2.0), "selu": 3.0 / 4}


def calculate_gain(nonlinearity, param=None):
    """The recommended gain for a nonlinearity (torch.nn.init.calculate_gain)."""
    if nonlinearity == "leaky_relu":
        slope = 0.01 if param is None else float(param)
        return math.sqrt(2.0 / (1 + slope ** 2))
    if nonlinearity not in _GAINS:
        raise ValueError(f"calculate_gain: unknown nonlinearity {nonlinearity!r}; known: "
                         f"{', '.join(sorted(_GAINS) + ['leaky_relu'])}")
    return _GAINS[nonlinearity]


def fans(shape):
    """(fan_in, fan_out) of a weight shape (out, in, *kernel)."""
    shape = tuple(shape)
    if len(shape) < 2:
        raise ValueError(f"fan in and fan out need a weight of at least 2 dimensions, got shape {shape}")
    receptive = math.prod(shape[2:])
    return shape[1] * receptive, shape[0] * receptive


def _fan(shape, mode):
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"mode must be 'fan_in' or 'fan_out', got {mode!r}")
    fan_in, fan_out = fans(shape)
    return fan_in if mode == "fan_in" else fan_out


def _dt(dtype):
    return to_dtype(dtype) if dtype is not None else dtypes.default_float


# ---- new tensors ----------------------------------------------------------------------------

def uniform(shape, a=0.0, b=1.0, dtype=None, device=None):
    return Tensor.uniform(*shape, low=a, high=b, dtype=_dt(dtype), device=device)


def normal(shape, mean=0.0, std=1.0, dtype=None, device=None):
    return Tensor.normal(*shape, mean=mean, std=std, dtype=_dt(dtype), device=device)


def constant(shape, value, dtype=None, device=None):
    return Tensor.full(tuple(shape), value, dtype=_dt(dtype), device=device)


def zeros(shape, dtype=None, device=None):
    return constant(shape, 0.0, dtype, device)


def ones(shape, dtype=None, device=None):
    return constant(shape, 1.0, dtype, device)


def kaiming_uniform(shape, a=0.0, mode="fan_in", nonlinearity="leaky_relu", dtype=None, device=None):
    """U(-bound, bound) with bound = gain * sqrt(3 / fan) (He et al., 2015)."""
    bound = calculate_gain(nonlinearity, a) * math.sqrt(3.0 / _fan(shape, mode))
    return uniform(shape, -bound, bound, dtype, device)


def kaiming_normal(shape, a=0.0, mode="fan_in", nonlinearity="leaky_relu", dtype=None, device=None):
    return normal(shape, 0.0, calculate_gain(nonlinearity, a) / math.sqrt(_fan(shape, mode)), dtype, device)


def xavier_uniform(shape, gain=1.0, dtype=None, device=None):
    """U(-bound, bound) with bound = gain * sqrt(6 / (fan_in + fan_out)) (Glorot & Bengio, 2010)."""
    fan_in, fan_out = fans(shape)
    bound = gain * math.sqrt(6.0 / (fan_in + fan_out))
    return uniform(shape, -bound, bound, dtype, device)


def xavier_normal(shape, gain=1.0, dtype=None, device=None):
    fan_in, fan_out = fans(shape)
    return normal(shape, 0.0, gain * math.sqrt(2.0 / (fan_in + fan_out)), dtype, device)


def fan_in_uniform(shape, fan_in, dtype=None, device=None):
    """U(-1/sqrt(fan_in), 1/sqrt(fan_in)): PyTorch's default for Linear and Conv biases."""
    bound = 1.0 / math.sqrt(fan_in) if fan_in > 0 else 0.0
    return uniform(shape, -bound, bound, dtype, device)


# ---- in place -------------------------------------------------------------------------------

def _fill(tensor, make, *args, **kwargs):
    with no_grad():
        tensor.assign(make(tensor.shape, *args, dtype=tensor.dtype, device=tensor.device, **kwargs))
    return tensor.realize()


def uniform_(tensor, a=0.0, b=1.0):
    return _fill(tensor, uniform, a, b)


def normal_(tensor, mean=0.0, std=1.0):
    return _fill(tensor, normal, mean, std)


def constant_(tensor, value):
    return _fill(tensor, constant, value)


def zeros_(tensor):
    return _fill(tensor, zeros)


def ones_(tensor):
    return _fill(tensor, ones)


def kaiming_uniform_(tensor, a=0.0, mode="fan_in", nonlinearity="leaky_relu"):
    return _fill(tensor, kaiming_uniform, a, mode, nonlinearity)


def kaiming_normal_(tensor, a=0.0, mode="fan_in", nonlinearity="leaky_relu"):
    return _fill(tensor, kaiming_normal, a, mode, nonlinearity)


def xavier_uniform_(tensor, gain=1.0):
    return _fill(tensor, xavier_uniform, gain)


def xavier_normal_(tensor, gain=1.0):
    return _fill(tensor, xavier_normal, gain)
