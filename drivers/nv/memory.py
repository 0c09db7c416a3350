"""GPU memory through the RM and UVM: VRAM, host-visible VRAM, pinned host memory and RM system memory.

Every buffer lives at one virtual address that the CPU and the GPU share (the CUDA / tinygrad recipe):

1. reserve the range with an anonymous PROT_NONE mapping, so nothing else lands there;
2. allocate the memory: NV01_MEMORY_LOCAL_USER (VRAM) or NV01_MEMORY_SYSTEM with RM_ALLOC, or, for
   pinned host memory, map anonymous pages at the VA and describe them to the RM
   (NV_ESC_RM_ALLOC_MEMORY of NV01_MEMORY_SYSTEM_OS_DESCRIPTOR);
3. for CPU-visible RM memory, NV_ESC_RM_MAP_MEMORY onto a fresh /dev/nvidiaN (or /dev/nvidiactl for
   system memory) and mmap that fd over the reservation (MAP_FIXED);
4. UVM_CREATE_EXTERNAL_RANGE + UVM_MAP_EXTERNAL_ALLOCATION, so the GPU's page tables (UVM owns them)
   point at it.

Push buffers, GPFIFO rings, semaphores and QMDs must sit below 2^40 (GPFIFO entries, SEM_ADDR_HI and
SEND_PCAS_A carry 40-bit addresses), where Linux rarely places mappings on its own: `low=True`
allocations come from one region reserved there for the process (LowRegion).

Freeing undoes the steps in reverse.  Out of memory is an OutOfMemory naming the heap, the size and
what the board has, and leaves nothing behind.
"""
from dataclasses import dataclass

import numpy as np

import nv_ioctl as NV

from drivers.buffer import Buffer as BufferBase
from drivers.errors import GPUError, IoctlError
from drivers.kernel import MAP_ANONYMOUS, MAP_NORESERVE, MAP_PRIVATE, MAP_SHARED, O_RDWR, PROT_NONE, PROT_READ, \
    PROT_WRITE
from drivers.nv.rm import RMError

PAGE = 4096
MiB = 1 << 20
LARGE_PAGE = 2 * MiB


@dataclass(frozen=True)
class Heap:
    name: str
    description: str
    cpu_visible: bool


VRAM = Heap("vram", "device memory (VRAM)", False)
VRAM_CPU = Heap("vram_cpu", "host-visible device memory (VRAM through BAR1)", True)
HOST = Heap("host", "pinned host memory (an OS descriptor)", True)
SYSMEM = Heap("sysmem", "RM-allocated system memory", True)
HEAPS = {h.name: h for h in (VRAM, VRAM_CPU, HOST, SYSMEM)}


class OutOfMemory(GPUError, MemoryError):
    def __init__(self, heap, size, detail=""):
        self.heap, self.size = heap, size
        super().__init__(f"out of memory in {heap.name} ({heap.description}): cannot allocate {size} bytes"
                         + (f" ({detail})" if detail else ""))


def round_up(n, align):
    return -(-n // align) * align


class Buffer(BufferBase):
    """A GPU allocation at `va` (CPU and GPU alike); `mapping` is the CPU window (None for VRAM)."""

    def __init__(self, memory, va, size, alloc_size, heap, handle, mapping, reservation, cookie=None):
        self.memory, self.va, self.size, self.alloc_size = memory, va, size, alloc_size
        self.heap, self.handle, self.mapping, self.reservation = heap, handle, mapping, reservation
        self.cookie = cookie               # pLinearAddress of the RM CPU mapping
        self.mapped_gpus = [memory.uuid]
        self.device = None
        self.freed = False

    def __repr__(self):
        return f"Buffer(0x{self.va:x}, {self.size} bytes, {self.heap.name})"


class LowRegion:
    """A PROT_NONE reservation below 2^40, handed out first-fit; freed ranges are reserved again."""
    HINT, SIZE, LIMIT = 0x1000000000, 64 << 30, 1 << 40

    def __init__(self, kernel):
        self.kernel = kernel
        self.mapping = self._find()
        self.base = self.mapping.address
        self.free_list = [(self.base, self.SIZE)]

    def _find(self):
        """The first free range at the hinted low addresses (the kernel places a hinted mapping there
        only when nothing occupies it)."""
        for base in range(self.HINT, self.LIMIT - self.SIZE, self.SIZE):
            m = self.kernel.mmap(None, self.SIZE, 0, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, hint=base)
            if m.address == base:
                return m
            self.kernel.munmap(m)
        raise GPUError("no free address range below 2^40 for push buffers, semaphores and QMDs")

    def take(self, size, align):
        for i, (start, length) in enumerate(self.free_list):
            va = round_up(start, align)
            if va + size <= start + length:
                rest = [(start, va - start)] if va > start else []
                if va + size < start + length:
                    rest.append((va + size, start + length - va - size))
                self.free_list[i:i + 1] = rest
                return va
        raise GPUError(f"the low VA region ({self.SIZE >> 30} GiB below 2^40) has no {size}-byte hole left")

    def give_back(self, va, size):
        """Reserve [va, va+size) again (PROT_NONE over whatever was mapped there) and return it."""
        self.kernel.mmap(None, size, 0, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, address=va)
        self.free_list.append((va, size))
        self.free_list.sort()
        merged = []
        for start, length in self.free_list:
            if merged and merged[-1][0] + merged[-1][1] == start:
                merged[-1] = (merged[-1][0], merged[-1][1] + length)
            else:
                merged.append((start, length))
        self.free_list = merged

    def close(self):
        self.kernel.munmap(self.mapping)


class Memory:
    """The allocations of one GPU (its RM device, its UVM-registered VA space)."""

    def __init__(self, dev):
        self.dev, self.kernel, self.L = dev, dev.kernel, dev.L
        self.proc, self.rm = dev.process, dev.process.client
        self.uuid = dev.uuid
        self.live = {}                      # va -> Buffer

    # -- allocation -----------------------------------------------------------------------------
    def alloc(self, size, heap=VRAM, low=False):
        if not isinstance(size, (int, np.integer)) or isinstance(size, bool) or size <= 0:
            raise ValueError(f"buffer size must be a positive number of bytes, got {size!r}")
        if isinstance(heap, str):
            if heap not in HEAPS:
                raise ValueError(f"unknown heap {heap!r}; heaps: {', '.join(HEAPS)}")
            heap = HEAPS[heap]
        size = int(size)
        alloc_size = round_up(size, LARGE_PAGE if size >= LARGE_PAGE else PAGE)
        align = LARGE_PAGE if alloc_size >= LARGE_PAGE else PAGE
        if low:
            reservation, va = None, self.proc.low_region().take(alloc_size, align)
        else:
            reservation = self.kernel.mmap(None, alloc_size + align - PAGE, 0, PROT_NONE,
                                           MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE)
            va = round_up(reservation.address, align)
        handle = mapping = cookie = None
        try:
            if heap is HOST:
                mapping = self.kernel.mmap(None, alloc_size, 0, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                                           address=va)
                handle = self._os_descriptor(va, alloc_size, size)
            else:
                handle = self._rm_memory(heap, alloc_size, size)
                if heap.cpu_visible:
                    mapping, cookie = self._map_cpu(handle, va, alloc_size, system=heap is SYSMEM)
            self._map_gpu(va, alloc_size, handle, [self.uuid])
        except BaseException:
            self._undo(va, alloc_size, handle, mapping, cookie, reservation, gpu_mapped=False)
            raise
        buf = Buffer(self, va, size, alloc_size, heap, handle, mapping, reservation, cookie)
        self.live[va] = buf
        return buf

    def _rm_memory(self, heap, alloc_size, size):
        L = self.L
        if heap in (VRAM, VRAM_CPU):
            cls = NV.NV01_MEMORY_LOCAL_USER
            attr = NV.NVOS32_ATTR_LOCATION.num(NV.NVOS32_ATTR_LOCATION_VIDMEM) | \
                NV.NVOS32_ATTR_PHYSICALITY.num(NV.NVOS32_ATTR_PHYSICALITY_ALLOW_NONCONTIGUOUS)
        else:
            cls = NV.NV01_MEMORY_SYSTEM
            attr = NV.NVOS32_ATTR_LOCATION.num(NV.NVOS32_ATTR_LOCATION_PCI) | \
                NV.NVOS32_ATTR_PHYSICALITY.num(NV.NVOS32_ATTR_PHYSICALITY_NONCONTIGUOUS) | \
                NV.NVOS32_ATTR_COHERENCY.num(NV.NVOS32_ATTR_COHERENCY_CACHED)
        attr |= NV.NVOS32_ATTR_PAGE_SIZE.num(NV.NVOS32_ATTR_PAGE_SIZE_HUGE if alloc_size >= LARGE_PAGE
                                             else NV.NVOS32_ATTR_PAGE_SIZE_4KB)
        p = L.new("NV_MEMORY_ALLOCATION_PARAMS", owner=self.rm.handle, type=NV.NVOS32_TYPE_IMAGE,
                  flags=NV.NVOS32_ALLOC_FLAGS_ALIGNMENT_FORCE | NV.NVOS32_ALLOC_FLAGS_IGNORE_BANK_PLACEMENT
                  | NV.NVOS32_ALLOC_FLAGS_MAP_NOT_REQUIRED | NV.NVOS32_ALLOC_FLAGS_PERSISTENT_VIDMEM,
                  attr=attr, attr2=NV.NVOS32_ATTR2_ZBC.num(NV.NVOS32_ATTR2_ZBC_PREFER_NO_ZBC)
                  | NV.NVOS32_ATTR2_GPU_CACHEABLE.num(NV.NVOS32_ATTR2_GPU_CACHEABLE_YES)
                  | (NV.NVOS32_ATTR2_PAGE_SIZE_HUGE.num(NV.NVOS32_ATTR2_PAGE_SIZE_HUGE_2MB)
                     if alloc_size >= LARGE_PAGE else 0),
                  size=alloc_size, alignment=LARGE_PAGE if alloc_size >= LARGE_PAGE else PAGE,
                  limit=alloc_size - 1)
        try:
            return self.rm.alloc(self.dev.h_device, cls, p)
        except RMError as e:
            if e.status_name == "NV_ERR_NO_MEMORY":
                raise OutOfMemory(heap, size, f"{NV.class_name(cls)}: NV_ERR_NO_MEMORY") from None
            raise

    def _os_descriptor(self, va, alloc_size, size):
        L = self.L
        p = L.new("nv_ioctl_nvos02_parameters_with_fd", fd=-1)
        p.params.hRoot, p.params.hObjectParent = self.rm.handle, self.dev.h_device
        p.params.hClass = NV.NV01_MEMORY_SYSTEM_OS_DESCRIPTOR
        p.params.flags = NV.NVOS02_FLAGS_PHYSICALITY.num(NV.NVOS02_FLAGS_PHYSICALITY_NONCONTIGUOUS) | \
            NV.NVOS02_FLAGS_LOCATION.num(NV.NVOS02_FLAGS_LOCATION_PCI) | \
            NV.NVOS02_FLAGS_COHERENCY.num(NV.NVOS02_FLAGS_COHERENCY_CACHED) | \
            NV.NVOS02_FLAGS_MAPPING.num(NV.NVOS02_FLAGS_MAPPING_NO_MAP)
        p.params.pMemory, p.params.limit = va, alloc_size - 1
        self.dev.gpu_file.escape("NV_ESC_RM_ALLOC_MEMORY", p)
        if p.params.status != NV.NV_OK:
            raise RMError(f"NV_ESC_RM_ALLOC_MEMORY of {alloc_size} bytes of host memory at 0x{va:x}",
                          p.params.status, L.status_name(p.params.status))
        return p.params.hObjectNew

    def _map_cpu(self, handle, va, length, system=False):
        """NV_ESC_RM_MAP_MEMORY onto a fresh fd, then mmap it at `va` -> (Mapping, cookie)."""
        L = self.L
        fd = self.kernel.open("/dev/nvidiactl" if system else self.dev.gpu_path, O_RDWR)
        try:
            if not system:
                reg = L.new("nv_ioctl_register_fd_t", ctl_fd=self.proc.ctl.fd)
                self.kernel.ioctl(fd, L.request("NV_ESC_REGISTER_FD"), reg, "NV_ESC_REGISTER_FD")
            p = L.new("nv_ioctl_nvos33_parameters_with_fd", fd=fd)
            p.params.hClient, p.params.hDevice, p.params.hMemory = self.rm.handle, self.dev.h_device, handle
            p.params.length = length
            p.params.flags = NV.NVOS33_FLAGS_CACHING_TYPE.num(NV.NVOS33_FLAGS_CACHING_TYPE_WRITECOMBINED)
            self.proc.ctl.escape("NV_ESC_RM_MAP_MEMORY", p)
            if p.params.status != NV.NV_OK:
                raise RMError(f"NV_ESC_RM_MAP_MEMORY of 0x{handle:x}", p.params.status, L.status_name(p.params.status))
            mapping = self.kernel.mmap(fd, length, 0, PROT_READ | PROT_WRITE, MAP_SHARED, address=va)
            return mapping, p.params.pLinearAddress
        finally:
            self.kernel.close(fd)

    def _unmap_cpu(self, handle, cookie):
        p = self.L.new("NVOS34_PARAMETERS", hClient=self.rm.handle, hDevice=self.dev.h_device, hMemory=handle,
                       pLinearAddress=cookie)
        self.proc.ctl.escape("NV_ESC_RM_UNMAP_MEMORY", p)
        if p.status != NV.NV_OK:
            raise RMError(f"NV_ESC_RM_UNMAP_MEMORY of 0x{handle:x}", p.status, self.L.status_name(p.status))

    def _map_gpu(self, va, length, handle, uuids, create=True):
        L = self.L
        if create:
            self.proc.uvm.call("UVM_CREATE_EXTERNAL_RANGE", base=va, length=length)
        p = L.new("UVM_MAP_EXTERNAL_ALLOCATION_PARAMS", base=va, length=length, offset=0,
                  gpuAttributesCount=len(uuids), rmCtrlFd=self.proc.ctl.fd, hClient=self.rm.handle, hMemory=handle)
        for i, uuid in enumerate(uuids):
            p.perGpuAttributes[i].gpuUuid.uuid = list(uuid)
            p.perGpuAttributes[i].gpuMappingType = NV.UvmGpuMappingTypeReadWriteAtomic
        self.proc.uvm.ioctl("UVM_MAP_EXTERNAL_ALLOCATION", p)

    def map_peer(self, buf, device):
        """Make `buf` reachable by another device's GPU (its UUID in the same UVM VA space)."""
        if device.uuid in buf.mapped_gpus:
            return
        self.proc.enable_peer(self.uuid, device.uuid)
        self._map_gpu(buf.va, buf.alloc_size, buf.handle, [device.uuid], create=False)
        buf.mapped_gpus.append(device.uuid)

    # -- freeing ------------------------------------------------------------------------------
    def free(self, buf):
        if buf.freed:
            return
        buf.freed = True
        self.live.pop(buf.va, None)
        self._undo(buf.va, buf.alloc_size, buf.handle, buf.mapping, buf.cookie, buf.reservation, gpu_mapped=True)

    def _undo(self, va, length, handle, mapping, cookie, reservation, gpu_mapped):
        """UVM_FREE -> RM_UNMAP_MEMORY -> munmap -> RM_FREE (the reverse of alloc); every step runs."""
        errors = []

        def attempt(fn):
            try:
                fn()
            except (IoctlError, RMError, OSError) as e:
                errors.append(e)

        if gpu_mapped:
            attempt(lambda: self.proc.uvm.call("UVM_FREE", base=va))
        elif handle is not None:         # a range may exist without a mapping
            try:
                self.proc.uvm.call("UVM_FREE", base=va)
            except (IoctlError, RMError):
                pass
        if cookie is not None:
            attempt(lambda: self._unmap_cpu(handle, cookie))
        if mapping is not None:
            attempt(lambda: self.kernel.munmap(mapping))
        if reservation is not None:
            attempt(lambda: self.kernel.munmap(reservation))
        else:
            attempt(lambda: self.proc.low_region().give_back(va, length))
        if handle is not None:
            attempt(lambda: self.rm.free(handle))
        if errors:
            raise errors[0]

    def close(self):
        for buf in list(self.live.values()):
            self.free(buf)

