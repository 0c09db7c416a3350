"""Timeline signals and the host wait: spin briefly, then sleep in WAIT_EVENTS.

A timeline signal is a 64-bit counter in uncached GTT memory that one queue's GPU packets
raise after each submission (RELEASE_MEM on a compute queue, FENCE on SDMA). Waiting for
value v means waiting until the counter is >= v. Each completion also writes the device's
signal event id into that event's mailbox slot and raises an interrupt, which is what lets the
host sleep in WAIT_EVENTS instead of burning a core.

The same WAIT_EVENTS call listens to the process's memory-exception and hardware-exception
events, so a GPU page fault or reset ends a wait at once as GPUFault / GPUError instead of
running into the timeout.  A wave exception (illegal instruction, s_trap) reaches the runtime
through the error payload each compute queue names in its context-save-area header
(queues.py): KFD sets a bit there and signals the device's event, and the wait raises
WaveException with the exception, the PC and the reason the trap handler left after that word.
"""
import time

import numpy as np
from kfd_ioctl import ffi

from drivers.amd import kfd as K
from drivers.device import Timeline, describe  # noqa: F401 (describe is part of this module's interface)
from drivers.errors import GPUFault, GPUHang, HardwareException, WaveException  # noqa: F401 (re-exported)

ERROR_PAYLOAD_PC, ERROR_PAYLOAD_REASON, ERROR_PAYLOAD_REASON_BYTES = 8, 16, 240   # after the EC mask word

SIGNAL_BYTES = 16              # {u64 value, u64 spare}, 16-byte slots as amd_signal_t-free timelines use
SPIN_SECONDS = 200e-6          # busy-poll this long before sleeping in the kernel
SLEEP_SLICE_MS = 100           # each WAIT_EVENTS sleep; short so a missed interrupt costs little
DEFAULT_TIMEOUT = 30.0


class Events:
    """The KFD events one device waits on: its queues' completion event plus the process's
    memory- and hardware-exception events. ``mailbox`` is the event-page slot the GPU writes."""

    def __init__(self, kfd, event_page, signal_event, memory_event, hw_event, gpu_id=0):
        self.kfd, self.event_page, self.gpu_id = kfd, event_page, gpu_id
        self.signal_event, self.memory_event, self.hw_event = signal_event, memory_event, hw_event
        self.event_id = signal_event.event_id
        self.mailbox = event_page.va + 8 * signal_event.event_slot_index
        self.data = ffi.new("struct kfd_event_data[3]")
        self.error_payloads = {}          # queue name -> the queue's error payload bytes (numpy uint8)

    def watch_errors(self, name, payload):
        """Report wave exceptions that KFD writes into ``payload`` (a queue's err_payload)."""
        self.error_payloads[name] = payload

    def unwatch_errors(self, name):
        self.error_payloads.pop(name, None)

    def wait(self, timeout_ms):
        """One WAIT_EVENTS; raises GPUFault / GPUError when an exception event fired."""
        d = self.data
        for i, ev in enumerate((self.signal_event, self.memory_event, self.hw_event)):
            ffi.memmove(ffi.addressof(d[i]), b"\0" * ffi.sizeof(d[i]), ffi.sizeof(d[i]))
            d[i].event_id = ev.event_id
        result = self.kfd.wait_events(d, timeout_ms)
        self.check_exceptions()
        return result

    def check_exceptions(self):
        for name, payload in self.error_payloads.items():
            mask = int(payload[:8].view(np.uint64)[0])
            if mask:
                raise wave_exception(name, mask, payload)
        # Exception events reach every device of the process; each reports only its own GPU's.
        mem = self.data[1].memory_exception_data
        if (mem.gpu_id or mem.va or mem.failure.NotPresent or mem.failure.ReadOnly or mem.failure.NoExecute) \
                and mem.gpu_id in (0, self.gpu_id):
            raise GPUFault(mem.va, fault_reason(mem), f"gpu_id {mem.gpu_id}")
        hw = self.data[2].hw_exception_data
        if (hw.gpu_id or hw.reset_type or hw.memory_lost) and hw.gpu_id in (0, self.gpu_id):
            lost = "; VRAM contents were lost" if hw.memory_lost else ""
            raise HardwareException(f"KFD reported a GPU reset on gpu_id {hw.gpu_id} (reset_type {hw.reset_type}, "
                                    f"cause {hw.reset_cause}){lost}")


def wave_exception(queue, mask, payload):
    """WaveException from a queue's error payload: the EC_* bits of ``mask`` (KFD_EC_MASK(ec) is
    bit ec - 1), then the PC and the reason when the trap handler wrote them."""
    codes = [bit + 1 for bit in range(64) if mask >> bit & 1]
    pc = int(payload[ERROR_PAYLOAD_PC:ERROR_PAYLOAD_PC + 8].view(np.uint64)[0])
    raw = payload[ERROR_PAYLOAD_REASON:ERROR_PAYLOAD_REASON + ERROR_PAYLOAD_REASON_BYTES].tobytes()
    reason = raw.split(b"\0", 1)[0].decode("utf-8", "replace")
    return WaveException(queue, codes, pc or None, reason)


def fault_reason(mem):
    f = mem.failure
    reasons = [name for name, bit in (("page not present", f.NotPresent), ("write to read-only page", f.ReadOnly),
                                      ("execute from no-execute page", f.NoExecute)) if bit]
    text = ", ".join(reasons) or "memory exception"
    return text + (" (imprecise address)" if f.imprecise else "")


class TimelineSignal(Timeline):
    """A monotonically increasing 64-bit counter at ``address`` (a CPU-visible mapping)."""

    def __init__(self, buffer, offset, events, name="timeline", timeout=DEFAULT_TIMEOUT):
        super().__init__(name, timeout)          # timeout: seconds a wait may take unless told otherwise
        self.buffer, self.offset, self.events = buffer, offset, events
        self.address = buffer.va + offset
        self._word = buffer.view(np.uint64, offset, 1)
        self._mv = memoryview(self._word)            # the fast way to read one word
        self._word[0] = 0

    @property
    def value(self):
        return self._mv[0]

    def wait(self, target, timeout=None):
        """Block until value >= target. GPUHang after ``timeout`` seconds, GPUFault on a fault,
        WaveException on a wave exception of one of the device's queues."""
        word = self._mv
        if word[0] >= target:
            return
        if timeout is None:
            timeout = self.timeout
        start = time.perf_counter()
        deadline = start + SPIN_SECONDS
        while time.perf_counter() < deadline:
            if word[0] >= target:
                return
            time.sleep(0)                # yield: another thread of this process may be the one working
        deadline = start + timeout
        while True:
            now = time.perf_counter()
            if word[0] >= target:
                break
            if now >= deadline:
                raise self.hang(target)
            try:
                self.events.wait(max(1, min(SLEEP_SLICE_MS, int((deadline - now) * 1000))))
            except WaveException:
                raise
            except HardwareException as e:     # the GPU gave up on the queue: a hang it detected
                raise self.hang(target, str(e)) from None
        self.forget(target)

    def reset(self, value):
        """After a queue is recreated: the counter restarts where the host says."""
        self._word[0] = value
        super().reset(value)


def create_events(kfd, event_page_handle, node_id=0):
    """(signal, memory, hw) CREATE_EVENT results; the first signal event of a process passes
    the event-page BO handle (dGPUs need it), later ones pass 0."""
    signal = kfd.create_event(K.EVENT_SIGNAL, auto_reset=True, event_page_handle=event_page_handle, node_id=node_id)
    try:
        # auto-reset: a fault is reported to the one wait that sees it, not to every later wait
        memory = kfd.create_event(K.EVENT_MEMORY, auto_reset=True, node_id=node_id)
        hw = kfd.create_event(K.EVENT_HW_EXCEPTION, auto_reset=True, node_id=node_id)
    except BaseException:
        kfd.destroy_event(signal.event_id)
        raise
    return signal, memory, hw
