"""32-bit integer VALU ops: add/sub with carries, multiplies, min/max, shifts, logic, bit counts.

ISA rules: shift counts use S[4:0] only; the carry out of v_add_co* is the 33rd bit of the sum,
the borrow of v_sub_co* is S1 (+ borrow in) > S0; the clamp bit saturates integer adds and subs
(unsigned to [0, 0xffffffff], signed v_*_nc_i32 to the int32 range), and v_mad_{u32_u24,i32_i24};
24-bit multiplies read the low 24 bits of each source (sign-extended for i24).
"""
import numpy as np

from .bits import U32, U64, i32, popcount, sext
from .registry import integer_op as op

M32 = 0xFFFFFFFF
_U31, _U1, _U64_32, _U32_32 = U32(31), U32(1), U64(32), U32(32)   # made once: the ops run per instruction


def _u(x):
    return x.astype(np.int64)


def _s(x):
    return i32(x).astype(np.int64)


def _wrap(v):
    return v.astype(U32)               # integer casts keep the low 32 bits


def _sat_u(ctx, v):
    return _wrap(np.clip(v, 0, M32) if ctx.clamp else v)


def _sat_i(ctx, v):
    return _wrap(np.clip(v, -2**31, 2**31 - 1) if ctx.clamp else v)


def _binop(name, f):
    op(name, (32, 32))(lambda ctx, srcs, old: f(ctx, srcs[0], srcs[1]))


def _ternop(name, f):
    op(name, (32, 32, 32))(lambda ctx, srcs, old: f(ctx, srcs[0], srcs[1], srcs[2]))


# ---- add / sub -----------------------------------------------------------------------------------
# without clamp the sums wrap: uint32 arithmetic is exact modulo 2**32
_binop("v_add_nc_u32", lambda ctx, a, b: _sat_u(ctx, _u(a) + _u(b)) if ctx.clamp else a + b)
_binop("v_sub_nc_u32", lambda ctx, a, b: _sat_u(ctx, _u(a) - _u(b)) if ctx.clamp else a - b)
_binop("v_subrev_nc_u32", lambda ctx, a, b: _sat_u(ctx, _u(b) - _u(a)) if ctx.clamp else b - a)
_binop("v_add_nc_i32", lambda ctx, a, b: _sat_i(ctx, _s(a) + _s(b)))
_binop("v_sub_nc_i32", lambda ctx, a, b: _sat_i(ctx, _s(a) - _s(b)))
_ternop("v_add3_u32", lambda ctx, a, b, c: a + b + c)
_ternop("v_xad_u32", lambda ctx, a, b, c: (a ^ b) + c)
_ternop("v_lshl_add_u32", lambda ctx, a, b, c: (a << (b & U32(31))) + c)
_ternop("v_add_lshl_u32", lambda ctx, a, b, c: (a + b) << (c & U32(31)))


def _carry_op(name, f, carry_in, f32):
    """f: the 64-bit model (used under clamp); f32: the same in wrapping uint32 arithmetic."""
    saturated = M32 if "add" in name else 0

    @op(name, (32, 32), 32, mask_in=carry_in, mask_out=True)
    def run(ctx, srcs, old):
        if not ctx.clamp:
            return f32(srcs[0], srcs[1], ctx.mask if carry_in else None)
        cin = ctx.mask.astype(np.int64) if carry_in else 0
        d, carry = f(_u(srcs[0]), _u(srcs[1]), cin)
        if ctx.clamp:                                    # saturate instead of wrapping
            d = np.where(carry, saturated, d)
        return _wrap(d), carry
    return run


def _add(a, b, cin):
    t = a + b + cin
    return t, t > M32


def _sub(a, b, cin):
    return a - b - cin, (b + cin) > a


def _add32(a, b, cin):
    """a + b (+ cin) wrapped, and the carry out (the sum wrapped past 2**32)."""
    t = a + b
    carry = t < a
    if cin is not None:
        d = t + cin
        carry |= d < t
        t = d
    return t, carry


def _sub32(a, b, cin):
    """a - b (- cin) wrapped, and the borrow (b + cin > a)."""
    t = a - b
    borrow = b > a
    if cin is not None:
        borrow |= t < cin
        t = t - cin
    return t, borrow


_carry_op("v_add_co_u32", _add, False, _add32)
_carry_op("v_sub_co_u32", _sub, False, _sub32)
_carry_op("v_subrev_co_u32", lambda a, b, c: _sub(b, a, c), False, lambda a, b, c: _sub32(b, a, c))
_carry_op("v_add_co_ci_u32", _add, True, _add32)
_carry_op("v_sub_co_ci_u32", _sub, True, _sub32)
_carry_op("v_subrev_co_ci_u32", lambda a, b, c: _sub(b, a, c), True, lambda a, b, c: _sub32(b, a, c))


# ---- multiplies -------------------------------------------------------------------------------
def _u24(x):
    return _u(x) & 0xFFFFFF


def _i24(x):
    return sext(x, 24)


_binop("v_mul_u32_u24", lambda ctx, a, b: _wrap(_u24(a) * _u24(b)))
_binop("v_mul_hi_u32_u24", lambda ctx, a, b: _wrap((_u24(a) * _u24(b)) >> 32))
_binop("v_mul_i32_i24", lambda ctx, a, b: _wrap(_i24(a) * _i24(b)))
_binop("v_mul_hi_i32_i24", lambda ctx, a, b: _wrap((_i24(a) * _i24(b)) >> 32))
_binop("v_mul_lo_u32", lambda ctx, a, b: a * b)                  # the low 32 bits, wrapped
_binop("v_mul_hi_u32", lambda ctx, a, b: ((a.astype(U64) * b.astype(U64)) >> _U64_32).astype(U32))
_binop("v_mul_hi_i32", lambda ctx, a, b: _wrap((_s(a) * _s(b)) >> 32))
_ternop("v_mad_u32_u24", lambda ctx, a, b, c: _sat_u(ctx, _u24(a) * _u24(b) + _u(c)))
_ternop("v_mad_i32_i24", lambda ctx, a, b, c: _sat_i(ctx, _i24(a) * _i24(b) + _s(c)))


@op("v_mad_u64_u32", (32, 32, 64), 64, mask_out=True)
def v_mad_u64_u32(ctx, srcs, old):
    """{carry, D.u64} = S0.u32 * S1.u32 + S2.u64 (65-bit result)."""
    p = srcs[0].astype(U64) * srcs[1].astype(U64)             # < 2**64, exact
    d = p + srcs[2]
    carry = d < p
    if ctx.clamp:
        d = np.where(carry, U64(2**64 - 1), d)
    return d, carry


@op("v_mad_i64_i32", (32, 32, 64), 64, mask_out=True)
def v_mad_i64_i32(ctx, srcs, old):
    """{D1.i1, D.i64} = S0.i32 * S1.i32 + S2.i64: the carry is bit 64 of the 65-bit signed sum."""
    p = _s(srcs[0]) * _s(srcs[1])                                # fits int64
    c = srcs[2].view(np.int64)
    with np.errstate(over="ignore"):
        d = p + c
    # 65-bit two's complement: bit 64 = sign of the true sum
    overflow = ((p >= 0) == (c >= 0)) & ((d >= 0) != (p >= 0))
    sign65 = np.where(overflow, p < 0, d < 0)
    if ctx.clamp:
        d = np.where(overflow, np.where(p < 0, -2**63, 2**63 - 1), d)
    return d.view(U64), sign65


# ---- min / max --------------------------------------------------------------------------------
def _signed(x):
    """uint32 bits viewed as int32 (no copy when they are uint32 already)."""
    return x.view(np.int32) if isinstance(x, np.ndarray) and x.dtype == U32 else i32(x)


def _min_s(a, b):
    return np.minimum(_signed(a), _signed(b)).view(U32)


def _max_s(a, b):
    return np.maximum(_signed(a), _signed(b)).view(U32)


_binop("v_min_i32", lambda ctx, a, b: _min_s(a, b))
_binop("v_max_i32", lambda ctx, a, b: _max_s(a, b))
_binop("v_min_u32", lambda ctx, a, b: np.minimum(a, b))
_binop("v_max_u32", lambda ctx, a, b: np.maximum(a, b))
_ternop("v_min3_i32", lambda ctx, a, b, c: _min_s(_min_s(a, b), c))
_ternop("v_max3_i32", lambda ctx, a, b, c: _max_s(_max_s(a, b), c))
_ternop("v_min3_u32", lambda ctx, a, b, c: np.minimum(np.minimum(a, b), c))
_ternop("v_max3_u32", lambda ctx, a, b, c: np.maximum(np.maximum(a, b), c))
_ternop("v_med3_i32", lambda ctx, a, b, c: _max_s(_min_s(a, b), _min_s(_max_s(a, b), c)))
_ternop("v_med3_u32", lambda ctx, a, b, c: np.maximum(np.minimum(a, b),
                                                      np.minimum(np.maximum(a, b), c)))
_ternop("v_minmax_i32", lambda ctx, a, b, c: _max_s(_min_s(a, b), c))
_ternop("v_maxmin_i32", lambda ctx, a, b, c: _min_s(_max_s(a, b), c))
_ternop("v_minmax_u32", lambda ctx, a, b, c: np.maximum(np.minimum(a, b), c))
_ternop("v_maxmin_u32", lambda ctx, a, b, c: np.minimum(np.maximum(a, b), c))


# ---- shifts and logic -------------------------------------------------------------------------
_binop("v_lshlrev_b32", lambda ctx, a, b: b << (a & _U31))
_binop("v_lshrrev_b32", lambda ctx, a, b: b >> (a & _U31))
_binop("v_ashrrev_i32", lambda ctx, a, b: (i32(b) >> (a & U32(31)).astype(np.int32)).view(U32))
_binop("v_and_b32", lambda ctx, a, b: a & b)
_binop("v_or_b32", lambda ctx, a, b: a | b)
_binop("v_xor_b32", lambda ctx, a, b: a ^ b)
_binop("v_xnor_b32", lambda ctx, a, b: ~(a ^ b))
_ternop("v_lshl_or_b32", lambda ctx, a, b, c: (a << (b & U32(31))) | c)
_ternop("v_and_or_b32", lambda ctx, a, b, c: (a & b) | c)
_ternop("v_or3_b32", lambda ctx, a, b, c: a | b | c)
_ternop("v_xor3_b32", lambda ctx, a, b, c: a ^ b ^ c)
op("v_not_b32", (32,))(lambda ctx, srcs, old: ~srcs[0])


# each byte's bits reversed
_REV8 = np.array([int(f"{i:08b}"[::-1], 2) for i in range(256)], np.uint8)


def _bfrev(x):
    """The bits of each uint32 reversed: each byte through the table, the bytes in reverse order."""
    shape = np.shape(x)
    x = np.ascontiguousarray(x, U32)
    rev = _REV8[x.reshape(-1).view(np.uint8).reshape(-1, 4)][:, ::-1]
    return np.ascontiguousarray(rev).view(U32).reshape(shape)


def clz32(x):
    """Leading zeros of each uint32 (32 for zero), as int64: 32 less the exponent frexp gives
    its value (exact in float64; frexp(0) has exponent 0)."""
    return 32 - np.frexp(np.asarray(x, U32).astype(np.float64))[1].astype(np.int64)


def ctz32(x):
    return np.where(x == 0, 32, popcount((x & (~x + U32(1))) - U32(1)))


op("v_bfrev_b32", (32,))(lambda ctx, srcs, old: _bfrev(srcs[0]))
# v_clz_i32_u32 / v_ctz_i32_b32 / v_cls_i32 return -1 when no bit qualifies
op("v_clz_i32_u32", (32,))(lambda ctx, srcs, old: _wrap(np.where(srcs[0] == 0, -1, clz32(srcs[0]))))
op("v_ctz_i32_b32", (32,))(lambda ctx, srcs, old: _wrap(np.where(srcs[0] == 0, -1, ctz32(srcs[0]))))


@op("v_cls_i32", (32,))
def v_cls_i32(ctx, srcs, old):
    """Count of leading bits equal to the sign bit (from bit 30 down), -1 for 0 and -1."""
    x = srcs[0]
    flipped = np.where(x >> U32(31) != 0, ~x, x)
    return _wrap(np.where(flipped == 0, -1, clz32(flipped)))


_binop("v_bcnt_u32_b32", lambda ctx, a, b: _wrap(popcount(a) + _u(b)))
_binop("v_bfm_b32", lambda ctx, a, b: _wrap(((1 << (_u(a) & 31)) - 1) << (_u(b) & 31)))


@op("v_mbcnt_lo_u32_b32", (32, 32))
def v_mbcnt_lo_u32_b32(ctx, srcs, old):
    """S1 + the number of bits of S0 (lanes 0..31 of a mask) below this lane."""
    lane = ctx.lane.astype(np.int64)
    below = np.where(lane >= 32, M32, (1 << np.minimum(lane, 32)) - 1)
    return _wrap(popcount(_u(srcs[0]) & below) + _u(srcs[1]))


@op("v_mbcnt_hi_u32_b32", (32, 32))
def v_mbcnt_hi_u32_b32(ctx, srcs, old):
    """S1 + the number of bits of S0 (lanes 32..63 of a mask) below this lane (wave64 half)."""
    lane = ctx.lane.astype(np.int64)
    below = np.where(lane < 32, 0, (1 << np.clip(lane - 32, 0, 32)) - 1)
    return _wrap(popcount(_u(srcs[0]) & below) + _u(srcs[1]))


# ---- bitfields ---------------------------------------------------------------------------------
def _bfe_u(a, b, c):
    off, width = _u(b) & 31, _u(c) & 31
    return (_u(a) >> off) & ((1 << width) - 1)


_ternop("v_bfe_u32", lambda ctx, a, b, c: (a >> (b & _U31)) & ((_U1 << (c & _U31)) - _U1))


@op("v_bfe_i32", (32, 32, 32))
def v_bfe_i32(ctx, srcs, old):
    """(S0.i32 >> S1[4:0]) & ((1 << S2[4:0]) - 1), sign-extended from bit width-1: the shift is
    arithmetic, so a field reaching past bit 31 is filled with the sign."""
    a, b, c = srcs
    # the low width bits of the arithmetic shift moved to the top and back (numpy shifts an
    # int32 by 32 to 0: a zero width gives 0)
    field = np.right_shift(np.asarray(a, U32).view(np.int32), np.bitwise_and(b, _U31).view(np.int32))
    up = np.subtract(_U32_32, np.bitwise_and(c, _U31)).view(np.int32)
    return np.right_shift(np.left_shift(field, up), up).view(U32)


_ternop("v_bfi_b32", lambda ctx, a, b, c: (a & b) | (~a & c))
_ternop("v_alignbit_b32", lambda ctx, a, b, c:
        ((a.astype(U64) << U64(32) | b.astype(U64)) >> (c & U32(31)).astype(U64)).astype(U32))
_ternop("v_alignbyte_b32", lambda ctx, a, b, c:
        ((a.astype(U64) << U64(32) | b.astype(U64)) >> ((c & U32(3)) * U32(8)).astype(U64))
        .astype(U32))


@op("v_perm_b32", (32, 32, 32))
def v_perm_b32(ctx, srcs, old):
    """Each result byte picks by selector S2 byte from {S0, S1} (S1 = bytes 0..3): 0-7 a byte,
    8-11 the sign of byte 1/3/5/7 replicated, 12 -> 0x00, >= 13 -> 0xff.  One table of the 14
    bytes a selector can name per lane, indexed by the four selectors."""
    if not srcs[0].shape == srcs[1].shape == srcs[2].shape:
        srcs = np.broadcast_arrays(*srcs)
    s0, s1, s2 = (np.ascontiguousarray(x, U32) for x in srcs)
    shape = s0.shape
    table = np.empty((s0.size, 16), np.uint8)
    table[:, 0:4] = s1.reshape(-1, 1).view(np.uint8)                 # little-endian bytes
    table[:, 4:8] = s0.reshape(-1, 1).view(np.uint8)
    table[:, 8:12] = (table[:, 1:8:2] >> np.uint8(7)) * np.uint8(0xFF)
    table[:, 12], table[:, 13] = 0, 0xFF
    # the selectors as indices into the flat table: row * 16 + min(selector, 13)
    pick = np.minimum(s2.reshape(-1, 1).view(np.uint8), np.uint8(13)).astype(np.intp)
    pick += _ROWS16[:s0.size] if s0.size <= _ROWS16.shape[0] else np.arange(0, 16 * s0.size, 16)[:, None]
    return np.take(table.reshape(-1), pick).view(U32).reshape(shape)


_ROWS16 = np.arange(0, 16 * 4096, 16, dtype=np.intp)[:, None]       # row offsets of the table


# ---- byte arithmetic: lerp and sums of absolute differences ---------------------------------
def _bytes(x):
    return [(_u(x) >> (8 * k)) & 0xFF for k in range(4)]


@op("v_lerp_u8", (32, 32, 32))
def v_lerp_u8(ctx, srcs, old):
    """Per byte: (S0 + S1 + rounding bit S2[8k]) >> 1."""
    a, b = _bytes(srcs[0]), _bytes(srcs[1])
    r = _u(srcs[2])
    return _wrap(sum(((a[k] + b[k] + (r >> (8 * k) & 1)) >> 1) << (8 * k) for k in range(4)))


def sad_u8(a, b, acc, masked=False):
    """sum |a_k - b_k| over the 4 bytes (+ acc); masked: skip bytes where b_k == 0 (msad)."""
    total = acc
    for x, y in zip(_bytes(a), _bytes(b)):
        d = np.abs(x - y)
        total = total + (np.where(y == 0, 0, d) if masked else d)
    return total


_ternop("v_sad_u8", lambda ctx, a, b, c: _wrap(sad_u8(a, b, _u(c))))
_ternop("v_msad_u8", lambda ctx, a, b, c: _wrap(sad_u8(a, b, _u(c), masked=True)))
_ternop("v_sad_hi_u8", lambda ctx, a, b, c: _wrap((sad_u8(a, b, 0) << 16) + _u(c)))
_ternop("v_sad_u16", lambda ctx, a, b, c: _wrap(
    np.abs((_u(a) & 0xFFFF) - (_u(b) & 0xFFFF)) + np.abs((_u(a) >> 16) - (_u(b) >> 16)) + _u(c)))
_ternop("v_sad_u32", lambda ctx, a, b, c: _wrap(np.abs(_u(a) - _u(b)) + _u(c)))


def _quad_sad(s0, s1, acc, masked):
    """The four (m)sad_u8 of S1 against the byte windows S0[8k+31:8k], k = 0..3."""
    return [sad_u8(((s0 >> U64(8 * k)) & U64(M32)).astype(U32), s1, acc(k), masked)
            for k in range(4)]


@op("v_qsad_pk_u16_u8", (64, 32, 64), 64)
def v_qsad_pk_u16_u8(ctx, srcs, old):
    s2 = srcs[2]
    sums = _quad_sad(srcs[0], srcs[1], lambda k: ((s2 >> U64(16 * k)) & U64(0xFFFF))
                     .astype(np.int64), False)
    return sum(((v & 0xFFFF).astype(U64) << U64(16 * k)) for k, v in enumerate(sums))


@op("v_mqsad_pk_u16_u8", (64, 32, 64), 64)
def v_mqsad_pk_u16_u8(ctx, srcs, old):
    s2 = srcs[2]
    sums = _quad_sad(srcs[0], srcs[1], lambda k: ((s2 >> U64(16 * k)) & U64(0xFFFF))
                     .astype(np.int64), True)
    return sum(((v & 0xFFFF).astype(U64) << U64(16 * k)) for k, v in enumerate(sums))


@op("v_mqsad_u32_u8", (64, 32, 128), 128)
def v_mqsad_u32_u8(ctx, srcs, old):
    """S2 and D are 4-dword tuples: uint32 (W, 4, 32)."""
    s2 = srcs[2]
    sums = _quad_sad(srcs[0], srcs[1], lambda k: _u(s2[:, k]), True)
    return np.stack([_wrap(v) for v in sums], axis=1)

