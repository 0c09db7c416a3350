"""ALU instruction selection: binary ops, comparisons, select, accumulator updates.

Per operand type (see :mod:`.isel` for how values are held):

* float32: ``v_add/mul_f32``, each correctly rounded (no contraction of a*b+c: the result is
  bit for bit the reference's); an accumulated product is ``v_fmac_f32`` (one rounding per
  step, as BLAS does); MAX is NaN-propagating (``v_max_f32`` returns the other operand of a
  NaN, so ``v_cmp_u_f32`` + ``v_cndmask_b32`` put the NaN back).
* float16: the ``_f16`` forms (correctly rounded, as numpy's float16).  bfloat16: float32 then
  round-to-nearest-even to bfloat16 (``v_bfe_u32`` + ``v_add3_u32`` + ``v_and_b32``).
* float64: ``v_add/mul/fma/max_f64``.
* int32/uint32: VALU or, when uniform, SALU; int8/uint8/int16 re-extended after operations
  that can leave their range; int64 as two dwords with carries.
* bool: scalar logic on lane masks.
* IDIV/MOD by a constant: multiply by a magic reciprocal (shifts and masks for powers of two,
  the unsigned form when the dividend is known non-negative); by a variable: the float
  reciprocal estimate refined with integer multiplies (32 bits) or shift-subtract long
  division in a loop (64 bits).  C semantics (truncation; the remainder takes the dividend's
  sign).  Division by zero is unspecified by the IR; it gives some value and never traps.
"""
from tensor.dtypes import dtypes
from tensor.loopir import Op

F32, F16, BF16, F64 = dtypes.float32, dtypes.float16, dtypes.bfloat16, dtypes.float64
I64, BOOL = dtypes.int64, dtypes.bool
SMALL = {dtypes.int8: ("v_bfe_i32", 8, "s_sext_i32_i8"), dtypes.int16: ("v_bfe_i32", 16, "s_sext_i32_i16"),
         dtypes.uint8: ("v_and_b32", 8, "s_and_b32")}
FLOAT_SUFFIX = {F32: "f32", BF16: "f32", F16: "f16", F64: "f64"}
QNAN = {F32: "0x7fc00000", BF16: "0x7fc00000", F16: "0x7e00"}


def _log2(k):
    return k.bit_length() - 1


def _pow2(k):
    return k > 0 and k & (k - 1) == 0


def magic_unsigned(d, nbits=32):
    """(M, s, add) with n // d == mulhi(n, M) >> s for every n < 2**nbits; with ``add`` the
    multiplier has 33 bits: t = mulhi(n, M - 2**32), q = (((n - t) >> 1) + t) >> (s - 1)."""
    nc = (1 << nbits) - 1 - ((1 << nbits) - d) % d
    for p in range(32, 65):
        if (1 << p) > nc * (d - 1 - ((1 << p) - 1) % d):
            m = ((1 << p) + d - 1 - ((1 << p) - 1) % d) // d
            return m, p - 32, m >= (1 << 32)
    raise ValueError(d)


def magic_signed(d):
    """(M, s) for signed division by d (|d| >= 2), Hacker's Delight 10-1."""
    ad = abs(d)
    t = 1 << 31
    anc = t - 1 - t % ad
    p = 31
    q1, r1 = (1 << 31) // anc, (1 << 31) - ((1 << 31) // anc) * anc
    q2, r2 = (1 << 31) // ad, (1 << 31) - ((1 << 31) // ad) * ad
    while True:
        p += 1
        q1, r1 = 2 * q1, 2 * r1
        if r1 >= anc:
            q1, r1 = q1 + 1, r1 - anc
        q2, r2 = 2 * q2, 2 * r2
        if r2 >= ad:
            q2, r2 = q2 + 1, r2 - ad
        delta = ad - r2
        if not (q1 < delta or (q1 == delta and r1 == 0)):
            break
    m = q2 + 1
    if m >= 1 << 31:
        m -= 1 << 32
    if d < 0:
        m = -m
    return m, p - 32


class AluMixin:
    # ---- helpers -------------------------------------------------------------------------
    def srcs(self, x):
        return [self.v(s) for s in x.src]

    def ops(self, vals, dt):
        return [self.operand(v, dt) for v in vals]

    def normalize(self, r, dt, cls="v"):
        """Re-extend an int8/uint8/int16 result kept in a dword."""
        if dt not in SMALL:
            return r
        vop, bits, sop = SMALL[dt]
        if cls == "s":
            return self.op1(sop, "s", r, "0xff") if sop == "s_and_b32" else self.op1(sop, "s", r)
        if vop == "v_and_b32":
            return self.op1("v_and_b32", "v", "0xff", r)
        return self.op1("v_bfe_i32", "v", r, "0", str(bits))

    def round_bf16(self, r):
        """A float32 result (not a signalling NaN) rounded to the nearest bfloat16."""
        t = self.op1("v_bfe_u32", "v", r, "16", "1")
        u = self.op1("v_add3_u32", "v", r, t, "0x7fff")
        return self.op1("v_and_b32", "v", "0xffff0000", u)

    def fusable_mul(self, j, dt):
        """(a, b) Vals if %j is a MUL of ``dt`` read only here and not selected yet."""
        x = self.ins[j]
        if x.op is Op.MUL and x.dtype is dt and self.vals[j] is None and len(self.f.users[j]) == 1:
            return self.v(x.src[0]), self.v(x.src[1])
        return None

    # ---- dispatch ------------------------------------------------------------------------
    def select_alu(self, i, x):
        from .isel import Val
        op, dt = x.op, x.dtype
        if op in (Op.EXP2, Op.LOG2, Op.SIN, Op.SQRT, Op.RECIPROCAL):
            return Val(dt, reg=self.unary_math(op, dt, self.v(x.src[0])))
        if op is Op.CAST:
            return self.cast(x, self.v(x.src[0]), self.ins[x.src[0]].dtype, self.f.uniform[i])
        if op is Op.BITCAST:
            return self.bitcast(x, self.v(x.src[0]), self.ins[x.src[0]].dtype)
        if op is Op.WHERE:
            return self.where(i, x)
        sdt = self.ins[x.src[0]].dtype
        if sdt is BOOL:
            if op is Op.OR:
                m = self.nan_or_less(x)
                if m is not None:
                    return Val(dt, reg=m)
            return Val(dt, reg=self.bool_op(op, self.srcs(x)))
        if op in (Op.CMPLT, Op.CMPNE):
            return Val(BOOL, reg=self.compare(i, op, sdt, self.srcs(x)))
        if sdt.is_float:
            return Val(dt, reg=self.float_op(i, x, op, dt))
        if dt is I64:
            return Val(dt, reg=self.int64_op(op, self.srcs(x)))
        a, b = self.srcs(x)
        simple = self.int_identity(op, a, b)
        if simple is not None:
            return simple
        if self.f.uniform[i]:
            return Val(dt, reg=self.salu_int(op, dt, a, b, x.src[0]))
        return Val(dt, reg=self.valu_int(op, dt, a, b, x.src[0]))

    def int_identity(self, op, a, b):
        for p, q in ((a, b), (b, a)):
            if q.reg is None and p.reg is not None:
                c = int(q.const)
                if (op is Op.ADD and c == 0) or (op is Op.MUL and c == 1):
                    return p
        return None

    # ---- floats --------------------------------------------------------------------------
    def float_op(self, i, x, op, dt):
        # an ADD of a MUL stays two correctly rounded operations (the IR's semantics, bit for
        # bit what the reference computes); only accumulated products become FMAs
        sfx = FLOAT_SUFFIX[dt]
        size = 2 if dt is F64 else 1
        a, b = self.srcs(x)
        if op in (Op.ADD, Op.MUL):
            name = "add" if op is Op.ADD else "mul"
            oa, ob = self.ops([a, b], dt)
            if (isinstance(ob, str) or ob.cls == "s") and not isinstance(oa, str) and oa.cls == "v":
                oa, ob = ob, oa
            r = self.valu(f"v_{name}_{sfx}", [oa, ob], size)
            return self.round_bf16(r) if dt is BF16 else r
        if op is Op.MAX:
            return self.fmax(dt, a, b)
        raise self.unsupported(i, x)

    def fmax(self, dt, a, b, dst=None):
        """NaN-propagating maximum (into ``dst`` when given)."""
        sfx = FLOAT_SUFFIX[dt]
        oa, ob = self.ops([a, b], dt)
        m = self.new("s")
        if dt is F64:
            r = self.valu("v_max_f64", [oa, ob], 2)
            self.E("v_cmp_u_f64", m, *self.legal([oa, ob], 1))
            d = dst if dst is not None else self.new("v", 2)
            self.E("v_cndmask_b32", d.lo, r.lo, "0", m)
            self.E("v_cndmask_b32", d.hi, r.hi, "0x7ff80000", m)
            return d
        r = self.valu(f"v_max_{sfx}", [oa, ob])
        self.E(f"v_cmp_u_{sfx}", m, *self.legal([oa, ob]))
        return self.valu("v_cndmask_b32", [r, QNAN[dt], m], dst=dst)

    def nan_or_less_operands(self, x):
        """(p, q) if ``x`` is ``p < q or y != y`` with y one of p, q and the other a constant
        that is not NaN (the tensor layer's NaN-keeping relu and max), else None."""
        a, b = (self.ins[s] for s in x.src)
        for lt, ne in ((a, b), (b, a)):
            if lt.op is not Op.CMPLT or ne.op is not Op.CMPNE or ne.src[0] != ne.src[1]:
                continue
            p, q = lt.src
            if not self.ins[p].dtype.is_float or ne.src[0] not in (p, q):
                continue
            other = self.ins[q if ne.src[0] == p else p]
            if other.op is Op.CONST and other.arg == other.arg:
                return p, q
        return None

    def nan_or_less(self, x):
        """That pattern is ``!(p >= q)``: one v_cmp_nge instead of two compares and an or."""
        pq = self.nan_or_less_operands(x)
        if pq is None:
            return None
        dt = self.ins[pq[0]].dtype
        m = self.new("s")
        srcs = self.ops([self.v(pq[0]), self.v(pq[1])], dt)
        self.E(f"v_cmp_nge_{FLOAT_SUFFIX[dt]}", m, *self.legal(srcs, 1 if dt is F64 else 2))
        return m

    def compare(self, i, op, dt, vals):
        a, b = vals
        if dt.is_float:
            sfx = FLOAT_SUFFIX[dt]
            cond = "lt" if op is Op.CMPLT else "neq"
            m = self.new("s")
            self.E(f"v_cmp_{cond}_{sfx}", m, *self.legal(self.ops([a, b], dt)))
            return m
        signed = dt.kind == "i"
        if op is Op.CMPLT:
            cond = "lt_i" if signed else "lt_u"
        else:
            cond = "ne_u" if self.f.uniform[i] is False or dt is I64 else "lg_u"
        if self.f.uniform[i] and dt is not I64:
            sa, sb = self.ops([a, b], dt)
            if isinstance(sa, str) and isinstance(sb, str):
                sa = self.op1("s_mov_b32", "s", sa)
            self.E(f"s_cmp_{cond}32", sa, sb, ndef=0, imp_def=("scc",))
            return self.op1("s_cselect_b32", "s", "-1", "0")
        bits = 64 if dt is I64 else 32
        m = self.new("s")
        self.E(f"v_cmp_{cond}{bits}", m, *self.legal(self.ops([a, b], dt), 1 if bits == 64 else 2))
        return m

    # ---- select --------------------------------------------------------------------------
    def where(self, i, x):
        from .isel import Val
        c, a, b = self.srcs(x)
        dt = x.dtype
        if c.reg is None:
            return a if c.const else b
        if dt is BOOL:
            return Val(dt, reg=self.bool_where(c.reg, a, b))
        if self.f.uniform[i]:
            self.E("s_cmp_lg_u32", c.reg, "0", ndef=0, imp_def=("scc",))
            sa, sb = self.ops([a, b], dt)
            return Val(dt, reg=self.op1("s_cselect_b32", "s", sa, sb))
        if dt.itemsize == 8:
            d = self.new("v", 2)
            for h in range(2):
                pa = a.reg[h] if a.reg is not None else self.const_text(a.const, dt, h)
                pb = b.reg[h] if b.reg is not None else self.const_text(b.const, dt, h)
                self.E("v_cndmask_b32", d[h], *self.legal([pb, pa, c.reg], keep=(2,)))
            return Val(dt, reg=d)
        oa, ob = self.ops([a, b], dt)
        return Val(dt, reg=self.valu("v_cndmask_b32", [ob, oa, c.reg]))

    # ---- booleans ------------------------------------------------------------------------
    def bool_op(self, op, vals):
        a, b = vals
        ma, mb = self.mask(a), self.mask(b)
        name = {Op.AND: "s_and_b32", Op.MUL: "s_and_b32", Op.OR: "s_or_b32", Op.MAX: "s_or_b32",
                Op.ADD: "s_or_b32", Op.XOR: "s_xor_b32", Op.CMPNE: "s_xor_b32"}.get(op)
        if name is not None:
            if isinstance(ma, str) and isinstance(mb, str):
                ma = self.op1("s_mov_b32", "s", ma)
            return self.op1(name, "s", ma, mb)
        if op is Op.CMPLT:                     # a < b  ==  !a & b
            if isinstance(mb, str):
                mb = self.op1("s_mov_b32", "s", mb)
            return self.op1("s_and_not1_b32", "s", mb, ma)
        raise ValueError(f"{op.value} on booleans")

    def bool_where(self, c, a, b):
        ma, mb = self.mask(a), self.mask(b)
        t1 = self.op1("s_and_b32", "s", c, ma)
        t2 = self.op1("s_and_not1_b32", "s", mb, c) if not isinstance(mb, str) else \
            self.op1("s_and_not1_b32", "s", self.op1("s_mov_b32", "s", mb), c)
        return self.op1("s_or_b32", "s", t1, t2)

    # ---- 32-bit and smaller integers -----------------------------------------------------
    def salu_int(self, op, dt, a, b, a_idx):
        signed = dt.kind == "i"
        sa, sb = self.ops([a, b], dt)
        if isinstance(sa, str) and isinstance(sb, str):
            sa = self.op1("s_mov_b32", "s", sa)
        if op in (Op.IDIV, Op.MOD):
            return self.normalize(self.div_const(op, dt, a, int(b.const), "s", a_idx), dt, "s")
        if op in (Op.SHL, Op.SHR) and dt in SMALL:
            sb = self.op1("s_and_b32", "s", sb, str(dt.bits - 1)) if not isinstance(sb, str) \
                else str(int(b.const) & (dt.bits - 1))
        name = {Op.ADD: "s_add_i32", Op.MUL: "s_mul_i32", Op.AND: "s_and_b32", Op.OR: "s_or_b32",
                Op.XOR: "s_xor_b32", Op.SHL: "s_lshl_b32",
                Op.SHR: "s_ashr_i32" if signed else "s_lshr_b32",
                Op.MAX: "s_max_i32" if signed else "s_max_u32"}[op]
        r = self.op1(name, "s", sa, sb)
        return self.normalize(r, dt, "s") if op in (Op.ADD, Op.MUL, Op.SHL) else r

    def valu_int(self, op, dt, a, b, a_idx):
        signed = dt.kind == "i"
        if op in (Op.IDIV, Op.MOD):
            if b.reg is None and int(b.const) != 0:
                r = self.div_const(op, dt, a, int(b.const), "v", a_idx)
            else:
                r = self.div_var32(op, dt, a, b)
            return self.normalize(r, dt)
        oa, ob = self.ops([a, b], dt)
        if op is Op.MUL:
            for p, q, val in ((oa, ob, b), (ob, oa, a)):
                if val.reg is None and _pow2(int(val.const)):
                    r = self.valu("v_lshlrev_b32", [str(_log2(int(val.const))), p])
                    return self.normalize(r, dt)
            r = self.valu("v_mul_lo_u32", [oa, ob])
            return self.normalize(r, dt)
        if op in (Op.SHL, Op.SHR):
            if dt in SMALL:
                ob = str(int(b.const) & (dt.bits - 1)) if b.reg is None else \
                    self.valu("v_and_b32", [str(dt.bits - 1), ob])
            name = "v_lshlrev_b32" if op is Op.SHL else ("v_ashrrev_i32" if signed else "v_lshrrev_b32")
            r = self.valu(name, [ob, oa])
            return self.normalize(r, dt) if op is Op.SHL else r
        name = {Op.ADD: "v_add_nc_u32", Op.AND: "v_and_b32", Op.OR: "v_or_b32", Op.XOR: "v_xor_b32",
                Op.MAX: "v_max_i32" if signed else "v_max_u32"}[op]
        if (isinstance(ob, str) or ob.cls == "s") and not isinstance(oa, str) and oa.cls == "v":
            oa, ob = ob, oa
        r = self.valu(name, [oa, ob])
        return self.normalize(r, dt) if op is Op.ADD else r

    def div_const(self, op, dt, a, c, cls, a_idx):
        """a // c or a % c (C semantics) for a constant c != 0."""
        unsigned = dt.kind == "u" or self.f.nonneg(a_idx)
        P = "s" if cls == "s" else "v"
        x = self.operand(a, dt)
        if isinstance(x, str):
            x = self.op1(f"{P}_mov_b32", P, x)
        if c == 1 or c == -1:
            if op is Op.MOD:
                return self.op1(f"{P}_mov_b32", P, "0")
            return x if c == 1 else self._neg(x, P)
        if unsigned and c > 0:
            if _pow2(c):
                if op is Op.IDIV:
                    return self.op1("s_lshr_b32", "s", x, str(_log2(c))) if P == "s" else \
                        self.valu("v_lshrrev_b32", [str(_log2(c)), x])
                return self.op1("s_and_b32", "s", x, self.iconst(c - 1)) if P == "s" else \
                    self.valu("v_and_b32", [self.iconst(c - 1), x])
            nbits = 32 if dt.kind == "u" else 31
            m, s, add = magic_unsigned(c, nbits)
            if add:
                m, s, add = magic_unsigned(c, 32)
            q = self._mulhi(x, m & 0xFFFFFFFF, P, False)
            if add:                                  # (n - q) >> 1 + q, then >> s-1
                t = self._sub(x, q, P)
                t = self._shr(t, 1, P, False)
                q = self._add(t, q, P)
                s -= 1
            if s:
                q = self._shr(q, s, P, False)
        else:
            if _pow2(abs(c)):
                k = _log2(abs(c))
                sign = self._shr(x, 31, P, True)                      # -1 if negative
                bias = self._shr(sign, 32 - k, P, False) if k else sign  # c-1 if negative
                t = self._add(x, bias, P)
                q = self._shr(t, k, P, True)
            else:
                m, s = magic_signed(abs(c))
                q = self._mulhi(x, m & 0xFFFFFFFF, P, True)
                if m < 0:
                    q = self._add(q, x, P)
                if s:
                    q = self._shr(q, s, P, True)
                t = self._shr(q, 31, P, False)
                q = self._add(q, t, P)
            if c < 0:
                q = self._neg(q, P)
        if op is Op.IDIV:
            return q
        qc = self.op1("s_mul_i32", "s", q, self.iconst(c)) if P == "s" else \
            self.valu("v_mul_lo_u32", [q, self.iconst(c)])
        return self._sub(x, qc, P)

    def _mulhi(self, x, m, P, signed):
        name = f"{P}_mul_hi_{'i' if signed else 'u'}32"
        return self.op1(name, "s", x, self.iconst(m)) if P == "s" else self.valu(name, [x, self.iconst(m)])

    def _shr(self, x, k, P, arith):
        if P == "s":
            return self.op1("s_ashr_i32" if arith else "s_lshr_b32", "s", x, str(k))
        return self.valu("v_ashrrev_i32" if arith else "v_lshrrev_b32", [str(k), x])

    def _add(self, x, y, P):
        return self.op1("s_add_i32", "s", x, y) if P == "s" else self.valu("v_add_nc_u32", [x, y])

    def _sub(self, x, y, P):
        return self.op1("s_sub_i32", "s", x, y) if P == "s" else self.valu("v_sub_nc_u32", [x, y])

    def _neg(self, x, P):
        return self.op1("s_sub_i32", "s", "0", x) if P == "s" else self.valu("v_sub_nc_u32", ["0", x])

    def div_var32(self, op, dt, a, b):
        """32-bit division by a per-lane or uniform variable: float reciprocal + two fixups."""
        signed = dt.kind == "i"
        x, y = self.vgpr(a, dt), self.vgpr(b, dt)
        if signed:
            sx = self.valu("v_ashrrev_i32", ["31", x])
            sy = self.valu("v_ashrrev_i32", ["31", y])
            x = self.valu("v_sub_nc_u32", [self.valu("v_xor_b32", [sx, x]), sx])
            y = self.valu("v_sub_nc_u32", [self.valu("v_xor_b32", [sy, y]), sy])
        f = self.valu("v_cvt_f32_u32", [y])
        r = self.valu("v_rcp_iflag_f32", [f])
        r = self.valu("v_mul_f32", ["0x4f7ffffe", r])
        r = self.valu("v_cvt_u32_f32", [r])
        ny = self.valu("v_sub_nc_u32", ["0", y])
        t = self.valu("v_mul_lo_u32", [ny, r])
        t = self.valu("v_mul_hi_u32", [r, t])
        r = self.valu("v_add_nc_u32", [r, t])
        q = self.valu("v_mul_hi_u32", [x, r])
        for _ in range(2):
            qy = self.valu("v_mul_lo_u32", [q, y])
            rem = self.valu("v_sub_nc_u32", [x, qy])
            m = self.new("s")
            self.E("v_cmp_ge_u32", m, rem, y)
            q1 = self.valu("v_add_nc_u32", ["1", q])
            q = self.valu("v_cndmask_b32", [q, q1, m])
        if op is Op.MOD:
            qy = self.valu("v_mul_lo_u32", [q, y])
            res = self.valu("v_sub_nc_u32", [x, qy])
            if signed:                                  # the remainder takes x's sign
                res = self.valu("v_sub_nc_u32", [self.valu("v_xor_b32", [sx, res]), sx])
            return res
        if signed:
            s = self.valu("v_xor_b32", [sx, sy])
            q = self.valu("v_sub_nc_u32", [self.valu("v_xor_b32", [s, q]), s])
        return q

    # ---- 64-bit integers -----------------------------------------------------------------
    def halves(self, val):
        if val.reg is not None:
            return val.reg[0], val.reg[1]
        return self.const_text(val.const, I64, 0), self.const_text(val.const, I64, 1)

    def int64_op(self, op, vals):
        a, b = vals
        (al, ah), (bl, bh) = self.halves(a), self.halves(b)
        d = self.new("v", 2)
        if op is Op.ADD:
            self.E("v_add_co_u32", d.lo, "vcc_lo", *self.legal([al, bl]), ndef=2)
            self.E("v_add_co_ci_u32", d.hi, "vcc_lo", *self.legal([ah, bh], 1), "vcc_lo", ndef=2)
            return d
        if op is Op.MUL:
            self.E("v_mad_u64_u32", d, "null", *self.legal([al, bl]), "0", ndef=2)
            t1 = self.valu("v_mul_lo_u32", [al, bh])
            t2 = self.valu("v_mul_lo_u32", [ah, bl])
            self.E("v_add3_u32", d.hi, d.hi, t1, t2)
            return d
        if op in (Op.AND, Op.OR, Op.XOR):
            name = {Op.AND: "v_and_b32", Op.OR: "v_or_b32", Op.XOR: "v_xor_b32"}[op]
            self.E(name, d.lo, *self.legal([al, bl]))
            self.E(name, d.hi, *self.legal([ah, bh]))
            return d
        if op in (Op.SHL, Op.SHR):
            name = "v_lshlrev_b64" if op is Op.SHL else "v_ashrrev_i64"
            av = a.reg if a.reg is not None else self.vgpr(a, I64)
            self.E(name, d, *self.legal([bl, av], 1))
            return d
        if op is Op.MAX:
            m = self.new("s")
            oa, ob = self.operand(a, I64), self.operand(b, I64)
            self.E("v_cmp_gt_i64", m, *self.legal([oa, ob], 1))
            self.E("v_cndmask_b32", d.lo, *self.legal([bl, al, m], keep=(2,)))
            self.E("v_cndmask_b32", d.hi, *self.legal([bh, ah, m], keep=(2,)))
            return d
        if op in (Op.IDIV, Op.MOD):
            return self.idiv64(op, a, b)
        raise ValueError(f"{op.value} on int64")

    def idiv64(self, op, a, b):
        """Signed 64-bit division: shift-subtract long division, one quotient bit per turn of a
        64-iteration loop."""
        x, y = self.vgpr(a, I64), self.vgpr(b, I64)
        sx = self.valu("v_ashrrev_i32", ["31", x[1]])
        sy = self.valu("v_ashrrev_i32", ["31", y[1]])
        n, dv = self._abs64(x, sx), self._abs64(y, sy)
        q, r = self.new("v", 2), self.new("v", 2)
        self.E("v_mov_b32", q.lo, n.lo)
        self.E("v_mov_b32", q.hi, n.hi)
        self.E("v_mov_b32", r.lo, "0")
        self.E("v_mov_b32", r.hi, "0")
        counter = self.new("s")
        self.E("s_mov_b32", counter, "-64")
        loop = self.code.open_loop()
        label = self.code.label()
        saved = self.at
        self.at = self.code.depth
        loop.head = self.E("label", label, ndef=0)
        top = self.valu("v_lshrrev_b32", ["31", q.hi])
        self.E("v_lshlrev_b64", r, "1", r)
        self.E("v_or_b32", r.lo, r.lo, top)
        self.E("v_lshlrev_b64", q, "1", q)
        m = self.new("s")
        self.E("v_cmp_ge_u64", m, r, dv)
        t = self.new("v", 2)
        self.E("v_sub_co_u32", t.lo, "vcc_lo", r.lo, dv.lo, ndef=2)
        self.E("v_sub_co_ci_u32", t.hi, "vcc_lo", r.hi, dv.hi, "vcc_lo", ndef=2)
        self.E("v_cndmask_b32", r.lo, r.lo, t.lo, m)
        self.E("v_cndmask_b32", r.hi, r.hi, t.hi, m)
        self.E("v_cndmask_b32", top, "0", "1", m)
        self.E("v_or_b32", q.lo, q.lo, top)
        self.E("s_add_u32", counter, counter, "1", imp_def=("scc",))
        loop.latch = self.E("s_cbranch_scc0", label, ndef=0, imp_use=("scc",))
        self.code.close_loop()
        self.at = saved
        if op is Op.MOD:
            return self._abs64(r, sx)                 # negate if x was negative
        s = self.valu("v_xor_b32", [sx, sy])
        return self._abs64(q, s)

    def _abs64(self, x, s):
        """(x ^ s) - s on 64 bits, with s = 0 or -1 (both halves): |x| or its negation."""
        t = self.new("v", 2)
        self.E("v_xor_b32", t.lo, s, x[0])
        self.E("v_xor_b32", t.hi, s, x[1])
        d = self.new("v", 2)
        self.E("v_sub_co_u32", d.lo, "vcc_lo", t.lo, s, ndef=2)
        self.E("v_sub_co_ci_u32", d.hi, "vcc_lo", t.hi, s, "vcc_lo", ndef=2)
        return d

    # ---- accumulators --------------------------------------------------------------------
    def acc_add(self, acc, dt, v_i):
        if dt is BOOL:
            self.E("s_or_b32", acc, acc, self.mask(self.v(v_i)))
            return
        if dt.is_float and dt is not BF16:
            m = self.fusable_mul(v_i, dt)
            if m is not None:
                oa, ob = self.ops(m, dt)
                if dt is F64:
                    self.E("v_fma_f64", acc, *self.legal([oa, ob]), acc)
                else:
                    if isinstance(ob, str) or ob.cls == "s":
                        oa, ob = ob, oa
                    self.E(f"v_fmac_{FLOAT_SUFFIX[dt]}", acc, *self.legal([oa, ob]))
                return
        v = self.v(v_i)
        if dt.is_float:
            sfx = FLOAT_SUFFIX[dt]
            ov = self.operand(v, dt)
            size = 2 if dt is F64 else 1
            if size == 2:
                self.E("v_add_f64", acc, acc, ov)
            else:
                self.E(f"v_add_{sfx}", acc, ov, acc)
                if dt is BF16:
                    r = self.round_bf16(acc)
                    self.E("v_mov_b32", acc, r)
            return
        if dt is I64:
            vl, vh = self.halves(v)
            self.E("v_add_co_u32", acc.lo, "vcc_lo", acc.lo, vl, ndef=2)
            self.E("v_add_co_ci_u32", acc.hi, "vcc_lo", *self.legal([vh, acc.hi], 1), "vcc_lo", ndef=2)
            return
        self.E("v_add_nc_u32", acc, self.operand(v, dt), acc)
        if dt in SMALL:
            self.E("v_mov_b32", acc, self.normalize(acc, dt))

    def acc_max(self, acc, dt, v_i):
        v = self.v(v_i)
        if dt is BOOL:
            self.E("s_or_b32", acc, acc, self.mask(v))
            return
        from .isel import Val
        if dt.is_float:
            self.fmax(dt, Val(dt, reg=acc), v, dst=acc)
        elif dt is I64:
            r = self.int64_op(Op.MAX, [Val(dt, reg=acc), v])
            self.E("v_mov_b32", acc.lo, r.lo)
            self.E("v_mov_b32", acc.hi, r.hi)
        else:
            self.valu("v_max_i32" if dt.kind == "i" else "v_max_u32", [self.operand(v, dt), acc], dst=acc)

    def unsupported(self, i, x):
        from .isel import SelectError
        return SelectError(f"{self.k.name}: %{i} {x.op.value} {x.dtype.name} is not supported")
