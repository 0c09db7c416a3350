"""s_getreg_b32 / s_setreg_b32 / s_setreg_imm32_b32: the hardware registers a shader may read.

hwreg(id, offset, size) is packed as id[5:0], offset[10:6], size-1[15:11].  MODE is read-write
(round and denormal modes reach the VALU through it); the others are read-only views of the
wave's state as the virtual GPU defines it.
"""
import numpy as np

from drivers.emu.faults import IllegalInstruction

from .operands import PRIVATE_APERTURE, SHARED_APERTURE, scalar_reader, scalar_writer
from .state import EXEC_LO, VCC_LO

HW_REG_MODE, HW_REG_STATUS, HW_REG_TRAPSTS = 1, 2, 3
HW_REG_GPR_ALLOC, HW_REG_LDS_ALLOC, HW_REG_IB_STS = 5, 6, 7
HW_REG_SH_MEM_BASES, HW_REG_FLAT_SCR_LO, HW_REG_FLAT_SCR_HI = 15, 20, 21
HW_REG_HW_ID1, HW_REG_HW_ID2, HW_REG_SHADER_CYCLES = 23, 24, 29
MODE_WRITABLE = 0x3FF                   # round, denorm, DX10_CLAMP, IEEE
READABLE = frozenset((HW_REG_MODE, HW_REG_STATUS, HW_REG_TRAPSTS, HW_REG_GPR_ALLOC, HW_REG_LDS_ALLOC,
                      HW_REG_IB_STS, HW_REG_SH_MEM_BASES, HW_REG_FLAT_SCR_LO, HW_REG_FLAT_SCR_HI,
                      HW_REG_HW_ID1, HW_REG_HW_ID2, HW_REG_SHADER_CYCLES))


def read_hwreg(st, sel, hid, pc):
    n = st.pc[sel].shape[0]
    if hid == HW_REG_MODE:
        return st.mode[sel].copy()
    if hid == HW_REG_STATUS:          # SCC[0], EXECZ[9], VCCZ[10]
        return (st.scc[sel] | (st.sgpr[sel, EXEC_LO] == 0).astype(np.uint32) << np.uint32(9)
                | (st.sgpr[sel, VCC_LO] == 0).astype(np.uint32) << np.uint32(10))
    if hid in (HW_REG_TRAPSTS, HW_REG_IB_STS, HW_REG_HW_ID2):
        return np.zeros(n, np.uint32)
    if hid == HW_REG_GPR_ALLOC:       # VGPR_SIZE[15:8] in 8-register granules, minus one
        return np.full(n, (st.vgprs // 8 - 1) << 8, np.uint32)
    if hid == HW_REG_LDS_ALLOC:       # LDS_SIZE[20:12] in 512-byte granules
        return np.full(n, (-(-st.lds_bytes // 512)) << 12, np.uint32)
    if hid == HW_REG_SH_MEM_BASES:    # PRIVATE_BASE[15:0], SHARED_BASE[31:16]: aperture bits 63:48
        return np.full(n, (PRIVATE_APERTURE >> 48) | (SHARED_APERTURE >> 48) << 16, np.uint32)
    if hid == HW_REG_FLAT_SCR_LO:
        return (st.scratch_base[sel] & np.uint64(0xFFFFFFFF)).astype(np.uint32)
    if hid == HW_REG_FLAT_SCR_HI:
        return (st.scratch_base[sel] >> np.uint64(32)).astype(np.uint32)
    if hid == HW_REG_HW_ID1:
        return st.hw_id[sel].copy()
    if hid == HW_REG_SHADER_CYCLES:   # a 20-bit cycle counter: the GPU timestamp stands in
        return np.full(n, st.timestamp() & 0xFFFFF, np.uint32)
    raise IllegalInstruction(pc, f"hardware register {hid} cannot be read on the virtual GPU")


def build_hwreg(ins, pc):
    m = ins.mnemonic
    ops = ins.operands
    imm = next(o for o in ops if o.role == "simm16").value
    hid, offset, size = imm & 63, (imm >> 6) & 31, ((imm >> 11) & 31) + 1
    mask = ((1 << size) - 1) if size < 32 else 0xFFFFFFFF
    if m == "s_getreg_b32":
        w = scalar_writer(ops[0], 32)
        if hid not in READABLE:
            raise IllegalInstruction(pc, f"{ins.text}: hardware register {hid} is not readable")

        def getreg(st, sel):
            w(st, sel, (read_hwreg(st, sel, hid, pc) >> np.uint32(offset)) & np.uint32(mask))
        return getreg
    if hid not in (HW_REG_MODE, HW_REG_TRAPSTS):
        raise IllegalInstruction(pc, f"{ins.text}: hardware register {hid} is not writable")
    src = ops[1]
    if m == "s_setreg_imm32_b32":
        value = src.value
        read = lambda st, sel: np.full(st.pc[sel].shape[0], value, np.uint32)   # noqa: E731
    else:
        read = scalar_reader(src, 32, m)
    field = np.uint32((mask << offset) & MODE_WRITABLE) if hid == HW_REG_MODE else np.uint32(0)

    def setreg(st, sel):
        if not field:
            return
        v = (read(st, sel) << np.uint32(offset)) & field
        st.mode[sel] = (st.mode[sel] & ~field) | v
        st.mode_changed()
    return setreg
