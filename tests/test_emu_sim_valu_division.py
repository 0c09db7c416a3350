"""v_div_scale / v_div_fmas / v_div_fixup: the ISA case tables, and LLVM's f32 and f64 division
sequences run end to end on the library, checked against exactly rounded quotients."""
import math
import random

import numpy as np
import pytest

from test_emu_sim_valu_util import (W, bits_f16, bits_f32, bits_f64, exact, f16_bits, f32_bits,
                                    f64_bits, flat, lanes, round_fraction, run)

COVERED = {"v_div_scale_f32", "v_div_scale_f64", "v_div_fmas_f32", "v_div_fmas_f64",
           "v_div_fixup_f16", "v_div_fixup_f32", "v_div_fixup_f64"}
INF, NAN = float("inf"), float("nan")


def fdiv32(num, den, **mode):
    """LLVM's AMDGPU f32 fdiv expansion (denormal-correct path), instruction by instruction."""
    one = lanes([f32_bits(1.0)])
    den_s, _ = run("v_div_scale_f32", [den, den, num], **mode)
    num_s, vcc = run("v_div_scale_f32", [num, den, num], **mode)
    rcp = run("v_rcp_f32", [den_s], **mode)
    fma0 = run("v_fma_f32", [den_s, rcp, one], neg=1, **mode)
    fma1 = run("v_fma_f32", [fma0, rcp, rcp], **mode)
    mul = run("v_mul_f32", [num_s, fma1], **mode)
    fma2 = run("v_fma_f32", [den_s, mul, num_s], neg=1, **mode)
    fma3 = run("v_fma_f32", [fma2, fma1, mul], **mode)
    fma4 = run("v_fma_f32", [den_s, fma3, num_s], neg=1, **mode)
    fmas = run("v_div_fmas_f32", [fma4, fma1, fma3], mask=vcc, **mode)
    return run("v_div_fixup_f32", [fmas, den, num], **mode)


def fdiv64(num, den):
    one = lanes([f64_bits(1.0)], np.uint64)
    den_s, _ = run("v_div_scale_f64", [den, den, num])
    rcp = run("v_rcp_f64", [den_s])
    e0 = run("v_fma_f64", [den_s, rcp, one], neg=1)
    rcp = run("v_fma_f64", [rcp, e0, rcp])
    e1 = run("v_fma_f64", [den_s, rcp, one], neg=1)
    rcp = run("v_fma_f64", [rcp, e1, rcp])
    num_s, vcc = run("v_div_scale_f64", [num, den, num])
    q = run("v_mul_f64", [num_s, rcp])
    r = run("v_fma_f64", [den_s, q, num_s], neg=1)
    fmas = run("v_div_fmas_f64", [r, rcp, q], mask=vcc)
    return run("v_div_fixup_f64", [fmas, den, num])


def rand32(rng, lo, hi):
    return f32_bits(rng.choice((1, -1)) * (1 + rng.random()) * 2.0 ** rng.randrange(lo, hi))


@pytest.mark.parametrize("ranges", [((-20, 20), (-20, 20)), ((100, 127), (-127, -100)),
                                    ((-149, -120), (-10, 10)), ((-10, 10), (110, 127)),
                                    ((-149, -126), (-149, -126)), ((-126, -100), (100, 127)),
                                    ((120, 127), (-149, -127))])
def test_f32_division_sequence_is_correctly_rounded(ranges):
    rng = random.Random(str(ranges))
    nums = [rand32(rng, *ranges[0]) for _ in range(64)]
    dens = [rand32(rng, *ranges[1]) for _ in range(64)]
    got = flat(fdiv32(lanes(nums), lanes(dens)))
    for n, d, g in zip(nums, dens, got):
        want = round_fraction(exact(n) / exact(d))
        assert g == want, (bits_f32(n), bits_f32(d), bits_f32(g), bits_f32(want))


def test_f32_division_sequence_special_cases():
    cases = [(1.0, 0.0, INF), (-1.0, 0.0, -INF), (0.0, 0.0, NAN), (INF, INF, NAN), (0.0, 5.0, 0.0),
             (-0.0, 5.0, -0.0), (7.0, INF, 0.0), (INF, -2.0, -INF), (NAN, 1.0, NAN), (6.0, 3.0, 2.0)]
    got = flat(fdiv32(lanes([f32_bits(c[0]) for c in cases]), lanes([f32_bits(c[1]) for c in cases])))
    for (n, d, want), g in zip(cases, got):
        v = bits_f32(g)
        assert (math.isnan(v) if math.isnan(want) else
                v == want and math.copysign(1, v) == math.copysign(1, want)), (n, d, v)


def test_f64_division_sequence():
    rng = random.Random(64)
    rnd = lambda lo, hi: f64_bits(rng.choice((1, -1)) * (1 + rng.random()) * 2.0 ** rng.randrange(lo, hi))
    nums = [rnd(-60, 60) for _ in range(48)] + [rnd(900, 1023) for _ in range(8)] + \
        [rnd(-1070, -1022) for _ in range(8)]
    dens = [rnd(-60, 60) for _ in range(48)] + [rnd(-1020, -950) for _ in range(8)] + \
        [rnd(-10, 10) for _ in range(8)]
    got = flat(fdiv64(lanes(nums, np.uint64), lanes(dens, np.uint64)))
    exact_hits = 0
    for n, d, g in zip(nums, dens, got):
        want = round_fraction(exact(n, "f64") / exact(d, "f64"), "f64")
        assert abs(g - want) <= 1, (bits_f64(n), bits_f64(d))       # within one ulp (bit pattern)
        exact_hits += g == want
    assert exact_hits >= 60


def test_div_scale_f32_cases():
    cases = [  # S0, S1 (den), S2 (num) -> (D, vcc)
        ((3.0, 3.0, 6.0), (3.0, False)),                              # ordinary: unchanged
        ((3.0, 0.0, 6.0), (NAN, False)),                              # zero denominator
        ((2.0**-10, 2.0**-10, 2.0**120), (2.0**54, True)),            # N/D near FLT_MAX: den * 2^64
        ((2.0**120, 2.0**-10, 2.0**120), (2.0**120, True)),           # ... numerator unchanged
        ((2.0**-140, 2.0**-140, 1.0), (2.0**-76, True)),              # gap >= 96 comes first
        ((2.0**-140, 2.0**-140, 2.0**-100), (2.0**-76, False)),       # denormal denominator
        ((2.0**-130, 1.5, 2.0**-130), (2.0**-66, True)),              # denormal quotient: num*2^64
        ((2.0**-110, 3.0, 2.0**-110), (2.0**-46, False)),             # tiny numerator
        ((2.0**127, 2.0**127, 4.0), (2.0**63, False)),                # 1/den denormal: * 2^-64
        ((2.0**127, 2.0**127, 2.0**-20), (2.0**63, True)),             # ... and quotient denormal
    ]
    s = [lanes([f32_bits(c[0][i]) for c in cases]) for i in range(3)]
    d, vcc = run("v_div_scale_f32", s)
    for (ins, (want, want_vcc)), g, v in zip(cases, flat(d), flat(vcc)):
        assert bool(v) == want_vcc, ins
        assert (math.isnan(bits_f32(g)) if math.isnan(want) else bits_f32(g) == want), ins


def test_div_scale_f64_cases():
    cases = [((3.0, 3.0, 6.0), (3.0, False)), ((1.0, 0.0, 1.0), (NAN, False)),
             ((2.0**-10, 2.0**-10, 2.0**800), (2.0**118, True)),
             ((2.0**-1070, 2.0**-1070, 1.0), (2.0**-942, True)),
             ((2.0**-1070, 2.0**-1070, 2.0**-1000), (2.0**-942, False)),
             ((2.0**-1000, 3.0, 2.0**-1000), (2.0**-872, False)),        # exponent(S2) <= 53
             ((2.0**-960, 3.0, 2.0**-960), (2.0**-960, False)),          # exponent(S2) > 53
             ((2.0**-1030, 2.0, 2.0**-1030), (2.0**-902, True))]         # quotient denormal
    s = [lanes([f64_bits(c[0][i]) for c in cases], np.uint64) for i in range(3)]
    d, vcc = run("v_div_scale_f64", s)
    for (ins, (want, want_vcc)), g, v in zip(cases, flat(d), flat(vcc)):
        assert bool(v) == want_vcc, ins
        assert (math.isnan(bits_f64(g)) if math.isnan(want) else bits_f64(g) == want), ins


def test_div_fmas_post_scaling():
    a, b, c = lanes([f32_bits(2.0)]), lanes([f32_bits(3.0)]), lanes([f32_bits(4.0), f32_bits(0.5)])
    mask = np.array([[True, True] * 16] * W)
    got = flat(run("v_div_fmas_f32", [a, b, c], mask=mask))[:2]
    assert got == [f32_bits(10.0 * 2.0**64), f32_bits(6.5 * 2.0**-64)]
    got = flat(run("v_div_fmas_f32", [a, b, c], mask=~mask))[:2]
    assert got == [f32_bits(10.0), f32_bits(6.5)]
    A, B = lanes([f64_bits(2.0)], np.uint64), lanes([f64_bits(3.0)], np.uint64)
    C = lanes([f64_bits(4.0), f64_bits(0.5)], np.uint64)
    got = flat(run("v_div_fmas_f64", [A, B, C], mask=mask))[:2]
    assert got == [f64_bits(10.0 * 2.0**128), f64_bits(6.5 * 2.0**-128)]
    # inputs are not flushed even when the mode flushes denormals
    den = lanes([1])
    got = flat(run("v_div_fmas_f32", [den, lanes([f32_bits(1.0)]), lanes([0])], mask=~mask,
                   denorm_f32=False))[0]
    assert got == 0                                   # the denormal result is flushed on output
    got = flat(run("v_div_fmas_f32", [den, lanes([f32_bits(2.0**30)]), lanes([0])], mask=~mask,
                   denorm_f32=False))[0]
    assert got == f32_bits(2.0**-119)


FIXUP = [  # quotient, denominator, numerator -> result (per the ISA's V_DIV_FIXUP table)
    (1.5, 2.0, NAN, NAN), (1.5, NAN, 3.0, NAN), (1.5, 0.0, 0.0, NAN), (1.5, INF, -INF, NAN),
    (1.5, 0.0, 3.0, INF), (1.5, -0.0, 3.0, -INF), (1.5, 2.0, INF, INF), (1.5, -2.0, INF, -INF),
    (1.5, INF, 3.0, 0.0), (1.5, -INF, 3.0, -0.0), (1.5, 2.0, 0.0, 0.0), (1.5, -2.0, 0.0, -0.0),
    (1.5, -2.0, 3.0, -1.5), (-1.5, -2.0, -3.0, 1.5),
]


@pytest.mark.parametrize("t", ["f16", "f32", "f64"])
def test_div_fixup_table(t):
    enc = {"f16": f16_bits, "f32": f32_bits, "f64": f64_bits}[t]
    dec = {"f16": lambda g: bits_f16(g & 0xFFFF), "f32": bits_f32, "f64": bits_f64}[t]
    dtype = np.uint64 if t == "f64" else np.uint32
    s = [lanes([enc(c[i]) for c in FIXUP], dtype) for i in range(3)]
    got = [dec(g) for g in flat(run("v_div_fixup_" + t, s))]
    for c, g in zip(FIXUP, got):
        want = c[3]
        assert (math.isnan(g) if math.isnan(want) else
                g == want and math.copysign(1, g) == math.copysign(1, want)), (t, c, g)
    if t != "f16":
        big, tiny = (2.0**127, 2.0**-127) if t == "f32" else (2.0**1023, 2.0**-1023)
        under = lanes([enc(1.0), enc(1.0)], dtype), lanes([enc(big), enc(float("inf"))], dtype)
        # exponent(num) - exponent(den) below the underflow limit: a signed zero
        num = lanes([enc(tiny * 2.0**-22 if t == "f32" else tiny * 2.0**-51)], dtype)
        g = dec(flat(run("v_div_fixup_" + t, [under[0], under[1], num]))[0])
        assert g == 0.0 and math.copysign(1, g) == 1
        neg_num = lanes([enc(-(tiny * 2.0**-22 if t == "f32" else tiny * 2.0**-51))], dtype)
        g = dec(flat(run("v_div_fixup_" + t, [under[0], under[1], neg_num]))[0])
        assert g == 0.0 and math.copysign(1, g) == -1
        # an overflowed quotient (inf or NaN from the sequence) becomes a signed infinity
        q = lanes([enc(float("nan")), enc(float("inf"))], dtype)
        g = [dec(v) for v in flat(run("v_div_fixup_" + t, [q, lanes([enc(-2.0)], dtype),
                                                           lanes([enc(3.0)], dtype)]))[:2]]
        assert g == [-INF, -INF]
