"""NVIDIA GPUs through the open kernel modules: /proc/driver/nvidia, the RM (resource manager)
escapes on /dev/nvidiactl and /dev/nvidiaN, and UVM on /dev/nvidia-uvm, over the kernel seam with
the layouts of the running driver branch (nv_ioctl).

    from drivers.nv import NVDevice
    dev = NVDevice(0)                     # or NVDevice(emulate="sm_90"), or GPU_EMULATE=sm_90
    buf = dev.alloc(nbytes)               # VRAM; host=True (pinned host memory), cpu_access=True
    prg = dev.load(cubin_bytes)           # a cubin for the GPU's architecture (ptxas or assembler.cubin)
    secs = prg["kernel"](buf, 3.0, 17, grid=(gx, gy, gz), block=(bx, by, bz), wait=True)
    dev.close()

    python -m drivers.nv.probe            # which NVIDIA GPUs, and can this stack use them
    python -m drivers.nv.probe --emulate sm_86

- procfs, rm (NvCtl, RmClient, RMError), uvm, chips (SM versions, chip names, boards' public
  specifications), probe (the command above)
- process (the per-process RM client and UVM files), memory (heaps, buffers, VA below 2^40),
  gpfifo (push buffers, channels, the doorbell), signals (timeline semaphores), copy (the copy
  engine), compute (QMDs, constant buffer 0, local memory), faults (robust-channel errors and
  the debugger's fault reports), program (cubins placed in memory, kernels, arguments), replay
  (command buffers), device (NVDevice)

The virtual GPU is drivers.emu.nv. Submodules are imported lazily so the probe stays light.
"""
_EXPORTS = {
    "NVDevice": "drivers.nv.device",
    "Buffer": "drivers.nv.memory",
    "OutOfMemory": "drivers.nv.memory",
    "Program": "drivers.nv.program",
    "Kernel": "drivers.nv.program",
    "Pointer": "drivers.nv.program",
    "CommandBuffer": "drivers.nv.replay",
    "ChannelError": "drivers.nv.faults",
    "ShaderError": "drivers.nv.faults",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'drivers.nv' has no attribute {name!r}")
    import importlib
    return getattr(importlib.import_module(module), name)
