"""fp.fma64 (v_fma_f64, v_fmac_f64, v_div_fmas_f64, the f64 fma of compiled blocks) against the
exact value rounded once, lane by lane, on adversarial operands: exact and near ties of the final
rounding, products whose error decides a tie, sums cancelling into the denormals, products at
the ends of the error-free path's range and past them, results at the overflow boundary, signed
zeros, NaN payloads and infinities.  Each batch mixes them with ordinary lanes, in several
proportions, so that the error-free path, the few-lanes path and the whole-array fallback all
run."""
from fractions import Fraction

import numpy as np
import pytest

from drivers.emu.amd.shader.valu import fp

BIG = np.finfo(np.float64).max
NANS = [0x7FF8000000000000, 0xFFF8000000000123, 0x7FF0000000000001, 0xFFF4000000000ABC]   # quiet, signalling


def _reference_bits(x, y, z):
    """The IEEE double fma of three Python floats: the exact a * b + c rounded once to nearest
    even; a zero or non-finite operand makes a * b exact, so the IEEE sum of it is the result (a
    finite product with an infinite addend is the addend); an exact zero has the sign of the
    plain sum."""
    with np.errstate(all="ignore"):
        plain = np.float64(np.float64(x) * np.float64(y) + np.float64(z))
    if not all(map(np.isfinite, (x, y, z))):
        if np.isfinite(x) and np.isfinite(y) and np.isinf(z):      # a * b may overflow: not inf - inf
            return int(np.float64(z).view(np.uint64))
        return int(plain.view(np.uint64))
    if x == 0 or y == 0:
        return int(plain.view(np.uint64))
    exact = Fraction(x) * Fraction(y) + Fraction(z)
    if exact == 0:
        return int(np.float64(x * y + z).view(np.uint64))
    return int(np.float64(fp.exact_to_double(exact, 0.0)).view(np.uint64))


def _draw(rng, lo, hi, n):
    return rng.choice((-1.0, 1.0), n) * (1 + rng.random(n)) * 2.0 ** rng.integers(lo, hi, n)


def _ulp(x):
    return np.spacing(np.abs(x))


def _adversarial(rng, n):
    """(a, b, c) triples of one kind per call, n lanes each."""
    kinds = []
    # exact ties: a short product that is half an ulp of c (times an odd number)
    c = _draw(rng, -60, 60, n)
    k = rng.choice((1.0, 3.0, 5.0, -1.0, -3.0), n)
    kinds.append((k * 2.0 ** rng.integers(-3, 4, n), _ulp(c) / 2 * 2.0 ** -rng.integers(-3, 4, n), c))
    # near ties: half an ulp plus or minus an error far below the product's own last bit (the
    # product is inexact: (1 + 2**-52) * (1 + 2**-52 * m))
    m = rng.integers(1, 2 ** 20, n).astype(np.float64)
    a = (1 + 2.0 ** -52 * m) * _ulp(c) / 2 * rng.choice((-1.0, 1.0), n)
    kinds.append((a, 1 + 2.0 ** -52 * rng.choice((1.0, -1.0, 3.0), n), c))
    # ties only the product's error decides: a * b = half an ulp of c times (1 +- 2**-78), whose
    # rounded product is the tie itself
    a = rng.choice((1 + 2.0 ** -26, 1 - 2.0 ** -26), n)
    b = np.where(a > 1, 1 - 2.0 ** -26 + 2.0 ** -52, 1 + 2.0 ** -26 + 2.0 ** -52) * _ulp(c) / 2
    kinds.append((a * rng.choice((-1.0, 1.0), n), b, c))
    # cancellation: c = -(a * b rounded) and a few ulps off it
    a, b = _draw(rng, -200, 200, n), _draw(rng, -200, 200, n)
    kinds.append((a, b, -(a * b) * (1 + 2.0 ** -52 * rng.integers(-3, 4, n))))
    # cancellation into the denormals, products near and below 2**-900, denormal addends
    a, b = _draw(rng, -540, -480, n), _draw(rng, -560, -480, n)
    kinds.append((a, b, -(a * b) * (1 + 2.0 ** -52 * rng.integers(-3, 4, n))))
    kinds.append((_draw(rng, -460, -440, n), _draw(rng, -470, -440, n), _draw(rng, -1074, -1000, n)))
    kinds.append((_draw(rng, -5, 5, n), _draw(rng, -1074, -1030, n), _draw(rng, -1074, -1022, n)))
    # overflow boundary: products near the largest double, addends pulling them back or over
    a = BIG * (1 - rng.random(n) * 2.0 ** -20) * rng.choice((-1.0, 1.0), n)
    kinds.append((a, 1 + _draw(rng, -60, -50, n), -a * rng.choice((0.5, 1.0, -2.0 ** -40), n)))
    kinds.append((_draw(rng, 500, 513, n), _draw(rng, 500, 513, n), _draw(rng, 1000, 1024, n)))
    kinds.append((np.full(n, BIG), _draw(rng, -1, 0, n), _draw(rng, 1020, 1024, n)))
    # signed zeros: zero factors, exact zero sums of non-zero terms, zero addends
    a, b = _draw(rng, -30, 30, n), rng.choice((2.0, -0.5, 3.0), n)
    kinds.append((a, b, -(a * b)))
    kinds.append((rng.choice((0.0, -0.0), n), _draw(rng, -30, 30, n), rng.choice((0.0, -0.0, 1.5), n)))
    kinds.append((_draw(rng, -30, 30, n), _draw(rng, -30, 30, n), rng.choice((0.0, -0.0), n)))
    # NaN payloads (quiet and signalling) and infinities in every slot
    specials = np.concatenate([np.array(NANS, np.uint64).view(np.float64), [np.inf, -np.inf, 0.0, -0.0, BIG]])
    for slot in range(3):
        t = [_draw(rng, -30, 30, n) for _ in range(3)]
        t[slot] = rng.choice(specials, n)
        kinds.append(tuple(t))
    return kinds


def _mixed(rng, kinds, ordinary_share):
    """One (8, 32) batch: ordinary lanes with lanes of every kind scattered among them."""
    n = 256
    a, b, c = (_draw(rng, -40, 40, n) for _ in range(3))
    odd = rng.random(n) >= ordinary_share
    pick = rng.integers(0, len(kinds), n)
    lane = rng.integers(0, len(kinds[0][0]), n)
    for x, slot in zip((a, b, c), range(3)):
        x[odd] = [kinds[p][slot][i] for p, i in zip(pick[odd], lane[odd])]
    return tuple(x.reshape(8, 32) for x in (a, b, c))


def _check(a, b, c):
    with np.errstate(all="ignore"):
        got = fp.fma64(a, b, c).view(np.uint64).ravel().tolist()
    want = [_reference_bits(x, y, z) for x, y, z in zip(a.ravel().tolist(), b.ravel().tolist(), c.ravel().tolist())]
    bad = [(i, got[i], want[i]) for i in range(len(got)) if got[i] != want[i]]
    assert not bad, bad[:5]


@pytest.mark.parametrize("seed", range(3))
def test_fma64_is_the_exact_value_rounded_once_on_adversarial_lanes(seed):
    rng = np.random.default_rng(seed)
    kinds = _adversarial(rng, 64)
    for a, b, c in kinds:                               # each kind alone, on whole arrays
        _check(*(x.reshape(2, 32) for x in (a, b, c)))
    for share in (1.0, 0.995, 0.97, 0.5, 0.0):         # none, a few, many lanes off the fast path
        for _ in range(3):
            _check(*_mixed(rng, kinds, share))


def test_fma64_error_free_path_takes_the_ordinary_lanes_and_ties():
    """The error-free path itself (not the exact fallback) decides exact and near ties and
    cancellation to a normal result: every such lane is ordinary."""
    rng = np.random.default_rng(7)
    kinds = _adversarial(rng, 64)
    for a, b, c in kinds[:4]:
        a, b, c = (x.reshape(2, 32) for x in (a, b, c))
        with np.errstate(all="ignore"):
            _, r, ok = fp._fma64_core(a, b, c)
        assert ok.all()
        want = [_reference_bits(x, y, z) for x, y, z in zip(a.ravel().tolist(), b.ravel().tolist(),
                                                             c.ravel().tolist())]
        assert r.view(np.uint64).ravel().tolist() == want


def test_fma64_group_is_the_fmas_one_by_one():
    """One call over up to four independent fmas (contiguous operands of one shape) gives each
    the bits it gets alone, NaN payloads included; operands of other layouts run one by one."""
    rng = np.random.default_rng(9)
    kinds = _adversarial(rng, 64)
    triples = [_mixed(rng, kinds, share) for share in (0.9, 0.99, 0.5, 1.0)]
    with np.errstate(all="ignore"):
        alone = [fp.fma64(*t).tobytes() for t in triples]
        for n in (1, 2, 3, 4):
            got = fp.fma64_group(*(x for t in triples[:n] for x in t))
            assert [r.tobytes() for r in got] == alone[:n]
        a, b, c = triples[0]
        got = fp.fma64_group(a[:, ::2], b[:, ::2], c[:, ::2], *triples[1])
        assert got[0].tobytes() == fp.fma64(a[:, ::2], b[:, ::2], c[:, ::2]).tobytes()
        assert got[1].tobytes() == alone[1]
