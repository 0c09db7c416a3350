#!/usr/bin/env python3
"""Freeze ptxas's and nvdisasm's verdicts on the PTX corpus under tests/data/sass/<arch>/.

Run:  python scripts/gen_sass_corpus.py [sm_86 sm_89 sm_90]     (needs ptxas and nvdisasm)

For every PTX file of tests/sass_kernels and every arch its .target allows, ptxas compiles it
and nvdisasm prints each kernel's code twice: as a cubin listing (labels, `(.L_x_0)) and as raw
words (-b SMxx: absolute branch targets). NAME.sass keeps, per instruction,

    /*0140*/ 000fc0000383ffff:fffffff000007947  BRA `(.L_x_0); | BRA 0x140;

the address, the word (high:low 64 bits, scheduling control included), the listing's text and,
after ' | ', the raw text when it differs; label lines and `.section .text.KERNEL` lines as in
the listing. ptxas's resource usage (-v) and what cuobjdump says of each cubin's .nv.info go to
NAME.resources.json, for the cubin reader's test. mutations.txt holds words the randomized
differential test made from the corpus and nvdisasm's text of each (scripts/sass_differential.py).
"""
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)

from sass_oracle import ARCHS, Nvdisasm, archs_for, find_tool, ptxas, tool_version  # noqa: E402

KERNELS = os.path.join(ROOT, "tests", "sass_kernels")
OUT = os.path.join(ROOT, "tests", "data", "sass")
_LABEL = re.compile(r"^([A-Za-z_.$][\w.$]*):\s*$")
_INSN = re.compile(r"^\s+/\*([0-9a-f]{4,})\*/\s+(.*?)\s*/\* 0x([0-9a-f]{16}) \*/\s*$")
_HI = re.compile(r"^\s+/\* 0x([0-9a-f]{16}) \*/\s*$")


def listing_lines(nvd, cubin):
    """[('section', name) | ('label', name) | ('insn', addr, text, word)] of a cubin listing."""
    r = subprocess.run([nvd.path, "-c", "-hex", cubin], capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError(r.stderr)
    out = []
    lines = r.stdout.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        m = re.match(r"^\s*\.section\s+(\.text\.[^,\s]+)", line)
        if m:
            out.append(("section", m.group(1)))
        m = _LABEL.match(line.strip()) if line.strip() and not line.startswith("\t.") else None
        if m and out:
            out.append(("label", m.group(1)))
        m = _INSN.match(line)
        if m and i + 1 < len(lines) and _HI.match(lines[i + 1]):
            word = int(m.group(3), 16) | int(_HI.match(lines[i + 1]).group(1), 16) << 64
            # the BRX listing carries a (*"BRANCH_TARGETS ..."*) annotation: kept as nvdisasm wrote it
            out.append(("insn", int(m.group(1), 16), m.group(2), word))
            i += 2
            continue
        i += 1
    return out


def resources(cubin):
    """ptxas -v style facts of a cubin, read by cuobjdump (the oracle the reader is checked on)."""
    cuobjdump = find_tool("cuobjdump")
    r = subprocess.run([cuobjdump, "-elf", cubin], capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError(r.stderr)
    kernels = {}
    regs = {}
    for m in re.finditer(r"EIATTR_REGCOUNT\s+Format:\s+EIFMT_SVAL\s+Value:\s+function: (\S+)\(0x[0-9a-f]+\)"
                         r"\s+register count: (\d+)", r.stdout):
        regs[m.group(1)] = int(m.group(2))
    for block in re.split(r"\n(?=\.nv\.info\.)", r.stdout):
        m = re.match(r"\.nv\.info\.(\S+)", block)
        if not m:
            continue
        name = m.group(1)
        k = {"regs": regs.get(name), "params": []}
        for pm in re.finditer(r"Ordinal : 0x([0-9a-f]+)\s+Offset\s+: 0x([0-9a-f]+)\s+Size\s+: 0x([0-9a-f]+)", block):
            k["params"].append([int(pm.group(1), 16), int(pm.group(2), 16), int(pm.group(3), 16)])
        k["params"].sort()
        pm = re.search(r"EIATTR_PARAM_CBANK\s+Format:\s+EIFMT_SVAL\s+Value:\s+0x[0-9a-f]+ 0x([0-9a-f]+)", block)
        if pm:
            v = int(pm.group(1), 16)
            k["param_base"], k["param_size"] = v & 0xffff, v >> 16
        bm = re.search(r"EIATTR_NUM_BARRIERS\s+Format:\s+EIFMT_BVAL\s+Value:\s+0x([0-9a-f]+)", block)
        k["barriers"] = int(bm.group(1), 16) if bm else 0
        em = re.search(r"EIATTR_EXIT_INSTR_OFFSETS\s+Format:\s+EIFMT_SVAL\s+Value:\s+([0-9a-fx ]+)", block)
        k["exit_offsets"] = [int(x, 16) for x in em.group(1).split()] if em else []
        kernels[name] = k
    sec = re.search(r"Sections:\n.*?\n\n", r.stdout, re.S)
    for line in (sec.group(0).splitlines() if sec else []):
        parts = line.split()
        if len(parts) >= 9 and parts[-1].startswith((".nv.shared.", ".nv.constant0.")):
            name = parts[-1].split(".", 3)[3]
            key = "shared_size" if ".nv.shared." in parts[-1] else "cbank0_size"
            if name in kernels:
                kernels[name][key] = int(parts[2], 16)
    for k in kernels.values():
        k.setdefault("shared_size", 0)
    return kernels


def main(argv):
    archs = argv or list(ARCHS)
    nvd = Nvdisasm()
    ptx_version = tool_version(find_tool("ptxas"))
    for arch in archs:
        d = os.path.join(OUT, arch)
        os.makedirs(d, exist_ok=True)
        res_all = {}
        n = 0
        with tempfile.TemporaryDirectory() as tmp:
            for name in sorted(os.listdir(KERNELS)):
                if not name.endswith(".ptx") or arch not in archs_for(os.path.join(KERNELS, name)):
                    continue
                stem = name[:-4]
                cubin = os.path.join(tmp, stem + ".cubin")
                ptxas(os.path.join(KERNELS, name), arch, cubin)
                items = listing_lines(nvd, cubin)
                # raw-mode text of each section, word i at address 16*i
                sections, cur = {}, None
                for it in items:
                    if it[0] == "section":
                        cur = it[1]
                        sections[cur] = []
                    elif it[0] == "insn":
                        sections[cur].append(it[3])
                raw = {s: nvd.disassemble_words(ws, arch) for s, ws in sections.items()}
                lines = ["# %s %s: ptxas %s, nvdisasm %s (generated by scripts/gen_sass_corpus.py)"
                         % (arch, name, ptx_version, nvd.version)]
                cur, k = None, 0
                for it in items:
                    if it[0] == "section":
                        cur, k = it[1], 0
                        lines.append(".section %s" % cur)
                    elif it[0] == "label":
                        lines.append("%s:" % it[1])
                    else:
                        _, addr, text, word = it
                        rtext = raw[cur][k]
                        k += 1
                        line = "/*%04x*/ %016x:%016x  %s" % (addr, word >> 64, word & ((1 << 64) - 1), text)
                        if rtext != text:
                            line += " | " + rtext
                        lines.append(line)
                        n += 1
                with open(os.path.join(d, stem + ".sass"), "w") as f:
                    f.write("\n".join(lines) + "\n")
                res_all[name] = resources(cubin)
        with open(os.path.join(d, "resources.json"), "w") as f:
            json.dump(res_all, f, indent=1, sort_keys=True)
        print("%s: %d instructions" % (arch, n))
    nvd.close()


if __name__ == "__main__":
    main(sys.argv[1:])
