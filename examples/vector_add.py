#!/usr/bin/env python3
"""Add two vectors on an AMD GPU (or the virtual one) with no ROCm, HIP or LLVM at run time.

    python examples/vector_add.py --emulate gfx1100            # vector_add.s, our assembler
    python examples/vector_add.py --emulate gfx1100 --opencl   # vector_add.cl via clang-19 + ld.lld-19
    python examples/vector_add.py                              # the first AMD GPU of this machine

The steps are the whole runtime API: assemble (or compile) the kernel into a code object, open
the device, allocate buffers and copy the inputs in, load the code object, launch one work-item
per element, copy the result out and check it against numpy.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))          # run from a checkout without installing

BLOCK = 256                                        # work-items per workgroup


def assembled():
    """vector_add.s -> code object bytes, with the in-tree assembler (what `python -m
    assembler.rdna3 asm vector_add.s` writes)."""
    from assembler.amdgpu.codeobject import build_code_object
    from assembler.rdna3 import assemble_program
    path = os.path.join(HERE, "vector_add.s")
    with open(path) as f:
        text = f.read()
    return build_code_object(assemble_program(text, source=path), text)


def compiled():
    """vector_add.cl -> code object bytes, with clang-19 and ld.lld-19 (a build step: nothing
    of LLVM is loaded by the runtime)."""
    missing = [tool for tool in ("clang-19", "ld.lld-19") if shutil.which(tool) is None]
    if missing:
        raise SystemExit(f"vector_add.py: --opencl needs {' and '.join(missing)} (Debian: apt-get install clang-19 "
                         "lld-19)")
    with tempfile.TemporaryDirectory() as tmp:
        obj, hsaco = os.path.join(tmp, "vector_add.o"), os.path.join(tmp, "vector_add.hsaco")
        subprocess.run(["clang-19", "-target", "amdgcn-amd-amdhsa", "-mcpu=gfx1100", "-O3", "-x", "cl",
                        "-cl-std=CL2.0", "-nogpulib", "-c", os.path.join(HERE, "vector_add.cl"), "-o", obj],
                       check=True)
        subprocess.run(["ld.lld-19", "-shared", obj, "-o", hsaco], check=True)
        with open(hsaco, "rb") as f:
            return f.read()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--emulate", metavar="TARGET", help="run on the virtual GPU (gfx1100); also GPU_EMULATE")
    ap.add_argument("--opencl", action="store_true", help="use vector_add.cl compiled by clang-19 instead of "
                                                          "the hand-written vector_add.s")
    ap.add_argument("-n", type=int, default=100_000, help="elements (default 100000)")
    args = ap.parse_args(argv)
    if args.n < 1:
        ap.error("-n must be at least 1")
    from drivers.amd import AMDDevice
    from drivers.errors import GPUError

    code_object = compiled() if args.opencl else assembled()
    rng = np.random.default_rng(0)
    a = rng.standard_normal(args.n).astype(np.float32)
    b = rng.standard_normal(args.n).astype(np.float32)
    try:
        dev = AMDDevice(emulate=args.emulate)
    except GPUError as e:
        print(f"vector_add.py: {e}", file=sys.stderr)
        return 1
    with dev:
        a_buf, b_buf, c_buf = dev.alloc(a.nbytes), dev.alloc(b.nbytes), dev.alloc(a.nbytes)
        a_buf.copyin(a)
        b_buf.copyin(b)
        prg = dev.load(code_object)
        groups = -(-args.n // BLOCK)                     # the last workgroup may be partial
        seconds = prg["vector_add"](a_buf, b_buf, c_buf, args.n, grid=(groups,), block=(BLOCK,), wait=True)
        c = c_buf.copyout(np.empty_like(a))
    error = float(np.abs(c - (a + b)).max())
    source = "vector_add.cl (clang-19)" if args.opencl else "vector_add.s (rdna3 assembler)"
    print(f"{source} on {dev.target}: {args.n} elements in {groups} workgroups of {BLOCK}, "
          f"GPU time {seconds * 1e6:.1f} us, largest error vs numpy {error}")
    return 0 if error == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
