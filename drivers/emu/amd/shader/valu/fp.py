"""Float operand and result rules shared by every float VALU op.

Inputs: bits -> |x| (abs) -> -x (neg) -> denormal flush when MODE says so (FP_DENORM bit 0).
Results: NaN quieting -> output modifier -> denormal flush (FP_DENORM bit 1) -> clamp -> bits.
The ISA rules encoded here (RDNA3 ISA guide, "Output modifiers", "Denormals", V_MIN/V_MAX):
- output modifiers (omod) are ignored in IEEE mode and when output denormals are kept; when
  applied they scale the rounded result before the output flush, leave NaNs alone and turn -0
  into +0;
- clamp limits to [0.0, 1.0]; a NaN becomes 0 when MODE.dx10_clamp is set;
- in IEEE mode min/max return a quieted signaling NaN operand; a quiet NaN operand loses to the
  number; -0 < +0.
"""
import math
from dataclasses import dataclass, field

import numpy as np

from .bits import U16, U32, U64


@dataclass(frozen=True)
class Fmt:
    name: str
    dtype: type
    utype: type
    width: int
    mant: int           # explicit mantissa bits
    bias: int
    keep_attr: str      # FloatMode attribute that keeps denormals for this format
    # bit masks as numpy scalars of utype, made once (the helpers below run on every float op)
    u_abs: object = field(init=False, repr=False, compare=False)         # all but the sign
    u_sign: object = field(init=False, repr=False, compare=False)
    u_quiet: object = field(init=False, repr=False, compare=False)
    u_one: object = field(init=False, repr=False, compare=False)
    u_denorm_max: object = field(init=False, repr=False, compare=False)  # largest denormal's bits
    keep_in_attr: str = field(init=False, repr=False, compare=False)     # FloatMode's input field

    def __post_init__(self):
        u, sign = self.utype, 1 << (self.width - 1)
        for name, value in (("u_abs", sign - 1), ("u_sign", sign), ("u_quiet", 1 << (self.mant - 1)),
                            ("u_one", 1), ("u_denorm_max", (1 << self.mant) - 1)):
            object.__setattr__(self, name, u(value))
        object.__setattr__(self, "keep_in_attr", "denorm_in_" + self.keep_attr[len("denorm_"):])

    @property
    def sign(self):
        return 1 << (self.width - 1)

    @property
    def exp_mask(self):
        return ((1 << (self.width - 1 - self.mant)) - 1) << self.mant

    @property
    def quiet_bit(self):
        return 1 << (self.mant - 1)

    @property
    def emax(self):
        return (1 << (self.width - 1 - self.mant)) - 1

    def keep(self, mode):
        """Denormal results of this format are kept (else flushed to zero)."""
        return getattr(mode, self.keep_attr)

    def keep_in(self, mode):
        """Denormal operands of this format are used as they are (else read as zero)."""
        v = getattr(mode, self.keep_in_attr)
        return getattr(mode, self.keep_attr) if v is None else v

    def view(self, bits):
        return bits.astype(self.utype).view(self.dtype)

    def bits(self, x):
        if type(x) is np.ndarray and x.dtype == self.dtype:
            return x.view(self.utype)
        return np.asarray(x, self.dtype).view(self.utype)


F16 = Fmt("f16", np.float16, U16, 16, 10, 15, "denorm_f16_64")
F32 = Fmt("f32", np.float32, U32, 32, 23, 127, "denorm_f32")
F64 = Fmt("f64", np.float64, U64, 64, 52, 1023, "denorm_f16_64")


def exponent(fmt, x):
    """The biased exponent field of float array x (as int64)."""
    return ((fmt.bits(x) & fmt.utype(fmt.exp_mask)) >> fmt.utype(fmt.mant)).astype(np.int64)


def is_denorm(fmt, x):
    # 0 < |bits| < smallest normal; |bits| - 1 wraps around for zeros
    magnitude = fmt.bits(x) & fmt.u_abs
    return magnitude - fmt.u_one < fmt.u_denorm_max


def is_snan(fmt, x):
    b = fmt.bits(x)
    return np.isnan(x) & ((b & fmt.utype(fmt.quiet_bit)) == 0)


def quiet(fmt, x):
    """NaNs with the quiet bit set (payload and sign kept)."""
    nan = np.isnan(x)
    if not np.count_nonzero(nan):
        return x
    b = fmt.bits(x)
    return np.where(nan, b | fmt.u_quiet, b).view(fmt.dtype)


def flush(fmt, x):
    """Denormals replaced by a zero of the same sign."""
    denorm = is_denorm(fmt, x)
    if not np.count_nonzero(denorm):
        return x
    b = fmt.bits(x)
    return np.where(denorm, b & fmt.u_sign, b).view(fmt.dtype)


def neg_abs(fmt, bits, neg, abs_):
    """abs then neg on raw bits (no denormal handling).  Without either, the bits themselves (no
    copy: the VALU functions never write into their sources)."""
    b = bits.astype(fmt.utype, copy=False)
    if abs_:
        b = b & fmt.u_abs
    if neg:
        b = b ^ fmt.u_sign
    return b


def operand(fmt, bits, mode, neg=0, abs_=0, flush_denorm=True):
    """A float operand from raw bits: abs, neg, then the input denormal rule of MODE."""
    x = neg_abs(fmt, bits, neg, abs_).view(fmt.dtype)
    if flush_denorm and not fmt.keep_in(mode):
        x = flush(fmt, x)
    return x


def modify(ctx, fmt, bits, i, flush_denorm=True):
    """Float source i with the VOP3 / DPP abs and neg bits of slot i."""
    return operand(fmt, bits, ctx.mode, ctx.neg >> i & 1, ctx.abs >> i & 1, flush_denorm)


def finish(ctx, fmt, r, omod=True, clamp=True, quiet_nans=True, arithmetic=False):
    """Result bits of a float op: quiet NaN, output modifier, output denormal flush, clamp.
    omod scales the rounded result (exact unless it over- or underflows) before the flush, so a
    denormal that mul:2 / mul:4 brings into the normal range survives; it turns -0 into +0.
    quiet_nans=False: NaNs are operands passed through unchanged (pseudocode `D = S0`); a bool
    array: quiet the NaNs of those lanes only. ``arithmetic``: r is the result of IEEE
    arithmetic (add, multiply, fma), which never delivers a signaling NaN (IEEE 754 section
    6.2), so there is nothing to quiet."""
    r = np.asarray(r, fmt.dtype)
    keep = fmt.keep(ctx.mode)
    if arithmetic:
        pass
    elif quiet_nans is True:
        r = quiet(fmt, r)
    elif quiet_nans is not False:
        r = np.where(quiet_nans, quiet(fmt, r), r).astype(fmt.dtype)
    if omod and ctx.omod and not ctx.mode.ieee and not keep:
        with np.errstate(over="ignore", under="ignore", invalid="ignore"):
            r = np.where(np.isnan(r), r, r * fmt.dtype((1.0, 2.0, 4.0, 0.5)[ctx.omod]))
        r = np.where(r == 0, fmt.dtype(0), r).astype(fmt.dtype)     # omod drops the zero sign
    if not keep:
        r = flush(fmt, r)
    if clamp and ctx.clamp:
        nan = np.isnan(r)
        c = np.minimum(np.maximum(r, fmt.dtype(0)), fmt.dtype(1)) + fmt.dtype(0)
        r = np.where(nan, fmt.dtype(0) if ctx.mode.dx10_clamp else r, c)
    return r.view(fmt.utype) if r.dtype == fmt.dtype else fmt.bits(r)


# ---- IEEE-mode min / max (RDNA3 ISA V_MIN_F32 / V_MAX_F32 pseudocode) --------------------------

def _nan_pick(ctx, fmt, a, b, chosen):
    """The NaN rules around an ordinary min/max choice, in the pseudocode's order: IEEE mode:
    a signalling S0, then S1, returns it quieted; a quiet NaN S1 returns S0, a quiet NaN S0
    returns S1. Otherwise: NaN S1 returns S0, NaN S0 returns S1. Returned operands are passed
    through unchanged (a signalling NaN stays signalling outside IEEE mode): the caller must not
    quiet the result."""
    ieee = ctx.mode.ieee
    an, bn = np.isnan(a), np.isnan(b)
    if not (np.count_nonzero(an) or np.count_nonzero(bn)):
        return chosen.astype(fmt.dtype, copy=False)
    r = np.where(an, b, chosen)
    r = np.where(bn, a, r)                       # a NaN S1 wins over a NaN S0: D = S0
    if ieee:
        r = np.where(is_snan(fmt, b), quiet(fmt, b), r)
        r = np.where(is_snan(fmt, a), quiet(fmt, a), r)
    return r.astype(fmt.dtype)


def _ordinary(*xs):
    """True when no operand lane is a NaN or a zero (a product of them is neither; an underflow
    or inf * 0 only sends the caller to its general path): then equal values have equal bits
    and numpy's minimum / maximum are the ISA's.  An operand repeated along the lanes (a constant
    or an SGPR) is checked on one lane per wave."""
    p = None
    for x in xs:
        if x.ndim == 2 and x.strides[1] == 0:
            x = x[:, 0]
            if np.count_nonzero((x == 0) | np.isnan(x)):
                return False
            continue
        p = x if p is None else p * x
    return p is None or not np.count_nonzero((p == 0) | np.isnan(p))


def _nan_free(*xs):
    """True when no operand lane is a NaN: then neither is their sum (inf - inf only sends the
    caller to its general path)."""
    s = xs[0] + xs[1]
    for x in xs[2:]:
        s = s + x
    return not np.count_nonzero(np.isnan(s))


def _signed_zeros(fmt, a, b, r, is_max):
    """numpy's min / max r of NaN-free a and b with the ISA's -0 < +0 where both are zeros
    (elsewhere equal values have equal bits): the bits of the max of two zeros are their AND
    (+0 when either is +0), of the min their OR."""
    both = (a == 0) & (b == 0)
    if np.count_nonzero(both):
        ab, bb = fmt.bits(a), fmt.bits(b)
        r = np.where(both, ((ab & bb) if is_max else (ab | bb)).view(fmt.dtype), r)
    return r


def fmin(ctx, fmt, a, b):
    r = np.minimum(a, b)
    if not np.count_nonzero(np.isnan(r)):        # numpy's minimum propagates a NaN operand
        # equal values have equal bits except zeros; two zeros give a zero result
        return _signed_zeros(fmt, a, b, r, False) if np.count_nonzero(r) != r.size else r
    sa = np.signbit(a)
    lt = (a < b) | ((a == b) & sa)               # -0 is below +0
    return _nan_pick(ctx, fmt, a, b, np.where(lt, a, b))


def fmax(ctx, fmt, a, b):
    r = np.maximum(a, b)
    if not np.count_nonzero(np.isnan(r)):
        return _signed_zeros(fmt, a, b, r, True) if np.count_nonzero(r) != r.size else r
    sb = np.signbit(b)
    ge = (a > b) | ((a == b) & ~(np.signbit(a) & ~sb))
    return _nan_pick(ctx, fmt, a, b, np.where(ge, a, b))


def fmed3(ctx, fmt, a, b, c):
    """V_MED3_F*: with any NaN it is min3; otherwise the max of the two not-largest."""
    xs = (a, b, c)
    per_wave = [i for i, x in enumerate(xs) if x.ndim == 2 and x.strides[1] == 0]
    if len(per_wave) >= 2:
        # two operands one value per wave (a clamp's bounds: constants, SGPRs): with neither
        # bound a NaN or a zero, no two operands are zeros of different signs, and a NaN-free
        # third operand is clipped between them, zeros included (a zero can only tie another
        # zero)
        i, j = per_wave[:2]
        x = xs[3 - i - j]
        p, q = xs[i][:, :1], xs[j][:, :1]
        lo, hi = np.minimum(p, q), np.maximum(p, q)
        # neither bound a NaN or a zero: their product is a number other than zero (one that
        # underflows only sends the op to the general path)
        if np.count_nonzero(np.greater(np.abs(np.multiply(lo, hi)), 0)) == lo.size \
                and not np.count_nonzero(np.isnan(x)):
            return np.minimum(np.maximum(x, lo), hi)
    if _ordinary(a, b, c):
        # the median is symmetric: two operands that are one value each (a clamp's bounds) make
        # it a clip of the third between them
        xs = (a, b, c)
        uniform = [i for i, x in enumerate(xs) if x.ndim == 2 and x.strides == (0, 0)]
        if len(uniform) >= 2:
            i, j = uniform[:2]
            lo, hi = sorted((xs[i].flat[0], xs[j].flat[0]))
            return np.clip(xs[3 - i - j], lo, hi)
        return np.maximum(np.minimum(a, b), np.minimum(np.maximum(a, b), c))
    # zeros: the pseudocode finds the largest with a float compare (+0 == -0), so the median of
    # (-0, +0, -0) is max(+0, -0) = +0, not the -0 an order with -0 below +0 would give
    mx = fmax(ctx, fmt, fmax(ctx, fmt, a, b), c)
    med = np.where(mx == a, fmax(ctx, fmt, b, c),
                   np.where(mx == b, fmax(ctx, fmt, a, c), fmax(ctx, fmt, a, b)))
    if _nan_free(a, b, c):
        return med.astype(fmt.dtype, copy=False)
    anynan = np.isnan(a) | np.isnan(b) | np.isnan(c)
    return np.where(anynan, fmin(ctx, fmt, fmin(ctx, fmt, a, b), c), med).astype(fmt.dtype)


# ---- fused multiply-add, correctly rounded ------------------------------------------------------

_ABS64, _ONE64 = np.uint64(0x7FFFFFFFFFFFFFFF), np.uint64(1)

def two_sum(a, b):
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def round_to_odd_sum(a, b):
    """a + b in float64 rounded to odd: an inexact sum gets its last mantissa bit forced to 1,
    so a second rounding to any format of <= 51 bits is exact (Boldo & Melquiond)."""
    with np.errstate(invalid="ignore", over="ignore"):
        s, err = two_sum(a, b)
        return _to_odd(s, err)


def _to_odd(s, err, lanes=None):
    """s, the nearest double to s + err, rounded to odd instead (on ``lanes`` only, when given):
    where err is a finite non-zero error and s is even, its odd neighbour on err's side, one
    unit of magnitude more when err has the sign of s, one less otherwise.  Integer arithmetic
    on the bits, no select: a random mask makes np.where several times slower."""
    bits = s.view(U64)
    fix = np.isfinite(err) & (err != 0) & ((bits & _ONE64) == 0)
    if lanes is not None:
        fix &= lanes
    if not np.count_nonzero(fix):
        return s
    up = fix & (np.signbit(err) == np.signbit(s))
    return (bits + (up.astype(U64) << _ONE64) - fix.astype(U64)).view(np.float64)


def _fma_limits(fmt):
    """Constants of fma_narrow for a destination format: uint64 masks of float64 bits, and the
    format's smallest normal."""
    half = 1 << (52 - fmt.mant - 1)              # the first bit below the destination's mantissa
    return (np.uint64(half - 1), np.uint64(2 * half - 1), np.uint64(half),
            np.uint64(((1023 + 1 - fmt.bias) << 52) - 1), fmt.dtype(2.0 ** (1 - fmt.bias)))


_FMA_LIMITS = {}


def fma_narrow(fmt, a, b, c):
    """fma for f16/f32 operands, correctly rounded to nearest even.

    The product is exact in float64, and p + c is rounded once to float64 and then to the
    destination format.  Those two roundings give the correctly rounded result except where the
    float64 sum lands exactly halfway between two neighbours of the destination format (the
    double-rounding case), or on a boundary of its coarser grid below its smallest normal; both
    have every float64 bit below the destination's half-ulp bit clear.  Halfway sums are found
    by one test on the whole array; sums below the smallest normal round to at most the
    smallest normal, so the rounded result finds the (rare) lanes to test for them.  A boundary
    the float64 addition reached exactly is the exact value, rounded once: the lanes left are
    the inexact boundaries (rare: short operands, saturated lanes and ties of short values add
    exactly), and only those are redone with the sum rounded to odd (Boldo & Melquiond)."""
    limits = _FMA_LIMITS.get(fmt.name)
    if limits is None:
        limits = _FMA_LIMITS[fmt.name] = _fma_limits(fmt)
    low, tie_bits, half, tiny, min_normal = limits
    p = np.multiply(a, b, dtype=np.float64)
    c = c.astype(np.float64)                      # exact; numpy's loops on one dtype are the fast ones
    s = np.add(p, c)
    u = s.view(U64)
    r = s.astype(fmt.dtype)
    lanes = np.bitwise_and(u, tie_bits) == half
    small = np.abs(r) <= min_normal               # holds every sum below the smallest normal
    if np.count_nonzero(small):
        lanes |= small & (np.bitwise_and(u, _ABS64) - _ONE64 < tiny) & (np.bitwise_and(u, low) == 0)
    if not np.count_nonzero(lanes):
        return r
    # the sum is exact iff subtracting either addend gives the other back: the difference with
    # the larger one is exact (Fast2Sum), so an inexact sum fails that test (no float64 sum of
    # f32 / f16 products overflows or loses bits below the normal range)
    lanes &= np.not_equal(np.subtract(s, p), c) | np.not_equal(np.subtract(s, c), p)
    k = np.count_nonzero(lanes)
    if not k:
        return r
    if k * 8 > lanes.size:
        # many inexact boundaries: the sum's error and the rounding to odd on whole arrays (only
        # the boundary lanes change) costs less than gathering them
        with np.errstate(invalid="ignore", over="ignore"):
            total, err = two_sum(p, c)
            return _to_odd(total, err, lanes).astype(fmt.dtype)
    i = np.flatnonzero(lanes)
    at = lambda x: np.broadcast_to(x, s.shape).ravel()[i].astype(np.float64)   # noqa: E731
    r.ravel()[i] = round_to_odd_sum(at(a) * at(b), at(c)).astype(fmt.dtype)
    return r


_SPLIT = 134217729.0        # 2**27 + 1 (Veltkamp splitting of a double into two 26-bit halves)


def two_prod(a, b):
    p = a * b
    ca, cb = _SPLIT * a, _SPLIT * b
    ah = ca - (ca - a)
    bh = cb - (cb - b)
    al, bl = a - ah, b - bh
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


def exact_to_double(exact, zero):
    """A rational rounded to the nearest double (ties to even); `zero` is returned for an exact
    zero so that its IEEE sign is kept."""
    if exact == 0:
        return zero
    try:
        return float(exact)                  # int / int true division is correctly rounded
    except OverflowError:
        return float("inf") if exact > 0 else float("-inf")


def fma_exact(a, b, c, scale=0):
    """(a * b + c) * 2**scale of Python floats rounded once to nearest even: the exact value as
    a ratio of integers (each float's own ratio has a power-of-two denominator), which int / int
    true division rounds correctly, subnormal results included; an exact zero has the IEEE sign
    of the plain a * b + c."""
    na, da = a.as_integer_ratio()
    nb, db = b.as_integer_ratio()
    nc, dc = c.as_integer_ratio()
    num, den = na * nb * dc + nc * da * db, da * db * dc
    if num == 0:
        return a * b + c
    if scale >= 0:
        num <<= scale
    else:
        den <<= -scale
    try:
        return num / den
    except OverflowError:
        return float("inf") if num > 0 else float("-inf")


# The constants of _fma64_core are 0-d arrays: numpy converts a scalar operand on every call,
# which costs a small array's ufunc call about half as much again.
_u64 = lambda v: np.array(v, U64)                                                 # noqa: E731
# a double's bits rounded to its upper 26 significant bits: + half of the 27 dropped, then cut
# (a carry into the exponent is the next binade's first value)
_SPLIT_HALF, _SPLIT_CUT = _u64(1 << 26), _u64(((1 << 64) - 1) ^ ((1 << 27) - 1))
# |p| in [2**-900, 2**1000] as bits: |p| - 2**-900 as integers does not exceed the span
_TINY_BITS = _u64(np.float64(2.0 ** -900).view(U64))
_PRODUCT_SPAN = _u64(int(np.float64(2.0 ** 1000).view(U64)) - int(_TINY_BITS))
_ABS64_0, _SIGN_SHIFT, _ZERO64 = _u64(0x7FFFFFFFFFFFFFFF), _u64(63), np.array(0.0)


def _fma64_core(a, b, c):
    """(a * b + c rounded once to double, the fma where it is ordinary, the ordinary lanes): the
    error-free product (Dekker, the factors split on their bits), the sum of its high part and c
    (TwoSum: its rounded sum is the plain a * b + c on every lane), and the two error terms added
    rounded to odd, so that the last addition rounds once (Boldo & Melquiond).  A lane is
    ordinary when 2**-900 <= |a * b| <= 2**1000 and the result is finite: then the four partial
    products are exact (none below 2**-1006, each of 26 by 26 or 27 bits), TwoSum is exact (no
    finite sum overflows it) and the result is not rounded below the normal range unless the
    error terms are exact (a sum landing there is c + p exactly, Sterbenz).  A split rounding to
    infinity (|a| near the largest double), an infinite or NaN addend and a sum that overflows
    all make the result infinite or NaN.  Other lanes hold garbage.  The caller silences
    numpy's warnings.  Every temporary is written in place once its value is used up."""
    p = np.multiply(a, b)
    ah = np.add(a.view(U64), _SPLIT_HALF)
    ah &= _SPLIT_CUT
    ah = ah.view(np.float64)
    al = np.subtract(a, ah)
    bh = np.add(b.view(U64), _SPLIT_HALF)
    bh &= _SPLIT_CUT
    bh = bh.view(np.float64)
    bl = np.subtract(b, bh)
    pl = np.multiply(ah, bh)
    pl -= p
    ah *= bl
    pl += ah
    bh *= al
    pl += bh
    al *= bl
    pl += al
    th = np.add(p, c)                              # TwoSum(p, c): th is the plain sum
    bb = np.subtract(th, p)
    tl = np.subtract(th, bb)
    np.subtract(p, tl, out=tl)
    np.subtract(c, bb, out=bb)
    tl += bb
    s = np.add(tl, pl)                             # TwoSum(tl, pl), s rounded to odd
    bb = np.subtract(s, tl)
    err = np.subtract(s, bb)
    np.subtract(tl, err, out=err)
    np.subtract(pl, bb, out=bb)
    err += bb
    # round to odd without a select: an inexact s is truncated toward zero (one unit of
    # magnitude less where err points the other way) and its last bit set (uint64 with bool
    # operands: the bools count as 0 and 1)
    sb = s.view(U64)
    down = np.bitwise_xor(sb, err.view(U64))
    down >>= _SIGN_SHIFT
    inexact = np.not_equal(err, _ZERO64)
    down &= inexact
    sb -= down
    sb |= inexact
    r = np.add(th, s)
    ok = np.bitwise_and(p.view(U64), _ABS64_0)
    ok -= _TINY_BITS
    ok = np.less_equal(ok, _PRODUCT_SPAN)
    ok &= np.isfinite(r)
    return th, r, ok


def fma64(a, b, c):
    """Correctly rounded double fma. Error-free product + round-to-odd sum where no intermediate
    can overflow or lose bits to underflow; the rare remaining finite lanes are rounded from the
    exact value. A zero or non-finite factor or addend makes a * b exact: a * b + c rounds once
    (a finite product with an infinite addend is the addend). An exact zero takes the sign of
    the plain sum (on the ordinary lanes it is c + p = +0, and so is the result)."""
    with np.errstate(all="ignore"):
        return fma64_quiet(a, b, c)


def fma64_quiet(a, b, c):
    """fma64 for a caller that has silenced numpy's warnings (a compiled block)."""
    z, r, ok = _fma64_core(a, b, c)
    if np.count_nonzero(ok) == ok.size:
        return r
    bad = np.logical_not(ok).ravel().nonzero()[0]
    if bad.size <= _FEW_LANES:
        return _fma64_lanes(a, b, c, r, z, bad)
    finite = np.isfinite(a) & np.isfinite(b) & np.isfinite(c)
    plain = ~finite | (a == 0) | (b == 0)
    r = np.where(plain, z, r)
    r = np.where(np.isinf(c) & np.isfinite(a) & np.isfinite(b), c, r)
    risky = ~(ok | plain)
    if risky.any():
        r = np.array(r, np.float64)
        a, b, c = (np.broadcast_to(x, r.shape) for x in (a, b, c))
        for idx in zip(*np.nonzero(risky)):
            r[idx] = fma_exact(float(a[idx]), float(b[idx]), float(c[idx]))
    return r


def fma64_group(*xs):
    """Independent fma64_quiet of (a, b, c) triples (xs holds them one after the other), as the
    bits of each result: one call over all of them when every operand is a contiguous array of
    one shape (numpy then runs the same loops on the same layouts, so each lane, and the NaN an
    operation on two NaNs picks, is what it is alone)."""
    first, n = xs[0], len(xs) // 3
    if first.ndim and all(type(x) is np.ndarray and x.flags.c_contiguous and x.shape == first.shape
                          for x in xs):
        m = first.shape[0]
        r = fma64_quiet(np.concatenate(xs[0::3]), np.concatenate(xs[1::3]), np.concatenate(xs[2::3]))
        r = r.view(U64)
        return tuple(r[k * m:(k + 1) * m] for k in range(n))
    return tuple(fma64_quiet(*xs[3 * k:3 * k + 3]).view(U64) for k in range(n))


_FEW_LANES = 8      # up to this many lanes off the error-free path are done one by one


def _fma64_lanes(a, b, c, r, z, lanes):
    """fma64's result r with the flat ``lanes`` that are not ordinary redone one at a time: a
    zero or non-finite operand gives the plain sum z (an infinite addend of a finite product
    itself), a finite one the exact value rounded.  Operands are read by flat index as Python
    floats (``item``), the NaNs of z copied as numpy scalars (their payloads untouched)."""
    if type(r) is not np.ndarray or not r.flags.c_contiguous:
        r = np.array(r, np.float64)
    shape = r.shape                     # r is the error-free path's own array: written in place
    out = r.reshape(-1)
    z = (z if z.shape == shape else np.broadcast_to(z, shape)).reshape(-1)
    a, b, c = (x if x.shape == shape else np.broadcast_to(x, shape) for x in (a, b, c))
    isfinite = math.isfinite
    for k in lanes.tolist():
        x, y, w = a.item(k), b.item(k), c.item(k)
        if isfinite(x) and isfinite(y) and isfinite(w):
            out[k] = z[k] if x == 0 or y == 0 else fma_exact(x, y, w)
        elif isfinite(x) and isfinite(y) and math.isinf(w):
            out[k] = w
        else:
            out[k] = z[k]
    return r
