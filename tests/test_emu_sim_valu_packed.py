"""VOP3P: v_pk_* with op_sel / op_sel_hi / neg_lo / neg_hi, dot products, v_fma_mix*."""
import random
from fractions import Fraction

import numpy as np
import pytest

from test_emu_sim_valu_util import (bits_f32, exact, f16_bits, f32_bits, flat, lanes,
                                    round_fraction, run)


def pk(lo, hi):
    return (lo & 0xFFFF) | ((hi & 0xFFFF) << 16)


def halves(v):
    return v & 0xFFFF, v >> 16


def is_nan16(h):
    return (h & 0x7C00) == 0x7C00 and h & 0x3FF


F16_VALUES = [0x3C00, 0xC000, 0x3555, 0x7BFF, 0x0001, 0x8000, 0x7C00, 0x4900, 0xB3FF, 0x1400]
PK_FLOAT = {
    "v_pk_add_f16": (2, lambda a, b: a + b),
    "v_pk_mul_f16": (2, lambda a, b: a * b),
    "v_pk_fma_f16": (3, lambda a, b, c: a * b + c),
}


def rand_regs(n, seed):
    rng = random.Random(seed)
    return [[pk(rng.choice(F16_VALUES), rng.choice(F16_VALUES)) for _ in range(64)]
            for _ in range(n)]


def sel16(v, high):
    return (v >> 16) & 0xFFFF if high else v & 0xFFFF


@pytest.mark.parametrize("opsel,opsel_hi,neg,neg_hi", [(0, 0b111, 0, 0), (0b011, 0b000, 0, 0),
                                                       (0b101, 0b010, 0b011, 0b110)])
@pytest.mark.parametrize("name", sorted(PK_FLOAT))
def test_pk_float_ops(name, opsel, opsel_hi, neg, neg_hi):
    n, f = PK_FLOAT[name]
    regs = rand_regs(n, hash(name) & 0xFF)
    got = flat(run(name, [lanes(r) for r in regs], opsel=opsel, opsel_hi=opsel_hi, neg=neg,
                   neg_hi=neg_hi))
    for i, g in enumerate(got):
        for lane_hi, sel, ng in ((0, opsel, neg), (1, opsel_hi, neg_hi)):
            ops = []
            for k in range(n):
                h = sel16(regs[k][i], sel >> k & 1) ^ (0x8000 if ng >> k & 1 else 0)
                ops.append(exact(h, "f16") if not h & 0x7C00 == 0x7C00 else None)
            res = (g >> 16) if lane_hi else g & 0xFFFF
            if None in ops:
                continue                              # inf operands: covered by the f16 tests
            want = round_fraction(f(*ops), "f16")
            if f(*ops) == 0:
                continue                              # zero signs: covered elsewhere
            assert res == want, (name, i, lane_hi, hex(g), hex(want))


def test_pk_min_max_f16_per_lane_ieee_rules():
    a = lanes([pk(0x7D00, 0x8000), pk(0x3C00, 0x0000)])    # (sNaN, -0), (1, +0)
    b = lanes([pk(0x4000, 0x0000), pk(0x7E00, 0x8000)])    # (2, +0), (qNaN, -0)
    mn = flat(run("v_pk_min_f16", [a, b]))[:2]
    mx = flat(run("v_pk_max_f16", [a, b]))[:2]
    assert mn == [pk(0x7F00, 0x8000), pk(0x3C00, 0x8000)]
    assert mx == [pk(0x7F00, 0x0000), pk(0x3C00, 0x0000)]


def test_pk_fma_clamp_and_fmac():
    a = lanes([pk(f16_bits(1.5), f16_bits(-1.5))])
    b = lanes([pk(f16_bits(1.0), f16_bits(1.0))])
    c = lanes([pk(0, f16_bits(0.25))])
    assert flat(run("v_pk_fma_f16", [a, b, c], clamp=True))[0] == pk(0x3C00, 0)
    old = lanes([pk(f16_bits(0.5), f16_bits(2.0))])
    assert flat(run("v_pk_fmac_f16", [a, b], old=old))[0] == pk(f16_bits(2.0), f16_bits(0.5))


def s16(v):
    return v - 0x10000 if v >> 15 else v


PK_INT = {
    "v_pk_add_u16": (2, lambda a, b: a + b, False), "v_pk_sub_u16": (2, lambda a, b: a - b, False),
    "v_pk_add_i16": (2, lambda a, b: a + b, True), "v_pk_sub_i16": (2, lambda a, b: a - b, True),
    "v_pk_max_u16": (2, max, False), "v_pk_min_u16": (2, min, False),
    "v_pk_max_i16": (2, max, True), "v_pk_min_i16": (2, min, True),
    "v_pk_mad_u16": (3, lambda a, b, c: a * b + c, False),
    "v_pk_mad_i16": (3, lambda a, b, c: a * b + c, True),
    "v_pk_mul_lo_u16": (2, lambda a, b: a * b, False),
    "v_pk_lshlrev_b16": (2, lambda a, b: b << (a & 15), False),
    "v_pk_lshrrev_b16": (2, lambda a, b: b >> (a & 15), False),
    "v_pk_ashrrev_i16": (2, lambda a, b: b >> (a & 15), True),
}


@pytest.mark.parametrize("opsel,opsel_hi", [(0, 0b111), (0b111, 0b000), (0b010, 0b101)])
@pytest.mark.parametrize("name", sorted(PK_INT))
def test_pk_int_ops(name, opsel, opsel_hi):
    n, f, signed = PK_INT[name]
    rng = random.Random(hash(name) & 0xFF)
    edge = [0, 1, 15, 16, 17, 0x7FFF, 0x8000, 0xFFFF, 0x00FF]
    regs = [[pk(rng.choice(edge), rng.getrandbits(16)) if rng.random() < .5 else rng.getrandbits(32)
             for _ in range(64)] for _ in range(n)]
    conv = s16 if signed and "shr" not in name and "shl" not in name else (lambda v: v)
    got = flat(run(name, [lanes(r) for r in regs], opsel=opsel, opsel_hi=opsel_hi))
    for i, g in enumerate(got):
        for lane_hi, sel in ((0, opsel), (1, opsel_hi)):
            ops = [sel16(regs[k][i], sel >> k & 1) for k in range(n)]
            if name == "v_pk_ashrrev_i16":
                want = s16(ops[1]) >> (ops[0] & 15)
            else:
                want = f(*map(conv, ops))
            assert (g >> 16 if lane_hi else g & 0xFFFF) == want & 0xFFFF, (name, i, lane_hi)


def test_pk_int_clamp_saturates_each_lane():
    a, b = lanes([pk(0xFFF0, 0x7FF0)]), lanes([pk(0x0020, 0x0020)])
    assert flat(run("v_pk_add_u16", [a, b], clamp=True))[0] == pk(0xFFFF, 0x8010)
    assert flat(run("v_pk_add_i16", [a, b], clamp=True))[0] == pk(0x0010, 0x7FFF)


# ---- dot products -------------------------------------------------------------------------------
def test_dot2_f32_f16_sequential_f32_rounding_with_modifiers():
    rng = random.Random(21)
    A = [pk(rng.choice(F16_VALUES[:5] + [0x4900]), rng.choice(F16_VALUES[:5])) for _ in range(64)]
    B = [pk(rng.choice(F16_VALUES[:5]), rng.choice(F16_VALUES[:5] + [0x1400])) for _ in range(64)]
    C = [f32_bits(rng.uniform(-100, 100)) for _ in range(64)]
    for neg, neg_hi in ((0, 0), (0b101, 0b010)):
        got = flat(run("v_dot2_f32_f16", [lanes(A), lanes(B), lanes(C)], neg=neg, neg_hi=neg_hi))
        for a, b, c, g in zip(A, B, C, got):
            sg = lambda k, lane: -1 if (neg_hi if lane else neg) >> k & 1 else 1
            lo = exact(a & 0xFFFF, "f16") * exact(b & 0xFFFF, "f16") * sg(0, 0) * sg(1, 0)
            hi = exact(a >> 16, "f16") * exact(b >> 16, "f16") * sg(0, 1) * sg(1, 1)
            t = round_fraction(exact(c) * sg(2, 0) + lo)
            assert g == round_fraction(exact(t) + hi), (hex(a), hex(b), hex(c))
    acc = flat(run("v_dot2acc_f32_f16", [lanes(A), lanes(B)], old=lanes(C)))
    assert acc == flat(run("v_dot2_f32_f16", [lanes(A), lanes(B), lanes(C)]))


def bf16(x):
    """float -> bf16 bits, round to nearest even (independent integer rounding)."""
    b = f32_bits(x)
    return ((b + 0x7FFF + ((b >> 16) & 1)) >> 16) & 0xFFFF


def bf16_value(h):
    return bits_f32(h << 16)


def test_dot2_bf16_forms():
    rng = random.Random(4)
    vals = [bf16(rng.uniform(-8, 8)) for _ in range(256)]
    A = [pk(vals[i], vals[i + 64]) for i in range(64)]
    B = [pk(vals[i + 128], vals[i + 192]) for i in range(64)]
    C = [f32_bits(rng.uniform(-10, 10)) for _ in range(64)]
    got = flat(run("v_dot2_f32_bf16", [lanes(A), lanes(B), lanes(C)]))
    for a, b, c, g in zip(A, B, C, got):
        t = np.float32(bits_f32(c)) + np.float32(bf16_value(a & 0xFFFF) * bf16_value(b & 0xFFFF))
        t = np.float32(t) + np.float32(bf16_value(a >> 16) * bf16_value(b >> 16))
        assert g == f32_bits(float(t))
    C16 = [bf16(bits_f32(c)) | 0x55550000 for c in C]
    got = flat(run("v_dot2_bf16_bf16", [lanes(A), lanes(B), lanes(C16)]))
    for a, b, c, g in zip(A, B, C16, got):
        p0 = bf16_value(bf16(bf16_value(a & 0xFFFF) * bf16_value(b & 0xFFFF)))
        p1 = bf16_value(bf16(bf16_value(a >> 16) * bf16_value(b >> 16)))
        t = bf16_value(bf16(float(np.float32(bf16_value(c & 0xFFFF) + p0))))
        assert g == bf16(float(np.float32(t + p1))), (hex(a), hex(b), hex(c))   # old = 0


def test_dot2_f16_f16_rounds_in_f16():
    A, B = lanes([pk(0x3C00, 0x4000)]), lanes([pk(0x4200, 0x3800)])      # 1*3 + 2*0.5
    C = lanes([0xABCD0000 | 0x3C00])                                     # + 1
    assert flat(run("v_dot2_f16_f16", [A, B, C]))[0] == 0x00000000 | f16_bits(5.0)
    old = lanes([0x11112222])
    assert flat(run("v_dot2_f16_f16", [A, B, C], old=old, opsel=0b1000))[0] == \
        (f16_bits(5.0) << 16) | 0x2222


@pytest.mark.parametrize("name,width,count", [("v_dot4_i32_iu8", 8, 4), ("v_dot4_u32_u8", 8, 4),
                                              ("v_dot8_i32_iu4", 4, 8), ("v_dot8_u32_u4", 4, 8)])
def test_integer_dots_with_signedness_and_clamp(name, width, count):
    rng = random.Random(width)
    A, B = [rng.getrandbits(32) for _ in range(64)], [rng.getrandbits(32) for _ in range(64)]
    C = [rng.choice([0, 0x7FFFFF00, 0x80000010, 5, 0xFFFFFF00]) for _ in range(64)]
    signed_form = "_i32_" in name
    for neg in ((0, 1, 2, 3) if signed_form else (0,)):
        for clamp in (False, True):
            got = flat(run(name, [lanes(A), lanes(B), lanes(C)], neg=neg, clamp=clamp))
            for a, b, c, g in zip(A, B, C, got):
                el = lambda v, k, s: ((v >> (width * k)) & ((1 << width) - 1)) - \
                    ((1 << width) if s and (v >> (width * k + width - 1)) & 1 else 0)
                acc = c - (1 << 32) if signed_form and c >> 31 else c
                t = acc + sum(el(a, k, neg & 1) * el(b, k, neg >> 1 & 1) for k in range(count))
                if clamp:
                    t = max(-2**31, min(2**31 - 1, t)) if signed_form else max(0, min(2**32 - 1, t))
                assert g == t & 0xFFFFFFFF, (name, neg, clamp)


# ---- fma_mix ------------------------------------------------------------------------------------
def test_fma_mix_selects_f16_or_f32_per_source():
    a16 = pk(f16_bits(1.5), f16_bits(-2.0))
    b32 = f32_bits(1.0 + 2**-20)
    c16 = pk(f16_bits(0.25), f16_bits(3.0))
    A, B, C = lanes([a16]), lanes([b32]), lanes([c16])
    # src0: f16 high half (-2.0); src1: f32; src2: f16 low half (0.25)
    got = flat(run("v_fma_mix_f32", [A, B, C], opsel=0b001, opsel_hi=0b101))[0]
    assert got == round_fraction(Fraction(-2) * exact(b32) + Fraction(1, 4))
    # neg_lo negates, neg_hi takes |x|: -|(-2.0)| * b + 0.25
    got = flat(run("v_fma_mix_f32", [A, B, C], opsel=0b001, opsel_hi=0b101, neg=1, neg_hi=1))[0]
    assert got == round_fraction(Fraction(-2) * exact(b32) + Fraction(1, 4))
    got = flat(run("v_fma_mix_f32", [A, B, C], opsel=0b001, opsel_hi=0b101, neg_hi=1))[0]
    assert got == round_fraction(Fraction(2) * exact(b32) + Fraction(1, 4))
    old = lanes([0x12345678])
    lo = flat(run("v_fma_mixlo_f16", [A, B, C], opsel=0b001, opsel_hi=0b101, old=old))[0]
    want16 = round_fraction(Fraction(-2) * exact(b32) + Fraction(1, 4), "f16")
    assert lo == 0x12340000 | want16
    hi = flat(run("v_fma_mixhi_f16", [A, B, C], opsel=0b001, opsel_hi=0b101, old=old))[0]
    assert hi == (want16 << 16) | 0x5678
    clamped = flat(run("v_fma_mix_f32", [A, B, C], opsel=0b001, opsel_hi=0b101, clamp=True))[0]
    assert clamped == 0


COVERED = set(PK_FLOAT) | set(PK_INT) | {
    "v_pk_min_f16", "v_pk_max_f16", "v_pk_fmac_f16", "v_dot2_f32_f16", "v_dot2acc_f32_f16",
    "v_dot2_f32_bf16", "v_dot2_bf16_bf16", "v_dot2_f16_f16", "v_dot4_i32_iu8", "v_dot4_u32_u8",
    "v_dot8_i32_iu4", "v_dot8_u32_u4", "v_fma_mix_f32", "v_fma_mixlo_f16", "v_fma_mixhi_f16"}
