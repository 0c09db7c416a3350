"""Integer VALU ops a compiled block writes out with its constants worked out (block_ints.py)
against the per-instruction path, which runs the VALU library: constant shift counts and bit
fields folded, v_bfe_i32 of a constant field, v_bcnt_u32_b32, v_bfrev_b32 and v_perm_b32 of a
constant selector."""
import numpy as np

from tests.test_emu_sim_blocks import block_source, both_paths, lane_ops_kernel, same_inputs

BODY = """
  v_bfe_u32 v10, v2, 5, 11
  v_bfe_u32 v11, v3, 0, 8
  v_bfe_u32 v12, s6, 37, 0
  v_bfe_u32 v13, v2, 24, 16
  v_bfe_i32 v14, v2, 17, 12
  v_bfe_i32 v15, v3, 0, 8
  v_bfe_i32 v16, v2, 0, 16
  v_bfe_i32 v17, v4, 20, 20
  v_bfe_i32 v18, s6, 31, 1
  v_bfe_i32 v19, v3, 7, 32
  v_bfe_i32 v20, v2, 1, 31
  v_bfe_i32 v21, v3, 4, 28
  v_bcnt_u32_b32 v22, v2, 0
  v_bcnt_u32_b32 v23, v3, v4
  v_bcnt_u32_b32 v24, s6, -1
  v_bfrev_b32_e32 v25, v2
  v_bfrev_b32_e32 v26, s6
  v_perm_b32 v27, 0, v2, 0x10203
  v_perm_b32 v28, v2, v3, 0x7050301
  v_perm_b32 v29, s6, v4, 0x4040404
  v_perm_b32 v30, v3, v2, 0x80c0d01
  v_lshl_add_u32 v31, v2, 35, v3
  v_lshl_or_b32 v32, v3, 5, s6
  v_add_lshl_u32 v33, v2, v3, 7
  v_ashrrev_i32_e64 v34, 33, v3
  v_bfe_i32 v35, v2, 9, 0
  v_bfrev_b32_e32 v36, 0x12345
  v_bfe_i32 v37, s6, v3, 5
  global_store_b128 v1, v[10:13], s[4:5]
  global_store_b128 v1, v[14:17], s[4:5] offset:16
  global_store_b128 v1, v[18:21], s[4:5] offset:32
  global_store_b128 v1, v[22:25], s[4:5] offset:48
  global_store_b128 v1, v[26:29], s[4:5] offset:64
  global_store_b128 v1, v[30:33], s[4:5] offset:80
  global_store_b128 v1, v[34:37], s[4:5] offset:96
"""


def test_integer_ops_with_constants_worked_out_match_the_library():
    """Random and edge bits (sign bits, fields reaching past bit 31, widths of 0 and 1), VGPR,
    SGPR and constant sources, under a partial EXEC and with every lane on."""
    co = lane_ops_kernel(BODY)
    rng = np.random.default_rng(17)
    edges = np.array([0, 1, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0x00800000, 0xFF7FFFFF, 0x9E3779B9,
                      0x0000FFFF, 0xFFFF0000, 0x00FF00FF, 0x80808080], np.uint32)

    def make_args():
        inputs = rng.integers(0, 2**32, 4 * 32 * 4, dtype=np.uint64).astype(np.uint32)
        inputs[::2] = rng.choice(edges, inputs[::2].shape)
        return [np.zeros(4 * 0x1000 // 4, np.uint32), inputs]
    (on, a, err_on), (off, b, err_off) = both_paths(co, (4, 1, 1), (32, 1, 1), same_inputs(rng, make_args))
    assert err_on is None and err_off is None
    assert a[0].any() and a[0].tobytes() == b[0].tobytes()
    assert np.array_equal(on.states[-1].vregs, off.states[-1].vregs)
    source = block_source(on)
    for form in ("np.bitwise_count(V[2, sel])", "BFREV(V[2, sel])", "V[2, sel].byteswap()", "PERM(V[2, sel], V[3, sel]",
                 "np.right_shift(np.left_shift(V[2, sel], cst"):
        assert form in source
    assert "U32(31)" not in source             # every shift count and field was a constant
    # the library is still called for a selector naming a sign or constant byte, the fields of
    # width 0 (32 and 0: S2[4:0]) and a field whose offset is in a register
    assert source.count(" = op") == 2 * 4


COUNT_BODY = """
  v_clz_i32_u32_e32 v10, v2
  v_clz_i32_u32_e32 v11, s6
  v_ctz_i32_b32_e32 v12, v3
  v_ctz_i32_b32_e32 v13, 0
  v_alignbit_b32 v14, v2, v3, 25
  v_alignbit_b32 v15, v2, v2, v4
  v_alignbit_b32 v16, s6, v3, 0
  v_clz_i32_u32_e32 v17, 0
  v_min3_u32 v18, v2, v3, v4
  v_max3_i32 v19, v2, s6, v4
  v_med3_u32 v20, v2, v3, 0x80000000
  v_minmax_i32 v21, v3, v4, -5
  v_maxmin_u32 v22, s6, v2, v3
  v_min3_i32 v23, v4, v2, v3
  v_max3_u32 v24, v4, 7, v2
  v_maxmin_i32 v25, v2, v4, v3
  global_store_b128 v1, v[10:13], s[4:5]
  global_store_b128 v1, v[14:17], s[4:5] offset:16
  global_store_b128 v1, v[18:21], s[4:5] offset:32
  global_store_b128 v1, v[22:25], s[4:5] offset:48
"""


def test_bit_counts_alignbit_and_min_max_written_out_match_the_library():
    """v_clz_i32_u32 and v_ctz_i32_b32 (-1 for zero), v_alignbit_b32 (a constant and a
    register count past 31) and the three-operand signed and unsigned min / max / med3 on zero,
    single bits, sign bits and random bits."""
    co = lane_ops_kernel(COUNT_BODY)
    rng = np.random.default_rng(19)
    edges = np.array([0, 1, 2, 3, 0x80000000, 0xFFFFFFFF, 0x00010000, 0x7FFFFFFF, 0x40000000, 33, 63, 32], np.uint32)

    def make_args():
        inputs = rng.integers(0, 2**32, 4 * 32 * 4, dtype=np.uint64).astype(np.uint32)
        inputs[::2] = rng.choice(edges, inputs[::2].shape)
        inputs[1::8] >>= rng.integers(0, 32, inputs[1::8].shape).astype(np.uint32)
        return [np.zeros(4 * 0x1000 // 4, np.uint32), inputs]
    (on, a, err_on), (off, b, err_off) = both_paths(co, (4, 1, 1), (32, 1, 1), same_inputs(rng, make_args))
    assert err_on is None and err_off is None
    assert a[0].any() and a[0].tobytes() == b[0].tobytes()
    assert np.array_equal(on.states[-1].vregs, off.states[-1].vregs)
    source = block_source(on)
    assert "np.frexp(V[2, sel]" in source and "np.negative(V[3, sel])" in source
    assert source.count(" = op") == 0
