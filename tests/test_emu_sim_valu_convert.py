"""Conversions: saturation, NaN -> 0, rounding of narrowing conversions, packed forms."""
import math
import struct
from fractions import Fraction

import numpy as np
import pytest

from test_emu_sim_valu_util import (bits_f16, bits_f32, exact, f16_bits, f32_bits, f64_bits, flat,
                                    lanes, round_fraction, run)

NAN32, NAN64, INF32, NINF32 = 0x7FC00000, 0x7FF8000000000000, 0x7F800000, 0xFF800000
FLOATS = [0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.7, 1e10, -1e10, 2.0**31, -2.0**31,
          2.0**31 - 128, 4294967040.0, 2.0**32, 65535.9, 1e-30, 0.49999997]


def sat_trunc(x, lo, hi):
    if math.isnan(x):
        return 0
    if math.isinf(x):
        return hi if x > 0 else lo
    return min(max(math.trunc(x), lo), hi)


def f32(x):
    return bits_f32(f32_bits(x))


@pytest.mark.parametrize("name,lo,hi", [("v_cvt_i32_f32", -2**31, 2**31 - 1),
                                        ("v_cvt_u32_f32", 0, 2**32 - 1)])
def test_f32_to_int_truncates_and_saturates(name, lo, hi):
    vals = [f32_bits(v) for v in FLOATS] + [NAN32, INF32, NINF32, 0xFFC00001]
    got = flat(run(name, [lanes(vals)]))
    for b, g in zip(vals, got):
        assert g == sat_trunc(bits_f32(b), lo, hi) & 0xFFFFFFFF, (name, bits_f32(b), g)


@pytest.mark.parametrize("name,lo,hi", [("v_cvt_i32_f64", -2**31, 2**31 - 1),
                                        ("v_cvt_u32_f64", 0, 2**32 - 1)])
def test_f64_to_int_truncates_and_saturates(name, lo, hi):
    vals = [f64_bits(v) for v in FLOATS + [2.0**31 - 0.5, -2.0**31 - 0.9, 4294967295.99]]
    vals += [NAN64, f64_bits(math.inf), f64_bits(-math.inf)]
    got = flat(run(name, [lanes(vals, np.uint64)]))
    for b, g in zip(vals, got):
        x = struct.unpack("<d", struct.pack("<Q", b))[0]
        assert g == sat_trunc(x, lo, hi) & 0xFFFFFFFF, (name, x, g)


def test_nearest_and_floor_conversions():
    vals = [2.5, -2.5, 0.49999997, -0.5, 1e10, -1e10, 3.7, -3.2]
    bits = lanes([f32_bits(v) for v in vals] + [NAN32])
    nearest = [g - (1 << 32) if g >> 31 else g for g in flat(run("v_cvt_nearest_i32_f32", [bits]))]
    # floor(S0 + 0.5) with the add in f32: 0.49999997 + 0.5 rounds to 1.0
    assert nearest[:9] == [3, -2, 1, 0, 2**31 - 1, -2**31, 4, -3, 0]
    floor = [g - (1 << 32) if g >> 31 else g for g in flat(run("v_cvt_floor_i32_f32", [bits]))]
    assert floor[:9] == [2, -3, 0, -1, 2**31 - 1, -2**31, 3, -4, 0]


def test_int_to_float_rounds_to_nearest_even():
    ints = [0, 1, -1, 16777217, 16777219, 2**31 - 1, -2**31, 123456789]
    got = flat(run("v_cvt_f32_i32", [lanes([i & 0xFFFFFFFF for i in ints])]))
    assert got[:8] == [round_fraction(Fraction(i)) for i in ints]
    uints = [0, 0xFFFFFFFF, 16777217, 0x80000001]
    assert flat(run("v_cvt_f32_u32", [lanes(uints)]))[:4] == [round_fraction(Fraction(u)) for u in uints]
    assert flat(run("v_cvt_f64_i32", [lanes([i & 0xFFFFFFFF for i in ints])]))[:8] == \
        [f64_bits(float(i)) for i in ints]
    assert flat(run("v_cvt_f64_u32", [lanes(uints)]))[:4] == [f64_bits(float(u)) for u in uints]


def test_16_bit_int_to_f16():
    vals = [0, 1, 2049, 0x7FFF, 0x8000, 0xFFFF]
    reg = lanes(vals)
    f16_i = [g & 0xFFFF for g in flat(run("v_cvt_f16_i16", [reg]))[:6]]
    signed = [v - 0x10000 if v >> 15 else v for v in vals]
    assert f16_i == [round_fraction(Fraction(s), "f16") for s in signed]
    f16_u = [g & 0xFFFF for g in flat(run("v_cvt_f16_u16", [reg]))[:6]]
    assert f16_u == [round_fraction(Fraction(v), "f16") for v in vals]     # 65535 -> inf
    hi = lanes([v << 16 for v in vals])
    assert [g & 0xFFFF for g in flat(run("v_cvt_f16_u16", [hi], opsel=1))[:6]] == f16_u


def test_off_f32_i4_and_ubytes():
    got = flat(run("v_cvt_off_f32_i4", [lanes(list(range(16)) + [0x1F7])]))
    want = [f32_bits((n - 16 if n >= 8 else n) / 16) for n in range(16)] + [f32_bits(7 / 16)]
    assert got[:17] == want
    word = lanes([0x80FF0104])
    for k, b in enumerate((0x04, 0x01, 0xFF, 0x80)):
        assert flat(run("v_cvt_f32_ubyte%d" % k, [word]))[0] == f32_bits(float(b))


def test_f32_to_f16_rounding_denormals_overflow_and_modes():
    vals = [1.0, 1.0 + 2**-11, 1.0 + 3 * 2**-11, 65504.0, 65519.99, 65520.0, 1e-5, 2.0**-25,
            3 * 2.0**-26, -2.0**-24, 1e-8, -0.0]
    bits = [f32_bits(v) for v in vals]
    old = lanes([0x77770000])
    got = flat(run("v_cvt_f16_f32", [lanes(bits)], old=old))
    for b, g in zip(bits, got):
        assert g >> 16 == 0x7777
        want = round_fraction(exact(b), "f16") | (0x8000 if b >> 31 else 0)
        assert g & 0xFFFF == want, (bits_f32(b), hex(g))
    nan = flat(run("v_cvt_f16_f32", [lanes([0x7F800001])]))[0] & 0xFFFF
    assert (nan & 0x7C00) == 0x7C00 and nan & 0x200
    flushed = flat(run("v_cvt_f16_f32", [lanes([f32_bits(1e-5), f32_bits(-1e-5)])],
                       denorm_f16_64=False))[:2]
    assert [g & 0xFFFF for g in flushed] == [0, 0x8000]
    dn32 = flat(run("v_cvt_f16_f32", [lanes([0x00000001])], denorm_f32=False))[0]
    assert dn32 & 0xFFFF == 0


def test_f16_to_f32_and_f64_f32():
    halves = [0x3C00, 0x0001, 0x8001, 0x7C00, 0x7E01, 0xFBFF]
    got = flat(run("v_cvt_f32_f16", [lanes(halves)]))[:6]
    assert got[:3] == [f32_bits(1.0), f32_bits(2.0**-24), f32_bits(-2.0**-24)]
    assert got[3] == INF32 and got[4] == 0x7FC02000 and got[5] == f32_bits(-65504.0)
    assert flat(run("v_cvt_f32_f16", [lanes([0x0001])], denorm_f16_64=False))[0] == 0
    assert flat(run("v_cvt_f32_f16", [lanes([0x3C00 << 16])], opsel=1))[0] == f32_bits(1.0)
    d = [f64_bits(v) for v in (0.1, 1e300, 1e-320, -1.5, 2.0**-149 * 1.5)]
    got = flat(run("v_cvt_f32_f64", [lanes(d, np.uint64)]))[:5]
    assert got == [round_fraction(exact(b, "f64")) for b in d]
    s = [f32_bits(v) for v in (0.1, -3e38, 2.0**-149)]
    assert flat(run("v_cvt_f64_f32", [lanes(s)]))[:3] == [f64_bits(bits_f32(b)) for b in s]


def test_f16_to_16_bit_ints_and_norms():
    vals = [1.5, -1.5, 40000.0, -40000.0, 0.5, -1.0, 2.0, 0.25]
    reg = lanes([f16_bits(v) for v in vals] + [0x7E00])
    i16 = [g & 0xFFFF for g in flat(run("v_cvt_i16_f16", [reg]))[:9]]
    assert i16 == [1, 0xFFFF, 0x7FFF, 0x8000, 0, 0xFFFF, 2, 0, 0]
    u16 = [g & 0xFFFF for g in flat(run("v_cvt_u16_f16", [reg]))[:9]]
    assert u16 == [1, 0, 40000, 0, 0, 0, 2, 0, 0]
    sn = [g & 0xFFFF for g in flat(run("v_cvt_norm_i16_f16", [reg]))[:9]]
    snorm = lambda v: round(max(-1.0, min(1.0, v)) * 32767) & 0xFFFF       # Python round: ties even
    assert sn == [snorm(v) for v in vals] + [0]
    un = [g & 0xFFFF for g in flat(run("v_cvt_norm_u16_f16", [reg]))[:9]]
    assert un == [round(max(0.0, min(1.0, v)) * 65535) for v in vals] + [0]


def test_16_to_32_bit_extensions_and_sat_pk():
    reg = lanes([0x8001FFFE, 0x00017FFF])
    assert flat(run("v_cvt_i32_i16", [reg]))[:2] == [0xFFFFFFFE, 0x7FFF]
    assert flat(run("v_cvt_i32_i16", [reg], opsel=1))[:2] == [0xFFFF8001, 1]
    assert flat(run("v_cvt_u32_u16", [reg]))[:2] == [0xFFFE, 0x7FFF]
    sat = flat(run("v_sat_pk_u8_i16", [lanes([(300 << 16) | 0xFFF6, (77 << 16) | 255])],
                   old=lanes([0xAAAA0000])))[:2]
    assert sat == [0xAAAA0000 | (255 << 8) | 0, 0xAAAA0000 | (77 << 8) | 255]


def rtz16(x):
    """f32 -> f16 toward zero by truncating the exact value's binary expansion."""
    if x == 0:
        return f16_bits(x)
    r = round_fraction(Fraction(x), "f16")
    if abs(Fraction(bits_f16(r)) if r & 0x7C00 != 0x7C00 else Fraction(10**30)) > abs(Fraction(x)):
        r -= 1                                           # one ulp toward zero (same sign)
    return r


def test_cvt_pk_rtz_f16_f32():
    a = [1.0 + 3 * 2**-11, -(1.0 + 3 * 2**-11), 65520.0, 1e-8, -2.5, 1.0 + 2**-12]
    b = [0.1, -0.1, -1e9, 3.0, 2.0**-24 * 1.9, 7.0]
    got = flat(run("v_cvt_pk_rtz_f16_f32", [lanes([f32_bits(v) for v in a]),
                                           lanes([f32_bits(v) for v in b])]))[:6]
    for x, y, g in zip(a, b, got):
        assert g == rtz16(f32(x)) | (rtz16(f32(y)) << 16), (x, y, hex(g))


def test_packed_int_conversions():
    fa = [1.7, -40000.5, 1e10, float("nan"), -0.9]
    fb = [-1.2, 70000.0, -7.5, 3.0, 65535.5]
    A, B = lanes([f32_bits(v) for v in fa]), lanes([f32_bits(v) for v in fb])
    pk = lambda lo, hi: (lo & 0xFFFF) | ((hi & 0xFFFF) << 16)
    got = flat(run("v_cvt_pk_i16_f32", [A, B]))[:5]
    assert got == [pk(sat_trunc(f32(x), -2**15, 2**15 - 1), sat_trunc(f32(y), -2**15, 2**15 - 1))
                   for x, y in zip(fa, fb)]
    got = flat(run("v_cvt_pk_u16_f32", [A, B]))[:5]
    assert got == [pk(sat_trunc(f32(x), 0, 65535), sat_trunc(f32(y), 0, 65535)) for x, y in zip(fa, fb)]
    na = [0.5, -1.0, 2.0, float("nan"), -0.25]
    N = lanes([f32_bits(v) for v in na])
    clampr = lambda v, lo, s: 0 if math.isnan(v) else round(max(lo, min(1.0, v)) * s)
    got = flat(run("v_cvt_pk_norm_i16_f32", [N, A]))[:5]
    assert got == [pk(clampr(x, -1, 32767), clampr(f32(y), -1, 32767)) for x, y in zip(na, fa)]
    got = flat(run("v_cvt_pk_norm_u16_f32", [N, A]))[:5]
    assert got == [pk(clampr(x, 0, 65535), clampr(f32(y), 0, 65535)) for x, y in zip(na, fa)]
    H = lanes([f16_bits(v) for v in na])
    got = flat(run("v_cvt_pk_norm_i16_f16", [H, H]))[:5]
    assert got == [pk(clampr(x, -1, 32767), clampr(x, -1, 32767)) for x in na]
    got = flat(run("v_cvt_pk_norm_u16_f16", [H, H]))[:5]
    assert got == [pk(clampr(x, 0, 65535), clampr(x, 0, 65535)) for x in na]
    ua, ub = [5, 70000, 0xFFFFFFFF], [65535, 65536, 0]
    assert flat(run("v_cvt_pk_u16_u32", [lanes(ua), lanes(ub)]))[:3] == \
        [pk(min(x, 65535), min(y, 65535)) for x, y in zip(ua, ub)]
    ia, ib = [5, -70000, 40000], [-32768, 32767, -1]
    got = flat(run("v_cvt_pk_i16_i32", [lanes([v & 0xFFFFFFFF for v in ia]),
                                        lanes([v & 0xFFFFFFFF for v in ib])]))[:3]
    assert got == [pk(max(-32768, min(32767, x)), max(-32768, min(32767, y))) for x, y in zip(ia, ib)]


def test_cvt_pk_u8_f32_inserts_a_byte():
    vals = [17.4, 300.0, -5.0, 2.5, float("nan"), 3.5]
    sel = [0, 1, 2, 3, 1, 6]
    got = flat(run("v_cvt_pk_u8_f32", [lanes([f32_bits(v) for v in vals]), lanes(sel),
                                       lanes([0x11223344])]))[:6]
    for v, s, g in zip(vals, sel, got):
        byte = 0 if math.isnan(v) else max(0, min(255, round(v)))     # ties to even
        sh = 8 * (s & 3)
        assert g == (0x11223344 & ~(0xFF << sh)) | (byte << sh), (v, s, hex(g))
    # the other rounding modes of MODE.FP_ROUND (f32 field): +inf, -inf, toward zero
    for rm, f in ((1, math.ceil), (2, math.floor), (3, math.trunc)):
        got = flat(run("v_cvt_pk_u8_f32", [lanes([f32_bits(v) for v in vals]), lanes([0]),
                                           lanes([0])], round_f32=rm))[:6]
        assert got == [0 if math.isnan(v) else max(0, min(255, f(v))) for v in vals], rm


def test_pack_b32_f16_moves_bits_with_sign_modifiers():
    a, b = lanes([0x12343C01]), lanes([0x0001BC00])
    assert flat(run("v_pack_b32_f16", [a, b]))[0] == (0xBC00 << 16) | 0x3C01
    assert flat(run("v_pack_b32_f16", [a, b], opsel=0b11))[0] == (0x0001 << 16) | 0x1234
    assert flat(run("v_pack_b32_f16", [a, b], neg=1, abs=2))[0] == (0x3C00 << 16) | 0xBC01
    # no flushing: a denormal half stays as is even when f16 denormals are off
    assert flat(run("v_pack_b32_f16", [lanes([1]), lanes([2])], denorm_f16_64=False))[0] == \
        (2 << 16) | 1


COVERED = {"v_cvt_i32_f32", "v_cvt_u32_f32", "v_cvt_i32_f64", "v_cvt_u32_f64",
           "v_cvt_nearest_i32_f32", "v_cvt_floor_i32_f32", "v_cvt_f32_i32", "v_cvt_f32_u32",
           "v_cvt_f64_i32", "v_cvt_f64_u32", "v_cvt_f16_i16", "v_cvt_f16_u16", "v_cvt_off_f32_i4",
           "v_cvt_f32_ubyte0", "v_cvt_f32_ubyte1", "v_cvt_f32_ubyte2", "v_cvt_f32_ubyte3",
           "v_cvt_f16_f32", "v_cvt_f32_f16", "v_cvt_f32_f64", "v_cvt_f64_f32", "v_cvt_i16_f16",
           "v_cvt_u16_f16", "v_cvt_norm_i16_f16", "v_cvt_norm_u16_f16", "v_cvt_i32_i16",
           "v_cvt_u32_u16", "v_sat_pk_u8_i16", "v_cvt_pk_rtz_f16_f32", "v_cvt_pk_i16_f32",
           "v_cvt_pk_u16_f32", "v_cvt_pk_norm_i16_f32", "v_cvt_pk_norm_u16_f32",
           "v_cvt_pk_norm_i16_f16", "v_cvt_pk_norm_u16_f16", "v_cvt_pk_u16_u32",
           "v_cvt_pk_i16_i32", "v_cvt_pk_u8_f32", "v_pack_b32_f16"}
