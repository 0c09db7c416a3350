"""FP32 multiply-add and memory throughput against the Adreno's peaks. The peaks are quoted
(public figures for the Adreno 630: 512 FP32 lanes x 2 x 710 MHz = 727 GFLOPS; LPDDR4X
4 x 16-bit at 1866 MHz = 29.9 GB/s), not measured here. On the virtual GPU the stages measure
the simulator and say so; their sizes shrink so it finishes in seconds."""
import numpy as np

from hw_tests.programs import Buffers
from hw_tests.qcom.common import program
from hw_tests.runner import check
from hw_tests.stages.isa import compare
from hw_tests.units import rate, share_of_peak, size

QUOTED_PEAKS = {630: (727e9, 29.9e9)}      # FP32 FLOP/s, bytes/s
FLOPS_PER_ITERATION = 16                   # 8 mad.f32 per fiber per loop round
BLOCK = 128
FMA_SIZE = ((64, 4096), (2, 8))            # (workgroups, iterations): phone / simulator
COPY_SIZE = ((64 << 20, 3), (256 << 10, 1))


def _share(ctx, r, key, measured, which, unit, scale):
    chip = ctx.dev.chip
    r.measure(f"{key}_measured", measured / scale, unit)
    peaks = QUOTED_PEAKS.get(chip.gpu_id)
    if peaks is None:
        r.note(f"no quoted peak for the {chip.name}")
        return f"{rate(measured / scale, unit)} (no quoted peak for the {chip.name})"
    peak = peaks[which]
    pct, text = share_of_peak(measured, peak, unit, scale, f"{chip.name}'s quoted", ctx.emulated)
    r.measure(f"{key}_peak_quoted", peak / scale, unit)
    r.measure(f"{key}_percent_of_peak", pct, "%")
    return text


def peak_fp32(ctx, r):
    """FP32 multiply-add throughput (fma.asm) against the quoted peak"""
    groups, iters = ctx.size(FMA_SIZE[0], FMA_SIZE[1], r, "(workgroups, iterations)")
    items = groups * BLOCK
    with Buffers(ctx.dev) as b:
        out = b.empty(4 * items, fill=0)
        secs = program(ctx, "fma")(out, iters, grid=(groups,), wait=True)
        compare("fma accumulators", b.download(out, np.float32), np.full(items, iters, np.float32))
    check(secs > 0, f"the launch took {secs} s")
    r.summary = _share(ctx, r, "fp32", items * iters * FLOPS_PER_ITERATION / secs, 0, "GFLOPS", 1e9)


def peak_memory(ctx, r):
    """Copy bandwidth (copy4.asm: 16 bytes read and written per fiber) against the quoted peak"""
    nbytes, repeats = ctx.size(COPY_SIZE[0], COPY_SIZE[1], r, "(bytes, repeats)")
    words = nbytes // 4
    data = np.arange(words, dtype=np.uint32)
    best = None
    with Buffers(ctx.dev) as b:
        src, dst = b.upload(data), b.empty(nbytes)
        for i in range(repeats):
            r.step(f"copy {size(nbytes)} ({i + 1}/{repeats})")
            secs = program(ctx, "copy4")(src, dst, grid=(words // 4 // BLOCK,), wait=True)
            best = secs if best is None else min(best, secs)
        compare("copy4 result", b.download(dst, np.uint32), data)
    r.summary = _share(ctx, r, "bandwidth", 2 * nbytes / best, 1, "GB/s", 1e9)


def register(reg):
    reg.add("peak_fp32", peak_fp32, depends=["isa_vadd"])
    reg.add("peak_memory", peak_memory, depends=["isa_vadd"])
