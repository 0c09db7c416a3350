"""The PM4 command processor of a compute (MEC) queue on gfx11.

Packets are type-3 (header: type[31:30]=3, count[29:16] = payload dwords - 1, opcode[15:8]); a
type-2 header is a one-dword filler.  The ring's write pointer (doorbell value) and read pointer
are 64-bit dword counts.  INDIRECT_BUFFER pushes a frame (ring -> IB1 -> IB2; CHAIN replaces the
current IB), and WAIT_REG_MEM leaves the engine parked on the packet until memory satisfies it,
so execution resumes exactly there on the next doorbell.  Payload layouts: amd.md §2.3.
"""
import sys

import numpy as np

from drivers.emu.amd.dispatch import LDS_GRANULE, Dispatch
from drivers.emu.faults import PacketError
from drivers.emu.amd.gpu import debug_level

NOP, DISPATCH_DIRECT, WRITE_DATA, WAIT_REG_MEM = 0x10, 0x15, 0x37, 0x3C
INDIRECT_BUFFER, COPY_DATA, EVENT_WRITE, RELEASE_MEM = 0x3F, 0x40, 0x46, 0x49
ACQUIRE_MEM, SET_SH_REG, SET_UCONFIG_REG = 0x58, 0x76, 0x79
OPCODE_NAMES = {NOP: "NOP", DISPATCH_DIRECT: "DISPATCH_DIRECT", WRITE_DATA: "WRITE_DATA",
                WAIT_REG_MEM: "WAIT_REG_MEM", INDIRECT_BUFFER: "INDIRECT_BUFFER", COPY_DATA: "COPY_DATA",
                EVENT_WRITE: "EVENT_WRITE", RELEASE_MEM: "RELEASE_MEM", ACQUIRE_MEM: "ACQUIRE_MEM",
                SET_SH_REG: "SET_SH_REG", SET_UCONFIG_REG: "SET_UCONFIG_REG"}

SH_REG_START, SH_REG_END = 0x2C00, 0x3000
UCONFIG_REG_START, UCONFIG_REG_END = 0xC000, 0x10000
IB_VALID, IB_CHAIN = 1 << 23, 1 << 20
MAX_IB_LEVEL = 2                        # the ring may call IB1, IB1 may call IB2
MAX_IB_PACKETS = 1 << 20                # per doorbell: more means a chain that loops back on itself

# gfx11 COMPUTE_* registers (absolute dword addresses, amd.md §2.3)
COMPUTE_DISPATCH_INITIATOR = 0x2E00
COMPUTE_NUM_THREAD_X = 0x2E07
COMPUTE_PGM_LO, COMPUTE_PGM_HI = 0x2E0C, 0x2E0D
COMPUTE_DISPATCH_SCRATCH_BASE_LO, COMPUTE_DISPATCH_SCRATCH_BASE_HI = 0x2E10, 0x2E11
COMPUTE_PGM_RSRC1, COMPUTE_PGM_RSRC2, COMPUTE_PGM_RSRC3 = 0x2E12, 0x2E13, 0x2E28
COMPUTE_TMPRING_SIZE = 0x2E18
COMPUTE_USER_DATA_0 = 0x2E40
CS_EN, USE_THREAD_DIMENSIONS, CS_W32_EN = 1 << 0, 1 << 5, 1 << 15

BLOCKED = "blocked"
YIELDED = "yielded"                     # run_frames: a dispatch ran; the rest continues on the next pass


def check_write_pointer(vm, q, target, rptr, ring_units, ring_text):
    """A doorbell value must equal what the queue's wptr word says (a preempted queue resumes from
    memory, so the two must agree) and lie within one ring of the read pointer."""
    published = vm.u64(q.wptr_va)
    if target > published:
        raise PacketError(f"doorbell write pointer {target} is past the write pointer {published} "
                          f"in memory at 0x{q.wptr_va:x}")
    if target < rptr or target - rptr > ring_units:
        raise PacketError(f"doorbell write pointer {target} is behind the read pointer {rptr} "
                          f"or more than the {ring_text} ring ahead of it")


def compare(function, value, reference, mask):
    """WAIT_REG_MEM / POLL_REGMEM comparison; function 7 is reserved."""
    v = value & mask
    return (True, v < reference, v <= reference, v == reference, v != reference, v >= reference,
            v > reference)[function]


class PM4Engine:
    """Executes PM4 packets from IB frames; PM4Queue adds the ring, AQL reuses it for PM4-IB packets."""

    kind = "PM4"

    def __init__(self, gpu, queue):
        self.gpu, self.queue = gpu, queue
        self.vm = queue.process.vm
        self.regs = {}
        self.frames = []                 # [ib_va, dwords (np.uint32), pos, level]
        self.where = None                # the packet being executed, for fault messages
        self.dispatched = False          # a DISPATCH_DIRECT ran since the CP last looked

    # -- IB frames ----------------------------------------------------------------------------
    def push_ib(self, va, size_dw, chain, where):
        if va % 4:
            raise PacketError(f"INDIRECT_BUFFER at {where}: IB address 0x{va:x} is not 4-byte aligned")
        if size_dw == 0:
            return
        level = self.frames[-1][3] + 1 if self.frames else 1
        if chain and self.frames:
            self.frames.pop()
            level -= 1
        if level > MAX_IB_LEVEL:
            raise PacketError(f"INDIRECT_BUFFER at {where}: IB nesting deeper than {MAX_IB_LEVEL} levels")
        dwords = self.vm.translate(va, size_dw * 4).view(np.uint32)
        self.frames.append([va, dwords, 0, level])

    def run_frames(self):
        """Run IB frames until they are done (True), a packet blocks (False) or a dispatch has run
        (YIELDED: the CP takes one dispatch per pass, so others get their turn)."""
        budget = MAX_IB_PACKETS
        while self.frames:
            budget -= 1
            if budget < 0:
                va = self.frames[-1][0]
                self.frames.clear()
                raise PacketError(f"IB 0x{va:x}: {MAX_IB_PACKETS} IB packets ran without the chain ending "
                                  "(an INDIRECT_BUFFER chain that loops?)")
            frame = self.frames[-1]
            va, dwords, pos, _ = frame
            if pos >= dwords.size:
                self.frames.pop()
                continue
            length, opcode = self.packet_length(int(dwords[pos]), f"IB 0x{va:x} dword {pos}")
            where = f"IB 0x{va:x} dword {pos}"
            if pos + length > dwords.size:
                raise PacketError(f"{self.name(opcode)} at {where} needs {length} dwords but the IB "
                                  f"ends after {dwords.size - pos}")
            result = self.execute(opcode, dwords[pos:pos + length], where, va + 4 * pos)
            if result == BLOCKED:
                return False
            frame[2] = pos + length
            if isinstance(result, tuple):
                self.push_ib(*result, where)
            if self.dispatched:
                self.dispatched = False
                return YIELDED
        return True

    # -- packets ------------------------------------------------------------------------------
    @staticmethod
    def name(opcode):
        return OPCODE_NAMES.get(opcode, f"opcode 0x{opcode:02x}") if opcode is not None else "type-2 filler"

    @staticmethod
    def packet_length(header, where):
        """(dwords, opcode) of the packet starting with ``header``; opcode None for a filler."""
        kind = header >> 30
        if kind == 2:
            return 1, None
        if kind != 3:
            raise PacketError(f"type-{kind} PM4 header 0x{header:08x} at {where}: compute queues take "
                              "type-3 packets only")
        count, opcode = (header >> 16) & 0x3FFF, (header >> 8) & 0xFF
        if opcode == NOP and count == 0x3FFF:
            return 1, NOP
        return count + 2, opcode

    def execute(self, opcode, p, where, packet_va):
        """Run one packet (``p``: its dwords incl. header).  None, BLOCKED or an IB to push."""
        self.where = f"{self.name(opcode)} at {where}"
        if debug_level() >= 2:
            print(f"PM4 queue {self.queue.queue_id}: {self.name(opcode)} at {where}: "
                  + " ".join(f"{int(x):08x}" for x in p), file=sys.stderr)
        if opcode is None or opcode == NOP:
            return None
        handler = self.HANDLERS.get(opcode)
        if handler is None:
            raise PacketError(f"unknown PM4 opcode 0x{opcode:02x} (header 0x{int(p[0]):08x}) at {where}")
        p = [int(x) for x in p]
        return handler(self, p, f"{self.name(opcode)} at {where}", packet_va)

    def _need(self, p, counts, what):
        if len(p) - 2 not in counts:
            raise PacketError(f"{what}: count {len(p) - 2} is wrong for this packet "
                              f"(expected {' or '.join(str(c) for c in counts)})")

    def _set_reg(self, p, what, start, end):
        if len(p) < 3:
            raise PacketError(f"{what}: no register value follows the offset")
        reg = start + (p[1] & 0xFFFF)
        if reg + len(p) - 2 > end:
            raise PacketError(f"{what}: registers 0x{reg:x}..0x{reg + len(p) - 3:x} leave the "
                              f"0x{start:x}..0x{end - 1:x} space")
        for i, v in enumerate(p[2:]):
            self.regs[reg + i] = v

    def set_sh_reg(self, p, what, va):
        self._set_reg(p, what, SH_REG_START, SH_REG_END)

    def set_uconfig_reg(self, p, what, va):
        self._set_reg(p, what, UCONFIG_REG_START, UCONFIG_REG_END)

    def acquire_mem(self, p, what, va):
        self._need(p, (6,), what)       # caches are coherent here: nothing to invalidate

    def event_write(self, p, what, va):
        self._need(p, (0, 2), what)     # synchronous execution: every flush is already complete

    def _address(self, lo, hi, align, what, field="address"):
        va = (hi & 0xFFFF) << 32 | lo
        if va % align:
            raise PacketError(f"{what}: {field} 0x{va:x} is not {align}-byte aligned")
        return va

    def _interrupt(self, context_id):
        self.queue.process.events.interrupt(context_id)

    def release_mem(self, p, what, va):
        self._need(p, (6,), what)
        dst_sel, int_sel, data_sel = (p[2] >> 16) & 3, (p[2] >> 24) & 7, (p[2] >> 29) & 7
        if dst_sel > 1:
            raise PacketError(f"{what}: dst_sel {dst_sel} (queue write pointer) is not supported")
        if data_sel == 1:
            self.vm.write_u32(self._address(p[3], p[4], 4, what), p[5])
        elif data_sel in (2, 3, 4):
            value = p[5] | p[6] << 32 if data_sel == 2 else self.gpu.clock()
            self.vm.write_u64(self._address(p[3], p[4], 8, what), value)
        elif data_sel:
            raise PacketError(f"{what}: data_sel {data_sel} is not defined for compute queues")
        if int_sel:
            self._interrupt(p[7])

    def write_data(self, p, what, va):
        if len(p) < 5:
            raise PacketError(f"{what}: count {len(p) - 2} leaves no data dword")
        dst_sel, one_addr = (p[1] >> 8) & 0xF, bool(p[1] & (1 << 16))
        data = p[4:]
        if dst_sel == 0:
            for i, v in enumerate(data):
                self.regs[(p[2] & 0x3FFFF) + (0 if one_addr else i)] = v
            return
        if dst_sel not in (2, 5):
            raise PacketError(f"{what}: dst_sel {dst_sel} is not memory or a register")
        dst = self._address(p[2], p[3], 4, what)
        if one_addr:
            for v in data:
                self.vm.write_u32(dst, v)
        else:
            self.vm.write(dst, np.array(data, np.uint32))

    def copy_data(self, p, what, va):
        self._need(p, (4,), what)
        src_sel, dst_sel, is64 = p[1] & 0xF, (p[1] >> 8) & 0xF, bool(p[1] & (1 << 16))
        size = 8 if is64 else 4
        if src_sel == 9 or src_sel == 10:
            value = self.gpu.clock()
        elif src_sel == 5:
            value = p[2] | p[3] << 32
        elif src_sel in (1, 2):
            src = self._address(p[2], p[3], size, what, "source")
            value = self.vm.u64(src) if is64 else self.vm.u32(src)
        elif src_sel == 0:
            value = self.regs.get(p[2] & 0x3FFFF, 0)
        else:
            raise PacketError(f"{what}: src_sel {src_sel} is not supported")
        if dst_sel == 0:
            self.regs[p[4] & 0x3FFFF] = value & 0xFFFFFFFF
        elif dst_sel in (2, 5):
            dst = self._address(p[4], p[5], size, what, "destination")
            (self.vm.write_u64 if is64 else self.vm.write_u32)(dst, value)
        else:
            raise PacketError(f"{what}: dst_sel {dst_sel} is not supported")

    def wait_reg_mem(self, p, what, va):
        self._need(p, (5,), what)
        function, mem_space = p[1] & 7, (p[1] >> 4) & 1
        if function == 7:
            raise PacketError(f"{what}: compare function 7 is reserved")
        if not mem_space:
            return None                 # register waits (HDP flush) complete at once here
        addr = self._address(p[2], p[3], 4, what)
        return None if compare(function, self.vm.u32(addr), p[4], p[5]) else BLOCKED

    def indirect_buffer(self, p, what, va):
        self._need(p, (2,), what)
        if not p[3] & IB_VALID:
            raise PacketError(f"{what}: VALID (bit 23) is not set in the size dword 0x{p[3]:08x}")
        return ((p[2] & 0xFFFF) << 32 | p[1], p[3] & 0xFFFFF, bool(p[3] & IB_CHAIN))

    def dispatch_direct(self, p, what, va):
        self._need(p, (3,), what)
        initiator = p[4]
        self.regs[COMPUTE_DISPATCH_INITIATOR] = initiator
        if not initiator & CS_EN:
            raise PacketError(f"{what}: COMPUTE_DISPATCH_INITIATOR 0x{initiator:x} lacks COMPUTE_SHADER_EN")
        r = lambda reg: self.regs.get(reg, 0)   # noqa: E731
        wg = tuple(r(COMPUTE_NUM_THREAD_X + i) & 0xFFFF for i in range(3))
        if 0 in wg:
            raise PacketError(f"{what}: COMPUTE_NUM_THREAD_X/Y/Z = {wg}: a workgroup needs a work-item "
                              "in every dimension")
        dims = tuple(p[1:4])
        if initiator & USE_THREAD_DIMENSIONS:
            grid_threads, groups = dims, tuple(-(-d // w) for d, w in zip(dims, wg))
        else:
            grid_threads, groups = tuple(d * w for d, w in zip(dims, wg)), dims
        if 0 in groups:
            return None                  # an empty grid launches no wave
        rsrc2 = r(COMPUTE_PGM_RSRC2)
        n_user = (rsrc2 >> 1) & 0x1F
        d = Dispatch(
            source="pm4", code_va=(r(COMPUTE_PGM_HI) << 32 | r(COMPUTE_PGM_LO)) << 8,
            rsrc1=r(COMPUTE_PGM_RSRC1), rsrc2=rsrc2, rsrc3=r(COMPUTE_PGM_RSRC3),
            user_sgprs=tuple(r(COMPUTE_USER_DATA_0 + i) for i in range(n_user)),
            grid_workgroups=groups, workgroup_size=wg, grid_size=grid_threads,
            lds_bytes=((rsrc2 >> 15) & 0x1FF) * LDS_GRANULE, wave32=bool(initiator & CS_W32_EN),
            vm=self.vm,
            scratch_base=(r(COMPUTE_DISPATCH_SCRATCH_BASE_HI) << 32 | r(COMPUTE_DISPATCH_SCRATCH_BASE_LO)) << 8,
            tmpring_size=r(COMPUTE_TMPRING_SIZE), packet_va=va, queue_id=self.queue.queue_id,
            registers=dict(self.regs), clock=self.gpu.clock,
            trap_handler=self.queue.process.trap_handler)
        self.dispatched = True
        self.gpu.dispatch(d, self.queue)

    HANDLERS = {SET_SH_REG: set_sh_reg, SET_UCONFIG_REG: set_uconfig_reg, ACQUIRE_MEM: acquire_mem,
                EVENT_WRITE: event_write, RELEASE_MEM: release_mem, WRITE_DATA: write_data,
                COPY_DATA: copy_data, WAIT_REG_MEM: wait_reg_mem, INDIRECT_BUFFER: indirect_buffer,
                DISPATCH_DIRECT: dispatch_direct}


class PM4Queue(PM4Engine):
    """A KFD_IOC_QUEUE_TYPE_COMPUTE queue: PM4 packets in a ring, pointers in dwords."""

    def __init__(self, gpu, queue):
        super().__init__(gpu, queue)
        self.ring = queue.ring.view(np.uint32)
        self.rptr = 0

    def busy(self):
        target = self.queue.doorbell_value
        return bool(self.frames) or (target is not None and self.rptr != target)

    def run(self):
        q, n = self.queue, self.ring.size
        target = q.doorbell_value
        if target is None:
            return False
        check_write_pointer(self.vm, q, target, self.rptr, n, f"{n}-dword")
        progress = False
        while True:
            if self.frames:
                done = self.run_frames()
                if done is False:
                    return progress
                if done == YIELDED:
                    return True
                progress = True
                continue
            if self.rptr == target:
                return progress
            pos = self.rptr % n
            where = f"ring dword {pos}"
            length, opcode = self.packet_length(int(self.ring[pos]), where)
            if self.rptr + length > target:
                raise PacketError(f"{self.name(opcode)} at {where} needs {length} dwords but only "
                                  f"{target - self.rptr} were published by the write pointer")
            packet = self.ring[np.arange(pos, pos + length) % n] if pos + length > n else self.ring[pos:pos + length]
            result = self.execute(opcode, packet, where, q.ring_va + 4 * pos)
            if result == BLOCKED:
                return progress
            self.rptr += length
            self.vm.write_u64(q.rptr_va, self.rptr)
            progress = True
            if isinstance(result, tuple):
                self.push_ib(*result, where)
            if self.dispatched:              # one dispatch per pass: the other queues (and the host) get a turn
                self.dispatched = False
                return True
