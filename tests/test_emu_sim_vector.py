"""VALU dispatch of the wave simulator: operands, lane masks, EXEC, DPP, VOPD and the cross-lane
operations the core implements.  Expected lane values are computed here with numpy/Python."""
import struct

import numpy as np
import pytest

from drivers.emu.amd.shader.valu import ValuOp
from tests.test_emu_sim_helpers import (EXEC, LIT, VCC, const, dpp8, dpp16, endpgm, program, run_code,
                                        s_mov, sop2, sopk, vop1, vop2, vop3, vopc, vopd, v)

LANES = np.arange(32, dtype=np.uint32)
M32 = 0xFFFFFFFF


def f32(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def lanes_of(st, reg, wave=0):
    return st.vgpr[wave, reg].copy()


def test_vopc_writes_vcc_with_inactive_lanes_zero_and_cmpx_writes_exec():
    code = program(s_mov(EXEC, 0x0000FFFF),
                   vopc("v_cmp_gt_u32_e32", const(20), v(0)),        # lanes 0..19 true, 16..31 inactive
                   s_mov(EXEC, M32),
                   vop1("v_mov_b32_e32", 2, const(5)),
                   vopc("v_cmpx_lt_u32_e32", const(7), v(0)),        # EXEC = lanes 8..31
                   vop1("v_mov_b32_e32", 2, const(9)),
                   endpgm())
    _, st, _ = run_code(code)
    assert int(st.sgpr[0, VCC]) == 0x0000FFFF
    assert int(st.sgpr[0, EXEC]) == M32 & ~0xFF
    assert lanes_of(st, 2).tolist() == [5] * 8 + [9] * 24


def test_vop3_compare_to_sgpr_and_cndmask_and_carries():
    code = program(vop3("v_cmp_lt_u32_e64", 10, v(0), const(3)),      # s10 = lanes 0..2
                   vop3("v_cndmask_b32_e64", 3, const(1), const(2), 10),
                   s_mov(11, 0xFFFFFFF0),
                   vop1("v_mov_b32_e32", 5, 11),                      # v5 = 0xfffffff0
                   vop3("v_add_co_u32", 6, v(5), v(0), fam="VOP3SD", sdst=12),   # carry out when lane >= 16
                   vop3("v_add_co_ci_u32_e64", 7, const(0), const(0), 12, fam="VOP3SD", sdst=13),
                   endpgm())
    _, st, _ = run_code(code)
    assert int(st.sgpr[0, 10]) == 0b111
    assert lanes_of(st, 3).tolist() == [2] * 3 + [1] * 29
    assert lanes_of(st, 6).tolist() == ((0xFFFFFFF0 + LANES.astype(np.int64)) & M32).tolist()
    assert int(st.sgpr[0, 12]) == 0xFFFF0000
    assert lanes_of(st, 7).tolist() == [0] * 16 + [1] * 16      # carry-in from s12
    assert int(st.sgpr[0, 13]) == 0


def test_inactive_lanes_keep_their_values():
    code = program(vop1("v_mov_b32_e32", 2, const(3)), s_mov(EXEC, 0x0F0F0F0F),
                   vop2("v_add_nc_u32_e32", 2, v(0), 2), endpgm())
    _, st, _ = run_code(code)
    want = np.where((0x0F0F0F0F >> LANES) & 1, LANES + 3, 3)
    assert lanes_of(st, 2).tolist() == want.tolist()


def test_constants_expand_per_operand_type():
    code = program(vop1("v_mov_b32_e32", 2, 240),                    # 0.5 as f32 bits
                   vop3("v_add_f64", 4, 242, 242, fam="VOP3"),         # 1.0 + 1.0 in f64
                   vop3("v_add_f64", 6, LIT, 128, literal=0x40080000),  # literal is the high dword: 3.0
                   vop1("v_cvt_f32_f16_e32", 8, 242),                  # 1.0 as f16 bits
                   vop1("v_mov_b32_e32", 9, const(-16)),
                   endpgm())
    _, st, _ = run_code(code)
    assert int(st.vgpr[0, 2, 5]) == f32(0.5)
    pair = lambda r: int(st.vgpr[0, r, 0]) | int(st.vgpr[0, r + 1, 0]) << 32     # noqa: E731
    assert pair(4) == struct.unpack("<Q", struct.pack("<d", 2.0))[0]
    assert pair(6) == struct.unpack("<Q", struct.pack("<d", 3.0))[0]
    assert int(st.vgpr[0, 8, 0]) == f32(1.0)
    assert int(st.vgpr[0, 9, 0]) == 0xFFFFFFF0


# -- DPP ----------------------------------------------------------------------------------------
def _dpp_run(instr, exec_mask=M32):
    code = program(vop2("v_add_nc_u32_e32", 1, LIT, v(0), 100),       # v1 = lane + 100
                   vop1("v_mov_b32_e32", 2, const(7)),                 # v2 = 7 (the old value)
                   s_mov(EXEC, exec_mask), instr, s_mov(EXEC, M32), endpgm())
    _, st, _ = run_code(code)
    return lanes_of(st, 2)


def _expect(sources, written, exec_mask=M32, invalid_value=None):
    out = []
    for lane in range(32):
        src = sources[lane]
        if not (exec_mask >> lane) & 1 or not written[lane]:
            out.append(7)
        elif src is None:
            out.append(invalid_value if invalid_value is not None else 7)
        else:
            out.append(src + 100)
    return out


def test_dpp_quad_perm():
    got = _dpp_run(dpp16("v_mov_b32_e32", 2, 1, 0b00011011))         # [3,2,1,0]
    assert got.tolist() == [(l & ~3) + 3 - (l & 3) + 100 for l in range(32)]


@pytest.mark.parametrize("bound_ctrl", [0, 1])
def test_dpp_row_shl_out_of_row(bound_ctrl):
    got = _dpp_run(dpp16("v_mov_b32_e32", 2, 1, 0x101, bound_ctrl=bound_ctrl))
    sources = [l + 1 if (l & 15) < 15 else None for l in range(32)]
    assert got.tolist() == _expect(sources, [True] * 32, invalid_value=0 if bound_ctrl else None)


def test_dpp_row_shr_ror_mirror_share_xmask():
    assert _dpp_run(dpp16("v_mov_b32_e32", 2, 1, 0x112, bound_ctrl=1)).tolist() == \
        [l - 2 + 100 if (l & 15) >= 2 else 0 for l in range(32)]
    assert _dpp_run(dpp16("v_mov_b32_e32", 2, 1, 0x121)).tolist() == \
        [(l & ~15) + ((l - 1) & 15) + 100 for l in range(32)]
    assert _dpp_run(dpp16("v_mov_b32_e32", 2, 1, 0x140)).tolist() == \
        [(l & ~15) + 15 - (l & 15) + 100 for l in range(32)]
    assert _dpp_run(dpp16("v_mov_b32_e32", 2, 1, 0x141)).tolist() == \
        [(l & ~7) + 7 - (l & 7) + 100 for l in range(32)]
    assert _dpp_run(dpp16("v_mov_b32_e32", 2, 1, 0x153)).tolist() == [(l & ~15) + 3 + 100 for l in range(32)]
    assert _dpp_run(dpp16("v_mov_b32_e32", 2, 1, 0x165)).tolist() == [(l & ~15) + ((l & 15) ^ 5) + 100 for l in range(32)]


def test_dpp_row_and_bank_masks_disable_writes():
    got = _dpp_run(dpp16("v_mov_b32_e32", 2, 1, 0b11100100, row_mask=0b10, bank_mask=0b0101))
    written = [bool((0b10 >> (l >> 4)) & 1 and (0b0101 >> ((l >> 2) & 3)) & 1) for l in range(32)]
    assert got.tolist() == _expect(list(range(32)), written)


def test_dpp_inactive_source_lanes():
    ex = 0xFFFF_FFFE                                   # lane 0 inactive: lane 1 reads it via row_shr:1
    got = _dpp_run(dpp16("v_mov_b32_e32", 2, 1, 0x111), exec_mask=ex)
    sources = [l - 1 if (l & 15) >= 1 and l != 1 else None for l in range(32)]
    assert got.tolist() == _expect(sources, [True] * 32, ex)
    got = _dpp_run(dpp16("v_mov_b32_e32", 2, 1, 0x111, fi=1), exec_mask=ex)
    sources = [l - 1 if (l & 15) >= 1 else None for l in range(32)]
    assert got.tolist() == _expect(sources, [True] * 32, ex)


def test_dpp_on_a_two_source_op_and_dpp8():
    got = _dpp_run(dpp16("v_add_nc_u32_e32", 2, 1, 0x140, vsrc1=1))   # mirror(v1) + v1
    assert got.tolist() == [((l & ~15) + 15 - (l & 15) + 100) + l + 100 for l in range(32)]
    sel = [7, 6, 5, 4, 3, 2, 1, 0]
    got = _dpp_run(dpp8("v_mov_b32_e32", 2, 1, sel))
    assert got.tolist() == [(l & ~7) + sel[l & 7] + 100 for l in range(32)]


# -- VOPD -------------------------------------------------------------------------------------
def test_vopd_halves_read_before_either_writes():
    code = program(vop1("v_mov_b32_e32", 0, const(11)), vop1("v_mov_b32_e32", 1, const(22)),
                   vopd("v_dual_mov_b32", "v_dual_mov_b32", 0, v(1), 0, 1, v(0)),      # swap v0, v1
                   vopd("v_dual_mov_b32", "v_dual_add_nc_u32", 2, v(1), 0, 3, v(0), 1),
                   endpgm())
    _, st, _ = run_code(code)
    assert lanes_of(st, 0).tolist() == [22] * 32 and lanes_of(st, 1).tolist() == [11] * 32
    assert lanes_of(st, 2).tolist() == [11] * 32 and lanes_of(st, 3).tolist() == [33] * 32


# -- cross-lane operations --------------------------------------------------------------------
def test_readlane_readfirstlane_writelane():
    code = program(vop2("v_add_nc_u32_e32", 1, LIT, v(0), 1000),
                   s_mov(4, 37),                                          # lane select uses bits [4:0]
                   vop3("v_readlane_b32", 5, v(1), 4),
                   s_mov(EXEC, 0xFF00),
                   vop1("v_readfirstlane_b32", 6, v(1)),
                   s_mov(EXEC, 0x1),
                   vop3("v_writelane_b32", 1, const(9), const(20)),        # ignores EXEC
                   s_mov(EXEC, 0),
                   vop1("v_readfirstlane_b32", 7, v(1)),                   # EXEC empty: lane 0
                   s_mov(EXEC, M32), endpgm())
    _, st, _ = run_code(code)
    assert int(st.sgpr[0, 5]) == 1005 and int(st.sgpr[0, 6]) == 1008 and int(st.sgpr[0, 7]) == 1000
    want = (LANES + 1000).tolist()
    want[20] = 9
    assert lanes_of(st, 1).tolist() == want


@pytest.mark.parametrize("m", ["v_permlane16_b32", "v_permlanex16_b32"])
def test_permlane(m):
    sel = [(5 * i + 3) & 15 for i in range(16)]
    lo = sum(s << (4 * i) for i, s in enumerate(sel[:8]))
    hi = sum(s << (4 * i) for i, s in enumerate(sel[8:]))
    code = program(vop2("v_add_nc_u32_e32", 1, LIT, v(0), 500), s_mov(4, lo), s_mov(5, hi),
                   vop3(m, 2, v(1), 4, 5), endpgm())
    _, st, _ = run_code(code)
    other = 16 if m == "v_permlanex16_b32" else 0
    assert lanes_of(st, 2).tolist() == [500 + (((l & 16) ^ other) + sel[l & 15]) for l in range(32)]


def test_groups_of_waves_with_different_exec():
    # wave w keeps lanes < 8 * (w + 1) active: one closure call must respect each wave's EXEC
    code = program(vop1("v_mov_b32_e32", 2, const(1)),
                   vop3("v_lshlrev_b32_e64", 3, const(3), 0),             # v3 = wg * 8 (wg id in s0)
                   vop2("v_add_nc_u32_e32", 3, const(8), 3),              # v3 = 8 * (wg + 1)
                   vop3("v_cmpx_lt_u32_e64", 0, v(0), v(3)),
                   vop1("v_mov_b32_e32", 2, const(2)),
                   endpgm())
    _, st, _ = run_code(code, waves=4)
    for w in range(4):
        assert lanes_of(st, 2, w).tolist() == [2] * (8 * (w + 1)) + [1] * (32 - 8 * (w + 1))


def test_a_test_only_registry_replaces_the_valu_library():
    calls = []

    def fake_add(ctx, srcs, old):
        calls.append((srcs[0].shape, ctx.neg))
        return srcs[0] * 2 + srcs[1]

    registry = {"v_add_nc_u32": ValuOp("v_add_nc_u32", fake_add, (32, 32), 32)}
    _, st, _ = run_code(program(vop2("v_add_nc_u32_e32", 1, v(0), 0), endpgm()), waves=3, valu=registry)
    assert lanes_of(st, 1, 2).tolist() == (3 * LANES).tolist()
    assert calls == [((3, 32), 0)]                   # one call for all three waves
    with pytest.raises(Exception, match="has no v_mov_b32"):
        run_code(program(vop1("v_mov_b32_e32", 1, v(0)), endpgm()), valu=registry)


def test_float_mode_reaches_the_valu_per_wave():
    denormal = 0x00000010
    hw_mode_denorm = 1 | 4 << 6 | 3 << 11               # hwreg(HW_REG_MODE, 4, 4): FP_DENORM
    code = program(s_mov(4, denormal), sopk("s_cmpk_eq_u32", 0, 1),               # SCC = (wg == 1)
                   sop2("s_cselect_b32", 7, const(0), const(15)),                # wave 1: flush
                   sopk("s_setreg_b32", 7, hw_mode_denorm),
                   vop3("v_add_f32_e64", 2, 4, const(0)),
                   endpgm())
    _, st, _ = run_code(code, waves=2)
    assert not st.mode_uniform
    assert int(st.vgpr[0, 2, 0]) == denormal                 # kept
    assert int(st.vgpr[1, 2, 0]) == 0                        # flushed


def test_m0_relative_vgpr_moves_per_wave():
    from tests.test_emu_sim_helpers import M0
    code = program(vop2("v_add_nc_u32_e32", 5, LIT, v(0), 50), vop2("v_add_nc_u32_e32", 6, LIT, v(0), 60),
                   sop2("s_add_u32", M0, 0, const(0)),                   # M0 = workgroup id (0 or 1)
                   vop1("v_movrels_b32_e32", 1, v(5)),                   # v1 = v[5 + M0]
                   vop1("v_movreld_b32_e32", 8, v(5)),                   # v[8 + M0] = v5
                   endpgm())
    _, st, _ = run_code(code, waves=2)
    assert lanes_of(st, 1, 0).tolist() == (LANES + 50).tolist()
    assert lanes_of(st, 1, 1).tolist() == (LANES + 60).tolist()
    assert lanes_of(st, 8, 0).tolist() == (LANES + 50).tolist() and not lanes_of(st, 9, 0).any()
    assert lanes_of(st, 9, 1).tolist() == (LANES + 50).tolist() and not lanes_of(st, 8, 1).any()


def test_every_vector_alu_opcode_the_decoder_knows_has_an_implementation():
    from assembler.rdna3.tables import ALU, VOPD
    from drivers.emu.amd.shader.valu import VALU
    from drivers.emu.amd.shader.vector import CORE_OPS, base_mnemonic
    names = {m for fam in ("VOP1", "VOP2", "VOP3", "VOP3SD", "VOP3P", "VOPC")
             for e in ALU[fam].values() for m in (e[0], e[5], e[6]) if m}
    names |= {e[0] for side in VOPD.values() for e in side.values()}
    missing = sorted({base_mnemonic(m) for m in names} - set(VALU) - set(CORE_OPS))
    assert missing == []
    contract_core = {"v_readlane_b32", "v_readfirstlane_b32", "v_writelane_b32", "v_permlane16_b32",
                     "v_permlanex16_b32", "v_nop", "v_pipeflush"}
    assert contract_core <= set(CORE_OPS) and not contract_core & set(VALU)


def test_wmma_register_tuples_reach_the_valu_library_intact():
    """v_wmma_f32_16x16x16_f16 v[0:7], v[8:15], v[16:23], v[0:7]: the core hands the library the
    three 8-dword tuples as (W, 8, 32) and writes back all eight result registers."""
    from assembler.rdna3.formats import put
    from drivers.emu.amd.shader.executor import ValuEnv
    from drivers.emu.amd.shader.valu import VALU
    from tests.test_emu_sim_helpers import opcode
    wmma = put("VOP3P", op=opcode("VOP3P", "v_wmma_f32_16x16x16_f16"), vdst=0, src0=v(8), src1=v(16),
               src2=v(0), opsel_hi=3, opsel_hi2=1).to_bytes(8, "little")
    rng = np.random.default_rng(5)
    halves = rng.uniform(-2, 2, (16, 32, 2)).astype(np.float16).view(np.uint32)[..., 0]   # v8..v23
    accum = rng.uniform(-2, 2, (8, 32)).astype(np.float32).view(np.uint32)                # v0..v7
    init = []
    for r, rows in ((0, accum), (8, halves)):
        for j, row in enumerate(rows):
            for lane in range(32):
                init.append(vop3("v_writelane_b32", r + j, LIT, const(lane), literal=int(row[lane])))
    _, st, _ = run_code(program(*init, wmma, endpgm()))
    env = ValuEnv()
    op = VALU["v_wmma_f32_16x16x16_f16"]
    ctx = env.Ctx(mode=env.float_mode(0x3F0), lane=np.broadcast_to(LANES, (1, 32)), opsel_hi=0b111)
    want = op.fn(ctx, [halves[None, :8], halves[None, 8:], accum[None]], accum[None])
    assert np.array_equal(st.vgpr[0, 0:8], np.asarray(want)[0])
    assert not np.array_equal(st.vgpr[0, 0:8], accum)
