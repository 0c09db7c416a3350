"""A small amdkfd user that goes through the kernel seam exactly as a driver does.

It is what tests (and bring-up scripts of the shader simulator) use to get a working queue on the
virtual GPU without the full driver: open /dev/kfd and the render node, acquire the VM, allocate
and map buffers at CPU VA == GPU VA, create events and queues, ring doorbells, and tear it all
down in order.  Nothing here knows it talks to an emulator.

One client drives one GPU (topology ``node``); a second client on another node of the same kernel
joins the same KFD process (amdkfd keeps one per address space), so it passes
``runtime_enable=False`` and uses the first client's event page.
"""
from dataclasses import dataclass

import numpy as np

import kfd_ioctl as K
from drivers.kernel import MAP_NORESERVE, MAP_PRIVATE, PROT_NONE, PROT_READ, PROT_WRITE

TOPOLOGY = "/sys/devices/virtual/kfd/kfd/topology/nodes"
GTT = K.KFD_IOC_ALLOC_MEM_FLAGS_GTT | K.KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE | K.KFD_IOC_ALLOC_MEM_FLAGS_EXECUTABLE \
    | K.KFD_IOC_ALLOC_MEM_FLAGS_COHERENT | K.KFD_IOC_ALLOC_MEM_FLAGS_UNCACHED
VRAM = K.KFD_IOC_ALLOC_MEM_FLAGS_VRAM | K.KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE | K.KFD_IOC_ALLOC_MEM_FLAGS_EXECUTABLE \
    | K.KFD_IOC_ALLOC_MEM_FLAGS_PUBLIC
PAGE = 4096
EVENT_PAGE_SIZE = K.KFD_SIGNAL_EVENT_LIMIT * 8


@dataclass
class Buffer:
    handle: int
    va: int
    size: int
    mapping: object            # the CPU Mapping at va (None when not CPU-mapped)
    mapped: bool = True

    def view(self, dtype=np.uint8, offset=0, count=None):
        return self.mapping.view(dtype, offset, count)


@dataclass
class QueueHandle:
    queue_id: int
    queue_type: int
    ring: Buffer
    pointers: Buffer           # rptr/wptr page (amd_queue_t for AQL)
    rptr_offset: int
    wptr_offset: int
    doorbell_offset: int       # byte offset of this queue's doorbell in the doorbell page
    extra: list                # EOP, CWSR buffers


class KfdClient:
    def __init__(self, kernel, node=1, runtime_enable=True):
        self.k, self.node = kernel, node
        self.gpu_id = int(kernel.read_text(f"{TOPOLOGY}/{node}/gpu_id"))
        props = dict(line.split() for line in kernel.read_text(f"{TOPOLOGY}/{node}/properties").splitlines())
        self.kfd = kernel.open("/dev/kfd")
        self.drm = kernel.open(f"/dev/dri/renderD{props['drm_render_minor']}")
        self.buffers, self.queues, self.events = [], [], []
        self.doorbells = None
        self.event_page = None
        self.ioctl("ACQUIRE_VM", drm_fd=self.drm, gpu_id=self.gpu_id)
        if runtime_enable:
            self.ioctl("RUNTIME_ENABLE", mode_mask=K.KFD_RUNTIME_ENABLE_MODE_ENABLE_MASK)

    def ioctl(self, name, request=None, **fields):
        info = next(i for i in K.IOCTLS.values() if i.name == f"AMDKFD_IOC_{name}")
        args = info.new(**fields)
        self.k.ioctl(self.kfd, request or info.request, args, info.name)
        return args

    # -- memory -------------------------------------------------------------------------------
    def alloc(self, size, flags=GTT, cpu=True, map_gpu=True, va=None):
        size = -(-size // PAGE) * PAGE
        reservation = None
        if va is None:
            reservation = self.k.mmap(None, size, prot=PROT_NONE, flags=MAP_PRIVATE | MAP_NORESERVE)
            va = reservation.address
        a = self.ioctl("ALLOC_MEMORY_OF_GPU", va_addr=va, size=size, gpu_id=self.gpu_id, flags=flags)
        mapping = self.k.mmap(self.drm, size, a.mmap_offset, PROT_READ | PROT_WRITE, address=va) if cpu else reservation
        buf = Buffer(a.handle, va, size, mapping, False)
        self.buffers.append(buf)
        if map_gpu:
            self.map(buf)
        return buf

    def _map_call(self, name, buf, gpu_ids):
        ids = K.ffi.new(f"uint32_t[{len(gpu_ids)}]", gpu_ids)
        a = self.ioctl(name, handle=buf.handle, n_devices=len(gpu_ids),
                       device_ids_array_ptr=int(K.ffi.cast("uintptr_t", ids)))
        if a.n_success != len(gpu_ids):
            raise RuntimeError(f"{name} succeeded on {a.n_success} of {len(gpu_ids)} GPUs")

    def map(self, buf, gpu_ids=None):
        """Map ``buf`` into the VMs of ``gpu_ids`` (default: this client's GPU)."""
        self._map_call("MAP_MEMORY_TO_GPU", buf, gpu_ids or [self.gpu_id])
        if gpu_ids is None or self.gpu_id in gpu_ids:
            buf.mapped = True

    def unmap(self, buf, gpu_ids=None):
        self._map_call("UNMAP_MEMORY_FROM_GPU", buf, gpu_ids or [self.gpu_id])
        if gpu_ids is None or self.gpu_id in gpu_ids:
            buf.mapped = False

    def free(self, buf):
        if buf.mapped:
            self.unmap(buf)
        self.ioctl("FREE_MEMORY_OF_GPU", handle=buf.handle)
        if buf.mapping is not None:
            self.k.munmap(buf.mapping)
        self.buffers.remove(buf)

    # -- events -------------------------------------------------------------------------------
    def create_event(self, event_type=K.KFD_IOC_EVENT_SIGNAL, auto_reset=True):
        page = 0
        if event_type == K.KFD_IOC_EVENT_SIGNAL and self.event_page is None:
            self.event_page = self.alloc(EVENT_PAGE_SIZE)
            page = self.event_page.handle
        a = self.ioctl("CREATE_EVENT", event_type=event_type, auto_reset=int(auto_reset),
                       event_page_offset=page, node_id=self.node)
        self.events.append(a.event_id)
        return a

    def mailbox(self, event):
        """GPU VA of a signal event's slot in the event page."""
        return self.event_page.va + 8 * event.event_slot_index

    def wait(self, event_ids, timeout_ms=1000, wait_for_all=False):
        data = K.ffi.new(f"struct kfd_event_data[{len(event_ids)}]")
        for d, e in zip(data, event_ids):
            d.event_id = e
        a = self.ioctl("WAIT_EVENTS", events_ptr=int(K.ffi.cast("uintptr_t", data)), num_events=len(event_ids),
                       wait_for_all=int(wait_for_all), timeout=timeout_ms)
        return a.wait_result, data

    # -- queues -------------------------------------------------------------------------------
    def create_queue(self, queue_type, ring_size=4096, legacy=False):
        gpu = next((g.sizes for g in getattr(self.k, "gpus", ()) if g.gpu_id == self.gpu_id), None)
        ring = self.alloc(ring_size)
        pointers = self.alloc(PAGE)
        aql = queue_type == K.KFD_IOC_QUEUE_TYPE_COMPUTE_AQL
        rptr_off, wptr_off = (128, 56) if aql else (0, 8)
        fields = dict(ring_base_address=ring.va, ring_size=ring_size, gpu_id=self.gpu_id, queue_type=queue_type,
                      queue_percentage=100, queue_priority=7, read_pointer_address=pointers.va + rptr_off,
                      write_pointer_address=pointers.va + wptr_off)
        extra = []
        if queue_type in (K.KFD_IOC_QUEUE_TYPE_COMPUTE, K.KFD_IOC_QUEUE_TYPE_COMPUTE_AQL):
            eop = self.alloc(gpu["eop_buffer_size"])
            cwsr = self.alloc(gpu["cwsr_size"] + gpu["debug_memory_size"], cpu=False)
            extra = [eop, cwsr]
            fields.update(eop_buffer_address=eop.va, eop_buffer_size=eop.size, ctx_save_restore_address=cwsr.va,
                          ctx_save_restore_size=gpu["cwsr_size"], ctl_stack_size=gpu["ctl_stack_size"])
        if aql:
            pointers.view(np.uint32, 136, 1)[0] = 128      # read_dispatch_id_field_base_byte_offset
        if legacy:
            info = K.IOCTLS[2]
            args = K.new("kfd_ioctl_create_queue_args_legacy", **fields)
            self.k.ioctl(self.kfd, K.AMDKFD_IOC_CREATE_QUEUE_LEGACY, args, info.name)
        else:
            args = self.ioctl("CREATE_QUEUE", **fields)
        if self.doorbells is None:
            self.doorbells = self.k.mmap(self.kfd, 8192, args.doorbell_offset & ~0x1FFF)
        q = QueueHandle(args.queue_id, queue_type, ring, pointers, rptr_off, wptr_off,
                        args.doorbell_offset & 0x1FFF, extra)
        self.queues.append(q)
        return q

    def ring_doorbell(self, q, value, settle=True):
        """Write the doorbell; with ``settle`` also let a virtual GPU's command processor finish
        what it can of the queue's work before returning (tests then read memory directly)."""
        self.doorbells.store64(q.doorbell_offset, value)
        if settle and hasattr(self.k, "settle"):
            self.k.settle()

    def rptr(self, q):
        return int(q.pointers.view(np.uint64, q.rptr_offset, 1)[0])

    def destroy_queue(self, q):
        self.ioctl("DESTROY_QUEUE", queue_id=q.queue_id)
        self.queues.remove(q)
        for b in [q.ring, q.pointers] + q.extra:
            self.free(b)

    def close(self):
        for q in list(self.queues):
            self.destroy_queue(q)
        for e in self.events:
            self.ioctl("DESTROY_EVENT", event_id=e)
        self.events = []
        for b in list(self.buffers):
            if b is not self.event_page:
                self.free(b)
        if self.doorbells is not None:
            self.k.munmap(self.doorbells)
            self.doorbells = None
        self.k.close(self.drm)
        self.k.close(self.kfd)
