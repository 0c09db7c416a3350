"""User-mode hardware queues created through KFD: PM4 compute, AQL compute and SDMA.

A queue is a ring buffer in GTT, a control block holding the 64-bit read/write pointers (laid
out as an amd_queue_t so one layout serves every queue type: wptr at write_dispatch_id, rptr at
read_dispatch_id), and for compute queues an end-of-pipe buffer and a context-save (CWSR) area
sized by libhsakmt's rules. Submitting writes packets, then the write pointer, then rings the
doorbell (one 64-bit store). Pointer units differ per type: PM4 counts dwords, SDMA bytes, AQL
packets (and its doorbell carries the index of the last packet, not the count).

Ring space is reclaimed by the queue's timeline signal: every submission ends with a signal
write, so once value v has landed, everything submitted before v is consumed.

A compute queue's context-save area starts with kfd_context_save_area_header; it names the
queue's error payload (a few bytes of the control page, after the amd_queue_t) and the event KFD
signals when a wave of the queue raises an exception (runtime enabled, as libhsakmt sets it up).
The context-save area is system memory (GTT) so the CPU can write that header.
"""
from array import array
from collections import deque
from dataclasses import dataclass

import numpy as np

from drivers.amd import aql, kfd as K, pm4, sdma
from drivers.amd.memory import GTT, PAGE, VRAM, round_up
from drivers.errors import GPUError, IoctlError
from drivers.settings import debug_level, debug_line

EOP_BUFFER_SIZE = 4096                     # libhsakmt: compute queues on gfx8 and later
QUEUE_PRIORITY = 7                         # KFD's "normal" (0..15)
WPTR_OFFSET = aql.AMD_QUEUE_OFFSETS["write_dispatch_id"]
RPTR_OFFSET = aql.AMD_QUEUE_OFFSETS["read_dispatch_id"]
ERROR_PAYLOAD_OFFSET, ERROR_PAYLOAD_BYTES = 512, 256   # in the control page, after the amd_queue_t
# kfd_context_save_area_header fields
CSA_DEBUG_OFFSET, CSA_DEBUG_SIZE, CSA_ERR_PAYLOAD_ADDR, CSA_ERR_EVENT_ID = 16, 20, 24, 32
_AQL_NAMES = {aql.PACKET_TYPE_KERNEL_DISPATCH: "KERNEL_DISPATCH", aql.PACKET_TYPE_VENDOR_SPECIFIC: "PM4_IB",
              aql.PACKET_TYPE_BARRIER_AND: "BARRIER_AND"}


@dataclass(frozen=True)
class CWSRSizes:
    """Context-save area of one compute queue (per XCC sizes; ``total`` is the allocation)."""
    ctl_stack_size: int
    ctx_save_restore_size: int
    debug_memory_size: int
    num_xcc: int

    @property
    def total(self):
        return (self.ctx_save_restore_size + self.debug_memory_size) * self.num_xcc


def _split64(x):
    return [x & 0xFFFFFFFF, x >> 32]


def _page_align(n):
    return round_up(n, PAGE)


def vgpr_size_per_cu(gfx_target_version):
    if gfx_target_version in (110000, 110001, 120000, 120001):     # gfx1100/1101/1200/1201
        return 0x60000
    if gfx_target_version == 90010 or 90400 <= gfx_target_version < 90500:    # gfx90a, gfx94x
        return 0x80000
    return 0x40000


def cwsr_sizes(node):
    """libhsakmt's update_ctx_save_restore_size() for a topology node (amd.md section 1.6)."""
    version = node.gfx_target_version
    major = version // 10000
    num_xcc = node.num_xcc
    cu_num = node.simd_count // node.simd_per_cu // num_xcc
    if major >= 10:
        wave_num, bytes_per_wave = cu_num * 32, 12
    else:
        engines = node.prop("array_count") // max(1, node.prop("simd_arrays_per_engine"))
        wave_num, bytes_per_wave = min(cu_num * 40, engines * 512), 8
    header = 40                                             # HsaUserContextSaveAreaHeader
    ctl_stack = _page_align(header + wave_num * bytes_per_wave + 8)
    if major == 10:
        ctl_stack = min(ctl_stack, 0x7000)
    wg_data = cu_num * (vgpr_size_per_cu(version) + 0x4000 + 0x10000 + 0x1000)   # VGPR+SGPR+LDS+HWREG
    return CWSRSizes(ctl_stack, ctl_stack + _page_align(wg_data), round_up(wave_num * 32, 64), num_xcc)


class HWQueue:
    """One KFD queue. Subclasses say how packets land in the ring (``UNIT`` bytes per pointer step)."""
    QUEUE_TYPE = None
    UNIT = 4

    def __init__(self, device, ring_size, name):
        if ring_size < 1024 or ring_size & (ring_size - 1):
            raise ValueError(f"{name} ring size {ring_size} must be a power of two >= 1024 bytes")
        self.device, self.ring_size, self.name = device, ring_size, name
        self.capacity = ring_size // self.UNIT     # in pointer units; a power of two
        self.debug = debug_level()
        mem = device.memory
        self.ring = mem.alloc(ring_size, GTT)
        self.ctl = mem.alloc(PAGE, GTT)
        self.eop = self.cwsr = None
        try:
            if self.QUEUE_TYPE != K.QUEUE_TYPE_SDMA:
                self.cwsr_sizes = cwsr_sizes(device.node)
                self.eop = mem.alloc(EOP_BUFFER_SIZE, VRAM)
                self.cwsr = mem.alloc(self.cwsr_sizes.total, GTT)
            self.ring_u32 = self.ring.view(np.uint32)
            self.ring_mv = memoryview(self.ring_u32)
            self.ring_bytes = memoryview(self.ring_u32).cast("B")
            self.wptr_word = self.ctl.view(np.uint64, WPTR_OFFSET, 1)
            self.wptr_mv = memoryview(self.wptr_word)
            self.rptr_word = self.ctl.view(np.uint64, RPTR_OFFSET, 1)
            self.queue_id = None
            self._create()
        except BaseException:
            self._free_buffers()
            raise

    # -- lifetime -------------------------------------------------------------------------------
    def _reset_state(self):
        self.ring_u32[:] = 0
        self.ctl.view()[:] = 0
        self.wptr = 0                      # monotonic, in UNITs
        self.retired = 0                   # wptr below which the GPU is done
        self.pending = deque()             # (timeline value, wptr after that submission)

    # UNITs a submission's engine may still read after its timeline value has landed (what its
    # owner writes behind the timeline write: a mailbox write and interrupt); they are retired
    # with the next submission, so the host never overwrites words the engine has yet to read.
    signal_tail = 0

    def _init_ring(self):
        """Contents the CP expects before the first packet (AQL: INVALID headers)."""

    def _create(self):
        self._reset_state()
        self._init_ring()
        fields = dict(ring_base_address=self.ring.va, ring_size=self.ring_size, gpu_id=self.device.gpu_id,
                      queue_type=self.QUEUE_TYPE, queue_percentage=K.MAX_QUEUE_PERCENTAGE,
                      queue_priority=QUEUE_PRIORITY, write_pointer_address=self.ctl.va + WPTR_OFFSET,
                      read_pointer_address=self.ctl.va + RPTR_OFFSET)
        if self.eop is not None:
            s = self.cwsr_sizes
            fields.update(eop_buffer_address=self.eop.va, eop_buffer_size=EOP_BUFFER_SIZE,
                          ctx_save_restore_address=self.cwsr.va, ctx_save_restore_size=s.ctx_save_restore_size,
                          ctl_stack_size=s.ctl_stack_size)
            self._write_csa_header()
        args = self.device.kfd.create_queue(**fields)
        self.queue_id = args.queue_id
        self.doorbell, self.doorbell_offset = self.device.doorbell(args.doorbell_offset)
        if self.eop is not None:
            self.device.events.watch_errors(f"{self.name} {self.queue_id}", self.error_payload)

    def _write_csa_header(self):
        """kfd_context_save_area_header: where the debugger's area is, and where KFD reports wave
        exceptions (err_payload_addr, err_event_id: this device's completion event)."""
        header = self.cwsr.view(np.uint32, 0, 10)
        header[:] = 0
        header[CSA_DEBUG_OFFSET // 4] = self.cwsr_sizes.ctx_save_restore_size
        header[CSA_DEBUG_SIZE // 4] = self.cwsr_sizes.debug_memory_size
        header[CSA_ERR_PAYLOAD_ADDR // 4:CSA_ERR_PAYLOAD_ADDR // 4 + 2] = _split64(self.ctl.va + ERROR_PAYLOAD_OFFSET)
        header[CSA_ERR_EVENT_ID // 4] = self.device.events.event_id
        self.error_payload = self.ctl.view(np.uint8, ERROR_PAYLOAD_OFFSET, ERROR_PAYLOAD_BYTES)

    def recreate(self):
        """Destroy and create the KFD queue again on the same buffers (after a fault)."""
        self._destroy_queue(ignore_errors=True)
        self._create()

    def _destroy_queue(self, ignore_errors=False):
        if self.queue_id is None:
            return
        queue_id, self.queue_id = self.queue_id, None
        if self.eop is not None and self.device.events is not None:
            self.device.events.unwatch_errors(f"{self.name} {queue_id}")
        try:
            self.device.kfd.destroy_queue(queue_id)
        except IoctlError:
            if not ignore_errors:
                raise

    def _free_buffers(self):
        for b in (self.cwsr, self.eop, self.ctl, self.ring):
            if b is not None:
                b.free()

    def destroy(self):
        try:
            self._destroy_queue(ignore_errors=True)
        finally:
            self._free_buffers()

    # -- submission -----------------------------------------------------------------------------
    def make_room(self, units, timeline):
        """Wait until ``units`` more fit in the ring. Everything already completed is retired at
        once (so the next submissions find room without coming here); then, if that is not
        enough, the oldest submissions are waited for."""
        if units > self.capacity - self.signal_tail:
            raise GPUError(f"{self.name}: a submission of {units * self.UNIT} bytes does not fit the "
                           f"{self.ring_size}-byte ring")
        pending, done = self.pending, timeline.value
        tail = self.signal_tail
        while pending and pending[0][0] <= done:
            self.retired = pending.popleft()[1] - tail
        while self.wptr + units - self.retired > self.capacity:
            if not pending:
                raise GPUError(f"{self.name}: ring full with nothing in flight (wptr {self.wptr}, "
                               f"retired {self.retired})")
            value, end = pending.popleft()
            if timeline.value < value:
                timeline.wait(value)
            self.retired = end - tail

    def commit(self, value):
        """Publish the write pointer, ring the doorbell, remember what ``value`` retires."""
        self.wptr_mv[0] = self.wptr
        self.doorbell.store64(self.doorbell_offset, self.doorbell_value())
        self.pending.append((value, self.wptr))

    def doorbell_value(self):
        return self.wptr

    def position(self):
        """Where the engine's read pointer stands, and what sits there (for hang reports)."""
        cap = self.capacity
        rptr = int(self.rptr_word[0])
        if rptr % cap == self.wptr % cap and rptr <= self.wptr:
            return f"{self.name} {self.queue_id}: read pointer {rptr} = write pointer (everything fetched)"
        return f"{self.name} {self.queue_id}: read pointer {rptr} of {self.wptr} at {self.packet_at(rptr % cap)}"

    def packet_at(self, index):
        return f"ring offset {index}"


def _fill_amd_queue(queue, size):
    node = queue.device.node
    aql.fill_amd_queue(queue.ctl.view(), queue.ring.va, size, 0, max_cu_id=max(0, node.compute_units - 1),
                       max_wave_id=max(0, node.max_waves_per_simd * node.simd_per_cu - 1))


class PM4Queue(HWQueue):
    """Compute queue of type COMPUTE: PM4 packets, pointers in dwords; packets may wrap."""
    QUEUE_TYPE = K.QUEUE_TYPE_COMPUTE
    UNIT = 4

    def _init_ring(self):
        # The CP only uses the pointer words, but kernels that read hidden_queue_ptr (or
        # QUEUE_PTR) find a described queue here, as on an AQL queue.
        _fill_amd_queue(self, self.capacity)

    def packet_at(self, index):
        kind, op, n = pm4.decode_header(int(self.ring_u32[index]))
        name = pm4.OPCODE_NAMES.get(op, f"opcode 0x{op:02x}") if kind == 3 else f"a type-{kind} word"
        return f"dword {index}: {name}"

    def submit(self, dwords, value, timeline):
        """Write PM4 ``dwords`` (a list) and publish them (the last packet signals ``value``)."""
        self.submit_words(memoryview(array("I", dwords)), value, timeline)

    def submit_words(self, words, value, timeline, pre=None, post=None, split=0):
        """Write the dwords of ``words`` (a memoryview of uint32) into the ring, commit, ring
        the doorbell. With ``pre``/``post`` (lists), the ring gets pre + words[:split] + post +
        words[split:] (a copy wait and timestamps around a dispatch, before its signal)."""
        n = len(words) + (len(pre) + len(post) if pre is not None else 0)
        if self.wptr + n - self.retired > self.capacity:
            self.make_room(n, timeline)
        if self.debug >= 2:
            self._show(words, value, pre, post, split)
        if pre is None:
            self._put(words)
        else:
            for part in (pre, words[:split], post, words[split:]):
                if len(part):
                    self._put(part if isinstance(part, memoryview) else memoryview(array("I", part)))
        self.wptr_mv[0] = self.wptr
        self.doorbell.store64(self.doorbell_offset, self.wptr)
        self.pending.append((value, self.wptr))

    def _put(self, words):
        n, cap = len(words), self.capacity
        pos = self.wptr & (cap - 1)
        if pos + n <= cap:
            self.ring_mv[pos:pos + n] = words
        else:
            first = cap - pos
            self.ring_mv[pos:cap] = words[:first]
            self.ring_mv[:n - first] = words[first:]
        self.wptr += n

    def _show(self, words, value, pre, post, split):
        parts = [list(words)] if pre is None else [pre, list(words[:split]), post, list(words[split:])]
        names = " ".join(name for part in parts for name, _ in pm4.split_packets([int(d) for d in part]))
        debug_line(f"{self.name} {self.queue_id} @ {self.wptr}: {names} -> signal {value}")


class SDMAQueue(HWQueue):
    """SDMA queue: pointers in bytes; a packet never straddles the end (the tail becomes NOPs)."""
    QUEUE_TYPE = K.QUEUE_TYPE_SDMA
    UNIT = 1

    def packet_at(self, index):
        op = int(self.ring_u32[index // 4]) & 0xFF
        return f"byte {index}: {sdma.OP_NAMES.get(op, f'opcode {op}')}"

    def submit(self, dwords, value, timeline):
        if self.debug >= 2:
            ops = " ".join(str(int(d) & 0xFF) for d in dwords[:1])
            debug_line(f"{self.name} {self.queue_id} @ {self.wptr}: {len(dwords)} dwords, first op {ops} -> "
                       f"signal {value}")
        nbytes = len(dwords) * 4
        cap = self.capacity
        pos = self.wptr % cap
        pad = cap - pos if pos + nbytes > cap else 0
        self.make_room(pad + nbytes, timeline)
        ring = self.ring_u32
        if pad:
            ring[pos // 4:] = sdma.nops(pad // 4)
            self.wptr += pad
            pos = 0
        ring[pos // 4:pos // 4 + len(dwords)] = dwords
        self.wptr += nbytes
        self.commit(value)


class AQLQueue(HWQueue):
    """Compute queue of type COMPUTE_AQL: 64-byte packets, pointers count packets, the control
    block is a real amd_queue_t the CP reads (scratch setup, properties)."""
    QUEUE_TYPE = K.QUEUE_TYPE_COMPUTE_AQL
    UNIT = aql.PACKET_BYTES

    def _init_ring(self):
        self.ring_slots = self.ring_u32.reshape(-1, 16)
        self.ring_slots[:, 0] = aql.INVALID_PACKET_DWORD0
        _fill_amd_queue(self, self.capacity)

    def doorbell_value(self):
        return self.wptr - 1

    def packet_at(self, index):
        header = int(self.ring_slots[index, 0])
        return f"packet {index}: {_AQL_NAMES.get(header & 0xFF, f'type {header & 0xFF}')}"

    def submit(self, packets, value, timeline, last=None):
        """``packets``: 16-dword packets (memoryviews or numpy arrays), then ``last`` (the signal).
        Bodies are written first, then the headers in order, so the CP never sees a valid header
        over a half-written packet."""
        if last is not None:
            packets = list(packets) + [last]
        if self.debug >= 2:
            kinds = " ".join(_AQL_NAMES.get(int(p[0]) & 0xFF, "?") for p in packets)
            debug_line(f"{self.name} {self.queue_id} @ {self.wptr}: {kinds} -> signal {value}")
        n = len(packets)
        if self.wptr + n - self.retired > self.capacity:
            self.make_room(n, timeline)
        cap = self.capacity
        ring = self.ring_mv
        slot = self.wptr & (cap - 1)
        for p in packets:
            base = slot * 16
            ring[base + 1:base + 16] = p[1:] if isinstance(p, memoryview) else memoryview(p)[1:]
            slot = (slot + 1) & (cap - 1)
        slot = self.wptr & (cap - 1)
        for p in packets:
            ring[slot * 16] = int(p[0])
            slot = (slot + 1) & (cap - 1)
        self.wptr += n
        self.wptr_mv[0] = self.wptr
        self.doorbell.store64(self.doorbell_offset, self.wptr - 1)
        self.pending.append((value, self.wptr))
