"""Talk to llvm-mc-19 in bulk: many byte probes or many source lines in one process.

Shared by scripts/gen_rdna3_tables.py, scripts/gen_rdna3_corpus.py and the differential test.
Each probe is given to the disassembler inside `[...]`, which llvm-mc treats as one instruction
boundary, so a probe that needs a missing literal is reported invalid instead of eating the next
probe's bytes.
"""
import re
import shutil
import subprocess

MC = "llvm-mc-19"
MC_ARGS = ["-arch=amdgcn", "-mcpu=gfx1100"]
_WARN = re.compile(r"<stdin>:(\d+):(\d+): (warning|error): (.*)")


def available():
    return shutil.which(MC) is not None


MARKER = bytes([0xb3, 0x7a, 0x80, 0xbf])     # s_nop 0x7ab3: separates probes in the output


CRASHES = []      # probes llvm-mc-19 crashes on (disassemble_probes reports them as None)


def disassemble_probes(probes):
    """For each probe (bytes) return (text, consumed bytes) of its first instruction, or None.

    Each probe is followed by a marker instruction so every output line is attributed to its
    probe whatever llvm-mc did with trailing bytes. A decoded text carrying an
    '/*Invalid ...*/' remark counts as rejected: llvm-mc refuses to assemble that text back.
    llvm-mc-19 crashes on a few words (a BVH NSA address list whose ranges run past v255, in its
    printer): the batch is split until the crashing probes are found; they count as rejected and
    are listed in CRASHES.
    """
    if not probes:
        return []
    try:
        return _disassemble_batch(probes)
    except _Crash:
        if len(probes) == 1:
            CRASHES.append(probes[0])
            return [None]
        half = len(probes) // 2
        return disassemble_probes(probes[:half]) + disassemble_probes(probes[half:])


class _Crash(Exception):
    pass


def _disassemble_batch(probes):
    mark = "[" + ",".join("0x%02x" % b for b in MARKER) + "]"
    lines = []
    for p in probes:
        lines.append("[" + ",".join("0x%02x" % b for b in p) + "]")
        lines.append(mark)
    r = subprocess.run([MC, *MC_ARGS, "--disassemble", "-show-encoding"],
                       input="\n".join(lines) + "\n", capture_output=True, text=True)
    if r.returncode < 0 or "Stack dump" in r.stderr:
        raise _Crash()
    bad = set()
    for m in _WARN.finditer(r.stderr):
        if int(m.group(2)) == 2:
            bad.add(int(m.group(1)) - 1)
    groups, cur = [], []
    for line in r.stdout.splitlines():
        line = line.strip()
        if not line or line == ".text":
            continue
        txt, _, enc = line.partition("; encoding: [")
        enc = bytes(int(x, 16) for x in enc.rstrip("]").split(","))
        if enc == MARKER:
            groups.append(cur)
            cur = []
        else:
            cur.append((txt.strip(), enc))
    if len(groups) != len(probes):
        raise RuntimeError("lost track of llvm-mc output (%d groups for %d probes)"
                           % (len(groups), len(probes)))
    res = []
    for i, g in enumerate(groups):
        if 2 * i in bad or not g or "/*" in g[0][0]:
            res.append(None)
        else:
            res.append(g[0])
    return res


def assemble_lines(lines):
    """Assemble each line separately; return (bytes or None, error text or None) per line.
    A line llvm-mc encodes with a fixup (an operand naming a symbol) gets 'reloc' for bytes."""
    if not lines:
        return []
    # a blank line after each statement: llvm-mc's recovery from some lexer errors (an invalid
    # character) swallows the next line, which must not be a statement
    r = subprocess.run([MC, *MC_ARGS, "-show-encoding"], input="\n\n".join(lines) + "\n",
                       capture_output=True, text=True)
    errs = {}
    for m in _WARN.finditer(r.stderr):
        if m.group(3) == "error":
            errs.setdefault((int(m.group(1)) - 1) // 2, m.group(4))
    encs = []
    for line in r.stdout.splitlines():
        if "; encoding: [" in line:
            enc = line.partition("; encoding: [")[2].rstrip("]")
            if all(x.startswith("0x") for x in enc.split(",")):
                encs.append(bytes(int(x, 16) for x in enc.split(",")))
            else:
                encs.append("reloc")          # a fixup: the operand names a symbol
    res, k = [], 0
    for i, line in enumerate(lines):
        if i in errs:
            res.append((None, errs[i]))
        elif not line.strip() or line.strip().startswith((";", "//")):
            res.append((b"", None))
        else:
            res.append((encs[k], None))
            k += 1
    if k != len(encs):
        raise RuntimeError("lost track of llvm-mc output (%d of %d encodings used)" % (k, len(encs)))
    return res


def random_words(rng, n):
    """Instruction words biased so every supported family and most opcodes get hit: mostly a
    known opcode with its fixed bits kept, sometimes anything under the family's encoding bits.
    Each word carries one extra random dword (literal / DPP control)."""
    from assembler.rdna3.formats import ENCODING_BITS, FORMATS
    from assembler.rdna3.tables import ALU, MEM, MIMG
    seg = {"FLAT": 0, "SCRATCH": 1, "GLOBAL": 2}
    table = {f: ("VOP3" if f == "VOP3SD" else f, ops) for f, ops in ALU.items()}
    table.update({n: ("FLAT" if n in seg else n, ops) for n, ops in MEM.items()})
    table["MIMG"] = ("MIMG", {op: (e["mnem"], None, e["fmask"], e["fval"]) for op, e in MIMG.items()})
    table["VOPD"] = ("VOPD", None)
    table["LDSDIR"] = ("LDSDIR", None)
    table["EXP"] = ("EXP", None)
    names = sorted(table)
    out = []
    for _ in range(n):
        name = rng.choice(names)
        fam, ops = table[name]
        size, fields = FORMATS[fam]
        mask, value = ENCODING_BITS[fam]
        w = rng.getrandbits(8 * size)
        if ops and rng.random() < 0.85:
            op = rng.choice(sorted(ops))
            entry = ops[op]
            lo, width = fields["op"]
            w = (w & ~(((1 << width) - 1) << lo)) | op << lo
            if rng.random() < 0.7:
                w = (w & ~entry[2]) | (entry[3] & entry[2])
            if fam == "FLAT":
                lo, width = fields["seg"]
                w = (w & ~(3 << lo)) | seg[name] << lo
            if fam == "MIMG":
                w = _mimg_fields(rng, w, MIMG[op])
            elif "src0" in fields and (entry[5] or entry[6]) and rng.random() < 0.2:
                lo, width = fields["src0"]          # DPP16 / DPP8 / DPP8 with fi
                w = (w & ~(((1 << width) - 1) << lo)) | rng.choice((250, 233, 234)) << lo
        w = (w & ~mask) | value
        out.append(w.to_bytes(size, "little") + rng.getrandbits(32).to_bytes(4, "little"))
    return out


def _mimg_fields(rng, w, e):
    """Image words: registers near the top of the file now and then (the decoder narrows
    ranges that do not fit), sensible dmask/dim values more often than not."""
    if rng.random() < 0.3:
        w = (w & ~(0xFF << 40)) | rng.choice((250, 252, 253, 254, 255)) << 40
    if rng.random() < 0.2:
        w = (w & ~(0xFF << 32)) | rng.choice((244, 248, 250, 252, 253, 254, 255)) << 32
    if rng.random() < 0.5:
        w &= ~(1 << 53 | 1 << 17)                 # tfe, d16
    if e["kind"] == "bvh" and rng.random() < 0.5:
        w &= ~(0x3F << 12 | 0x3 << 53 | 0x3 << 58 | 0x1C)
    return w


def differential(n, seed):
    """Decode n random words with llvm-mc-19 and with us; re-encode both texts.
    Returns (stats dict, list of mismatch descriptions)."""
    import random
    from assembler.rdna3 import assemble, decode
    from drivers.errors import AssemblerError
    rng = random.Random(seed)
    words = random_words(rng, n)
    theirs = disassemble_probes(words)
    ours, problems = [], []
    for w, t in zip(words, theirs):
        try:
            ins, size = decode(w, 0)
            ours.append(ins.text)
        except AssemblerError as e:
            ours.append(None)
            if t is not None:
                problems.append("%s: llvm-mc decodes %r, we reject: %s" % (w.hex(), t[0], e))
            continue
        if t is None:
            problems.append("%s: llvm-mc rejects, we decode %r" % (w.hex(), ins.text))
        elif t[0] != ins.text:
            problems.append("%s: llvm-mc %r, we %r" % (w.hex(), t[0], ins.text))
    decoded = [(w, o) for w, o, t in zip(words, ours, theirs) if t is not None and o == t[0]]
    encs = assemble_lines([o for _, o in decoded])
    reenc = unasm = 0
    for (w, text), (enc, err) in zip(decoded, encs):
        if enc is None:
            unasm += 1        # llvm-mc decodes words its own assembler refuses (e.g. FLAT offset
            try:              # bit 12, src_vccz, an image dmask its data registers do not match)
                mine = assemble(text)
            except AssemblerError:
                continue
            problems.append("%s: llvm-mc refuses to assemble %r, we encode %s" % (w.hex(), text, mine.hex()))
            continue
        try:
            mine = assemble(text)
        except AssemblerError as e:
            problems.append("%s: we cannot assemble %r: %s" % (w.hex(), text, e))
            continue
        if mine != enc:
            problems.append("%s: %r re-encodes to %s, llvm-mc %s" % (w.hex(), text, mine.hex(), enc.hex()))
        else:
            reenc += 1
    stats = dict(words=n, decoded=sum(t is not None for t in theirs), rejected=sum(t is None for t in theirs),
                 reencoded=reenc, llvm_cannot_reassemble=unasm)
    return stats, problems


if __name__ == "__main__":
    import sys
    import time
    sys.path.insert(0, __import__("os").path.dirname(__import__("os").path.dirname(
        __import__("os").path.abspath(__file__))))
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    t0 = time.time()
    stats, problems = differential(n, seed)
    for p in problems[:50]:
        print(p)
    print(stats, "mismatches:", len(problems), "%.1fs" % (time.time() - t0))
