"""Kernel launches on a compute queue: PM4 register programming or AQL dispatch packets.

Both flavours share the same completion protocol: after the work, write the queue's timeline
value (with the caches written back), then write the signal event id into its mailbox and
raise an interrupt so a sleeping host wakes. A launch that reports its own duration brackets
the dispatch with two GPU-clock writes (RELEASE_MEM data_sel=GPU_CLOCK).

Ordering against the copy queue: a launch first waits (WAIT_REG_MEM) for the copy timeline
value the host last handed out, so a kernel never reads a buffer an earlier copy still fills.

Launch cost: everything that does not change between launches is prepared once per kernel (and
scratch / LDS configuration) as a :class:`DispatchTemplate`: the PM4 that programs and
dispatches it plus the completion signal, as one array of dwords with the slots a launch fills
(kernarg pointer, block, grid, signal value).  A launch patches those slots and copies the array
into the ring; the timeline value is taken only once the submission is in the ring, so a launch
refused on the way leaves the queue exactly as it was.
"""
from array import array

import numpy as np

from drivers.amd import aql, pm4
from drivers.amd.arena import Arena
from drivers.amd.memory import GTT
from drivers.amd.queues import AQLQueue, PM4Queue
from drivers.errors import GPUError

GPU_CLOCK_HZ = 100_000_000      # RELEASE_MEM's GPU clock counter ticks at 100 MHz on gfx10+
KERNARG_ARENA_BYTES = 1 << 20
IB_ARENA_BYTES = 256 << 10
_M32 = 0xFFFFFFFF

# kernel_code_properties bits -> user SGPRs, in the order the hardware loads them
_UserSGPR = ("private_segment_buffer", 4), ("dispatch_ptr", 2), ("queue_ptr", 2), ("kernarg_segment_ptr", 2), \
    ("dispatch_id", 2), ("flat_scratch_init", 2), ("private_segment_size", 1)


_SET_START_HEADER = pm4.header(pm4.SET_SH_REG, 7)
_START_X_INDEX = pm4.COMPUTE_START_X - pm4.SET_SH_REG_START        # START_X/Y/Z then NUM_THREAD_X/Y/Z
_DISPATCH_HEADER = pm4.header(pm4.DISPATCH_DIRECT, 4)
_INITIATOR_W64 = pm4.COMPUTE_SHADER_EN | pm4.FORCE_START_AT_000
_INITIATOR_W32 = _INITIATOR_W64 | pm4.CS_W32_EN
_PARTIAL_FLUSH = pm4.event_write(pm4.CS_PARTIAL_FLUSH, pm4.EVENT_INDEX_CS_PARTIAL_FLUSH)
_SIGNAL_VALUE = 5               # in the signal words: RELEASE_MEM data_lo, data_hi
_PACK_DISPATCH = aql.DISPATCH_PACKET.pack_into
# AQL signal slots: one per ring packet, SIGNAL_SLOT_BYTES apart, the signal's PM4 starting one
# dword in, so its RELEASE_MEM data_lo / data_hi (dwords 5-6 of the PM4) are 8-byte aligned and a
# submission writes its value with one 64-bit store: slot k's value is 64-bit word
# k * SIGNAL_SLOT_WORDS + SIGNAL_VALUE_WORD of the slots
SIGNAL_SLOT_BYTES, SIGNAL_PM4_OFFSET = 80, 4
SIGNAL_SLOT_WORDS = SIGNAL_SLOT_BYTES // 8
SIGNAL_VALUE_WORD = (SIGNAL_PM4_OFFSET + 4 * _SIGNAL_VALUE) // 8
_DISPATCH_DWORD0 = aql.DISPATCH_HEADER              # | setup (dimensions) << 16
_SIGNAL_DWORD0 = int(aql.pm4_indirect(0, 1)[0])     # the header of the signal's PM4-IB packet


def user_sgpr_plan(kernel):
    """(names, padding): the user SGPRs ``kernel`` takes in kernel_code_properties order, and how
    many zero SGPRs follow to reach COMPUTE_PGM_RSRC2.USER_SGPR_COUNT. GPUError if the descriptor
    contradicts itself (checked when the code object is loaded)."""
    kd = kernel.descriptor
    names = [name for name, _ in _UserSGPR if kd.get(f"ENABLE_SGPR_{name.upper()}")]
    used = sum(n for name, n in _UserSGPR if name in names)
    count = kd.user_sgpr_count
    if used > count:
        raise GPUError(f"kernel {kernel.name}: kernel_code_properties enable {used} user SGPRs but "
                       f"COMPUTE_PGM_RSRC2.USER_SGPR_COUNT is {count}")
    if used > pm4.NUM_USER_DATA:
        raise GPUError(f"kernel {kernel.name}: {used} user SGPRs; COMPUTE_USER_DATA holds 16")
    return names, min(count, pm4.NUM_USER_DATA) - used


class Launch:
    """What one dispatch needs, resolved: the kernel, where its kernargs are, the grid and the
    LDS per workgroup (static + dynamic)."""
    __slots__ = ("kernel", "kernarg_va", "dispatch_packet_va", "grid", "block", "lds_bytes")

    def __init__(self, kernel, kernarg_va, dispatch_packet_va, grid, block, lds_bytes=None):
        self.kernel, self.kernarg_va, self.dispatch_packet_va = kernel, kernarg_va, dispatch_packet_va
        self.grid, self.block = grid, block
        self.lds_bytes = kernel.group_segment_size if lds_bytes is None else lds_bytes


class DispatchTemplate:
    """The PM4 of one kernel's dispatch followed by the completion signal, as dwords, and the
    indices a launch fills in (-1: the kernel does not take that user SGPR)."""
    __slots__ = ("key", "words", "mv", "body", "kernarg", "dispatch_ptr", "dispatch_id", "block", "grid",
                 "value")

    def __init__(self, key, words, body, slots):
        self.key, self.words, self.body = key, words, body
        self.mv = memoryview(words)
        self.kernarg, self.dispatch_ptr, self.dispatch_id, self.block, self.grid, self.value = slots


class ComputeQueue:
    """A compute queue with its timeline, kernarg arena and (AQL) PM4 indirect-buffer arena."""

    def __init__(self, device, use_aql, ring_size=1 << 20):
        self.device, self.use_aql = device, use_aql
        self.hw = (AQLQueue if use_aql else PM4Queue)(device, ring_size, "AQL compute queue" if use_aql else "PM4 compute queue")
        if not use_aql:                 # the mailbox RELEASE_MEM behind the timeline's (pm4_signal)
            self.hw.signal_tail = len(pm4.release_mem(0, 0))
        self.kernarg_buf = self.ib_buf = None
        try:
            self.timeline = device.new_timeline("compute")
            mem = device.memory
            self.kernarg_buf = mem.alloc(KERNARG_ARENA_BYTES, GTT)
            self.ib_buf = mem.alloc(IB_ARENA_BYTES, GTT)
            if use_aql:
                self._alloc_signal_slots()
        except BaseException:
            self.destroy()
            raise
        self.kernargs = Arena(self.kernarg_buf, self.timeline, "kernarg arena")
        self.kernarg_bytes = self.kernarg_buf.view()
        self.kernarg_mv = memoryview(self.kernarg_bytes)
        self.ibs = Arena(self.ib_buf, self.timeline, "indirect buffer arena")
        self.ib_u32 = self.ib_buf.view(np.uint32)
        self.ib_mv = memoryview(self.ib_u32)
        self.dispatch_id = 0
        self.generation = 0                 # bumped when the queue is recreated (templates name it)
        self.copy_timeline = None           # the copy queue's timeline (set once the device has one)
        self._packet = bytearray(aql.PACKET_BYTES)
        self._packet_mv = memoryview(self._packet).cast("I")

    @property
    def name(self):
        return self.hw.name

    @property
    def queue_ptr(self):
        """Address of this queue's amd_queue_t (what hidden_queue_ptr and QUEUE_PTR carry)."""
        return self.hw.ctl.va

    def destroy(self):
        for b in (self.ib_buf, self.kernarg_buf, self._signal_slots):
            if b is not None:
                b.free()
        self.hw.destroy()

    def recreate(self):
        """A fault killed the queue: make a new one; everything in flight is abandoned."""
        self.hw.recreate()
        self.kernargs.reset()
        self.ibs.reset()
        self.timeline.reset(self.timeline.last_submitted)
        self.generation += 1

    def copy_busy(self):
        copy = self.copy_timeline
        return copy is not None and copy._mv[0] < copy.last_submitted

    # -- PM4 building blocks --------------------------------------------------------------------
    def user_sgprs(self, kernel, launch):
        names, padding = kernel.user_sgpr_plan
        dev = self.device
        values = []
        for name in names:
            if name == "kernarg_segment_ptr":
                values += _split(launch.kernarg_va)
            elif name == "dispatch_ptr":
                values += _split(launch.dispatch_packet_va)
            elif name == "private_segment_buffer":
                values += dev.scratch_srd()
            elif name == "queue_ptr":
                values += _split(self.queue_ptr)
            elif name == "dispatch_id":
                values += _split(self.dispatch_id)
            elif name == "flat_scratch_init":
                values += _split(dev.scratch_va)
            else:
                values.append(kernel.private_segment_size)
        return values + [0] * padding

    def pm4_program(self, kernel, lds_bytes):
        """The launch-independent register writes for ``kernel``: cache invalidation, code
        address, RSRC1/2/3, scratch ring, limits."""
        dev = self.device
        code, scratch = kernel.code_va, dev.scratch_va
        cmds = pm4.acquire_mem()
        cmds += pm4.set_sh_reg(pm4.COMPUTE_PGM_LO, (code >> 8) & 0xFFFFFFFF, code >> 40)
        rsrc2 = kernel.rsrc2 if lds_bytes == kernel.group_segment_size else kernel.rsrc2_for(lds_bytes)
        cmds += pm4.set_sh_reg(pm4.COMPUTE_PGM_RSRC1, kernel.rsrc1, rsrc2)
        cmds += pm4.set_sh_reg(pm4.COMPUTE_PGM_RSRC3, kernel.rsrc3)
        cmds += pm4.set_sh_reg(pm4.COMPUTE_TMPRING_SIZE, dev.tmpring_size)
        cmds += pm4.set_sh_reg(pm4.COMPUTE_DISPATCH_SCRATCH_BASE_LO, (scratch >> 8) & 0xFFFFFFFF, scratch >> 40)
        cmds += pm4.set_sh_reg(pm4.COMPUTE_RESTART_X, 0, 0, 0)
        cmds += pm4.set_sh_reg(pm4.COMPUTE_RESOURCE_LIMITS, 0)
        self._program_dwords = len(cmds)
        return cmds

    def pm4_dispatch(self, kernel, launch):
        """The PM4 that programs the COMPUTE_* registers and dispatches ``launch``."""
        gx, gy, gz = launch.grid
        bx, by, bz = launch.block
        user = self.user_sgprs(kernel, launch)
        cmds = self.pm4_program(kernel, launch.lds_bytes)
        if user:
            cmds += [pm4.header(pm4.SET_SH_REG, 1 + len(user)), pm4.COMPUTE_USER_DATA_0 - pm4.SET_SH_REG_START, *user]
        cmds += [_SET_START_HEADER, _START_X_INDEX, 0, 0, 0, bx, by, bz,
                 _DISPATCH_HEADER, gx, gy, gz, _INITIATOR_W32 if kernel.wave32 else _INITIATOR_W64]
        cmds += _PARTIAL_FLUSH
        return cmds

    def dispatch_template(self, kernel, lds_bytes):
        """The DispatchTemplate of ``kernel`` for the current scratch setup and ``lds_bytes``."""
        dev = self.device
        key = (self.generation, dev.scratch_va, dev.tmpring_size, lds_bytes)
        cached = kernel.templates.get(key)
        if cached is not None:
            return cached
        names, _ = kernel.user_sgpr_plan
        probe = Launch(kernel, 0, 0, (1, 1, 1), (1, 1, 1), lds_bytes)
        words = self.pm4_dispatch(kernel, probe)
        user = self._program_dwords + 2                              # first user SGPR value
        slots, pos = {}, user
        for name, n in _UserSGPR:
            if name in names:
                slots[name] = pos
                pos += n
        body = len(words)
        block = body - 2 - 13 + 5          # START_X packet: header, index, 0, 0, 0, then NUM_THREAD_X/Y/Z
        grid = body - 2 - 4                # DISPATCH_DIRECT: header, then DIM_X/Y/Z, initiator
        words += self.pm4_signal(0)
        template = DispatchTemplate(key, array("I", words), body, (
            slots.get("kernarg_segment_ptr", -1), slots.get("dispatch_ptr", -1), slots.get("dispatch_id", -1),
            block, grid, body + _SIGNAL_VALUE))
        if len(kernel.templates) >= 8:
            kernel.templates.clear()
        kernel.templates[key] = template
        return template

    def pm4_wait_copy(self):
        """WAIT_REG_MEM on the copy timeline's last handed-out value (nothing if idle).

        WAIT_REG_MEM compares 32 bits: the low word of the 64-bit timeline, which is exact
        until a queue has seen 2**32 submissions."""
        copy = self.device.copy_timeline
        if copy is None or copy.last_submitted == 0 or copy.value >= copy.last_submitted:
            return []
        return pm4.wait_reg_mem(copy.address, copy.last_submitted)

    def pm4_signal(self, value):
        """Timeline write (caches written back first), then mailbox write + interrupt."""
        words = self._signal_list
        if words is None:
            events = self.device.events
            words = self._signal_list = pm4.release_mem(self.timeline.address, 0) + \
                pm4.release_mem(events.mailbox, events.event_id, pm4.DATA_SEL_32, pm4.INT_SEL_AFTER_WRITE_CONFIRM,
                                int_ctxid=events.event_id, gcr=0)
        words = list(words)
        words[_SIGNAL_VALUE], words[_SIGNAL_VALUE + 1] = value & _M32, value >> 32
        return words

    _signal_list = None

    def pm4_timestamp(self, address):
        return pm4.release_mem(address, 0, pm4.DATA_SEL_GPU_CLOCK, gcr=0, event_type=pm4.BOTTOM_OF_PIPE_TS)

    # -- submission -----------------------------------------------------------------------------
    def launch(self, kernel, kernarg_va, packet_va, grid, block, lds, timed, description):
        """Submit one dispatch; returns the timeline value that marks its completion."""
        self.dispatch_id += 1
        if self.use_aql:
            value = self._launch_aql(kernel, kernarg_va, grid, block, lds, timed, description)
            _tag(self.kernargs, value)
            return value
        t = kernel.templates.get((self.generation, self.device.scratch_va, self.device.tmpring_size, lds)) \
            or self.dispatch_template(kernel, lds)
        w = t.mv
        if t.kernarg >= 0:
            w[t.kernarg] = kernarg_va & _M32
            w[t.kernarg + 1] = kernarg_va >> 32
        if t.dispatch_ptr >= 0:
            w[t.dispatch_ptr] = packet_va & _M32
            w[t.dispatch_ptr + 1] = packet_va >> 32
        if t.dispatch_id >= 0:
            w[t.dispatch_id] = self.dispatch_id & _M32
            w[t.dispatch_id + 1] = self.dispatch_id >> 32
        i = t.block
        w[i], w[i + 1], w[i + 2] = block
        i = t.grid
        w[i], w[i + 1], w[i + 2] = grid
        timeline, hw = self.timeline, self.hw
        value = timeline.last_submitted + 1
        w[t.value] = value & _M32
        w[t.value + 1] = value >> 32
        copy = self.copy_timeline
        n, cap, wptr = len(w), hw.capacity, hw.wptr
        pos = wptr & (cap - 1)
        if timed or (copy is not None and copy._mv[0] < copy.last_submitted):
            ts = self.device.timestamps_va if timed else None
            pre = self.pm4_wait_copy() + (self.pm4_timestamp(ts) if ts is not None else [])
            post = self.pm4_timestamp(ts + 8) if ts is not None else []
            hw.submit_words(w, value, timeline, pre, post, t.body)
        elif pos + n > cap or hw.debug >= 2:
            hw.submit_words(w, value, timeline)
        else:                                       # PM4Queue.submit_words' common case, inline
            if wptr + n - hw.retired > cap:
                hw.make_room(n, timeline)
            hw.ring_mv[pos:pos + n] = w
            hw.wptr = wptr = wptr + n
            hw.wptr_mv[0] = wptr
            hw.doorbell.store64(hw.doorbell_offset, wptr)
            hw.pending.append((value, wptr))
        timeline.last_submitted = value             # TimelineSignal.next_value, inline
        in_flight = timeline.in_flight
        in_flight[value] = description
        if len(in_flight) > timeline.RECORD_LIMIT:
            timeline.forget(timeline.value)
        _tag(self.kernargs, value)
        return value

    def submit_ib(self, ib_va, ib_dwords, timed, description, template=None):
        """Run a recorded PM4 command buffer (one INDIRECT_BUFFER) and signal the timeline.
        ``template`` (from :meth:`ib_template`) is the prebuilt ring part: INDIRECT_BUFFER + signal."""
        if template is None:
            template = self.ib_template(ib_va, ib_dwords)
        if not timed:
            return self.replay_pm4(template, description)
        timeline = self.timeline
        value = timeline.last_submitted + 1
        template[self._value_slot] = value & _M32
        template[self._value_slot + 1] = value >> 32
        ts = self.device.timestamps_va
        pre = self.pm4_wait_copy() + self.pm4_timestamp(ts)
        self.hw.submit_words(template, value, timeline, pre, self.pm4_timestamp(ts + 8), 4)
        timeline.next_value(description)
        return value

    def replay_pm4(self, template, description):
        """An untimed replay of ``template`` (INDIRECT_BUFFER + signal): with the copy queue idle
        it goes straight into the ring, patching only the signal value. The hot path of replays."""
        timeline, hw = self.timeline, self.hw
        value = timeline.last_submitted + 1
        template[9] = value & _M32                  # _value_slot: RELEASE_MEM data_lo / data_hi
        template[10] = value >> 32
        copy = self.copy_timeline
        n, cap, wptr = len(template), hw.capacity, hw.wptr
        pos = wptr & (cap - 1)
        if (copy is not None and copy._mv[0] < copy.last_submitted) or pos + n > cap or hw.debug >= 2:
            pre = self.pm4_wait_copy()
            if pre:
                hw.submit_words(template, value, timeline, pre, [], 4)
            else:
                hw.submit_words(template, value, timeline)
        else:
            if wptr + n - hw.retired > cap:
                hw.make_room(n, timeline)
            hw.ring_mv[pos:pos + n] = template
            hw.wptr = wptr = wptr + n
            hw.wptr_mv[0] = wptr
            hw.doorbell.store64(hw.doorbell_offset, wptr)
            hw.pending.append((value, wptr))
        timeline.last_submitted = value            # TimelineSignal.next_value, inline
        in_flight = timeline.in_flight
        in_flight[value] = description
        if len(in_flight) > timeline.RECORD_LIMIT:
            timeline.forget(timeline.value)
        return value

    _value_slot = 4 + _SIGNAL_VALUE          # INDIRECT_BUFFER (4 dwords), then RELEASE_MEM's data_lo

    def ib_template(self, ib_va, ib_dwords):
        """The ring words of a replay: INDIRECT_BUFFER + signal (value patched per submit)."""
        return memoryview(array("I", pm4.indirect_buffer(ib_va, ib_dwords) + self.pm4_signal(0)))

    def submit_pm4(self, dwords, description):
        """Run raw PM4 on this queue (in the ring, or an indirect buffer on AQL), then signal."""
        if not self.use_aql:
            timeline = self.timeline
            value = timeline.last_submitted + 1
            self.hw.submit_words(memoryview(array("I", list(dwords) + self.pm4_signal(value))), value, timeline)
            timeline.next_value(description)
            return value
        return self.submit_packets([self._ib_packet(list(dwords))], False, description)

    def submit_packets(self, aql_packets, timed, description):
        """AQL: submit prebuilt dispatch packets (16-dword memoryviews or arrays) followed by the
        timeline signal."""
        timeline = self.timeline
        value = timeline.last_submitted + 1
        hw = self.hw
        ts = self.device.timestamps_va if timed else None
        if ts is None and not self.copy_busy():
            n, cap, wptr = len(aql_packets) + 1, hw.capacity, hw.wptr
            # room first: the signal slot written next is free only once the ring has room
            if wptr + n - hw.retired > cap:
                hw.make_room(n, timeline)
            last = self._signal_packet(value)
            pos = wptr & (cap - 1)
            if pos + n > cap or hw.debug >= 2:
                hw.submit(aql_packets, value, timeline, last)
            else:                                   # the common case, written here: bodies, then headers
                ring, base = hw.ring_mv, pos * 16
                for p in aql_packets:
                    ring[base + 1:base + 16] = p[1:] if type(p) is memoryview else memoryview(p)[1:]
                    base += 16
                ring[base + 1:base + 16] = last[1:]
                base = pos * 16
                for p in aql_packets:
                    ring[base] = int(p[0])
                    base += 16
                ring[base] = last[0]
                hw.wptr = wptr = wptr + n
                hw.wptr_mv[0] = wptr
                hw.doorbell.store64(hw.doorbell_offset, wptr - 1)
                hw.pending.append((value, wptr))
        else:
            pre = self.pm4_wait_copy() + (self.pm4_timestamp(ts) if ts is not None else [])
            packets = ([self._ib_packet(pre)] if pre else []) + list(aql_packets)
            hw.make_room(len(packets) + 1, timeline)
            if ts is None:
                last = self._signal_packet(value)
            else:
                last = self._ib_packet(self.pm4_timestamp(ts + 8) + self.pm4_signal(value))
            hw.submit(packets, value, timeline, last)
            self.ibs.tag(value)
        timeline.next_value(description)
        return value

    def aql_block(self, packets):
        """What :meth:`replay_aql` writes for ``packets`` (16-dword each): their dwords and a signal
        packet as one block, and the first packet's header. In the block that header is INVALID:
        the packet processor takes packets in order and stops at an INVALID header, so the packets
        behind it, valid headers and all, wait for that one header, written last."""
        words = array("I")
        for p in list(packets) + [self._signal_aql_mv[0:16]]:
            words.extend(p)
        first = words[0]
        words[0] = aql.INVALID_PACKET_DWORD0
        return memoryview(words), first

    def replay_aql(self, packets, block, first, description):
        """Resubmit recorded AQL ``packets`` (``block``, ``first`` from :meth:`aql_block`): the
        block goes into the ring in one copy, then the first packet's header. Falls back to
        :meth:`submit_packets` when the copy queue is busy, the block would wrap, or DEBUG>=2."""
        timeline, hw = self.timeline, self.hw
        value = timeline.last_submitted + 1
        n, cap, wptr = len(block) >> 4, hw.capacity, hw.wptr
        pos = wptr & (cap - 1)
        copy = self.copy_timeline
        if (copy is not None and copy._mv[0] < copy.last_submitted) or pos + n > cap or hw.debug >= 2:
            return self.submit_packets(packets, False, description)
        if wptr + n - hw.retired > cap:
            hw.make_room(n, timeline)
        slot = value & (cap - 1)                     # the signal's IB slot (value % ring packets)
        self._signal_u64[slot * SIGNAL_SLOT_WORDS + SIGNAL_VALUE_WORD] = value
        ring, base = hw.ring_mv, pos * 16
        ring[base:base + 16 * n] = block
        # the signal packet's IB address (dwords 2-3, 8-byte aligned), before any header is valid
        self._ring_u64[(base + (n - 1) * 16 + 2) >> 1] = self._signal_ib_va + slot * SIGNAL_SLOT_BYTES
        ring[base] = first
        hw.wptr = wptr = wptr + n
        hw.wptr_mv[0] = wptr
        hw.doorbell.store64(hw.doorbell_offset, wptr - 1)
        hw.pending.append((value, wptr))
        timeline.last_submitted = value            # TimelineSignal.next_value, inline
        in_flight = timeline.in_flight
        in_flight[value] = description
        if len(in_flight) > timeline.RECORD_LIMIT:
            timeline.forget(timeline.value)
        return value

    def _alloc_signal_slots(self):
        """The AQL queue's signal slots, made with the queue: one per ring packet
        (SIGNAL_SLOT_BYTES apart, the signal's PM4 SIGNAL_PM4_OFFSET bytes in), each with a
        ready-made PM4-IB packet pointing at it."""
        cap = self.hw.capacity
        words = np.array(self.pm4_signal(0), np.uint32)
        self._signal_slots = self.device.memory.alloc(cap * SIGNAL_SLOT_BYTES, GTT)
        slots = self._signal_slots.view(np.uint32).reshape(cap, SIGNAL_SLOT_BYTES // 4)
        first = SIGNAL_PM4_OFFSET // 4
        slots[:, first:first + len(words)] = words          # every slot signals; the value is patched
        self._signal_u64 = memoryview(self._signal_slots.view(np.uint64))
        self._ring_u64 = self.hw.ring_bytes.cast("Q")
        self._signal_ib_va = self._signal_slots.va + SIGNAL_PM4_OFFSET
        packets = np.tile(aql.pm4_indirect(0, len(words)), (cap, 1))
        slot_va = self._signal_ib_va + SIGNAL_SLOT_BYTES * np.arange(cap, dtype=np.uint64)
        packets[:, 2] = (slot_va & 0xFFFFFFFF).astype(np.uint32)
        packets[:, 3] = (slot_va >> np.uint64(32)).astype(np.uint32)
        self._signal_aql = packets
        self._signal_aql_mv = memoryview(packets.reshape(-1))

    def _signal_packet(self, value):
        """The PM4-IB packet that signals ``value``. Its PM4 lives in slot value % N (see
        _alloc_signal_slots): a slot is rewritten only after the ring has wrapped, i.e. after the
        submission that read it has been consumed."""
        slot = value % self.hw.capacity
        self._signal_u64[slot * SIGNAL_SLOT_WORDS + SIGNAL_VALUE_WORD] = value
        return self._signal_aql_mv[slot * 16:slot * 16 + 16]

    _signal_slots = None                     # PM4 queues have none

    def _ib_packet(self, dwords):
        off = self.ibs.alloc(len(dwords) * 4, 64)
        self.ib_mv[off // 4:off // 4 + len(dwords)] = array("I", dwords)
        return aql.pm4_indirect(self.ib_buf.va + off, len(dwords))

    def _launch_aql(self, kernel, kernarg_va, grid, block, lds, timed, description):
        """One dispatch on the AQL queue: :meth:`submit_packets` of :meth:`aql_dispatch_packet`,
        with the common case (untimed, no copy to wait for, no wrap) packed straight into the
        ring: the dispatch body (its header still INVALID), the signal body, then both headers."""
        hw, timeline = self.hw, self.timeline
        wptr, cap = hw.wptr, hw.capacity
        pos = wptr & (cap - 1)
        signal, copy = self._signal_u64, self.copy_timeline
        if timed or pos + 2 > cap or hw.debug >= 2 or \
                (copy is not None and copy._mv[0] < copy.last_submitted):
            packet = self.aql_dispatch_packet(kernel, kernarg_va, grid, block, lds)
            return self.submit_packets((packet,), timed, description)
        value = timeline.last_submitted + 1
        if wptr + 2 - hw.retired > cap:               # room first: the signal slot is free only then
            hw.make_room(2, timeline)
        slot = value & (cap - 1)                      # _signal_packet, inline
        signal[slot * SIGNAL_SLOT_WORDS + SIGNAL_VALUE_WORD] = value
        slot *= 16
        bx, by, bz = block
        gx, gy, gz = grid
        dims = 3 if gz > 1 or bz > 1 else 2 if gy > 1 or by > 1 else 1
        base = pos * 16
        _PACK_DISPATCH(hw.ring_bytes, base * 4, aql.INVALID_PACKET_DWORD0, dims, bx, by, bz, 0, gx * bx, gy * by,
                       gz * bz, kernel.private_segment_size, lds, kernel.kd_va, kernarg_va, 0, 0)
        ring = hw.ring_mv
        ring[base + 17:base + 32] = self._signal_aql_mv[slot + 1:slot + 16]
        ring[base] = _DISPATCH_DWORD0 | dims << 16
        ring[base + 16] = _SIGNAL_DWORD0
        hw.wptr = wptr = wptr + 2
        hw.wptr_mv[0] = wptr
        hw.doorbell.store64(hw.doorbell_offset, wptr - 1)
        hw.pending.append((value, wptr))
        timeline.last_submitted = value               # TimelineSignal.next_value, inline
        in_flight = timeline.in_flight
        in_flight[value] = description
        if len(in_flight) > timeline.RECORD_LIMIT:
            timeline.forget(timeline.value)
        return value

    def aql_dispatch_packet(self, kernel, kernarg_va, grid, block, lds):
        """The kernel dispatch packet (16 dwords, a memoryview reused by the next call). What
        aql.pack_kernel_dispatch checks is already known here: the descriptor's alignment (at
        load), the kernarg arena's (64 bytes) and the grid's size (at launch)."""
        bx, by, bz = block
        gx, gy, gz = grid
        dims = 3 if gz > 1 or bz > 1 else 2 if gy > 1 or by > 1 else 1
        _PACK_DISPATCH(self._packet, 0, aql.DISPATCH_HEADER, dims, bx, by, bz, 0, gx * bx, gy * by, gz * bz,
                       kernel.private_segment_size, lds, kernel.kd_va, kernarg_va, 0, 0)
        return self._packet_mv


def _split(x):
    return [x & 0xFFFFFFFF, (x >> 32) & 0xFFFFFFFF]


def _tag(arena, value):
    """Arena.tag, inline on the launch paths: what was allocated so far is read by ``value``."""
    pending, head = arena.pending, arena.head
    if pending and pending[-1][1] == head:
        pending[-1] = (value, head)
    else:
        pending.append((value, head))
