"""The errors of the drivers and the virtual GPU, over the root hierarchy of assembler.errors.

Each error names the thing that went wrong in the vendor's vocabulary (ioctl, errno, VA, PC,
file and line) so a message is useful without a traceback.
"""
import errno as _errno

from assembler.errors import AssemblerError, GPUError, MalformedInput  # noqa: F401 (re-exported)


class DeviceNotFound(GPUError):
    """No usable device: the message says why (module not loaded, permissions, unsupported)."""


class IoctlError(GPUError, OSError):
    """An ioctl failed; carries its name, request number and errno (also as an OSError)."""

    def __init__(self, name, request, err, detail=""):
        self.name, self.request, self.errno_value = name, request, err
        self.errno_name = _errno.errorcode.get(err, str(err))
        msg = f"{name} (0x{request:08x}) failed: {self.errno_name} ({_errno_text(err)})"
        if detail:
            msg += f": {detail}"
        GPUError.__init__(self, msg)
        self.errno, self.strerror = err, msg
        self.args = (msg,)

    def __str__(self):
        return self.strerror


class KernargError(GPUError, TypeError):
    """Arguments that do not match the kernel's signature (count, kind, range)."""


class GPUFault(GPUError):
    """The GPU touched memory it must not: the faulting VA and the reason (NotPresent, ReadOnly...)."""

    def __init__(self, va, reason, detail=""):
        self.va, self.reason = va, reason
        super().__init__(f"GPU memory fault at VA 0x{va:x}: {reason}" + (f" ({detail})" if detail else ""))


class GPUHang(GPUError):
    """A wait ran out of time: the last signal value the GPU completed, and what was in flight."""

    def __init__(self, last_value, expected, in_flight=""):
        self.last_value, self.expected, self.in_flight = last_value, expected, in_flight
        msg = f"GPU hang: signal reached {last_value}, waiting for {expected}"
        super().__init__(msg + (f"; in flight: {in_flight}" if in_flight else ""))


def _errno_text(err):
    try:
        import os
        return os.strerror(err)
    except ValueError:
        return "unknown error"
