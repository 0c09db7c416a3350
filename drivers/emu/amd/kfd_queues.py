"""Queue ioctls of the virtual amdkfd: CREATE_QUEUE (88- and 96-byte), DESTROY/UPDATE_QUEUE, SET_CU_MASK.

Validation order and errnos follow kfd_chardev.c (set_queue_properties_from_user: a ring_size
below 1 KiB is clamped to KFD_MIN_QUEUE_RING_SIZE and the caller sees it) and, for the buffers,
kfd_queue.c:kfd_queue_acquire_buffers of Linux >= 6.11: the read and write pointers must each lie
in the first page of a one-page GPU mapping, the ring in a mapping of exactly PAGE_ALIGN(ring_size)
bytes, and a compute queue needs the node's EOP size (4 KiB), its control stack size and at least
its CWSR size, in a mapping of (ctx_save_restore_size + debug memory) bytes.  Buffers a queue uses
cannot be unmapped from that GPU while it lives.  Queue ids are the process's, doorbells each
GPU's; a queue's buffers are looked up in its own GPU's VM, so a peer's BO mapped there will do.
One rule is the hardware's, not the kernel's: the ring and EOP addresses are stored >> 8 in the
queue descriptor, so an address that is not 256-byte aligned, which the kernel accepts and the CP
would silently truncate, is refused here.
"""
import errno

import kfd_ioctl as K

from drivers.emu.amd.aql import AQLQueue
from drivers.emu.amd.gpu import DOORBELL_PAGE_SIZE, DOORBELL_SIZE, Queue, log
from drivers.emu.amd.kfd_memory import KFD_MMAP_TYPE_DOORBELL, mmap_gpu_id, user_memory
from drivers.emu.memory import PAGE_SIZE
from drivers.emu.amd.pm4 import PM4Queue
from drivers.emu.amd.process import fail
from drivers.emu.amd.sdma import SDMAQueue

ENOTSUPP = 524                         # the kernel-internal errno set_queue_properties_from_user returns
MAX_QUEUES_PER_PROCESS = 1024          # KFD_MAX_NUM_OF_QUEUES_PER_PROCESS
MAX_CU_MASK_BITS = 1024
SDMA_DOORBELL_BASE, SDMA_DOORBELL_MIRROR = 256, 512
COMPUTE_TYPES = (K.KFD_IOC_QUEUE_TYPE_COMPUTE, K.KFD_IOC_QUEUE_TYPE_COMPUTE_AQL)
SDMA_TYPES = (K.KFD_IOC_QUEUE_TYPE_SDMA, K.KFD_IOC_QUEUE_TYPE_SDMA_XGMI, K.KFD_IOC_QUEUE_TYPE_SDMA_BY_ENG_ID)
TYPE_NAMES = {K.KFD_IOC_QUEUE_TYPE_COMPUTE: "COMPUTE", K.KFD_IOC_QUEUE_TYPE_COMPUTE_AQL: "COMPUTE_AQL",
              K.KFD_IOC_QUEUE_TYPE_SDMA: "SDMA", K.KFD_IOC_QUEUE_TYPE_SDMA_XGMI: "SDMA_XGMI",
              K.KFD_IOC_QUEUE_TYPE_SDMA_BY_ENG_ID: "SDMA_BY_ENG_ID"}


def page_align(v):
    return -(-v // PAGE_SIZE) * PAGE_SIZE


def _is_power_of_2(v):
    return v > 0 and v & (v - 1) == 0


class QueueIoctls:
    def _queue_buffer(self, pdd, va, expected, what, field, held):
        """kfd_queue_buffer_get: ``va`` must fall in the first page of a mapping of ``expected`` bytes."""
        r = pdd.vm.lookup(va)
        if r is None:
            fail(errno.EINVAL, f"{what}: {field} 0x{va:x} is not in a GPU-mapped buffer")
        if va // PAGE_SIZE != r.start // PAGE_SIZE or (expected and r.end - r.start != expected):
            fail(errno.EINVAL, f"{what}: {field} 0x{va:x} must start a GPU mapping of exactly {expected:#x} "
                 f"bytes, but lies at +{va - r.start:#x} in one of {r.end - r.start:#x}")
        held.append(r.owner)
        return r

    def _check_common(self, a, what):
        if (a.queue_percentage & 0xFF) > K.KFD_MAX_QUEUE_PERCENTAGE:
            fail(errno.EINVAL, f"{what}: queue_percentage {a.queue_percentage & 0xFF} exceeds {K.KFD_MAX_QUEUE_PERCENTAGE}")
        if a.queue_priority > K.KFD_MAX_QUEUE_PRIORITY:
            fail(errno.EINVAL, f"{what}: queue_priority {a.queue_priority} exceeds {K.KFD_MAX_QUEUE_PRIORITY}")
        if a.ring_size and not _is_power_of_2(a.ring_size):
            fail(errno.EINVAL, f"{what}: ring_size {a.ring_size} is not a power of two")
        if a.ring_size < K.KFD_MIN_QUEUE_RING_SIZE:     # the kernel clamps, and the caller sees it
            log(2, f"kfd: {what}: ring_size {a.ring_size} clamped to {K.KFD_MIN_QUEUE_RING_SIZE}")
            a.ring_size = K.KFD_MIN_QUEUE_RING_SIZE

    def create_queue(self, proc, a):
        what = "CREATE_QUEUE"
        self._check_common(a, what)
        qtype = a.queue_type
        if qtype not in TYPE_NAMES:
            fail(ENOTSUPP, f"{what}: queue_type {qtype} is not a KFD_IOC_QUEUE_TYPE_*")
        if qtype == K.KFD_IOC_QUEUE_TYPE_SDMA_XGMI:
            fail(errno.ENOMEM, f"{what}: this GPU has no XGMI SDMA engine")
        pdd = self._pdd(proc, a.gpu_id, what)
        gpu = pdd.gpu
        self._bound(pdd, what, errno.ESRCH)
        if qtype == K.KFD_IOC_QUEUE_TYPE_SDMA_BY_ENG_ID and a.sdma_engine_id >= gpu.card.sdma_engines:
            fail(errno.EINVAL, f"{what}: sdma_engine_id {a.sdma_engine_id} but the GPU has {gpu.card.sdma_engines} SDMA engines")
        for field in ("ring_base_address", "eop_buffer_address"):
            if getattr(a, field) % 256:      # CP_HQD_PQ_BASE / CP_HQD_EOP_BASE_ADDR hold address >> 8
                fail(errno.EINVAL, f"{what}: {field} 0x{getattr(a, field):x} is not 256-byte aligned; "
                     "the queue descriptor would silently drop the low bits")
        held = []
        for va in (a.write_pointer_address, a.read_pointer_address):
            if va % 8:
                fail(errno.EINVAL, f"{what}: 64-bit queue pointer at 0x{va:x} is not 8-byte aligned")
        self._queue_buffer(pdd, a.write_pointer_address, PAGE_SIZE, what, "write_pointer_address", held)
        self._queue_buffer(pdd, a.read_pointer_address, PAGE_SIZE, what, "read_pointer_address", held)
        ring = self._queue_buffer(pdd, a.ring_base_address, page_align(a.ring_size), what, "ring_base_address", held)
        if a.ring_base_address + a.ring_size > ring.end:
            fail(errno.EINVAL, f"{what}: the {a.ring_size}-byte ring at 0x{a.ring_base_address:x} runs past its buffer")
        if qtype in COMPUTE_TYPES:
            sizes = gpu.sizes
            if a.eop_buffer_address:
                if a.eop_buffer_size != sizes["eop_buffer_size"]:
                    fail(errno.EINVAL, f"{what}: eop_buffer_size {a.eop_buffer_size:#x} is not the node's "
                         f"{sizes['eop_buffer_size']:#x}")
                self._queue_buffer(pdd, a.eop_buffer_address, a.eop_buffer_size, what, "eop_buffer_address", held)
            if a.ctl_stack_size != sizes["ctl_stack_size"]:
                fail(errno.EINVAL, f"{what}: ctl_stack_size {a.ctl_stack_size:#x} is not the node's "
                     f"{sizes['ctl_stack_size']:#x}")
            if a.ctx_save_restore_size < sizes["cwsr_size"]:
                fail(errno.EINVAL, f"{what}: ctx_save_restore_size {a.ctx_save_restore_size:#x} is less than "
                     f"the node's CWSR size {sizes['cwsr_size']:#x}")
            total = page_align((a.ctx_save_restore_size + sizes["debug_memory_size"]) * gpu.card.num_xcc)
            self._queue_buffer(pdd, a.ctx_save_restore_address, total, what, "ctx_save_restore_address", held)
        taken = {q.queue_id for q in proc.all_queues()}
        queue_id = next((i for i in range(MAX_QUEUES_PER_PROCESS) if i not in taken), None)
        if queue_id is None:
            fail(errno.ENOMEM, f"{what}: the process already has {MAX_QUEUES_PER_PROCESS} queues")
        doorbell = self._doorbell_index(pdd, qtype, a, what)
        q = Queue(gpu, pdd, queue_id, qtype, a, doorbell, held)
        q.active = (a.queue_percentage & 0xFF) > 0
        q.processor = {K.KFD_IOC_QUEUE_TYPE_COMPUTE: PM4Queue,
                       K.KFD_IOC_QUEUE_TYPE_COMPUTE_AQL: AQLQueue}.get(qtype, SDMAQueue)(gpu, q)
        for bo in held:
            bo.queue_refs[gpu.gpu_id] = bo.queue_refs.get(gpu.gpu_id, 0) + 1
        pdd.queues[queue_id] = q
        pdd.queue_by_doorbell[doorbell] = q
        a.queue_id = queue_id
        a.doorbell_offset = KFD_MMAP_TYPE_DOORBELL | mmap_gpu_id(gpu.gpu_id) | doorbell * DOORBELL_SIZE
        return q

    def _doorbell_index(self, pdd, qtype, a, what):
        """CP queues take the lowest free doorbell; SDMA queues a fixed one per engine and slot."""
        used, gpu = pdd.queue_by_doorbell, pdd.gpu
        if qtype in SDMA_TYPES:
            per_engine = gpu.sdma_queue_limit // gpu.card.sdma_engines
            engines = [a.sdma_engine_id] if qtype == K.KFD_IOC_QUEUE_TYPE_SDMA_BY_ENG_ID else \
                range(gpu.card.sdma_engines)
            slots = [(s, e) for s in range(per_engine) for e in engines]
            for slot, engine in slots:
                index = SDMA_DOORBELL_BASE + engine * 16 + (slot & 1) * SDMA_DOORBELL_MIRROR + (slot >> 1)
                if index not in used:
                    return index
            fail(errno.ENOMEM, f"{what}: every SDMA queue of the selected engine(s) is in use")
        for index in range(DOORBELL_PAGE_SIZE // DOORBELL_SIZE):
            sdma_range = SDMA_DOORBELL_BASE <= index % SDMA_DOORBELL_MIRROR < SDMA_DOORBELL_MIRROR
            if not sdma_range and index not in used:
                return index
        fail(errno.EBUSY, f"{what}: no free doorbell")

    def destroy_queue(self, proc, a):
        q = proc.find_queue(a.queue_id)
        if q is None:
            fail(errno.EINVAL, f"DESTROY_QUEUE: queue_id {a.queue_id} does not match any queue of this process")
        q.process.destroy_queue(q)

    def set_cu_mask(self, proc, a):
        """The CUs a queue may use (kept on the queue; the virtual GPU has no CU placement)."""
        what = "SET_CU_MASK"
        if a.num_cu_mask % 32:
            fail(errno.EINVAL, f"{what}: num_cu_mask {a.num_cu_mask} is not a multiple of 32")
        if a.num_cu_mask == 0:
            fail(errno.EINVAL, f"{what}: num_cu_mask is 0")
        bits = min(a.num_cu_mask, MAX_CU_MASK_BITS)        # the kernel ignores bits past 1024
        raw = bytes(user_memory(a.cu_mask_ptr, bits // 8))
        q = proc.find_queue(a.queue_id)
        if q is None:
            fail(errno.EFAULT, f"{what}: no queue {a.queue_id} exists for update")
        q.cu_mask = raw

    def update_queue(self, proc, a):
        """New ring, percentage and priority; a zero ring address or percentage parks the queue."""
        what = "UPDATE_QUEUE"
        self._check_common(a, what)
        q = proc.find_queue(a.queue_id)
        if q is None:
            fail(errno.EFAULT, f"{what}: no queue {a.queue_id} exists for update")
        if a.ring_base_address and (a.ring_base_address != q.ring_va or a.ring_size != q.ring_size):
            held, gpu_id = [], q.gpu.gpu_id
            self._queue_buffer(q.process, a.ring_base_address, page_align(a.ring_size), what, "ring_base_address", held)
            old = q.held.pop(2)          # wptr, rptr, ring, ...: the ring BO is third
            old.queue_refs[gpu_id] -= 1
            held[0].queue_refs[gpu_id] = held[0].queue_refs.get(gpu_id, 0) + 1
            q.held.insert(2, held[0])
            q.ring_va, q.ring_size = a.ring_base_address, a.ring_size
            q.ring = q.process.vm.translate(q.ring_va, q.ring_size)
            q.processor = type(q.processor)(q.gpu, q)
        q.active = (a.queue_percentage & 0xFF) > 0 and a.ring_base_address != 0
