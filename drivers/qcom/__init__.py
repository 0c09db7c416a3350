"""Qualcomm Adreno GPUs through KGSL (/dev/kgsl-3d0), the kernel driver of Snapdragon phones.

    python -m drivers.qcom.probe              # which Adreno, its chip id, GMEM, clocks, load
    python -m drivers.qcom.probe --emulate a630

- chips: chip ids -> Adreno models, families, GMEM; which ones this stack targets (a6xx)
- kgsl: opening the node (arm64 processes only) and reading properties (KGSL_PROP_*)
- sysfs: KGSL's /sys/class/kgsl/kgsl-3d0 and the SoC's /sys/devices/soc0
- probe: the command above

The bindings are the top-level package kgsl_ioctl; the virtual Adreno is drivers.emu.qcom.
"""
