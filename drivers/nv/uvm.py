"""/dev/nvidia-uvm, over the kernel seam: the raw-numbered UVM ioctls, each answering in rmStatus.

    uvm = Uvm.open(kernel, layouts)        # open + UVM_INITIALIZE (must be the first call on the fd)
    uvm.pageable_mem_access()              # True when GPUs can touch pageable host memory (HMM/ATS)
    uvm.close()
"""
import nv_ioctl as NV

from drivers.kernel import O_RDWR
from drivers.nv.rm import RMError

NVIDIA_UVM = "/dev/nvidia-uvm"


class Uvm:
    def __init__(self, kernel, layouts, fd):
        self.kernel, self.L, self.fd = kernel, layouts, fd

    @classmethod
    def open(cls, kernel, layouts, flags=0):
        uvm = cls(kernel, layouts, kernel.open(NVIDIA_UVM, O_RDWR))
        try:
            uvm.call("UVM_INITIALIZE", flags=flags)
        except BaseException:
            uvm.close()
            raise
        return uvm

    def call(self, name, **fields):
        """Issue UVM command `name` with `fields`; RMError unless rmStatus is NV_OK."""
        return self.ioctl(name, self.L.new(self.L.uvm(name).struct, **fields))

    def ioctl(self, name, params):
        """Issue UVM command `name` with a filled params struct; RMError unless rmStatus is NV_OK."""
        cmd = self.L.uvm(name)
        self.kernel.ioctl(self.fd, cmd.request, params, name)
        if params.rmStatus != NV.NV_OK:
            raise RMError(name, params.rmStatus, self.L.status_name(params.rmStatus))
        return params

    def call_register_channel(self, uuid, rm_fd, h_client, h_channel, base, length):
        p = self.L.new("UVM_REGISTER_CHANNEL_PARAMS", rmCtrlFd=rm_fd, hClient=h_client, hChannel=h_channel,
                       base=base, length=length)
        p.gpuUuid.uuid = list(uuid)
        return self.ioctl("UVM_REGISTER_CHANNEL", p)

    def call_unregister_channel(self, uuid, h_client, h_channel):
        """UVM_UNREGISTER_CHANNEL (the GPU UUID field went away in 590)."""
        p = self.L.new("UVM_UNREGISTER_CHANNEL_PARAMS", hClient=h_client, hChannel=h_channel)
        if "gpuUuid" in self.L.field_names("UVM_UNREGISTER_CHANNEL_PARAMS"):
            p.gpuUuid.uuid = list(uuid)
        return self.ioctl("UVM_UNREGISTER_CHANNEL", p)

    def pageable_mem_access(self):
        return bool(self.call("UVM_PAGEABLE_MEM_ACCESS").pageableMemAccess)

    def close(self):
        if self.fd is not None:
            self.kernel.close(self.fd)
            self.fd = None
