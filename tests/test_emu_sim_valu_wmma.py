"""WMMA 16x16x16 on the gfx11 wave32 register layout, against numpy matmuls."""
import numpy as np
import pytest

from test_emu_sim_valu_util import W, run

COVERED = {"v_wmma_f32_16x16x16_f16", "v_wmma_f32_16x16x16_bf16", "v_wmma_f16_16x16x16_f16",
           "v_wmma_bf16_16x16x16_bf16", "v_wmma_i32_16x16x16_iu8", "v_wmma_i32_16x16x16_iu4"}
rng = np.random.default_rng(16)


def ab_regs(m16, per_reg):
    """(W, 16 rows, 16 K) 16-bit values -> (W, 8, 32) VGPRs: lane l row l % 16 (replicated in
    lanes 16-31), VGPR v = K 2v | 2v+1 << 16. Built lane by lane, independently of the library."""
    regs = np.zeros((W, 8, 32), np.uint32)
    for w in range(W):
        for lane in range(32):
            row = m16[w, lane % 16]
            for v in range(8):
                regs[w, v, lane] = int(row[2 * v]) | (int(row[2 * v + 1]) << 16)
    return regs


def c_regs(tile32):
    """(W, 16, 16) 32-bit values -> (W, 8, 32): VGPR r lane l = element (2r + l // 16, l % 16)."""
    regs = np.zeros((W, 8, 32), np.uint32)
    for w in range(W):
        for r in range(8):
            for lane in range(32):
                regs[w, r, lane] = tile32[w, 2 * r + lane // 16, lane % 16]
    return regs


def tile_of(regs, shift=0, mask=0xFFFFFFFF):
    out = np.zeros((W, 16, 16), np.uint32)
    for w in range(W):
        for r in range(8):
            for lane in range(32):
                out[w, 2 * r + lane // 16, lane % 16] = (int(regs[w, r, lane]) >> shift) & mask
    return out


def f16_matrices():
    a = rng.uniform(-2, 2, (W, 16, 16)).astype(np.float16)
    b = rng.uniform(-2, 2, (W, 16, 16)).astype(np.float16)
    return a, b


def test_f32_accumulate_f16():
    a, b = f16_matrices()
    c = rng.uniform(-4, 4, (W, 16, 16)).astype(np.float32)
    A = ab_regs(a.view(np.uint16), 2)
    B = ab_regs(np.transpose(b, (0, 2, 1)).copy().view(np.uint16), 2)  # lane = column of B
    d = run("v_wmma_f32_16x16x16_f16", [A, B, c_regs(c.view(np.uint32))])
    got = tile_of(d).view(np.float32)
    want = a.astype(np.float64) @ b.astype(np.float64) + c
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)
    assert np.array_equal(got, want.astype(np.float32))       # exact sum rounded once


def bf16_bits(x):
    b = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    return ((b + 0x7FFF + ((b >> 16) & 1)) >> 16).astype(np.uint16)


def bf16_values(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32)


def test_f32_accumulate_bf16():
    a = bf16_bits(rng.uniform(-3, 3, (W, 16, 16)))
    b = bf16_bits(rng.uniform(-3, 3, (W, 16, 16)))
    c = rng.uniform(-4, 4, (W, 16, 16)).astype(np.float32)
    d = run("v_wmma_f32_16x16x16_bf16", [ab_regs(a, 2), ab_regs(np.transpose(b, (0, 2, 1)).copy(), 2),
                                          c_regs(c.view(np.uint32))])
    want = bf16_values(a).astype(np.float64) @ bf16_values(b).astype(np.float64) + c
    np.testing.assert_allclose(tile_of(d).view(np.float32), want, rtol=1e-6)


@pytest.mark.parametrize("high", [0, 1])
def test_f16_accumulate_in_the_selected_half(high):
    a, b = f16_matrices()
    c = rng.uniform(-4, 4, (W, 16, 16)).astype(np.float16)
    c32 = c.view(np.uint16).astype(np.uint32) << (16 * high) | (0x1234 << (16 * (1 - high)))
    old = c_regs(np.full((W, 16, 16), 0xABCD0000 >> (16 * high), np.uint32))
    d = run("v_wmma_f16_16x16x16_f16",
            [ab_regs(a.view(np.uint16), 2), ab_regs(np.transpose(b, (0, 2, 1)).copy().view(np.uint16), 2),
             c_regs(c32)], old=old, opsel=high << 2)
    got = tile_of(d, 16 * high, 0xFFFF).astype(np.uint16).view(np.float16)
    want = (a.astype(np.float64) @ b.astype(np.float64) + c).astype(np.float16)
    assert np.array_equal(got, want)
    other = tile_of(d, 16 * (1 - high), 0xFFFF)
    assert np.all(other == 0xABCD)                      # the other half of the old dst


def test_bf16_accumulate():
    a = bf16_bits(rng.uniform(-2, 2, (W, 16, 16)))
    b = bf16_bits(rng.uniform(-2, 2, (W, 16, 16)))
    c = bf16_bits(rng.uniform(-2, 2, (W, 16, 16)))
    d = run("v_wmma_bf16_16x16x16_bf16", [ab_regs(a, 2), ab_regs(np.transpose(b, (0, 2, 1)).copy(), 2),
                                           c_regs(c.astype(np.uint32))])
    exact = bf16_values(a).astype(np.float64) @ bf16_values(b).astype(np.float64) + bf16_values(c)
    got = bf16_values(tile_of(d, 0, 0xFFFF).astype(np.uint16))
    np.testing.assert_allclose(got, exact, rtol=2**-8, atol=2**-8)


def pack_ints(m, width):
    """(W, 16, 16) ints -> (W, 16 // (32 // width), 32) dwords along K per lane (lanes replicate)."""
    per = 32 // width
    k_regs = 16 // per
    regs = np.zeros((W, k_regs, 32), np.uint32)
    for w in range(W):
        for lane in range(32):
            row = m[w, lane % 16]
            for v in range(k_regs):
                word = 0
                for j in range(per):
                    word |= (int(row[v * per + j]) & ((1 << width) - 1)) << (width * j)
                regs[w, v, lane] = word
    return regs


@pytest.mark.parametrize("name,width", [("v_wmma_i32_16x16x16_iu8", 8), ("v_wmma_i32_16x16x16_iu4", 4)])
@pytest.mark.parametrize("signs", [0, 1, 2, 3])
def test_integer_wmma(name, width, signs):
    lo_a, hi_a = (-(1 << (width - 1)), 1 << (width - 1)) if signs & 1 else (0, 1 << width)
    lo_b, hi_b = (-(1 << (width - 1)), 1 << (width - 1)) if signs & 2 else (0, 1 << width)
    a = rng.integers(lo_a, hi_a, (W, 16, 16))
    b = rng.integers(lo_b, hi_b, (W, 16, 16))
    c = rng.integers(-2**31, 2**31, (W, 16, 16))
    A, B = pack_ints(a, width), pack_ints(np.transpose(b, (0, 2, 1)), width)
    if A.shape[1] == 2:                                  # two dwords arrive as one uint64 register pair
        A = A[:, 0].astype(np.uint64) | (A[:, 1].astype(np.uint64) << np.uint64(32))
        B = B[:, 0].astype(np.uint64) | (B[:, 1].astype(np.uint64) << np.uint64(32))
    d = run(name, [A, B, c_regs((c & 0xFFFFFFFF).astype(np.uint32))], neg=signs)
    want = (a @ b + c) & 0xFFFFFFFF
    assert np.array_equal(tile_of(d), want.astype(np.uint32))
    clamped = run(name, [A, B, c_regs(np.full((W, 16, 16), 0x7FFFFFF0, np.uint32))], neg=signs,
                  clamp=True)
    want = np.clip(a @ b + 0x7FFFFFF0, -2**31, 2**31 - 1) & 0xFFFFFFFF
    assert np.array_equal(tile_of(clamped), want.astype(np.uint32))
