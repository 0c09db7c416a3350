"""Throughput of the RDNA3 wave simulator on the held-in clang-19 kernels, in wave-instructions/s,
and of the SASS simulator on the NVIDIA test kernels, in warp-instructions/s.

    python scripts/bench_emu.py [--set small,large,loops,sass] [--kernels NAME,...] [--repeat N]
                                [--against REV]

small:  every kernel of tests/clang_kernels at its test launch (4 to 64 waves, most 8 to 32):
        branchy, masked, a few hundred to a few thousand instructions per wave.
large:  the same kernels on tensor-sized data: a 256x256x256 SGEMM through 16x16 LDS tiles
        (matmul_tiled, 2048 waves), a 60-operation elementwise chain over 65536 elements and a
        256x1024 row softmax (2048 waves each), and 512 LDS tree reductions (4096 waves).
loops:  hand-written loops at 1024 waves: ten v_fmac_f32 or v_add_nc_u32 per iteration, and a
        grid-stride c[i] = a[i] + b[i].
sass:   the CUDA kernels of hw_tests/kernels/nv (ptxas's cubins) through NVDevice on the virtual
        sm_86, sm_89 and sm_90, at their test launches, each checked against numpy; those whose code
        assembler.sass cannot yet decode as nvdisasm does are listed and left out (--against REV
        times REV's SASS simulator too).  The line after
        the table puts the SASS rate next to the RDNA3 simulator's rate on the small set, measured
        in the same run (warp = 32 lanes, wave = 32 lanes on gfx11).

Every figure is the best of --repeat runs of one dispatch (simulate(), argument copies
included), in CPU seconds of this process (the machine may be shared), after a warm-up run that
decodes and compiles the program.  Before any figure is printed the kernel's outputs are checked
against its numpy reference (tests/clang_kernels/cases.py) and its wave-instruction count against
the reference path's.

References, measured in the same run:
- per-instr: this simulator executing one instruction at a time (WaveExecutor(blocks=False)),
  the path compiled blocks must match;
- REV (--against REV): the simulator of git revision REV, from a temporary git worktree, run in a
  subprocess on the same kernels and data, alternated with this tree's runs.
"""
import argparse
import copy
import dataclasses
import importlib.util
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _load_cases():
    """tests/clang_kernels/cases.py of this tree (also when the simulator comes from another)."""
    spec = importlib.util.spec_from_file_location(
        "bench_clang_cases", os.path.join(ROOT, "tests", "clang_kernels", "cases.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# -- the kernels ------------------------------------------------------------------------------
def _sized(C, name, grid, make_args):
    return dataclasses.replace(C.CASES_BY_NAME[name], grid=grid, make_args=make_args)


def large_cases(C):
    F32, U32 = np.float32, np.uint32
    rng = np.random.default_rng(7)

    def sgemm():
        a, b = (rng.standard_normal((256, 256)).astype(F32) for _ in range(2))
        return [a, b, np.zeros((256, 256), F32), U32(256), U32(256), U32(256), F32(1.0)]

    def chain():
        n = 65536
        return [rng.uniform(-2, 2, n).astype(F32), rng.uniform(-2, 2, n).astype(F32), np.zeros(n, F32), U32(n)]

    def softmax():
        x = (rng.standard_normal((256, 1024)) * 4).astype(F32)
        return [x, np.zeros_like(x), U32(1024)]

    def reduce():
        return [(rng.standard_normal(512 * 256) * 100).astype(F32), np.zeros(512, F32)]

    return [("sgemm_256", _sized(C, "matmul_tiled", (16, 16, 1), sgemm)),
            ("chain_64k", _sized(C, "elementwise_chain", (1024, 1, 1), chain)),
            ("softmax_256x1024", _sized(C, "softmax_rows", (256, 1, 1), softmax)),
            ("lds_reduce_512", _sized(C, "lds_reduce", (512, 1, 1), reduce))]


def small_cases(C):
    return [(c.name, c) for c in C.CASES]


def loop_cases(groups=512, iters=100, per_item=16):
    """(name, code object, grid, block, make_args, check) of the hand-written loops: GROUPS
    workgroups of 64 work-items, ITERS loop iterations, PER_ITEM elements per work-item."""
    from assembler.amdgpu import KernelDescriptor, KernelSpec, write_code_object
    from assembler.rdna3 import assemble

    def code_object(code, args, vgprs=16):
        kd = KernelDescriptor(kernarg_size=8 * len(args))
        kd.compute_pgm_rsrc1 = 0x60AF0000 | (vgprs // 8 - 1)
        kd.compute_pgm_rsrc2 = (2 << 1) | (1 << 7)      # kernarg pointer in s[0:1], workgroup id X in s2
        kd.kernel_code_properties = 0x408
        meta = {".name": "k", ".symbol": "k.kd", ".kernarg_segment_size": 8 * len(args),
                ".kernarg_segment_align": 8, ".group_segment_fixed_size": 0,
                ".private_segment_fixed_size": 0, ".wavefront_size": 32, ".sgpr_count": 16,
                ".vgpr_count": vgprs, ".max_flat_workgroup_size": 1024,
                ".args": [{".offset": 8 * i, ".size": 8, ".value_kind": "global_buffer",
                           ".address_space": "global", ".type_name": t} for i, t in enumerate(args)]}
        return write_code_object(code, [KernelSpec("k", 0, kd, meta)], "gfx1100")

    def valu(op):
        operands = "v1, v2" if op == "v_fmac_f32_e32" else "1, v{acc}"
        body = "\n".join(f"  {op} v{4 + j % 8}, " + operands.format(acc=4 + j % 8) for j in range(10))
        movs = "\n".join(f"  v_mov_b32_e32 v{4 + j}, 0" for j in range(8))
        return code_object(assemble(f"""
  s_load_b64 s[6:7], s[0:1], 0x0
  v_mov_b32_e32 v1, 1.0
  v_mov_b32_e32 v2, 1.0
{movs}
  s_add_u32 s3, 0, {iters}
loop:
{body}
  s_sub_u32 s3, s3, 1
  s_cmp_lg_u32 s3, 0
  s_cbranch_scc1 loop
  v_and_b32_e32 v0, 0x3ff, v0
  s_lshl_b32 s4, s2, 6
  v_add_nc_u32_e32 v0, s4, v0
  v_lshlrev_b32_e32 v0, 5, v0
  s_waitcnt lgkmcnt(0)
  global_store_b128 v0, v[4:7], s[6:7]
  global_store_b128 v0, v[8:11], s[6:7] offset:16
  s_endpgm
"""), ["float*"])

    total = groups * 64

    def valu_check(dtype):
        def check(args):
            want = np.zeros((total, 8), dtype)
            want[:, :2], want[:, 2:] = 2 * iters, iters
            return np.array_equal(args[0].reshape(-1, 8), want)
        return check

    memory = code_object(assemble(f"""
  s_load_b128 s[4:7], s[0:1], 0x0
  s_load_b64 s[8:9], s[0:1], 0x10
  s_waitcnt lgkmcnt(0)
  v_and_b32_e32 v0, 0x3ff, v0
  s_lshl_b32 s12, s2, 6
  v_add_nc_u32_e32 v0, s12, v0
  v_lshlrev_b32_e32 v0, 2, v0
  s_add_u32 s10, 0, {total * 4}
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
"""), ["float*", "float*", "float*"])
    rng = np.random.default_rng(0)
    a = rng.random(total * per_item, np.float32)
    b = rng.random(total * per_item, np.float32)
    return [("fmac_loop", valu("v_fmac_f32_e32"), (groups, 1, 1), (64, 1, 1),
             lambda: [np.zeros(total * 8, np.float32)], valu_check(np.float32)),
            ("add_loop", valu("v_add_nc_u32_e32"), (groups, 1, 1), (64, 1, 1),
             lambda: [np.zeros(total * 8, np.uint32)], valu_check(np.uint32)),
            ("memory_loop", memory, (groups, 1, 1), (64, 1, 1),
             lambda: [a, b, np.zeros_like(a)], lambda args: np.array_equal(args[2], a + b))]


# -- measuring --------------------------------------------------------------------------------
def measure(sets, names, repeat, blocks, loop_size=None):
    """{kernel: [waves, wave-instructions, best CPU seconds]} on this process's simulator
    (blocks: WaveExecutor's, None for its default; loop_size: loop_cases() arguments)."""
    from drivers.emu import simulate
    from drivers.emu.amd.shader import WaveExecutor
    C = _load_cases()
    jobs = []
    if "small" in sets:
        jobs += [(n, c.code_object_bytes(), c.kernel, c.grid, c.block, c.make_args, c) for n, c in small_cases(C)]
    if "large" in sets:
        jobs += [(n, c.code_object_bytes(), c.kernel, c.grid, c.block, c.make_args, c) for n, c in large_cases(C)]
    if "loops" in sets:
        jobs += [(n, co, "k", g, b, make, check) for n, co, g, b, make, check in loop_cases(**(loop_size or {}))]
    out = {}
    for name, co, kernel, grid, block, make_args, check in jobs:
        if names and name not in names:
            continue
        ex = WaveExecutor() if blocks is None else WaveExecutor(blocks=blocks)
        pristine = make_args()
        args = copy.deepcopy(pristine)
        simulate(co, kernel, grid, block, args, executor=ex)          # decode, compile, warm up
        if callable(check):
            ok = check(args)
        else:
            try:
                C.check_outputs(check, pristine, args)
                ok = True
            except AssertionError as e:
                print(f"{name}: wrong result ({e}), not reporting a speed", file=sys.stderr)
                ok = False
        if not ok:
            raise SystemExit(f"{name}: wrong result, not reporting a speed")
        best = math.inf
        for _ in range(repeat):
            args = copy.deepcopy(pristine)
            t = time.process_time()
            simulate(co, kernel, grid, block, args, executor=ex)
            best = min(best, time.process_time() - t)
        out[name] = [ex.last.waves, ex.last.wave_instructions, best]
    return out


class _Revision:
    """A temporary worktree of git revision ``rev``; ``measure`` runs its simulator in a
    subprocess."""

    def __init__(self, rev):
        self.work = tempfile.mkdtemp(prefix="bench_emu_")
        self.tree = os.path.join(self.work, "tree")
        subprocess.run(["git", "-C", ROOT, "worktree", "add", "--detach", self.tree, rev], check=True,
                       capture_output=True)

    def measure(self, sets, names, repeat):
        cmd = [sys.executable, os.path.abspath(__file__), "--json", "--root", self.tree, "--set",
               ",".join(sets), "--repeat", str(repeat)] + (["--kernels", ",".join(names)] if names else [])
        done = subprocess.run(cmd, check=True, capture_output=True, text=True, cwd=self.tree)
        return json.loads(done.stdout)

    def close(self):
        subprocess.run(["git", "-C", ROOT, "worktree", "remove", "--force", self.tree], capture_output=True)
        shutil.rmtree(self.work, ignore_errors=True)


def _best(runs):
    merged = {}
    for r in runs:
        for k, v in r.items():
            if k not in merged or v[2] < merged[k][2]:
                merged[k] = v
    return merged


def report(ours, refs, sets, names, unit="wave"):
    """Print one line per kernel; refs: [(label, {kernel: [waves, count, seconds]})]."""
    head = f"{'kernel':20s} {unit + 's':>6s} {unit + '-instr':>11s} {'ms':>9s} {'M ' + unit[0] + 'i/s':>7s}"
    for label, _ in refs:
        head += f" {label + ' ms':>12s} {'x':>6s}"
    print(head)
    ratios = {label: [] for label, _ in refs}
    for name, (waves, count, sec) in ours.items():
        line = f"{name:20s} {waves:6d} {count:11,d} {sec * 1e3:9.2f} {count / sec / 1e6:7.2f}"
        for label, ref in refs:
            r = ref.get(name)
            if r is None:
                line += f" {'-':>12s} {'':>6s}"
                continue
            if r[1] != count:
                raise SystemExit(f"{name}: {count} wave-instructions here, {r[1]} on {label}")
            ratios[label].append((r[2] / sec, waves))
            line += f" {r[2] * 1e3:12.2f} {r[2] / sec:6.2f}"
        print(line)
    for label, pairs in ratios.items():
        rs = [x for x, _ in pairs]
        if rs:
            print(f"  vs {label}: geometric mean {_geomean(rs):.2f}x, min {min(rs):.2f}x, max {max(rs):.2f}x "
                  f"over {len(rs)} kernels")
        mid = [x for x, w in pairs if 8 <= w <= 32]      # (small dispatches: 8-32 waves each)
        if mid and len(mid) < len(rs):
            print(f"  vs {label}, dispatches of 8-32 {unit}s: geometric mean {_geomean(mid):.2f}x, "
                  f"min {min(mid):.2f}x over {len(mid)} kernels")


def _geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def measure_sass(names, repeat):
    """{kernel.target: [warps, warp-instructions, CPU seconds]} of the NVIDIA test kernels, and the
    kernels left out with why."""
    from drivers.emu.nv.sass import execute
    from drivers.nv import NVDevice
    from hw_tests.nv_kernels import CASES, TARGETS, cubin_path, decoder_disagrees
    out, skipped = {}, []
    for target in TARGETS:
        dev = NVDevice(emulate=target)
        gpu, seen = dev.kernel.gpu, []

        def counted(launch):
            seen.append((launch.grid[0] * launch.grid[1] * launch.grid[2] * -(-launch.threads // 32),
                         execute(launch)))
            return seen[-1][1]

        gpu.executor = counted
        try:
            for cls in CASES:
                if names and cls.name not in names:
                    continue
                why = decoder_disagrees(cls.name, target)
                if why:
                    skipped.append(f"{cls.name}.{target}: {why}")
                    continue
                prg = dev.load(cubin_path(cls.name, target))
                case = cls()
                case.check(case.run(dev, prg))              # warm-up (decode, compile) and the check
                best = None
                for _ in range(repeat):
                    seen.clear()
                    start = time.process_time()
                    case.run(dev, prg)
                    secs = time.process_time() - start
                    best = secs if best is None else min(best, secs)
                out[f"{cls.name}.{target}"] = [sum(w for w, _ in seen), sum(n for _, n in seen), best]
        finally:
            dev.close()
    return out, skipped


def report_sass(ours, skipped, rdna3, refs=()):
    """The SASS table (with REV's times when --against), and its rate next to the RDNA3 simulator's
    (small set, same run)."""
    report(ours, list(refs), ["sass"], [], unit="warp")
    by_reason = {}
    for line in skipped:                    # one line per reason (a missing arch is one reason)
        kernel, why = line.split(": ", 1)
        by_reason.setdefault(why, []).append(kernel)
    for why, kernels in by_reason.items():
        print(f"  left out {', '.join(kernels)}: {why}")
    rate = lambda runs: sum(r[1] for r in runs.values()) / sum(r[2] for r in runs.values()) / 1e6  # noqa
    if ours and rdna3:
        print(f"  SASS simulator {rate(ours):.2f} M warp-instr/s over {len(ours)} kernels; RDNA3 simulator "
              f"{rate(rdna3):.2f} M wave-instr/s over {len(rdna3)} kernels of the small set (this run)")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--set", default="small,large,loops,sass", help="comma-separated: small, large, loops, sass")
    ap.add_argument("--kernels", default="", help="only these kernels (comma-separated names)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per figure (the best is kept)")
    ap.add_argument("--against", metavar="REV", help="also time the simulator of git revision REV")
    ap.add_argument("--no-reference", action="store_true", help="skip the per-instruction reference")
    ap.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--root", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    sets = [s for s in a.set.split(",") if s]
    names = [n for n in a.kernels.split(",") if n]
    if a.root:                                  # --against's subprocess: that tree's simulator
        sys.path.insert(0, a.root)
    else:
        sys.path.insert(0, ROOT)
    if a.json:
        if sets == ["sass"]:
            print(json.dumps(measure_sass(names, a.repeat)[0]))
        else:
            print(json.dumps(measure(sets, names, a.repeat, None)))
        return 0
    import drivers.emu.amd.shader as shader
    print(f"simulator: {os.path.dirname(shader.__file__)}; CPU seconds, best of {a.repeat}"
          + (f" (interleaved with {a.against}, best of {2 * a.repeat})" if a.against else ""))
    rev = _Revision(a.against) if a.against else None
    try:
        for group in sets:
            print(f"\n{group}:")
            if group == "sass":
                ours, skipped = measure_sass(names, a.repeat)
                runs, revs = [ours], []
                if rev:                     # alternate ours and REV, as for the RDNA3 sets
                    for _ in range(2):
                        revs.append(rev.measure([group], names, a.repeat))
                        runs.append(measure_sass(names, a.repeat)[0])
                report_sass(_best(runs), skipped, _best([measure(["small"], [], a.repeat, True)]),
                            [(a.against, _best(revs))] if rev else [])
                continue
            runs, revs = [measure([group], names, a.repeat, True)], []
            if rev:                         # alternate ours and REV: load on the machine hits both
                for _ in range(2):
                    revs.append(rev.measure([group], names, a.repeat))
                    runs.append(measure([group], names, a.repeat, True))
            refs = []
            if not a.no_reference:
                refs.append(("per-instr", measure([group], names, a.repeat, False)))
            if rev:
                refs.append((a.against, _best(revs)))
            report(_best(runs), refs, sets, names)
    finally:
        if rev:
            rev.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
