#!/bin/sh
# Rebuild the clang-19 code object fixtures in tests/data/codeobj/ and the oracle verdicts frozen
# next to them, then the golden files for our own writer (scripts/gen_codeobj_golden.py).
#
#   sh scripts/build_codeobj_fixtures.sh
#
# Needs clang-19, ld.lld-19, llvm-mc-19, llvm-readelf-19 and llvm-objdump-19 (test oracles only).
# The OpenCL sources use clang builtins instead of get_global_id(): -nogpulib drops the device
# libraries that define the OpenCL work-item functions.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
dir="$here/tests/data/codeobj"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for tool in clang-19 ld.lld-19 llvm-mc-19 llvm-readelf-19 llvm-objdump-19; do
    command -v "$tool" >/dev/null || { echo "missing $tool" >&2; exit 1; }
done
cflags="-target amdgcn-amd-amdhsa -mcpu=gfx1100 -O3 -x cl -cl-std=CL2.0 -nogpulib"
for src in "$dir"/*.cl; do
    name=$(basename "$src" .cl)
    clang-19 $cflags -c "$src" -o "$tmp/$name.o"
    ld.lld-19 -shared "$tmp/$name.o" -o "$dir/$name.hsaco"
    clang-19 $cflags -S "$src" -o "$dir/$name.s"
    llvm-readelf-19 --notes "$dir/$name.hsaco" > "$dir/$name.notes.txt"
    llvm-readelf-19 -s -r "$dir/$name.hsaco" > "$dir/$name.syms.txt"
    llvm-objdump-19 -d --no-show-raw-insn --no-leading-addr "$dir/$name.hsaco" \
        | sed -e '1,/^Disassembly/d' > "$dir/$name.disasm.txt"
    echo "built $name.hsaco"
done
cd "$here" && python3 scripts/gen_codeobj_golden.py
