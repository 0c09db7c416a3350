"""MODE.FP_ROUND: add / sub / mul / fma / narrowing conversions under all four rounding modes.

Round to nearest even takes numpy's native path. The directed modes compute a value that carries
the exact result's position relative to the destination grid, round it to nearest, then step one
ulp where the mode disagrees:
- f16 / f32 results: the float64 value rounded to odd (products of f16/f32 are exact in float64,
  sums are rounded to odd), whose order against any f16/f32 number is the exact result's;
- f64 results: the error term of TwoSum / TwoProduct, or exact rationals (fma, tiny products).
IEEE zero signs: an exact zero sum of non-zero terms (or of +0 and -0) is -0 toward -inf, else +0.
"""
from fractions import Fraction

import numpy as np

from .ctx import ROUND_MINUS_INF, ROUND_NEAREST_EVEN, ROUND_PLUS_INF, ROUND_TOWARD_ZERO
from .fp import F64, exact_to_double, fma64, fma_narrow, round_to_odd_sum, two_prod, two_sum


def round_mode(ctx, fmt):
    """The MODE rounding field that governs results of format fmt."""
    return ctx.mode.round_f32 if fmt.width == 32 else ctx.mode.round_f16_64


def adjust(y, err, rm):
    """Step y one ulp as mode rm requires, given the sign of (exact - y) in err."""
    if rm == ROUND_NEAREST_EVEN:
        return y
    if rm == ROUND_TOWARD_ZERO:
        down, up = (y > 0) & (err < 0), (y < 0) & (err > 0)
    elif rm == ROUND_PLUS_INF:
        down, up = np.zeros(y.shape, bool), err > 0
    else:
        down, up = err < 0, np.zeros(y.shape, bool)
    t = y.dtype.type
    y = np.where(up, np.nextafter(y, t(np.inf)), y)
    return np.where(down, np.nextafter(y, t(-np.inf)), y).astype(y.dtype)


def narrow(fmt, x64, rm):
    """float64 (exact or rounded to odd) -> fmt under rounding mode rm."""
    y = x64.astype(fmt.dtype)
    if rm == ROUND_NEAREST_EVEN:
        return y
    err = np.sign(np.where(np.isnan(x64), 0, x64 - y.astype(np.float64)))
    return adjust(y, err, rm)


def _zero_sign(r, x, y, rm):
    """IEEE sign of an exactly zero sum x + y (x, y exact addends) under rounding mode rm: -0
    toward -inf unless both addends are +0. A sum that merely rounds to zero keeps its sign (a
    float sum is zero only when exact, so x + y == 0 tells the two apart)."""
    if rm != ROUND_MINUS_INF:
        return r
    both_plus_zero = (x == 0) & (y == 0) & ~np.signbit(x) & ~np.signbit(y)
    exact_zero = (x + y) == 0
    return np.where(exact_zero & ~both_plus_zero, np.copysign(r.dtype.type(0), -1), r) \
        .astype(r.dtype)


def _f64_from_error(s, err, finite_in, rm):
    """Directed f64 result from the nearest value s and its error term (TwoSum / TwoProduct)."""
    overflow = np.isinf(s) & finite_in
    e = np.where(overflow, -np.sign(s), np.sign(np.where(np.isfinite(err), err, 0)))
    return adjust(s, e, rm)


def add(ctx, fmt, a, b):
    rm = round_mode(ctx, fmt)
    if rm == ROUND_NEAREST_EVEN:
        return a + b
    if fmt is F64:
        s, err = two_sum(a, b)
        r = _f64_from_error(s, err, np.isfinite(a) & np.isfinite(b), rm)
    else:
        r = narrow(fmt, round_to_odd_sum(a.astype(np.float64), b.astype(np.float64)), rm)
    return _zero_sign(r, a, b, rm)


def mul(ctx, fmt, a, b):
    rm = round_mode(ctx, fmt)
    if rm == ROUND_NEAREST_EVEN:
        return a * b
    if fmt is not F64:
        return narrow(fmt, a.astype(np.float64) * b.astype(np.float64), rm)
    p, err = two_prod(a, b)
    r = _f64_from_error(p, err, np.isfinite(a) & np.isfinite(b), rm)
    # TwoProduct's error term is unreliable near underflow (and its split overflows for huge
    # factors): those lanes are rounded from the exact product
    finite = np.isfinite(a) & np.isfinite(b)
    hard = finite & (((np.abs(p) < 2.0 ** -960) & (a != 0) & (b != 0))
                     | (np.abs(a) > 2.0 ** 995) | (np.abs(b) > 2.0 ** 995))
    return _exact_lanes(r, hard, lambda i: Fraction(float(a[i])) * Fraction(float(b[i])), rm)


def fma(ctx, fmt, a, b, c):
    rm = round_mode(ctx, fmt)
    if fmt is F64:
        r = fma64(a, b, c)
        if rm == ROUND_NEAREST_EVEN:
            return r
        finite = np.isfinite(a) & np.isfinite(b) & np.isfinite(c)
        exact_f = lambda i: Fraction(float(a[i])) * Fraction(float(b[i])) + Fraction(float(c[i]))
        # an exact zero needs a*b exact (a zero factor or -c), so a*b + c gives its RNE sign
        zeros = _zero_sign(a * b + c, a * b, c, rm)
        return _exact_lanes(r, finite, exact_f, rm, zeros)
    if rm == ROUND_NEAREST_EVEN:
        return fma_narrow(fmt, a, b, c)
    p = a.astype(np.float64) * b.astype(np.float64)
    r = narrow(fmt, round_to_odd_sum(p, c.astype(np.float64)), rm)
    return _zero_sign(r, p, c.astype(np.float64), rm)


def ldexp64(ctx, x, n):
    """x * 2**n for doubles; only results that leave the normal range can round, and under a
    directed mode those lanes are rounded from the exact value."""
    r = np.ldexp(x, n)
    rm = round_mode(ctx, F64)
    if rm == ROUND_NEAREST_EVEN:
        return r
    hard = np.isfinite(x) & (x != 0) & ((np.abs(r) < 2.0 ** -1022) | np.isinf(r))
    return _exact_lanes(r, hard, lambda i: Fraction(float(x[i])) * Fraction(2) ** int(n[i]), rm)


def _exact_lanes(r, lanes, exact_of, rm, zeros=None):
    """Recompute the selected lanes of a double result from exact rationals under mode rm
    (`zeros`: the signed result for lanes whose exact value is zero)."""
    if not lanes.any():
        return r
    r = np.array(r, np.float64)
    for idx in zip(*np.nonzero(lanes)):
        x = exact_of(idx)
        if x == 0:
            r[idx] = zeros[idx] if zeros is not None else r[idx]
            continue
        y = exact_to_double(x, 0.0)
        if np.isfinite(y):
            e = (x > Fraction(y)) - (x < Fraction(y))
        else:
            e = -1 if y > 0 else 1
        r[idx] = adjust(np.array([y]), np.array([e]), rm)[0]
    return r
