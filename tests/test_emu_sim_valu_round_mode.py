"""MODE.FP_ROUND: the four rounding modes on add / sub / mul / fma / ldexp and conversions."""
import random
from fractions import Fraction

import numpy as np
import pytest

from test_emu_sim_valu_util import (exact, f16_bits, f32_bits, f64_bits, flat, lanes,
                                    round_fraction, run)

MODES = [0, 1, 2, 3]          # nearest even, +inf, -inf, toward zero


def mode_kw(fmt, rm):
    return {"round_f32": rm} if fmt == "f32" else {"round_f16_64": rm}


def randoms(fmt, n, seed):
    rng = random.Random(seed)
    lo, hi = {"f16": (-14, 15), "f32": (-126, 127), "f64": (-1022, 1023)}[fmt]
    enc = {"f16": f16_bits, "f32": f32_bits, "f64": f64_bits}[fmt]
    out = []
    while len(out) < n:
        v = rng.choice((1, -1)) * (1 + rng.random()) * 2.0 ** rng.randrange(lo // 4, hi // 4)
        out.append(enc(v))
    return out


def regs(fmt, vals):
    return lanes(vals, np.uint64 if fmt == "f64" else np.uint32)


def low(fmt, got):
    return [g & 0xFFFF for g in got] if fmt == "f16" else got


OPS = {
    "add": (2, lambda a, b: a + b), "sub": (2, lambda a, b: a - b),
    "mul": (2, lambda a, b: a * b), "fma": (3, lambda a, b, c: a * b + c),
}


@pytest.mark.parametrize("rm", MODES)
@pytest.mark.parametrize("opname,fmt", [(o, t) for o in sorted(OPS) for t in ("f16", "f32", "f64")
                                        if (o, t) != ("sub", "f64")])   # gfx11 has no v_sub_f64
def test_directed_rounding_of_arithmetic(opname, fmt, rm):
    n, f = OPS[opname]
    cols = [randoms(fmt, 64, hash((opname, fmt, i)) & 0xFFFF) for i in range(n)]
    got = low(fmt, flat(run("v_%s_%s" % (opname, fmt), [regs(fmt, c) for c in cols],
                            **mode_kw(fmt, rm))))
    for i, g in enumerate(got):
        args = [exact(c[i], fmt) for c in cols]
        assert g == round_fraction(f(*args), fmt, rm), (opname, fmt, rm, [hex(c[i]) for c in cols])


@pytest.mark.parametrize("rm", MODES)
def test_directed_rounding_overflow_and_zero_signs(rm):
    big = lanes([f32_bits(3e38), f32_bits(-3e38), f32_bits(1.0), f32_bits(0.0), f32_bits(-0.0)])
    got = flat(run("v_add_f32", [big, big], round_f32=rm))[:2]
    assert got == [round_fraction(Fraction(6e38), "f32", rm), round_fraction(Fraction(-6e38), "f32", rm)]
    x = lanes([f32_bits(1.0), f32_bits(0.0), f32_bits(-0.0)])
    y = lanes([f32_bits(-1.0), f32_bits(-0.0), f32_bits(-0.0)])
    got = flat(run("v_add_f32", [x, y], round_f32=rm))[:3]
    zero = 0x80000000 if rm == 2 else 0
    assert got == [zero, zero, 0x80000000]            # -0 + -0 stays -0 in every mode


@pytest.mark.parametrize("rm", MODES)
def test_directed_rounding_of_conversions_and_ldexp(rm):
    vals = [f32_bits(v) for v in (1.0 + 2**-11 + 2**-20, -(1.0 + 2**-11 + 2**-20), 70000.0,
                                  -70000.0, 2.0**-25 * 1.3, 1e-8)]
    got = [g & 0xFFFF for g in flat(run("v_cvt_f16_f32", [lanes(vals)], round_f16_64=rm))[:6]]
    assert got == [round_fraction(exact(v), "f16", rm) for v in vals]
    d = [f64_bits(v) for v in (0.1, -0.1, 1e300, -1e-300)]
    got = flat(run("v_cvt_f32_f64", [lanes(d, np.uint64)], round_f32=rm))[:4]
    assert got == [round_fraction(exact(v, "f64"), "f32", rm) for v in d]
    ints = [16777217, -16777217, 2**31 - 1]
    got = flat(run("v_cvt_f32_i32", [lanes([i & 0xFFFFFFFF for i in ints])], round_f32=rm))[:3]
    assert got == [round_fraction(Fraction(i), "f32", rm) for i in ints]
    x = lanes([f32_bits(1.75), f32_bits(-1.75)])
    got = flat(run("v_ldexp_f32", [x, lanes([(-149) & 0xFFFFFFFF])], round_f32=rm))[:2]
    assert got == [round_fraction(Fraction(7, 4) / 2**149, "f32", rm),
                   round_fraction(Fraction(-7, 4) / 2**149, "f32", rm)]


def test_round_mode_fields_are_per_format():
    a = lanes([f32_bits(1.0)])
    b = lanes([f32_bits(2.0**-30)])
    assert flat(run("v_add_f32", [a, b], round_f16_64=1))[0] == f32_bits(1.0)
    assert flat(run("v_add_f32", [a, b], round_f32=1))[0] == f32_bits(1.0) + 1


@pytest.mark.parametrize("rm", MODES)
def test_results_that_round_to_zero_keep_their_sign(rm):
    """Only exact zero sums take the mode's zero sign; an underflowing result rounds normally."""
    tiny = 2.0**-100
    a, b, c = lanes([f32_bits(tiny)] * 2), lanes([f32_bits(tiny), f32_bits(-tiny)]), lanes([0x80000000])
    got = flat(run("v_fma_f32", [a, b, c], round_f32=rm))[:2]
    assert got == [round_fraction(Fraction(tiny) ** 2, "f32", rm),
                   round_fraction(-Fraction(tiny) ** 2, "f32", rm)]
    t64 = 2.0**-600
    A = lanes([f64_bits(t64)] * 2, np.uint64)
    B = lanes([f64_bits(t64), f64_bits(-t64)], np.uint64)
    got = flat(run("v_mul_f64", [A, B], round_f16_64=rm))[:2]
    assert got == [round_fraction(Fraction(t64) ** 2, "f64", rm),
                   round_fraction(-Fraction(t64) ** 2, "f64", rm)]
    C = lanes([1 << 63], np.uint64)
    got = flat(run("v_fma_f64", [A, B, C], round_f16_64=rm))[:2]
    assert got == [round_fraction(Fraction(t64) ** 2, "f64", rm),
                   round_fraction(-Fraction(t64) ** 2, "f64", rm)]


@pytest.mark.parametrize("rm", MODES)
def test_ldexp_f64_rounds_denormal_and_overflowing_results_per_mode(rm):
    x = lanes([f64_bits(v) for v in (1.75, -1.75, 1.5, -1.5)], np.uint64)
    n = lanes([(-1074) & 0xFFFFFFFF, (-1074) & 0xFFFFFFFF, 1024, 1024])
    got = flat(run("v_ldexp_f64", [x, n], round_f16_64=rm))[:4]
    assert got == [round_fraction(Fraction(7, 4) / 2**1074, "f64", rm),
                   round_fraction(Fraction(-7, 4) / 2**1074, "f64", rm),
                   round_fraction(Fraction(3, 2) * 2**1024, "f64", rm),
                   round_fraction(Fraction(-3, 2) * 2**1024, "f64", rm)]


def test_fract_obeys_the_rounding_mode():
    x = lanes([f32_bits(-1e-10)])
    below_one = f32_bits(1 - 2.0**-24)
    for rm in MODES:                  # 1 - 1e-10 rounds up to 1.0 (then clamps) or down
        assert flat(run("v_fract_f32", [x], round_f32=rm))[0] == below_one
    y = lanes([f32_bits(-(2.0**-30) * 3)])
    want = {rm: round_fraction(1 - Fraction(3, 2**30), "f32", rm) for rm in MODES}
    for rm in MODES:
        got = flat(run("v_fract_f32", [y], round_f32=rm))[0]
        assert got == min(want[rm], below_one), rm


@pytest.mark.parametrize("rm", MODES)
def test_packed_f16_arithmetic_rounds_per_mode(rm):
    a = lanes([(0x3C01 << 16) | 0xBC01])                   # hi 1 + 2^-10, lo -(1 + 2^-10)
    b = lanes([(0x3C01 << 16) | 0x3C01])
    got = flat(run("v_pk_mul_f16", [a, b], round_f16_64=rm))[0]
    sq = (1 + Fraction(1, 1024)) ** 2
    assert got == round_fraction(-sq, "f16", rm) | (round_fraction(sq, "f16", rm) << 16)
    c = lanes([(0x1001 << 16) | 0x1001])
    got = flat(run("v_pk_fma_f16", [a, b, c], round_f16_64=rm))[0]
    tiny = exact(0x1001, "f16")
    assert got == round_fraction(tiny - sq, "f16", rm) | (round_fraction(sq + tiny, "f16", rm) << 16)
