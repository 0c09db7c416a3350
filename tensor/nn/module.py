"""``Module``: parameters, buffers and submodules found by attribute, as in PyTorch.

A Tensor attribute is a *parameter* when it requires gradients at the moment it is set
(``self.weight = Tensor(..., requires_grad=True)``; it stays one if you later freeze it with
``requires_grad_(False)``), a *buffer* when it is registered with :meth:`Module.register_buffer`
(running statistics), and plain data otherwise.  Module attributes, and lists or tuples of
modules, are submodules; names join with dots ("0.weight", "layers.1.bias"), so a state dict
has PyTorch's keys.

``module(x)`` calls ``forward(x)``.  ``train()`` / ``eval()`` set ``training`` on the module
and every submodule; Dropout and BatchNorm read it.  Inside a ``tensor.jit`` function the
flag is read when the function is captured: jit training and evaluation as two functions.
"""
from collections import OrderedDict

from tensor import ops
from tensor.tensor import Tensor


def Parameter(data, requires_grad=True):
    """A realized tensor of its own that requires gradients (made from a Tensor or an array);
    the graph that computed it (an initialization) is dropped."""
    t = data if isinstance(data, Tensor) else Tensor(data)
    t = t.contiguous().realize()
    if t.node.is_multi:                         # on several devices (Tensor.shard)
        from tensor.multi import leaf
        out = Tensor(leaf(t.node))
    else:
        base, _ = t.node.view()
        out = Tensor(ops.buffer(base.buffer, t.shape))
    return out.requires_grad_(requires_grad) if requires_grad else out


class Module:
    training = True

    def __setattr__(self, name, value):
        d = self.__dict__
        if isinstance(value, Tensor) and value.requires_grad and name not in d.get("_buffer_names", ()):
            d.setdefault("_param_names", {})[name] = None
        elif not isinstance(value, Tensor):
            d.get("_param_names", {}).pop(name, None)
        object.__setattr__(self, name, value)

    def __delattr__(self, name):
        self.__dict__.get("_param_names", {}).pop(name, None)
        self.__dict__.get("_buffer_names", {}).pop(name, None)
        object.__delattr__(self, name)

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)

    def forward(self, *args, **kwargs):
        raise TypeError(f"{type(self).__name__} has no forward(); a Module subclass defines one")

    def register_buffer(self, name, tensor):
        """State that is saved and loaded but not trained (BatchNorm's running statistics)."""
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"register_buffer: {name!r} must be a Tensor or None, got {type(tensor).__name__}")
        self.__dict__.setdefault("_buffer_names", {})[name] = None
        self.__dict__.get("_param_names", {}).pop(name, None)
        object.__setattr__(self, name, tensor)

    # ---- walking the tree -------------------------------------------------------------------
    def named_children(self):
        for name, value in list(self.__dict__.items()):
            if name.startswith("_"):
                continue
            if isinstance(value, Module):
                yield name, value
            elif isinstance(value, (list, tuple)) and value and all(isinstance(v, Module) for v in value):
                for i, v in enumerate(value):
                    yield f"{name}.{i}", v

    def children(self):
        return [m for _, m in self.named_children()]

    def named_modules(self, prefix=""):
        seen = set()

        def walk(m, pre):
            if id(m) in seen:
                return
            seen.add(id(m))
            yield pre, m
            for name, child in m.named_children():
                yield from walk(child, f"{pre}.{name}" if pre else name)
        yield from walk(self, prefix)

    def modules(self):
        return [m for _, m in self.named_modules()]

    def _own(self, kind):
        names = self.__dict__.get("_param_names" if kind == "param" else "_buffer_names", {})
        for name in names:
            t = self.__dict__.get(name)
            if t is not None:
                yield name, t

    def named_parameters(self, prefix=""):
        """(dotted name, tensor) for every parameter, each shared tensor once."""
        seen = set()
        for mname, m in self.named_modules(prefix):
            for name, t in m._own("param"):
                if id(t) not in seen:
                    seen.add(id(t))
                    yield (f"{mname}.{name}" if mname else name), t

    def parameters(self):
        return [t for _, t in self.named_parameters()]

    def named_buffers(self, prefix=""):
        seen = set()
        for mname, m in self.named_modules(prefix):
            for name, t in m._own("buffer"):
                if id(t) not in seen:
                    seen.add(id(t))
                    yield (f"{mname}.{name}" if mname else name), t

    def buffers(self):
        return [t for _, t in self.named_buffers()]

    # ---- modes and state ----------------------------------------------------------------------
    def train(self, mode=True):
        for m in self.modules():
            m.training = bool(mode)
        return self

    def eval(self):
        return self.train(False)

    def requires_grad_(self, flag=True):
        for p in self.parameters():
            p.requires_grad_(flag)
        return self

    def zero_grad(self):
        for p in self.parameters():
            p.grad = None

    def state_dict(self):
        """Parameters and buffers by dotted name (the tensors themselves, not copies)."""
        out = OrderedDict()
        for mname, m in self.named_modules():
            for kind in ("param", "buffer"):
                for name, t in m._own(kind):
                    out[f"{mname}.{name}" if mname else name] = t
        return out

    def load_state_dict(self, state, strict=True):
        from tensor.nn.state import load_state_dict
        return load_state_dict(self, state, strict)

    def apply_tensors(self, fn):
        """Replace every parameter and buffer ``t`` by ``fn(t)``, realized (a parameter keeps
        requiring gradients; a tensor shared by several modules stays shared): what
        ``to(device)`` does, and how a model is replicated."""
        done = {}
        for m in self.modules():
            for kind in ("param", "buffer"):
                for name, t in list(m._own(kind)):
                    if id(t) not in done:
                        new = fn(t)
                        done[id(t)] = t if new is t else Parameter(new, requires_grad=t.requires_grad)
                    object.__setattr__(m, name, done[id(t)])
        return self

    def to(self, device=None, dtype=None):
        """Move parameters and buffers to ``device`` and/or cast floating ones to ``dtype``."""
        def convert(t):
            out = t.to(device) if device is not None else t
            return out.cast(dtype) if dtype is not None and t.dtype.is_float else out
        return self.apply_tensors(convert)

    def num_parameters(self):
        return sum(p.numel() for p in self.parameters())

    # ---- printing -----------------------------------------------------------------------------
    def extra_repr(self):
        return ""

    def __repr__(self):
        children = list(self.named_children())
        head = f"{type(self).__name__}({self.extra_repr()}"
        if not children:
            return head + ")"
        lines = [head]
        for name, child in children:
            body = repr(child).replace("\n", "\n  ")
            lines.append(f"  ({name}): {body}")
        return "\n".join(lines) + "\n)"


class Sequential(Module):
    """Layers applied in order.  Items may be Modules or plain callables (``Tensor.relu``);
    modules are named by position ("0", "1", ...), as in PyTorch."""

    def __init__(self, *layers):
        if len(layers) == 1 and isinstance(layers[0], (list, tuple)):
            layers = tuple(layers[0])
        self._layers = []
        for layer in layers:
            self.append(layer)

    def append(self, layer):
        if not callable(layer):
            raise TypeError(f"Sequential: {layer!r} is not a module or a callable")
        if isinstance(layer, Module):
            setattr(self, str(len(self._layers)), layer)
        self._layers.append(layer)
        return self

    def named_children(self):
        for i, layer in enumerate(self._layers):
            if isinstance(layer, Module):
                yield str(i), layer

    def forward(self, x):
        for layer in self._layers:
            x = layer(x)
        return x

    def __getitem__(self, i):
        if isinstance(i, slice):
            return Sequential(*self._layers[i])
        return self._layers[i]

    def __len__(self):
        return len(self._layers)

    def __iter__(self):
        return iter(self._layers)

    def __repr__(self):
        lines = ["Sequential("]
        for i, layer in enumerate(self._layers):
            text = repr(layer) if isinstance(layer, Module) else getattr(layer, "__qualname__", repr(layer))
            lines.append(f"  ({i}): " + text.replace("\n", "\n  "))
        return "\n".join(lines) + "\n)"


class ModuleList(Module):
    """A list of modules whose parameters are found (named "0", "1", ...)."""

    def __init__(self, modules=()):
        self._items = []
        for m in modules:
            self.append(m)

    def append(self, m):
        if not isinstance(m, Module):
            raise TypeError(f"ModuleList holds modules, got {type(m).__name__}")
        self._items.append(m)
        return self

    def named_children(self):
        for i, m in enumerate(self._items):
            yield str(i), m

    def __getitem__(self, i):
        return self._items[i]

    def __len__(self):
        return len(self._items)

    def __iter__(self):
        return iter(self._items)


class Identity(Module):
    def forward(self, x):
        return x


class Flatten(Module):
    def __init__(self, start_dim=1, end_dim=-1):
        self.start_dim, self.end_dim = start_dim, end_dim

    def forward(self, x):
        return x.flatten(self.start_dim, self.end_dim)


def _activation(name, method, doc):
    def forward(self, x):
        return getattr(x, method)()
    return type(name, (Module,), {"forward": forward, "__doc__": doc})


ReLU = _activation("ReLU", "relu", "max(x, 0)")
GELU = _activation("GELU", "gelu", "x * Phi(x) (the exact, erf form)")
SiLU = _activation("SiLU", "silu", "x * sigmoid(x)")
Sigmoid = _activation("Sigmoid", "sigmoid", "1 / (1 + exp(-x))")
Tanh = _activation("Tanh", "tanh", "tanh(x)")


class LeakyReLU(Module):
    def __init__(self, negative_slope=0.01):
        self.negative_slope = negative_slope

    def forward(self, x):
        return x.leaky_relu(self.negative_slope)

    def extra_repr(self):
        return f"negative_slope={self.negative_slope}"


class Softmax(Module):
    def __init__(self, dim=-1):
        self.dim = dim

    def forward(self, x):
        return x.softmax(self.dim)


class LogSoftmax(Module):
    def __init__(self, dim=-1):
        self.dim = dim

    def forward(self, x):
        return x.log_softmax(self.dim)
