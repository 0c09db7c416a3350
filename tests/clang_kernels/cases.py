"""Launch descriptions and numpy references for the clang-19 validation kernels.

Every Case names a kernel in a committed code object, its launch shape (grid in
WORKGROUPS, as in CUDA; block = workgroup shape), a builder for its arguments
(numpy arrays for global buffers, numpy scalars for by-value arguments, whose
`.tobytes()` are the kernarg bytes) and a reference computing the expected
contents of the buffers the kernel writes.

`run_case(case, simulate)` runs one case through any callable with the
signature simulate(code_object_bytes, kernel_name, grid, block, args), which
writes results back into the arrays in place, and raises AssertionError naming
the output, the first mismatching index, the value found and the value expected.

Tolerances. Integer results, f32/f16/f64 add, sub, mul, fma, min, max,
conversions, floor/ceil/trunc/rint, ldexp and fract are exact (bit for bit,
any NaN matches any NaN). Where clang uses a hardware approximation, the bound
and its source are stated on the Expect:
* v_exp_f32 / v_log_f32: 1 ULP ("Hardware provides 1ULP accuracy for float",
  LLVM AMDGPUUsage.rst, rows llvm.exp2 and llvm.log2).
* v_rcp_f32 / v_rsq_f32 / v_sqrt_f32: 1 ULP, the accuracy AMD's ISA reference
  guides give for the f32 transcendental unit (LLVM-side evidence: a bare
  v_rcp_f32 passes OpenCL conformance for the 2.5-ULP 1/x, reviews.llvm.org/D47805).
* v_sin_f32 / v_cos_f32: AMD publishes a valid input domain ([-256, 256]
  revolutions) but no error bound; absolute error 2**-18 is accepted, tight
  enough to catch a radians/revolutions mix-up or a lost sign.
* OpenCL f32 division as clang expands it by default (frexp, v_rcp_f32, mul,
  ldexp): 2.5 ULP (OpenCL C 2.0 specification, section 7.4, "x / y"), i.e. at
  most 3 representable steps from the correctly rounded quotient.
Correctly rounded expansions (f64 division and square root) are exact.
"""
import copy
import os
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

CODE_OBJECT_DIR = os.path.dirname(os.path.abspath(__file__))

WAVE_SIZE = 32  # every kernel here is compiled wave32 (gfx1100 default)


@dataclass(frozen=True)
class Expect:
    """Expected contents of one output buffer and how closely it must match."""
    values: np.ndarray
    ulp: object = 0           # floats: allowed distance in representable steps
    abs_tol: object = 0.0     # floats: allowed absolute error (either bound suffices);
                              # both may be arrays, one bound per element
    unordered: bool = False   # compare as multisets: placement depends on arrival order
    source: str = ""          # where the tolerance comes from


@dataclass(frozen=True)
class Case:
    name: str
    kernel: str
    code_object: str                      # file name inside tests/clang_kernels
    grid: tuple                           # workgroups in x, y, z
    block: tuple                          # work-items per workgroup in x, y, z
    arg_names: tuple                      # for messages, one per explicit argument
    make_args: Callable[[], list]
    reference: Callable[[list], dict]     # pristine args -> {arg index: Expect | ndarray}
    notes: str = field(default="")

    @property
    def code_object_path(self):
        return os.path.join(CODE_OBJECT_DIR, self.code_object)

    def code_object_bytes(self):
        with open(self.code_object_path, "rb") as f:
            return f.read()

    @property
    def work_items(self):
        return int(np.prod(self.grid) * np.prod(self.block))


# ---------------------------------------------------------------------------------------------
# Exact floating-point helpers


def fma_rounded(a, b, c, dtype):
    """a*b + c rounded once to dtype (float16 or float32), like v_fma_f32 / v_pk_fma_f16.

    The product of two f32 (or f16) values is exact in float64. The sum is made
    exact with an error-free TwoSum, then rounded to float64 with round-to-odd
    (53 bits >= 24 + 2), so the final rounding to dtype is the only one that counts.
    """
    a64, b64, c64 = (np.asarray(v, dtype).astype(np.float64) for v in (a, b, c))
    with np.errstate(invalid="ignore", over="ignore"):
        p = a64 * b64
        s = p + c64
        b_virtual = s - c64
        err = (p - b_virtual) + (c64 - (s - b_virtual))
        bits = s.view(np.uint64)
        make_odd = np.isfinite(s) & np.isfinite(err) & (err != 0) & ((bits & 1) == 0)
        toward = np.where(err > 0, np.inf, -np.inf)
        s = np.where(make_odd, np.nextafter(s, toward), s)
        return s.astype(dtype)


def _ordered(x):
    """Map floats to integers whose difference counts representable steps (-0 == +0)."""
    ints = {2: np.int16, 4: np.int32, 8: np.int64}[x.dtype.itemsize]
    i = x.view(ints).astype(np.int64) if x.dtype.itemsize < 8 else x.view(np.int64)
    low = np.iinfo(ints).min
    return np.where(i < 0, low - i, i)


def _float_bits(x):
    return x.view({2: np.uint16, 4: np.uint32, 8: np.uint64}[x.dtype.itemsize])


def mismatches(got, expect):
    """Boolean mask of the elements of got that do not meet expect."""
    want = np.asarray(expect.values)
    got = np.asarray(got)
    if expect.unordered:
        got, want = np.sort(got, axis=None), np.sort(want, axis=None)
    if got.dtype.kind != "f":
        return got != want
    both_nan = np.isnan(got) & np.isnan(want)
    ulp, abs_tol = np.asarray(expect.ulp), np.asarray(expect.abs_tol)
    exact = (ulp == 0) & (abs_tol == 0)
    with np.errstate(invalid="ignore", over="ignore"):
        steps = np.abs(_ordered(got) - _ordered(want))
        close = (steps <= ulp) | (np.abs(got.astype(np.float64) - want) <= abs_tol)
    close &= np.isnan(got) == np.isnan(want)
    return ~(both_nan | np.where(exact, _float_bits(got) == _float_bits(want), close))


# ---------------------------------------------------------------------------------------------
# Running a case


def _describe(value):
    value = np.asarray(value)
    if value.dtype.kind == "f":
        return f"{value.item()!r} (0x{int(_float_bits(value.reshape(1))[0]):0{value.itemsize * 2}x})"
    return repr(value.item())


def _shaped(tolerance, want):
    """A per-element tolerance array laid out like the buffer (scalars pass through)."""
    return np.reshape(tolerance, want.shape) if np.ndim(tolerance) else tolerance


def check_outputs(case, pristine, after):
    """Compare the arrays after a launch with the reference; raise AssertionError on mismatch."""
    expected = {i: e if isinstance(e, Expect) else Expect(np.asarray(e))
                for i, e in case.reference(copy.deepcopy(pristine)).items()}
    for i, (before, now) in enumerate(zip(pristine, after)):
        if not isinstance(before, np.ndarray):
            continue
        name = case.arg_names[i]
        if now.shape != before.shape or now.dtype != before.dtype:
            raise AssertionError(f"{case.name}: argument {i} ({name}) changed shape or dtype: "
                                 f"{now.dtype}{now.shape}, was {before.dtype}{before.shape}")
        expect = expected.get(i, Expect(before))
        role = "output" if i in expected else "input (must stay unchanged)"
        want = np.asarray(expect.values).reshape(before.shape)
        bad = mismatches(now, Expect(want, _shaped(expect.ulp, want), _shaped(expect.abs_tol, want),
                                     expect.unordered, expect.source))
        if not bad.any():
            continue
        if expect.unordered:
            raise AssertionError(
                f"{case.name}: {role} argument {i} ({name}) does not hold the expected multiset of "
                f"values: {int(bad.sum())} of {bad.size} sorted elements differ; sorted got "
                f"{np.sort(now, axis=None)[:8]}..., expected {np.sort(want, axis=None)[:8]}...")
        first = tuple(int(k) for k in np.argwhere(bad)[0])
        ulp = _shaped(expect.ulp, want)[first] if np.ndim(expect.ulp) else expect.ulp
        abs_tol = _shaped(expect.abs_tol, want)[first] if np.ndim(expect.abs_tol) else expect.abs_tol
        tolerance = "exact" if ulp == 0 and abs_tol == 0 else \
            f"tolerance {int(ulp)} ulp or abs {float(abs_tol):g}" + \
            (f"; {expect.source}" if expect.source else "")
        raise AssertionError(
            f"{case.name}: {role} argument {i} ({name}) differs at index {first} "
            f"(flat {int(np.ravel_multi_index(first, bad.shape))}): got {_describe(now[first])}, "
            f"expected {_describe(want[first])}; {int(bad.sum())} of {bad.size} elements differ "
            f"[{tolerance}]")


def run_case(case, simulate):
    """Run case through simulate(code_object_bytes, kernel_name, grid, block, args) and check it."""
    args = case.make_args()
    pristine = copy.deepcopy(args)
    simulate(case.code_object_bytes(), case.kernel, case.grid, case.block, args)
    check_outputs(case, pristine, args)


def reference_outputs(case, args):
    """Apply the reference to args in place, the way a perfect device would (for tests)."""
    for i, e in case.reference(copy.deepcopy(args)).items():
        values = e.values if isinstance(e, Expect) else e
        args[i][...] = np.asarray(values).reshape(args[i].shape)


# ---------------------------------------------------------------------------------------------
# Argument builders and references, one block per kernel

F32, F16, F64 = np.float32, np.float16, np.float64
U8, I8, U16, I16, U32, I32, U64, I64 = (np.uint8, np.int8, np.uint16, np.int16,
                                        np.uint32, np.int32, np.uint64, np.int64)


def _rng(seed):
    return np.random.default_rng(seed)


# f32_elementwise ------------------------------------------------------------------------------

F32_ELEMENTWISE_N = 300   # not a multiple of the 64-wide workgroups: the tail is masked off


def _f32_elementwise_args():
    r, n = _rng(1), F32_ELEMENTWISE_N
    a = (r.standard_normal(n) * 10).astype(F32)
    b = (r.standard_normal(n) * 10).astype(F32)
    c = (r.uniform(-1e5, 1e5, n)).astype(F32)
    tiny = np.float32(1e-40)                        # a denormal: kept, never flushed
    a[:12] = [np.nan, np.inf, -np.inf, tiny, -tiny, 2.5, -2.5, 0.5, -0.0, 3e38, -1.5, 7.0]
    b[:12] = [1.0, -3.0, 5.0, -2.0, tiny * 3, np.nan, 1e-38, -np.inf, 4.0, 3e38, 0.25, -1e-45]
    # f32 -> i32 of c and of 8 * c stays in range (out of range is undefined in C)
    c[:6] = [0.0, -0.0, 2 ** 28 - 16, -2 ** 28, 0.999, -0.999]
    return [a, b, c, np.zeros(12 * n, F32), np.zeros(2 * n, I32), U32(n)]


def _f32_elementwise_ref(args):
    a, b, c = args[0], args[1], args[2]
    with np.errstate(all="ignore"):
        out = np.stack([
            (a * b) + c,
            fma_rounded(a, b, c, F32),
            np.fmin(a, b),
            np.fmax(a, b),
            np.abs(a) - b,
            np.floor(a),
            np.ceil(a),
            np.trunc(a),
            np.rint(a),
            np.copysign(b, a),
            np.trunc(c).astype(I32).astype(F32),
            b.view(U32).astype(F32),
        ], axis=1).astype(F32)
        iout = np.stack([np.trunc(c).astype(I32), np.trunc(np.ldexp(c, 3)).astype(I32)], axis=1)
    return {3: out.ravel(), 4: iout.ravel()}


# lds_reduce -----------------------------------------------------------------------------------


def _lds_reduce_args():
    x = (_rng(2).standard_normal(8 * 256) * 100).astype(F32)
    return [x, np.zeros(8, F32)]


def lds_tree_sum(x, width=256):
    """Per-workgroup sums in the kernel's order: s[t] += s[t + stride], stride 128 .. 1."""
    s = x.reshape(-1, width).astype(F32).copy()
    stride = width // 2
    while stride:
        s[:, :stride] = s[:, :stride] + s[:, stride:2 * stride]
        stride //= 2
    return s[:, 0].copy()


def _lds_reduce_ref(args):
    return {1: lds_tree_sum(args[0])}


# global_atomics -------------------------------------------------------------------------------

ATOMICS_N = 512


def _global_atomics_args():
    x = _rng(3).integers(-2 ** 31, 2 ** 31, ATOMICS_N, dtype=np.int64).astype(I32)
    x[:4] = [2 ** 31 - 1, -2 ** 31, 0, -1]
    return [x, np.zeros(1, I32), np.full(1, -2 ** 31, I32), np.full(1, 0xFFFFFFFF, U32),
            np.array([0, 0, 0xFFFFFFFF], U32), np.ones(1, U32), np.zeros(ATOMICS_N, U32),
            np.zeros(1, U32)]


def _global_atomics_ref(args):
    x = args[0]
    u = x.view(U32).astype(U64)
    i = np.arange(len(x), dtype=U64)
    prod = 1
    for v in (2 * u + 1) & 0xFFFFFFFF:
        prod = (prod * int(v)) & 0xFFFFFFFF
    bits = np.array([np.bitwise_or.reduce((1 << (u & 31)).astype(U32)),
                     np.bitwise_xor.reduce(u.astype(U32)),
                     np.bitwise_and.reduce((~(1 << (i & 31)) | (u & 1)).astype(U32) & U32(0xFFFFFFFF))],
                    U32)
    return {
        1: np.array([x.astype(np.int64).sum()], np.int64).astype(U64).astype(U32).view(I32),
        2: np.array([x.max()], I32),
        3: np.array([u.min()], U32),
        4: bits,
        5: np.array([prod], U32),
        6: Expect(np.arange(len(x), dtype=U32), unordered=True),
        7: np.array([len(x)], U32),
    }


# matmul_tiled ---------------------------------------------------------------------------------

MATMUL_M, MATMUL_N, MATMUL_K = 48, 32, 64


def _matmul_args():
    r = _rng(4)
    a = r.standard_normal((MATMUL_M, MATMUL_K)).astype(F32)
    b = r.standard_normal((MATMUL_K, MATMUL_N)).astype(F32)
    return [a, b, np.zeros((MATMUL_M, MATMUL_N), F32), U32(MATMUL_M), U32(MATMUL_N), U32(MATMUL_K),
            F32(0.75)]


def matmul_fma_chain(a, b):
    """acc = fma(a[:, k], b[k, :], acc) for k = 0 .. K-1, each step rounded to f32."""
    acc = np.zeros((a.shape[0], b.shape[1]), F32)
    for k in range(a.shape[1]):
        acc = fma_rounded(a[:, k:k + 1], b[k:k + 1, :], acc, F32)
    return acc


def _matmul_ref(args):
    return {2: matmul_fma_chain(args[0], args[1]) * args[6]}


# transcendental -------------------------------------------------------------------------------

TRANSCENDENTAL_N = 256


def _transcendental_args():
    r, n = _rng(5), TRANSCENDENTAL_N
    turns = r.uniform(-2, 2, n).astype(F32)
    turns[:5] = [0.0, 0.25, 0.5, -0.125, 1.0]
    e = r.uniform(-20, 20, n).astype(F32)
    # fract(e * 3.25) stays exact when negative products are at least 1 in magnitude
    e = np.where((e < 0) & (e * F32(3.25) > -1), F32(-1.0) - e, e).astype(F32)
    pos = np.exp2(r.uniform(-30, 30, n)).astype(F32)   # positive normals only: the hardware
    pos[:4] = [1.0, 4.0, 0.5, 3.0]                      # units take no denormal inputs
    den = (np.exp2(r.uniform(-10, 10, n)) * r.choice([-1, 1], n)).astype(F32)
    return [turns, e, pos, den, np.zeros(10 * n, F32)]


SIN_COS_ABS = 2.0 ** -18
HW_1ULP = "hardware unit, 1 ULP"


def _transcendental_ref(args):
    turns, e, pos, den = (a.astype(F64) for a in args[:4])
    two_pi_t = 2 * np.pi * turns
    columns = [
        Expect(np.sin(two_pi_t).astype(F32), abs_tol=SIN_COS_ABS, source="no published bound"),
        Expect(np.cos(two_pi_t).astype(F32), abs_tol=SIN_COS_ABS, source="no published bound"),
        Expect(np.exp2(e).astype(F32), ulp=1, source=HW_1ULP),
        Expect(np.log2(pos).astype(F32), ulp=1, source=HW_1ULP),
        Expect((1 / np.sqrt(pos)).astype(F32), ulp=1, source=HW_1ULP),
        Expect((1 / pos).astype(F32), ulp=1, source=HW_1ULP),
        Expect(np.sqrt(pos).astype(F32), ulp=1, source=HW_1ULP),
        Expect(np.sqrt(pos).astype(F32), ulp=1, source=HW_1ULP + " (v_sqrt_f32 with denormal scaling)"),
        Expect((pos / den).astype(F32), ulp=3, source="OpenCL C 2.0 s7.4: x / y within 2.5 ulp"),
    ]
    x = (e * 3.25).astype(F32).astype(F64)
    columns.append(Expect((x - np.floor(x)).astype(F32)))
    n = len(turns)
    return {4: Expect(np.stack([c.values for c in columns], axis=1).ravel(),
                      ulp=np.tile([c.ulp for c in columns], n),
                      abs_tol=np.tile([c.abs_tol for c in columns], n),
                      source="; ".join(dict.fromkeys(c.source for c in columns if c.source)))}


# half2_math -----------------------------------------------------------------------------------

HALF2_N = 192


def _half2_args():
    r, n = _rng(6), HALF2_N
    a = (r.standard_normal((n, 2)) * 8).astype(F16)
    b = (r.standard_normal((n, 2)) * 8).astype(F16)
    c = (r.standard_normal((n, 2)) * 8).astype(F16)
    a[0], b[0] = [300, -300], [300, 300]              # products overflow to +-inf
    a[1], b[1] = [6e-5, -1e-7], [0.5, 3.0]            # f16 denormals are kept
    c[2] = [65504, -65504]
    return [a, b, c, np.zeros((n * 5, 2), F16), np.zeros(2 * n, F32)]


def _half2_ref(args):
    a, b, c = args[0], args[1], args[2]
    with np.errstate(over="ignore"):
        out = np.stack([a + b, a * b, fma_rounded(a, b, c, F16), np.fmin(a, b),
                        np.fmax(a - c, b)], axis=1).astype(F16)
        h = (c[:, 0].astype(F32) * F32(1.5)).astype(F16)
        fout = np.stack([a[:, 0].astype(F32) * b[:, 1].astype(F32), h.astype(F32)], axis=1)
    return {3: out.reshape(-1, 2), 4: fout.ravel()}


# int64_math -----------------------------------------------------------------------------------

INT64_N = 256
GOLDEN64 = 0x9E3779B97F4A7C15


def _int64_args():
    r, n = _rng(7), INT64_N
    a = r.integers(0, 2 ** 64, n, dtype=U64, endpoint=False)
    b = r.integers(0, 2 ** 64, n, dtype=U64, endpoint=False)
    edges = [(0, 0), (2 ** 64 - 1, 1), (2 ** 63, 2 ** 63 - 1), (2 ** 32 - 1, 2 ** 32 + 1),
             (1, 2 ** 64 - 1), (2 ** 63 - 1, 2 ** 63), (0xFFFFFFFF, 0xFFFFFFFF00000000), (5, 5)]
    for k, (x, y) in enumerate(edges):
        a[k], b[k] = x, y
    return [a, b, np.zeros(12 * n, U64)]


def _int64_ref(args):
    x, y = args[0], args[1]
    s = y & U64(63)
    sx, sy = x.view(I64), y.view(I64)
    r1 = s | U64(1)
    with np.errstate(over="ignore"):
        out = np.stack([
            x + y,
            x - y,
            x * y,
            (x & U64(0xFFFFFFFF)) * (y >> U64(32)),
            x << s,
            x >> s,
            (sx >> s.astype(I64)).view(U64),
            (x < y).astype(U64) | ((sx < sy).astype(U64) << U64(1)) | ((x == y).astype(U64) << U64(2)),
            np.maximum(x, y),
            np.where(sx < sy, x, y),
            (x << r1) | (x >> (U64(64) - r1)),
            (x & U64(0xFFFFFFFF)).astype(U32).view(I32).astype(I64).view(U64) * U64(GOLDEN64)
            + (y ^ (y >> U64(29))),
        ], axis=1)
    return {2: out.ravel()}


# int_divmod -----------------------------------------------------------------------------------

DIVMOD_N = 320


def _divmod_args():
    r, n = _rng(8), DIVMOD_N
    a32 = r.integers(-2 ** 31, 2 ** 31, n, dtype=np.int64).astype(I32)
    b32 = r.integers(-2 ** 31, 2 ** 31, n, dtype=np.int64).astype(I32)
    b32[n // 2:] = r.integers(-300, 300, n - n // 2)      # small divisors: large quotients
    a64 = r.integers(-2 ** 63, 2 ** 63, n, dtype=I64)
    b64 = r.integers(-2 ** 63, 2 ** 63, n, dtype=I64)
    b64[n // 4:n // 2] = r.integers(-2 ** 31, 2 ** 31, n // 4)
    b64[n // 2:] = r.integers(-1000, 1000, n - n // 2)
    edges32 = [(-7, 2), (7, -2), (-7, -2), (-2 ** 31, 3), (2 ** 31 - 1, -1), (-2 ** 31, 2 ** 31 - 1),
               (0, -5), (5, 7), (-1, 2 ** 31 - 1), (123456789, 1)]
    edges64 = [(-7, 2), (7, -2), (-7, -2), (-2 ** 63, 3), (2 ** 63 - 1, -1), (-2 ** 63, 2 ** 63 - 1),
               (0, -5), (5, 7), (-1, 2 ** 32), (2 ** 62 + 12345, 2 ** 32 + 1)]
    for k, ((x, y), (X, Y)) in enumerate(zip(edges32, edges64)):
        a32[k], b32[k], a64[k], b64[k] = x, y, X, Y
    b32[b32 == 0], b64[b64 == 0] = 1, 1                   # division by zero is undefined in C
    b32[(a32 == -2 ** 31) & (b32 == -1)] = 1              # so is INT_MIN / -1
    b64[(a64 == -2 ** 63) & (b64 == -1)] = 1
    return [a32, b32, a64, b64, np.zeros(4 * n, I32), np.zeros(4 * n, U64)]


def c_divmod_signed(a, b, unsigned_type):
    """C99 signed quotient and remainder (truncation), as two's-complement bit patterns."""
    ua, ub = a.view(unsigned_type), b.view(unsigned_type)
    mag_a = np.where(a < 0, ~ua + unsigned_type(1), ua)
    mag_b = np.where(b < 0, ~ub + unsigned_type(1), ub)
    q, r = mag_a // mag_b, mag_a % mag_b
    q = np.where((a < 0) != (b < 0), ~q + unsigned_type(1), q)
    r = np.where(a < 0, ~r + unsigned_type(1), r)
    return q.astype(unsigned_type), r.astype(unsigned_type)


def _divmod_ref(args):
    a32, b32, a64, b64 = args[:4]
    q, r = c_divmod_signed(a32, b32, U32)
    ua, ub = a32.view(U32), b32.view(U32)
    out32 = np.stack([q, r, ua // ub, ua % ub], axis=1).view(I32)
    Q, R = c_divmod_signed(a64, b64, U64)
    UA, UB = a64.view(U64), b64.view(U64)
    out64 = np.stack([Q, R, UA // UB, UA % UB], axis=1)
    return {4: out32.ravel(), 5: out64.ravel()}


# divergent_loops ------------------------------------------------------------------------------


def _divergent_args():
    x = _rng(9).integers(1, 5000, 384, dtype=U32)
    x[:8] = [1, 2, 27, 97, 871, 9, 15, 105]          # 871: 178 Collatz steps
    return [x] + [np.zeros(384, U32) for _ in range(4)]


def collatz(x, cap=500):
    """Steps to reach 1 (at most cap) and the largest value met, vectorised."""
    v, top, n = x.astype(U64), x.astype(U64), np.zeros(len(x), U32)
    live = v != 1
    while live.any():
        v = np.where(live, np.where(v & U64(1), U64(3) * v + U64(1), v >> U64(1)), v)
        top = np.maximum(top, v)
        n += live
        live = (v != 1) & (n < cap)
    return n, top.astype(U32)


def _divergent_ref(args):
    x = args[0]
    steps, peak = collatz(x)
    odd_class = np.where(x % 7 == 0, 7, 1)
    klass = np.where(x % 3 == 0, np.where(x % 5 == 0, 15, 3),
                     np.where(x % 5 == 0, 5, np.where(x & 1, odd_class, 2))).astype(U32)
    digits = np.zeros(len(x), U32)
    d, live = x.copy(), np.ones(len(x), bool)
    while live.any():
        digit = d % 10
        live &= (d != 0) & (digit != 9)
        digits += np.where(live, digit * digit, 0).astype(U32)
        d //= 10
    return {1: steps, 2: peak, 3: klass, 4: digits}


# grid3d ---------------------------------------------------------------------------------------

GRID3D_GRID, GRID3D_BLOCK = (3, 2, 2), (8, 4, 2)


def _grid3d_args():
    n = int(np.prod(GRID3D_GRID) * np.prod(GRID3D_BLOCK))
    return [np.zeros(n, U32), np.zeros(n, U32)]


def _grid3d_ref(args):
    (gx, gy, gz), (bx, by, bz) = GRID3D_GRID, GRID3D_BLOCK
    Z, Y, X = np.meshgrid(np.arange(gz * bz), np.arange(gy * by), np.arange(gx * bx), indexing="ij")
    where = (X | (Y << 10) | (Z << 20)).astype(U32)
    ids = ((X % bx) | ((Y % by) << 4) | ((Z % bz) << 8) | ((X // bx) << 12) | ((Y // by) << 16)
           | ((Z // bz) << 20)).astype(U32)
    return {0: where.ravel(), 1: ids.ravel()}


# hidden_args ----------------------------------------------------------------------------------

HIDDEN_GRID, HIDDEN_BLOCK = (2, 3, 2), (4, 2, 2)


def _hidden_args_args():
    return [np.full(20 * int(np.prod(HIDDEN_GRID)), 0xDEADBEEF, U32)]


def _hidden_args_ref(args):
    grid, block = np.array(HIDDEN_GRID), np.array(HIDDEN_BLOCK)
    row = np.concatenate([
        grid,                  # hidden_block_count_x/y/z
        block,                 # hidden_group_size_x/y/z
        [0, 0, 0],             # hidden_remainder_x/y/z: whole workgroups only
        [0, 0, 0],             # hidden_global_offset_x/y/z
        block,                 # dispatch packet workgroup_size_x/y/z
        grid * block,          # dispatch packet grid_size_x/y/z (work-items)
        [3, 3],                # hidden_grid_dims and the packet's setup dimensions
    ]).astype(U32)
    return {0: np.tile(row, int(np.prod(grid)))}


# scratch_array --------------------------------------------------------------------------------

SCRATCH_N = 128


def _scratch_args():
    r = _rng(10)
    return [r.integers(0, 2 ** 32, SCRATCH_N, dtype=U32), r.integers(0, 2 ** 32, SCRATCH_N, dtype=U32),
            np.zeros(SCRATCH_N, U32), U32(SCRATCH_N)]


def _scratch_ref(args):
    x, idx, n = [int(v) for v in args[0]], [int(v) for v in args[1]], int(args[3])
    out = np.zeros(n, U32)
    for i in range(n):
        buf = [x[(i * 7 + j) % n] for j in range(96)]
        for j in range(32):
            k = idx[(i + j) % n] % 96
            buf[k] = (buf[k] * 3 + buf[(k + j) % 96]) & 0xFFFFFFFF
        acc = 0
        for j in range(96):
            acc = (acc * 31 + buf[(j * 5 + i) % 96]) & 0xFFFFFFFF
        out[i] = acc
    return {2: out}


# bytes_shorts ---------------------------------------------------------------------------------

BYTES_N = 200


def _bytes_args():
    r, n = _rng(11), BYTES_N
    s8 = r.integers(-128, 128, n).astype(I8)
    u8 = r.integers(0, 256, n).astype(U8)
    s16 = r.integers(-2 ** 15, 2 ** 15, n).astype(I16)
    u16 = r.integers(0, 2 ** 16, n).astype(U16)
    s8[:2], u8[:2], s16[:2], u16[:2] = [-128, 127], [255, 0], [-32768, 32767], [65535, 0]
    # o16 has a stride of 3 shorts, the middle one never written: it must keep its value
    return [s8, u8, s16, u16, np.full(3 * n, 0x5A5A, I16), np.zeros(3 * n, U8), np.zeros(n, I32)]


def _bytes_ref(args):
    a, b, c, d = (v.astype(np.int64) for v in args[:4])
    e = c[np.arange(len(c)) ^ 1]
    o16 = np.stack([a * 3 + c, np.full(len(a), 0x5A5A), (d >> 3) ^ b], axis=1).astype(I16)
    o8 = np.stack([a + b, c >> 4, np.where(b > 127, a, d)], axis=1).astype(U8)
    o32 = (a * c + b * d + e * 257).astype(I32)
    return {4: o16.ravel(), 5: o8.ravel(), 6: o32}


# lds_scan -------------------------------------------------------------------------------------


def _scan_args():
    x = _rng(12).integers(0, 2 ** 32, 6 * 128, dtype=U32)
    return [x, np.zeros(6 * 128, U32), np.zeros(6, U32)]


def _scan_ref(args):
    blocks = args[0].reshape(-1, 128).astype(U64)
    scan = (np.cumsum(blocks, axis=1) & U64(0xFFFFFFFF)).astype(U32)
    return {1: scan.ravel(), 2: scan[:, -1].copy()}


# select_ternary -------------------------------------------------------------------------------

SELECT_N = 256


def _select_args():
    r, n = _rng(13), SELECT_N
    a = r.integers(-300, 300, n).astype(I32)
    b = r.integers(-300, 300, n).astype(I32)
    a[:4], b[:4] = [-2 ** 31, 2 ** 31 - 1, 0, 5], [-5, 3, 0, 5]    # |a - b| must not overflow
    f = (r.standard_normal(n) * 2).astype(F32)
    f[:3] = [-1.0, 1.0, np.nan]
    return [a, b, f, np.zeros(4 * n, I32), np.zeros(2 * n, F32)]


def _select_ref(args):
    x, y, v = args[0].astype(np.int64), args[1].astype(np.int64), args[2]
    with np.errstate(invalid="ignore"):
        iout = np.stack([
            np.clip(x, -100, 100),
            np.sign(x),
            np.abs(x - y),
            np.where(x & 1, np.where(y & 2, x, y), np.where(x == y, 7, -7)),
        ], axis=1).astype(U64).astype(U32).view(I32)
        piece = np.where(v < -1, F32(-1), np.where(v > 1, v * F32(0.5), v * v)).astype(F32)
    fout = np.stack([piece, np.where(x & 4, v, -v)], axis=1).astype(F32)
    return {3: iout.ravel(), 4: fout.ravel()}


# lds_histogram --------------------------------------------------------------------------------


def _histogram_args():
    x = _rng(14).integers(0, 2 ** 32, 4 * 256, dtype=U32)
    x[:64] = 7                                 # one hot bin: heavy contention on one address
    return [x, np.zeros(64, U32)]


def _histogram_ref(args):
    return {1: np.bincount(args[0] % 64, minlength=64).astype(U32)}


# bit_ops --------------------------------------------------------------------------------------

BITS_N = 160


def _bit_ops_args():
    r, n = _rng(15), BITS_N
    a = r.integers(0, 2 ** 32, n, dtype=U32)
    a >>= r.integers(0, 32, n).astype(U32)        # spread the leading-zero counts
    b = r.integers(0, 2 ** 64, n, dtype=U64) >> r.integers(0, 64, n).astype(U64)
    a[:4], b[:4] = [0, 1, 0x80000000, 0xFFFFFFFF], [0, 1, 2 ** 63, 2 ** 64 - 1]
    return [a, b, np.zeros(10 * n, U32)]


def popcount(x):
    """Bit count of unsigned integers (SWAR-free: bit by bit)."""
    x = x.astype(U64)
    return sum(((x >> U64(k)) & U64(1)) for k in range(64)).astype(U32)


def leading_zeros(x, width):
    x = x.astype(U64)
    n = np.full(len(x), width, U32)
    for k in range(width):
        n = np.where((x >> U64(k)) != 0, U32(width - 1 - k), n)
    return n


def trailing_zeros32(x):
    x = x.astype(U64)
    n = np.full(len(x), 32, U32)
    for k in reversed(range(32)):
        n = np.where(((x >> U64(k)) & U64(1)) != 0, U32(k), n)
    return n


def bit_reverse32(x):
    x = x.astype(U64)
    return sum((((x >> U64(k)) & U64(1)) << U64(31 - k)) for k in range(32)).astype(U32)


def _bit_ops_ref(args):
    x, y = args[0], args[1]
    out = np.stack([
        popcount(x),
        leading_zeros(x, 32),
        trailing_zeros32(x),
        bit_reverse32(x),
        x.byteswap(),
        (x << U32(7)) | (x >> U32(25)),
        (x >> U32(5)) & U32(0x7FF),
        ((x << U32(3)).view(I32) >> 20).view(U32),
        popcount(y),
        leading_zeros(y, 64),
    ], axis=1).astype(U32)
    return {2: out.ravel()}


# wave_ops -------------------------------------------------------------------------------------

WAVE_GRID, WAVE_BLOCK = (3, 1, 1), (64, 1, 1)     # two full waves per workgroup


def _wave_ops_args():
    n = WAVE_GRID[0] * WAVE_BLOCK[0]
    x = _rng(16).integers(0, 2 ** 32, n, dtype=U32)
    x[32:64] &= U32(~1 & 0xFFFFFFFF)                # a wave with no odd value skips the branch
    return [x, np.zeros(5 * n, U32)]


def _wave_ops_ref(args):
    waves = args[0].reshape(-1, WAVE_SIZE)
    lane = np.arange(WAVE_SIZE, dtype=U32)
    out = np.zeros((waves.shape[0], WAVE_SIZE, 5), U32)
    for w, v in enumerate(waves):
        out[w, :, 0] = lane
        out[w, :, 1] = np.bitwise_or.reduce(((v & 3) == 0).astype(U32) << lane)
        out[w, :, 2] = v[(lane * 7) & 31]
        out[w, :, 3] = v[0]
        odd = np.flatnonzero(v & 1)
        if odd.size:
            out[w, :, 4] = np.where(v & 1, v[odd[0]] ^ U32(odd[0]), 0)
    return {1: out.ravel()}


# f64_math -------------------------------------------------------------------------------------

F64_N = 224


def _f64_args():
    r, n = _rng(17), F64_N
    a = r.standard_normal(n) * 10.0 ** r.integers(-5, 6, n)
    b = r.standard_normal(n) * 10.0 ** r.integers(-5, 6, n)
    a[:6] = [1e-300, 2.0, -0.0, 1e300, 5e-324, 3.0]
    b[:6] = [1e300, 3.0, 1.0, 1e-10, 7.0, -1e-310]
    f = r.standard_normal(n).astype(F32)
    f[0] = 1e-40
    a[6] = 1e-39 * 1e3          # x * 1e-3 lands among f32 denormals
    return [a.astype(F64), b.astype(F64), f, np.zeros(7 * n, F64)]


def _f64_ref(args):
    x, y, f = args[0], args[1], args[2]
    with np.errstate(all="ignore"):
        out = np.stack([
            x + y,
            (x * y) - x,
            x / y,
            np.sqrt(np.abs(x)),
            f.astype(F64) * 3.0,
            (x * 1e-3).astype(F32).astype(F64),
            np.fmin(x, y) + np.floor(y),
        ], axis=1)
    return {3: out.ravel()}


# elementwise_chain ----------------------------------------------------------------------------

CHAIN_N = 1000            # 16 workgroups of 64: the last wave runs partly masked


def _chain_args():
    r = _rng(20)
    x = r.uniform(-2, 2, CHAIN_N).astype(F32)
    y = r.uniform(-2, 2, CHAIN_N).astype(F32)
    return [x, y, np.zeros(CHAIN_N, F32), U32(CHAIN_N)]


def elementwise_chain(x, y):
    """The kernel's chain: t = fma(t, 0.5 + k/16, y); t = t * x + t (two roundings); clamp to
    [-8, 8]; twelve times, starting from t = x."""
    t = x.astype(F32)
    for k in range(12):
        t = fma_rounded(t, F32(0.5 + 0.0625 * k), y, F32)
        t = (t * x).astype(F32) + t
        t = np.minimum(np.maximum(t, F32(-8)), F32(8))
    return t


def _chain_ref(args):
    return {2: elementwise_chain(args[0], args[1])}


# softmax_rows ---------------------------------------------------------------------------------

SOFTMAX_ROWS, SOFTMAX_COLS, SOFTMAX_WG = 4, 700, 256
LOG2E_F32 = F32(1.44269504088896340736)


def _softmax_args():
    x = (_rng(21).standard_normal((SOFTMAX_ROWS, SOFTMAX_COLS)) * 4).astype(F32)
    return [x, np.zeros_like(x), U32(SOFTMAX_COLS)]


def softmax_rows(x, width=SOFTMAX_WG):
    """Row softmax in the kernel's order: per work-item maxima and sums over columns
    j = tid, tid + 256, ..., LDS trees (lds_tree_sum's pairing), exp2((x - max) * log2(e)) and
    the reciprocal of the sum, each rounded once to f32."""
    rows, cols = x.shape
    pad = -(-cols // width) * width
    xp = np.full((rows, pad), -np.inf, F32)
    xp[:, :cols] = x
    m = xp.reshape(rows, -1, width).max(axis=1).max(axis=1)
    e = np.exp2(((x - m[:, None]).astype(F32) * LOG2E_F32).astype(F64)).astype(F32)
    ep = np.zeros((rows, pad), F32)
    ep[:, :cols] = e
    parts = np.zeros((rows, width), F32)
    for j in range(pad // width):                       # each work-item adds its columns in order
        parts = parts + ep[:, j * width:(j + 1) * width]
    total = lds_tree_sum(parts.ravel(), width)
    inv = (1 / total.astype(F64)).astype(F32)
    return e * inv[:, None]


def _softmax_ref(args):
    return {1: Expect(softmax_rows(args[0]).ravel(), abs_tol=softmax_rows(args[0]).ravel() * 2.0 ** -18,
                      source="v_exp_f32 and v_rcp_f32 are 1 ULP (hardware units); the row sum of "
                             "exponentials each off by an ULP moves every output by a few ULP more")}


# ---------------------------------------------------------------------------------------------
# The corpus


def _case(name, grid, block, arg_names, make_args, reference, kernel=None, notes=""):
    kernel = kernel or name
    return Case(name, kernel, kernel + ".hsaco", grid, block, tuple(arg_names.split()), make_args,
                reference, notes)


CASES = [
    _case("f32_elementwise", (5, 1, 1), (64, 1, 1), "a b c out iout n",
          _f32_elementwise_args, _f32_elementwise_ref,
          notes="320 work-items for 300 elements: the last wave runs partly masked"),
    _case("lds_reduce", (8, 1, 1), (256, 1, 1), "x partial", _lds_reduce_args, _lds_reduce_ref),
    _case("global_atomics", (4, 1, 1), (128, 1, 1), "x sum maxv minu bits prod ticket counter",
          _global_atomics_args, _global_atomics_ref),
    _case("matmul_tiled", (MATMUL_N // 16, MATMUL_M // 16, 1), (16, 16, 1), "A B C M N K alpha",
          _matmul_args, _matmul_ref),
    _case("transcendental", (4, 1, 1), (64, 1, 1), "turns e pos den out",
          _transcendental_args, _transcendental_ref),
    _case("half2_math", (3, 1, 1), (64, 1, 1), "a b c out fout", _half2_args, _half2_ref),
    _case("int64_math", (2, 1, 1), (128, 1, 1), "a b out", _int64_args, _int64_ref),
    _case("int_divmod", (5, 1, 1), (64, 1, 1), "a32 b32 a64 b64 q32 q64", _divmod_args, _divmod_ref),
    _case("divergent_loops", (3, 1, 1), (128, 1, 1), "x steps peak klass digits",
          _divergent_args, _divergent_ref),
    _case("grid3d", GRID3D_GRID, GRID3D_BLOCK, "where ids", _grid3d_args, _grid3d_ref),
    _case("hidden_args", HIDDEN_GRID, HIDDEN_BLOCK, "out", _hidden_args_args, _hidden_args_ref),
    _case("scratch_array", (2, 1, 1), (64, 1, 1), "x idx out n", _scratch_args, _scratch_ref),
    _case("bytes_shorts", (5, 1, 1), (40, 1, 1), "s8 u8 s16 u16 o16 o8 o32", _bytes_args, _bytes_ref,
          notes="40-wide workgroups: the second wave of each group is partly empty"),
    _case("lds_scan", (6, 1, 1), (128, 1, 1), "x scan totals", _scan_args, _scan_ref),
    _case("select_ternary", (4, 1, 1), (64, 1, 1), "a b f iout fout", _select_args, _select_ref),
    _case("lds_histogram", (4, 1, 1), (256, 1, 1), "x hist", _histogram_args, _histogram_ref),
    _case("bit_ops", (5, 1, 1), (32, 1, 1), "a b out", _bit_ops_args, _bit_ops_ref),
    _case("wave_ops", WAVE_GRID, WAVE_BLOCK, "x out", _wave_ops_args, _wave_ops_ref),
    _case("f64_math", (7, 1, 1), (32, 1, 1), "a b f out", _f64_args, _f64_ref),
    _case("elementwise_chain", (16, 1, 1), (64, 1, 1), "x y out n", _chain_args, _chain_ref),
    _case("softmax_rows", (SOFTMAX_ROWS, 1, 1), (SOFTMAX_WG, 1, 1), "x out cols", _softmax_args,
          _softmax_ref),
]

CASES_BY_NAME = {c.name: c for c in CASES}
