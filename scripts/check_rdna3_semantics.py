#!/usr/bin/env python3
"""Edge-value check of the wave simulator's ALU semantics against an independent reference.

    python scripts/check_rdna3_semantics.py [--ops PATTERN] [--per-op N] [--seed S]
        every VALU and SALU op on edge values (+-0, +-inf, quiet and signalling NaNs, denormals,
        the largest and smallest numbers, integer limits, shift and field widths at and past
        the word size, equal operands), under several MODE settings (rounding, denormal
        flushing of inputs and outputs, IEEE, DX10 clamp) and every modifier the encoding has
        (abs, neg, op_sel, output modifiers, clamp), against scripts/rdna3_ref/ (written from
        the ISA pseudocode); prints the disagreements and the counts
    python scripts/check_rdna3_semantics.py --llvm
        the same simulator ops against LLVM 19's constant folding of the llvm.amdgcn.*
        intrinsics (`opt-19 -passes=instcombine` on constant arguments), and the reference
        against LLVM; lists where the pseudocode and LLVM disagree and which one the simulator
        follows (LLVM_DISAGREEMENTS below)
    python scripts/check_rdna3_semantics.py --kernels
        also runs a sample of the cases as real instructions: assembled into a kernel, executed
        by the WaveExecutor (decoder, operand fetch, modifiers, MODE, the executor's own paths)
    python scripts/check_rdna3_semantics.py --constants [--seed S]
        every VOP3 and VOP3P form of the instruction path with each of its first two sources
        replaced by inline constants and literals of every kind (integers, floats, 16- and
        32-bit patterns):
        the value the hardware supplies to that operand type (kernels.constant_operand), and
        by SGPRs set to edge values, through both execution paths, against the reference
    python scripts/check_rdna3_semantics.py --freeze
        rewrites the golden files tests/data/rdna3/semantics/{reference,llvm}.txt that
        tests/test_rdna3_semantics.py checks without LLVM (a fixed sample of every op)

Per-op runs call the simulator's op implementations (drivers/emu/amd/shader/valu, scalar.py)
directly on lane arrays; kernel runs go through the executor. The parts: rdna3_semantics_cases.py
(edge values, cases, running and judging them), rdna3_semantics_kernels.py (the instruction
path), rdna3_semantics_llvm.py (LLVM's folds and where they differ from the pseudocode).
"""
import os
import random
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)

import rdna3_ref as R  # noqa: E402
# the parts, and the names tests/test_rdna3_semantics.py uses through this module
from rdna3_semantics_cases import (DATA, EXCLUDED, Case, _show, agrees,  # noqa: E402,F401
                                   all_cases, check, ref_result, salu_ref, salu_sim,
                                   sim_results)
from rdna3_semantics_kernels import (check_constants, check_kernels, check_sop,  # noqa: E402,F401
                                     constant_statements, kernel_statement, run_kernel_group,
                                     run_sop_kernel, sgpr_statements, sop_cases)
from rdna3_semantics_llvm import (LLVM_DISAGREEMENTS, check_llvm, llvm_cases,  # noqa: E402
                                  llvm_fold)


def main_llvm(argv):
    per = int(argv[argv.index("--per-op") + 1]) if "--per-op" in argv else 300
    seed = int(argv[argv.index("--seed") + 1]) if "--seed" in argv else 1
    t0 = time.time()
    counts, bad, known = check_llvm(per, seed)
    by_intr = {}
    for row in bad:
        by_intr.setdefault(row[0], []).append(row)
    for intr, rows in sorted(by_intr.items()):
        print("== %s: %d" % (intr, len(rows)))
        for _, case, llvm, ref, sim, cls in rows[:5]:
            print("   %s\n      LLVM %x  reference %s  simulator %s" % (case.text(), llvm, _show(ref),
                                                                    _show(sim)))
    by_cls = {}
    for intr, case, llvm, cls in known:
        by_cls.setdefault(cls, []).append((intr, case, llvm))
    for cls, rows in sorted(by_cls.items()):
        ops, follows, why = LLVM_DISAGREEMENTS[cls]
        print("pseudocode vs LLVM, %s: %d cases; the simulator follows the %s: %s" % (
            cls, len(rows), follows, why))
        for intr, case, llvm in rows[:3]:
            print("   %s %s -> LLVM %x" % (intr, ",".join("%x" % v for v in case.srcs), llvm))
    if counts["unfolded"]:
        print("not folded by this LLVM on constant arguments (nothing to compare):",
              " ".join(counts["unfolded"]))
    print("intrinsics %(intrinsics)d  folded cases %(folded)d  agree %(agree)d  known "
          "pseudocode-vs-LLVM %(known)d  disagree %(disagree)d" % counts, "(%.1fs)" % (time.time() - t0))
    return 1 if bad else 0


# ---- golden files --------------------------------------------------------------------------------

FROZEN_SEED, FROZEN_PER_OP, FROZEN_LLVM_PER = 20261124, 24, 40


def encode_expected(main, mask):
    """Text of an expected result: main bits (~nan: any quiet NaN, ~Nulp) and the mask bit."""
    out = []
    if main is not None:
        if isinstance(main, R.Res):
            out.append("main=%x%s%s" % (main.bits, "~nan" if main.nan_any else "",
                                        "~%dulp" % main.ulp if main.ulp else ""))
        else:
            out.append("main=%x" % main)
    if mask is not None:
        out.append("mask=%d" % mask)
    return " ".join(out)


def decode_expected(text):
    main = mask = None
    for p in text.split():
        k, _, v = p.partition("=")
        if k == "mask":
            mask = int(v)
        elif k == "main":
            bits, *flags = v.split("~")
            ulp = next((int(f[:-3]) for f in flags if f.endswith("ulp")), 0)
            main = R.Res(int(bits, 16), "nan" in flags, ulp) if flags else int(bits, 16)
    return main, mask


def load_golden(name):
    rows = []
    with open(os.path.join(DATA, name)) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            left, _, right = line.rstrip("\n").partition(" => ")
            rows.append((Case.parse(left), decode_expected(right)))
    return rows


def check_golden_reference(rows):
    """The simulator's op implementations on the frozen reference cases -> (counts, bad)."""
    by_op = {}
    for c, want in rows:
        by_op.setdefault(c.op, []).append((c, want))
    bad, ok = [], 0
    for name, items in by_op.items():
        cs = [c for c, _ in items]
        if name in R.SALU:
            got = salu_sim(cs)
            for (c, want), g in zip(items, got):
                good = want[0] == g[0] and (want[1] is None or want[1] == g[1])
                ok += good
                if not good:
                    bad.append((c, want, g))
            continue
        got = sim_results(cs)
        for (c, want), g in zip(items, got):
            good = agrees(R.OPS[name], want, g)
            ok += good
            if not good:
                bad.append((c, want, g))
    return dict(cases=len(rows), ops=len(by_op), agree=ok, disagree=len(bad)), bad


def freeze():
    os.makedirs(DATA, exist_ok=True)
    cases = all_cases(FROZEN_PER_OP, FROZEN_SEED)
    head = ("# Generated by scripts/check_rdna3_semantics.py --freeze; do not edit.\n"
            "# %s\n# case (op, MODE, modifiers, operand bits, old destination) => expected result\n")
    with open(os.path.join(DATA, "reference.txt"), "w") as f:
        f.write(head % "expected: scripts/rdna3_ref/ (the ISA pseudocode), every VALU and SALU op")
        for c in cases:
            if c.op in R.SALU:
                r, scc = salu_ref(c)
                f.write("%s => main=%x%s\n" % (c.text(), r, "" if scc is None else " mask=%d" % scc))
            else:
                f.write("%s => %s\n" % (c.text(), encode_expected(*ref_result(c))))
    counts, bad, known = check_llvm(FROZEN_LLVM_PER, FROZEN_SEED)
    if bad:
        raise SystemExit("LLVM disagreements outside LLVM_DISAGREEMENTS: run --llvm")
    rng = random.Random(FROZEN_SEED)
    items = llvm_cases(rng, FROZEN_LLVM_PER)
    folded = llvm_fold(items)
    known_ids = {(intr, tuple(c.srcs)): cls for intr, c, _, cls in known}
    n = 0
    with open(os.path.join(DATA, "llvm.txt"), "w") as f:
        f.write(head % "expected: LLVM 19's constant folding (opt-19 -passes=instcombine) of the "
                       "intrinsic named after '@'; where it\n# disagrees with the pseudocode "
                       "(follow=CLASS, LLVM_DISAGREEMENTS) the pseudocode's value is expected")
        for (intr, c), llvm in zip(items, folded):
            if llvm is None:
                continue
            cls = known_ids.get((intr, tuple(c.srcs)))
            if cls is None:
                ref_main = ref_result(c)[0]
                if R.OPS[c.op].dst == "mask":
                    want = "mask=%d" % llvm
                elif isinstance(ref_main, R.Res):
                    fmt = R.FMTS.get(R.OPS[c.op].dst, R.F16)
                    halves = (0, 16) if R.OPS[c.op].dst == "u32" else (0,)
                    nan = ref_main.nan_any and any(
                        R.decode(fmt, llvm >> sh & ((1 << fmt.width) - 1)).nan for sh in halves)
                    want = encode_expected(R.Res(llvm, nan, ref_main.ulp), None)
                else:
                    want = encode_expected(llvm, None)
                f.write("%s @%s => %s\n" % (c.text(), intr, want))
            else:
                f.write("%s @%s follow=%s llvm=%x => %s\n" % (c.text(), intr, cls, llvm,
                                                           encode_expected(*ref_result(c))))
            n += 1
    print("wrote %s: %d reference cases, %d LLVM folds (%d where the pseudocode is followed)"
          % (DATA, len(cases), n, len(known)))


def main_kernels(argv):
    pattern = argv[argv.index("--ops") + 1] if "--ops" in argv else None
    per_op = int(argv[argv.index("--per-op") + 1]) if "--per-op" in argv else 120
    seed = int(argv[argv.index("--seed") + 1]) if "--seed" in argv else 1
    t0 = time.time()
    scases = [c for c in sop_cases(random.Random(seed), per_op)
              if not pattern or re.search(pattern, c.op)]
    scounts, sbad = check_sop(scases)
    for c, want, got in sbad[:20]:
        print("   %s\n      reference %s  kernel %s" % (c.text(), _show(want), _show(got)))
    print("SALU (SOP1, SOP2, SOPC, SOPK) cases %(cases)d  agree %(agree)d  disagree %(disagree)d"
          % scounts)
    cases = [c for c in all_cases(per_op, seed, pattern) if c.op in R.OPS]
    counts, bad = check_kernels(cases)
    by_op = {}
    for c, want, got in bad:
        by_op.setdefault(c.op, []).append((c, want, got))
    for name, rows in sorted(by_op.items()):
        print("== %s: %d   %s" % (name, len(rows), kernel_statement(rows[0][0])))
        for c, want, got in rows[:4]:
            print("   %s\n      reference %s  kernel %s" % (c.text(), _show(want), _show(got)))
    print("kernels %(kernels)d  cases %(cases)d  agree %(agree)d  disagree %(disagree)d (compiled "
          "blocks unlike one instruction at a time: %(paths_differ)d)" % counts,
          "(%.1fs)" % (time.time() - t0))
    return 1 if bad or sbad else 0


def main_constants(argv):
    seed = int(argv[argv.index("--seed") + 1]) if "--seed" in argv else 1
    t0 = time.time()
    rng = random.Random(seed)
    counts, bad = check_constants(constant_statements() + sgpr_statements(rng), rng)
    by_stmt = {}
    for stmt, c, want, got in bad:
        by_stmt.setdefault(stmt, []).append((c, want, got))
    for stmt, rows in sorted(by_stmt.items()):
        print("== %s: %d" % (stmt, len(rows)))
        for c, want, got in rows[:3]:
            print("   %s\n      reference %s  kernel %s" % (c.text(), _show(want), _show(got)))
    print("statements %(statements)d  cases %(cases)d  agree %(agree)d  disagree %(disagree)d"
          % counts, "(%.1fs)" % (time.time() - t0))
    return 1 if bad else 0


def main(argv):
    if "--help" in argv or "-h" in argv:
        print(__doc__)
        return 0
    if "--constants" in argv:
        return main_constants(argv)
    if "--freeze" in argv:
        freeze()
        return 0
    if "--llvm" in argv:
        return main_llvm(argv)
    if "--kernels" in argv:
        return main_kernels(argv)
    pattern = None
    if "--ops" in argv:
        pattern = argv[argv.index("--ops") + 1]
    per_op = int(argv[argv.index("--per-op") + 1]) if "--per-op" in argv else 400
    seed = int(argv[argv.index("--seed") + 1]) if "--seed" in argv else 1
    t0 = time.time()
    cases = all_cases(per_op, seed, pattern)
    counts, bad = check(cases)
    by_op = {}
    for c, want, got in bad:
        by_op.setdefault(c.op, []).append((c, want, got))
    for name, rows in sorted(by_op.items()):
        print("== %s: %d" % (name, len(rows)))
        for c, want, got in rows[:6]:
            print("   %s\n      reference %s  simulator %s" % (c.text(), _show(want), _show(got)))
    if counts["literal"]:
        print("where the literal pseudocode gives another result and the simulator follows "
              "what rdna3_ref.DEVIATIONS says instead:")
        for name, n in sorted(counts["literal"].items()):
            print("   %-24s %5d cases   %s" % (name, n, R.DEVIATIONS[name][0][:90]))
    print("ops %(ops)d  cases %(cases)d  agree %(agree)d  disagree %(disagree)d" % counts,
          "(%.1fs)" % (time.time() - t0))
    return 1 if bad else 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except BrokenPipeError:                     # ... | head
        sys.stdout = None
        sys.exit(0)
