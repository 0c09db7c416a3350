"""The clang-19 validation corpus: code objects, launch cases and their numpy references.

The references are the oracle the wave simulator is judged by, so they are
checked here against independent re-implementations (Python integers,
exact rational arithmetic) before any simulator runs them.
"""
import ctypes
import importlib.util
import io
import itertools
import math
import os
import random
import re
import struct
import tempfile
from fractions import Fraction

import numpy as np
import pytest
from elftools.elf.elffile import ELFFile

from tests.clang_kernels import cases as C

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KERNEL_DIR = C.CODE_OBJECT_DIR


def _load_build_script():
    spec = importlib.util.spec_from_file_location(
        "build_clang_kernels", os.path.join(ROOT, "scripts", "build_clang_kernels.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


build = _load_build_script()
SOURCES = build.kernel_sources()
CASE_IDS = [c.name for c in C.CASES]


# ---------------------------------------------------------------------------------------------
# Code objects


def _elf(case):
    with open(case.code_object_path, "rb") as f:         # closed now, not whenever the ELFFile is collected
        return ELFFile(io.BytesIO(f.read()))


def _symbols(elf):
    return {s.name: s for s in elf.get_section_by_name(".symtab").iter_symbols()}


def _read_vaddr(elf, address, size):
    for seg in elf.iter_segments():
        if seg["p_type"] == "PT_LOAD" and seg["p_vaddr"] <= address < seg["p_vaddr"] + seg["p_filesz"]:
            return seg.data()[address - seg["p_vaddr"]:address - seg["p_vaddr"] + size]
    raise AssertionError(f"address {address:#x} is in no PT_LOAD segment")


def _kernel_descriptor(case):
    elf = _elf(case)
    kd = _symbols(elf)[case.kernel + ".kd"]
    return _read_vaddr(elf, kd["st_value"], 64)


def test_corpus_is_large_enough_and_names_are_unique():
    assert len(SOURCES) >= 14
    assert len(set(CASE_IDS)) == len(CASE_IDS)


def test_every_kernel_source_has_a_case():
    covered = {c.code_object[:-len(".hsaco")] for c in C.CASES}
    assert covered == set(SOURCES)


@pytest.mark.parametrize("case", C.CASES, ids=CASE_IDS)
def test_code_object_is_amdgpu_elf_for_gfx1100(case):
    elf = _elf(case)
    assert elf.elfclass == 64 and elf.little_endian
    assert elf.header["e_machine"] in ("EM_AMDGPU", 224)
    # EI_OSABI 64 is ELFOSABI_AMDGPU_HSA (pyelftools names it after ARM, which shares the value)
    osabi = elf.header["e_ident"]["EI_OSABI"]
    assert osabi in (64, "ELFOSABI_AMDGPU_HSA", "ELFOSABI_ARM_AEABI")
    assert elf.header["e_ident"]["EI_ABIVERSION"] == 3          # code object v5
    assert elf.header["e_flags"] & 0xFF == 0x41                  # EF_AMDGPU_MACH_AMDGCN_GFX1100
    symbols = _symbols(elf)
    kd, code = symbols[case.kernel + ".kd"], symbols[case.kernel]
    assert kd["st_info"]["type"] == "STT_OBJECT" and kd["st_size"] == 64 and kd["st_value"] % 64 == 0
    assert code["st_info"]["type"] == "STT_FUNC" and code["st_value"] % 256 == 0
    entry_offset = struct.unpack_from("<q", _kernel_descriptor(case), 0x10)[0]
    assert kd["st_value"] + entry_offset == code["st_value"]


# A small MessagePack reader for the NT_AMDGPU_METADATA note (the subset the note uses).
def _msgpack(data, i=0):
    b = data[i]
    if b <= 0x7F:
        return b, i + 1
    if b >= 0xE0:
        return b - 0x100, i + 1
    if 0x80 <= b <= 0x8F or b in (0xDE, 0xDF):
        n, i = (b & 0x0F, i + 1) if b <= 0x8F else \
            (struct.unpack_from(">H" if b == 0xDE else ">I", data, i + 1)[0], i + (3 if b == 0xDE else 5))
        out = {}
        for _ in range(n):
            k, i = _msgpack(data, i)
            out[k], i = _msgpack(data, i)
        return out, i
    if 0x90 <= b <= 0x9F or b in (0xDC, 0xDD):
        n, i = (b & 0x0F, i + 1) if b <= 0x9F else \
            (struct.unpack_from(">H" if b == 0xDC else ">I", data, i + 1)[0], i + (3 if b == 0xDC else 5))
        out = []
        for _ in range(n):
            v, i = _msgpack(data, i)
            out.append(v)
        return out, i
    if 0xA0 <= b <= 0xBF or b in (0xD9, 0xDA, 0xDB):
        if b <= 0xBF:
            n, i = b & 0x1F, i + 1
        else:
            width = {0xD9: 1, 0xDA: 2, 0xDB: 4}[b]
            n, i = int.from_bytes(data[i + 1:i + 1 + width], "big"), i + 1 + width
        return data[i:i + n].decode(), i + n
    fixed = {0xC2: (False, 0), 0xC3: (True, 0), 0xC0: (None, 0)}
    if b in fixed:
        return fixed[b][0], i + 1
    formats = {0xCC: ">B", 0xCD: ">H", 0xCE: ">I", 0xCF: ">Q", 0xD0: ">b", 0xD1: ">h", 0xD2: ">i",
               0xD3: ">q", 0xCA: ">f", 0xCB: ">d"}
    fmt = formats[b]
    return struct.unpack_from(fmt, data, i + 1)[0], i + 1 + struct.calcsize(fmt)


def _kernel_metadata(case):
    for section in _elf(case).iter_sections():
        if section["sh_type"] == "SHT_NOTE":
            for note in section.iter_notes():
                if note["n_name"] == "AMDGPU" and note["n_type"] == 32:
                    meta, _ = _msgpack(bytes(note["n_desc"]))
                    return {k[".name"]: k for k in meta["amdhsa.kernels"]}[case.kernel]
    raise AssertionError("no NT_AMDGPU_METADATA note")


@pytest.mark.parametrize("case", C.CASES, ids=CASE_IDS)
def test_case_arguments_match_the_kernel_argument_metadata(case):
    meta = _kernel_metadata(case)
    explicit = [a for a in meta[".args"] if not a[".value_kind"].startswith("hidden_")]
    args = case.make_args()
    assert len(explicit) == len(args) == len(case.arg_names)
    for spec, arg, name in zip(explicit, args, case.arg_names):
        if spec[".value_kind"] == "global_buffer":
            assert isinstance(arg, np.ndarray) and arg.flags.c_contiguous, name
            assert spec[".size"] == 8, name
        else:
            assert spec[".value_kind"] == "by_value", name
            assert isinstance(arg, np.generic) and arg.nbytes == spec[".size"], name
    assert meta[".wavefront_size"] == C.WAVE_SIZE
    assert int(np.prod(case.block)) <= meta[".max_flat_workgroup_size"]
    assert case.work_items <= 65536


def test_kernels_that_need_scratch_and_lds_declare_them():
    by_name = C.CASES_BY_NAME
    private = struct.unpack_from("<I", _kernel_descriptor(by_name["scratch_array"]), 4)[0]
    assert private >= 96 * 4
    for name in ("lds_reduce", "matmul_tiled", "lds_scan", "lds_histogram", "softmax_rows"):
        assert struct.unpack_from("<I", _kernel_descriptor(by_name[name]), 0)[0] > 0, name


def _disassembly(name):
    with open(os.path.join(KERNEL_DIR, name + ".s.txt")) as f:
        return f.read()


# What each kernel is there to exercise, as instructions its disassembly must contain.
EXERCISES = {
    "f32_elementwise": ["v_fma_f32", "v_min_f32_e32", "v_max_f32_e32", "v_floor_f32_e32",
                        "v_ceil_f32_e32", "v_cvt_f32_u32_e32", "v_cvt_i32_f32_e32", "v_cmpx_gt_u32_e64"],
    "lds_reduce": ["s_barrier", "ds_store_b32", "ds_load_b32"],
    "global_atomics": ["global_atomic_add_u32", "global_atomic_max_i32", "global_atomic_cmpswap_b32"],
    "matmul_tiled": ["s_barrier", "ds_load_2addr_b32", "v_fmac_f32_e32"],
    "transcendental": ["v_sin_f32_e32", "v_cos_f32_e32", "v_exp_f32_e32", "v_log_f32_e32",
                       "v_rsq_f32_e32", "v_rcp_f32_e32", "v_sqrt_f32_e32", "v_fract_f32_e32"],
    "half2_math": ["v_pk_add_f16", "v_pk_mul_f16", "v_pk_fma_f16", "v_cvt_f32_f16_e32"],
    "int64_math": ["v_add_co_ci_u32_e32", "v_mad_u64_u32", "v_lshlrev_b64", "v_ashrrev_i64",
                   "v_cmp_lt_i64_e32"],
    "int_divmod": ["v_rcp_iflag_f32_e32", "v_mul_hi_u32", "v_sub_co_ci_u32_e64"],
    "divergent_loops": ["s_cbranch_execz", "s_and_saveexec_b32"],
    "scratch_array": ["scratch_store_b32", "scratch_load_b32"],
    "bytes_shorts": ["global_load_i8", "global_load_u8", "global_load_i16", "global_load_u16",
                     "global_store_b8", "global_store_b16"],
    "lds_scan": ["s_barrier", "ds_store_b32"],
    "select_ternary": ["v_cndmask_b32_e64"],
    "lds_histogram": ["ds_add_u32", "global_atomic_add_u32"],
    "bit_ops": ["v_bcnt_u32_b32", "v_bfrev_b32_e32", "v_perm_b32", "v_alignbit_b32"],
    "wave_ops": ["ds_bpermute_b32", "v_readfirstlane_b32", "v_mbcnt_lo_u32_b32"],
    "f64_math": ["v_div_scale_f64", "v_div_fmas_f64", "v_div_fixup_f64", "v_rsq_f64_e32"],
    "elementwise_chain": ["v_fma_f32", "v_fmamk_f32", "v_mul_f32_e32", "v_add_f32_e32", "v_med3_f32"],
    "softmax_rows": ["v_exp_f32_e32", "v_rcp_f32_e32", "ds_load_2addr_b32", "s_barrier"],
}


@pytest.mark.parametrize("name", sorted(EXERCISES))
def test_kernel_exercises_what_it_is_for(name):
    used = build.mnemonics(_disassembly(name))
    assert set(EXERCISES[name]) <= used, set(EXERCISES[name]) - used


def test_mnemonic_list_matches_the_committed_disassembly():
    uses = {name: build.mnemonics(_disassembly(name)) for name in SOURCES}
    with open(os.path.join(KERNEL_DIR, "MNEMONICS.txt")) as f:
        assert f.read() == build.mnemonic_table(uses)


def test_disassembly_names_its_code_object():
    for name in SOURCES:
        text = _disassembly(name)
        assert f"{name}.hsaco:\tfile format elf64-amdgpu" in text
        assert re.search(rf"^[0-9a-f]+ <{name}>:$", text, re.M)


ORACLE = pytest.mark.skipif(bool(build.missing_tools()),
                            reason="clang-19 / ld.lld-19 / llvm-objdump-19 not installed")


@ORACLE
@pytest.mark.parametrize("name", SOURCES)
def test_rebuild_from_source_reproduces_committed_bytes(name):
    with tempfile.TemporaryDirectory() as tmp:
        fresh = build.build_kernel(name, tmp)
        with open(fresh, "rb") as f, open(os.path.join(KERNEL_DIR, name + ".hsaco"), "rb") as g:
            assert f.read() == g.read(), f"{name}.hsaco is stale: run scripts/build_clang_kernels.py"
        assert build.disassemble(fresh).replace(tmp, "") == _disassembly(name)


# ---------------------------------------------------------------------------------------------
# Exact rounding by rational arithmetic, independent of numpy


def round_to_binary(q, mantissa_bits, min_exponent, max_exponent):
    """Round a Fraction to the nearest binary float (ties to even), as a Python float."""
    if q == 0:
        return 0.0
    sign, q = (-1.0 if q < 0 else 1.0), abs(q)
    e = q.numerator.bit_length() - q.denominator.bit_length()
    if Fraction(2) ** e > q:
        e -= 1
    e = max(e, min_exponent)                        # below: subnormal spacing
    ulp = Fraction(2) ** (e - mantissa_bits + 1)
    n = round(q / ulp)                              # Fraction rounding is half-to-even
    value = n * ulp
    if value >= Fraction(2) ** (max_exponent + 1):
        return sign * math.inf
    return sign * float(value)


def round_f32(q):
    return round_to_binary(q, 24, -126, 127)


def round_f16(q):
    return round_to_binary(q, 11, -14, 15)


def _hard_fma_inputs(rng, dtype, count):
    """Triples where a*b+c lands near ties and cancels: the cases double rounding gets wrong."""
    out = []
    for _ in range(count):
        a, b = (dtype(rng.standard_normal() * 4) for _ in range(2))
        p = float(a) * float(b)
        c = dtype(-p) if rng.random() < 0.5 else dtype(p * rng.choice([1e-8, 1e-4, 3.0]))
        if rng.random() < 0.3:
            c = np.nextafter(c, dtype(np.inf) * rng.choice([-1, 1])).astype(dtype)
        out.append((a, b, c))
    return out


@pytest.mark.parametrize("dtype, rounder", [(np.float32, round_f32), (np.float16, round_f16)])
def test_fma_rounded_is_a_single_rounding(dtype, rounder):
    rng = np.random.default_rng(100)
    triples = _hard_fma_inputs(rng, dtype, 3000)
    # exact ties of a 24-bit product: (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24 needs 25 bits
    if dtype is np.float32:
        x = np.float32(1 + 2 ** -12)
        triples += [(x, x, np.float32(0)), (x, x, np.float32(2 ** -50)), (x, -x, np.float32(-2 ** -50)),
                    (np.float32(3e38), np.float32(3.0), np.float32(-1e38)),
                    (np.float32(1e-30), np.float32(1e-15), np.float32(1e-44))]
    a, b, c = (np.array(col, dtype) for col in zip(*triples))
    got = C.fma_rounded(a, b, c, dtype)
    for k in range(len(a)):
        exact = Fraction(float(a[k])) * Fraction(float(b[k])) + Fraction(float(c[k]))
        assert float(got[k]) == rounder(exact) or (got[k] == 0 and rounder(exact) == 0), \
            (a[k], b[k], c[k], got[k], rounder(exact))


def test_float32_double_rounding_would_be_caught():
    # the reason fma_rounded exists: rounding a*b+c to f64 first, then f32, errs on this input
    a, b = np.float32(1 + 2 ** -12), np.float32(1 + 2 ** -12)
    c = np.float32(2 ** -60)
    naive = np.float32(float(a) * float(b) + float(c))
    exact = round_f32(Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c)))
    assert C.fma_rounded(a, b, c, np.float32) == exact
    assert naive != exact


def test_mismatch_counts_ulps_and_nans():
    want = np.array([1.0, np.nan, -0.0, 3.0], np.float32)
    got = np.array([np.nextafter(np.float32(1), np.float32(2)), np.nan, 0.0, 3.0], np.float32)
    assert C.mismatches(got, C.Expect(want)).tolist() == [True, False, True, False]
    assert C.mismatches(got, C.Expect(want, ulp=1)).tolist() == [False, False, False, False]
    assert C.mismatches(np.array([np.nan], np.float32), C.Expect(np.array([1.0], np.float32), ulp=9)).all()


# ---------------------------------------------------------------------------------------------
# Each reference against an independent re-implementation


def _args_and_expected(name):
    case = C.CASES_BY_NAME[name]
    args = case.make_args()
    expected = {i: (e.values if isinstance(e, C.Expect) else np.asarray(e))
                for i, e in case.reference([a.copy() for a in args]).items()}
    return args, expected


def _c_div(a, b):
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def test_int_divmod_reference_matches_c_truncation():
    args, exp = _args_and_expected("int_divmod")
    q32, q64 = exp[4].reshape(-1, 4), exp[5].reshape(-1, 4)
    for k, (x, y, X, Y) in enumerate(zip(*(a.tolist() for a in args[:4]))):
        q, Q = _c_div(x, y), _c_div(X, Y)
        assert q32[k].tolist() == [q, x - q * y, (x % 2 ** 32) // (y % 2 ** 32),
                                   (x % 2 ** 32) % (y % 2 ** 32) - (2 ** 32 if (x % 2 ** 32) % (y % 2 ** 32) >= 2 ** 31 else 0)]
        assert q64[k].tolist() == [Q % 2 ** 64, (X - Q * Y) % 2 ** 64, (X % 2 ** 64) // (Y % 2 ** 64),
                                   (X % 2 ** 64) % (Y % 2 ** 64)]
    assert q32[0].tolist() == [-3, -1, (2 ** 32 - 7) // 2, 1]          # -7 / 2 truncates


def test_int64_reference_matches_python_integers():
    args, exp = _args_and_expected("int64_math")
    out, M = exp[2].reshape(-1, 12), 2 ** 64

    def signed(v):
        return v - M if v >= 2 ** 63 else v

    for k, (x, y) in enumerate(zip(args[0].tolist(), args[1].tolist())):
        s = y & 63
        r = s | 1
        low = x & 0xFFFFFFFF
        low_signed = low - 2 ** 32 if low >= 2 ** 31 else low
        want = [(x + y) % M, (x - y) % M, x * y % M, low * (y >> 32), (x << s) % M, x >> s,
                (signed(x) >> s) % M,
                (x < y) | ((signed(x) < signed(y)) << 1) | ((x == y) << 2),
                max(x, y), x if signed(x) < signed(y) else y,
                ((x << r) | (x >> (64 - r))) % M,
                (low_signed * C.GOLDEN64 + (y ^ (y >> 29))) % M]
        assert out[k].tolist() == want, k


def test_matmul_reference_is_close_to_float64_and_exact_per_step():
    args, exp = _args_and_expected("matmul_tiled")
    a, b, alpha = args[0], args[1], float(args[6])
    np.testing.assert_allclose(exp[2], alpha * (a.astype(np.float64) @ b), rtol=1e-4, atol=1e-4)
    for i, j in [(0, 0), (17, 5), (47, 31)]:
        acc = 0.0
        for k in range(a.shape[1]):
            acc = round_f32(Fraction(float(a[i, k])) * Fraction(float(b[k, j])) + Fraction(acc))
        assert exp[2][i, j] == round_f32(Fraction(acc) * Fraction(alpha))


def test_lds_reduce_reference_is_close_to_exact_sum():
    args, exp = _args_and_expected("lds_reduce")
    for g, block in enumerate(args[0].reshape(-1, 256)):
        assert math.isclose(exp[1][g], math.fsum(block.tolist()), rel_tol=1e-5, abs_tol=1e-2)


def test_f32_elementwise_reference_against_python():
    args, exp = _args_and_expected("f32_elementwise")
    out, iout = exp[3].reshape(-1, 12), exp[4].reshape(-1, 2)
    for k, (x, y, z) in enumerate(zip(*(v.tolist() for v in args[:3]))):
        if not (math.isfinite(x) and math.isfinite(y) and abs(x * y) < 3e38):
            continue
        fx, fy, fz = Fraction(x), Fraction(y), Fraction(z)
        assert out[k, 0] == np.float32(round_f32(Fraction(round_f32(fx * fy)) + fz))
        assert out[k, 1] == np.float32(round_f32(fx * fy + fz))
        assert out[k, 2] == min(x, y) and out[k, 3] == max(x, y)
        assert out[k, 5] == math.floor(x) and out[k, 6] == math.ceil(x) and out[k, 7] == math.trunc(x)
        assert out[k, 8] == round(x)                              # Python rounds half to even
        assert iout[k].tolist() == [math.trunc(z), math.trunc(z * 8)]
        assert out[k, 11] == round_f32(Fraction(struct.unpack("<I", struct.pack("<f", y))[0]))
    assert math.isnan(out[0, 2]) is False and out[0, 2] == args[1][0]      # fmin(NaN, y) = y
    assert str(out[4, 6]) == "-0.0"                                        # ceil(-denormal) = -0


def test_transcendental_reference_against_math():
    args, exp = _args_and_expected("transcendental")
    out = exp[4].reshape(-1, 10)
    for k, (t, e, p, d) in enumerate(zip(*(v.tolist() for v in args[:4]))):
        assert abs(out[k, 0] - math.sin(2 * math.pi * t)) < 1e-7
        assert abs(out[k, 1] - math.cos(2 * math.pi * t)) < 1e-7
        assert out[k, 2] == np.float32(2.0 ** e) and out[k, 3] == np.float32(math.log2(p))
        assert out[k, 7] == round_f32(Fraction(math.sqrt(p)))
        assert out[k, 8] == round_f32(Fraction(p) / Fraction(d))
        x = Fraction(round_f32(Fraction(e) * Fraction(13, 4)))
        assert out[k, 9] == float(x - math.floor(x))              # exact fract, below 1
        assert 0 <= out[k, 9] < 1


def test_half2_reference_against_rational_rounding():
    args, exp = _args_and_expected("half2_math")
    out, fout = exp[3].reshape(-1, 5, 2), exp[4].reshape(-1, 2)
    for k in range(len(args[0])):
        for lane in range(2):
            x, y, z = (Fraction(float(v[k, lane])) for v in args[:3])
            assert out[k, 0, lane] == round_f16(x + y)
            assert out[k, 1, lane] == round_f16(x * y)
            assert out[k, 2, lane] == round_f16(x * y + z)
            assert out[k, 4, lane] == max(round_f16(x - z), float(y))
        assert fout[k, 1] == round_f16(Fraction(float(args[2][k, 0])) * Fraction(3, 2))
    assert out[0, 1].tolist() == [math.inf, -math.inf]


def test_f64_reference_against_exact_rationals():
    args, exp = _args_and_expected("f64_math")
    out = exp[3].reshape(-1, 7)
    for k, (x, y) in enumerate(zip(args[0].tolist(), args[1].tolist())):
        try:
            quotient = float(Fraction(x) / Fraction(y))          # int / int rounds correctly
        except OverflowError:
            quotient = math.copysign(math.inf, x / abs(x) * y)
        assert out[k, 2] == quotient
        assert out[k, 3] == math.sqrt(abs(x))
        assert out[k, 0] == x + y
    assert out[6, 5] != 0 and abs(out[6, 5]) < 2 ** -126        # a kept f32 denormal


def test_divergent_loops_reference_against_scalar_python():
    args, exp = _args_and_expected("divergent_loops")
    for k, x in enumerate(args[0].tolist()):
        v, n, top = x, 0, x
        while v != 1 and n < 500:
            v = 3 * v + 1 if v & 1 else v // 2
            top, n = max(top, v), n + 1
        assert (exp[1][k], exp[2][k]) == (n, top)
        k15 = 15 if x % 15 == 0 else 3 if x % 3 == 0 else 5 if x % 5 == 0 else \
            (7 if x % 7 == 0 else 1) if x & 1 else 2
        assert exp[3][k] == k15
        total = 0
        for ch in reversed(str(x)):
            if ch == "9":
                break
            total += int(ch) ** 2
        assert exp[4][k] == total
    assert exp[1][args[0].tolist().index(871)] == 178


def test_grid3d_and_hidden_args_references_against_loops():
    _, exp = _args_and_expected("grid3d")
    (gx, gy, gz), (bx, by, bz) = C.GRID3D_GRID, C.GRID3D_BLOCK
    W, H = gx * bx, gy * by
    for g in itertools.product(range(gx), range(gy), range(gz)):
        for l in itertools.product(range(bx), range(by), range(bz)):
            X, Y, Z = (g[d] * (bx, by, bz)[d] + l[d] for d in range(3))
            flat = (Z * H + Y) * W + X
            assert exp[0][flat] == X + 1024 * Y + 1024 * 1024 * Z
            assert exp[1][flat] == l[0] + 16 * l[1] + 256 * l[2] + 4096 * g[0] + 65536 * g[1] + 2 ** 20 * g[2]
    _, exp = _args_and_expected("hidden_args")
    assert exp[0][:20].tolist() == [2, 3, 2, 4, 2, 2, 0, 0, 0, 0, 0, 0, 4, 2, 2, 8, 6, 4, 3, 3]


def test_bytes_shorts_reference_against_ctypes_casts():
    args, exp = _args_and_expected("bytes_shorts")
    o16, o8 = exp[4].reshape(-1, 3), exp[5].reshape(-1, 3)
    n = len(args[0])
    for k in range(n):
        a, b, c, d = (int(v[k]) for v in args[:4])
        e = int(args[2][k ^ 1])
        assert o16[k].tolist() == [ctypes.c_short(a * 3 + c).value, 0x5A5A,
                                   ctypes.c_short((d >> 3) ^ b).value]
        assert o8[k].tolist() == [ctypes.c_ubyte(a + b).value, ctypes.c_ubyte(c >> 4).value,
                                  ctypes.c_ubyte(a if b > 127 else d).value]
        assert exp[6][k] == a * c + b * d + e * 257


def test_scan_histogram_atomics_references():
    args, exp = _args_and_expected("lds_scan")
    for g, block in enumerate(args[0].reshape(-1, 128).tolist()):
        want = [v % 2 ** 32 for v in itertools.accumulate(block)]
        assert exp[1].reshape(-1, 128)[g].tolist() == want and exp[2][g] == want[-1]
    args, exp = _args_and_expected("lds_histogram")
    counts = [0] * 64
    for v in args[0].tolist():
        counts[v % 64] += 1
    assert exp[1].tolist() == counts and counts[7] >= 64
    args, exp = _args_and_expected("global_atomics")
    xs = args[0].tolist()
    assert exp[1][0] == ctypes.c_int32(sum(xs)).value and exp[2][0] == max(xs)
    assert exp[3][0] == min(v % 2 ** 32 for v in xs)
    prod = 1
    for v in xs:
        prod = prod * (2 * (v % 2 ** 32) + 1) % 2 ** 32
    assert exp[5][0] == prod
    acc = 0xFFFFFFFF
    for i, v in enumerate(xs):
        acc &= (~(1 << (i & 31)) | (v & 1)) & 0xFFFFFFFF
    assert exp[4][2] == acc


def test_bit_ops_reference_against_string_formatting():
    args, exp = _args_and_expected("bit_ops")
    out = exp[2].reshape(-1, 10)
    for k, (x, y) in enumerate(zip(args[0].tolist(), args[1].tolist())):
        bits = format(x, "032b")
        signed = ctypes.c_int32(x << 3).value
        assert out[k].tolist() == [
            bits.count("1"), len(bits) - len(bits.lstrip("0")), len(bits) - len(bits.rstrip("0")),
            int(bits[::-1], 2), int.from_bytes(x.to_bytes(4, "little"), "big"),
            ((x << 7) | (x >> 25)) & 0xFFFFFFFF, (x >> 5) & 0x7FF, (signed >> 20) % 2 ** 32,
            format(y, "b").count("1"), 64 - y.bit_length()]


def test_select_and_wave_references_against_python():
    args, exp = _args_and_expected("select_ternary")
    io = exp[3].reshape(-1, 4)
    for k, (x, y) in enumerate(zip(args[0].tolist(), args[1].tolist())):
        want = [max(-100, min(100, x)), (x > 0) - (x < 0), abs(x - y),
                (x if y & 2 else y) if x & 1 else (7 if x == y else -7)]
        assert io[k].tolist() == want
    args, exp = _args_and_expected("wave_ops")
    out = exp[1].reshape(-1, 5)
    x = args[0].tolist()
    for i in range(len(x)):
        w, lane = i // 32, i % 32
        wave = x[32 * w:32 * w + 32]
        odd = [j for j in range(32) if wave[j] & 1]
        assert out[i].tolist() == [
            lane, sum(1 << j for j in range(32) if wave[j] % 4 == 0), wave[(lane * 7) % 32], wave[0],
            (wave[odd[0]] ^ odd[0]) if x[i] & 1 else 0]
    assert not out.reshape(-1, 32, 5)[1, :, 4].any()       # the wave with no odd value


def test_scratch_reference_is_deterministic_and_nontrivial():
    _, first = _args_and_expected("scratch_array")
    _, second = _args_and_expected("scratch_array")
    assert (first[2] == second[2]).all() and len(set(first[2].tolist())) == len(first[2])


# ---------------------------------------------------------------------------------------------
# run_case with stand-in simulators


def perfect_simulate(case):
    def simulate(code, kernel, grid, block, args):
        assert code[:4] == b"\x7fELF" and kernel == case.kernel
        assert grid == case.grid and block == case.block
        C.reference_outputs(case, args)
    return simulate


@pytest.mark.parametrize("case", C.CASES, ids=CASE_IDS)
def test_run_case_accepts_the_reference_answer(case):
    C.run_case(case, perfect_simulate(case))


def test_run_case_reports_the_first_wrong_element():
    case = C.CASES_BY_NAME["int_divmod"]

    def off_by_one(code, kernel, grid, block, args):
        perfect_simulate(case)(code, kernel, grid, block, args)
        args[4][37] += 1
        args[4][90] += 1

    with pytest.raises(AssertionError) as err:
        C.run_case(case, off_by_one)
    message = str(err.value)
    assert "int_divmod: output argument 4 (q32) differs at index (37,)" in message
    assert "2 of 1280 elements differ" in message and "[exact]" in message
    assert re.search(r"got -?\d+, expected -?\d+", message)


def test_run_case_applies_float_tolerances():
    case = C.CASES_BY_NAME["transcendental"]

    def nudged(steps):
        def simulate(code, kernel, grid, block, args):
            C.reference_outputs(case, args)
            out = args[4].reshape(-1, 10)
            out[3, 2] = np.nextafter(out[3, 2], np.float32(np.inf))   # exp2: 1 ulp allowed
            for _ in range(steps):
                out[5, 8] = np.nextafter(out[5, 8], np.float32(np.inf))  # division: 3 allowed
        return simulate

    C.run_case(case, nudged(3))
    with pytest.raises(AssertionError, match=r"argument 4 \(out\) differs at index \(58,\).*"
                                             r"tolerance 3 ulp.*2\.5 ulp"):
        C.run_case(case, nudged(4))


def test_run_case_rejects_a_modified_input_and_a_missing_output():
    case = C.CASES_BY_NAME["lds_reduce"]

    def scribbles(code, kernel, grid, block, args):
        C.reference_outputs(case, args)
        args[0][5] = 0.0

    with pytest.raises(AssertionError, match=r"input \(must stay unchanged\) argument 0 \(x\)"):
        C.run_case(case, scribbles)
    with pytest.raises(AssertionError, match=r"output argument 1 \(partial\) differs at index \(0,\)"):
        C.run_case(case, lambda *launch: None)


def test_run_case_checks_unordered_outputs_as_multisets():
    case = C.CASES_BY_NAME["global_atomics"]

    def shuffled(code, kernel, grid, block, args):
        C.reference_outputs(case, args)
        random.Random(1).shuffle(args[6])

    C.run_case(case, shuffled)

    def duplicate_ticket(code, kernel, grid, block, args):
        C.reference_outputs(case, args)
        args[6][3] = args[6][4]

    with pytest.raises(AssertionError, match="expected multiset"):
        C.run_case(case, duplicate_ticket)
