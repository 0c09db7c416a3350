"""AMD GPUs through amdkfd (/dev/kfd) and the DRM render node.

    from drivers.amd import AMDDevice
    dev = AMDDevice(0)                    # or AMDDevice(emulate="gfx1100"), or GPU_EMULATE=gfx1100
    buf = dev.alloc(nbytes)               # VRAM; host=True, uncached=True, cpu_access=True
    prg = dev.load(code_object_bytes)
    secs = prg["kernel"](buf, 3.0, 17, grid=(gx, gy, gz), block=(bx, by, bz), wait=True)
    dev.close()

The submodules are imported lazily so ``python -m drivers.amd.probe`` stays light.
"""
_EXPORTS = {
    "AMDDevice": "drivers.amd.device",
    "Buffer": "drivers.amd.memory",
    "OutOfMemory": "drivers.amd.memory",
    "Program": "drivers.amd.program",
    "Kernel": "drivers.amd.program",
    "CommandBuffer": "drivers.amd.replay",
    "KernargError": "drivers.amd.kernargs",
    "Pointer": "drivers.amd.kernargs",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'drivers.amd' has no attribute {name!r}")
    import importlib
    return getattr(importlib.import_module(module), name)
