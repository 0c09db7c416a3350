import math
from fractions import Fraction as Q

from .core import (F, F16, F32, FMTS, M32, NAN, NINF, PINF, RNE, RUP, RZERO, _double, _fres,
                   _from_double, _fsrc, _half_in, _half_out, bit, Ctx, decode, defop, deviate,
                   fadd, fcmp, ffma, floor_, fmul, fneg, Mode, num, quiet, read_float, Res,
                   round_float, sx, trunc, ux, write_float)


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
    df = FMTS[dst]

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
