"""The virtual GPU: an emulated kernel (sysfs, /dev/kfd, render node) behind the kernel seam."""
from drivers.emu.machine import TARGETS, UnknownTarget, emulation_target, make_kernel

__all__ = ["TARGETS", "UnknownTarget", "emulation_target", "make_kernel"]
