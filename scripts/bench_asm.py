#!/usr/bin/env python3
"""Assembler and disassembler throughput: ours against llvm-mc-19 and llvm-objdump-19 on the same file.

    python scripts/bench_asm.py [N [RUNS]]     (default 100000 instructions, 5 runs)

The file mixes SMEM, GLOBAL, DS, SOP1, SOP2, SOPP, VOP1, VOP2, VOP3, VOPC and VOPD with literals
and inline constants.  Printed, all measured in this run:
- in-process rates: assemble() from a cold operand cache, and disassemble(), best of RUNS;
- whole processes, as a user runs them (interpreter start-up, imports, file I/O included):
  `python -m assembler.rdna3 asm` against `llvm-mc-19 -filetype=obj`, and
  `python -m assembler.rdna3 disasm` against `llvm-objdump-19 -d` on llvm-mc's object, run in
  turn (ours, LLVM's, ours, ...); the best and the median of CPU seconds (the machine may be
  shared: the best is the least disturbed run) and the median of wall seconds. Our processes
  find their bytecode compiled (in a temporary cache), as an installed package has it, even
  where PYTHONDONTWRITEBYTECODE is set;
- the import time of the assembler CLI from bytecode and from source, and of the interpreter
  alone, medians of RUNS fresh processes.
"""
import argparse
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)


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


def _child(cmd, runs_out, env=None):
    """Run cmd to completion; append (CPU seconds, wall seconds) of that child."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, cwd=ROOT, env=env)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    runs_out.append((after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, wall))


def versus(ours, theirs, runs, env):
    """((best CPU, median CPU, median wall) of ours, the same of theirs), run alternately so a
    burst of load on a shared machine hits both; the best is the least disturbed run."""
    a, b = [], []
    for _ in range(runs):
        _child(ours, a, env)
        _child(theirs, b)

    def stats(xs):
        return min(x[0] for x in xs), statistics.median(x[0] for x in xs), statistics.median(x[1] for x in xs)
    return stats(a), stats(b)


def bytecode_env(cache):
    """The environment of our child processes: their bytecode cached in ``cache`` (written on
    first import), as an installed package has it compiled, whatever PYTHONDONTWRITEBYTECODE
    says here."""
    env = dict(os.environ, PYTHONPYCACHEPREFIX=cache)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


_IMPORTS = "import argparse, assembler.rdna3.__main__, assembler.rdna3.asm"


def import_ms(runs, env, cold_env):
    """Medians of milliseconds to import what `python -m assembler.rdna3 asm` imports, from
    compiled bytecode and from source (no bytecode: every module compiled on the way), and to
    start the interpreter with nothing to do (in fresh processes)."""
    probe = "import time; t = time.perf_counter(); %s; print(time.perf_counter() - t)" % _IMPORTS
    imports, cold, starts = [], [], []
    for _ in range(runs):
        for e, out in ((env, imports), (cold_env, cold)):
            res = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT,
                                 check=True, env=e)
            out.append(float(res.stdout) * 1e3)
        t = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        starts.append((time.perf_counter() - t) * 1e3)
    return statistics.median(imports), statistics.median(cold), statistics.median(starts)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("n", nargs="?", type=int, default=100000, metavar="N",
                    help="instructions in the generated file (default 100000)")
    ap.add_argument("runs", nargs="?", type=int, default=5, metavar="RUNS",
                    help="runs of each measurement (default 5)")
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
    print("in process, best of %d runs (assembly from cold operand caches)" % runs)
    print("  assemble:    %7d instructions in %.3f s = %8.0f instr/s  (%d bytes, %.2f B/instr)"
          % (n + 1, ours, (n + 1) / ours, len(data), len(data) / (n + 1)))
    print("  disassemble: %7d instructions in %.3f s = %8.0f instr/s" % (len(lines), dec, len(lines) / dec))
    with tempfile.TemporaryDirectory() as d:
        env = bytecode_env(os.path.join(d, "pycache"))
        cold_env = dict(env, PYTHONDONTWRITEBYTECODE="1", PYTHONPYCACHEPREFIX=os.path.join(d, "none"))
        subprocess.run([sys.executable, "-c", _IMPORTS + ", assembler.rdna3.disasm"], check=True, cwd=ROOT,
                       env=env)                                     # compile the bytecode once
        imp, cold, start = import_ms(runs, env, cold_env)
        print("imports of the asm CLI: %.1f ms from bytecode, %.1f ms from source (medians of %d fresh "
              "processes; the interpreter alone starts in %.1f ms)" % (imp, cold, runs, start))
        if shutil.which("llvm-mc-19") is None:
            print("llvm-mc-19 not installed: no reference rates")
            return
        py = [sys.executable, "-m", "assembler.rdna3"]
        src, obj, out = (os.path.join(d, x) for x in ("bench.s", "bench.o", "bench.bin"))
        with open(src, "w") as f:
            f.write(text)
        mc = ["llvm-mc-19", "-arch=amdgcn", "-mcpu=gfx1100", "-filetype=obj", src, "-o", obj]
        subprocess.run(mc, check=True)
        objcopy = shutil.which("llvm-objcopy-19")
        if objcopy:
            subprocess.run([objcopy, "-O", "binary", "--only-section=.text", obj, out], check=True)
            with open(out, "rb") as f:
                print("bytes identical to llvm-mc-19: %s" % (f.read() == data))
        print("whole processes (bytecode compiled beforehand), %d runs each, ours and LLVM's in turn; "
              "CPU seconds best / median, wall median:" % runs)
        (ob, om, ow), (lb, lm, lw) = versus(py + ["asm", src, "-o", out], mc, runs, env)
        print("  assemble:    ours %.3f / %.3f / %.3f   llvm-mc-19 %.3f / %.3f / %.3f   ours is %.2fx (best CPU), "
              "%.2fx (median CPU)" % (ob, om, ow, lb, lm, lw, lb / ob, lm / om))
        if shutil.which("llvm-objdump-19") is None:
            print("  llvm-objdump-19 not installed: no disassembly reference")
            return
        dump = ["llvm-objdump-19", "-d", "--mcpu=gfx1100", obj]
        (ob, om, ow), (lb, lm, lw) = versus(py + ["disasm", obj], dump, runs, env)
        print("  disassemble: ours %.3f / %.3f / %.3f   llvm-objdump-19 %.3f / %.3f / %.3f   ours is %.2fx (best "
              "CPU), %.2fx (median CPU)" % (ob, om, ow, lb, lm, lw, lb / ob, lm / om))


if __name__ == "__main__":
    main()
