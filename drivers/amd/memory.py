"""GPU memory through amdkfd: VRAM, host-visible VRAM, GTT and user (USERPTR) host memory.

Every buffer lives at one virtual address that the CPU and the GPU share. The recipe
(libhsakmt fmm.c does the same with its own VA allocator):

1. reserve the range with an anonymous PROT_NONE mapping, so nothing else lands there;
2. ALLOC_MEMORY_OF_GPU at that VA;
3. for CPU-visible BOs, mmap the render node at the returned mmap_offset over the
   reservation (MAP_FIXED), so the CPU reaches the same bytes at the same address;
4. MAP_MEMORY_TO_GPU so the GPU's page tables point at it.

USERPTR memory is ordinary anonymous host memory handed to KFD by its address. Freeing undoes
the steps in reverse order. Out of memory is an :class:`OutOfMemory` naming the heap, the size
and what KFD says is still free, and leaves nothing behind.
"""
import errno
from dataclasses import dataclass

import numpy as np
from kfd_ioctl import constants as K

from drivers.buffer import Buffer as BufferBase
from drivers.errors import GPUError, InvalidArgument, IoctlError
from drivers.kernel import MAP_ANONYMOUS, MAP_NORESERVE, MAP_PRIVATE, MAP_SHARED, PROT_NONE, PROT_READ, PROT_WRITE

PAGE = 4096
MiB = 1 << 20
LARGE_PAGE = 2 * MiB
MAX_BUFFER_BYTES = 1 << 47            # the GPU's 47-bit virtual address space holds no more

_COMMON = K.KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE | K.KFD_IOC_ALLOC_MEM_FLAGS_EXECUTABLE


@dataclass(frozen=True)
class Heap:
    """Where a buffer lives and how it is reached: the KFD flag set, whether the CPU maps it,
    and through which file (BOs of the render node; the MMIO remap page of /dev/kfd)."""
    name: str
    flags: int
    cpu_visible: bool
    description: str
    mmap_on_kfd: bool = False


VRAM = Heap("vram", _COMMON | K.KFD_IOC_ALLOC_MEM_FLAGS_VRAM | K.KFD_IOC_ALLOC_MEM_FLAGS_NO_SUBSTITUTE,
            False, "device memory (VRAM)")
VRAM_PUBLIC = Heap("vram_public", _COMMON | K.KFD_IOC_ALLOC_MEM_FLAGS_VRAM | K.KFD_IOC_ALLOC_MEM_FLAGS_PUBLIC
                   | K.KFD_IOC_ALLOC_MEM_FLAGS_NO_SUBSTITUTE, True, "host-visible device memory (VRAM through the BAR)")
GTT = Heap("gtt", _COMMON | K.KFD_IOC_ALLOC_MEM_FLAGS_GTT | K.KFD_IOC_ALLOC_MEM_FLAGS_COHERENT
           | K.KFD_IOC_ALLOC_MEM_FLAGS_UNCACHED, True, "uncached coherent system memory (GTT)")
USERPTR = Heap("userptr", _COMMON | K.KFD_IOC_ALLOC_MEM_FLAGS_USERPTR, True, "pinned host memory (USERPTR)")
# The page of GPU registers user mode may write (HDP flush), mapped through /dev/kfd.
MMIO_REMAP = Heap("mmio_remap", K.KFD_IOC_ALLOC_MEM_FLAGS_MMIO_REMAP | K.KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE
                  | K.KFD_IOC_ALLOC_MEM_FLAGS_COHERENT, True, "MMIO remap page", mmap_on_kfd=True)
HEAPS = {h.name: h for h in (VRAM, VRAM_PUBLIC, GTT, USERPTR, MMIO_REMAP)}


class OutOfMemory(GPUError, MemoryError):
    """An allocation did not fit: heap, size asked for, and what is free."""

    def __init__(self, heap, size, available, detail=""):
        self.heap, self.size, self.available = heap, size, available
        free = f"{_fmt(available)} free" if available is not None else "free space unknown"
        msg = f"out of memory in {heap.name} ({heap.description}): cannot allocate {_fmt(size)} ({size} bytes); {free}"
        super().__init__(msg + (f" ({detail})" if detail else ""))


def _fmt(n):
    for unit, scale in (("PiB", 1 << 50), ("TiB", 1 << 40), ("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n} B"


def round_up(n, align):
    return (n + align - 1) // align * align


class Buffer(BufferBase):
    """A GPU allocation. ``va`` is its address for both CPU and GPU; ``mapping`` is the CPU
    window (None for VRAM the CPU cannot reach). ``copyin``/``copyout`` go through the owning
    device's copy engine; ``view`` gives direct CPU access when the heap allows it."""

    def __init__(self, memory, va, size, alloc_size, heap, handle, mapping, reservation):
        self.memory, self.va, self.size, self.alloc_size = memory, va, size, alloc_size
        self.heap, self.handle, self.mapping, self.reservation = heap, handle, mapping, reservation
        self.mapped_gpus = [memory.gpu_id]
        self.device = None          # set by the device that hands the buffer out
        self.freed = False

    def __repr__(self):
        return f"Buffer(0x{self.va:x}, {self.size} bytes, {self.heap.name})"


class Memory:
    """Allocations of one GPU of a KFD process. Tracks what is live so close() frees it all."""

    def __init__(self, kfd, drm_fd, gpu_id):
        self.kfd, self.kernel, self.drm_fd, self.gpu_id = kfd, kfd.kernel, drm_fd, gpu_id
        self.live = {}      # va -> Buffer

    def alloc(self, size, heap=VRAM, align=None):
        """A Buffer of ``size`` bytes in ``heap``. Buffers of 2 MiB and more get 2 MiB-aligned
        addresses so the GPU can map them with large pages."""
        if not isinstance(size, (int, np.integer)) or isinstance(size, bool) or size <= 0:
            raise InvalidArgument(f"buffer size must be a positive number of bytes, got {size!r}")
        if isinstance(heap, str):
            try:
                heap = HEAPS[heap]
            except KeyError:
                raise InvalidArgument(f"unknown heap {heap!r}; heaps: {', '.join(HEAPS)}") from None
        size = int(size)
        if size > MAX_BUFFER_BYTES:
            raise OutOfMemory(heap, size, None, f"larger than the GPU's {MAX_BUFFER_BYTES >> 40} TiB virtual "
                              "address space")
        alloc_size = round_up(size, PAGE)
        if heap is USERPTR:
            return self._alloc_userptr(size, alloc_size)
        if align is None:
            align = LARGE_PAGE if alloc_size >= LARGE_PAGE else PAGE
        reservation = self._reserve(alloc_size, align, heap)
        va = round_up(reservation.address, align)
        try:
            handle, mmap_offset = self.kfd.alloc_memory(self.gpu_id, va, alloc_size, heap.flags)
        except IoctlError as e:
            self.kernel.munmap(reservation)
            raise self._oom_or(e, heap, size) from None
        mapping = None
        try:
            if heap.cpu_visible:
                fd = self.kfd.fd if heap.mmap_on_kfd else self.drm_fd
                mapping = self.kernel.mmap(fd, alloc_size, mmap_offset, PROT_READ | PROT_WRITE, MAP_SHARED, address=va)
            self._map(handle, heap, size)
        except BaseException:
            self._undo(handle, mapping, reservation, mapped=False)
            raise
        return self._track(Buffer(self, va, size, alloc_size, heap, handle, mapping, reservation))

    def _reserve(self, alloc_size, align, heap):
        try:
            return self.kernel.mmap(None, alloc_size + (align - PAGE if align > PAGE else 0), 0, PROT_NONE,
                                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE)
        except OSError as e:
            raise OutOfMemory(heap, alloc_size, None, f"no {alloc_size}-byte range of address space: {e}") from None

    def _alloc_userptr(self, size, alloc_size):
        try:
            host = self.kernel.mmap(None, alloc_size, 0, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS)
        except OSError as e:
            raise OutOfMemory(USERPTR, size, None, f"host mmap failed: {e.strerror or e}") from None
        try:
            handle, _ = self.kfd.alloc_memory(self.gpu_id, host.address, alloc_size, USERPTR.flags,
                                              mmap_offset=host.address)
        except IoctlError as e:
            self.kernel.munmap(host)
            raise self._oom_or(e, USERPTR, size) from None
        try:
            self._map(handle, USERPTR, size)
        except BaseException:
            self.kfd.free_memory(handle)
            self.kernel.munmap(host)
            raise
        return self._track(Buffer(self, host.address, size, alloc_size, USERPTR, handle, host, None))

    def _map(self, handle, heap, size):
        try:
            done = self.kfd.map_memory(handle, [self.gpu_id])
        except IoctlError as e:
            raise self._oom_or(e, heap, size) from None
        if done != 1:
            raise GPUError(f"MAP_MEMORY_TO_GPU mapped {heap.name} BO {handle:#x} on {done} of 1 GPUs")

    def _oom_or(self, error, heap, size):
        if error.errno_value != errno.ENOMEM:
            return error
        try:
            available = self.kfd.available_memory(self.gpu_id) if heap in (VRAM, VRAM_PUBLIC) else None
        except IoctlError:
            available = None
        return OutOfMemory(heap, size, available, f"{error.name}: ENOMEM")

    def _track(self, buf):
        self.live[buf.va] = buf
        return buf

    def map_peer(self, buf, gpu_id):
        """Make ``buf`` (allocated on this GPU) reachable by another GPU of the same process."""
        if gpu_id in buf.mapped_gpus:
            return
        done = self.kfd.map_memory(buf.handle, [gpu_id])
        if done != 1:
            raise GPUError(f"MAP_MEMORY_TO_GPU of buffer 0x{buf.va:x} on gpu_id {gpu_id} did not succeed")
        buf.mapped_gpus.append(gpu_id)

    def free(self, buf, free_bo=True):
        """Release ``buf``. ``free_bo=False`` drops the mappings but leaves the BO to KFD (the
        event page: KFD refuses to free it and releases it with the process)."""
        if buf.freed:
            return
        buf.freed = True
        self.live.pop(buf.va, None)
        self._undo(buf.handle, buf.mapping, buf.reservation, mapped=True, gpus=buf.mapped_gpus, free_bo=free_bo)

    def _undo(self, handle, mapping, reservation, mapped, gpus=None, free_bo=True):
        """UNMAP -> munmap -> FREE (the reverse of alloc); every step runs even if one fails."""
        errors = []
        if mapped:
            try:
                self.kfd.unmap_memory(handle, gpus or [self.gpu_id])
            except IoctlError as e:
                errors.append(e)
        for m in (mapping, reservation):
            if m is not None:
                try:
                    self.kernel.munmap(m)
                except OSError as e:
                    errors.append(e)
                if m is mapping and reservation is not None and _covers(mapping, reservation):
                    break    # the MAP_FIXED mapping replaced the reservation's pages
        if free_bo:
            try:
                self.kfd.free_memory(handle)
            except IoctlError as e:
                errors.append(e)
        if errors:
            raise errors[0]

    def close(self):
        for buf in list(self.live.values()):
            buf.free()


def _covers(mapping, reservation):
    return mapping.address <= reservation.address and \
        reservation.address + reservation.length <= mapping.address + mapping.size
