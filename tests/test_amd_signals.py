"""Timeline signals and exception events in isolation: which GPU's exceptions a device reports,
how faults are worded, and how a wait spins, sleeps, and gives up."""
from types import SimpleNamespace

import numpy as np
import pytest

from drivers.amd import signals
from drivers.amd.signals import Events, HardwareException, TimelineSignal
from drivers.errors import GPUFault, GPUHang


def make_events(gpu_id=0x1234):
    ev = lambda i: SimpleNamespace(event_id=i, event_slot_index=i)    # noqa: E731
    return Events(kfd=None, event_page=SimpleNamespace(va=0x10000), signal_event=ev(3), memory_event=ev(0x80000000),
                  hw_event=ev(0x80000001), gpu_id=gpu_id)


def test_mailbox_is_the_event_slot():
    assert make_events().mailbox == 0x10000 + 8 * 3


def test_memory_exception_of_this_gpu_is_a_fault_with_its_reason():
    e = make_events()
    mem = e.data[1].memory_exception_data
    mem.gpu_id, mem.va, mem.failure.ReadOnly, mem.failure.imprecise = 0x1234, 0xABC000, 1, 1
    with pytest.raises(GPUFault) as err:
        e.check_exceptions()
    assert err.value.va == 0xABC000 and err.value.reason == "write to read-only page (imprecise address)"


def test_exceptions_of_another_gpu_are_left_to_its_device():
    e = make_events()
    e.data[1].memory_exception_data.gpu_id = 0x9999
    e.data[1].memory_exception_data.va = 0x1000
    e.data[2].hw_exception_data.gpu_id = 0x9999
    e.check_exceptions()
    e.data[2].hw_exception_data.gpu_id = 0x1234
    with pytest.raises(HardwareException, match="GPU reset on gpu_id 4660"):
        e.check_exceptions()


class FakeEvents:
    """Stands in for WAIT_EVENTS: counts sleeps and can complete the signal from 'the GPU'."""

    def __init__(self, word=None, fire_after=None, raise_hw=False):
        self.sleeps, self.word, self.fire_after, self.raise_hw = 0, word, fire_after, raise_hw

    def wait(self, timeout_ms):
        self.sleeps += 1
        assert 1 <= timeout_ms <= signals.SLEEP_SLICE_MS
        if self.raise_hw:
            raise HardwareException("KFD reported a GPU reset")
        if self.fire_after is not None and self.sleeps >= self.fire_after:
            self.word[0] = 5


def timeline(events):
    page = np.zeros(8, np.uint64)
    buf = SimpleNamespace(va=0x5000, view=lambda dtype, offset, count: page[offset // 8:offset // 8 + count])
    t = TimelineSignal(buf, 0, events, "compute")
    events.word = page
    return t


def test_wait_returns_at_once_when_done_and_sleeps_in_the_kernel_otherwise():
    ev = FakeEvents(fire_after=3)
    t = timeline(ev)
    for _ in range(5):
        t.next_value("work")
    t.wait(0)
    assert ev.sleeps == 0
    t.wait(5, timeout=5)
    assert ev.sleeps == 3 and t.in_flight == {}


def test_timeout_is_a_hang_naming_the_first_unfinished_work():
    ev = FakeEvents()
    t = timeline(ev)
    t.next_value("first")
    ev.word[0] = 1
    t.next_value("dispatch of k grid (1, 1, 1)")
    t.next_value("third")
    with pytest.raises(GPUHang) as err:
        t.wait(3, timeout=0.05)
    assert err.value.last_value == 1 and err.value.expected == 3
    assert "compute value 2: dispatch of k grid (1, 1, 1)" in str(err.value)
    assert ev.sleeps >= 1


def test_a_reset_during_the_wait_is_a_hang_with_the_cause():
    t = timeline(FakeEvents(raise_hw=True))
    t.next_value("k")
    with pytest.raises(GPUHang, match="compute value 1: k .*GPU reset"):
        t.wait(1, timeout=5)
