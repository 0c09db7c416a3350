"""Throughput of the RDNA3 wave simulator (numpy only), warm, on two hand-assembled kernels.

    python scripts/bench_emu.py [--waves 1024] [--iters 100]

valu:   every work-item runs ITERS x (10 x v_fmac_f32 + 3 SALU loop instructions), then stores its
        accumulators: the shape of the kernel tinygrad's Python emulator was timed on
        (reference notes, amd.md section 6: ~1.0M wave-instructions/s, ~33M lane-ops/s warm).
int:    the same loop with v_add_nc_u32 instead: the simulator core's own cost per instruction,
        with a VALU operation that is cheap in numpy.
memory: a grid-stride loop of c[i] = a[i] + b[i] over 16 float32 elements per work-item
        (two global loads, one add, one store per element).

Lane operations count the vector (VALU, memory, LDS) wave-instructions x 32 lanes; the anchor's
figure counted every wave-instruction x 32 the same way, and both ratios are printed.  Results
are checked against numpy before any number is reported.
"""
import argparse
import struct
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from assembler.amdgpu import KernelDescriptor, KernelSpec, write_code_object  # noqa: E402
from assembler.rdna3.formats import put  # noqa: E402
from assembler.rdna3.tables import ALU, MEM  # noqa: E402
from drivers.emu import simulate  # noqa: E402
from drivers.emu.shader import WaveExecutor  # noqa: E402

ANCHOR_WAVE_INSTR_PER_S = 1.0e6         # tinygrad Python emulator, warm (amd.md section 6)
ANCHOR_LANE_OPS_PER_S = 33e6
LIT, NULL = 255, 124


def _op(fam, m):
    table = MEM[fam] if fam in MEM else ALU[fam]
    return next(op for op, e in table.items() if e[0] == m)


def _w(word, n, lit=None):
    return word.to_bytes(n, "little") + (struct.pack("<I", lit) if lit is not None else b"")


def sop2(m, d, a, b, lit=None):
    return _w(put("SOP2", op=_op("SOP2", m), sdst=d, ssrc0=a, ssrc1=b), 4, lit)


def sopc(m, a, b):
    return _w(put("SOPC", op=_op("SOPC", m), ssrc0=a, ssrc1=b), 4)


def sopp(m, imm=0):
    return _w(put("SOPP", op=_op("SOPP", m), simm16=imm & 0xFFFF), 4)


def smem(m, sdata, sbase, offset):
    return _w(put("SMEM", op=_op("SMEM", m), sdata=sdata, sbase=sbase // 2, offset=offset, soffset=NULL), 8)


def vop1(m, d, s):
    return _w(put("VOP1", op=_op("VOP1", m), vdst=d, src0=s), 4)


def vop2(m, d, s0, v1, lit=None):
    return _w(put("VOP2", op=_op("VOP2", m), vdst=d, src0=s0, vsrc1=v1), 4, lit)


def glob(m, vdst=0, addr=0, data=0, saddr=NULL):
    return _w(put("FLAT", op=_op("GLOBAL", m), seg=2, vdst=vdst, addr=addr, data=data, saddr=saddr), 8)


def v(n):
    return 256 + n


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
    if op == "v_fmac_f32_e32":
        body = b"".join(vop2(op, 4 + j % 8, v(1), 2) for j in range(10))
    else:
        body = b"".join(vop2(op, 4 + j % 8, 129, 4 + j % 8) for j in range(10))
    loop = body + sop2("s_sub_u32", 3, 3, 129) + sopc("s_cmp_lg_u32", 3, 128)
    return (smem("s_load_b64", 6, 0, 0)
            + vop1("v_mov_b32_e32", 1, 242) + vop1("v_mov_b32_e32", 2, 242)        # v1 = v2 = 1.0
            + b"".join(vop1("v_mov_b32_e32", 4 + j, 128) for j in range(8))
            + sop2("s_add_u32", 3, 128, LIT, iters)                                   # s3 = ITERS
            + loop + sopp("s_cbranch_scc1", -(len(loop) + 4) // 4)
            + vop2("v_and_b32_e32", 0, LIT, v(0), 0x3FF)                              # local id x
            + sop2("s_lshl_b32", 4, 2, 134)                                           # s4 = wg * 64
            + vop2("v_add_nc_u32_e32", 0, 4, v(0))
            + vop2("v_lshlrev_b32_e32", 0, 133, v(0))                                 # * 32 bytes
            + sopp("s_waitcnt", 0xFC07)
            + glob("global_store_b128", addr=0, data=4, saddr=6)
            + _w(put("FLAT", op=_op("GLOBAL", "global_store_b128"), seg=2, addr=0, data=8, saddr=6,
                     offset=16), 8)
            + sopp("s_endpgm"))


def memory_kernel(per_item, total):
    """c[i] = a[i] + b[i] for i = gid + k * TOTAL, k < PER_ITEM; v0 holds i as a byte offset."""
    loop = (glob("global_load_b32", vdst=1, addr=0, saddr=4) + glob("global_load_b32", vdst=2, addr=0, saddr=6)
            + sopp("s_waitcnt", 0x03F7) + vop2("v_add_f32_e32", 3, v(1), 2)
            + glob("global_store_b32", addr=0, data=3, saddr=8)
            + vop2("v_add_nc_u32_e32", 0, 10, v(0))                                    # += TOTAL * 4
            + sop2("s_sub_u32", 11, 11, 129) + sopc("s_cmp_lg_u32", 11, 128))
    return (smem("s_load_b128", 4, 0, 0) + smem("s_load_b64", 8, 0, 16) + sopp("s_waitcnt", 0xFC07)
            + vop2("v_and_b32_e32", 0, LIT, v(0), 0x3FF)
            + sop2("s_lshl_b32", 12, 2, 134) + vop2("v_add_nc_u32_e32", 0, 12, v(0))     # gid
            + vop2("v_lshlrev_b32_e32", 0, 130, v(0))                                    # bytes
            + sop2("s_add_u32", 10, 128, LIT, total * 4)
            + sop2("s_add_u32", 11, 128, LIT, per_item)
            + loop + sopp("s_cbranch_scc1", -(len(loop) + 4) // 4) + sopp("s_endpgm"))


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
