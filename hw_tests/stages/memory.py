"""Memory per heap: allocate, touch, map for the GPU, find the largest allocation, run out cleanly."""
import numpy as np

from drivers.amd.memory import GTT, USERPTR, VRAM, VRAM_PUBLIC, OutOfMemory
from hw_tests.runner import check
from hw_tests.units import size

MiB, GiB = 1 << 20, 1 << 30
PROBE_BYTES = 1 * MiB
BISECT_STEP = 64 * MiB                     # resolution of the largest-allocation search
HOST_HEAP_CAP = (4 * GiB, 1 * GiB)         # largest host-heap (GTT, USERPTR) size tried: hardware, simulator


def heaps(ctx):
    """The heaps this device has: private VRAM always, host-visible VRAM when the BAR shows any."""
    out = [VRAM]
    if ctx.node.visible_vram_bytes:
        out.append(VRAM_PUBLIC)
    return out + [GTT, USERPTR]


def live_state(ctx):
    """What must come back to the same value when nothing leaks: the runtime's live buffers and
    the VRAM KFD still offers (plus the virtual GPU's own counts when emulated)."""
    dev = ctx.dev
    state = {"buffers": len(dev.memory.live), "available_vram": dev.kfd.available_memory(dev.gpu_id)}
    gpu = getattr(ctx.kernel, "gpu", None)
    if gpu is not None:
        state["kfd_objects"] = gpu.live()
    return state


def memory_heaps(ctx, r):
    """Each heap: allocate, CPU write and read back, GPU-mapped, freed without leaks"""
    dev = ctx.dev
    before = live_state(ctx)
    pattern = np.random.default_rng(1).integers(0, 256, PROBE_BYTES, dtype=np.uint8)
    done = []
    for heap in heaps(ctx):
        r.step(f"{heap.name}: allocate {size(PROBE_BYTES)}")
        buf = dev.memory.alloc(PROBE_BYTES, heap)
        try:
            check(buf.va % 4096 == 0, f"{heap.name}: VA 0x{buf.va:x} is not page aligned")
            check(dev.gpu_id in buf.mapped_gpus, f"{heap.name}: buffer 0x{buf.va:x} is not mapped on the GPU")
            if heap.cpu_visible:
                r.step(f"{heap.name}: CPU write and read back")
                view = buf.view()
                view[:] = pattern
                back = view.copy()
                check(np.array_equal(back, pattern), f"{heap.name}: {int((back != pattern).sum())} bytes read back "
                      "differ from what the CPU wrote")
            else:
                r.note(f"{heap.name} is not CPU-visible: its contents are checked through SDMA in sdma_copy")
            done.append(heap.name)
        finally:
            buf.free()
    after = live_state(ctx)
    check(after == before, f"allocating and freeing leaked: before {before}, after {after}")
    r.measure("heaps", ",".join(done))
    r.summary = f"{', '.join(done)}: allocate, CPU read back, GPU map, free; nothing leaked"


def largest(ctx, r, heap, upper):
    """Largest single allocation of ``heap`` up to ``upper`` bytes, by bisection at BISECT_STEP."""
    dev = ctx.dev
    lo, hi, tries = 0, upper // BISECT_STEP, 0      # in BISECT_STEP units: lo fits, hi+1 does not
    while lo < hi:
        mid = (lo + hi + 1) // 2
        tries += 1
        r.step(f"{heap.name}: try {size(mid * BISECT_STEP)}")
        try:
            dev.memory.alloc(mid * BISECT_STEP, heap).free()
            lo = mid
        except OutOfMemory:
            hi = mid - 1
    return lo * BISECT_STEP, tries


def memory_limits(ctx, r):
    """Largest single allocation per heap (bisection) and a clean out-of-memory error"""
    dev = ctx.dev
    before = live_state(ctx)
    available = dev.kfd.available_memory(dev.gpu_id)
    host_cap = ctx.size(*HOST_HEAP_CAP, r, "largest host-heap size tried (bytes)")
    parts = []
    for heap in heaps(ctx):
        upper = min(available, ctx.node.visible_vram_bytes) if heap is VRAM_PUBLIC else \
            available if heap is VRAM else host_cap
        got, tries = largest(ctx, r, heap, upper)
        r.measure(f"{heap.name}_largest_bytes", got, "B")
        capped = heap in (GTT, USERPTR) and got == upper
        check(got > 0, f"{heap.name}: not even {size(BISECT_STEP)} could be allocated")
        parts.append(f"{heap.name} {'>= ' if capped else ''}{size(got)}")
        if capped:
            r.note(f"{heap.name}: the search stops at {size(upper)} so it does not exhaust host memory")
        if heap is VRAM:
            check(got >= available - BISECT_STEP, f"vram: the largest allocation is {size(got)} but KFD says "
                  f"{size(available)} is available (fragmented VRAM, or AVAILABLE_MEMORY overstates)")
    r.step("vram: ask for more than there is")
    too_much = available + GiB
    try:
        buf = dev.memory.alloc(too_much, VRAM)
    except OutOfMemory as e:
        check(e.heap is VRAM and "vram" in str(e), f"the out-of-memory error does not name the heap: {e}")
        r.measure("oom_message", str(e))
    else:
        buf.free()
        check(False, f"allocating {size(too_much)} of VRAM with {size(available)} available succeeded")
    after = live_state(ctx)
    check(after == before, f"the bisection and the failed allocation leaked: before {before}, after {after}")
    r.summary = "largest: " + ", ".join(parts) + "; out of memory names the heap, nothing leaked"


def register(reg):
    reg.add("memory", memory_heaps, depends=["open"])
    reg.add("memory_limits", memory_limits, depends=["memory"])
