"""Throughput of the RDNA3 wave simulator (numpy only), warm, on kernels written in assembly.

    python scripts/bench_emu.py [--waves 1024] [--iters 100]

valu:   every work-item runs ITERS x (10 x v_fmac_f32 + 3 SALU loop instructions), then stores its
        accumulators: the shape of the kernel tinygrad's Python emulator was timed on
        (reference notes, amd.md section 6: ~1.0M wave-instructions/s, ~33M lane-ops/s warm).
int:    the same loop with v_add_nc_u32 instead: the simulator core's own cost per instruction,
        with a VALU operation that is cheap in numpy.
memory: a grid-stride loop of c[i] = a[i] + b[i] over 16 float32 elements per work-item
        (two global loads, one add, one store per element).

Lane operations count the vector (VALU, memory, LDS) wave-instructions x 32 lanes, while the
anchor's lane figure is its wave-instruction rate x 32 over every instruction: the
wave-instruction ratio is the like-for-like one; both are printed.  Results are checked against
numpy before any number is reported.
"""
import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from assembler.amdgpu import KernelDescriptor, KernelSpec, write_code_object  # noqa: E402
from assembler.rdna3 import assemble  # noqa: E402
from drivers.emu import simulate  # noqa: E402
from drivers.emu.amd.shader import WaveExecutor  # noqa: E402

ANCHOR_WAVE_INSTR_PER_S = 1.0e6         # tinygrad Python emulator, warm (amd.md section 6)
ANCHOR_LANE_OPS_PER_S = 33e6


def code_object(code, args, vgprs=16):
    kd = KernelDescriptor(kernarg_size=8 * len(args))
    kd.compute_pgm_rsrc1 = 0x60AF0000 | (vgprs // 8 - 1)
    kd.compute_pgm_rsrc2 = (2 << 1) | (1 << 7)          # kernarg pointer in s[0:1], workgroup id X in s2
    kd.kernel_code_properties = 0x408
    meta = {".name": "k", ".symbol": "k.kd", ".kernarg_segment_size": 8 * len(args),
            ".kernarg_segment_align": 8, ".group_segment_fixed_size": 0, ".private_segment_fixed_size": 0,
            ".wavefront_size": 32, ".sgpr_count": 16, ".vgpr_count": vgprs, ".max_flat_workgroup_size": 1024,
            ".args": [{".offset": 8 * i, ".size": 8, ".value_kind": "global_buffer",
                       ".address_space": "global", ".type_name": t} for i, t in enumerate(args)]}
    return write_code_object(code, [KernelSpec("k", 0, kd, meta)], "gfx1100")


def valu_kernel(iters, op="v_fmac_f32_e32"):
    """ITERS x ten OP into the accumulators v4..v11 (two of them twice): v_fmac_f32 adds
    1.0 * 1.0, v_add_nc_u32 adds 1; then each work-item stores them at out[gid * 8]."""
    operands = "v1, v2" if op == "v_fmac_f32_e32" else "1, v{acc}"
    body = "\n".join(f"  {op} v{4 + j % 8}, " + operands.format(acc=4 + j % 8) for j in range(10))
    movs = "\n".join(f"  v_mov_b32_e32 v{4 + j}, 0" for j in range(8))
    return assemble(f"""
  s_load_b64 s[6:7], s[0:1], 0x0          ; out
  v_mov_b32_e32 v1, 1.0
  v_mov_b32_e32 v2, 1.0
{movs}
  s_add_u32 s3, 0, {iters}
loop:
{body}
  s_sub_u32 s3, s3, 1
  s_cmp_lg_u32 s3, 0
  s_cbranch_scc1 loop
  v_and_b32_e32 v0, 0x3ff, v0             ; work-item id x
  s_lshl_b32 s4, s2, 6                    ; workgroup id * 64
  v_add_nc_u32_e32 v0, s4, v0
  v_lshlrev_b32_e32 v0, 5, v0             ; 32 bytes per work-item
  s_waitcnt lgkmcnt(0)
  global_store_b128 v0, v[4:7], s[6:7]
  global_store_b128 v0, v[8:11], s[6:7] offset:16
  s_endpgm
""")


def memory_kernel(per_item, total):
    """c[i] = a[i] + b[i] for i = gid + k * TOTAL, k < PER_ITEM; v0 holds i as a byte offset."""
    return assemble(f"""
  s_load_b128 s[4:7], s[0:1], 0x0         ; a, b
  s_load_b64 s[8:9], s[0:1], 0x10         ; c
  s_waitcnt lgkmcnt(0)
  v_and_b32_e32 v0, 0x3ff, v0
  s_lshl_b32 s12, s2, 6
  v_add_nc_u32_e32 v0, s12, v0            ; global id
  v_lshlrev_b32_e32 v0, 2, v0             ; as a byte offset
  s_add_u32 s10, 0, {total * 4}           ; grid stride in bytes
  s_add_u32 s11, 0, {per_item}
loop:
  global_load_b32 v1, v0, s[4:5]
  global_load_b32 v2, v0, s[6:7]
  s_waitcnt vmcnt(0)
  v_add_f32_e32 v3, v1, v2
  global_store_b32 v0, v3, s[8:9]
  v_add_nc_u32_e32 v0, s10, v0
  s_sub_u32 s11, s11, 1
  s_cmp_lg_u32 s11, 0
  s_cbranch_scc1 loop
  s_endpgm
""")


def timed(fn, repeat):
    best = None
    for _ in range(repeat):
        t = time.perf_counter()
        stats = fn()
        dt = time.perf_counter() - t
        best = dt if best is None or dt < best else best
    return best, stats


def bench_valu(waves, iters, repeat, op="v_fmac_f32_e32"):
    co = code_object(valu_kernel(iters, op), ["float*"])
    groups = waves // 2
    dtype = np.float32 if op == "v_fmac_f32_e32" else np.uint32
    out = np.zeros(groups * 64 * 8, dtype)
    ex = WaveExecutor()
    simulate(co, "k", (groups, 1, 1), (64, 1, 1), [out], executor=ex)      # cold: decode + first run
    want = np.zeros((groups * 64, 8), dtype)
    want[:, :2] = 2 * iters
    want[:, 2:] = iters
    if not np.array_equal(out.reshape(-1, 8), want):
        raise SystemExit("valu kernel: wrong result, not reporting a speed")
    dt, stats = timed(lambda: simulate(co, "k", (groups, 1, 1), (64, 1, 1), [out], executor=ex), repeat)
    return dt, stats


def bench_memory(waves, per_item, repeat):
    groups = waves // 2
    co = code_object(memory_kernel(per_item, groups * 64), ["float*", "float*", "float*"])
    n = groups * 64 * per_item
    rng = np.random.default_rng(0)
    a, b = rng.random(n, np.float32), rng.random(n, np.float32)
    c = np.zeros(n, np.float32)
    ex = WaveExecutor()

    def run():
        simulate(co, "k", (groups, 1, 1), (64, 1, 1), [a, b, c], executor=ex)
        return ex.last
    run()
    c[:] = 0
    dt, stats = timed(run, repeat)
    if not np.array_equal(c, a + b):
        raise SystemExit("memory kernel: wrong result, not reporting a speed")
    return dt, stats


def report(name, dt, stats):
    wips = stats.wave_instructions / dt
    lops = stats.lane_ops / dt
    print(f"{name:7s} {stats.waves:6d} waves  {stats.wave_instructions:10,d} wave-instr  {dt * 1e3:8.1f} ms  "
          f"{wips / 1e6:7.2f} M wave-instr/s ({wips / ANCHOR_WAVE_INSTR_PER_S:5.1f}x anchor)  "
          f"{lops / 1e6:8.1f} M lane-ops/s ({lops / ANCHOR_LANE_OPS_PER_S:5.1f}x anchor)")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--waves", type=int, default=1024)
    ap.add_argument("--iters", type=int, default=100, help="loop iterations of the VALU kernel")
    ap.add_argument("--per-item", type=int, default=16, help="elements per work-item of the memory kernel")
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args(argv)
    print(f"anchor: tinygrad's Python emulator, warm: {ANCHOR_WAVE_INSTR_PER_S / 1e6:.1f} M wave-instr/s, "
          f"{ANCHOR_LANE_OPS_PER_S / 1e6:.0f} M lane-ops/s (VALU loop)")
    report("valu", *bench_valu(a.waves, a.iters, a.repeat))
    report("int", *bench_valu(a.waves, a.iters, a.repeat, "v_add_nc_u32_e32"))
    report("memory", *bench_memory(a.waves, a.per_item, a.repeat))


if __name__ == "__main__":
    main()
