#!/usr/bin/env python3
"""Assembler throughput: ours (assembler.rdna3.assemble) against llvm-mc-19 on the same file.

    python scripts/bench_asm.py [N [RUNS]]     (default 100000 instructions, best of 3 runs)

The file mixes SMEM, GLOBAL, DS, SOP1, SOP2, SOPP, VOP1, VOP2, VOP3, VOPC and VOPD with literals
and inline constants. Prints both rates, the ratio, and decode (disassembly) throughput.
"""
import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def program(n, seed=1):
    rng = random.Random(seed)
    v = lambda: "v%d" % rng.randrange(256)  # noqa: E731
    s = lambda: "s%d" % rng.randrange(100)  # noqa: E731
    sp = lambda: "s[%d:%d]" % (2 * (k := rng.randrange(50)), 2 * k + 1)  # noqa: E731
    vp = lambda: "v[%d:%d]" % ((k := rng.randrange(255)), k + 1)  # noqa: E731
    const = lambda: rng.choice(["0", "1", "-1", "64", "0.5", "-4.0", "1.0", "0x3f800001", "0x1234",  # noqa: E731
                                "100", "-17"])
    forms = [
        lambda: "s_load_b64 %s, %s, 0x%x" % (sp(), sp(), 8 * rng.randrange(64)),
        lambda: "s_load_b32 %s, %s, 0x%x" % (s(), sp(), 4 * rng.randrange(64)),
        lambda: "global_load_b32 %s, %s, off offset:%d" % (v(), vp(), 4 * rng.randrange(-64, 64)),
        lambda: "global_store_b32 %s, %s, %s" % (v(), v(), sp()),
        lambda: "ds_load_b32 %s, %s offset:%d" % (v(), v(), 4 * rng.randrange(1000)),
        lambda: "ds_store_b32 %s, %s" % (v(), v()),
        lambda: "s_mov_b32 %s, %s" % (s(), rng.choice([s(), const()])),
        lambda: "s_add_u32 %s, %s, %s" % (s(), s(), const()),
        lambda: "s_and_b64 %s, %s, exec" % (sp(), sp()),
        lambda: "s_waitcnt vmcnt(0) lgkmcnt(0)",
        lambda: "s_nop %d" % rng.randrange(8),
        lambda: "v_mov_b32_e32 %s, %s" % (v(), rng.choice([v(), s(), const()])),
        lambda: "v_cvt_f32_i32_e32 %s, %s" % (v(), v()),
        lambda: "v_add_f32_e32 %s, %s, %s" % (v(), rng.choice([v(), const(), s()]), v()),
        lambda: "v_mul_f32_e32 %s, %s, %s" % (v(), v(), v()),
        lambda: "v_lshlrev_b32_e32 %s, 2, %s" % (v(), v()),
        lambda: "v_fma_f32 %s, %s, %s, %s" % (v(), v(), v(), rng.choice([v(), const()])),
        lambda: "v_add_f32_e64 %s, -%s, |%s| clamp" % (v(), v(), v()),
        lambda: "v_mad_u64_u32 %s, null, %s, %s, %s" % (vp(), s(), v(), vp()),
        lambda: "v_cmp_gt_f32_e32 vcc_lo, %s, %s" % (const(), v()),
        lambda: "v_cmp_eq_u32_e64 %s, %s, %s" % (s(), v(), const()),
        lambda: "v_dual_mul_f32 v%d, v%d, v%d :: v_dual_add_f32 v%d, v%d, v%d" % (
            2 * rng.randrange(100), 4 * rng.randrange(60), 4 * rng.randrange(60),
            2 * rng.randrange(100) + 1, 4 * rng.randrange(60) + 1, 4 * rng.randrange(60) + 1),
    ]
    return "\n".join(rng.choice(forms)() for _ in range(n)) + "\ns_endpgm\n"


def _cold():
    """Forget memoized operands and statements so every run pays the full price."""
    from assembler.rdna3 import asm
    asm.clear_caches()


def best_of(runs, fn):
    best = None
    for _ in range(runs):
        t = time.perf_counter()
        out = fn()
        dt = time.perf_counter() - t
        best = dt if best is None or dt < best else best
    return best, out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("n", nargs="?", type=int, default=100000, metavar="N",
                    help="instructions in the generated file (default 100000)")
    ap.add_argument("runs", nargs="?", type=int, default=3, metavar="RUNS",
                    help="runs of each measurement; the best is reported (default 3)")
    args = ap.parse_args(argv)
    if args.n < 1 or args.runs < 1:
        ap.error("N and RUNS must be at least 1")
    n, runs = args.n, args.runs
    from assembler.rdna3 import assemble, disassemble
    text = program(n)

    def ours_once():
        _cold()
        return assemble(text)
    ours, data = best_of(runs, ours_once)
    dec, lines = best_of(runs, lambda: disassemble(data))
    print("best of %d runs each (the machine may be shared; each run starts cold)" % runs)
    print("ours:       %7d instructions in %.3f s = %8.0f instr/s  (%d bytes, %.2f B/instr)"
          % (n + 1, ours, (n + 1) / ours, len(data), len(data) / (n + 1)))
    print("decode:     %7d instructions in %.3f s = %8.0f instr/s" % (len(lines), dec, len(lines) / dec))
    if shutil.which("llvm-mc-19") is None:
        print("llvm-mc-19 not installed: no reference rate")
        return
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "bench.s")
        obj = os.path.join(d, "bench.o")
        with open(src, "w") as f:
            f.write(text)
        ref, _ = best_of(runs, lambda: subprocess.run(
            ["llvm-mc-19", "-arch=amdgcn", "-mcpu=gfx1100", "-filetype=obj", src, "-o", obj], check=True))
        objcopy = shutil.which("llvm-objcopy-19")
        if objcopy:
            subprocess.run([objcopy, "-O", "binary", "--only-section=.text", obj,
                            os.path.join(d, "bench.bin")], check=True)
            with open(os.path.join(d, "bench.bin"), "rb") as f:
                print("bytes identical to llvm-mc-19: %s" % (f.read() == data))
    print("llvm-mc-19: %7d instructions in %.3f s = %8.0f instr/s" % (n + 1, ref, (n + 1) / ref))
    print("ratio ours/llvm-mc-19 = %.2fx" % (ref / ours))


if __name__ == "__main__":
    main()
