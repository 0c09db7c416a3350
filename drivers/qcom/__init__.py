"""Qualcomm Adreno GPUs through KGSL (/dev/kgsl-3d0), the kernel driver of Snapdragon phones.

    from drivers.qcom import QCOMDevice
    dev = QCOMDevice()                    # or QCOMDevice(emulate="a630"), or GPU_EMULATE=a630
    buf = dev.alloc(nbytes)               # shared CPU/GPU memory; cached=True for a write-back mapping
    prg = dev.load("kernel.asm")          # ir3 (mesa syntax, computerator headers + @arg/@threadsize)
    secs = prg["kernel"](buf, 3.0, grid=(gx, gy, gz), wait=True)
    dev.close()

    python -m drivers.qcom.probe              # which Adreno, its chip id, GMEM, clocks, load
    python -m drivers.qcom.probe --emulate a630

- chips: chip ids -> Adreno models, families, GMEM; which ones this stack targets (a6xx)
- kgsl: opening the node (arm64 processes only), properties, contexts, GPU objects, commands
- sysfs: KGSL's /sys/class/kgsl/kgsl-3d0 and the SoC's /sys/devices/soc0
- probe: the command above
- pm4: A6XX command-stream words (type-4/7 packets, registers)
- memory, program, compute, signals, replay, device: QCOMDevice and its parts

The bindings are the top-level package kgsl_ioctl; the virtual Adreno is drivers.emu.qcom.
Submodules are imported lazily so the probe stays light.
"""
_EXPORTS = {
    "QCOMDevice": "drivers.qcom.device",
    "Buffer": "drivers.qcom.memory",
    "OutOfMemory": "drivers.qcom.memory",
    "Program": "drivers.qcom.program",
    "Kernel": "drivers.qcom.program",
    "CommandBuffer": "drivers.qcom.replay",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'drivers.qcom' has no attribute {name!r}")
    import importlib
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
