"""CAST and BITCAST between every pair of types.

Rounding: float32 -> float16 and float32 -> bfloat16 round to nearest even (``v_cvt_f16_f32``;
bfloat16 by integer rounding of the float32 bits, NaNs kept quiet).  float64 -> float16/bfloat16
and int64 -> float32/float16 go through float32 / float64, so they can round twice (off by one
unit in the last place in rare halfway cases).  float -> int truncates toward zero
(``v_cvt_i32_f32`` and friends; 64-bit results split the truncated value into two 32-bit
halves exactly); out-of-range conversions are unspecified by the IR and saturate here.
"""
import numpy as np

from tensor.dtypes import bf16_bits_to_float32, dtypes, float32_to_bf16_bits

F32, F16, BF16, F64 = dtypes.float32, dtypes.float16, dtypes.bfloat16, dtypes.float64
I32, U32, I64, BOOL = dtypes.int32, dtypes.uint32, dtypes.int64, dtypes.bool
SMALL_SIGNED = (dtypes.int8, dtypes.int16)


def fold_cast(value, src, dst):
    """A constant converted as the reference does (truncation toward zero, wrapping ints)."""
    if dst is BOOL:
        return bool(value)
    if src is BOOL:
        value = int(bool(value))
    if dst.is_float:
        if dst is BF16:
            return float(bf16_bits_to_float32(float32_to_bf16_bits(np.float32(value)))[()])
        return float(np.array(value, dtype=np.float64).astype(dst.np))
    if src.is_float:
        v = float(value)
        if v != v or v in (float("inf"), float("-inf")):
            return 0
        v = int(v)
        return max(dst.min, min(dst.max, v))
    v = int(value) & ((1 << dst.bits) - 1)
    if dst.kind == "i" and v >= 1 << (dst.bits - 1):
        v -= 1 << dst.bits
    return v


class ConvertMixin:
    def cast(self, x, a, sdt, uniform):
        """``uniform``: the analysis put the result on the scalar unit (int/bool to int/bool)."""
        from .isel import Val
        dt = x.dtype
        if a.reg is None:
            return Val(dt, const=fold_cast(a.const, sdt, dt))
        if sdt is dt or (sdt is BF16 and dt is F32):
            return Val(dt, reg=a.reg)
        if dt is BOOL:
            return Val(dt, reg=self.to_bool(a, sdt, uniform))
        if sdt is BOOL:
            return Val(dt, reg=self.from_bool(a, dt, uniform))
        if dt.is_int:
            return Val(dt, reg=self.to_int(a, sdt, dt, uniform))
        return Val(dt, reg=self.to_float(a, sdt, dt))

    def to_bool(self, a, sdt, uniform):
        m = self.new("s")
        if sdt.is_float:
            sfx = {F16: "f16", F64: "f64"}.get(sdt, "f32")
            self.E(f"v_cmp_neq_{sfx}", m, "0", a.reg)
        elif sdt is I64:
            self.E("v_cmp_ne_u64", m, "0", a.reg)
        elif uniform:
            self.E("s_cmp_lg_u32", a.reg, "0", ndef=0, imp_def=("scc",))
            self.E("s_cselect_b32", m, "-1", "0")
        else:
            self.E("v_cmp_ne_u32", m, "0", a.reg)
        return m

    def from_bool(self, a, dt, uniform):
        if dt.is_int and dt is not I64:
            return self.bool_to_int(a, "1", "s" if uniform else "v")
        if dt is I64 or dt is F64:
            d = self.new("v", 2)
            if dt is I64:
                self.E("v_cndmask_b32", d.lo, "0", "1", a.reg)
                self.E("v_mov_b32", d.hi, "0")
            else:
                self.E("v_mov_b32", d.lo, "0")
                self.E("v_cndmask_b32", d.hi, "0", "0x3ff00000", a.reg)
            return d
        one = "0x3c00" if dt is F16 else "0x3f800000"
        return self.bool_to_int(a, one)

    def to_int(self, a, sdt, dt, uniform):
        if sdt.is_int:
            if dt is I64:
                d = self.new("v", 2)
                self.E("v_mov_b32", d.lo, a.reg)
                if sdt.kind == "i":
                    self.E("v_ashrrev_i32", d.hi, "31", a.reg)
                else:
                    self.E("v_mov_b32", d.hi, "0")
                return d
            r = a.reg[0] if sdt is I64 else a.reg
            return self.normalize(r, dt, "s" if uniform else "v") if dt.itemsize < 4 else r
        # float -> int
        if dt is I64:
            return self.float_to_i64(a, sdt)
        if sdt is F64:
            r = self.valu("v_cvt_u32_f64" if dt is U32 else "v_cvt_i32_f64", [a.reg])
        else:
            f = self.valu("v_cvt_f32_f16", [a.reg]) if sdt is F16 else a.reg
            r = self.valu("v_cvt_u32_f32" if dt is U32 else "v_cvt_i32_f32", [f])
        return self.normalize(r, dt) if dt.itemsize < 4 else r

    def float_to_i64(self, a, sdt):
        d = self.new("v", 2)
        if sdt is F64:
            t = self.valu("v_trunc_f64", [a.reg], 2)
            h = self.valu("v_mul_f64", [t, "0x3df00000"], 2)           # 2**-32
            h = self.valu("v_floor_f64", [h], 2)
            lo = self.valu("v_fma_f64", [h, "0xc1f00000", t], 2)       # t - h * 2**32
            self.E("v_cvt_u32_f64", d.lo, lo)
            self.E("v_cvt_i32_f64", d.hi, h)
            return d
        # float32 cannot hold |t| - hi * 2**32 exactly for negative t: split |t|, then negate
        f = self.valu("v_cvt_f32_f16", [a.reg]) if sdt is F16 else a.reg
        t = self.valu("v_trunc_f32", [f])
        t = self.valu("v_and_b32", ["0x7fffffff", t])
        h = self.valu("v_mul_f32", ["0x2f800000", t])
        h = self.valu("v_floor_f32", [h])
        lo = self.valu("v_fma_f32", [h, "0xcf800000", t])
        u = self.new("v", 2)
        self.E("v_cvt_u32_f32", u.lo, lo)
        self.E("v_cvt_u32_f32", u.hi, h)
        sign = self.valu("v_ashrrev_i32", ["31", f])
        return self._abs64(u, sign)

    def int_to_f64(self, a, sdt):
        if sdt is I64:
            hi = self.valu("v_cvt_f64_i32", [a.reg[1]], 2)
            lo = self.valu("v_cvt_f64_u32", [a.reg[0]], 2)
            return self.valu("v_fma_f64", [hi, "0x41f00000", lo], 2)          # hi * 2**32 + lo
        return self.valu("v_cvt_f64_u32" if sdt.kind == "u" else "v_cvt_f64_i32", [a.reg], 2)

    def to_f32(self, a, sdt):
        if sdt is F32 or sdt is BF16:
            return a.reg
        if sdt is F16:
            return self.valu("v_cvt_f32_f16", [a.reg])
        if sdt is F64:
            return self.valu("v_cvt_f32_f64", [a.reg])
        if sdt is I64:
            return self.valu("v_cvt_f32_f64", [self.int_to_f64(a, sdt)])
        return self.valu("v_cvt_f32_u32" if sdt.kind == "u" else "v_cvt_f32_i32", [a.reg])

    def to_float(self, a, sdt, dt):
        if dt is F64:
            if sdt.is_int:
                return self.int_to_f64(a, sdt)
            f = a.reg if sdt is not F16 else self.valu("v_cvt_f32_f16", [a.reg])
            return self.valu("v_cvt_f64_f32", [f], 2)
        if dt is F16:
            if sdt in SMALL_SIGNED:
                return self.valu("v_cvt_f16_i16", [a.reg])
            if sdt is dtypes.uint8:
                return self.valu("v_cvt_f16_u16", [a.reg])
            return self.valu("v_cvt_f16_f32", [self.to_f32(a, sdt)])
        f = self.to_f32(a, sdt)
        if dt is BF16:
            r = self.round_bf16(f)
            if sdt.is_float:                           # a NaN input stays a quiet NaN
                m = self.new("s")
                self.E("v_cmp_u_f32", m, f, f)
                q = self.valu("v_or_b32", ["0x400000", f])
                q = self.valu("v_and_b32", ["0xffff0000", q])
                r = self.valu("v_cndmask_b32", [r, q, m])
            return r
        return f

    def bitcast(self, x, a, sdt):
        from .isel import Val
        dt = x.dtype
        if a.reg is None:
            bits = np.array(a.const if sdt is not BF16 else 0, dtype=sdt.np if sdt is not BF16 else np.uint16)
            if sdt is BF16:
                bits = float32_to_bf16_bits(np.float32(a.const))
            out = np.asarray(bits).view(dt.np if dt is not BF16 else np.uint16)[()]
            value = float(bf16_bits_to_float32(out)) if dt is BF16 else out.item()
            return Val(dt, const=value)
        r = a.reg
        if dt.itemsize == 2:
            if sdt is BF16:                 # float32 form -> the 16 bits
                r = self.valu("v_ashrrev_i32" if dt is dtypes.int16 else "v_lshrrev_b32", ["16", r])
            elif dt is BF16:
                r = self.valu("v_lshlrev_b32", ["16", r])
            elif dt is dtypes.int16:        # float16 bits in the low half -> sign-extended
                r = self.valu("v_bfe_i32", [r, "0", "16"])
        elif dt.itemsize == 1:
            r = self.normalize(r, dt, r.cls)
        return Val(dt, reg=r)
