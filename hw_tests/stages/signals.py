"""Completion signals, GPU timestamps, interrupts that wake a sleeping host, and memory faults."""
import threading
import time

import numpy as np
from kfd_ioctl import ffi

from drivers.amd import kfd as K
from drivers.amd import pm4, sdma
from drivers.amd.compute import GPU_CLOCK_HZ
from drivers.amd.copy import CPUCopier
from drivers.errors import GPUFault
from drivers.kernel import MAP_ANONYMOUS, MAP_NORESERVE, MAP_PRIVATE, PROT_NONE
from hw_tests.runner import Skip, check

TIMESTAMPS = 12
TIMESTAMP_GAP_S = 0.005
CLOCK_TOLERANCE = 0.25            # a GPU timestamp rate within 25% of the 100 MHz the runtime assumes
GATE_DELAY_S = 0.2                # how long the host keeps the GPU waiting before it opens the gate
WAKE_TIMEOUT_MS = 5000


def _timestamps(ctx, r, submit, buf, first, engine):
    """``TIMESTAMPS`` GPU-clock writes from one engine, each awaited. Each write happened between
    the host's reading before its submission and after its completion, so the GPU ticks between
    the first and the last write must fit the host interval those readings bracket (a host
    descheduled meanwhile widens the bracket instead of failing the check)."""
    dev = ctx.dev
    before, after = [], []
    for i in range(TIMESTAMPS):
        r.step(f"{engine} timestamp {i + 1}/{TIMESTAMPS}")
        before.append(time.perf_counter())
        submit(buf.va + 8 * (first + i))
        dev.synchronize()
        after.append(time.perf_counter())
        time.sleep(TIMESTAMP_GAP_S)
    ts = buf.view(np.uint64, 8 * first, TIMESTAMPS).astype(np.int64)
    check((ts > 0).all(), f"{engine}: {int((ts == 0).sum())} of {TIMESTAMPS} timestamps were never written")
    check((np.diff(ts) > 0).all(), f"{engine}: timestamps are not increasing: {ts.tolist()}")
    ticks = int(ts[-1] - ts[0])
    shortest, longest = before[-1] - after[0], after[-1] - before[0]
    hz = ticks / ((shortest + longest) / 2)
    r.measure(f"{engine}_timestamp_hz", round(hz), "Hz")
    lo, hi = GPU_CLOCK_HZ * (1 - CLOCK_TOLERANCE) * shortest, GPU_CLOCK_HZ * (1 + CLOCK_TOLERANCE) * longest
    check(lo <= ticks <= hi, f"{engine}: {ticks} GPU timestamp ticks in {shortest * 1000:.1f} .. {longest * 1000:.1f} ms "
          f"of host time ({hz / 1e6:.1f} MHz); the runtime converts at {GPU_CLOCK_HZ / 1e6:.0f} MHz "
          f"(tolerance {CLOCK_TOLERANCE:.0%})")
    return hz


def signals(ctx, r):
    """Completion signals and GPU timestamps: monotonic, ticking at the clock the runtime assumes"""
    dev = ctx.dev
    buf = dev.alloc(4096, uncached=True)
    try:
        buf.view(np.uint64)[:] = 0
        before = dev.kfd.clock_counters(dev.gpu_id)
        compute = dev.compute
        hz = [_timestamps(ctx, r, lambda va: compute.submit_pm4(compute.pm4_timestamp(va), "timestamp"),
                          buf, 0, "compute")]
        engines = "compute"
        if not isinstance(dev.copier, CPUCopier):
            hz.append(_timestamps(ctx, r, lambda va: dev.copier.submit(sdma.timestamp(va), "timestamp"),
                                  buf, TIMESTAMPS, "sdma"))
            engines = "compute and SDMA"
        after = dev.kfd.clock_counters(dev.gpu_id)
        t = compute.timeline
        check(t.value == t.last_submitted, f"compute timeline at {t.value}, {t.last_submitted} submitted and awaited")
        r.measure("compute_timeline_value", t.value)
        span = after.system_clock_counter - before.system_clock_counter
        check(span > 0 and after.gpu_clock_counter > before.gpu_clock_counter,
              "GET_CLOCK_COUNTERS: the GPU or system counter did not advance")
        counter_hz = (after.gpu_clock_counter - before.gpu_clock_counter) * after.system_clock_freq / span
        r.measure("clock_counters_gpu_hz", round(counter_hz), "Hz")
    finally:
        buf.free()
    r.summary = (f"{engines} timestamps increase at {', '.join(f'{h / 1e6:.1f} MHz' for h in hz)}; "
                 f"GET_CLOCK_COUNTERS GPU counter {counter_hz / 1e6:.1f} MHz")


def _drain(dev):
    """Consume an interrupt an earlier submission left pending on the (auto-reset) signal event."""
    data = ffi.new("struct kfd_event_data[1]")
    data[0].event_id = dev.events.event_id
    dev.kfd.wait_events(data, 0)


def interrupts(ctx, r):
    """A host sleeping in WAIT_EVENTS is woken by the GPU's end-of-pipe interrupt"""
    dev = ctx.dev
    gate = dev.alloc(4096, uncached=True)
    word = gate.view(np.uint32, 0, 1)
    word[0] = 0
    timer = None
    try:
        _drain(dev)
        r.step("GPU waits (WAIT_REG_MEM) on a word the host writes later")
        value = dev.compute.submit_pm4(pm4.wait_reg_mem(gate.va, 1),
                                       "wait for the host's gate")
        timeline = dev.compute.timeline
        check(timeline.value < value, "the queue ran past a WAIT_REG_MEM whose condition is false")
        opened = {}

        def open_gate():
            opened["at"] = time.perf_counter()
            word[0] = 1

        timer = threading.Timer(GATE_DELAY_S, open_gate)
        data = ffi.new("struct kfd_event_data[1]")
        data[0].event_id = dev.events.event_id
        r.step(f"host sleeps in WAIT_EVENTS (timeout {WAKE_TIMEOUT_MS} ms); gate opens in {GATE_DELAY_S * 1000:.0f} ms")
        start = time.perf_counter()
        timer.start()
        result = dev.kfd.wait_events(data, WAKE_TIMEOUT_MS)
        woke = time.perf_counter()
        check(result == K.WAIT_COMPLETE, f"WAIT_EVENTS returned {result} (not COMPLETE): no interrupt within "
              f"{WAKE_TIMEOUT_MS} ms of a wait the GPU should have ended after {GATE_DELAY_S * 1000:.0f} ms")
        check("at" in opened, f"WAIT_EVENTS returned after {(woke - start) * 1000:.1f} ms, before the gate opened: "
              "a stale or spurious interrupt")
        check(timeline.value >= value, f"woken, but the compute timeline is at {timeline.value}, not {value}")
        slept, latency = woke - start, woke - opened["at"]
        r.measure("slept_ms", round(slept * 1000, 3), "ms")
        r.measure("wake_latency_ms", round(latency * 1000, 3), "ms")
    finally:
        if timer is not None:
            timer.cancel()
        word[0] = 1                      # never leave the queue blocked
        dev.synchronize()
        gate.free()
    r.summary = f"slept {slept * 1000:.0f} ms in WAIT_EVENTS, woken {latency * 1000:.1f} ms after the GPU could proceed"


def fault_copy(ctx, r):
    """An SDMA read of an unmapped VA is reported with that VA, and the device recovers"""
    dev = ctx.dev
    if isinstance(dev.copier, CPUCopier):
        raise Skip("SDMA copies are turned off (AMD_DISABLE_SDMA=1)")
    # an address range reserved on the CPU side, so nothing else lands there, and never GPU-mapped
    hole = ctx.kernel.mmap(None, 1 << 21, 0, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE)
    bad_va = hole.address + 0x1230
    dst = dev.alloc(4096)
    try:
        r.step(f"SDMA copy from unmapped VA 0x{bad_va:x}")
        value = dev.copier.submit(sdma.copy_linear(dst.va, bad_va, 256), "deliberate fault")
        fault = None
        try:
            dev.copier.timeline.wait(value, 10.0)
        except GPUFault as e:
            fault = e
        check(fault is not None, f"reading unmapped VA 0x{bad_va:x} did not fault")
        r.measure("fault_va", f"0x{fault.va:x}")
        r.measure("fault_reason", fault.reason)
        check(fault.va & ~0xFFF == bad_va & ~0xFFF,
              f"the fault names VA 0x{fault.va:x}, the copy read page 0x{bad_va & ~0xFFF:x}")
        r.step("recover the queues and copy again")
        dev.recover()
        data = np.arange(1024, dtype=np.uint32)
        dst.copyin(data)
        back = np.empty_like(data)
        dst.copyout(back)
        check(np.array_equal(back, data), "after recovering from the fault, a copy returned wrong data")
        dev.compute.submit_pm4(pm4.nop(2), "after the fault")
        dev.synchronize()
    finally:
        dst.free()
        ctx.kernel.munmap(hole)
    r.summary = f"fault at VA 0x{fault.va:x} ({fault.reason}); queues recreated, copies and submissions work again"


def register(reg):
    reg.add("signals", signals, depends=["open"])
    reg.add("interrupts", interrupts, depends=["signals"])
    reg.add("fault_copy", fault_copy, depends=["sdma_copy"])
