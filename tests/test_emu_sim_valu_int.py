"""Integer VALU ops against Python integer arithmetic: carries, saturation, shifts >= 32,
multiplies (hi / 24-bit / 64-bit with carry out), bitfields, byte permutes, SADs, bit counts."""
import random

import numpy as np
import pytest

from test_emu_sim_valu_util import W, flat, lanes, run

M32 = 0xFFFFFFFF
EDGE = [0, 1, 2, 31, 32, 33, 63, 64, 0x7FFFFFFF, 0x80000000, 0x80000001, M32, 0xFFFFFFFE,
        0x00FFFFFF, 0x00800000, 0xFF800000, 0x12345678, 0xDEADBEEF, 0x0000FFFF, 0xFFFF0000]


def s32(v):
    v &= M32
    return v - (1 << 32) if v >> 31 else v


def s24(v):
    v &= 0xFFFFFF
    return v - (1 << 24) if v >> 23 else v


def operands(n, k=64, seed=0):
    rng = random.Random(seed)
    cols = []
    for i in range(n):
        col = [rng.choice(EDGE) if rng.random() < 0.5 else rng.getrandbits(32) for _ in range(k)]
        cols.append(col)
    return cols


def bfe_u(a, b, c):
    return (a >> (b & 31)) & ((1 << (c & 31)) - 1)


def bfe_i(a, b, c):
    """The shift is arithmetic (S0.i32 >> offset): a field past bit 31 fills with the sign."""
    w = c & 31
    sa = a - (1 << 32) if a >> 31 else a
    f = (sa >> (b & 31)) & ((1 << w) - 1)
    return (f - (1 << w) if w and f >> (w - 1) else f) & M32


def perm(a, b, c):
    data = (a << 32) | b
    out = 0
    for k in range(4):
        sel = (c >> (8 * k)) & 0xFF
        if sel < 8:
            v = (data >> (8 * sel)) & 0xFF
        elif sel < 12:
            v = 0xFF if (data >> (16 * (sel - 8) + 15)) & 1 else 0
        else:
            v = 0 if sel == 12 else 0xFF
        out |= v << (8 * k)
    return out


def byte_list(v):
    return [(v >> (8 * k)) & 0xFF for k in range(4)]


def sad8(a, b, masked=False):
    return sum(0 if masked and y == 0 else abs(x - y) for x, y in zip(byte_list(a), byte_list(b)))


def median(*v):
    return sorted(v)[1]


INT32 = {  # name: (number of sources, reference on Python ints)
    "v_add_nc_u32": (2, lambda a, b: a + b), "v_sub_nc_u32": (2, lambda a, b: a - b),
    "v_subrev_nc_u32": (2, lambda a, b: b - a),
    "v_add_nc_i32": (2, lambda a, b: s32(a) + s32(b)), "v_sub_nc_i32": (2, lambda a, b: s32(a) - s32(b)),
    "v_add3_u32": (3, lambda a, b, c: a + b + c), "v_xad_u32": (3, lambda a, b, c: (a ^ b) + c),
    "v_lshl_add_u32": (3, lambda a, b, c: ((a << (b & 31)) & M32) + c),
    "v_add_lshl_u32": (3, lambda a, b, c: ((a + b) & M32) << (c & 31)),
    "v_mul_u32_u24": (2, lambda a, b: (a & 0xFFFFFF) * (b & 0xFFFFFF)),
    "v_mul_hi_u32_u24": (2, lambda a, b: ((a & 0xFFFFFF) * (b & 0xFFFFFF)) >> 32),
    "v_mul_i32_i24": (2, lambda a, b: s24(a) * s24(b)),
    "v_mul_hi_i32_i24": (2, lambda a, b: (s24(a) * s24(b)) >> 32),
    "v_mul_lo_u32": (2, lambda a, b: a * b), "v_mul_hi_u32": (2, lambda a, b: (a * b) >> 32),
    "v_mul_hi_i32": (2, lambda a, b: (s32(a) * s32(b)) >> 32),
    "v_mad_u32_u24": (3, lambda a, b, c: (a & 0xFFFFFF) * (b & 0xFFFFFF) + c),
    "v_mad_i32_i24": (3, lambda a, b, c: s24(a) * s24(b) + s32(c)),
    "v_min_i32": (2, lambda a, b: min(s32(a), s32(b))), "v_max_i32": (2, lambda a, b: max(s32(a), s32(b))),
    "v_min_u32": (2, min), "v_max_u32": (2, max),
    "v_min3_i32": (3, lambda *v: min(map(s32, v))), "v_max3_i32": (3, lambda *v: max(map(s32, v))),
    "v_min3_u32": (3, min), "v_max3_u32": (3, max),
    "v_med3_i32": (3, lambda *v: median(*map(s32, v))), "v_med3_u32": (3, median),
    "v_minmax_i32": (3, lambda a, b, c: max(min(s32(a), s32(b)), s32(c))),
    "v_maxmin_i32": (3, lambda a, b, c: min(max(s32(a), s32(b)), s32(c))),
    "v_minmax_u32": (3, lambda a, b, c: max(min(a, b), c)),
    "v_maxmin_u32": (3, lambda a, b, c: min(max(a, b), c)),
    "v_lshlrev_b32": (2, lambda a, b: b << (a & 31)), "v_lshrrev_b32": (2, lambda a, b: b >> (a & 31)),
    "v_ashrrev_i32": (2, lambda a, b: s32(b) >> (a & 31)),
    "v_and_b32": (2, lambda a, b: a & b), "v_or_b32": (2, lambda a, b: a | b),
    "v_xor_b32": (2, lambda a, b: a ^ b), "v_xnor_b32": (2, lambda a, b: ~(a ^ b)),
    "v_lshl_or_b32": (3, lambda a, b, c: (a << (b & 31)) | c),
    "v_and_or_b32": (3, lambda a, b, c: (a & b) | c), "v_or3_b32": (3, lambda a, b, c: a | b | c),
    "v_xor3_b32": (3, lambda a, b, c: a ^ b ^ c), "v_not_b32": (1, lambda a: ~a),
    "v_bfrev_b32": (1, lambda a: int(format(a, "032b")[::-1], 2)),
    "v_clz_i32_u32": (1, lambda a: 32 - a.bit_length() if a else -1),
    "v_ctz_i32_b32": (1, lambda a: (a & -a).bit_length() - 1 if a else -1),
    "v_cls_i32": (1, lambda a: next((i for i in range(1, 32) if (a >> (31 - i) & 1) != a >> 31), -1)),
    "v_bcnt_u32_b32": (2, lambda a, b: bin(a).count("1") + b),
    "v_bfm_b32": (2, lambda a, b: ((1 << (a & 31)) - 1) << (b & 31)),
    "v_bfe_u32": (3, bfe_u), "v_bfe_i32": (3, bfe_i),
    "v_bfi_b32": (3, lambda a, b, c: (a & b) | (~a & c)),
    "v_alignbit_b32": (3, lambda a, b, c: ((a << 32) | b) >> (c & 31)),
    "v_alignbyte_b32": (3, lambda a, b, c: ((a << 32) | b) >> (8 * (c & 3))),
    "v_perm_b32": (3, perm),
    "v_lerp_u8": (3, lambda a, b, c: sum(((x + y + ((c >> (8 * k)) & 1)) >> 1) << (8 * k)
                                         for k, (x, y) in enumerate(zip(byte_list(a), byte_list(b))))),
    "v_sad_u8": (3, lambda a, b, c: sad8(a, b) + c),
    "v_msad_u8": (3, lambda a, b, c: sad8(a, b, True) + c),
    "v_sad_hi_u8": (3, lambda a, b, c: (sad8(a, b) << 16) + c),
    "v_sad_u16": (3, lambda a, b, c: abs((a & 0xFFFF) - (b & 0xFFFF)) + abs((a >> 16) - (b >> 16)) + c),
    "v_sad_u32": (3, lambda a, b, c: abs(a - b) + c),
}


@pytest.mark.parametrize("name", sorted(INT32))
def test_int32_ops(name):
    n, f = INT32[name]
    cols = operands(n, seed=hash(name) & 0xFFFF)
    got = flat(run(name, [lanes(c) for c in cols]))
    for i, g in enumerate(got[:64]):
        args = [c[i] for c in cols]
        assert g == f(*args) & M32, (name, [hex(a) for a in args], hex(g), hex(f(*args) & M32))


def test_shift_counts_use_five_bits():
    counts = lanes([32, 33, 63, 0xFFFFFFE1])
    val = lanes([0x80000001])
    assert flat(run("v_lshlrev_b32", [counts, val]))[:4] == [0x80000001, 2, 0x80000000, 2]
    assert flat(run("v_lshrrev_b32", [counts, val]))[:4] == [0x80000001, 0x40000000, 1, 0x40000000]
    assert flat(run("v_ashrrev_i32", [counts, val]))[:4] == [0x80000001, 0xC0000000, M32, 0xC0000000]


SAT = {"v_add_nc_u32": (0, M32), "v_sub_nc_u32": (0, M32), "v_subrev_nc_u32": (0, M32),
       "v_add_nc_i32": (-2**31, 2**31 - 1), "v_sub_nc_i32": (-2**31, 2**31 - 1),
       "v_mad_u32_u24": (0, M32), "v_mad_i32_i24": (-2**31, 2**31 - 1)}


@pytest.mark.parametrize("name", sorted(SAT))
def test_clamp_saturates_integer_add_sub(name):
    lo, hi = SAT[name]
    n, f = INT32[name]
    cols = operands(n, seed=3)
    got = flat(run(name, [lanes(c) for c in cols], clamp=True))
    for i, g in enumerate(got):
        args = [c[i] for c in cols]
        assert g == max(lo, min(hi, f(*args))) & M32, (name, [hex(a) for a in args])


CARRY = {  # name: (reference value, carry out), carry in c
    "v_add_co_u32": lambda a, b, c: (a + b, a + b > M32),
    "v_sub_co_u32": lambda a, b, c: (a - b, b > a),
    "v_subrev_co_u32": lambda a, b, c: (b - a, a > b),
    "v_add_co_ci_u32": lambda a, b, c: (a + b + c, a + b + c > M32),
    "v_sub_co_ci_u32": lambda a, b, c: (a - b - c, b + c > a),
    "v_subrev_co_ci_u32": lambda a, b, c: (b - a - c, a + c > b),
}


@pytest.mark.parametrize("clamp", [False, True])
@pytest.mark.parametrize("name", sorted(CARRY))
def test_carry_ops(name, clamp):
    a, b = operands(2, seed=5)
    a[:4], b[:4] = [M32, 0, 5, M32], [1, 1, 5, M32]
    cin = [bool(i % 3 == 0) for i in range(64)]
    mask = np.array(cin, bool).reshape(W, 32)
    d, carry = run(name, [lanes(a), lanes(b)], mask=mask, clamp=clamp)
    for i, (x, y, c, g, co) in enumerate(zip(a, b, cin, flat(d), flat(carry))):
        v, want_co = CARRY[name](x, y, int(c) if "_ci_" in name else 0)
        if clamp and want_co:
            v = M32 if "add" in name else 0
        assert (g, bool(co)) == (v & M32, want_co), (name, hex(x), hex(y), c)


def test_mad_64_with_carry_out():
    a, b = operands(2, seed=6)
    rng = random.Random(6)
    c = [rng.getrandbits(64) for _ in range(64)]
    a[0], b[0], c[0] = M32, M32, 2**64 - 1                # (2^32-1)^2 + 2^64-1 carries
    a[1], b[1], c[1] = 0x80000000, 0x7FFFFFFF, 2**63        # signed: -2^31 * (2^31-1) + (-2^63)
    C = lanes(c, np.uint64)
    d, co = run("v_mad_u64_u32", [lanes(a), lanes(b), C])
    for x, y, z, g, k in zip(a, b, c, flat(d), flat(co)):
        t = x * y + z
        assert (g, bool(k)) == (t & (2**64 - 1), bool(t >> 64)), (hex(x), hex(y), hex(z))
    d, co = run("v_mad_i64_i32", [lanes(a), lanes(b), C])
    for x, y, z, g, k in zip(a, b, c, flat(d), flat(co)):
        t = s32(x) * s32(y) + (z - (1 << 64) if z >> 63 else z)
        assert (g, bool(k)) == (t & (2**64 - 1), bool((t >> 64) & 1)), (hex(x), hex(y), hex(z))


def test_mbcnt_counts_mask_bits_below_the_lane():
    mask_lo = lanes([0xF0F0F0F1])
    acc = lanes([100])
    got = flat(run("v_mbcnt_lo_u32_b32", [mask_lo, acc]))
    lanes_ids = [i % 32 for i in range(64)]
    assert got == [100 + bin(0xF0F0F0F1 & ((1 << l) - 1)).count("1") for l in lanes_ids]
    assert flat(run("v_mbcnt_hi_u32_b32", [mask_lo, acc])) == [100] * 64   # wave32: lanes < 32


def test_qsad_mqsad():
    rng = random.Random(12)
    s0 = [rng.getrandbits(64) for _ in range(64)]
    s1 = [rng.getrandbits(32) & 0xFF00FFFF for _ in range(64)]
    s2 = [rng.getrandbits(64) for _ in range(64)]
    for name, masked in (("v_qsad_pk_u16_u8", False), ("v_mqsad_pk_u16_u8", True)):
        got = flat(run(name, [lanes(s0, np.uint64), lanes(s1), lanes(s2, np.uint64)]))
        for x, y, z, g in zip(s0, s1, s2, got):
            want = 0
            for k in range(4):
                want |= ((sad8((x >> (8 * k)) & M32, y, masked) + ((z >> (16 * k)) & 0xFFFF))
                         & 0xFFFF) << (16 * k)
            assert g == want, name
    acc = np.array([[rng.getrandbits(32) for _ in range(32)] for _ in range(W * 4)],
                   np.uint32).reshape(W, 4, 32)
    got = run("v_mqsad_u32_u8", [lanes(s0, np.uint64), lanes(s1), acc])
    for w in range(W):
        for l in range(32):
            x, y = s0[w * 32 + l], s1[w * 32 + l]
            want = [(sad8((x >> (8 * k)) & M32, y, True) + int(acc[w, k, l])) & M32
                    for k in range(4)]
            assert [int(got[w, k, l]) for k in range(4)] == want


# ---- 16-bit -----------------------------------------------------------------------------------
def s16(v):
    v &= 0xFFFF
    return v - 0x10000 if v >> 15 else v


INT16 = {
    "v_add_nc_u16": (2, lambda a, b: a + b), "v_sub_nc_u16": (2, lambda a, b: a - b),
    "v_add_nc_i16": (2, lambda a, b: s16(a) + s16(b)), "v_sub_nc_i16": (2, lambda a, b: s16(a) - s16(b)),
    "v_mul_lo_u16": (2, lambda a, b: a * b), "v_mad_u16": (3, lambda a, b, c: a * b + c),
    "v_mad_i16": (3, lambda a, b, c: s16(a) * s16(b) + s16(c)),
    "v_max_u16": (2, max), "v_min_u16": (2, min),
    "v_max_i16": (2, lambda a, b: max(s16(a), s16(b))), "v_min_i16": (2, lambda a, b: min(s16(a), s16(b))),
    "v_max3_u16": (3, max), "v_min3_u16": (3, min), "v_med3_u16": (3, median),
    "v_max3_i16": (3, lambda *v: max(map(s16, v))), "v_min3_i16": (3, lambda *v: min(map(s16, v))),
    "v_med3_i16": (3, lambda *v: median(*map(s16, v))),
    "v_lshlrev_b16": (2, lambda a, b: b << (a & 15)), "v_lshrrev_b16": (2, lambda a, b: b >> (a & 15)),
    "v_ashrrev_i16": (2, lambda a, b: s16(b) >> (a & 15)),
    "v_and_b16": (2, lambda a, b: a & b), "v_or_b16": (2, lambda a, b: a | b),
    "v_xor_b16": (2, lambda a, b: a ^ b), "v_not_b16": (1, lambda a: ~a),
}
EDGE16 = [0, 1, 15, 16, 17, 0x7FFF, 0x8000, 0xFFFF, 0x1234, 0xFF00]


@pytest.mark.parametrize("name", sorted(INT16))
def test_int16_ops_with_op_sel(name):
    n, f = INT16[name]
    rng = random.Random(hash(name) & 0xFFFF)
    cols = [[rng.choice(EDGE16) if rng.random() < 0.5 else rng.getrandbits(16) for _ in range(64)]
            for _ in range(n)]
    noise = [[rng.getrandbits(16) for _ in range(64)] for _ in range(n)]
    old = lanes([0xCAFE0000 | 0xBEEF])
    lo_regs = [lanes([(z << 16) | v for v, z in zip(c, nz)]) for c, nz in zip(cols, noise)]
    got = flat(run(name, lo_regs, old=old))
    for i, g in enumerate(got):
        assert g == 0xCAFE0000 | (f(*(c[i] for c in cols)) & 0xFFFF), name
    hi_regs = [lanes([(v << 16) | z for v, z in zip(c, nz)]) for c, nz in zip(cols, noise)]
    sel = (1 << n) - 1 | 8                                   # read high halves, write high half
    got = flat(run(name, hi_regs, old=old, opsel=sel))
    for i, g in enumerate(got):
        assert g == ((f(*(c[i] for c in cols)) & 0xFFFF) << 16) | 0xBEEF, name


def test_int16_clamp_and_32_bit_mads():
    a, b = lanes([0xFFF0, 0x7FF0, 0x8000]), lanes([0x0020, 0x0020, 0x0001])
    assert [g & 0xFFFF for g in flat(run("v_add_nc_u16", [a, b], clamp=True))[:3]] == \
        [0xFFFF, 0x8010, 0x8001]
    assert [g & 0xFFFF for g in flat(run("v_add_nc_i16", [a, b], clamp=True))[:3]] == \
        [0x0010, 0x7FFF, 0x8001]
    assert [g & 0xFFFF for g in flat(run("v_sub_nc_i16", [a, b], clamp=True))[:3]] == \
        [0xFFD0, 0x7FD0, 0x8000]
    x = lanes([0xFFFF0003, 0x8000FFFF])
    y = lanes([0x00020005, 0x7FFF0002])
    c = lanes([10, 0xFFFFFFFF])
    assert flat(run("v_mad_u32_u16", [x, y, c]))[:2] == [3 * 5 + 10, (0xFFFF * 2 + 0xFFFFFFFF) & M32]
    assert flat(run("v_mad_i32_i16", [x, y, c]))[:2] == [25, (-1 * 2 - 1) & M32]
    assert flat(run("v_mad_i32_i16", [x, y, c], opsel=3))[:2] == [(-1 * 2 + 10) & M32,
                                                                  (-32768 * 32767 - 1) & M32]


# ---- 64-bit shifts ------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["v_lshlrev_b64", "v_lshrrev_b64", "v_ashrrev_i64"])
def test_64_bit_shifts_use_six_bits(name):
    counts = [0, 1, 31, 32, 33, 63, 64, 65, 127, 0xFFFFFFC1]
    vals = [0x8000000000000001, 0x123456789ABCDEF0, 2**64 - 1, 0x7FFFFFFFFFFFFFFF]
    pairs = [(c, v) for c in counts for v in vals]
    got = flat(run(name, [lanes([p[0] for p in pairs]), lanes([p[1] for p in pairs], np.uint64)]))
    for (c, v), g in zip(pairs, got):
        k = c & 63
        if name == "v_lshlrev_b64":
            want = (v << k) & (2**64 - 1)
        elif name == "v_lshrrev_b64":
            want = v >> k
        else:
            want = ((v - (1 << 64) if v >> 63 else v) >> k) & (2**64 - 1)
        assert g == want, (name, c, hex(v))


COVERED = set(INT32) | set(CARRY) | set(INT16) | {
    "v_mad_u64_u32", "v_mad_i64_i32", "v_mbcnt_lo_u32_b32", "v_mbcnt_hi_u32_b32",
    "v_qsad_pk_u16_u8", "v_mqsad_pk_u16_u8", "v_mqsad_u32_u8", "v_mad_u32_u16", "v_mad_i32_i16",
    "v_lshlrev_b64", "v_lshrrev_b64", "v_ashrrev_i64"}
