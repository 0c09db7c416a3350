"""What every vendor's Buffer shares: its size, numpy views of its CPU mapping, copies through the
device that handed it out, a free that waits for submitted work, and refusal once freed.

A subclass sets ``memory`` (the allocator with ``free(buf)``), ``va``, ``size``, ``mapping`` (a
``drivers.kernel.Mapping``, or None where the CPU cannot map the memory), ``device`` (set by the
device that hands the buffer out) and ``freed``.
"""
import numpy as np

from drivers.errors import GPUError


class Buffer:
    @property
    def nbytes(self):
        return self.size

    def view(self, dtype=np.uint8, offset=0, count=None):
        """A numpy array aliasing the buffer's bytes (CPU-visible memory only)."""
        self._check_live()
        if self.mapping is None:
            raise GPUError(f"buffer at 0x{self.va:x} is in {self.heap.name} ({self.heap.description}), which the CPU "
                           "cannot map; use copyin/copyout, or allocate with host=True or cpu_access=True")
        if count is None:
            count = (self.size - offset) // np.dtype(dtype).itemsize
        return self.mapping.view(dtype, offset, count)

    def copyin(self, src, offset=0):
        """Copy a numpy array (or bytes) from the host into the buffer at ``offset``."""
        self._check_live()
        self.device.copyin(self, src, offset)
        return self

    def copyout(self, dst, offset=0):
        """Copy ``dst.nbytes`` bytes starting at ``offset`` from the buffer into ``dst``."""
        self._check_live()
        self.device.copyout(dst, self, offset)
        return dst

    def free(self):
        """Release the memory, once the device has finished the work submitted so far (which
        may still read or write it)."""
        if not self.freed:
            if self.device is not None and not self.device.closed:
                self.device.synchronize()
            self.memory.free(self)

    def _check_live(self):
        if self.freed:
            raise GPUError(f"buffer at 0x{self.va:x} ({self.size} bytes) was already freed")
