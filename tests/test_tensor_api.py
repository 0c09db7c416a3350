"""The Tensor API a user meets: creation, dtypes and promotion, laziness, errors that name their
operands, autograd bookkeeping, assign, random numbers, devices, the jit and the CLI."""
import os
import subprocess
import sys

import numpy as np
import pytest

import tensor
from tensor import DeviceError, DTypeError, ShapeError, Tensor, dtypes, engine, jit, no_grad
from tensor.random import threefry2x32_reference

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_creation():
    np.testing.assert_array_equal(Tensor.zeros(2, 3).numpy(), np.zeros((2, 3)))
    np.testing.assert_array_equal(Tensor.ones((2,)).numpy(), np.ones(2))
    np.testing.assert_array_equal(Tensor.full((2, 2), 7, dtype=dtypes.int32).numpy(), np.full((2, 2), 7))
    np.testing.assert_array_equal(Tensor.arange(5).numpy(), np.arange(5))
    np.testing.assert_allclose(Tensor.arange(1, 2, 0.25).numpy(), np.arange(1, 2, 0.25))
    np.testing.assert_array_equal(Tensor.arange(10, 0, -3).numpy(), np.arange(10, 0, -3))
    np.testing.assert_allclose(Tensor.linspace(0, 1, 5).numpy(), np.linspace(0, 1, 5))
    assert Tensor.linspace(-2, 3, 7).numpy()[-1] == 3.0
    np.testing.assert_array_equal(Tensor.eye(3, 4).numpy(), np.eye(3, 4))
    t = Tensor([[1, 2], [3, 4]])
    assert t.dtype is dtypes.int64 and Tensor([1.5]).dtype is dtypes.float32
    assert Tensor(np.zeros(3)).dtype is dtypes.float64 and Tensor(True).dtype is dtypes.bool
    assert t.zeros_like().dtype is dtypes.int64 and t.ones_like(dtype="float16").dtype is dtypes.float16
    assert t.full_like(9).numpy().tolist() == [[9, 9], [9, 9]]
    assert Tensor.empty(0, 3).shape == (0, 3) and Tensor.empty(0, 3).numpy().shape == (0, 3)
    assert t.shape == (2, 2) and t.ndim == 2 and t.numel() == 4 and t.device == tensor.device.default()
    assert t.tolist() == [[1, 2], [3, 4]] and Tensor(2.5).item() == 2.5


@pytest.mark.parametrize("a,b,want", [
    (dtypes.int32, dtypes.float16, dtypes.float16), (dtypes.int8, dtypes.uint8, dtypes.int16),
    (dtypes.float16, dtypes.bfloat16, dtypes.float32), (dtypes.bool, dtypes.int32, dtypes.int32),
    (dtypes.uint8, dtypes.int64, dtypes.int64), (dtypes.float32, dtypes.float64, dtypes.float64),
    (dtypes.bfloat16, dtypes.int64, dtypes.bfloat16),
])
def test_promotion_of_two_tensors(a, b, want):
    x = Tensor([1, 2], dtype=a) + Tensor([1, 0], dtype=b)
    assert x.dtype is want


def test_promotion_with_scalars_and_zero_dim_tensors():
    i32 = Tensor([1, 2], dtype=dtypes.int32)
    assert (i32 + 2.5).dtype is dtypes.float32               # Python float: default float
    assert (i32 + 2).dtype is dtypes.int32                   # same category: the tensor wins
    assert (Tensor([True]) + 1).dtype is dtypes.int64
    assert (Tensor([1], dtype=dtypes.uint8) + 300).dtype is dtypes.uint8
    assert (Tensor([1.0], dtype=dtypes.float16) * 2.0).dtype is dtypes.float16
    assert (Tensor([1.0]) + Tensor(1.0, dtype=dtypes.float64)).dtype is dtypes.float32
    assert (i32 + Tensor(1.0, dtype=dtypes.float64)).dtype is dtypes.float64
    assert (i32 / 2).dtype is dtypes.float32 and (i32 // 2).dtype is dtypes.int32
    assert (Tensor([1, 2]) > 1).dtype is dtypes.bool


def test_casts_and_bfloat16():
    v = np.array([1.0, 1.00390625, -3.5, 65504.0, 1e-3], np.float32)
    bf = Tensor(v).cast(dtypes.bfloat16)
    assert bf.dtype is dtypes.bfloat16
    # round to nearest even at 8 bits of mantissa
    np.testing.assert_array_equal(bf.numpy(), np.array([1.0, 1.0, -3.5, 65536.0, 0.00099945068359375], np.float32))
    np.testing.assert_array_equal(Tensor(v).half().float().numpy(), v.astype(np.float16).astype(np.float32))
    assert Tensor([2.7, -2.7]).int().tolist() == [2, -2]
    assert Tensor([0.0, 2.0]).bool().tolist() == [False, True]
    assert Tensor([1.0], dtype="float32").bitcast(dtypes.int32).item() == 0x3F800000
    assert Tensor([1, 2]).to("float16").dtype is dtypes.float16


def test_nothing_is_computed_until_asked():
    a = Tensor(np.ones((3, 3), np.float32))
    before = engine.stats["launches"]
    b = ((a + 1) * 2).exp().sum(0) @ Tensor.ones(3)
    r = repr(b)
    assert engine.stats["launches"] == before
    assert r == f"<Tensor shape=() dtype=float32 device={tensor.device.default()} lazy>"
    b.numpy()
    assert engine.stats["launches"] > before
    assert "realized" in repr(b)


@pytest.mark.parametrize("fn,message", [
    (lambda: Tensor.ones(3, 4) + Tensor.ones(5), r"cannot broadcast shapes \(3, 4\) and \(5,\)"),
    (lambda: Tensor.ones(2, 3) @ Tensor.ones(4, 5), r"matmul: \(2, 3\) @ \(4, 5\): inner dimensions 3 and 4 differ"),
    (lambda: Tensor.ones(3, 4).sum(axis=2), r"axis 2 is out of range for a tensor of 2 dimensions \(shape \(3, 4\)\)"),
    (lambda: Tensor.ones(3, 4).reshape(5, 2), r"shape \(5, 2\) is invalid for input of size 12"),
    (lambda: Tensor.ones(2) & Tensor([1, 0]), r"bitwise_and: needs integer or bool tensors, got float32"),
    (lambda: Tensor.ones(3)[Tensor([0, 5])], r"index 5 is out of bounds for dimension 0 with size 3"),
    (lambda: Tensor.ones(3)[4], r"index 4 is out of bounds for dimension 0 with size 3"),
    (lambda: Tensor.cat([Tensor.ones(2, 3), Tensor.ones(2, 4)], 0), r"cat: shapes \(2, 3\) and \(2, 4\) differ"),
    (lambda: Tensor.ones(3)[Tensor([True, False, True])], r"data-dependent shape"),
    (lambda: Tensor([1, 2]).requires_grad_(), r"only floating-point tensors can require gradients, not int64"),
    (lambda: Tensor.ones(2, requires_grad=True).mul(2).backward(), r"implicitly created only for a tensor with one element"),
    (lambda: Tensor([1, 2]).mean(), r"mean: needs a floating-point tensor, got int64"),
    (lambda: Tensor.ones(2).to(dtype="complex64"), r"unknown dtype 'complex64'"),
    (lambda: Tensor.ones(2, device="tpu"), r"unknown device 'tpu'; known: (.*, )?CPU"),
    (lambda: Tensor.ones(2, 2).item(), r"item\(\) needs a tensor with one element"),
    (lambda: Tensor.ones(1, 3, 4, 4).conv2d(Tensor.ones(2, 2, 3, 3)), r"conv2d: input \(1, 3, 4, 4\) with 3 channels"),
    (lambda: Tensor.ones(3).expand(2, 4), r"expand: cannot expand shape \(3,\) to \(2, 4\)"),
])
def test_errors_name_the_problem(fn, message):
    with pytest.raises((ShapeError, DTypeError, DeviceError, IndexError, TypeError, ValueError, RuntimeError),
                       match=message):
        fn()


def test_autograd_bookkeeping():
    w = Tensor([1.0, 2.0, 3.0], requires_grad=True)
    x = Tensor([4.0, 5.0, 6.0])
    y = (w * x).sum()
    assert y.requires_grad and not x.requires_grad
    y.backward()
    np.testing.assert_array_equal(w.grad.numpy(), [4, 5, 6])
    assert x.grad is None
    (w * 2).sum().backward()                                   # gradients accumulate
    np.testing.assert_array_equal(w.grad.numpy(), [6, 7, 8])
    w.grad = None
    with no_grad():
        z = w * 3
    assert not z.requires_grad
    d = w.detach()
    assert not d.requires_grad
    (w * d).sum().backward()                                   # no gradient through the detached copy
    np.testing.assert_array_equal(w.grad.numpy(), [1, 2, 3])

    @no_grad()
    def f(t):
        return t * 2
    assert not f(w).requires_grad
    with pytest.raises(RuntimeError, match="does not require grad"):
        (x * 2).sum().backward()


def test_assign_keeps_the_buffer_and_catches_stale_reads():
    p = Tensor([1.0, 2.0]).realize()
    buf = p.node.buffer
    old = p * 10                                               # lazy, reads the old value
    p.assign(p + 1)
    p.realize()
    assert p.node.buffer is buf and p.tolist() == [2.0, 3.0]
    with pytest.raises(RuntimeError, match="overwritten by assign"):
        old.numpy()
    p += 1
    assert p.tolist() == [3.0, 4.0] and p.node.view()[0].buffer is buf
    w = Tensor([1.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="in-place operation"):
        w.assign(w * 2)
    with no_grad():
        w.assign(w * 2)
    assert w.tolist() == [2.0]


def test_random_numbers_are_reproducible_and_sane():
    Tensor.manual_seed(42)
    a = Tensor.rand(1000).numpy()
    b = Tensor.randn(2000).numpy()
    Tensor.manual_seed(42)
    assert np.array_equal(a, Tensor.rand(1000).numpy()) and np.array_equal(b, Tensor.randn(2000).numpy())
    assert 0 <= a.min() and a.max() < 1 and abs(a.mean() - 0.5) < 0.05
    assert abs(b.mean()) < 0.1 and abs(b.std() - 1) < 0.1
    r = Tensor.randint(3, 7, (500,)).numpy()
    assert r.min() == 3 and r.max() == 6 and r.dtype == np.int64
    # the kernel computes Threefry-2x32-20 exactly (known-answer vector from Random123)
    assert [int(v) for v in threefry2x32_reference(0, 0, 0, 0)] == [0x6B200159, 0x99BA4EFE]
    Tensor.manual_seed(7)
    bits = Tensor._random_bits((5,)).numpy()
    want, _ = threefry2x32_reference(np.arange(5, dtype=np.uint32), 0, 7, 0)
    np.testing.assert_array_equal(bits, want)


def test_dropout_follows_the_training_flag():
    x = Tensor.ones(1000)
    assert x.dropout(0.5) is x                                 # Tensor.training is False
    Tensor.training = True
    try:
        y = x.dropout(0.25).numpy()
    finally:
        Tensor.training = False
    assert set(np.unique(y).tolist()) <= {0.0, float(np.float32(1 / 0.75))} and 0.15 < (y == 0).mean() < 0.35


def test_device_selection(monkeypatch):
    assert Tensor.ones(1, device="cpu").device == "CPU"
    monkeypatch.setenv("TENSOR_DEVICE", "CPU")
    assert Tensor.ones(1).device == "CPU"
    monkeypatch.setenv("TENSOR_DEVICE", "nonsense")
    with pytest.raises(DeviceError, match="unknown device 'nonsense'"):
        Tensor.ones(1)


def test_jit_replays_kernels_without_scheduling(capsys, monkeypatch):
    rng = np.random.default_rng(0)
    W = Tensor(rng.standard_normal((4, 3)).astype(np.float32), requires_grad=True)
    b = Tensor.zeros(3, requires_grad=True)                     # lazy state: settled by the jit

    @jit
    def step(x):
        loss = ((x @ W + b).relu() * Tensor.rand(3)).sum()
        loss.backward()
        with no_grad():
            W.assign(W - 0.1 * W.grad)
            b.assign(b - 0.1 * b.grad)
        W.grad = b.grad = None
        return loss

    monkeypatch.setenv("DEBUG", "1")
    losses = []
    xs = [rng.standard_normal((2, 4)).astype(np.float32) for _ in range(4)]
    for i, xn in enumerate(xs):
        if i == 2:
            import tensor.schedule
            monkeypatch.setattr(tensor.schedule, "create_schedule",
                                lambda *a: (_ for _ in ()).throw(AssertionError("scheduled in a replay")))
        losses.append(step(Tensor(xn)).item())
    out = capsys.readouterr().out
    assert out.count("captured") == 1 and out.count("replaying") == 3
    # the same steps done eagerly give the same numbers (fresh random numbers every call)
    monkeypatch.undo()
    rng = np.random.default_rng(0)
    W2 = Tensor(rng.standard_normal((4, 3)).astype(np.float32), requires_grad=True)
    b2 = Tensor.zeros(3, requires_grad=True)
    Tensor._rng_calls -= 4
    eager = []
    for xn in xs:
        loss = ((Tensor(xn) @ W2 + b2).relu() * Tensor.rand(3)).sum()
        loss.backward()
        with no_grad():
            W2.assign(W2 - 0.1 * W2.grad)
            b2.assign(b2 - 0.1 * b2.grad)
        W2.grad = b2.grad = None
        eager.append(loss.item())
    np.testing.assert_allclose(losses, eager, rtol=1e-5)
    np.testing.assert_allclose(W.numpy(), W2.numpy(), rtol=1e-5)
    assert len(set(losses)) == 4


def test_jit_captures_again_for_new_shapes():
    @jit
    def f(x):
        return (x * 2).sum(0)
    assert f(Tensor.ones(2, 3)).tolist() == [4.0] * 3
    assert f(Tensor.ones(2, 3) * 2).tolist() == [8.0] * 3
    assert f(Tensor.ones(4, 2)).tolist() == [8.0] * 2
    assert len(f.captured) == 2


def test_python_m_tensor_lists_devices():
    env = dict(os.environ)
    env.pop("GPU_EMULATE", None)
    out = subprocess.run([sys.executable, "-m", "tensor"], cwd=ROOT, capture_output=True, text=True, env=env)
    assert out.returncode == 0
    assert "CPU" in out.stdout and "(default)" in out.stdout and "GPUs:" in out.stdout
    out = subprocess.run([sys.executable, "-m", "tensor", "--emulate", "gfx1100"], cwd=ROOT,
                         capture_output=True, text=True, env=env)
    assert "AMD:0" in out.stdout and "gfx1100" in out.stdout
    out = subprocess.run([sys.executable, "-m", "tensor", "--help"], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0 and "--emulate" in out.stdout


def test_module_level_helpers():
    a, b = Tensor([1.0]), Tensor([2.0])
    assert tensor.cat([a, b]).tolist() == [1.0, 2.0]
    assert tensor.stack([a, b]).shape == (2, 1)
    x, y = tensor.realize(a + b, a * b)
    assert "realized" in repr(x) and y.item() == 2.0


def test_copies_between_devices():
    a = Tensor([[1.0, 2.0], [3.0, 4.0]])
    b = a.T.to("CPU:1")                           # a second instance of the reference backend
    assert b.device == "CPU:1"
    assert (b * 2).numpy().tolist() == [[2.0, 6.0], [4.0, 8.0]]
    with pytest.raises(DeviceError, match=f"different devices: {a.device} and CPU:1"):
        a + b
    assert b.to("cpu").sum().item() == 10.0


def test_python_m_tensor_survives_a_closed_pipe():
    out = subprocess.run(f"{sys.executable} -m tensor | head -1", shell=True, cwd=ROOT,
                         capture_output=True, text=True)
    assert out.stdout.startswith("tensor backends:") and "Traceback" not in out.stderr


def test_jit_returns_tuples_and_refuses_nesting():
    @jit
    def two(x):
        return x + 1, (x * 2).sum()
    for k in range(3):
        a, s = two(Tensor([1.0, 2.0]) * k)
        assert a.tolist() == [1.0 + k, 1.0 + 2 * k] and s.item() == 6.0 * k

    @jit
    def outer(x):
        return inner(x)

    @jit
    def inner(x):
        return x * 3
    with pytest.raises(RuntimeError, match="cannot call another jitted function"):
        outer(Tensor([1.0]))


def test_the_loss_and_grads_of_a_backward_survive_an_assign_to_what_they_read():
    """backward()'s lazy loss and gradients run with an assign that overwrites what they read
    (an optimizer step), instead of going stale: they stay readable afterwards."""
    W = Tensor(np.ones((3, 2), np.float32), requires_grad=True).realize()
    x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    losses = []
    for step in range(3):
        loss = (x @ W).sum()
        loss.backward()                         # W.grad accumulates: no zero_grad here
        losses.append(loss)
        with no_grad():
            W.assign(W - 0.01 * W.grad).realize()
    w, g, want = np.ones((3, 2)), np.zeros((3, 2)), []
    for step in range(3):
        want.append((x.numpy() @ w).sum())
        g = g + x.numpy().sum(0)[:, None]
        w = w - 0.01 * g
    np.testing.assert_allclose([t.item() for t in losses], want, rtol=1e-6)
    np.testing.assert_allclose(W.grad.numpy(), g, rtol=1e-6)
    np.testing.assert_allclose(W.numpy(), w, rtol=1e-6)
    # other lazy values are not kept alive that way: reading one is a clear error
    out = x @ W
    with no_grad():
        W.assign(W * 2).realize()
    with pytest.raises(RuntimeError, match="overwritten by assign"):
        out.numpy()
