"""16-bit results in 32-bit VGPRs: gfx11 writes the op_sel[3]-selected half and preserves the
other one (LLVM 19's GCNSubtarget::zeroesHigh16BitsOfDest is false for every gfx10+ opcode, so
fake16 code relies on the high half surviving)."""
import re

import numpy as np
import pytest

from assembler.rdna3.tables import ALU
from drivers.emu.amd.shader.valu import VALU
from test_emu_sim_valu_util import W, ctx

# ops whose VOP3 op_sel names a destination half but whose result fills the whole register
FULL_WIDTH = {"v_pack_b32_f16", "v_cvt_pk_norm_i16_f16", "v_cvt_pk_norm_u16_f16", "v_mad_u32_u16",
              "v_mad_i32_i16"}
# 16-bit results the encoding tables do not mark (true16-style operands or no op_sel printing)
UNMARKED = {"v_mov_b16", "v_cndmask_b16", "v_lshlrev_b16", "v_lshrrev_b16", "v_ashrrev_i16",
            "v_max_u16", "v_max_i16", "v_min_u16", "v_min_i16", "v_mul_lo_u16", "v_and_b16",
            "v_or_b16", "v_xor_b16"}


def sixteen_bit_destinations():
    names = set()
    for fam in ("VOP1", "VOP2"):
        for mnem, operands, *_ in ALU[fam].values():
            if any(o[:3] == ("reg", "vdst", "v") and o[4] == 128 for o in operands):
                names.add(re.sub(r"_e32$", "", mnem))
    for mnem, operands, *rest in ALU["VOP3"].values():
        opsel = rest[-1]
        if opsel and opsel[4] != -1 and len(opsel) > 4:
            names.add(re.sub(r"_e64$", "", mnem))
    return sorted((names | UNMARKED) - FULL_WIDTH)


NAMES = sixteen_bit_destinations()


def test_the_list_is_the_expected_size():
    assert len(NAMES) == 65 and all(n in VALU for n in NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_the_other_half_is_preserved(name):
    o = VALU[name]
    rng = np.random.default_rng(abs(hash(name)) % 2**32)
    srcs = [rng.integers(0, 2**16, (W, 32), dtype=np.uint32) * np.uint32(0x10001) for _ in o.src_bits]
    old = rng.integers(0, 2**32, (W, 32), dtype=np.uint64).astype(np.uint32)
    mask = rng.integers(0, 2, (W, 32)).astype(bool)
    low = o.fn(ctx(mask=mask), srcs, old)
    assert np.array_equal(low >> 16, old >> 16), name
    high = o.fn(ctx(mask=mask, opsel=0b1000), srcs, old)
    assert np.array_equal(high & 0xFFFF, old & 0xFFFF), name
    # same 16-bit value whichever half receives it (sources replicate their halves here;
    # v_fmac_f16 accumulates into the selected half, so its addend differs)
    if name != "v_fmac_f16":
        assert np.array_equal(high >> 16, low & 0xFFFF), name
