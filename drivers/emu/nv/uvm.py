"""/dev/nvidia-uvm of the virtual machine (kernel-open/nvidia-uvm/uvm.c).

The request is the raw command number, so the kernel cannot see the caller's struct size: it copies
sizeof(its params) from the pointer.  Here the argument's length is known and must be that size
(EINVAL otherwise, naming the size the real module would read regardless).  UVM_INITIALIZE must come
first on a file (anything else before it is NV_ERR_ILLEGAL_ACTION in rmStatus); UVM_MM_INITIALIZE
names another, initialized UVM fd.  Failures are reported in rmStatus with the ioctl succeeding, as
uvm.c does; an unknown command is -EINVAL.

Emulated now: INITIALIZE, DEINITIALIZE, MM_INITIALIZE, PAGEABLE_MEM_ACCESS.  The GPU, VA space,
channel and external-range commands are validated for size and answer NV_ERR_NOT_SUPPORTED.
"""
import errno

import nv_ioctl as NV

from drivers.emu.kernel import DeviceFile
from drivers.emu.nv.gpu import log


def fail(err, message):
    log(2, f"virtual nvidia-uvm: {message}")
    raise OSError(err, message)


class UvmFile(DeviceFile):
    def __init__(self, machine):
        self.machine, self.L = machine, machine.layouts
        self.initialized = False
        self.flags = None
        self.mm_of = None                 # UVM_MM_INITIALIZE: the UVM file this one mirrors

    def ioctl(self, request, buf):
        if request == NV.UVM_DEINITIALIZE:
            self.initialized = False      # takes no argument
            return
        cmd = self.L.uvm_by_number(request)
        if cmd is None:
            fail(errno.EINVAL, f"UVM command {request:#x} is not one the virtual nvidia-uvm takes")
        if len(buf) != cmd.size:
            fail(errno.EINVAL, f"{cmd.name}: argument of {len(buf)} bytes, but {cmd.struct} is {cmd.size} in "
                               f"driver {self.L.tag} (the real module copies {cmd.size} bytes regardless)")
        arg = bytearray(buf)
        p = self.L.from_buffer(cmd.struct, arg)
        p.rmStatus = self.L.status_code(self._run(cmd.name, p))
        buf[:] = arg

    def _run(self, name, p):
        if name == "UVM_INITIALIZE":
            if p.flags & ~NV.UVM_INIT_FLAGS_MASK:
                return self._refuse(name, "NV_ERR_INVALID_ARGUMENT", f"flags 0x{p.flags:x} outside UVM_INIT_FLAGS_MASK")
            if self.initialized and p.flags != self.flags:
                return self._refuse(name, "NV_ERR_INVALID_ARGUMENT", "already initialized with other flags")
            if self.mm_of is not None:
                return self._refuse(name, "NV_ERR_INVALID_STATE", "this fd was set up by UVM_MM_INITIALIZE")
            self.initialized, self.flags = True, p.flags
            return "NV_OK"
        if name == "UVM_MM_INITIALIZE":
            try:
                other = self.machine.file(p.uvmFd)
            except OSError:
                other = None
            if not isinstance(other, UvmFile) or not other.initialized or other is self:
                return self._refuse(name, "NV_ERR_INVALID_ARGUMENT", f"uvmFd {p.uvmFd} is not another, "
                                    "initialized /dev/nvidia-uvm")
            if self.initialized or self.mm_of is not None:
                return self._refuse(name, "NV_ERR_INVALID_STATE", "this fd is already in use")
            self.mm_of = other
            return "NV_OK"
        if not self.initialized:
            return self._refuse(name, "NV_ERR_ILLEGAL_ACTION", "UVM_INITIALIZE must be the first ioctl on the fd")
        if name == "UVM_PAGEABLE_MEM_ACCESS":
            p.pageableMemAccess = 0       # no HMM/ATS behind the virtual GPU
            return "NV_OK"
        return self._refuse(name, "NV_ERR_NOT_SUPPORTED", "not emulated by the virtual nvidia-uvm yet")

    @staticmethod
    def _refuse(name, status, reason):
        log(2, f"virtual nvidia-uvm: {name}: {status}: {reason}")
        return status
