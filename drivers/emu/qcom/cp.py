"""The A6XX command processor: PM4 type-4 register writes and type-7 packets, indirect buffers,
and the compute dispatch they set up.

A submission's command objects are IB1s; CP_INDIRECT_BUFFER inside one starts an IB2 (a6xx has
two levels). Every header's parity bits are checked (type 4: count and register; type 7: count
and opcode); a bad header, a packet running past its IB, an unknown opcode, a write to a
register KGSL protects, or a malformed payload stops the CP with a PacketError naming the IB,
the dword and the packet. Registers are kept by offset (see registers.py for both of mesa's
names). CP_LOAD_STATE6 fills the compute const file, IBO and UBO descriptors (direct or from
memory); CP_EXEC_CS, CP_EXEC_CS_INDIRECT and CP_RUN_OPENCL dispatch the shader SP_CS_OBJ_START
points at with the SP_CS / HLSQ_CS state, on the ir3 simulator.

``execute(ibs)`` is a generator: it yields after a slice of packets or shader steps, and yields
BLOCKED while a CP_WAIT_REG_MEM / CP_WAIT_MEM_GTE condition is false, so the GPU that drives it
can stop at a deadline and come back.
"""
import numpy as np

from drivers.emu.faults import MemoryFault, PacketError
from drivers.errors import GPUError

from . import registers as R
from .shader import Dispatch, Ibo
from .shader import run as run_shader

BLOCKED = "blocked"
PACKETS_PER_SLICE = 256
IB_LEVELS = 2
CONST_WORDS = 512 * 4                      # c0..c511
A630_SHARED_MEMORY = 32 * 1024             # cs_shared_mem_size
A630_SP_CORES = 2

OPCODES = {0x10: "CP_NOP", 0x12: "CP_WAIT_MEM_WRITES", 0x13: "CP_WAIT_FOR_ME", 0x14: "CP_WAIT_MEM_GTE",
           0x21: "CP_REG_RMW", 0x26: "CP_WAIT_FOR_IDLE", 0x31: "CP_RUN_OPENCL", 0x32: "CP_LOAD_STATE6_GEOM",
           0x33: "CP_EXEC_CS", 0x34: "CP_LOAD_STATE6_FRAG", 0x36: "CP_LOAD_STATE6", 0x3C: "CP_WAIT_REG_MEM",
           0x3D: "CP_MEM_WRITE", 0x3E: "CP_REG_TO_MEM", 0x3F: "CP_INDIRECT_BUFFER", 0x41: "CP_EXEC_CS_INDIRECT",
           0x43: "CP_SET_DRAW_STATE", 0x46: "CP_EVENT_WRITE", 0x65: "CP_SET_MARKER", 0x73: "CP_MEM_TO_MEM"}
# vgt_event_type values that write a timestamp (CP_EVENT_WRITE with an address and a value)
TS_EVENTS = {4: "CACHE_FLUSH_TS", 8: "WT_DONE_TS", 22: "RB_DONE_TS", 29: "PC_CCU_FLUSH_COLOR_TS",
             30: "PC_CCU_FLUSH_DEPTH_TS"}
EVENTS = {49: "CACHE_INVALIDATE", 31: "PC_CCU_INVALIDATE_DEPTH", 25: "PC_CCU_INVALIDATE_COLOR"}
# CP_LOAD_STATE6: state types, sources, blocks
ST6_SHADER, ST6_CONSTANTS, ST6_UBO, ST6_IBO = range(4)
SS6_DIRECT, SS6_BINDLESS, SS6_INDIRECT, SS6_UBO = range(4)
SB6_CS_TEX, SB6_CS_SHADER = 5, 13
# FMT6 element sizes of the formats an IBO over a buffer can have
IBO_FORMATS = {0x4B: ("FMT6_32_UINT", 4), 0x4C: ("FMT6_32_SINT", 4), 0x4A: ("FMT6_32_FLOAT", 4),
               0x21: ("FMT6_16_UINT", 2), 0x22: ("FMT6_16_SINT", 2), 0x20: ("FMT6_16_FLOAT", 2),
               0x03: ("FMT6_8_UINT", 1)}
WAIT_FUNCTIONS = {0: ("ALWAYS", lambda v, r: True), 1: ("LESS", lambda v, r: v < r),
                  2: ("LESS_EQUAL", lambda v, r: v <= r), 3: ("EQUAL", lambda v, r: v == r),
                  4: ("NOT_EQUAL", lambda v, r: v != r), 5: ("GREATER_EQUAL", lambda v, r: v >= r),
                  6: ("GREATER", lambda v, r: v > r)}


def parity(v):
    """The odd-parity bit of a PM4 header field (the total count of ones comes out odd)."""
    return (~0x6996 >> ((v ^ v >> 16 ^ v >> 8 ^ v >> 4) & 0xF)) & 1


def opcode_name(op):
    return OPCODES.get(op, f"opcode 0x{op:02x}")


class CommandProcessor:
    """The CP of one GPU: register file, loaded compute state, and the packet loop."""

    def __init__(self, gpu):
        self.gpu = gpu
        self.regs = {}
        self.consts = np.zeros(CONST_WORDS, np.uint32)
        self.ibos, self.ubos = {}, {}
        self.textures, self.samplers = {}, {}
        self.marker = None
        self.packets = 0
        self.where = None                  # (level, IB address, dword, name) of the packet running

    # -- the loop --------------------------------------------------------------------------------
    def execute(self, ibs):
        """Run the IB1s [(gpuaddr, dwords)] of one submission."""
        for va, dwords in ibs:
            yield from self._ib(va, dwords, 1)

    def _fail(self, msg):
        level, va, pos, name = self.where
        raise PacketError(f"CP: IB{level} at 0x{va:x}, dword {pos} ({name}): {msg}")

    def _read_ib(self, va, dwords, level):
        try:
            return np.frombuffer(self.gpu.vm.read(va, dwords * 4), np.uint32).copy()
        except MemoryFault as e:
            raise MemoryFault(e.va, e.reason, False, f"CP fetching IB{level} at 0x{va:x} ({dwords} dwords)") from None

    def _ib(self, va, dwords, level):
        words = self._read_ib(va, dwords, level)
        pos = 0
        while pos < dwords:
            h = int(words[pos])
            kind = h >> 28
            self.where = (level, va, pos, f"header 0x{h:08x}")
            if kind == 4:
                cnt, reg = h & 0x7F, (h >> 8) & 0x3FFFF
                if (h >> 7) & 1 != parity(cnt) or (h >> 27) & 1 != parity(reg):
                    self._fail("type-4 header parity is wrong (bit 7 covers the count, bit 27 the register)")
                if (h >> 26) & 1:
                    self._fail("type-4 header has bit 26 set (between the register and its parity)")
                self.where = (level, va, pos, f"type-4 write of {cnt} to {R.name(reg)}")
                if pos + 1 + cnt > dwords:
                    self._fail(f"the packet's {cnt} dwords run past the end of the {dwords}-dword IB")
                for k in range(cnt):
                    self._write_reg(reg + k, int(words[pos + 1 + k]))
                pos += 1 + cnt
            elif kind == 7:
                cnt, op = h & 0x3FFF, (h >> 16) & 0x7F
                if (h >> 15) & 1 != parity(cnt) or (h >> 23) & 1 != parity(op):
                    self._fail("type-7 header parity is wrong (bit 15 covers the count, bit 23 the opcode)")
                if (h >> 24) & 0xF:
                    self._fail("type-7 header has bits set between the opcode parity and the type")
                self.where = (level, va, pos, opcode_name(op))
                if pos + 1 + cnt > dwords:
                    self._fail(f"the packet's {cnt} dwords run past the end of the {dwords}-dword IB")
                payload = words[pos + 1:pos + 1 + cnt]
                handler = self.TYPE7.get(op)
                if handler is None:
                    self._fail(f"{opcode_name(op)} is not a packet the virtual CP executes")
                result = handler(self, payload, level)
                if result is not None:
                    yield from result
                pos += 1 + cnt
            else:
                self._fail(f"type-{kind} packet: the a6xx CP takes type-4 and type-7 packets only")
            self.packets += 1
            if self.packets % PACKETS_PER_SLICE == 0:
                yield

    # -- registers -------------------------------------------------------------------------------
    def _write_reg(self, reg, value):
        if R.protected(reg):
            self._fail(f"{R.name(reg)} is protected (CP_PROTECT): user command streams may not write it")
        self.regs[reg] = value
        if reg == R.HLSQ_INVALIDATE_CMD:
            if R.field(value, 5, 5):           # CS_STATE: the shader's loaded consts and state
                self.consts[:] = 0
                self.ubos.clear()
            if R.field(value, 6, 6):           # CS_IBO
                self.ibos.clear()
            if R.field(value, 5, 5):
                self.textures.clear()
                self.samplers.clear()

    def reg(self, reg):
        return self.regs.get(reg, 0)

    def reg64(self, reg):
        return self.reg(reg) | self.reg(reg + 1) << 32

    def _read_reg(self, reg):
        if R.protected(reg, read=True):
            self._fail(f"{R.name(reg)} is read-protected (CP_PROTECT)")
        if reg in (R.CP_ALWAYS_ON_COUNTER, R.CP_ALWAYS_ON_COUNTER + 1):
            now = self.gpu.always_on()
            return now & 0xFFFFFFFF if reg == R.CP_ALWAYS_ON_COUNTER else now >> 32
        return self.reg(reg)

    # -- memory ----------------------------------------------------------------------------------
    def _addr(self, lo, hi):
        return int(lo) | int(hi) << 32

    def _write_mem(self, va, words):
        data = np.asarray(words, np.uint32)
        if va % 4:
            self._fail(f"address 0x{va:x} is not dword aligned")
        self.gpu.vm.write(va, data.tobytes())

    def _need(self, payload, n, what=""):
        if len(payload) < n:
            self._fail(f"the packet has {len(payload)} payload dwords, {n} needed{what}")

    # -- packets ---------------------------------------------------------------------------------
    def _nop(self, p, level):
        return None

    def _set_marker(self, p, level):
        self._need(p, 1)
        self.marker = int(p[0]) & 0x1FF

    def _indirect_buffer(self, p, level):
        self._need(p, 3)
        if level >= IB_LEVELS:
            self._fail("CP_INDIRECT_BUFFER inside an IB2: the a6xx CP has two IB levels")
        va, size = self._addr(p[0], p[1]), int(p[2]) & 0xFFFFF
        if va % 4:
            self._fail(f"IB2 address 0x{va:x} is not dword aligned")
        if size == 0:
            return None
        return self._ib(va, size, level + 1)

    def _mem_write(self, p, level):
        self._need(p, 3, " (address and at least one value)")
        self._write_mem(self._addr(p[0], p[1]), p[2:])

    def _event_write(self, p, level):
        self._need(p, 1)
        event = int(p[0]) & 0xFF
        if event in TS_EVENTS:
            if len(p) != 4:
                self._fail(f"{TS_EVENTS[event]} takes an address and a value (4 dwords), got {len(p)}")
            self._write_mem(self._addr(p[1], p[2]), [p[3]])
        elif event not in EVENTS and len(p) != 1:
            self._fail(f"event {event} carries no timestamp, but the packet has {len(p)} dwords")

    def _wait(self, p, level, kind):
        if kind == "mem_gte":
            self._need(p, 4)
            va, ref, mask, fn = self._addr(p[1], p[2]), int(p[3]), 0xFFFFFFFF, 5
            signed = False
        else:
            self._need(p, 6)
            ctl = int(p[0])
            fn, signed, poll = ctl & 7, bool(ctl >> 3 & 1), (ctl >> 4) & 3
            if fn == 7:
                self._fail("CP_WAIT_REG_MEM function 7 is reserved")
            if poll != 1:
                self._fail(f"CP_WAIT_REG_MEM POLL {poll}: only POLL_MEMORY (1) is emulated")
            va, ref, mask = self._addr(p[1], p[2]), int(p[3]), int(p[4])
        if va % 4:
            self._fail(f"address 0x{va:x} is not dword aligned")
        name, test = WAIT_FUNCTIONS[fn]

        def gen():
            while True:
                v = self.gpu.vm.u32(va) & mask
                r = ref & mask
                if signed:
                    v, r = (v ^ 0x80000000) - 0x80000000, (r ^ 0x80000000) - 0x80000000
                if test(v, r):
                    return
                yield BLOCKED
        self.where = self.where[:3] + (f"{self.where[3]}: waiting for [0x{va:x}] {name} {ref}",)
        return gen()

    def _reg_to_mem(self, p, level):
        self._need(p, 3)
        ctl = int(p[0])
        reg, cnt, b64, acc = ctl & 0x3FFFF, (ctl >> 18) & 0xFFF, bool(ctl >> 30 & 1), bool(ctl >> 31)
        if acc:
            self._fail("CP_REG_TO_MEM ACCUMULATE is not emulated")
        cnt = max(cnt, 1)
        if b64 and cnt < 2:
            cnt = 2
        values = [self._read_reg(reg + k) for k in range(cnt)]
        if b64 and reg == R.CP_ALWAYS_ON_COUNTER:        # one consistent 64-bit sample
            now = self.gpu.always_on()
            values[:2] = [now & 0xFFFFFFFF, now >> 32]
        self._write_mem(self._addr(p[1], p[2]), values)

    def _load_state(self, p, level):
        self._need(p, 3)
        ctl = int(p[0])
        dst, stype, src = ctl & 0x3FFF, (ctl >> 14) & 3, (ctl >> 16) & 3
        block, units = (ctl >> 18) & 0xF, (ctl >> 22) & 0x3FF
        if src == SS6_DIRECT:
            data = p[3:]
        elif src == SS6_INDIRECT:
            addr = (int(p[1]) & ~3) | int(p[2]) << 32
            per_unit = {ST6_SHADER: 32, ST6_CONSTANTS: 4, ST6_UBO: 2, ST6_IBO: 16}[stype]
            if block == SB6_CS_TEX:                         # samplers (4 dwords) and texture descriptors (16)
                per_unit = {ST6_SHADER: 4, ST6_CONSTANTS: 16}.get(stype, per_unit)
            nwords = units * per_unit
            if block == SB6_CS_SHADER and stype == ST6_SHADER:
                nwords = 0                      # the instruction preload: the SP fetches from SP_CS_OBJ_START
            try:
                data = np.frombuffer(self.gpu.vm.read(addr, nwords * 4), np.uint32) if nwords else p[:0]
            except MemoryFault as e:
                raise MemoryFault(e.va, e.reason, False, "CP_LOAD_STATE6 source") from None
        else:
            self._fail(f"STATE_SRC {src} (bindless / UBO sources) is not emulated")
        if block == SB6_CS_TEX:                 # kept for completeness: no texture instructions run here
            if stype not in (ST6_SHADER, ST6_CONSTANTS):
                self._fail(f"SB6_CS_TEX takes samplers (ST6_SHADER) and textures (ST6_CONSTANTS), not type {stype}")
            size, table = (4, self.samplers) if stype == ST6_SHADER else (16, self.textures)
            if len(data) < units * size:
                self._fail(f"{units} {'samplers' if size == 4 else 'texture descriptors'} need {units * size} "
                           f"dwords, the packet has {len(data)}")
            for k in range(units):
                table[dst + k] = np.array(data[size * k:size * (k + 1)], np.uint32)
            return None
        if block != SB6_CS_SHADER:
            self._fail(f"STATE_BLOCK {block}: the virtual CP loads compute state (SB6_CS_SHADER, SB6_CS_TEX)")
        if stype == ST6_SHADER:
            return None
        if stype == ST6_CONSTANTS:
            n = units * 4
            if len(data) < n:
                self._fail(f"{units} vec4 of constants need {n} dwords, the packet has {len(data)}")
            if dst * 4 + n > CONST_WORDS:
                self._fail(f"constants c{dst}..c{dst + units - 1} are past c511")
            self.consts[dst * 4:dst * 4 + n] = data[:n]
        elif stype == ST6_IBO:
            if len(data) < units * 16:
                self._fail(f"{units} IBO descriptors need {units * 16} dwords, the packet has {len(data)}")
            for k in range(units):
                self.ibos[dst + k] = self._ibo(dst + k, data[16 * k:16 * k + 16])
        else:
            if len(data) < units * 2:
                self._fail(f"{units} UBO descriptors need {units * 2} dwords, the packet has {len(data)}")
            for k in range(units):
                lo, hi = int(data[2 * k]), int(data[2 * k + 1])
                self.ubos[dst + k] = (lo | (hi & 0x1FFFF) << 32, (hi >> 17) * 16)
        return None

    def _ibo(self, index, d):
        """A6XX_TEX_CONST as an IBO over a buffer: format, WIDTH | HEIGHT << 15 elements, base."""
        fmt, ttype = (int(d[0]) >> 22) & 0xFF, (int(d[2]) >> 29) & 7
        if fmt not in IBO_FORMATS:
            self._fail(f"IBO {index}: format 0x{fmt:02x} is not one the virtual GPU reads buffers with "
                       f"({', '.join(n for n, _ in IBO_FORMATS.values())})")
        if ttype != 4:
            self._fail(f"IBO {index}: TYPE {ttype}; only buffers (A6XX_TEX_BUFFER = 4) are emulated")
        elements = (int(d[1]) & 0x7FFF) | ((int(d[1]) >> 15) & 0x7FFF) << 15
        base = (int(d[4]) & ~0x1F) | (int(d[5]) & 0x1FFFF) << 32
        name, size = IBO_FORMATS[fmt]
        return Ibo(index, base, elements, size, name)

    # -- dispatch --------------------------------------------------------------------------------
    def _exec_cs(self, p, level):
        self._need(p, 4)
        return self._dispatch(tuple(int(v) for v in p[1:4]), "CP_EXEC_CS")

    def _exec_cs_indirect(self, p, level):
        self._need(p, 4)
        va = self._addr(p[1], p[2])
        groups = tuple(int(v) for v in np.frombuffer(self.gpu.vm.read(va, 12), np.uint32))
        return self._dispatch(groups, f"CP_EXEC_CS_INDIRECT (group counts at 0x{va:x})")

    def _run_opencl(self, p, level):
        groups = tuple(self.reg(R.HLSQ_CS_KERNEL_GROUP_X + k) for k in range(3))
        return self._dispatch(groups, "CP_RUN_OPENCL")

    def _dispatch(self, groups, how):
        d = self.compute_state(groups, how)
        if d is None:
            return None
        self.gpu.dispatches += 1
        self.gpu.last_dispatch = d
        return run_shader(d)

    def compute_state(self, groups, how):
        """The Dispatch the SP_CS / HLSQ_CS registers and the loaded state describe."""
        r = self.reg
        if any(g == 0 for g in groups):
            return None                                     # nothing to run
        ctrl0, cntl, config = r(R.SP_CS_CTRL_REG0), r(R.HLSQ_CS_CNTL), r(R.SP_CS_CONFIG)
        if not R.field(config, 8, 8):
            self._fail(f"{how}: SP_CS_CONFIG.ENABLED is not set")
        if not R.field(cntl, 8, 8):
            self._fail(f"{how}: HLSQ_CS_CNTL (SP_CS_CONST_CONFIG).ENABLED is not set")
        wave = 128 if R.field(ctrl0, 20, 20) else 64
        if R.field(r(R.HLSQ_CS_CNTL_1), 9, 9) != R.field(ctrl0, 20, 20):
            self._fail(f"{how}: SP_CS_CTRL_REG0.THREADSIZE and HLSQ_CS_CNTL_1.THREADSIZE disagree")
        nd0 = r(R.HLSQ_CS_NDRANGE_0)
        local = (R.field(nd0, 2, 11) + 1, R.field(nd0, 12, 21) + 1, R.field(nd0, 22, 31) + 1)
        if local[0] * local[1] * local[2] > 1024:
            self._fail(f"{how}: local size {local} has more than 1024 work-items")
        code_va = self.reg64(R.SP_CS_OBJ_START)
        instrlen = r(R.SP_CS_INSTRLEN)
        if code_va == 0 or instrlen == 0:
            self._fail(f"{how}: no shader (SP_CS_OBJ_START 0x{code_va:x}, SP_CS_INSTRLEN {instrlen})")
        if code_va % 128:
            self._fail(f"{how}: SP_CS_OBJ_START 0x{code_va:x} is not 128-byte aligned")
        try:
            code = self.gpu.vm.read(code_va, instrlen * 128, execute=True)
        except MemoryFault as e:
            raise MemoryFault(e.va, e.reason, False, f"SP fetching the shader at 0x{code_va:x}") from None
        shared = (R.field(r(R.SP_CS_UNKNOWN_A9B1), 0, 4) + 1) * 1024
        if shared > A630_SHARED_MEMORY:
            self._fail(f"{how}: SHARED_SIZE asks for {shared} bytes of local memory; the Adreno 630 has "
                       f"{A630_SHARED_MEMORY}")
        cntl0, cntl1 = r(R.HLSQ_CS_CNTL_0), r(R.HLSQ_CS_CNTL_1)
        per_fiber = R.field(r(R.SP_CS_PVT_MEM_PARAM), 0, 7) << 9
        per_sp = R.field(r(R.SP_CS_PVT_MEM_SIZE), 0, 17) << 12
        private = (self.reg64(R.SP_CS_PVT_MEM_ADDR), per_fiber,
                   per_sp * A630_SP_CORES // per_fiber if per_fiber else 0)
        entry = r(R.SP_CS_OBJ_FIRST_EXEC_OFFSET)
        if entry % 8:
            self._fail(f"{how}: SP_CS_OBJ_FIRST_EXEC_OFFSET {entry} is not a whole instruction")
        offs = tuple(r(R.HLSQ_CS_NDRANGE_0 + 2 + 2 * k) for k in range(3))
        constlen = R.field(cntl, 0, 7) * 4
        return Dispatch(self.gpu.vm, code, self.consts[:constlen * 4].copy(), R.field(ctrl0, 7, 12), local, groups,
                        wave=wave, entry=entry // 8, half_regs=R.field(ctrl0, 1, 6),
                        localid_regid=R.field(cntl0, 24, 31), wgid_regid=R.field(cntl0, 0, 7),
                        wgsize_regid=R.field(cntl0, 8, 15), wgoffset_regid=R.field(cntl0, 16, 23),
                        linear_localid_regid=R.field(cntl1, 0, 7), global_offset=offs, local_bytes=shared,
                        ibos=dict(self.ibos), ubos=dict(self.ubos), private=private,
                        budget=self.gpu.shader_budget)

    TYPE7 = {
        0x10: _nop, 0x12: _nop, 0x13: _nop, 0x26: _nop,
        0x14: lambda self, p, level: self._wait(p, level, "mem_gte"),
        0x3C: lambda self, p, level: self._wait(p, level, "reg_mem"),
        0x65: _set_marker, 0x3F: _indirect_buffer, 0x3D: _mem_write, 0x46: _event_write, 0x3E: _reg_to_mem,
        0x32: _load_state, 0x34: _load_state, 0x36: _load_state,
        0x33: _exec_cs, 0x41: _exec_cs_indirect, 0x31: _run_opencl,
    }


__all__ = ["BLOCKED", "CommandProcessor", "GPUError", "parity"]
