"""Emulation targets of every vendor, and the virtual machine behind the kernel seam for one.

``--emulate TARGET`` and ``GPU_EMULATE=TARGET`` name a target: ``gfx1100`` or ``sm_86`` (one GPU),
``gfx1100xN`` / ``sm_86xN`` (N identical GPUs).  Each vendor's virtual machine lives in its own package
(``drivers.emu.amd``...) and declares ``TARGETS`` (target -> card), ``MAX_GPUS`` and
``VirtualMachine(target, gpus)``; this module only finds the vendor of a target, so choosing a
target never imports another vendor's emulator.  Anything unknown is an UnknownTarget that
lists what is accepted.
"""
import importlib
import os
import re

# Vendor package -> module with TARGETS, MAX_GPUS and VirtualMachine.
VENDOR_MACHINES = {"amd": "drivers.emu.amd.machine", "nv": "drivers.emu.nv.machine",
                   "qcom": "drivers.emu.qcom.machine"}
_MULTI = re.compile(r"(?P<target>.+)x(?P<count>[1-9][0-9]*)")


class UnknownTarget(ValueError):
    pass


def _machines():
    return {vendor: importlib.import_module(module) for vendor, module in VENDOR_MACHINES.items()}


def targets():
    """Every emulation target -> its vendor package name."""
    return {t: vendor for vendor, m in _machines().items() for t in m.TARGETS}


def _unknown(spec):
    accepted = ", ".join(f"{t}, {t}xN (N = 1..{m.MAX_GPUS} GPUs)" if m.MAX_GPUS > 1 else t
                         for m in _machines().values() for t in m.TARGETS)
    return UnknownTarget(f"unknown emulation target {spec!r}; available: {accepted}")


def parse_target(spec):
    """``"gfx1100"`` -> ("gfx1100", 1, machine module); ``"gfx1100x2"`` -> ("gfx1100", 2, ...)."""
    machines = _machines()
    for m in machines.values():
        if spec in m.TARGETS:
            return spec, 1, m
    match = _MULTI.fullmatch(spec or "") if isinstance(spec, str) else None
    if match:
        for m in machines.values():
            if match["target"] in m.TARGETS and 1 <= int(match["count"]) <= m.MAX_GPUS:
                return match["target"], int(match["count"]), m
    raise _unknown(spec)


def make_kernel(target="gfx1100", gpus=None):
    """The virtual machine for ``target`` ("gfx1100" or "gfx1100xN"); ``gpus`` sets N directly."""
    base, count, machine = parse_target(target)
    if gpus is not None:
        if isinstance(gpus, bool) or not isinstance(gpus, int) or not 1 <= gpus <= machine.MAX_GPUS:
            raise ValueError(f"a virtual machine holds 1 to {machine.MAX_GPUS} GPUs, not {gpus!r}")
        if count not in (1, gpus):
            raise ValueError(f"target {target!r} and gpus={gpus} disagree on the number of GPUs")
        count = gpus
    return machine.VirtualMachine(base, count)


def emulation_target(explicit=None):
    """The target chosen by --emulate or, failing that, the GPU_EMULATE environment variable."""
    return explicit or os.environ.get("GPU_EMULATE") or None
