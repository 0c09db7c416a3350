"""Recorded launch sequences, replayed with one INDIRECT_BUFFER per submit.

    cb = dev.command_buffer()
    cb.add(prg["scale"], x, 2.0, grid=(n // 64, 1, 1), block=(64, 1, 1))
    cb.add(prg["add"], x, y, grid=(n // 64, 1, 1), block=(64, 1, 1))
    cb.submit(); cb.submit(wait=True)          # replay; wait=True returns the GPU time
    cb.update(0, z, 3.0)                       # patch launch 0's arguments in place

Recording packs every launch's kernargs into one GPU buffer and writes the PM4 that programs and
dispatches them into an indirect buffer next to it. A replay then only puts the
INDIRECT_BUFFER packet and the timeline signal into the ring. On an AQL queue the recorded
dispatch packets are copied into the ring as a block instead (the AQL packet processor only
dispatches from its own ring). ``update`` rewrites just the explicit arguments of one launch,
after the previous replay that reads them has finished.
"""
from array import array

import numpy as np

from drivers.amd import aql
from drivers.amd.compute import GPU_CLOCK_HZ, SIGNAL_SLOT_BYTES, SIGNAL_SLOT_WORDS, SIGNAL_VALUE_WORD, Launch
from drivers.amd.memory import round_up
from drivers.errors import GPUError, GPUFault, GPUHang, HardwareException
from drivers.replay import CommandBuffer as CommandBufferBase


class _Recorded:
    __slots__ = ("kernel", "layout", "offset", "size", "grid", "block", "args", "lds")

    def __init__(self, kernel, layout, grid, block, args):
        self.kernel, self.layout, self.grid, self.block, self.args = kernel, layout, grid, block, args
        self.offset = self.size = 0
        self.lds = kernel.group_segment_size


class CommandBuffer(CommandBufferBase):
    def __init__(self, device):
        super().__init__(device)
        self._scratch_va = None

    def add(self, kernel, *args, grid=(1, 1, 1), block=(1, 1, 1)):
        """Record one launch (checked now, exactly as a direct launch would be)."""
        from drivers.amd.device import _dims, check_shape
        self._check_recording()
        if kernel.refusal is not None:
            raise kernel.refusal
        if kernel.program.device is not self.device:
            raise GPUError(f"kernel {kernel.name} was loaded on {kernel.program.device!r}, not on {self.device!r}")
        if kernel.program.buffer.freed:
            raise GPUError(f"kernel {kernel.name}: its program was freed (code at 0x{kernel.code_va:x} is gone)")
        grid, block = _dims(grid, "grid"), _dims(block, "block")
        check_shape(kernel, grid, block)
        layout = kernel.layout_for(args)
        layout.check_count(args)
        for spec, v in zip(layout.args, args):
            layout.convert(spec, v, self.device)
        if kernel.needs_scratch:
            self.device.ensure_scratch(kernel)
        return self._record(_Recorded(kernel, layout, grid, block, list(args)))

    def _finalize(self):
        dev = self.device
        off = 0
        for r in self.launches:
            r.offset = off
            r.size = round_up(max(r.layout.size, 1), 64)
            off += r.size + (aql.PACKET_BYTES if r.kernel.needs_dispatch_ptr else 0)
        self.kernarg_bytes = off
        # the IB: generous upper bound per launch (register programming + dispatch ~ 70 dwords)
        self.ib_offset = round_up(off, 256)
        total = self.ib_offset + 128 * 4 * len(self.launches)
        self.buffer = dev.alloc(total, uncached=True)
        self.bytes = self.buffer.view()
        for r in self.launches:
            self._pack(r)
        self._build()

    def _launch(self, r):
        va = self.buffer.va + r.offset
        return Launch(r.kernel, va, va + r.size if r.kernel.needs_dispatch_ptr else 0, r.grid, r.block, r.lds)

    def _pack(self, r):
        mem = self.bytes
        end = r.offset + r.size + (aql.PACKET_BYTES if r.kernel.needs_dispatch_ptr else 0)
        mem[r.offset:end] = 0
        r.lds = r.layout.pack_into(mem, r.offset, r.args, r.grid, r.block, self.device.compute.queue_ptr,
                                   r.kernel.group_segment_size, self.device)
        if r.kernel.needs_dispatch_ptr:
            packet = self.device.compute.aql_dispatch_packet(r.kernel, self.buffer.va + r.offset, r.grid, r.block,
                                                             r.lds)
            mem[r.offset + r.size:end] = np.frombuffer(packet, np.uint8)

    def _build(self):
        q = self.device.compute
        self._scratch_va = self.device.scratch_va
        if q.use_aql:
            self.packets = [memoryview(array("I", q.aql_dispatch_packet(r.kernel, self.buffer.va + r.offset, r.grid,
                                                                        r.block, r.lds)))
                            for r in self.launches]
            self.block, self.first_header = q.aql_block(self.packets)
            self.submit = self._aql_replayer()
            return
        dwords = []
        for r in self.launches:
            dwords += q.pm4_dispatch(r.kernel, self._launch(r))
        capacity = (self.buffer.size - self.ib_offset) // 4
        if len(dwords) > capacity:
            raise GPUError(f"recorded PM4 of {len(dwords)} dwords exceeds the {capacity}-dword indirect buffer")
        self.buffer.view(np.uint32, self.ib_offset, len(dwords))[:] = dwords
        self.ib_va, self.ib_dwords = self.buffer.va + self.ib_offset, len(dwords)
        self.template = q.ib_template(self.ib_va, self.ib_dwords)
        self.submit = self._pm4_replayer()

    def submit(self, wait=False, timeout=None):
        """Replay every recorded launch; with ``wait`` return their GPU time in seconds."""
        dev = self.device
        if dev.closed:
            dev._check_open()
        if self.buffer is None:
            self.finalize()
        if self._scratch_va != dev.scratch_va:       # scratch moved since recording
            dev.synchronize()
            self._build()
        q = dev.compute
        if dev.flush_hdp_on_submit:
            dev.hdp_flush()
        try:
            if wait:
                value = q.submit_packets(self.packets, True, self.description) if q.use_aql else \
                    q.submit_ib(self.ib_va, self.ib_dwords, True, self.description, self.template)
            elif q.use_aql:
                value = q.replay_aql(self.packets, self.block, self.first_header, self.description)
            else:
                value = q.replay_pm4(self.template, self.description)
        except (GPUFault, GPUHang, HardwareException):          # seen while waiting for ring space
            dev.recover()
            raise
        self.last_value = value
        if not wait:
            return None
        dev._wait(q.timeline, value, timeout)
        start, end = int(dev.timestamps[0]), int(dev.timestamps[1])
        return (end - start) / GPU_CLOCK_HZ

    def _pm4_replayer(self):
        """``submit`` of this command buffer on a PM4 queue, with what recording fixed bound as
        locals: the untimed replay (ComputeQueue.replay_pm4's ring writes: INDIRECT_BUFFER and
        the signal, its value patched) when none of submit's checks asks for more; a wait, a
        closed device, moved scratch, an HDP flush, a busy copy queue, words that would wrap or
        find no room, and DEBUG>=2 take the general submit."""
        general = CommandBuffer.submit.__get__(self)
        dev = self.device
        q = dev.compute
        hw, timeline = q.hw, q.timeline
        cap = hw.capacity
        template = self.template
        mask, n = cap - 1, len(template)
        last_pos = cap - n                           # the words fit below the ring's end
        lo, hi = q._value_slot, q._value_slot + 1    # RELEASE_MEM data_lo / data_hi
        ring, wptr_mv, description = hw.ring_mv, hw.wptr_mv, self.description
        scratch_va = self._scratch_va
        in_flight, limit = timeline.in_flight, timeline.RECORD_LIMIT
        cb = self

        def submit(wait=False, timeout=None):
            wptr = hw.wptr
            pos = wptr & mask
            copy = q.copy_timeline
            if wait or pos > last_pos or wptr + n - hw.retired > cap or dev.closed or dev.scratch_va != scratch_va \
                    or dev.flush_hdp_on_submit or hw.debug >= 2 or \
                    (copy is not None and copy._mv[0] < copy.last_submitted):
                return general(wait, timeout)
            value = timeline.last_submitted + 1
            template[lo] = value & 0xFFFFFFFF
            template[hi] = value >> 32
            ring[pos:pos + n] = template
            hw.wptr = wptr = wptr + n
            wptr_mv[0] = wptr
            hw.doorbell.store64(hw.doorbell_offset, wptr)
            hw.pending.append((value, wptr))
            timeline.last_submitted = value          # TimelineSignal.next_value, inline
            in_flight[value] = description
            if len(in_flight) > limit:
                timeline.forget(timeline.value)
            cb.last_value = value
        submit.__doc__ = CommandBuffer.submit.__doc__
        return submit

    def _aql_replayer(self):
        """``submit`` of this command buffer on an AQL queue, with what recording fixed bound as
        locals: the untimed replay (ComputeQueue.replay_aql's ring writes) when none of submit's
        checks asks for more; a wait, a closed device, moved scratch, an HDP flush, a busy copy
        queue, a block that would wrap or find no room, and DEBUG>=2 take the general submit."""
        general = CommandBuffer.submit.__get__(self)
        dev = self.device
        q = dev.compute
        hw, timeline = q.hw, q.timeline
        cap = hw.capacity
        mask, n = cap - 1, len(self.block) >> 4
        last_pos, span = cap - n, 16 * n             # the block fits below the ring's end
        block, first, description = self.block, self.first_header, self.description
        ring, ring_u64, wptr_mv = hw.ring_mv, q._ring_u64, hw.wptr_mv
        signal_u64, signal_ib_va = q._signal_u64, q._signal_ib_va
        slot_words, value_word, slot_bytes = SIGNAL_SLOT_WORDS, SIGNAL_VALUE_WORD, SIGNAL_SLOT_BYTES
        signal_ib = ((n - 1) * 16 + 2) >> 1          # the signal packet's IB address, in 64-bit words
        scratch_va = self._scratch_va
        in_flight, limit = timeline.in_flight, timeline.RECORD_LIMIT
        cb = self

        def submit(wait=False, timeout=None):
            wptr = hw.wptr
            pos = wptr & mask
            copy = q.copy_timeline
            if wait or pos > last_pos or wptr + n - hw.retired > cap or dev.closed or dev.scratch_va != scratch_va \
                    or dev.flush_hdp_on_submit or hw.debug >= 2 or \
                    (copy is not None and copy._mv[0] < copy.last_submitted):
                return general(wait, timeout)
            value = timeline.last_submitted + 1
            slot = value & mask                      # the signal's IB slot (value % ring packets)
            signal_u64[slot * slot_words + value_word] = value
            base = pos * 16
            ring[base:base + span] = block
            ring_u64[(base >> 1) + signal_ib] = signal_ib_va + slot * slot_bytes    # before the header
            ring[base] = first                       # then the header that makes them all ready
            hw.wptr = wptr = wptr + n
            wptr_mv[0] = wptr
            hw.doorbell.store64(hw.doorbell_offset, wptr - 1)
            hw.pending.append((value, wptr))
            timeline.last_submitted = value          # TimelineSignal.next_value, inline
            in_flight[value] = description
            if len(in_flight) > limit:
                timeline.forget(timeline.value)
            cb.last_value = value
        submit.__doc__ = CommandBuffer.submit.__doc__
        return submit

    def free(self):
        self.__dict__.pop("submit", None)            # the replayer names the freed buffer's block
        super().free()

    def update(self, index, *args):
        """New explicit arguments for recorded launch ``index`` (same count and kinds)."""
        r = self._recorded(index)
        r.layout.check_count(args)
        for spec, v in zip(r.layout.args, args):
            r.layout.convert(spec, v, self.device)
        if self.buffer is None:
            r.args = list(args)
            return
        self._idle()                                 # the previous replay still reads them
        r.args = list(args)
        lds = r.lds
        self._pack(r)
        if r.lds != lds:                             # a dynamic LDS size changed the dispatch itself
            self._build()

    def _idle(self):
        t = self.device.compute.timeline
        if t.value < self.last_value:
            self.device._wait(t, self.last_value)
