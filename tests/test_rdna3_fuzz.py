"""The differential fuzzer's fixed sample: mutated statements of every family with llvm-mc-19's
verdict (bytes, refusal, or a relocation it would emit), frozen by
`python scripts/fuzz_rdna3_asm.py --freeze`; the assembler must agree on every one.

The full runs (50,000 statements a seed, any seed) need llvm-mc-19:
`python scripts/fuzz_rdna3_asm.py 50000 SEED`. With llvm-mc-19 installed, a small live run of a
fixed seed checks the mutator and the oracle plumbing too.
"""
import os
import shutil
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
SAMPLE = os.path.join(ROOT, "tests", "data", "rdna3", "fuzz.txt")


def _sample():
    rows = []
    with open(SAMPLE, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#"):
                continue
            text, _, verdict = line.rstrip("\n").rpartition("\t")
            rows.append((text, verdict))
    return rows


def test_frozen_sample_agrees_with_llvm_mc():
    from fuzz_rdna3_asm import our_verdict
    rows = _sample()
    assert len(rows) >= 6000
    bad, accepted = [], 0
    for text, verdict in rows:
        ours = our_verdict(text)
        if verdict == "refused" or verdict == "relocation":
            ok = not isinstance(ours, bytes)        # we emit no relocations: refused
        else:
            accepted += 1
            ok = isinstance(ours, bytes) and ours.hex() == verdict
        if not ok:
            bad.append((text, verdict, ours.hex() if isinstance(ours, bytes) else str(ours)))
    assert bad == []
    assert accepted > 1000                          # both verdicts are well represented


def test_sample_covers_every_mutation_class_and_family():
    from fuzz_rdna3_asm import SAMPLE_SEED, SAMPLE_SIZE, statements
    items = statements(SAMPLE_SIZE, SAMPLE_SEED)
    assert [t for t, _ in items] == [t for t, _ in _sample()]     # the sample is what the seed makes
    kinds = {k for _, ks in items for k in ks}
    assert kinds == {"const", "reg", "srcmod", "mod", "arity", "suffix", "near"}
    prefixes = {t.split(" ")[0].split("_")[0] for t, _ in items}
    assert {"s", "v", "ds", "global", "flat", "scratch", "buffer", "tbuffer", "image", "exp"} <= prefixes


@pytest.mark.skipif(shutil.which("llvm-mc-19") is None, reason="llvm-mc-19 not installed")
def test_live_run_against_llvm_mc():
    from fuzz_rdna3_asm import compare, llvm_verdicts, statements
    items = statements(1500, 77)
    counts, bad = compare(items, llvm_verdicts([t for t, _ in items]))
    assert bad == [] and counts["disagree"] == 0
    assert counts["both_accept"] > 200 and counts["both_refuse"] > 500
