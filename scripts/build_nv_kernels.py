#!/usr/bin/env python3
"""Compile the CUDA kernels of the NVIDIA bring-up stages and tests (hw_tests/kernels/nv/*.cu) into
cubins for sm_86, sm_89 and sm_90 with nvcc (CUDA 13: cicc + ptxas), into
hw_tests/kernels/nv/cubin/<name>.sm_<NN>.cubin, and freeze nvdisasm's listing of each kernel's code
(raw mode: branch targets as addresses) into hw_tests/kernels/nv/sass/<name>.sm_<NN>.sass, the
oracle the SASS decoder is held to before the simulator runs a kernel.

    python scripts/build_nv_kernels.py            # every kernel, every target
    python scripts/build_nv_kernels.py --check    # rebuild in a temporary directory and compare
    python scripts/build_nv_kernels.py --listings # only the nvdisasm listings of the committed cubins

The cubins are committed (small, and the tests run without nvcc); `--check` tells whether they still
match what this nvcc writes.  nvcc and nvdisasm (the nvidia-cuda-nvdisasm wheel, or NVDISASM=...) are
build-time tools only: nothing imports or runs them at run time.
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
LISTINGS = os.path.join(SRC, "sass")
TARGETS = ("86", "89", "90")
FLAGS = ("-cubin", "-O3", "-Xptxas", "-O3")


def nvcc():
    return shutil.which(os.environ.get("NVCC", "nvcc"))


def nvdisasm():
    exe = os.environ.get("NVDISASM") or shutil.which("nvdisasm")
    if exe:
        return exe
    try:
        import nvidia
    except ImportError:
        return None
    for root in nvidia.__path__:
        for sub in ("cu13", "cuda_nvdisasm"):
            path = os.path.join(root, sub, "bin", "nvdisasm")
            if os.path.exists(path):
                return path
    return None


def listings(names=None, verbose=True):
    """nvdisasm's raw listing of every kernel of the committed cubins -> hw_tests/kernels/nv/sass."""
    sys.path.insert(0, ROOT)
    from drivers.nv.cubin import read_cubin
    exe = nvdisasm()
    if exe is None:
        raise SystemExit("build_nv_kernels: nvdisasm not found (pip install nvidia-cuda-nvdisasm, or NVDISASM=...)")
    os.makedirs(LISTINGS, exist_ok=True)
    for cubin in sorted(os.listdir(OUT)):
        name, sm = cubin.split(".")[:2]
        if names and name not in names:
            continue
        with open(os.path.join(OUT, cubin), "rb") as f:
            c = read_cubin(f.read(), cubin)
        lines = [f"# nvdisasm -b SM{sm[3:]} of the code of each kernel of {cubin}; "
                 "regenerate: python scripts/build_nv_kernels.py --listings"]
        for kernel in sorted(c.kernels):
            k = c.kernels[kernel]
            code = c.text(kernel).data[k.offset:k.offset + k.code_size]
            with tempfile.NamedTemporaryFile(suffix=".bin") as raw:
                raw.write(code)
                raw.flush()
                res = subprocess.run([exe, "-b", f"SM{sm[3:]}", raw.name], capture_output=True, text=True)
            if res.returncode != 0:
                raise SystemExit(f"build_nv_kernels: nvdisasm of {cubin} {kernel} failed:\n{res.stderr}")
            lines.append(f".kernel {kernel}")
            for line in res.stdout.splitlines():
                line = line.strip()
                if line.startswith("/*") and line[2:6].strip("0123456789abcdef") == "":
                    off, text = line[2:].split("*/", 1)
                    lines.append(f"{off} {' '.join(text.split()).rstrip(' ;').rstrip(';')}")
        out = os.path.join(LISTINGS, cubin[:-len(".cubin")] + ".sass")
        with open(out, "w") as f:
            f.write("\n".join(lines) + "\n")
        if verbose:
            print(f"wrote {os.path.relpath(out, ROOT)}")


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
    ap.add_argument("--listings", action="store_true", help="only write nvdisasm's listings of the committed cubins")
    ap.add_argument("names", nargs="*", help="kernels to build (default: all)")
    args = ap.parse_args(argv)
    if args.listings:
        listings(args.names)
        return 0
    if not args.check:
        build(OUT, args.names)
        listings(args.names)
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
