"""Host memory behind GPU buffer objects.

A VRAM or GTT buffer is shared anonymous memory: the kernel side keeps one mapping of it (what the
GPU VM translates to), and a driver's mmap of the render node gets a second mapping of the same
pages at the buffer's VA (``mremap`` with old_size 0 duplicates a shared mapping), so CPU and GPU
see the same bytes at the same address without holding a file descriptor per buffer.  The pages
are reserved lazily (MAP_NORESERVE): a 24 GiB budget costs nothing until touched.  The kernel-side
mapping goes away when the last numpy view of it does.  A USERPTR buffer wraps the driver's own
memory in place.
"""
import errno
import os

import numpy as np

from drivers._libc import ffi as _ffi
from drivers.kernel import PROT_READ, PROT_WRITE, Mapping

_libc = _ffi.dlopen(None)          # the declarations: drivers/_libc.py (parsed ahead of time)
_MAP_FAILED = 2**64 - 1
_MAP_SHARED, _MAP_PRIVATE, _MAP_ANONYMOUS, _MAP_NORESERVE = 0x01, 0x02, 0x20, 0x4000
_MREMAP_MAYMOVE, _MREMAP_FIXED = 1, 2
_MS_ASYNC = 1
PAGE_SIZE = 4096


def _check(ptr, what):
    address = int(_ffi.cast("uintptr_t", ptr))
    if address == _MAP_FAILED:
        err = _ffi.errno
        raise OSError(err, f"{what}: {os.strerror(err)}")
    return address


class HostMemory:
    """``size`` bytes of shared anonymous memory, addressable as ``array`` (numpy uint8)."""

    def __init__(self, size, name="bo"):
        self.size, self.name = size, name
        self.address = _check(_libc.mmap(_ffi.NULL, size, PROT_READ | PROT_WRITE,
                                         _MAP_SHARED | _MAP_ANONYMOUS | _MAP_NORESERVE, -1, 0),
                              f"host memory for {name} ({size:#x} bytes)")
        # unmapped when the last view (GPU VM, queue rings...) lets go of it
        ptr = _ffi.gc(_ffi.cast("char *", self.address), lambda p, n=size: _libc.munmap(p, n))
        self.array = np.frombuffer(_ffi.buffer(ptr, size), dtype=np.uint8)

    def map_at(self, offset, length, prot=PROT_READ | PROT_WRITE, address=None):
        """Another CPU mapping of [offset, offset+length) -> Mapping (at ``address`` if given)."""
        if offset % PAGE_SIZE or offset + length > self.size or length <= 0:
            raise OSError(errno.EINVAL, f"{length:#x} bytes at +{offset:#x} do not fit {self.name} ({self.size:#x})")
        flags = _MREMAP_MAYMOVE | (_MREMAP_FIXED if address else 0)
        src = _ffi.cast("void *", self.address + offset)
        if address:
            new = _libc.mremap(src, 0, length, flags, _ffi.cast("void *", address))
        else:
            new = _libc.mremap(src, 0, length, flags)
        where = _check(new, f"mapping {self.name}")
        if prot != PROT_READ | PROT_WRITE and _libc.mprotect(_ffi.cast("void *", where), length, prot) != 0:
            err = _ffi.errno
            _libc.munmap(_ffi.cast("void *", where), length)
            raise OSError(err, f"mprotect of {self.name}: {os.strerror(err)}")
        return Mapping(where, length if prot & (PROT_READ | PROT_WRITE) else 0)

    def release(self):
        """Drop the kernel's reference; CPU mappings a driver still holds stay valid (as in Linux)."""
        self.array = None


class UserMemory:
    """Existing host memory at ``address`` (a USERPTR buffer): no copy, the GPU sees it in place."""

    def __init__(self, address, size):
        self.address, self.size = address, size
        self.array = np.frombuffer(_ffi.buffer(_ffi.cast("char *", address), size), dtype=np.uint8)

    def release(self):
        self.array = None


def host_range_mapped(address, size):
    """Whether [address, address+size) is mapped in this process (msync fails with ENOMEM if not)."""
    if address <= 0 or size <= 0 or address % PAGE_SIZE:
        return False
    return _libc.msync(_ffi.cast("void *", address), size, _MS_ASYNC) == 0



def reserve_aligned(length, align):
    """The address of ``length`` bytes of address space aligned to ``align``, reserved (PROT_NONE)
    so a MAP_FIXED or MREMAP_FIXED mapping can take it; the alignment slack is given back."""
    size = length + align
    address = _check(_libc.mmap(_ffi.NULL, size, 0, _MAP_PRIVATE | _MAP_ANONYMOUS | _MAP_NORESERVE, -1, 0),
                     f"reserving {size:#x} bytes of address space")
    start = (address + align - 1) // align * align
    for lo, hi in ((address, start), (start + length, address + size)):
        if hi > lo:
            _libc.munmap(_ffi.cast("void *", lo), hi - lo)
    return start
