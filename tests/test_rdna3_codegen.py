"""The RDNA3 code generator against the reference backend, kernel by kernel.

Hand-built loop-level IR kernels cover what the tensor op suite reaches rarely: every ALU op
on every element type (int8, uint8, int16, int32, uint32, int64, bool, float16, bfloat16,
float32, float64) with edge values, every CAST pair, uniform (scalar-unit) and per-lane
(vector-unit) forms, gated loads and stores, local memory with barriers, loops with
accumulators, and register pressure that forces VGPR and SGPR spilling.  Each kernel runs on
the virtual gfx1100 through AMDDevice and on the numpy reference; integer and comparison
results must match exactly, float arithmetic bit for bit (NaN payloads aside), float
transcendentals within the ulp bounds :mod:`tensor.codegen.rdna3.mathlib` states.
"""
import math

import numpy as np
import pytest

from tensor import device as devices
from tensor.backends.cpu import Program
from tensor.codegen.rdna3 import compile_kernel
from tensor.dtypes import bf16_bits_to_float32, dtypes, float32_to_bf16_bits
from tensor.loopir import Instr, Kernel, Op, Param

D = dtypes
V, I32, B = D.void, D.int32, D.bool
INTS = [D.int8, D.uint8, D.int16, D.int32, D.uint32, D.int64]
FLOATS = [D.float16, D.bfloat16, D.float32, D.float64]
ALL = INTS + FLOATS + [D.bool]
N = 64


@pytest.fixture(scope="module")
def amd(tmp_path_factory):
    mp = pytest.MonkeyPatch()
    mp.setenv("GPU_EMULATE", "gfx1100x2")
    mp.setenv("TENSOR_CACHE", "0")
    try:
        yield devices.get("AMD")
    finally:
        mp.undo()


def storage(dt):
    return np.dtype(np.uint16) if dt is D.bfloat16 else dt.np


def values(dt, n, rng, positive=False, small=False):
    """Random values of ``dt`` with its edge values first."""
    if dt is D.bool:
        return rng.integers(0, 2, n).astype(bool)
    if dt.is_int:
        lo, hi = (1, 9) if small else (dt.min, dt.max)
        edge = [v for v in (0, 1, -1, dt.min, dt.max, 2, -2) if lo <= v <= hi] if not positive else [1, 2]
        x = rng.integers(max(lo, 1 if positive else lo), hi, n, endpoint=True, dtype=np.int64)
        x[:len(edge)] = edge
        return x.astype(dt.np)
    x = rng.standard_normal(n) * 3
    if positive:
        x = np.abs(x) + 0.25
    edge = [0.0, -0.0, 1.0, -1.0, 0.5, np.inf, -np.inf, np.nan, 1e-41, -3e-39, 65504.0, 3e38]
    if not positive:
        x[:len(edge)] = edge
    if dt is D.bfloat16:
        return float32_to_bf16_bits(x.astype(np.float32))
    with np.errstate(all="ignore"):
        return x.astype(dt.np)


def as_float(x, dt):
    return bf16_bits_to_float32(x).astype(np.float64) if dt is D.bfloat16 else x.astype(np.float64)


def run(dev, kernel, inputs):
    """(device output, reference output) as storage arrays."""
    out_p = kernel.params[0]
    ref_bufs = [np.zeros(out_p.size * out_p.dtype.itemsize + 8, np.uint8)]
    dev_bufs = [dev.alloc(out_p.size * out_p.dtype.itemsize)]
    for p, x in zip(kernel.params[1:], inputs):
        raw = np.ascontiguousarray(x, dtype=storage(p.dtype)).view(np.uint8).reshape(-1)
        ref_bufs.append(raw.copy())
        h = dev.alloc(raw.size)
        dev.copyin(h, raw)
        dev_bufs.append(h)
    with np.errstate(all="ignore"):
        Program(kernel)(ref_bufs)
    dev.launch(dev.compile(kernel), dev_bufs)
    got = np.zeros(out_p.size * out_p.dtype.itemsize, np.uint8)
    dev.copyout(dev_bufs[0], got)
    for h in dev_bufs:
        dev.free(h)
    st = storage(out_p.dtype)
    return got.view(st), ref_bufs[0][:got.size].view(st)


def elementwise(name, out_dt, in_dts, body, n=N, uniform=False):
    """out[i] = body(loaded inputs) for i < n: one work-item per element, or (``uniform``) one
    work-item looping over the elements, so every value is uniform (scalar loads and ALU)."""
    params = [Param("out", out_dt, n, True)] + [Param(f"in{k}", dt, n) for k, dt in enumerate(in_dts)]
    ins = [Instr(Op.PARAM, p.dtype, (), k) for k, p in enumerate(params)]
    if uniform:
        ins.append(Instr(Op.RANGE, I32, (), ("global", 0, 1)))
    idx = len(ins)
    ins.append(Instr(Op.RANGE, I32, (), ("reduce" if uniform else "global", 0, n)))
    loads = []
    for k, dt in enumerate(in_dts):
        ins.append(Instr(Op.LOAD, dt, (k + 1, idx)))
        loads.append(len(ins) - 1)
    res = body(ins, loads)
    ins.append(Instr(Op.STORE, V, (0, idx, res)))
    if uniform:
        ins.append(Instr(Op.END, V, (idx,)))
    return Kernel(name, tuple(params), tuple(ins), (1,) if uniform else (n,))


def binop(op, dt, out_dt):
    def body(ins, loads):
        ins.append(Instr(op, out_dt, tuple(loads)))
        return len(ins) - 1
    return body


def assert_same(got, want, dt, what, ulps=0):
    if dt is D.bool or dt.is_int:
        np.testing.assert_array_equal(got, want, err_msg=what)
        return
    g, w = as_float(got, dt), as_float(want, dt)
    nan = np.isnan(w)
    assert np.array_equal(np.isnan(g), nan), f"{what}: NaN where the reference has none, or the reverse\n{g}\n{w}"
    ok = ~nan
    if ulps == 0:
        np.testing.assert_array_equal(g[ok], w[ok], err_msg=what)
        return
    dist = ulp_distance(got[ok], want[ok], dt)
    assert dist.max(initial=0) <= ulps, f"{what}: {dist.max()} ulp > {ulps}\n{g[ok][dist > ulps]}\n{w[ok][dist > ulps]}"


def ulp_distance(a, b, dt):
    bits = {2: np.int16, 4: np.int32, 8: np.int64}[dt.itemsize]
    ia, ib = a.view(bits).astype(np.int64), b.view(bits).astype(np.int64)
    top = np.int64(1) << (8 * dt.itemsize - 1)
    ia = np.where(ia < 0, -(ia + top), ia)          # two's-complement ordering of floats
    ib = np.where(ib < 0, -(ib + top), ib)
    return np.abs(ia - ib)


BINARY = [Op.ADD, Op.MUL, Op.MAX, Op.CMPLT, Op.CMPNE, Op.IDIV, Op.MOD, Op.AND, Op.OR, Op.XOR,
          Op.SHL, Op.SHR]


def binary_cases():
    for op in BINARY:
        for dt in ALL:
            if op in (Op.IDIV, Op.MOD, Op.SHL, Op.SHR) and not dt.is_int:
                continue
            if op in (Op.AND, Op.OR, Op.XOR) and dt.is_float:
                continue
            if dt is D.bool and op in (Op.ADD, Op.MUL):
                continue
            yield op, dt


@pytest.mark.parametrize("uniform", [False, True], ids=["lanes", "uniform"])
@pytest.mark.parametrize("op,dt", list(binary_cases()), ids=lambda v: getattr(v, "name", None) or v.value)
def test_binary_ops_match_the_reference(amd, op, dt, uniform):
    rng = np.random.default_rng(hash((op.value, dt.name)) & 0xFFFF)
    out_dt = B if op in (Op.CMPLT, Op.CMPNE) else dt
    k = elementwise(f"b_{op.value}_{dt.name}", out_dt, [dt, dt], binop(op, dt, out_dt), uniform=uniform)
    a = values(dt, N, rng)
    b = values(dt, N, rng, positive=op in (Op.IDIV, Op.MOD))
    if op in (Op.SHL, Op.SHR):
        b = rng.integers(0, 2 * dt.bits, b.shape).astype(dt.np)
    got, want = run(amd, k, [a, b])
    assert_same(got, want, out_dt, f"{op.value} {dt.name}")


UNARY_ULPS = {  # (op, dtype) -> ulp bound against the correctly rounded reference
    D.float32: {Op.EXP2: 1, Op.LOG2: 1, Op.SQRT: 1, Op.RECIPROCAL: 1, Op.SIN: 4},
    D.bfloat16: {Op.EXP2: 1, Op.LOG2: 1, Op.SQRT: 1, Op.RECIPROCAL: 1, Op.SIN: 1},
    D.float16: {Op.EXP2: 1, Op.LOG2: 1, Op.SQRT: 1, Op.RECIPROCAL: 1, Op.SIN: 1},
    D.float64: {Op.EXP2: 2, Op.LOG2: 2, Op.SQRT: 0, Op.RECIPROCAL: 0, Op.SIN: 2},
}


@pytest.mark.parametrize("dt", FLOATS, ids=lambda d: d.name)
@pytest.mark.parametrize("op", [Op.EXP2, Op.LOG2, Op.SIN, Op.SQRT, Op.RECIPROCAL], ids=lambda o: o.value)
def test_transcendentals_within_stated_ulps(amd, op, dt):
    rng = np.random.default_rng(3)
    k = elementwise(f"u_{op.value}_{dt.name}", dt, [dt], binop(op, dt, dt), n=256)
    x = values(dt, 256, rng)
    if op is Op.EXP2 and dt.itemsize >= 4:          # reach the denormal and overflow ranges
        x[40:80] = (np.linspace(-160, 140, 40) if dt is not D.float64 else np.linspace(-1090, 1030, 40)) \
            if dt is not D.bfloat16 else float32_to_bf16_bits(np.linspace(-160, 140, 40).astype(np.float32))
    if op is Op.SIN:                                 # the documented reduction range
        xf = as_float(x, dt)
        keep = ~np.isfinite(xf) | (np.abs(xf) < 100)
        x = np.where(keep, x, x[2])
    if op is Op.LOG2 and dt is not D.float16:
        tiny = np.geomspace(1e-44 if dt is not D.float64 else 1e-320, 1e30, 40)
        x[40:80] = float32_to_bf16_bits(tiny.astype(np.float32)) if dt is D.bfloat16 else tiny.astype(dt.np)
    got, want = run(amd, k, [x])
    assert_same(got, want, dt, f"{op.value} {dt.name}", UNARY_ULPS[dt][op])


@pytest.mark.parametrize("src", ALL, ids=lambda d: d.name)
def test_every_cast_matches_the_reference(amd, src):
    rng = np.random.default_rng(5)
    x = values(src, N, rng)
    if src.is_float:                     # float -> int is specified in range only
        xf = as_float(x, src)
        keep = np.isfinite(xf) & (np.abs(xf) < 100)
        x = np.where(keep, x, x[2])      # 1.0
    for dst in ALL:
        if dst is src:
            continue
        k = elementwise(f"c_{src.name}_{dst.name}", dst, [src],
                        lambda ins, loads, dst=dst: ins.append(Instr(Op.CAST, dst, (loads[0],))) or len(ins) - 1)
        got, want = run(amd, k, [x])
        if src.is_float and dst.is_int and dst.is_unsigned:
            neg = as_float(x, src) < 0      # negative -> unsigned is out of range
            got, want = got[~neg], want[~neg]
        assert_same(got, want, dst, f"cast {src.name} -> {dst.name}")


@pytest.mark.parametrize("pair", [(D.float32, D.int32), (D.int32, D.float32), (D.float16, D.int16),
                                  (D.int16, D.float16), (D.bfloat16, D.int16), (D.float64, D.int64),
                                  (D.int64, D.float64), (D.uint8, D.int8), (D.int8, D.uint8)],
                         ids=lambda p: f"{p[0].name}-{p[1].name}")
def test_bitcasts_keep_the_bits(amd, pair):
    src, dst = pair
    x = values(src, N, np.random.default_rng(7))
    k = elementwise(f"bc_{src.name}_{dst.name}", dst, [src],
                    lambda ins, loads: ins.append(Instr(Op.BITCAST, dst, (loads[0],))) or len(ins) - 1)
    got, want = run(amd, k, [x])
    np.testing.assert_array_equal(got.view(np.uint8), want.view(np.uint8))


@pytest.mark.parametrize("dt", ALL, ids=lambda d: d.name)
def test_where_and_gated_loads(amd, dt):
    """out[i] = where(c[i], a[i], load(b, 63 - i, gate c[i])): gated lanes read nothing and 0."""
    rng = np.random.default_rng(11)

    def body(ins, loads):
        c, a = loads[0], loads[1]
        ins.append(Instr(Op.CONST, I32, (), N - 1))
        ins.append(Instr(Op.CONST, I32, (), -1))
        ins.append(Instr(Op.MUL, I32, (4, len(ins) - 1)))       # -i
        ins.append(Instr(Op.ADD, I32, (len(ins) - 3, len(ins) - 1)))
        ins.append(Instr(Op.LOAD, dt, (3, len(ins) - 1, c)))
        g = len(ins) - 1
        ins.append(Instr(Op.CMPNE, B, (c, c)))                  # false
        ins.append(Instr(Op.WHERE, dt, (c, a, g)))
        return len(ins) - 1
    k = elementwise(f"w_{dt.name}", dt, [B, dt, dt], body)
    got, want = run(amd, k, [values(B, N, rng), values(dt, N, rng), values(dt, N, rng)])
    assert_same(got, want, dt, f"where/gated {dt.name}")


def reduction(dt, rop, n_out, n_red, local_group=False):
    """out[o] = reduce_r in[o * n_red + r] as a loop (or split over a workgroup via LDS)."""
    params = (Param("out", dt, n_out, True), Param("in1", dt, n_out * n_red))
    ins = [Instr(Op.PARAM, dt, (), 0), Instr(Op.PARAM, dt, (), 1),
           Instr(Op.RANGE, I32, (), ("global", 0, n_out))]
    ident = 0 if rop == "add" else dt.min
    ident = bool(ident) if dt is B else float(ident) if dt.is_float else int(ident)
    ins += [Instr(Op.DEFINE_ACC, dt, (), ident), Instr(Op.CONST, I32, (), n_red),
            Instr(Op.MUL, I32, (2, 4)), Instr(Op.RANGE, I32, (), ("reduce", 0, n_red)),
            Instr(Op.ADD, I32, (5, 6)), Instr(Op.LOAD, dt, (1, 7)),
            Instr(Op.ACCUMULATE, V, (3, 8), rop), Instr(Op.END, V, (6,)),
            Instr(Op.STORE, V, (0, 2, 3))]
    return Kernel(f"r_{rop}_{dt.name}", params, tuple(ins), (n_out,))


@pytest.mark.parametrize("rop", ["add", "max"])
@pytest.mark.parametrize("dt", ALL, ids=lambda d: d.name)
def test_loop_accumulators(amd, dt, rop):
    rng = np.random.default_rng(13)
    x = values(dt, 5 * 37, rng, small=dt.is_int and rop == "add")
    if dt.is_float:
        xf = as_float(x, dt)
        x = np.where(np.isfinite(xf) & (np.abs(xf) < 1e4), x, x[2])
    got, want = run(amd, reduction(dt, rop, 5, 37), [x])
    tol = 0 if rop == "max" or not dt.is_float or dt is D.float64 else 4
    if rop == "add" and dt.is_float:
        np.testing.assert_allclose(as_float(got, dt), as_float(want, dt), rtol={D.float16: 1e-2, D.bfloat16: 5e-2}.get(dt, 1e-5),
                                   atol=1e-2 if dt.itemsize == 2 else 1e-6)
    else:
        assert_same(got, want, dt, f"{rop} {dt.name}", tol)


def test_local_memory_group_reduction(amd):
    """Each of 4 workgroups sums 64 values: 16 work-items reduce 4 each, partials meet in LDS."""
    F = D.float32
    params = (Param("out", F, 4, True), Param("in1", F, 256))
    ins = [Instr(Op.PARAM, F, (), 0), Instr(Op.PARAM, F, (), 1),
           Instr(Op.RANGE, I32, (), ("global", 0, 4)), Instr(Op.RANGE, I32, (), ("local", 0, 16)),
           Instr(Op.DEFINE_ACC, F, (), 0.0), Instr(Op.CONST, I32, (), 64), Instr(Op.MUL, I32, (2, 5)),
           Instr(Op.CONST, I32, (), 4), Instr(Op.MUL, I32, (3, 7)), Instr(Op.ADD, I32, (6, 8)),
           Instr(Op.RANGE, I32, (), ("reduce", 0, 4)), Instr(Op.ADD, I32, (9, 10)),
           Instr(Op.LOAD, F, (1, 11)), Instr(Op.ACCUMULATE, V, (4, 12), "add"), Instr(Op.END, V, (10,)),
           Instr(Op.DEFINE_LOCAL, F, (), ("part", 16)), Instr(Op.STORE, V, (15, 3, 4)),
           Instr(Op.BARRIER, V), Instr(Op.DEFINE_ACC, F, (), 0.0),
           Instr(Op.RANGE, I32, (), ("reduce", 0, 16)), Instr(Op.LOAD, F, (15, 19)),
           Instr(Op.ACCUMULATE, V, (18, 20), "add"), Instr(Op.END, V, (19,)),
           Instr(Op.CONST, I32, (), 1), Instr(Op.CMPLT, B, (3, 23)), Instr(Op.STORE, V, (0, 2, 18, 24))]
    k = Kernel("group_sum", params, tuple(ins), (4,), (16,))
    x = np.random.default_rng(1).standard_normal(256).astype(np.float32)
    got, want = run(amd, k, [x])
    np.testing.assert_allclose(got, x.reshape(4, 64).sum(1), rtol=1e-5)
    np.testing.assert_allclose(got, want, rtol=1e-5)


def test_vgpr_pressure_spills_to_scratch(amd):
    """300 loads live at once (more than 256 VGPRs): spilled, and still right."""
    F, n, m = D.float32, 32, 300
    params = (Param("out", F, n, True), Param("in1", F, n * m))
    ins = [Instr(Op.PARAM, F, (), 0), Instr(Op.PARAM, F, (), 1), Instr(Op.RANGE, I32, (), ("global", 0, n)),
           Instr(Op.CONST, I32, (), m), Instr(Op.MUL, I32, (2, 3))]
    loads = []
    for j in range(m):
        ins.append(Instr(Op.CONST, I32, (), j))
        ins.append(Instr(Op.ADD, I32, (4, len(ins) - 1)))
        ins.append(Instr(Op.LOAD, F, (1, len(ins) - 1)))
        loads.append(len(ins) - 1)
    acc = loads[0]
    for j in loads[1:]:                              # a sum over the loads in order ...
        ins.append(Instr(Op.ADD, F, (acc, j)))
        acc = len(ins) - 1
    first = acc
    acc = loads[-1]
    for j in reversed(loads[:-1]):                   # ... and a product backwards: every
        ins.append(Instr(Op.MUL, F, (acc, j)))       # load is live from one to the other
        acc = len(ins) - 1
    ins.append(Instr(Op.ADD, F, (first, acc)))
    ins.append(Instr(Op.STORE, V, (0, 2, len(ins) - 1)))
    k = Kernel("spill_v", params, tuple(ins), (n,))
    x = (np.random.default_rng(2).random(n * m) * 0.01 + 0.995).astype(np.float32)
    got, want = run(amd, k, [x])
    np.testing.assert_allclose(got, want, rtol=1e-5)
    assert compile_kernel(k).scratch > 0


def test_sgpr_pressure_spills_to_vgpr_lanes(amd):
    """130 uniform integers live at once (more than 106 SGPRs)."""
    n, m = 32, 130
    params = (Param("out", I32, n, True), Param("in1", I32, m))
    ins = [Instr(Op.PARAM, I32, (), 0), Instr(Op.PARAM, I32, (), 1), Instr(Op.RANGE, I32, (), ("global", 0, n))]
    loads = []
    for j in range(m):
        ins.append(Instr(Op.CONST, I32, (), j))
        ins.append(Instr(Op.LOAD, I32, (1, len(ins) - 1)))
        loads.append(len(ins) - 1)
    acc = loads[0]
    for j in loads[1:]:                              # forwards, then backwards: all live
        ins.append(Instr(Op.ADD, I32, (acc, j)))
        acc = len(ins) - 1
    first = acc
    acc = loads[-1]
    for j in reversed(loads[:-1]):
        ins.append(Instr(Op.XOR, I32, (acc, j)))
        acc = len(ins) - 1
    ins.append(Instr(Op.ADD, I32, (first, acc)))
    ins.append(Instr(Op.ADD, I32, (len(ins) - 1, 2)))
    ins.append(Instr(Op.STORE, V, (0, 2, len(ins) - 1)))
    k = Kernel("spill_s", params, tuple(ins), (n,))
    x = np.random.default_rng(4).integers(-1000, 1000, m).astype(np.int32)
    got, want = run(amd, k, [x])
    np.testing.assert_array_equal(got, want)
    assert "v_writelane_b32" in compile_kernel(k).text


def test_partial_tiles_switch_lanes_off(amd):
    """1000 and 37x3 elements: the last workgroup's extra lanes must not store."""
    for shape in [(1000,), (37, 3), (5, 300)]:
        n = math.prod(shape)
        k = elementwise(f"copy_{n}", D.float32, [D.float32], lambda ins, loads: loads[0], n=n)
        x = np.arange(n, dtype=np.float32)
        got, _ = run(amd, k, [x])
        np.testing.assert_array_equal(got, x)


def _guarded_run(dev, name, co, grid, block, x, pad):
    """Launch a one-input elementwise kernel whose output buffer runs ``pad`` elements past
    what the kernel may write, those prefilled with a sentinel; returns (output, tail)."""
    n = x.size
    out, inp = dev.alloc((n + pad) * 4), dev.alloc((n + pad) * 4)
    dev.copyin(out, np.full(n + pad, -7.0, np.float32).view(np.uint8))
    dev.copyin(inp, np.concatenate([x, np.zeros(pad, np.float32)]).view(np.uint8))
    loaded = dev.dev.load(co)
    loaded[name](out, inp, grid=grid, block=block, wait=True)
    got = np.zeros((n + pad) * 4, np.uint8)
    dev.copyout(out, got)
    dev.free(out)
    dev.free(inp)
    got = got.view(np.float32)
    return got[:n], got[n:]


def test_exec_masking_keeps_the_lanes_past_the_end_from_storing(amd):
    """A grid rounded up to whole workgroups: the lanes past the last element are switched off
    by v_cmpx (and the wave skips the body when none is left).  The output buffer continues
    past the tensor with a sentinel that must survive; the same kernel with its compare made
    always true (same size, so only the mask changes) overwrites the sentinel, so this test
    sees a missing mask."""
    from tensor.codegen.rdna3 import compile_kernel
    from assembler.rdna3 import assemble_program
    for n in (1000, 4097):
        k = elementwise(f"guard_{n}", D.float32, [D.float32], lambda ins, loads: loads[0], n=n)
        ck = compile_kernel(k)
        lanes = math.prod(ck.grid) * math.prod(ck.block)
        assert lanes > n and "v_cmpx_gt_u32" in ck.text and "s_cbranch_execz" in ck.text
        x = np.arange(n, dtype=np.float32)
        got, tail = _guarded_run(amd, ck.name, ck.code_object, ck.grid, ck.block, x, lanes - n + 64)
        np.testing.assert_array_equal(got, x)
        assert (tail == -7.0).all(), f"{n} elements: lanes past the end stored {tail[tail != -7.0][:8]}"
    cmp = next(line for line in ck.text.splitlines() if line.startswith("v_cmpx_gt_u32"))
    unmasked = ck.text.replace(cmp, "v_cmpx_gt_u32 0x7fffffff, " + cmp.split(", ")[1])
    code = bytes(assemble_program(unmasked).data)
    assert len(code) == len(ck.code) and code != ck.code
    co = ck.code_object.replace(ck.code, code)
    got, tail = _guarded_run(amd, ck.name, co, ck.grid, ck.block, x, lanes - n + 64)
    np.testing.assert_array_equal(got, x)
    assert (tail[:lanes - n] == 0).all()              # the extra lanes copied the zero padding


@pytest.mark.skipif(not __import__("tensor.codegen.rdna3.validate", fromlist=["x"]).llvm_available(),
                    reason="llvm-mc-19 / llvm-objdump-19 not installed")
def test_llvm_check_notices_a_wrong_encoding(amd):
    """The end-of-session LLVM check is not vacuous: a byte that disagrees with the text is found."""
    from tensor.codegen.rdna3 import compile_kernel
    from tensor.codegen.rdna3.validate import llvm_problems
    ck = compile_kernel(elementwise("probe", D.float32, [D.float32, D.float32], binop(Op.ADD, D.float32, D.float32)))
    assert llvm_problems([(ck.name, ck.text, ck.code, ck.code_object)]) == []
    bad = bytearray(ck.code)
    bad[-8] ^= 0x01                                  # flip a bit of an instruction word
    problems = llvm_problems([(ck.name, ck.text, bytes(bad), ck.code_object)])
    assert problems and "encodes kernel probe differently" in problems[0]


@pytest.mark.parametrize("dt", [D.float16, D.bfloat16], ids=lambda d: d.name)
@pytest.mark.parametrize("case", ["plain", "bias_relu", "a_transposed", "b_transposed", "batched"])
def test_half_precision_matmul_on_wmma(amd, dt, case):
    """f16/bf16 matmuls (sizes multiples of 16) run on v_wmma_f32_16x16x16: the result matches
    the float32 product rounded once, whatever the operands' layouts and the epilogue."""
    from tensor import Tensor
    from tensor.codegen.rdna3 import compile_kernel
    from tensor.lower import lower
    from tensor.schedule import create_schedule
    rng = np.random.default_rng(21)
    shape_a, shape_b = ((2, 32, 48), (2, 48, 16)) if case == "batched" else ((32, 48), (48, 64))
    A = rng.standard_normal(shape_a).astype(np.float32)
    Bm = rng.standard_normal(shape_b).astype(np.float32)
    bias = rng.standard_normal(shape_b[-1]).astype(np.float32)

    def build(dev):
        a, b = Tensor(A, dtype=dt, device=dev), Tensor(Bm, dtype=dt, device=dev)
        if case == "a_transposed":
            a = Tensor(np.ascontiguousarray(A.T), dtype=dt, device=dev).T
        if case == "b_transposed":
            b = Tensor(np.ascontiguousarray(Bm.T), dtype=dt, device=dev).T
        out = a @ b
        return (out + Tensor(bias, dtype=dt, device=dev)).relu() if case == "bias_relu" else out
    got = build("AMD").numpy().astype(np.float32)
    want = build("CPU").numpy().astype(np.float32)
    np.testing.assert_allclose(got, want, rtol=2e-2, atol=2e-2)
    items = [i for i in create_schedule([build("AMD").node]) if i.kind == "kernel"]
    k = lower(items[-1].ast, items[-1].bufs, amd.optimizations(
        {"shape": (), "reduce_dims": [], "dtypes": [b.dtype for b in items[-1].bufs]}) or [], 3)
    assert "v_wmma_f32_16x16x16" in compile_kernel(k).text


@pytest.mark.parametrize("group", [32, 64, 256])
@pytest.mark.parametrize("dt,op", [(D.float32, "sum"), (D.float32, "max"), (D.int32, "max")],
                         ids=lambda v: getattr(v, "name", v))
def test_grouped_reductions_combine_across_lanes(amd, group, dt, op):
    """A reduction split over a workgroup: partials meet through DPP inside waves and LDS
    between them (NaN kept by float max); the same result as the reference."""
    from tensor import Tensor
    from tensor.codegen.rdna3 import compile_kernel
    from tensor.lower import lower
    from tensor.opt import Opt
    from tensor.schedule import create_schedule
    rng = np.random.default_rng(group)
    x = (rng.standard_normal((3, 1024)) * 100).astype(dt.np)
    if dt is D.float32 and op == "max":
        x[1, 517] = np.nan
    t = Tensor(x, device="CPU").realize()
    out = t.sum(1) if op == "sum" else t.amax(1)
    (item,) = [i for i in create_schedule([out.node.view()[0]]) if i.kind == "kernel"]
    k = lower(item.ast, item.bufs, [Opt("group", 1, group)], 3)
    ck = compile_kernel(k)
    assert "_dpp" in ck.text and ("s_barrier" in ck.text) == (group > 32)
    got, want = run(amd, k, [x])
    if dt is D.float32:
        np.testing.assert_allclose(got, want, rtol=1e-5)
        assert np.isnan(got[1]) == (op == "max")
    else:
        np.testing.assert_array_equal(got, want)


def test_the_code_generator_reads_only_the_loop_ir_and_dtypes():
    """A code generator knows nothing of Tensors: tensor.codegen imports, from the tensor
    package, only the loop-level IR and the element types."""
    import ast
    import os
    root = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tensor", "codegen")
    allowed = {"tensor.loopir", "tensor.dtypes"}
    for folder, _, files in os.walk(root):
        for name in files:
            if not name.endswith(".py"):
                continue
            tree = ast.parse(open(os.path.join(folder, name)).read())
            for node in ast.walk(tree):
                mods = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                    [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0 else []
                for m in mods:
                    if m and (m == "tensor" or m.startswith("tensor.")) and not m.startswith("tensor.codegen"):
                        assert m in allowed, f"{name} imports {m}"
