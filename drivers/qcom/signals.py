"""KGSL timestamps as a timeline: every GPU_COMMAND on the device's context gets the next
timestamp; the retired one is read from the memstore (KGSL_PROP_DEVICE_SHADOW, mapped
read-only) without a system call, and a wait is WAITTIMESTAMP_CTXTID with the wait's timeout.

The timeline's value keeps counting across contexts: when a fault or hang costs the device its
context, the new context starts at timestamp 0 and the timeline continues from where the old
one stopped (``rebase``). WAITTIMESTAMP's answers become errors: ETIMEDOUT a GPUHang naming
the pending work, EDEADLK a ContextLost the device turns into GPUFault or GPUHang after asking
KGSL what happened.
"""
import errno
import time

import numpy as np

import kgsl_ioctl as K
from drivers.device import Timeline
from drivers.errors import GPUError, IoctlError
from drivers.qcom import kgsl

DEFAULT_TIMEOUT = 30.0
MEMSTORE_EOP = K.ffi.offsetof("struct kgsl_devmemstore", "eoptimestamp")
MEMSTORE_STRIDE = K.ffi.sizeof("struct kgsl_devmemstore")


class ContextLost(GPUError):
    """KGSL invalidated the context (a fault or a hang it detected); the ioctl error says why."""

    def __init__(self, error):
        self.error = error
        super().__init__(f"KGSL invalidated the context: {error}")


class KgslTimeline(Timeline):
    def __init__(self, kernel, fd, context_id, memstore=None, name="compute", timeout=DEFAULT_TIMEOUT):
        super().__init__(name, timeout)
        self.kernel, self.fd, self.context_id = kernel, fd, context_id
        self.base = 0                       # timeline value of timestamp 0 of the current context
        self.memstore = memstore            # uint32 view of the mapped memstore, or None

    @property
    def retired_timestamp(self):
        if self.memstore is not None:
            return int(self.memstore[(self.context_id * MEMSTORE_STRIDE + MEMSTORE_EOP) // 4])
        return kgsl.read_timestamp(self.kernel, self.fd, self.context_id)

    @property
    def value(self):
        return self.base + self.retired_timestamp

    def submitted(self, timestamp, description):
        """Record the timestamp KGSL gave a submission; returns its timeline value."""
        value = self.base + timestamp
        if value != self.last_submitted + 1:
            raise GPUError(f"KGSL gave timestamp {timestamp} to a submission of context {self.context_id}; "
                           f"timestamp {self.last_submitted + 1 - self.base} was expected next")
        self.last_submitted = value
        self.record(value, description)
        return value

    def wait(self, target, timeout=None):
        """Until value >= target: GPUHang after ``timeout`` seconds, ContextLost if KGSL gave up
        on the context."""
        if self.value >= target:
            return
        timeout = self.timeout if timeout is None else timeout
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            try:
                kgsl.wait_timestamp(self.kernel, self.fd, self.context_id, target - self.base,
                                    max(1, int(np.ceil(left * 1000))) if left > 0 else 1)
                break
            except IoctlError as e:
                if e.errno_value in (errno.EINTR, errno.EAGAIN) and time.monotonic() < deadline:
                    continue                # interrupted: KGSL asks to be called again
                if e.errno_value == errno.ETIMEDOUT:
                    detail = e.strerror.split(": ", 2)[-1] if ": " in e.strerror else ""
                    raise self.hang(target, detail if "CP" in detail else "") from None
                if e.errno_value == errno.EDEADLK:
                    raise ContextLost(e) from None
                raise
        self.forget(target)

    def rebase(self, context_id):
        """A new context: its timestamp 0 is where this timeline stopped."""
        self.context_id = context_id
        self.base = self.last_submitted
        self.reset(self.last_submitted)
