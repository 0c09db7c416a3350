"""What this OS process shares across all its NVIDIA devices on one kernel: /dev/nvidiactl, one RM
client, /dev/nvidia-uvm (initialized, plus the second fd UVM_MM_INITIALIZE wants), and the GPUs
registered with UVM (peer access between them is enabled once per pair).

UVM keeps one VA space per fd, and GPU VA == CPU VA only works if every device maps into the address
space of the same UVM fd, so devices take a reference here and drop it on close; the last one out
closes everything.  The driver branch comes from /proc/driver/nvidia/version (a branch without
layouts is refused by name).
"""
import nv_ioctl as NV

from drivers.errors import DeviceNotFound, IoctlError, MalformedInput
from drivers.kernel import O_RDWR
from drivers.nv import procfs
from drivers.nv.rm import NvCtl, RMError, RmClient
from drivers.nv.uvm import NVIDIA_UVM, Uvm


class NvProcess:
    _open = {}            # id(kernel) -> NvProcess

    @classmethod
    def acquire(cls, kernel):
        proc = cls._open.get(id(kernel))
        if proc is None:
            proc = cls(kernel)
            cls._open[id(kernel)] = proc
        proc.refs += 1
        return proc

    def __init__(self, kernel):
        self.kernel, self.refs = kernel, 0
        self.ctl = self.client = self.uvm = self.uvm_mm = None
        try:
            info = procfs.read_version(kernel)
        except (OSError, MalformedInput) as e:
            raise DeviceNotFound(f"no NVIDIA driver: {e} (without a GPU, emulate one: GPU_EMULATE=sm_90 or "
                                 "NVDevice(emulate='sm_90'))") from None
        try:
            self.layouts = NV.layouts(info.version.major)
        except NV.UnknownBranch as e:
            raise DeviceNotFound(f"NVIDIA driver {info.version}: {e}") from None
        self.driver = info.version
        try:
            self.ctl = NvCtl.open(kernel, self.layouts)
            self.client = RmClient(self.ctl)
            self.uvm = Uvm.open(kernel, self.layouts)
            self.uvm_mm = self._open_mm()
        except BaseException:
            self._close()
            raise
        self.registered = set()           # GPU UUIDs registered with UVM
        self.peers = set()                # frozenset of two UUIDs with peer access enabled
        self._low = None

    def low_region(self):
        """The process's reservation below 2^40 (made on first use)."""
        if self._low is None:
            from drivers.nv.memory import LowRegion
            self._low = LowRegion(self.kernel)
        return self._low

    def _open_mm(self):
        """The second UVM fd, bound with UVM_MM_INITIALIZE (tolerated when the module refuses it)."""
        try:
            fd = self.kernel.open(NVIDIA_UVM, O_RDWR)
        except OSError:
            return None
        mm = Uvm(self.kernel, self.layouts, fd)
        try:
            mm.call("UVM_MM_INITIALIZE", uvmFd=self.uvm.fd)
        except (RMError, IoctlError):
            pass
        return mm

    def cards(self):
        return self.ctl.card_info()

    def register_gpu(self, uuid):
        if uuid not in self.registered:
            p = self.layouts.new("UVM_REGISTER_GPU_PARAMS", rmCtrlFd=-1, hClient=self.client.handle)
            p.gpu_uuid.uuid = list(uuid)
            self.uvm.ioctl("UVM_REGISTER_GPU", p)
            self.registered.add(uuid)

    def unregister_gpu(self, uuid):
        if uuid in self.registered:
            self.registered.discard(uuid)
            self.peers = {pair for pair in self.peers if uuid not in pair}
            p = self.layouts.new("UVM_UNREGISTER_GPU_PARAMS")
            p.gpu_uuid.uuid = list(uuid)
            self.uvm.ioctl("UVM_UNREGISTER_GPU", p)

    def enable_peer(self, a, b):
        pair = frozenset((a, b))
        if a != b and pair not in self.peers:
            p = self.layouts.new("UVM_ENABLE_PEER_ACCESS_PARAMS")
            p.gpuUuidA.uuid, p.gpuUuidB.uuid = list(a), list(b)
            self.uvm.ioctl("UVM_ENABLE_PEER_ACCESS", p)
            self.peers.add(pair)

    def release(self):
        self.refs -= 1
        if self.refs <= 0:
            self._open.pop(id(self.kernel), None)
            self._close()

    def _close(self):
        errors = []
        for step in (lambda: getattr(self, "_low", None) and self._low.close(),
                     lambda: self.uvm_mm and self.uvm_mm.close(), lambda: self.uvm and self.uvm.close(),
                     lambda: self.client and self.client.close(), lambda: self.ctl and self.ctl.close()):
            try:
                step()
            except (OSError, RMError) as e:
                errors.append(e)
        self.uvm_mm = self.uvm = self.client = self.ctl = None
        if errors:
            raise errors[0]
