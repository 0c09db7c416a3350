"""SALU semantics of the wave simulator, instruction by instruction, with expected values
computed here in plain Python integers (carries, shifts >= 32, SCC rules, 64-bit pairs)."""
import struct

import numpy as np
import pytest

from drivers.emu.amd.dispatch import Dispatch
from drivers.emu.faults import IllegalInstruction
from drivers.emu.amd.shader import WaveExecutor
from drivers.emu.vm import GpuVM
from tests.test_emu_sim_helpers import (CODE_VA, DATA_VA, EXEC, const, endpgm, program, run_code, s_mov, smem,
                                        sop1, sop2, sopc, sopk, sopp)

M32, M64 = (1 << 32) - 1, (1 << 64) - 1


def s32(x):
    x &= M32
    return x - (1 << 32) if x >> 31 else x


def run_salu(*parts, scc_in=None):
    """Run the instructions with SCC preset (via s_cmp) and return (sgprs of wave 0, scc)."""
    pre = b""
    if scc_in is not None:
        pre = sopc("s_cmp_eq_u32", const(0), const(0 if scc_in else 1))
    _, st, _ = run_code(program(pre, *parts, endpgm()))
    return [int(x) for x in st.sgpr[0]], int(st.scc[0])


def mov64(reg, value):
    return program(s_mov(reg, value & M32), s_mov(reg + 1, value >> 32))


def get64(sgpr, reg):
    return sgpr[reg] | sgpr[reg + 1] << 32


# (mnemonic, a, b, scc_in, expected result, expected scc) -- expectations written from the ISA rules
SOP2_CASES = [
    ("s_add_u32", M32, 1, None, 0, 1),
    ("s_add_u32", 5, 7, None, 12, 0),
    ("s_sub_u32", 0, 1, None, M32, 1),
    ("s_sub_u32", 9, 4, None, 5, 0),
    ("s_add_i32", 0x7FFFFFFF, 1, None, 0x80000000, 1),
    ("s_add_i32", M32, 1, None, 0, 0),
    ("s_sub_i32", 0x80000000, 1, None, 0x7FFFFFFF, 1),
    ("s_sub_i32", 3, 5, None, (3 - 5) & M32, 0),
    ("s_addc_u32", M32, 0, 1, 0, 1),
    ("s_addc_u32", 1, 2, 1, 4, 0),
    ("s_subb_u32", 0, 0, 1, M32, 1),
    ("s_subb_u32", 5, 2, 1, 2, 0),
    ("s_lshl_b32", 1, 33, None, 2, 1),            # shift count is S1[4:0]
    ("s_lshl_b32", 0x80000000, 1, None, 0, 0),
    ("s_lshr_b32", 0x80000000, 63, None, 1, 1),
    ("s_ashr_i32", 0x80000000, 31, None, M32, 1),
    ("s_min_i32", (-5) & M32, 3, None, (-5) & M32, 1),
    ("s_min_u32", (-5) & M32, 3, None, 3, 0),
    ("s_max_i32", (-5) & M32, 3, None, 3, 0),
    ("s_max_u32", M32, 1, None, M32, 1),
    ("s_and_b32", 0xF0, 0x0F, None, 0, 0),
    ("s_or_b32", 0xF0, 0x0F, None, 0xFF, 1),
    ("s_xor_b32", 0xFF, 0x0F, None, 0xF0, 1),
    ("s_nand_b32", M32, M32, None, 0, 0),
    ("s_and_not1_b32", 0xFF, 0x0F, None, 0xF0, 1),
    ("s_or_not1_b32", 0, M32, None, 0, 0),
    ("s_bfe_u32", 0xABCD1234, 8 | 8 << 16, None, 0x12, 1),
    ("s_bfe_i32", 0x0000F000, 12 | 4 << 16, None, M32, 1),
    ("s_bfe_i32", 0x0000F000, 12 | 0 << 16, None, 0, 0),
    ("s_bfe_u32", 0x80000000, 31 | 5 << 16, None, 1, 1),
    ("s_bfm_b32", 4, 8, None, 0xF00, None),
    ("s_mul_i32", 0x10000, 0x10000, None, 0, None),
    ("s_mul_hi_u32", M32, M32, None, 0xFFFFFFFE, None),
    ("s_mul_hi_i32", 0x80000000, 2, None, M32, None),
    ("s_mul_hi_i32", M32, M32, None, 0, None),
    ("s_lshl2_add_u32", 0x40000000, 1, None, 1, 1),
    ("s_lshl1_add_u32", 3, 4, None, 10, 0),
    ("s_absdiff_i32", 3, (-4) & M32, None, 7, 1),
    ("s_absdiff_i32", 45, 0x80000001, None, 0x7FFFFFD4, 1),        # |45 - -2147483647| wraps
    ("s_max_i32", 5, 5, None, 5, 1),                   # equal operands: SCC = S0 >= S1 for max
    ("s_min_u32", 5, 5, None, 5, 0),
    ("s_cselect_b32", 11, 22, 1, 11, None),
    ("s_cselect_b32", 11, 22, 0, 22, None),
    ("s_pack_lh_b32_b16", 0x11112222, 0x33334444, None, 0x33332222, None),
    ("s_pack_hh_b32_b16", 0x11112222, 0x33334444, None, 0x33331111, None),
]


@pytest.mark.parametrize("m,a,b,scc_in,want,want_scc", SOP2_CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(SOP2_CASES)])
def test_sop2_32(m, a, b, scc_in, want, want_scc):
    sg, scc = run_salu(s_mov(4, a), s_mov(5, b), sop2(m, 6, 4, 5), scc_in=scc_in)
    assert sg[6] == want
    if want_scc is not None:
        assert scc == want_scc
    elif scc_in is not None:
        assert scc == scc_in                # instructions without an SCC result leave it alone


SOP2_64 = [
    ("s_lshl_b64", 1, 63, 1 << 63, 1),
    ("s_lshl_b64", 1, 64, 1, 1),                     # S1[5:0]
    ("s_lshr_b64", 1 << 63, 62, 2, 1),
    ("s_ashr_i64", 1 << 63, 63, M64, 1),
    ("s_and_b64", 0xFFFF_0000_0000_0000, 0x0000_FFFF_FFFF_FFFF, 0, 0),
    ("s_or_b64", 1 << 40, 1, (1 << 40) | 1, 1),
    ("s_xnor_b64", 0, 0, M64, 1),
    ("s_bfe_u64", 0x1234_5678_9ABC_DEF0, 28 | 16 << 16, 0x6789, 1),
    ("s_bfe_i64", 0x8000_0000_0000_0000, 60 | 4 << 16, (-8) & M64, 1),
]


@pytest.mark.parametrize("m,a,b,want,want_scc", SOP2_64, ids=[c[0] for c in SOP2_64])
def test_sop2_64(m, a, b, want, want_scc):
    second = s_mov(6, b) if m in ("s_lshl_b64", "s_lshr_b64", "s_ashr_i64", "s_bfe_u64", "s_bfe_i64") else mov64(6, b)
    sg, scc = run_salu(mov64(4, a), second, sop2(m, 8, 4, 6))
    assert get64(sg, 8) == want
    assert scc == want_scc


SOP1_CASES = [
    ("s_brev_b32", 1, 0x80000000, None),
    ("s_ctz_i32_b32", 8, 3, None),
    ("s_ctz_i32_b32", 0, M32, None),
    ("s_clz_i32_u32", 1, 31, None),
    ("s_clz_i32_u32", 0, M32, None),
    ("s_cls_i32", 0x0000FFFF, 16, None),
    ("s_cls_i32", 0xFFFF0000, 16, None),
    ("s_cls_i32", M32, M32, None),
    ("s_sext_i32_i8", 0x180, M32 - 0x7F, None),
    ("s_sext_i32_i16", 0x7FFF, 0x7FFF, None),
    ("s_bcnt1_i32_b32", 0xF0F0, 8, 1),
    ("s_bcnt0_i32_b32", M32, 0, 0),
    ("s_not_b32", M32, 0, 0),
    ("s_abs_i32", 0x80000000, 0x80000000, 1),
    ("s_abs_i32", (-7) & M32, 7, 1),
    ("s_quadmask_b32", 0x000000F1, 0b11, 1),
    ("s_wqm_b32", 0x10, 0xF0, 1),
    ("s_mov_b32", 0xDEADBEEF, 0xDEADBEEF, None),
]


@pytest.mark.parametrize("m,a,want,want_scc", SOP1_CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(SOP1_CASES)])
def test_sop1(m, a, want, want_scc):
    sg, scc = run_salu(s_mov(4, a), sop1(m, 6, 4), scc_in=1)
    assert sg[6] == want
    assert scc == (want_scc if want_scc is not None else 1)


def test_sop1_64_bit_ops():
    sg, scc = run_salu(mov64(4, 0x0000_0001_0000_0000), sop1("s_ctz_i32_b64", 6, 4),
                       sop1("s_bcnt1_i32_b64", 7, 4), sop1("s_brev_b64", 8, 4), sop1("s_not_b64", 10, 4))
    assert sg[6] == 32 and sg[7] == 1
    assert get64(sg, 8) == 1 << 31
    assert get64(sg, 10) == M64 ^ (1 << 32) and scc == 1
    sg, _ = run_salu(s_mov(4, 0b101), sop1("s_bitreplicate_b64_b32", 6, 4))
    assert get64(sg, 6) == 0b110011


def test_bitset_and_cmov():
    sg, _ = run_salu(s_mov(6, 0), s_mov(4, 33), sop1("s_bitset1_b32", 6, 4),
                     mov64(8, M64), s_mov(5, 40), sop1("s_bitset0_b64", 8, 5),
                     s_mov(10, 1), s_mov(11, 2), sopc("s_cmp_lg_u32", const(0), const(0)),
                     sop1("s_cmov_b32", 10, 11))
    assert sg[6] == 2                                    # bit S0[4:0] = 1
    assert get64(sg, 8) == M64 ^ (1 << 40)
    assert sg[10] == 1                                   # SCC was 0: no move


@pytest.mark.parametrize("m,a,b,want", [
    ("s_cmp_eq_i32", 5, 5, 1), ("s_cmp_lg_u32", 5, 5, 0), ("s_cmp_gt_i32", 1, M32, 1),
    ("s_cmp_gt_u32", 1, M32, 0), ("s_cmp_le_u32", 7, 7, 1), ("s_cmp_lt_i32", 0x80000000, 0, 1),
    ("s_bitcmp1_b32", 0x10, 4, 1), ("s_bitcmp0_b32", 0x10, 36, 0)])
def test_sopc(m, a, b, want):
    _, scc = run_salu(s_mov(4, a), s_mov(5, b), sopc(m, 4, 5))
    assert scc == want


def test_sopc_64():
    _, scc = run_salu(mov64(4, 1 << 40), mov64(6, 1 << 40), sopc("s_cmp_eq_u64", 4, 6))
    assert scc == 1
    _, scc = run_salu(mov64(4, 1 << 40), mov64(6, 1), sopc("s_cmp_lg_u64", 4, 6))
    assert scc == 1


def test_sopk():
    sg, scc = run_salu(sopk("s_movk_i32", 4, 0x8000), s_mov(5, 0x7FFFFFFF), sopk("s_addk_i32", 5, 1))
    assert sg[4] == 0xFFFF8000                            # sign-extended
    assert sg[5] == 0x80000000 and scc == 1               # signed overflow
    _, scc = run_salu(s_mov(4, 0xFFFF), sopk("s_cmpk_eq_u32", 4, 0xFFFF))
    assert scc == 1                                       # zero-extended for _u32
    _, scc = run_salu(s_mov(4, M32), sopk("s_cmpk_eq_i32", 4, 0xFFFF))
    assert scc == 1                                       # sign-extended for _i32
    sg, _ = run_salu(s_mov(4, 3), sopk("s_mulk_i32", 4, -2))
    assert sg[4] == (-6) & M32


def test_saveexec_and_wrexec():
    sg, scc = run_salu(s_mov(5, 0x0000FFFF), sop1("s_and_saveexec_b32", 4, 5))
    assert sg[4] == M32 and sg[EXEC] == 0xFFFF and scc == 1
    sg, scc = run_salu(s_mov(5, M32), sop1("s_and_not1_saveexec_b32", 4, 5))
    assert sg[4] == M32 and sg[EXEC] == 0 and scc == 0
    sg, scc = run_salu(s_mov(5, 0xF), sop1("s_and_not0_wrexec_b32", 4, 5))
    assert sg[EXEC] == M32 ^ 0xF and sg[4] == M32 ^ 0xF and scc == 1


def test_getpc_setpc_swappc():
    # s_getpc at +0, two s_mov at +4/+12, s_swappc at +20, four s_mov at +24..+56, s_endpgm at +56
    code = program(sop1("s_getpc_b64", 4, 0),
                   s_mov(8, CODE_VA + 56), s_mov(9, 0),
                   sop1("s_swappc_b64", 6, 8),
                   s_mov(10, 1), s_mov(10, 2), s_mov(10, 3), s_mov(10, 4),
                   endpgm())
    _, st, _ = run_code(code)
    sg = [int(x) for x in st.sgpr[0]]
    assert get64(sg, 4) == CODE_VA + 4
    assert get64(sg, 6) == CODE_VA + 24                    # return address after s_swappc
    assert sg[10] == 0                                      # the skipped moves never ran


def test_branch_loop_counts():
    # s4 = 10; do { s5 += 3; s4 -= 1 } while (s4 != 0)
    loop = program(sop2("s_add_u32", 5, 5, const(3)), sop2("s_sub_u32", 4, 4, const(1)),
                   sopc("s_cmp_lg_u32", 4, const(0)))
    back = -(len(loop) + 4) // 4
    sg, _ = run_salu(s_mov(4, 10), s_mov(5, 0), loop, sopp("s_cbranch_scc1", back))
    assert sg[5] == 30 and sg[4] == 0


def test_divergent_waves_regroup_and_finish():
    # each wave loops (workgroup id + 1) * 2 times: waves leave the loop at different PCs/times
    loop = program(sop2("s_add_u32", 5, 5, const(1)), sop2("s_sub_u32", 4, 4, const(1)),
                   sopc("s_cmp_lg_u32", 4, const(0)))
    code = program(sop2("s_add_u32", 4, 0, const(1)), sop2("s_lshl_b32", 4, 4, const(1)), s_mov(5, 0),
                   loop, sopp("s_cbranch_scc1", -(len(loop) + 4) // 4), endpgm())
    ex, st, _ = run_code(code, waves=4, user_sgprs=())
    # the workgroup id arrives in s0 when only TGID_X is enabled after 0 user SGPRs
    assert [int(x) for x in st.sgpr[:, 5]] == [2, 4, 6, 8]


def test_getreg_setreg_mode():
    hw_mode = 1 | 0 << 6 | 31 << 11                      # hwreg(HW_REG_MODE)
    sg, _ = run_salu(sopk("s_getreg_b32", 4, hw_mode),
                     s_mov(6, 0), sopk("s_setreg_b32", 6, 1 | 4 << 6 | 3 << 11),   # denorm bits [7:4] = 0
                     sopk("s_getreg_b32", 5, hw_mode),
                     sopp("s_round_mode", 0x3), sopk("s_getreg_b32", 7, 1 | 0 << 6 | 3 << 11))
    assert sg[4] == 0x3F0                                # RSRC1 0x60AF0000: denormals kept, DX10 clamp, IEEE
    assert sg[5] == 0x300
    assert sg[7] == 0x3                                   # round_f32 = toward zero


def test_unsupported_instruction_names_pc():
    code = program(s_mov(4, 1), sopk("s_subvector_loop_begin", 4, 0), endpgm())
    with pytest.raises(IllegalInstruction) as e:
        run_code(code)
    assert e.value.pc == CODE_VA + 8
    assert "s_subvector_loop_begin" in str(e.value)


def test_every_scalar_opcode_the_decoder_knows_is_implemented():
    """Build the closure of each SOP1/SOP2/SOPC/SOPK/SOPP opcode (operand fields zero); only the
    wave64 subvector loops and the trap-handler return are refused, naming themselves."""
    from assembler.rdna3.decoder import decode
    from assembler.rdna3.formats import put
    from assembler.rdna3.tables import ALU
    from drivers.emu.amd.shader.executor import ValuEnv
    from drivers.emu.amd.shader.program import Program
    refused = set()
    builder = Program(None, 32, ValuEnv())
    for fam in ("SOP1", "SOP2", "SOPC", "SOPK", "SOPP"):
        for op, entry in ALU[fam].items():
            fields = {"op": op}
            if entry[0] in ("s_getreg_b32", "s_setreg_b32", "s_setreg_imm32_b32"):
                fields["simm16"] = 1 | 31 << 11                   # hwreg(HW_REG_MODE)
            elif entry[0] == "s_sendmsg":
                fields["simm16"] = 3                              # MSG_DEALLOC_VGPRS
            ins, size = decode(put(fam, **fields).to_bytes(4, "little") + bytes(12), 0)
            try:
                builder._closure(ins, CODE_VA, size)
            except IllegalInstruction as e:
                assert ins.mnemonic in str(e)
                refused.add(ins.mnemonic)
    assert refused == {"s_subvector_loop_begin", "s_subvector_loop_end", "s_rfe_b64"}


# -- many operand pairs at once: one wave per pair, against plain-integer models ---------------
EDGES32 = [0, 1, 2, 31, 32, 33, 63, 64, 0x7FFFFFFF, 0x80000000, 0x80000001, 0xFFFFFFFE, M32]


def _pairs(seed, n=48):
    import random
    rng = random.Random(seed)
    pairs = [(a, b) for a in EDGES32 for b in EDGES32[::3]]
    pairs += [(rng.getrandbits(32), rng.getrandbits(32)) for _ in range(n)]
    pairs += [(rng.getrandbits(32), rng.randrange(70)) for _ in range(n)]
    return pairs


def _sext(x, bits):
    x &= (1 << bits) - 1
    return x - (1 << bits) if x >> (bits - 1) else x


def _bfe_model(a, ctl, bits, signed):
    """(S0 >> offset) & ((1 << width) - 1), the shift arithmetic for the signed forms (a field
    past the top bit fills with the sign), then sign-extended from bit width-1."""
    off, width = ctl & (bits - 1), min((ctl >> 16) & 0x7F, bits)
    r = ((_sext(a, bits) if signed else a) >> off) & ((1 << width) - 1)
    if signed and width:
        r = _sext(r, width) & ((1 << bits) - 1)
    return r


MODELS32 = {   # mnemonic -> (result, scc or None) from Python integers
    "s_add_u32": lambda a, b: ((a + b) & M32, int(a + b > M32)),
    "s_sub_u32": lambda a, b: ((a - b) & M32, int(b > a)),
    "s_add_i32": lambda a, b: ((a + b) & M32, int(not -2**31 <= s32(a) + s32(b) < 2**31)),
    "s_sub_i32": lambda a, b: ((a - b) & M32, int(not -2**31 <= s32(a) - s32(b) < 2**31)),
    "s_absdiff_i32": lambda a, b: (abs(s32(a - b)) & M32, int(a != b)),     # |wrapped difference|
    "s_lshl_b32": lambda a, b: ((a << (b & 31)) & M32, int((a << (b & 31)) & M32 != 0)),
    "s_lshr_b32": lambda a, b: (a >> (b & 31), int(a >> (b & 31) != 0)),
    "s_ashr_i32": lambda a, b: ((s32(a) >> (b & 31)) & M32, int(s32(a) >> (b & 31) != 0)),
    "s_lshl3_add_u32": lambda a, b: (((a << 3) + b) & M32, int((a << 3) + b > M32)),
    "s_min_i32": lambda a, b: (a if s32(a) < s32(b) else b, int(s32(a) < s32(b))),
    "s_max_u32": lambda a, b: (a if a >= b else b, int(a >= b)),         # pseudocode: S0 >= S1
    "s_max_i32": lambda a, b: (a if s32(a) >= s32(b) else b, int(s32(a) >= s32(b))),
    "s_mul_i32": lambda a, b: ((a * b) & M32, None),
    "s_mul_hi_u32": lambda a, b: ((a * b) >> 32, None),
    "s_mul_hi_i32": lambda a, b: ((s32(a) * s32(b) >> 32) & M32, None),
    "s_bfe_u32": lambda a, b: (_bfe_model(a, b, 32, False), int(_bfe_model(a, b, 32, False) != 0)),
    "s_bfe_i32": lambda a, b: (_bfe_model(a, b, 32, True), int(_bfe_model(a, b, 32, True) != 0)),
    "s_bfm_b32": lambda a, b: ((((1 << (a & 31)) - 1) << (b & 31)) & M32, None),
    "s_xnor_b32": lambda a, b: (~(a ^ b) & M32, int(~(a ^ b) & M32 != 0)),
}


@pytest.mark.parametrize("m", sorted(MODELS32))
def test_sop2_against_integer_models(m):
    pairs = _pairs(sum(m.encode()))
    data = b"".join(struct.pack("<II", a, b) for a, b in pairs)
    code = program(s_mov(2, DATA_VA), s_mov(3, 0), sop2("s_lshl_b32", 6, 0, const(3)),      # s0: wave
                   sop2("s_add_u32", 2, 2, 6), smem("s_load_b64", 4, 2), sopp("s_waitcnt", 0xFC07),
                   sopc("s_cmp_eq_u32", 4, 4), sop2(m, 6, 4, 5), endpgm())
    _, st, _ = run_code(code, waves=len(pairs), data=data)
    for w, (a, b) in enumerate(pairs):
        want, want_scc = MODELS32[m](a, b)
        assert (int(st.sgpr[w, 6]), a, b) == (want, a, b)
        assert int(st.scc[w]) == (1 if want_scc is None else want_scc), (a, b)


MODELS64 = {
    "s_lshl_b64": lambda a, b: ((a << (b & 63)) & M64, int((a << (b & 63)) & M64 != 0)),
    "s_lshr_b64": lambda a, b: (a >> (b & 63), int(a >> (b & 63) != 0)),
    "s_ashr_i64": lambda a, b: ((_sext(a, 64) >> (b & 63)) & M64, int(_sext(a, 64) >> (b & 63) != 0)),
    "s_bfe_u64": lambda a, b: (_bfe_model(a, b, 64, False), int(_bfe_model(a, b, 64, False) != 0)),
    "s_bfe_i64": lambda a, b: (_bfe_model(a, b, 64, True), int(_bfe_model(a, b, 64, True) != 0)),
}


@pytest.mark.parametrize("m", sorted(MODELS64))
def test_sop2_64_against_integer_models(m):
    import random
    rng = random.Random(7)
    pairs = [(rng.getrandbits(64) >> rng.randrange(64), rng.randrange(128) | rng.randrange(72) << 16)
             for _ in range(96)] + [(M64, 63), (1 << 63, 63 | 1 << 16), (1, 64 << 16)]
    data = b"".join(struct.pack("<QI4x", a, b) for a, b in pairs)
    code = program(s_mov(2, DATA_VA), s_mov(3, 0), sop2("s_lshl_b32", 6, 0, const(4)),
                   sop2("s_add_u32", 2, 2, 6), smem("s_load_b128", 8, 2), sopp("s_waitcnt", 0xFC07),
                   sop2(m, 12, 8, 10), endpgm())
    _, st, _ = run_code(code, waves=len(pairs), data=data)
    for w, (a, b) in enumerate(pairs):
        want, want_scc = MODELS64[m](a, b)
        got = int(st.sgpr[w, 12]) | int(st.sgpr[w, 13]) << 32
        assert (got, int(st.scc[w])) == (want, want_scc), (hex(a), hex(b))


def _clz32(a):
    return 32 - a.bit_length() if a else M32


MODELS_SOP1 = {
    "s_brev_b32": lambda a: (int(f"{a:032b}"[::-1], 2), None),
    "s_ctz_i32_b32": lambda a: ((a & -a).bit_length() - 1 if a else M32, None),
    "s_clz_i32_u32": lambda a: (_clz32(a), None),
    "s_cls_i32": lambda a: (_clz32(a ^ M32 if a >> 31 else a), None),
    "s_sext_i32_i8": lambda a: (_sext(a, 8) & M32, None),
    "s_sext_i32_i16": lambda a: (_sext(a, 16) & M32, None),
    "s_bcnt1_i32_b32": lambda a: (bin(a).count("1"), int(a != 0)),
    "s_bcnt0_i32_b32": lambda a: (32 - bin(a).count("1"), int(a != M32)),
    "s_quadmask_b32": lambda a: (sum(1 << i for i in range(8) if (a >> 4 * i) & 15), int(a != 0)),
    "s_wqm_b32": lambda a: (sum(15 << 4 * i for i in range(8) if (a >> 4 * i) & 15), int(a != 0)),
    "s_not_b32": lambda a: (~a & M32, int(a != M32)),
    "s_abs_i32": lambda a: (abs(s32(a)) & M32, int(a != 0)),
}


@pytest.mark.parametrize("m", sorted(MODELS_SOP1))
def test_sop1_against_integer_models(m):
    values = sorted({a for a, _ in _pairs(sum(m.encode()))} | {0x0000FFFF, 0xFFFF0000, 0x00010000})
    data = b"".join(struct.pack("<I", a) for a in values)
    code = program(s_mov(2, DATA_VA), s_mov(3, 0), sop2("s_lshl_b32", 6, 0, const(2)),
                   sop2("s_add_u32", 2, 2, 6), smem("s_load_b32", 4, 2), sopp("s_waitcnt", 0xFC07),
                   sopc("s_cmp_eq_u32", 4, 4), sop1(m, 6, 4), endpgm())
    _, st, _ = run_code(code, waves=len(values), data=data)
    for w, a in enumerate(values):
        want, want_scc = MODELS_SOP1[m](a)
        assert (int(st.sgpr[w, 6]), int(st.scc[w])) == (want, 1 if want_scc is None else want_scc), hex(a)


def test_realtime_message_reads_the_gpu_clock():
    code = program(sop1("s_sendmsg_rtn_b64", 4, 131), sop1("s_sendmsg_rtn_b32", 6, 128), endpgm())
    vm = GpuVM()
    mem = np.zeros(4096, np.uint8)
    mem[:len(code)] = np.frombuffer(code, np.uint8)
    vm.map(CODE_VA, mem, writable=False, executable=True)
    d = Dispatch(source="test", code_va=CODE_VA, rsrc1=0, rsrc2=0, rsrc3=0, user_sgprs=(),
                 grid_workgroups=(1, 1, 1), workgroup_size=(32, 1, 1), grid_size=(32, 1, 1), lds_bytes=0,
                 wave32=True, vm=vm, clock=lambda: 0x1_2345_6789)
    ex = WaveExecutor(keep_state=True)
    ex(d)
    sg = ex.states[0].sgpr[0]
    assert int(sg[4]) | int(sg[5]) << 32 == 0x1_2345_6789 and int(sg[6]) == 0


def test_64_bit_bit_counts_and_scans_against_integer_models():
    """s_ctz / s_clz / s_cls / s_bcnt on 64-bit sources (the highest set bit of either dword,
    values float64 cannot hold exactly) and their 32-bit forms, against Python integers."""
    from drivers.emu.amd.shader.scalar import SOP1
    rng = np.random.default_rng(5)
    values = [0, 1, 2, 1 << 31, 1 << 32, (1 << 32) - 1, (1 << 53) + 1, (1 << 54) - 1, 1 << 63, M64,
              0x8000_0001_0000_0000, 0x0000_0001_FFFF_FFFF]
    values += [int(v) >> int(s) for v, s in zip(rng.integers(0, 2**63, 40, dtype=np.uint64) * 2 + 1,
                                                 rng.integers(0, 64, 40))]
    values += [v << s & M64 for v, s in zip(values[-20:], range(20))]
    x = np.array(values, np.uint64)

    def cls64(a):
        f = a ^ M64 if a >> 63 else a
        return 64 - f.bit_length() if f else M32
    models = {"s_ctz_i32_b64": lambda a: (a & -a).bit_length() - 1 if a else M32,
              "s_clz_i32_u64": lambda a: 64 - a.bit_length() if a else M32,
              "s_cls_i32_i64": cls64,
              "s_bcnt1_i32_b64": lambda a: bin(a).count("1"),
              "s_bcnt0_i32_b64": lambda a: 64 - bin(a).count("1"),
              "s_ctz_i32_b32": lambda a: ((a & M32) & -(a & M32)).bit_length() - 1 if a & M32 else M32,
              "s_clz_i32_u32": lambda a: 32 - (a & M32).bit_length() if a & M32 else M32}
    for m, model in models.items():
        src = x if m.endswith("64") else (x & np.uint64(M32)).astype(np.uint32)
        got, _ = SOP1[m][2](src)
        assert [int(g) for g in got] == [model(v) for v in values], m
