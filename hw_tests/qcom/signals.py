"""KGSL timestamps and what the command processor writes, the always-on counter, waits that
the host releases or that run out of time, and faults with their addresses."""
import time

import numpy as np

from assembler.ir3 import assemble_program
from drivers.errors import GPUError
from drivers.qcom import pm4
from drivers.qcom.compute import ALWAYS_ON_HZ
from hw_tests.expect import expect_fault, expect_hang
from hw_tests.runner import check

STAMPS = 8
GAP_S = 0.005
CLOCK_TOLERANCE = 0.25
WAIT_TIMEOUT_S = 0.3


def timestamps(ctx, r):
    """Submissions retire in order; CP_MEM_WRITE lands; the always-on counter runs at 19.2 MHz"""
    dev = ctx.dev
    buf = dev.alloc(4096)
    try:
        words = buf.view(np.uint32)
        words[:] = 0
        before, after = [], []
        for i in range(STAMPS):
            r.step(f"timestamp {i + 1}/{STAMPS}")
            before.append(time.perf_counter())
            v = dev.submit_pm4(pm4.pkt7(pm4.CP_MEM_WRITE, *pm4.lo_hi(buf.va + 4 * i), 0xC0DE0000 + i)
                               + pm4.reg_to_mem64(pm4.CP_ALWAYS_ON_COUNTER, buf.va + 256 + 8 * i), f"stamp {i}")
            dev.wait(v)
            after.append(time.perf_counter())
            check(dev.timeline.value >= v, f"the timeline reads {dev.timeline.value} after waiting for {v}")
            time.sleep(GAP_S)
        check(words[:STAMPS].tolist() == [0xC0DE0000 + i for i in range(STAMPS)],
              f"CP_MEM_WRITE values: {[hex(w) for w in words[:STAMPS]]}")
        ticks = buf.view(np.uint64, 256, STAMPS).astype(np.int64)
        check((np.diff(ticks) > 0).all(), f"always-on counter is not increasing: {ticks.tolist()}")
        span = ticks[-1] - ticks[0]
        # the first write happened within [before[0], after[0]], the last within [before[-1], after[-1]]
        lo, hi = before[-1] - after[0], after[-1] - before[0]
    finally:
        buf.free()
    rate_lo, rate_hi = span / hi, span / max(lo, 1e-9)
    r.measure("always_on_hz_min", round(rate_lo), "Hz")
    r.measure("always_on_hz_max", round(rate_hi), "Hz")
    check(rate_lo <= ALWAYS_ON_HZ * (1 + CLOCK_TOLERANCE) and rate_hi >= ALWAYS_ON_HZ * (1 - CLOCK_TOLERANCE),
          f"CP_ALWAYS_ON_COUNTER ran at {rate_lo:.4g}..{rate_hi:.4g} Hz; the runtime assumes {ALWAYS_ON_HZ} Hz")
    r.summary = f"{STAMPS} submissions retired in order, the always-on counter at {rate_lo / 1e6:.1f}.." \
                f"{rate_hi / 1e6:.1f} MHz (19.2 expected)"


def waits(ctx, r):
    """CP_WAIT_REG_MEM released by the host; a wait past its timeout is GPUHang, then recovery"""
    dev = ctx.dev
    flag = dev.alloc(4096)
    try:
        flag.view(np.uint32)[:] = 0
        r.step("a CP wait the host releases")
        v = dev.submit_pm4(pm4.wait_reg_mem_ge(flag.va, 1), "wait for the host")
        flag.view(np.uint32)[0] = 1
        dev.wait(v, timeout=5)
        r.step("a CP wait nobody releases")
        flag.view(np.uint32)[0] = 0
        dev.submit_pm4(pm4.wait_reg_mem_ge(flag.va, 1), "a wait nobody releases")
        expect_hang(dev, r, WAIT_TIMEOUT_S, "a CP wait on a flag nobody sets")
        r.step("the device after the hang")
        v = dev.submit_pm4(pm4.pkt7(pm4.CP_NOP), "after the hang")
        dev.wait(v, timeout=5)
    finally:
        flag.free()
    r.summary = f"host release works; a stuck wait became GPUHang after {r.numbers['hang_detected_after']['value']} s " \
                "and a new context took over"


BAD_LOAD = """@localsize 64, 1, 1
@arg(c2.x) u64 address
@invocationid(r0.x)
mov.u32u32 r1.x, c2.x
mov.u32u32 r1.y, c2.y
(rpt5)nop
ldg.a.u32 r2.x, g[r1.x+(r0.x<<2)], 1
(sy)nop
end
"""


def faults(ctx, r):
    """A shader load from an unmapped address is a GPU fault naming it; the device recovers"""
    dev = ctx.dev
    bad = 0xBAD0_0000_0000
    k = dev.load(assemble_program(BAD_LOAD), name="bad_load")["bad_load"]
    try:
        expect_fault(r, "fault_va", bad, lambda: k(bad, grid=(1,), wait=True),
                     "the shader loaded from", "a load from")
    except GPUError as e:                    # not a GPUFault: KGSL without fault reports resets the GPU
        check(not dev.fault_info, f"KGSL keeps fault reports, yet the fault came back as {type(e).__name__}: {e}")
        r.note(f"without fault reports the fault is a GPU reset: {e}")
    r.step("the device after the fault")
    v = dev.submit_pm4(pm4.pkt7(pm4.CP_NOP), "after the fault")
    dev.wait(v, timeout=5)
    r.summary = f"page fault at 0x{bad:x} reported" + (" with its address" if dev.fault_info else "") + \
        "; the next submission ran"


def register(reg):
    reg.add("timestamps", timestamps, depends=["open"])
    reg.add("waits", waits, depends=["timestamps"])
    reg.add("faults", faults, depends=["timestamps"])
