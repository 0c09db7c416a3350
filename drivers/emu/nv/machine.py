"""The virtual NVIDIA machine behind the kernel seam: /proc/driver/nvidia, /dev/nvidiactl,
/dev/nvidiaN, /dev/nvidia-uvm, and the resource manager behind them.

``VirtualMachine("sm_86", 1)`` looks like a host with one RTX 3090 on the open kernel module of
DEFAULT_DRIVER; ``driver=`` pins another version (its branch's layouts are what the virtual kernel
checks sizes against), ``open_module=False`` prints the proprietary module's version line.
``drivers.emu.make_kernel`` picks it for the targets ``sm_86``, ``sm_89``, ``sm_90`` and ``sm_XXxN``.

    kernel.gpus      the NvGpus in minor order
    kernel.rm        the resource manager (clients and object trees; ``last_error`` says why the
                     last call was refused)
    kernel.live()    what clients still hold
"""
import functools
import threading
import time

from drivers.emu.kernel import EmulatedKernel

# Emulation targets -> the card the virtual machine carries.  Choosing a target reads only these
# two names; the virtual GPU itself is imported when a machine is built.
TARGETS = {"sm_86": "rtx3090", "sm_89": "rtx4090", "sm_90": "h100sxm"}
MAX_GPUS = 8                # one PCI bus per GPU


class MachineLock:
    """The machine's re-entrant lock, which ioctls and the host thread take in turns, and which a
    running grid lends out: ``yield_to_waiters()`` (called by the SASS simulator between
    instructions) lets a thread waiting for the lock in, so an ioctl never waits for a grid to end,
    as on hardware, where the RM and the SMs run independently."""

    def __init__(self):
        self._lock = threading.RLock()
        self._count = threading.Lock()
        self.waiting = 0

    def __enter__(self):
        if not self._lock.acquire(blocking=False):
            with self._count:
                self.waiting += 1
            try:
                self._lock.acquire()
            finally:
                with self._count:
                    self.waiting -= 1
        return self

    def __exit__(self, *exc):
        self._lock.release()

    def yield_to_waiters(self):
        """Let waiting threads take the lock (held by the caller), then take it back."""
        tries = 0
        while self.waiting and tries < 100:
            state = self._lock._release_save()          # every level of the caller's recursion
            try:
                time.sleep(0.0001)
            finally:
                self._lock._acquire_restore(state)
            tries += 1


class VirtualMachine(EmulatedKernel):
    """A host with ``gpus`` identical NVIDIA GPUs of ``target``."""

    def __init__(self, target, gpus, driver=None, open_module=True):
        import nv_ioctl as NV
        from drivers.emu.nv.cards import CARDS, DEFAULT_DRIVER, boards, render_proc
        from drivers.emu.nv.devices import CtlFile, GpuFile
        from drivers.emu.nv.gpu import NvGpu
        from drivers.emu.nv.rm import ResourceManager
        from drivers.emu.nv.uvm import UvmFile
        driver = driver or DEFAULT_DRIVER
        self.target = target
        self.driver = NV.parse_driver_version(driver)
        self.layouts = NV.layouts(self.driver.major)        # UnknownBranch for a driver without layouts
        self.boards = boards(CARDS[TARGETS[target]], gpus)
        super().__init__(render_proc(self.boards, self.driver.text, open_module), {})
        self.lock = MachineLock()               # ioctls and the host thread take turns
        self.gpus = [NvGpu(b, self) for b in self.boards]
        self.gpu = self.gpus[0]
        self.rm = ResourceManager(self, self.layouts)
        from drivers.emu.nv.host import Host
        self.host = Host(self)
        self.devices["/dev/nvidiactl"] = functools.partial(CtlFile, self)
        for gpu in self.gpus:
            self.devices[f"/dev/nvidia{gpu.board.minor}"] = functools.partial(GpuFile, self, gpu)
        self.devices["/dev/nvidia-uvm"] = functools.partial(UvmFile, self)

    def live(self):
        """Counts of what is still held: tests assert all zero after a driver closes."""
        return {"clients": len(self.rm.clients),
                "objects": sum(len(c.objects) - 1 for c in self.rm.clients.values()),
                "attached_gpus": sum(g.open_files > 0 for g in self.gpus),
                "open_files": len(self.open_files),
                "memory": sum(g.memory_objects for g in self.gpus),
                "vram_bytes": sum(g.vram_used for g in self.gpus),
                "channels": sum(len(g.channels) for g in self.gpus)}

    def settle(self, timeout=60.0):
        """Run every channel to idle on the calling thread (True unless something stays blocked)."""
        return self.host.settle(timeout)
