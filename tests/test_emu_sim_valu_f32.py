"""f32 arithmetic: rounding, fma exactness, denormal modes, output modifiers, IEEE min/max."""
import itertools
import random

import numpy as np
import pytest

from test_emu_sim_valu_util import (W, bits_f32, exact, f32_bits, flat, lanes, round_fraction,
                                    run)

QNAN, SNAN, NEG_QNAN = 0x7FC00000, 0x7FA00001, 0xFFC00000
DENORM, NEG_DENORM, MIN_NORMAL, MAX = 0x00000100, 0x80000345, 0x00800000, 0x7F7FFFFF
INF, NEG_INF, NEG_ZERO = 0x7F800000, 0xFF800000, 0x80000000
EDGES = [0, NEG_ZERO, f32_bits(1.0), f32_bits(-1.5), f32_bits(0.1), f32_bits(3e38), MAX,
         MIN_NORMAL, DENORM, NEG_DENORM, INF, NEG_INF, QNAN, f32_bits(-2.5e-20), f32_bits(7.0),
         f32_bits(1e-38), f32_bits(-3.0), f32_bits(2.0 ** -126 * 1.5)]
PAIRS = list(itertools.product(EDGES, EDGES))


def is_nan(b):
    return (b & 0x7F800000) == 0x7F800000 and b & 0x7FFFFF


def pair_arrays():
    a = np.array([p[0] for p in PAIRS], np.uint32)
    b = np.array([p[1] for p in PAIRS], np.uint32)
    n = len(PAIRS)
    pad = (-n) % (W * 32)
    a, b = np.pad(a, (0, pad)), np.pad(b, (0, pad))
    return a.reshape(-1, 32), b.reshape(-1, 32)


def ref_binary(f, x, y):
    with np.errstate(all="ignore"):
        r = np.float32(f(np.float64(bits_f32(x)), np.float64(bits_f32(y))))
    return int(np.array(r).view(np.uint32))


BINARY = {
    "v_add_f32": lambda x, y: x + y,
    "v_sub_f32": lambda x, y: x - y,
    "v_subrev_f32": lambda x, y: y - x,
    "v_mul_f32": lambda x, y: x * y,
}
COVERED = set(BINARY) | {"v_fma_f32", "v_fmac_f32", "v_fmamk_f32", "v_fmaak_f32", "v_min_f32",
                         "v_max_f32", "v_min3_f32", "v_max3_f32", "v_med3_f32", "v_minmax_f32",
                         "v_maxmin_f32"}


@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_ops_round_like_float64_then_float32(name):
    a, b = pair_arrays()
    got = flat(run(name, [a, b]))
    for x, y, g in zip(flat(a), flat(b), got):
        want = ref_binary(BINARY[name], x, y)
        if is_nan(want):
            assert is_nan(g) and g & 0x00400000, (name, hex(x), hex(y), hex(g))
        else:
            assert g == want, (name, hex(x), hex(y), hex(g), hex(want))


def test_nan_results_are_quiet_and_propagate_an_input_payload():
    a = lanes([SNAN, QNAN | 5, f32_bits(1.0), INF])
    b = lanes([f32_bits(1.0), f32_bits(2.0), SNAN, NEG_INF])
    got = flat(run("v_add_f32", [a, b]))[:4]
    assert got[0] == SNAN | 0x00400000
    assert got[1] == QNAN | 5
    assert got[2] == SNAN | 0x00400000
    assert is_nan(got[3]) and got[3] & 0x00400000     # inf - inf: the default NaN


def _random_f32(rng, n):
    out = []
    for _ in range(n):
        e = rng.randrange(-140, 128)
        out.append(f32_bits(rng.choice((1, -1)) * rng.random() * 2.0 ** e) if e < 127 else MAX)
    return out


def test_fma_is_rounded_once():
    rng = random.Random(5)
    a, b, c = _random_f32(rng, 64), _random_f32(rng, 64), _random_f32(rng, 64)
    # cancellation and ties that a float64 product + add would double-round
    a[:6] = [f32_bits(1 + 2**-23), f32_bits(1 + 2**-12), f32_bits(3.0), DENORM,
             f32_bits(2.0**-70), f32_bits(1 - 2**-24)]
    b[:6] = [f32_bits(1 - 2**-23), f32_bits(1 + 2**-12), f32_bits(1 / 3), f32_bits(0.5),
             f32_bits(2.0**-70), f32_bits(1 + 2**-23)]
    c[:6] = [f32_bits(-1.0), f32_bits(-1.0), f32_bits(-1.0), NEG_DENORM, f32_bits(2.0**-149),
             f32_bits(-1.0)]
    A, B, C = lanes(a), lanes(b), lanes(c)
    for name, srcs in (("v_fma_f32", [A, B, C]), ("v_fmamk_f32", [A, B, C]),
                       ("v_fmaak_f32", [A, B, C])):
        got = flat(run(name, srcs))
        for x, y, z, g in zip(a, b, c, got):
            assert g == round_fraction(exact(x) * exact(y) + exact(z)), (name, hex(x), hex(y))
    got = flat(run("v_fmac_f32", [A, B], old=C))
    assert got[:64] == [round_fraction(exact(x) * exact(y) + exact(z)) for x, y, z in zip(a, b, c)]


def test_fma_signed_zero_and_infinities():
    a = lanes([NEG_ZERO, f32_bits(1.0), INF, f32_bits(2.0), 0])
    b = lanes([f32_bits(1.0), f32_bits(-1.0), 0, f32_bits(3.0), INF])
    c = lanes([NEG_ZERO, f32_bits(1.0), f32_bits(1.0), NEG_INF, f32_bits(1.0)])
    got = flat(run("v_fma_f32", [a, b, c]))[:5]
    assert got[0] == NEG_ZERO and got[1] == 0 and got[3] == NEG_INF
    assert is_nan(got[2]) and is_nan(got[4])


# ---- denormal modes -----------------------------------------------------------------------------
def test_denormal_inputs_flushed_or_kept():
    a = lanes([DENORM, NEG_DENORM])
    z = lanes([0, 0])
    keep = flat(run("v_add_f32", [a, z], denorm_f32=True))[:2]
    assert keep == [DENORM, NEG_DENORM]
    flushed = flat(run("v_add_f32", [a, z], denorm_f32=False))[:2]
    assert flushed == [0, 0]               # -denorm flushes to -0, and -0 + +0 = +0
    assert flat(run("v_mul_f32", [a, lanes([f32_bits(1.0)])], denorm_f32=False))[:2] \
        == [0, NEG_ZERO]


def test_denormal_results_flushed_or_kept():
    tiny = lanes([f32_bits(2.0**-70), f32_bits(-(2.0**-70))])
    keep = flat(run("v_mul_f32", [tiny, tiny], denorm_f32=True))[:2]
    assert keep == [f32_bits(2.0**-140)] * 2
    assert flat(run("v_mul_f32", [tiny, tiny], denorm_f32=False))[:2] == [0, 0]
    neg = flat(run("v_mul_f32", [tiny, lanes([f32_bits(-(2.0**-70))])], denorm_f32=False))[:2]
    assert neg == [NEG_ZERO, 0]
    # the f16/f64 denormal mode does not touch f32
    assert flat(run("v_mul_f32", [tiny, tiny], denorm_f16_64=False))[:1] == [f32_bits(2.0**-140)]


# ---- output modifiers ---------------------------------------------------------------------------
OMOD_SCALE = {1: 2.0, 2: 4.0, 3: 0.5}


@pytest.mark.parametrize("omod", [1, 2, 3])
def test_omod_scales_when_ieee_is_off_and_denormals_flush(omod):
    vals = [1.5, -3.0, 0.0, 1e38, 2.0**-125, -0.0]
    a = lanes([f32_bits(v) for v in vals])
    one = lanes([f32_bits(1.0)])
    got = flat(run("v_mul_f32", [a, one], omod=omod, ieee=False, denorm_f32=False))[:len(vals)]
    for v, g in zip(vals, got):
        with np.errstate(over="ignore"):
            want = np.float32(np.float64(v) * OMOD_SCALE[omod])
        if abs(want) < 2.0**-126:
            want = np.float32(0.0)                       # flushed, and -0 becomes +0
        assert g == f32_bits(float(want)), (v, omod)


@pytest.mark.parametrize("mode", [dict(ieee=True, denorm_f32=False),
                                  dict(ieee=False, denorm_f32=True)])
def test_omod_is_ignored_in_ieee_mode_or_with_output_denormals(mode):
    a = lanes([f32_bits(1.5), NEG_ZERO])
    got = flat(run("v_mul_f32", [a, lanes([f32_bits(1.0)])], omod=1, **mode))[:2]
    assert got == [f32_bits(1.5), NEG_ZERO]


def test_clamp_limits_to_unit_interval_and_nan_per_dx10_clamp():
    vals = [f32_bits(v) for v in (-0.5, 0.25, 1.0, 7.0, -0.0)] + [QNAN, INF, NEG_INF]
    a, z = lanes(vals), lanes([0])
    got = flat(run("v_add_f32", [a, z], clamp=True))[:len(vals)]
    assert got == [0, f32_bits(0.25), f32_bits(1.0), f32_bits(1.0), 0, 0, f32_bits(1.0), 0]
    kept_nan = flat(run("v_add_f32", [a, z], clamp=True, dx10_clamp=False))[5]
    assert is_nan(kept_nan)


def test_source_modifiers_abs_and_neg():
    a, b = lanes([f32_bits(-2.0)]), lanes([f32_bits(3.0)])
    assert flat(run("v_add_f32", [a, b], abs=1))[0] == f32_bits(5.0)
    assert flat(run("v_add_f32", [a, b], neg=2))[0] == f32_bits(-5.0)
    assert flat(run("v_add_f32", [a, b], abs=1, neg=1))[0] == f32_bits(1.0)   # -|a| + b


# ---- IEEE min / max ----------------------------------------------------------------------------
def ref_min_max(x, y, want_max, ieee):
    """The RDNA3 ISA V_MIN_F32 / V_MAX_F32 pseudocode on bits."""
    snan = lambda v: is_nan(v) and not v & 0x00400000
    if ieee and snan(x):
        return x | 0x00400000
    if ieee and snan(y):
        return y | 0x00400000
    if is_nan(y):                         # a NaN S1 is checked first: D = S0 (even a NaN S0)
        return x
    if is_nan(x):
        return y
    fx, fy = bits_f32(x), bits_f32(y)
    if fx == fy == 0:
        neg_x = x >> 31
        if want_max:
            return x if not neg_x else y
        return x if neg_x else y
    return (x if fx >= fy else y) if want_max else (x if fx < fy else y)


@pytest.mark.parametrize("ieee", [True, False])
@pytest.mark.parametrize("name", ["v_min_f32", "v_max_f32"])
def test_min_max_nan_and_signed_zero_rules(name, ieee):
    edges = [0, NEG_ZERO, QNAN, SNAN, NEG_QNAN, f32_bits(1.0), f32_bits(-1.0), INF, NEG_INF,
             DENORM]
    pairs = list(itertools.product(edges, edges))
    a, b = lanes([p[0] for p in pairs]), lanes([p[1] for p in pairs])
    got = flat(run(name, [a, b], ieee=ieee))
    for (x, y), g in zip(pairs, got):
        want = ref_min_max(x, y, name == "v_max_f32", ieee)   # operands pass through as they are
        assert g == want, (name, ieee, hex(x), hex(y), hex(g), hex(want))


def test_min3_max3_minmax_maxmin_med3():
    rng = random.Random(3)
    pool = [0, NEG_ZERO, QNAN, SNAN, f32_bits(1.0), f32_bits(-2.0), INF, NEG_INF, f32_bits(0.5)]
    triples = [tuple(rng.choice(pool) for _ in range(3)) for _ in range(64)]
    A, B, C = (lanes([t[i] for t in triples]) for i in range(3))
    mn = lambda x, y: ref_min_max(x, y, False, True)
    mx = lambda x, y: ref_min_max(x, y, True, True)
    def med3(x, y, z):
        if any(is_nan(v) for v in (x, y, z)):
            return mn(mn(x, y), z)
        top = mx(mx(x, y), z)
        if top == x:
            return mx(y, z)
        if top == y:
            return mx(x, z)
        return mx(x, y)
    refs = {"v_min3_f32": lambda x, y, z: mn(mn(x, y), z),
            "v_max3_f32": lambda x, y, z: mx(mx(x, y), z),
            "v_minmax_f32": lambda x, y, z: mx(mn(x, y), z),
            "v_maxmin_f32": lambda x, y, z: mn(mx(x, y), z),
            "v_med3_f32": med3}
    for name, f in refs.items():
        got = flat(run(name, [A, B, C]))
        for t, g in zip(triples, got):
            assert g == f(*t), (name, [hex(v) for v in t], hex(g))
    plain = lanes([f32_bits(v) for v in (3.0, -1.0, 2.0, 7.0, 5.0, 6.0)])
    shift = lambda k: np.roll(plain, k, axis=1)
    got = flat(run("v_med3_f32", [plain, shift(1), shift(2)]))[2:6]
    vals = [3.0, -1.0, 2.0, 7.0, 5.0, 6.0]
    assert got == [f32_bits(sorted(vals[i - 2:i + 1])[1]) for i in range(2, 6)]


def test_ldexp_f32_rounds_once_and_saturates_exponents():
    x = lanes([f32_bits(v) for v in (1.5, 1.5, 3.0, 1.0, -1.0, 1.0)] + [QNAN])
    n = lanes([v & 0xFFFFFFFF for v in (4, -149, -150, 128, 2**31 - 1, -2**31, 0)])
    got = flat(run("v_ldexp_f32", [x, n]))[:7]
    # 1.5 * 2^-149 ties to even (2 * 2^-149); 3 * 2^-150 = 1.5 * 2^-149 likewise
    assert got[:6] == [f32_bits(24.0), 2, 2, INF, NEG_INF, 0]
    assert is_nan(got[6])
    assert flat(run("v_ldexp_f32", [x, n], denorm_f32=False))[1] == 0


COVERED.add("v_ldexp_f32")
