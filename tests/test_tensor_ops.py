"""Every Tensor op and its gradient against numpy in float64, and against an independent
autodiff (the `autograd` package; finite differences when it is missing).

Inputs have random shapes with broadcasting, non-contiguous views (a transposed copy seen
back through .T), size-1 and empty dimensions.  Tolerances by dtype: float64 forward 1e-9
relative (transcendentals 1e-7), gradients 1e-6; float32 forward 2e-5 relative (1e-4 with
transcendentals), float16 2e-3, bfloat16 1.6e-2.  TENSOR_SLOW_TESTS=1 runs more shapes.
"""
import math
import os

import numpy as np
import pytest

from tensor import Tensor, dtypes

try:
    import autograd
    import autograd.numpy as anp
    HAVE_AUTOGRAD = True
except ImportError:                      # pragma: no cover - depends on the environment
    anp, HAVE_AUTOGRAD = np, False

SLOW = os.environ.get("TENSOR_SLOW_TESTS") == "1"
SEEDS = range(6) if SLOW else range(2)


def make(arr, view):
    """A float64 tensor holding arr; with view=True it is a transposed view of a copy."""
    if view and arr.ndim >= 2:
        return Tensor(np.ascontiguousarray(arr.T), dtype=dtypes.float64).T
    return Tensor(arr, dtype=dtypes.float64)


def grads_of(fn_np, arrays):
    if HAVE_AUTOGRAD:
        outs = []
        for i in range(len(arrays)):
            def f(x, i=i):
                args = list(arrays)
                args[i] = x
                return anp.sum(fn_np(anp, *args))
            outs.append(np.asarray(autograd.grad(f)(arrays[i])))
        return outs
    outs = []                                  # central finite differences
    for i, a in enumerate(arrays):
        g = np.zeros_like(a)
        for j in np.ndindex(a.shape):
            hi, lo = [x.copy() for x in arrays], [x.copy() for x in arrays]
            hi[i][j] += 1e-6
            lo[i][j] -= 1e-6
            g[j] = (np.sum(fn_np(np, *hi)) - np.sum(fn_np(np, *lo))) / 2e-6
        outs.append(g)
    return outs


# name: (shapes, tensor fn, numpy fn (module m), input domain)
R = "real"
P = "positive"
U = "unit"                    # (-0.9, 0.9)
CASES = {
    "add": ([(3, 4), (4,)], lambda a, b: a + b, lambda m, a, b: a + b, R),
    "sub": ([(2, 1, 5), (3, 1)], lambda a, b: a - b, lambda m, a, b: a - b, R),
    "mul": ([(4, 3), (4, 1)], lambda a, b: a * b, lambda m, a, b: a * b, R),
    "div": ([(3, 4), (3, 4)], lambda a, b: a / b, lambda m, a, b: a / b, P),
    "rsub_scalar": ([(5,)], lambda a: 2.5 - a, lambda m, a: 2.5 - a, R),
    "rdiv_scalar": ([(2, 3)], lambda a: 3.0 / a, lambda m, a: 3.0 / a, P),
    "pow": ([(3, 4), (3, 4)], lambda a, b: a ** b, lambda m, a, b: a ** b, P),
    "pow_int": ([(3, 4)], lambda a: a ** 3, lambda m, a: a ** 3, R),
    "neg": ([(3, 4)], lambda a: -a, lambda m, a: -a, R),
    "abs": ([(3, 4)], lambda a: a.abs(), lambda m, a: m.abs(a), R),
    "exp": ([(3, 4)], lambda a: a.exp(), lambda m, a: m.exp(a), R),
    "log": ([(3, 4)], lambda a: a.log(), lambda m, a: m.log(a), P),
    "exp2": ([(6,)], lambda a: a.exp2(), lambda m, a: m.exp2(a), R),
    "log2": ([(6,)], lambda a: a.log2(), lambda m, a: m.log2(a), P),
    "sqrt": ([(3, 4)], lambda a: a.sqrt(), lambda m, a: m.sqrt(a), P),
    "rsqrt": ([(3, 4)], lambda a: a.rsqrt(), lambda m, a: 1 / m.sqrt(a), P),
    "sin": ([(3, 4)], lambda a: a.sin(), lambda m, a: m.sin(a), R),
    "cos": ([(3, 4)], lambda a: a.cos(), lambda m, a: m.cos(a), R),
    "tan": ([(3, 4)], lambda a: a.tan(), lambda m, a: m.tan(a), U),
    "reciprocal": ([(3, 4)], lambda a: a.reciprocal(), lambda m, a: 1 / a, P),
    "relu": ([(3, 4)], lambda a: a.relu(), lambda m, a: m.maximum(a, 0), R),
    "leaky_relu": ([(3, 4)], lambda a: a.leaky_relu(0.1), lambda m, a: m.where(a > 0, a, 0.1 * a), R),
    "sigmoid": ([(3, 4)], lambda a: a.sigmoid(), lambda m, a: 1 / (1 + m.exp(-a)), R),
    "tanh": ([(3, 4)], lambda a: a.tanh(), lambda m, a: m.tanh(a), R),
    "silu": ([(3, 4)], lambda a: a.silu(), lambda m, a: a / (1 + m.exp(-a)), R),
    "softplus": ([(3, 4)], lambda a: a.softplus(), lambda m, a: m.log(1 + m.exp(a)), R),
    "gelu_tanh": ([(3, 4)], lambda a: a.gelu(approximate="tanh"),
                  lambda m, a: 0.5 * a * (1 + m.tanh(math.sqrt(2 / math.pi) * (a + 0.044715 * a ** 3))), R),
    "gelu": ([(3, 4)], lambda a: a.gelu(), lambda m, a: 0.5 * a * (1 + _erf(m, a / math.sqrt(2))), R),
    "elu": ([(3, 4)], lambda a: a.elu(), lambda m, a: m.where(a > 0, a, m.exp(a) - 1), R),
    "log1p": ([(3, 4)], lambda a: a.log1p(), lambda m, a: m.log(1 + a), P),
    "expm1": ([(3, 4)], lambda a: a.expm1(), lambda m, a: m.exp(a) - 1, R),
    "avg_pool2d": ([(1, 2, 4, 6)], lambda a: a.avg_pool2d(2),
                   lambda m, a: (a[:, :, 0::2, 0::2] + a[:, :, 1::2, 0::2] + a[:, :, 0::2, 1::2]
                                 + a[:, :, 1::2, 1::2]) / 4, R),
    "linear": ([(5, 3), (4, 3), (4,)], lambda x, w, b: x.linear(w, b), lambda m, x, w, b: m.dot(x, w.T) + b, R),
    "maximum": ([(3, 4), (4,)], lambda a, b: a.maximum(b), lambda m, a, b: m.maximum(a, b), R),
    "minimum": ([(3, 4), (3, 1)], lambda a, b: a.minimum(b), lambda m, a, b: m.minimum(a, b), R),
    "clip": ([(3, 4)], lambda a: a.clip(-0.5, 0.5), lambda m, a: m.clip(a, -0.5, 0.5), R),
    "where": ([(3, 4), (3, 4)], lambda a, b: (a > b).where(a, b * 2),
              lambda m, a, b: m.where(a > b, a, b * 2), R),
    "square": ([(2, 5)], lambda a: a.square(), lambda m, a: a * a, R),
    "sum": ([(3, 4, 5)], lambda a: a.sum(axis=1), lambda m, a: m.sum(a, axis=1), R),
    "sum_all": ([(3, 4)], lambda a: a.sum(), lambda m, a: m.sum(a), R),
    "sum_keepdim": ([(3, 4, 2)], lambda a: a.sum(dim=(0, 2), keepdim=True),
                    lambda m, a: m.sum(a, axis=(0, 2), keepdims=True), R),
    "mean": ([(3, 4)], lambda a: a.mean(0), lambda m, a: m.mean(a, axis=0), R),
    "var": ([(5, 4)], lambda a: a.var(1), lambda m, a: m.var(a, axis=1, ddof=1), R),
    "std": ([(5, 4)], lambda a: a.std(0, correction=0), lambda m, a: m.std(a, axis=0), R),
    "amax": ([(3, 5)], lambda a: a.amax(1), lambda m, a: m.max(a, axis=1), R),
    "amin": ([(3, 5)], lambda a: a.amin(0), lambda m, a: m.min(a, axis=0), R),
    "max_all": ([(4, 3)], lambda a: a.max(), lambda m, a: m.max(a), R),
    "prod": ([(3, 5)], lambda a: a.prod(1), lambda m, a: m.prod(a, axis=1), R),
    "logsumexp": ([(3, 5)], lambda a: a.logsumexp(1),
                  lambda m, a: m.log(m.sum(m.exp(a), axis=1)), R),
    "softmax": ([(3, 5)], lambda a: a.softmax(-1),
                lambda m, a: m.exp(a) / m.sum(m.exp(a), axis=-1, keepdims=True), R),
    "log_softmax": ([(4, 3)], lambda a: a.log_softmax(0),
                    lambda m, a: a - m.log(m.sum(m.exp(a), axis=0, keepdims=True)), R),
    "cumsum": ([(3, 5)], lambda a: a.cumsum(1), lambda m, a: m.cumsum(a, axis=1), R),
    "matmul": ([(3, 4), (4, 5)], lambda a, b: a @ b, lambda m, a, b: m.dot(a, b), R),
    "matmul_batched": ([(2, 3, 4), (4, 2)], lambda a, b: a @ b, lambda m, a, b: m.matmul(a, b), R),
    "matmul_bcast": ([(2, 1, 3, 4), (5, 4, 2)], lambda a, b: a @ b, lambda m, a, b: m.matmul(a, b), R),
    "matvec": ([(3, 4), (4,)], lambda a, b: a @ b, lambda m, a, b: m.dot(a, b), R),
    "reshape": ([(3, 4)], lambda a: a.reshape(2, 6) * 2, lambda m, a: m.reshape(a, (2, 6)) * 2, R),
    "permute": ([(2, 3, 4)], lambda a: a.permute(2, 0, 1) * 1.5,
                lambda m, a: m.transpose(a, (2, 0, 1)) * 1.5, R),
    "expand": ([(3, 1)], lambda a: a.expand(3, 4) * 1.0, lambda m, a: m.broadcast_to(a, (3, 4)) * 1.0, R),
    "pad": ([(2, 3)], lambda a: a.pad((1, 2, 0, 1)), lambda m, a: m.pad(a, ((0, 1), (1, 2)), mode="constant"), R),
    "pad_value": ([(2, 3)], lambda a: a.pad((1, 1), value=3.0),
                  lambda m, a: m.concatenate([m.full((2, 1), 3.0), a, m.full((2, 1), 3.0)], axis=1), R),
    "flip": ([(3, 4)], lambda a: a.flip(0, 1), lambda m, a: a[::-1, ::-1], R),
    "slice_step": ([(7, 6)], lambda a: a[1:6:2, ::-2], lambda m, a: a[1:6:2, ::-2], R),
    "index_int": ([(4, 5)], lambda a: a[2, 1:4], lambda m, a: a[2, 1:4], R),
    "cat": ([(2, 3), (4, 3)], lambda a, b: Tensor.cat([a, b], 0), lambda m, a, b: m.concatenate([a, b], 0), R),
    "stack": ([(2, 3), (2, 3)], lambda a, b: Tensor.stack([a, b], 1), lambda m, a, b: m.stack([a, b], 1), R),
    "repeat": ([(2, 3)], lambda a: a.repeat(2, 1, 2), lambda m, a: m.tile(a, (2, 1, 2)), R),
    "split": ([(5, 2)], lambda a: a.split([2, 3])[1] * 1.0, lambda m, a: a[2:] * 1.0, R),
    "gather_rows": ([(5, 3)], lambda a: a[Tensor([4, 0, 4, 2])],
                    lambda m, a: a[np.array([4, 0, 4, 2])], R),
    "gather": ([(3, 4)], lambda a: a.gather(1, Tensor([[0, 3], [1, 1], [2, 0]])),
               lambda m, a: a[np.arange(3)[:, None], np.array([[0, 3], [1, 1], [2, 0]])], R),
    "transpose_mul": ([(3, 4), (4, 3)], lambda a, b: a.T * b, lambda m, a, b: a.T * b, R),
}


def _erf(m, x):
    if m is np:
        return np.vectorize(math.erf)(x)
    from autograd.scipy.special import erf
    return erf(x)


def sample(shape, domain, rng):
    x = rng.standard_normal(shape)
    if domain == P:
        return np.abs(x) + 0.5
    if domain == U:
        return np.clip(x, -0.9, 0.9)
    return x


@pytest.mark.parametrize("view", [False, True], ids=["contiguous", "view"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_forward_and_gradient_float64(name, view):
    shapes, fn, ref, domain = CASES[name]
    for seed in SEEDS:
        rng = np.random.default_rng(seed)
        arrays = [sample(s, domain, rng) for s in shapes]
        ts = [make(a, view).requires_grad_() for a in arrays]
        out = fn(*ts)
        expect = np.asarray(ref(np, *arrays))
        got = out.numpy()
        assert got.shape == expect.shape, name
        tol = 1e-7 if name in ("tan", "gelu_tanh", "softplus", "logsumexp") else 1e-9
        tol = 2e-7 if name == "gelu" else tol                     # erf is a 1.5e-7 approximation
        np.testing.assert_allclose(got, expect, rtol=tol, atol=tol, err_msg=name)
        out.sum().backward()
        for t, g in zip(ts, grads_of(ref, arrays)):
            assert t.grad is not None, f"{name}: no gradient"
            gtol = 1e-6 if name != "gelu" else 1e-5
            np.testing.assert_allclose(t.grad.numpy(), g, rtol=gtol, atol=gtol, err_msg=f"{name} grad")


FLOAT_TOL = {dtypes.float32: 2e-5, dtypes.float16: 2e-3, dtypes.bfloat16: 1.6e-2}
LOW_PRECISION = ["add", "mul", "div", "exp", "log", "sqrt", "sigmoid", "tanh", "sum", "mean", "matmul",
                 "softmax", "amax", "relu", "cumsum", "maximum"]


@pytest.mark.parametrize("dtype", [dtypes.float32, dtypes.float16, dtypes.bfloat16],
                         ids=lambda d: d.name)
@pytest.mark.parametrize("name", LOW_PRECISION)
def test_forward_lower_precision(name, dtype):
    shapes, fn, ref, domain = CASES[name]
    rng = np.random.default_rng(7)
    arrays = [sample(s, domain, rng) for s in shapes]
    rounded = [Tensor(a, dtype=dtype).numpy().astype(np.float64) for a in arrays]
    out = fn(*[Tensor(a, dtype=dtype) for a in rounded])
    assert out.dtype is dtype
    expect = np.asarray(ref(np, *rounded))
    tol = FLOAT_TOL[dtype] * (5 if name in ("exp", "log", "sigmoid", "tanh", "softmax", "matmul",
                                            "sum", "mean", "cumsum") else 1)
    np.testing.assert_allclose(out.numpy().astype(np.float64), expect, rtol=tol, atol=tol)


@pytest.mark.parametrize("shape", [(0, 3), (3, 0), (1, 1), (1, 4), (0,)])
def test_empty_and_size_one_dims(shape):
    a = np.random.default_rng(0).standard_normal(shape)
    t = Tensor(a, dtype=dtypes.float64, requires_grad=True)
    np.testing.assert_allclose((t * 2 + 1).exp().numpy(), np.exp(a * 2 + 1))
    np.testing.assert_allclose(t.sum(0).numpy(), a.sum(0))
    np.testing.assert_allclose(t.sum().numpy(), a.sum())
    np.testing.assert_allclose(t.mean(-1).numpy(), a.mean(-1) if a.shape[-1] else np.full(a.shape[:-1], np.nan))
    np.testing.assert_allclose(t.prod(0).numpy(), a.prod(0))
    np.testing.assert_allclose(t.cumsum(-1).numpy(), np.cumsum(a, -1))
    (t * 3).sum().backward()
    np.testing.assert_allclose(t.grad.numpy(), np.full(shape, 3.0))


def test_nan_and_inf_follow_numpy():
    vals = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -2.5], dtype=np.float32)
    t = Tensor(vals)
    with np.errstate(all="ignore"):
        pairs = [
            (t.exp(), np.exp(vals)), (t.log(), np.log(vals)), (t.sqrt(), np.sqrt(vals)),
            (t.relu(), np.where(vals > 0, vals, 0) if False else np.maximum(vals, 0)),
            (t.abs(), np.abs(vals)), (t.sigmoid(), 1 / (1 + np.exp(-vals))),
            (t.isnan(), np.isnan(vals)), (t.isinf(), np.isinf(vals)), (t.isfinite(), np.isfinite(vals)),
            (t.maximum(0.5), np.maximum(vals, 0.5)), (t.minimum(0.5), np.minimum(vals, 0.5)),
            (t.reciprocal(), 1 / vals), (t.floor(), np.floor(vals)), (t.ceil(), np.ceil(vals)),
            (t.trunc(), np.trunc(vals)), (t.sign(), np.sign(vals)), (t.tanh(), np.tanh(vals)),
            (t < 1, vals < 1), (t >= 0, vals >= 0), (t == t, vals == vals), (t != 0, vals != 0),
        ]
    for got, want in pairs:
        np.testing.assert_allclose(got.numpy().astype(np.float64), np.asarray(want, dtype=np.float64),
                                   rtol=1e-6, atol=1e-6)
    assert math.isnan(t.amax().item())                       # max propagates NaN
    assert t[1:].amax().item() == math.inf
    assert t.argmax().item() == 0                            # NaN is the maximum, like PyTorch


def test_round_is_half_to_even():
    v = np.array([0.5, 1.5, 2.5, -0.5, -1.5, 0.49, 2.51, -2.6], dtype=np.float32)
    np.testing.assert_array_equal(Tensor(v).round().numpy(), np.round(v))


def test_conv2d_and_pools_match_numpy():
    rng = np.random.default_rng(3)
    for (n, c, h, w, o, k, s, p, d, g) in [(2, 4, 7, 6, 6, 3, 1, 1, 1, 2), (1, 3, 9, 9, 2, 3, 2, 0, 2, 1),
                                           (2, 2, 5, 5, 4, 1, 1, 0, 1, 2)]:
        x = rng.standard_normal((n, c, h, w))
        wt = rng.standard_normal((o, c // g, k, k))
        b = rng.standard_normal(o)
        tx = Tensor(x, dtype=dtypes.float64, requires_grad=True)
        tw = Tensor(wt, dtype=dtypes.float64, requires_grad=True)
        tb = Tensor(b, dtype=dtypes.float64, requires_grad=True)
        out = tx.conv2d(tw, tb, stride=s, padding=p, dilation=d, groups=g)

        def ref(m, x, wt, b):
            xp = m.pad(x, ((0, 0), (0, 0), (p, p), (p, p)), mode="constant")
            oh = (h + 2 * p - d * (k - 1) - 1) // s + 1
            ow = (w + 2 * p - d * (k - 1) - 1) // s + 1
            cg, og = c // g, o // g
            rows = []
            for gi in range(g):
                cols = []
                for i in range(oh):
                    line = []
                    for j in range(ow):
                        patch = xp[:, gi * cg:(gi + 1) * cg, i * s:i * s + d * (k - 1) + 1:d,
                                   j * s:j * s + d * (k - 1) + 1:d]
                        line.append(m.einsum("nchw,ochw->no", patch, wt[gi * og:(gi + 1) * og]))
                    cols.append(m.stack(line, -1))
                rows.append(m.stack(cols, -2))
            return m.concatenate(rows, 1) + b[None, :, None, None]
        np.testing.assert_allclose(out.numpy(), ref(np, x, wt, b), rtol=1e-9, atol=1e-9)
        out.sum().backward()
        for t, gr in zip((tx, tw, tb), grads_of(ref, [x, wt, b])):
            np.testing.assert_allclose(t.grad.numpy(), gr, rtol=1e-6, atol=1e-6)
    x = rng.standard_normal((2, 3, 6, 7))
    t = Tensor(x, dtype=dtypes.float64, requires_grad=True)
    mp = t.max_pool2d(2)
    want = x[:, :, :6, :6].reshape(2, 3, 3, 2, 3, 2).max((3, 5))
    np.testing.assert_allclose(mp.numpy(), want)
    ap = t.avg_pool2d(3, stride=2, padding=1)
    xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    want = np.stack([np.stack([xp[:, :, i * 2:i * 2 + 3, j * 2:j * 2 + 3].mean((2, 3)) for j in range(4)], -1)
                     for i in range(3)], -2)
    np.testing.assert_allclose(ap.numpy(), want)
    mp.sum().backward()
    expect = np.zeros_like(x)
    for n in range(2):
        for c in range(3):
            for i in range(3):
                for j in range(3):
                    win = x[n, c, 2 * i:2 * i + 2, 2 * j:2 * j + 2]
                    a, b2 = np.unravel_index(np.argmax(win), (2, 2))
                    expect[n, c, 2 * i + a, 2 * j + b2] += 1
    np.testing.assert_allclose(t.grad.numpy(), expect)


def test_integer_arithmetic_follows_pytorch():
    a = np.array([7, -7, 7, -7, 0, 5], dtype=np.int32)
    b = np.array([2, 2, -2, -2, 3, 1], dtype=np.int32)
    ta, tb = Tensor(a), Tensor(b)
    np.testing.assert_array_equal((ta // tb).numpy(), a // b)
    np.testing.assert_array_equal((ta % tb).numpy(), a % b)          # sign of the divisor
    np.testing.assert_array_equal(ta.fmod(tb).numpy(), np.fmod(a, b))
    np.testing.assert_array_equal(ta.div(tb, rounding_mode="trunc").numpy(), np.trunc(a / b))
    np.testing.assert_allclose((ta / tb).numpy(), a / b, rtol=1e-6)
    assert (ta / tb).dtype is dtypes.float32
    np.testing.assert_array_equal((ta & tb).numpy(), a & b)
    np.testing.assert_array_equal((ta | tb).numpy(), a | b)
    np.testing.assert_array_equal((ta ^ tb).numpy(), a ^ b)
    np.testing.assert_array_equal((~ta).numpy(), ~a)
    np.testing.assert_array_equal((ta << 3).numpy(), a << 3)
    np.testing.assert_array_equal((ta >> 1).numpy(), a >> 1)
    np.testing.assert_array_equal((ta ** 3).numpy(), a ** 3)
    u = Tensor(np.array([0x80000000, 7], dtype=np.uint32))
    np.testing.assert_array_equal((u >> 4).numpy(), np.array([0x08000000, 0], np.uint32))
    i8 = Tensor(np.array([100, -100], dtype=np.int8))
    np.testing.assert_array_equal((i8 + i8).numpy(), np.array([-56, 56], np.int8))   # wraps
    np.testing.assert_array_equal(Tensor([3.7, -3.7, 1e10]).cast(dtypes.int32).numpy()[:2], [3, -3])


def test_reductions_of_integers_and_bools():
    a = np.arange(12, dtype=np.int32).reshape(3, 4)
    t = Tensor(a)
    assert t.sum().dtype is dtypes.int64 and t.sum().item() == 66
    np.testing.assert_array_equal(t.amax(0).numpy(), a.max(0))
    np.testing.assert_array_equal(t.amin(1).numpy(), a.min(1))
    np.testing.assert_array_equal(t.argmax(1).numpy(), a.argmax(1))
    np.testing.assert_array_equal(t.argmin(0).numpy(), a.argmin(0))
    np.testing.assert_array_equal(t.prod(1).numpy(), a.prod(1))
    np.testing.assert_array_equal(t.cumsum(0).numpy(), a.cumsum(0))
    b = t > 5
    assert b.any().item() is True and b.all().item() is False
    np.testing.assert_array_equal(b.any(1).numpy(), (a > 5).any(1))
    np.testing.assert_array_equal(b.all(0).numpy(), (a > 5).all(0))
    assert b.sum().item() == 6
    v, i = Tensor([[1.0, 5.0, 5.0], [7.0, 2.0, 7.0]]).max(dim=1)
    np.testing.assert_array_equal(v.numpy(), [5, 7])
    np.testing.assert_array_equal(i.numpy(), [1, 0])                        # first maximum
    np.testing.assert_array_equal(Tensor([3, 1, 2]).one_hot(4).numpy(), np.eye(4, dtype=np.int64)[[3, 1, 2]])


BINARY = {"add": (lambda a, b: a + b, np.add), "mul": (lambda a, b: a * b, np.multiply),
          "sub": (lambda a, b: a - b, np.subtract), "maximum": (lambda a, b: a.maximum(b), np.maximum),
          "div": (lambda a, b: a / (b.abs() + 1), lambda a, b: a / (np.abs(b) + 1)),
          "where": (lambda a, b: (a < b).where(a, b), lambda a, b: np.where(a < b, a, b))}


def _random_shapes(rng):
    nd = int(rng.integers(0, 5))
    out = [int(rng.choice([1, 2, 3, 5])) for _ in range(nd)]
    if nd and rng.random() < 0.1:
        out[int(rng.integers(nd))] = 0
    a = [s if rng.random() < 0.6 else 1 for s in out]
    b = [s if rng.random() < 0.6 else 1 for s in out][int(rng.integers(0, nd + 1)):]
    return tuple(a), tuple(b)


@pytest.mark.parametrize("name", sorted(BINARY))
def test_random_broadcast_shapes_and_reduce_axes(name):
    """Random broadcastable shapes (size-1 and empty dims), random reduce axes, forward and
    gradient in float64 against numpy (the gradient of sum(f(a, b) * w) is checked by
    finite differences on the broadcast shapes)."""
    ours, ref = BINARY[name]
    rng = np.random.default_rng(sum(map(ord, name)))
    for _ in range(40 if SLOW else 8):
        sa, sb = _random_shapes(rng)
        a, b = rng.standard_normal(sa), rng.standard_normal(sb)
        ta = Tensor(a, dtype=dtypes.float64, requires_grad=True)
        tb = Tensor(b, dtype=dtypes.float64, requires_grad=True)
        out = ours(ta, tb)
        want = ref(a, b)
        np.testing.assert_allclose(out.numpy(), want, rtol=1e-12, atol=1e-12)
        if want.ndim:
            axis = tuple(int(x) for x in rng.choice(want.ndim, int(rng.integers(1, want.ndim + 1)), replace=False))
            np.testing.assert_allclose(out.sum(axis=axis).numpy(), want.sum(axis=axis), rtol=1e-12, atol=1e-12)
        w = rng.standard_normal(want.shape)
        (out * Tensor(w, dtype=dtypes.float64)).sum().backward()
        for t, arr, i in ((ta, a, 0), (tb, b, 1)):
            def f(x, i=i):
                args = [a, b]
                args[i] = x
                return float(np.sum(ref(*args) * w))
            g = np.zeros_like(arr)
            for j in np.ndindex(arr.shape):
                hi, lo = arr.copy(), arr.copy()
                hi[j] += 1e-6
                lo[j] -= 1e-6
                g[j] = (f(hi) - f(lo)) / 2e-6
            np.testing.assert_allclose(t.grad.numpy(), g, rtol=1e-5, atol=1e-5, err_msg=f"{name} {sa} {sb}")
