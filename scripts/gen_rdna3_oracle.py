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


def disassemble_probes(probes):
    """For each probe (bytes) return (text, consumed bytes) of its first instruction, or None.

    Each probe is followed by a marker instruction so every output line is attributed to its
    probe whatever llvm-mc did with trailing bytes. A decoded text carrying an
    '/*Invalid ...*/' remark counts as rejected: llvm-mc refuses to assemble that text back.
    """
    if not probes:
        return []
    mark = "[" + ",".join("0x%02x" % b for b in MARKER) + "]"
    lines = []
    for p in probes:
        lines.append("[" + ",".join("0x%02x" % b for b in p) + "]")
        lines.append(mark)
    r = subprocess.run([MC, *MC_ARGS, "--disassemble", "-show-encoding"],
                       input="\n".join(lines) + "\n", capture_output=True, text=True)
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
    """Assemble each line separately; return (bytes or None, error text or None) per line."""
    if not lines:
        return []
    r = subprocess.run([MC, *MC_ARGS, "-show-encoding"], input="\n".join(lines) + "\n",
                       capture_output=True, text=True)
    errs = {}
    for m in _WARN.finditer(r.stderr):
        if m.group(3) == "error":
            errs.setdefault(int(m.group(1)) - 1, m.group(4))
    encs = []
    for line in r.stdout.splitlines():
        if "; encoding: [" in line:
            enc = line.partition("; encoding: [")[2].rstrip("]")
            encs.append(bytes(int(x, 16) for x in enc.split(",")))
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
