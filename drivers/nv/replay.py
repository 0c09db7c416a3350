"""Recorded launch sequences, replayed with one GPFIFO entry per submit.

    cb = dev.command_buffer()
    cb.add(prg["scale"], x, 2.0, grid=(n // 256,), block=(256,))
    cb.add(prg["add"], x, y, grid=(n // 256,), block=(256,))
    cb.submit(); cb.submit(wait=True)          # replay; wait=True returns the GPU time
    cb.update(0, z, 3.0)                       # new arguments for launch 0, in place

Recording writes every launch's constant buffer 0 and QMD, and a push buffer that sends them all
(SEND_PCAS with a host WFI between launches, so each sees the previous one's writes), into one
pinned buffer the GPU reads. A replay puts three GPFIFO entries on the compute channel: a short
prologue (waiting for the copy channel's last submission, and the start timestamp when timed), the
recorded push buffer as it is, and the timeline release. ``update`` rewrites one launch's
parameters in its constant buffer after the previous replay that reads them has finished.
"""
import numpy as np

import nv_ioctl as NV

from drivers.device import dims
from drivers.errors import GPUError
from drivers.nv.compute import launch_push
from drivers.nv.gpfifo import PushBuffer
from drivers.nv.memory import HOST, round_up
from drivers.replay import CommandBuffer as CommandBufferBase


class _Recorded:
    __slots__ = ("kernel", "args", "grid", "block", "shared", "params", "offset")

    def __init__(self, kernel, args, grid, block, shared, params):
        self.kernel, self.args, self.grid, self.block = kernel, list(args), grid, block
        self.shared, self.params, self.offset = shared, params, 0


class CommandBuffer(CommandBufferBase):
    def add(self, kernel, *args, grid=(1, 1, 1), block=(1, 1, 1), shared=0):
        """Record one launch (checked now, exactly as a direct launch would be)."""
        self._check_recording()
        grid, block = dims(grid, "grid"), dims(block, "block")
        grid, block, params = self.device.check_launch(kernel, args, grid, block, shared)
        return self._record(_Recorded(kernel, args, grid, block, shared, params))

    def _finalize(self):
        dev = self.device
        off = 0
        for r in self.launches:
            r.offset = off
            off += round_up(dev.launch_bytes(r.kernel, r.params), 256)
        push = PushBuffer()
        self.buffer = dev.memory.alloc(off + 4 * 16 * len(self.launches), HOST, low=True)
        qmds = [dev.write_launch(r.kernel, r.params, r.grid, r.block, r.shared, self.buffer, r.offset)
                for r in self.launches]
        for i, qmd_va in enumerate(qmds):
            if i:
                push.method(0, NV.NVC56F_WFI, 0)
            push.extend(launch_push(dev, qmd_va, copy_wait=False))
        self.push_offset = off
        if off + 4 * len(push) > self.buffer.size:
            raise GPUError(f"recorded push buffer of {len(push)} dwords does not fit the command buffer")
        self.buffer.view(np.uint32, off, len(push))[:] = push.dwords
        self.push_va, self.push_dwords = self.buffer.va + off, len(push)

    def submit(self, wait=False, timeout=None):
        """Replay every recorded launch; with ``wait`` return their GPU time in seconds."""
        dev = self.device
        dev._check_open()
        self.finalize()
        pre = PushBuffer()
        c = dev.copy_timeline
        if c.last_submitted:
            pre.acquire(c.address, c.last_submitted)
        if wait:
            pre.release(dev.start_stamp, 0, wfi=True)
        value = dev.compute.submit_recorded(pre, self.push_va, self.push_dwords, self.description)
        self.last_value = value
        if not wait:
            return None
        return dev.wait_launch(value, timeout)

    def update(self, index, *args):
        """New arguments for recorded launch ``index`` (checked as add() checks them)."""
        r = self._recorded(index)
        _, _, params = self.device.check_launch(r.kernel, args, r.grid, r.block, r.shared)
        if self.buffer is not None:
            self._idle()
            base = r.offset + r.kernel.param_base
            self.buffer.view(np.uint8, base, len(params))[:] = np.frombuffer(params, np.uint8)
        r.args, r.params = list(args), params

    def _idle(self):
        dev = self.device
        if dev.compute_timeline.value < self.last_value and self.last_value <= dev.compute_timeline.last_submitted:
            dev.wait(dev.compute_timeline, self.last_value)
