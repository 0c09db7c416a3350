"""Instruction families, each run by a hand-written kernel and compared with numpy.

Integer and correctly rounded float results must be bit-exact. Transcendentals are compared
with float64 numpy in ULPs of the float32 result; sin and cos (which take revolutions and return
values in [-1, 1]) in ULPs of 1.0, so their error is absolute. ULP_BOUNDS holds this suite's
acceptance bounds (1 ULP for exp2, log2, rcp, rsq, sqrt; 16 ULP of 1.0 for sin, cos); the measured
maxima are in the report either way.
Inputs stay in ranges where the float64 reference of an FMA is exact, so one rounding to
float32/float16 gives the correctly rounded answer.
"""
import numpy as np

from hw_tests import programs
from hw_tests.programs import Buffers, run
from hw_tests.runner import CheckFailed, check

M32 = 0xFFFFFFFF
BLOCK = 64                                          # the elementwise kernels use blocks of 64
ULP_BOUNDS = {"exp2": 1, "log2": 1, "rcp": 1, "rsq": 1, "sqrt": 1, "sin": 16, "cos": 16}


def compare(what, got, want):
    """Bit-exact comparison of two arrays; the failure names the first differing element."""
    got, want = np.ascontiguousarray(got), np.ascontiguousarray(want)
    if got.shape != want.shape or got.dtype.itemsize != want.dtype.itemsize:
        raise CheckFailed(f"{what}: got {got.shape} x {got.dtype}, numpy has {want.shape} x {want.dtype}")
    if not np.array_equal(got.view(np.uint8), want.view(np.uint8)):
        bad = np.flatnonzero(got.reshape(-1).view(np.uint8) != want.reshape(-1).view(np.uint8))
        i = bad[0] // got.dtype.itemsize
        raise CheckFailed(f"{what}: element {i} is {got.reshape(-1)[i]!r}, numpy says {want.reshape(-1)[i]!r} "
                          f"({len(set(bad // got.dtype.itemsize))} of {got.size} elements differ)")


def first_dispatch(ctx, r):
    """Assemble a first kernel with our assembler, load it, dispatch it on 8 workgroups"""
    r.step("assemble and load grid_mark.s")
    programs.program(ctx, "grid_mark")
    programs.require_executor(ctx)
    r.step("dispatch")
    with Buffers(ctx.dev) as b:
        out = b.empty(64, fill=0)
        seconds = run(ctx, "grid_mark", out, grid=(8, 1, 1), block=(1, 1, 1))
        marks = b.download(out, np.uint8)
    compare("grid_mark over 8 workgroups", marks, np.array([1] * 8 + [0] * 56, np.uint8))
    r.measure("gpu_seconds", round(seconds, 9), "s")
    r.summary = f"grid_mark.s assembled, loaded and run on 8 workgroups ({seconds * 1e3:.3f} ms of GPU time)"


def salu(ctx, r):
    """SALU: arithmetic, logic, shifts, bit fields, compares and a loop, against Python integers"""
    cases = [(0x12345678, 0x9ABCDEF0), (0xFFFFFFFF, 1), (7, 0x80000000), (0x80000010, 0x7FFFFFFF)]
    with Buffers(ctx.dev) as b:
        for a, bb in cases:
            r.step(f"a = 0x{a:08x}, b = 0x{bb:08x}")
            out = b.empty(88, fill=0)
            run(ctx, "salu", out, a, bb)
            got = b.download(out, np.uint32, 20)
            compare(f"SALU results for a=0x{a:x} b=0x{bb:x}", got, np.array(salu_expected(a, bb), np.uint32))
    r.summary = f"20 scalar results x {len(cases)} operand pairs bit-exact"


def _s32(x):
    return x - (1 << 32) if x & 0x80000000 else x


def salu_expected(a, b):
    n = b & 63
    return [(a + b) & M32, (a - b) & M32, (a * b) & M32, (a * b) >> 32, a & b, a | b, a ^ b, (a << 7) & M32,
            a >> 5, (_s32(a) >> 9) & M32, min(a, b), max(_s32(a), _s32(b)) & M32, bin(a).count("1"),
            int(f"{a:032b}"[::-1], 2), (a >> 4) & 0xFF, max(a, b), n * (n + 1) // 2, (a + b) >> 32,
            (a & -a).bit_length() - 1 if a else M32, ~a & M32]


def _inputs(n, lo, hi, seed, dtype=np.float32):
    """Random values with magnitude in [lo, hi) and random sign."""
    rng = np.random.default_rng(seed)
    mag = rng.uniform(lo, hi, n)
    return (mag * rng.choice([-1.0, 1.0], n)).astype(dtype)


def _elementwise(ctx, name, a, b, c, per_item):
    n = a.size                                     # every input holds one 4-byte value per work-item
    with Buffers(ctx.dev) as bufs:
        out = bufs.empty(n * per_item * 4, fill=0)
        run(ctx, name, out, bufs.upload(a), bufs.upload(b), bufs.upload(c),
            grid=(n // BLOCK, 1, 1), block=(BLOCK, 1, 1))
        return bufs.download(out, np.uint32).reshape(n, per_item)


def valu_f32(ctx, r):
    """VALU f32: add, sub, mul, fma, fmac, min, max, cvt_i32 bit-exact against numpy"""
    n = r.measure("work_items", ctx.size(4096, 256, r, "work-items"))
    a, b, c = _inputs(n, 0.5, 2, 1), _inputs(n, 0.5, 2, 2), _inputs(n, 0.5, 2, 3)
    a[:4] = [np.float32(1e-39), -0.0, 3.5, -7.75]        # a denormal, a signed zero, exact halves
    r.step(f"{n} work-items")
    got = _elementwise(ctx, "valu_f32", a, b, c, 8)
    f = lambda x: np.asarray(x, np.float32).view(np.uint32)           # noqa: E731
    fma = (a.astype(np.float64) * b + c).astype(np.float32)
    for j, (what, want) in enumerate((("add", f(a + b)), ("sub", f(a - b)), ("mul", f(a * b)), ("fma", f(fma)),
                                      ("min", f(np.minimum(a, b))), ("max", f(np.maximum(a, b))),
                                      ("fmac", f(fma)), ("cvt_i32", np.trunc(a).astype(np.int32).view(np.uint32)))):
        compare(f"v_{what}_f32", got[:, j], want)
    r.summary = f"8 operations x {n} work-items bit-exact (denormals kept, round to nearest even)"


def valu_f16(ctx, r):
    """VALU f16 and packed f16: add, mul, fma, pk_add, pk_mul, pk_fma, conversions bit-exact"""
    n = r.measure("work_items", ctx.size(4096, 256, r, "work-items"))
    h = [_inputs(2 * n, 1 / 16, 4, s, np.float16) for s in (4, 5, 6)]
    a, b, c = (x.view(np.uint32) for x in h)
    r.step(f"{n} work-items")
    got = _elementwise(ctx, "valu_f16", a, b, c, 8)
    ha, hb, hc = (x.reshape(n, 2) for x in h)
    fma = (ha.astype(np.float64) * hb + hc).astype(np.float16)
    lo = lambda x: np.ascontiguousarray(x[:, 0]).view(np.uint16)      # noqa: E731
    pk = lambda x: np.ascontiguousarray(x).view(np.uint32).reshape(n)  # noqa: E731
    low16 = (got & 0xFFFF).astype(np.uint16)
    compare("v_add_f16", low16[:, 0], lo(ha + hb))
    compare("v_mul_f16", low16[:, 1], lo(ha * hb))
    compare("v_fma_f16", low16[:, 2], lo(fma))
    compare("v_pk_add_f16", got[:, 3], pk(ha + hb))
    compare("v_pk_mul_f16", got[:, 4], pk(ha * hb))
    compare("v_pk_fma_f16", got[:, 5], pk(fma))
    compare("v_cvt_f32_f16", got[:, 6], ha[:, 0].astype(np.float32).view(np.uint32))
    compare("v_cvt_f16_f32", low16[:, 7], lo(ha))
    r.summary = f"8 operations (3 scalar f16 low halves, 3 packed, 2 conversions) x {n} work-items bit-exact"


def valu_int(ctx, r):
    """VALU integer: add, sub, mul lo/hi, shifts, logic, min/max, bfe, select, carry, popcount, cvt"""
    n = r.measure("work_items", ctx.size(4096, 256, r, "work-items"))
    rng = np.random.default_rng(9)
    a = rng.integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32)
    b = rng.integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32)
    a[:4], b[:4] = [0, M32, 0x80000000, 5], [M32, 1, 0x80000000, 37]
    r.step(f"{n} work-items")
    got = _elementwise(ctx, "valu_int", a, b, np.zeros(n, np.uint32), 16)
    a64, b64 = a.astype(np.uint64), b.astype(np.uint64)
    sa, sb = a.view(np.int32), b.view(np.int32)
    sh = b & 31
    want = [a + b, a - b, ((a64 * b64) & M32).astype(np.uint32), ((a64 * b64) >> 32).astype(np.uint32),
            a << sh, a >> sh, (sa >> sh.astype(np.int32)).view(np.uint32), a ^ b,
            np.minimum(sa, sb).view(np.uint32), np.maximum(a, b), (a >> 3) & 0x1FF,
            np.where(sa > sb, a, b), ((a64 + b64) >> 32).astype(np.uint32), a + b,
            np.array([bin(int(x)).count("1") for x in a], np.uint32), a.astype(np.float32).view(np.uint32)]
    names = ("add_nc_u32", "sub_nc_u32", "mul_lo_u32", "mul_hi_u32", "lshlrev_b32", "lshrrev_b32", "ashrrev_i32",
             "xor_b32", "min_i32", "max_u32", "bfe_u32", "cndmask_b32", "add_co_ci_u32 (carry)", "add_co_u32",
             "bcnt_u32_b32", "cvt_f32_u32")
    for j, (what, w) in enumerate(zip(names, want)):
        compare(f"v_{what}", got[:, j], np.asarray(w, np.uint32))
    r.summary = f"16 operations x {n} work-items bit-exact"


def ulp_error(got, want, unit=None):
    """|got - want| in ULPs of the float32 closest to ``want`` (or in units of ``unit``)."""
    got, want = got.astype(np.float64), want.astype(np.float64)
    scale = np.full_like(want, unit) if unit is not None else \
        np.spacing(np.abs(want).astype(np.float32)).astype(np.float64)
    return np.abs(got - want) / scale


def transcendental(ctx, r):
    """Transcendentals (exp2, log2, rcp, rsq, sqrt, sin, cos): error in ULP against float64"""
    n = r.measure("work_items", ctx.size(4096, 256, r, "work-items"))
    rng = np.random.default_rng(11)
    x = np.zeros((n, 8), np.float32)
    x[:, 0] = rng.uniform(-20, 20, n)                                   # exp2
    x[:, 1] = np.exp2(rng.uniform(-20, 20, n))                          # log2, away from 1 below
    x[:, 1] = np.where(np.abs(x[:, 1] - 1) < 0.5, x[:, 1] * 4, x[:, 1])
    for k in (2, 3, 4):
        x[:, k] = np.exp2(rng.uniform(-30, 30, n))                      # rcp, rsq, sqrt
    x[:, 2] *= rng.choice([-1, 1], n)
    x[:, 5] = rng.uniform(-1, 1, n)                                     # sin, cos take revolutions
    x[:, 6] = rng.uniform(-1, 1, n)
    r.step(f"{n} work-items")
    with Buffers(ctx.dev) as b:
        out = b.empty(x.nbytes, fill=0)
        run(ctx, "transcendental", out, b.upload(x), grid=(n // BLOCK, 1, 1), block=(BLOCK, 1, 1))
        got = b.download(out, np.float32).reshape(n, 8)
    xd = x.astype(np.float64)
    refs = {"exp2": (np.exp2(xd[:, 0]), None), "log2": (np.log2(xd[:, 1]), None), "rcp": (1 / xd[:, 2], None),
            "rsq": (1 / np.sqrt(xd[:, 3]), None), "sqrt": (np.sqrt(xd[:, 4]), None),
            "sin": (np.sin(2 * np.pi * xd[:, 5]), 2.0 ** -23), "cos": (np.cos(2 * np.pi * xd[:, 6]), 2.0 ** -23)}
    worst = {}
    for k, (name, (want, unit)) in enumerate(refs.items()):
        err = ulp_error(got[:, k], want, unit)
        worst[name] = float(np.max(err))
        r.measure(f"{name}_max_ulp", round(worst[name], 3), "ULP")
        i = int(np.argmax(err))
        check(worst[name] <= ULP_BOUNDS[name], f"v_{name}_f32: {worst[name]:.2f} ULP at x = {x[i, k]!r} "
              f"(got {got[i, k]!r}, float64 says {want[i]!r}); bound {ULP_BOUNDS[name]} ULP")
    r.summary = "max error " + ", ".join(f"{k} {v:.2f}" for k, v in worst.items()) + " ULP"


def vopd(ctx, r):
    """VOPD: dual-issue pairs (add/mul, sub/max, min/mov, fmac/fmac) bit-exact"""
    n = r.measure("work_items", ctx.size(4096, 256, r, "work-items"))
    a, b = _inputs(n, 0.5, 2, 12), _inputs(n, 0.5, 2, 13)
    r.step(f"{n} work-items")
    got = _elementwise(ctx, "vopd", a, b, np.zeros(n, np.float32), 8)
    f = lambda x: np.asarray(x, np.float32).view(np.uint32)           # noqa: E731
    ad, bd = a.astype(np.float64), b.astype(np.float64)
    for j, (what, want) in enumerate((("dual_add_f32", a + b), ("dual_mul_f32", a * b), ("dual_sub_f32", a - b),
                                      ("dual_max_f32", np.maximum(a, b)), ("dual_min_f32", np.minimum(a, b)),
                                      ("dual_mov_b32", b), ("dual_fmac_f32 (X)", (1 + ad * bd).astype(np.float32)),
                                      ("dual_fmac_f32 (Y)", (2 + ad * bd).astype(np.float32)))):
        compare(f"v_{what}", got[:, j], f(want))
    r.summary = f"4 dual-issue instructions (8 results) x {n} work-items bit-exact"


def wmma(ctx, r):
    """WMMA: v_wmma_f32_16x16x16_f16 against numpy (exact on integers, 1e-6 relative on random)"""
    rng = np.random.default_rng(14)
    square = (16, 16)
    trials = {"integers": (rng.integers(-4, 5, square), rng.integers(-4, 5, square), rng.integers(-64, 65, square)),
              "random": (rng.uniform(-1, 1, square), rng.uniform(-1, 1, square), rng.uniform(-1, 1, square))}
    worst = 0.0
    with Buffers(ctx.dev) as bufs:
        for what, (A, B, C) in trials.items():
            r.step(f"16x16x16 on {what}")
            A16, B16, C32 = A.astype(np.float16), B.astype(np.float16), C.astype(np.float32)
            lane = np.arange(32)
            cfrag = np.stack([C32[2 * e + lane // 16, lane % 16] for e in range(8)], axis=1)   # [lane][e]
            out = bufs.empty(32 * 8 * 4, fill=0)
            run(ctx, "wmma", out, bufs.upload(A16), bufs.upload(np.ascontiguousarray(B16.T)),
                bufs.upload(np.ascontiguousarray(cfrag)), grid=(1, 1, 1), block=(32, 1, 1))
            frag = bufs.download(out, np.float32).reshape(32, 8)
            D = np.empty((16, 16), np.float32)
            for e in range(8):
                D[2 * e + lane // 16, lane % 16] = frag[:, e]
            want = A16.astype(np.float64) @ B16.astype(np.float64) + C32
            if what == "integers":
                compare("v_wmma_f32_16x16x16_f16 on small integers", D, want.astype(np.float32))
            else:
                scale = np.abs(A16.astype(np.float64)) @ np.abs(B16.astype(np.float64)) + np.abs(C32)
                rel = float(np.max(np.abs(D - want) / scale))
                worst = max(worst, rel)
                check(rel <= 1e-6, f"v_wmma_f32_16x16x16_f16: relative error {rel:.2e} "
                      "(bound 1e-6 of the sum of |terms|)")
    r.measure("random_max_relative_error", worst)
    r.summary = f"16x16x16 f16 -> f32 exact on integers, {worst:.1e} relative error on random inputs"


def smem(ctx, r):
    """SMEM: scalar loads of 1, 2, 4, 8 and 16 dwords and an SGPR offset"""
    src = np.arange(0x1000, 0x1000 + 128, dtype=np.uint32) * np.uint32(0x10001)
    with Buffers(ctx.dev) as b:
        out = b.empty(128, fill=0)
        run(ctx, "smem", out, b.upload(src))
        got = b.download(out, np.uint32, 32)
    want = np.concatenate([src[1:2], src[2:4], src[8:12], src[16:24], src[32:48], src[64:65]])
    compare("s_load_b32/b64/b128/b256/b512 and SGPR offset", got, want)
    r.summary = "s_load of 1, 2, 4, 8, 16 dwords and with an SGPR offset: 32 dwords right"


def global_memory(ctx, r):
    """GLOBAL: loads of every width with sign/zero extension, byte/short stores, atomics"""
    n = 64
    rng = np.random.default_rng(15)
    src = rng.integers(0, 1 << 32, 4 * n, dtype=np.uint64).astype(np.uint32)
    src[:4] = [0x80FF7F01, 0x0000FFFF, 0xFFFF8000, 0x7F80]
    with Buffers(ctx.dev) as b:
        out, counters, small = b.empty(n * 64, fill=0), b.empty(16, fill=0), b.empty(256, fill=0)
        run(ctx, "global_mem", out, b.upload(src), counters, small, grid=(1, 1, 1), block=(n, 1, 1))
        got = b.download(out, np.uint32).reshape(n, 16)
        cnt = b.download(counters, np.uint32)
        sm = b.download(small, np.uint8)
    i = np.arange(n)
    sb, s16 = src.view(np.uint8), src.view(np.uint16)
    compare("global_load_b32", got[:, 0], src[i])
    compare("global_load_b64", got[:, 1:3], src[:2 * n].reshape(n, 2))
    compare("global_load_b128", got[:, 3:7], src.reshape(n, 4))
    compare("global_load_u8", got[:, 7], sb[i].astype(np.uint32))
    compare("global_load_i8", got[:, 8], sb[i].view(np.int8).astype(np.int32).view(np.uint32))
    compare("global_load_u16", got[:, 9], s16[i].astype(np.uint32))
    compare("global_load_i16", got[:, 10], s16[i].view(np.int16).astype(np.int32).view(np.uint32))
    compare("global_store_b8", sm[:n], (src[:n] & 0xFF).astype(np.uint8))
    compare("global_store_b16", sm[64:64 + 2 * n].view(np.uint16), (src[:n] & 0xFFFF).astype(np.uint16))
    check(sorted(got[:, 11].tolist()) == list(range(n)), "global_atomic_add_u32 with return: the old values "
          f"are not a permutation of 0..{n - 1}: {sorted(got[:, 11].tolist())[:8]}...")
    check(cnt[0] == n, f"global_atomic_add_u32: counter is {cnt[0]}, want {n}")
    want_max = max(int(x) for x in ((37 * i) % 64) - 20)
    check(cnt[1].view(np.int32) == want_max, f"global_atomic_max_i32: {cnt[1].view(np.int32)}, want {want_max}")
    old = got[:, 13]
    winners = np.flatnonzero(old == 0)
    check(winners.size == 1 and cnt[2] == winners[0] + 1 and (np.delete(old, winners) == cnt[2]).all(),
          f"global_atomic_cmpswap_b32: final {cnt[2]}, {winners.size} work-items saw the initial 0 "
          "(exactly one must win and the others see its value)")
    check(cnt[3] == M32, f"global_atomic_or_b32: 0x{int(cnt[3]):08x}, want 0xffffffff")
    r.summary = "b32/b64/b128/u8/i8/u16/i16 loads, b8/b16 stores, atomic add/max/cmpswap/or over 64 work-items right"


def lds(ctx, r):
    """LDS with barriers: 8 waves exchange data and count through LDS"""
    n = 256
    with Buffers(ctx.dev) as b:
        out = b.empty(n * 8, fill=0)
        run(ctx, "lds", out, grid=(1, 1, 1), block=(n, 1, 1))
        got = b.download(out, np.uint32).reshape(n, 2)
    i = np.arange(n)
    compare("ds_load after s_barrier (reversed neighbour)", got[:, 0], (3 * (n - 1 - i) + 7).astype(np.uint32))
    compare("ds_add_u32 counter after s_barrier", got[:, 1], np.full(n, n, np.uint32))
    r.summary = f"{n} work-items (8 waves): values exchanged across waves, ds_add counter {n}"


def scratch(ctx, r):
    """Scratch: per-work-item private memory stores and loads"""
    n = 64
    with Buffers(ctx.dev) as b:
        out = b.empty(n * 8, fill=0)
        run(ctx, "scratch", out, grid=(1, 1, 1), block=(n, 1, 1))
        got = b.download(out, np.uint32).reshape(2, n)
    i = np.arange(n, dtype=np.uint32)
    compare("scratch sum of 16 dwords", got[0], 256 * i + 120)
    compare("scratch_load of dword 5", got[1], 16 * i + 5)
    r.summary = f"{n} work-items x 16 private dwords written and read back"


def register(reg):
    reg.add("first_dispatch", first_dispatch, depends=["memory"])
    for name, fn in (("isa_salu", salu), ("isa_valu_f32", valu_f32), ("isa_valu_f16", valu_f16),
                     ("isa_valu_int", valu_int), ("isa_transcendental", transcendental), ("isa_vopd", vopd),
                     ("isa_wmma", wmma), ("isa_smem", smem), ("isa_global", global_memory), ("isa_lds", lds),
                     ("isa_scratch", scratch)):
        reg.add(name, fn, depends=["first_dispatch"])
