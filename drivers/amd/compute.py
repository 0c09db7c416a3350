"""Kernel launches on a compute queue: PM4 register programming or AQL dispatch packets.

Both flavours share the same completion protocol: after the work, write the queue's timeline
value (with the caches written back), then write the signal event id into its mailbox and
raise an interrupt so a sleeping host wakes. A launch that reports its own duration brackets
the dispatch with two GPU-clock writes (RELEASE_MEM data_sel=GPU_CLOCK).

Ordering against the copy queue: a launch first waits (WAIT_REG_MEM) for the copy timeline
value the host last handed out, so a kernel never reads a buffer an earlier copy still fills.
"""
import numpy as np

from drivers.amd import aql, pm4
from drivers.amd.arena import Arena
from drivers.amd.memory import GTT
from drivers.amd.queues import AQLQueue, PM4Queue
from drivers.errors import GPUError

GPU_CLOCK_HZ = 100_000_000      # RELEASE_MEM's GPU clock counter ticks at 100 MHz on gfx10+
KERNARG_ARENA_BYTES = 1 << 20
IB_ARENA_BYTES = 256 << 10

# kernel_code_properties bits -> user SGPRs, in the order the hardware loads them
_UserSGPR = ("private_segment_buffer", 4), ("dispatch_ptr", 2), ("queue_ptr", 2), ("kernarg_segment_ptr", 2), \
    ("dispatch_id", 2), ("flat_scratch_init", 2), ("private_segment_size", 1)


_SET_START_HEADER = pm4.header(pm4.SET_SH_REG, 7)
_START_X_INDEX = pm4.COMPUTE_START_X - pm4.SET_SH_REG_START        # START_X/Y/Z then NUM_THREAD_X/Y/Z
_DISPATCH_HEADER = pm4.header(pm4.DISPATCH_DIRECT, 4)
_INITIATOR_W64 = pm4.COMPUTE_SHADER_EN | pm4.FORCE_START_AT_000
_INITIATOR_W32 = _INITIATOR_W64 | pm4.CS_W32_EN
_PARTIAL_FLUSH = pm4.event_write(pm4.CS_PARTIAL_FLUSH, pm4.EVENT_INDEX_CS_PARTIAL_FLUSH)


class Launch:
    """What one dispatch needs, resolved: the kernel, where its kernargs are, the grid and the
    LDS per workgroup (static + dynamic)."""
    __slots__ = ("kernel", "kernarg_va", "dispatch_packet_va", "grid", "block", "lds_bytes")

    def __init__(self, kernel, kernarg_va, dispatch_packet_va, grid, block, lds_bytes=None):
        self.kernel, self.kernarg_va, self.dispatch_packet_va = kernel, kernarg_va, dispatch_packet_va
        self.grid, self.block = grid, block
        self.lds_bytes = kernel.group_segment_size if lds_bytes is None else lds_bytes


class ComputeQueue:
    """A compute queue with its timeline, kernarg arena and (AQL) PM4 indirect-buffer arena."""

    def __init__(self, device, use_aql, ring_size=1 << 20):
        self.device, self.use_aql = device, use_aql
        self.hw = (AQLQueue if use_aql else PM4Queue)(device, ring_size, "AQL compute queue" if use_aql else "PM4 compute queue")
        self.kernarg_buf = self.ib_buf = None
        try:
            self.timeline = device.new_timeline("compute")
            mem = device.memory
            self.kernarg_buf = mem.alloc(KERNARG_ARENA_BYTES, GTT)
            self.ib_buf = mem.alloc(IB_ARENA_BYTES, GTT)
        except BaseException:
            self.destroy()
            raise
        self.kernargs = Arena(self.kernarg_buf, self.timeline, "kernarg arena")
        self.kernarg_bytes = self.kernarg_buf.view()
        self.ibs = Arena(self.ib_buf, self.timeline, "indirect buffer arena")
        self.ib_u32 = self.ib_buf.view(np.uint32)
        self.dispatch_id = 0

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

    # -- PM4 building blocks --------------------------------------------------------------------
    def user_sgpr_plan(self, kernel):
        """Which user SGPRs ``kernel`` takes (kernel_code_properties order) and how many
        USER_SGPR_COUNT says to load; checked once per kernel."""
        plan = getattr(kernel, "user_sgpr_plan", None)
        if plan is None:
            kd = kernel.descriptor
            names = [name for name, _ in _UserSGPR if kd.get(f"ENABLE_SGPR_{name.upper()}")]
            used = sum(n for name, n in _UserSGPR if name in names)
            count = kd.user_sgpr_count
            if used > count:
                raise GPUError(f"kernel {kernel.name}: kernel_code_properties enable {used} user SGPRs but "
                               f"COMPUTE_PGM_RSRC2.USER_SGPR_COUNT is {count}")
            if used > pm4.NUM_USER_DATA:
                raise GPUError(f"kernel {kernel.name}: {used} user SGPRs; COMPUTE_USER_DATA holds 16")
            plan = kernel.user_sgpr_plan = (names, min(count, pm4.NUM_USER_DATA) - used)
        return plan

    def user_sgprs(self, kernel, launch):
        names, padding = self.user_sgpr_plan(kernel)
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
        """The launch-independent register writes for ``kernel`` (cached until scratch or the
        LDS size changes): cache invalidation, code address, RSRC1/2/3, scratch ring, limits."""
        dev = self.device
        key = (dev.scratch_va, dev.tmpring_size, lds_bytes)
        cached = getattr(kernel, "pm4_program_cache", None)
        if cached is not None and cached[0] == key:
            return cached[1]
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
        kernel.pm4_program_cache = (key, cmds)
        return cmds

    def pm4_dispatch(self, kernel, launch):
        """The PM4 that programs the COMPUTE_* registers and dispatches ``launch``."""
        gx, gy, gz = launch.grid
        bx, by, bz = launch.block
        user = self.user_sgprs(kernel, launch)
        cmds = list(self.pm4_program(kernel, launch.lds_bytes))
        if user:
            cmds += [pm4.header(pm4.SET_SH_REG, 1 + len(user)), pm4.COMPUTE_USER_DATA_0 - pm4.SET_SH_REG_START, *user]
        cmds += [_SET_START_HEADER, _START_X_INDEX, 0, 0, 0, bx, by, bz,
                 _DISPATCH_HEADER, gx, gy, gz, _INITIATOR_W32 if kernel.wave32 else _INITIATOR_W64]
        cmds += _PARTIAL_FLUSH
        return cmds

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
        words[5], words[6] = value & 0xFFFFFFFF, value >> 32
        return words

    _signal_list = None

    def pm4_timestamp(self, address):
        return pm4.release_mem(address, 0, pm4.DATA_SEL_GPU_CLOCK, gcr=0, event_type=pm4.BOTTOM_OF_PIPE_TS)

    # -- submission -----------------------------------------------------------------------------
    def launch(self, kernel, launch, timed, description):
        """Submit one dispatch; returns the timeline value that marks its completion."""
        self.dispatch_id += 1
        if self.use_aql:
            value = self.submit_packets([self.aql_dispatch_packet(kernel, launch)], timed, description)
        else:
            value = self.timeline.next_value(description)
            ts = self.device.timestamps_va if timed else None
            cmds = self.pm4_wait_copy()
            if ts is not None:
                cmds += self.pm4_timestamp(ts)
            cmds += self.pm4_dispatch(kernel, launch)
            if ts is not None:
                cmds += self.pm4_timestamp(ts + 8)
            cmds += self.pm4_signal(value)
            self.hw.submit(cmds, value, self.timeline)
        self.kernargs.tag(value)
        return value

    def submit_ib(self, ib_va, ib_dwords, timed, description, template=None):
        """Run a recorded PM4 command buffer (one INDIRECT_BUFFER) and signal the timeline.

        ``template`` (from :meth:`ib_template`) is the prebuilt ring part of an untimed submit;
        only its signal value is patched, which keeps a replay down to a few microseconds."""
        copy = self.device.copy_timeline
        copy_busy = copy is not None and copy.last_submitted and copy.value < copy.last_submitted
        value = self.timeline.next_value(description)
        if template is not None and not timed and not copy_busy:
            template[self._value_slot] = value & 0xFFFFFFFF
            template[self._value_slot + 1] = value >> 32
            self.hw.submit(template, value, self.timeline)
            return value
        ts = self.device.timestamps_va if timed else None
        cmds = self.pm4_wait_copy()
        if ts is not None:
            cmds += self.pm4_timestamp(ts)
        cmds += pm4.indirect_buffer(ib_va, ib_dwords)
        if ts is not None:
            cmds += self.pm4_timestamp(ts + 8)
        cmds += self.pm4_signal(value)
        self.hw.submit(cmds, value, self.timeline)
        return value

    _value_slot = 4 + 5          # INDIRECT_BUFFER (4 dwords), then RELEASE_MEM's data_lo

    def ib_template(self, ib_va, ib_dwords):
        """The ring words of an untimed replay: INDIRECT_BUFFER + signal (value patched later)."""
        return np.array(pm4.indirect_buffer(ib_va, ib_dwords) + self.pm4_signal(0), np.uint32)

    def submit_pm4(self, dwords, description):
        """Run raw PM4 on this queue (in the ring, or an indirect buffer on AQL), then signal."""
        if not self.use_aql:
            value = self.timeline.next_value(description)
            self.hw.submit(list(dwords) + self.pm4_signal(value), value, self.timeline)
            return value
        return self.submit_packets([self._ib_packet(list(dwords))], False, description)

    def submit_packets(self, aql_packets, timed, description):
        """AQL: submit prebuilt dispatch packets followed by the timeline signal."""
        value = self.timeline.next_value(description)
        ts = self.device.timestamps_va if timed else None
        pre = self.pm4_wait_copy() + (self.pm4_timestamp(ts) if ts is not None else [])
        packets = ([self._ib_packet(pre)] if pre else []) + list(aql_packets)
        # room first: the signal slot written next is free only once the ring has room
        self.hw.make_room(len(packets) + 1, self.timeline)
        if ts is None:
            packets.append(self._signal_packet(value))
        else:
            packets.append(self._ib_packet(self.pm4_timestamp(ts + 8) + self.pm4_signal(value)))
        self.hw.submit(packets, value, self.timeline)
        self.ibs.tag(value)
        return value

    def _signal_packet(self, value):
        """The PM4-IB packet that signals ``value``. Its 16 dwords live in slot value % N of a
        buffer with one slot per ring packet: a slot is rewritten only after the ring has
        wrapped, i.e. after the submission that read it has been consumed."""
        if self._signal_words is None:
            cap = self.hw.capacity
            self._signal_words = np.array(self.pm4_signal(0), np.uint32)
            self._signal_slots = self.device.memory.alloc(cap * 64, GTT)
            self._signal_u32 = self._signal_slots.view(np.uint32)
            # one ready-made PM4-IB packet per slot, pointing at that slot
            packets = np.tile(aql.pm4_indirect(0, len(self._signal_words)), (cap, 1))
            slot_va = self._signal_slots.va + 64 * np.arange(cap, dtype=np.uint64)
            packets[:, 2] = (slot_va & 0xFFFFFFFF).astype(np.uint32)
            packets[:, 3] = (slot_va >> np.uint64(32)).astype(np.uint32)
            self._signal_aql = packets
        words = self._signal_words
        words[5], words[6] = value & 0xFFFFFFFF, value >> 32
        slot = value % self.hw.capacity
        self._signal_u32[slot * 16:slot * 16 + len(words)] = words
        return self._signal_aql[slot]

    _signal_words = _signal_slots = None

    def _ib_packet(self, dwords):
        off = self.ibs.alloc(len(dwords) * 4, 64)
        self.ib_u32[off // 4:off // 4 + len(dwords)] = dwords
        return aql.pm4_indirect(self.ib_buf.va + off, len(dwords))

    def aql_dispatch_packet(self, kernel, launch):
        return aql.kernel_dispatch(kernel.kd_va, launch.kernarg_va, launch.grid, launch.block,
                                   group_segment_size=launch.lds_bytes,
                                   private_segment_size=kernel.private_segment_size)


def _split(x):
    return [x & 0xFFFFFFFF, (x >> 32) & 0xFFFFFFFF]
