"""The CUDA test kernels as runnable cases: inputs, launch shape, and numpy's answer.

Each case builds seeded inputs, allocates device buffers, launches the kernel of
hw_tests/kernels/nv/cubin/<name>.sm_<NN>.cubin (nvcc's build of hw_tests/kernels/nv/<name>.cu, see
scripts/build_nv_kernels.py) and compares every output with numpy: integers exactly, floats within
the error CUDA documents for the function (ulps for the math library, a relative bound for sums
whose order differs), halves in f16.  Used by the NVIDIA bring-up stages, tests/test_nv_kernels.py
and scripts/bench_emu.py.
"""
import math
import os

import numpy as np

SOURCE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernels", "nv")
CUBIN_DIR = os.path.join(SOURCE_DIR, "cubin")
LISTING_DIR = os.path.join(SOURCE_DIR, "sass")


def cubin_path(name, target):
    return os.path.join(CUBIN_DIR, f"{name}.{target}.cubin")


def listing(name, target):
    """nvdisasm's frozen listing of the cubin's kernels: {kernel: [(offset, text)]}."""
    out, kernel = {}, None
    with open(os.path.join(LISTING_DIR, f"{name}.{target}.sass")) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith(".kernel "):
                kernel = out.setdefault(line.split()[1], [])
            elif line and not line.startswith("#"):
                off, text = line.split(" ", 1)
                kernel.append((int(off, 16), text))
    return out


def decoder_disagrees(name, target):
    """Why the SASS decoder (assembler.sass) cannot be trusted with this cubin's code, or None: the
    first instruction whose decoding differs from nvdisasm's frozen listing, or a word it refuses.
    The simulator runs only code its decoder reads as nvdisasm does."""
    from assembler.errors import AssemblerError
    from assembler.sass import decode
    from drivers.emu.nv.sass.decode import tables_missing
    from drivers.nv.cubin import read_cubin
    absent = tables_missing(target)
    if absent:
        return absent
    with open(cubin_path(name, target), "rb") as f:
        cubin = read_cubin(f.read(), cubin_path(name, target))
    for kernel, lines in listing(name, target).items():
        k = cubin.kernels[kernel]
        code = cubin.text(kernel).data[k.offset:k.offset + k.code_size]
        for off, want in lines:
            try:
                got = decode(code, target, off).text
            except AssemblerError as e:
                return f"assembler.sass refuses {kernel}+0x{off:x} ({want}): {e}"
            got = " ".join(got.split()).rstrip(" ;").rstrip(";")
            if got != want:
                return f"assembler.sass decodes {kernel}+0x{off:x} as '{got}'; nvdisasm says '{want}'"
    return None


def ulp_diff(a, b):
    """|a - b| in units in the last place of f32 (NaN == NaN)."""
    a, b = np.asarray(a, np.float32), np.asarray(b, np.float32)
    ia = a.view(np.int32).astype(np.int64)
    ib = b.view(np.int32).astype(np.int64)
    ia = np.where(ia < 0, -(ia & 0x7FFFFFFF), ia)
    ib = np.where(ib < 0, -(ib & 0x7FFFFFFF), ib)
    d = np.abs(ia - ib)
    return np.where(np.isnan(a) & np.isnan(b), 0, d)


class Case:
    name = kernel = None
    rng_seed = 1

    def __init__(self):
        self.rng = np.random.default_rng(self.rng_seed)

    # Each case defines run(dev, prg) -> {output name: numpy array} (launch the kernel with its inputs)
    # and check(outputs), which asserts every output matches numpy (AssertionError naming the element).


def _buf(dev, array):
    b = dev.alloc(max(array.nbytes, 4))
    b.copyin(array)
    return b


def _out(dev, buf, dtype, count):
    a = np.empty(count, dtype)
    buf.copyout(a)
    return a


def _close(name, got, want, rtol=0.0, atol=0.0):
    got, want = np.asarray(got), np.asarray(want)
    bad = ~np.isclose(got, want, rtol=rtol, atol=atol, equal_nan=True)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise AssertionError(f"{name}[{i}] = {got.flat[i]!r}, numpy says {want.flat[i]!r} "
                             f"({int(bad.sum())} of {bad.size} differ)")


def _equal(name, got, want):
    got, want = np.asarray(got), np.asarray(want)
    bad = got != want
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise AssertionError(f"{name}[{i}] = {got.flat[i]!r}, numpy says {want.flat[i]!r} "
                             f"({int(bad.sum())} of {bad.size} differ)")


def _ulps(name, got, want, limit):
    d = ulp_diff(got, want)
    if (d > limit).any():
        i = int(np.argmax(d))
        raise AssertionError(f"{name}[{i}] = {got[i]!r}, numpy says {want[i]!r}: {int(d[i])} ulp (at most {limit})")


class Saxpy(Case):
    name = kernel = "saxpy"

    def run(self, dev, prg):
        n = 1000
        self.x, self.y = self.rng.random(n, np.float32), self.rng.random(n, np.float32)
        bx, by = _buf(dev, self.x), _buf(dev, self.y)
        prg["saxpy"](np.float32(2.5), bx, by, n, grid=(-(-n // 128),), block=(128,), wait=True)
        return {"y": _out(dev, by, np.float32, n)}

    def check(self, out):
        want = (np.float64(2.5) * self.x + self.y).astype(np.float32)      # one FFMA: a single rounding
        _ulps("y", out["y"], want, 0)


class Transcendental(Case):
    name = kernel = "transcendental"

    def run(self, dev, prg):
        x = np.concatenate([self.rng.uniform(-20, 20, 200), self.rng.uniform(-1, 1, 40),
                            [1e6, -3.1e7, 123456.7, 0.5, -0.5, 1.0, 1e-3, -88.0, 3e-40, 88.0, 1e30, -7e4,
                             5e5, 0.1, -1e-20, 2.0]]).astype(np.float32)
        self.x = x
        bx, bo = _buf(dev, x), dev.alloc(9 * 4 * len(x))
        prg["transcendental"](bx, bo, len(x), grid=(-(-len(x) // 64),), block=(64,), wait=True)
        return {"out": _out(dev, bo, np.float32, 9 * len(x)).reshape(len(x), 9)}

    def check(self, out):
        x = self.x.astype(np.float64)
        o = out["out"]
        with np.errstate(all="ignore"):
            ref = [np.sin(x), np.cos(x), np.exp(x * np.float32(0.125)),
                   np.log((np.abs(self.x) + np.float32(1)).astype(np.float64)), np.sqrt(np.abs(x)),
                   1 / np.sqrt((np.abs(self.x) + np.float32(0.5)).astype(np.float64)), 1 / x]
        names = ["sinf", "cosf", "expf", "logf", "sqrtf", "rsqrtf", "1/x"]
        limits = [2, 2, 2, 1, 0, 2, 0]                       # CUDA's documented maximum ulp errors
        with np.errstate(over="ignore"):            # 1/x and exp overflow to inf as float32 does
            ref32 = [np.asarray(r).astype(np.float32) for r in ref]
        for k, (name, r, lim) in enumerate(zip(names, ref32, limits)):
            _ulps(name, o[:, k], r, lim)
        small = np.abs(x) < 30
        fast_exp = np.exp2(x[small] * np.float32(0.0625) * np.log2(np.e))
        _close("__expf", o[small, 7], fast_exp, rtol=2e-6)
        near = np.abs(x) < math.pi
        _close("__sinf", o[near, 8], np.sin(x[near]), atol=2 ** -21.41)


class ShuffleReduce(Case):
    name = kernel = "shuffle_reduce"

    def run(self, dev, prg):
        n = 1000
        self.x = self.rng.normal(size=n).astype(np.float32)
        warps = -(-n // 32)
        bx = _buf(dev, self.x)
        bs, bm, bv = dev.alloc(4 * warps), dev.alloc(4 * warps), dev.alloc(4 * warps)
        prg["shuffle_reduce"](bx, bs, bm, bv, n, grid=(-(-n // 128),), block=(128,), wait=True)
        self.warps = warps
        return {"sums": _out(dev, bs, np.float32, warps), "maxes": _out(dev, bm, np.float32, warps),
                "votes": _out(dev, bv, np.uint32, warps)}

    def check(self, out):
        x = np.concatenate([self.x, np.zeros(self.warps * 32 - len(self.x), np.float32)]).reshape(-1, 32)
        _close("sums", out["sums"], x.astype(np.float64).sum(axis=1), rtol=1e-5, atol=1e-5)
        _equal("maxes", out["maxes"], x.max(axis=1))
        _equal("votes", out["votes"], (x > 0).sum(axis=1))


class SmemReduce(Case):
    name = kernel = "smem_reduce"

    def run(self, dev, prg):
        n = 5000
        self.x = self.rng.random(n, np.float32)
        self.blocks = -(-n // 256)
        bx, bo = _buf(dev, self.x), dev.alloc(4 * self.blocks)
        prg["smem_reduce"](bx, bo, n, grid=(self.blocks,), block=(256,), wait=True)
        return {"out": _out(dev, bo, np.float32, self.blocks)}

    def check(self, out):
        x = np.concatenate([self.x, np.zeros(self.blocks * 256 - len(self.x), np.float32)]).reshape(-1, 256)
        _close("out", out["out"], x.astype(np.float64).sum(axis=1), rtol=1e-5)


class Histogram(Case):
    name = kernel = "histogram"

    def run(self, dev, prg):
        n = 6000
        self.x = self.rng.integers(0, 100000, n, dtype=np.uint32)
        bx, bb, bm = _buf(dev, self.x), _buf(dev, np.zeros(64, np.uint32)), _buf(dev, np.zeros(1, np.uint32))
        prg["histogram"](bx, bb, bm, n, grid=(6,), block=(128,), wait=True)
        return {"bins": _out(dev, bb, np.uint32, 64), "max": _out(dev, bm, np.uint32, 1)}

    def check(self, out):
        _equal("bins", out["bins"], np.bincount(self.x % 64, minlength=64))
        _equal("max", out["max"], [self.x.max()])


class IntDiv(Case):
    name = kernel = "intdiv"

    def run(self, dev, prg):
        n = 700
        a = self.rng.integers(-2 ** 31 + 1, 2 ** 31 - 1, n, dtype=np.int64).astype(np.int32)
        b = self.rng.integers(-70000, 70000, n, dtype=np.int64).astype(np.int32)
        b[b == 0] = 7
        a[:8] = [0, 1, -1, 2 ** 31 - 1, -2 ** 31 + 1, 5, -5, 123456789]
        b[:8] = [3, -1, 1, 1, 2, -5, 5, -10]
        self.a, self.b = a, b
        bufs = [_buf(dev, a), _buf(dev, b)] + [dev.alloc(4 * n) for _ in range(3)] + [dev.alloc(8 * n)]
        prg["intdiv"](*bufs, n, grid=(-(-n // 256),), block=(256,), wait=True)
        return {"q": _out(dev, bufs[2], np.int32, n), "r": _out(dev, bufs[3], np.int32, n),
                "uq": _out(dev, bufs[4], np.uint32, n), "q64": _out(dev, bufs[5], np.int64, n)}

    def check(self, out):
        a, b = self.a.astype(np.int64), self.b.astype(np.int64)
        q = (np.sign(a) * np.sign(b)) * (np.abs(a) // np.abs(b))      # C division truncates toward zero
        _equal("q", out["q"], q.astype(np.int32))
        _equal("r", out["r"], (a - q * b).astype(np.int32))
        _equal("uq", out["uq"], (a.astype(np.uint32) // b.astype(np.uint32)))
        p = a * 1000003
        _equal("q64", out["q64"], (np.sign(p) * np.sign(b)) * (np.abs(p) // np.abs(b)))


class Divergent(Case):
    name = kernel = "divergent"

    def run(self, dev, prg):
        n = 500
        self.x = self.rng.integers(1, 20000, n, dtype=np.int32)
        self.x[:4] = [1, 2, 27, 97]
        bx, bs, bk = _buf(dev, self.x), dev.alloc(4 * n), dev.alloc(4 * n)
        prg["divergent"](bx, bs, bk, n, grid=(-(-n // 64),), block=(64,), wait=True)
        return {"steps": _out(dev, bs, np.int32, n), "kind": _out(dev, bk, np.int32, n)}

    def check(self, out):
        steps = []
        for v in self.x.tolist():
            s = 0
            while v > 1 and s < 200:
                v = 3 * v + 1 if v & 1 else v >> 1
                s += 1
            steps.append(s)
        steps = np.array(steps)
        x = self.x.astype(np.int64)
        r = x % 5
        kind = np.select([r == 0, r == 1, r == 2, r == 3], [10, x * 3, -x, steps + 7], x ^ 0x5A5A)
        kind = kind + np.where(np.arange(len(x)) % 64 & 1, 1000, 0)
        _equal("steps", out["steps"], steps)
        _equal("kind", out["kind"], kind.astype(np.int32))


class Sgemm(Case):
    name = kernel = "sgemm"

    def run(self, dev, prg):
        self.M, self.N, self.K = 40, 36, 50
        self.A = self.rng.normal(size=(self.M, self.K)).astype(np.float32)
        self.B = self.rng.normal(size=(self.K, self.N)).astype(np.float32)
        ba, bb, bc = _buf(dev, self.A), _buf(dev, self.B), dev.alloc(4 * self.M * self.N)
        prg["sgemm"](ba, bb, bc, self.M, self.N, self.K, grid=(-(-self.N // 16), -(-self.M // 16)), block=(16, 16),
                     wait=True)
        return {"C": _out(dev, bc, np.float32, self.M * self.N).reshape(self.M, self.N)}

    def check(self, out):
        _close("C", out["C"], self.A.astype(np.float64) @ self.B, rtol=1e-4, atol=1e-4)


class Half2(Case):
    name = kernel = "half2"

    def run(self, dev, prg):
        n = 300
        self.a, self.b, self.c = (self.rng.uniform(-4, 4, 2 * n).astype(np.float16) for _ in range(3))
        ba, bb, bc, bl = _buf(dev, self.a), _buf(dev, self.b), _buf(dev, self.c), dev.alloc(4 * n)
        prg["half2_fma"](ba, bb, bc, bl, n, grid=(-(-n // 64),), block=(64,), wait=True)
        return {"c": _out(dev, bc, np.float16, 2 * n), "lo": _out(dev, bl, np.float32, n)}

    def check(self, out):
        r = (self.a.astype(np.float64) * self.b + self.c).astype(np.float16)
        r = np.maximum(r, np.float16(-8))
        _equal("c", out["c"], r)
        pairs = r.astype(np.float32).reshape(-1, 2)
        _equal("lo", out["lo"], pairs[:, 0] + pairs[:, 1])


class Index64(Case):
    name = kernel = "index64"
    N = 1_300_000_000          # 5.2 GB of floats: indices past 2^32 bytes

    def run(self, dev, prg):
        count, stride, base = 2000, 1_000_003, 1_200_000_000
        self.i = np.arange(count, dtype=np.int64)
        self.j = (self.i * stride + base) % self.N
        bx = dev.alloc(4 * self.N, cpu_access=True)
        view = bx.view(np.float32)
        self.vals = self.rng.random(count, np.float32)
        view[self.j] = self.vals
        by = dev.alloc(4 * count)
        prg["index64"](bx, by, self.N, stride, base, grid=(-(-count // 128),), block=(128,), wait=True)
        out = _out(dev, by, np.float32, count)
        bx.free()
        return {"y": out}

    def check(self, out):
        _equal("y", out["y"], (self.vals * np.float32(2) + (self.j & 7).astype(np.float32)).astype(np.float32))


class Mma(Case):
    name, kernel = "mma", "mma_f16"

    def run(self, dev, prg):
        self.A = self.rng.uniform(-1, 1, (16, 16)).astype(np.float16)
        self.B = self.rng.uniform(-1, 1, (16, 8)).astype(np.float16)
        ba, bb, bc = _buf(dev, self.A), _buf(dev, self.B), dev.alloc(16 * 8 * 4)
        prg["mma_f16"](ba, bb, bc, grid=(1,), block=(32,), wait=True)
        return {"C": _out(dev, bc, np.float32, 128).reshape(16, 8)}

    def check(self, out):
        _close("C", out["C"], self.A.astype(np.float64) @ self.B.astype(np.float64), rtol=1e-5, atol=1e-6)


class LocalArray(Case):
    name = kernel = "local_array"

    def run(self, dev, prg):
        n = 300
        self.idx = self.rng.integers(0, 24 * 24, n, dtype=np.int32)
        bi, bo = _buf(dev, self.idx), dev.alloc(4 * n)
        prg["local_array"](bi, bo, n, grid=(-(-n // 96),), block=(96,), wait=True)
        return {"out": _out(dev, bo, np.int32, n)}

    def check(self, out):
        want = []
        for i, v in enumerate(self.idx.tolist()):
            table = [(k * 7 + i) ^ (k << 3) for k in range(24)]
            a, b = v % 24, (v // 24) % 24
            table[a] += table[b]
            want.append(table[a] - table[(a + 5) % 24])
        _equal("out", out["out"], np.array(want, np.int32))


class GridIds(Case):
    name = kernel = "grid_ids"

    def run(self, dev, prg):
        self.grid, self.block = (3, 2, 2), (4, 3, 2)
        total = 12 * 24
        bo = dev.alloc(8 * 4 * total)
        prg["grid_ids"](bo, grid=self.grid, block=self.block, wait=True)
        return {"ids": _out(dev, bo, np.int32, 8 * total).reshape(total, 8)}

    def check(self, out):
        rows = []
        gx, gy, gz = self.grid
        bx, by, bz = self.block
        for z in range(gz):
            for y in range(gy):
                for x in range(gx):
                    for tz in range(bz):
                        for ty in range(by):
                            for tx in range(bx):
                                rows.append([x, y, z, tx, ty, tz, gx * gy * gz, bx * by * bz])
        _equal("ids", out["ids"], np.array(rows, np.int32))


CASES = [Saxpy, Transcendental, ShuffleReduce, SmemReduce, Histogram, IntDiv, Divergent, Sgemm, Half2, Index64, Mma,
         LocalArray, GridIds]
TARGETS = ("sm_86", "sm_89", "sm_90")


def run_case(dev, cls, target, prg=None):
    """Load, run and check one case on `dev` -> the outputs."""
    case = cls()
    prg = prg or dev.load(cubin_path(case.name, target))
    out = case.run(dev, prg)
    case.check(out)
    return out
