"""The hand-written kernels in hw_tests/kernels/: assembled by our RDNA3 assembler, packaged as code
objects, loaded once per device and shared by the stages."""
import os

import numpy as np

from drivers.errors import AssemblerError, GPUError, MalformedInput
from hw_tests.runner import LayerMissing

KERNEL_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernels")


def kernel_names():
    return sorted(f[:-2] for f in os.listdir(KERNEL_DIR) if f.endswith(".s"))


def source_path(name):
    return os.path.join(KERNEL_DIR, f"{name}.s")


def build(name):
    """Assemble hw_tests/kernels/NAME.s -> code object bytes."""
    path = source_path(name)
    with open(path) as f:
        text = f.read()
    try:
        from assembler.rdna3 import assemble_program
    except ImportError:
        raise LayerMissing("assembler.rdna3", "has no assemble_program: hand-written kernels cannot be "
                           "assembled yet") from None
    from assembler.amdgpu.codeobject import build_code_object
    # The sources are checked against llvm-mc-19 by tests/test_hw_tests_kernels.py, so a source our
    # assembler refuses shows a gap in the assembler, not in the kernel.
    try:
        program = assemble_program(text, source=path)
    except (AssemblerError, MalformedInput) as e:
        raise LayerMissing("assembler.rdna3", f"cannot assemble {name}.s: {e}") from None
    try:
        return build_code_object(program, text, source=path)
    except (AssemblerError, MalformedInput) as e:
        raise LayerMissing("assembler.amdgpu", f"cannot package {name}.s as a code object: {e}") from None


def require_executor(ctx):
    """On the virtual GPU, dispatches need the wave simulator attached to it."""
    gpu = getattr(ctx.kernel, "gpu", None)
    if ctx.emulated and gpu is not None and getattr(gpu, "executor", None) is None:
        raise LayerMissing("drivers.emu.amd.shader", "no wave simulator is attached to the virtual GPU, so no "
                           "kernel can run")


def program(ctx, name):
    """The loaded program of kernel NAME (built and loaded on first use)."""
    programs = ctx.shared.setdefault("programs", {})
    if name not in programs:
        programs[name] = ctx.dev.load(build(name), source=source_path(name))
    return programs[name]


def run(ctx, name, *args, grid=(1, 1, 1), block=(1, 1, 1)):
    """Launch kernel NAME and wait; returns the GPU time in seconds."""
    return program(ctx, name)[name](*args, grid=grid, block=block, wait=True)


class Buffers:
    """Device buffers a stage allocates, freed together: ``with Buffers(dev) as b: x = b.upload(arr)``."""

    def __init__(self, dev):
        self.dev, self.live = dev, []

    def empty(self, nbytes, fill=None):
        buf = self.dev.alloc(max(int(nbytes), 4))
        self.live.append(buf)
        if fill is not None:
            buf.copyin(np.full(buf.size, fill, np.uint8))
        return buf

    def upload(self, array):
        array = np.ascontiguousarray(array)
        buf = self.empty(array.nbytes)
        buf.copyin(array)
        return buf

    def download(self, buf, dtype, count=None):
        dtype = np.dtype(dtype)
        out = np.empty(buf.size // dtype.itemsize if count is None else count, dtype)
        buf.copyout(out)
        return out

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        errors = []
        for buf in self.live:
            try:
                buf.free()
            except GPUError as e:
                errors.append(e)
        self.live.clear()
        if errors and exc[0] is None:
            raise errors[0]
