"""The virtual GPUs: emulated kernels (sysfs, device nodes) behind the kernel seam.

The shared core is here (the emulated kernel, GPU VM and host memory, faults, the choice of
target); each vendor's virtual machine lives in its own package (``drivers.emu.amd``: amdkfd,
PM4/AQL/SDMA queues and the RDNA3 wave simulator; ``drivers.emu.nv``: the nvidia and nvidia-uvm
device nodes and a strict resource manager).  ``simulate`` runs one kernel of an AMD code
object on the wave simulator directly, without a driver.
"""
from drivers.emu.machine import UnknownTarget, emulation_target, make_kernel, parse_target, targets

__all__ = ["LaunchError", "UnknownTarget", "emulation_target", "make_kernel", "parse_target", "simulate",
           "targets"]


def __getattr__(name):
    # The simulator is imported only when asked for, so picking a target stays cheap.
    if name in ("simulate", "LaunchError"):
        from drivers.emu.amd import simulate as module
        return getattr(module, name)
    raise AttributeError(f"module 'drivers.emu' has no attribute {name!r}")
