"""The SDMA v6 (gfx11) packet processor: copies, fills, fences, traps and polls.

The ring's write pointer (doorbell value) and read pointer are 64-bit byte counts; packets are
dword streams (header: op[7:0], sub_op[15:8]) and may wrap around the ring end.  A fence to an
event mailbox followed by TRAP(int_context = event id) signals a KFD event.  Layouts: amd.md §2.4
(sdma_v6_0_0_pkt_open.h).
"""
import numpy as np

from drivers.emu.faults import PacketError
from drivers.emu.amd.gpu import log
from drivers.emu.amd.pm4 import check_write_pointer, compare

NOP, COPY, WRITE, INDIRECT, FENCE, TRAP, SEM, POLL_REGMEM = 0, 1, 2, 4, 5, 6, 7, 8
ATOMIC, CONST_FILL, TIMESTAMP, GCR_REQ = 10, 11, 13, 17
SUB_LINEAR, SUB_TIMESTAMP_GET, SUB_TIMESTAMP_GET_GLOBAL = 0, 1, 2
OP_NAMES = {NOP: "NOP", COPY: "COPY", WRITE: "WRITE", INDIRECT: "INDIRECT", FENCE: "FENCE", TRAP: "TRAP",
            SEM: "SEM", POLL_REGMEM: "POLL_REGMEM", ATOMIC: "ATOMIC", CONST_FILL: "CONST_FILL",
            TIMESTAMP: "TIMESTAMP", GCR_REQ: "GCR_REQ"}


class SDMAQueue:
    kind = "SDMA"

    def __init__(self, gpu, queue):
        self.gpu, self.queue, self.vm = gpu, queue, queue.process.vm
        self.ring = queue.ring.view(np.uint32)
        self.rptr = 0                         # bytes
        self.where = None

    def _dwords(self, pos, n):
        size = self.ring.size
        i = pos % size
        return [int(x) for x in (self.ring[i:i + n] if i + n <= size else self.ring[np.arange(i, i + n) % size])]

    def busy(self):
        target = self.queue.doorbell_value
        return target is not None and self.rptr < target

    def run(self):
        q = self.queue
        target = q.doorbell_value
        if target is None:
            return False
        ring_bytes = self.ring.size * 4
        if target % 4:
            raise PacketError(f"doorbell write pointer {target} is not a whole number of dwords")
        check_write_pointer(self.vm, q, target, self.rptr, ring_bytes, f"{ring_bytes}-byte")
        progress = False
        while self.rptr < target:
            pos = self.rptr // 4
            header = self._dwords(pos, 1)[0]
            op, sub = header & 0xFF, (header >> 8) & 0xFF
            where = f"{OP_NAMES.get(op, f'opcode {op}')} at ring byte {self.rptr % ring_bytes}"
            length = self.length(op, sub, header, pos, where)
            if self.rptr + 4 * length > target:
                raise PacketError(f"{where}: needs {length} dwords but only {(target - self.rptr) // 4} "
                                  "were published by the write pointer")
            packet = self._dwords(pos, length)
            self.where = where
            log(2, f"SDMA queue {q.queue_id}: {where}: " + " ".join(f"{d:08x}" for d in packet[:8]))
            if self.execute(op, sub, packet, where) is False:
                return progress
            self.rptr += 4 * length
            self.vm.write_u64(q.rptr_va, self.rptr)
            progress = True
        return progress

    def length(self, op, sub, header, pos, where):
        if op == NOP:
            return 1 + ((header >> 16) & 0x3FFF)
        if op == COPY and sub == SUB_LINEAR:
            return 7
        if op == WRITE and sub == SUB_LINEAR:
            return 5 + (self._dwords(pos + 3, 1)[0] & 0xFFFFF)
        fixed = {FENCE: 4, TRAP: 2, POLL_REGMEM: 6, CONST_FILL: 5, GCR_REQ: 5}
        if op in fixed and sub == 0:
            return fixed[op]
        if op == TIMESTAMP and sub in (SUB_TIMESTAMP_GET, SUB_TIMESTAMP_GET_GLOBAL):
            return 3
        if op in OP_NAMES:
            raise PacketError(f"{where}: SDMA opcode {op} sub-opcode {sub} (header 0x{header:08x}) is not "
                              "supported by the virtual SDMA engine")
        raise PacketError(f"{where}: unknown SDMA opcode {op} sub-opcode {sub} (header 0x{header:08x})")

    @staticmethod
    def _addr(lo, hi):
        return hi << 32 | lo

    def execute(self, op, sub, p, where):
        if op in (NOP, GCR_REQ):            # caches are coherent here
            return None
        if op == COPY:
            count = (p[1] & 0x3FFFFFFF) + 1
            src, dst = self._addr(p[3], p[4]), self._addr(p[5], p[6])
            self.vm.write(dst, self.vm.translate(src, count).copy())
        elif op == WRITE:
            dst = self._addr(p[1], p[2])
            if dst % 4:
                raise PacketError(f"{where}: destination 0x{dst:x} (dword 1) is not 4-byte aligned")
            self.vm.write(dst, np.array(p[4:], np.uint32))
        elif op == FENCE:
            dst = self._addr(p[1], p[2])
            if dst % 4:
                raise PacketError(f"{where}: fence address 0x{dst:x} (dword 1) is not 4-byte aligned")
            self.vm.write_u32(dst, p[3])
        elif op == TRAP:
            self.queue.process.events.interrupt(p[1] & 0x0FFFFFFF)
        elif op == POLL_REGMEM:
            function, mem_poll = (p[0] >> 28) & 7, p[0] >> 31
            if function == 7:
                raise PacketError(f"{where}: compare function 7 (header bits 30:28) is reserved")
            if mem_poll:
                addr = self._addr(p[1], p[2])
                if addr % 4:
                    raise PacketError(f"{where}: poll address 0x{addr:x} (dword 1) is not 4-byte aligned")
                if not compare(function, self.vm.u32(addr), p[3], p[4]):
                    return False
        elif op == CONST_FILL:
            dst, data, count = self._addr(p[1], p[2]), p[3], (p[4] & 0x3FFFFFFF) + 1
            fill = min(1 << ((p[0] >> 30) & 3), 4)     # fillsize: 1, 2 or 4 bytes of data repeated
            self.vm.fill(dst, int(data).to_bytes(4, "little")[:fill], count)
        elif op == TIMESTAMP:
            dst = self._addr(p[1], p[2])
            if dst % 8:
                raise PacketError(f"{where}: timestamp address 0x{dst:x} (dword 1) is not 8-byte aligned")
            self.vm.write_u64(dst, self.gpu.clock())
        return None
