"""Copies through the device's copy engine (SDMA): every byte right, and how fast.

Correctness covers 1 byte to 256 MiB at odd offsets in both buffers, host->device,
device->host and device->device, and checks the bytes around each destination are untouched
(a copy that writes one byte too many is as broken as one that writes one too few). On the
virtual GPU the largest size is capped at 64 MiB (it copies with numpy at ~1 GB/s).
"""
import time

import numpy as np

from drivers.amd.copy import CPUCopier
from hw_tests.runner import CheckFailed, Skip, check
from hw_tests.stages.memory import heaps
from hw_tests.units import exact_size, rate, size

MiB = 1 << 20
SIZES = (1, 2, 3, 4, 7, 64, 255, 4095, 4096, 4097, 65537, MiB - 1, MiB + 13, 4 * MiB + 1, 16 * MiB,
         64 * MiB, 256 * MiB)
MAX_SIZE = (256 * MiB, 64 * MiB)              # hardware, simulator
OFFSETS = ((0, 0), (1, 3), (3, 1), (7, 4093), (4093, 2))   # (destination, source) byte offsets
GUARD = 64                                    # bytes checked on each side of a destination
BANDWIDTH_BYTES = (256 * MiB, 32 * MiB)
BANDWIDTH_REPEATS = (5, 2)
SENTINEL = 0xA5
HEAP_PROBE_BYTES = 64 << 10


def _mismatch(got, want):
    bad = np.flatnonzero(got != want)
    return f"{bad.size} bytes differ, first at offset {bad[0]} (got 0x{got[bad[0]]:02x}, want 0x{want[bad[0]]:02x})"


def sdma_copy(ctx, r):
    """Copy engine correctness: 1 B .. 256 MiB at odd offsets, host<->device and device<->device"""
    dev = ctx.dev
    if isinstance(dev.copier, CPUCopier):
        raise Skip("SDMA copies are turned off (AMD_DISABLE_SDMA=1): the CPU copies instead")
    largest = ctx.size(*MAX_SIZE)
    sizes = [s for s in SIZES if s <= largest]
    if largest < SIZES[-1]:
        r.note(f"virtual GPU: sizes capped at {exact_size(largest)} (a card goes to {exact_size(SIZES[-1])})")
    span = largest + 2 * 4096 + 2 * GUARD
    rng = np.random.default_rng(7)
    a, b = dev.alloc(span), dev.alloc(span)
    checked = 0
    try:
        for n in sizes:
            for k, (dst_off, src_off) in enumerate(OFFSETS[:2] if n >= 16 * MiB else OFFSETS):
                dst_off, src_off = dst_off + GUARD, src_off + GUARD
                data = rng.integers(0, 256, n, dtype=np.uint8)
                r.step(f"{exact_size(n)} at offsets dst +{dst_off} src +{src_off}")
                # host -> device at an odd offset, device -> device into a sentinel-filled buffer
                dev.copyin(a, data, src_off)
                fill = np.full(n + 2 * GUARD, SENTINEL, np.uint8)
                dev.copyin(b, fill, dst_off - GUARD)
                dev.copy(b, a, n, dst_offset=dst_off, src_offset=src_off)
                # device -> host, reading the guard bytes too
                out = np.empty(n + 2 * GUARD, np.uint8)
                dev.copyout(out, b, dst_off - GUARD)
                body, before, after = out[GUARD:GUARD + n], out[:GUARD], out[GUARD + n:]
                if not np.array_equal(body, data):
                    raise CheckFailed(f"{exact_size(n)} copy with offsets dst +{dst_off} src +{src_off}: "
                                      f"{_mismatch(body, data)}")
                check((before == SENTINEL).all() and (after == SENTINEL).all(),
                      f"{exact_size(n)} copy to offset +{dst_off} wrote outside its destination "
                      f"({int((before != SENTINEL).sum())} bytes before it, {int((after != SENTINEL).sum())} after)")
                checked += 1
    finally:
        a.free()
        b.free()
    heaps = every_heap_reachable(ctx, r)
    r.measure("copies_checked", checked)
    r.measure("largest_bytes", sizes[-1], "B")
    r.summary = (f"{checked} copies of {exact_size(sizes[0])} .. {exact_size(sizes[-1])} at odd offsets: "
                 "every byte right, "
                 f"guards intact; {', '.join(heaps)} reachable by the engine")


def every_heap_reachable(ctx, r):
    """The copy engine reads and writes a buffer of every heap (its GPU mapping is real)."""
    dev = ctx.dev
    data = np.random.default_rng(8).integers(0, 256, HEAP_PROBE_BYTES, dtype=np.uint8)
    names = []
    for heap in heaps(ctx):
        r.step(f"{heap.name}: copy engine writes and reads it")
        a, b = dev.memory.alloc(HEAP_PROBE_BYTES, heap), dev.alloc(HEAP_PROBE_BYTES)
        a.device = dev
        try:
            dev.copyin(b, data)
            dev.copy(a, b)
            if heap.cpu_visible:
                seen = a.view().copy()
                if not np.array_equal(seen, data):
                    raise CheckFailed(f"{heap.name}: the CPU sees other bytes than the engine wrote: "
                                      f"{_mismatch(seen, data)}")
            back = np.empty_like(data)
            dev.copyout(back, a)
            if not np.array_equal(back, data):
                raise CheckFailed(f"{heap.name}: engine round trip: {_mismatch(back, data)}")
        finally:
            a.free()
            b.free()
        names.append(heap.name)
    return names


def _best(fn, repeats):
    best = None
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        t = time.perf_counter() - start
        best = t if best is None else min(best, t)
    return best


def sdma_bandwidth(ctx, r):
    """Copy bandwidth host->device, device->host, device->device (GB/s, best of several)"""
    dev = ctx.dev
    n = ctx.size(*BANDWIDTH_BYTES, r, "bytes per copy")
    repeats = ctx.size(*BANDWIDTH_REPEATS, r, "repeats")
    host = np.random.default_rng(3).integers(0, 256, n, dtype=np.uint8)
    back = np.empty_like(host)
    a, b = dev.alloc(n), dev.alloc(n)
    try:
        results = {}
        for key, fn in (("host_to_device", lambda: dev.copyin(a, host)),
                        ("device_to_host", lambda: dev.copyout(back, a)),
                        ("device_to_device", lambda: dev.copy(b, a))):
            r.step(f"{key.replace('_', ' ')}: {repeats} x {size(n)}")
            results[key] = n / _best(fn, repeats) / 1e9
            r.measure(f"{key}_gbps", round(results[key], 4), "GB/s")
        check(np.array_equal(back, host), "the bandwidth run's data did not survive the round trip")
    finally:
        a.free()
        b.free()
    r.measure("bytes", n, "B")
    where = "virtual GPU (this measures the simulator): " if ctx.emulated else ""
    r.summary = where + ", ".join(f"{k.replace('_to_', '->').replace('device', 'dev').replace('host', 'host')} "
                                  f"{rate(v, 'GB/s')}" for k, v in results.items()) + f" ({size(n)} copies)"


def register(reg):
    reg.add("sdma_copy", sdma_copy, depends=["memory"])
    reg.add("sdma_bandwidth", sdma_bandwidth, depends=["sdma_copy"])
