"""GPU memory through KGSL: one GPU object per buffer, mapped so the CPU and the GPU share its
address (KGSL_MEMFLAGS_USE_CPU_MAP: the GPU address is the CPU address KGSL chose at mmap).

    buf = memory.alloc(nbytes)                     # write-combined: coherent, slow CPU reads
    buf = memory.alloc(nbytes, cached=True)        # write-back: fast CPU access, needs cache
                                                   # maintenance (sync_to_gpu / sync_from_gpu)

The recipe (tinygrad and turnip do the same): GPUOBJ_ALLOC with USE_CPU_MAP and MEMALIGN,
mmap the device at offset ``id << 12`` with the returned mmapsize, read the GPU address back
with GPUOBJ_INFO (it must equal the mapping's address for an SVM object). Freeing unmaps, then
GPUOBJ_FREE. Out of memory is OutOfMemory naming the size and what is already allocated.
"""
import errno

import numpy as np

import kgsl_ioctl as K
from drivers.buffer import Buffer as BufferBase
from drivers.errors import GPUError, IoctlError
from drivers.kernel import MAP_SHARED, PROT_READ, PROT_WRITE
from drivers.qcom import kgsl

PAGE = 4096
ALIGN_LOG2 = 12
WRITECOMBINE, WRITEBACK = K.KGSL_CACHEMODE_WRITECOMBINE, K.KGSL_CACHEMODE_WRITEBACK


class OutOfMemory(GPUError, MemoryError):
    def __init__(self, size, in_use, detail=""):
        self.size, self.in_use = size, in_use
        super().__init__(f"out of GPU memory: cannot allocate {size} bytes ({in_use} bytes allocated by this device)"
                         + (f": {detail}" if detail else ""))


class Buffer(BufferBase):
    """A GPU object. ``va`` is its address for CPU and GPU; ``view`` gives numpy access (for a
    cached buffer that is the CPU's cached view: call sync_to_gpu / sync_from_gpu around GPU
    work, which copyin/copyout do for you)."""

    def __init__(self, memory, obj_id, va, size, alloc_size, flags, mapping):
        self.memory, self.id, self.va, self.size, self.alloc_size = memory, obj_id, va, size, alloc_size
        self.flags, self.mapping = flags, mapping
        self.device = None
        self.freed = False

    @property
    def cached(self):
        return (self.flags & K.KGSL_CACHEMODE_MASK) >> K.KGSL_CACHEMODE_SHIFT == WRITEBACK and \
            not self.flags & K.KGSL_MEMFLAGS_IOCOHERENT

    def view(self, dtype=np.uint8, offset=0, count=None):
        self._check_live()
        if count is None:
            count = (self.size - offset) // np.dtype(dtype).itemsize
        return self.mapping.view(dtype, offset, count)

    def sync_to_gpu(self, offset=0, length=None):
        """Clean the CPU cache over the range so the GPU sees what the CPU wrote (cached buffers)."""
        if self.cached:
            self.memory.sync(self, K.KGSL_GPUMEM_CACHE_TO_GPU, offset, length)

    def sync_from_gpu(self, offset=0, length=None):
        """Invalidate the CPU cache over the range so the CPU sees what the GPU wrote."""
        if self.cached:
            self.memory.sync(self, K.KGSL_GPUMEM_CACHE_FROM_GPU, offset, length)

    def __repr__(self):
        return f"Buffer(0x{self.va:x}, {self.size} bytes, GPU object {self.id}{', cached' if self.cached else ''})"


class Memory:
    """The GPU objects one device allocated; close() frees what is left."""

    def __init__(self, kernel, fd):
        self.kernel, self.fd = kernel, fd
        self.live = {}                  # va -> Buffer
        self.in_use = 0

    def alloc(self, size, cached=False, gpu_readonly=False, align_log2=ALIGN_LOG2):
        if not isinstance(size, (int, np.integer)) or isinstance(size, bool) or size <= 0:
            raise ValueError(f"buffer size must be a positive number of bytes, got {size!r}")
        size = int(size)
        flags = K.memflags(K.KGSL_MEMFLAGS_USE_CPU_MAP, *([K.KGSL_MEMFLAGS_GPUREADONLY] if gpu_readonly else []),
                           cachemode=WRITEBACK if cached else WRITECOMBINE, align=align_log2)
        try:
            obj = kgsl.gpuobj_alloc(self.kernel, self.fd, size, flags)
        except IoctlError as e:
            if e.errno_value == errno.ENOMEM:
                raise OutOfMemory(size, self.in_use, str(e)) from None
            raise
        obj_id, mapsize, kept = int(obj.id), int(obj.mmapsize), int(obj.flags)
        try:
            mapping = self.kernel.mmap(self.fd, mapsize, K.mmap_offset(obj_id), PROT_READ | PROT_WRITE, MAP_SHARED)
        except BaseException:
            kgsl.gpuobj_free(self.kernel, self.fd, obj_id)
            raise
        try:
            info = kgsl.gpuobj_info(self.kernel, self.fd, obj_id)
            va = int(info.gpuaddr)
            if kept & K.KGSL_MEMFLAGS_USE_CPU_MAP and va != mapping.address:
                raise GPUError(f"GPU object {obj_id}: KGSL mapped it for the GPU at 0x{va:x} but for the CPU at "
                               f"0x{mapping.address:x}; SVM needs one address")
        except BaseException:
            self.kernel.munmap(mapping)
            kgsl.gpuobj_free(self.kernel, self.fd, obj_id)
            raise
        buf = Buffer(self, obj_id, va, size, mapsize, kept, mapping)
        self.live[va] = buf
        self.in_use += mapsize
        return buf

    def sync(self, buf, op, offset=0, length=None):
        length = buf.size - offset if length is None else length
        kgsl.gpuobj_sync(self.kernel, self.fd, buf.id, op | K.KGSL_GPUMEM_CACHE_RANGE, offset, length)

    def free(self, buf):
        """munmap, then GPUOBJ_FREE; both run even if one fails."""
        if buf.freed:
            return
        buf.freed = True
        self.live.pop(buf.va, None)
        self.in_use -= buf.alloc_size
        errors = []
        try:
            self.kernel.munmap(buf.mapping)
        except OSError as e:
            errors.append(e)
        try:
            kgsl.gpuobj_free(self.kernel, self.fd, buf.id)
        except IoctlError as e:
            errors.append(e)
        if errors:
            raise errors[0]

    def close(self):
        for buf in list(self.live.values()):
            self.free(buf)
