"""What every vendor's device shares: argument checking, debug switches, and the bookkeeping of a
timeline of submissions.

A vendor device (drivers.amd.AMDDevice, drivers.qcom.QCOMDevice) has the same shape:
``alloc``, ``copyin``/``copyout``, ``load(program)``, ``prg["k"](*args, grid=, block=, wait=)``,
``synchronize``, ``command_buffer()``, ``close``; a fault is GPUFault, a wait past its timeout
GPUHang, both from drivers.errors. The pieces here are the ones that do not depend on the
kernel interface underneath.
"""
import abc

import numpy as np

from drivers.errors import GPUError, GPUHang, InvalidArgument
from drivers.settings import debug_level, debug_line, env_flag  # noqa: F401 (checked settings, part of this interface)

CLOSE_WAIT_SECONDS = 5.0       # the longest close() lets queued work run before abandoning it


def dims(value, what):
    """``grid``/``block``: an int or up to three positive ints -> a 3-tuple (missing dimensions
    are 1); anything else is InvalidArgument naming ``what``."""
    if type(value) is tuple and len(value) == 3:
        x, y, z = value
        if type(x) is int and type(y) is int and type(z) is int and x > 0 and y > 0 and z > 0:
            return value
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        value = (value,)
    try:
        out = tuple(int(v) for v in value)
        exact = all(int(v) == v and not isinstance(v, (bool, str, bytes)) for v in value)
    except (TypeError, ValueError, OverflowError):
        raise InvalidArgument(f"{what} must be up to three positive integers, got {value!r}") from None
    if not 1 <= len(out) <= 3 or any(d < 1 for d in out) or not exact:
        raise InvalidArgument(f"{what} must be up to three positive integers, got {value!r}")
    return out + (1,) * (3 - len(out))


def as_bytes(array, what):
    """A flat uint8 view of a contiguous numpy array or bytes-like object."""
    if isinstance(array, np.ndarray):
        if not array.flags.c_contiguous:
            raise InvalidArgument(f"{what} must be a C-contiguous array (use np.ascontiguousarray)")
        if array.dtype.hasobject:
            raise InvalidArgument(f"{what} holds Python objects ({array.dtype}), not bytes a GPU can use")
        return array.reshape(-1).view(np.uint8)
    if isinstance(array, (bytes, bytearray)):
        return np.frombuffer(array, np.uint8)
    if isinstance(array, memoryview):
        if not array.c_contiguous:
            raise InvalidArgument(f"{what} must be a contiguous memoryview")
        return np.frombuffer(array.cast("B") if array.format != "B" or array.ndim != 1 else array, np.uint8)
    raise InvalidArgument(f"{what} must be a numpy array or bytes, got {type(array).__name__}")


def check_range(buf, offset, nbytes, what):
    for name, v in (("offset", offset), ("size", nbytes)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise InvalidArgument(f"{what}: {name} must be an int number of bytes, got {v!r}")
    if offset < 0 or nbytes < 0 or offset + nbytes > buf.size:
        raise InvalidArgument(f"{what}: {nbytes} bytes at offset {offset} do not fit the {buf.size}-byte buffer "
                              f"at 0x{buf.va:x}")


def describe(work):
    """What a submission was: a string, or (format, *args) formatted only when someone asks."""
    return work[0].format(*work[1:]) if isinstance(work, tuple) else str(work)


class Timeline(abc.ABC):
    """A monotonically increasing completion counter and what each pending value stands for.

    A vendor fills in ``value`` (the last completed value: a signal in memory, a KGSL
    timestamp) and ``wait(target, timeout)``; this keeps ``last_submitted``, the record of work in
    flight that a GPUHang names, and the reset after a queue or context is recreated."""

    RECORD_LIMIT = 4096

    def __init__(self, name, timeout):
        self.name, self.timeout = name, timeout
        self.last_submitted = 0          # the value the newest submission will reach
        self.in_flight = {}              # value -> what reaches it (see describe())

    @property
    @abc.abstractmethod
    def value(self):
        """The last completed value."""

    def next_value(self, description):
        self.last_submitted += 1
        self.record(self.last_submitted, description)
        return self.last_submitted

    def record(self, value, description):
        self.in_flight[value] = description
        if len(self.in_flight) > self.RECORD_LIMIT:   # keep the record small: completed entries go first
            self.forget(self.value)

    def forget(self, done):
        for v in [v for v in self.in_flight if v <= done]:
            del self.in_flight[v]

    def hang(self, target, cause=""):
        done = self.value
        pending = sorted(v for v in self.in_flight if v > done)
        what = self.in_flight.get(pending[0], "unknown work") if pending else "nothing recorded"
        text = f"{self.name} value {pending[0] if pending else done + 1}: {describe(what)}"
        return GPUHang(done, target, text + (f" ({cause})" if cause else ""))

    def reset(self, value):
        """After a queue or context is recreated: the counter continues from ``value``."""
        self.last_submitted = value
        self.in_flight.clear()


class Device:
    """The parts of a vendor device that do not touch the kernel."""
    closed = False
    name = "device"

    def _check_open(self):
        if self.closed:
            raise GPUError(f"{self.name} is closed")

    def _finish_before_close(self, timeline):
        """Let the work queued on ``timeline`` finish before its memory goes; a dead or hung queue
        is abandoned (said at DEBUG=1)."""
        if timeline is None or timeline.value >= timeline.last_submitted:
            return
        try:
            timeline.wait(timeline.last_submitted, min(self.timeout, CLOSE_WAIT_SECONDS))
        except GPUError as e:
            if self.debug >= 1:
                debug_line(f"{type(self).__name__} {self.index}: close abandons unfinished work: {e}")

    def copyin_raw(self, buf, data):
        self.copyin(buf, np.frombuffer(bytes(data), np.uint8))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
