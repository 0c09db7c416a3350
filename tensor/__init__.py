"""A minimal lazy tensor library that runs on the drivers in this project.

    from tensor import Tensor, dtypes
    x = Tensor.randn(4, 3, requires_grad=True)
    loss = (x @ Tensor.ones(3, 2)).relu().sum()
    loss.backward(); print(loss.item(), x.grad.numpy())

Pipeline (each layer is a module): Tensor (:mod:`tensor.tensor`) -> primitive graph
(:mod:`tensor.ops`, :mod:`tensor.autograd`) -> kernels (:mod:`tensor.schedule`) -> loop-level
IR (:mod:`tensor.loopir`, :mod:`tensor.lower`, :mod:`tensor.opt`) -> a backend
(:mod:`tensor.device`; the numpy reference :mod:`tensor.backends.cpu`).  On top:
:mod:`tensor.nn` (layers, losses, safetensors), :mod:`tensor.optim`, :mod:`tensor.datasets`
and the training examples in :mod:`tensor.examples`.
"""
from tensor.dtypes import DType, DTypeError, dtypes
from tensor.tensor import ShapeError, Tensor, no_grad
from tensor.device import DeviceError
from tensor.jit import jit
from tensor import nn, optim  # noqa: E402  (they build on Tensor)

cat = Tensor.cat_
stack = Tensor.stack_
manual_seed = Tensor.manual_seed


def realize(*tensors):
    """Realize several tensors in one schedule."""
    return Tensor.realize_all(*tensors)


__all__ = ["Tensor", "dtypes", "DType", "DTypeError", "ShapeError", "DeviceError", "no_grad",
           "jit", "cat", "stack", "manual_seed", "realize", "nn", "optim"]
