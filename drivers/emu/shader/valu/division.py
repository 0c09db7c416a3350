"""The division helpers v_div_scale / v_div_fmas / v_div_fixup (f16, f32, f64).

They implement the RDNA3 ISA pseudocode. v_div_scale scales its first source by 2**(+-64) (f32)
or 2**(+-128) (f64) when the quotient would meet denormals, and sets VCC when the final quotient
needs the opposite post-scaling; v_div_fmas applies it: fma * 2**64 when S2's exponent is above
the bias (|S2| >= 2), else fma * 2**-64 (2**128 / 2**-128 for f64). v_div_fmas reads its inputs
without denormal flushing.
"""
import numpy as np

from .fp import F16, F32, F64, exponent, fma64, fma_narrow, is_denorm
from .kinds import K16, K32, K64
from .registry import op

_SCALE = {F32: (64, 96, 23), F64: (128, 768, 53)}       # scale, exponent gap, mantissa bits


def _div_scale(kind):
    fmt = kind.fmt
    scale, gap, tiny = _SCALE[fmt]
    bits = kind.reg_bits

    @op("v_div_scale_" + fmt.name, (bits, bits, bits), bits, mask_out=True)
    def run(ctx, srcs, old):
        s0, s1, s2 = (kind.read(ctx, srcs, i) for i in range(3))
        e1, e2 = exponent(fmt, s1), exponent(fmt, s2)
        with np.errstate(all="ignore"):
            up = np.ldexp(s0.astype(np.float64), scale).astype(fmt.dtype)
            down = np.ldexp(s0.astype(np.float64), -scale).astype(fmt.dtype)
            rcp_denorm = is_denorm(F64, 1.0 / s1.astype(np.float64))
            quot_denorm = is_denorm(fmt, (s2 / s1).astype(fmt.dtype))
        d = s0.copy()
        vcc = np.zeros(s0.shape, bool)
        done = np.zeros(s0.shape, bool)

        def case(cond, value=None, set_vcc=False):
            nonlocal d, vcc, done
            hit = cond & ~done
            if value is not None:
                d = np.where(hit, value, d)
            vcc |= hit & set_vcc
            done |= hit

        case((s2 == 0) | (s1 == 0), fmt.dtype(np.nan))
        near_max = (e2 - e1) >= gap                       # N/D near the largest float
        case(near_max & (s0 == s1), up, True)
        case(near_max, None, True)
        case(is_denorm(fmt, s1), up)
        both = rcp_denorm & quot_denorm
        case(both & (s0 == s1), up, True)
        case(both, None, True)
        case(rcp_denorm, down)
        case(quot_denorm & (s0 == s2), up, True)
        case(quot_denorm, None, True)
        case(e2 <= tiny, up)                              # numerator is tiny
        return kind.write(ctx, old, d), vcc
    return run


def _div_fmas(kind):
    fmt = kind.fmt
    scale = _SCALE[fmt][0]
    bits = kind.reg_bits

    @op("v_div_fmas_" + fmt.name, (bits, bits, bits), bits, mask_in=True)
    def run(ctx, srcs, old):
        a, b, c = (kind.read(ctx, srcs, i, flush_denorm=False) for i in range(3))
        r = fma64(a, b, c) if fmt is F64 else fma_narrow(fmt, a, b, c)
        post = np.where(exponent(fmt, c) > fmt.bias, scale, -scale)
        with np.errstate(all="ignore"):
            scaled = np.ldexp(r.astype(np.float64), post).astype(fmt.dtype) if fmt is not F64 \
                else np.ldexp(r, post)
        return kind.write(ctx, old, np.where(ctx.mask, scaled, r))
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
            conds += [(e2 - e1) < under, e1 == fmt.emax]
            # UNDERFLOW / OVERFLOW: the smallest denormal / largest finite value of the format
            values += [signed(np.nextafter(fmt.dtype(0), fmt.dtype(1))),
                       signed(np.finfo(fmt.dtype).max)]
        r = np.select(conds, values, np.where(neg, -np.abs(s0), np.abs(s0)))
        return kind.write(ctx, old, r.astype(fmt.dtype))
    return run


for _k in (K32, K64):
    _div_scale(_k)
    _div_fmas(_k)
for _k in (K16, K32, K64):
    _div_fixup(_k)
