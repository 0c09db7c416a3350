"""An independent reference of the gfx1100 (RDNA3) VALU and SALU semantics, one lane at a time.

Written from the "RDNA3" Instruction Set Architecture guide: the pseudocode of each opcode, and
the prose around it for what the pseudocode leaves out (MODE's rounding and denormal controls,
input modifiers, output modifiers, clamp). It shares no code with the simulator
(drivers/emu/amd/shader): values are Python integers and exact rationals (fractions.Fraction),
every float result is rounded once, by `round_float` below, to the destination format under the
MODE rounding mode. scripts/check_rdna3_semantics.py runs it against the simulator and against
LLVM 19's constant folding.

A float result is a `Res`: the result bits, and a tolerance -- `nan_any` (any quiet NaN is
right: the guide does not say which NaN an arithmetic operation returns) or `ulp` (the guide's
transcendentals, reciprocals and square roots are approximations; the reference computes them
in double precision and accepts 1 ulp of the destination format).

Choices where the guide's text is silent or ambiguous are marked CHOICE in the code.
"""
import math
import struct
from dataclasses import dataclass
from fractions import Fraction as Q

M32, M64 = 0xFFFFFFFF, 0xFFFFFFFFFFFFFFFF


# ---- float formats --------------------------------------------------------------------------

@dataclass(frozen=True)
class Fmt:
    name: str
    width: int
    mant: int

    @property
    def ebits(self):
        return self.width - 1 - self.mant

    @property
    def bias(self):
        return (1 << (self.ebits - 1)) - 1

    @property
    def emax(self):
        return self.bias

    @property
    def emin(self):
        return 1 - self.bias

    @property
    def sign(self):
        return 1 << (self.width - 1)

    @property
    def expmask(self):
        return ((1 << self.ebits) - 1) << self.mant

    @property
    def qbit(self):
        return 1 << (self.mant - 1)

    @property
    def maxnorm(self):
        return Q(2) ** self.emax * (2 - Q(1, 1 << self.mant))


F16, BF16, F32, F64 = Fmt("f16", 16, 10), Fmt("bf16", 16, 7), Fmt("f32", 32, 23), Fmt("f64", 64, 52)
FMTS = {"f16": F16, "bf16": BF16, "f32": F32, "f64": F64}


class F:
    """A float datum: kind 'num' (exact magnitude `mag`), 'inf' or 'nan', a sign, and the raw
    bits when it is an operand unchanged (NaN payloads travel only that way)."""
    __slots__ = ("kind", "neg", "mag", "bits", "fmt")

    def __init__(self, kind, neg, mag=Q(0), bits=None, fmt=None):
        self.kind, self.neg, self.mag, self.bits, self.fmt = kind, bool(neg), mag, bits, fmt

    @property
    def nan(self):
        return self.kind == "nan"

    @property
    def inf(self):
        return self.kind == "inf"

    @property
    def zero(self):
        return self.kind == "num" and self.mag == 0

    @property
    def snan(self):
        return self.nan and self.bits is not None and not self.bits & self.fmt.qbit

    @property
    def qnan(self):
        return self.nan and not self.snan

    @property
    def value(self):
        """Signed exact value of a finite number."""
        return -self.mag if self.neg else self.mag

    def __repr__(self):
        if self.kind == "num":
            return "%s%s" % ("-" if self.neg else "", float(self.mag))
        return "%s%s" % ("-" if self.neg else "+", self.kind)


def num(v, neg=None):
    """A finite datum from a signed rational (neg gives the sign of a zero)."""
    v = Q(v)
    return F("num", v < 0 if neg is None or v != 0 else neg, abs(v))


NAN = F("nan", False)           # an arithmetic NaN (which one is not specified)
PINF, NINF = F("inf", False), F("inf", True)


def decode(fmt, bits):
    bits &= (1 << fmt.width) - 1
    neg = bool(bits & fmt.sign)
    e = (bits & fmt.expmask) >> fmt.mant
    m = bits & ((1 << fmt.mant) - 1)
    if e == (1 << fmt.ebits) - 1:
        return F("nan", neg, bits=bits, fmt=fmt) if m else F("inf", neg, bits=bits, fmt=fmt)
    if e == 0:
        mag = Q(m) * Q(2) ** (fmt.emin - fmt.mant)
    else:
        mag = Q((1 << fmt.mant) | m) * Q(2) ** (e - fmt.bias - fmt.mant)
    return F("num", neg, mag, bits, fmt)


def is_denorm(fmt, bits):
    return not bits & fmt.expmask and bits & (fmt.sign - 1)


def exponent_field(fmt, bits):
    return (bits & fmt.expmask) >> fmt.mant


RNE, RUP, RDOWN, RZERO = 0, 1, 2, 3


def round_float(fmt, f, rm):
    """f rounded to fmt under rounding mode rm -> bits (denormals kept; NaN -> its quieted bits
    when it carries them, else the default quiet NaN)."""
    s = fmt.sign if f.neg else 0
    if f.nan:
        if f.bits is not None and f.fmt is fmt:
            return f.bits | fmt.qbit
        return s | fmt.expmask | fmt.qbit
    if f.inf:
        return s | fmt.expmask
    if f.mag == 0:
        return s
    n, d = f.mag.numerator, f.mag.denominator
    e = n.bit_length() - d.bit_length()
    if Q(2) ** e > f.mag:
        e -= 1
    e = max(e, fmt.emin)
    quantum = Q(2) ** (e - fmt.mant)
    t = f.mag / quantum
    q, rem = divmod(t.numerator, t.denominator)
    rem = Q(rem, t.denominator)
    up = {RNE: rem > Q(1, 2) or (rem == Q(1, 2) and q & 1), RZERO: False,
          RUP: rem > 0 and not f.neg, RDOWN: rem > 0 and f.neg}[rm]
    q += up
    if q == 1 << (fmt.mant + 1):
        q >>= 1
        e += 1
    if e > fmt.emax:
        to_inf = {RNE: True, RZERO: False, RUP: not f.neg, RDOWN: f.neg}[rm]
        return s | fmt.expmask if to_inf else s | (fmt.expmask - (1 << fmt.mant)) | ((1 << fmt.mant) - 1)
    if q < 1 << fmt.mant:
        return s | q                                  # denormal
    return s | (e + fmt.bias) << fmt.mant | (q - (1 << fmt.mant))


def exact_bits(fmt, f):
    """Bits of a datum that needs no rounding (an operand passed through)."""
    if f.bits is not None and f.fmt is fmt:
        return f.bits
    return round_float(fmt, f, RNE)


# ---- MODE ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Mode:
    """The MODE register fields that shape float results (RDNA3 ISA, "MODE")."""
    reg: int = 0x3F0              # round nearest even, denormals kept, DX10_CLAMP, IEEE

    @staticmethod
    def of(round_f32=RNE, round_f16_64=RNE, denorm_f32=3, denorm_f16_64=3, dx10_clamp=1, ieee=1):
        return Mode(round_f32 | round_f16_64 << 2 | denorm_f32 << 4 | denorm_f16_64 << 6
                    | dx10_clamp << 8 | ieee << 9)

    def rm(self, fmt):
        return self.reg & 3 if fmt.width == 32 else self.reg >> 2 & 3

    def _denorm(self, fmt):
        return self.reg >> 4 & 3 if fmt.width == 32 else self.reg >> 6 & 3

    def keep_in(self, fmt):
        """FP_DENORM bit 0: denormal inputs are used as they are (else read as zero)."""
        return bool(self._denorm(fmt) & 1)

    def keep_out(self, fmt):
        """FP_DENORM bit 1: denormal results are written (else flushed to zero)."""
        return bool(self._denorm(fmt) & 2)

    @property
    def ieee(self):
        return bool(self.reg >> 9 & 1)

    @property
    def dx10(self):
        return bool(self.reg >> 8 & 1)


# CHOICE: MODE has no bf16 fields: bf16 results round to nearest even, and bf16 denormals are
# kept, in and out.
def _mode_fmt(fmt):
    return F32 if fmt is BF16 else fmt


@dataclass
class Ctx:
    """One lane's execution context: MODE, the VOP3/VOP3P modifiers, VCC/carry-in, lane id."""
    mode: Mode = Mode()
    neg: int = 0
    abs: int = 0
    opsel: int = 0
    opsel_hi: int = 0b111
    neg_hi: int = 0
    clamp: bool = False
    omod: int = 0
    vcc: int = 0
    lane: int = 0
    scc: int = 0


def read_float(ctx, fmt, bits, i, neg=None, abs_=None):
    """Source i: abs then neg on the bits, then the input denormal rule of MODE."""
    neg = ctx.neg >> i & 1 if neg is None else neg
    abs_ = ctx.abs >> i & 1 if abs_ is None else abs_
    bits &= (1 << fmt.width) - 1
    if abs_:
        bits &= fmt.sign - 1
    if neg:
        bits ^= fmt.sign
    if is_denorm(fmt, bits) and fmt is not BF16 and not ctx.mode.keep_in(_mode_fmt(fmt)):
        bits &= fmt.sign                    # read as a zero of the same sign
    return decode(fmt, bits)


@dataclass(frozen=True)
class Res:
    """A float result: bits, and what else counts as right (see the module docstring)."""
    bits: int
    nan_any: bool = False
    ulp: int = 0


def write_float(ctx, fmt, f, *, omod=True, clamp=True, ulp=0):
    """The result pipeline: round to fmt under MODE, output modifier, output denormal flush,
    clamp. A NaN that is an operand passed through unchanged keeps its bits (pseudocode
    `D = S0`); an arithmetic NaN is any quiet NaN.

    CHOICE (the guide's prose): omod applies only with MODE.IEEE clear and output denormals of
    the format flushed; it scales the rounded result (exact but for over/underflow), then the
    result's denormals are flushed and -0 becomes +0. Clamp limits to [0, 1] (-0 -> +0); a NaN
    becomes 0 when MODE.DX10_CLAMP is set."""
    mfmt = _mode_fmt(fmt)
    rm = RNE if fmt is BF16 else ctx.mode.rm(mfmt)
    nan_any = False
    if f.nan:
        if f.bits is not None and f.fmt is fmt:
            bits = f.bits                     # passed through (quieting is the op's business)
        else:
            bits, nan_any = round_float(fmt, NAN, rm), True
    else:
        bits = round_float(fmt, f, rm)
    if omod and ctx.omod and not ctx.mode.ieee and not ctx.mode.keep_out(mfmt):
        r = decode(fmt, bits)
        if not r.nan:
            factor = (1, 2, 4, Q(1, 2))[ctx.omod]
            bits = round_float(fmt, F(r.kind, r.neg, r.mag * factor), rm)
            if not bits & (fmt.sign - 1):
                bits = 0                          # a zero result is +0
    if fmt is not BF16 and not ctx.mode.keep_out(mfmt) and is_denorm(fmt, bits):
        bits &= fmt.sign
    if clamp and ctx.clamp:
        r = decode(fmt, bits)
        if r.nan:
            if ctx.mode.dx10:
                bits, nan_any = 0, False
        elif r.neg or r.zero:
            bits = 0
        elif r.inf or r.mag > 1:
            bits = round_float(fmt, num(1), RNE)
    return Res(bits, nan_any, ulp)


def quiet(f):
    """cvtToQuietNAN: a NaN operand with its quiet bit set (payload kept)."""
    if f.bits is None:
        return NAN
    return F("nan", f.neg, bits=f.bits | f.fmt.qbit, fmt=f.fmt)


# ---- exact float arithmetic (IEEE 754 with MODE rounding for zero signs) -------------------

def fadd(a, b, rm=RNE):
    if a.nan or b.nan:
        return NAN
    if a.inf or b.inf:
        if a.inf and b.inf and a.neg != b.neg:
            return NAN
        return a if a.inf else b
    s = a.value + b.value
    if s == 0:
        if a.zero and b.zero and a.neg == b.neg:
            return num(0, a.neg)
        return num(0, rm == RDOWN)            # exact zero sum: -0 only when rounding down
    return num(s)


def fmul(a, b):
    if a.nan or b.nan:
        return NAN
    neg = a.neg != b.neg
    if a.inf or b.inf:
        if a.zero or b.zero:
            return NAN
        return F("inf", neg)
    return num(a.mag * b.mag * (-1 if neg else 1), neg)


def ffma(a, b, c, rm=RNE):
    p = fmul(a, b)
    if p.nan or c.nan:
        return NAN
    return fadd(p, c, rm)


def fdiv(a, b):
    if a.nan or b.nan:
        return NAN
    neg = a.neg != b.neg
    if a.inf:
        return NAN if b.inf else F("inf", neg)
    if b.inf:
        return num(0, neg)
    if b.zero:
        return NAN if a.zero else F("inf", neg)
    return num(a.mag / b.mag * (-1 if neg else 1), neg)


def fcmp(a, b):
    """-1, 0, 1, or None (unordered)."""
    if a.nan or b.nan:
        return None
    va = (float("-inf") if a.neg else float("inf")) if a.inf else a.value
    vb = (float("-inf") if b.neg else float("inf")) if b.inf else b.value
    return (va > vb) - (va < vb)


def fneg(f):
    """-x: a sign change (a NaN operand keeps its payload)."""
    if f.bits is not None:
        return F(f.kind, not f.neg, f.mag, f.bits ^ f.fmt.sign, f.fmt)
    return F(f.kind, not f.neg, f.mag)


def trunc(f):
    if f.nan:
        return quiet(f)
    if f.kind != "num":
        return f
    t = math.floor(f.mag)
    return num(t * (-1 if f.neg else 1), f.neg)


def floor_(f):
    if f.nan:
        return quiet(f)
    if f.kind != "num":
        return f
    t = trunc(f)
    if f.neg and t.mag != f.mag:
        return num(t.value - 1)
    return t


def _double(f):
    if f.nan:
        return float("nan")
    if f.inf:
        return float("-inf") if f.neg else float("inf")
    return -float(f.mag) if f.neg else float(f.mag)


def _from_double(x):
    if math.isnan(x):
        return NAN
    if math.isinf(x):
        return NINF if x < 0 else PINF
    return num(Q(x), math.copysign(1, x) < 0)


# ---- integer helpers -------------------------------------------------------------------------

def sx(v, bits):
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


def ux(v, bits):
    return v & ((1 << bits) - 1)


def signext_from_bit(v, width, bits):
    """signext_from_bit(tmp, width): the low `width` bits as a signed number (0 for width 0)."""
    if width == 0:
        return 0
    if width >= bits:
        return ux(v, bits)
    return ux(sx(v, width), bits)


def bit(v, i):
    return v >> i & 1


def sat(ctx, v, bits, signed):
    """An integer result: wrapped to `bits`, or saturated to the type's range when the clamp bit
    is set (the ISA's clamp for integer arithmetic)."""
    if ctx.clamp:
        lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
        v = min(max(v, lo), hi)
    return ux(v, bits)


# ---- the op table ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Op:
    """srcs: operand kinds read ('u32', 'u64', 'f32', 'f16', ...; 16-bit kinds read one half of
    a 32-bit register as op_sel says); dst: result kind; fn(ctx, *operands[, old]) -> result.
    reads_old: the old destination is an operand (v_fmac_*, v_dot2acc, 16-bit partial writes);
    mask_in / mask_out: VCC in / out per lane; scc_out: SALU."""
    name: str
    srcs: tuple
    dst: str
    fn: object
    reads_old: bool = False
    mask_in: bool = False
    mask_out: bool = False
    scc_in: bool = False
    scc_out: bool = False
    notes: str = ""


OPS = {}
# Where the simulator follows something other than the literal pseudocode: name -> (why, the
# literal pseudocode's Op). OPS holds what is followed; the checker counts the cases where the
# two differ.
DEVIATIONS = {}


def deviate(name, why):
    """Keep the Op now registered as `name` as the literal pseudocode; what is registered next
    under the same name is what the simulator follows, for the reason given."""
    DEVIATIONS[name] = (why, OPS.pop(name))


def defop(name, srcs, dst, **kw):
    def reg(fn):
        OPS[name] = Op(name, tuple(srcs), dst, fn, **kw)
        return fn
    return reg


def _fsrc(ctx, kind, raw, i):
    fmt = FMTS[kind]
    if fmt.width == 16 and kind != "bf16":
        raw = raw >> 16 if ctx.opsel >> i & 1 else raw
    return read_float(ctx, fmt, raw, i)


def _half_in(ctx, raw, i):
    return (raw >> 16 if ctx.opsel >> i & 1 else raw) & 0xFFFF


def _half_out(ctx, old, v16):
    """A 16-bit result into the half of D that op_sel[3] names; the other half is kept."""
    v16 &= 0xFFFF
    return (old & 0xFFFF) | v16 << 16 if ctx.opsel >> 3 & 1 else (old & 0xFFFF0000) | v16


def _fres(ctx, fmt, f, old=None, **kw):
    r = write_float(ctx, fmt, f, **kw)
    if fmt is F16 and old is not None:
        return Res(_half_out(ctx, old, r.bits), r.nan_any, r.ulp)
    return r


# -- float arithmetic (f16 / f32 / f64) -------------------------------------------------------

def _minmax(ctx, a, b, is_max):
    """V_MIN_* / V_MAX_* pseudocode, IEEE and non-IEEE branches."""
    def beats(x, y):
        c = fcmp(x, y)
        if c is None:
            return False
        if c == 0 and x.zero and y.zero:
            return (not x.neg and y.neg) if is_max else (x.neg and not y.neg)
        return c > 0 if is_max else c < 0
    if ctx.mode.ieee:
        if a.snan:
            return quiet(a)
        if b.snan:
            return quiet(b)
        if b.qnan:
            return a
        if a.qnan:
            return b
    else:
        if b.nan:
            return a
        if a.nan:
            return b
    return a if beats(a, b) else b


def _med3(ctx, a, b, c):
    if a.nan or b.nan or c.nan:
        return _minmax(ctx, _minmax(ctx, a, b, False), c, False)
    mx = _minmax(ctx, _minmax(ctx, a, b, True), c, True)

    def same(x, y):
        return fcmp(x, y) == 0
    if same(mx, a):
        return _minmax(ctx, b, c, True)
    if same(mx, b):
        return _minmax(ctx, a, c, True)
    return _minmax(ctx, a, b, True)


def _float_ops():
    for t in ("f16", "f32", "f64"):
        fmt = FMTS[t]
        bits = 64 if t == "f64" else 32

        def binary(name, f, t=t, fmt=fmt):
            @defop(name, (t, t), t, reads_old=fmt is F16)
            def run(ctx, x, y, old=None, f=f, fmt=fmt, t=t):
                a, b = _fsrc(ctx, t, x, 0), _fsrc(ctx, t, y, 1)
                return _fres(ctx, fmt, f(ctx, a, b, ctx.mode.rm(fmt)), old)

        def ternary(name, f, t=t, fmt=fmt, **kw):
            @defop(name, (t, t, t), t, reads_old=fmt is F16, **kw)
            def run(ctx, x, y, z, old=None, f=f, fmt=fmt, t=t):
                a, b, c = _fsrc(ctx, t, x, 0), _fsrc(ctx, t, y, 1), _fsrc(ctx, t, z, 2)
                return _fres(ctx, fmt, f(ctx, a, b, c, ctx.mode.rm(fmt)), old)

        binary("v_add_" + t, lambda ctx, a, b, rm: fadd(a, b, rm))
        binary("v_mul_" + t, lambda ctx, a, b, rm: fmul(a, b))
        binary("v_min_" + t, lambda ctx, a, b, rm: _minmax(ctx, a, b, False))
        binary("v_max_" + t, lambda ctx, a, b, rm: _minmax(ctx, a, b, True))
        ternary("v_fma_" + t, lambda ctx, a, b, c, rm: ffma(a, b, c, rm))

        @defop("v_ldexp_" + t, (t, "i16" if t == "f16" else "u32"), t, reads_old=fmt is F16)
        def ldexp(ctx, x, n, old=None, t=t, fmt=fmt):
            a = _fsrc(ctx, t, x, 0)
            e = sx(_half_in(ctx, n, 1), 16) if t == "f16" else sx(n, 32)
            e = max(min(e, 2200), -2200)          # beyond these the result saturates anyway
            r = quiet(a) if a.nan else a if a.kind != "num" else num(a.value * Q(2) ** e, a.neg)
            return _fres(ctx, fmt, r, old)
        if t == "f64":
            continue
        binary("v_sub_" + t, lambda ctx, a, b, rm: fadd(a, fneg(b), rm))
        binary("v_subrev_" + t, lambda ctx, a, b, rm: fadd(b, fneg(a), rm))
        ternary("v_fmamk_" + t, lambda ctx, a, k, b, rm: ffma(a, k, b, rm))   # printed S0, K, S1
        ternary("v_fmaak_" + t, lambda ctx, a, b, k, rm: ffma(a, b, k, rm))
        ternary("v_min3_" + t, lambda ctx, a, b, c, rm: _minmax(ctx, _minmax(ctx, a, b, False), c, False))
        ternary("v_max3_" + t, lambda ctx, a, b, c, rm: _minmax(ctx, _minmax(ctx, a, b, True), c, True))
        ternary("v_med3_" + t, lambda ctx, a, b, c, rm: _med3(ctx, a, b, c))
        ternary("v_minmax_" + t, lambda ctx, a, b, c, rm: _minmax(ctx, _minmax(ctx, a, b, False), c, True))
        ternary("v_maxmin_" + t, lambda ctx, a, b, c, rm: _minmax(ctx, _minmax(ctx, a, b, True), c, False))

        @defop("v_fmac_" + t, (t, t), t, reads_old=True)
        def fmac(ctx, x, y, old, t=t, fmt=fmt):
            a, b = _fsrc(ctx, t, x, 0), _fsrc(ctx, t, y, 1)
            acc = old >> 16 if fmt is F16 and ctx.opsel >> 3 & 1 else old
            c = read_float(ctx, fmt, acc, 2)
            return _fres(ctx, fmt, ffma(a, b, c, ctx.mode.rm(fmt)), old)


_float_ops()


# -- rounding, fract, frexp ---------------------------------------------------------------------

def _unary_float(name, t, f, ulp=0, **kw):
    fmt = FMTS[t]

    @defop(name, (t,), t, reads_old=fmt is F16, **kw)
    def run(ctx, x, old=None):
        a = _fsrc(ctx, t, x, 0)
        return _fres(ctx, fmt, f(ctx, a, fmt), old, ulp=ulp)
    return run


def _ceil(ctx, a, fmt):
    d = trunc(a)
    if a.kind == "num" and not a.neg and a.mag != d.mag:
        return fadd(d, num(1), ctx.mode.rm(fmt))
    return d


def _floor(ctx, a, fmt):
    d = trunc(a)
    if a.kind == "num" and a.neg and a.mag != d.mag:
        return fadd(d, num(-1), ctx.mode.rm(fmt))
    return d


def _rndne(ctx, a, fmt):
    """floor(S0 + 0.5), minus one when floor(S0) is even and fract(S0) == 0.5. CHOICE: +-0 and
    values already integral keep their sign (IEEE roundToIntegralTiesToEven; the pseudocode's
    `floor(x + 0.5)` would turn -0.25 into +0)."""
    if a.nan:
        return quiet(a)
    if a.kind != "num":
        return a
    v = a.value
    r = math.floor(v + Q(1, 2))
    fl = math.floor(v)
    if fl % 2 == 0 and v - fl == Q(1, 2):
        r -= 1
    return num(r, a.neg)


def _fract(ctx, a, fmt):
    """S0 + -floor(S0). CHOICE (with LLVM and the guide's v_fract note in the opcode table):
    the result is clamped below 1.0 (a tiny negative input gives the largest float below one),
    +-inf gives NaN; a NaN input gives an arithmetic NaN."""
    if a.nan:
        return NAN
    if a.inf:
        return NAN
    r = fadd(a, fneg(floor_(a)), ctx.mode.rm(fmt))
    below_one = 1 - Q(1, 1 << (fmt.mant + 1))
    rb = decode(fmt, round_float(fmt, r, ctx.mode.rm(fmt)))
    if rb.kind == "num" and rb.mag >= 1:
        return num(below_one)
    return r


def _frexp_mant(ctx, a, fmt):
    """+-inf and NaN: D = S0 (the NaN unchanged, not quieted); else the mantissa in [0.5, 1)."""
    if a.kind != "num" or a.zero:
        return a
    e = _frexp_exp_value(a)
    return num(a.value / Q(2) ** e, a.neg)


def _frexp_exp_value(a):
    if a.zero:
        return 0
    n, d = a.mag.numerator, a.mag.denominator
    e = n.bit_length() - d.bit_length()
    if Q(2) ** e > a.mag:
        e -= 1
    return e + 1


for _t in ("f16", "f32", "f64"):
    _unary_float("v_trunc_" + _t, _t, lambda ctx, a, fmt: trunc(a))
    _unary_float("v_ceil_" + _t, _t, _ceil)
    _unary_float("v_floor_" + _t, _t, _floor)
    _unary_float("v_rndne_" + _t, _t, _rndne)
    _unary_float("v_fract_" + _t, _t, _fract)
    _unary_float("v_frexp_mant_" + _t, _t, _frexp_mant)


def _frexp_exp(name, t, out_bits):
    @defop(name, (t,), "i16" if out_bits == 16 else "i32", reads_old=out_bits == 16)
    def run(ctx, x, old=None):
        a = _fsrc(ctx, t, x, 0)
        if a.kind != "num":
            e = 0
        else:
            # exponent(S0) - bias + 1 of the (denormal-read) operand; CHOICE: a denormal reports
            # the exponent of its value (its leading bit), as LLVM folds it, not the field
            e = _frexp_exp_value(a)
        if out_bits == 16:
            return _half_out(ctx, old, ux(e, 16))
        return ux(e, 32)


_frexp_exp("v_frexp_exp_i32_f32", "f32", 32)
_frexp_exp("v_frexp_exp_i32_f64", "f64", 32)
_frexp_exp("v_frexp_exp_i16_f16", "f16", 16)


# -- transcendental, reciprocal, square root (approximations on hardware) ---------------------

def _approx(fn_exact, special):
    def f(ctx, a, fmt):
        s = special(a)
        if s is not None:
            return s
        return fn_exact(a)
    return f


def _sqrt_special(a):
    if a.nan:
        return quiet(a)
    if a.zero:
        return a                                   # sqrt(-0) = -0
    if a.neg:
        return NAN
    if a.inf:
        return PINF
    return None


def _rcp_special(a):
    if a.nan:
        return quiet(a)
    if a.zero:
        return F("inf", a.neg)
    if a.inf:
        return num(0, a.neg)
    return None


def _rsq_special(a):
    if a.nan:
        return quiet(a)
    if a.zero:
        return F("inf", a.neg)
    if a.neg:
        return NAN
    if a.inf:
        return num(0)
    return None


def _pow2(x):
    if x > 2000:
        return PINF
    if x < -2000:
        return num(0)
    return num(Q(2.0 ** x) if abs(x) < 1000 else Q(2) ** int(x) * Q(2.0 ** (x - int(x))))


def _exp_special(a):
    if a.nan:
        return quiet(a)
    if a.inf:
        return num(0) if a.neg else PINF
    if a.zero:
        return num(1)
    return None


def _log_special(a):
    if a.nan:
        return quiet(a)
    if a.zero:
        return NINF
    if a.neg:
        return NAN
    if a.inf:
        return PINF
    if a.mag == 1:
        return num(0)
    return None


def _trig_special(a):
    if a.nan:
        return quiet(a)
    if a.inf:
        return NAN
    return None


def _sqrt_exact(a):
    """sqrt rounded to odd in a wide fixed point: exact enough for one rounding to any format."""
    n, d = a.mag.numerator, a.mag.denominator
    scale = max(0, (d.bit_length() - n.bit_length()) // 2) + 200
    r = math.isqrt(n * (1 << (2 * scale)) // d)
    v = Q(r, 1 << scale)
    if v * v != a.mag:
        v += Q(1, 1 << (scale + 8))            # sticky: strictly above the truncation
    return num(v)


def _recip_sqrt(a):
    s = _sqrt_exact(a)
    return num(1 / s.mag)


def _flushing(f):
    """The f32 exp/log/rcp/rsq/sqrt forms read denormal operands as zero and flush denormal
    results whatever MODE says (the opcode notes of the ISA guide; LLVM's lowering scales
    around them for the same reason)."""
    def g(ctx, a, fmt):
        if a.kind == "num" and a.mag < Q(2) ** fmt.emin:
            a = num(0, a.neg)
        r = f(ctx, a, fmt)
        if r.kind == "num" and r.mag != 0:
            b = decode(fmt, round_float(fmt, r, ctx.mode.rm(fmt)))
            if b.kind == "num" and b.mag < Q(2) ** fmt.emin:
                return num(0, r.neg)
        return r
    return g


_FLUSH_WHY = ("the f32 transcendental unit flushes denormal operands and results whatever "
              "MODE says (ISA opcode notes; LLVM scales around it); the pseudocode's plain "
              "expression does not show it")


def _unary_f32_flushing(name, f, ulp):
    _unary_float(name, "f32", f, ulp=ulp)
    deviate(name, _FLUSH_WHY)
    _unary_float(name, "f32", _flushing(f), ulp=ulp)


for _t in ("f16", "f32", "f64"):
    _unary_float("v_sqrt_" + _t, _t, _approx(_sqrt_exact, _sqrt_special), ulp=1)
    _unary_float("v_rcp_" + _t, _t, _approx(lambda a: num(1 / a.value), _rcp_special), ulp=1)
    _unary_float("v_rsq_" + _t, _t, _approx(_recip_sqrt, _rsq_special), ulp=1)
_unary_float("v_rcp_iflag_f32", "f32", _approx(lambda a: num(1 / a.value), _rcp_special), ulp=1)
for _n, _f in (("sqrt", _approx(_sqrt_exact, _sqrt_special)),
               ("rcp", _approx(lambda a: num(1 / a.value), _rcp_special)),
               ("rsq", _approx(_recip_sqrt, _rsq_special)),
               ("rcp_iflag", _approx(lambda a: num(1 / a.value), _rcp_special))):
    deviate("v_%s_f32" % _n, _FLUSH_WHY)
    _unary_float("v_%s_f32" % _n, "f32", _flushing(_f), ulp=1)


def _revolutions(x, want_cos):
    """sin(2*PI*x) / cos(2*PI*x) with x in revolutions, reduced exactly: whole, half and
    quarter turns give exact results. CHOICE (the pseudocode's sin(S0 * 2PI) does not say):
    an exact zero is +0, except sin(+-0) = +-0."""
    if x.zero and not want_cos:
        return x
    v = x.value
    r = v - round(v)                                   # [-1/2, 1/2]
    if (4 * r).denominator == 1:
        q = int(4 * r) % 4 + (1 if want_cos else 0)
        return num((0, 1, 0, -1)[q % 4])
    y = math.cos(2 * math.pi * float(r)) if want_cos else math.sin(2 * math.pi * float(r))
    return _from_double(y)


for _t in ("f16", "f32"):
    _unary_float("v_exp_" + _t, _t, _approx(lambda a: _pow2(_double(a)), _exp_special),
                 ulp=1)
    _unary_float("v_log_" + _t, _t, _approx(lambda a: _from_double(math.log2(_double(a))), _log_special),
                 ulp=1)
    # sin(S0 * 2 * PI): the argument is in revolutions
    _unary_float("v_sin_" + _t, _t, _approx(lambda a: _revolutions(a, False), _trig_special), ulp=1)
    _unary_float("v_cos_" + _t, _t, _approx(lambda a: _revolutions(a, True), _trig_special), ulp=1)
for _n, _f, _u in (("exp", _approx(lambda a: _pow2(_double(a)), _exp_special), 1),
                   ("log", _approx(lambda a: _from_double(math.log2(_double(a))), _log_special), 1)):
    deviate("v_%s_f32" % _n, _FLUSH_WHY)
    _unary_float("v_%s_f32" % _n, "f32", _flushing(_f), ulp=_u)


# -- compares ----------------------------------------------------------------------------------

FLOAT_PREDICATES = {
    "f": lambda c: False, "lt": lambda c: c == -1, "eq": lambda c: c == 0, "le": lambda c: c in (-1, 0),
    "gt": lambda c: c == 1, "lg": lambda c: c in (-1, 1), "ge": lambda c: c in (0, 1),
    "o": lambda c: c is not None, "u": lambda c: c is None, "nge": lambda c: c not in (0, 1),
    "nlg": lambda c: c not in (-1, 1), "ngt": lambda c: c != 1, "nle": lambda c: c not in (-1, 0),
    "neq": lambda c: c != 0, "nlt": lambda c: c != -1, "t": lambda c: True}
INT_PREDICATES = {"f": lambda a, b: False, "lt": lambda a, b: a < b, "eq": lambda a, b: a == b,
                  "le": lambda a, b: a <= b, "gt": lambda a, b: a > b, "ne": lambda a, b: a != b,
                  "ge": lambda a, b: a >= b, "t": lambda a, b: True}


def _class_bit(f, fmt):
    if f.snan:
        return 0
    if f.nan:
        return 1
    if f.inf:
        return 2 if f.neg else 9
    if f.zero:
        return 5 if f.neg else 6
    if f.mag < Q(2) ** fmt.emin:
        return 4 if f.neg else 7
    return 3 if f.neg else 8


for _t in ("f16", "f32", "f64"):
    for _p, _fn in FLOAT_PREDICATES.items():
        @defop("v_cmp_%s_%s" % (_p, _t), (_t, _t), "mask")
        def _cmp(ctx, x, y, t=_t, fn=_fn):
            return int(fn(fcmp(_fsrc(ctx, t, x, 0), _fsrc(ctx, t, y, 1))))

    @defop("v_cmp_class_" + _t, (_t, "u32"), "mask")
    def _cls(ctx, x, m, t=_t):
        # CHOICE (with LLVM's fold): the operand is classified with abs/neg applied but not
        # MODE's input denormal flush -- a denormal is a denormal (LLVM relies on v_cmp_class to
        # find denormals whatever the mode)
        fmt = FMTS[t]
        raw = x >> 16 if fmt is F16 and ctx.opsel & 1 else x
        f = read_float(Ctx(mode=Mode.of()), fmt, raw, 0, neg=ctx.neg & 1, abs_=ctx.abs & 1)
        return bit(m, _class_bit(f, fmt))

for _t, _bits, _signed in (("i16", 16, True), ("u16", 16, False), ("i32", 32, True), ("u32", 32, False),
                           ("i64", 64, True), ("u64", 64, False)):
    for _p, _fn in INT_PREDICATES.items():
        if _p in ("f", "t") and _bits == 16:
            continue

        @defop("v_cmp_%s_%s" % (_p, _t), (_t, _t), "mask")
        def _icmp(ctx, x, y, bits=_bits, signed=_signed, fn=_fn):
            if bits == 16:
                x, y = _half_in(ctx, x, 0), _half_in(ctx, y, 1)
            f = sx if signed else ux
            return int(fn(f(x, bits), f(y, bits)))


# -- conversions -------------------------------------------------------------------------------

def _to_int(f, lo, hi):
    """f32_to_i32 and friends: truncate toward zero, saturate; NaN -> 0."""
    if f.nan:
        return 0
    if f.inf:
        return lo if f.neg else hi
    v = math.trunc(f.value)
    return min(max(v, lo), hi)


def _int_to_float(name, src, t, getv):
    fmt = FMTS[t]

    @defop(name, (src,), t, reads_old=fmt is F16)
    def run(ctx, x, old=None):
        return _fres(ctx, fmt, num(getv(ctx, x)), old)


_int_to_float("v_cvt_f32_i32", "u32", "f32", lambda ctx, x: sx(x, 32))
_int_to_float("v_cvt_f32_u32", "u32", "f32", lambda ctx, x: x)
_int_to_float("v_cvt_f64_i32", "u32", "f64", lambda ctx, x: sx(x, 32))
_int_to_float("v_cvt_f64_u32", "u32", "f64", lambda ctx, x: x)
_int_to_float("v_cvt_f16_i16", "i16", "f16", lambda ctx, x: sx(_half_in(ctx, x, 0), 16))
_int_to_float("v_cvt_f16_u16", "u16", "f16", lambda ctx, x: _half_in(ctx, x, 0))
for _k in range(4):
    _int_to_float("v_cvt_f32_ubyte%d" % _k, "u32", "f32", lambda ctx, x, k=_k: x >> (8 * k) & 0xFF)


@defop("v_cvt_off_f32_i4", ("u32",), "f32")
def _cvt_off(ctx, x):
    return _fres(ctx, F32, num(Q(sx(x & 15, 4), 16)))


def _float_to_float(name, src, dst):
    sf, df = FMTS[src], FMTS[dst]

    @defop(name, (src,), dst, reads_old=df is F16)
    def run(ctx, x, old=None):
        a = _fsrc(ctx, src, x, 0)
        if a.nan:
            a = NAN                         # a converted NaN is some quiet NaN
        return _fres(ctx, df, a, old)


_float_to_float("v_cvt_f16_f32", "f32", "f16")
_float_to_float("v_cvt_f32_f16", "f16", "f32")
_float_to_float("v_cvt_f32_f64", "f64", "f32")
_float_to_float("v_cvt_f64_f32", "f32", "f64")


def _float_to_int(name, src, lo, hi, pre=None, out16=False):
    @defop(name, (src,), "i16" if out16 else "u32", reads_old=out16)
    def run(ctx, x, old=None):
        a = _fsrc(ctx, src, x, 0)
        if pre is not None:
            a = pre(ctx, a)
        v = _to_int(a, lo, hi)
        return _half_out(ctx, old, ux(v, 16)) if out16 else ux(v, 32)


_float_to_int("v_cvt_i32_f32", "f32", -2 ** 31, 2 ** 31 - 1)
_float_to_int("v_cvt_u32_f32", "f32", 0, 2 ** 32 - 1)
_float_to_int("v_cvt_i32_f64", "f64", -2 ** 31, 2 ** 31 - 1)
_float_to_int("v_cvt_u32_f64", "f64", 0, 2 ** 32 - 1)
_float_to_int("v_cvt_i16_f16", "f16", -2 ** 15, 2 ** 15 - 1, out16=True)
_float_to_int("v_cvt_u16_f16", "f16", 0, 2 ** 16 - 1, out16=True)
_float_to_int("v_cvt_floor_i32_f32", "f32", -2 ** 31, 2 ** 31 - 1,
              lambda ctx, a: _floor(ctx, a, F32))


def _nearest(ctx, a):
    """floor(S0 + 0.5F): the add rounds in f32 under MODE."""
    s = fadd(a, num(Q(1, 2)), ctx.mode.rm(F32))
    if s.kind == "num":
        s = decode(F32, round_float(F32, s, ctx.mode.rm(F32)))
    return _floor(ctx, s, F32)


_float_to_int("v_cvt_nearest_i32_f32", "f32", -2 ** 31, 2 ** 31 - 1, _nearest)


@defop("v_cvt_i32_i16", ("i16",), "u32")
def _cvt_i32_i16(ctx, x):
    return ux(sx(_half_in(ctx, x, 0), 16), 32)


@defop("v_cvt_u32_u16", ("u16",), "u32")
def _cvt_u32_u16(ctx, x):
    return _half_in(ctx, x, 0)


def _norm(f, signed):
    """f16/f32_to_snorm / _unorm: clamp to [-1, 1] / [0, 1], scale by 32767 / 65535, round to
    nearest even; NaN -> 0."""
    if f.nan:
        return 0
    lo, hi, scale = (-1, 1, 32767) if signed else (0, 1, 65535)
    v = lo if f.inf and f.neg else hi if f.inf else min(max(f.value, Q(lo)), Q(hi))
    t = v * scale
    r = math.floor(t)
    rem = t - r
    if rem > Q(1, 2) or (rem == Q(1, 2) and r & 1):
        r += 1
    return ux(r, 16)


@defop("v_cvt_norm_i16_f16", ("f16",), "i16", reads_old=True)
def _cvt_norm_i16(ctx, x, old):
    return _half_out(ctx, old, _norm(_fsrc(ctx, "f16", x, 0), True))


@defop("v_cvt_norm_u16_f16", ("f16",), "u16", reads_old=True)
def _cvt_norm_u16(ctx, x, old):
    return _half_out(ctx, old, _norm(_fsrc(ctx, "f16", x, 0), False))


def _pk(name, src, conv):
    @defop(name, (src, src), "u32")
    def run(ctx, x, y):
        if src in ("f16", "f32"):
            a, b = _fsrc(ctx, src, x, 0), _fsrc(ctx, src, y, 1)
        else:
            a, b = x, y
        return conv(ctx, a) | conv(ctx, b) << 16


_pk("v_cvt_pk_norm_i16_f16", "f16", lambda ctx, a: _norm(a, True))
_pk("v_cvt_pk_norm_u16_f16", "f16", lambda ctx, a: _norm(a, False))
_pk("v_cvt_pk_norm_i16_f32", "f32", lambda ctx, a: _norm(a, True))
_pk("v_cvt_pk_norm_u16_f32", "f32", lambda ctx, a: _norm(a, False))
_pk("v_cvt_pk_i16_f32", "f32", lambda ctx, a: ux(_to_int(a, -2 ** 15, 2 ** 15 - 1), 16))
_pk("v_cvt_pk_u16_f32", "f32", lambda ctx, a: ux(_to_int(a, 0, 2 ** 16 - 1), 16))
_pk("v_cvt_pk_i16_i32", "u32", lambda ctx, a: ux(min(max(sx(a, 32), -2 ** 15), 2 ** 15 - 1), 16))
_pk("v_cvt_pk_u16_u32", "u32", lambda ctx, a: min(a, 0xFFFF))


@defop("v_cvt_pk_rtz_f16_f32", ("f32", "f32"), "u32")
def _cvt_pkrtz(ctx, x, y):
    """Both halves rounded toward zero whatever MODE says (the f16 output denormal rule of
    MODE still applies)."""
    rz = Ctx(mode=Mode(ctx.mode.reg & ~0xC | RZERO << 2), clamp=ctx.clamp)
    out = []
    nan_any = False
    for i, v in enumerate((x, y)):
        a = _fsrc(ctx, "f32", v, i)
        r = write_float(rz, F16, NAN if a.nan else a, omod=False)
        nan_any |= r.nan_any
        out.append(r.bits)
    return Res(out[0] | out[1] << 16, nan_any)


@defop("v_cvt_pk_u8_f32", ("f32", "u32", "u32"), "u32")
def _cvt_pk_u8(ctx, x, sel, d):
    """f32_to_u8: CHOICE (the pseudocode does not define it): rounded to an integer under
    MODE.FP_ROUND (f32), saturated to [0, 255], NaN -> 0."""
    a = _fsrc(ctx, "f32", x, 0)
    if a.nan:
        v = 0
    elif a.inf:
        v = 0 if a.neg else 255
    else:
        t = a.value
        r = math.floor(t)
        rem = t - r
        rm = ctx.mode.rm(F32)
        if rm == RNE:
            r += rem > Q(1, 2) or (rem == Q(1, 2) and r & 1)
        elif rm == RUP:
            r += rem > 0
        elif rm == RZERO:
            r += rem > 0 and t < 0
        v = min(max(r, 0), 255)
    sh = (sel & 3) * 8
    return (d & ~(0xFF << sh) & M32) | v << sh


@defop("v_pack_b32_f16", ("f16", "f16"), "u32")
def _pack_b32_f16(ctx, x, y):
    """D[31:16] = S1.f16, D[15:0] = S0.f16: a move of each half (with the input modifiers);
    CHOICE: no denormal flush or NaN quieting, as a move."""
    out = []
    for i, v in enumerate((x, y)):
        h = _half_in(ctx, v, i)
        if ctx.abs >> i & 1:
            h &= 0x7FFF
        if ctx.neg >> i & 1:
            h ^= 0x8000
        out.append(h)
    return out[0] | out[1] << 16


# -- integer VALU ------------------------------------------------------------------------------

def _iop(name, n, fn, srcs=None, dst="u32", **kw):
    defop(name, srcs or ("u32",) * n, dst, **kw)(fn)


def _popcount(v):
    return bin(v).count("1")


_iop("v_add_nc_u32", 2, lambda c, a, b: sat(c, a + b, 32, False))
_iop("v_sub_nc_u32", 2, lambda c, a, b: sat(c, a - b, 32, False))
_iop("v_subrev_nc_u32", 2, lambda c, a, b: sat(c, b - a, 32, False))
_iop("v_add_nc_i32", 2, lambda c, a, b: sat(c, sx(a, 32) + sx(b, 32), 32, True))
_iop("v_sub_nc_i32", 2, lambda c, a, b: sat(c, sx(a, 32) - sx(b, 32), 32, True))
_iop("v_add3_u32", 3, lambda c, a, b, d: ux(a + b + d, 32))
_iop("v_add_lshl_u32", 3, lambda c, a, b, d: ux((a + b) << (d & 31), 32))
_iop("v_lshl_add_u32", 3, lambda c, a, b, d: ux((a << (b & 31)) + d, 32))
_iop("v_lshl_or_b32", 3, lambda c, a, b, d: ux(a << (b & 31), 32) | d)
_iop("v_and_or_b32", 3, lambda c, a, b, d: (a & b) | d)
_iop("v_or3_b32", 3, lambda c, a, b, d: a | b | d)
_iop("v_xor3_b32", 3, lambda c, a, b, d: a ^ b ^ d)
_iop("v_xad_u32", 3, lambda c, a, b, d: ux((a ^ b) + d, 32))
_iop("v_and_b32", 2, lambda c, a, b: a & b)
_iop("v_or_b32", 2, lambda c, a, b: a | b)
_iop("v_xor_b32", 2, lambda c, a, b: a ^ b)
_iop("v_xnor_b32", 2, lambda c, a, b: ux(~(a ^ b), 32))
_iop("v_not_b32", 1, lambda c, a: ux(~a, 32))
_iop("v_mov_b32", 1, lambda c, a: a)
_iop("v_lshlrev_b32", 2, lambda c, s, a: ux(a << (s & 31), 32))
_iop("v_lshrrev_b32", 2, lambda c, s, a: a >> (s & 31))
_iop("v_ashrrev_i32", 2, lambda c, s, a: ux(sx(a, 32) >> (s & 31), 32))
_iop("v_lshlrev_b64", 2, lambda c, s, a: ux(a << (s & 63), 64), srcs=("u32", "u64"), dst="u64")
_iop("v_lshrrev_b64", 2, lambda c, s, a: a >> (s & 63), srcs=("u32", "u64"), dst="u64")
_iop("v_ashrrev_i64", 2, lambda c, s, a: ux(sx(a, 64) >> (s & 63), 64), srcs=("u32", "u64"), dst="u64")
_iop("v_mul_lo_u32", 2, lambda c, a, b: ux(a * b, 32))
_iop("v_mul_hi_u32", 2, lambda c, a, b: (a * b) >> 32)
_iop("v_mul_hi_i32", 2, lambda c, a, b: ux((sx(a, 32) * sx(b, 32)) >> 32, 32))
_iop("v_mul_u32_u24", 2, lambda c, a, b: ux((a & 0xFFFFFF) * (b & 0xFFFFFF), 32))
_iop("v_mul_hi_u32_u24", 2, lambda c, a, b: ((a & 0xFFFFFF) * (b & 0xFFFFFF)) >> 32)
_iop("v_mul_i32_i24", 2, lambda c, a, b: ux(sx(a, 24) * sx(b, 24), 32))
_iop("v_mul_hi_i32_i24", 2, lambda c, a, b: ux((sx(a, 24) * sx(b, 24)) >> 32, 32))
_iop("v_mad_u32_u24", 3, lambda c, a, b, d: sat(c, (a & 0xFFFFFF) * (b & 0xFFFFFF) + d, 32, False))
_iop("v_mad_i32_i24", 3, lambda c, a, b, d: sat(c, sx(a, 24) * sx(b, 24) + sx(d, 32), 32, True))
_iop("v_mad_u32_u16", 3, lambda c, a, b, d: sat(c, _half_in(c, a, 0) * _half_in(c, b, 1) + d, 32, False),
     srcs=("u16", "u16", "u32"))
_iop("v_mad_i32_i16", 3, lambda c, a, b, d: sat(c, sx(_half_in(c, a, 0), 16) * sx(_half_in(c, b, 1), 16)
                                                + sx(d, 32), 32, True), srcs=("i16", "i16", "u32"))
_iop("v_min_u32", 2, lambda c, a, b: a if a < b else b)
_iop("v_max_u32", 2, lambda c, a, b: a if a >= b else b)
_iop("v_min_i32", 2, lambda c, a, b: a if sx(a, 32) < sx(b, 32) else b)
_iop("v_max_i32", 2, lambda c, a, b: a if sx(a, 32) >= sx(b, 32) else b)


def _min(a, b, f):
    return a if f(a) < f(b) else b


def _max(a, b, f):
    return a if f(a) >= f(b) else b


def _med3i(a, b, c, f):
    mx = _max(_max(a, b, f), c, f)
    if f(mx) == f(a):
        return _max(b, c, f)
    if f(mx) == f(b):
        return _max(a, c, f)
    return _max(a, b, f)


for _t, _f in (("u32", lambda v: v), ("i32", lambda v: sx(v, 32))):
    _iop("v_min3_" + _t, 3, lambda c, a, b, d, f=_f: _min(_min(a, b, f), d, f))
    _iop("v_max3_" + _t, 3, lambda c, a, b, d, f=_f: _max(_max(a, b, f), d, f))
    _iop("v_med3_" + _t, 3, lambda c, a, b, d, f=_f: _med3i(a, b, d, f))
    _iop("v_minmax_" + _t, 3, lambda c, a, b, d, f=_f: _max(_min(a, b, f), d, f))
    _iop("v_maxmin_" + _t, 3, lambda c, a, b, d, f=_f: _min(_max(a, b, f), d, f))

_iop("v_bfe_u32", 3, lambda c, a, o, w: (a >> (o & 31)) & ((1 << (w & 31)) - 1))


@defop("v_bfe_i32", ("u32", "u32", "u32"), "u32")
def _v_bfe_i32(ctx, a, o, w):
    """tmp = (S0.i32 >> S1[4:0]) & ((1 << S2[4:0]) - 1): an arithmetic shift, so a field running
    past bit 31 is filled with the sign; then signext_from_bit(tmp, width)."""
    tmp = (sx(a, 32) >> (o & 31)) & ((1 << (w & 31)) - 1)
    return signext_from_bit(tmp, w & 31, 32)


_iop("v_bfi_b32", 3, lambda c, a, b, d: (a & b) | (~a & d & M32))
_iop("v_bfm_b32", 2, lambda c, a, b: ux(((1 << (a & 31)) - 1) << (b & 31), 32))
_iop("v_bfrev_b32", 1, lambda c, a: int("{:032b}".format(a)[::-1], 2))
_iop("v_bcnt_u32_b32", 2, lambda c, a, b: ux(_popcount(a) + b, 32))
_iop("v_alignbit_b32", 3, lambda c, a, b, d: ((a << 32 | b) >> (d & 31)) & M32)
_iop("v_alignbyte_b32", 3, lambda c, a, b, d: ((a << 32 | b) >> ((d & 3) * 8)) & M32)


def _ctz(v, bits):
    for i in range(bits):
        if v >> i & 1:
            return i
    return -1


def _clz(v, bits):
    for i in range(bits):
        if v >> (bits - 1 - i) & 1:
            return i
    return -1


def _cls(v, bits):
    top = v >> (bits - 1) & 1
    for i in range(1, bits):
        if v >> (bits - 1 - i) & 1 != top:
            return i
    return -1


_iop("v_ctz_i32_b32", 1, lambda c, a: ux(_ctz(a, 32), 32))
_iop("v_clz_i32_u32", 1, lambda c, a: ux(_clz(a, 32), 32))
_iop("v_cls_i32", 1, lambda c, a: ux(_cls(a, 32), 32))


def _perm_byte(data, sel):
    if sel >= 13:
        return 0xFF
    if sel == 12:
        return 0
    if sel >= 8:
        return 0xFF * (data >> ((sel - 8) * 16 + 15) & 1)
    return data >> (sel * 8) & 0xFF


_iop("v_perm_b32", 3, lambda c, a, b, s: sum(_perm_byte(a << 32 | b, s >> (8 * i) & 0xFF) << (8 * i)
                                            for i in range(4)))


def _lerp(c, a, b, d):
    r = 0
    for i in range(4):
        r |= (((a >> 8 * i & 0xFF) + (b >> 8 * i & 0xFF) + (d >> 8 * i & 1)) >> 1) << 8 * i
    return r


_iop("v_lerp_u8", 3, _lerp)


def _absdiff(x, y):
    return x - y if x > y else y - x


def _sad_u8(a, b, d):
    return ux(d + sum(_absdiff(a >> 8 * i & 0xFF, b >> 8 * i & 0xFF) for i in range(4)), 32)


def _msad_u8(a, b, d):
    t = d
    for i in range(4):
        y = b >> 8 * i & 0xFF
        if y:
            t += _absdiff(a >> 8 * i & 0xFF, y)
    return ux(t, 32)


_iop("v_sad_u8", 3, lambda c, a, b, d: _sad_u8(a, b, d))
_iop("v_msad_u8", 3, lambda c, a, b, d: _msad_u8(a, b, d))
_iop("v_sad_hi_u8", 3, lambda c, a, b, d: ux((_sad_u8(a, b, 0) << 16) + d, 32))
_iop("v_sad_u16", 3, lambda c, a, b, d: ux(d + _absdiff(a & 0xFFFF, b & 0xFFFF)
                                           + _absdiff(a >> 16, b >> 16), 32))
_iop("v_sad_u32", 3, lambda c, a, b, d: ux(_absdiff(a, b) + d, 32))


def _qsad(fn, out_bits):
    def run(c, a, b, d):
        r = 0
        for i in range(4):
            r |= ux(fn((a >> (8 * i)) & M32, b & M32, d >> (out_bits * i) & ((1 << out_bits) - 1)),
                    out_bits) << (out_bits * i)
        return r
    return run


_iop("v_qsad_pk_u16_u8", 3, _qsad(_sad_u8, 16), srcs=("u64", "u32", "u64"), dst="u64")
_iop("v_mqsad_pk_u16_u8", 3, _qsad(_msad_u8, 16), srcs=("u64", "u32", "u64"), dst="u64")
_iop("v_mqsad_u32_u8", 3, _qsad(_msad_u8, 32), srcs=("u64", "u32", "u128"), dst="u128")


@defop("v_add_co_u32", ("u32", "u32"), "u32", mask_out=True)
def _add_co(ctx, a, b):
    t = a + b
    return sat(ctx, t, 32, False), int(t >= 1 << 32)


@defop("v_sub_co_u32", ("u32", "u32"), "u32", mask_out=True)
def _sub_co(ctx, a, b):
    return sat(ctx, a - b, 32, False), int(b > a)


@defop("v_subrev_co_u32", ("u32", "u32"), "u32", mask_out=True)
def _subrev_co(ctx, a, b):
    return sat(ctx, b - a, 32, False), int(a > b)


@defop("v_add_co_ci_u32", ("u32", "u32"), "u32", mask_in=True, mask_out=True)
def _add_co_ci(ctx, a, b):
    t = a + b + ctx.vcc
    return sat(ctx, t, 32, False), int(t >= 1 << 32)


@defop("v_sub_co_ci_u32", ("u32", "u32"), "u32", mask_in=True, mask_out=True)
def _sub_co_ci(ctx, a, b):
    return sat(ctx, a - b - ctx.vcc, 32, False), int(b + ctx.vcc > a)


@defop("v_subrev_co_ci_u32", ("u32", "u32"), "u32", mask_in=True, mask_out=True)
def _subrev_co_ci(ctx, a, b):
    return sat(ctx, b - a - ctx.vcc, 32, False), int(a + ctx.vcc > b)


@defop("v_mad_u64_u32", ("u32", "u32", "u64"), "u64", mask_out=True)
def _mad_u64(ctx, a, b, c):
    t = a * b + c
    return sat(ctx, t, 64, False), t >> 64 & 1


@defop("v_mad_i64_i32", ("u32", "u32", "u64"), "u64", mask_out=True)
def _mad_i64(ctx, a, b, c):
    t = sx(a, 32) * sx(b, 32) + sx(c, 64)
    return sat(ctx, t, 64, True), ux(t, 65) >> 64 & 1


@defop("v_cndmask_b32", ("u32", "u32"), "u32", mask_in=True)
def _cndmask(ctx, a, b):
    """VCC ? S1 : S0. CHOICE: the VOP3 abs/neg bits flip the sign bit of each source (llvm-mc
    takes -v/|v| on its operands, which it types as f32)."""
    if ctx.abs & 1:
        a &= 0x7FFFFFFF
    if ctx.neg & 1:
        a ^= 0x80000000
    if ctx.abs & 2:
        b &= 0x7FFFFFFF
    if ctx.neg & 2:
        b ^= 0x80000000
    return b if ctx.vcc else a


@defop("v_mbcnt_lo_u32_b32", ("u32", "u32"), "u32")
def _mbcnt_lo(ctx, a, b):
    return ux(b + _popcount(a & ((1 << ctx.lane) - 1) & M32), 32)


@defop("v_mbcnt_hi_u32_b32", ("u32", "u32"), "u32")
def _mbcnt_hi(ctx, a, b):
    return ux(b + _popcount(a & (((1 << ctx.lane) - 1) >> 32)), 32)


# 16-bit integer ops: halves chosen by op_sel, result into one half of D
def _i16(name, n, fn, signed=False, saturates=False):
    def run(ctx, *args):
        *vals, old = args
        h = [_half_in(ctx, v, i) for i, v in enumerate(vals)]
        if signed:
            h = [sx(v, 16) for v in h]
        v = fn(*h)
        return _half_out(ctx, old, sat(ctx, v, 16, signed) if saturates else ux(v, 16))
    defop(name, ("i16" if signed else "u16",) * n, "u16", reads_old=True)(run)


_i16("v_add_nc_u16", 2, lambda a, b: a + b, saturates=True)
_i16("v_sub_nc_u16", 2, lambda a, b: a - b, saturates=True)
_i16("v_add_nc_i16", 2, lambda a, b: a + b, signed=True, saturates=True)
_i16("v_sub_nc_i16", 2, lambda a, b: a - b, signed=True, saturates=True)
_i16("v_mul_lo_u16", 2, lambda a, b: a * b)
_i16("v_mad_u16", 3, lambda a, b, c: a * b + c, saturates=True)
_i16("v_mad_i16", 3, lambda a, b, c: a * b + c, signed=True, saturates=True)
_i16("v_and_b16", 2, lambda a, b: a & b)
_i16("v_or_b16", 2, lambda a, b: a | b)
_i16("v_xor_b16", 2, lambda a, b: a ^ b)
_i16("v_not_b16", 1, lambda a: ~a)
_i16("v_mov_b16", 1, lambda a: a)
_i16("v_lshlrev_b16", 2, lambda s, a: a << (s & 15))
_i16("v_lshrrev_b16", 2, lambda s, a: a >> (s & 15))
_i16("v_ashrrev_i16", 2, lambda s, a: sx(a, 16) >> (s & 15), signed=False)
for _t, _sg in (("u16", False), ("i16", True)):
    _i16("v_min_" + _t, 2, lambda a, b: a if a < b else b, signed=_sg)
    _i16("v_max_" + _t, 2, lambda a, b: a if a >= b else b, signed=_sg)
    _i16("v_min3_" + _t, 3, lambda a, b, c: min(min(a, b), c), signed=_sg)
    _i16("v_max3_" + _t, 3, lambda a, b, c: max(max(a, b), c), signed=_sg)
    _i16("v_med3_" + _t, 3, lambda a, b, c: sorted((a, b, c))[1], signed=_sg)


@defop("v_cndmask_b16", ("u16", "u16"), "u16", mask_in=True, reads_old=True)
def _cndmask16(ctx, a, b, old):
    x, y = _half_in(ctx, a, 0), _half_in(ctx, b, 1)
    for i in (0, 1):
        v = (x, y)[i]
        if ctx.abs >> i & 1:
            v &= 0x7FFF
        if ctx.neg >> i & 1:
            v ^= 0x8000
        x, y = (v, y) if i == 0 else (x, v)
    return _half_out(ctx, old, y if ctx.vcc else x)


@defop("v_sat_pk_u8_i16", ("u32",), "u16", reads_old=True)
def _sat_pk(ctx, a, old):
    def sat(n):
        n = sx(n, 16)
        return 0 if n <= 0 else 255 if n >= 255 else n
    return _half_out(ctx, old, sat(a & 0xFFFF) | sat(a >> 16) << 8)


# -- division helpers ---------------------------------------------------------------------------

# The division helpers as the simulator runs them: the pseudocode corrected where its text
# cannot be what the hardware does -- each correction is what makes LLVM's own division
# sequence return the correctly rounded quotient (tests/test_emu_sim_valu_division.py checks it
# end to end against numpy).
_DIV_WHY = {
    "scale": "when 1/den and num/den are both denormal the denominator is scaled down: the "
             "text's ldexp(S0, 64) overflows a denominator above 2**126 (2**894 for f64) and "
             "LLVM's division sequence then returns 0 for num/den",
    "fmas": "the post-scale is 2**64 when S2's exponent is above the bias, else 2**-64 (2**+-128 "
            "for f64), and the inputs are read unflushed: the text's 2**32 undoes no scaling "
            "div_scale applied, and LLVM's quotients come out 2**32 off",
    "fixup": "UNDERFLOW is a signed zero and the OVERFLOW case tests the quotient S0 (an "
             "inf/NaN quotient becomes a signed infinity): the text's exponent(S1) == max is "
             "unreachable after its inf/NaN cases and UNDERFLOW is not defined",
}


def _div_fixup(name, t):
    fmt = FMTS[t]

    @defop(name, (t, t, t), t, reads_old=fmt is F16)
    def run(ctx, x, y, z, old=None):
        s0, s1, s2 = _fsrc(ctx, t, x, 0), _fsrc(ctx, t, y, 1), _fsrc(ctx, t, z, 2)
        sign_out = s1.neg != s2.neg
        if s2.nan:
            r = quiet(s2)
        elif s1.nan:
            r = quiet(s1)
        elif s1.zero and s2.zero:
            r = decode(fmt, fmt.sign | fmt.expmask | fmt.qbit)      # 0xffc00000: a negative NaN
        elif s1.inf and s2.inf:
            r = decode(fmt, fmt.sign | fmt.expmask | fmt.qbit)
        elif s1.zero or s2.inf:
            r = F("inf", sign_out)
        elif s1.inf or s2.zero:
            r = num(0, sign_out)
        elif t != "f16" and _exp_field(s2) - _exp_field(s1) < (-150 if t == "f32" else -1075):
            r = num(Q(2) ** (fmt.emin - fmt.mant), sign_out)          # UNDERFLOW: smallest denormal
        elif t != "f16" and s1.inf:
            r = F("inf", sign_out)
        else:
            # sign_out ? -abs(S0) : abs(S0): a sign change of S0 (a NaN keeps its payload)
            sb = fmt.sign if sign_out else 0
            r = F(s0.kind, sign_out, s0.mag, None if s0.bits is None else (s0.bits & ~fmt.sign) | sb,
                  s0.fmt)
        return _fres(ctx, fmt, r, old)


def _exp_field(f):
    """exponent() of an operand as the hardware sees it (the biased exponent field)."""
    return exponent_field(f.fmt, f.bits) if f.bits is not None else 0


_div_fixup("v_div_fixup_f16", "f16")
_div_fixup("v_div_fixup_f32", "f32")
_div_fixup("v_div_fixup_f64", "f64")


def _div_fixup_followed(name, t):
    fmt = FMTS[t]
    literal = DEVIATIONS[name][1].fn

    @defop(name, (t, t, t), t)
    def run(ctx, x, y, z):
        s0, s1, s2 = _fsrc(ctx, t, x, 0), _fsrc(ctx, t, y, 1), _fsrc(ctx, t, z, 2)
        sign_out = s1.neg != s2.neg
        if s2.nan or s1.nan or (s1.zero and s2.zero) or (s1.inf and s2.inf) or s1.zero or s2.inf \
                or s1.inf or s2.zero:
            return literal(ctx, x, y, z)
        if _exp_field(s2) - _exp_field(s1) < (-150 if t == "f32" else -1075):
            return _fres(ctx, fmt, num(0, sign_out))
        if s0.kind != "num":
            return _fres(ctx, fmt, F("inf", sign_out))
        return literal(ctx, x, y, z)


for _n, _t in (("v_div_fixup_f32", "f32"), ("v_div_fixup_f64", "f64")):
    deviate(_n, _DIV_WHY["fixup"])
    _div_fixup_followed(_n, _t)


def _div_fmas(name, t, scale):
    fmt = FMTS[t]

    @defop(name, (t, t, t), t, mask_in=True)
    def run(ctx, x, y, z):
        a, b, c = _fsrc(ctx, t, x, 0), _fsrc(ctx, t, y, 1), _fsrc(ctx, t, z, 2)
        r = ffma(a, b, c, ctx.mode.rm(fmt))
        if ctx.vcc and r.kind == "num":
            # 2**32 * fma(...): CHOICE: the scaling applies to the exact fma (one rounding)
            r = num(r.value * Q(2) ** scale, r.neg)
        return _fres(ctx, fmt, r)


_div_fmas("v_div_fmas_f32", "f32", 32)
_div_fmas("v_div_fmas_f64", "f64", 64)


def _div_scale(name, t):
    fmt = FMTS[t]
    big, small, k, tiny = (96, 23, 64, -126) if t == "f32" else (768, 53, 128, -1022)

    @defop(name, (t, t, t), t, mask_out=True)
    def run(ctx, x, y, z):
        s0, s1, s2 = _fsrc(ctx, t, x, 0), _fsrc(ctx, t, y, 1), _fsrc(ctx, t, z, 2)
        vcc = 0
        d = s0
        e1, e2 = _exp_field(s1), _exp_field(s2)

        def is_denorm_val(v, f):
            return v.kind == "num" and not v.zero and v.mag < Q(2) ** f.emin

        def q_den(num_, den):
            q = fdiv(num_, den)
            if q.kind != "num":
                return False
            return is_denorm_val(decode(fmt, round_float(fmt, q, RNE)), fmt)

        def rcp_den(den):
            if den.kind != "num" or den.zero:
                return False
            return is_denorm_val(decode(F64, round_float(F64, num(1 / den.value), RNE)), F64)
        if s2.zero or s1.zero:
            d = NAN
        elif e2 - e1 >= big:
            vcc = 1
            if fcmp(s0, s1) == 0:
                d = _ldexp(s0, k)
        elif is_denorm_val(s1, fmt):
            d = _ldexp(s0, k)
        elif rcp_den(s1) and q_den(s2, s1):
            vcc = 1
            if fcmp(s0, s1) == 0:
                d = _ldexp(s0, k)
        elif rcp_den(s1):
            d = _ldexp(s0, -k)
        elif q_den(s2, s1):
            vcc = 1
            if fcmp(s0, s2) == 0:
                d = _ldexp(s0, k)
        elif e2 <= small:
            d = _ldexp(s0, k)
        return _fres(ctx, fmt, d), vcc


def _ldexp(f, e):
    if f.nan:
        return quiet(f)
    return f if f.kind != "num" else num(f.value * Q(2) ** e, f.neg)


_div_scale("v_div_scale_f32", "f32")
_div_scale("v_div_scale_f64", "f64")

def _div_scale_followed(name, t):
    """As the pseudocode, with DENORM read as "below the format's normal range" for both tests
    (1/S1 and S2/S1 computed in double; the text's DENORM.f64 for 1/S1 of an f32 can never
    hold) and the denominator scaled down when both are (see _DIV_WHY)."""
    fmt = FMTS[t]
    k, gap, small = (64, 96, 23) if t == "f32" else (128, 768, 53)
    tiny = Q(2) ** fmt.emin

    @defop(name, (t, t, t), t, mask_out=True)
    def run(ctx, x, y, z):
        s0, s1, s2 = _fsrc(ctx, t, x, 0), _fsrc(ctx, t, y, 1), _fsrc(ctx, t, z, 2)
        e1, e2 = _exp_field(s1), _exp_field(s2)

        def below(q):
            if q.kind != "num" or q.zero:
                return False
            d = decode(F64, round_float(F64, q, RNE))
            return d.kind == "num" and 0 < d.mag < tiny
        rcp_den = below(fdiv(num(1), s1)) if s1.kind == "num" else False
        quot_den = below(fdiv(s2, s1))
        d, vcc = s0, 0
        if s2.zero or s1.zero:
            d = NAN
        elif e2 - e1 >= gap:
            vcc = 1
            if fcmp(s0, s1) == 0:
                d = _ldexp(s0, k)
        elif s1.kind == "num" and 0 < s1.mag < tiny:
            d = _ldexp(s0, k)
        elif rcp_den and quot_den:
            vcc = 1
            if fcmp(s0, s1) == 0:
                d = _ldexp(s0, -k)
        elif rcp_den:
            d = _ldexp(s0, -k)
        elif quot_den:
            vcc = 1
            if fcmp(s0, s2) == 0:
                d = _ldexp(s0, k)
        elif e2 <= small:
            d = _ldexp(s0, k)
        return _fres(ctx, fmt, d), vcc


for _n, _t in (("v_div_scale_f32", "f32"), ("v_div_scale_f64", "f64")):
    deviate(_n, _DIV_WHY["scale"])
    _div_scale_followed(_n, _t)


def _div_fmas_followed(name, t):
    fmt = FMTS[t]
    k = 64 if t == "f32" else 128

    @defop(name, (t, t, t), t, mask_in=True)
    def run(ctx, x, y, z):
        keep = Ctx(mode=Mode(ctx.mode.reg | 0xF0), neg=ctx.neg, abs=ctx.abs)
        a, b, c = (_fsrc(keep, t, v, i) for i, v in enumerate((x, y, z)))
        r = ffma(a, b, c, ctx.mode.rm(fmt))
        if ctx.vcc and r.kind == "num":
            post = k if _exp_field(c) > fmt.bias else -k
            r = num(r.value * Q(2) ** post, r.neg)
        return _fres(ctx, fmt, r)


for _n, _t in (("v_div_fmas_f32", "f32"), ("v_div_fmas_f64", "f64")):
    deviate(_n, _DIV_WHY["fmas"])
    _div_fmas_followed(_n, _t)


# -- legacy DX9 ops, cube maps ----------------------------------------------------------------

@defop("v_mul_dx9_zero_f32", ("f32", "f32"), "f32")
def _mul_dx9(ctx, x, y):
    a, b = _fsrc(ctx, "f32", x, 0), _fsrc(ctx, "f32", y, 1)
    if a.zero or b.zero:
        return _fres(ctx, F32, num(0))                      # D = 0.0F: +0 (even against inf/NaN)
    return _fres(ctx, F32, fmul(a, b))


def _dx9_fma(ctx, a, b, c):
    """Either factor +-0 (in the operand's float mode): D = S2 exactly -- so a -0 addend stays
    -0 and a denormal addend is what MODE makes of it; else fma."""
    if a.zero or b.zero:
        return c
    return ffma(a, b, c, ctx.mode.rm(F32))


@defop("v_fma_dx9_zero_f32", ("f32", "f32", "f32"), "f32")
def _fma_dx9(ctx, x, y, z):
    a, b, c = (_fsrc(ctx, "f32", v, i) for i, v in enumerate((x, y, z)))
    return _fres(ctx, F32, _dx9_fma(ctx, a, b, c))


@defop("v_fmac_dx9_zero_f32", ("f32", "f32"), "f32", reads_old=True)
def _fmac_dx9(ctx, x, y, old):
    a, b = _fsrc(ctx, "f32", x, 0), _fsrc(ctx, "f32", y, 1)
    return _fres(ctx, F32, _dx9_fma(ctx, a, b, read_float(ctx, F32, old, 2)))


@defop("v_mullit_f32", ("f32", "f32", "f32"), "f32")
def _mullit(ctx, x, y, z):
    a, b, c = (_fsrc(ctx, "f32", v, i) for i, v in enumerate((x, y, z)))
    if (b.kind == "num" and b.value == -F32.maxnorm) or (b.inf and b.neg) or b.nan or c.nan \
            or fcmp(c, num(0)) in (-1, 0):
        return _fres(ctx, F32, num(-F32.maxnorm))
    # CHOICE: S0 * S1 with the DX9 zero rule of the other legacy multiplies (LLVM's fold agrees)
    if a.zero or b.zero:
        return _fres(ctx, F32, num(0))
    return _fres(ctx, F32, fmul(a, b))


def _cube(name, pick):
    @defop(name, ("f32", "f32", "f32"), "f32")
    def run(ctx, x, y, z):
        a, b, c = (_fsrc(ctx, "f32", v, i) for i, v in enumerate((x, y, z)))
        ax, ay, az = (F(v.kind, False, v.mag) for v in (a, b, c))

        def ge(p, q):
            return fcmp(p, q) in (0, 1)

        def lt0(v):
            return fcmp(v, num(0)) == -1
        if ge(az, ax) and ge(az, ay):
            r = pick("z", a, b, c, lt0)
        elif ge(ay, ax):
            r = pick("y", a, b, c, lt0)
        else:
            r = pick("x", a, b, c, lt0)
        return _fres(ctx, F32, r)


_cube("v_cubeid_f32", lambda m, x, y, z, lt0: num({"z": 5 if lt0(z) else 4, "y": 3 if lt0(y) else 2,
                                                    "x": 1 if lt0(x) else 0}[m]))
_cube("v_cubesc_f32", lambda m, x, y, z, lt0: (fneg(x) if lt0(z) else x) if m == "z" else x if m == "y"
      else (z if lt0(x) else fneg(z)))
_cube("v_cubetc_f32", lambda m, x, y, z, lt0: fneg(y) if m == "z" else (fneg(z) if lt0(y) else z)
      if m == "y" else fneg(y))
_cube("v_cubema_f32", lambda m, x, y, z, lt0: fmul({"z": z, "y": y, "x": x}[m], num(2)))


# -- f64 trig helper -----------------------------------------------------------------------------

def _two_over_pi_bits(nbits=1201):
    """The first nbits fraction bits of 2/PI, as an integer (computed with a Machin formula)."""
    prec = nbits + 64
    one = 1 << prec

    def arctan_inv(x):
        total, term, k, x2 = 0, one // x, 1, x * x
        while term:
            total += term // k if k % 4 == 1 else -(term // k)
            term //= x2
            k += 2
        return total
    pi = 4 * (4 * arctan_inv(5) - arctan_inv(239))
    return (2 << (prec + nbits)) // pi


_TWO_OVER_PI = None


@defop("v_trig_preop_f64", ("f64", "u32"), "f64")
def _trig_preop(ctx, x, y):
    global _TWO_OVER_PI
    if _TWO_OVER_PI is None:
        _TWO_OVER_PI = _two_over_pi_bits()
    a = _fsrc(ctx, "f64", x, 0)
    e = _exp_field(a) if a.bits is not None else 0
    shift = (y & 31) * 53
    if e > 1077:
        shift += e - 1077
    # the 53 bits of 2/PI starting `shift` bits into its fraction: floor(2/PI * 2**(shift+53))
    # keeps the whole part, masked to 53 bits
    result = (_TWO_OVER_PI >> (1148 - shift) if shift <= 1148 else _TWO_OVER_PI << (shift - 1148)) \
        & ((1 << 53) - 1)
    scale = -53 - shift
    if e >= 1968:
        scale += 128
    return _fres(ctx, F64, num(Q(result) * Q(2) ** scale))


# -- packed math (VOP3P) ------------------------------------------------------------------------

def _pk_src(ctx, raw, i, hi, t):
    """Lane `hi` (0 low, 1 high) of packed source i: op_sel picks the half for the low lane,
    op_sel_hi for the high lane; neg_lo / neg_hi negate the lanes."""
    sel = (ctx.opsel_hi if hi else ctx.opsel) >> i & 1
    h = raw >> 16 if sel else raw
    h &= 0xFFFF
    if t == "f16":
        neg = (ctx.neg_hi if hi else ctx.neg) >> i & 1
        return read_float(ctx, F16, h, i, neg=neg, abs_=0)
    if (ctx.neg_hi if hi else ctx.neg) >> i & 1:
        h = ux(-sx(h, 16), 16) if t == "i16" else ux(-h, 16)
    return h


def _pk_op(name, n, t, fn, saturates=False):
    @defop(name, (t,) * n, "u32")
    def run(ctx, *raw):
        out, nan_any = [], False
        for hi in (0, 1):
            v = [_pk_src(ctx, r, i, hi, t) for i, r in enumerate(raw)]
            if t == "f16":
                r = write_float(ctx, F16, fn(ctx, *v), omod=False)
                nan_any |= r.nan_any
                out.append(r.bits)
            elif saturates:
                out.append(sat(ctx, fn(ctx, *v), 16, t == "i16"))
            else:
                out.append(ux(fn(ctx, *v), 16))
        res = out[0] | out[1] << 16
        return Res(res, nan_any) if t == "f16" else res


_pk_op("v_pk_add_f16", 2, "f16", lambda c, a, b: fadd(a, b, c.mode.rm(F16)))
_pk_op("v_pk_mul_f16", 2, "f16", lambda c, a, b: fmul(a, b))
_pk_op("v_pk_fma_f16", 3, "f16", lambda c, a, b, d: ffma(a, b, d, c.mode.rm(F16)))
_pk_op("v_pk_min_f16", 2, "f16", lambda c, a, b: _minmax(c, a, b, False))
_pk_op("v_pk_max_f16", 2, "f16", lambda c, a, b: _minmax(c, a, b, True))
_pk_op("v_pk_add_u16", 2, "u16", lambda c, a, b: a + b, True)
_pk_op("v_pk_sub_u16", 2, "u16", lambda c, a, b: a - b, True)
_pk_op("v_pk_add_i16", 2, "i16", lambda c, a, b: sx(a, 16) + sx(b, 16), True)
_pk_op("v_pk_sub_i16", 2, "i16", lambda c, a, b: sx(a, 16) - sx(b, 16), True)
_pk_op("v_pk_mul_lo_u16", 2, "u16", lambda c, a, b: a * b, True)
_pk_op("v_pk_mad_u16", 3, "u16", lambda c, a, b, d: a * b + d, True)
_pk_op("v_pk_mad_i16", 3, "i16", lambda c, a, b, d: sx(a, 16) * sx(b, 16) + sx(d, 16), True)
_pk_op("v_pk_min_u16", 2, "u16", lambda c, a, b: a if a < b else b)
_pk_op("v_pk_max_u16", 2, "u16", lambda c, a, b: a if a >= b else b)
_pk_op("v_pk_min_i16", 2, "i16", lambda c, a, b: a if sx(a, 16) < sx(b, 16) else b)
_pk_op("v_pk_max_i16", 2, "i16", lambda c, a, b: a if sx(a, 16) >= sx(b, 16) else b)
_pk_op("v_pk_lshlrev_b16", 2, "u16", lambda c, s, a: a << (s & 15))
_pk_op("v_pk_lshrrev_b16", 2, "u16", lambda c, s, a: a >> (s & 15))
_pk_op("v_pk_ashrrev_i16", 2, "u16", lambda c, s, a: sx(a, 16) >> (s & 15))


@defop("v_pk_fmac_f16", ("f16", "f16"), "u32", reads_old=True)
def _pk_fmac(ctx, x, y, old):
    out, nan_any = [], False
    for hi in (0, 1):
        a, b = _pk_src(ctx, x, 0, hi, "f16"), _pk_src(ctx, y, 1, hi, "f16")
        c = read_float(ctx, F16, old >> (16 * hi), 2, neg=0, abs_=0)
        r = write_float(ctx, F16, ffma(a, b, c, ctx.mode.rm(F16)), omod=False)
        nan_any |= r.nan_any
        out.append(r.bits)
    return Res(out[0] | out[1] << 16, nan_any)


# -- dot products --------------------------------------------------------------------------------

def _dot_terms(ctx, x, y, t):
    """The two (a, b) float pairs of a dot2 (op_sel/op_sel_hi select halves, neg_lo/neg_hi
    negate them, as for packed math)."""
    return [(_pk_src(ctx, x, 0, hi, "f16" if t == "f16" else t),
             _pk_src(ctx, y, 1, hi, "f16" if t == "f16" else t)) for hi in (0, 1)]


def _bf16_src(ctx, raw, i, hi):
    sel = (ctx.opsel_hi if hi else ctx.opsel) >> i & 1
    h = (raw >> 16 if sel else raw) & 0xFFFF
    neg = (ctx.neg_hi if hi else ctx.neg) >> i & 1
    return read_float(ctx, BF16, h, i, neg=neg, abs_=0)


def _dot2(name, src, acc_t, dst_fmt, reads_old=False):
    @defop(name, ("u32", "u32") + (() if reads_old else (acc_t,)), dst_fmt.name, reads_old=reads_old)
    def run(ctx, x, y, *rest):
        """tmp = S2; tmp += a0 * b0; tmp += a1 * b1, each step rounded to the accumulator's format
        (the pseudocode's `tmp` has S2's type). CHOICE: f32 accumulation from f16/bf16 inputs
        is exact (products of f16 fit in f32) and each += rounds."""
        acc_raw = rest[0]
        afmt = FMTS[acc_t]
        if reads_old:
            acc = read_float(ctx, afmt, acc_raw, 2, neg=0, abs_=0)
        else:
            acc = read_float(ctx, afmt, acc_raw if afmt.width == 32 else acc_raw & 0xFFFF, 2,
                             neg=ctx.neg >> 2 & 1, abs_=0)
        srcf = _bf16_src if src == "bf16" else (lambda c, r, i, hi: _pk_src(c, r, i, hi, "f16"))
        rm = ctx.mode.rm(_mode_fmt(afmt))
        tmp = acc

        def rnd(f):
            if f.kind != "num":
                return f
            d = decode(afmt, round_float(afmt, f, rm))
            return F(d.kind, d.neg, d.mag)
        for hi in (0, 1):
            # f32 product, then f32 sum: each rounds (an f16 product is exact, a bf16 one can
            # underflow)
            p = rnd(fmul(srcf(ctx, x, 0, hi), srcf(ctx, y, 1, hi)))
            tmp = rnd(fadd(tmp, p, rm))
        return write_float(ctx, dst_fmt, tmp, omod=False)


def _dot2_16(name, t):
    fmt = FMTS[t]

    @defop(name, ("u32", "u32", "u32"), t, reads_old=True)
    def run(ctx, x, y, z, old):
        """tmp = S2 (the op_sel[2] half); tmp += S0.lo * S1.lo; tmp += S0.hi * S1.hi, all in the
        16-bit type: each product and each sum rounds to it (MODE of the format). The result
        goes to the op_sel[3] half of D (the other half kept)."""
        srcf = _bf16_src if t == "bf16" else (lambda c, r, i, hi: _pk_src(c, r, i, hi, "f16"))
        acc = read_float(ctx, fmt, (z >> 16 if ctx.opsel >> 2 & 1 else z) & 0xFFFF, 2,
                         neg=ctx.neg >> 2 & 1, abs_=0)
        rm = RNE if fmt is BF16 else ctx.mode.rm(fmt)

        def rnd(f):
            if f.kind != "num":
                return f
            d = decode(fmt, round_float(fmt, f, rm))
            return F(d.kind, d.neg, d.mag)
        tmp = acc
        for hi in (0, 1):
            tmp = rnd(fadd(tmp, rnd(fmul(srcf(ctx, x, 0, hi), srcf(ctx, y, 1, hi))), rm))
        r = write_float(ctx, fmt, tmp, omod=False)
        return Res(_half_out(ctx, old, r.bits), r.nan_any)


_dot2_16("v_dot2_f16_f16", "f16")
_dot2_16("v_dot2_bf16_bf16", "bf16")
_dot2("v_dot2_f32_f16", "f16", "f32", F32)
_dot2("v_dot2_f32_bf16", "bf16", "f32", F32)
_dot2("v_dot2acc_f32_f16", "f16", "f32", F32, reads_old=True)


def _dot_int(name, n, width, signed_default):
    @defop(name, ("u32", "u32", "u32"), "u32")
    def run(ctx, a, b, c):
        tmp = sx(c, 32) if name.endswith(("iu8", "iu4")) else c
        for i in range(n):
            x, y = a >> (width * i) & ((1 << width) - 1), b >> (width * i) & ((1 << width) - 1)
            if name.endswith(("iu8", "iu4")):
                # NEG[0] / NEG[1] select signed inputs
                if ctx.neg & 1:
                    x = sx(x, width)
                if ctx.neg & 2:
                    y = sx(y, width)
            tmp += x * y
        return sat(ctx, tmp, 32, name.endswith(("iu8", "iu4")))


_dot_int("v_dot4_u32_u8", 4, 8, False)
_dot_int("v_dot8_u32_u4", 8, 4, False)
_dot_int("v_dot4_i32_iu8", 4, 8, True)
_dot_int("v_dot8_i32_iu4", 8, 4, True)


# -- fma_mix -------------------------------------------------------------------------------------

def _mix_src(ctx, raw, i):
    """in[i]: S[i].f32 when op_sel_hi[i] is clear, else the f16 half op_sel[i] picks, widened.
    Source modifiers: neg (neg_lo field) and abs (neg_hi field)."""
    neg, abs_ = ctx.neg >> i & 1, ctx.neg_hi >> i & 1
    if not ctx.opsel_hi >> i & 1:
        return read_float(ctx, F32, raw, i, neg=neg, abs_=abs_)
    h = (raw >> 16 if ctx.opsel >> i & 1 else raw) & 0xFFFF
    return read_float(ctx, F16, h, i, neg=neg, abs_=abs_)


def _mix(name, out):
    @defop(name, ("u32", "u32", "u32"), "f32" if out == "f32" else "u32", reads_old=out != "f32")
    def run(ctx, x, y, z, old=None):
        a, b, c = (_mix_src(ctx, v, i) for i, v in enumerate((x, y, z)))
        r = ffma(a, b, c, ctx.mode.rm(F32))
        if out == "f32":
            return write_float(ctx, F32, r, omod=False)
        # f32_to_f16(fma(...)): CHOICE: rounded once from the exact fma to f16
        h = write_float(ctx, F16, r, omod=False)
        bits = (old & 0xFFFF0000) | h.bits if out == "lo" else (old & 0xFFFF) | h.bits << 16
        return Res(bits, h.nan_any)


_mix("v_fma_mix_f32", "f32")
_mix("v_fma_mixlo_f16", "lo")
_mix("v_fma_mixhi_f16", "hi")


# ---- SALU --------------------------------------------------------------------------------------

SALU = {}


def salu(name, nbits, srcs=None, scc_in=False):
    """SOP1/SOP2 semantics: fn(a[, b][, scc]) -> (result, scc or None)."""
    def reg(fn):
        SALU[name] = (nbits, srcs, fn, scc_in)
        return fn
    return reg


def _s(name, nbits, fn, srcs=None, scc_in=False):
    salu(name, nbits, srcs, scc_in)(fn)


def _nz(v):
    return int(v != 0)


_s("s_add_u32", 32, lambda a, b: (ux(a + b, 32), int(a + b >= 1 << 32)))
_s("s_sub_u32", 32, lambda a, b: (ux(a - b, 32), int(b > a)))
_s("s_addc_u32", 32, lambda a, b, c: (ux(a + b + c, 32), int(a + b + c >= 1 << 32)), scc_in=True)
_s("s_subb_u32", 32, lambda a, b, c: (ux(a - b - c, 32), int(b + c > a)), scc_in=True)


def _add_i32(a, b):
    t = ux(sx(a, 32) + sx(b, 32), 32)
    return t, int(bit(a, 31) == bit(b, 31) and bit(a, 31) != bit(t, 31))


def _sub_i32(a, b):
    t = ux(sx(a, 32) - sx(b, 32), 32)
    return t, int(bit(a, 31) != bit(b, 31) and bit(a, 31) != bit(t, 31))


_s("s_add_i32", 32, _add_i32)
_s("s_sub_i32", 32, _sub_i32)


def _absdiff_i32(a, b):
    d = ux(sx(a, 32) - sx(b, 32), 32)
    if sx(d, 32) < 0:
        d = ux(-sx(d, 32), 32)
    return d, _nz(d)


_s("s_absdiff_i32", 32, _absdiff_i32)
for _n in (1, 2, 3, 4):
    _s("s_lshl%d_add_u32" % _n, 32, lambda a, b, n=_n: (ux((a << n) + b, 32), int((a << n) + b >= 1 << 32)))
# s_min / s_max: SCC = S0 < S1 (min), S0 >= S1 (max); D = SCC ? S0 : S1 -- the pseudocode's
# comparisons, so equal operands set SCC for s_max and clear it for s_min
_s("s_min_u32", 32, lambda a, b: (a if a < b else b, int(a < b)))
_s("s_max_u32", 32, lambda a, b: (a if a >= b else b, int(a >= b)))
_s("s_min_i32", 32, lambda a, b: (a if sx(a, 32) < sx(b, 32) else b, int(sx(a, 32) < sx(b, 32))))
_s("s_max_i32", 32, lambda a, b: (a if sx(a, 32) >= sx(b, 32) else b, int(sx(a, 32) >= sx(b, 32))))
_s("s_bfm_b32", 32, lambda a, b: (ux(((1 << (a & 31)) - 1) << (b & 31), 32), None))
_s("s_bfm_b64", 64, lambda a, b: (ux(((1 << (a & 63)) - 1) << (b & 63), 64), None), srcs=(32, 32))
_s("s_mul_i32", 32, lambda a, b: (ux(sx(a, 32) * sx(b, 32), 32), None))
_s("s_mul_hi_u32", 32, lambda a, b: ((a * b) >> 32, None))
_s("s_mul_hi_i32", 32, lambda a, b: (ux((sx(a, 32) * sx(b, 32)) >> 32, 32), None))
_s("s_cselect_b32", 32, lambda a, b, c: (a if c else b, None), scc_in=True)
_s("s_cselect_b64", 64, lambda a, b, c: (a if c else b, None), scc_in=True)
_s("s_pack_ll_b32_b16", 32, lambda a, b: ((a & 0xFFFF) | (b & 0xFFFF) << 16, None))
_s("s_pack_lh_b32_b16", 32, lambda a, b: ((a & 0xFFFF) | (b >> 16) << 16, None))
_s("s_pack_hh_b32_b16", 32, lambda a, b: ((a >> 16) | (b >> 16) << 16, None))
_s("s_pack_hl_b32_b16", 32, lambda a, b: ((a >> 16) | (b & 0xFFFF) << 16, None))
for _bits in (32, 64):
    _m = (1 << _bits) - 1
    for _nm, _fn in (("and", lambda a, b: a & b), ("or", lambda a, b: a | b), ("xor", lambda a, b: a ^ b),
                     ("nand", lambda a, b: ~(a & b)), ("nor", lambda a, b: ~(a | b)),
                     ("xnor", lambda a, b: ~(a ^ b)), ("and_not1", lambda a, b: a & ~b),
                     ("or_not1", lambda a, b: a | ~b)):
        _s("s_%s_b%d" % (_nm, _bits), _bits, lambda a, b, f=_fn, m=_m: (f(a, b) & m, _nz(f(a, b) & m)))
    _sh = _bits - 1
    _s("s_lshl_b%d" % _bits, _bits, lambda a, b, m=_m, sh=_sh: ((a << (b & sh)) & m, _nz((a << (b & sh)) & m)),
       srcs=(_bits, 32))
    _s("s_lshr_b%d" % _bits, _bits, lambda a, b, sh=_sh: (a >> (b & sh), _nz(a >> (b & sh))), srcs=(_bits, 32))
    _s("s_ashr_i%d" % _bits, _bits, lambda a, b, n=_bits, sh=_sh: (ux(sx(a, n) >> (b & sh), n),
                                                                   _nz(ux(sx(a, n) >> (b & sh), n))),
       srcs=(_bits, 32))

    def _sbfe_u(a, b, n=_bits):
        off = b & (n - 1)
        w = b >> 16 & 0x7F
        r = (a >> off) & ((1 << w) - 1) & ((1 << n) - 1)
        return r, _nz(r)

    def _sbfe_i(a, b, n=_bits):
        """tmp = (S0.i >> S1[offset]) & ((1 << width) - 1); D = signext_from_bit(tmp, width):
        the shift is arithmetic, so a field reaching past the top bit is filled with the sign."""
        off = b & (n - 1)
        w = b >> 16 & 0x7F
        tmp = (sx(a, n) >> off) & ((1 << w) - 1)
        r = signext_from_bit(tmp, w, n)
        return r, _nz(r)
    _s("s_bfe_u%d" % _bits, _bits, _sbfe_u, srcs=(_bits, 32))
    _s("s_bfe_i%d" % _bits, _bits, _sbfe_i, srcs=(_bits, 32))

# SOP1
_s("s_mov_b32", 32, lambda a: (a, None))
_s("s_mov_b64", 64, lambda a: (a, None))
_s("s_brev_b32", 32, lambda a: (int("{:032b}".format(a)[::-1], 2), None))
_s("s_brev_b64", 64, lambda a: (int("{:064b}".format(a)[::-1], 2), None))
_s("s_ctz_i32_b32", 32, lambda a: (ux(_ctz(a, 32), 32), None))
_s("s_ctz_i32_b64", 32, lambda a: (ux(_ctz(a, 64), 32), None), srcs=(64,))
_s("s_clz_i32_u32", 32, lambda a: (ux(_clz(a, 32), 32), None))
_s("s_clz_i32_u64", 32, lambda a: (ux(_clz(a, 64), 32), None), srcs=(64,))
_s("s_cls_i32", 32, lambda a: (ux(_cls(a, 32), 32), None))
_s("s_cls_i32_i64", 32, lambda a: (ux(_cls(a, 64), 32), None), srcs=(64,))
_s("s_sext_i32_i8", 32, lambda a: (ux(sx(a, 8), 32), None))
_s("s_sext_i32_i16", 32, lambda a: (ux(sx(a, 16), 32), None))
_s("s_bitreplicate_b64_b32", 64, lambda a: (sum(3 << (2 * i) for i in range(32) if a >> i & 1), None),
   srcs=(32,))
_s("s_bcnt0_i32_b32", 32, lambda a: (32 - _popcount(a), _nz(32 - _popcount(a))))
_s("s_bcnt0_i32_b64", 32, lambda a: (64 - _popcount(a), _nz(64 - _popcount(a))), srcs=(64,))
_s("s_bcnt1_i32_b32", 32, lambda a: (_popcount(a), _nz(_popcount(a))))
_s("s_bcnt1_i32_b64", 32, lambda a: (_popcount(a), _nz(_popcount(a))), srcs=(64,))


def _quadmask(a, n):
    r = sum(1 << i for i in range(n // 4) if a >> (4 * i) & 0xF)
    return r, _nz(r)


def _wqm(a, n):
    r = sum(1 << i for i in range(n) if a >> (i & 0x3C) & 0xF)
    return r, _nz(r)


_s("s_quadmask_b32", 32, lambda a: _quadmask(a, 32))
_s("s_quadmask_b64", 64, lambda a: _quadmask(a, 64))
_s("s_wqm_b32", 32, lambda a: _wqm(a, 32))
_s("s_wqm_b64", 64, lambda a: _wqm(a, 64))
_s("s_not_b32", 32, lambda a: (ux(~a, 32), _nz(ux(~a, 32))))
_s("s_not_b64", 64, lambda a: (ux(~a, 64), _nz(ux(~a, 64))))
_s("s_abs_i32", 32, lambda a: (ux(abs(sx(a, 32)), 32), _nz(ux(abs(sx(a, 32)), 32))))

# SOPC: SCC only
SOPC = {}
for _p, _fn in (("eq", lambda a, b: a == b), ("lg", lambda a, b: a != b), ("gt", lambda a, b: a > b),
                ("ge", lambda a, b: a >= b), ("lt", lambda a, b: a < b), ("le", lambda a, b: a <= b)):
    SOPC["s_cmp_%s_i32" % _p] = (32, lambda a, b, f=_fn: int(f(sx(a, 32), sx(b, 32))))
    SOPC["s_cmp_%s_u32" % _p] = (32, lambda a, b, f=_fn: int(f(a, b)))
    if _p in ("eq", "lg"):
        SOPC["s_cmp_%s_u64" % _p] = (64, lambda a, b, f=_fn: int(f(a, b)))
SOPC["s_bitcmp0_b32"] = (32, lambda a, b: int(not a >> (b & 31) & 1))
SOPC["s_bitcmp1_b32"] = (32, lambda a, b: int(a >> (b & 31) & 1))
SOPC["s_bitcmp0_b64"] = (64, lambda a, b: int(not a >> (b & 63) & 1))
SOPC["s_bitcmp1_b64"] = (64, lambda a, b: int(a >> (b & 63) & 1))

# SOPK (SIMM16 as S1; D0 read for addk/mulk/cmovk)
SOPK = {
    "s_movk_i32": lambda d, k, scc: (ux(sx(k, 16), 32), None),
    "s_cmovk_i32": lambda d, k, scc: (ux(sx(k, 16), 32) if scc else d, None),
    "s_addk_i32": lambda d, k, scc: (ux(sx(d, 32) + sx(k, 16), 32),
                                     int(bit(d, 31) == bit(k, 15) and bit(d, 31) != bit(ux(sx(d, 32) + sx(k, 16), 32), 31))),
    "s_mulk_i32": lambda d, k, scc: (ux(sx(d, 32) * sx(k, 16), 32), None),
}
for _p, _fn in (("eq", lambda a, b: a == b), ("lg", lambda a, b: a != b), ("gt", lambda a, b: a > b),
                ("ge", lambda a, b: a >= b), ("lt", lambda a, b: a < b), ("le", lambda a, b: a <= b)):
    SOPK["s_cmpk_%s_i32" % _p] = lambda d, k, scc, f=_fn: (None, int(f(sx(d, 32), sx(k, 16))))
    SOPK["s_cmpk_%s_u32" % _p] = lambda d, k, scc, f=_fn: (None, int(f(d, k & 0xFFFF)))


def f32_bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]
