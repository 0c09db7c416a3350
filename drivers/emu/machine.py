"""Assemble a virtual machine behind the kernel seam: sysfs topology, /dev/kfd, render node.

``make_kernel("gfx1100")`` returns an EmulatedKernel that looks like a host with one RX 7900 XTX:
``kernel.gpu`` is the VirtualGPU (executor hook, ``live()`` counts), ``kernel.kfd`` its amdkfd.
"""
import os

from drivers.emu.cards import CARDS, render_ip_discovery, render_topology
from drivers.emu.gpu import VirtualGPU
from drivers.emu.kernel import EmulatedKernel
from drivers.emu.kfd import KfdDevice

# Emulation targets -> the card whose topology the virtual machine reports.
TARGETS = {"gfx1100": "rx7900xtx"}
RENDER_MINOR = 128
TOPOLOGY_NODES = "/sys/devices/virtual/kfd/kfd/topology/nodes"


class UnknownTarget(ValueError):
    pass


def card_for(target):
    try:
        return CARDS[TARGETS[target]]
    except KeyError:
        raise UnknownTarget(f"unknown emulation target {target!r}; available: {', '.join(TARGETS)}") from None


def make_kernel(target="gfx1100"):
    card = card_for(target)
    files = render_topology(card, render_minor=RENDER_MINOR)
    files.update(render_ip_discovery(card, render_minor=RENDER_MINOR))
    kernel = EmulatedKernel(files, {})
    gpu_id = int(files[f"{TOPOLOGY_NODES}/1/gpu_id"])
    kernel.gpu = VirtualGPU(card, gpu_id, node_id=1, target=target)
    kernel.kfd = KfdDevice(kernel, kernel.gpu)
    kernel.devices.update({"/dev/kfd": kernel.kfd.open_kfd,
                           f"/dev/dri/renderD{RENDER_MINOR}": kernel.kfd.open_render})
    kernel.target = target
    return kernel


def emulation_target(explicit=None):
    """The target chosen by --emulate or, failing that, the GPU_EMULATE environment variable."""
    return explicit or os.environ.get("GPU_EMULATE") or None
