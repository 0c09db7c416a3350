#!/usr/bin/env python3
"""ir3 disassembly (and assembly) throughput: ours against mesa's ir3_isa_disasm from the
tinymesa wheel, measured in the same run on the same words.

    python scripts/bench_ir3.py [N] [RUNS]     (default 20000 words of mesa's test vectors and
                                                their mutations that mesa decodes, best of 3)
"""
import os
import random
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "scripts"))

import gen_ir3_oracle as oracle  # noqa: E402


def best_of(runs, fn):
    best = None
    for _ in range(runs):
        t = time.perf_counter()
        out = fn()
        dt = time.perf_counter() - t
        best = dt if best is None or dt < best else best
    return best, out


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    from assembler.ir3 import assemble, clear_caches, disassemble
    from assembler.ir3.decoder import decode
    from assembler.errors import AssemblerError
    rng = random.Random(1)
    pool = []
    for w in oracle.random_words(rng, 4 * n, oracle.seed_words()):
        try:
            decode(w)
        except AssemblerError:
            continue
        pool.append(w)
        if len(pool) == n:
            break
    data = b"".join(w.to_bytes(8, "little") for w in pool)
    ours, lines = best_of(runs, lambda: disassemble(data))
    print("best of %d runs, %d words mesa and we decode (the machine may be shared)" % (runs, len(pool)))
    print("ours disasm:  %8.0f instr/s  (%.3f s)" % (len(pool) / ours, ours))
    from assembler.ir3.encoder import encode_line
    ok = []
    for line in lines:
        try:
            encode_line(line)
            ok.append(line)
        except AssemblerError:
            pass                  # forms the assembler does not take yet (see the README)
        if len(ok) == 2000:
            break
    text = "\n".join(ok)

    def asm_once():
        clear_caches()
        return assemble(text)
    asm_t, _ = best_of(runs, asm_once)
    print("ours asm:     %8.0f instr/s  (%.3f s for %d lines, cold cache)" % (2000 / asm_t, asm_t, 2000))
    if not oracle.available():
        print("tinymesa not installed (pip install %s): no reference rate" % oracle.WHEEL)
        return 0
    ref, out = best_of(runs, lambda: oracle.disasm_text(data, show_errors=False))
    same = out.rstrip("\n").split("\n") == lines
    print("mesa disasm:  %8.0f instr/s  (%.3f s, ir3_isa_disasm via ctypes; text identical: %s)"
          % (len(pool) / ref, ref, same))
    print("ratio ours/mesa disassembly = %.3fx" % (ref / ours))
    return 0


if __name__ == "__main__":
    sys.exit(main())
