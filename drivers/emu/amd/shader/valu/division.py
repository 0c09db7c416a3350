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
import numpy as np

from . import fp_round
from .fp import F16, F32, F64, round_to_odd_sum, exponent, fma64, fma_exact, is_denorm
from .kinds import K16, K32, K64
from .registry import op

_SCALE = {F32: (64, 96, 23), F64: (128, 768, 53)}       # scale, exponent gap, mantissa bits


def _div_scale(kind):
    fmt = kind.fmt
    scale, gap, tiny = _SCALE[fmt]
    bits = kind.reg_bits
    smallest_normal = np.float64(np.finfo(fmt.dtype).tiny)

    @op("v_div_scale_" + fmt.name, (bits, bits, bits), bits, mask_out=True)
    def run(ctx, srcs, old):
        s0, s1, s2 = (kind.read(ctx, srcs, i) for i in range(3))
        e1, e2 = exponent(fmt, s1), exponent(fmt, s2)
        with np.errstate(all="ignore"):
            if fmt is F64:
                up = fp_round.ldexp64(ctx, s0, np.full(s0.shape, scale))
                down = fp_round.ldexp64(ctx, s0, np.full(s0.shape, -scale))
            else:                          # exact in float64, rounded once under MODE
                rm = fp_round.round_mode(ctx, fmt)
                up = fp_round.narrow(fmt, np.ldexp(s0.astype(np.float64), scale), rm)
                down = fp_round.narrow(fmt, np.ldexp(s0.astype(np.float64), -scale), rm)
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


def _div_fmas(kind):
    fmt = kind.fmt
    scale = _SCALE[fmt][0]
    bits = kind.reg_bits

    @op("v_div_fmas_" + fmt.name, (bits, bits, bits), bits, mask_in=True)
    def run(ctx, srcs, old):
        a, b, c = (kind.read(ctx, srcs, i, flush_denorm=False) for i in range(3))
        post = np.where(ctx.mask, np.where(exponent(fmt, c) > fmt.bias, scale, -scale), 0)
        rm = fp_round.round_mode(ctx, fmt)
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


def _div_fixup(kind):
    """S0 quotient, S1 denominator, S2 numerator: special cases of S2 / S1 patched in."""
    fmt = kind.fmt
    bits = kind.reg_bits
    default_nan = fmt.view(np.asarray(fmt.sign | fmt.exp_mask | fmt.quiet_bit, fmt.utype))

    @op("v_div_fixup_" + fmt.name, (bits, bits, bits), bits)
    def run(ctx, srcs, old):
        s0, s1, s2 = (kind.read(ctx, srcs, i) for i in range(3))
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
