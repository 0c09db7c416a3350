"""VOPC: every v_cmp / v_cmpx predicate of every type, and v_cmp_class with each class bit."""
import itertools
import math
import operator

import numpy as np
import pytest

from drivers.emu.amd.shader.valu import VALU
from test_emu_sim_valu_util import f16_bits, f32_bits, f64_bits, flat, lanes, run

NAN = float("nan")
FLOATS = [0.0, -0.0, 1.0, -1.0, 2.5, float("inf"), float("-inf"), NAN, 1e-40]
ORDERED = {"lt": operator.lt, "eq": operator.eq, "le": operator.le, "gt": operator.gt,
           "ge": operator.ge, "lg": lambda a, b: a < b or a > b}
FLOAT_PRED = dict(ORDERED)
FLOAT_PRED.update({"n" + k if k != "eq" else "neq": (lambda f: lambda a, b: not f(a, b))(f)
                   for k, f in ORDERED.items()})
FLOAT_PRED.update({"o": lambda a, b: not (math.isnan(a) or math.isnan(b)),
                   "u": lambda a, b: math.isnan(a) or math.isnan(b),
                   "f": lambda a, b: False, "t": lambda a, b: True})
INT_PRED = {"lt": operator.lt, "eq": operator.eq, "le": operator.le, "gt": operator.gt,
            "ne": operator.ne, "ge": operator.ge, "f": lambda a, b: False, "t": lambda a, b: True}
ENC = {"f16": (f16_bits, np.uint32), "f32": (f32_bits, np.uint32), "f64": (f64_bits, np.uint64)}
COVERED = {n for n in VALU if n.startswith("v_cmp")}


def float_cases():
    for t in ENC:
        for p in FLOAT_PRED:
            for prefix in ("v_cmp_", "v_cmpx_"):
                yield "%s%s_%s" % (prefix, p, t)


@pytest.mark.parametrize("name", sorted(float_cases()))
def test_float_compares(name):
    _, pred, t = name.split("_", 1)[1].rsplit("_", 2)
    enc, dtype = ENC[t]
    pairs = list(itertools.product(FLOATS, FLOATS))
    a = lanes([enc(x) for x, _ in pairs], dtype)
    b = lanes([enc(y) for _, y in pairs], dtype)
    got = flat(run(name, [a, b]))
    for (x, y), g in zip(pairs, got):
        xv = float(np.array(enc(x)).astype(np.uint16).view(np.float16)) if t == "f16" else x
        yv = float(np.array(enc(y)).astype(np.uint16).view(np.float16)) if t == "f16" else y
        assert bool(g) == FLOAT_PRED[pred](xv, yv), (name, x, y)


def test_float_compare_flushes_denormals_per_mode():
    a, z = lanes([f32_bits(1e-40)]), lanes([0])
    assert flat(run("v_cmp_eq_f32", [a, z]))[0] == 0
    assert flat(run("v_cmp_eq_f32", [a, z], denorm_f32=False))[0] == 1
    assert flat(run("v_cmp_lt_f32", [a, lanes([f32_bits(1.0)])], neg=1, abs=1))[0] == 1


INT_TYPES = {"i16": (16, True), "u16": (16, False), "i32": (32, True), "u32": (32, False),
             "i64": (64, True), "u64": (64, False)}
INT_EDGE = [0, 1, 2, 0x7F, 0x80, 0x7FFF, 0x8000, 0xFFFF, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF,
            0x7FFFFFFFFFFFFFFF, 0x8000000000000000, 0xFFFFFFFFFFFFFFFF]


def int_cases():
    for t in INT_TYPES:
        for p in INT_PRED:
            if t.endswith("16") and p in ("f", "t"):
                continue
            for prefix in ("v_cmp_", "v_cmpx_"):
                yield "%s%s_%s" % (prefix, p, t)


@pytest.mark.parametrize("name", sorted(int_cases()))
def test_int_compares(name):
    pred, t = name.rsplit("_", 2)[1:]
    width, signed = INT_TYPES[t]
    vals = sorted({v & ((1 << width) - 1) for v in INT_EDGE})
    pairs = list(itertools.product(vals, vals))
    conv = lambda v: v - (1 << width) if signed and v >> (width - 1) else v
    dtype = np.uint64 if width == 64 else np.uint32
    # 16-bit operands sit in the low half; the high half holds junk the compare must ignore
    junk = 0xA5A50000 if width == 16 else 0
    a = lanes([x | junk for x, _ in pairs], dtype)
    b = lanes([y | junk for _, y in pairs], dtype)
    for chunk in range(0, len(pairs), 64):
        sub = pairs[chunk:chunk + 64]
        a = lanes([x | junk for x, _ in sub], dtype)
        b = lanes([y | junk for _, y in sub], dtype)
        got = flat(run(name, [a, b]))
        for (x, y), g in zip(sub, got):
            assert bool(g) == INT_PRED[pred](conv(x), conv(y)), (name, hex(x), hex(y))


def test_16_bit_compare_op_sel():
    a, b = lanes([0x00050001]), lanes([0x00030002])
    assert flat(run("v_cmp_lt_u16", [a, b]))[0] == 1
    assert flat(run("v_cmp_lt_u16", [a, b], opsel=3))[0] == 0
    h = lanes([(0x3C00 << 16) | 0x4000])
    assert flat(run("v_cmp_eq_f16", [h, lanes([0x3C00])], opsel=1))[0] == 1


CLASS_F32 = [0x7F800001, 0x7FC00000, 0xFF800000, f32_bits(-2.0), 0x80000001, 0x80000000, 0,
             0x00000001, f32_bits(3.0), 0x7F800000]
CLASS_F16 = [0x7C01, 0x7E00, 0xFC00, 0xC000, 0x8001, 0x8000, 0, 0x0001, 0x4200, 0x7C00]
CLASS_F64 = [0x7FF0000000000001, 0x7FF8000000000000, 0xFFF0000000000000, f64_bits(-2.0),
             0x8000000000000001, 1 << 63, 0, 1, f64_bits(3.0), 0x7FF0000000000000]


@pytest.mark.parametrize("t,values", [("f32", CLASS_F32), ("f16", CLASS_F16), ("f64", CLASS_F64)])
def test_cmp_class_every_mask_bit(t, values):
    """values[i] belongs to class i (sNaN, qNaN, -inf, -norm, -denorm, -0, +0, +denorm, +norm,
    +inf); each is tested against every single-bit mask and a combined one."""
    dtype = np.uint64 if t == "f64" else np.uint32
    cases = [(i, 1 << k) for i in range(10) for k in range(10)] + [(i, 0x3FF) for i in range(10)]
    for prefix in ("v_cmp_class_", "v_cmpx_class_"):
        for chunk in range(0, len(cases), 64):
            sub = cases[chunk:chunk + 64]
            got = flat(run(prefix + t, [lanes([values[i] for i, _ in sub], dtype),
                                        lanes([m for _, m in sub])]))
            for (i, m), g in zip(sub, got):
                assert bool(g) == bool(m >> i & 1), (t, i, hex(m))
    if t == "f16":                                  # VOP3 op_sel picks the halves of both sources
        got = flat(run("v_cmp_class_f16", [lanes([values[2] << 16]), lanes([(1 << 2) << 16])],
                       opsel=0b11))[0]
        assert got == 1
    # class sees the raw denormal even when the mode flushes denormals
    got = flat(run("v_cmp_class_" + t, [lanes([values[7]], dtype), lanes([1 << 7])],
                   denorm_f32=False, denorm_f16_64=False))[0]
    assert got == 1
