"""atomics.apply, the batched read-modify-write behind global, flat and LDS atomics, gives every
lane the value a strictly sequential execution in lane order gives it, and leaves memory as that
execution does: distinct addresses, one hot address, a few hot addresses, every operation."""
import zlib

import numpy as np
import pytest

from drivers.emu.amd.shader import atomics

U32, U64 = np.uint32, np.uint64


def sequential(mem, index, name, src, cmp):
    f = atomics.OPS[name]
    old = np.empty(index.shape[0], mem.dtype)
    for k, i in enumerate(index.tolist()):
        prev = mem[i:i + 1].copy()
        mem[i] = f(prev, src[k:k + 1], None if cmp is None else cmp[k:k + 1]).astype(mem.dtype)[0]
        old[k] = prev[0]
    return old


PATTERNS = {"distinct": lambda rng, n: rng.permutation(64)[:n],
            "one": lambda rng, n: np.full(n, 5),
            "few": lambda rng, n: rng.integers(0, 3, n),
            "mixed": lambda rng, n: np.where(rng.random(n) < 0.5, 7, rng.integers(0, 64, n)),
            "one_pair": lambda rng, n: np.concatenate((rng.permutation(64)[:n - 1], [-1]))}
FLOAT_OPS = ("add_f", "min_f", "max_f", "cmpswap_f")


@pytest.mark.parametrize("n", [48, 32, 5])          # a wave's lanes or fewer: told apart by a set
@pytest.mark.parametrize("pattern", sorted(PATTERNS))
@pytest.mark.parametrize("dtype", [U32, U64])
@pytest.mark.parametrize("name", sorted(atomics.OPS))
def test_batched_equals_sequential(name, dtype, pattern, n):
    rng = np.random.default_rng(zlib.crc32(f"{name}/{pattern}/{dtype().itemsize}/{n}".encode()))  # same data every run
    index = PATTERNS[pattern](rng, n).astype(np.intp)
    if pattern == "one_pair":
        index[-1] = index[rng.integers(0, n - 1)]     # one location twice, the rest distinct
    bits = 8 * dtype().itemsize
    if name in FLOAT_OPS:
        ftype = np.float32 if dtype is U32 else np.float64
        # +0 against -0 is left out of min/max: numpy's min of the two zeros is whichever its
        # vector unit returns, in the batched and the one-lane case alike
        pool = [0.0, 1.5, -2.0, np.inf, np.nan, 3.0, 1e-40] + ([] if name in ("min_f", "max_f") else [-0.0])
        vals = lambda k: rng.choice(np.array(pool, ftype), k).view(dtype)  # noqa: E731
    else:
        vals = lambda k: np.where(rng.random(k) < 0.3, rng.integers(0, 4, k).astype(dtype),  # noqa: E731
                                  rng.integers(0, 2 ** bits - 1, k, dtype=np.uint64).astype(dtype))
    mem = vals(64)
    src, cmp = vals(n), vals(n)
    if name.startswith("cmp"):
        cmp[::3] = mem[index[::3]]                   # some compares succeed
    want_mem = mem.copy()
    want = sequential(want_mem, index, name, src, cmp)
    got_mem = mem.copy()
    got = atomics.apply(got_mem, index, name, src, cmp)
    assert got.tobytes() == want.tobytes()
    assert got_mem.tobytes() == want_mem.tobytes()
