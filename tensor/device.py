"""Backends behind one small interface, and the buffers that live on them.

A backend is a class with::

    name                              "CPU", "AMD", ...
    alloc(nbytes) -> handle           device memory
    free(handle)
    copyin(handle, host: np.ndarray)  host bytes -> device
    copyout(handle, host: np.ndarray) device -> host bytes (host is writable, the right size)
    compile(kernel) -> program        a loop-level IR Kernel -> something launch() runs
    launch(program, handles) -> secs  run it on the buffers (params order); seconds if timed
    synchronize()
    copy_from(dst, src) -> bool       optional: Buffer -> Buffer from another device without a
                                      host round trip (False: not from that device)
    max_global_dims                   how many global (grid) dimensions a kernel may use
    optimizations(info) -> [Opt]      what the lowering should apply (may be empty); info has
                                      the kernel's iteration space: "shape" (after merging
                                      dimensions), "reduce_dims", and the buffers' "dtypes"
                                      and "sizes" (output first); axes are numbered as in
                                      tensor.opt

Backends register by name in :data:`BACKENDS` (module path and class name, imported when first
used, or the class itself via :func:`register`); the class's ``probe()`` says whether the
hardware is there without opening it, and :func:`get` opens one once.  ``device=`` or ``TENSOR_DEVICE``
choose; the default is the first GPU found, else the reference backend "CPU".
"""
import importlib
import os

import numpy as np

from tensor.dtypes import to_numpy_values

# name -> (module, class); GPU backends are listed before CPU so they win the default
BACKENDS = {
    "AMD": ("tensor.backends.amd", "AMDBackend"),
    "CPU": ("tensor.backends.cpu", "CPUBackend"),
}
GPU_ORDER = ("AMD",)    # names of GPU backends, tried in this order for the default

_open = {}


class DeviceError(RuntimeError):
    """A device cannot be found or opened; the message names it and says what is available."""


def canonical(name):
    """'cpu' -> 'CPU', 'amd:1' -> 'AMD:1'; unknown names raise DeviceError.  A tuple of names
    (a tensor kept on several devices, :mod:`tensor.multi`) is canonicalized name by name."""
    if name is None:
        return default()
    if isinstance(name, (tuple, list)):
        return tuple(canonical(n) for n in name)
    text = str(name)
    kind, _, index = text.partition(":")
    kind = kind.upper()
    if kind not in BACKENDS:
        raise DeviceError(f"unknown device {text!r}; known: {', '.join(BACKENDS)}")
    if index and not index.isdigit():
        raise DeviceError(f"bad device index in {text!r}")
    return kind if not index or index == "0" else f"{kind}:{index}"


_default = None


def default():
    global _default
    env = os.environ.get("TENSOR_DEVICE")
    if env:
        return canonical(env)
    if _default is None:
        _default = "CPU"
        for name in GPU_ORDER:
            ok, _ = probe(name)
            if ok:
                _default = name
                break
    return _default


def backend_class(name):
    """The class registered for a backend name ('AMD:1' -> the AMD class)."""
    entry = BACKENDS[name.partition(":")[0]]
    if isinstance(entry, type):
        return entry
    module, cls = entry
    return getattr(importlib.import_module(module), cls)


def register(name, cls):
    """Add a backend (a Backend subclass) under ``name``; tests and out-of-tree backends use it."""
    BACKENDS[name.upper()] = cls


def probe(name):
    """(available, detail) for a backend name, without opening it."""
    return backend_class(name).probe()


def get(name):
    name = canonical(name)
    dev = _open.get(name)
    if dev is None:
        kind, _, index = name.partition(":")
        backend = backend_class(kind)
        try:
            dev = backend(int(index or 0))
        except DeviceError:
            raise
        except Exception as e:
            raise DeviceError(f"cannot open device {name}: {e}") from e
        _open[name] = dev
        if int(os.environ.get("DEBUG", "0")) >= 1:
            print(f"tensor: opened device {name} ({dev.description})")
    return dev


class Backend:
    """Base class: the interface above with defaults that fit most backends."""
    name = "?"
    description = ""
    max_global_dims = 3

    def __init__(self, index=0):
        self.index = index

    @classmethod
    def probe(cls):
        return True, ""

    def optimizations(self, info):
        return []

    def synchronize(self):
        pass


class Buffer:
    """``size`` elements of ``dtype`` on ``device``, allocated when first needed.

    ``version`` counts in-place overwrites (assign), so a lazy result computed from an older
    value can tell that its input is gone.
    """
    __slots__ = ("device", "size", "dtype", "_handle", "_pending", "version", "__weakref__")

    def __init__(self, device, size, dtype, initial=None):
        self.device, self.size, self.dtype = device, size, dtype
        self._handle, self._pending, self.version = None, initial, 0

    @property
    def nbytes(self):
        return self.size * self.dtype.itemsize

    @property
    def allocated(self):
        return self._handle is not None

    def handle(self):
        if self._handle is None:
            dev = get(self.device)
            self._handle = dev.alloc(max(self.nbytes, 1))
            if self._pending is not None:
                dev.copyin(self._handle, np.ascontiguousarray(self._pending).view(np.uint8).reshape(-1))
                self._pending = None
        return self._handle

    def host_data(self):
        """The host storage array the buffer was made from, while it is not on the device yet
        (None once it is)."""
        return self._pending if self._handle is None else None

    def copyin(self, storage):
        """Host storage array (already of this dtype's storage type) -> the buffer."""
        dev = get(self.device)
        dev.copyin(self.handle(), np.ascontiguousarray(storage).view(np.uint8).reshape(-1))

    def storage(self):
        """The buffer's contents as a host storage array (bf16 as uint16 bits)."""
        if self._pending is not None and self._handle is None:
            return np.array(self._pending, copy=True).reshape(-1)
        out = np.empty(self.size, dtype=self.dtype.np)
        if self.size:
            dev = get(self.device)
            dev.synchronize()
            dev.copyout(self.handle(), out.view(np.uint8).reshape(-1))
        return out

    def numpy(self):
        return to_numpy_values(self.storage(), self.dtype)

    def __del__(self):
        h = self._handle
        if h is not None:
            dev = _open.get(self.device)
            if dev is not None:
                try:
                    dev.free(h)
                except Exception:
                    pass

    def __repr__(self):
        return f"<Buffer {self.device} {self.dtype.name}[{self.size}]>"
