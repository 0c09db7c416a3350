#!/usr/bin/env python3
"""Generate assembler/sass/tables/latency.py: the fixed latencies ptxas schedules for, per arch.

Run:  python scripts/gen_sass_latency.py [--check]   (no NVIDIA tool needed: it reads the frozen corpus;
      --check only says whether the committed table is current)

ptxas's code is the oracle: it knows how many cycles after issue each fixed-latency result can be
read, and it leaves no more stall cycles than it must.  So, over every kernel ptxas wrote for the
golden corpus (tests/data/sass) and the CUDA test kernels (hw_tests/kernels/nv/cubin), for every
fixed-latency instruction (no write scoreboard) and every register it writes, this follows every
path of the control-flow graph from it (fall-through, conditional and unconditional branch targets,
calls) to the first instruction that reads the register, adding up the stall counts on the way (a
stall of 0 still takes the one cycle an issue takes).  The smallest such distance over the whole
corpus, per (opcode, .WIDE or not, register file) and per way of reading (a source operand, or the guard
predicate `@P`, before which ptxas always leaves more), is that opcode's latency.

Registers come from the virtual SM's own decoding of each instruction (exact widths: what it will
check), not from assembler.sass.usage, which over-approximates and would make latencies look shorter.
"""
import argparse
import collections
import glob
import heapq
import os
import pprint
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tests"))

ARCHS = ("sm_86", "sm_89", "sm_90")
OUT = os.path.join(ROOT, "assembler", "sass", "tables", "latency.py")
HORIZON = 48                  # cycles: no fixed latency is longer; a reader further away says nothing
ENDS = {"EXIT", "RET", "BRX", "JMX", "KILL"}


def kernels(arch):
    """[(name, [Instr])]: the golden corpus and the CUDA test kernels, as the virtual SM decodes them."""
    from test_sass_corpus import load as load_corpus
    from drivers.emu.nv.sass.decode import decode_block
    from drivers.nv.cubin import read_cubin
    sm = int(arch[3:])
    out = []

    def block(code):
        b = decode_block(code, sm)
        return [b[o] for o in sorted(b)]

    for f, sec, insns, _ in load_corpus(arch):
        out.append(("%s %s" % (f, sec), block(b"".join(w.to_bytes(16, "little") for _, w, _, _ in insns))))
    for path in sorted(glob.glob(os.path.join(ROOT, "hw_tests", "kernels", "nv", "cubin", "*.%s.cubin" % arch))):
        with open(path, "rb") as fh:
            cubin = read_cubin(fh.read(), path)
        for name, k in cubin.kernels.items():
            out.append(("%s %s" % (os.path.basename(path), name),
                        block(cubin.text(name).data[k.offset:k.offset + k.code_size])))
    return out


def _target(ins):
    for op in ins.operands:
        if op.kind == "target":
            return ins.pc + op.holes[0]
        if op.kind == "pair" and op.shape[2] == "target":
            return ins.pc + op.holes[-1]
    return None


def successors(code, i):
    ins = code[i]
    op = ins.opcode
    nxt = [i + 1] if i + 1 < len(code) else []
    guarded = ins.guard is not None and not (ins.guard[1] == 7 and not ins.guard[2])
    if op in ENDS:
        return nxt if guarded else []
    if op in ("BRA", "CALL"):
        t = _target(ins)
        to = [t // 16] if t is not None and 0 <= t // 16 < len(code) else []
        # a call comes back to the next instruction; an unguarded BRA never falls through
        return to + (nxt if guarded or op == "CALL" else [])
    return nxt


def measure(arch):
    """{(opcode, file, 'operand' | 'guard'): smallest distance}, and how many first readers were seen,
    over the corpus of `arch`."""
    from drivers.emu.nv.sass import ops_control, ops_float, ops_half, ops_int, ops_memory, ops_uniform, ops_warp  # noqa
    from assembler.sass.latency import variant
    from drivers.emu.nv.sass.executor import OPS, Context
    sm = int(arch[3:])
    ctx = Context((sm // 10) << 8 | sm % 10)
    best, count = {}, collections.Counter()
    for name, code in kernels(arch):
        impls = []
        for ins in code:
            comp = OPS.get(ins.opcode)
            try:
                impls.append(comp(ins, ctx) if comp else None)
            except Exception:               # noqa: BLE001 -- forms the virtual SM does not run
                impls.append(None)
        for i, ins in enumerate(code):
            impl = impls[i]
            if impl is None or impl.queue is not None or ins.ctrl.write_sb != 7 or impl.control:
                continue
            for reg in impl.writes:
                for kind, dist in first_reads(code, impls, i, reg):
                    key = (variant(ins.opcode, ins.mods), reg[0], kind)
                    best[key] = min(best.get(key, HORIZON), dist)
                    count[key] += 1
    return best, count


def first_reads(code, impls, i, reg):
    """[(kind, distance)] of the first readers of `reg` written at `i`, along every path."""
    found = []
    seen = {}
    heap = [(max(1, code[i].ctrl.stall), j) for j in successors(code, i)]
    while heap:
        dist, j = heapq.heappop(heap)
        if dist >= HORIZON or seen.get(j, HORIZON) <= dist:
            continue
        seen[j] = dist
        ins, impl = code[j], impls[j]
        if impl is None:
            continue
        if ins.guard is not None and (ins.guard[0], ins.guard[1]) == reg:
            found.append(("guard", dist))
            continue
        if reg in impl.reads:
            found.append(("operand", dist))
            continue
        if reg in impl.writes and ins.guard is None:
            continue
        for k in successors(code, j):
            heapq.heappush(heap, (dist + max(1, ins.ctrl.stall), k))
    return found


def tables(arch):
    best, count = measure(arch)
    result, guard = collections.defaultdict(dict), {}
    for (opcode, file, kind), dist in sorted(best.items()):
        if kind == "operand":
            result[opcode][file] = (dist, count[opcode, file, kind])
        else:
            guard[file] = min(guard.get(file, HORIZON), dist)
    return dict(result), guard


def render():
    body = []
    for arch in ARCHS:
        result, guard = tables(arch)
        body.append("%r: {\n    'result': %s,\n    'guard': %r}," % (
            arch, pprint.pformat(result, width=100, compact=True).replace("\n", "\n    "), guard))
    return HEADER % "\n".join(body)


HEADER = '''"""Fixed latencies of SASS instructions: issue cycles until a result can be read, per arch.

GENERATED by scripts/gen_sass_latency.py from ptxas's code (tests/data/sass and the cubins of
hw_tests/kernels/nv); do not edit.  Regenerate with:  python scripts/gen_sass_latency.py

LATENCY[arch]['result'][opcode][file]: (the fewest cycles ptxas ever leaves between the instruction
and the first source operand reading that register file's result (file R, UR, P, UP), how many such
first readers the corpus has: a distance seen once or twice may be ptxas's choice, not the latency).
LATENCY[arch]['guard'][file]: the same for a predicate read as the guard (@P) of an instruction, the
fewest over every producer.  assembler/sass/latency.py turns these into the model.
"""

LATENCY = {
%s
}
'''


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 epilog="Reads only the frozen corpus and cubins: no NVIDIA tool is needed.")
    ap.add_argument("--check", action="store_true",
                    help="only say whether the committed table is what the corpus gives (exit 1 if not)")
    a = ap.parse_args(argv)
    text = render()
    rel = os.path.relpath(OUT, ROOT)
    if a.check:
        with open(OUT) as f:
            same = f.read() == text
        print(f"{rel} is {'current' if same else 'stale: run python scripts/gen_sass_latency.py'}")
        return 0 if same else 1
    with open(OUT, "w") as f:
        f.write(text)
    print("wrote", rel)
    return 0


if __name__ == "__main__":
    sys.exit(main())
