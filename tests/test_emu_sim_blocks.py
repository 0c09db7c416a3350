"""Compiled blocks (drivers/emu/amd/shader/block.py) against the per-instruction path: the same
results and the same counts on every clang kernel, and, inside a block, a fault, an exhausted
budget, a read of the instruction counter and a MODE change behave exactly as one instruction
at a time."""
import copy

import numpy as np
import pytest

from assembler.rdna3 import assemble
from drivers.emu import simulate
from drivers.emu.faults import MemoryFault, ShaderHang
from drivers.emu.amd.shader import WaveExecutor
from tests.clang_kernels.cases import CASES, check_outputs
from tests.test_emu_sim_helpers import code_object

PTR = [(8, "global_buffer", "uint*")]
BAD = 0xDEAD_0000_0000


def both_paths(co, grid, block, make_args, **kw):
    """[(executor, args after the run, exception or None)] for blocks on and off."""
    out = []
    for blocks in (True, False):
        ex = WaveExecutor(blocks=blocks, keep_state=True, **kw)
        args = make_args()
        try:
            simulate(co, "k", grid, block, args, executor=ex)
            err = None
        except (MemoryFault, ShaderHang) as e:
            err = e
        out.append((ex, args, err))
    return out


def same_inputs(rng, make_args):
    """make_args for both_paths drawing the same random inputs on every call."""
    state = rng.bit_generator.state

    def again():
        rng.bit_generator.state = state
        return make_args()
    return again


def block_source(ex):
    """The generated source of every block ``ex`` compiled."""
    return "".join(blk.source for p in ex.programs.values() for blk in p.blocks.values())


def lane_ops_kernel(body, vgprs=40):
    """Code object of kernel ``k(out, in)`` for testing ops one lane at a time: each lane
    loads 16 bytes of ``in`` into v[2:5] and workgroup W's s6 is dword 8 W of ``in``; ``body``
    works on them and stores up to 128 bytes at ``out`` + v1 (lane L: 128 L + 4 KiB W).  Odd
    workgroups run ``body`` with lanes 27-31 off (v_cmpx), even ones with every lane on."""
    return code_object(assemble(f"""
  s_load_b128 s[4:7], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_lshlrev_b32_e32 v1, 4, v0
  s_lshl_b32 s8, s2, 9
  v_add_nc_u32_e32 v1, s8, v1
  global_load_b128 v[2:5], v1, s[6:7]
  v_lshlrev_b32_e32 v1, 7, v0
  s_lshl_b32 s9, s2, 12
  v_add_nc_u32_e32 v1, s9, v1
  s_lshl_b32 s8, s2, 5
  s_waitcnt vmcnt(0)
  s_load_b32 s6, s[6:7], s8
  s_waitcnt lgkmcnt(0)
  s_bitcmp1_b32 s2, 0
  s_cbranch_scc1 odd
{body}
  s_endpgm
odd:
  v_cmpx_gt_u32_e32 27, v0
{body}
  s_endpgm
"""), args=PTR + PTR, vgprs=vgprs)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_clang_kernel_results_and_counts_match_the_per_instruction_path(case):
    runs = []
    for blocks in (True, False):
        ex = WaveExecutor(blocks=blocks)
        args = case.make_args()
        pristine = copy.deepcopy(args)
        simulate(case.code_object_bytes(), case.kernel, case.grid, case.block, args, executor=ex)
        check_outputs(case, pristine, args)
        runs.append((ex.last, args))
    (a, args_a), (b, args_b) = runs
    assert (a.waves, a.wave_instructions, a.lane_ops) == (b.waves, b.wave_instructions, b.lane_ops)
    for x, y in zip(args_a, args_b):
        assert np.asarray(x).tobytes() == np.asarray(y).tobytes()


STRAIGHT = """
  s_load_b64 s[2:3], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_lshlrev_b32_e32 v1, 2, v0
  v_add_nc_u32_e32 v3, 7, v0
  s_delay_alu instid0(VALU_DEP_1)
  v_mul_lo_u32 v3, v3, v3
  global_load_b32 v2, v1, s[2:3] offset:16
  s_waitcnt vmcnt(0)
  v_add_nc_u32_e32 v2, v2, v3
  global_store_b32 v1, v2, s[2:3]
  s_endpgm
"""


def test_a_fault_inside_a_block_names_its_pc_and_counts_what_ran():
    co = code_object(assemble(STRAIGHT), args=PTR)
    (on, _, e1), (off, _, e2) = both_paths(co, (2, 1, 1), (64, 1, 1), lambda: [BAD])
    assert isinstance(e1, MemoryFault) and (e1.va, e1.write) == (e2.va, e2.write) == (BAD + 16, False)
    s1, s2 = on.states[-1], off.states[-1]
    assert s1.pc.tolist() == s2.pc.tolist()
    assert (s1.wave_instructions, s1.lane_ops) == (s2.wave_instructions, s2.lane_ops) == (4 * 7, 4 * 4 * 32)


def test_the_budget_runs_out_inside_a_block_where_it_would_one_step_at_a_time():
    co = code_object(assemble(STRAIGHT), args=PTR)
    for budget in (9, 13, 22, 27):
        (on, _, e1), (off, _, e2) = both_paths(co, (2, 1, 1), (64, 1, 1),
                                                lambda: [np.zeros(128, np.uint32)], budget=budget)
        assert isinstance(e1, ShaderHang) and (e1.pc, e1.executed) == (e2.pc, e2.executed)
        assert on.states[-1].wave_instructions == off.states[-1].wave_instructions


def test_the_instruction_counter_read_inside_a_block_is_exact():
    """Without a GPU clock the shader-cycles register counts executed wave-instructions: the
    read sees every instruction before it, although blocks count once per block."""
    co = code_object(assemble("""
  s_load_b64 s[2:3], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_mov_b32_e32 v1, 0
  s_nop 0
  s_getreg_b32 s4, hwreg(HW_REG_SHADER_CYCLES, 0, 20)
  v_mov_b32_e32 v2, s4
  global_store_b32 v1, v2, s[2:3]
  s_endpgm
"""), args=PTR)
    (on, a, _), (off, b, _) = both_paths(co, (1, 1, 1), (64, 1, 1), lambda: [np.zeros(4, np.uint32)])
    assert a[0][0] == b[0][0] == 2 * 5
    assert on.last.wave_instructions == off.last.wave_instructions == 2 * 8


def test_exec_and_mode_changes_inside_a_block():
    """v_cmpx narrows EXEC and s_round_mode switches f32 to round toward +inf in the middle of
    the code: writes after each follow the new state on both paths."""
    co = code_object(assemble("""
  s_load_b64 s[2:3], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_lshlrev_b32_e32 v1, 2, v0
  v_mov_b32_e32 v2, 1.0
  v_mov_b32_e32 v3, 0x33800000
  v_add_f32_e32 v4, v2, v3
  v_cmpx_gt_u32_e32 5, v0
  v_mov_b32_e32 v4, 0x40e00000
  s_mov_b32 exec_lo, -1
  s_round_mode 0x1
  v_add_f32_e32 v5, v2, v3
  v_sub_f32_e32 v4, v4, v5
  global_store_b32 v1, v4, s[2:3]
  s_endpgm
"""), args=PTR)
    (on, a, _), (off, b, _) = both_paths(co, (1, 1, 1), (32, 1, 1), lambda: [np.zeros(32, np.uint32)])
    assert a[0].tobytes() == b[0].tobytes()
    assert on.last.wave_instructions == off.last.wave_instructions
    got = a[0].view(np.float32)
    # 1 + 2**-24 is 1.0 to nearest even, 1 + 2**-23 toward +inf; 7 - (1 + 2**-23) rounds up to 6
    assert got[0] == np.float32(6) and got[31] == np.float32(-2.0 ** -23)


def test_carry_chains_inside_a_block_leave_every_mask_where_the_per_instruction_path_does():
    """Carry chains: a carry overwritten by the next op of the chain is forwarded as lanes and
    never packed; carries that SALU reads, that a VALU op reads as data, that go to other SGPRs
    and that survive to the end of the block must all be there, under a partial EXEC."""
    co = code_object(assemble("""
  s_load_b64 s[2:3], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_lshlrev_b32_e32 v1, 6, v0
  v_mul_lo_u32 v2, v0, 0x9e3779b9
  v_mul_lo_u32 v3, v0, 0x85ebca6b
  v_cmpx_gt_u32_e32 27, v0
  v_add_co_u32 v4, vcc_lo, v2, v3
  v_add_co_ci_u32_e32 v5, vcc_lo, v3, v2, vcc_lo
  s_mov_b32 s6, vcc_lo
  v_add_co_u32 v6, vcc_lo, v4, v5
  v_cndmask_b32_e64 v7, 0, 1, vcc_lo
  v_add_nc_u32_e64 v15, vcc_lo, v0
  v_add_co_u32 v8, s7, v6, v2
  v_add_co_ci_u32_e64 v9, s8, v7, v3, s7
  v_add_co_u32 v10, vcc_lo, v8, v9
  v_add_co_ci_u32_e32 v11, vcc_lo, 0, v10, vcc_lo
  v_sub_co_u32 v12, vcc_lo, v3, v2
  s_mov_b32 exec_lo, -1
  v_mov_b32_e32 v12, s6
  v_mov_b32_e32 v13, s8
  v_mov_b32_e32 v14, vcc_lo
  global_store_b128 v1, v[4:7], s[2:3]
  global_store_b128 v1, v[8:11], s[2:3] offset:16
  global_store_b128 v1, v[12:15], s[2:3] offset:32
  s_endpgm
"""), args=PTR)
    (on, a, _), (off, b, _) = both_paths(co, (1, 1, 1), (64, 1, 1), lambda: [np.zeros(64 * 16, np.uint32)])
    assert a[0].tobytes() == b[0].tobytes()
    assert on.last.wave_instructions == off.last.wave_instructions
    got = a[0].reshape(64, 16)
    lanes = np.arange(64, dtype=np.uint64)
    x, y = lanes * 0x9e3779b9 % 2**32, lanes * 0x85ebca6b % 2**32
    carry = (x + y) >> np.uint64(32)
    assert (got[:27, 0] == (x + y)[:27] % 2**32).all()
    assert (got[:27, 1] == (y + x + carry)[:27] % 2**32).all()
    carry2 = (((y + x + carry) >> np.uint64(32)) != 0) & (lanes < 27)
    s6 = int(sum(1 << i for i in range(32) if carry2[i]))
    assert (got[:32, 8] == s6).all() and (got[32:, 8] == 0).all()
    assert (got[27:, :8] == 0).all() and (got[27:, 11] == 0).all()


INLINE_BODY = """
  v_add_nc_u32_e32 v5, v2, v3
  v_add_nc_u32_e32 v5, v5, v4
  v_add_nc_u32_e32 v5, v3, v5
  v_sub_nc_u32_e32 v6, v2, v3
  v_sub_nc_u32_e32 v6, v6, v4
  v_sub_nc_u32_e32 v7, v4, v7
  v_subrev_nc_u32_e32 v8, v2, v3
  v_subrev_nc_u32_e32 v8, v4, v8
  v_and_b32_e32 v9, 0xff00ff, v2
  v_or_b32_e32 v9, s6, v9
  v_xor_b32_e32 v9, v9, v3
  v_mul_lo_u32 v10, v9, v9
  v_mul_lo_u32 v10, v10, v3
  v_min_u32_e32 v11, v2, v3
  v_max_u32_e32 v11, v11, v4
  v_lshlrev_b32_e32 v12, v4, v2
  v_lshlrev_b32_e32 v12, 3, v12
  v_lshrrev_b32_e32 v13, v0, v3
  v_lshrrev_b32_e32 v13, 37, v13
  v_mov_b32_e32 v14, v4
  v_lshlrev_b32_e32 v14, v14, v2
  v_mov_b32_e32 v15, s6
  v_or_b32_e64 v16, v5, -1
  v_dual_mov_b32 v17, v2 :: v_dual_add_nc_u32 v18, v17, v3
  v_dual_mov_b32 v19, v16 :: v_dual_lshlrev_b32 v20, v2, v3
  v_dual_mov_b32 v21, s6 :: v_dual_and_b32 v22, v2, v3
  v_add_nc_u32_e32 v16, v16, v16
  v_cmp_lt_u32_e32 vcc_lo, v2, v3
  v_cndmask_b32_e64 v23, 0, 1, vcc_lo
  v_cmp_gt_i32_e64 s7, v2, v3
  v_cmp_eq_u32_e64 s8, s6, s2
  v_cmp_le_i32_e32 vcc_lo, -5, v12
  v_cndmask_b32_e64 v24, 0, 1, s7
  v_cndmask_b32_e64 v25, v2, v3, s8
  v_mov_b32_e32 v26, s7
  v_mov_b32_e32 v27, s8
  v_mov_b32_e32 v28, vcc_lo
  v_add_co_u32 v29, s9, s6, v2
  v_add_co_ci_u32_e64 v29, s9, v29, s2, s9
  v_cndmask_b32_e64 v28, v28, v3, s9
  v_sub_co_u32 v30, vcc_lo, v2, v3
  v_sub_co_ci_u32_e32 v30, vcc_lo, v2, v2, vcc_lo
  v_subrev_co_ci_u32_e32 v30, vcc_lo, v30, v30, vcc_lo
  v_not_b32_e32 v31, v2
  v_add_co_ci_u32_e32 v31, vcc_lo, v2, v31, vcc_lo
  v_add_co_ci_u32_e32 v27, vcc_lo, v27, v27, vcc_lo
  v_subrev_co_u32 v27, vcc_lo, v27, v3
  v_cmpx_lt_u32_e32 3, v0
  global_store_b128 v1, v[5:8], s[4:5] offset:{0}
  global_store_b128 v1, v[9:12], s[4:5] offset:{1}
  global_store_b128 v1, v[13:16], s[4:5] offset:{2}
  global_store_b128 v1, v[17:20], s[4:5] offset:{3}
  global_store_b128 v1, v[21:24], s[4:5] offset:{4}
  global_store_b128 v1, v[25:28], s[4:5] offset:{5}
  global_store_b96 v1, v[29:31], s[4:5] offset:{6}
"""


def test_inlined_integer_ops_match_the_library_under_every_exec_and_grouping():
    """The integer ops the compiler inlines (destination equal to either source or neither,
    VGPR/SGPR/constant/literal sources, shift counts past 31, VOPD halves, a half reading the
    other's destination; 32-bit integer compares into VCC, an SGPR and EXEC, signed and
    unsigned; selects and carry chains) give the per-instruction path's registers and memory:
    in a scattered
    group of waves (index arrays), under a partial EXEC and with every lane on."""
    body = [INLINE_BODY.format(*(112 * k + 16 * j for j in range(7))) for k in range(3)]
    co = code_object(assemble(f"""
  s_load_b64 s[4:5], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_lshlrev_b32_e32 v1, 9, v0
  s_lshl_b32 s6, s2, 14
  v_add_nc_u32_e32 v1, s6, v1
  v_mul_lo_u32 v2, v0, 0x9e3779b9
  v_mul_lo_u32 v3, v0, 0x85ebca6b
  v_add_nc_u32_e32 v4, s2, v0
  s_bitcmp1_b32 s2, 0
  s_cbranch_scc1 odd
{body[0]}
odd:
  v_cmpx_gt_u32_e32 23, v0
{body[1]}
  s_mov_b32 exec_lo, -1
{body[2]}
  s_endpgm
"""), args=PTR)
    (on, a, _), (off, b, _) = both_paths(co, (4, 1, 1), (32, 1, 1), lambda: [np.zeros(4 * 32 * 128, np.uint32)])
    assert a[0].tobytes() == b[0].tobytes() and a[0].any()
    assert on.last.wave_instructions == off.last.wave_instructions
    assert np.array_equal(on.states[-1].vregs, off.states[-1].vregs)
    source = block_source(on)
    for form in ("x += ", "x -= ", "x <<= ", "out=V[", "where=em", "if IX: da = np.add(", "np.greater(",
                 ".view(I32)", "ta = np.subtract(", "np.where(ca, "):
        assert form in source
    got = a[0].reshape(4, 32, 128)
    lanes = np.arange(32, dtype=np.uint64)
    x, y = lanes * 0x9e3779b9 % 2**32, lanes * 0x85ebca6b % 2**32
    assert (got[0, 4:, 0] == ((x + y + lanes + y) % 2**32)[4:]).all()   # wave 0, first body: v5
    assert (got[0, :4] == 0).all() and (got[0, 4:, 18] == (x < y)[4:]).all()    # v_cmpx; v23
    assert (got[1, :, 0] == 0).all() and (got[1, 23:, 28] == 0).all()  # wave 1 skipped it; EXEC


F32_BODY = """
  v_add_f32_e32 v10, v2, v3
  v_sub_f32_e32 v11, v2, v3
  v_subrev_f32_e32 v12, v2, v3
  v_mul_f32_e32 v13, s6, v2
  v_fma_f32 v14, v2, v3, v4
  v_mov_b32_e32 v15, v4
  v_fmac_f32_e32 v15, v2, v3
  v_fmamk_f32 v16, v2, 0x3f100000, v3
  v_fmaak_f32 v17, v2, v3, 0x3f100000
  v_max_f32_e32 v18, v2, v3
  v_min_f32_e32 v19, v3, v2
  v_dual_mul_f32 v20, v2, v4 :: v_dual_add_f32 v21, v4, v3
  v_lshlrev_b64 v[22:23], 3, v[2:3]
  v_lshrrev_b64 v[24:25], v4, v[2:3]
  v_mad_u64_u32 v[26:27], null, v2, s6, v[3:4]
  v_mad_u64_u32 v[28:29], s7, v3, v4, v[2:3]
  v_cndmask_b32_e64 v30, 0, 1, s7
  v_med3_f32 v31, v2, s6, 0x41000000
  v_med3_f32 v32, v2, v3, v4
  v_min3_f32 v33, v2, v3, s6
  v_max3_f32 v34, -v2, |v3|, v4
  v_minmax_f32 v35, v2, v3, v4
  v_maxmin_f32 v36, v3, v2, 0x41000000
  v_med3_f32 v37, s6, 1.0, -v4
  global_store_b128 v1, v[31:34], s[4:5] offset:96
  global_store_b96 v1, v[35:37], s[4:5] offset:112
  global_store_b128 v1, v[10:13], s[4:5]
  global_store_b128 v1, v[14:17], s[4:5] offset:16
  global_store_b128 v1, v[18:21], s[4:5] offset:32
  global_store_b128 v1, v[22:25], s[4:5] offset:48
  global_store_b128 v1, v[26:29], s[4:5] offset:64
  global_store_b32 v1, v30, s[4:5] offset:80
"""


def test_f32_and_64_bit_ops_written_out_match_the_library_in_every_mode():
    """The f32 ops a block writes out as numpy expressions (add, sub, mul, fma, fmac, fmamk,
    fmaak, min, max, med3, min3, max3, minmax, maxmin, VOPD halves) and the 64-bit shifts and v_mad_u64_u32 give the library's
    bits on edge values (NaNs with payloads, signalling NaNs, infinities, zeros of both signs,
    denormals, ties of fma): under the kernel's MODE, where the written-out forms run, and
    under MODEs that flush denormals or round toward zero, where the block calls the library;
    in a scattered group of waves and under a partial EXEC."""
    edges = np.array([0x7FC00001, 0x7F800001, 0xFF800000, 0x7F800000, 0x80000000, 0, 0x00000001,
                      0x807FFFFF, 0x3F800000, 0xBF800000, 0x33800000, 0x4B800001, 0x7F7FFFFF,
                      0x00800000, 0x40900000, 0xC0900000], np.uint32)
    co = code_object(assemble(f"""
  s_load_b128 s[4:7], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_lshlrev_b32_e32 v1, 4, v0
  s_lshl_b32 s8, s2, 9
  v_add_nc_u32_e32 v1, s8, v1
  global_load_b128 v[2:5], v1, s[6:7]
  v_lshlrev_b32_e32 v1, 7, v0
  s_mul_i32 s8, s2, 0x2000
  v_add_nc_u32_e32 v1, s8, v1
  s_waitcnt vmcnt(0)
  s_load_b32 s6, s[6:7], 0x8
  s_waitcnt lgkmcnt(0)
  s_bitcmp1_b32 s2, 0
  s_cbranch_scc1 odd
{F32_BODY}
  s_branch join
odd:
  v_cmpx_gt_u32_e32 27, v0
{F32_BODY}
  s_mov_b32 exec_lo, -1
join:
  s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 8), 0x0f
  v_add_nc_u32_e32 v1, 0x1000, v1
{F32_BODY}
  s_endpgm
"""), args=PTR + PTR, vgprs=40)
    rng = np.random.default_rng(11)

    def make_args():
        inputs = rng.choice(edges, 4 * 32 * 4)
        inputs[::3] = rng.integers(0, 2**32, inputs[::3].shape, dtype=np.uint64).astype(np.uint32)
        return [np.zeros(4 * 0x2000 // 4, np.uint32), inputs]
    (on, a, err_on), (off, b, err_off) = both_paths(co, (4, 1, 1), (32, 1, 1), same_inputs(rng, make_args))
    assert err_on is None and err_off is None
    assert a[0].any() and a[0].tobytes() == b[0].tobytes()
    assert on.last.wave_instructions == off.last.wave_instructions
    assert np.array_equal(on.states[-1].vregs, off.states[-1].vregs)
    source = block_source(on)
    for form in ("FMA(F32F, ", "FMAX(", "FMIN(", "FMED3(", "np.add(V[2, sel].view(F32), np.negative(",
                 "np.left_shift(V[3, sel], U32(3)); xa |= np.right_shift(V[2, sel], U32(29))", "np.multiply(V[2, sel], S[6, sel][:, None], dtype=U64)",
                 "np.multiply(S[6, sel][:, None].view(F32), V[2, sel].view(F32))",
                 "np.less(d", "else:\n        ra = op"):
        assert form in source
    got = a[0].view(np.float32).reshape(4, 2, 32, 32)            # workgroup, body, lane, dword
    x, y = (b[1].view(np.float32).reshape(4, 32, 4)[0, :, k] for k in (0, 1))
    with np.errstate(all="ignore"):
        assert got[0, 0, :, 0].view(np.uint32).tolist() == (x + y).view(np.uint32).tolist()


def test_64_bit_constants_of_written_out_shifts_and_mads():
    """A 64-bit inline constant or literal as the shifted value of v_lshlrev_b64 or the addend
    of v_mad_u64_u32 is read as 64 bits (0.5 is 0x3fe0000000000000), as the library reads it."""
    co = code_object(assemble("""
  s_load_b64 s[2:3], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_lshlrev_b32_e32 v1, 5, v0
  v_lshlrev_b64 v[2:3], v0, 0.5
  v_lshrrev_b64 v[4:5], v0, -4.0
  v_mad_u64_u32 v[6:7], null, v0, 3, 0.5
  v_mad_u64_u32 v[8:9], s4, v0, -1, -1
  v_cndmask_b32_e64 v10, 0, 1, s4
  global_store_b128 v1, v[2:5], s[2:3]
  global_store_b128 v1, v[6:9], s[2:3] offset:16
  s_endpgm
"""), args=PTR)
    (on, a, _), (off, b, _) = both_paths(co, (1, 1, 1), (32, 1, 1), lambda: [np.zeros(32 * 8, np.uint32)])
    assert a[0].tobytes() == b[0].tobytes()
    assert np.array_equal(on.states[-1].vregs, off.states[-1].vregs)
    got = a[0].view(np.uint64).reshape(32, 4)
    lanes = np.arange(32, dtype=np.uint64)
    assert got[:, 0].tolist() == [(0x3FE0000000000000 << int(n)) % 2**64 for n in lanes]
    assert got[:, 2].tolist() == (lanes * np.uint64(3) + np.uint64(0x3FE0000000000000)).tolist()


F64_BODY = """
  v_add_f64 v[10:11], v[2:3], v[4:5]
  v_add_f64 v[12:13], -v[2:3], |v[4:5]|
  v_mul_f64 v[14:15], v[2:3], s[6:7]
  v_fma_f64 v[16:17], v[2:3], v[4:5], v[6:7]
  v_fma_f64 v[18:19], -v[2:3], v[4:5], 1.0
  v_max_f64 v[20:21], v[2:3], v[4:5]
  v_min_f64 v[22:23], v[4:5], -|v[2:3]|
  v_max_f64 v[24:25], v[2:3], v[2:3]
  v_max_f32_e32 v26, v2, v2
  v_min_f32_e32 v27, v3, v3
  v_sub_f32_e64 v28, -v2, |v3|
  v_fma_f32 v29, -v2, v3, -|v4|
  global_store_b128 v1, v[10:13], s[4:5]
  global_store_b128 v1, v[14:17], s[4:5] offset:16
  global_store_b128 v1, v[18:21], s[4:5] offset:32
  global_store_b128 v1, v[22:25], s[4:5] offset:48
  global_store_b128 v1, v[26:29], s[4:5] offset:64
"""


def test_f64_ops_canonicalize_and_sign_modifiers_written_out_match_the_library_in_every_mode():
    """The f64 add, mul, fma, min and max, the f32 max/min of a register with itself (clang's
    canonicalize: a signalling NaN is quieted in IEEE mode) and the abs / neg source modifiers
    of the written-out float ops give the library's bits on edge values (NaN payloads,
    signalling NaNs, infinities, signed zeros, denormals, the ends of the f64 range, where fma
    leaves its error-free path): under the kernel's MODE, where the written-out forms run,
    and under a MODE that flushes denormals and rounds toward zero, where the block calls the
    library; under a partial EXEC too."""
    edges64 = np.array([0x7FF8000000000001, 0x7FF0000000000001, 0xFFF0000000000000, 0x7FF0000000000000,
                        1 << 63, 0, 1, 0x800FFFFFFFFFFFFF, 0x3FF0000000000000, 0xBFF0000000000000,
                        0x7FEFFFFFFFFFFFFF, 0x0010000000000000, 0x3CA0000000000000, 0x3FF0000000000001,
                        0x7E00000000000000, 0x0200000000000000], np.uint64)
    co = code_object(assemble(f"""
  s_load_b128 s[4:7], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_lshlrev_b32_e32 v1, 5, v0
  s_lshl_b32 s8, s2, 10
  v_add_nc_u32_e32 v1, s8, v1
  global_load_b128 v[2:5], v1, s[6:7]
  global_load_b64 v[6:7], v1, s[6:7] offset:16
  v_lshlrev_b32_e32 v1, 7, v0
  s_mul_i32 s8, s2, 0x2000
  v_add_nc_u32_e32 v1, s8, v1
  s_waitcnt vmcnt(0)
  s_load_b64 s[6:7], s[6:7], 0x8
  s_waitcnt lgkmcnt(0)
  s_bitcmp1_b32 s2, 0
  s_cbranch_scc1 odd
{F64_BODY}
  s_branch join
odd:
  v_cmpx_gt_u32_e32 27, v0
{F64_BODY}
  s_mov_b32 exec_lo, -1
join:
  s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 8), 0x0f
  v_add_nc_u32_e32 v1, 0x1000, v1
{F64_BODY}
  s_endpgm
"""), args=PTR + PTR)
    rng = np.random.default_rng(12)

    def make_args():
        # workgroups 0 and 1: ordinary doubles with a few edge lanes; 2 and 3: mostly edges
        ordinary = rng.standard_normal(4 * 32 * 4).view(np.uint64)
        edges = rng.choice(edges64, ordinary.shape)
        pick = rng.random(ordinary.shape) < np.repeat([0.02, 0.05, 0.6, 0.9], 32 * 4)
        inputs = np.where(pick, edges, ordinary)
        inputs[::7] = rng.integers(0, 2**64, inputs[::7].shape, dtype=np.uint64)
        inputs.view(np.uint32)[:32 * 8:8 * 3] = [0x7FA00001, 0xFF800002, 0x7FC00003, 0x00000005] * 2 \
            + [0x80000000, 0x7F800000, 0xFFA00000]           # v2 of some lanes of workgroup 0: f32 NaNs, a denormal, -0
        return [np.zeros(4 * 0x2000 // 4, np.uint32), inputs]
    (on, a, err_on), (off, b, err_off) = both_paths(co, (4, 1, 1), (32, 1, 1), same_inputs(rng, make_args))
    assert err_on is None and err_off is None
    assert a[0].any() and a[0].tobytes() == b[0].tobytes()
    assert on.last.wave_instructions == off.last.wave_instructions
    assert np.array_equal(on.states[-1].vregs, off.states[-1].vregs)
    source = block_source(on)
    for form in ("FMA64N(q2.view(F64)", "np.bitwise_xor(q2, U64(9223372036854775808)).view(F64), q4.view(F64), C[",
                 "np.bitwise_and(q4, U64(9223372036854775807))", "FMAX(C[", "FMIN(C[",
                 "CANON(C[", "np.bitwise_xor(V[2, sel], U32(2147483648))", "else:\n        ra = op"):
        assert form in source, form
    # the IEEE-mode canonicalize quiets a signalling NaN and keeps everything else
    x = b[1].view(np.uint32).reshape(4, 32, 8)[0, :, 0]
    got = a[0].reshape(4, 2, 32, 32)[0, 0, :, 16]
    nan = (x & 0x7FFFFFFF) > 0x7F800000
    assert nan.sum() >= 6 and got.tolist() == np.where(nan, x | 0x400000, x).tolist()


def test_64_bit_shifts_by_constants_on_the_two_dwords():
    """v_lshlrev_b64 / v_lshrrev_b64 of a VGPR pair by a constant, written out on the two
    dwords: counts 0, 1, 31, 32, 33 and 63 (and 64 + 5, which is 5), a destination overlapping
    the source either way, under a partial EXEC; the uint64 shift's bits on both paths."""
    counts = (0, 1, 31, 32, 33, 63, 69)
    lines = []
    for i, c in enumerate(counts):
        lines.append(f"v_lshlrev_b64 v[{10 + 4 * i}:{11 + 4 * i}], {c}, v[2:3]")
        lines.append(f"v_lshrrev_b64 v[{12 + 4 * i}:{13 + 4 * i}], {c}, v[2:3]")
    stores = "\n".join(f"  global_store_b128 v1, v[{10 + 4 * i}:{13 + 4 * i}], s[4:5] offset:{16 * i}"
                       for i in range(len(counts)))
    co = code_object(assemble(f"""
  s_load_b128 s[4:7], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_lshlrev_b32_e32 v1, 3, v0
  global_load_b64 v[2:3], v1, s[6:7]
  v_lshlrev_b32_e32 v1, 7, v0
  s_waitcnt vmcnt(0)
  v_mov_b32_e32 v4, v2
  v_mov_b32_e32 v5, v3
  v_cmpx_gt_u32_e32 29, v0
  {chr(10).join("  " + x for x in lines)}
  v_lshlrev_b64 v[4:5], 7, v[4:5]
  v_lshrrev_b64 v[5:6], 35, v[4:5]
{stores}
  global_store_b96 v1, v[4:6], s[4:5] offset:{16 * len(counts)}
  s_endpgm
"""), args=PTR + PTR, vgprs=48)
    rng = np.random.default_rng(3)
    values = rng.integers(0, 2**64, 32, dtype=np.uint64)
    values[:4] = [0, 2**64 - 1, 1 << 63, 0x80000000]
    (on, a, _), (off, b, _) = both_paths(co, (1, 1, 1), (32, 1, 1),
                                         lambda: [np.zeros(32 * 32, np.uint32), values.copy()])
    assert a[0].tobytes() == b[0].tobytes()
    assert np.array_equal(on.states[-1].vregs, off.states[-1].vregs)
    source = block_source(on)
    assert "J(V, 2, sel)" not in source and "xa |= np.left_shift(V[3, sel], U32(31))" in source
    got = a[0].view(np.uint64).reshape(32, 16)
    for i, c in enumerate(counts):
        assert got[:29, 2 * i].tolist() == (values[:29] << np.uint64(c & 63)).tolist()
        assert got[:29, 2 * i + 1].tolist() == (values[:29] >> np.uint64(c & 63)).tolist()
    assert not got[29:, :14].any()
    shifted = values << np.uint64(7)
    words = a[0].reshape(32, 32)[:, 28:31]
    assert words[:29, 0].tolist() == (shifted & np.uint64(0xFFFFFFFF))[:29].tolist()
    assert words[:29, 1:].view(np.uint64)[:, 0].tolist() == (shifted >> np.uint64(35))[:29].tolist()


def test_readfirstlane_and_lane_ids_written_out():
    """v_readfirstlane_b32 (lane 0 of each wave with every lane on, the first EXEC lane under a
    partial EXEC) and v_mbcnt_lo_u32_b32 of an all-ones mask (the lane number plus S1,
    wrapping) give what one instruction at a time gives, in a group of waves."""
    co = code_object(assemble("""
  s_load_b64 s[4:5], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_mbcnt_lo_u32_b32 v1, -1, 0
  v_mbcnt_lo_u32_b32 v2, -1, 0xfffffff0
  v_mbcnt_lo_u32_b32 v3, -1, s2
  v_mbcnt_lo_u32_b32 v4, 0x0f0f0f0f, 3
  v_mul_lo_u32 v5, v1, 0x9e3779b9
  v_add_nc_u32_e32 v5, s2, v5
  v_readfirstlane_b32 s6, v5
  v_cmpx_lt_u32_e32 6, v1
  v_readfirstlane_b32 s7, v5
  v_mov_b32_e32 v6, s6
  v_mov_b32_e32 v7, s7
  s_mov_b32 exec_lo, -1
  v_lshlrev_b32_e32 v0, 5, v1
  s_lshl_b32 s8, s2, 10
  v_add_nc_u32_e32 v0, s8, v0
  global_store_b128 v0, v[1:4], s[4:5]
  global_store_b96 v0, v[5:7], s[4:5] offset:16
  s_endpgm
"""), args=PTR)
    (on, a, _), (off, b, _) = both_paths(co, (3, 1, 1), (32, 1, 1), lambda: [np.zeros(3 * 32 * 8, np.uint32)])
    assert a[0].tobytes() == b[0].tobytes()
    assert np.array_equal(on.states[-1].sregs, off.states[-1].sregs)
    source = block_source(on)
    assert "S[6, sel] = V[5, sel][:, 0]" in source and "da = np.add(C[" in source
    got = a[0].reshape(3, 32, 8).astype(np.int64)
    lanes = np.arange(32)
    for g in range(3):
        key = (lanes * 0x9E3779B9 + g) % 2**32
        assert got[g, :, 0].tolist() == lanes.tolist()
        assert got[g, :, 1].tolist() == ((lanes + 0xFFFFFFF0) % 2**32).tolist()
        assert got[g, :, 2].tolist() == (lanes + g).tolist()
        assert got[g, :, 3].tolist() == [bin(0x0F0F0F0F & ((1 << i) - 1)).count("1") + 3 for i in lanes]
        assert got[g, :, 4].tolist() == key.tolist() and not got[g, :7, 5:7].any()
        assert (got[g, 7:, 5] == key[0]).all() and (got[g, 7:, 6] == key[7]).all()


def test_a_group_runs_on_only_while_its_branch_lands_below_every_other_wave():
    """Waves loop wave-id + 1 times, then add to one counter with a returning atomic.  A wave
    leaving the loop lands where the waves that left before wait: the scheduler must merge them
    there, so the atomic runs once for all of them, wave after wave (a group running on past a
    wave waiting at its branch target would take its values first).  While the others wait
    at the exit, the last wave's iterations run without the scheduler: same results and counts
    on both paths, and the same as the scheduler taking every group itself."""
    co = code_object(assemble("""
  s_load_b64 s[4:5], s[0:1], 0x0
  s_add_u32 s6, s2, 1
  v_mov_b32_e32 v1, 0
  v_mov_b32_e32 v2, 1
loop:
  v_add_nc_u32_e32 v1, 3, v1
  s_sub_u32 s6, s6, 1
  s_cmp_lg_u32 s6, 0
  s_cbranch_scc1 loop
  v_mov_b32_e32 v3, 0
  s_waitcnt lgkmcnt(0)
  global_atomic_add_u32 v4, v3, v2, s[4:5] glc
  v_lshlrev_b32_e32 v5, 2, v0
  s_lshl_b32 s7, s2, 7
  v_add_nc_u32_e32 v5, s7, v5
  s_waitcnt vmcnt(0)
  global_store_b32 v5, v4, s[4:5] offset:4
  global_store_b32 v5, v1, s[4:5] offset:1028
  s_endpgm
"""), args=PTR)
    make = lambda: [np.zeros(1 + 2 * 256, np.uint32)]               # noqa: E731
    runs = both_paths(co, (8, 1, 1), (32, 1, 1), make)
    from drivers.emu.amd.shader import executor

    def never_on(st, _next=executor._next_group):
        g = _next(st)
        return None if g is None else g[:4] + (-1,)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(executor, "_next_group", never_on)
        runs += both_paths(co, (8, 1, 1), (32, 1, 1), make)
    for ex, (out,), err in runs:
        assert err is None and out[0] == 256
        assert out[1:257].tolist() == list(range(256))                # merged at the atomic, wave order
        assert out[257:].reshape(8, 32).tolist() == [[3 * (w + 1)] * 32 for w in range(8)]
        assert ex.last.wave_instructions == runs[0][0].last.wave_instructions


EXPRESSION_BODY = """
  v_mul_hi_u32 v10, v2, v3
  v_lshl_add_u32 v11, v2, v4, v3
  v_add_lshl_u32 v12, v2, v3, v4
  v_lshl_or_b32 v13, v3, 5, s6
  v_add3_u32 v14, v2, s6, v3
  v_xad_u32 v15, v2, v3, 0x1234
  v_and_or_b32 v16, v2, 0xff00ff, v3
  v_or3_b32 v17, v2, v3, v4
  v_xor3_b32 v18, v2, s6, v4
  v_bfi_b32 v19, v4, v2, v3
  v_not_b32_e32 v20, v2
  v_bfe_u32 v21, v2, v4, v3
  v_ashrrev_i32_e32 v22, v4, v2
  v_max_i32_e32 v23, v2, v3
  v_min_i32_e64 v24, s6, v3
  v_med3_i32 v25, v2, -5, 0x7fff
  v_mul_u32_u24_e32 v26, v2, v3
  v_mul_i32_i24_e32 v27, v3, v2
  v_ashrrev_i32_e64 v28, 31, s6
  v_mul_hi_u32 v29, 0x9e3779b9, s6
  global_store_b128 v1, v[10:13], s[4:5]
  global_store_b128 v1, v[14:17], s[4:5] offset:16
  global_store_b128 v1, v[18:21], s[4:5] offset:32
  global_store_b128 v1, v[22:25], s[4:5] offset:48
  global_store_b128 v1, v[26:29], s[4:5] offset:64
"""


def test_integer_expressions_written_out_match_the_library():
    """The 32-bit integer ops a block writes out as numpy expressions (multiply-high, the
    three-operand adds, shifts and logic, bit-field extract and insert, signed min / max / med3,
    24-bit multiplies) give the per-instruction path's registers and memory on random and edge
    bits (sign bits, shift counts past 31, field widths of 0), with VGPR, SGPR and constant
    sources, under a partial EXEC and with every lane on."""
    co = code_object(assemble(f"""
  s_load_b128 s[4:7], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_lshlrev_b32_e32 v1, 4, v0
  s_lshl_b32 s8, s2, 9
  v_add_nc_u32_e32 v1, s8, v1
  global_load_b128 v[2:5], v1, s[6:7]
  v_lshlrev_b32_e32 v1, 7, v0
  s_lshl_b32 s8, s2, 12
  v_add_nc_u32_e32 v1, s8, v1
  s_waitcnt vmcnt(0)
  s_load_b32 s6, s[6:7], 0x4
  s_waitcnt lgkmcnt(0)
  s_bitcmp1_b32 s2, 0
  s_cbranch_scc1 odd
{EXPRESSION_BODY}
  s_endpgm
odd:
  v_cmpx_gt_u32_e32 27, v0
{EXPRESSION_BODY}
  s_endpgm
"""), args=PTR + PTR)
    rng = np.random.default_rng(13)
    edges = np.array([0, 1, 31, 32, 33, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0x00800000, 0xFF7FFFFF,
                      0x9E3779B9, 24], np.uint32)

    def make_args():
        inputs = rng.integers(0, 2**32, 4 * 32 * 4, dtype=np.uint64).astype(np.uint32)
        inputs[::2] = rng.choice(edges, inputs[::2].shape)
        return [np.zeros(4 * 0x1000 // 4, np.uint32), inputs]
    (on, a, err_on), (off, b, err_off) = both_paths(co, (4, 1, 1), (32, 1, 1), same_inputs(rng, make_args))
    assert err_on is None and err_off is None
    assert a[0].any() and a[0].tobytes() == b[0].tobytes()
    assert np.array_equal(on.states[-1].vregs, off.states[-1].vregs)
    source = block_source(on)
    for form in ("np.multiply(V[2, sel], V[3, sel], dtype=U64)", "np.bitwise_and(V[4, sel], U32(31))",
                 "np.maximum(V[2, sel].view(I32)", "np.invert(V[2, sel])"):
        assert form in source
    assert " = op" not in source                      # no library call left


def test_a_wave_ending_while_another_waits_at_a_barrier_releases_it():
    """Wave 1 of a workgroup ends at once while wave 0 parks at s_barrier: when nothing else can
    run, the barrier is released and wave 0 goes on to its store (the scheduler must not take
    the last runnable wave's end for the end of the batch)."""
    co = code_object(assemble("""
  s_load_b64 s[4:5], s[0:1], 0x0
  v_cmp_gt_u32_e32 vcc_lo, 32, v0
  s_cbranch_vccz end
  s_barrier
  v_lshlrev_b32_e32 v1, 2, v0
  v_mov_b32_e32 v2, 7
  s_waitcnt lgkmcnt(0)
  global_store_b32 v1, v2, s[4:5]
end:
  s_endpgm
"""), args=PTR)
    for ex, (out,), err in both_paths(co, (2, 1, 1), (64, 1, 1), lambda: [np.zeros(32, np.uint32)]):
        assert err is None and out.tolist() == [7] * 32


@pytest.mark.parametrize("name", ["lds_reduce", "lds_scan"])
@pytest.mark.parametrize("blocks", [True, False])
def test_every_wave_leaving_one_barrier_goes_on_as_one_group(name, blocks, monkeypatch):
    """When every wave of the batch parks at one s_barrier (one group, or the two halves of a
    divergent branch), the scheduler knows the next group (all of them, at the barrier's next
    PC) without scanning the waves: the tree reduction and the scan never ask for a group
    after their first, and their results stay the reference's."""
    from tests.clang_kernels.cases import CASES_BY_NAME
    from drivers.emu.amd.shader import executor
    case = CASES_BY_NAME[name]
    asked = []

    def counted(st, _next=executor._next_group):
        asked.append(st.W)
        return _next(st)
    monkeypatch.setattr(executor, "_next_group", counted)
    args = case.make_args()
    pristine = copy.deepcopy(args)
    ex = WaveExecutor(blocks=blocks)
    simulate(case.code_object_bytes(), case.kernel, case.grid, case.block, args, executor=ex)
    check_outputs(case, pristine, args)
    assert asked == []


def test_halves_of_a_branch_parked_at_two_barriers_go_on_from_their_own():
    """The two halves of a divergent branch park at different s_barrier instructions: released
    together, each goes on from its own barrier (wave 0 stores 1, wave 1 stores 2)."""
    co = code_object(assemble("""
  s_load_b64 s[4:5], s[0:1], 0x0
  v_cmp_gt_u32_e32 vcc_lo, 32, v0
  s_cbranch_vccz other
  s_barrier
  v_mov_b32_e32 v2, 1
  s_branch store
other:
  s_barrier
  v_mov_b32_e32 v2, 2
store:
  v_lshlrev_b32_e32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  global_store_b32 v1, v2, s[4:5]
  s_endpgm
"""), args=PTR)
    for ex, (out,), err in both_paths(co, (1, 1, 1), (64, 1, 1), lambda: [np.zeros(64, np.uint32)]):
        assert err is None and out.tolist() == [1] * 32 + [2] * 32


def test_a_wave_that_ended_stays_ended_when_the_others_leave_a_barrier():
    """Wave 2 ends first; waves 0 and 1 then branch apart and park at one s_barrier: released,
    they go on from it, and wave 2 does not (it would store 9 to its lanes; no load is in
    flight, so every wave's memory counters are alike and would not keep it apart)."""
    co = code_object(assemble("""
  s_branch start
end:
  s_endpgm
start:
  s_load_b64 s[4:5], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_mov_b32_e32 v2, 9
  v_cmp_le_u32_e32 vcc_lo, 64, v0
  s_cbranch_vccnz end
  v_mov_b32_e32 v2, 7
  v_cmp_gt_u32_e32 vcc_lo, 32, v0
  s_cbranch_vccz skip
  v_mov_b32_e32 v2, 5
skip:
  s_barrier
  v_lshlrev_b32_e32 v1, 2, v0
  global_store_b32 v1, v2, s[4:5]
  s_endpgm
"""), args=PTR)
    for ex, (out,), err in both_paths(co, (1, 1, 1), (96, 1, 1), lambda: [np.zeros(96, np.uint32)]):
        assert err is None and out.tolist() == [5] * 32 + [7] * 32 + [0] * 32
