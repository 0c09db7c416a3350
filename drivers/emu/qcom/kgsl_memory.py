"""GPU memory in the virtual KGSL: GPU objects, their mmap at ``id << 12``, cache maintenance.

Follows the msm-4.9 KGSL (kgsl.c): GPUOBJ_ALLOC and GPUMEM_ALLOC_ID keep the flags they know
and drop the rest silently (the caller sees what it got), refuse size 0 or above 4 GiB with
EINVAL and SECURE with EOPNOTSUPP (no secure MMU here), cap the alignment at 32 MiB and turn
WRITETHROUGH into WRITEBACK (arm64). Ids start at 1. An object with KGSL_MEMFLAGS_USE_CPU_MAP
has no GPU address until it is mapped: its mmap picks the CPU address (aligned as MEMALIGN
asks, up to 2 MiB) and the GPU maps it at the same address (SVM); the mmap length must be the
object's footprint (ERANGE), and a second mmap is EBUSY. Other objects get a GPU address when
allocated. Freeing an id makes it unknown at once; a still-mapped object lives until munmap.
GPUOBJ_FREE with KGSL_GPUOBJ_FREE_ON_EVENT frees when a context timestamp retires.

Cache modes are emulated, not just recorded: a WRITEBACK object that is not IOCOHERENT has a
CPU view separate from what the GPU sees, as a non-coherent CPU cache would. CPU writes reach
the GPU only through a cache clean (GPUOBJ_SYNC / GPUMEM_SYNC_CACHE with CACHE_TO_GPU), GPU
writes reach the CPU only through an invalidate (CACHE_FROM_GPU); a driver that forgets one
sees stale data here, as it would on the phone. WRITECOMBINE and UNCACHED mappings, and
IOCOHERENT ones, share the GPU's bytes.
"""
import errno

import kgsl_ioctl as K
from drivers.emu.memory import PAGE_SIZE, HostMemory, reserve_aligned
from drivers.kernel import PROT_READ, PROT_WRITE, RealKernel

MAX_OBJECT = 0xFFFFFFFF                   # "For now only allow allocations up to 4G"
KGSL_MAX_ALIGN_SHIFT = 25                 # 32 MiB
GPU_ONLY_BASE = 0x1000_0000_0000          # GPU addresses of objects without USE_CPU_MAP
ALLOC_FLAGS = (K.KGSL_MEMFLAGS_GPUREADONLY | K.KGSL_CACHEMODE_MASK | K.KGSL_MEMTYPE_MASK | K.KGSL_MEMALIGN_MASK
               | K.KGSL_MEMFLAGS_USE_CPU_MAP | K.KGSL_MEMFLAGS_SECURE | K.KGSL_MEMFLAGS_FORCE_32BIT
               | K.KGSL_MEMFLAGS_IOCOHERENT)
MEMORY_BUDGET = 6 << 30                   # what a Snapdragon 845 phone leaves a process, roughly

_host = RealKernel()


def _round(n, align=PAGE_SIZE):
    return (n + align - 1) // align * align


class MemEntry:
    """kgsl_mem_entry: one GPU object of the process."""

    def __init__(self, obj_id, size, flags, mem):
        self.id, self.size, self.flags, self.mem = obj_id, size, flags, mem
        self.gpuaddr = 0
        self.mapping = None              # the process's CPU mapping (at most one)
        self.cpu = None                  # separate CPU view of a cached, non-coherent object
        self.freed = False
        self.metadata = b""
        if self.cached:
            self.cpu = HostMemory(size, f"CPU view of GPU object {obj_id}")

    @property
    def cachemode(self):
        return (self.flags & K.KGSL_CACHEMODE_MASK) >> K.KGSL_CACHEMODE_SHIFT

    @property
    def cached(self):
        return self.cachemode in (K.KGSL_CACHEMODE_WRITEBACK, K.KGSL_CACHEMODE_WRITETHROUGH) and \
            not self.flags & K.KGSL_MEMFLAGS_IOCOHERENT

    @property
    def svm(self):
        return bool(self.flags & K.KGSL_MEMFLAGS_USE_CPU_MAP)

    @property
    def align(self):
        return 1 << max(12, (self.flags & K.KGSL_MEMALIGN_MASK) >> K.KGSL_MEMALIGN_SHIFT)

    def sync(self, op, offset, length):
        """Cache maintenance on [offset, offset + length): clean copies the CPU view to the GPU's
        bytes, invalidate the GPU's bytes to the CPU view."""
        if self.cpu is None:
            return
        end = min(self.size, offset + length)
        if offset >= end:
            return
        if op & K.KGSL_GPUMEM_CACHE_CLEAN:
            self.mem.array[offset:end] = self.cpu.array[offset:end]
        if op & K.KGSL_GPUMEM_CACHE_INV:
            self.cpu.array[offset:end] = self.mem.array[offset:end]


class MemoryHandlers:
    """The memory ioctls of KgslFile (self.dev is the KgslDevice, self.fail raises)."""

    # -- allocation ------------------------------------------------------------------------------
    def _alloc_entry(self, size, flags, what):
        flags &= ALLOC_FLAGS
        if flags & K.KGSL_MEMFLAGS_SECURE:
            self.fail(errno.EOPNOTSUPP, f"{what}: secure memory needs a secure MMU, which the virtual GPU has not")
        if (flags & K.KGSL_MEMALIGN_MASK) >> K.KGSL_MEMALIGN_SHIFT >= KGSL_MAX_ALIGN_SHIFT:
            flags = (flags & ~K.KGSL_MEMALIGN_MASK) | KGSL_MAX_ALIGN_SHIFT << K.KGSL_MEMALIGN_SHIFT
        if size == 0 or size > MAX_OBJECT:
            self.fail(errno.EINVAL, f"{what}: size {size} (objects are 1 byte to 4 GiB)")
        if (flags & K.KGSL_CACHEMODE_MASK) >> K.KGSL_CACHEMODE_SHIFT == K.KGSL_CACHEMODE_WRITETHROUGH:
            flags = (flags & ~K.KGSL_CACHEMODE_MASK) | K.KGSL_CACHEMODE_WRITEBACK << K.KGSL_CACHEMODE_SHIFT
        dev = self.dev
        size = _round(size)
        if dev.memory_used + size > dev.memory_budget:
            self.fail(errno.ENOMEM, f"{what}: {size} bytes do not fit ({dev.memory_used} of {dev.memory_budget} "
                                    "bytes in use)")
        entry = MemEntry(dev.next_id, size, flags, HostMemory(size, f"GPU object {dev.next_id}"))
        dev.next_id += 1
        if not entry.svm:
            align = max(entry.align, PAGE_SIZE)
            entry.gpuaddr = _round(dev.gpu_only_next, align)
            dev.gpu_only_next = entry.gpuaddr + size + PAGE_SIZE          # a guard gap between objects
            dev.gpu.vm.map(entry.gpuaddr, entry.mem.array, writable=not flags & K.KGSL_MEMFLAGS_GPUREADONLY,
                           executable=True, owner=entry)
        dev.entries[entry.id] = entry
        dev.memory_used += size
        return entry

    def gpuobj_alloc(self, a):
        entry = self._alloc_entry(a.size, a.flags, "IOCTL_KGSL_GPUOBJ_ALLOC")
        if a.metadata_len and a.metadata:
            from .kgsl import user_buffer
            n = min(a.metadata_len, 63)
            entry.metadata = bytes(user_buffer(a.metadata, n, "IOCTL_KGSL_GPUOBJ_ALLOC metadata"))
        a.size, a.flags, a.mmapsize, a.id = entry.size, entry.flags, entry.size, entry.id

    def gpumem_alloc_id(self, a):
        entry = self._alloc_entry(a.size, a.flags, "IOCTL_KGSL_GPUMEM_ALLOC_ID")
        a.id, a.flags, a.size, a.mmapsize, a.gpuaddr = entry.id, entry.flags, entry.size, entry.size, entry.gpuaddr

    def _entry(self, obj_id, what):
        entry = self.dev.entries.get(obj_id)
        if entry is None or obj_id == 0:
            self.fail(errno.EINVAL, f"{what}: no GPU object has id {obj_id}")
        return entry

    # -- freeing ---------------------------------------------------------------------------------
    def gpuobj_free(self, a):
        what = "IOCTL_KGSL_GPUOBJ_FREE"
        entry = self._entry(a.id, what)
        if not a.flags & K.KGSL_GPUOBJ_FREE_ON_EVENT:
            self.free_entry(entry)
            return
        if a.type != K.KGSL_GPU_EVENT_TIMESTAMP:
            self.fail(errno.EINVAL, f"{what}: free on event type {a.type}; the virtual KGSL frees on timestamps "
                                    "(KGSL_GPU_EVENT_TIMESTAMP)")
        from .kgsl import user_buffer
        size = K.ffi.sizeof("struct kgsl_gpu_event_timestamp")
        event = K.ffi.new("struct kgsl_gpu_event_timestamp *")
        n = min(size, a.len)
        K.ffi.buffer(event)[:n] = user_buffer(a.priv, n, what)[:n]
        ctx = self.dev.contexts.get(event.context_id) if event.context_id else None
        if ctx is None or ctx.owner is not self:
            self.fail(errno.EINVAL, f"{what}: event context {event.context_id} does not exist")
        if ctx.retired >= event.timestamp:
            self.free_entry(entry)
            return
        del self.dev.entries[entry.id]               # the id is gone now, the memory on retire
        ctx.frees.append((event.timestamp, entry))

    def gpumem_free_id(self, a):
        self.free_entry(self._entry(a.id, "IOCTL_KGSL_GPUMEM_FREE_ID"))

    def free_entry(self, entry):
        self.dev.entries.pop(entry.id, None)
        entry.freed = True
        if entry.mapping is None:
            self.destroy_entry(entry)
        else:
            self.dev.zombies.add(entry)          # the mapping keeps it alive until munmap

    def destroy_entry(self, entry):
        dev = self.dev
        if entry.gpuaddr and dev.gpu.vm.lookup(entry.gpuaddr) is not None:
            dev.gpu.vm.unmap(entry.gpuaddr)
        dev.memory_used -= entry.size
        entry.mem.release()
        if entry.cpu is not None:
            entry.cpu.release()

    # -- information -----------------------------------------------------------------------------
    def gpuobj_info(self, a):
        entry = self._entry(a.id, "IOCTL_KGSL_GPUOBJ_INFO")
        a.gpuaddr, a.flags, a.size, a.va_len = entry.gpuaddr, entry.flags, entry.size, entry.size
        a.va_addr = entry.mapping.address if entry.mapping is not None else 0

    def gpumem_get_info(self, a):
        what = "IOCTL_KGSL_GPUMEM_GET_INFO"
        if a.id:
            entry = self._entry(a.id, what)
        else:
            entry = next((e for e in self.dev.entries.values()
                          if a.gpuaddr and e.gpuaddr <= a.gpuaddr < e.gpuaddr + e.size), None)
            if entry is None:
                self.fail(errno.EINVAL, f"{what}: no GPU object at 0x{a.gpuaddr:x}")
        a.gpuaddr, a.id, a.flags, a.size, a.mmapsize = entry.gpuaddr, entry.id, entry.flags, entry.size, entry.size
        a.useraddr = entry.mapping.address if entry.mapping is not None else 0

    # -- cache maintenance -----------------------------------------------------------------------
    def _sync_op(self, entry, op, offset, length, what):
        if not op & (K.KGSL_GPUMEM_CACHE_CLEAN | K.KGSL_GPUMEM_CACHE_INV):
            self.fail(errno.EINVAL, f"{what}: op 0x{op:x} is neither a clean nor an invalidate")
        if not op & K.KGSL_GPUMEM_CACHE_RANGE:
            offset, length = 0, entry.size
        entry.sync(op, offset, length)

    def gpuobj_sync(self, a):
        what = "IOCTL_KGSL_GPUOBJ_SYNC"
        if a.count == 0 or a.count > 128:
            self.fail(errno.EINVAL, f"{what}: count {a.count} (1..128)")
        from .kgsl import user_buffer
        size = K.ffi.sizeof("struct kgsl_gpuobj_sync_obj")
        raw = user_buffer(a.objs, a.obj_len * a.count, what) if a.obj_len else None
        if raw is None:
            self.fail(errno.EINVAL, f"{what}: obj_len is 0")
        objs = []
        for i in range(a.count):
            obj = K.ffi.new("struct kgsl_gpuobj_sync_obj *")
            n = min(size, a.obj_len)
            K.ffi.buffer(obj)[:n] = raw[i * a.obj_len:i * a.obj_len + n]
            objs.append(obj)
        for obj in objs:                           # an unknown id is skipped, as KGSL does
            entry = self.dev.entries.get(obj.id)
            if entry is not None:
                self._sync_op(entry, obj.op, obj.offset, obj.length, what)

    def gpumem_sync_cache(self, a):
        what = "IOCTL_KGSL_GPUMEM_SYNC_CACHE"
        entry = self.dev.entries.get(a.id) if a.id else next(
            (e for e in self.dev.entries.values() if a.gpuaddr and e.gpuaddr <= a.gpuaddr < e.gpuaddr + e.size), None)
        if entry is None:
            self.fail(errno.EINVAL, f"{what}: no GPU object with id {a.id} / at 0x{a.gpuaddr:x}")
        self._sync_op(entry, a.op, a.offset, a.length, what)

    # -- mmap ------------------------------------------------------------------------------------
    def mmap(self, kernel, length, offset, prot, flags, address):
        from .kgsl import MEMSTORE_GPUADDR, KgslError
        dev = self.dev
        if offset == MEMSTORE_GPUADDR:
            if prot & PROT_WRITE:
                raise KgslError(errno.EPERM, "the memstore can only be mapped read-only")
            if length != dev.memstore.size:
                raise KgslError(errno.EINVAL, f"memstore mapping of {length} bytes; it is {dev.memstore.size}")
            m = dev.memstore.map_at(0, length, PROT_READ, address)
            m.owner = self
            self.mappings.append(m)
            return m
        entry = dev.entries.get(offset >> 12)
        if entry is None or offset % PAGE_SIZE:
            raise KgslError(errno.EINVAL, f"mmap offset 0x{offset:x}: no GPU object has id {offset >> 12}")
        if entry.mapping is not None:
            raise KgslError(errno.EBUSY, f"GPU object {entry.id} is already mapped at 0x{entry.mapping.address:x}")
        if length != entry.size:
            raise KgslError(errno.ERANGE, f"mmap of GPU object {entry.id}: length {length}, the object's footprint "
                                          f"is {entry.size}")
        backing = entry.cpu if entry.cpu is not None else entry.mem
        if entry.svm:
            m = self._svm_map(entry, backing, length, prot, address)
        else:
            m = backing.map_at(0, length, prot, address)
        m.owner = self
        entry.mapping = m
        self.mappings.append(m)
        return m

    def _svm_map(self, entry, backing, length, prot, hint):
        """Map at a CPU address aligned as the object asks, and give the GPU the same address."""
        from .kgsl import KgslError
        align = min(entry.align, 2 << 20)
        if hint:
            if hint % align:
                raise KgslError(errno.EINVAL, f"SVM address 0x{hint:x} is not {align}-byte aligned")
            m = backing.map_at(0, length, prot, hint)
        elif align <= PAGE_SIZE:
            m = backing.map_at(0, length, prot)
        else:
            m = backing.map_at(0, length, prot, reserve_aligned(length, align))
        if self.dev.gpu.vm.overlaps(m.address, length):
            _host.munmap(m)
            raise KgslError(errno.ENOMEM, f"no GPU address range at 0x{m.address:x} for GPU object {entry.id}")
        entry.gpuaddr = m.address
        self.dev.gpu.vm.map(entry.gpuaddr, entry.mem.array, writable=not entry.flags & K.KGSL_MEMFLAGS_GPUREADONLY,
                            executable=True, owner=entry)
        return m

    def unmap(self, mapping):
        """munmap of a KGSL mapping (kgsl_gpumem_vm_close)."""
        _host.munmap(mapping)
        if mapping in self.mappings:
            self.mappings.remove(mapping)
        if not self.mappings and self not in self.dev.files and self in self.dev.all_files:
            self.dev.all_files.remove(self)
        for entry in list(self.dev.entries.values()) + list(self.dev.zombies):
            if entry.mapping is mapping:
                entry.mapping = None
                if entry.freed:
                    self.dev.zombies.discard(entry)
                    self.destroy_entry(entry)

