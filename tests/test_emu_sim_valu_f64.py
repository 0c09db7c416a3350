"""f64 arithmetic: register pairs, correctly rounded fma, min/max, denormal mode."""
import itertools
import random
from fractions import Fraction

import numpy as np

from test_emu_sim_valu_util import (bits_f64, exact, f64_bits, flat, lanes, round_fraction, run)

QNAN, SNAN, INF, NEG_INF, NEG_ZERO = 0x7FF8000000000000, 0x7FF0000000000001, \
    0x7FF0000000000000, 0xFFF0000000000000, 1 << 63
DENORM = 0x0000000000000F00
COVERED = {"v_add_f64", "v_mul_f64", "v_fma_f64", "v_min_f64", "v_max_f64", "v_ldexp_f64"}


def q(values):
    return lanes(values, np.uint64)


def is_nan(b):
    return (b >> 52 & 0x7FF) == 0x7FF and b & ((1 << 52) - 1)


def test_add_mul_are_ieee_double():
    rng = random.Random(2)
    xs = [f64_bits(rng.uniform(-1, 1) * 2.0 ** rng.randrange(-1074, 1023)) for _ in range(60)]
    ys = [f64_bits(rng.uniform(-1, 1) * 2.0 ** rng.randrange(-1074, 1023)) for _ in range(60)]
    xs += [NEG_ZERO, 0, INF, DENORM]
    ys += [0, NEG_ZERO, NEG_INF, DENORM]
    for name, f in (("v_add_f64", lambda a, b: a + b), ("v_mul_f64", lambda a, b: a * b)):
        got = flat(run(name, [q(xs), q(ys)]))
        for x, y, g in zip(xs, ys, got):
            fx, fy = bits_f64(x), bits_f64(y)
            if name == "v_add_f64" and {x, y} == {INF, NEG_INF}:
                assert is_nan(g)
                continue
            want = round_fraction(f(Fraction(fx), Fraction(fy)), "f64") \
                if fx not in (float("inf"), float("-inf")) and fy not in (float("inf"), float("-inf")) \
                else f64_bits(f(fx, fy))
            if fx == 0 and fy == 0:
                want = f64_bits(f(fx, fy))                 # signed zero rules
            assert g == want, (name, hex(x), hex(y), hex(g), hex(want))


def test_fma_f64_is_correctly_rounded_even_near_the_range_ends():
    rng = random.Random(11)
    rnd = lambda lo, hi: f64_bits(rng.choice((1, -1)) * (1 + rng.random()) * 2.0 ** rng.randrange(lo, hi))
    a = [rnd(-60, 60) for _ in range(40)] + [rnd(900, 1000) for _ in range(8)] + \
        [rnd(-1070, -1000) for _ in range(8)] + [f64_bits(1 + 2**-52)] * 4 + [rnd(-500, -400)] * 4
    b = [rnd(-60, 60) for _ in range(40)] + [rnd(20, 60) for _ in range(8)] + \
        [rnd(-20, 20) for _ in range(8)] + [f64_bits(1 - 2**-52)] * 4 + [rnd(-600, -560)] * 4
    c = [rnd(-120, 120) for _ in range(40)] + [rnd(900, 1023) for _ in range(8)] + \
        [rnd(-1074, -1050) for _ in range(8)] + [f64_bits(-1.0)] * 4 + [DENORM] * 4
    got = flat(run("v_fma_f64", [q(a), q(b), q(c)]))
    for x, y, z, g in zip(a, b, c, got):
        want = round_fraction(exact(x, "f64") * exact(y, "f64") + exact(z, "f64"), "f64")
        assert g == want, (hex(x), hex(y), hex(z), hex(g), hex(want))


def test_min_max_f64_ieee_rules():
    edges = [0, NEG_ZERO, QNAN, SNAN, f64_bits(1.0), f64_bits(-1.0), INF, NEG_INF]
    pairs = list(itertools.product(edges, edges))
    a, b = q([p[0] for p in pairs]), q([p[1] for p in pairs])
    for name, want_max in (("v_min_f64", False), ("v_max_f64", True)):
        for (x, y), g in zip(pairs, flat(run(name, [a, b]))):
            if x == SNAN or (y == SNAN and x != SNAN):
                assert g == SNAN | (1 << 51)
            elif is_nan(x) or is_nan(y):
                assert g == (y if is_nan(x) else x)
            elif bits_f64(x) == bits_f64(y) == 0:
                neg = max(x, y) if not want_max else min(x, y)
                assert g == neg, (name, hex(x), hex(y))
            else:
                f = max if want_max else min
                assert g == f64_bits(f(bits_f64(x), bits_f64(y)))


def test_f64_denormal_mode():
    d = q([DENORM])
    assert flat(run("v_add_f64", [d, q([0])]))[0] == DENORM
    assert flat(run("v_add_f64", [d, q([0])], denorm_f16_64=False))[0] == 0
    assert flat(run("v_add_f64", [d, q([0])], denorm_f32=False))[0] == DENORM


def test_ldexp_f64():
    x = q([f64_bits(1.5), f64_bits(1.0), f64_bits(1.0), f64_bits(-3.0), QNAN])
    n = lanes([10, (-1074) & 0xFFFFFFFF, 2000, (-2000) & 0xFFFFFFFF, 3])
    got = flat(run("v_ldexp_f64", [x, n]))[:5]
    assert got[:4] == [f64_bits(1536.0), 1, INF, NEG_ZERO]
    assert is_nan(got[4])


def test_omod_and_clamp_f64():
    a = q([f64_bits(v) for v in (3.0, -2.0, 0.25)] + [QNAN])
    one = q([f64_bits(1.0)])
    got = flat(run("v_mul_f64", [a, one], omod=2, ieee=False, denorm_f16_64=False))[:3]
    assert got == [f64_bits(12.0), f64_bits(-8.0), f64_bits(1.0)]
    got = flat(run("v_mul_f64", [a, one], clamp=True))[:4]
    assert got == [f64_bits(1.0), 0, f64_bits(0.25), 0]


def test_fma_f64_few_extreme_lanes_among_ordinary_ones():
    """A wave of ordinary operands with a few lanes at the ends of the range, a zero or an
    infinity (one by one past the error-free path), and waves of ordinary lanes only (exact
    zeros and ties of the round-to-odd sum included): every lane correctly rounded."""
    rng = random.Random(5)
    rnd = lambda lo, hi: f64_bits(rng.choice((1, -1)) * (1 + rng.random()) * 2.0 ** rng.randrange(lo, hi))
    for trial in range(12):
        a = [rnd(-30, 30) for _ in range(32)]
        b = [rnd(-30, 30) for _ in range(32)]
        c = [rnd(-60, 60) for _ in range(32)]
        if trial % 3 == 1:                     # exact cancellation: -0/+0 and tiny remainders
            for i in range(0, 32, 4):
                p = Fraction(bits_f64(a[i])) * Fraction(bits_f64(b[i]))
                c[i] = f64_bits(-float(p))
        if trial % 3 == 2:
            for i in range(0, 32, 5):          # ties: 1 + 2**-53-ish products and addends
                a[i], b[i], c[i] = f64_bits(1 + 2**-52), f64_bits(1 - 2**-52), f64_bits(-1.0 + 2**-52 * i)
        if trial % 2:
            for i in rng.sample(range(32), rng.randrange(1, 8)):
                a[i], b[i], c[i] = rng.choice([(rnd(990, 1000), rnd(20, 30), rnd(-10, 10)),
                                              (rnd(-1070, -1000), rnd(-20, 20), rnd(-1074, -1050)),
                                              (rnd(-500, -400), rnd(-600, -560), DENORM),
                                              (0, rnd(-5, 5), rnd(-5, 5)), (NEG_ZERO, rnd(-5, 5), 0),
                                              (rnd(-5, 5), rnd(-5, 5), INF), (INF, 0, rnd(-5, 5))])
        got = flat(run("v_fma_f64", [q(a), q(b), q(c)]))
        for x, y, z, g in zip(a, b, c, got):
            fx, fy, fz = bits_f64(x), bits_f64(y), bits_f64(z)
            if not all(map(np.isfinite, (fx, fy, fz))):
                with np.errstate(all="ignore"):
                    want = f64_bits(fx * fy + fz)
                if is_nan(want):
                    assert is_nan(g), (hex(x), hex(y), hex(z), hex(g))
                    continue
            elif (fx == 0 or fy == 0) or Fraction(fx) * Fraction(fy) + Fraction(fz) == 0:
                want = f64_bits(fx * fy + fz)                  # IEEE sign of an exact zero
            else:
                want = round_fraction(exact(x, "f64") * exact(y, "f64") + exact(z, "f64"), "f64")
            assert g == want, (trial, hex(x), hex(y), hex(z), hex(g), hex(want))
