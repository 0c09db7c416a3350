"""Host memory behind GPU buffer objects.

A VRAM or GTT buffer is a memfd: the kernel side keeps one shared mapping of it (what the GPU VM
translates to) and a driver's mmap of the render node maps the same file again at the buffer's
VA, so CPU and GPU see the same bytes at the same address.  A memfd is sparse: a 24 GiB budget
costs nothing until pages are touched.  A USERPTR buffer wraps the driver's own memory in place.
"""
import mmap
import os

import numpy as np
from cffi import FFI

_ffi = FFI()
_ffi.cdef("int msync(void *addr, size_t length, int flags);")
_libc = _ffi.dlopen(None)
_MS_ASYNC = 1
PAGE_SIZE = 4096


class HostMemory:
    """``size`` bytes of shared anonymous memory, addressable as ``array`` (numpy uint8)."""

    def __init__(self, size, name="bo"):
        self.size = size
        self.fd = os.memfd_create(f"emu-{name}", os.MFD_CLOEXEC)
        try:
            os.ftruncate(self.fd, size)
            self._map = mmap.mmap(self.fd, size, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)
        except OSError:
            os.close(self.fd)
            raise
        self.array = np.frombuffer(self._map, dtype=np.uint8)
        self.address = _ffi.cast("uintptr_t", _ffi.from_buffer(self.array)).__int__()

    def release(self):
        """Drop the kernel's references; CPU mappings a driver still holds stay valid (as in Linux)."""
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1
        self.array = None       # the mmap object goes away with the last numpy view of it


class UserMemory:
    """Existing host memory at ``address`` (a USERPTR buffer): no copy, the GPU sees it in place."""

    fd = -1

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
