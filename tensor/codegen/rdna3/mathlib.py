"""EXP2, LOG2, SIN, SQRT, RECIPROCAL for float32, float16, bfloat16 and float64.

The hardware's float32 units (``v_exp_f32``, ``v_log_f32``, ``v_rcp_f32``, ``v_sqrt_f32``: 1 ulp;
``v_sin_f32``: sin(2*pi*x) for |x| < 256 turns) flush denormal inputs and results, so each
sequence scales around them; float64 has only ``v_rcp_f64`` / ``v_rsq_f64`` estimates and gets
polynomials.  Accuracy, in units in the last place of the result type (the reference is the
correctly rounded numpy value; "+ hw" is the hardware unit's own bound):

    op          float32 / bfloat16                       float64
    EXP2        1 ulp (v_exp_f32), denormal results       <= 2 ulp: 2**n * p(f), |f| <= 1/2,
                exact in range: x < -126 is shifted        degree-13 polynomial, ldexp
                by 64 and the result scaled back
    LOG2        1 ulp; denormal inputs scaled by 2**32    <= 2 ulp: frexp, m in [sqrt(1/2),
                                                           sqrt 2), 2*atanh((m-1)/(m+1)) series
    SIN         <= 4 ulp for |x| < 2**15 (hw units       <= 2 ulp for |x| < 2**20 (three-part
                exact): x - k*pi/2 in three parts with     pi/2 reduction, sin/cos polynomials
                FMA, then v_sin_f32 / v_cos_f32 of the     of degree 13/14); beyond, error grows
                remaining eighth of a turn; beyond,        with |x| * 2**-80
                error grows with |x| * 2**-48
    SQRT        1 ulp; denormal inputs scaled by 2**32    correctly rounded (v_rsq_f64 and
                                                           Goldschmidt steps, as LLVM does)
    RECIPROCAL  1 ulp over the whole range (frexp,        correctly rounded (v_div_scale /
                v_rcp_f32 of the mantissa, ldexp)          v_div_fmas / v_div_fixup)

float16 computes in float32 and rounds once (exactly the reference's rule, which evaluates
float16 transcendentals in float32); bfloat16 computes in float32 and rounds to bfloat16.
Special values follow IEEE: exp2(-inf) = 0, log2(0) = -inf, log2(x < 0) = NaN, sqrt(-0) = -0,
1/+-0 = +-inf, sin(+-inf) = NaN; NaN in, NaN out.
"""
import math
from fractions import Fraction

from tensor.dtypes import dtypes
from tensor.loopir import Op

from .mir import Neg

F32, F16, BF16, F64 = dtypes.float32, dtypes.float16, dtypes.bfloat16, dtypes.float64

# float64 polynomial coefficients, as exact rationals rounded once to double
LN2 = Fraction(6931471805599453094172321214581765680755, 10 ** 40)
EXP2_COEFFS = [float(LN2 ** k / math.factorial(k)) for k in range(14)]          # 2**f, |f| <= 1/2
ATANH_COEFFS = [1.0 / (2 * k + 1) for k in range(11)]                          # in z = s*s
LOG2E_HI = 1.4426950408889634
LOG2E_LO = 2.0355273740931033e-17
SQRT_HALF = 0.7071067811865476
# sin/cos kernels on [-pi/4, pi/4] (fdlibm's minimax coefficients)
SIN_COEFFS = [-1.66666666666666324348e-01, 8.33333333332248946124e-03, -1.98412698298579493134e-04,
              2.75573137070700676789e-06, -2.50507602534068634195e-08, 1.58969099521155010221e-10]
COS_COEFFS = [4.16666666666666019037e-02, -1.38888888888741095749e-03, 2.48015872894767294178e-05,
              -2.75573143513906633035e-07, 2.08757232129817482790e-09, -1.13596475577881948265e-11]
TWO_OVER_PI = 6.36619772367581382433e-01
PIO2 = (1.57079632673412561417e+00, 6.07710050630396597660e-11, 2.02226624871116645580e-21)
# float32 three-part pi/2 (8 + 24 + 24 bits) for the reduction before v_sin_f32 / v_cos_f32
PIO2_F32 = (1.5703125, 4.837512969970703125e-4, 7.54978995489188216e-8)


class MathMixin:
    def unary_math(self, op, dt, a):
        from .isel import Val
        if a.reg is None:
            a = Val(dt, reg=self.vgpr(a, dt))
        if dt is F64:
            return {Op.EXP2: self.exp2_f64, Op.LOG2: self.log2_f64, Op.SIN: self.sin_f64,
                    Op.SQRT: self.sqrt_f64, Op.RECIPROCAL: self.rcp_f64}[op](a.reg)
        x = a.reg
        if dt is F16:
            f = self.valu("v_cvt_f32_f16", [x])
            # every float16 is a normal float32 and no float16 result is a float32 denormal
            # that matters: the plain hardware units suffice
            name = {Op.EXP2: "v_exp_f32", Op.LOG2: "v_log_f32", Op.SQRT: "v_sqrt_f32",
                    Op.RECIPROCAL: "v_rcp_f32"}.get(op)
            r = self.valu(name, [f]) if name else self.sin_f32(f)
            return self.valu("v_cvt_f16_f32", [r])
        r = {Op.EXP2: self.exp2_f32, Op.LOG2: self.log2_f32, Op.SIN: self.sin_f32,
             Op.SQRT: self.sqrt_f32, Op.RECIPROCAL: self.rcp_f32}[op](x)
        return self.round_bf16(r) if dt is BF16 else r

    # ---- float32 -------------------------------------------------------------------------
    def cmp_mask(self, op, *srcs):
        m = self.new("s")
        self.E(op, m, *self.legal(list(srcs)))
        return m

    def exp2_f32(self, x):
        m = self.cmp_mask("v_cmp_gt_f32", "0xc2fc0000", x)              # x < -126
        t = self.valu("v_cndmask_b32", ["0", "0x42800000", m])          # + 64
        t = self.valu("v_add_f32", [x, t])
        e = self.valu("v_exp_f32", [t])
        s = self.valu("v_cndmask_b32", ["1.0", "0x1f800000", m])        # * 2**-64
        return self.valu("v_mul_f32", [e, s])

    def log2_f32(self, x):
        m = self.cmp_mask("v_cmp_gt_f32", "0x800000", x)                # x < 2**-126
        s = self.valu("v_cndmask_b32", ["1.0", "0x4f800000", m])        # * 2**32
        t = self.valu("v_mul_f32", [x, s])
        lg = self.valu("v_log_f32", [t])
        o = self.valu("v_cndmask_b32", ["0", "0x42000000", m])          # - 32
        return self.valu("v_sub_f32", [lg, o])

    def sqrt_f32(self, x):
        m = self.cmp_mask("v_cmp_gt_f32", "0xf800000", x)               # x < 2**-96
        s = self.valu("v_cndmask_b32", ["0", "32", m])
        t = self.valu("v_ldexp_f32", [x, s])
        r = self.valu("v_sqrt_f32", [t])
        u = self.valu("v_cndmask_b32", ["0", "-16", m])
        return self.valu("v_ldexp_f32", [r, u])

    def rcp_f32(self, x):
        mant = self.valu("v_frexp_mant_f32", [x])
        e = self.valu("v_frexp_exp_i32_f32", [x])
        r = self.valu("v_rcp_f32", [mant])
        ne = self.valu("v_sub_nc_u32", ["0", e])
        return self.valu("v_ldexp_f32", [r, ne])

    def sin_f32(self, x):
        # x = k * pi/2 + r, |r| <= pi/4 (three-part pi/2, exact products through FMA), then
        # sin or cos of r in turns: |r / 2pi| <= 1/8 keeps the turn's rounding error tiny
        k = self.valu("v_mul_f32", ["0x3f22f983", x])                    # x * 2/pi
        k = self.valu("v_rndne_f32", [k])
        r = x
        for part in PIO2_F32:
            r = self.valu("v_fma_f32", [Neg(k), self.const_text(part, F32), r])
        t = self.valu("v_mul_f32", ["0.15915494", r])                    # turns
        sn = self.valu("v_sin_f32", [t])
        cs = self.valu("v_cos_f32", [t])
        q = self.valu("v_cvt_i32_f32", [k])
        odd = self.cmp_mask("v_cmp_ne_u32", "0", self.valu("v_and_b32", ["1", q]))
        v = self.valu("v_cndmask_b32", [sn, cs, odd])
        sign = self.valu("v_lshlrev_b32", ["30", self.valu("v_and_b32", ["2", q])])
        return self.valu("v_xor_b32", [sign, v])

    # ---- float64 -------------------------------------------------------------------------
    def c64(self, value):
        from .isel import Val
        return self.operand(Val(F64, const=value))

    def fma64(self, a, b, c):
        return self.valu("v_fma_f64", [a, b, c], 2)

    def horner64(self, coeffs, z):
        """sum(c[k] * z**k) by Horner's rule."""
        p = self.fma64(self.c64(coeffs[-1]), z, self.c64(coeffs[-2]))
        for c in reversed(coeffs[:-2]):
            p = self.fma64(p, z, self.c64(c))
        return p

    def select64(self, a, b, m):
        """m ? b : a for two 64-bit operands."""
        d = self.new("v", 2)
        for h in range(2):
            pa = a[h] if not isinstance(a, str) else a
            pb = b[h] if not isinstance(b, str) else b
            self.E("v_cndmask_b32", d[h], *self.legal([pa, pb, m], keep=(2,)))
        return d

    def nan_fix64(self, r, x):
        """r, or x where x is NaN."""
        m = self.cmp_mask("v_cmp_u_f64", x, x)
        return self.select64(r, x, m)

    def exp2_f64(self, x):
        t = self.valu("v_max_f64", [x, "0xc0913000"], 2)                 # clamp to [-1100, 1100]
        t = self.valu("v_min_f64", [t, "0x40913000"], 2)
        n = self.valu("v_rndne_f64", [t], 2)
        f = self.valu("v_add_f64", [t, Neg(n)], 2)
        p = self.horner64(EXP2_COEFFS, f)
        k = self.valu("v_cvt_i32_f64", [n])
        r = self.valu("v_ldexp_f64", [p, k], 2)
        return self.nan_fix64(r, x)

    def _quotient64(self, num, den):
        """(q, r, rem): 1/den refined by two Newton steps (r), q = num * r, rem = num - den * q;
        q + rem * r is the quotient to about 0.5 ulp."""
        r = self.valu("v_rcp_f64", [den], 2)
        for _ in range(2):
            e = self.fma64(Neg(den), r, "1.0")
            r = self.fma64(r, e, r)
        q = self.valu("v_mul_f64", [num, r], 2)
        return q, r, self.fma64(Neg(den), q, num)

    def fdiv64(self, num, den):
        """num / den to about 0.5 ulp for den in [1, 3] (no special cases)."""
        q, r, rem = self._quotient64(num, den)
        return self.fma64(rem, r, q)

    def log2_f64(self, x):
        m = self.valu("v_frexp_mant_f64", [x], 2)
        e = self.valu("v_frexp_exp_i32_f64", [x])
        small = self.cmp_mask("v_cmp_gt_f64", self.c64(SQRT_HALF), m)
        one = self.valu("v_cndmask_b32", ["0", "1", small])
        m = self.valu("v_ldexp_f64", [m, one], 2)
        e = self.valu("v_sub_nc_u32", [e, one])
        num = self.valu("v_add_f64", [m, "-1.0"], 2)
        den = self.valu("v_add_f64", [m, "1.0"], 2)
        s = self.fdiv64(num, den)
        z = self.valu("v_mul_f64", [s, s], 2)
        q = self.horner64(ATANH_COEFFS, z)
        s2 = self.valu("v_add_f64", [s, s], 2)
        ln = self.valu("v_mul_f64", [s2, q], 2)                            # ln(m)
        ef = self.valu("v_cvt_f64_i32", [e], 2)
        r = self.fma64(ln, self.c64(LOG2E_HI), ef)
        r = self.fma64(ln, self.c64(LOG2E_LO), r)
        # special operands: +-0 -> -inf, +inf -> +inf, negative or NaN -> NaN
        for mask, value in ((0x60, "0xfff00000"), (0x200, "0x7ff00000"), (0x1f, "0x7ff80000")):
            cm = self.cmp_mask("v_cmp_class_f64", x, self.iconst(mask))
            d = self.new("v", 2)
            self.E("v_cndmask_b32", d.lo, r.lo, "0", cm)
            self.E("v_cndmask_b32", d.hi, r.hi, value, cm)
            r = d
        return r

    def sin_f64(self, x):
        k = self.valu("v_mul_f64", [x, self.c64(TWO_OVER_PI)], 2)
        k = self.valu("v_rndne_f64", [k], 2)
        r = x
        for part in PIO2:
            r = self.fma64(Neg(k), self.c64(part), r)
        q = self.valu("v_cvt_i32_f64", [k])
        z = self.valu("v_mul_f64", [r, r], 2)
        # sin(r) = r + r*z*S(z);  cos(r) = 1 - z/2 + z*z*C(z)
        sp = self.horner64(SIN_COEFFS, z)
        rz = self.valu("v_mul_f64", [r, z], 2)
        sn = self.fma64(rz, sp, r)
        cp = self.horner64(COS_COEFFS, z)
        zz = self.valu("v_mul_f64", [z, z], 2)
        h = self.fma64(z, "-0.5", "1.0")
        cs = self.fma64(zz, cp, h)
        odd = self.cmp_mask("v_cmp_ne_u32", "0", self.valu("v_and_b32", ["1", q]))
        v = self.select64(sn, cs, odd)
        sign = self.valu("v_lshlrev_b32", ["30", self.valu("v_and_b32", ["2", q])])
        d = self.new("v", 2)
        self.E("v_mov_b32", d.lo, v.lo)
        self.E("v_xor_b32", d.hi, sign, v.hi)
        return d

    def sqrt_f64(self, x):
        m = self.cmp_mask("v_cmp_gt_f64", "0x10000000", x)               # x < 2**-767
        sc = self.valu("v_cndmask_b32", ["0", "0x100", m])
        xs = self.valu("v_ldexp_f64", [x, sc], 2)
        y = self.valu("v_rsq_f64", [xs], 2)
        g = self.valu("v_mul_f64", [xs, y], 2)
        h = self.valu("v_mul_f64", [y, "0.5"], 2)
        r = self.fma64(Neg(h), g, "0.5")
        g = self.fma64(g, r, g)
        h = self.fma64(h, r, h)
        for _ in range(2):
            d = self.fma64(Neg(g), g, xs)
            g = self.fma64(d, h, g)
        us = self.valu("v_cndmask_b32", ["0", "0xffffff80", m])
        g = self.valu("v_ldexp_f64", [g, us], 2)
        special = self.cmp_mask("v_cmp_class_f64", xs, "0x260")            # +-0, +inf
        return self.select64(g, xs, special)

    def rcp_f64(self, x):
        num = self.new("v", 2)
        self.E("v_div_scale_f64", num, "vcc_lo", "1.0", x, "1.0", ndef=2)
        den = self.new("v", 2)
        self.E("v_div_scale_f64", den, "null", x, x, "1.0", ndef=2)
        q, r, rem = self._quotient64(num, den)
        f = self.new("v", 2)
        self.E("v_div_fmas_f64", f, rem, r, q, imp_use=("vcc_lo",))
        return self.valu("v_div_fixup_f64", [f, x, "1.0"], 2)
