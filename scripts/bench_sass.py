#!/usr/bin/env python3
"""Benchmark: our SASS assembly rate against nvdisasm's disassembly rate of the same words.

Run:  python scripts/bench_sass.py [--arch sm_90] [--repeat 20]

The golden corpus (tests/data/sass/ARCH) gives ptxas's words and nvdisasm's text of each. We
time (1) assembling the text (with each instruction's control comment, and the annotation of an
exact listing where nvdisasm's text does not carry a bit: assembler.sass.listing) to words, (2) our
disassembly of the words, and (3) nvdisasm disassembling the same words from a file, its
process start included, measured in the same run. nvdisasm is the nearest oracle that runs on
input of this size: NVIDIA ships no standalone SASS assembler. Without nvdisasm only our rates
are printed.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "tests"))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--arch", default="sm_90")
    p.add_argument("--repeat", type=int, default=20, help="copies of the corpus in one input")
    args = p.parse_args(argv)
    from assembler.sass import assemble_program, disassemble
    from assembler.sass.control import Control
    from assembler.sass.listing import exact_texts
    from sass_oracle import find_tool, sm_flag
    from test_sass_corpus import load
    # each kernel is one program at address 0 (nvdisasm's raw text has absolute branch targets)
    kernels = [[(w, raw) for _, w, _, raw in ins] for _, _, ins, _ in load(args.arch)]
    texts = []
    for k in kernels:
        exact = exact_texts([([], raw, w) for w, raw in k], args.arch)
        texts.append("\n".join("%s  // %s %s" % (text, Control.from_word(w).text(), note)
                               for (w, _), (text, note) in zip(k, exact)))
    insns = [x for k in kernels for x in k]
    n = len(insns)
    data = b"".join(w.to_bytes(16, "little") for w, _ in insns)
    for t in texts:                         # warm up (tables load, caches)
        assemble_program(t, args.arch)
    t0 = time.perf_counter()
    for _ in range(args.repeat):
        words = [w for t in texts for w in assemble_program(t, args.arch).words]
    t_asm = time.perf_counter() - t0
    same = sum(a == w for a, (w, _) in zip(words, insns))
    print("%s: %d of %d assembled words equal ptxas's" % (args.arch, same, n))
    t0 = time.perf_counter()
    for _ in range(args.repeat):
        disassemble(data, args.arch)
    t_dis = time.perf_counter() - t0
    total = n * args.repeat
    print("%s: %d instructions x %d" % (args.arch, n, args.repeat))
    print("  ours: assemble %9.0f instructions/s   disassemble %9.0f instructions/s"
          % (total / t_asm, total / t_dis))
    nvd = find_tool("nvdisasm")
    if nvd is None:
        print("  nvdisasm not installed: no reference measured (pip install nvidia-cuda-nvdisasm)")
        return 0
    with tempfile.NamedTemporaryFile(suffix=".bin", delete=False) as f:
        f.write(data * args.repeat)
        path = f.name
    try:
        t0 = time.perf_counter()
        r = subprocess.run([nvd, "-b", sm_flag(args.arch), path], capture_output=True, text=True)
        t_nv = time.perf_counter() - t0
    finally:
        os.unlink(path)
    if r.returncode:
        print("  nvdisasm failed: " + r.stderr.strip())
        return 1
    rate_nv = total / t_nv
    print("  nvdisasm: disassemble %9.0f instructions/s (one process, start included)" % rate_nv)
    print("  our assembly rate / nvdisasm's disassembly rate: %.2f" % ((total / t_asm) / rate_nv))
    print("  our disassembly rate / nvdisasm's disassembly rate: %.2f" % ((total / t_dis) / rate_nv))
    return 0


if __name__ == "__main__":
    sys.exit(main())
