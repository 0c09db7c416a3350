"""The virtual GPU: an emulated kernel (sysfs, /dev/kfd, render node) behind the kernel seam,
and ``simulate`` to run one kernel of a code object on the wave simulator directly."""
from drivers.emu.machine import TARGETS, UnknownTarget, emulation_target, make_kernel
from drivers.emu.simulate import LaunchError, simulate

__all__ = ["TARGETS", "LaunchError", "UnknownTarget", "emulation_target", "make_kernel", "simulate"]
