#!/usr/bin/env python3
"""ir3 disassembly and assembly throughput: ours against mesa's own (ir3_isa_disasm, and
ir3_parse + ir3_shader_assemble) from the tinymesa wheel, measured in the same run on the same
words and lines. Without the wheel our rates print alone (no reference can run).

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


def race(runs, ours, ref):
    """Best times of `ours` and `ref` run alternately (a shared machine's load hits both), and
    their last results."""
    best = [None, None]
    out = [None, None]
    for _ in range(runs):
        for i, fn in enumerate((ours, ref)):
            t = time.perf_counter()
            out[i] = fn()
            dt = time.perf_counter() - t
            best[i] = dt if best[i] is None or dt < best[i] else best[i]
    return best, out


def main():
    if "-h" in sys.argv[1:] or "--help" in sys.argv[1:]:
        print(__doc__)
        return 0
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    from assembler.ir3 import assemble, clear_caches, disassemble, templates
    from assembler.ir3.decoder import decode
    from assembler.ir3.encoder import encode_line
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
    lines = disassemble(data)               # warm-up: the decoding plans are recorded
    have_mesa = oracle.available()
    print("%d words mesa and we decode, best of %d runs after one warm-up, ours and mesa's "
          "alternating (the machine may be shared)" % (len(pool), runs))
    if have_mesa:
        (ours, ref), (lines, out) = race(runs, lambda: disassemble(data),
                                         lambda: oracle.disasm_text(data, show_errors=False))
    else:
        ours, lines = best_of(runs, lambda: disassemble(data))
    print("ours disasm:  %8.0f instr/s  (%.3f s)" % (len(pool) / ours, ours))
    if have_mesa:
        same = out.rstrip("\n").split("\n") == lines
        print("mesa disasm:  %8.0f instr/s  (%.3f s, ir3_isa_disasm via ctypes; text identical: %s)"
              % (len(pool) / ref, ref, same))
        print("ratio ours/mesa disassembly = %.3fx" % (ref / ours))
    else:
        print("tinymesa not installed (pip install %s): no reference rate" % oracle.WHEEL)

    # lines for assembly: those mesa's assembler reads as our disassembler meant them
    mesa_asm = have_mesa and oracle.asm_available()
    ok, verdicts = [], {}
    for i in range(0, len(lines), 500):
        chunk = lines[i:i + 500]
        if mesa_asm:
            verdicts.update(zip(chunk, oracle.mesa_assemble_many(chunk)))
        for line in chunk:
            r = verdicts.get(line)
            if mesa_asm and (isinstance(r, str) or r.words[0] != encode_line(line)):
                continue
            ok.append(line)
            if len(ok) == 2000:
                break
        if len(ok) == 2000:
            break
    text = "\n".join(ok)
    program = text + "\nend"

    def asm_once():
        clear_caches()
        return assemble(text)

    def asm_cold():
        clear_caches()
        templates.clear()
        return assemble(text)
    cold, _ = best_of(1, asm_cold)
    code = asm_once()                       # warm-up: templates of the shapes met once are built
    if mesa_asm:
        (asm_t, mref), (code, prog) = race(runs, asm_once, lambda: oracle.mesa_assemble(program))
    else:
        asm_t, code = best_of(runs, asm_once)
    print("ours asm:     %8.0f instr/s  (%.3f s for %d lines; templates known, line cache cold)"
          % (len(ok) / asm_t, asm_t, len(ok)))
    print("ours asm:     %8.0f instr/s  (%.3f s, first sight: no template, every shape new)"
          % (len(ok) / cold, cold))
    if not mesa_asm:
        print("mesa's assembler is not callable here: no assembly reference")
        return 0
    same = not isinstance(prog, str) and prog.words[:len(ok)] == [
        int.from_bytes(code[i:i + 8], "little") for i in range(0, len(code), 8)]
    print("mesa asm:     %8.0f instr/s  (%.3f s, ir3_parse + ir3_shader_assemble; words identical: %s)"
          % (len(ok) / mref, mref, same))
    print("ratio ours/mesa assembly = %.3fx (first sight %.4fx)" % (mref / asm_t, mref / cold))
    return 0


if __name__ == "__main__":
    sys.exit(main())
