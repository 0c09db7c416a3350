"""Memory ioctls of the virtual amdkfd: ALLOC/FREE_MEMORY_OF_GPU, MAP/UNMAP, AVAILABLE_MEMORY.

Rules and errnos follow kfd_chardev.c and amdgpu_amdkfd_gpuvm.c: a zero size, an unknown gpu_id,
an unaligned USERPTR address, a DOORBELL buffer that is not the 8 KiB doorbell slice or an
MMIO_REMAP buffer that is not one page are EINVAL; so are (here, at allocation time) an unaligned
or overlapping VA.  VRAM is accounted against the card's size (ENOMEM past it) while its backing
stays sparse host memory.  System memory follows amdgpu_amdkfd_reserve_mem_limit: GTT and
USERPTR buffers together may take 15/16 of the machine's RAM (as its topology reports it), GTT
alone 3/8 of it (TTM), ENOMEM past either.  A buffer still mapped cannot be freed (EBUSY), a buffer a queue uses
cannot be unmapped (EBUSY), an unknown handle is EINVAL for FREE but ENOMEM for MAP/UNMAP (the
kernel's kfd_process_device_translate_handle path).

Peer access: a BO is allocated on one GPU (its handle names that gpu_id) and MAP_MEMORY_TO_GPU
with other gpu_ids in device_ids_array maps the same memory at the same VA into their VMs, as
amdgpu does through a dma-buf attachment.  A gpu_id the process has no device data for is
EINVAL, a peer whose VM was never acquired ENODEV (kfd_bind_process_to_device), VRAM of a GPU
without a large BAR EINVAL (amdgpu_device_is_peer_accessible).  A BO mapped on any GPU cannot be
freed (EBUSY: kgd_mem counts mappings on every GPU); only process exit drops them all.
"""
import errno

import kfd_ioctl as K

from drivers.emu.amd.gpu import DOORBELL_PAGE_SIZE
from drivers.emu.memory import PAGE_SIZE, HostMemory, UserMemory, host_range_mapped
from drivers.emu.amd.process import BufferObject, fail

_ffi = K.ffi                               # casts and buffers only
GPUVM_LIMIT = 1 << 47                      # 47-bit GPU virtual address space (gfx9+ user VAs)
DRM_FILE_PAGE_OFFSET_START = 1 << 32       # DRM fake mmap offsets start here (bytes)
KFD_MMAP_TYPE_SHIFT, KFD_MMAP_GPU_ID_SHIFT = 62, 46
KFD_MMAP_TYPE_DOORBELL, KFD_MMAP_TYPE_EVENTS = 3 << 62, 2 << 62
KFD_MMAP_TYPE_RESERVED_MEM, KFD_MMAP_TYPE_MMIO = 1 << 62, 0
VRAM_AVAILABILITY_ALIGN = 1 << 21


class MemoryLimits:
    """amdgpu's kfd_mem_limit: system memory (GTT + USERPTR) up to 15/16 of RAM, TTM (GTT) up to
    3/8 of it, for every process of the machine together."""

    def __init__(self, ram_bytes):
        self.ram = ram_bytes
        self.max_system = ram_bytes - (ram_bytes >> 4)
        self.max_ttm = ram_bytes * 3 // 8
        self.system_used = self.ttm_used = 0

    def reserve(self, kind, size, what):
        ttm = size if kind == "GTT" else 0
        if self.system_used + size > self.max_system or self.ttm_used + ttm > self.max_ttm:
            fail(errno.ENOMEM, f"{what}: {size} bytes of {kind} requested; KFD's limits are {self.max_system} bytes "
                 f"of system memory ({self.system_used} used) and {self.max_ttm} of GTT ({self.ttm_used} used), "
                 f"15/16 and 3/8 of the {self.ram}-byte RAM")
        self.system_used += size
        self.ttm_used += ttm

    def release(self, kind, size):
        self.system_used -= size
        if kind == "GTT":
            self.ttm_used -= size


def mmap_gpu_id(gpu_id):
    return (gpu_id & 0xFFFF) << KFD_MMAP_GPU_ID_SHIFT


def user_memory(address, size):
    """Bytes of the caller's memory at ``address`` (copy_from_user): EFAULT if not mapped."""
    if size == 0:
        return memoryview(b"")
    start = address & ~(PAGE_SIZE - 1)
    end = -(-(address + size) // PAGE_SIZE) * PAGE_SIZE
    if not address or not host_range_mapped(start, end - start):
        fail(errno.EFAULT, f"user pointer 0x{address:x} (+{size} bytes) is not mapped memory")
    return _ffi.buffer(_ffi.cast("char *", address), size)


def memory_type(flags):
    """The kernel's precedence: VRAM, then GTT, USERPTR, DOORBELL, MMIO_REMAP."""
    for bit, name in ((K.KFD_IOC_ALLOC_MEM_FLAGS_VRAM, "VRAM"), (K.KFD_IOC_ALLOC_MEM_FLAGS_GTT, "GTT"),
                      (K.KFD_IOC_ALLOC_MEM_FLAGS_USERPTR, "USERPTR"),
                      (K.KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL, "DOORBELL"),
                      (K.KFD_IOC_ALLOC_MEM_FLAGS_MMIO_REMAP, "MMIO_REMAP")):
        if flags & bit:
            return name
    return None


class MemoryIoctls:
    """Mixed into the /dev/kfd file; ``self.dev`` is the KfdDevice, ``proc`` the KfdProcess."""

    def _pdd(self, proc, gpu_id, what):
        return proc.device(gpu_id, what)

    def _bound(self, pdd, what, err=errno.ENODEV):
        """kfd_bind_process_to_device: the VM must have been acquired through a render node."""
        if pdd.drm_file is None:
            fail(err, f"{what}: no VM yet on gpu 0x{pdd.gpu.gpu_id:x}: call AMDKFD_IOC_ACQUIRE_VM with its "
                 "render node first")

    def alloc_memory_of_gpu(self, proc, a):
        what = "ALLOC_MEMORY_OF_GPU"
        if a.size == 0:
            fail(errno.EINVAL, f"{what}: size is 0")
        pdd = self._pdd(proc, a.gpu_id, what)
        self._bound(pdd, what)
        flags, gpu = a.flags, pdd.gpu
        kind = memory_type(flags)
        if kind is None:
            fail(errno.EINVAL, f"{what}: flags 0x{flags:08x} name no memory type (VRAM, GTT, USERPTR, DOORBELL, MMIO_REMAP)")
        size = -(-a.size // PAGE_SIZE) * PAGE_SIZE
        va = a.va_addr
        if kind == "VRAM" and flags & K.KFD_IOC_ALLOC_MEM_FLAGS_PUBLIC and not gpu.card.vram_public:
            fail(errno.EINVAL, f"{what}: host-visible (PUBLIC) VRAM needs a large BAR, this card has none")
        if kind == "USERPTR" and a.mmap_offset % PAGE_SIZE:
            fail(errno.EINVAL, f"{what}: USERPTR address 0x{a.mmap_offset:x} is not page aligned")
        if kind == "DOORBELL" and a.size != DOORBELL_PAGE_SIZE:
            fail(errno.EINVAL, f"{what}: a DOORBELL buffer is the {DOORBELL_PAGE_SIZE}-byte doorbell slice, not {a.size} bytes")
        if kind == "MMIO_REMAP" and a.size != PAGE_SIZE:
            fail(errno.EINVAL, f"{what}: an MMIO_REMAP buffer is one {PAGE_SIZE}-byte page, not {a.size} bytes")
        if va % PAGE_SIZE:
            fail(errno.EINVAL, f"{what}: va_addr 0x{va:x} is not {PAGE_SIZE}-byte aligned")
        if va + size > GPUVM_LIMIT:
            fail(errno.EINVAL, f"{what}: 0x{va:x}+{size:#x} lies outside the 47-bit GPU VM")
        for other in pdd.bos.values():
            if va < other.va + other.size and other.va < va + size:
                fail(errno.EINVAL, f"{what}: VA 0x{va:x}+{size:#x} overlaps {other}")
        if kind == "VRAM" and gpu.vram_used + size > gpu.vram_budget:
            fail(errno.ENOMEM, f"{what}: {size} bytes of VRAM requested, "
                 f"{gpu.vram_budget - gpu.vram_used} of {gpu.vram_budget} left")
        limits = self.dev.limits
        if kind in ("GTT", "USERPTR"):
            limits.reserve(kind, size, what)
        try:
            if kind == "USERPTR":
                if not host_range_mapped(a.mmap_offset, size):
                    fail(errno.EFAULT, f"{what}: USERPTR memory 0x{a.mmap_offset:x}+{size:#x} is not mapped")
                mem = UserMemory(a.mmap_offset, size)
            elif kind == "DOORBELL":
                mem = pdd.doorbells
            else:
                try:
                    mem = HostMemory(size, f"{kind.lower()}-{va:x}")
                except OSError as e:
                    fail(errno.ENOMEM, f"{what}: host memory for {size} bytes: {e.strerror}")
        except BaseException:
            if kind in ("GTT", "USERPTR"):
                limits.release(kind, size)
            raise
        idr = pdd.new_idr()
        handle = gpu.gpu_id << 32 | idr
        if kind == "MMIO_REMAP":
            offset = KFD_MMAP_TYPE_MMIO | mmap_gpu_id(gpu.gpu_id)
        elif kind == "DOORBELL":
            offset = KFD_MMAP_TYPE_DOORBELL | mmap_gpu_id(gpu.gpu_id)
        else:
            offset = self.dev.new_drm_offset(gpu, size)
        bo = pdd.bos[idr] = BufferObject(pdd, idr, handle, va, size, flags, kind, mem, offset)
        bo.limits = limits
        if kind == "VRAM":
            gpu.vram_used += size
        a.handle, a.mmap_offset = handle, offset
        return bo

    def free_memory_of_gpu(self, proc, a):
        what = "FREE_MEMORY_OF_GPU"
        if proc.signal_handle is not None and proc.signal_handle == a.handle:
            fail(errno.EPERM, f"{what}: the event page BO is freed with the process, not by the user")
        bo = proc.find_bo_by_handle(a.handle)
        if bo.mapped:
            where = ", ".join(f"0x{g:x}" for g in bo.mapped_on)
            fail(errno.EBUSY, f"{what}: {bo} is still mapped to GPU {where}; unmap it first")
        bo.owner.free_bo(bo)

    def _device_ids(self, a, what):
        if not a.n_devices:
            fail(errno.EINVAL, f"{what}: n_devices is 0 (device_ids_array is empty)")
        if a.n_success > a.n_devices:
            fail(errno.EINVAL, f"{what}: n_success {a.n_success} exceeds n_devices {a.n_devices}")
        raw = user_memory(a.device_ids_array_ptr, 4 * a.n_devices)
        return list(memoryview(bytes(raw)).cast("I"))

    def _owner(self, proc, a, what):
        owner = proc.devices.get(a.handle >> 32)
        if owner is None:
            fail(errno.EINVAL, f"{what}: handle 0x{a.handle:x} belongs to no device of this process")
        return owner

    def _peer(self, proc, ids, i, what):
        peer = proc.devices.get(ids[i])
        if peer is None:
            fail(errno.EINVAL, f"{what}: device_ids_array[{i}] = 0x{ids[i]:x} is not a GPU of this process")
        return peer

    def map_memory_to_gpu(self, proc, a):
        what = "MAP_MEMORY_TO_GPU"
        ids = self._device_ids(a, what)
        self._bound(self._owner(proc, a, what), what)
        bo = proc.find_bo_by_handle(a.handle, errno.ENOMEM)
        for i in range(a.n_success, a.n_devices):
            peer = self._peer(proc, ids, i, what)
            self._bound(peer, what)
            if peer.gpu.gpu_id not in bo.mapped_on:
                self._check_peer_access(bo, peer, what)
                peer.map_bo(bo, writable=bool(bo.flags & K.KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE),
                            executable=bool(bo.flags & K.KFD_IOC_ALLOC_MEM_FLAGS_EXECUTABLE))
            a.n_success = i + 1

    @staticmethod
    def _check_peer_access(bo, peer, what):
        owner_gpu = bo.owner.gpu
        if peer.gpu is not owner_gpu and bo.kind == "VRAM" and not owner_gpu.card.vram_public:
            fail(errno.EINVAL, f"{what}: gpu 0x{peer.gpu.gpu_id:x} cannot reach {bo}: the VRAM of gpu "
                 f"0x{owner_gpu.gpu_id:x} is not all visible through its BAR")
        if peer.vm.overlaps(bo.va, bo.size):          # amdgpu_vm_bo_map: the VA is taken in that VM
            fail(errno.EINVAL, f"{what}: {bo} overlaps a mapping already in the VM of gpu 0x{peer.gpu.gpu_id:x}")

    def unmap_memory_from_gpu(self, proc, a):
        what = "UNMAP_MEMORY_FROM_GPU"
        ids = self._device_ids(a, what)
        self._owner(proc, a, what)
        bo = proc.find_bo_by_handle(a.handle, errno.ENOMEM)
        for i in range(a.n_success, a.n_devices):
            peer = self._peer(proc, ids, i, what)
            gpu_id = peer.gpu.gpu_id
            if gpu_id not in bo.mapped_on:
                fail(errno.EINVAL, f"{what}: {bo} is not mapped to GPU 0x{gpu_id:x}")
            if bo.queue_refs.get(gpu_id):
                fail(errno.EBUSY, f"{what}: {bo} is used by a queue of GPU 0x{gpu_id:x} (destroy the queue first)")
            peer.unmap_bo(bo)
            a.n_success = i + 1

    def get_available_memory(self, proc, a):
        gpu = self._pdd(proc, a.gpu_id, "AVAILABLE_MEMORY").gpu
        left = max(0, gpu.vram_budget - gpu.vram_used)
        a.available = left // VRAM_AVAILABILITY_ALIGN * VRAM_AVAILABILITY_ALIGN
