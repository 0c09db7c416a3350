"""The division helpers v_div_scale / v_div_fmas / v_div_fixup (f16, f32, f64).

They follow the RDNA3 ISA pseudocode, corrected where its text cannot be what the hardware does
(each correction is what makes LLVM's division sequence return the correctly rounded quotient,
which tests/test_emu_sim_valu_division.py checks end to end):
- v_div_scale scales its first source by 2**(+-64) (f32) / 2**(+-128) (f64) and sets VCC when the
  quotient needs post-scaling. When both 1/den and num/den are denormal, the denominator is scaled
  *down* (the text's ldexp(S0, 64) would overflow a denominator above 2**126 to infinity).
- v_div_fmas post-scales the fma by 2**64 when S2's exponent is above the bias (|S2| >= 2), else
  by 2**-64 (2**+-128 for f64), with one rounding overall; it reads its inputs unflushed.
- v_div_fixup: UNDERFLOW is a signed zero (|quotient| < 2**-150 rounds to 0), and the OVERFLOW
  case tests the quotient S0 (an inf/NaN quotient from an overflowed sequence becomes a signed
  infinity; the text's exponent(S1) == max is unreachable after the inf/NaN cases).
"""
import math

import numpy as np

from . import fp_round
from .fp import F16, F32, F64, round_to_odd_sum, exponent, fma64, fma64_quiet, fma_exact, is_denorm
from .kinds import K16, K32, K64
from .registry import op

_SCALE = {F32: (64, 96, 23), F64: (128, 768, 53)}       # scale, exponent gap, mantissa bits


def _div_scale(kind):
    fmt = kind.fmt
    scale, gap, tiny = _SCALE[fmt]
    bits = kind.reg_bits
    smallest_normal = np.float64(np.finfo(fmt.dtype).tiny)
    # the lanes no case can hold: S1 normal below 2**(bias-1) (1/S1 normal), S2 normal above
    # 2**(tiny-bias) and not inf/NaN, exponent(S2) - exponent(S1) in [2 - bias, gap - 1] (S2/S1
    # normal, not near the largest float)
    scale_odd = _odd_ranges(fmt, (1, 2 * fmt.bias - 2), (tiny + 1, fmt.emax - 1), (2 - fmt.bias, gap - 1))

    def scaled(ctx, s0, n):
        # (run's caller has silenced numpy's warnings)
        rm = fp_round.round_mode(ctx, fmt)
        if fmt is F64:
            if rm == fp_round.ROUND_NEAREST_EVEN:
                return np.ldexp(s0, n)                    # fp_round.ldexp64's own result there
            return fp_round.ldexp64(ctx, s0, np.broadcast_to(n, s0.shape))
        # exact in float64, rounded once under MODE
        return fp_round.narrow(fmt, np.ldexp(s0.astype(np.float64), n), rm)

    @op("v_div_scale_" + fmt.name, (bits, bits, bits), bits, mask_out=True)
    def run(ctx, srcs, old):
        s0, s1, s2 = (kind.read(ctx, srcs, i) for i in range(3))
        odd = _odd_lanes(fmt, s1, s2, scale_odd)
        if odd is not None:
            d, vcc = s0.copy(), np.zeros(s0.shape, bool)
            if odd.size:
                _scale_lanes(ctx, fmt, s0, s1, s2, odd, d, vcc, scaled, scale, gap, tiny, smallest_normal)
            return kind.write(ctx, old, d, quiet_nans=False), vcc
        e1, e2 = exponent(fmt, s1), exponent(fmt, s2)
        up, down = scaled(ctx, s0, scale), scaled(ctx, s0, -scale)
        with np.errstate(all="ignore"):
            # "1/S1 is denormal", "S2/S1 is denormal": magnitudes below the format's smallest
            # normal (computed in double, so a quotient that would underflow to 0 counts too)
            below_normal = lambda v: (v != 0) & (np.abs(v) < smallest_normal)
            rcp_denorm = below_normal(1.0 / s1.astype(np.float64))
            quot_denorm = below_normal(s2.astype(np.float64) / s1.astype(np.float64))
        near_max = (e2 - e1) >= gap                       # N/D near the largest float
        both = rcp_denorm & quot_denorm
        # the pseudocode's cases in order: (condition, D or None for S0 itself, VCC)
        cases = ((s2 == 0) | (s1 == 0), fmt.dtype(np.nan), False), \
            (near_max & (s0 == s1), up, True), (near_max, None, True), (is_denorm(fmt, s1), up, False), \
            (both & (s0 == s1), down, True), (both, None, True), (rcp_denorm, down, False), \
            (quot_denorm & (s0 == s2), up, True), (quot_denorm, None, True), (e2 <= tiny, up, False)
        d, vcc = _first_case(s0, cases)
        # D is S0 (or S0 scaled): a NaN S0 is passed through, not quieted
        return kind.write(ctx, old, d, quiet_nans=False), vcc
    return run


def _first_case(s0, cases, hit=None):
    """(D, VCC) of the first case that holds in each lane (D = S0 and VCC clear where none
    does; ``hit``: where any does, when known): lane by lane when a few lanes are special, else
    case by case on whole arrays."""
    if hit is None:
        hit = np.logical_or.reduce([c for c, _, _ in cases])
    lanes = np.flatnonzero(hit)
    d = s0.copy()
    vcc = np.zeros(s0.shape, bool)
    if not lanes.size:
        return d, vcc
    if lanes.size <= 8:
        # each lane's element read by its index in the lanes' shape (a condition or value of
        # another shape broadcast to it, a scalar taken as it is): nothing is flattened, which
        # would copy a broadcast array
        shape = s0.shape
        whole = lambda x: x if np.ndim(x) == 0 or np.shape(x) == shape else np.broadcast_to(x, shape)  # noqa: E731
        listed = [(whole(c), None if v is None else whole(v), f) for c, v, f in cases]
        for k in lanes.tolist():
            at = np.unravel_index(k, shape)
            for cond, value, flag in listed:
                if cond[at] if np.ndim(cond) else cond:
                    if value is not None:
                        d[at] = value[at] if np.ndim(value) else value
                    vcc[at] = flag
                    break
        return d, vcc
    done = np.zeros(s0.shape, bool)
    for cond, value, flag in cases:
        now = cond & ~done
        if value is not None:
            d = np.where(now, value, d)
        if flag:
            vcc |= now
        done |= now
    return d, vcc


_FEW = 8           # up to this many odd lanes are decided one by one


def _odd_ranges(fmt, r1, r2, rdiff):
    """The constants of ``_odd_lanes``: unsigned range tests of the exponent fields of S1, S2
    and their difference (each (lo, hi), inclusive), on the fields as they sit in the top 16 bits
    of a float (times ``unit``, the field's lowest bit there), as 0-d uint16 arrays (numpy
    converts a scalar operand on every call).  The difference of two fields wraps around 2**16:
    checked here to leave no value of it on the wrong side of the test."""
    unit = 1 << (fmt.mant - (fmt.width - 16))
    lo, hi = rdiff
    d = np.arange(-fmt.emax, fmt.emax + 1)
    assert np.array_equal((d - lo) * unit % (1 << 16) <= (hi - lo) * unit, (d >= lo) & (d <= hi))
    assert max(r1[1], r2[1]) * unit < (1 << 16) and min(r1[0], r2[0]) >= 0
    return tuple(np.array(v * unit % (1 << 16), np.uint16)
                 for v in (r1[0], r1[1] - r1[0], r2[0], r2[1] - r2[0], -lo, hi - lo))


def _top16(fmt, x):
    """The top 16 bits of float lanes (sign, exponent field, leading mantissa bits) as uint16: a
    view of them where the lanes are contiguous."""
    b = fmt.bits(x)
    if b.ndim and b.strides[-1] == b.itemsize:
        k = fmt.width // 16
        return b.view(np.uint16)[..., k - 1::k] if np.little_endian else b.view(np.uint16)[..., ::k]
    return np.right_shift(b, fmt.utype(fmt.width - 16)).astype(np.uint16)


def _odd_lanes(fmt, s1, s2, ranges, also=None):
    """The flat indices of the lanes whose exponent fields of S1 / S2 leave the ranges (one
    unsigned compare each), or ``also`` holds, or None when they are more than a few: the
    caller decides those lanes by the pseudocode's cases and leaves every other lane at its
    default."""
    if fmt is F16:
        return None
    lo1, span1, lo2, span2, off, span = ranges
    field = _FIELD[fmt]
    e1 = np.bitwise_and(_top16(fmt, s1), field)
    e2 = np.bitwise_and(_top16(fmt, s2), field)
    odd = np.subtract(e2, e1)
    odd += off
    odd = np.greater(odd, span)
    e1 -= lo1
    odd |= np.greater(e1, span1)
    e2 -= lo2
    odd |= np.greater(e2, span2)
    if also is not None:
        odd |= also
    k = np.count_nonzero(odd)
    if k > _FEW:
        return None
    return odd.ravel().nonzero()[0] if k else _NO_LANES


_NO_LANES = np.empty(0, np.intp)
# the exponent field in the top 16 bits of a float
_FIELD = {f: np.array(f.emax << (f.mant - (f.width - 16)), np.uint16) for f in (F32, F64)}


def _lane_values(fmt, idx, *xs):
    """Lanes ``idx`` of float arrays as (Python floats, their bits as ints) per array."""
    out = []
    for x in xs:
        x = x.reshape(-1)[idx]
        out.append((x.astype(np.float64).tolist(), x.view(fmt.utype).tolist()))
    return out


def _scale_lanes(ctx, fmt, s0, s1, s2, idx, d, vcc, scaled, scale, gap, tiny, smallest_normal):
    """v_div_scale's cases (the pseudocode's order, as in ``run``'s general path) lane by lane on
    the flat lanes ``idx``, written into d and vcc."""
    (f0, _), (f1, b1), (f2, b2) = _lane_values(fmt, idx, s0, s1, s2)
    shift, emax = fmt.mant, fmt.emax
    below = lambda v: v != 0 and abs(v) < smallest_normal      # noqa: E731
    flat_d, flat_vcc = d.reshape(-1), vcc.reshape(-1)
    at, by = [], []                 # lanes whose D is S0 scaled, by 2**(+-scale): one call for all
    for k, x0, x1, x2, u1, u2 in zip(idx.tolist(), f0, f1, f2, b1, b2):
        e1, e2 = u1 >> shift & emax, u2 >> shift & emax
        near_max = e2 - e1 >= gap
        rcp = quot = False
        if x1 != 0 and not math.isnan(x1):
            rcp, quot = below(1.0 / x1), below(x2 / x1)
        both = rcp and quot
        if x2 == 0 or x1 == 0:
            value, flag = fmt.dtype(np.nan), False
        elif near_max:
            value, flag = (1 if x0 == x1 else None), True
        elif e1 == 0:                                   # S1 denormal (not zero)
            value, flag = 1, False
        elif both:
            value, flag = (-1 if x0 == x1 else None), True
        elif rcp:
            value, flag = -1, False
        elif quot:
            value, flag = (1 if x0 == x2 else None), True
        elif e2 <= tiny:
            value, flag = 1, False
        else:
            continue
        if value in (1, -1):
            at.append(k)
            by.append(value * scale)
        elif value is not None:
            flat_d[k] = value
        flat_vcc[k] = flag
    if at:
        flat_d[at] = scaled(ctx, s0.reshape(-1)[at], np.array(by))


def _div_fmas(kind):
    fmt = kind.fmt
    scale = _SCALE[fmt][0]
    bits = kind.reg_bits

    @op("v_div_fmas_" + fmt.name, (bits, bits, bits), bits, mask_in=True)
    def run(ctx, srcs, old):
        a, b, c = (kind.read(ctx, srcs, i, flush_denorm=False) for i in range(3))
        rm = fp_round.round_mode(ctx, fmt)
        if fmt is F64 and rm == fp_round.ROUND_NEAREST_EVEN:
            k = np.count_nonzero(ctx.mask)
            # the fma and its scaling by a power of two are IEEE arithmetic: no signalling NaN
            if not k:
                return kind.write(ctx, old, fma64_quiet(a, b, c), arithmetic=True)   # no post-scale
            if k <= _FEW:
                return kind.write(ctx, old, _fmas_lanes(a, b, c, ctx.mask, scale), arithmetic=True)
        post = np.where(ctx.mask, np.where(exponent(fmt, c) > fmt.bias, scale, -scale), 0)
        if fmt is F64:
            r = fma64_scaled(a, b, c, post, rm)
        else:                       # the fma rounded to odd in float64, scaled, rounded once
            p = round_to_odd_sum(a.astype(np.float64) * b.astype(np.float64),
                                  c.astype(np.float64))
            r = fp_round.narrow(fmt, np.ldexp(p, post), rm)
            r = fp_round._zero_sign(r, a.astype(np.float64) * b.astype(np.float64),
                                    c.astype(np.float64), rm)
        return kind.write(ctx, old, r)
    return run


def _fmas_lanes(a, b, c, mask, scale):
    """v_div_fmas_f64 under round-to-nearest-even with a few post-scaled lanes: the fma, and on
    the lanes of ``mask`` the fma times 2**(+-scale) (fma64_scaled's rule, lane by lane: a
    finite result that lands below 2**-1020 or overflows is rounded once from the exact
    value).  The caller has silenced numpy's warnings."""
    r = fma64_quiet(a, b, c)
    if type(r) is not np.ndarray or not r.flags.c_contiguous or not r.flags.writeable:
        r = np.array(r, np.float64)
    flat = r.reshape(-1)
    shape = r.shape
    a, b, c = (x if x.shape == shape else np.broadcast_to(x, shape) for x in (a, b, c))
    lanes = (mask if mask.shape == shape else np.broadcast_to(mask, shape)).ravel().nonzero()[0]
    cbits = c.view(np.uint64)
    posts = [scale if (cbits.item(k) >> 52) & 0x7FF > 1023 else -scale for k in lanes.tolist()]
    with np.errstate(all="ignore"):
        scaled = np.ldexp(flat[lanes], np.array(posts)).tolist()
    isfinite = math.isfinite
    for k, post, v in zip(lanes.tolist(), posts, scaled):
        x, y, w = a.item(k), b.item(k), c.item(k)
        if isfinite(x) and isfinite(y) and isfinite(w) and (abs(v) < 2.0 ** -1020 or not isfinite(v)):
            v = fma_exact(x, y, w, post)
        flat[k] = v
    return r


def _div_fixup(kind):
    """S0 quotient, S1 denominator, S2 numerator: special cases of S2 / S1 patched in."""
    fmt = kind.fmt
    bits = kind.reg_bits
    default_nan = fmt.view(np.asarray(fmt.sign | fmt.exp_mask | fmt.quiet_bit, fmt.utype))

    # the lanes no case can hold: S1 and S2 normal (not zero, inf or NaN), exponent(S2) -
    # exponent(S1) not below the underflow bound, exponent(S0) below the maximum
    bound = {F16: None, F32: -150, F64: -1075}[fmt]
    exp_mask = fmt.utype(fmt.exp_mask)
    fixup_odd = None if fmt is F16 else _odd_ranges(fmt, (1, fmt.emax - 1), (1, fmt.emax - 1),
                                                    (bound, fmt.emax))

    @op("v_div_fixup_" + fmt.name, (bits, bits, bits), bits)
    def run(ctx, srcs, old):
        s0, s1, s2 = (kind.read(ctx, srcs, i) for i in range(3))
        odd = None
        if fmt is not F16:
            # the default case, S0 with the sign of S1 xor S2, on the bits (a NaN passed through)
            u = fmt.bits
            r = np.bitwise_and(u(s0), fmt.u_abs)
            top = np.greater_equal(r, exp_mask)         # exponent(S0) == max: lane by lane too
            odd = _odd_lanes(fmt, s1, s2, fixup_odd, top)
        if odd is not None:
            r |= np.bitwise_and(np.bitwise_xor(u(s1), u(s2)), fmt.u_sign)
            if not odd.size:
                return kind.write(ctx, old, r.view(fmt.dtype), quiet_nans=False)
            _fixup_lanes(fmt, s0, s1, s2, odd, r, default_nan, bound)
            return kind.write(ctx, old, r.view(fmt.dtype), quiet_nans=False)
        neg = np.signbit(s1) ^ np.signbit(s2)
        signed = lambda v: np.where(neg, -fmt.dtype(v), fmt.dtype(v))
        inf1, inf2 = np.isinf(s1), np.isinf(s2)
        conds = [np.isnan(s2), np.isnan(s1), (s1 == 0) & (s2 == 0), inf1 & inf2,
                 (s1 == 0) | inf2, inf1 | (s2 == 0)]
        values = [s2, s1, np.broadcast_to(default_nan, s0.shape), np.broadcast_to(default_nan, s0.shape),
                  signed(np.inf), signed(0.0)]
        if fmt is not F16:
            e1, e2 = exponent(fmt, s1), exponent(fmt, s2)
            under = {F32: -150, F64: -1075}[fmt]
            conds += [(e2 - e1) < under, exponent(fmt, s0) == fmt.emax]
            values += [signed(0.0), signed(np.inf)]
        special = np.logical_or.reduce(conds)
        r, _ = _first_case(np.where(neg, -np.abs(s0), np.abs(s0)),
                           [(c, v, False) for c, v in zip(conds, values)], special)
        # the default case only changes the sign of S0: a NaN quotient is passed through
        return kind.write(ctx, old, r.astype(fmt.dtype), quiet_nans=special)
    return run


def _fixup_lanes(fmt, s0, s1, s2, idx, r, default_nan, under):
    """v_div_fixup's cases (in ``run``'s order) lane by lane on the flat lanes ``idx`` of the
    result bits r (holding the default case); a NaN operand a case returns is quieted here (the
    array path quiets the lanes a case took when it writes the result)."""
    (_, b0), (f1, b1), (f2, b2) = _lane_values(fmt, idx, s0, s1, s2)
    shift, emax, sign = fmt.mant, fmt.emax, fmt.sign
    inf, nan, quiet = fmt.exp_mask, int(default_nan.view(fmt.utype)), fmt.quiet_bit
    flat_r = r.reshape(-1)
    for k, x1, x2, u0, u1, u2 in zip(idx.tolist(), f1, f2, b0, b1, b2):
        neg = (u1 ^ u2) & sign
        e0, e1, e2 = u0 >> shift & emax, u1 >> shift & emax, u2 >> shift & emax
        inf1, inf2 = math.isinf(x1), math.isinf(x2)
        if math.isnan(x2):
            value = u2 | quiet
        elif math.isnan(x1):
            value = u1 | quiet
        elif x1 == 0 and x2 == 0 or inf1 and inf2:
            value = nan
        elif x1 == 0 or inf2:
            value = inf | neg
        elif inf1 or x2 == 0 or e2 - e1 < under:
            value = neg
        elif e0 == emax:
            value = inf | neg
        else:
            continue
        flat_r[k] = value


for _k in (K32, K64):
    _div_scale(_k)
    _div_fmas(_k)
for _k in (K16, K32, K64):
    _div_fixup(_k)


def fma64_scaled(a, b, c, post, rm=fp_round.ROUND_NEAREST_EVEN):
    """fma(a, b, c) * 2**post for doubles with a single rounding under mode rm: lanes whose
    scaled result could round differently (denormal or overflowing range) are redone exactly;
    under a directed mode every finite lane is."""
    if rm != fp_round.ROUND_NEAREST_EVEN:
        r = fp_round.fma(_RmCtx(rm), F64, a, b, c)
        finite = np.isfinite(a) & np.isfinite(b) & np.isfinite(c)
        from fractions import Fraction
        exact = lambda i: (Fraction(float(a[i])) * Fraction(float(b[i])) + Fraction(float(c[i]))) \
            * Fraction(2) ** int(post[i])                                     # noqa: E731
        return fp_round._exact_lanes(np.ldexp(r, post), finite & (post != 0), exact, rm,
                                     np.ldexp(r, post))
    r = np.ldexp(fma64(a, b, c), post)
    risky = (post != 0) & np.isfinite(a) & np.isfinite(b) & np.isfinite(c) & \
        ((np.abs(r) < 2.0 ** -1020) | ~np.isfinite(r))
    if risky.any():
        r = np.array(r)
        for idx in zip(*np.nonzero(risky)):
            x, y, w = float(a[idx]), float(b[idx]), float(c[idx])
            r[idx] = fma_exact(x, y, w, int(post[idx]))
    return r


class _RmCtx:
    """A stand-in Ctx carrying only a rounding mode (for fp_round helpers)."""

    def __init__(self, rm):
        from .ctx import FloatMode
        self.mode = FloatMode(round_f32=rm, round_f16_64=rm)
