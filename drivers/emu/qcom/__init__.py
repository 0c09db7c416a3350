"""The virtual Adreno behind the kernel seam: /dev/kgsl-3d0 (kgsl.py), KGSL's sysfs and the
SoC's (cards.py), one machine per target (machine.py: ``a630``).

What it serves today is what a probe and a driver's bring-up ask first: device properties
(GETPROPERTY/SETPROPERTY, strict about sizes with the kernel's errnos) and draw contexts. GPU
memory, command submission (CP type-4/7 packets) and the ir3 shader simulator grow here: each
new ioctl is one handler in KgslFile.HANDLERS.
"""
