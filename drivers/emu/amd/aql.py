"""The AQL packet processor (HSA queues, KFD_IOC_QUEUE_TYPE_COMPUTE_AQL).

The ring holds 64-byte packets; the doorbell carries the index of the last packet written and
``write_dispatch_id`` (the queue's write pointer) must already cover it.  The CP parks on a packet
whose header is still INVALID, on an unsatisfied barrier, or inside a PM4-IB packet whose PM4
waits, and resumes there.  After a packet completes, its completion signal (amd_signal_t) is
decremented and, if the signal has an event mailbox, the event id is written there and an
interrupt raised.  ``read_dispatch_id`` in amd_queue_t is written back after every packet.
Layouts: amd.md §2.1-2.2.
"""
import numpy as np

from drivers.emu.amd.dispatch import LDS_GRANULE, Dispatch
from drivers.emu.faults import PacketError
from drivers.emu.amd.gpu import log
from drivers.emu.amd.pm4 import BLOCKED, INDIRECT_BUFFER, YIELDED, PM4Engine

PACKET_SIZE = 64
VENDOR_SPECIFIC, INVALID, KERNEL_DISPATCH, BARRIER_AND, AGENT_DISPATCH, BARRIER_OR = range(6)
TYPE_NAMES = {VENDOR_SPECIFIC: "VENDOR_SPECIFIC", INVALID: "INVALID", KERNEL_DISPATCH: "KERNEL_DISPATCH",
              BARRIER_AND: "BARRIER_AND", AGENT_DISPATCH: "AGENT_DISPATCH", BARRIER_OR: "BARRIER_OR"}
AMD_AQL_FORMAT_PM4_IB, AMD_AQL_FORMAT_BARRIER_VALUE = 1, 2
READ_DISPATCH_ID_OFFSET = 128          # amd_queue_t.read_dispatch_id
MAX_WORKGROUP_SIZE = 1024
MAX_GROUP_SEGMENT = 64 * 1024

# kernel_code_properties bits -> user SGPRs they add, in the order the CP loads them
KD_USER_SGPRS = ((0, "private_segment_buffer", 4), (1, "dispatch_ptr", 2), (2, "queue_ptr", 2),
                 (3, "kernarg_segment_ptr", 2), (4, "dispatch_id", 2), (5, "flat_scratch_init", 2),
                 (6, "private_segment_size", 1))
KD_WAVEFRONT_SIZE32 = 1 << 10


def _u(buf, off, dtype):
    return int(np.frombuffer(buf, dtype, 1, off)[0])


def _pair(v):
    return (v & 0xFFFFFFFF, v >> 32 & 0xFFFFFFFF)


class AQLQueue:
    kind = "AQL"

    def __init__(self, gpu, queue):
        self.gpu, self.queue, self.vm = gpu, queue, queue.process.vm
        self.ring = queue.ring
        self.count = queue.ring_size // PACKET_SIZE
        self.rptr = 0
        self.pm4 = PM4Engine(gpu, queue)   # runs the IBs of PM4-IB vendor packets
        self.pm4_busy = False
        self.where = None

    @property
    def amd_queue_va(self):
        return self.queue.rptr_va - READ_DISPATCH_ID_OFFSET

    def busy(self):
        target = self.queue.doorbell_value
        return target is not None and self.rptr <= target

    def run(self):
        q = self.queue
        if q.doorbell_value is None:
            return False
        target = q.doorbell_value + 1
        write_id = self.vm.u64(q.wptr_va)
        if target > write_id:
            raise PacketError(f"doorbell names packet {q.doorbell_value} but write_dispatch_id is only {write_id}")
        if target - self.rptr > self.count:
            raise PacketError(f"doorbell names packet {q.doorbell_value}, more than the {self.count}-packet "
                              f"ring ahead of read_dispatch_id {self.rptr}")
        progress = False
        while self.rptr < target:
            index = self.rptr % self.count
            va = q.ring_va + index * PACKET_SIZE
            pkt = self.ring[index * PACKET_SIZE:(index + 1) * PACKET_SIZE]
            kind = _u(pkt, 0, np.uint16) & 0xFF
            if kind == INVALID:
                return progress          # the producer has not published this header yet
            what = f"{TYPE_NAMES.get(kind, f'type {kind}')} packet {self.rptr} (ring byte {index * PACKET_SIZE}, VA 0x{va:x})"
            log(2, f"AQL queue {q.queue_id}: {what}: {bytes(pkt).hex()}")
            self.where = what
            result = self.handle(kind, pkt, what, va)
            if result == BLOCKED:
                return progress
            if result == YIELDED:                # a dispatch of a PM4 IB ran; the IB goes on next pass
                return True
            self.complete(_u(pkt, 56, np.uint64), what)
            self.rptr += 1
            self.vm.write_u64(q.rptr_va, self.rptr)
            progress = True
            if kind == KERNEL_DISPATCH:          # one dispatch per pass: the other queues get a turn
                return True
        return progress

    def handle(self, kind, pkt, what, va):
        if kind == KERNEL_DISPATCH:
            return self.kernel_dispatch(pkt, what, va)
        if kind in (BARRIER_AND, BARRIER_OR):
            deps = [_u(pkt, 8 + 8 * i, np.uint64) for i in range(5)]
            values = [self.signal_value(d, f"{what}: dep_signal[{i}] (dword {2 + 2 * i})")
                      for i, d in enumerate(deps) if d]
            if kind == BARRIER_AND:
                return None if all(v == 0 for v in values) else BLOCKED
            return None if not values or any(v == 0 for v in values) else BLOCKED
        if kind == VENDOR_SPECIFIC:
            return self.vendor(pkt, what)
        if kind == AGENT_DISPATCH:
            raise PacketError(f"{what}: agent dispatch packets are not supported by the GPU's CP")
        raise PacketError(f"{what}: reserved packet type {kind} in header 0x{_u(pkt, 0, np.uint16):04x} (dword 0)")

    def vendor(self, pkt, what):
        fmt = _u(pkt, 2, np.uint16)
        if fmt == AMD_AQL_FORMAT_PM4_IB:
            if not self.pm4_busy:
                ib = [_u(pkt, 4 * i, np.uint32) for i in range(1, 5)]
                header = ib[0]
                if header >> 30 != 3 or (header >> 8) & 0xFF != INDIRECT_BUFFER or (header >> 16) & 0x3FFF != 2:
                    raise PacketError(f"{what}: dword 1 is 0x{header:08x}, not a PM4 INDIRECT_BUFFER header")
                target = self.pm4.indirect_buffer(ib, what, 0)
                self.pm4.push_ib(*target, what)
                self.pm4_busy = True
            done = self.pm4.run_frames()
            if done is False:
                return BLOCKED
            if done == YIELDED:
                return YIELDED
            self.pm4_busy = False
            return None
        if fmt == AMD_AQL_FORMAT_BARRIER_VALUE:
            signal, value, mask, cond = (_u(pkt, 8, np.uint64), _u(pkt, 16, np.int64),
                                         _u(pkt, 24, np.int64), _u(pkt, 32, np.uint32))
            current = self.signal_value(signal, f"{what}: signal (dword 2)") & mask
            if cond > 3:
                raise PacketError(f"{what}: barrier-value condition {cond} (dword 8) is not EQ/NE/LT/GTE")
            ok = (current == value, current != value, current < value, current >= value)[cond]
            return None if ok else BLOCKED
        raise PacketError(f"{what}: AMD vendor format {fmt} (dword 0 bits 31:16) is not supported")

    def signal_value(self, signal, what):
        """amd_signal_t.value of the signal whose handle (address) a packet names."""
        if signal % 8:
            raise PacketError(f"{what} 0x{signal:x} is not 8-byte aligned")
        return self.vm.i64(signal + 8)

    def complete(self, signal, what):
        if not signal:
            return
        if signal % 8:
            raise PacketError(f"{what}: completion_signal 0x{signal:x} (dword 14) is not 8-byte aligned")
        value = self.vm.view(signal + 8, np.int64, 1, write=True)
        value[0] -= 1
        now = self.gpu.clock()
        self.vm.write_u64(signal + 32, now)       # start_ts / end_ts for a profiling runtime
        self.vm.write_u64(signal + 40, now)
        mailbox = self.vm.u64(signal + 16)
        if mailbox:
            event_id = self.vm.u32(signal + 24)
            self.vm.write_u64(mailbox, event_id)
            self.queue.process.events.interrupt(event_id)

    def kernel_dispatch(self, pkt, what, va):
        dims = _u(pkt, 2, np.uint16) & 3
        wg = tuple(_u(pkt, 4 + 2 * i, np.uint16) for i in range(3))
        grid = tuple(_u(pkt, 12 + 4 * i, np.uint32) for i in range(3))
        if dims == 0:
            raise PacketError(f"{what}: setup.dimensions is 0 (dword 0 bits 17:16)")
        if 0 in wg or 0 in grid:
            raise PacketError(f"{what}: workgroup size {wg} and grid size {grid} (dwords 1-5) must be non-zero")
        if wg[0] * wg[1] * wg[2] > MAX_WORKGROUP_SIZE:
            raise PacketError(f"{what}: workgroup of {wg[0] * wg[1] * wg[2]} work-items exceeds {MAX_WORKGROUP_SIZE}")
        private_size, group_size = _u(pkt, 24, np.uint32), _u(pkt, 28, np.uint32)
        kernel_object, kernarg = _u(pkt, 32, np.uint64), _u(pkt, 40, np.uint64)
        if kernel_object % 64:
            raise PacketError(f"{what}: kernel_object 0x{kernel_object:x} (dword 8) is not 64-byte aligned")
        kd = self.vm.read(kernel_object, 64)
        group_size = max(group_size, _u(kd, 0, np.uint32))
        if group_size > MAX_GROUP_SEGMENT:
            raise PacketError(f"{what}: group segment of {group_size} bytes exceeds the {MAX_GROUP_SEGMENT}-byte LDS")
        rsrc3, rsrc1, rsrc2 = _u(kd, 0x2C, np.uint32), _u(kd, 0x30, np.uint32), _u(kd, 0x34, np.uint32)
        props = _u(kd, 0x38, np.uint16)
        lds_units = -(-group_size // LDS_GRANULE)
        rsrc2 = (rsrc2 & ~(0x1FF << 15)) | (lds_units << 15)
        scratch_srd, scratch_base, tmpring = (0, 0, 0, 0), 0, 0
        if props & 0b100001 or rsrc2 & 1:        # private segment buffer / flat scratch / scratch_en
            aq = self.amd_queue_va
            tmpring = self.vm.u32(aq + 140)
            scratch_srd = tuple(self.vm.u32(aq + 144 + 4 * i) for i in range(4))
            scratch_base = self.vm.u64(aq + 160)
        values = {"private_segment_buffer": scratch_srd, "dispatch_ptr": _pair(va),
                  "queue_ptr": _pair(self.amd_queue_va), "kernarg_segment_ptr": _pair(kernarg),
                  "dispatch_id": _pair(self.rptr), "flat_scratch_init": _pair(scratch_base),
                  "private_segment_size": (private_size,)}
        sgprs = []
        for bit, name, _n in KD_USER_SGPRS:
            if props & (1 << bit):
                sgprs.extend(values[name])
        count = (rsrc2 >> 1) & 0x1F
        if len(sgprs) > count:
            raise PacketError(f"{what}: kernel descriptor at 0x{kernel_object:x} enables {len(sgprs)} user SGPRs "
                              f"but COMPUTE_PGM_RSRC2.USER_SGPR_COUNT is {count}")
        sgprs += [0] * (count - len(sgprs))
        d = Dispatch(
            source="aql", code_va=kernel_object + _u(kd, 0x10, np.int64), rsrc1=rsrc1, rsrc2=rsrc2,
            rsrc3=rsrc3, user_sgprs=tuple(sgprs),
            grid_workgroups=tuple(-(-g // w) for g, w in zip(grid, wg)), workgroup_size=wg, grid_size=grid,
            lds_bytes=group_size, wave32=bool(props & KD_WAVEFRONT_SIZE32), vm=self.vm,
            scratch_base=scratch_base, tmpring_size=tmpring, private_segment_size=private_size,
            kernarg_va=kernarg, kernel_object=kernel_object, packet_va=va, queue_id=self.queue.queue_id,
            clock=self.gpu.clock, trap_handler=self.queue.process.trap_handler)
        self.gpu.dispatch(d, self.queue)
