"""Rebuild the clang-19 validation kernels in tests/clang_kernels.

Each NAME.cl is compiled for gfx1100 and linked into NAME.hsaco with the flags
below (no device libraries), disassembled into NAME.s.txt, and the instruction
mnemonics of the whole corpus are written to MNEMONICS.txt: the wave simulator
has to implement every one of them to run the corpus.

    python scripts/build_clang_kernels.py          # rebuild everything
    python scripts/build_clang_kernels.py --check  # rebuild in a temporary
                                                   # directory, compare bytes

LLVM is a test oracle only: nothing at run time depends on this script.
"""
import argparse
import collections
import filecmp
import os
import re
import shutil
import subprocess
import sys
import tempfile

KERNEL_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                          "tests", "clang_kernels")

CLANG = "clang-19"
LD_LLD = "ld.lld-19"
OBJDUMP = "llvm-objdump-19"
CLANG_FLAGS = ["-target", "amdgcn-amd-amdhsa", "-mcpu=gfx1100", "-O3", "-x", "cl",
               "-cl-std=CL2.0", "-nogpulib", "-c"]
LD_FLAGS = ["-shared"]
OBJDUMP_FLAGS = ["-d", "--mcpu=gfx1100"]

# An instruction line of llvm-objdump: TAB mnemonic operands // address: words.
# A VOPD dual issue names its second half after "::".
_INSTRUCTION = re.compile(r"^\t([a-z][a-z0-9_]*)\b")
_VOPD_Y = re.compile(r"::\s*([a-z][a-z0-9_]*)\b")


def missing_tools():
    """The oracle tools that are not on PATH (empty when a build can run)."""
    return [tool for tool in (CLANG, LD_LLD, OBJDUMP) if shutil.which(tool) is None]


def kernel_sources(kernel_dir=KERNEL_DIR):
    """Names (without .cl) of every kernel source, sorted."""
    return sorted(f[:-3] for f in os.listdir(kernel_dir) if f.endswith(".cl"))


def _run(cmd, cwd):
    done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed in {cwd}:\n{done.stderr}")
    return done.stdout


def build_kernel(name, out_dir, kernel_dir=KERNEL_DIR):
    """Compile and link NAME.cl into out_dir/NAME.hsaco; return its path.

    clang runs inside kernel_dir on the bare file name so that no absolute
    path can leak into the object, which keeps the bytes reproducible.
    """
    obj = os.path.join(out_dir, name + ".o")
    hsaco = os.path.join(out_dir, name + ".hsaco")
    _run([CLANG, *CLANG_FLAGS, name + ".cl", "-o", obj], cwd=kernel_dir)
    _run([LD_LLD, *LD_FLAGS, obj, "-o", hsaco], cwd=out_dir)
    os.unlink(obj)
    return hsaco


def disassemble(hsaco):
    """llvm-objdump text of a code object, run on the bare file name."""
    return _run([OBJDUMP, *OBJDUMP_FLAGS, os.path.basename(hsaco)], cwd=os.path.dirname(hsaco))


def mnemonics(disassembly):
    """Instruction mnemonics of one disassembly, as llvm-objdump spells them."""
    found = set()
    for line in disassembly.splitlines():
        if m := _INSTRUCTION.match(line):
            found.add(m.group(1))
            found.update(_VOPD_Y.findall(line.split("//")[0]))
    return found


def mnemonic_table(uses):
    """MNEMONICS.txt text from {kernel: set of mnemonics}."""
    by_mnemonic = collections.defaultdict(list)
    for kernel, names in sorted(uses.items()):
        for name in names:
            by_mnemonic[name].append(kernel)
    width = max(map(len, by_mnemonic))
    lines = [f"# {len(by_mnemonic)} instruction mnemonics used by the {len(uses)} kernels of "
             "tests/clang_kernels",
             "# (written by scripts/build_clang_kernels.py; the wave simulator implements all of them)",
             "# mnemonic  kernels using it"]
    lines += [f"{m:<{width}}  {' '.join(ks)}" for m, ks in sorted(by_mnemonic.items())]
    return "\n".join(lines) + "\n"


def build_all(kernel_dir=KERNEL_DIR):
    """Rebuild every code object, disassembly and MNEMONICS.txt in place."""
    uses = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in kernel_sources(kernel_dir):
            hsaco = os.path.join(kernel_dir, name + ".hsaco")
            shutil.copyfile(build_kernel(name, tmp, kernel_dir), hsaco)
            uses[name] = _write_disassembly(hsaco)
    with open(os.path.join(kernel_dir, "MNEMONICS.txt"), "w") as f:
        f.write(mnemonic_table(uses))
    return uses


def _write_disassembly(hsaco):
    """Write NAME.s.txt next to NAME.hsaco; return the mnemonics it uses."""
    text = disassemble(hsaco)
    with open(hsaco[:-len(".hsaco")] + ".s.txt", "w") as f:
        f.write(text)
    return mnemonics(text)


def check_all(kernel_dir=KERNEL_DIR):
    """Names whose fresh build differs from the committed .hsaco (empty: all reproduce)."""
    differ = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in kernel_sources(kernel_dir):
            fresh = build_kernel(name, tmp, kernel_dir)
            committed = os.path.join(kernel_dir, name + ".hsaco")
            if not os.path.exists(committed) or not filecmp.cmp(fresh, committed, shallow=False):
                differ.append(name)
    return differ


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="rebuild into a temporary directory and compare with the committed bytes")
    args = parser.parse_args(argv)
    if missing := missing_tools():
        print(f"missing oracle tools: {', '.join(missing)} (apt-get install clang-19 lld-19 llvm-19)",
              file=sys.stderr)
        return 2
    if args.check:
        differ = check_all()
        for name in differ:
            print(f"{name}.hsaco differs from a fresh build", file=sys.stderr)
        print(f"{len(kernel_sources()) - len(differ)} of {len(kernel_sources())} code objects reproduce")
        return 1 if differ else 0
    uses = build_all()
    every = set().union(*uses.values())
    for name in sorted(uses):
        print(f"{name:<18} {len(uses[name]):3d} mnemonics")
    print(f"corpus: {len(every)} distinct mnemonics (see tests/clang_kernels/MNEMONICS.txt)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
