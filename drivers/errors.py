"""The one exception hierarchy shared by every driver, the assembler and the virtual GPU.

Each error names the thing that went wrong in the vendor's vocabulary (ioctl, errno, VA, PC,
file and line) so a message is useful without a traceback.
"""
import errno as _errno


class GPUError(Exception):
    """Base of every error this project raises on purpose."""


class DeviceNotFound(GPUError):
    """No usable device: the message says why (module not loaded, permissions, unsupported)."""


class MalformedInput(GPUError):
    """A file we parse (sysfs capture, code object, golden file) is not what it must be."""

    def __init__(self, path, line, reason):
        self.path, self.line, self.reason = path, line, reason
        where = f"{path}:{line}" if line else str(path)
        super().__init__(f"{where}: {reason}")


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


class AssemblerError(GPUError):
    """Bad assembly source (or an undecodable word): line and column when there is a source."""

    def __init__(self, reason, line=None, column=None, source=None):
        self.reason, self.line, self.column, self.source = reason, line, column, source
        where = ""
        if line is not None:
            where = f"{source + ':' if source else ''}{line}:{column if column is not None else 1}: "
        super().__init__(where + reason)


def _errno_text(err):
    try:
        import os
        return os.strerror(err)
    except ValueError:
        return "unknown error"
