"""A6XX command-stream words: type-4 register writes, type-7 packets, and the registers and
fields a compute dispatch programs (mesa's adreno_pm4.xml and a6xx.xml; offsets are the same
under mesa's 2024 and 2025 register names, the older one is used here).

    pkt4(REG, v0, v1, ...)       write consecutive registers from REG
    pkt7(OPCODE, d0, d1, ...)    one packet

Both headers carry odd-parity bits over their fields, which the CP checks.
"""

# type-7 opcodes
CP_NOP = 0x10
CP_WAIT_MEM_WRITES = 0x12
CP_WAIT_FOR_ME = 0x13
CP_WAIT_FOR_IDLE = 0x26
CP_RUN_OPENCL = 0x31
CP_EXEC_CS = 0x33
CP_LOAD_STATE6_FRAG = 0x34
CP_WAIT_REG_MEM = 0x3C
CP_MEM_WRITE = 0x3D
CP_REG_TO_MEM = 0x3E
CP_INDIRECT_BUFFER = 0x3F
CP_EVENT_WRITE = 0x46
CP_SET_MARKER = 0x65

# registers
CP_ALWAYS_ON_COUNTER = 0x0980
SP_CS_CTRL_REG0 = 0xA9B0               # SP_CS_CNTL_0
SP_CS_UNKNOWN_A9B1 = 0xA9B1            # SP_CS_CNTL_1
SP_CS_OBJ_FIRST_EXEC_OFFSET = 0xA9B3
SP_CS_OBJ_START = 0xA9B4               # SP_CS_BASE (64-bit)
SP_CS_PVT_MEM_PARAM = 0xA9B6
SP_CS_PVT_MEM_ADDR = 0xA9B7            # 64-bit
SP_CS_PVT_MEM_SIZE = 0xA9B9
SP_CS_CONFIG = 0xA9BB
SP_CS_INSTRLEN = 0xA9BC                # SP_CS_INSTR_SIZE
SP_CS_PVT_MEM_HW_STACK_OFFSET = 0xA9BD
SP_CS_IBO = 0xA9F2                     # SP_CS_UAV_BASE (64-bit)
SP_CS_IBO_COUNT = 0xAA00               # SP_CS_USIZE
SP_MODE_CONTROL = 0xAB00
SP_PERFCTR_ENABLE = 0xAE0F
HLSQ_CS_CNTL = 0xB987                  # SP_CS_CONST_CONFIG
HLSQ_CS_NDRANGE_0 = 0xB990             # .. _6
HLSQ_CS_CNTL_0 = 0xB997                # SP_CS_CONST_CONFIG_0
HLSQ_CS_CNTL_1 = 0xB998                # SP_CS_WGE_CNTL
HLSQ_CS_KERNEL_GROUP_X = 0xB999        # .. _Z
HLSQ_INVALIDATE_CMD = 0xBB08           # SP_UPDATE_CNTL

# fields
THREAD64, THREAD128 = 0, 1
ISAMMODE_GL = 2
RM6_COMPUTE = 8
CACHE_FLUSH_TS = 4
ST6_SHADER, ST6_CONSTANTS, ST6_UBO, ST6_IBO = range(4)
SS6_DIRECT, SS6_INDIRECT = 0, 2
SB6_CS_SHADER = 13
FMT6_32_UINT = 0x4B
A6XX_TEX_BUFFER = 4
WRITE_GE = 5
POLL_MEMORY = 1
NO_REG = 0xFC                          # regid r63.x: "none"
INSTR_CACHE_UNITS = 64                 # a630 instruction cache: 64 x 128 bytes preloaded


def parity(v):
    """Odd parity of a header field, as the CP checks it."""
    return (~0x6996 >> ((v ^ v >> 16 ^ v >> 8 ^ v >> 4) & 0xF)) & 1


def pkt4(reg, *values):
    n = len(values)
    if not 1 <= n <= 0x7F or not 0 <= reg <= 0x3FFFF:
        raise ValueError(f"type-4 write of {n} values at register 0x{reg:x}")
    return [0x40000000 | n | parity(n) << 7 | reg << 8 | parity(reg) << 27] + [int(v) & 0xFFFFFFFF for v in values]


def pkt7(op, *payload):
    n = len(payload)
    if n > 0x3FFF or not 0 <= op <= 0x7F:
        raise ValueError(f"type-7 packet {op:#x} with {n} dwords")
    return [0x70000000 | n | parity(n) << 15 | op << 16 | parity(op) << 23] + [int(v) & 0xFFFFFFFF for v in payload]


def lo_hi(va):
    return va & 0xFFFFFFFF, va >> 32


def load_state6(state_type, units, src=SS6_INDIRECT, va=0, data=(), dst_off=0, block=SB6_CS_SHADER):
    """CP_LOAD_STATE6_FRAG: ``units`` of ``state_type`` from memory at ``va`` or inline ``data``."""
    ctl = dst_off | state_type << 14 | src << 16 | block << 18 | units << 22
    if src == SS6_DIRECT:
        return pkt7(CP_LOAD_STATE6_FRAG, ctl, 0, 0, *data)
    return pkt7(CP_LOAD_STATE6_FRAG, ctl, *lo_hi(va))


def event_write_ts(va, value, event=CACHE_FLUSH_TS):
    return pkt7(CP_EVENT_WRITE, event, *lo_hi(va), value)


def reg_to_mem64(reg, va):
    """CP_REG_TO_MEM of a 64-bit register (the always-on counter) to memory."""
    return pkt7(CP_REG_TO_MEM, reg | 2 << 18 | 1 << 30, *lo_hi(va))


def wait_reg_mem_ge(va, ref, mask=0xFFFFFFFF, delay=16):
    return pkt7(CP_WAIT_REG_MEM, WRITE_GE | POLL_MEMORY << 4, *lo_hi(va), ref, mask, delay)


def indirect_buffer(va, dwords):
    return pkt7(CP_INDIRECT_BUFFER, *lo_hi(va), dwords)


def ibo_descriptor(va, elements, fmt=FMT6_32_UINT):
    """A6XX_TEX_CONST describing a buffer of ``elements`` 32-bit elements at ``va`` as an IBO."""
    if va % 64:
        raise ValueError(f"IBO base 0x{va:x} is not 64-byte aligned")
    return [fmt << 22, (elements & 0x7FFF) | (elements >> 15) << 15, 1 << 4 | A6XX_TEX_BUFFER << 29, 0,
            va & 0xFFFFFFE0, (va >> 32) & 0x1FFFF] + [0] * 10


def split_packets(words):
    """[(name, payload)] of a command stream (for DEBUG=2 and tests)."""
    out, pos = [], 0
    while pos < len(words):
        h = words[pos]
        if h >> 28 == 4:
            n, reg = h & 0x7F, (h >> 8) & 0x3FFFF
            out.append((f"pkt4 0x{reg:04x}", list(words[pos + 1:pos + 1 + n])))
        elif h >> 28 == 7:
            n, op = h & 0x3FFF, (h >> 16) & 0x7F
            out.append((OPCODE_NAMES.get(op, f"opcode 0x{op:02x}"), list(words[pos + 1:pos + 1 + n])))
        else:
            raise ValueError(f"dword {pos}: 0x{h:08x} is not a type-4 or type-7 header")
        pos += 1 + n
    return out


OPCODE_NAMES = {v: k for k, v in globals().items() if k.startswith("CP_") and isinstance(v, int) and k not in (
    "CP_ALWAYS_ON_COUNTER",)}
