"""Float operand and result rules shared by every float VALU op.

Inputs: bits -> |x| (abs) -> -x (neg) -> denormal flush when MODE says so (FP_DENORM bit 0).
Results: NaN quieting -> output modifier -> denormal flush (FP_DENORM bit 1) -> clamp -> bits.
The ISA rules encoded here (RDNA3 ISA guide, "Output modifiers", "Denormals", V_MIN/V_MAX):
- output modifiers (omod) are ignored in IEEE mode and when output denormals are kept; when
  applied they flush denormals and turn -0 into +0;
- clamp limits to [0.0, 1.0]; a NaN becomes 0 when MODE.dx10_clamp is set;
- in IEEE mode min/max return a quieted signaling NaN operand; a quiet NaN operand loses to the
  number; -0 < +0.
"""
from dataclasses import dataclass

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
        v = getattr(mode, "denorm_in_" + self.keep_attr[len("denorm_"):])
        return getattr(mode, self.keep_attr) if v is None else v

    def view(self, bits):
        return bits.astype(self.utype).view(self.dtype)

    def bits(self, x):
        return np.asarray(x, self.dtype).view(self.utype)


F16 = Fmt("f16", np.float16, U16, 16, 10, 15, "denorm_f16_64")
F32 = Fmt("f32", np.float32, U32, 32, 23, 127, "denorm_f32")
F64 = Fmt("f64", np.float64, U64, 64, 52, 1023, "denorm_f16_64")


def exponent(fmt, x):
    """The biased exponent field of float array x (as int64)."""
    return ((fmt.bits(x) & fmt.utype(fmt.exp_mask)) >> fmt.utype(fmt.mant)).astype(np.int64)


def is_denorm(fmt, x):
    b = fmt.bits(x)
    return ((b & fmt.utype(fmt.exp_mask)) == 0) & ((b & fmt.utype(fmt.sign - 1)) != 0)


def is_snan(fmt, x):
    b = fmt.bits(x)
    return np.isnan(x) & ((b & fmt.utype(fmt.quiet_bit)) == 0)


def quiet(fmt, x):
    """NaNs with the quiet bit set (payload and sign kept)."""
    nan = np.isnan(x)
    if not nan.any():
        return x
    b = fmt.bits(x)
    return np.where(nan, b | fmt.utype(fmt.quiet_bit), b).view(fmt.dtype)


def flush(fmt, x):
    """Denormals replaced by a zero of the same sign."""
    denorm = is_denorm(fmt, x)
    if not denorm.any():
        return x
    b = fmt.bits(x)
    return np.where(denorm, b & fmt.utype(fmt.sign), b).view(fmt.dtype)


def neg_abs(fmt, bits, neg, abs_):
    """abs then neg on raw bits (no denormal handling)."""
    b = bits.astype(fmt.utype)
    if abs_:
        b = b & fmt.utype(fmt.sign - 1)
    if neg:
        b = b ^ fmt.utype(fmt.sign)
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


def finish(ctx, fmt, r, omod=True, clamp=True, quiet_nans=True):
    """Result bits of a float op: quiet NaN, output modifier, output denormal flush, clamp.
    omod scales the rounded result (exact unless it over- or underflows) before the flush, so a
    denormal that mul:2 / mul:4 brings into the normal range survives; it turns -0 into +0.
    quiet_nans=False: NaNs are operands passed through unchanged (pseudocode `D = S0`); a bool
    array: quiet the NaNs of those lanes only."""
    r = np.asarray(r, fmt.dtype)
    keep = fmt.keep(ctx.mode)
    if quiet_nans is True:
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
    return fmt.bits(r).astype(fmt.utype)


# ---- IEEE-mode min / max (RDNA3 ISA V_MIN_F32 / V_MAX_F32 pseudocode) --------------------------

def _nan_pick(ctx, fmt, a, b, chosen):
    """The NaN rules around an ordinary min/max choice, in the pseudocode's order: IEEE mode:
    a signalling S0, then S1, returns it quieted; a quiet NaN S1 returns S0, a quiet NaN S0
    returns S1. Otherwise: NaN S1 returns S0, NaN S0 returns S1. Returned operands are passed
    through unchanged (a signalling NaN stays signalling outside IEEE mode): the caller must not
    quiet the result."""
    ieee = ctx.mode.ieee
    an, bn = np.isnan(a), np.isnan(b)
    if not (an.any() or bn.any()):
        return chosen.astype(fmt.dtype, copy=False)
    r = np.where(an, b, chosen)
    r = np.where(bn, a, r)                       # a NaN S1 wins over a NaN S0: D = S0
    if ieee:
        r = np.where(is_snan(fmt, b), quiet(fmt, b), r)
        r = np.where(is_snan(fmt, a), quiet(fmt, a), r)
    return r.astype(fmt.dtype)


def fmin(ctx, fmt, a, b):
    sa = np.signbit(a)
    lt = (a < b) | ((a == b) & sa)               # -0 is below +0
    return _nan_pick(ctx, fmt, a, b, np.where(lt, a, b))


def fmax(ctx, fmt, a, b):
    sb = np.signbit(b)
    ge = (a > b) | ((a == b) & ~(np.signbit(a) & ~sb))
    return _nan_pick(ctx, fmt, a, b, np.where(ge, a, b))


def fmed3(ctx, fmt, a, b, c):
    """V_MED3_F*: with any NaN it is min3; otherwise the max of the two not-largest."""
    anynan = np.isnan(a) | np.isnan(b) | np.isnan(c)
    mx = fmax(ctx, fmt, fmax(ctx, fmt, a, b), c)
    same = lambda x: mx == x                     # a float compare: +0 == -0, as the pseudocode
    med = np.where(same(a), fmax(ctx, fmt, b, c),
                   np.where(same(b), fmax(ctx, fmt, a, c), fmax(ctx, fmt, a, b)))
    return np.where(anynan, fmin(ctx, fmt, fmin(ctx, fmt, a, b), c), med).astype(fmt.dtype)


# ---- fused multiply-add, correctly rounded ------------------------------------------------------

def two_sum(a, b):
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def round_to_odd_sum(a, b):
    """a + b in float64 rounded to odd: an inexact sum gets its last mantissa bit forced to 1,
    so a second rounding to any format of <= 51 bits is exact (Boldo & Melquiond)."""
    with np.errstate(invalid="ignore", over="ignore"):
        s, err = two_sum(a, b)
        # a finite non-zero error means s is finite and inexact (an exact zero sum keeps the
        # IEEE sign of a + b)
        fix = np.isfinite(err) & (err != 0) & ((s.view(U64) & U64(1)) == 0)
        if not fix.any():
            return s
        return np.where(fix, np.nextafter(s, np.copysign(np.inf, err)), s)


def fma_narrow(fmt, a, b, c):
    """fma for f16/f32 operands: the product is exact in float64, the sum is rounded to odd,
    then rounded once to the destination format."""
    p = a.astype(np.float64) * b.astype(np.float64)
    return round_to_odd_sum(p, c.astype(np.float64)).astype(fmt.dtype)


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


def _fma_exact_lane(a, b, c):
    from fractions import Fraction
    return exact_to_double(Fraction(a) * Fraction(b) + Fraction(c), a * b + c)


def fma64(a, b, c):
    """Correctly rounded double fma. Error-free product + round-to-odd sum where no intermediate
    can overflow or lose bits to underflow; the rare remaining lanes use exact rationals. A finite
    product with an infinite addend is the addend (the exact product does not overflow)."""
    with np.errstate(all="ignore"):
        ph, pl = two_prod(a, b)
        th, tl = two_sum(c, ph)
        v = round_to_odd_sum(tl, pl)
        r = th + v
        ea = np.abs(a)
        eb = np.abs(b)
        finite = np.isfinite(a) & np.isfinite(b) & np.isfinite(c)
        prod = ea * eb
        risky = finite & (a != 0) & (b != 0) & (
            (ea > 2.0 ** 995) | (eb > 2.0 ** 995) | (prod > 2.0 ** 1000) | (prod < 2.0 ** -900)
            | ((np.abs(c) < 2.0 ** -900) & (c != 0)) | (np.abs(c) > 2.0 ** 1000))
        plain = ~finite | (a == 0) | (b == 0)
        r = np.where(plain, a * b + c, r)
        r = np.where(np.isinf(c) & np.isfinite(a) & np.isfinite(b), c, r)
        r = np.where(finite & ~plain & (r == 0) & (ph + c == 0), ph + c, r)
    if risky.any():
        r = np.array(r, np.float64)
        for idx in zip(*np.nonzero(risky)):
            r[idx] = _fma_exact_lane(float(a[idx]), float(b[idx]), float(c[idx]))
    return r
