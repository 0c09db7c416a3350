"""The GPU virtual memory of one process on the virtual GPU: VA -> host bytes, with permissions.

A mapping is made by MAP_MEMORY_TO_GPU and covers a whole buffer object (page-granular, as
amdgpu_vm_bo_map requires).  Everything the GPU touches goes through here: packet processors
read rings and write fences, the shader simulator does every global/flat/scalar access, and an
address outside every mapping is a MemoryFault naming the first byte that is not mapped.

Lookups are a bisect over the sorted mapping starts plus a one-entry cache of the last hit, so a
kernel streaming through one buffer pays one comparison per access.
"""
import bisect

import numpy as np

from drivers.emu.faults import NO_EXECUTE, NOT_PRESENT, READ_ONLY, MemoryFault

PAGE_SIZE = 4096


class VMRange:
    """One mapped buffer: [start, end) -> ``mem`` (numpy uint8 of end - start bytes)."""
    __slots__ = ("start", "end", "mem", "writable", "executable", "owner")

    def __init__(self, start, mem, writable, executable, owner):
        self.start, self.end, self.mem = start, start + mem.size, mem
        self.writable, self.executable, self.owner = writable, executable, owner

    def __repr__(self):
        perms = "r" + ("w" if self.writable else "-") + ("x" if self.executable else "-")
        return f"VMRange(0x{self.start:x}-0x{self.end:x} {perms})"


class GpuVM:
    """Page-granular GPU address space.  ``translate`` is the fast path; read/write cross buffers."""

    def __init__(self):
        self._starts = []       # sorted VMRange.start
        self._ranges = []       # same order
        self._last = None

    # -- mapping ------------------------------------------------------------------------------
    def map(self, va, mem, writable=True, executable=False, owner=None):
        if va % PAGE_SIZE or mem.size % PAGE_SIZE or not mem.size:
            raise ValueError(f"GPU VM mapping 0x{va:x}+{mem.size:#x} is not page-granular")
        if self.overlaps(va, mem.size):
            raise ValueError(f"GPU VM mapping 0x{va:x}+{mem.size:#x} overlaps an existing mapping")
        i = bisect.bisect_left(self._starts, va)
        self._starts.insert(i, va)
        self._ranges.insert(i, VMRange(va, mem, writable, executable, owner))

    def unmap(self, va):
        i = bisect.bisect_left(self._starts, va)
        if i == len(self._starts) or self._starts[i] != va:
            raise ValueError(f"no GPU VM mapping starts at 0x{va:x}")
        del self._starts[i], self._ranges[i]
        self._last = None

    def overlaps(self, va, size):
        i = bisect.bisect_right(self._starts, va + size - 1)
        return i > 0 and self._ranges[i - 1].end > va

    def lookup(self, va):
        """The mapping containing ``va`` or None."""
        r = self._last
        if r is not None and r.start <= va < r.end:
            return r
        i = bisect.bisect_right(self._starts, va)
        if i and va < self._ranges[i - 1].end:
            self._last = r = self._ranges[i - 1]
            return r
        return None

    def ranges(self):
        return list(self._ranges)

    def __len__(self):
        return len(self._ranges)

    # -- access -------------------------------------------------------------------------------
    def _check(self, r, va, write, execute):
        if write and not r.writable:
            raise MemoryFault(va, READ_ONLY, True)
        if execute and not r.executable:
            raise MemoryFault(va, NO_EXECUTE, False, "instruction fetch")

    def translate(self, va, nbytes, write=False, execute=False):
        """A numpy uint8 view of [va, va+nbytes) when it lies in one mapping.

        A range crossing into an adjacent mapping comes back as a copy for reads; a write across
        two mappings goes through :meth:`write`.  Anything unmapped raises MemoryFault at the
        first unmapped byte.
        """
        r = self._last
        if r is None or va < r.start or va + nbytes > r.end:
            r = self.lookup(va)
            if r is None:
                raise MemoryFault(va, NOT_PRESENT, write)
            if va + nbytes > r.end:
                return self._span(va, nbytes, write, execute)
        self._check(r, va, write, execute)
        off = va - r.start
        return r.mem[off:off + nbytes]

    def _span(self, va, nbytes, write, execute):
        parts, pos, end = [], va, va + nbytes
        while pos < end:
            r = self.lookup(pos)
            if r is None:
                raise MemoryFault(pos, NOT_PRESENT, write)
            self._check(r, pos, write, execute)
            stop = min(end, r.end)
            parts.append(r.mem[pos - r.start:stop - r.start])
            pos = stop
        if write:
            raise ValueError(f"a {nbytes}-byte GPU write at 0x{va:x} spans {len(parts)} buffers: use GpuVM.write")
        return np.concatenate(parts)

    def read(self, va, nbytes, execute=False):
        return self.translate(va, nbytes, False, execute).tobytes()

    def write(self, va, data):
        src = np.frombuffer(bytes(data), np.uint8) if not isinstance(data, np.ndarray) else data.view(np.uint8).ravel()
        self._walk(va, src.size, True)          # a faulting write changes nothing
        pos, done = va, 0
        while done < src.size:
            r = self.lookup(pos)
            step = min(src.size - done, r.end - pos)
            r.mem[pos - r.start:pos - r.start + step] = src[done:done + step]
            pos, done = pos + step, done + step

    def fill(self, va, pattern, nbytes):
        """Repeat ``pattern`` (bytes) over [va, va+nbytes); every page is checked before any write."""
        self._walk(va, nbytes, True)
        pat = np.frombuffer(bytes(pattern), np.uint8)
        pos, done = va, 0
        while done < nbytes:
            r = self.lookup(pos)
            step = min(nbytes - done, r.end - pos)
            phase = done % pat.size             # keep the pattern continuous across buffers
            r.mem[pos - r.start:pos - r.start + step] = np.resize(np.roll(pat, -phase), step)
            pos, done = pos + step, done + step

    def _walk(self, va, nbytes, write):
        """Raise the MemoryFault an access of [va, va+nbytes) would take, touching nothing."""
        pos, end = va, va + nbytes
        while pos < end:
            r = self.lookup(pos)
            if r is None:
                raise MemoryFault(pos, NOT_PRESENT, write)
            self._check(r, pos, write, False)
            pos = r.end

    def view(self, va, dtype, count=1, write=False):
        """A typed view (``va`` must be aligned to the type, as the hardware requires)."""
        dtype = np.dtype(dtype)
        if va % dtype.itemsize:
            raise ValueError(f"0x{va:x} is not {dtype.itemsize}-byte aligned")
        return self.translate(va, dtype.itemsize * count, write).view(dtype)

    def u32(self, va):
        return int(self.view(va, np.uint32)[0])

    def u64(self, va):
        return int(self.view(va, np.uint64)[0])

    def i64(self, va):
        return int(self.view(va, np.int64)[0])

    def write_u32(self, va, value):
        self.view(va, np.uint32, 1, True)[0] = value & 0xFFFFFFFF

    def write_u64(self, va, value):
        self.view(va, np.uint64, 1, True)[0] = value & 0xFFFFFFFFFFFFFFFF
