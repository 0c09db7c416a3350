"""PM4 type-3 packets for the gfx11 compute micro engine (MEC), as lists of dwords.

Opcodes, register numbers and bit fields follow the Linux headers (nvd.h, gc_11_0_0_offset.h,
gc_11_0_0_sh_mask.h); the names are theirs so a reader can grep them. Every builder returns a
list of 32-bit ints ready to be written to a ring or an indirect buffer.
"""

# -- opcodes (PACKET3_*) -----------------------------------------------------------------------
NOP = 0x10
DISPATCH_DIRECT = 0x15
WRITE_DATA = 0x37
WAIT_REG_MEM = 0x3C
INDIRECT_BUFFER = 0x3F
EVENT_WRITE = 0x46
RELEASE_MEM = 0x49
ACQUIRE_MEM = 0x58
SET_SH_REG = 0x76

SET_SH_REG_START = 0x2C00
SET_SH_REG_END = 0x3000
INDIRECT_BUFFER_VALID = 1 << 23
IB_SIZE_MAX_DW = (1 << 20) - 1

# -- gfx11 COMPUTE_* registers (absolute dword addresses, GC segment 0 base 0x1260 added) -------
COMPUTE_DISPATCH_INITIATOR = 0x2E00
COMPUTE_DIM_X = 0x2E01
COMPUTE_START_X = 0x2E04
COMPUTE_NUM_THREAD_X = 0x2E07
COMPUTE_PGM_LO = 0x2E0C
COMPUTE_DISPATCH_SCRATCH_BASE_LO = 0x2E10
COMPUTE_PGM_RSRC1 = 0x2E12
COMPUTE_PGM_RSRC2 = 0x2E13
COMPUTE_RESOURCE_LIMITS = 0x2E15
COMPUTE_STATIC_THREAD_MGMT_SE0 = 0x2E16
COMPUTE_TMPRING_SIZE = 0x2E18
COMPUTE_RESTART_X = 0x2E1B
COMPUTE_PGM_RSRC3 = 0x2E28
COMPUTE_USER_DATA_0 = 0x2E40
NUM_USER_DATA = 16

# COMPUTE_DISPATCH_INITIATOR bits
COMPUTE_SHADER_EN = 1 << 0
FORCE_START_AT_000 = 1 << 2
CS_W32_EN = 1 << 15

# EVENT_WRITE / RELEASE_MEM event types and indices
CS_PARTIAL_FLUSH = 0x07
CACHE_FLUSH_AND_INV_TS_EVENT = 0x14
BOTTOM_OF_PIPE_TS = 0x28
EVENT_INDEX_CS_PARTIAL_FLUSH = 4
EVENT_INDEX_END_OF_PIPE = 5

# RELEASE_MEM dw1 GCR bits (gfx10+): which caches to write back / invalidate at end of pipe
RM_GLM_WB, RM_GLM_INV, RM_GLV_INV, RM_GL1_INV = 1 << 12, 1 << 13, 1 << 14, 1 << 15
RM_GL2_INV, RM_GL2_WB, RM_SEQ = 1 << 20, 1 << 21, 1 << 22
RELEASE_ALL_CACHES = RM_GLM_WB | RM_GLM_INV | RM_GLV_INV | RM_GL1_INV | RM_GL2_INV | RM_GL2_WB | RM_SEQ
# RELEASE_MEM dw2: data_sel [31:29], int_sel [26:24]
DATA_SEL_NONE, DATA_SEL_32, DATA_SEL_64, DATA_SEL_GPU_CLOCK = 0, 1, 2, 3
INT_SEL_NONE, INT_SEL_AFTER_WRITE_CONFIRM = 0, 2

# ACQUIRE_MEM GCR_CNTL (gfx10+)
GCR_GLI_INV_ALL = 1 << 0         # GLI_INV[1:0] = 1: whole instruction cache
GCR_GLM_WB, GCR_GLM_INV = 1 << 4, 1 << 5
GCR_GLK_WB, GCR_GLK_INV = 1 << 6, 1 << 7
GCR_GLV_INV, GCR_GL1_INV = 1 << 8, 1 << 9
GCR_GL2_INV, GCR_GL2_WB = 1 << 14, 1 << 15
# Before a dispatch: drop stale scalar (K$), vector (GLV), L1 and L2 lines the CPU or a copy
# engine may have changed, and refetch code (I$) a load may have replaced.
INVALIDATE_ALL = GCR_GLI_INV_ALL | GCR_GLM_INV | GCR_GLK_INV | GCR_GLV_INV | GCR_GL1_INV | GCR_GL2_INV | GCR_GLM_WB | GCR_GLK_WB

# WAIT_REG_MEM
WAIT_GEQ, WAIT_EQ = 5, 3
WAIT_MEM_SPACE_MEMORY = 1 << 4

# WRITE_DATA
WRITE_DATA_DST_MEMORY = 5 << 8
WRITE_DATA_WR_CONFIRM = 1 << 20


def header(opcode, payload_dwords):
    """Type-3 header: the count field is the payload length minus one."""
    if not 1 <= payload_dwords <= 0x4000:
        raise ValueError(f"PM4 packet 0x{opcode:02x} payload of {payload_dwords} dwords is out of range 1..16384")
    return (3 << 30) | ((payload_dwords - 1) << 16) | ((opcode & 0xFF) << 8)


def _lo(x):
    return x & 0xFFFFFFFF


def _hi(x):
    return (x >> 32) & 0xFFFFFFFF


def nop(total_dwords):
    """A NOP occupying exactly ``total_dwords`` (>= 2) dwords; its payload is ignored."""
    if total_dwords < 2:
        raise ValueError("a PM4 NOP occupies at least 2 dwords")
    return [header(NOP, total_dwords - 1)] + [0] * (total_dwords - 1)


def set_sh_reg(register, *values):
    if not (SET_SH_REG_START <= register and register + len(values) <= SET_SH_REG_END):
        raise ValueError(f"register 0x{register:x}+{len(values)} is outside the SH window "
                         f"0x{SET_SH_REG_START:x}..0x{SET_SH_REG_END:x}")
    if not values:
        raise ValueError("SET_SH_REG needs at least one value")
    return [header(SET_SH_REG, 1 + len(values)), register - SET_SH_REG_START, *(v & 0xFFFFFFFF for v in values)]


def dispatch_direct(gx, gy, gz, initiator):
    return [header(DISPATCH_DIRECT, 4), gx, gy, gz, initiator]


def event_write(event_type, event_index):
    return [header(EVENT_WRITE, 1), event_type | (event_index << 8)]


def acquire_mem(gcr_cntl=INVALIDATE_ALL):
    """Invalidate/write back the ``gcr_cntl`` caches over the whole address space
    (CP_COHER_SIZE 0xffffffff, SIZE_HI 0xffffff, base 0, poll interval 10, as amdgpu does)."""
    return [header(ACQUIRE_MEM, 7), 0, 0xFFFFFFFF, 0xFFFFFF, 0, 0, 10, gcr_cntl]


def release_mem(address, data=0, data_sel=DATA_SEL_64, int_sel=INT_SEL_NONE, int_ctxid=0,
                gcr=RELEASE_ALL_CACHES, event_type=CACHE_FLUSH_AND_INV_TS_EVENT):
    """At end of pipe: write back/invalidate ``gcr`` caches, then write ``data`` (or the GPU
    clock) to ``address`` and optionally raise an interrupt carrying ``int_ctxid``."""
    if address % (8 if data_sel in (DATA_SEL_64, DATA_SEL_GPU_CLOCK) else 4):
        raise ValueError(f"RELEASE_MEM destination 0x{address:x} is not aligned for data_sel {data_sel}")
    return [header(RELEASE_MEM, 7), event_type | (EVENT_INDEX_END_OF_PIPE << 8) | gcr,
            (data_sel << 29) | (int_sel << 24), _lo(address), _hi(address), _lo(data), _hi(data), int_ctxid]


def wait_reg_mem(address, reference, mask=0xFFFFFFFF, function=WAIT_GEQ, poll_interval=4):
    """Stall the queue until (mem32[address] & mask) <function> reference."""
    if address % 4:
        raise ValueError(f"WAIT_REG_MEM address 0x{address:x} is not 4-byte aligned")
    return [header(WAIT_REG_MEM, 6), function | WAIT_MEM_SPACE_MEMORY, _lo(address), _hi(address),
            reference & 0xFFFFFFFF, mask, poll_interval]


def write_data(address, values):
    """Write 32-bit ``values`` to memory at ``address`` (with write confirmation)."""
    if address % 4:
        raise ValueError(f"WRITE_DATA address 0x{address:x} is not 4-byte aligned")
    return [header(WRITE_DATA, 3 + len(values)), WRITE_DATA_DST_MEMORY | WRITE_DATA_WR_CONFIRM,
            _lo(address), _hi(address), *(v & 0xFFFFFFFF for v in values)]


def indirect_buffer(address, size_dwords):
    """Run ``size_dwords`` of PM4 at ``address`` (4-byte aligned) as if they were in the ring."""
    if address % 4:
        raise ValueError(f"INDIRECT_BUFFER address 0x{address:x} is not 4-byte aligned")
    if not 0 < size_dwords <= IB_SIZE_MAX_DW:
        raise ValueError(f"INDIRECT_BUFFER of {size_dwords} dwords; the size field holds 1..{IB_SIZE_MAX_DW}")
    return [header(INDIRECT_BUFFER, 3), _lo(address), _hi(address), size_dwords | INDIRECT_BUFFER_VALID]


def decode_header(dword):
    """(type, opcode, payload dwords) of a PM4 header, for error messages and tests."""
    return dword >> 30, (dword >> 8) & 0xFF, ((dword >> 16) & 0x3FFF) + 1


OPCODE_NAMES = {NOP: "NOP", DISPATCH_DIRECT: "DISPATCH_DIRECT", WRITE_DATA: "WRITE_DATA",
                WAIT_REG_MEM: "WAIT_REG_MEM", INDIRECT_BUFFER: "INDIRECT_BUFFER", EVENT_WRITE: "EVENT_WRITE",
                RELEASE_MEM: "RELEASE_MEM", ACQUIRE_MEM: "ACQUIRE_MEM", SET_SH_REG: "SET_SH_REG"}


def split_packets(dwords):
    """[(opcode name, dwords)] of a PM4 stream; ValueError on a non-type-3 or truncated packet."""
    out, i = [], 0
    while i < len(dwords):
        kind, op, n = decode_header(dwords[i])
        if kind != 3:
            raise ValueError(f"dword {i}: 0x{dwords[i]:08x} is not a type-3 PM4 header")
        if i + 1 + n > len(dwords):
            raise ValueError(f"dword {i}: {OPCODE_NAMES.get(op, hex(op))} needs {n} payload dwords, "
                             f"{len(dwords) - i - 1} remain")
        out.append((OPCODE_NAMES.get(op, f"0x{op:02x}"), list(dwords[i:i + 1 + n])))
        i += 1 + n
    return out
