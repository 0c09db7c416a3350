"""Peak microbenchmarks: FP32 FMA, FP16 WMMA and memory bandwidth as a share of the card's
theoretical peak (hw_tests/peaks.py). On the virtual GPU they measure the simulator, and say so;
their problem sizes shrink so the simulator finishes in seconds."""
import numpy as np

from hw_tests.peaks import compute_peak, memory_peak
from hw_tests.programs import Buffers, run
from hw_tests.runner import check
from hw_tests.stages.isa import compare
from hw_tests.units import rate, share_of_peak, size

BLOCK = 256
FMA_PER_ITERATION = 16                    # 8 VOPD instructions of 2 FMAs per work-item
WMMA_PER_ITERATION = 4
WMMA_FLOPS = 2 * 16 * 16 * 16             # one v_wmma_f32_16x16x16_f16 per wave
# Sizes on a card (workgroups per compute unit, loop iterations) and on the simulator (workgroups,
# iterations); the iteration counts keep every accumulator an exact float (below 2^24).
FMA_SIZE = ((8, 4096), (8, 64))
WMMA_SIZE = ((8, 1024), (4, 16))
BANDWIDTH_SIZE = ((256 << 20, 3), (4 << 20, 2))   # (bytes copied, repeats)


def _grid(ctx, r, sizes):
    """(workgroups, iterations) for a compute peak: enough to fill every CU on a card."""
    (per_cu, iters), (sim_groups, sim_iters) = sizes
    groups = ctx.size(per_cu * ctx.node.compute_units, sim_groups, r, "workgroups")
    return groups, ctx.size(iters, sim_iters, r, "iterations")


def _share(ctx, r, key, measured, peak, unit, scale):
    name = ctx.node.marketing_name
    r.measure(f"{key}_measured", measured / scale, unit)
    if peak is None:
        r.note(f"no per-CU rate is known for {ctx.node.family}: no theoretical peak to compare with")
        return f"{rate(measured / scale, unit)} (no theoretical peak for {ctx.node.family})"
    r.measure(f"{key}_peak", peak / scale, unit)
    pct, text = share_of_peak(measured, peak, unit, scale, f"{name}'s", ctx.emulated)
    r.measure(f"{key}_percent_of_peak", pct, "%")
    return text


def peak_fp32(ctx, r):
    """FP32 FMA throughput (VOPD dual issue) against compute units x clock x 256 flop"""
    groups, iters = _grid(ctx, r, FMA_SIZE)
    items = groups * BLOCK
    with Buffers(ctx.dev) as b:
        out = b.empty(items * 4, fill=0)
        r.step(f"{groups} workgroups x {BLOCK} x {iters} iterations x {FMA_PER_ITERATION} FMA")
        seconds = run(ctx, "fma_peak", out, iters, grid=(groups, 1, 1), block=(BLOCK, 1, 1))
        got = b.download(out, np.float32)
    compare("fma_peak accumulators", got, np.full(items, FMA_PER_ITERATION * iters, np.float32))
    check(seconds > 0, f"the GPU timestamps around the dispatch give {seconds} s")
    flops = items * iters * FMA_PER_ITERATION * 2 / seconds
    r.summary = _share(ctx, r, "fp32", flops, compute_peak(ctx.node, "fp32"), "TFLOPS", 1e12)


def peak_wmma(ctx, r):
    """FP16 WMMA throughput against compute units x clock x 512 flop"""
    groups, iters = _grid(ctx, r, WMMA_SIZE)
    items = groups * BLOCK
    waves = items // 32
    with Buffers(ctx.dev) as b:
        out = b.empty(items * 16, fill=0)
        r.step(f"{groups} workgroups x {BLOCK // 32} waves x {iters} iterations x {WMMA_PER_ITERATION} WMMA")
        seconds = run(ctx, "wmma_peak", out, iters, grid=(groups, 1, 1), block=(BLOCK, 1, 1))
        got = b.download(out, np.float32)
    compare("wmma_peak accumulators", got, np.full(items * 4, 16 * iters, np.float32))
    check(seconds > 0, f"the GPU timestamps around the dispatch give {seconds} s")
    flops = waves * iters * WMMA_PER_ITERATION * WMMA_FLOPS / seconds
    r.summary = _share(ctx, r, "fp16_wmma", flops, compute_peak(ctx.node, "fp16_matrix"), "TFLOPS", 1e12)


def peak_memory(ctx, r):
    """Device memory bandwidth of a copy kernel against bus width x memory clock x data rate"""
    (hw_bytes, hw_repeats), (sim_bytes, sim_repeats) = BANDWIDTH_SIZE
    nbytes = ctx.size(hw_bytes, sim_bytes, r, "bytes copied")
    repeats = ctx.size(hw_repeats, sim_repeats, r, "repeats")
    peak, rule = memory_peak(ctx.node)
    r.measure("peak_rule", rule)
    check(peak is not None, f"no theoretical memory bandwidth: {rule}")
    groups = max(1, min(ctx.size(ctx.node.compute_units * 4, 4), nbytes // (16 * BLOCK)))
    total = groups * BLOCK
    count = max(1, nbytes // (16 * total))      # the kernel loop runs at least once
    nbytes = count * total * 16
    src = np.random.default_rng(21).integers(0, 1 << 32, nbytes // 4, dtype=np.uint64).astype(np.uint32)
    with Buffers(ctx.dev) as b:
        s, d = b.upload(src), b.empty(nbytes, fill=0)
        best = None
        for k in range(repeats):
            r.step(f"copy {size(nbytes)} ({k + 1}/{repeats})")
            t = run(ctx, "copy_bw", d, s, count, total, grid=(groups, 1, 1), block=(BLOCK, 1, 1))
            best = t if best is None else min(best, t)
        compare("copy_bw destination", b.download(d, np.uint32), src)
    check(best > 0, f"the GPU timestamps around the dispatch give {best} s")
    r.summary = _share(ctx, r, "memory", 2 * nbytes / best, peak, "GB/s", 1e9) + f" ({rule})"


def register(reg):
    reg.add("peak_fp32", peak_fp32, depends=["isa_vopd"])
    reg.add("peak_wmma", peak_wmma, depends=["isa_wmma"])
    reg.add("peak_memory", peak_memory, depends=["isa_global"])
