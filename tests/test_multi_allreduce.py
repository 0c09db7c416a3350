"""The data-parallel all-reduce on reference-backend devices (the algorithm is device-agnostic;
tests/test_amd_tensor.py runs it on the virtual GPU pair): deferred reductions bucketed per
dependent round, the kernels and transfers a two-device training step costs, and results equal
to one device's."""
import argparse

import numpy as np
import pytest

import tensor
from tensor import Tensor, engine
from tensor import allreduce as ar
from tensor.engine import CopyRunner
from tensor.examples import cnn, common, mlp

TWO = ("CPU", "CPU:1")


def trainer(example, devs, seed=0):
    """The example's model, optimizer and jitted step; the random numbers start from ``seed``
    (the same initialization and dropout masks on any number of devices)."""
    ns = argparse.Namespace(lr=example.DEFAULTS["lr"], epochs=10)
    Tensor.manual_seed(seed)
    model = example.make_model((8, 8), devs[0])
    if len(devs) > 1:
        model.apply_tensors(lambda t: t.shard(tuple(devs), axis=None))
    opt, sched = example.make_optimizer(ns, model)
    return common.Trainer(model, opt, sched, list(devs), example.loss)


def trained(example, devs, steps=2):
    tr = trainer(example, devs)
    return tr, run_steps(tr, steps)


def batch(seed=0, n=32):
    rng = np.random.default_rng(seed)
    return rng.random((n, 8, 8), dtype=np.float32), rng.integers(0, 10, n)


def run_steps(tr, steps=2):
    tr.model.train()
    losses = []
    for s in range(steps):
        x, y = batch(s)
        losses.append(tr.train_step(tr.to_device(x), tr.to_device(y)).item())
    return losses


def copies_per_step(tr):
    cap = next(iter(tr.train_step.captured.values()))
    return sum(isinstance(r, CopyRunner) for r in cap.runners)


def test_a_two_device_mlp_step_buckets_its_gradients():
    """20 kernels on one device; on two, each device runs its 20 on half the batch plus one
    kernel packing the four gradients and one summing the bucket (the loss's mean over the
    split batch adds one more): 46.  The loss's count and the gradients are two dependent
    rounds, so two transfers per device; one all-reduce per gradient would be 6."""
    tr = trainer(mlp, TWO)
    run_steps(tr)
    assert tr.kernels_per_step() == 2 * mlp.STEP_KERNELS + 6 == 46
    assert copies_per_step(tr) == 4


def test_one_all_reduce_per_tensor_on_request(monkeypatch):
    monkeypatch.setenv("TENSOR_BUCKET_MB", "0")
    tr = trainer(mlp, TWO)
    run_steps(tr)
    assert copies_per_step(tr) == 2 * 6          # count, loss, four gradients: one exchange each
    assert tr.kernels_per_step() == 50


def test_the_cnn_step_has_one_bucket_per_round():
    """BatchNorm's statistics are all-reduced in the forward and backward passes, each round
    waiting for the one before; the gradients all go in the last round."""
    tr = trainer(cnn, TWO)
    run_steps(tr, 1)
    assert copies_per_step(tr) == 2 * 9 + 1          # and the dropout mask, drawn on the first device
    assert tr.kernels_per_step() == 153


@pytest.mark.parametrize("example", [mlp, cnn], ids=["mlp", "cnn"])
def test_two_device_steps_equal_one_device_steps(example, monkeypatch):
    """The same loss and parameters as on one device (up to the order of the batch sums), the
    same bits on both replicas, and the same bits bucketed or not.  (The CNN's convolution
    biases feed BatchNorm, which subtracts them again: their gradient is rounding noise, which
    Adam scales to full steps, so they are left out of the comparison with one device.)"""
    one, l1 = trained(example, ("CPU",))
    two, l2 = trained(example, TWO)
    np.testing.assert_allclose(l2, l1, rtol=2e-6)
    monkeypatch.setenv("TENSOR_BUCKET_MB", "0")
    per_tensor, l0 = trained(example, TWO)
    assert l0 == l2
    noise = {id(m.bias) for m in one.model if type(m).__name__ == "Conv2d"}
    for p1, p2, p0 in zip(one.opt.params, two.opt.params, per_tensor.opt.params):
        a, b = [Tensor(part).numpy() for part in p2.node.parts]
        np.testing.assert_array_equal(a, b)
        np.testing.assert_array_equal(Tensor(p0.node.parts[0]).numpy(), a)
        if id(p1) not in noise:
            np.testing.assert_allclose(a, p1.numpy(), rtol=1e-5, atol=1e-6)


def test_gradients_are_views_of_their_bucket():
    """After backward and a realize, each gradient part is a slice of its device's summed
    bucket (no copy of its own), and holds the sum over the whole batch."""
    rng = np.random.default_rng(1)
    X = rng.standard_normal((8, 5)).astype(np.float32)
    ws = [rng.standard_normal((5, 3)).astype(np.float32), rng.standard_normal((3,)).astype(np.float32)]
    params = [Tensor(w, device="CPU", requires_grad=True).shard(TWO) for w in ws]
    ((Tensor(X).shard(TWO, axis=0) @ params[0] + params[1]) ** 2).sum().backward()
    Tensor.realize_all(*[p.grad for p in params])
    bases = {id(part.view()[0]) for p in params for part in p.grad.node.parts}
    assert len(bases) == 2                                         # one bucket on each device
    h = X @ ws[0] + ws[1]
    np.testing.assert_allclose(params[0].grad.numpy(), X.T @ (2 * h), rtol=1e-5)
    np.testing.assert_allclose(params[1].grad.numpy(), (2 * h).sum(0), rtol=1e-5)


def test_dependent_all_reduces_go_in_separate_rounds():
    """The variance needs the all-reduced mean; an independent sum joins the variance's round."""
    x = np.random.default_rng(2).standard_normal((10, 4)).astype(np.float32)
    s = Tensor(x, device="CPU").shard(TWO, axis=0)
    mean = s.mean(0)
    var = ((s - mean) ** 2).mean(0)
    total = s.abs().sum(0)
    groups = ar._groups([p for t in (var, total) for p in t.node.parts])
    assert ar._rounds(groups) == [1, 2, 2]
    assert [len(b) for b in ar._buckets(groups)] == [1, 2]
    np.testing.assert_allclose(var.numpy(), x.var(0), rtol=1e-5)
    np.testing.assert_allclose(total.numpy(), np.abs(x).sum(0), rtol=1e-5)


def test_bucket_size_limits_split_a_round(monkeypatch):
    x = np.ones((4, 300), np.float32)
    s = Tensor(x, device="CPU").shard(TWO, axis=0)
    outs = [s.sum(0), (s * 2).sum(0), (s * 3).sum(0)]
    groups = ar._groups([p for t in outs for p in t.node.parts])
    monkeypatch.setenv("TENSOR_BUCKET_MB", str(2500 / (1 << 20)))      # two 1200-byte tensors
    assert [len(b) for b in ar._buckets(groups)] == [2, 1]
    monkeypatch.setattr(ar, "MAX_BUCKET_TENSORS", 1)
    assert [len(b) for b in ar._buckets(groups)] == [1, 1, 1]
    monkeypatch.setenv("TENSOR_BUCKET_MB", "lots")
    with pytest.raises(ValueError, match="TENSOR_BUCKET_MB='lots' is not a number of megabytes"):
        ar._buckets(groups)
    monkeypatch.setenv("TENSOR_BUCKET_MB", "-1")
    with pytest.raises(ValueError, match="TENSOR_BUCKET_MB='-1' is negative"):
        ar._buckets(groups)


@pytest.mark.parametrize("n", [2, 3])
def test_a_bucket_of_sums_and_maxima_on_n_devices(n):
    """Several tensors in one bucket (three devices: the ring), sums and maxima apart."""
    devs = ("CPU",) + tuple(f"CPU:{i}" for i in range(1, n))
    rng = np.random.default_rng(n)
    x = rng.standard_normal((7, 3, 2)).astype(np.float32)
    s = Tensor(x, device="CPU").shard(devs, axis=0)
    outs = [s.sum(0), s.sum((0, 2)), s.amax(0), (s > 0).sum(0)]
    Tensor.realize_all(*outs)
    np.testing.assert_allclose(outs[0].numpy(), x.sum(0), rtol=1e-5)
    np.testing.assert_allclose(outs[1].numpy(), x.sum((0, 2)), rtol=1e-5)
    np.testing.assert_array_equal(outs[2].numpy(), x.max(0))
    np.testing.assert_array_equal(outs[3].numpy(), (x > 0).sum(0))
    for o in outs:
        parts = [Tensor(p).numpy() for p in o.node.parts]
        for p in parts[1:]:
            np.testing.assert_array_equal(p, parts[0])


def test_sharding_a_host_batch_runs_no_kernel():
    x = np.arange(24, dtype=np.float32).reshape(6, 4)
    Tensor(x, device="CPU:1").realize()                      # both devices open
    before = engine.stats["launches"]
    s = Tensor(x, device="CPU").shard(TWO, axis=0).realize()
    r = Tensor(x).shard(TWO).realize()
    assert engine.stats["launches"] == before
    np.testing.assert_array_equal(Tensor(s.node.parts[1]).numpy(), x[3:])
    np.testing.assert_array_equal(r.numpy(), x)
    w = Tensor(x, device="CPU", requires_grad=True).shard(TWO, axis=1)    # a tensor with a gradient keeps its graph
    (w * 2).sum().backward()
    assert w.grad is not None


def test_kernels_of_one_device_run_together():
    """Between transfers, a schedule keeps to one device while it has work (one command
    buffer per stretch under the jit)."""
    tr = trainer(mlp, TWO)
    run_steps(tr, 1)
    cap = next(iter(tr.train_step.captured.values()))
    switches, last = 0, None
    for r in cap.runners:
        dev = r.bufs[0].device
        if not isinstance(r, CopyRunner) and dev != last:
            switches += 1
            last = dev
    assert switches <= 6, [getattr(r, "kernel", r) for r in cap.runners]


def test_placeholders_never_reach_a_kernel():
    from tensor.loopir import Op
    from tensor.ops import G
    s = Tensor(np.ones((4, 2), np.float32), device="CPU").shard(TWO, axis=0)
    t = s.sum(0)
    assert all(p.view()[0].op is G.ALLREDUCE for p in t.node.parts)
    tensor.engine.timed_schedule([p.view()[0] for p in t.node.parts])     # scheduling resolves them
    assert all(p.view()[0].op is Op.ADD for p in t.node.parts)            # x0 + x1, on each device
    assert t.tolist() == [4.0, 4.0]
