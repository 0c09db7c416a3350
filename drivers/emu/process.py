"""One process's state in the virtual amdkfd: its GPU VM, buffers, events, queues and doorbells.

Linux keeps one kfd_process per address space however many times /dev/kfd is opened; the
virtual machine does the same and tears everything down when the last descriptor closes.
"""
import errno

from drivers.emu.events import EventTable
from drivers.emu.gpu import DOORBELL_PAGE_SIZE, log
from drivers.emu.memory import HostMemory, host_range_mapped
from drivers.emu.vm import GpuVM


class KfdError(OSError):
    """An ioctl refused the way amdkfd refuses it; the message names the rule."""


def fail(err, rule):
    log(2, f"kfd: {rule} -> {errno.errorcode.get(err, err)}")
    raise KfdError(err, rule)


class BufferObject:
    """A KFD allocation (kgd_mem): backing memory, GPU VA, flags, and who still uses it."""

    def __init__(self, idr, handle, va, size, flags, kind, mem, mmap_offset):
        self.idr, self.handle, self.va, self.size, self.flags = idr, handle, va, size, flags
        self.kind, self.mem, self.mmap_offset = kind, mem, mmap_offset
        self.mapped = False
        self.invalidated = False            # USERPTR whose host pages went away (MMU notifier)
        self.queue_refs = 0

    def __repr__(self):
        return f"BO({self.kind} 0x{self.va:x}+{self.size:#x} handle 0x{self.handle:x})"


class KfdProcess:
    def __init__(self, gpu):
        self.gpu = gpu
        self.vm = GpuVM()
        self.bos = {}                       # idr -> BufferObject
        self.events = EventTable(fail)
        self.queues = {}                    # queue_id -> Queue
        self.queue_by_doorbell = {}
        self.doorbells = HostMemory(DOORBELL_PAGE_SIZE, "doorbells")
        self.drm_file = None                # the render node bound by ACQUIRE_VM
        self.runtime_enabled = False
        self.xnack_enabled = 0
        self.scratch_backing_va = 0
        self.trap_handler = (0, 0)
        self.signal_handle = None
        self.files = 0                      # open /dev/kfd descriptors
        self._next_idr = 0

    def new_idr(self):
        while self._next_idr in self.bos:
            self._next_idr += 1
        idr, self._next_idr = self._next_idr, self._next_idr + 1
        return idr

    def find_bo_by_handle(self, handle, missing_errno=errno.EINVAL):
        """Handle -> BO; another GPU's or process's handle is EINVAL (kfd_process_device_data_by_id)."""
        if handle >> 32 != self.gpu.gpu_id:
            fail(errno.EINVAL, f"handle 0x{handle:x} belongs to gpu_id 0x{handle >> 32:x}, not to a "
                 "device of this process")
        bo = self.bos.get(handle & 0xFFFFFFFF)
        if bo is None:
            fail(missing_errno, f"handle 0x{handle:x} names no buffer of this process")
        return bo

    def revalidate_userptrs(self):
        """Drop GPU mappings of USERPTR memory the host unmapped, as amdgpu's MMU notifier does:
        the GPU then faults (NotPresent) instead of touching freed host pages."""
        for bo in self.bos.values():
            if bo.kind == "USERPTR" and bo.mapped and not bo.invalidated \
                    and not host_range_mapped(bo.mem.address, bo.size):
                self.vm.unmap(bo.va)
                bo.invalidated = True
                log(1, f"kfd: {bo} lost its host pages; GPU accesses to it now fault")

    def unmap_bo(self, bo):
        if not bo.invalidated:
            self.vm.unmap(bo.va)
        bo.mapped = False

    def release(self):
        """Process exit: queues, events and buffers go, as kfd_process_wq_release does."""
        for q in list(self.queues.values()):
            self.destroy_queue(q)
        self.events.events.clear()
        for bo in list(self.bos.values()):
            if bo.mapped:
                self.unmap_bo(bo)
            self.free_bo(bo)
        self.doorbells.release()

    def destroy_queue(self, q):
        for bo in q.held:
            bo.queue_refs -= 1
        del self.queues[q.queue_id]
        self.queue_by_doorbell.pop(q.doorbell_index, None)

    def free_bo(self, bo):
        if bo.kind == "VRAM":
            self.gpu.vram_used -= bo.size
        if bo.mem is not self.doorbells:
            bo.mem.release()
        del self.bos[bo.idr]
