"""16-bit integer, f16 and packed f16 ops (block_half.py) and the f64 ops and f32 <-> f64
conversions (block_float.DOUBLE) a compiled block writes out, against the per-instruction path,
which runs the VALU library: edge values (signed zeros, denormals, infinities, quiet and
signalling NaNs with payloads, integer limits) through VGPR, SGPR and constant sources, under a
partial EXEC and with every lane on."""
import numpy as np

from tests.test_emu_sim_blocks import block_source, both_paths, lane_ops_kernel, same_inputs

# the destinations first hold other bits: a 16-bit result keeps the high half
HALF_BODY = "\n".join(f"  v_mov_b32_e32 v{k}, v5" for k in range(10, 37)) + """
  v_add_nc_u16 v10, v2, v3
  v_sub_nc_i16 v11, v2, s6
  v_mad_u16 v12, v2, 3, v3
  v_mad_i16 v13, v2, v3, v4
  v_lshrrev_b16 v14, 3, v2
  v_lshlrev_b16 v15, v3, v2
  v_ashrrev_i16 v16, v3, v2
  v_max_i16 v17, v2, v3
  v_min_u16 v18, v2, s6
  v_xor_b16 v19, v2, v3
  v_pk_add_f16 v20, v2, v3
  v_pk_add_f16 v21, v2, v4 neg_lo:[0,1] neg_hi:[0,1]
  v_pk_mul_f16 v22, v2, v3
  v_pk_fma_f16 v23, v2, v3, v4
  v_pk_max_f16 v24, v2, v2
  v_pk_min_f16 v25, v3, v4
  v_pk_max_f16 v26, v2, v4
  v_pk_min_f16 v27, v2, v2
  v_cvt_f32_f16_e32 v28, v2
  v_cvt_f16_f32_e32 v29, v5
  v_mul_f16_e32 v30, 0x3e00, v2
  v_add_f16_e32 v31, v2, v3
  v_fma_f16 v32, v2, v3, v4
  v_max_f16_e32 v33, v2, v3
  v_sub_f16_e32 v34, s6, v3
  v_pk_fma_f16 v35, v2, v3, 0x3c003c00
  v_pk_add_f16 v36, v2, v3 op_sel:[1,0]
  v_mov_b32_e32 v37, v2
  v_mov_b32_e32 v38, v3
  v_mov_b32_e32 v39, v4
""" + "\n".join(f"  global_store_b128 v1, v[{10 + 4 * k}:{13 + 4 * k}], s[4:5] offset:{16 * k}" for k in range(7)) \
    + "\n  global_store_b64 v1, v[38:39], s[4:5] offset:112"

# f16 pairs: zeros, denormals, the smallest normal, ones, the largest, infinities, NaNs (quiet
# and signalling, both signs, payloads)
EDGES16 = np.array([0x0000, 0x8000, 0x0001, 0x8001, 0x03FF, 0x0400, 0x3C00, 0xBC00, 0x3800, 0x7BFF, 0xFBFF,
                    0x7C00, 0xFC00, 0x7E00, 0xFE01, 0x7C01, 0xFD00, 0x3555, 0x0200, 0x7FFF], np.uint32)
EDGES32 = np.array([0x00000000, 0x80000000, 0x00000001, 0x33800000, 0x33000001, 0x387FC000, 0x477FF000,
                    0x477FF001, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFA00001, 0x7F800001, 0x3F800000], np.uint32)


def _run(body, make_inputs, seed):
    co = lane_ops_kernel(body)
    rng = np.random.default_rng(seed)

    def make_args():
        inputs = make_inputs(rng)
        return [np.zeros(4 * 0x1000 // 4, np.uint32), inputs.reshape(-1)]
    (on, a, err_on), (off, b, err_off) = both_paths(co, (4, 1, 1), (32, 1, 1), same_inputs(rng, make_args))
    assert err_on is None and err_off is None
    assert a[0].any() and a[0].tobytes() == b[0].tobytes()
    assert np.array_equal(on.states[-1].vregs, off.states[-1].vregs)
    return block_source(on)


def test_16_bit_ops_written_out_match_the_library():
    def inputs(rng):
        x = rng.integers(0, 2**32, (4 * 32, 4), dtype=np.uint64).astype(np.uint32)
        for k in range(3):
            x[1::2, k] = rng.choice(EDGES16, 64) | rng.choice(EDGES16, 64) << 16
        x[::4, 1] &= 0x8000001F                     # shift counts past 15, signed and not
        x[:, 3] = rng.choice(EDGES32, 128)
        x[::3, 3] = rng.standard_normal(43).astype(np.float32).view(np.uint32)
        return x
    source = _run(HALF_BODY, inputs, 5)
    for form in ("M16(V[10, sel], np.add(V[2, sel], V[3, sel]))", "CANON16(", "J16(QUIET16(FMAH(",
                 "QUIET32H(L16(V[2, sel])", "np.bitwise_xor(V[4, sel], U32(0x80008000))"):
        assert form in source
    # v_pk_add_f16 with op_sel calls the library
    assert "v_pk_add_f16 v36" in source and source.count("if C[") >= 17


DOUBLE_BODY = """
  v_rcp_f64_e32 v[10:11], v[2:3]
  v_sqrt_f64_e32 v[12:13], v[2:3]
  v_rsq_f64_e32 v[14:15], v[4:5]
  v_ldexp_f64 v[16:17], v[2:3], v4
  v_ldexp_f64 v[18:19], -|v[4:5]|, v2
  v_cvt_f64_f32_e32 v[20:21], v3
  v_cvt_f32_f64_e32 v22, v[2:3]
  v_cvt_f32_f64_e64 v23, -v[4:5]
  v_floor_f64_e32 v[24:25], v[2:3]
  v_trunc_f64_e32 v[26:27], v[4:5]
  v_max_f64 v[28:29], v[2:3], v[2:3]
  v_min_f64 v[30:31], v[4:5], v[4:5]
  v_rndne_f64_e32 v[32:33], v[2:3]
  v_ldexp_f64 v[34:35], v[4:5], s6
  v_cvt_f64_f32_e64 v[36:37], |v5|
  v_ceil_f64_e32 v[38:39], 0x40490fdb
""" + "\n".join(f"  global_store_b128 v1, v[{10 + 4 * k}:{13 + 4 * k}], s[4:5] offset:{16 * k}" for k in range(7)) \
    + "\n  global_store_b64 v1, v[38:39], s[4:5] offset:112"

EDGES64 = np.array([0, 1 << 63, 1, (1 << 63) | 1, 0x000FFFFFFFFFFFFF, 0x0010000000000000, 0x3FF0000000000000,
                    0xBFF8000000000000, 0x7FEFFFFFFFFFFFFF, 0x7FF0000000000000, 0xFFF0000000000000,
                    0x7FF8000000000000, 0xFFF0000000000123, 0x7FF0000000000001, 0x36A0000000000000,
                    0x47EFFFFFE0000000, 0x47EFFFFFF0000000, 0x3810000000000000, 0x380FFFFFFFFFFFFF,
                    0x4330000000000001, 0xC32FFFFFFFFFFFFF, 0x3FE0000000000000], np.uint64)
EXPONENTS = np.array([0, 1, -1, 1022, 1023, 1024, -1022, -1074, -1075, 2046, 2200, 2201, -2200, -2201,
                      0x7FFFFFFF, -0x80000000], np.int64).astype(np.uint32)


def test_f64_ops_written_out_match_the_library():
    def inputs(rng):
        x = rng.integers(0, 2**32, (4 * 32, 4), dtype=np.uint64).astype(np.uint32)
        pairs = x.view(np.uint64)
        pairs[:, 0] = rng.choice(EDGES64, 128)
        pairs[::3, 1] = (rng.standard_normal(43) * np.exp2(rng.integers(-1000, 1000, 43))).view(np.uint64)
        pairs[1::3, 1] = rng.choice(EDGES64, 43)
        x[::2, 2] = rng.choice(EXPONENTS, 64)
        return x
    source = _run(DOUBLE_BODY, inputs, 7)
    for form in ("QUIET64(np.divide(1.0, ", "QUIET64(RSQ64(", "CANON(C[", "np.clip(V[4, sel].view(I32)",
                 "QUIET32(q2.view(F64).astype(F32))", "np.bitwise_xor(np.bitwise_and(q4, U64("):
        assert form in source
    assert source.count("if C[") >= 2 * 16
