"""SDMA v6 (gfx11) packets, as lists of dwords.

Header dword: op[7:0], sub_op[15:8], op-specific flags above (sdma_v6_0_0_pkt_open.h).
The SDMA ring's read/write pointers count bytes; packets may not straddle the ring's end
(the queue pads the tail with NOPs, see queues.SDMAQueue).
"""
OP_NOP = 0
OP_COPY = 1
OP_WRITE = 2
OP_FENCE = 5
OP_TRAP = 6
OP_POLL_REGMEM = 8
OP_TIMESTAMP = 13
OP_NAMES = {OP_NOP: "NOP", OP_COPY: "COPY", OP_WRITE: "WRITE", OP_FENCE: "FENCE", OP_TRAP: "TRAP",
            OP_POLL_REGMEM: "POLL_REGMEM", OP_TIMESTAMP: "TIMESTAMP"}
SUBOP_COPY_LINEAR = 0
SUBOP_TIMESTAMP_GET_GLOBAL = 2

COPY_LINEAR_MAX_BYTES = 1 << 30        # count is bytes-1 in 30 bits on SDMA v5/v6
FENCE_MTYPE_UC = 3 << 16               # write the fence uncached so the host sees it at once
POLL_FUNC_GEQ = 5


def _hdr(op, sub_op=0, flags=0):
    return op | (sub_op << 8) | flags


def copy_linear(dst, src, nbytes):
    """One or more COPY_LINEAR packets moving ``nbytes`` from ``src`` to ``dst``."""
    if nbytes <= 0:
        raise ValueError(f"SDMA copy of {nbytes} bytes")
    out = []
    done = 0
    while done < nbytes:
        n = min(COPY_LINEAR_MAX_BYTES, nbytes - done)
        s, d = src + done, dst + done
        out += [_hdr(OP_COPY, SUBOP_COPY_LINEAR), n - 1, 0, s & 0xFFFFFFFF, s >> 32, d & 0xFFFFFFFF, d >> 32]
        done += n
    return out


def fence(address, value):
    """Write the 32-bit ``value`` to ``address`` (4-byte aligned) once prior work is done."""
    if address % 4:
        raise ValueError(f"SDMA FENCE address 0x{address:x} is not 4-byte aligned")
    return [_hdr(OP_FENCE, flags=FENCE_MTYPE_UC), address & 0xFFFFFFFF, address >> 32, value & 0xFFFFFFFF]


def fence64(address, value):
    """A 64-bit value as two fences, low dword first: a reader comparing with >= never sees
    the value run ahead of the truth (a carry into the high dword arrives last)."""
    return fence(address, value & 0xFFFFFFFF) + fence(address + 4, value >> 32)


def trap(int_context):
    """Raise an interrupt whose context KFD matches against signal events."""
    return [_hdr(OP_TRAP), int_context & 0x0FFFFFFF]


def timestamp(address):
    """Write the 64-bit global GPU timestamp to ``address`` (8-byte aligned)."""
    if address % 8:
        raise ValueError(f"SDMA TIMESTAMP address 0x{address:x} is not 8-byte aligned")
    return [_hdr(OP_TIMESTAMP, SUBOP_TIMESTAMP_GET_GLOBAL), address & 0xFFFFFFFF, address >> 32]


def poll_regmem(address, reference, mask=0xFFFFFFFF, interval=4, retry_count=0xFFF):
    """Stall the engine until (mem32[address] & mask) >= reference."""
    if address % 4:
        raise ValueError(f"SDMA POLL_REGMEM address 0x{address:x} is not 4-byte aligned")
    return [_hdr(OP_POLL_REGMEM, flags=(POLL_FUNC_GEQ << 28) | (1 << 31)), address & 0xFFFFFFFF, address >> 32,
            reference & 0xFFFFFFFF, mask, interval | (retry_count << 16)]


def nops(n):
    """``n`` one-dword NOPs (a zero dword is a NOP with no payload)."""
    return [_hdr(OP_NOP)] * n
