"""Random programs of Tensor ops (elementwise, reductions, views, matmul, cat) against numpy:
catches scheduler and lowering bugs no hand-written case thought of.  TENSOR_SLOW_TESTS=1 runs
many more programs."""
import os

import numpy as np
import pytest

from tensor import Tensor, dtypes

N = int(os.environ.get("TENSOR_FUZZ_N", 0)) or 300 if os.environ.get("TENSOR_SLOW_TESTS") == "1" else 25


def _program(rng, arrays=None, requires_grad=False):
    shape = tuple(int(s) for s in rng.integers(1, 5, int(rng.integers(1, 4))))
    drawn = [rng.standard_normal(shape) for _ in range(3)]
    arrays = drawn if arrays is None else arrays
    pool = [(Tensor(a, dtype=dtypes.float64, requires_grad=requires_grad), a) for a in arrays]
    for _ in range(int(rng.integers(3, 10))):
        (ta, a), (tb, b) = pool[int(rng.integers(len(pool)))], pool[int(rng.integers(len(pool)))]
        k = int(rng.integers(0, 20))
        try:
            if k == 0 and a.shape == b.shape:
                t, v = ta + tb * 2, a + b * 2
            elif k == 1:
                t, v = (ta * 0.5).exp(), np.exp(a * 0.5)
            elif k == 2 and a.ndim:
                ax = int(rng.integers(a.ndim))
                t, v = ta.sum(ax, keepdim=True), a.sum(ax, keepdims=True)
            elif k == 3 and a.ndim:
                ax = int(rng.integers(a.ndim))
                t, v = ta - ta.amax(ax, keepdim=True), a - a.max(ax, keepdims=True)
            elif k == 4 and a.ndim >= 2:
                t, v = ta.transpose(0, -1), np.swapaxes(a, 0, -1)
            elif k == 5:
                t, v = ta.reshape(-1), a.reshape(-1)
            elif k == 6 and a.ndim:
                t, v = ta.flip(0)[::2], np.flip(a, 0)[::2]
            elif k == 7 and a.ndim:
                t, v = ta.pad([(1, 0)] + [(0, 0)] * (a.ndim - 1)), np.pad(a, [(1, 0)] + [(0, 0)] * (a.ndim - 1))
            elif k == 8 and a.ndim >= 1 and b.ndim >= 1 and a.shape[-1] == (b.shape[-2] if b.ndim > 1 else b.shape[0]):
                t, v = ta @ tb, np.matmul(a, b)
            elif k == 9 and a.ndim and a.shape[1:] == b.shape[1:]:
                t, v = Tensor.cat([ta, tb], 0), np.concatenate([a, b], 0)
            elif k == 10:
                t, v = (ta > 0).where(ta, tb.sum() if b.size else 0.0), np.where(a > 0, a, b.sum())
            elif k == 11 and a.ndim:
                t, v = ta.softmax(-1), np.exp(a - a.max(-1, keepdims=True)) / np.exp(a - a.max(-1, keepdims=True)).sum(-1, keepdims=True)
            elif k == 12:
                t, v = (ta.abs() + 0.5).reciprocal().log(), np.log(1 / (np.abs(a) + 0.5))
            elif k == 13 and a.ndim:
                t, v = ta.cumsum(0), np.cumsum(a, 0)
            elif k == 14 and a.ndim:
                idx = rng.integers(0, a.shape[0], 3)
                t, v = ta[Tensor(idx)], a[idx]
            elif k == 15 and a.ndim and b.ndim and a.shape[-1] == b.shape[-1]:
                t, v = ta * tb.reshape(-1, b.shape[-1]).sum(0), a * b.reshape(-1, b.shape[-1]).sum(0)
            elif k == 16 and a.ndim:
                t, v = ta.prod(0) + ta.amin(0).exp(), a.prod(0) + np.exp(a.min(0))
            elif k == 17:
                t, v = ta.realize().T * 1.0, a.T * 1.0          # a realized value seen through a view
            elif k == 18 and a.ndim:
                t, v = ta.flip(-1).contiguous()[..., :1], np.flip(a, -1)[..., :1].copy()
            elif k == 19:
                q = (ta * 10).cast(dtypes.int32)
                t, v = (q % 3 - q // 4).cast(dtypes.float64), ((a * 10).astype(np.int32) % 3
                                                             - (a * 10).astype(np.int32) // 4).astype(np.float64)
            else:
                continue
        except ValueError:
            continue
        pool.append((t, np.asarray(v)))
    return pool


@pytest.mark.parametrize("seed", range(N))
def test_random_programs_match_numpy(seed):
    rng = np.random.default_rng(seed)
    pool = _program(rng)
    # realize several results in one schedule, then read them all
    picks = [pool[int(i)] for i in rng.integers(3, len(pool), 3)] if len(pool) > 3 else pool
    Tensor.realize_all(*[t for t, _ in picks])
    for t, v in picks:
        np.testing.assert_allclose(t.numpy(), v, rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("seed", range(N // 2))
def test_random_programs_gradients_match_directional_derivatives(seed):
    """d/de f(x + e*d) at e=0 by central differences equals <grad f(x), d>."""
    def loss(arrays, requires_grad):
        rng = np.random.default_rng(seed)
        pool = _program(rng, arrays, requires_grad)
        picks = [pool[int(i)] for i in rng.integers(3, len(pool), 3)] if len(pool) > 3 else pool
        wrng = np.random.default_rng(seed + 10_000)
        total = None
        for t, _ in picks:
            w = Tensor(wrng.standard_normal(t.shape), dtype=dtypes.float64)
            term = (t * w).sum()
            total = term if total is None else total + term
        return total, [p[0] for p in pool[:3]]
    rng = np.random.default_rng(seed)
    shape = tuple(int(s) for s in rng.integers(1, 5, int(rng.integers(1, 4))))
    xs = [rng.standard_normal(shape) for _ in range(3)]
    out, inputs = loss(xs, True)
    out.backward()
    drng = np.random.default_rng(seed + 20_000)
    ds = [drng.standard_normal(shape) for _ in range(3)]
    analytic = sum(float(np.sum(t.grad.numpy() * d)) for t, d in zip(inputs, ds) if t.grad is not None)
    eps = 1e-6
    hi = loss([x + eps * d for x, d in zip(xs, ds)], False)[0].item()
    lo = loss([x - eps * d for x, d in zip(xs, ds)], False)[0].item()
    numeric = (hi - lo) / (2 * eps)
    assert abs(analytic - numeric) <= 1e-4 * max(1.0, abs(numeric)), (analytic, numeric)
