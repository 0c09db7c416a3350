"""v_exp / v_log / v_rcp / v_rsq / v_sqrt / v_sin / v_cos and v_trig_preop_f64.

Each is evaluated in float64 and rounded once to the destination type (the hardware promises
1 ULP; this is the correctly rounded neighbour). ISA special values: exp(-inf) = 0, log(+-0) =
-inf, log(x < 0) = NaN, rcp(+-0) = +-inf, rcp(+-inf) = +-0, rsq(-0) = -inf, sqrt(-0) = -0.
The f32 forms of exp/log/rcp/rsq/sqrt flush denormal inputs and results whatever MODE says (ISA
notes "denormals are flushed"; LLVM scales around them); sin/cos/f16/f64 forms keep them per MODE.
v_sin/v_cos take revolutions: sin(2*pi*x), with exact reduction so that integral inputs give +0
and quarter turns give exact 0/1.
"""
import math

import numpy as np

from .fp import F32, flush
from .kinds import K16, K32, K64
from .registry import op

_FLUSHED_F32 = {"exp", "log", "rcp", "rsq", "sqrt", "rcp_iflag"}


def _sin_cos(x64, want_cos):
    """sin(2*pi*x) or cos(2*pi*x) with x reduced exactly to a quadrant and a remainder."""
    f = x64 - np.round(x64)                  # exact: revolutions in [-0.5, 0.5]
    q = np.round(f * 4)                      # quadrant
    t = (f - q / 4) * (2 * np.pi)            # |t| <= pi/4
    q = q.astype(np.int64)
    if want_cos:
        q += 1
    s, c = np.sin(t), np.cos(t)
    # quadrant q mod 4 (two's complement): 0 sin, 1 cos, 2 -sin, 3 -cos (the sign bit flipped)
    r = np.where(q & 1, c, s)
    q &= 2
    q <<= 62
    r = np.bitwise_xor(r.view(np.int64), q).view(np.float64)
    r += 0.0                                 # exact zeros of whole/half turns are +0
    if not want_cos:
        r = np.where(x64 == 0, x64, r)       # sin(+-0) = +-0
    return r


_FN = {
    "exp": np.exp2,
    "log": np.log2,
    "rcp": lambda x: 1.0 / x,
    "rcp_iflag": lambda x: 1.0 / x,
    # in extended precision where numpy has it, so that the f64 form is within 1 ulp
    "rsq": lambda x: (1 / np.sqrt(x.astype(np.longdouble))).astype(np.float64),
    "sqrt": np.sqrt,
    "sin": lambda x: _sin_cos(x, False),
    "cos": lambda x: _sin_cos(x, True),
}


# The f32 forms that flush denormals whatever MODE says, without modifiers: their operand read
# and result finish are the flushes alone (and NaN quieting), so they depend on no MODE field.
# Each is that computation with the steps that cannot change its bits left out: a NaN result
# is already quiet (the float64 round trip quiets a signalling NaN), exp2 of a denormal is 1.0
# as exp2 of zero is (the input flush changes nothing), and log2, sqrt and 1/sqrt of an f32 are
# never denormal (no result flush).  Compiled blocks call them too (block_float.UNARY).
_MIN_NORMAL32 = np.float32(2.0 ** -126)


def exp32(x):
    r = np.exp2(x.astype(np.float64)).astype(np.float32)
    small = r < _MIN_NORMAL32          # exp2 is never negative: a denormal result becomes +0
    return np.where(small, np.float32(0), r) if np.count_nonzero(small) else r


def log32(x):
    return np.log2(flush(F32, x).astype(np.float64)).astype(np.float32)


def sqrt32(x):
    return np.sqrt(flush(F32, x).astype(np.float64)).astype(np.float32)


def rsq32(x):
    return _FN["rsq"](flush(F32, x).astype(np.float64)).astype(np.float32)


def rcp32(x):
    return flush(F32, np.divide(1.0, flush(F32, x).astype(np.float64)).astype(np.float32))


PLAIN32 = {"exp": exp32, "log": log32, "sqrt": sqrt32, "rsq": rsq32, "rcp": rcp32, "rcp_iflag": rcp32}


def _transcendental(kind, name, f, always_flush):
    bits = kind.reg_bits
    plain32 = PLAIN32.get(name[2:-4]) if kind is K32 else None

    @op(name, (bits,), bits)
    def run(ctx, srcs, old):
        if plain32 is not None and not (ctx.neg or ctx.abs or ctx.omod or ctx.clamp):
            return plain32(np.asarray(srcs[0], np.uint32).view(np.float32)).view(np.uint32)
        x = kind.read(ctx, srcs, 0)
        if always_flush:
            x = flush(kind.fmt, x)
        r = f(x.astype(np.float64)).astype(kind.fmt.dtype)
        if always_flush:
            r = flush(kind.fmt, r)
        return kind.write(ctx, old, r)
    return run


for _fn, _f in _FN.items():
    _transcendental(K32, "v_%s_f32" % _fn, _f, _fn in _FLUSHED_F32)
    if _fn != "rcp_iflag":
        _transcendental(K16, "v_%s_f16" % _fn, _f, False)
    if _fn in ("rcp", "rsq", "sqrt"):
        _transcendental(K64, "v_%s_f64" % _fn, _f, False)


def _two_over_pi_bits(nbits=1201):
    """The first `nbits` fraction bits of 2/pi as an integer (Machin's formula, exact ints)."""
    prec = nbits + 64
    one = 1 << prec

    def arctan_inv(n):
        total, term, k, sign = 0, one // n, 1, 1
        while term:
            total += sign * (term // k)
            term //= n * n
            k += 2
            sign = -sign
        return total
    pi = 4 * (4 * arctan_inv(5) - arctan_inv(239))
    return ((2 << prec) << nbits) // pi


TWO_OVER_PI_1201 = _two_over_pi_bits()


@op("v_trig_preop_f64", (64, 32), 64)
def v_trig_preop_f64(ctx, srcs, old):
    """53 bits of 2/pi starting at bit 53*S1[4:0] (+ exponent(S0) - 1077 for large S0), scaled to
    their place value, for Payne-Hanek style argument reduction."""
    x = K64.read(ctx, srcs, 0)
    e = ((x.view(np.uint64) >> np.uint64(52)) & np.uint64(0x7FF)).astype(np.int64)
    shift = (srcs[1].astype(np.int64) & 31) * 53 + np.where(e > 1077, e - 1077, 0)
    scale = -53 - shift + np.where(e >= 1968, 128, 0)
    out = np.empty(x.shape, np.float64)
    for s, sc in set(zip(shift.reshape(-1).tolist(), scale.reshape(-1).tolist())):
        low = 1148 - int(s)                  # bit 1200 of the table is 2**-1
        seg = (TWO_OVER_PI_1201 >> low if low >= 0 else TWO_OVER_PI_1201 << -low) & ((1 << 53) - 1)
        out[(shift == s) & (scale == sc)] = math.ldexp(float(seg), int(sc))    # one rounding
    return K64.write(ctx, old, out)
