"""Memory through the RM and UVM (VRAM, host-visible VRAM, pinned host memory), then the copy
engine: every byte right at odd sizes and offsets, and how fast."""
import time

import numpy as np

from hw_tests.runner import check
from hw_tests.stages.isa import compare
from hw_tests.units import rate, size

MiB = 1 << 20
HEAPS = (("vram", {}), ("vram_cpu", {"cpu_access": True}), ("host", {"host": True}))
SIZES = ((4096, MiB, 64 * MiB), (4096, MiB, 8 * MiB))                 # card, virtual GPU
COPY_SIZES = (1, 3, 4, 255, 4097, 65537, MiB + 13, 16 * MiB + 5, 64 * MiB)
MAX_COPY = (64 * MiB, 4 * MiB)
OFFSETS = ((0, 0), (1, 3), (4093, 2))      # (destination, source) byte offsets
GUARD, SENTINEL = 64, 0xA5
BANDWIDTH_BYTES = ((256 * MiB, 5), (16 * MiB, 2))


def memory(ctx, r):
    """Allocate VRAM, host-visible VRAM and pinned host memory of several sizes; round trips exact"""
    dev = ctx.dev
    sizes = ctx.size(SIZES[0], SIZES[1], r, "largest buffer")
    rng = np.random.default_rng(1)
    vas, before = [], len(dev.memory.live)
    for heap, kw in HEAPS:
        for n in sizes:
            r.step(f"{heap} {size(n)}")
            buf = dev.alloc(n, **kw)
            try:
                check(buf.va % 4096 == 0 and buf.size == n, f"{heap} {size(n)}: VA 0x{buf.va:x}, size {buf.size}")
                check(all(buf.va + n <= a or a + m <= buf.va for a, m in vas),
                      f"{heap} buffer at 0x{buf.va:x} overlaps a live one")
                data = rng.integers(0, 256, n, dtype=np.uint8)
                buf.copyin(data)
                if buf.mapping is not None:
                    compare(f"{heap} {size(n)} seen by the CPU", buf.view(np.uint8), data)
                back = np.empty_like(data)
                buf.copyout(back)
                compare(f"{heap} {size(n)} round trip", back, data)
            finally:
                buf.free()
    check(len(dev.memory.live) == before, f"{len(dev.memory.live) - before} buffers still live after freeing "
          "every one")
    r.measure("largest_buffer", sizes[-1], "B")
    r.summary = f"{len(HEAPS)} heaps x {len(sizes)} sizes up to {size(sizes[-1])}: round trips exact"


def copies(ctx, r):
    """The copy engine: 1 B .. 64 MiB at odd offsets host->device, device->device, device->host; bandwidth"""
    dev = ctx.dev
    largest = ctx.size(*MAX_COPY)
    sizes = [n for n in COPY_SIZES if n <= largest]
    if largest < COPY_SIZES[-1]:
        r.note(f"virtual GPU: sizes capped at {size(largest)} (a card goes to {size(COPY_SIZES[-1])})")
    span = largest + 2 * 4096 + 2 * GUARD
    rng = np.random.default_rng(7)
    a, b = dev.alloc(span), dev.alloc(span)
    try:
        for n in sizes:
            for dst_off, src_off in OFFSETS:
                dst_off, src_off = dst_off + GUARD, src_off + GUARD
                r.step(f"{size(n)} at offsets dst +{dst_off} src +{src_off}")
                data = rng.integers(0, 256, n, dtype=np.uint8)
                dev.copyin(a, data, src_off)
                dev.copyin(b, np.full(n + 2 * GUARD, SENTINEL, np.uint8), dst_off - GUARD)
                dev.copy(b, a, n, dst_offset=dst_off, src_offset=src_off)
                out = np.empty(n + 2 * GUARD, np.uint8)
                dev.copyout(out, b, dst_off - GUARD)
                want = np.concatenate([np.full(GUARD, SENTINEL, np.uint8), data, np.full(GUARD, SENTINEL, np.uint8)])
                compare(f"{size(n)} copied to +{dst_off} from +{src_off} (with {GUARD} guard bytes each side)",
                        out, want)
        nbytes, repeats = ctx.size(BANDWIDTH_BYTES[0], BANDWIDTH_BYTES[1], r, "(bandwidth bytes, repeats)")
        nbytes = min(nbytes, largest)
        best = None
        for i in range(repeats):
            r.step(f"device-to-device {size(nbytes)} ({i + 1}/{repeats})")
            start = time.perf_counter()
            dev.copy(b, a, nbytes)
            secs = time.perf_counter() - start
            best = secs if best is None else min(best, secs)
    finally:
        a.free()
        b.free()
    bw = r.measure("copy_bandwidth", 2 * nbytes / best / 1e9, "GB/s")
    where = "virtual GPU: " if ctx.emulated else ""
    r.summary = f"{len(sizes)} sizes x {len(OFFSETS)} offset pairs exact with guard bytes; {where}device-to-" \
                f"device {rate(bw, 'GB/s')} (read + write, host wall time)"


def register(reg):
    reg.add("memory", memory, depends=["open"])
    reg.add("copies", copies, depends=["memory"])
