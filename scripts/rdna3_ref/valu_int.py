from .core import (M32, _half_in, _half_out, defop, sat, signext_from_bit, sx, ux)


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
