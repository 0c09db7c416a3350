"""One process's state in the virtual amdkfd: the process, and its per-GPU device data.

Linux keeps one kfd_process per address space however many times /dev/kfd is opened, and in it
one kfd_process_device ("pdd") per GPU of the machine: the pdd holds that GPU's VM (bound by
ACQUIRE_VM), the buffers allocated on it (handle = gpu_id << 32 | idr), its queues and its
doorbell page.  Events, the event page and the queue-id space belong to the process.  The
virtual machine does the same and tears everything down when the last descriptor closes.
"""
import errno
import time

from drivers.emu.amd.cp import PREEMPT_PATIENCE
from drivers.emu.amd.events import EventTable
from drivers.emu.amd.gpu import DOORBELL_PAGE_SIZE, log
from drivers.emu.memory import HostMemory, host_range_mapped
from drivers.emu.vm import GpuVM


class KfdError(OSError):
    """An ioctl refused the way amdkfd refuses it; the message names the rule."""


def fail(err, rule):
    log(2, f"kfd: {rule} -> {errno.errorcode.get(err, err)}")
    raise KfdError(err, rule)


class BufferObject:
    """A KFD allocation (kgd_mem): backing memory, GPU VA, flags, and who still uses it.

    ``owner`` is the pdd it was allocated on; ``mapped_on`` the pdds whose VM maps it (the
    owner's and any peer's), ``queue_refs`` per gpu_id the queues using it through that VM.
    """

    def __init__(self, owner, idr, handle, va, size, flags, kind, mem, mmap_offset):
        self.owner, self.idr, self.handle, self.va, self.size = owner, idr, handle, va, size
        self.flags, self.kind, self.mem, self.mmap_offset = flags, kind, mem, mmap_offset
        self.mapped_on = {}                 # gpu_id -> ProcessDevice
        self.limits = None                  # the MemoryLimits its system memory counts against
        self.invalidated = False            # USERPTR whose host pages went away (MMU notifier)
        self.queue_refs = {}                # gpu_id -> queues holding it (kfd_queue_buffer_get)

    @property
    def mapped(self):
        return bool(self.mapped_on)

    def __repr__(self):
        return f"BO({self.kind} 0x{self.va:x}+{self.size:#x} handle 0x{self.handle:x})"


class ProcessDevice:
    """kfd_process_device: what one process has on one GPU."""

    def __init__(self, process, gpu):
        self.process, self.gpu = process, gpu
        self.vm = GpuVM()
        self.bos = {}                       # idr -> BufferObject
        self.queues = {}                    # queue_id -> Queue
        self.queue_by_doorbell = {}
        self.doorbells = HostMemory(DOORBELL_PAGE_SIZE, f"doorbells-{gpu.gpu_id:x}")
        self.drm_file = None                # the render node bound by ACQUIRE_VM
        self.scratch_backing_va = 0
        self.trap_handler = (0, 0)
        self._next_idr = 0

    # the queue processors and tests reach process-wide state through the pdd
    @property
    def events(self):
        return self.process.events

    @property
    def runtime_enabled(self):
        return self.process.runtime_enabled

    def new_idr(self):
        while self._next_idr in self.bos:
            self._next_idr += 1
        idr, self._next_idr = self._next_idr, self._next_idr + 1
        return idr

    def map_bo(self, bo, writable, executable):
        if not bo.invalidated:
            self.vm.map(bo.va, bo.mem.array, writable=writable, executable=executable, owner=bo)
        bo.mapped_on[self.gpu.gpu_id] = self

    def unmap_bo(self, bo):
        if not bo.invalidated:
            self.vm.unmap(bo.va)
        del bo.mapped_on[self.gpu.gpu_id]

    def free_bo(self, bo):
        if bo.kind == "VRAM":
            self.gpu.vram_used -= bo.size
        elif bo.kind in ("GTT", "USERPTR") and getattr(bo, "limits", None) is not None:
            bo.limits.release(bo.kind, bo.size)
        if bo.mem is not self.doorbells:
            bo.mem.release()
        del self.bos[bo.idr]

    def destroy_queue(self, q):
        for bo in q.held:
            bo.queue_refs[self.gpu.gpu_id] -= 1
        del self.queues[q.queue_id]
        self.queue_by_doorbell.pop(q.doorbell_index, None)


class KfdProcess:
    def __init__(self, gpus, lock, cp=None):
        self.lock = lock                    # the machine's: queues of one GPU may wait on another's
        self.cp = cp                        # the CommandProcessor that runs the queues
        self.devices = {gpu.gpu_id: ProcessDevice(self, gpu) for gpu in gpus}
        self.events = EventTable(fail)
        self.runtime_enabled = False
        self.xnack_enabled = 0
        self.signal_handle = None
        self.files = 0                      # open /dev/kfd descriptors

    def device(self, gpu_id, what):
        """kfd_process_device_data_by_id: the pdd of ``gpu_id``, EINVAL if no GPU has it."""
        pdd = self.devices.get(gpu_id)
        if pdd is None:
            fail(errno.EINVAL, f"{what}: gpu_id 0x{gpu_id:x} is not a GPU of this machine")
        return pdd

    def find_bo_by_handle(self, handle, missing_errno=errno.EINVAL):
        """Handle -> BO; a handle naming no GPU of the process is EINVAL (kfd_process_device_data_by_id)."""
        pdd = self.devices.get(handle >> 32)
        if pdd is None:
            fail(errno.EINVAL, f"handle 0x{handle:x} belongs to gpu_id 0x{handle >> 32:x}, not to a "
                 "device of this process")
        bo = pdd.bos.get(handle & 0xFFFFFFFF)
        if bo is None:
            fail(missing_errno, f"handle 0x{handle:x} names no buffer of this process")
        return bo

    def all_queues(self):
        return [q for pdd in self.devices.values() for q in pdd.queues.values()]

    def find_queue(self, queue_id):
        return next((q for q in self.all_queues() if q.queue_id == queue_id), None)

    def kick(self):
        """A doorbell rang: have the command processor run the queues (at once if there is none)."""
        if self.cp is not None:
            self.cp.kick(self)
        else:
            self.run_queues()

    def run_queues(self):
        """Run every queue on every GPU, in order, until none makes progress.  Returns whether a
        queue is left with published work it could not do (blocked: poll again later)."""
        cp = self.cp
        with self.lock:
            self.revalidate_userptrs()
            progress = True
            while progress:
                progress = False
                for q in self.all_queues():
                    if q.error is None and q.step():
                        progress = True
                    if cp is not None and cp.host_waiting:       # an ioctl waits: let it in, come back
                        return True
            return any(q.busy() for q in self.all_queues())

    def preempt(self, queues):
        """Stop the dispatches ``queues`` are running, before their destruction takes the lock."""
        deadline = time.monotonic() + PREEMPT_PATIENCE
        for q in queues:
            while not q.gpu.preempt(q) and time.monotonic() < deadline:
                time.sleep(0.0005)

    def revalidate_userptrs(self):
        """Drop GPU mappings of USERPTR memory the host unmapped, as amdgpu's MMU notifier does:
        the GPU then faults (NotPresent) instead of touching freed host pages."""
        for pdd in self.devices.values():
            for bo in pdd.bos.values():
                if bo.kind == "USERPTR" and bo.mapped and not bo.invalidated \
                        and not host_range_mapped(bo.mem.address, bo.size):
                    for peer in bo.mapped_on.values():
                        peer.vm.unmap(bo.va)
                    bo.invalidated = True
                    log(1, f"kfd: {bo} lost its host pages; GPU accesses to it now fault")

    def release(self):
        """Process exit: queues, events and buffers go, as kfd_process_wq_release does."""
        for pdd in self.devices.values():
            for q in list(pdd.queues.values()):
                pdd.destroy_queue(q)
        self.events.events.clear()
        for pdd in self.devices.values():
            for bo in list(pdd.bos.values()):
                for peer in list(bo.mapped_on.values()):
                    peer.unmap_bo(bo)
                pdd.free_bo(bo)
        for pdd in self.devices.values():
            pdd.doorbells.release()
