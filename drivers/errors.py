"""The errors of the drivers and the virtual GPU, over the root hierarchy of assembler.errors.

Each error names the thing that went wrong in the vendor's vocabulary (ioctl, errno, VA, PC,
file and line) so a message is useful without a traceback.
"""
from assembler.errors import AssemblerError, GPUError, MalformedInput  # noqa: F401 (re-exported)


class InvalidArgument(GPUError, TypeError, ValueError, IndexError):
    """A call whose arguments cannot be right (type, range, ownership); the message names which.
    Also a TypeError, a ValueError and an IndexError, so callers may catch it as any of them."""


class DeviceNotFound(GPUError):
    """No usable device: the message says why (module not loaded, permissions, unsupported)."""


# Linux's kernel-internal errnos (include/linux/errno.h): not in errno.errorcode, yet some ioctls
# return them to user space (amdkfd's ENOTSUPP for an unknown queue type, say).
KERNEL_ERRNOS = {
    512: ("ERESTARTSYS", "restart the system call"), 513: ("ERESTARTNOINTR", "restart the system call"),
    514: ("ERESTARTNOHAND", "restart if no handler"), 515: ("ENOIOCTLCMD", "no ioctl command"),
    516: ("ERESTART_RESTARTBLOCK", "restart by calling sys_restart_syscall"),
    517: ("EPROBE_DEFER", "driver requests probe retry"), 518: ("EOPENSTALE", "open found a stale dentry"),
    519: ("ENOPARAM", "parameter not supported"), 521: ("EBADHANDLE", "illegal NFS file handle"),
    522: ("ENOTSYNC", "update synchronization mismatch"), 523: ("EBADCOOKIE", "cookie is stale"),
    524: ("ENOTSUPP", "operation is not supported"), 525: ("ETOOSMALL", "buffer or request is too small"),
    526: ("ESERVERFAULT", "an untranslatable error occurred"), 527: ("EBADTYPE", "type not supported by server"),
    528: ("EJUKEBOX", "request initiated, but will not complete before timeout"),
    529: ("EIOCBQUEUED", "iocb queued, will get completion event"),
    530: ("ERECALLCONFLICT", "conflict with recalled state"), 531: ("ENOGRACE", "NFS file lock reclaim refused"),
}


def errno_name(err):
    """'ENOENT' for 2, 'ENOTSUPP' for 524, 'errno 9999' for what nobody defines."""
    import errno as _errno
    if err in _errno.errorcode:
        return _errno.errorcode[err]
    if err in KERNEL_ERRNOS:
        return KERNEL_ERRNOS[err][0]
    return f"errno {err}"


def request_text(request):
    """An ioctl request number as the kernel reads it: 32 bits, in hex (a negative or oversized
    number is shown as given, since no ioctl has it)."""
    if isinstance(request, int) and 0 <= request < 1 << 32:
        return f"0x{request:08x}"
    return f"request {request!r} (not a 32-bit ioctl number)"


class IoctlError(GPUError, OSError):
    """An ioctl failed; carries its name, request number and errno (also as an OSError)."""

    def __init__(self, name, request, err, detail=""):
        self.name, self.request, self.errno_value = name, request, err
        self.errno_name = errno_name(err)
        msg = f"{name} ({request_text(request)}) failed: {self.errno_name} ({_errno_text(err)})"
        if detail:
            msg += f": {detail}"
        GPUError.__init__(self, msg)
        self.errno, self.strerror = err, msg
        self.args = (msg,)

    def __str__(self):
        return self.strerror


class KernargError(InvalidArgument):
    """Arguments that do not match the kernel's signature (count, kind, range)."""


class GPUFault(GPUError):
    """The GPU touched memory it must not: the faulting VA and the reason (NotPresent, ReadOnly...)."""

    def __init__(self, va, reason, detail=""):
        self.va, self.reason = va, reason
        super().__init__(f"GPU memory fault at VA 0x{va:x}: {reason}" + (f" ({detail})" if detail else ""))


class HardwareException(GPUError):
    """KFD reported a hardware exception while we waited: a queue or GPU reset, or a wave exception."""


# enum kfd_dbg_trap_exception_code: the wave exceptions a queue's error payload reports
WAVE_EXCEPTIONS = {1: "wave abort", 2: "trap", 3: "math error", 4: "illegal instruction", 5: "memory violation",
                   6: "aperture violation"}


class WaveException(HardwareException):
    """A wave stopped on an exception (illegal instruction, s_trap...): the queue, the exception,
    the PC and the reason when the trap handler reported them (None otherwise)."""

    def __init__(self, queue, exceptions, pc=None, reason=""):
        self.queue, self.exceptions, self.pc, self.reason = queue, exceptions, pc, reason
        names = ", ".join(WAVE_EXCEPTIONS.get(code, f"exception code {code}") for code in exceptions) or "exception"
        where = f" at PC 0x{pc:x}" if pc else " (PC not reported)"
        super().__init__(f"GPU hardware exception on {queue}: {names}{where}" + (f": {reason}" if reason else ""))


class GPUHang(GPUError):
    """A wait ran out of time: the last signal value the GPU completed, and what was in flight."""

    def __init__(self, last_value, expected, in_flight=""):
        self.last_value, self.expected, self.in_flight = last_value, expected, in_flight
        msg = f"GPU hang: signal reached {last_value}, waiting for {expected}"
        super().__init__(msg + (f"; in flight: {in_flight}" if in_flight else ""))


def _errno_text(err):
    if err in KERNEL_ERRNOS:
        return f"{KERNEL_ERRNOS[err][1]}; a kernel-internal errno"
    try:
        import os
        text = os.strerror(err)
    except (ValueError, OverflowError, TypeError):
        return "unknown error"
    return "unknown error" if text.startswith("Unknown error") else text
