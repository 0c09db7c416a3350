"""The A6XX registers a compute dispatch uses, by offset, with both of mesa's names for them.

mesa renamed most compute registers in 2025 (SP_CS_CTRL_REG0 -> SP_CS_CNTL_0, ...); drivers of
both eras write the same offsets, so the command processor keys everything by offset and
prints the older name followed by the newer one. Offsets and field layouts are mesa's
register description (src/freedreno/registers/adreno/a6xx.xml) and adreno_pm4.xml; the
protected ranges are KGSL's a6xx_protected_regs (adreno_a6xx.c of the msm-4.9 kernels).
"""

# offset -> (mesa 24 name, mesa 25 name or None when unchanged)
NAMES = {
    0x0980: ("CP_ALWAYS_ON_COUNTER", None), 0x0981: ("CP_ALWAYS_ON_COUNTER_HI", None),
    0xA9B0: ("SP_CS_CTRL_REG0", "SP_CS_CNTL_0"), 0xA9B1: ("SP_CS_UNKNOWN_A9B1", "SP_CS_CNTL_1"),
    0xA9B2: ("SP_CS_BRANCH_COND", "SP_CS_BOOLEAN_CF_MASK"),
    0xA9B3: ("SP_CS_OBJ_FIRST_EXEC_OFFSET", "SP_CS_PROGRAM_COUNTER_OFFSET"),
    0xA9B4: ("SP_CS_OBJ_START", "SP_CS_BASE"), 0xA9B5: ("SP_CS_OBJ_START_HI", "SP_CS_BASE_HI"),
    0xA9B6: ("SP_CS_PVT_MEM_PARAM", None), 0xA9B7: ("SP_CS_PVT_MEM_ADDR", "SP_CS_PVT_MEM_BASE"),
    0xA9B8: ("SP_CS_PVT_MEM_ADDR_HI", "SP_CS_PVT_MEM_BASE_HI"), 0xA9B9: ("SP_CS_PVT_MEM_SIZE", None),
    0xA9BA: ("SP_CS_TEX_COUNT", "SP_CS_TSIZE"), 0xA9BB: ("SP_CS_CONFIG", None),
    0xA9BC: ("SP_CS_INSTRLEN", "SP_CS_INSTR_SIZE"),
    0xA9BD: ("SP_CS_PVT_MEM_HW_STACK_OFFSET", "SP_CS_PVT_MEM_STACK_OFFSET"),
    0xA9E2: ("SP_CS_TEX_SAMP", "SP_CS_SAMPLER_BASE"), 0xA9E6: ("SP_CS_TEX_CONST", "SP_CS_TEXMEMOBJ_BASE"),
    0xA9F2: ("SP_CS_IBO", "SP_CS_UAV_BASE"), 0xAA00: ("SP_CS_IBO_COUNT", "SP_CS_USIZE"),
    0xAB00: ("SP_MODE_CONTROL", "SP_MODE_CNTL"), 0xAE0F: ("SP_PERFCTR_ENABLE", "SP_PERFCTR_SHADER_MASK"),
    0xB180: ("SP_PS_TP_BORDER_COLOR_BASE_ADDR", "TPL1_CS_BORDER_COLOR_BASE"),
    0xB309: ("SP_TP_MODE_CNTL", "TPL1_MODE_CNTL"), 0xB600: ("TPL1_DBG_ECO_CNTL", None),
    0xB983: ("HLSQ_CONTROL_2_REG", "SP_REG_PROG_ID_0"), 0xB984: ("HLSQ_CONTROL_3_REG", "SP_REG_PROG_ID_1"),
    0xB985: ("HLSQ_CONTROL_4_REG", "SP_REG_PROG_ID_2"), 0xB986: ("HLSQ_CONTROL_5_REG", "SP_REG_PROG_ID_3"),
    0xB987: ("HLSQ_CS_CNTL", "SP_CS_CONST_CONFIG"),
    0xB990: ("HLSQ_CS_NDRANGE_0", "SP_CS_NDRANGE_0"), 0xB991: ("HLSQ_CS_NDRANGE_1", "SP_CS_NDRANGE_1"),
    0xB992: ("HLSQ_CS_NDRANGE_2", "SP_CS_NDRANGE_2"), 0xB993: ("HLSQ_CS_NDRANGE_3", "SP_CS_NDRANGE_3"),
    0xB994: ("HLSQ_CS_NDRANGE_4", "SP_CS_NDRANGE_4"), 0xB995: ("HLSQ_CS_NDRANGE_5", "SP_CS_NDRANGE_5"),
    0xB996: ("HLSQ_CS_NDRANGE_6", "SP_CS_NDRANGE_6"),
    0xB997: ("HLSQ_CS_CNTL_0", "SP_CS_CONST_CONFIG_0"), 0xB998: ("HLSQ_CS_CNTL_1", "SP_CS_WGE_CNTL"),
    0xB999: ("HLSQ_CS_KERNEL_GROUP_X", "SP_CS_KERNEL_GROUP_X"),
    0xB99A: ("HLSQ_CS_KERNEL_GROUP_Y", "SP_CS_KERNEL_GROUP_Y"),
    0xB99B: ("HLSQ_CS_KERNEL_GROUP_Z", "SP_CS_KERNEL_GROUP_Z"),
    0xBB08: ("HLSQ_INVALIDATE_CMD", "SP_UPDATE_CNTL"),
}

CP_ALWAYS_ON_COUNTER = 0x0980
SP_CS_CTRL_REG0, SP_CS_UNKNOWN_A9B1 = 0xA9B0, 0xA9B1
SP_CS_OBJ_FIRST_EXEC_OFFSET, SP_CS_OBJ_START = 0xA9B3, 0xA9B4
SP_CS_PVT_MEM_PARAM, SP_CS_PVT_MEM_ADDR, SP_CS_PVT_MEM_SIZE = 0xA9B6, 0xA9B7, 0xA9B9
SP_CS_CONFIG, SP_CS_INSTRLEN = 0xA9BB, 0xA9BC
HLSQ_CS_CNTL = 0xB987
HLSQ_CS_NDRANGE_0 = 0xB990
HLSQ_CS_CNTL_0, HLSQ_CS_CNTL_1 = 0xB997, 0xB998
HLSQ_CS_KERNEL_GROUP_X = 0xB999
HLSQ_INVALIDATE_CMD = 0xBB08

# KGSL programs CP_PROTECT with these ranges (base, count, read-protected): a user IB that
# writes one, or reads a read-protected one, stops the CP with a protected-mode error.
PROTECTED = ((0x600, 0x51, 0), (0xAE50, 0x2, 1), (0x9624, 0x13, 1), (0x8630, 0x8, 1), (0x9E70, 0x1, 1),
             (0x9E78, 0x187, 1), (0xF000, 0x810, 1), (0xFC00, 0x3, 0), (0x50E, 0x0, 1), (0x50F, 0x0, 0),
             (0x510, 0x0, 1), (0x0, 0x4F9, 0), (0x501, 0xA, 0), (0x511, 0x44, 0), (0xE00, 0xE, 1),
             (0x8E00, 0x0, 1), (0x8E50, 0xF, 1), (0xBE02, 0x0, 1), (0xBE20, 0x11F3, 1), (0x800, 0x82, 1),
             (0x8A0, 0x8, 1), (0x8AB, 0x19, 1), (0x900, 0x4D, 1), (0x98D, 0x76, 1), (0x8D0, 0x23, 0),
             (0x980, 0x4, 0), (0xA630, 0x0, 1))


def protected(reg, read=False):
    """Whether a user IB may not write (or, with ``read``, read) register ``reg``."""
    for base, count, read_protect in PROTECTED:
        if base <= reg <= base + count and (not read or read_protect):
            return True
    return False


def name(reg):
    """'SP_CS_CTRL_REG0 (SP_CS_CNTL_0)', or the offset when this table does not know it."""
    names = NAMES.get(reg)
    if names is None:
        return f"register 0x{reg:04x}"
    return names[0] if names[1] is None else f"{names[0]} ({names[1]})"


def field(value, low, high):
    return (value >> low) & ((1 << (high - low + 1)) - 1)
