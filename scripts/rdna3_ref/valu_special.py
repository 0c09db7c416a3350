from fractions import Fraction as Q

from .core import (BF16, DEVIATIONS, F, F16, F32, F64, FMTS, NAN, RNE, _fres, _fsrc, _half_out,
                   _mode_fmt, Ctx, decode, defop, deviate, exponent_field, fadd, fcmp, fdiv,
                   ffma, fmul, fneg, Mode, num, quiet, read_float, Res, round_float, sat, sx, ux,
                   write_float)
from .valu_float import _minmax


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
