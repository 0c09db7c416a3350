"""Assemble a virtual machine behind the kernel seam: sysfs topology, /dev/kfd, render nodes.

``make_kernel("gfx1100")`` returns a VirtualMachine (an EmulatedKernel) that looks like a host
with one RX 7900 XTX; ``make_kernel("gfx1100", gpus=2)`` or the target ``"gfx1100x2"`` one with
two of them on PCIe.  GPU k (1-based) is topology node k with its own gpu_id, PCI location and
render node /dev/dri/renderD<127 + k>; one /dev/kfd serves them all.

    kernel.gpus      the VirtualGPUs in node order (``executor``: the RDNA3 wave simulator by
                     default, replaceable; ``live()`` counts per GPU)
    kernel.gpu       the first of them
    kernel.kfd       the machine's amdkfd
    kernel.live()    what processes hold on the whole machine

Targets, for ``--emulate`` and ``GPU_EMULATE``: ``gfx1100`` (one GPU) or ``gfx1100xN`` (N GPUs,
1 <= N <= 8); anything else is an UnknownTarget naming what is accepted.
"""
import functools
import os
import re
import threading

from drivers.emu.cards import CARDS, MAX_GPUS, render_ip_discovery, render_topology
from drivers.emu.gpu import VirtualGPU
from drivers.emu.kernel import EmulatedKernel
from drivers.emu.kfd import KfdDevice
from drivers.emu.shader import WaveExecutor

# Emulation targets -> the card whose topology the virtual machine reports.
TARGETS = {"gfx1100": "rx7900xtx"}
RENDER_MINOR = 128
TOPOLOGY_NODES = "/sys/devices/virtual/kfd/kfd/topology/nodes"
_MULTI = re.compile(r"(?P<target>.+)x(?P<count>[1-9][0-9]*)")


class UnknownTarget(ValueError):
    pass


def _unknown(spec):
    accepted = ", ".join(f"{t}, {t}xN" for t in TARGETS)
    return UnknownTarget(f"unknown emulation target {spec!r}; available: {accepted} "
                         f"(N = 1..{MAX_GPUS} GPUs)")


def parse_target(spec):
    """``"gfx1100"`` -> ("gfx1100", 1); ``"gfx1100x2"`` -> ("gfx1100", 2)."""
    if spec in TARGETS:
        return spec, 1
    m = _MULTI.fullmatch(spec or "")
    if m is None or m["target"] not in TARGETS or not 1 <= int(m["count"]) <= MAX_GPUS:
        raise _unknown(spec)
    return m["target"], int(m["count"])


def card_for(target):
    try:
        return CARDS[TARGETS[target]]
    except KeyError:
        raise _unknown(target) from None


class VirtualMachine(EmulatedKernel):
    """A host with ``gpus`` identical GPUs of ``target`` behind one amdkfd."""

    def __init__(self, target, gpus):
        card = card_for(target)
        files = render_topology(card, render_minor=RENDER_MINOR, gpus=gpus)
        for k in range(gpus):
            files.update(render_ip_discovery(card, render_minor=RENDER_MINOR + k))
        super().__init__(files, {})
        lock = threading.RLock()             # one CP thread runs every GPU's queues
        self.gpus = [VirtualGPU(card, int(files[f"{TOPOLOGY_NODES}/{node}/gpu_id"]), node_id=node,
                                target=target, lock=lock)
                     for node in range(1, gpus + 1)]
        for gpu in self.gpus:                # the RDNA3 wave simulator runs every dispatch
            gpu.executor = WaveExecutor()
        self.gpu = self.gpus[0]
        self.kfd = KfdDevice(self, self.gpus)
        self.devices["/dev/kfd"] = self.kfd.open_kfd
        for k, gpu in enumerate(self.gpus):
            self.devices[f"/dev/dri/renderD{RENDER_MINOR + k}"] = functools.partial(self.kfd.open_render, gpu)
        self.target = target

    def live(self):
        return self.kfd.live()


def make_kernel(target="gfx1100", gpus=None):
    """The virtual machine for ``target`` ("gfx1100" or "gfx1100xN"); ``gpus`` sets N directly."""
    base, count = parse_target(target)
    if gpus is not None:
        if isinstance(gpus, bool) or not isinstance(gpus, int) or not 1 <= gpus <= MAX_GPUS:
            raise ValueError(f"a virtual machine holds 1 to {MAX_GPUS} GPUs, not {gpus!r}")
        if count not in (1, gpus):
            raise ValueError(f"target {target!r} and gpus={gpus} disagree on the number of GPUs")
        count = gpus
    return VirtualMachine(base, count)


def emulation_target(explicit=None):
    """The target chosen by --emulate or, failing that, the GPU_EMULATE environment variable."""
    return explicit or os.environ.get("GPU_EMULATE") or None
