"""The .nv.info attribute records of a cubin (EIATTR_*), read and written.

A record is {u8 format, u8 attribute, u16 value-or-size}; format EIFMT_SVAL (4) is followed by
`size` bytes. EIFMT_NVAL (1) has no value, EIFMT_BVAL (2) and EIFMT_HVAL (3) keep it inline.
The names are those cuobjdump prints.
"""
import struct

from assembler.errors import MalformedInput

EIFMT_NVAL, EIFMT_BVAL, EIFMT_HVAL, EIFMT_SVAL = 1, 2, 3, 4

EIATTR = {
    0x04: "EIATTR_CTAIDZ_USED", 0x05: "EIATTR_MAX_THREADS", 0x0A: "EIATTR_PARAM_CBANK",
    0x10: "EIATTR_REQNTID", 0x11: "EIATTR_FRAME_SIZE", 0x12: "EIATTR_MIN_STACK_SIZE",
    0x17: "EIATTR_KPARAM_INFO", 0x19: "EIATTR_CBANK_PARAM_SIZE", 0x1B: "EIATTR_MAXREG_COUNT",
    0x1C: "EIATTR_EXIT_INSTR_OFFSETS", 0x1E: "EIATTR_CRS_STACK_SIZE",
    0x28: "EIATTR_COOP_GROUP_INSTR_OFFSETS", 0x29: "EIATTR_COOP_GROUP_MASK_REGIDS",
    0x2E: "EIATTR_ATOM16_EMUL_INSTR_REG_MAP", 0x2F: "EIATTR_REGCOUNT",
    0x31: "EIATTR_INT_WARP_WIDE_INSTR_OFFSETS", 0x34: "EIATTR_INDIRECT_BRANCH_TARGETS",
    0x35: "EIATTR_SW2861232_WAR", 0x36: "EIATTR_SW_WAR", 0x37: "EIATTR_CUDA_API_VERSION",
    0x38: "EIATTR_NUM_MBARRIERS", 0x39: "EIATTR_MBARRIER_INSTR_OFFSETS",
    0x3D: "EIATTR_CTA_PER_CLUSTER", 0x44: "EIATTR_UNUSED_LOAD_BYTE_OFFSET",
    0x4C: "EIATTR_NUM_BARRIERS", 0x50: "EIATTR_SPARSE_MMA_MASK",
}
BY_NAME = {v: k for k, v in EIATTR.items()}
globals().update({name: code for code, name in EIATTR.items()})


def name(code):
    return EIATTR.get(code, "EIATTR_0x%02x" % code)


def parse(data, where):
    """[(attribute, format, value)]: value is None, an int, or the bytes of an SVAL."""
    out = []
    i = 0
    while i < len(data):
        if i + 4 > len(data):
            raise MalformedInput(where, None, "truncated .nv.info record at offset 0x%x" % i)
        fmt, attr, v = struct.unpack_from("<BBH", data, i)
        i += 4
        if fmt == EIFMT_SVAL:
            if i + v > len(data):
                raise MalformedInput(where, None, "%s at offset 0x%x runs past the section (%d bytes)"
                                     % (name(attr), i - 4, v))
            out.append((attr, fmt, bytes(data[i:i + v])))
            i += v
        elif fmt in (EIFMT_NVAL, EIFMT_BVAL, EIFMT_HVAL):
            out.append((attr, fmt, None if fmt == EIFMT_NVAL else v))
        else:
            raise MalformedInput(where, None, "unknown .nv.info format %d at offset 0x%x" % (fmt, i - 4))
    return out


def record(attr, fmt, value=None):
    if fmt == EIFMT_SVAL:
        return struct.pack("<BBH", fmt, attr, len(value)) + value
    return struct.pack("<BBH", fmt, attr, value or 0)


def words(value):
    """An SVAL's bytes as u32s."""
    return list(struct.unpack("<%dI" % (len(value) // 4), value[:len(value) // 4 * 4]))


# KPARAM_INFO: {u32 index; u16 ordinal; u16 offset; u32 flags}: size = flags >> 18,
# cbank = (flags >> 12) & 0x1f, space = (flags >> 8) & 0xf, log2 pointee alignment = flags & 0xff
def kparam(ordinal, offset, size, cbank=0x1F, index=0):
    return struct.pack("<IHHI", index, ordinal, offset, size << 18 | cbank << 12)


def parse_kparam(value):
    index, ordinal, offset, flags = struct.unpack("<IHHI", value)
    return {"index": index, "ordinal": ordinal, "offset": offset, "size": flags >> 18,
            "cbank": (flags >> 12) & 0x1F, "space": (flags >> 8) & 0xF, "log_align": flags & 0xFF}
