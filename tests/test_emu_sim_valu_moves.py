"""Moves, selects and the graphics-legacy float ops (DX9 zero rule, v_mullit, cube map)."""
import math
import random

import numpy as np
import pytest

from test_emu_sim_valu_util import W, bits_f32, f32_bits, flat, lanes, run

COVERED = {"v_mov_b32", "v_movrels_b32", "v_movreld_b32", "v_movrelsd_b32", "v_movrelsd_2_b32",
           "v_cndmask_b32", "v_cndmask_b16", "v_mov_b16", "v_mul_dx9_zero_f32",
           "v_fma_dx9_zero_f32", "v_fmac_dx9_zero_f32", "v_mullit_f32", "v_cubeid_f32",
           "v_cubesc_f32", "v_cubetc_f32", "v_cubema_f32"}
SNAN, DENORM = 0x7F800001, 0x00000003


@pytest.mark.parametrize("name", ["v_mov_b32", "v_movrels_b32", "v_movreld_b32", "v_movrelsd_b32",
                                  "v_movrelsd_2_b32"])
def test_moves_copy_bits_and_apply_sign_modifiers(name):
    vals = [SNAN, DENORM, 0x80000000, f32_bits(-2.5), 0x12345678]
    src = lanes(vals)
    assert flat(run(name, [src], denorm_f32=False))[:5] == vals       # no flush, no quieting
    assert flat(run(name, [src], neg=1))[:5] == [v ^ 0x80000000 for v in vals]
    assert flat(run(name, [src], abs=1))[:5] == [v & 0x7FFFFFFF for v in vals]
    assert flat(run(name, [src], abs=1, neg=1))[:5] == [v | 0x80000000 for v in vals]


def test_cndmask_b32_selects_per_lane_with_modifiers():
    rng = random.Random(1)
    a = [rng.getrandbits(32) for _ in range(64)]
    b = [rng.getrandbits(32) for _ in range(64)]
    m = [rng.random() < 0.5 for _ in range(64)]
    mask = np.array(m).reshape(W, 32)
    got = flat(run("v_cndmask_b32", [lanes(a), lanes(b)], mask=mask))
    assert got == [y if k else x for x, y, k in zip(a, b, m)]
    got = flat(run("v_cndmask_b32", [lanes(a), lanes(b)], mask=mask, neg=1, abs=2))
    assert got == [(y & 0x7FFFFFFF) if k else (x ^ 0x80000000) for x, y, k in zip(a, b, m)]


def test_cndmask_b16_and_mov_b16():
    a, b = lanes([0x11118001]), lanes([0x22227C01])
    mask = np.array([[True, False] * 16] * W)
    old = lanes([0xAAAABBBB])
    got = flat(run("v_cndmask_b16", [a, b], mask=mask, old=old))[:2]
    assert got == [0xAAAA7C01, 0xAAAA8001]
    got = flat(run("v_cndmask_b16", [a, b], mask=mask, old=old, opsel=0b1011, abs=1))[:2]
    assert got == [0x2222BBBB, 0x1111BBBB]
    assert flat(run("v_mov_b16", [a], old=old, neg=1))[0] == 0xAAAA0001
    assert flat(run("v_mov_b16", [a], old=old, opsel=0b1001))[0] == 0x1111BBBB


def test_dx9_zero_rule():
    x = [0.0, -0.0, 0.0, 2.0, math.inf, 1.5]
    y = [math.inf, 5.0, math.nan, -0.0, 0.0, 2.0]
    X, Y = lanes([f32_bits(v) for v in x]), lanes([f32_bits(v) for v in y])
    got = flat(run("v_mul_dx9_zero_f32", [X, Y]))[:6]
    assert got == [0, 0, 0, 0, 0, f32_bits(3.0)]
    C = lanes([f32_bits(7.0)])
    got = flat(run("v_fma_dx9_zero_f32", [X, Y, C]))[:6]
    assert got == [f32_bits(7.0)] * 5 + [f32_bits(10.0)]
    got = flat(run("v_fmac_dx9_zero_f32", [X, Y], old=C))[:6]
    assert got == [f32_bits(7.0)] * 5 + [f32_bits(10.0)]
    # a zero factor gives S2 exactly (the pseudocode's D = S2): a -0 addend stays -0 (LLVM's
    # fma.legacy folding adds +0 instead; tests/test_rdna3_semantics.py has the class)
    nz = lanes([0x80000000])
    got = flat(run("v_fma_dx9_zero_f32", [lanes([0, 0x80000000]), lanes([0x80000000]), nz]))[:2]
    assert got == [0x80000000, 0x80000000]
    # IEEE multiply for comparison: inf * 0 is NaN there
    assert math.isnan(bits_f32(flat(run("v_mul_f32", [X, Y]))[0]))


def test_mullit():
    fmax = 3.4028234663852886e38
    cases = [(2.0, 3.0, 1.0, 6.0), (2.0, -fmax, 1.0, -fmax), (2.0, -math.inf, 1.0, -fmax),
             (2.0, math.nan, 1.0, -fmax), (2.0, 3.0, 0.0, -fmax), (2.0, 3.0, -1.0, -fmax),
             (2.0, 3.0, math.nan, -fmax), (0.0, math.inf, 1.0, 0.0)]
    s = [lanes([f32_bits(c[i]) for c in cases]) for i in range(3)]
    got = flat(run("v_mullit_f32", s))[:len(cases)]
    assert got == [f32_bits(c[3]) for c in cases]


def cube_ref(x, y, z):
    """Face id, s, t and 2 * major axis per the ISA's V_CUBE* definitions."""
    if abs(z) >= abs(x) and abs(z) >= abs(y):
        return (5.0 if z < 0 else 4.0), (-x if z < 0 else x), -y, 2 * z
    if abs(y) >= abs(x):
        return (3.0 if y < 0 else 2.0), x, (-z if y < 0 else z), 2 * y
    return (1.0 if x < 0 else 0.0), (z if x < 0 else -z), -y, 2 * x


def test_cube_helpers():
    rng = random.Random(2)
    pts = [tuple(rng.choice([-1, 1]) * rng.uniform(0, 4) for _ in range(3)) for _ in range(60)]
    pts += [(1.0, 1.0, 1.0), (-2.0, 2.0, 0.0), (0.5, -3.0, 3.0), (0.0, 0.0, 0.0)]
    pts = [tuple(bits_f32(f32_bits(v)) for v in p) for p in pts]
    s = [lanes([f32_bits(p[i]) for p in pts]) for i in range(3)]
    outs = {n: flat(run(n, s)) for n in ("v_cubeid_f32", "v_cubesc_f32", "v_cubetc_f32",
                                         "v_cubema_f32")}
    for i, p in enumerate(pts):
        want = cube_ref(*p)
        got = [bits_f32(outs[n][i]) for n in ("v_cubeid_f32", "v_cubesc_f32", "v_cubetc_f32",
                                              "v_cubema_f32")]
        assert got == [float(np.float32(w)) for w in want], p
