"""f16 VALU arithmetic: op_sel halves, the preserved other half, rounding, fma, min/max, modes."""
import itertools
import random

import numpy as np
import pytest

from test_emu_sim_valu_util import (bits_f16, exact, f16_bits, flat, lanes, round_fraction, run)

QNAN, SNAN, INF, NEG_INF, NEG_ZERO = 0x7E00, 0x7D01, 0x7C00, 0xFC00, 0x8000
DENORM, MAX = 0x0003, 0x7BFF
EDGES = [0, NEG_ZERO, 0x3C00, 0xBE00, 0x2E66, MAX, 0x0400, DENORM, 0x8201, INF, NEG_INF, QNAN,
         0x5640, 0x1001]
PAIRS = list(itertools.product(EDGES, EDGES))


def is_nan(h):
    return (h & 0x7C00) == 0x7C00 and h & 0x3FF


def reg(lo, hi=0xABCD):
    """32-bit registers with `lo` in the low half and a marker in the high half."""
    return lanes([(h << 16) | l for l, h in zip(lo, itertools.cycle([hi]))])


def ref(f, x, y):
    with np.errstate(all="ignore"):
        return int(np.array(np.float16(f(np.float64(bits_f16(x)), np.float64(bits_f16(y))))).view(
            np.uint16))


BINARY = {"v_add_f16": lambda x, y: x + y, "v_sub_f16": lambda x, y: x - y,
          "v_subrev_f16": lambda x, y: y - x, "v_mul_f16": lambda x, y: x * y}
COVERED = set(BINARY) | {"v_fma_f16", "v_fmac_f16", "v_fmamk_f16", "v_fmaak_f16", "v_min_f16",
                         "v_max_f16", "v_min3_f16", "v_max3_f16", "v_med3_f16", "v_minmax_f16",
                         "v_maxmin_f16", "v_ldexp_f16"}


@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_ops_and_preserved_high_half(name):
    xs, ys = [p[0] for p in PAIRS[:64]], [p[1] for p in PAIRS[:64]]
    for chunk in range(0, len(PAIRS), 64):
        xs = [p[0] for p in PAIRS[chunk:chunk + 64]]
        ys = [p[1] for p in PAIRS[chunk:chunk + 64]]
        old = lanes([0x12340000 | 0x5555])
        got = flat(run(name, [reg(xs), reg(ys)], old=old))
        for x, y, g in zip(xs, ys, got):
            assert g >> 16 == 0x1234                     # the other half is preserved
            want = ref(BINARY[name], x, y)
            if is_nan(want):
                assert is_nan(g & 0xFFFF) and g & 0x200
            else:
                assert g & 0xFFFF == want, (name, hex(x), hex(y), hex(g), hex(want))


def test_op_sel_reads_high_halves_and_writes_the_high_half():
    a = lanes([(0x4000 << 16) | 0x3C00])      # hi 2.0, lo 1.0
    b = lanes([(0x4200 << 16) | 0x4400])      # hi 3.0, lo 4.0
    old = lanes([0xDEADBEEF])
    assert flat(run("v_add_f16", [a, b], old=old))[0] == 0xDEAD0000 | f16_bits(5.0)
    assert flat(run("v_add_f16", [a, b], old=old, opsel=0b0011))[0] == 0xDEAD0000 | f16_bits(5.0)
    assert flat(run("v_add_f16", [a, b], old=old, opsel=0b0001))[0] == 0xDEAD0000 | f16_bits(6.0)
    assert flat(run("v_add_f16", [a, b], old=old, opsel=0b1010))[0] == \
        (f16_bits(4.0) << 16) | 0xBEEF


def test_fma_family_is_rounded_once():
    rng = random.Random(9)
    pick = lambda: rng.choice([rng.randrange(0, 0x7C00), rng.randrange(0x8000, 0xFC00)])
    a, b, c = ([pick() for _ in range(64)] for _ in range(3))
    a[:3], b[:3], c[:3] = [0x3C01, 0x3555, 0x0001], [0x3BFF, 0x4200, 0x3800], [0xBC00, 0xBC00, 0x8000]
    want = [round_fraction(exact(x, "f16") * exact(y, "f16") + exact(z, "f16"), "f16")
            for x, y, z in zip(a, b, c)]
    A, B, C = reg(a), reg(b), reg(c)
    for name in ("v_fma_f16", "v_fmamk_f16", "v_fmaak_f16"):
        assert [g & 0xFFFF for g in flat(run(name, [A, B, C]))] == want, name
    got = flat(run("v_fmac_f16", [A, B], old=C))
    assert [g & 0xFFFF for g in got] == want
    assert [g >> 16 for g in got] == [0xABCD] * 64


def test_denormal_mode_f16():
    a, z = reg([DENORM, 0x8003]), reg([0])
    assert [g & 0xFFFF for g in flat(run("v_add_f16", [a, z]))[:2]] == [DENORM, 0x8003]
    assert [g & 0xFFFF for g in flat(run("v_add_f16", [a, z], denorm_f16_64=False))[:2]] == [0, 0]
    assert [g & 0xFFFF for g in flat(run("v_add_f16", [a, z], denorm_f32=False))[:2]] == \
        [DENORM, 0x8003]                                   # the f32 mode does not touch f16


def test_clamp_f16():
    a = reg([f16_bits(v) for v in (-2.0, 0.5, 3.0)] + [QNAN])
    got = [g & 0xFFFF for g in flat(run("v_add_f16", [a, reg([0])], clamp=True))[:4]]
    assert got == [0, 0x3800, 0x3C00, 0]


def _mn(x, y, want_max):
    snan = lambda v: is_nan(v) and not v & 0x200
    if snan(x):
        return x | 0x200
    if snan(y):
        return y | 0x200
    if is_nan(x):
        return y
    if is_nan(y):
        return x
    fx, fy = bits_f16(x), bits_f16(y)
    if fx == fy == 0:
        pick_x = (not x >> 15) if want_max else bool(x >> 15)
        return x if pick_x else y
    return (x if fx >= fy else y) if want_max else (x if fx < fy else y)


def test_min_max_and_three_operand_forms():
    edges = [0, NEG_ZERO, QNAN, SNAN, 0x3C00, 0xBC00, INF, NEG_INF]
    pairs = list(itertools.product(edges, edges))
    a, b = reg([p[0] for p in pairs]), reg([p[1] for p in pairs])
    for name, want_max in (("v_min_f16", False), ("v_max_f16", True)):
        got = [g & 0xFFFF for g in flat(run(name, [a, b]))]
        assert got == [_mn(x, y, want_max) for x, y in pairs], name
    rng = random.Random(4)
    triples = [tuple(rng.choice(edges[:2] + edges[4:] + [0x4000]) for _ in range(3))
               for _ in range(64)]
    A, B, C = (reg([t[i] for t in triples]) for i in range(3))
    mn, mx = (lambda x, y: _mn(x, y, False)), (lambda x, y: _mn(x, y, True))
    med = lambda x, y, z: sorted((x, y, z), key=bits_f16)[1]
    refs = {"v_min3_f16": lambda x, y, z: mn(mn(x, y), z), "v_max3_f16": lambda x, y, z: mx(mx(x, y), z),
            "v_minmax_f16": lambda x, y, z: mx(mn(x, y), z),
            "v_maxmin_f16": lambda x, y, z: mn(mx(x, y), z)}
    for name, f in refs.items():
        assert [g & 0xFFFF for g in flat(run(name, [A, B, C]))] == [f(*t) for t in triples], name
    got = [g & 0xFFFF for g in flat(run("v_med3_f16", [A, B, C]))]
    for t, g in zip(triples, got):
        assert bits_f16(g) == bits_f16(med(*t)), t


def test_ldexp_f16_takes_an_i16_exponent():
    x = reg([0x3C00, 0x3C00, 0x3E00, 0x3C00, MAX])
    n = reg([3, 0xFFF0, 0xFFE8, 16, 1])        # 3, -16, -24 (1.5 * 2**-24 ties to even), 16, 1
    got = [g & 0xFFFF for g in flat(run("v_ldexp_f16", [x, n]))[:5]]
    assert got == [f16_bits(8.0), f16_bits(2.0**-16), 0x0002, INF, INF]


def test_omod_f16_follows_the_f16_denormal_mode():
    a = reg([f16_bits(1.5), f16_bits(-0.0), f16_bits(2.0**-14)])
    one = reg([0x3C00])
    got = [g & 0xFFFF for g in flat(run("v_mul_f16", [a, one], omod=3, ieee=False,
                                        denorm_f16_64=False))[:3]]
    assert got == [f16_bits(0.75), 0, 0]          # /2; -0 -> +0; 2^-15 is a flushed denormal
    kept = [g & 0xFFFF for g in flat(run("v_mul_f16", [a, one], omod=3, ieee=False))[:3]]
    assert kept == [f16_bits(1.5), 0x8000, f16_bits(2.0**-14)]    # ignored: denormals kept
