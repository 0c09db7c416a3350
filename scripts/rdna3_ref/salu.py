import struct

from .core import (bit, signext_from_bit, sx, ux)
from .valu_int import (_cls, _clz, _ctz, _popcount)


# ---- SALU --------------------------------------------------------------------------------------

SALU = {}


def salu(name, nbits, srcs=None, scc_in=False):
    """SOP1/SOP2 semantics: fn(a[, b][, scc]) -> (result, scc or None)."""
    def reg(fn):
        SALU[name] = (nbits, srcs, fn, scc_in)
        return fn
    return reg


def _s(name, nbits, fn, srcs=None, scc_in=False):
    salu(name, nbits, srcs, scc_in)(fn)


def _nz(v):
    return int(v != 0)


_s("s_add_u32", 32, lambda a, b: (ux(a + b, 32), int(a + b >= 1 << 32)))
_s("s_sub_u32", 32, lambda a, b: (ux(a - b, 32), int(b > a)))
_s("s_addc_u32", 32, lambda a, b, c: (ux(a + b + c, 32), int(a + b + c >= 1 << 32)), scc_in=True)
_s("s_subb_u32", 32, lambda a, b, c: (ux(a - b - c, 32), int(b + c > a)), scc_in=True)


def _add_i32(a, b):
    t = ux(sx(a, 32) + sx(b, 32), 32)
    return t, int(bit(a, 31) == bit(b, 31) and bit(a, 31) != bit(t, 31))


def _sub_i32(a, b):
    t = ux(sx(a, 32) - sx(b, 32), 32)
    return t, int(bit(a, 31) != bit(b, 31) and bit(a, 31) != bit(t, 31))


_s("s_add_i32", 32, _add_i32)
_s("s_sub_i32", 32, _sub_i32)


def _absdiff_i32(a, b):
    d = ux(sx(a, 32) - sx(b, 32), 32)
    if sx(d, 32) < 0:
        d = ux(-sx(d, 32), 32)
    return d, _nz(d)


_s("s_absdiff_i32", 32, _absdiff_i32)
for _n in (1, 2, 3, 4):
    _s("s_lshl%d_add_u32" % _n, 32, lambda a, b, n=_n: (ux((a << n) + b, 32), int((a << n) + b >= 1 << 32)))
# s_min / s_max: SCC = S0 < S1 (min), S0 >= S1 (max); D = SCC ? S0 : S1 -- the pseudocode's
# comparisons, so equal operands set SCC for s_max and clear it for s_min
_s("s_min_u32", 32, lambda a, b: (a if a < b else b, int(a < b)))
_s("s_max_u32", 32, lambda a, b: (a if a >= b else b, int(a >= b)))
_s("s_min_i32", 32, lambda a, b: (a if sx(a, 32) < sx(b, 32) else b, int(sx(a, 32) < sx(b, 32))))
_s("s_max_i32", 32, lambda a, b: (a if sx(a, 32) >= sx(b, 32) else b, int(sx(a, 32) >= sx(b, 32))))
_s("s_bfm_b32", 32, lambda a, b: (ux(((1 << (a & 31)) - 1) << (b & 31), 32), None))
_s("s_bfm_b64", 64, lambda a, b: (ux(((1 << (a & 63)) - 1) << (b & 63), 64), None), srcs=(32, 32))
_s("s_mul_i32", 32, lambda a, b: (ux(sx(a, 32) * sx(b, 32), 32), None))
_s("s_mul_hi_u32", 32, lambda a, b: ((a * b) >> 32, None))
_s("s_mul_hi_i32", 32, lambda a, b: (ux((sx(a, 32) * sx(b, 32)) >> 32, 32), None))
_s("s_cselect_b32", 32, lambda a, b, c: (a if c else b, None), scc_in=True)
_s("s_cselect_b64", 64, lambda a, b, c: (a if c else b, None), scc_in=True)
_s("s_pack_ll_b32_b16", 32, lambda a, b: ((a & 0xFFFF) | (b & 0xFFFF) << 16, None))
_s("s_pack_lh_b32_b16", 32, lambda a, b: ((a & 0xFFFF) | (b >> 16) << 16, None))
_s("s_pack_hh_b32_b16", 32, lambda a, b: ((a >> 16) | (b >> 16) << 16, None))
_s("s_pack_hl_b32_b16", 32, lambda a, b: ((a >> 16) | (b & 0xFFFF) << 16, None))
for _bits in (32, 64):
    _m = (1 << _bits) - 1
    for _nm, _fn in (("and", lambda a, b: a & b), ("or", lambda a, b: a | b), ("xor", lambda a, b: a ^ b),
                     ("nand", lambda a, b: ~(a & b)), ("nor", lambda a, b: ~(a | b)),
                     ("xnor", lambda a, b: ~(a ^ b)), ("and_not1", lambda a, b: a & ~b),
                     ("or_not1", lambda a, b: a | ~b)):
        _s("s_%s_b%d" % (_nm, _bits), _bits, lambda a, b, f=_fn, m=_m: (f(a, b) & m, _nz(f(a, b) & m)))
    _sh = _bits - 1
    _s("s_lshl_b%d" % _bits, _bits, lambda a, b, m=_m, sh=_sh: ((a << (b & sh)) & m, _nz((a << (b & sh)) & m)),
       srcs=(_bits, 32))
    _s("s_lshr_b%d" % _bits, _bits, lambda a, b, sh=_sh: (a >> (b & sh), _nz(a >> (b & sh))), srcs=(_bits, 32))
    _s("s_ashr_i%d" % _bits, _bits, lambda a, b, n=_bits, sh=_sh: (ux(sx(a, n) >> (b & sh), n),
                                                                   _nz(ux(sx(a, n) >> (b & sh), n))),
       srcs=(_bits, 32))

    def _sbfe_u(a, b, n=_bits):
        off = b & (n - 1)
        w = b >> 16 & 0x7F
        r = (a >> off) & ((1 << w) - 1) & ((1 << n) - 1)
        return r, _nz(r)

    def _sbfe_i(a, b, n=_bits):
        """tmp = (S0.i >> S1[offset]) & ((1 << width) - 1); D = signext_from_bit(tmp, width):
        the shift is arithmetic, so a field reaching past the top bit is filled with the sign."""
        off = b & (n - 1)
        w = b >> 16 & 0x7F
        tmp = (sx(a, n) >> off) & ((1 << w) - 1)
        r = signext_from_bit(tmp, w, n)
        return r, _nz(r)
    _s("s_bfe_u%d" % _bits, _bits, _sbfe_u, srcs=(_bits, 32))
    _s("s_bfe_i%d" % _bits, _bits, _sbfe_i, srcs=(_bits, 32))

# SOP1
_s("s_mov_b32", 32, lambda a: (a, None))
_s("s_mov_b64", 64, lambda a: (a, None))
_s("s_brev_b32", 32, lambda a: (int("{:032b}".format(a)[::-1], 2), None))
_s("s_brev_b64", 64, lambda a: (int("{:064b}".format(a)[::-1], 2), None))
_s("s_ctz_i32_b32", 32, lambda a: (ux(_ctz(a, 32), 32), None))
_s("s_ctz_i32_b64", 32, lambda a: (ux(_ctz(a, 64), 32), None), srcs=(64,))
_s("s_clz_i32_u32", 32, lambda a: (ux(_clz(a, 32), 32), None))
_s("s_clz_i32_u64", 32, lambda a: (ux(_clz(a, 64), 32), None), srcs=(64,))
_s("s_cls_i32", 32, lambda a: (ux(_cls(a, 32), 32), None))
_s("s_cls_i32_i64", 32, lambda a: (ux(_cls(a, 64), 32), None), srcs=(64,))
_s("s_sext_i32_i8", 32, lambda a: (ux(sx(a, 8), 32), None))
_s("s_sext_i32_i16", 32, lambda a: (ux(sx(a, 16), 32), None))
_s("s_bitreplicate_b64_b32", 64, lambda a: (sum(3 << (2 * i) for i in range(32) if a >> i & 1), None),
   srcs=(32,))
_s("s_bcnt0_i32_b32", 32, lambda a: (32 - _popcount(a), _nz(32 - _popcount(a))))
_s("s_bcnt0_i32_b64", 32, lambda a: (64 - _popcount(a), _nz(64 - _popcount(a))), srcs=(64,))
_s("s_bcnt1_i32_b32", 32, lambda a: (_popcount(a), _nz(_popcount(a))))
_s("s_bcnt1_i32_b64", 32, lambda a: (_popcount(a), _nz(_popcount(a))), srcs=(64,))


def _quadmask(a, n):
    r = sum(1 << i for i in range(n // 4) if a >> (4 * i) & 0xF)
    return r, _nz(r)


def _wqm(a, n):
    r = sum(1 << i for i in range(n) if a >> (i & 0x3C) & 0xF)
    return r, _nz(r)


_s("s_quadmask_b32", 32, lambda a: _quadmask(a, 32))
_s("s_quadmask_b64", 64, lambda a: _quadmask(a, 64))
_s("s_wqm_b32", 32, lambda a: _wqm(a, 32))
_s("s_wqm_b64", 64, lambda a: _wqm(a, 64))
_s("s_not_b32", 32, lambda a: (ux(~a, 32), _nz(ux(~a, 32))))
_s("s_not_b64", 64, lambda a: (ux(~a, 64), _nz(ux(~a, 64))))
_s("s_abs_i32", 32, lambda a: (ux(abs(sx(a, 32)), 32), _nz(ux(abs(sx(a, 32)), 32))))

# SOPC: SCC only
SOPC = {}
for _p, _fn in (("eq", lambda a, b: a == b), ("lg", lambda a, b: a != b), ("gt", lambda a, b: a > b),
                ("ge", lambda a, b: a >= b), ("lt", lambda a, b: a < b), ("le", lambda a, b: a <= b)):
    SOPC["s_cmp_%s_i32" % _p] = (32, lambda a, b, f=_fn: int(f(sx(a, 32), sx(b, 32))))
    SOPC["s_cmp_%s_u32" % _p] = (32, lambda a, b, f=_fn: int(f(a, b)))
    if _p in ("eq", "lg"):
        SOPC["s_cmp_%s_u64" % _p] = (64, lambda a, b, f=_fn: int(f(a, b)))
SOPC["s_bitcmp0_b32"] = (32, lambda a, b: int(not a >> (b & 31) & 1))
SOPC["s_bitcmp1_b32"] = (32, lambda a, b: int(a >> (b & 31) & 1))
SOPC["s_bitcmp0_b64"] = (64, lambda a, b: int(not a >> (b & 63) & 1))
SOPC["s_bitcmp1_b64"] = (64, lambda a, b: int(a >> (b & 63) & 1))

# SOPK (SIMM16 as S1; D0 read for addk/mulk/cmovk)
SOPK = {
    "s_movk_i32": lambda d, k, scc: (ux(sx(k, 16), 32), None),
    "s_cmovk_i32": lambda d, k, scc: (ux(sx(k, 16), 32) if scc else d, None),
    "s_addk_i32": lambda d, k, scc: (ux(sx(d, 32) + sx(k, 16), 32),
                                     int(bit(d, 31) == bit(k, 15) and bit(d, 31) != bit(ux(sx(d, 32) + sx(k, 16), 32), 31))),
    "s_mulk_i32": lambda d, k, scc: (ux(sx(d, 32) * sx(k, 16), 32), None),
}
for _p, _fn in (("eq", lambda a, b: a == b), ("lg", lambda a, b: a != b), ("gt", lambda a, b: a > b),
                ("ge", lambda a, b: a >= b), ("lt", lambda a, b: a < b), ("le", lambda a, b: a <= b)):
    SOPK["s_cmpk_%s_i32" % _p] = lambda d, k, scc, f=_fn: (None, int(f(sx(d, 32), sx(k, 16))))
    SOPK["s_cmpk_%s_u32" % _p] = lambda d, k, scc, f=_fn: (None, int(f(d, k & 0xFFFF)))


def f32_bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]
