"""The replayer a command buffer binds when it is built (replay.CommandBuffer._pm4_replayer and
_aql_replayer): it writes the ring words ComputeQueue.replay_pm4 / replay_aql write, and
everything it does not handle itself takes the general submit."""
import numpy as np
import pytest

from drivers.amd import replay
from drivers.amd.compute import SIGNAL_PM4_OFFSET, SIGNAL_SLOT_BYTES
from drivers.amd.device import AMDDevice
from drivers.emu import make_kernel
from drivers.errors import GPUError

from test_amd_device import assert_nothing_live, code_object, pattern_executor


# per queue kind: the general submit's untimed replay, and where it sends what it cannot take
REPLAY = {"pm4": "replay_pm4", "aql": "replay_aql"}
FALLBACK = {"pm4": "submit_ib", "aql": "submit_packets"}


@pytest.fixture(params=["pm4", "aql"])
def setup(request):
    kernel = make_kernel("gfx1100")
    dev = AMDDevice(kernel=kernel, aql=request.param == "aql")
    dev.kind = request.param
    seen = []
    kernel.gpu.executor = pattern_executor(seen)
    prg = dev.load(code_object("grid3d"))
    out, aux = dev.alloc(4 * 512), dev.alloc(4096)
    cb = dev.command_buffer()
    cb.add(prg["grid3d"], out, aux, grid=(2, 1, 1), block=(16, 1, 1))
    cb.add(prg["grid3d"], out, aux, grid=(1, 2, 1), block=(8, 2, 1))
    cb.submit(wait=True)
    dev.synchronize()
    dev.launch_one = lambda: prg["grid3d"](out, aux, grid=(1, 1, 1), block=(16, 1, 1))     # two packets
    yield dev, cb, seen
    if not dev.closed:
        dev.close()
    assert_nothing_live(kernel)


class _Spy:
    """Counts the general path's calls into the queue (replay_pm4 / replay_aql untimed,
    submit_ib / submit_packets, hw.submit_words)."""

    def __init__(self, monkeypatch, q):
        self.calls = []
        for name in ("replay_pm4", "submit_ib", "replay_aql", "submit_packets"):
            real = getattr(q, name)
            monkeypatch.setattr(q, name, lambda *a, real=real, name=name: self.calls.append(name) or real(*a))


def _ring_words(dev, cb):
    """The last replay's ring words (PM4: INDIRECT_BUFFER and the signal, whose value is checked
    and then zeroed; AQL: see _ring_slots)."""
    if dev.kind == "aql":
        return _ring_slots(dev, 3)
    q, hw = dev.compute, dev.compute.hw
    n = len(cb.template)
    words = hw.ring_u32[hw.wptr % hw.capacity - n:hw.wptr % hw.capacity].copy()
    value = q.timeline.last_submitted
    lo = q._value_slot
    assert int(words[lo]) | int(words[lo + 1]) << 32 == value
    words[lo:lo + 2] = 0
    return words


def _ring_slots(dev, n):
    """The last ``n`` packets written, with the signal packet's IB address checked against the
    slot of its value and then zeroed (the value differs from one replay to the next)."""
    q, hw = dev.compute, dev.compute.hw
    first = (hw.wptr - n) % hw.capacity
    slots = hw.ring_u32.reshape(-1, 16)[first:first + n].copy()
    value = q.timeline.last_submitted
    slot = value % hw.capacity
    ib = int(slots[-1, 2]) | int(slots[-1, 3]) << 32
    assert ib == q._signal_slots.va + SIGNAL_SLOT_BYTES * slot + SIGNAL_PM4_OFFSET
    pm4 = q._signal_slots.view(np.uint32, ib - q._signal_slots.va, 16)
    assert int(pm4[5]) | int(pm4[6]) << 32 == value       # RELEASE_MEM data_lo / data_hi: its value
    slots[-1, 2:4] = 0
    return slots


def test_the_replayer_writes_what_the_general_replay_writes(setup, monkeypatch):
    dev, cb, seen = setup
    assert "submit" in vars(cb)                          # bound when the command buffer was built
    spy = _Spy(monkeypatch, dev.compute)
    cb.submit()
    fast = _ring_words(dev, cb)
    assert spy.calls == []                               # the replayer wrote it itself
    replay.CommandBuffer.submit(cb)                      # the general submit: replay_pm4 / replay_aql
    general = _ring_words(dev, cb)
    assert spy.calls == [REPLAY[dev.kind]]
    assert np.array_equal(fast, general)
    assert cb.last_value == dev.compute.timeline.last_submitted
    dev.synchronize()
    assert len(seen) == 6


@pytest.mark.parametrize("case", ["wait", "debug", "copy busy", "hdp flush"])
def test_what_the_replayer_does_not_handle_takes_the_general_submit(setup, monkeypatch, case):
    dev, cb, seen = setup
    q = dev.compute
    spy = _Spy(monkeypatch, q)
    flushes = []
    if case == "debug":
        monkeypatch.setattr(q.hw, "debug", 2)
    elif case == "copy busy":
        class Busy:
            _mv, last_submitted = [0], 1
        monkeypatch.setattr(q, "copy_timeline", Busy())
    elif case == "hdp flush":
        monkeypatch.setattr(dev, "flush_hdp_on_submit", True)
        monkeypatch.setattr(dev, "hdp_flush", lambda: flushes.append(1))
    secs = cb.submit(wait=case == "wait")
    replay_, fallback = REPLAY[dev.kind], FALLBACK[dev.kind]
    if dev.kind == "aql":     # replay_aql itself sends a busy copy queue and DEBUG>=2 to submit_packets
        want = {"wait": [fallback], "hdp flush": [replay_]}.get(case, [replay_, fallback])
    else:                     # replay_pm4 writes those words itself, through hw.submit_words
        want = [fallback] if case == "wait" else [replay_]
    assert spy.calls == want
    assert (secs is not None) == (case == "wait") and flushes == ([1] if case == "hdp flush" else [])
    monkeypatch.undo()
    dev.synchronize()
    assert len(seen) == 4


def test_a_replay_at_the_ring_end_or_without_room_takes_the_general_submit(setup, monkeypatch):
    dev, cb, seen = setup
    q, hw = dev.compute, dev.compute.hw
    dev.kernel.gpu.executor = lambda d: None
    while hw.wptr < hw.capacity:                         # the first lap ends with the ring full
        cb.submit()
    end = 2 * hw.capacity
    n = 3 if dev.kind == "aql" else len(cb.template)     # ring units (packets, dwords) per replay
    while (end - hw.wptr) % n == 0:                      # so that replays stop short of the end
        dev.launch_one()
    spy = _Spy(monkeypatch, q)
    taken = []
    while hw.wptr < end + 8:                             # round the ring again and past its end
        pos, before = hw.wptr % hw.capacity, len(spy.calls)
        wrap, room = pos + n > hw.capacity, hw.wptr + n - hw.retired <= hw.capacity
        cb.submit()
        taken.append((wrap, not room, len(spy.calls) > before))
    assert [general for wrap, full, general in taken] == [wrap or full for wrap, full, _ in taken]
    assert sum(wrap for wrap, _, _ in taken) == 1 and sum(not g for _, _, g in taken) > 1000
    dev.synchronize()


def test_moved_scratch_rebuilds_and_a_closed_device_refuses(setup):
    dev, cb, _ = setup
    replayer = cb.submit
    dev.scratch_va += 1 << 20                            # as ensure_scratch moves it
    cb.submit()
    assert cb.submit is not replayer and cb._scratch_va == dev.scratch_va
    dev.scratch_va -= 1 << 20
    cb.submit()
    dev.synchronize()
    cb.free()
    assert "submit" not in vars(cb)                      # the freed block is not replayed
    dev.close()
    with pytest.raises(GPUError, match="closed"):
        cb.submit()
