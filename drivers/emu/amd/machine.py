"""The virtual AMD machine behind the kernel seam: sysfs topology, /dev/kfd, render nodes.

``VirtualMachine("gfx1100", 1)`` looks like a host with one RX 7900 XTX; with 2, two of them on
PCIe (``drivers.emu.make_kernel`` picks it for the targets ``gfx1100`` and ``gfx1100xN``).  GPU k
(1-based) is topology node k with its own gpu_id, PCI location and render node
/dev/dri/renderD<127 + k>; one /dev/kfd serves them all.

    kernel.gpus      the VirtualGPUs in node order (``executor``: the RDNA3 wave simulator by
                     default, replaceable; ``live()`` counts per GPU)
    kernel.gpu       the first of them
    kernel.kfd       the machine's amdkfd
    kernel.live()    what processes hold on the whole machine
    kernel.settle()  run every queue's published work now, on the calling thread (tests use it to
                     look at memory right after ringing a doorbell; drivers wait on signals)

GPU_EMULATE_BUDGET (wave-instructions per dispatch) is read and checked when the machine is made.
"""
import functools
import threading

from drivers.emu.amd.cards import CARDS, MAX_GPUS, render_ip_discovery, render_topology  # noqa: F401 (MAX_GPUS)
from drivers.emu.kernel import EmulatedKernel

# Emulation targets -> the card whose topology the virtual machine reports.
TARGETS = {"gfx1100": "rx7900xtx"}
RENDER_MINOR = 128
TOPOLOGY_NODES = "/sys/devices/virtual/kfd/kfd/topology/nodes"


class VirtualMachine(EmulatedKernel):
    """A host with ``gpus`` identical GPUs of ``target`` behind one amdkfd."""

    def __init__(self, target, gpus):
        # Imported here, not at the top: listing targets must not load the wave simulator.
        from drivers.emu.amd.gpu import VirtualGPU
        from drivers.emu.amd.kfd import KfdDevice
        from drivers.emu.amd.shader import WaveExecutor
        from drivers.emu.amd.shader.executor import budget_from_env
        card = CARDS[TARGETS[target]]
        files = render_topology(card, render_minor=RENDER_MINOR, gpus=gpus)
        for k in range(gpus):
            files.update(render_ip_discovery(card, render_minor=RENDER_MINOR + k))
        budget = budget_from_env()
        super().__init__(files, {})
        lock = threading.RLock()             # one CP thread runs every GPU's queues
        self.gpus = [VirtualGPU(card, int(files[f"{TOPOLOGY_NODES}/{node}/gpu_id"]), node_id=node,
                                target=target, lock=lock)
                     for node in range(1, gpus + 1)]
        for gpu in self.gpus:                # the RDNA3 wave simulator runs every dispatch
            gpu.executor = WaveExecutor(budget=budget)
        self.gpu = self.gpus[0]
        self.kfd = KfdDevice(self, self.gpus)
        self.devices["/dev/kfd"] = self.kfd.open_kfd
        for k, gpu in enumerate(self.gpus):
            self.devices[f"/dev/dri/renderD{RENDER_MINOR + k}"] = functools.partial(self.kfd.open_render, gpu)
        self.target = target

    def live(self):
        return self.kfd.live()

    def settle(self):
        """Run the published work of every queue to completion (or until it blocks), now."""
        process = self.kfd.process
        if process is not None:
            process.run_queues()
