"""Semaphores the host (PBDMA) releases and acquires: values in order with GPU timestamps, a GPU
wait the CPU releases, a wait nobody releases (GPUHang, then a new channel group), and faults:
the copy engine and a kernel touching unmapped memory (GPUFault naming the address)."""
import time

import numpy as np

from drivers.nv.copy import copy_methods
from drivers.nv.gpfifo import PushBuffer
from drivers.nv.program import Pointer
from hw_tests.expect import expect_fault, expect_hang
from hw_tests.nv.common import kernel
from hw_tests.runner import check

RELEASES = 8
GAP_S = 0.005
WAIT_TIMEOUT_S = 0.5
BAD_VA = 0xBAD0_0000_0000


def semaphores(ctx, r):
    """Semaphore releases land in order with increasing GPU timestamps; a GPU acquire the CPU releases"""
    dev = ctx.dev
    page = dev.alloc(4096, host=True, low=True)
    try:
        words = page.view(np.uint64)
        words[:] = 0
        before, after = [], []
        for i in range(RELEASES):
            r.step(f"release {i + 1}/{RELEASES}")
            before.append(time.perf_counter_ns())
            dev.submit_raw(PushBuffer().release(page.va + 16 * i, 0xC0DE0000 + i), f"release {i}")
            after.append(time.perf_counter_ns())
            time.sleep(GAP_S)
        values = words[0:2 * RELEASES:2].tolist()
        check(values == [0xC0DE0000 + i for i in range(RELEASES)], f"released values {[hex(v) for v in values]}")
        stamps = words[1:2 * RELEASES:2].astype(np.int64)
        check((np.diff(stamps) > 0).all(), f"semaphore timestamps do not increase: {stamps.tolist()}")
        span, lo, hi = int(stamps[-1] - stamps[0]), before[-1] - after[0], after[-1] - before[0]
        check(lo * 0.5 <= span <= hi * 2, f"GPU timestamps span {span} ns over host {lo}..{hi} ns: not nanoseconds")
        r.measure("timestamp_span_ns", span, "ns")
        r.step("a GPU acquire the CPU releases")
        flag = page.va + 1024
        pb = PushBuffer().acquire(flag, 1).release(page.va + 1032, 0x600D)
        value = dev.submit_raw(pb, "an acquire the CPU releases", wait=False)
        time.sleep(0.05)
        check(int(words[1032 // 8]) == 0, "the release after an unsatisfied acquire ran early")
        words[1024 // 8] = 1
        dev.wait(dev.compute_timeline, value, 5)
        check(int(words[1032 // 8]) == 0x600D, "the release after the acquire did not land")
    finally:
        page.free()
    r.summary = f"{RELEASES} releases in order, timestamps in ns ({span / 1e6:.1f} ms span); a GPU acquire " \
                "released by the CPU"


def hang(ctx, r):
    """A semaphore acquire nobody releases is GPUHang naming the work; a new channel group takes over"""
    dev = ctx.dev
    page = dev.alloc(4096, host=True, low=True)
    try:
        page.view(np.uint64)[:] = 0
        dev.submit_raw(PushBuffer().acquire(page.va, 1), "an acquire nobody releases", wait=False)
        expect_hang(dev, r, WAIT_TIMEOUT_S, "an acquire nobody releases")
        r.step("the device after the hang")
        dev.submit_raw(PushBuffer().release(page.va + 8, 5), "after the hang")
        check(int(page.view(np.uint64)[1]) == 5, "a release after the recovery did not land")
    finally:
        page.free()
    r.summary = f"a stuck acquire became GPUHang after {r.numbers['hang_detected_after']['value']} s; the " \
                "recreated channels ran the next submission"


def faults(ctx, r):
    """The copy engine and a kernel reading unmapped memory: GPUFault with the address; the device recovers"""
    dev = ctx.dev
    buf = dev.alloc(4096)
    try:
        r.step("copy engine reading an unmapped VA")
        pb = dev.copy_channel.bind()
        copy_methods(pb, buf.va, BAD_VA, 256)
        expect_fault(r, "copy_fault_va", BAD_VA,
                     lambda: dev.submit_raw(pb, "a copy from an unmapped VA", channel="copy"),
                     "the copy read", "a copy from")
        r.step("a kernel reading an unmapped VA")
        saxpy = kernel(ctx, "saxpy")
        expect_fault(r, "kernel_fault_va", BAD_VA,
                     lambda: saxpy(np.float32(1), Pointer(BAD_VA), buf, 64, grid=(1,), block=(64,), wait=True),
                     "the kernel read", "a kernel reading")
        r.step("the device after the faults")
        data = np.arange(64, dtype=np.float32)
        buf.copyin(data)
        out = np.empty_like(data)
        buf.copyout(out)
        check(np.array_equal(out, data), "a round trip after the faults came back wrong")
    finally:
        buf.free()
    r.summary = f"copy engine and SM faults at 0x{BAD_VA:x} reported with their address; the next work ran"


def register(reg):
    reg.add("semaphores", semaphores, depends=["open"])
    reg.add("hang", hang, depends=["semaphores"])
    reg.add("faults", faults, depends=["semaphores", "memory"])
