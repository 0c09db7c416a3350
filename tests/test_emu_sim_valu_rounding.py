"""v_trunc / v_ceil / v_floor / v_rndne / v_fract / v_frexp_* on f16, f32 and f64."""
import math
import random

import numpy as np
import pytest

from test_emu_sim_valu_util import (bits_f16, bits_f32, bits_f64, f16_bits, f32_bits, f64_bits,
                                    flat, lanes, run)

TYPES = {"f16": (f16_bits, bits_f16, np.uint32), "f32": (f32_bits, bits_f32, np.uint32),
         "f64": (f64_bits, bits_f64, np.uint64)}
VALUES = [0.0, -0.0, 0.5, -0.5, 1.5, 2.5, -2.5, 3.5, -1.25, 7.75, -7.75, 1e-3, -1e-3, 1024.5,
          float("inf"), float("-inf"), 0.49975586, -1e-7]
COVERED = {"v_%s_%s" % (n, t) for n in ("trunc", "ceil", "floor", "rndne", "fract", "frexp_mant")
           for t in TYPES} | {"v_frexp_exp_i32_f32", "v_frexp_exp_i32_f64", "v_frexp_exp_i16_f16"}


def signed_zero(x, like):
    return math.copysign(0.0, like) if x == 0 else x


REFS = {
    "trunc": lambda x: signed_zero(float(math.trunc(x)), x) if math.isfinite(x) else x,
    "ceil": lambda x: signed_zero(float(math.ceil(x)), x) if math.isfinite(x) else x,
    "floor": lambda x: signed_zero(float(math.floor(x)), x) if math.isfinite(x) else x,
    "rndne": lambda x: signed_zero(float(round(x)), x) if math.isfinite(x) else x,
}


def encode(t, values):
    to_bits, _, dtype = TYPES[t]
    bits = [to_bits(v) for v in values]
    return lanes(bits, dtype), bits


def decode(t, got):
    _, from_bits, _ = TYPES[t]
    return [from_bits(g & (0xFFFF if t == "f16" else ~0)) for g in got]


def representable(t, values):
    _, from_bits, _ = TYPES[t]
    to_bits = TYPES[t][0]
    return [from_bits(to_bits(v)) for v in values]


@pytest.mark.parametrize("t", sorted(TYPES))
@pytest.mark.parametrize("kind", sorted(REFS))
def test_integral_rounding(kind, t):
    vals = representable(t, VALUES + [random.Random(1).uniform(-1e4, 1e4) for _ in range(20)])
    reg, _ = encode(t, vals)
    got = decode(t, flat(run("v_%s_%s" % (kind, t), [reg])))
    for v, g in zip(vals, got):
        want = REFS[kind](v)
        assert g == want and math.copysign(1, g) == math.copysign(1, want), (kind, t, v, g, want)


BELOW_ONE = {"f16": 1 - 2.0**-11, "f32": 1 - 2.0**-24, "f64": 1 - 2.0**-53}


@pytest.mark.parametrize("t", sorted(TYPES))
def test_fract_is_x_minus_floor_clamped_below_one(t):
    tiny = {"f16": -2.0**-20, "f32": -1e-10, "f64": -1e-300}[t]
    vals = representable(t, [1.25, -1.25, 0.0, 5.0, -0.75, tiny, 1e4 + 0.5, -0.0])
    reg, _ = encode(t, vals + [float("inf"), float("-inf"), float("nan")])
    got = decode(t, flat(run("v_fract_" + t, [reg])))
    for v, g in zip(vals, got):
        want = min(v - math.floor(v), BELOW_ONE[t]) + 0.0        # -0 - (-0) = +0
        assert g == want and math.copysign(1, g) == 1, (t, v, g)
    assert got[5] == BELOW_ONE[t]                                 # fract(-tiny): not 1.0
    assert all(math.isnan(g) for g in got[8:11])                  # fract(+-inf) = NaN


@pytest.mark.parametrize("t", sorted(TYPES))
def test_frexp(t):
    sub = {"f16": 2.0**-20, "f32": 2.0**-140, "f64": 2.0**-1060}[t]
    vals = representable(t, [1.0, -3.0, 0.375, 1000.0, sub, -sub, 0.0, -0.0])
    reg, _ = encode(t, vals + [float("inf"), float("nan")])
    mant = decode(t, flat(run("v_frexp_mant_" + t, [reg])))
    exp_name = {"f16": "v_frexp_exp_i16_f16", "f32": "v_frexp_exp_i32_f32",
                "f64": "v_frexp_exp_i32_f64"}[t]
    raw = flat(run(exp_name, [reg]))
    width = 16 if t == "f16" else 32
    exps = [(g & ((1 << width) - 1)) - ((g >> (width - 1) & 1) << width) for g in raw]
    for v, m, e in zip(vals, mant, exps):
        wm, we = math.frexp(v)
        assert (m, e) == (wm, we), (t, v, m, e)
        assert math.copysign(1, m) == math.copysign(1, v)
    assert mant[8] == float("inf") and exps[8] == 0
    assert math.isnan(mant[9]) and exps[9] == 0
    if t != "f64":
        flushed = flat(run(exp_name, [reg], denorm_f32=False, denorm_f16_64=False))
        assert flushed[4] == 0                                    # a flushed denormal is 0


def test_f16_rounding_writes_the_selected_half():
    reg = lanes([(f16_bits(2.5) << 16) | f16_bits(-1.5)])
    old = lanes([0x11112222])
    assert flat(run("v_floor_f16", [reg], old=old, opsel=0b1001))[0] == \
        (f16_bits(2.0) << 16) | 0x2222
    assert flat(run("v_floor_f16", [reg], old=old))[0] == 0x11110000 | f16_bits(-2.0)
