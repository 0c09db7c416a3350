#!/usr/bin/env python3
"""Compile the CUDA kernels of the NVIDIA bring-up stages and tests (hw_tests/kernels/nv/*.cu) into
cubins for sm_86, sm_89 and sm_90 with nvcc (CUDA 13: cicc + ptxas), into
hw_tests/kernels/nv/cubin/<name>.sm_<NN>.cubin.

    python scripts/build_nv_kernels.py            # every kernel, every target
    python scripts/build_nv_kernels.py --check    # rebuild in a temporary directory and compare

The cubins are committed (small, and the tests run without nvcc); `--check` tells whether they still
match what this nvcc writes.  nvcc is a build-time tool only: nothing imports or runs it at run time.
"""
import argparse
import filecmp
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = os.path.join(ROOT, "hw_tests", "kernels", "nv")
OUT = os.path.join(SRC, "cubin")
TARGETS = ("86", "89", "90")
FLAGS = ("-cubin", "-O3", "-Xptxas", "-O3")


def nvcc():
    return shutil.which(os.environ.get("NVCC", "nvcc"))


def build(out_dir, names=None, verbose=True):
    exe = nvcc()
    if exe is None:
        raise SystemExit("build_nv_kernels: nvcc not found (CUDA 13 toolkit; set NVCC=...)")
    os.makedirs(out_dir, exist_ok=True)
    sources = sorted(f for f in os.listdir(SRC) if f.endswith(".cu"))
    written = []
    for src in sources:
        name = src[:-3]
        if names and name not in names:
            continue
        for sm in TARGETS:
            out = os.path.join(out_dir, f"{name}.sm_{sm}.cubin")
            cmd = [exe, *FLAGS, f"-arch=sm_{sm}", "-o", out, os.path.join(SRC, src)]
            res = subprocess.run(cmd, capture_output=True, text=True)
            if res.returncode != 0:
                raise SystemExit(f"build_nv_kernels: {' '.join(cmd)} failed:\n{res.stderr}")
            written.append(out)
            if verbose:
                print(f"wrote {os.path.relpath(out, ROOT)} ({os.path.getsize(out)} bytes)")
    return written


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="rebuild into a temporary directory and compare")
    ap.add_argument("names", nargs="*", help="kernels to build (default: all)")
    args = ap.parse_args(argv)
    if not args.check:
        build(OUT, args.names)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        fresh = build(tmp, args.names, verbose=False)
        stale = [os.path.basename(f) for f in fresh
                 if not filecmp.cmp(f, os.path.join(OUT, os.path.basename(f)), shallow=False)]
    if stale:
        print("differ from this nvcc's output: " + ", ".join(stale))
        return 1
    print(f"{len(fresh)} cubins match this nvcc's output")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:
        sys.exit(0)
