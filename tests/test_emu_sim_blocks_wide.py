"""64-bit VGPR pairs forwarded inside a compiled block (block_wide.py): a pair joined once, or a
64-bit result kept, is reused only while it is what the registers hold.  Each block runs against
the per-instruction path on a group of waves, with every lane on and under a partial EXEC."""
import numpy as np

from assembler.rdna3 import assemble
from tests.test_emu_sim_blocks import PTR, block_source, both_paths, same_inputs
from tests.test_emu_sim_helpers import code_object

# each line after a forwarded write or join reads a pair that something in between changed:
# a 32-bit write of either half (VALU, a carry chain, a VOPD half), an unaligned pair, the
# halves of a written-out 64-bit shift, a load into the pair
BODY = """
  v_mul_f64 v[10:11], v[2:3], v[4:5]
  v_mov_b32_e32 v11, v6
  v_add_f64 v[12:13], v[10:11], v[4:5]
  v_fma_f64 v[14:15], v[2:3], v[4:5], v[6:7]
  v_add_co_u32 v14, vcc_lo, v14, 1
  v_add_co_ci_u32_e32 v15, vcc_lo, 0, v15, vcc_lo
  v_add_f64 v[16:17], v[14:15], 1.0
  v_mad_u64_u32 v[18:19], null, v2, v3, v[4:5]
  v_mad_u64_u32 v[42:43], s9, v2, v3, 0
  v_cndmask_b32_e64 v44, 0, 1, s9
  v_add_f64 v[20:21], v[18:19], v[2:3]
  v_dual_mov_b32 v19, v4 :: v_dual_mov_b32 v40, v5
  v_add_f64 v[22:23], v[18:19], v[2:3]
  v_mul_f64 v[24:25], v[3:4], v[2:3]
  v_mov_b32_e32 v4, v7
  v_mul_f64 v[26:27], v[3:4], v[4:5]
  v_lshlrev_b64 v[28:29], 3, v[26:27]
  v_lshrrev_b64 v[26:27], 1, v[26:27]
  v_add_f64 v[30:31], v[28:29], v[26:27]
  v_div_scale_f64 v[32:33], vcc_lo, v[30:31], v[2:3], v[30:31]
  v_fma_f64 v[2:3], v[32:33], v[30:31], v[2:3]
  global_load_b64 v[2:3], v1, s[6:7] offset:8
  s_waitcnt vmcnt(0)
  v_add_f64 v[34:35], v[2:3], v[32:33]
  v_max_f64 v[36:37], v[34:35], v[34:35]
  v_mov_b32_e32 v34, v0
  v_add_f64 v[38:39], v[34:35], v[36:37]
"""


def test_forwarded_pairs_are_what_the_registers_hold():
    co = code_object(assemble(f"""
  s_load_b128 s[4:7], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_lshlrev_b32_e32 v1, 5, v0
  s_lshl_b32 s8, s2, 10
  v_add_nc_u32_e32 v1, s8, v1
  global_load_b128 v[2:5], v1, s[6:7]
  global_load_b64 v[6:7], v1, s[6:7] offset:16
  v_lshlrev_b32_e32 v41, 8, v0
  s_lshl_b32 s8, s2, 13
  v_add_nc_u32_e32 v41, s8, v41
  s_waitcnt vmcnt(0)
{BODY}
  global_store_b128 v41, v[10:13], s[4:5]
  global_store_b128 v41, v[14:17], s[4:5] offset:16
  global_store_b128 v41, v[18:21], s[4:5] offset:32
  global_store_b128 v41, v[22:25], s[4:5] offset:48
  global_store_b128 v41, v[26:29], s[4:5] offset:64
  global_store_b128 v41, v[30:33], s[4:5] offset:80
  global_store_b128 v41, v[34:37], s[4:5] offset:96
  global_store_b128 v41, v[38:41], s[4:5] offset:112
  global_load_b128 v[2:5], v1, s[6:7]
  global_load_b64 v[6:7], v1, s[6:7] offset:16
  s_waitcnt vmcnt(0)
  v_cmpx_gt_u32_e32 27, v0
{BODY}
  v_mul_f64 v[10:11], v[2:3], v[4:5]
  s_mov_b32 exec_lo, -1
  v_add_f64 v[12:13], v[10:11], v[4:5]
  s_endpgm
"""), args=PTR + PTR, vgprs=48)
    rng = np.random.default_rng(5)

    def make_args():
        values = rng.standard_normal(4 * 32 * 4) * 2.0 ** rng.integers(-8, 8, 4 * 32 * 4)
        return [np.zeros(4 * 32 * 64, np.uint32), values]
    (on, a, err_on), (off, b, err_off) = both_paths(co, (4, 1, 1), (32, 1, 1), same_inputs(rng, make_args))
    assert err_on is None and err_off is None
    assert a[0].any() and a[0].tobytes() == b[0].tobytes()
    assert np.array_equal(on.states[-1].vregs, off.states[-1].vregs)
    source = block_source(on)
    # the forwarding is there to be tested: kept results, reused joins, joins after a partial EXEC
    # and v_mad_u64_u32 of a zero addend is the product itself
    for line in ("q14 = PUT64F(V, 14, sel", "if q32 is None: q32 = J(V, 32, sel)", "q30.view(F64)", "da = pa\n"):
        assert line in source, line


def test_64_bit_integer_compares_and_arithmetic_shift_written_out():
    """v_cmp / v_cmpx of u64 and i64 (every predicate, VGPR pairs, an SGPR pair, a constant)
    and v_ashrrev_i64 (counts from a VGPR, a constant past 63 and an SGPR) written out on the
    uint64 lanes give what one instruction at a time gives, under a partial EXEC too."""
    preds = ("lt", "eq", "le", "gt", "ne", "ge")
    lines = []
    for i, p in enumerate(preds):
        for j, t in enumerate(("u64", "i64")):
            k = 8 + 2 * (2 * i + j)
            lines.append(f"v_cmp_{p}_{t}_e64 s{k}, v[2:3], v[4:5]")
            lines.append(f"v_cndmask_b32_e64 v{10 + 2 * i + j}, 0, 1, s{k}")
    lines += ["v_cmp_lt_i64_e64 s40, v[2:3], s[6:7]", "v_cndmask_b32_e64 v22, 0, 1, s40",
              "v_cmp_gt_u64_e64 s41, -5, v[4:5]", "v_cndmask_b32_e64 v23, 0, 1, s41",
              "v_ashrrev_i64 v[24:25], v6, v[2:3]", "v_ashrrev_i64 v[26:27], 67, v[4:5]",
              "v_ashrrev_i64 v[28:29], s6, v[2:3]", "v_cmpx_ne_u64_e32 v[2:3], v[4:5]",
              "v_ashrrev_i64 v[30:31], 1, v[2:3]"]
    body = "\n".join("  " + x for x in lines)
    co = code_object(assemble(f"""
  s_load_b128 s[4:7], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_lshlrev_b32_e32 v1, 4, v0
  s_lshl_b32 s8, s2, 9
  v_add_nc_u32_e32 v1, s8, v1
  global_load_b128 v[2:5], v1, s[6:7]
  s_load_b64 s[6:7], s[6:7], 0x0
  v_lshlrev_b32_e32 v41, 7, v0
  s_lshl_b32 s8, s2, 12
  v_add_nc_u32_e32 v41, s8, v41
  s_waitcnt vmcnt(0) lgkmcnt(0)
  v_mov_b32_e32 v6, v2
  v_cmpx_gt_u32_e32 30, v0
{body}
  s_mov_b32 exec_lo, -1
  global_store_b128 v41, v[10:13], s[4:5]
  global_store_b128 v41, v[14:17], s[4:5] offset:16
  global_store_b128 v41, v[18:21], s[4:5] offset:32
  global_store_b128 v41, v[22:25], s[4:5] offset:48
  global_store_b128 v41, v[26:29], s[4:5] offset:64
  global_store_b64 v41, v[30:31], s[4:5] offset:80
  s_endpgm
"""), args=PTR + PTR, vgprs=48)
    rng = np.random.default_rng(9)

    def make_args():
        values = rng.integers(0, 2**64, 4 * 32 * 2, dtype=np.uint64)
        values[1::2][rng.random(4 * 32) < 0.3] = values[0::2][rng.random(4 * 32) < 0.3][:1]
        values[:8] = [0, 2**63, 2**64 - 1, 5, 2**63 - 1, 2**63 - 1, 2**64 - 5, 0]
        return [np.zeros(4 * 32 * 32, np.uint32), values]
    (on, a, err_on), (off, b, err_off) = both_paths(co, (4, 1, 1), (32, 1, 1), same_inputs(rng, make_args))
    assert err_on is None and err_off is None
    assert a[0].any() and a[0].tobytes() == b[0].tobytes()
    assert np.array_equal(on.states[-1].vregs, off.states[-1].vregs)
    assert np.array_equal(on.states[-1].sregs, off.states[-1].sregs)
    source = block_source(on)
    for line in ("= np.less_equal(q2, q4)", "= np.not_equal(q2, q4)", ".view(np.int64), np.bitwise_and("):
        assert line in source, line
    assert "= op" not in source                     # no library call left


def test_independent_f64_fmas_run_as_one_call():
    """Two v_fma_f64 in a row (ordering-only instructions between) run as one fma call when the
    second reads nothing the first writes and they write different pairs; a second reading the
    first's result, one writing the same pair, or one with an SGPR operand runs alone; edge
    values (NaN payloads on both sides of a pair) and a MODE whose fmas call the library."""
    co = code_object(assemble("""
  s_load_b128 s[4:7], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_lshlrev_b32_e32 v1, 5, v0
  s_lshl_b32 s8, s2, 10
  v_add_nc_u32_e32 v1, s8, v1
  global_load_b128 v[2:5], v1, s[6:7]
  global_load_b64 v[6:7], v1, s[6:7] offset:16
  s_load_b64 s[6:7], s[6:7], 0x8
  v_lshlrev_b32_e32 v41, 7, v0
  s_lshl_b32 s8, s2, 12
  v_add_nc_u32_e32 v41, s8, v41
  s_waitcnt vmcnt(0) lgkmcnt(0)
  v_fma_f64 v[10:11], v[2:3], v[4:5], v[6:7]
  s_delay_alu instid0(VALU_DEP_1)
  v_fma_f64 v[12:13], -v[4:5], |v[6:7]|, 1.0
  v_fma_f64 v[14:15], v[10:11], v[4:5], v[2:3]
  v_fma_f64 v[16:17], v[14:15], v[2:3], v[12:13]
  v_fma_f64 v[18:19], v[2:3], v[6:7], v[4:5]
  v_fma_f64 v[18:19], v[4:5], v[6:7], v[2:3]
  v_fma_f64 v[20:21], v[2:3], s[6:7], v[4:5]
  v_fma_f64 v[22:23], v[6:7], v[6:7], 0.5
  s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 8), 0x0f
  v_fma_f64 v[24:25], v[2:3], v[4:5], v[6:7]
  v_fma_f64 v[26:27], v[6:7], -v[2:3], v[4:5]
  global_store_b128 v41, v[10:13], s[4:5]
  global_store_b128 v41, v[14:17], s[4:5] offset:16
  global_store_b128 v41, v[18:21], s[4:5] offset:32
  global_store_b128 v41, v[22:25], s[4:5] offset:48
  global_store_b64 v41, v[26:27], s[4:5] offset:64
  s_endpgm
"""), args=PTR + PTR, vgprs=48)
    rng = np.random.default_rng(11)
    edges = np.array([0x7FF8000000000001, 0x7FF0000000000001, 0xFFF8000000000123, 0x7FF0000000000000,
                      0, 1 << 63, 1, 0x7FEFFFFFFFFFFFFF, 0x0010000000000000, 0x3FF0000000000000], np.uint64)

    def make_args():
        values = (rng.standard_normal(4 * 32 * 4) * 2.0 ** rng.integers(-600, 600, 4 * 32 * 4)).view(np.uint64)
        pick = rng.random(values.shape) < 0.08
        values = np.where(pick, rng.choice(edges, values.shape), values)
        return [np.zeros(4 * 32 * 32, np.uint32), values]
    (on, a, err_on), (off, b, err_off) = both_paths(co, (4, 1, 1), (32, 1, 1), same_inputs(rng, make_args))
    assert err_on is None and err_off is None
    assert a[0].any() and a[0].tobytes() == b[0].tobytes()
    assert np.array_equal(on.states[-1].vregs, off.states[-1].vregs)
    source = block_source(on)
    # the pairs (10, 12), (16, the first 18) and (24, 26) after the MODE change; 14 reads 10
    assert source.count("FMA64N(") == 3 and "FMA64(q10.view(F64)" in source


def test_runs_of_independent_f64_fmas_run_as_one_call():
    """A run of v_fma_f64 ops, each reading nothing an earlier one of the run writes and all
    writing different pairs, runs as one fma call over all of them, whether a later one
    overwrites a pair an earlier one reads (it reads it first) or not; a reader of the run's
    results starts the next run.  Edge values among ordinary lanes, against the per-instruction
    path."""
    co = code_object(assemble("""
  s_load_b128 s[4:7], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_lshlrev_b32_e32 v1, 5, v0
  s_lshl_b32 s8, s2, 10
  v_add_nc_u32_e32 v1, s8, v1
  global_load_b128 v[2:5], v1, s[6:7]
  global_load_b128 v[6:9], v1, s[6:7] offset:16
  v_lshlrev_b32_e32 v41, 7, v0
  s_lshl_b32 s8, s2, 12
  v_add_nc_u32_e32 v41, s8, v41
  s_waitcnt vmcnt(0)
  v_fma_f64 v[10:11], v[2:3], v[4:5], v[6:7]
  v_fma_f64 v[12:13], -v[4:5], v[8:9], 1.0
  s_delay_alu instid0(VALU_DEP_1)
  v_fma_f64 v[14:15], v[6:7], |v[2:3]|, v[8:9]
  v_fma_f64 v[2:3], v[8:9], v[8:9], v[4:5]
  v_fma_f64 v[16:17], v[10:11], v[12:13], v[14:15]
  v_fma_f64 v[18:19], v[2:3], v[4:5], 0.5
  v_fma_f64 v[20:21], v[6:7], v[8:9], v[4:5]
  global_store_b128 v41, v[10:13], s[4:5]
  global_store_b128 v41, v[14:17], s[4:5] offset:16
  global_store_b128 v41, v[18:21], s[4:5] offset:32
  global_store_b64 v41, v[2:3], s[4:5] offset:48
  s_endpgm
"""), args=PTR + PTR, vgprs=48)
    rng = np.random.default_rng(13)
    edges = np.array([0x7FF8000000000001, 0x7FF0000000000001, 0xFFF8000000000123, 0x7FF0000000000000,
                      0, 1 << 63, 1, 0x7FEFFFFFFFFFFFFF, 0x0010000000000000, 0x3FF0000000000000], np.uint64)

    def make_args():
        values = (rng.standard_normal(4 * 32 * 4) * 2.0 ** rng.integers(-600, 600, 4 * 32 * 4)).view(np.uint64)
        pick = rng.random(values.shape) < 0.08
        values = np.where(pick, rng.choice(edges, values.shape), values)
        return [np.zeros(4 * 32 * 32, np.uint32), values]
    (on, a, err_on), (off, b, err_off) = both_paths(co, (4, 1, 1), (32, 1, 1), same_inputs(rng, make_args))
    assert err_on is None and err_off is None
    assert a[0].any() and a[0].tobytes() == b[0].tobytes()
    assert np.array_equal(on.states[-1].vregs, off.states[-1].vregs)
    source = block_source(on)
    # (10, 12, 14, 2) and (16, 18, 20): 16 reads 10, 12 and 14, 18 reads the new v[2:3]
    calls = [line for line in source.splitlines() if "FMA64N(" in line]
    assert len(calls) == 2 and [c.count(".view(F64)") for c in calls] == [12, 9], calls
    assert "FMA64(" not in source
