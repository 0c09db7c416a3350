"""ALU semantics of the wave simulator: edge values against the ISA pseudocode and LLVM 19.

The golden files under tests/data/rdna3/semantics/ are frozen by
`python scripts/check_rdna3_semantics.py --freeze`:
  reference.txt  every VALU and SALU op on edge values, modifiers and MODE settings, with the
                 result of scripts/rdna3_ref/ (an independent reference written from the
                 pseudocode)
  llvm.txt       LLVM 19's constant folding of the llvm.amdgcn.* intrinsics on edge values (where
                 it disagrees with the pseudocode, the pseudocode's value and the class, see
                 LLVM_DISAGREEMENTS in the script)
Here the simulator's op implementations run on all of them, a sample also as real instructions
(assembled, decoded and executed by the WaveExecutor), and each class of bug found so far has a
test of its own. The full runs: `python scripts/check_rdna3_semantics.py` (any seed, any size),
`--kernels`, `--llvm` (needs opt-19).
"""
import os
import random
import shutil
import struct
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))

import check_rdna3_semantics as C  # noqa: E402
import rdna3_ref as R  # noqa: E402


def _f32(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


# ---- the golden files ----------------------------------------------------------------------------

def test_every_op_on_the_frozen_reference_cases():
    rows = C.load_golden("reference.txt")
    counts, bad = C.check_golden_reference(rows)
    assert [(c.text(), C._show(w), C._show(g)) for c, w, g in bad] == []
    ops = {c.op for c, _ in rows}
    from drivers.emu.amd.shader import scalar
    from drivers.emu.amd.shader.valu import VALU
    assert {op for op in VALU if not op.startswith("v_cmpx")} - set(C.EXCLUDED) <= ops
    assert set(scalar.SOP1) | set(scalar.SOP2) <= ops
    assert counts["cases"] > 10000


def test_llvm_constant_folds_and_the_documented_disagreements():
    rows = C.load_golden("llvm.txt")
    counts, bad = C.check_golden_reference(rows)
    assert [(c.text(), C._show(w), C._show(g)) for c, w, g in bad] == []
    with open(os.path.join(C.DATA, "llvm.txt")) as f:
        classes = {p.split("=", 1)[1] for line in f for p in line.split() if p.startswith("follow=")}
    assert classes and classes <= set(C.LLVM_DISAGREEMENTS)
    assert counts["cases"] > 1000


def test_a_sample_as_real_instructions():
    """VOP3 and VOP3P instructions with their modifiers and MODE (set by s_setreg), through the decoder and
    the executor, on frozen reference cases: in a compiled block and one instruction at a time."""
    rows = C.load_golden("reference.txt")
    groups = {}
    for c, want in rows:
        if c.op in R.OPS and C.kernel_statement(c) is not None:
            groups.setdefault((c.op,) + c.mods_key(), []).append((c, want))
    keys = sorted(groups)
    rng = random.Random(7)
    picked = rng.sample(keys, 60) + [k for k in keys if k[0] in (
        "v_mul_f32", "v_add_f32", "v_bfe_i32", "v_fma_dx9_zero_f32", "v_frexp_mant_f32",
        "v_max_f32", "v_min_f16")][:40]
    bad = []
    for k in picked:
        items = groups[k]
        for i, (c, _) in enumerate(items):
            c.lane = i % 32
        got = C.run_kernel_group([c for c, _ in items])
        one = C.run_kernel_group([c for c, _ in items], blocks=False)
        for (c, want), g, o in zip(items, got, one):
            if g != o:
                bad.append((c.text(), "compiled block %s, one at a time %s" % (C._show(g), C._show(o))))
            if R.OPS[c.op].dst == "mask":
                g = (None, g[1])
            if c.op.startswith("v_mbcnt"):
                want = C.ref_result(c)
            if not C.agrees(R.OPS[c.op], want, g):
                bad.append((c.text(), C._show(want), C._show(g)))
    assert bad == []


def test_salu_through_the_instruction_path():
    """SOP1, SOP2, SOPC and SOPK (SCC in and out) in one wave."""
    cases = C.sop_cases(random.Random(11), 6)
    counts, bad = C.check_sop(cases)
    assert [(c.text(), C._show(w), C._show(g)) for c, w, g in bad] == []
    assert {c.op for c in cases} >= {"s_cmp_lt_i32", "s_cmpk_ge_u32", "s_addk_i32", "s_bitcmp1_b64"}


def test_constant_operands_sample():
    """Inline constants and literals, and SGPRs, in place of a source register: the value the
    hardware supplies to the operand's type, the same in compiled blocks and one instruction at a
    time (`--constants` runs every statement)."""
    items = C.constant_statements()
    assert len(items) > 5000
    sample = random.Random(5).sample(items, 120) + [
        it for it in items if it[2] in ("v_add_nc_u16 v40, 1.0, v14", "v_dot2_f16_f16 v40, 1.0, v14, v18",
                                        "v_add_f32_e64 v40, v10, -1", "v_cmp_lt_i16_e64 s20, -4.0, v14",
                                        "v_add_f64 v[40:41], 0x12345678, v[14:15]")]
    sgprs = C.sgpr_statements(random.Random(7))
    assert len(sgprs) > 500
    sample += random.Random(8).sample(sgprs, 40)
    counts, bad = C.check_constants(sample, random.Random(6))
    assert [(stmt, c.text(), C._show(w), C._show(g)) for stmt, c, w, g in bad] == []
    assert counts["cases"] == 32 * len(sample)


def test_float_inline_constants_of_16_bit_operands():
    """A float inline constant gives an f16 operand (packed ones too) the half value and 0 above,
    a 16-bit integer operand the single value, whose low half is 0 for 1.0 (LLVM's account of the
    hardware, where the ISA guide's table misleads)."""
    from assembler.rdna3 import assemble, decode
    from drivers.emu.amd.shader.operands import constant_value
    for text, value in (("v_add_nc_u16 v0, 1.0, v1", 0x3F800000), ("v_add_f16 v0, 1.0, v1", 0x3C00),
                        ("v_dot2_f16_f16 v0, 1.0, v1, v2", 0x3C00), ("v_pk_add_f16 v0, 1.0, v1", 0x3C00),
                        ("v_add_nc_u16 v0, -4.0, v1", 0xC0800000), ("v_add_nc_u16 v0, -1, v1", 0xFFFFFFFF)):
        const = [o for o in decode(assemble(text))[0].operands if o.kind == "const"][0]
        assert constant_value(const, 32) == value, text


@pytest.mark.skipif(shutil.which("opt-19") is None, reason="opt-19 not installed")
def test_live_llvm_fold_sample():
    counts, bad, known = C.check_llvm(15, 99)
    assert bad == [] and counts["agree"] > 300


# ---- the classes, one by one -----------------------------------------------------------------------

def _valu(op, srcs, mode=None, old=0, **mods):
    """One case through the simulator's op implementation and as an instruction (in a compiled
    block and one instruction at a time)."""
    case = C.Case(op, R.Mode.of().reg if mode is None else mode, srcs, old=old, **mods)
    per_op = C.sim_results([case])[0]
    if C.kernel_statement(case):
        for blocks in (True, False):
            inst = C.run_kernel_group([case], blocks=blocks)[0]
            assert per_op == inst, (blocks, per_op, inst)
    return per_op[0]


def _salu(op, a, b):
    case = C.Case(op, 0, [a, b])
    got = C.run_sop_kernel([case])[0]
    assert C.run_sop_kernel([case], blocks=False)[0] == got
    return got


def test_signed_bitfield_extract_fills_with_the_sign():
    """s_bfe_i32 / s_bfe_i64 / v_bfe_i32: (S0.i >> offset) & mask is an arithmetic shift, so a field
    reaching past the top bit is filled with copies of the sign bit."""
    assert _salu("s_bfe_i32", 0x80000000, 28 | 8 << 16) == (0xFFFFFFF8, 1)
    assert _salu("s_bfe_i32", 0x7FFFFFFF, 28 | 8 << 16) == (7, 1)
    assert _salu("s_bfe_i32", 0x80000000, 16 | 20 << 16) == (0xFFFF8000, 1)
    assert _salu("s_bfe_i64", 0x8000000000000000, 60 | 8 << 16) == (0xFFFFFFFFFFFFFFF8, 1)
    assert _salu("s_bfe_u32", 0x80000000, 28 | 8 << 16) == (8, 1)
    assert _valu("v_bfe_i32", [0x80000001, 4, 31]) == 0xF8000000
    assert _valu("v_bfe_i32", [0xDEADBEEF, 16, 31]) == 0xFFFFDEAD
    assert _valu("v_bfe_i32", [0x80000000, 28, 0]) == 0


def test_s_max_s_min_scc_on_equal_operands():
    """SCC = S0 >= S1 for s_max, S0 < S1 for s_min (the pseudocode's comparisons)."""
    assert _salu("s_max_u32", 5, 5) == (5, 1)
    assert _salu("s_max_i32", 0xFFFFFFFF, 0xFFFFFFFF) == (0xFFFFFFFF, 1)
    assert _salu("s_min_u32", 5, 5) == (5, 0)
    assert _salu("s_min_i32", 3, 3) == (3, 0)
    assert _salu("s_max_u32", 4, 5) == (5, 0)


FLUSH_NOIEEE = R.Mode.of(denorm_f32=0, denorm_f16_64=0, ieee=0).reg


@pytest.mark.parametrize("op", ["v_mul_f32", "v_add_f32"])
def test_output_modifiers_apply_where_the_mode_says(op):
    """mul:2, mul:4, div:2 apply with IEEE clear and output denormals flushed -- to every input,
    including a result that is denormal before the modifier scales it into the normal range --
    and are ignored in IEEE mode or when output denormals are kept (FP_DENORM bit 1)."""
    one = _f32(1.0)
    tiny = 0x00400000                                   # 2**-127: denormal
    x, y = (tiny, one) if op == "v_mul_f32" else (tiny, 0)
    in_keep = R.Mode.of(denorm_f32=1, ieee=0).reg      # denormal inputs kept, results flushed
    assert _valu(op, [x, y], mode=in_keep, omod=2) == _f32(2.0 ** -125)        # mul:4 first
    assert _valu(op, [x, y], mode=in_keep, omod=0) == 0                         # flushed
    assert _valu(op, [_f32(3.0), one if op == "v_mul_f32" else _f32(1.0)], mode=FLUSH_NOIEEE,
                 omod=3) == _f32(1.5 if op == "v_mul_f32" else 2.0)
    assert _valu(op, [_f32(3.0), one], mode=R.Mode.of().reg, omod=1) == \
        _f32(3.0 if op == "v_mul_f32" else 4.0)                                # IEEE: ignored
    out_keep = R.Mode.of(denorm_f32=2, ieee=0).reg
    assert _valu(op, [_f32(3.0), one], mode=out_keep, omod=1) == \
        _f32(3.0 if op == "v_mul_f32" else 4.0)                                # kept: ignored
    assert _valu(op, [0x80000000, 0 if op == "v_mul_f32" else 0x80000000], mode=FLUSH_NOIEEE,
                 omod=1) == 0                                                  # -0 becomes +0
    assert _valu(op, [0x7FA00000, one], mode=FLUSH_NOIEEE, omod=2) == 0x7FE00000   # NaN: quiet


def test_dx9_zero_rule_returns_s2_exactly():
    """v_fma_dx9_zero_f32 / v_fmac_dx9_zero_f32: a zero factor (even against inf or NaN) gives S2
    itself -- -0 stays -0, a NaN is not quieted -- then the float mode's output rule."""
    inf = 0x7F800000
    assert _valu("v_fma_dx9_zero_f32", [0, inf, 0x80000000]) == 0x80000000
    assert _valu("v_fma_dx9_zero_f32", [0x80000000, 0x7FC00000, 0x7FA00000]) == 0x7FA00000
    assert _valu("v_fma_dx9_zero_f32", [_f32(2.0), _f32(3.0), _f32(1.0)]) == _f32(7.0)
    den = 0x00000010
    assert _valu("v_fma_dx9_zero_f32", [0, inf, den]) == den                    # kept
    assert _valu("v_fma_dx9_zero_f32", [0, inf, den], mode=FLUSH_NOIEEE) == 0  # flushed in
    out_only = R.Mode.of(denorm_f32=1, ieee=1).reg
    assert _valu("v_fma_dx9_zero_f32", [0, inf, 0x80000010], mode=out_only) == 0x80000000
    # a denormal factor read as zero in a flushing mode is a zero factor
    assert _valu("v_fma_dx9_zero_f32", [den, inf, _f32(5.0)], mode=FLUSH_NOIEEE) == _f32(5.0)
    assert C.sim_results([C.Case("v_fmac_dx9_zero_f32", R.Mode.of().reg, [0, inf],
                                 old=0x80000000)])[0][0] == 0x80000000
    assert _valu("v_mul_dx9_zero_f32", [0x80000000, inf]) == 0


@pytest.mark.parametrize("op, nan, width", [("v_frexp_mant_f32", 0x7F800001, 32),
                                            ("v_frexp_mant_f32", 0xFFA00123, 32),
                                            ("v_frexp_mant_f64", 0x7FF0000000000001, 64),
                                            ("v_frexp_mant_f16", 0x7C01, 16)])
def test_nan_operands_passed_through_are_not_quieted(op, nan, width):
    """Pseudocode `D = S0` for NaN/inf (v_frexp_mant_*, min/max outside IEEE mode, cubesc/tc):
    the NaN comes back bit for bit; LLVM's fold quiets it (a documented disagreement)."""
    got = _valu(op, [nan], old=0xFFFF0000 if width == 16 else 0)
    assert got & ((1 << width) - 1) == nan
    if width == 32:
        assert _valu(op, [0x7F800000]) == 0x7F800000
        noieee = R.Mode.of(ieee=0).reg
        assert _valu("v_max_f32", [nan, nan], mode=noieee) == nan
        assert _valu("v_min_f32", [_f32(1.0), nan], mode=noieee) == _f32(1.0)
        assert _valu("v_max_f32", [nan, _f32(1.0)]) == nan | 0x00400000         # IEEE: quieted
        # x-major (NaN compares false) with x >= 0: D = -S2, the NaN with its sign flipped
        assert _valu("v_cubesc_f32", [_f32(1.0), _f32(0.5), nan]) == nan ^ 0x80000000


def test_min_max_take_s0_when_s1_is_nan():
    """IEEE mode: a quiet NaN S1 returns S0 (even a NaN S0), checked before a NaN S0."""
    q1, q2 = 0xFFC00000, 0x7FC12345
    assert _valu("v_min_f32", [q1, q2]) == q1
    assert _valu("v_max_f32", [q2, q1]) == q2

def test_med3_finds_the_largest_with_a_float_compare():
    """V_MED3: max3 is compared with S0 and S1 by value, so +0 and -0 are the same there and the
    result is v_max of the other two (whatever path computes it: zeros, uniform bounds, NaNs)."""
    assert _valu("v_med3_f32", [0x80000000, 0, _f32(-1.0)]) == 0
    assert _valu("v_med3_f32", [0x80000000, 0, 0x80000000]) == 0
    assert _valu("v_med3_f32", [0, 0x80000000, 0x80000000]) == 0x80000000
    assert _valu("v_med3_f32", [_f32(0.5), 0, _f32(1.0)]) == _f32(0.5)       # a clamp to [0, 1]
    assert _valu("v_med3_f32", [_f32(-2.0), 0, _f32(1.0)]) == 0
    assert _valu("v_med3_f16", [0x8000, 0, 0x8000], old=0xFFFF0000) == 0xFFFF0000


def test_partial_denormal_modes_keep_inputs_and_results_apart():
    """FP_DENORM bit 0 keeps denormal inputs, bit 1 denormal results."""
    den = 0x00000010
    in_only = R.Mode.of(denorm_f32=1).reg
    out_only = R.Mode.of(denorm_f32=2).reg
    assert _valu("v_add_f32", [den, den], mode=in_only) == 0                  # result flushed
    assert _valu("v_mul_f32", [den, _f32(2.0 ** 30)], mode=in_only) == _f32(16 * 2.0 ** -119)
    assert _valu("v_add_f32", [den, 0], mode=out_only) == 0                   # input read as 0
    assert _valu("v_mul_f32", [_f32(2.0 ** -70), _f32(2.0 ** -70)], mode=out_only) == \
        _f32(2.0 ** -140)                                                     # result kept


def test_directed_rounding_reaches_every_float_op():
    """MODE.FP_ROUND in the ops that computed in round-to-nearest before: dot products, fma_mix,
    mullit, cubema, div_fmas, cvt_nearest, ldexp overflow."""
    rz = R.Mode.of(round_f32=R.RZERO, round_f16_64=R.RZERO).reg
    up = R.Mode.of(round_f32=R.RUP, round_f16_64=R.RUP).reg
    big = 0x7F7FFFFF
    assert _valu("v_cubema_f32", [_f32(1.0), _f32(0.5), big], mode=rz) == big
    assert _valu("v_mullit_f32", [big, _f32(2.0), _f32(1.0)], mode=rz) == big
    assert _valu("v_ldexp_f32", [_f32(1.5), 1000], mode=rz) == big
    assert _valu("v_cvt_nearest_i32_f32", [_f32(-2.0 ** 31)], mode=rz) == 0x80000080
    assert C.sim_results([C.Case("v_dot2_f32_f16", up, [0x0100, 0x0100, _f32(-123.0)])])[0][0] == \
        _f32(-123.0) - 1
    assert C.sim_results([C.Case("v_fma_mix_f32", rz, [1, 3, 3])])[0][0] == 0x34400000


def test_reference_deviations_are_documented():
    """Where the simulator follows something else than the literal pseudocode, the reference
    says so and why (the checker counts the cases)."""
    assert set(R.DEVIATIONS) == {"v_div_scale_f32", "v_div_scale_f64", "v_div_fmas_f32",
                                 "v_div_fmas_f64", "v_div_fixup_f32", "v_div_fixup_f64",
                                 "v_rcp_f32", "v_rsq_f32", "v_sqrt_f32", "v_rcp_iflag_f32",
                                 "v_exp_f32", "v_log_f32"}
    assert all(len(why) > 40 for why, _ in R.DEVIATIONS.values())
