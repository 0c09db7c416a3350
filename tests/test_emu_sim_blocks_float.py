"""f32 conversions, roundings and transcendentals a compiled block writes out (block_float.py)
against the per-instruction path, which runs the VALU library: edge values (signed zeros,
denormals, the smallest normal, saturation bounds, infinities, quiet and signalling NaNs with
payloads) through VGPR, SGPR and constant sources, under a partial EXEC and with every lane on."""
import numpy as np

from tests.test_emu_sim_blocks import block_source, both_paths, lane_ops_kernel, same_inputs

OPS = ("v_exp_f32", "v_log_f32", "v_sqrt_f32", "v_rsq_f32", "v_rcp_f32", "v_rcp_iflag_f32", "v_cvt_f32_u32",
       "v_cvt_f32_i32", "v_cvt_u32_f32", "v_cvt_i32_f32", "v_frexp_mant_f32", "v_frexp_exp_i32_f32",
       "v_trunc_f32", "v_floor_f32", "v_ceil_f32", "v_rndne_f32")
BODY = "\n".join(f"  {m}_e32 v{10 + i}, v2" for i, m in enumerate(OPS)) + """
  v_ldexp_f32 v26, v2, v3
  v_ldexp_f32 v27, v4, v3
  v_exp_f32_e32 v28, s6
  v_cvt_u32_f32_e32 v29, 0xcf000000
  v_rcp_f32_e32 v30, 0x7e800000
  v_ldexp_f32 v31, s6, 40
  v_sqrt_f32_e32 v32, v5
  v_cvt_f32_u32_e32 v33, v5
  v_fract_f32_e32 v34, v2
  v_sin_f32_e32 v35, v2
  v_cos_f32_e32 v36, v5
  v_fract_f32_e32 v37, v5
""" + "\n".join(f"  global_store_b128 v1, v[{10 + 4 * k}:{13 + 4 * k}], s[4:5] offset:{16 * k}" for k in range(7))

# f32 bit patterns: zeros, denormals, the smallest normals, ones, integers near the int32 and
# uint32 bounds, exp2 arguments whose result is denormal or just normal, reciprocals of values
# near the top of the range, infinities, NaNs (quiet and signalling, both signs, payloads)
EDGES = np.array([0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007FFFFF, 0x807FFFFF, 0x00400000, 0x00800000,
                  0x80800000, 0x3F800000, 0xBF800000, 0x3F000000, 0xBF000000, 0x3FC00000, 0xC0200000, 0x3F7FFFFF,
                  0x4EFFFFFF, 0x4F000000, 0xCF000000, 0xCF000001, 0x4F7FFFFF, 0x4F800000, 0x4F800001,
                  0xC2FC0000, 0xC3000000, 0xC3150000, 0xC2FE0000, 0xC3160000, 0x42FE0000, 0x43000000,
                  0x7E800000, 0x7E7FFFFF, 0xFE800001, 0x7F7FFFFF, 0x7F800000, 0xFF800000, 0x7FC00000,
                  0xFFC00123, 0x7F800001, 0xFFA00000, 0x7FBFFFFF, 0x4B000001, 0xCB7FFFFF, 0x3EFFFFFF], np.uint32)
EXPONENTS = np.array([0, 1, -1, 126, 127, 128, -126, -149, -150, 254, 300, 399, 400, 401, -400, -401, 0x7FFFFFFF,
                      -0x80000000, 1 << 20], np.int64).astype(np.uint32)


def test_f32_unary_ops_written_out_match_the_library():
    co = lane_ops_kernel(BODY)
    rng = np.random.default_rng(23)

    def make_args():
        inputs = rng.integers(0, 2**32, (4 * 32, 4), dtype=np.uint64).astype(np.uint32)
        values = (rng.standard_normal(inputs.shape[0] * 2) * np.exp2(rng.integers(-30, 30, inputs.shape[0] * 2)))
        inputs[:, 0] = rng.choice(EDGES, inputs.shape[0])
        inputs[::3, 0] = values[::6].astype(np.float32).view(np.uint32)
        inputs[:, 1] = rng.choice(EXPONENTS, inputs.shape[0])
        inputs[:, 2] = rng.choice(EDGES, inputs.shape[0])
        inputs[1::2, 3] = values[1::4].astype(np.float32).view(np.uint32)
        return [np.zeros(4 * 0x1000 // 4, np.uint32), inputs.reshape(-1)]
    (on, a, err_on), (off, b, err_off) = both_paths(co, (4, 1, 1), (32, 1, 1), same_inputs(rng, make_args))
    assert err_on is None and err_off is None
    assert a[0].any() and a[0].tobytes() == b[0].tobytes()
    assert np.array_equal(on.states[-1].vregs, off.states[-1].vregs)
    source = block_source(on)
    for form in ("EXP32(V[2, sel].view(F32))", "TOI32(", "LDEXP32(S[6, sel][:, None].view(F32)", "QUIET32(np.rint(",
                 "V[5, sel].astype(F32)"):
        assert form in source
    # each op of the body is written out, and calls the library only in a MODE the forms do not
    # stand for (the else branch); the f32 transcendentals that flush denormals whatever MODE
    # says are the library's own functions for every MODE (no branch)
    modeless = ("v_exp_f32", "v_log_f32", "v_sqrt_f32", "v_rsq_f32", "v_rcp_f32", "v_rcp_iflag_f32")
    assert source.count("if C[") >= 2 * (len(OPS) - len(modeless) + 12 - 3)
    for form in ("da = EXP32(", "da = RCP32(", "da = QUIET32(FRACT32(", "da = QUIET32(SINCOS32("):
        assert form in source


def test_plain_f32_transcendentals_are_the_flushed_computation():
    """transcendental.PLAIN32 (the library's and the blocks' f32 exp / log / rcp / rsq / sqrt
    without modifiers) leave out steps that cannot change the bits: against the whole
    computation (denormal inputs flushed, float64 evaluation, the result rounded, flushed and
    its NaNs quieted) on edge values and random bits."""
    from drivers.emu.amd.shader.valu.fp import F32, flush, quiet
    from drivers.emu.amd.shader.valu.transcendental import _FN, PLAIN32
    rng = np.random.default_rng(29)
    exp_edges = np.array([-126.0, -125.5, -149.0, -150.0, -127.0, 127.0, 128.0, 127.99999], np.float32).view(np.uint32)
    bits = np.concatenate([EDGES, exp_edges, rng.integers(0, 2**32, 4000, dtype=np.uint64).astype(np.uint32),
                           (rng.standard_normal(1000) * 60).astype(np.float32).view(np.uint32)])
    x = bits.view(np.float32)
    with np.errstate(all="ignore"):
        for name, plain in PLAIN32.items():
            whole = quiet(F32, flush(F32, _FN[name](flush(F32, x).astype(np.float64)).astype(np.float32)))
            assert plain(x).view(np.uint32).tobytes() == whole.view(np.uint32).tobytes(), name


COMPARE_BODY = "\n".join(f"  {ins}\n  v_cndmask_b32_e64 v{10 + k}, 0, 1, vcc_lo" for k, ins in enumerate((
    "v_cmp_lt_f32_e32 vcc_lo, v2, v3", "v_cmp_eq_f32_e64 vcc_lo, -v2, |v4|", "v_cmp_nge_f32_e32 vcc_lo, s6, v3",
    "v_cmp_u_f32_e32 vcc_lo, v2, v4", "v_cmp_lg_f32_e64 vcc_lo, v3, 0.5", "v_cmp_o_f32_e32 vcc_lo, v2, v3",
    "v_cmp_neq_f64_e32 vcc_lo, v[2:3], v[4:5]", "v_cmp_gt_f64_e64 vcc_lo, 0x10000000, |v[2:3]|",
    "v_cmp_nlt_f64_e64 vcc_lo, -v[4:5], v[2:3]", "v_cmp_class_f32_e64 vcc_lo, v2, 0x3ff",
    "v_cmp_class_f32_e64 vcc_lo, -|v3|, v4", "v_cmp_class_f64_e64 vcc_lo, v[2:3], 0x260",
    "v_cmp_class_f64_e64 vcc_lo, -v[4:5], v3", "v_cmp_le_f32_e32 vcc_lo, v2, v2"))) + """
  v_cmpx_ngt_f32_e32 v2, v4
  v_mov_b32_e32 v24, 7
""" + "\n".join(f"  global_store_b128 v1, v[{10 + 4 * k}:{13 + 4 * k}], s[4:5] offset:{16 * k}" for k in range(4))


def test_float_compares_written_out_match_the_library():
    """f32 and f64 v_cmp / v_cmpx predicates (ordered, unordered, with abs and neg) and
    v_cmp_class on edge values, signed zeros and NaNs with payloads included."""
    co = lane_ops_kernel(COMPARE_BODY)
    rng = np.random.default_rng(31)

    def make_args():
        inputs = rng.integers(0, 2**32, (4 * 32, 4), dtype=np.uint64).astype(np.uint32)
        for k in range(4):
            inputs[k % 2::2, k] = rng.choice(EDGES, 64)
        inputs[::5, 1] = inputs[::5, 0]
        inputs[1::3, 3] = rng.integers(0, 1024, 43)            # class masks
        return [np.zeros(4 * 0x1000 // 4, np.uint32), inputs.reshape(-1)]
    (on, a, err_on), (off, b, err_off) = both_paths(co, (4, 1, 1), (32, 1, 1), same_inputs(rng, make_args))
    assert err_on is None and err_off is None
    assert a[0].any() and a[0].tobytes() == b[0].tobytes()
    assert np.array_equal(on.states[-1].vregs, off.states[-1].vregs)
    source = block_source(on)
    for form in ("FCMP_lt(V[2, sel].view(F32), V[3, sel].view(F32))", "FCMP_nge(S[6, sel][:, None].view(F32)",
                 "FCLASS(F64F, q2.view(F64))", "FCMP_ngt("):
        assert form in source
    assert source.count(" = op") == 2 * 11          # the flagged predicates' library calls only
