"""The PBDMA of one channel: fetch GPFIFO entries, decode push-buffer methods, run host methods, and
hand the rest to the engine object bound to the method's subchannel.

The host fetches entries from GP_GET up to the GP_PUT the driver wrote in USERD (clc56f.h
Nvc56fControl), each naming a push-buffer segment (VA and length in dwords) or, with length 0, a
control entry (NOP; on Hopper also SET_PB_SEGMENT_EXTENDED_BASE for segments above 2^40).  Method
headers are incrementing, non-incrementing, immediate-data and increment-once (SEC_OP 1/3/4/5);
methods below 0x100 are the host's (SET_OBJECT, semaphores, MEM_OP, WFI...), the others go to the
class bound to the subchannel by SET_OBJECT.  A semaphore acquire that is not satisfied parks the
channel on that method; the host thread polls it again, as the PBDMA does.  GP_GET is written back
to USERD after each entry.

Anything malformed (an opcode the host does not define, a method to an unbound subchannel, an
unknown host method, a misaligned semaphore) raises PbdmaError naming the entry, the VA and the
dword; a push buffer or semaphore at an unmapped VA raises MemoryFault with that VA.
"""
import numpy as np

import nv_ioctl as NV

from drivers.emu.nv.faults import PbdmaError
from drivers.emu.nv.gpu import log

GP_GET, GP_PUT, REFERENCE = 0x88 // 4, 0x8C // 4, 0x48 // 4     # Nvc56fControl words
BLOCKED = "blocked"
_MASK64 = (1 << 64) - 1

_SEC_OPS = {NV.NVC56F_DMA_SEC_OP_INC_METHOD: "INC_METHOD", NV.NVC56F_DMA_SEC_OP_NON_INC_METHOD: "NON_INC_METHOD",
            NV.NVC56F_DMA_SEC_OP_IMMD_DATA_METHOD: "IMMD_DATA_METHOD", NV.NVC56F_DMA_SEC_OP_ONE_INC: "ONE_INC"}
_MEM_OPS = {NV.NVC56F_MEM_OP_D_OPERATION_MEMBAR, NV.NVC56F_MEM_OP_D_OPERATION_MMU_TLB_INVALIDATE,
            NV.NVC56F_MEM_OP_D_OPERATION_MMU_TLB_INVALIDATE_TARGETED,
            NV.NVC56F_MEM_OP_D_OPERATION_L2_PEERMEM_INVALIDATE, NV.NVC56F_MEM_OP_D_OPERATION_L2_SYSMEM_INVALIDATE,
            NV.NVC56F_MEM_OP_D_OPERATION_L2_CLEAN_COMPTAGS, NV.NVC56F_MEM_OP_D_OPERATION_L2_FLUSH_DIRTY,
            NV.NVC56F_MEM_OP_D_OPERATION_L2_WAIT_FOR_SYS_PENDING_READS}


def semaphore_reduce(op, old, payload, bits, signed):
    """NVC56F_SEM_EXECUTE_REDUCTION_* (and the copy engine's identical codes) on a `bits`-bit word."""
    mask = (1 << bits) - 1
    if signed:
        sign = lambda v: v - (1 << bits) if v >> (bits - 1) else v      # noqa: E731
        a, b = sign(old), sign(payload)
    else:
        a, b = old, payload
    result = {NV.NVC56F_SEM_EXECUTE_REDUCTION_IMIN: lambda: min(a, b), NV.NVC56F_SEM_EXECUTE_REDUCTION_IMAX: lambda: max(a, b),
              NV.NVC56F_SEM_EXECUTE_REDUCTION_IXOR: lambda: old ^ payload, NV.NVC56F_SEM_EXECUTE_REDUCTION_IAND: lambda: old & payload,
              NV.NVC56F_SEM_EXECUTE_REDUCTION_IOR: lambda: old | payload, NV.NVC56F_SEM_EXECUTE_REDUCTION_IADD: lambda: old + payload,
              NV.NVC56F_SEM_EXECUTE_REDUCTION_INC: lambda: 0 if old >= payload else old + 1,
              NV.NVC56F_SEM_EXECUTE_REDUCTION_DEC: lambda: payload if old == 0 or old > payload else old - 1}.get(op)
    if result is None:
        raise PbdmaError(f"semaphore reduction {op} is not defined")
    return result() & mask


def write_semaphore(vm, address, payload, payload64, timestamp, what):
    """A semaphore release: the 32- or 64-bit payload, and with `timestamp` the 8-byte GPU time at +8."""
    align = 8 if payload64 or timestamp is not None else 4
    if address % align:
        raise PbdmaError(f"{what}: semaphore address 0x{address:x} is not {align}-byte aligned")
    if timestamp is not None:
        vm.write_u64(address + 8, timestamp)
    if payload64:
        vm.write_u64(address, payload & _MASK64)
    else:
        vm.write_u32(address, payload & 0xFFFFFFFF)


class Pbdma:
    def __init__(self, channel):
        self.channel = channel
        self.gp_get = 0
        self.extended_base = 0            # Hopper: push-buffer VA bits 40+ from a control entry
        self.subchannels = {}             # subchannel -> engine (ComputeEngine / CopyEngine)
        self.sem = {"addr_lo": 0, "addr_hi": 0, "payload_lo": 0, "payload_hi": 0}
        self.legacy = {"a": 0, "b": 0, "c": 0}
        self.mem_op = [0, 0, 0]
        self.segment = None               # (entry index, va, dwords list) being executed
        self.pos = 0                      # next dword of the segment
        self.pending = None               # (sec_op, subchannel, method, remaining) of the current header
        self.where = ""                   # what is executing, for error messages
        self.methods = 0

    @property
    def vm(self):
        return self.channel.vaspace.vm

    def release(self):
        self.segment = self.pending = None
        for engine in self.subchannels.values():
            engine.release()
        self.subchannels.clear()

    # -- GPFIFO -------------------------------------------------------------------------------
    def run(self):
        """Execute what GP_PUT publishes -> (anything consumed, blocked on a semaphore acquire)."""
        ch = self.channel
        progress = False
        while ch.enabled and not ch.preempt:
            if self.segment is None:
                put = int(ch.userd()[GP_PUT])
                if put == self.gp_get:
                    return progress, False
                if put >= ch.entries:
                    raise PbdmaError(f"{ch.describe()}: GP_PUT {put} is past the {ch.entries}-entry GPFIFO")
                if not self._fetch_entry():
                    progress = True
                    continue
            start = self.pos, self.methods
            if self._execute_segment() is BLOCKED:
                return progress or (self.pos, self.methods) != start, True
            progress = True
            self.segment = None
            self.gp_get = (self.gp_get + 1) % ch.entries
            ch.userd()[GP_GET] = self.gp_get
        return progress, False

    def busy(self):
        ch = self.channel
        return ch.enabled and (self.segment is not None or int(ch.userd()[GP_PUT]) != self.gp_get)

    def _fetch_entry(self):
        """Read GPFIFO entry GP_GET: a segment to execute (True), or a control entry done (False)."""
        ch = self.channel
        va = ch.ring_va + 8 * self.gp_get
        self.where = f"GPFIFO entry {self.gp_get} at 0x{va:x}"
        e0, e1 = (int(w) for w in self.vm.view(va, np.uint32, 2))
        length = NV.NVC56F_GP_ENTRY1_LENGTH.val(e1)
        if length == 0:
            opcode = NV.NVC56F_GP_ENTRY1_OPCODE.val(e1)
            hopper = ch.class_id == NV.HOPPER_CHANNEL_GPFIFO_A
            if opcode == NV.NVC86F_GP_ENTRY1_OPCODE_SET_PB_SEGMENT_EXTENDED_BASE and hopper:
                self.extended_base = NV.NVC86F_GP_ENTRY0_PB_EXTENDED_BASE_OPERAND.val(e0)
            elif opcode not in (NV.NVC56F_GP_ENTRY1_OPCODE_NOP, NV.NVC56F_GP_ENTRY1_OPCODE_GP_CRC,
                                NV.NVC56F_GP_ENTRY1_OPCODE_PB_CRC):
                raise PbdmaError(f"{ch.describe()}: {self.where}: control opcode {opcode} is "
                                 f"{'ILLEGAL' if opcode == 1 else 'not defined for ' + NV.class_name(ch.class_id)}")
            self.gp_get = (self.gp_get + 1) % ch.entries
            ch.userd()[GP_GET] = self.gp_get
            return False
        pb = (NV.NVC56F_GP_ENTRY0_GET.val(e0) << 2) | (NV.NVC56F_GP_ENTRY1_GET_HI.val(e1) << 32) | \
            (self.extended_base << 40)
        dwords = self.vm.view(pb, np.uint32, length).tolist()
        self.segment, self.pos, self.pending = (self.gp_get, pb, dwords), 0, None
        return True

    # -- push buffer --------------------------------------------------------------------------
    def _execute_segment(self):
        index, pb, dwords = self.segment
        n = len(dwords)
        while self.pos < n or self.pending is not None:
            if self.channel.preempt:
                return BLOCKED
            if self.pending is None:
                header = dwords[self.pos]
                self.where = f"push buffer 0x{pb:x} (GPFIFO entry {index}) dword {self.pos}"
                self.pos += 1
                sec_op = NV.NVC56F_DMA_SEC_OP.val(header)
                subch = NV.NVC56F_DMA_METHOD_SUBCHANNEL.val(header)
                method = NV.NVC56F_DMA_METHOD_ADDRESS.val(header) << 2
                count = NV.NVC56F_DMA_METHOD_COUNT.val(header)
                if sec_op == NV.NVC56F_DMA_SEC_OP_IMMD_DATA_METHOD:
                    if self._method(subch, method, count) is BLOCKED:
                        self.pos -= 1
                        return BLOCKED
                    continue
                if sec_op not in _SEC_OPS:
                    if header == NV.NVC56F_DMA_NOP:
                        continue
                    raise PbdmaError(f"{self.channel.describe()}: {self.where}: header 0x{header:08x} has SEC_OP "
                                     f"{sec_op}, which the host does not take (INC 1, NON_INC 3, IMMD 4, ONE_INC 5)")
                if count == 0:
                    continue
                self.pending = [sec_op, subch, method, count, True]
                continue
            if self.pos >= n:
                raise PbdmaError(f"{self.channel.describe()}: {self.where}: a {_SEC_OPS[self.pending[0]]} header for "
                                 f"{self.pending[3]} more dwords runs past the end of its {n}-dword segment")
            sec_op, subch, method, remaining, first = self.pending
            self.where = f"push buffer 0x{pb:x} (GPFIFO entry {index}) dword {self.pos}"
            if self._method(subch, method, dwords[self.pos]) is BLOCKED:
                return BLOCKED
            self.pos += 1
            remaining -= 1
            if sec_op == NV.NVC56F_DMA_SEC_OP_INC_METHOD or (sec_op == NV.NVC56F_DMA_SEC_OP_ONE_INC and first):
                method += 4
            self.pending = [sec_op, subch, method, remaining, False] if remaining else None
        return True

    def _method(self, subch, method, data):
        """Execute one method -> BLOCKED (a semaphore acquire not yet satisfied: retried later) or None.
        Only executed methods count, so a blocked channel is not mistaken for one making progress."""
        if method < 0x100:
            done = self._host_method(subch, method, data)
        else:
            engine = self.subchannels.get(subch)
            if engine is None:
                raise PbdmaError(f"{self.channel.describe()}: {self.where}: method 0x{method:x} on subchannel "
                                 f"{subch}, which no SET_OBJECT bound to a class")
            done = engine.method(method, data, self.where)
        if done is not BLOCKED:
            self.methods += 1
        return done

    # -- host methods -------------------------------------------------------------------------
    def _host_method(self, subch, method, data):
        ch = self.channel
        if method == NV.NVC56F_SET_OBJECT:
            cls = NV.NVC56F_SET_OBJECT_NVCLASS.val(data)
            obj = ch.engines.get(cls)
            if obj is None:
                have = ", ".join(NV.class_name(c) for c in ch.engines) or "none"
                raise PbdmaError(f"{ch.describe()}: {self.where}: SET_OBJECT {NV.class_name(cls)} on subchannel "
                                 f"{subch}, but the channel has no such object (it has: {have})")
            self.subchannels[subch] = obj.engine
            obj.engine.bind(subch)
            log(2, f"virtual GPU: chid {ch.chid} subchannel {subch} = {NV.class_name(cls)}")
            return None
        if method in (NV.NVC56F_NOP, NV.NVC56F_NON_STALL_INTERRUPT, NV.NVC56F_FB_FLUSH, NV.NVC56F_WFI,
                      NV.NVC56F_YIELD, NV.NVC56F_CLEAR_FAULTED):
            return None
        if method == NV.NVC56F_ILLEGAL:
            raise PbdmaError(f"{ch.describe()}: {self.where}: the ILLEGAL method (data 0x{data:x})")
        if method == NV.NVC56F_SET_REFERENCE:
            ch.userd()[REFERENCE] = data
            return None
        if method in (NV.NVC56F_MEM_OP_A, NV.NVC56F_MEM_OP_B, NV.NVC56F_MEM_OP_C):
            self.mem_op[(method - NV.NVC56F_MEM_OP_A) // 4] = data
            return None
        if method == NV.NVC56F_MEM_OP_D:
            op = NV.NVC56F_MEM_OP_D_OPERATION.val(data)
            if op not in _MEM_OPS:
                raise PbdmaError(f"{ch.describe()}: {self.where}: MEM_OP_D operation 0x{op:x} is not defined")
            return None
        sem_regs = {NV.NVC56F_SEM_ADDR_LO: "addr_lo", NV.NVC56F_SEM_ADDR_HI: "addr_hi",
                    NV.NVC56F_SEM_PAYLOAD_LO: "payload_lo", NV.NVC56F_SEM_PAYLOAD_HI: "payload_hi"}
        if method in sem_regs:
            self.sem[sem_regs[method]] = data
            return None
        if method == NV.NVC56F_SEM_EXECUTE:
            return self._sem_execute(data)
        legacy = {NV.NVC56F_SEMAPHOREA: "a", NV.NVC56F_SEMAPHOREB: "b", NV.NVC56F_SEMAPHOREC: "c"}
        if method in legacy:
            self.legacy[legacy[method]] = data
            return None
        if method == NV.NVC56F_SEMAPHORED:
            return self._legacy_semaphore(data)
        raise PbdmaError(f"{ch.describe()}: {self.where}: host method 0x{method:x} is not one "
                         f"{NV.class_name(ch.class_id)} defines (data 0x{data:x})")

    def _sem_execute(self, data):
        op = NV.NVC56F_SEM_EXECUTE_OPERATION.val(data)
        wide = NV.NVC56F_SEM_EXECUTE_PAYLOAD_SIZE.val(data) == NV.NVC56F_SEM_EXECUTE_PAYLOAD_SIZE_64BIT
        bits = 64 if wide else 32
        addr = (NV.NVC56F_SEM_ADDR_HI_OFFSET.val(self.sem["addr_hi"]) << 32) | \
            (NV.NVC56F_SEM_ADDR_LO_OFFSET.val(self.sem["addr_lo"]) << 2)
        payload = self.sem["payload_lo"] | ((self.sem["payload_hi"] << 32) if wide else 0)
        what = f"{self.channel.describe()}: {self.where}: SEM_EXECUTE"
        if addr % (8 if wide else 4):
            raise PbdmaError(f"{what}: address 0x{addr:x} is not {bits // 8}-byte aligned for a {bits}-bit payload")
        if op == NV.NVC56F_SEM_EXECUTE_OPERATION_RELEASE:
            stamp = self.channel.gpu.ptimer() if NV.NVC56F_SEM_EXECUTE_RELEASE_TIMESTAMP.val(data) else None
            write_semaphore(self.vm, addr, payload, wide, stamp, what)
            return None
        if op == NV.NVC56F_SEM_EXECUTE_OPERATION_REDUCTION:
            old = self.vm.u64(addr) if wide else self.vm.u32(addr)
            signed = NV.NVC56F_SEM_EXECUTE_REDUCTION_FORMAT.val(data) == NV.NVC56F_SEM_EXECUTE_REDUCTION_FORMAT_SIGNED
            value = semaphore_reduce(NV.NVC56F_SEM_EXECUTE_REDUCTION.val(data), old, payload, bits, signed)
            write_semaphore(self.vm, addr, value, wide, None, what)
            return None
        value = self.vm.u64(addr) if wide else self.vm.u32(addr)
        mask = (1 << bits) - 1
        if op == NV.NVC56F_SEM_EXECUTE_OPERATION_ACQUIRE:
            done = value == payload
        elif op == NV.NVC56F_SEM_EXECUTE_OPERATION_ACQ_STRICT_GEQ:
            done = value >= payload
        elif op == NV.NVC56F_SEM_EXECUTE_OPERATION_ACQ_CIRC_GEQ:
            done = ((value - payload) & mask) < (1 << (bits - 1))
        elif op == NV.NVC56F_SEM_EXECUTE_OPERATION_ACQ_AND:
            done = (value & payload) != 0
        elif op == NV.NVC56F_SEM_EXECUTE_OPERATION_ACQ_NOR:
            done = (~(value | payload) & mask) != 0
        else:
            raise PbdmaError(f"{what}: operation {op} is not defined")
        if not done:
            self.where = f"{self.where}: SEM_EXECUTE acquire of 0x{addr:x} (has {value}, wants {payload})"
        return None if done else BLOCKED

    def _legacy_semaphore(self, data):
        op = NV.NVC56F_SEMAPHORED_OPERATION.val(data)
        addr = (NV.NVC56F_SEMAPHOREA_OFFSET_UPPER.val(self.legacy["a"]) << 32) | \
            (NV.NVC56F_SEMAPHOREB_OFFSET_LOWER.val(self.legacy["b"]) << 2)
        payload = self.legacy["c"]
        what = f"{self.channel.describe()}: {self.where}: SEMAPHORED"
        if op == NV.NVC56F_SEMAPHORED_OPERATION_RELEASE:
            four = NV.NVC56F_SEMAPHORED_RELEASE_SIZE.val(data) == NV.NVC56F_SEMAPHORED_RELEASE_SIZE_4BYTE
            write_semaphore(self.vm, addr, payload, False, None if four else self.channel.gpu.ptimer(), what)
            return None
        value = self.vm.u32(addr)
        if op == NV.NVC56F_SEMAPHORED_OPERATION_ACQUIRE:
            done = value == payload
        elif op == NV.NVC56F_SEMAPHORED_OPERATION_ACQ_GEQ:
            done = ((value - payload) & 0xFFFFFFFF) < 0x80000000
        elif op == NV.NVC56F_SEMAPHORED_OPERATION_ACQ_AND:
            done = (value & payload) != 0
        else:
            raise PbdmaError(f"{what}: operation 0x{op:x} is not one the virtual host implements")
        return None if done else BLOCKED
