"""The hand-written ir3 programs in hw_tests/kernels/ir3/ and what numpy says they compute.

Each Case makes inputs for a number of workgroups, lists the call arguments in the program's
parameter order (numpy arrays become buffers, Python numbers scalar @arg values) and checks the
buffers afterwards against numpy. The same cases run on the simulator directly, through
QCOMDevice on the virtual Adreno, and on a phone (``python -m hw_tests --device qcom:0``).
"""
import os

import numpy as np

IR3_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernels", "ir3")


def source_path(name):
    return os.path.join(IR3_DIR, f"{name}.asm")


def assemble(name):
    """hw_tests/kernels/ir3/NAME.asm -> assembler.ir3.Program."""
    from assembler.ir3 import assemble_program
    path = source_path(name)
    with open(path) as f:
        return assemble_program(f.read(), source=path)


def _f16_mad(a, b, c):
    """mad.f16 as the hardware does it: the product is rounded to f16 before the add."""
    return (a * b).astype(np.float16) + c


class Case:
    """One program: ``make(rng, groups)`` -> (call arguments, outputs to check later)."""
    name = ""
    local = 64
    tolerance = None            # (rtol, atol) for float outputs that are not bit-exact

    def grid(self, groups):
        return (groups, 1, 1)

    def check(self, got, want, what):
        if self.tolerance is None:
            if not np.array_equal(got, want):
                bad = np.flatnonzero(got.reshape(-1) != want.reshape(-1))
                i = int(bad[0])
                raise AssertionError(f"{self.name}: {what}[{i}] is {got.reshape(-1)[i]!r}, numpy says "
                                     f"{want.reshape(-1)[i]!r} ({bad.size} of {got.size} differ)")
        else:
            rtol, atol = self.tolerance
            if not np.allclose(got, want, rtol=rtol, atol=atol, equal_nan=True):
                err = np.abs(got.astype(np.float64) - want)
                i = int(np.argmax(err))
                raise AssertionError(f"{self.name}: {what}[{i}] is {got.reshape(-1)[i]!r}, numpy says "
                                     f"{want.reshape(-1)[i]!r} (tolerance rtol {rtol}, atol {atol})")


class VAdd(Case):
    name = "vadd"

    def make(self, rng, groups):
        n = groups * self.local
        a, b = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
        c = np.zeros(n, np.float32)
        return [a, b, c], {"c": (c, a + b)}


class Scale(Case):
    name = "scale"

    def make(self, rng, groups):
        n = groups * self.local
        x = rng.standard_normal(n).astype(np.float32)
        out = np.zeros(n, np.float32)
        scale = np.float32(1.75)
        return [x, out, float(scale)], {"out": (out, x * scale + np.float32(0.25))}


class Bits(Case):
    name = "bits"

    def make(self, rng, groups):
        n = groups * self.local
        x = rng.integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32)
        x[:4] = (0, 1, 0x80000000, 0xFFFFFFFF)
        out, aux = np.zeros(n, np.uint32), np.zeros(n, np.uint32)
        mask = 0x0FF0F0F3
        u = x.astype(np.uint64)
        want = ((((u << 3) & 0xFFFFFFFF) ^ (u >> 5)) & mask) | ((x.view(np.int32) >> 28).astype(np.uint64) & 0xF)
        clz = np.array([31 - int(v).bit_length() + 1 if v else 0xFFFFFFFF for v in x], np.uint64)
        rev = np.array([int(f"{int(v):032b}"[::-1], 2) & 0xFF for v in x], np.uint64)
        want_aux = ((~u & 0xFFFF) + clz + ((u >> 7) & 1) + rev) & 0xFFFFFFFF
        return [x, out, aux, mask], {"out": (out, want.astype(np.uint32)), "aux": (aux, want_aux.astype(np.uint32))}


class LoopSum(Case):
    name = "loopsum"

    def make(self, rng, groups):
        rows, n = groups * self.local, 9
        x = rng.standard_normal((rows, n)).astype(np.float32)
        out = np.zeros(rows, np.float32)
        return [x, out, n], {"out": (out, np.add.accumulate(x, axis=1, dtype=np.float32)[:, -1])}


class Reduce(Case):
    name = "reduce"
    local = 128

    def make(self, rng, groups):
        x = rng.integers(0, 1 << 24, groups * self.local, dtype=np.int64).astype(np.uint32)
        out = np.zeros(groups, np.uint32)
        want = x.reshape(groups, self.local).sum(axis=1, dtype=np.uint64).astype(np.uint32)
        return [x, out], {"out": (out, want)}


class Atomics(Case):
    name = "atomics"

    def make(self, rng, groups):
        n = groups * self.local
        x = rng.integers(0, 1 << 20, n, dtype=np.int64).astype(np.uint32)
        hist, stats, tickets = np.zeros(16, np.uint32), np.zeros(2, np.uint32), np.zeros(n, np.uint32)
        mx, counts = np.zeros(1, np.uint32), np.zeros(groups, np.uint32)
        want_stats = np.array([x.sum(dtype=np.uint64) & 0xFFFFFFFF, n], np.uint32)
        checks = {"hist": (hist, np.bincount(x & 15, minlength=16).astype(np.uint32)), "stats": (stats, want_stats),
                  "tickets (sorted)": (tickets, np.arange(n, dtype=np.uint32)), "max": (mx, np.array([x.max()])),
                  "counts": (counts, np.full(groups, self.local, np.uint32))}
        return [x, hist, stats, tickets, mx, counts], checks

    def check(self, got, want, what):
        super().check(np.sort(got) if what.startswith("tickets") else got, want, what)


class Half(Case):
    name = "half"

    def make(self, rng, groups):
        n = groups * self.local
        a = rng.uniform(-4, 4, n).astype(np.float16)
        b = rng.uniform(-4, 4, n).astype(np.float16)
        d, e, h = np.zeros(n, np.float16), np.zeros(n, np.float32), np.zeros(n, np.float16)
        scale = 0.3
        s16 = np.float16(np.float32(scale))
        want_d = np.maximum((a * b) + s16, np.float16(0.5)).astype(np.float16)
        want_e = want_d.astype(np.float32) * np.float32(2.0)
        return [a, b, d, e, h, scale], {"d": (d, want_d), "e": (e, want_e), "h": (h, _f16_mad(a, b, a))}


class Branch(Case):
    name = "branch"

    def make(self, rng, groups):
        n = groups * self.local
        x = rng.integers(1, 2000, n).astype(np.uint32)
        steps = np.zeros(n, np.uint32)

        def collatz(v):
            k = 0
            while v > 1:
                v = 3 * v + 1 if v & 1 else v >> 1
                k += 1
            return k
        return [x, steps], {"steps": (steps, np.array([collatz(int(v)) for v in x], np.uint32))}


class Sfu(Case):
    """Transcendentals: the virtual GPU rounds exactly; a phone's SFU is within the stated tolerance."""
    name = "sfu"
    tolerance = (1e-6, 1e-5)

    def make(self, rng, groups):
        n = groups * self.local
        x = rng.uniform(0.05, 3.0, n).astype(np.float32)
        out = np.zeros(8 * n, np.float32)
        v = x.astype(np.float64)
        want = np.stack([1 / v, 1 / np.sqrt(v), np.sqrt(v), np.log2(v), np.exp2(v), np.sin(v), np.cos(v), v], 1)
        return [x, out], {"out": (out, want.astype(np.float32).reshape(-1))}


CASES = {c.name: c for c in (VAdd(), Scale(), Bits(), LoopSum(), Reduce(), Atomics(), Half(), Branch(), Sfu())}


def check_outputs(case, checks):
    """Compare every output buffer (already copied back) with numpy; AssertionError names the first miss."""
    for what, (got, want) in checks.items():
        case.check(got, want, what)
