"""FP32 multiply-add and memory throughput against the board's quoted peaks (drivers.nv.chips:
SMs x 128 FP32 lanes x 2 x boost clock; the launch specification's memory bandwidth). The peaks
are quoted, not measured. On the virtual GPU the stages measure the simulator and say so; their
sizes shrink so it finishes in seconds."""
import numpy as np

from hw_tests.nv.common import kernel
from hw_tests.programs import Buffers
from hw_tests.runner import check
from hw_tests.stages.isa import compare
from hw_tests.units import rate, share_of_peak, size

FLOPS_PER_ITERATION = 16              # 8 FFMA per thread per loop round
BLOCK = 256
FMA_SIZE = ((4096, 4096), (2, 16))    # (blocks, iterations): card / simulator
COPY_SIZE = ((256 << 20, 5), (1 << 20, 1))


def _share(ctx, r, key, measured, peak, unit, scale):
    dev = ctx.dev
    r.measure(f"{key}_measured", measured / scale, unit)
    if peak is None:
        r.note(f"no quoted peak for PCI device 0x{dev.pci_device_id:04x}")
        return f"{rate(measured / scale, unit)} (no quoted peak for this board)"
    pct, text = share_of_peak(measured, peak, unit, scale, f"{dev.sku.model}'s quoted", ctx.emulated)
    r.measure(f"{key}_peak_quoted", peak / scale, unit)
    r.measure(f"{key}_percent_of_peak", pct, "%")
    return text


def peak_fp32(ctx, r):
    """FP32 multiply-add throughput (fma_peak.cu) against the quoted peak"""
    blocks, iters = ctx.size(FMA_SIZE[0], FMA_SIZE[1], r, "(blocks, iterations)")
    threads = blocks * BLOCK
    with Buffers(ctx.dev) as b:
        out = b.empty(4 * threads, fill=0)
        fma = kernel(ctx, "fma_peak")
        fma(out, np.float32(1), np.float32(1), 1, grid=(blocks,), block=(BLOCK,), wait=True)       # warm-up
        secs = fma(out, np.float32(1), np.float32(1), iters, grid=(blocks,), block=(BLOCK,), wait=True)
        compare("fma_peak accumulators", b.download(out, np.float32), np.full(threads, iters, np.float32))
    check(secs > 0, f"the launch took {secs} s")
    sku = ctx.dev.sku
    r.summary = _share(ctx, r, "fp32", threads * iters * FLOPS_PER_ITERATION / secs, sku and sku.fp32_peak,
                       "GFLOPS", 1e9)


def peak_memory(ctx, r):
    """Copy bandwidth (copy4.cu: 16 bytes read and written per thread) against the quoted peak"""
    nbytes, repeats = ctx.size(COPY_SIZE[0], COPY_SIZE[1], r, "(bytes, repeats)")
    words = nbytes // 4
    data = np.arange(words, dtype=np.uint32)
    best = None
    with Buffers(ctx.dev) as b:
        src, dst = b.upload(data), b.empty(nbytes)
        copy4 = kernel(ctx, "copy4")
        for i in range(repeats):
            r.step(f"copy {size(nbytes)} ({i + 1}/{repeats})")
            secs = copy4(src, dst, nbytes // 16, grid=(-(-nbytes // 16 // BLOCK),), block=(BLOCK,), wait=True)
            best = secs if best is None else min(best, secs)
        compare("copy4 result", b.download(dst, np.uint32), data)
    sku = ctx.dev.sku
    r.summary = _share(ctx, r, "bandwidth", 2 * nbytes / best, sku and sku.memory_bandwidth, "GB/s", 1e9)


def register(reg):
    reg.add("peak_fp32", peak_fp32, depends=["isa_saxpy"])
    reg.add("peak_memory", peak_memory, depends=["isa_saxpy"])
