"""The 64-byte AMDHSA kernel descriptor (KD) as a typed object.

Layout (AMDGPUUsage "Kernel Descriptor", code object v3+):

    0x00 u32 group_segment_fixed_size     0x10 i64 kernel_code_entry_byte_offset
    0x04 u32 private_segment_fixed_size   0x2C u32 compute_pgm_rsrc3
    0x08 u32 kernarg_size                 0x30 u32 compute_pgm_rsrc1
    0x0C u8[4]  reserved                  0x34 u32 compute_pgm_rsrc2
    0x18 u8[20] reserved                  0x38 u16 kernel_code_properties
    0x3C u8[4]  reserved                  0x3A u16 kernarg_preload

COMPUTE_PGM_RSRC1/2/3 and kernel_code_properties are packed registers; their bit fields are
named below in the vendor's vocabulary (RSRC3 has two layouts: gfx10/gfx11 and gfx90a/gfx94x).
The helpers compute the granulated register counts the way llvm-mc-19 does.
"""
import struct
from dataclasses import dataclass, fields as dc_fields
from typing import NamedTuple

from assembler.errors import MalformedInput

KD_SIZE = 64
KD_ALIGN = 64
_LAYOUT = struct.Struct("<III4xq20xIIIHH4x")


class BitField(NamedTuple):
    name: str
    lsb: int
    width: int

    @property
    def mask(self):
        return ((1 << self.width) - 1) << self.lsb


def _fields(*spec):
    return {name: BitField(name, lsb, width) for name, lsb, width in spec}


COMPUTE_PGM_RSRC1 = _fields(
    ("GRANULATED_WORKITEM_VGPR_COUNT", 0, 6), ("GRANULATED_WAVEFRONT_SGPR_COUNT", 6, 4),
    ("PRIORITY", 10, 2), ("FLOAT_ROUND_MODE_32", 12, 2), ("FLOAT_ROUND_MODE_16_64", 14, 2),
    ("FLOAT_DENORM_MODE_32", 16, 2), ("FLOAT_DENORM_MODE_16_64", 18, 2), ("PRIV", 20, 1),
    ("ENABLE_DX10_CLAMP", 21, 1), ("DEBUG_MODE", 22, 1), ("ENABLE_IEEE_MODE", 23, 1),
    ("BULKY", 24, 1), ("CDBG_USER", 25, 1), ("FP16_OVFL", 26, 1), ("WGP_MODE", 29, 1),
    ("MEM_ORDERED", 30, 1), ("FWD_PROGRESS", 31, 1))
COMPUTE_PGM_RSRC2 = _fields(
    ("ENABLE_PRIVATE_SEGMENT", 0, 1), ("USER_SGPR_COUNT", 1, 5), ("ENABLE_TRAP_HANDLER", 6, 1),
    ("ENABLE_SGPR_WORKGROUP_ID_X", 7, 1), ("ENABLE_SGPR_WORKGROUP_ID_Y", 8, 1),
    ("ENABLE_SGPR_WORKGROUP_ID_Z", 9, 1), ("ENABLE_SGPR_WORKGROUP_INFO", 10, 1),
    ("ENABLE_VGPR_WORKITEM_ID", 11, 2), ("ENABLE_EXCEPTION_ADDRESS_WATCH", 13, 1),
    ("ENABLE_EXCEPTION_MEMORY", 14, 1), ("GRANULATED_LDS_SIZE", 15, 9),
    ("ENABLE_EXCEPTION_IEEE_754_FP_INVALID_OPERATION", 24, 1),
    ("ENABLE_EXCEPTION_FP_DENORMAL_SOURCE", 25, 1),
    ("ENABLE_EXCEPTION_IEEE_754_FP_DIVISION_BY_ZERO", 26, 1),
    ("ENABLE_EXCEPTION_IEEE_754_FP_OVERFLOW", 27, 1),
    ("ENABLE_EXCEPTION_IEEE_754_FP_UNDERFLOW", 28, 1),
    ("ENABLE_EXCEPTION_IEEE_754_FP_INEXACT", 29, 1),
    ("ENABLE_EXCEPTION_INT_DIVIDE_BY_ZERO", 30, 1))
COMPUTE_PGM_RSRC3_GFX10_GFX11 = _fields(
    ("SHARED_VGPR_COUNT", 0, 4), ("INST_PREF_SIZE", 4, 6), ("TRAP_ON_START", 10, 1),
    ("TRAP_ON_END", 11, 1), ("IMAGE_OP", 31, 1))
COMPUTE_PGM_RSRC3_GFX90A = _fields(("ACCUM_OFFSET", 0, 6), ("TG_SPLIT", 16, 1))
KERNEL_CODE_PROPERTIES = _fields(
    ("ENABLE_SGPR_PRIVATE_SEGMENT_BUFFER", 0, 1), ("ENABLE_SGPR_DISPATCH_PTR", 1, 1),
    ("ENABLE_SGPR_QUEUE_PTR", 2, 1), ("ENABLE_SGPR_KERNARG_SEGMENT_PTR", 3, 1),
    ("ENABLE_SGPR_DISPATCH_ID", 4, 1), ("ENABLE_SGPR_FLAT_SCRATCH_INIT", 5, 1),
    ("ENABLE_SGPR_PRIVATE_SEGMENT_SIZE", 6, 1), ("ENABLE_WAVEFRONT_SIZE32", 10, 1),
    ("USES_DYNAMIC_STACK", 11, 1))
KERNARG_PRELOAD = _fields(("KERNARG_PRELOAD_SPEC_LENGTH", 0, 7), ("KERNARG_PRELOAD_SPEC_OFFSET", 7, 9))

# User SGPRs each kernel_code_properties bit asks for, in the order the hardware loads them.
USER_SGPR_SIZES = {
    "ENABLE_SGPR_PRIVATE_SEGMENT_BUFFER": 4, "ENABLE_SGPR_DISPATCH_PTR": 2,
    "ENABLE_SGPR_QUEUE_PTR": 2, "ENABLE_SGPR_KERNARG_SEGMENT_PTR": 2,
    "ENABLE_SGPR_DISPATCH_ID": 2, "ENABLE_SGPR_FLAT_SCRATCH_INIT": 2,
    "ENABLE_SGPR_PRIVATE_SEGMENT_SIZE": 1,
}

_REGISTERS = {
    "compute_pgm_rsrc1": COMPUTE_PGM_RSRC1,
    "compute_pgm_rsrc2": COMPUTE_PGM_RSRC2,
    "kernel_code_properties": KERNEL_CODE_PROPERTIES,
    "kernarg_preload": KERNARG_PRELOAD,
}


def get_bits(value, field):
    return (value >> field.lsb) & ((1 << field.width) - 1)


def set_bits(value, field, x):
    """`value` with `field` replaced by `x`; ValueError if `x` does not fit the field."""
    if not 0 <= x < (1 << field.width):
        raise ValueError(f"{field.name} = {x} does not fit in {field.width} bits")
    return (value & ~field.mask) | (x << field.lsb)


@dataclass
class KernelDescriptor:
    group_segment_fixed_size: int = 0
    private_segment_fixed_size: int = 0
    kernarg_size: int = 0
    kernel_code_entry_byte_offset: int = 0
    compute_pgm_rsrc3: int = 0
    compute_pgm_rsrc1: int = 0
    compute_pgm_rsrc2: int = 0
    kernel_code_properties: int = 0
    kernarg_preload: int = 0

    def pack(self):
        try:
            return _LAYOUT.pack(*(getattr(self, f.name) for f in dc_fields(self)))
        except struct.error as err:
            raise ValueError(f"kernel descriptor field out of range: {err}") from None

    @classmethod
    def unpack(cls, data, source="<kernel descriptor>"):
        """Decode 64 bytes; MalformedInput if short or if a reserved byte is set."""
        data = bytes(data)
        if len(data) < KD_SIZE:
            raise MalformedInput(source, None, f"kernel descriptor truncated: {len(data)} of 64 bytes")
        data = data[:KD_SIZE]
        for start, end in ((0x0C, 0x10), (0x18, 0x2C), (0x3C, 0x40)):
            if any(data[start:end]):
                raise MalformedInput(source, None, f"kernel descriptor reserved bytes "
                                                   f"0x{start:02x}..0x{end - 1:02x} are not zero")
        return cls(*_LAYOUT.unpack(data))

    def _register(self, field_name):
        for reg, table in _REGISTERS.items():
            if field_name in table:
                return reg, table[field_name]
        raise KeyError(f"no kernel descriptor bit field named {field_name!r}")

    def get(self, field_name):
        """Value of a named bit field of RSRC1, RSRC2, kernel_code_properties or kernarg_preload."""
        reg, field = self._register(field_name)
        return get_bits(getattr(self, reg), field)

    def set(self, field_name, value):
        reg, field = self._register(field_name)
        setattr(self, reg, set_bits(getattr(self, reg), field, value))

    def rsrc3_fields(self, gfx90a_class=False):
        table = COMPUTE_PGM_RSRC3_GFX90A if gfx90a_class else COMPUTE_PGM_RSRC3_GFX10_GFX11
        return {name: get_bits(self.compute_pgm_rsrc3, f) for name, f in table.items()}

    def decoded(self, gfx90a_class=False):
        """Every named field of every register, as {register: {field: value}}."""
        out = {reg: {name: get_bits(getattr(self, reg), f) for name, f in table.items()}
               for reg, table in _REGISTERS.items()}
        out["compute_pgm_rsrc3"] = self.rsrc3_fields(gfx90a_class)
        return out

    @property
    def wave32(self):
        return bool(self.get("ENABLE_WAVEFRONT_SIZE32"))

    @property
    def user_sgpr_count(self):
        return self.get("USER_SGPR_COUNT")


def vgpr_encoding_granule(wave32, gfx90a_class=False):
    """VGPRs per GRANULATED_WORKITEM_VGPR_COUNT step: 8 for wave32 and gfx90a-class, else 4."""
    return 8 if wave32 or gfx90a_class else 4


def granulated_workitem_vgpr_count(next_free_vgpr, wave32, gfx90a_class=False):
    """RSRC1.GRANULATED_WORKITEM_VGPR_COUNT = ceil(max(1, vgprs) / granule) - 1."""
    granule = vgpr_encoding_granule(wave32, gfx90a_class)
    return (max(1, next_free_vgpr) + granule - 1) // granule - 1


def vgprs_from_granules(granulated, wave32, gfx90a_class=False):
    """The VGPR count a GRANULATED_WORKITEM_VGPR_COUNT value allocates."""
    return (granulated + 1) * vgpr_encoding_granule(wave32, gfx90a_class)


def granulated_wavefront_sgpr_count(num_sgprs, major):
    """RSRC1.GRANULATED_WAVEFRONT_SGPR_COUNT: ceil(max(1, n) / 8) - 1 before gfx10, 0 on gfx10+.

    `num_sgprs` includes the VCC/FLAT_SCRATCH/XNACK extras the caller reserved.
    """
    if major >= 10:
        return 0
    return (max(1, num_sgprs) + 7) // 8 - 1


def implied_user_sgpr_count(kernel_code_properties):
    """User SGPRs the enabled kernel_code_properties bits occupy."""
    return sum(size for name, size in USER_SGPR_SIZES.items()
               if get_bits(kernel_code_properties, KERNEL_CODE_PROPERTIES[name]))


def granulated_lds_size(group_segment_bytes):
    """RSRC2.GRANULATED_LDS_SIZE for a dispatch: LDS in 512-byte (128-dword) blocks."""
    return (group_segment_bytes + 511) // 512
