"""Copies through the copy engine: host <-> GPU through pinned staging buffers, GPU <-> GPU directly.

    value = copier.copy(dst_va, src_va, nbytes)      # LAUNCH_DMA, released on the copy timeline

Host data goes through two pinned host staging buffers in turn (the copy of one overlaps the CPU's
memcpy into the other); a staging buffer is reused once the copy that read (or wrote) it has
completed.  Before a copy reads or writes memory the compute channel may still be using, the copy
channel waits (on the GPU) for the compute timeline's last submitted value.
"""
import numpy as np

import nv_ioctl as NV

from drivers.nv.gpfifo import SUBCH_COPY, PushBuffer
from drivers.nv.memory import HOST

STAGING_BYTES = 4 << 20
MAX_LINE = (1 << 32) - 4096            # LINE_LENGTH_IN is 32 bits; split bigger copies
_LAUNCH = (NV.NVC7B5_LAUNCH_DMA_DATA_TRANSFER_TYPE.num(NV.NVC7B5_LAUNCH_DMA_DATA_TRANSFER_TYPE_NON_PIPELINED)
           | NV.NVC7B5_LAUNCH_DMA_FLUSH_ENABLE.num(NV.NVC7B5_LAUNCH_DMA_FLUSH_ENABLE_TRUE)
           | NV.NVC7B5_LAUNCH_DMA_SRC_MEMORY_LAYOUT.num(NV.NVC7B5_LAUNCH_DMA_SRC_MEMORY_LAYOUT_PITCH)
           | NV.NVC7B5_LAUNCH_DMA_DST_MEMORY_LAYOUT.num(NV.NVC7B5_LAUNCH_DMA_DST_MEMORY_LAYOUT_PITCH))


def copy_methods(pb, dst, src, nbytes):
    """LAUNCH_DMA of `nbytes` from `src` to `dst` (virtual, pitch layout), split at 4 GiB."""
    done = 0
    while done < nbytes:
        n = min(MAX_LINE, nbytes - done)
        s, d = src + done, dst + done
        pb.method(SUBCH_COPY, NV.NVC7B5_OFFSET_IN_UPPER, s >> 32, s & 0xFFFFFFFF, d >> 32, d & 0xFFFFFFFF)
        pb.method(SUBCH_COPY, NV.NVC7B5_LINE_LENGTH_IN, n)
        pb.method(SUBCH_COPY, NV.NVC7B5_LAUNCH_DMA, _LAUNCH)
        done += n
    return pb


class Copier:
    def __init__(self, dev, channel):
        self.dev, self.channel = dev, channel
        self.timeline = channel.timeline
        self.staging = [dev.memory.alloc(STAGING_BYTES, HOST, low=True) for _ in range(2)]
        self.staging_value = [0, 0]
        self.turn = 0

    def _push(self, after_compute=True):
        pb = PushBuffer()
        c = self.dev.compute_timeline
        if after_compute and c.last_submitted:
            pb.acquire(c.address, c.last_submitted)
        return pb

    def copy(self, dst, src, nbytes, what="copy"):
        pb = copy_methods(self._push(), dst, src, nbytes)
        return self.channel.submit(pb, what)

    def _stage(self):
        i = self.turn
        self.turn ^= 1
        if self.timeline.value < self.staging_value[i]:
            self.dev.wait(self.timeline, self.staging_value[i])
        return i, self.staging[i]

    def copyin(self, buf, offset, src):
        """Host bytes -> buffer, through the staging buffers; returns once every byte is in place."""
        last, done = 0, 0
        while done < src.size:
            n = min(STAGING_BYTES, src.size - done)
            i, stage = self._stage()
            stage.view(np.uint8, 0, n)[:] = src[done:done + n]
            last = self.copy(buf.va + offset + done, stage.va, n, ("copyin of {} bytes to 0x{:x}", n, buf.va))
            self.staging_value[i] = last
            done += n
        if last:
            self.dev.wait(self.timeline, last)

    def copyout(self, out, buf, offset):
        done = 0
        while done < out.size:
            n = min(STAGING_BYTES, out.size - done)
            i, stage = self._stage()
            value = self.copy(stage.va, buf.va + offset + done, n, ("copyout of {} bytes from 0x{:x}", n, buf.va))
            self.staging_value[i] = value
            self.dev.wait(self.timeline, value)
            out[done:done + n] = stage.view(np.uint8, 0, n)
            done += n

    def free(self):
        for s in self.staging:
            s.free()
