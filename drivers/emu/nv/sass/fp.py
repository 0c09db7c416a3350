"""Floating-point helpers: f32 from an exact float64 pair in any IEEE rounding mode, FTZ, canonical NaN.

A sum or a fused product of f32 values is first made exact as an unevaluated float64 pair hi + lo
(a product of two f32 is exact in float64; a sum gets its rounding error back by TwoSum), then rounded
once to f32: nearest-even (.RN, the default), toward zero (.RZ), down (.RM) or up (.RP).  That is the
single rounding IEEE asks of FADD / FMUL / FFMA, so directed-rounding slow paths ptxas emits for
division and square root come out bit-exact.
"""
import numpy as np

F32, F64 = np.float32, np.float64
CANONICAL_NAN = np.uint32(0x7FFFFFFF)          # what NVIDIA's FP32 units produce for an invalid result
F32_MAX = np.float32(3.4028234663852886e38)


def as_f32(u):
    return np.asarray(u, np.uint32).view(F32)


def bits(f):
    return np.asarray(f, F32).view(np.uint32)


def ftz32(f):
    """Denormal f32 values flushed to a zero of the same sign."""
    f = np.asarray(f, F32)
    tiny = (np.abs(f) < np.float32(1.1754943508222875e-38)) & (f != 0)
    if tiny.any():
        f = np.where(tiny, np.copysign(F32(0), f), f)
    return f


def two_sum(a, b):
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def round_f32(hi, lo, mode="RN"):
    """f32 rounding of the exact value hi + lo (float64 arrays) in `mode`."""
    hi = np.asarray(hi, F64)
    lo = np.asarray(lo, F64)
    with np.errstate(over="ignore", invalid="ignore"):
        f = hi.astype(F32)
    if mode == "RN":
        need = (lo != 0) & np.isfinite(hi)
        if not need.any():
            return f
        fix = _round_fix(hi[need] if hi.ndim else hi, lo[need] if lo.ndim else lo, f[need] if f.ndim else f, mode)
        out = np.array(f, copy=True)
        out[need] = fix
        return out
    finite = np.isfinite(hi)
    if not finite.all():
        out = np.array(f, copy=True)
        sel = finite
        out[sel] = _round_fix(hi[sel], lo[sel], f[sel], mode)
        return out
    return _round_fix(hi, lo, f, mode)


def _round_fix(hi, lo, f, mode):
    """Correct f = RN32(hi) to the exact rounding of hi + lo."""
    f = np.where(np.isinf(f) & np.isfinite(hi), np.copysign(F32_MAX, hi), f).astype(F32)
    f64 = f.astype(F64)
    t = hi - f64                                   # exact
    d_sign = np.where(t != 0, np.sign(t), np.sign(lo))     # sign of (hi + lo) - f
    with np.errstate(over="ignore"):
        up = np.nextafter(f, F32(np.inf))
        dn = np.nextafter(f, F32(-np.inf))
    if mode == "RN":
        gu = (up.astype(F64) - f64) / 2
        gd = (f64 - dn.astype(F64)) / 2
        above = _cmp(t, lo, gu)                    # sign of (t + lo) - gu
        below = _cmp(t, lo, -gd)                   # sign of (t + lo) + gd
        odd = (f.view(np.uint32) & 1).astype(bool)
        res = np.where((above > 0) | ((above == 0) & odd), up, f)
        res = np.where((below < 0) | ((below == 0) & odd), dn, res)
        res = np.where(np.isinf(up.astype(F64)) & (above > 0) & (hi > 0), F32(np.inf), res)
        res = np.where(np.isinf(dn.astype(F64)) & (below < 0) & (hi < 0), F32(-np.inf), res)
        return res.astype(F32)
    v_neg = (hi < 0) | ((hi == 0) & (lo < 0))
    if mode == "RZ":
        res = np.where(~v_neg & (d_sign < 0), dn, np.where(v_neg & (d_sign > 0), up, f))
    elif mode == "RM":
        res = np.where(d_sign < 0, dn, f)
    elif mode == "RP":
        res = np.where(d_sign > 0, up, f)
    else:
        raise ValueError(mode)
    return res.astype(F32)


def _cmp(t, lo, g):
    """sign((t + lo) - g) for exact t, g and a tiny lo."""
    diff = t - g
    return np.where(diff != 0, np.sign(diff), np.sign(lo))


def canonical(f):
    """f32 results with every NaN as NVIDIA's canonical 0x7FFFFFFF, as uint32 bits."""
    u = bits(f)
    return np.where(np.isnan(np.asarray(f, F32)), CANONICAL_NAN, u)


def mode_of(ins):
    return next((m for m in ins.mods if m in ("RN", "RZ", "RM", "RP")), "RN")
