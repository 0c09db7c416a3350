"""The words an engine still reads after a submission's timeline value lands (its signal tail)
stay unretired until the next submission, so a lap of the ring never overwrites them.

Each queue's ``signal_tail`` must equal what its owner really writes behind the timeline write:
these tests find the timeline write in the submitted words and count what follows it, and check
that the queue retires a completed submission only up to that tail."""
import numpy as np
import pytest

from drivers.amd import pm4, sdma
from drivers.amd.device import AMDDevice


@pytest.fixture
def dev():
    with AMDDevice(emulate="gfx1100") as d:
        yield d


def _after(words, packet):
    """The words behind the one occurrence of ``packet`` in ``words``."""
    n = len(packet)
    at = [i for i in range(len(words) - n + 1) if list(words[i:i + n]) == packet]
    assert len(at) == 1, f"the timeline write occurs {len(at)} times"
    return words[at[0] + n:]


def test_sdma_tail_is_what_follows_the_timeline_low_fence(dev, monkeypatch):
    copier = dev.copier
    sent = []
    monkeypatch.setattr(copier.hw, "submit", lambda dwords, value, timeline: sent.append((list(dwords), value)))
    copier.copy(dev.alloc(64).va, dev.alloc(64).va, 64)
    (words, value), = sent
    # the value counts as landed once its low dword is written (the high one only changes on a carry)
    low = sdma.fence(copier.timeline.address, value & 0xFFFFFFFF)
    assert 4 * len(_after(words, low)) == copier.hw.signal_tail == 40


def test_pm4_tail_is_what_follows_the_timeline_release_mem():
    with AMDDevice(emulate="gfx1100", aql=False) as d:
        compute = d.compute
        value = compute.timeline.last_submitted + 1
        words = compute.pm4_signal(value)
        assert len(_after(words, pm4.release_mem(compute.timeline.address, value))) == compute.hw.signal_tail > 0


def test_a_completed_submission_is_retired_up_to_its_tail(dev):
    hw, timeline = dev.copier.hw, dev.copier.timeline
    buf = dev.alloc(4096, cpu_access=True)
    buf.copyin(np.arange(16, dtype=np.uint8), 0)
    dev.synchronize()
    end = hw.pending[-1][1]
    hw.make_room(1, timeline)
    assert not hw.pending and hw.retired == end - hw.signal_tail
