"""exp / log / rcp / rsq / sqrt / sin / cos (1 ULP against float64 math, ISA special values) and
v_trig_preop_f64 against 2/pi from an independent digit computation."""
import decimal
import math
import random
from fractions import Fraction

import numpy as np
import pytest

from test_emu_sim_valu_util import (bits_f16, bits_f32, bits_f64, f16_bits, f32_bits, f64_bits,
                                    flat, lanes, run)

NAN = float("nan")
INF = float("inf")
MATH = {
    "exp": lambda x: 2.0 ** x,
    "log": math.log2,
    "rcp": lambda x: 1.0 / x,
    "rcp_iflag": lambda x: 1.0 / x,
    "rsq": lambda x: 1.0 / math.sqrt(x),
    "sqrt": math.sqrt,
    "sin": lambda x: math.sin(2 * math.pi * math.fmod(x, 1.0)),
    "cos": lambda x: math.cos(2 * math.pi * math.fmod(x, 1.0)),
}
DOMAIN = {"exp": (-20, 20), "log": (1e-3, 1e6), "rcp": (-1e3, 1e3), "rcp_iflag": (1, 1e6),
          "rsq": (1e-3, 1e6), "sqrt": (0, 1e6), "sin": (-3, 3), "cos": (-3, 3)}
COVERED = {"v_%s_f32" % n for n in MATH} | {"v_%s_f16" % n for n in MATH if n != "rcp_iflag"} | \
    {"v_rcp_f64", "v_rsq_f64", "v_sqrt_f64", "v_trig_preop_f64"}

SPECIAL = {  # (input, expected) from the ISA's functional examples
    "exp": [(-INF, 0.0), (-0.0, 1.0), (INF, INF)],
    "log": [(-INF, NAN), (-1.0, NAN), (-0.0, -INF), (0.0, -INF), (1.0, 0.0), (INF, INF)],
    "rcp": [(-INF, -0.0), (-2.0, -0.5), (-0.0, -INF), (0.0, INF), (INF, 0.0)],
    "rsq": [(-INF, NAN), (-0.0, -INF), (0.0, INF), (4.0, 0.5), (INF, 0.0)],
    "sqrt": [(-INF, NAN), (-0.0, -0.0), (0.0, 0.0), (4.0, 2.0), (INF, INF)],
    "sin": [(-INF, NAN), (-0.0, -0.0), (0.25, 1.0), (INF, NAN), (0.5, 0.0), (-0.25, -1.0)],
    "cos": [(-INF, NAN), (-0.0, 1.0), (0.25, 0.0), (INF, NAN), (0.5, -1.0), (0.75, 0.0)],
}


def same(a, b):
    if math.isnan(b):
        return math.isnan(a)
    return a == b and math.copysign(1, a) == math.copysign(1, b)


@pytest.mark.parametrize("name", sorted(MATH))
def test_f32_within_one_ulp(name):
    rng = random.Random(hash(name) & 0xFFFF)
    lo, hi = DOMAIN[name]
    vals = [bits_f32(f32_bits(rng.uniform(lo, hi))) for _ in range(64)]
    got = [bits_f32(g) for g in flat(run("v_%s_f32" % name, [lanes([f32_bits(v) for v in vals])]))]
    for v, g in zip(vals, got):
        want = MATH[name](v)
        ulp = float(np.spacing(np.float32(abs(want)))) if want else 2.0**-149
        assert abs(g - want) <= max(ulp, 2.0**-149 if name in ("sin", "cos") else 0), (name, v, g)


@pytest.mark.parametrize("name", sorted(SPECIAL))
def test_isa_special_values_f32_and_f16(name):
    cases = SPECIAL[name]
    got = [bits_f32(g) for g in flat(run("v_%s_f32" % name, [lanes([f32_bits(x) for x, _ in cases])]))]
    for (x, want), g in zip(cases, got):
        assert same(g, want), (name, x, g, want)
    got16 = [bits_f16(g & 0xFFFF) for g in
             flat(run("v_%s_f16" % name, [lanes([f16_bits(x) for x, _ in cases])]))]
    for (x, want), g in zip(cases, got16):
        assert same(g, want), (name, "f16", x, g, want)


def test_sin_cos_of_whole_revolutions_and_huge_inputs():
    vals = [-3.4028235e38, 3.4028235e38, 1e20, -7.0, 3.0]
    got = flat(run("v_sin_f32", [lanes([f32_bits(v) for v in vals])]))[:5]
    assert got == [0] * 5                                   # +0 for every whole revolution
    got = flat(run("v_cos_f32", [lanes([f32_bits(v) for v in vals])]))[:5]
    assert got == [f32_bits(1.0)] * 5
    got16 = flat(run("v_sin_f16", [lanes([0xFBFF, 0x7BFF])]))[:2]
    assert [g & 0xFFFF for g in got16] == [0, 0]


def test_f32_transcendentals_flush_denormals_regardless_of_mode():
    den = f32_bits(2.0**-140)
    assert flat(run("v_rcp_f32", [lanes([den])], denorm_f32=True))[0] == f32_bits(INF)
    assert flat(run("v_sqrt_f32", [lanes([den])], denorm_f32=True))[0] == 0
    assert flat(run("v_log_f32", [lanes([den])], denorm_f32=True))[0] == f32_bits(-INF)
    assert flat(run("v_rcp_f32", [lanes([f32_bits(2.0**127)])], denorm_f32=True))[0] == 0
    assert flat(run("v_exp_f32", [lanes([f32_bits(-130.0)])], denorm_f32=True))[0] == 0
    # sin keeps denormals: sin(2*pi*x) ~ 2*pi*x
    assert bits_f32(flat(run("v_sin_f32", [lanes([den])]))[0]) == pytest.approx(
        2 * math.pi * 2.0**-140, rel=1e-6)


@pytest.mark.parametrize("name", ["rcp", "rsq", "sqrt"])
def test_f64_forms(name):
    rng = random.Random(8)
    vals = [rng.uniform(1e-300, 1e300) if i % 2 else rng.uniform(0.5, 8) for i in range(40)]
    got = [bits_f64(g) for g in flat(run("v_%s_f64" % name, [lanes([f64_bits(v) for v in vals],
                                                                    np.uint64)]))]
    for v, g in zip(vals, got):
        want = MATH[name](v)
        assert abs(g - want) <= 2 * math.ulp(want), (name, v)
    den = flat(run("v_rcp_f64", [lanes([f64_bits(2.0**1023)], np.uint64)]))[0]
    assert bits_f64(den) == 2.0**-1023                       # denormal result kept
    sp = [(-0.0, -0.0), (INF, INF), (-1.0, NAN)]
    got = [bits_f64(g) for g in flat(run("v_sqrt_f64", [lanes([f64_bits(x) for x, _ in sp],
                                                              np.uint64)]))]
    assert all(same(g, w) for (_, w), g in zip(sp, got))


def _two_over_pi(bits):
    """floor(2/pi * 2**bits) from pi computed with the Gauss-Legendre iteration in decimal."""
    decimal.getcontext().prec = bits // 3 + 40
    D = decimal.Decimal
    a, b, t, p = D(1), D(1) / D(2).sqrt(), D(1) / 4, D(1)
    for _ in range(12):
        a, b, t, p = (a + b) / 2, (a * b).sqrt(), t - p * ((a - b) / 2) ** 2, 2 * p
    pi = (a + b) ** 2 / (4 * t)
    return int((D(2) / pi) * (D(2) ** bits))


def test_trig_preop_returns_consecutive_53_bit_slices_of_two_over_pi():
    ref = _two_over_pi(1300)
    xs = [1.0] * 6 + [2.0**300, 2.0**300]
    ns = [0, 1, 2, 3, 10, 18, 0, 1]
    got = flat(run("v_trig_preop_f64", [lanes([f64_bits(x) for x in xs], np.uint64), lanes(ns)]))
    for x, n, g in zip(xs, ns, got):
        shift = 53 * n + max(0, (f64_bits(x) >> 52) - 1077)
        seg = (ref >> (1300 - shift - 53)) & ((1 << 53) - 1)
        assert Fraction(bits_f64(g)) == Fraction(seg, 2 ** (shift + 53)), (x, n)
    total = sum(Fraction(bits_f64(g)) for g in got[:3])
    assert abs(total - Fraction(ref, 2**1300)) < Fraction(1, 2**159)
