"""The shortcuts inside the VALU library give the general path's bits: f32/f16 fma (a sum
rounded once, a few lanes redone), min/max/med3 without NaN or zero lanes (plain numpy, or a clip
between two uniform bounds), and arithmetic results left unquieted."""
import numpy as np
import pytest

from drivers.emu.amd.shader.valu import Ctx, FloatMode, fp

CTX = Ctx(mode=FloatMode())
SPECIAL = np.array([0.0, -0.0, 1.0, -1.0, 1.5, -8.0, 8.0, np.inf, -np.inf, np.nan, 1e-40, -1e-40,
                    3.4e38, 2.0 ** -126, 0.5625], np.float32)


def general_med3(a, b, c):
    """fp.fmed3's rules with its shortcut taken out (the ISA definition, lane by lane)."""
    anynan = np.isnan(a) | np.isnan(b) | np.isnan(c)
    mx = fp.fmax(CTX, fp.F32, fp.fmax(CTX, fp.F32, a, b), c)
    same = lambda x: fp.F32.bits(mx) == fp.F32.bits(x)    # noqa: E731
    med = np.where(same(a), fp.fmax(CTX, fp.F32, b, c),
                   np.where(same(b), fp.fmax(CTX, fp.F32, a, c), fp.fmax(CTX, fp.F32, a, b)))
    return np.where(anynan, fp.fmin(CTX, fp.F32, fp.fmin(CTX, fp.F32, a, b), c), med)


def lanewise(fn, *xs):
    """fn applied one lane at a time: 1-element arrays never take a whole-array shortcut that a
    NaN or zero elsewhere would rule out."""
    n = xs[0].size
    out = np.empty(n, np.float32)
    for k in range(n):
        out[k] = fn(*(np.asarray(x).reshape(-1)[k:k + 1].reshape(1, 1) for x in xs))[0, 0]
    return out.view(np.uint32)


@pytest.mark.parametrize("lo_hi", [(-8.0, 8.0), (8.0, -8.0), (0.5, 0.5), (-0.0, 1.0), (np.nan, 1.0)])
@pytest.mark.parametrize("where", [(1, 2), (0, 1), (0, 2)])
def test_med3_with_two_uniform_operands_is_the_median(lo_hi, where):
    rng = np.random.default_rng(1)
    x = np.concatenate([SPECIAL, (rng.standard_normal(49) * 10).astype(np.float32)]).reshape(2, 32)
    ordinary = x[1:] * 1                                   # the second row has no NaN and no zero
    for rows in (x, ordinary):
        ops = [rows, rows, rows]
        ops[where[0]] = np.broadcast_to(np.float32(lo_hi[0]), rows.shape)
        ops[where[1]] = np.broadcast_to(np.float32(lo_hi[1]), rows.shape)
        with np.errstate(all="ignore"):
            got = fp.fmed3(CTX, fp.F32, *ops).view(np.uint32).ravel()
            want = lanewise(lambda a, b, c: general_med3(a, b, c), *ops)
        assert got.tolist() == want.tolist()


def test_min_max_without_nans_order_minus_zero_below_plus_zero():
    """Lane by lane: the smaller (larger) value, -0 below +0, whatever else the lanes hold."""
    rng = np.random.default_rng(2)
    pool = np.array([0.0, -0.0, 1.5, -1.5, np.inf, -np.inf, 1e-40, -1e-40, 7.0], np.float32)
    a = rng.choice(pool, (6, 32))
    b = np.where(rng.random((6, 32)) < 0.3, a, rng.choice(pool, (6, 32))).astype(np.float32)
    key = lambda x: (float(x), not np.signbit(x))           # noqa: E731  (-0 sorts before +0)
    want_min = [x if key(x) <= key(y) else y for x, y in zip(a.ravel(), b.ravel())]
    want_max = [x if key(x) >= key(y) else y for x, y in zip(a.ravel(), b.ravel())]
    bits = lambda xs: np.array(xs, np.float32).view(np.uint32).tolist()    # noqa: E731
    with np.errstate(all="ignore"):                         # as the simulator runs ops
        assert fp.fmin(CTX, fp.F32, a, b).view(np.uint32).ravel().tolist() == bits(want_min)
        assert fp.fmax(CTX, fp.F32, a, b).view(np.uint32).ravel().tolist() == bits(want_max)


def test_fma_with_many_exact_ties_redoes_only_the_inexact_ones():
    """Saturated lanes make p + c exact and often a tie of f32: most lanes are candidates, the
    exact ones are already rounded once, and the few that are inexact ties are still rounded
    once."""
    rng = np.random.default_rng(3)
    n = 4096
    a = np.where(rng.random(n) < 0.7, np.float32(8.0), rng.uniform(-8, 8, n).astype(np.float32))
    b = np.full(n, 0.5625, np.float32)
    c = rng.uniform(-2, 2, n).astype(np.float32)
    # and a sprinkle of genuine double-rounding cases: c odd, p just under half an ulp of c
    k = np.arange(0, n, 64)
    c[k] = (1 + (2 * rng.integers(0, 2 ** 22, k.size) + 1) * 2.0 ** -23).astype(np.float32)
    a[k] = np.float32(2.0 ** -24 * (1 + 2.0 ** -23))
    b[k] = np.float32(1 - 2.0 ** -23)
    got = fp.fma_narrow(fp.F32, a, b, c)
    want = fp.round_to_odd_sum(a.astype(np.float64) * b.astype(np.float64), c.astype(np.float64)).astype(np.float32)
    naive = (a.astype(np.float64) * b + c).astype(np.float32)
    assert got.view(np.uint32).tolist() == want.view(np.uint32).tolist()
    assert (naive != want).sum() >= k.size           # the crafted lanes do round twice naively


def test_fma_double_rounding_below_the_normal_range():
    """x = c + p with c an odd multiple of 2**-149 near 2**-131 and p just under 2**-150: the f64
    sum is an f32 tie, the exact value is not."""
    a = np.full(20, 2.0 ** -75 * (1 + 2.0 ** -23), np.float32)
    b = np.full(20, 2.0 ** -75 * (1 - 2.0 ** -23), np.float32)
    c = np.array([2.0 ** e + 2.0 ** -149 for e in range(-145, -125)], np.float32)
    got = fp.fma_narrow(fp.F32, a, b, c)
    want = fp.round_to_odd_sum(a.astype(np.float64) * b.astype(np.float64), c.astype(np.float64)).astype(np.float32)
    naive = (a.astype(np.float64) * b + c).astype(np.float32)
    assert got.view(np.uint32).tolist() == want.view(np.uint32).tolist()
    assert (naive != want).any()


def test_arithmetic_results_need_no_quieting():
    """add, mul and fma of signaling NaNs (any payload, either sign) deliver quiet NaNs: finish()
    skips quiet() for them."""
    snans = np.array([0x7F800001, 0xFF800001, 0x7FBFFFFF, 0x7F812345], np.uint32).view(np.float32)
    one = np.ones(4, np.float32)
    with np.errstate(all="ignore"):
        for r in (snans + one, one * snans, fp.fma_narrow(fp.F32, snans, one, one),
                  fp.fma_narrow(fp.F32, one, one, snans)):
            assert np.array_equal(fp.quiet(fp.F32, r).view(np.uint32), r.view(np.uint32))


def test_fma_matches_rounding_to_odd_at_every_magnitude():
    """fma_narrow tests only halfway sums and the lanes its rounded result puts at or below the
    smallest normal: across the whole range (sums rounding up to the smallest normal, ties near
    it, exact short sums) it equals the sum rounded to odd and then to the format, lane by lane."""
    rng = np.random.default_rng(11)
    for fmt, dt, ut in ((fp.F32, np.float32, np.uint32), (fp.F16, np.float16, np.uint16)):
        tiny = float(np.finfo(dt).tiny)
        for scale in (tiny, tiny * 2 ** -6, tiny * 2 ** 6, 1.0, 2.0 ** 40 if dt is np.float32 else 2.0 ** 6):
            n = 4096
            a = (rng.integers(-64, 64, n) * scale / 8).astype(dt)
            b = (rng.integers(-64, 64, n) / 8).astype(dt)
            c = (rng.standard_normal(n) * scale).astype(dt)
            c[::3] = (rng.integers(-4096, 4096, c[::3].size) * scale / 4096).astype(dt)
            with np.errstate(all="ignore"):
                got = fp.fma_narrow(fmt, a, b, c)
                want = fp.round_to_odd_sum(a.astype(np.float64) * b.astype(np.float64),
                                           c.astype(np.float64)).astype(dt)
            assert got.view(ut).tolist() == want.view(ut).tolist(), (fmt.name, scale)
    # the largest f32 denormal plus just under half its ulp: the float64 sum is the tie between
    # it and the smallest normal, which rounding it twice would give; the exact value is below
    a = np.full(8, 2.0 ** -75 * (1 + 2.0 ** -23), np.float32)
    b = np.full(8, 2.0 ** -75 * (1 - 2.0 ** -23), np.float32)
    c = np.full(8, 2.0 ** -126 - 2.0 ** -149, np.float32)
    with np.errstate(all="ignore"):
        got = fp.fma_narrow(fp.F32, a, b, c)
    assert (got.view(np.uint32) == c.view(np.uint32)).all()
    assert ((a.astype(np.float64) * b + c).astype(np.float32) == np.float32(2.0 ** -126)).all()


def test_fma_inexact_ties_that_subtracting_one_addend_gives_back():
    """Sums the float64 addition rounds onto an f32 tie: only subtracting the larger addend shows
    them inexact.  p = (1 + 2**-12)**2 = 1 + 2**-11 + 2**-24 with c = +-2**-80 rounds to p (and
    p + c - c gives p back): the exact value is above or below the tie.  c = 1 + 2**-23 with
    p = 2**-24 - 2**-64 rounds to the tie above c (and p + c - p gives c back): the exact value
    is below it, so the result is c, not the even neighbour.  An exact tie (c = 0) goes to even."""
    one, tiny = 1 + 2.0 ** -12, 2.0 ** -80
    short, long_ = 2.0 ** -24 * (1 + 2.0 ** -20), 1 - 2.0 ** -20        # p = 2**-24 - 2**-64
    odd = 1 + 2.0 ** -23
    a = np.array([[one, one, one, short, -short]], np.float32)
    b = np.array([[one, one, one, long_, long_]], np.float32)
    c = np.array([[tiny, -tiny, 0.0, odd, -odd]], np.float32)
    up, even = 1 + 2.0 ** -11 + 2.0 ** -23, 1 + 2.0 ** -11
    want = np.array([up, even, even, odd, -odd], np.float32)
    got = fp.fma_narrow(fp.F32, a, b, c).ravel()
    assert got.view(np.uint32).tolist() == want.view(np.uint32).tolist()
    naive = (a.astype(np.float64) * b + c).astype(np.float32).ravel()
    assert (naive != want).sum() == 3                  # rounding twice gets three lanes wrong


def _exact_fma64_bits(x, y, z):
    """The double fma of Python floats lane by lane: the exact value rounded once (an exact zero
    and non-finite operands: the IEEE sum of the exact product)."""
    from fractions import Fraction
    if not all(map(np.isfinite, (x, y, z))) or x == 0 or y == 0:
        with np.errstate(all="ignore"):
            return np.float64(np.float64(x) * np.float64(y) + np.float64(z)).view(np.uint64)
    exact = Fraction(x) * Fraction(y) + Fraction(z)
    if exact == 0:
        return np.float64(x * y + z).view(np.uint64)
    return np.float64(fp.exact_to_double(exact, 0.0)).view(np.uint64)


def test_fma64_error_free_path_at_the_ends_of_its_range():
    """The error-free path takes every lane whose product lies in [2**-900, 2**1000] and whose
    result is finite: addends down among the denormals and up to the largest double, sums that
    cancel into the denormals, factors near the largest double whose split rounds up to
    infinity, products just inside and outside the bounds, sums that overflow.  Every lane is
    the exact value rounded once."""
    rng = np.random.default_rng(12)
    big = np.finfo(np.float64).max
    def draw(lo, hi, n):
        return rng.choice((-1.0, 1.0), n) * (1 + rng.random(n)) * 2.0 ** rng.integers(lo, hi, n)
    n = 128
    cases = [
        (draw(-40, 40, n), draw(-40, 40, n), draw(-1074, -1000, n)),         # denormal addends
        (draw(-40, 40, n), draw(-40, 40, n), draw(1000, 1024, n)),           # huge addends
        (draw(-451, -449, n), draw(-451, -449, n), draw(-1074, -880, n)),    # products near 2**-900
        (draw(499, 501, n), draw(499, 501, n), draw(990, 1024, n)),          # near 2**1000, overflow
        (np.full(n, big) * (1 - rng.random(n) * 2.0 ** -30), draw(-40, -20, n), draw(900, 1000, n)),
    ]
    # exact cancellation into the denormals: c = -(a * b rounded), the product's error remains
    a, b = draw(-460, -440, n), draw(-470, -450, n)
    cases.append((a, b, -(a * b)))
    a, b = draw(-40, 40, n), draw(-40, 40, n)
    cases.append((a, b, -(a * b) * (1 + 2.0 ** -52 * rng.integers(-4, 5, n))))
    a, b = draw(-500, -470, n), draw(-500, -470, n)              # products below 2**-900
    cases.append((a, b, -(a * b) * (1 + 2.0 ** -52 * rng.integers(-4, 5, n))))
    for a, b, c in cases:
        a, b, c = (x.reshape(-1, 32) for x in (a, b, c))
        with np.errstate(all="ignore"):
            got = fp.fma64(a, b, c).view(np.uint64).ravel().tolist()
        want = [int(_exact_fma64_bits(x, y, z)) for x, y, z in zip(a.ravel().tolist(), b.ravel().tolist(),
                                                                    c.ravel().tolist())]
        assert got == want
    # the lanes above went through the error-free path, not the exact one
    with np.errstate(all="ignore"):
        _, _, ok = fp._fma64_core(*(x.reshape(-1, 32) for x in cases[0]))
    assert ok.all()
