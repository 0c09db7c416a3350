import math
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
