"""Userspace GPU drivers: one package per vendor (amd, nv, qcom) over a shared core.

Every driver reaches the operating system only through :mod:`drivers.kernel` (the kernel seam),
so the same code runs against a real card or the virtual GPU in :mod:`drivers.emu`.
"""
from drivers.errors import (AssemblerError, DeviceNotFound, GPUError, GPUFault, GPUHang,
                            IoctlError, KernargError, MalformedInput)

__all__ = ["AssemblerError", "DeviceNotFound", "GPUError", "GPUFault", "GPUHang", "IoctlError",
           "KernargError", "MalformedInput"]
