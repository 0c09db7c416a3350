"""Recorded launch sequences, replayed with one GPU_COMMAND per submit.

    cb = dev.command_buffer()
    cb.add(prg["scale"], x, y, 2.0, grid=(n // 64,))
    cb.add(prg["vadd"], x, y, z, grid=(n // 64,))
    cb.submit(); cb.submit(wait=True)          # replay; wait=True returns the GPU time
    cb.update(0, y, x, 3.0)                    # new arguments for launch 0, in place

Recording writes every launch's const image and IBO descriptors, and the command stream that
programs and dispatches them all, into one GPU buffer; a replay submits that stream as the one
IB of a GPU_COMMAND (a timed replay adds two small IBs around it that read the always-on
counter). ``update`` rewrites one launch's const image and descriptors after the previous
replay that reads them has finished.
"""
import numpy as np

from drivers.device import dims
from drivers.errors import GPUError
from drivers.qcom import pm4
from drivers.qcom.compute import ALWAYS_ON_HZ, dispatch_words, ibo_words, program_words
from drivers.replay import CommandBuffer as CommandBufferBase


class _Recorded:
    __slots__ = ("kernel", "args", "grid", "block", "consts_off", "ibo_off", "nibo")

    def __init__(self, kernel, args, grid, block):
        self.kernel, self.args, self.grid, self.block = kernel, list(args), grid, block
        self.consts_off = self.ibo_off = self.nibo = 0


class CommandBuffer(CommandBufferBase):
    def __init__(self, device):
        super().__init__(device)
        self._private = None

    def add(self, kernel, *args, grid=(1, 1, 1), block=None):
        """Record one launch (its arguments are checked now, as a direct launch checks them)."""
        self._check_recording()
        if kernel.program.device is not self.device:
            raise GPUError(f"kernel {kernel.name} was loaded on another device")
        grid = dims(grid, "grid")
        block = kernel.localsize if block is None else dims(block, "block")
        kernel.pack(args, grid)
        return self._record(_Recorded(kernel, args, grid, block))

    def _layout(self):
        off = 0
        for r in self.launches:
            r.consts_off = off
            off += -(-r.kernel.constlen * 16 // 64) * 64
            r.nibo = len(r.kernel.bufs)
            r.ibo_off = off
            off += r.nibo * 64
        return off

    def _finalize(self):
        data_bytes = self._layout()
        ib_bound = sum(400 for _ in self.launches) * 4           # words per launch, generously
        self.ib_offset = -(-data_bytes // 256) * 256
        self.buffer = self.device.alloc(self.ib_offset + ib_bound)
        self.bytes = self.buffer.view()
        for r in self.launches:
            self._pack(r)
        self._build()

    def _pack(self, r):
        words, buffers = r.kernel.pack(r.args, r.grid)
        self.bytes[r.consts_off:r.consts_off + words.nbytes] = words.view(np.uint8)
        if buffers:
            ibo = np.array(ibo_words(buffers), np.uint32)
            self.bytes[r.ibo_off:r.ibo_off + ibo.nbytes] = ibo.view(np.uint8)

    def _build(self):
        dev, va = self.device, self.buffer.va
        words = []
        self._private = {}
        for r in self.launches:
            pva = dev.private_va(r.kernel)
            self._private[id(r.kernel)] = pva
            words += program_words(r.kernel, pva)
            words += dispatch_words(r.kernel, va + r.consts_off, va + r.ibo_off, r.nibo, r.grid, r.block,
                                    flush_va=dev.flush_va)
        capacity = (self.buffer.size - self.ib_offset) // 4
        if len(words) > capacity:
            raise GPUError(f"recorded command stream of {len(words)} dwords exceeds the {capacity}-dword buffer")
        self.buffer.view(np.uint32, self.ib_offset, len(words))[:] = words
        self.ib_va, self.ib_dwords = va + self.ib_offset, len(words)

    def submit(self, wait=False, timeout=None):
        """Replay every recorded launch; with ``wait`` return their GPU time in seconds."""
        dev = self.device
        dev._check_open()
        if self.buffer is None:
            self.finalize()
        if any(dev.private_va(r.kernel) != self._private.get(id(r.kernel)) for r in self.launches):
            self._build()                                 # private memory moved since recording
        q = dev.queue

        def go():
            ibs = [(self.ib_va, self.ib_dwords)]
            if wait:
                start = pm4.reg_to_mem64(pm4.CP_ALWAYS_ON_COUNTER, dev.timestamps_va)
                end = pm4.pkt7(pm4.CP_WAIT_FOR_IDLE) + pm4.reg_to_mem64(pm4.CP_ALWAYS_ON_COUNTER, dev.timestamps_va + 8)
                ibs = [(q.put(start), len(start))] + ibs + [(q.put(end), len(end))]
            return q.submit(ibs, self.description)
        self.last_value = dev._guard(go)
        if not wait:
            return None
        dev._wait(self.last_value, timeout)
        start, end = int(dev.timestamps[0]), int(dev.timestamps[1])
        return (end - start) / ALWAYS_ON_HZ

    def update(self, index, *args):
        """New arguments for recorded launch ``index`` (same count and kinds)."""
        r = self._recorded(index)
        r.kernel.pack(args, r.grid)
        r.args = list(args)
        if self.buffer is None:
            return
        self._idle()                                      # the previous replay still reads them
        self._pack(r)

    def _idle(self):
        if self.device.timeline.value < self.last_value:
            self.device._wait(self.last_value)
