"""Loss functions against PyTorch's formulas written in numpy, forward and backward, in float64
(gradients from the `autograd` package, or central differences without it)."""
import numpy as np
import pytest

import tensor.nn.functional as F
from tensor import DTypeError, ShapeError, Tensor, dtypes, nn

from test_tensor_nn import reference_grads

F64 = dtypes.float64


def rand(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


def check(loss_fn, ref_fn, x, rtol=1e-9):
    """loss_fn(Tensor x) against ref_fn(m, x), value and gradient."""
    xt = Tensor(x, dtype=F64, requires_grad=True)
    out = loss_fn(xt)
    want = ref_fn(np, x)
    np.testing.assert_allclose(out.numpy(), want, rtol=rtol, atol=1e-12)
    cot = rand(*np.shape(want), seed=5) if np.ndim(want) else np.array(1.0)
    (out * Tensor(cot)).sum().backward()
    (g,) = reference_grads(ref_fn, [x], cot)
    np.testing.assert_allclose(xt.grad.numpy(), g, rtol=1e-7, atol=1e-10)


def _reduce(m, loss, reduction, denom=None):
    if reduction == "none":
        return loss
    if reduction == "sum":
        return m.sum(loss)
    return m.sum(loss) / denom if denom is not None else m.mean(loss)


def ce_ref(target, weight=None, ignore_index=-100, reduction="mean", smoothing=0.0, probs=False):
    """torch.nn.functional.cross_entropy as documented (class indices or probabilities)."""
    def ref(m, x):
        d = 1 if x.ndim >= 2 else 0
        C = x.shape[d]
        mx = m.max(x, axis=d, keepdims=True)
        logp = x - (m.log(m.sum(m.exp(x - mx), axis=d, keepdims=True)) + mx)
        wshape = (C,) + (1,) * (x.ndim - d - 1)
        wb = np.ones(wshape) if weight is None else np.asarray(weight).reshape(wshape)
        if probs:
            t = target * (1 - smoothing) + smoothing / C
            return _reduce(m, -m.sum(logp * t * wb, axis=d), reduction)
        onehot = np.moveaxis(target[..., None] == np.arange(C), -1, d).astype(np.float64)
        valid = (target != ignore_index).astype(np.float64)
        nll = -m.sum(onehot * logp * wb, axis=d)
        smooth = -m.sum(logp * wb, axis=d)
        loss = ((1 - smoothing) * nll + smoothing / C * smooth) * valid
        return _reduce(m, loss, reduction, np.sum(np.sum(onehot * wb, axis=d) * valid))
    return ref


@pytest.mark.parametrize("case", ["plain", "weighted_ignored_smoothed", "spatial_sum", "none_weighted", "1d"])
def test_cross_entropy_with_class_indices(case):
    rng = np.random.default_rng(1)
    if case == "plain":
        x, t, kw = rand(6, 5), rng.integers(0, 5, 6), {}
    elif case == "weighted_ignored_smoothed":
        x, t = rand(7, 4), np.array([0, 3, -1, 2, 1, -1, 3])
        kw = {"weight": np.array([0.5, 1.0, 2.0, 0.25]), "ignore_index": -1, "smoothing": 0.2}
    elif case == "spatial_sum":
        x, t, kw = rand(3, 4, 2, 5), rng.integers(0, 4, (3, 2, 5)), {"reduction": "sum", "smoothing": 0.1}
    elif case == "none_weighted":
        x, t = rand(5, 3), np.array([2, 2, 0, 1, 2])
        kw = {"reduction": "none", "weight": np.array([1.0, 3.0, 0.5]), "ignore_index": 0}
    else:
        x, t, kw = rand(6), np.array(4), {"smoothing": 0.3}
    tk = dict(kw)
    tk["label_smoothing"] = tk.pop("smoothing", 0.0)
    if "weight" in tk:
        tk["weight"] = Tensor(tk["weight"], dtype=F64)
    check(lambda xt: xt.cross_entropy(Tensor(t), **tk), ce_ref(t, **kw), x)


def test_cross_entropy_with_probability_targets():
    x = rand(4, 5)
    t = np.random.default_rng(2).dirichlet(np.ones(5), 4)
    w = np.array([1.0, 0.5, 2.0, 1.5, 1.0])
    check(lambda xt: xt.cross_entropy(Tensor(t), weight=Tensor(w), label_smoothing=0.15),
          ce_ref(t, weight=w, smoothing=0.15, probs=True), x)
    check(lambda xt: xt.cross_entropy(Tensor(t), reduction="none"), ce_ref(t, reduction="none", probs=True), x)


def test_cross_entropy_is_stable_and_agrees_with_its_other_spellings():
    x = np.array([[1000.0, 0.0, -1000.0], [-5e3, 5e3, 0.0]])
    t = np.array([0, 0])
    loss = Tensor(x).cross_entropy(Tensor(t)).item()
    assert np.isfinite(loss) and abs(loss - (0 + 1e4) / 2) < 1e-9
    xt, tt = Tensor(rand(5, 3)), Tensor([0, 2, 1, 1, 0])
    a = xt.cross_entropy(tt, label_smoothing=0.1).item()
    assert F.cross_entropy(xt, tt, label_smoothing=0.1).item() == a
    assert nn.CrossEntropyLoss(label_smoothing=0.1)(xt, tt).item() == a
    # nll of log_softmax is cross-entropy
    assert abs(xt.log_softmax(1).nll_loss(tt).item() - xt.cross_entropy(tt).item()) < 1e-12
    # every target ignored: 0 / 0, as in PyTorch
    assert np.isnan(xt.cross_entropy(Tensor([-100] * 5)).item())


def test_nll_loss():
    logp = np.log(np.random.default_rng(3).dirichlet(np.ones(4), 6))
    t = np.array([1, 0, 3, 3, 2, 1])
    w = np.array([2.0, 1.0, 0.5, 1.0])

    def ref(reduction):
        def f(m, x):
            onehot = (t[:, None] == np.arange(4)).astype(np.float64)
            valid = (t != 3).astype(np.float64)
            loss = -m.sum(onehot * x * w, axis=1) * valid
            return _reduce(m, loss, reduction, np.sum(w[t] * valid))
        return f
    for reduction in ("mean", "sum", "none"):
        check(lambda xt: xt.nll_loss(Tensor(t), weight=Tensor(w), ignore_index=3, reduction=reduction),
              ref(reduction), logp)
    assert F.nll_loss(Tensor(logp), Tensor(t)).item() == nn.NLLLoss()(Tensor(logp), Tensor(t)).item()


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_regression_losses(reduction):
    x, y = rand(3, 4), rand(3, 4, seed=1)
    check(lambda xt: xt.mse_loss(Tensor(y), reduction), lambda m, v: _reduce(m, (v - y) ** 2, reduction), x)
    check(lambda xt: xt.l1_loss(Tensor(y), reduction), lambda m, v: _reduce(m, m.abs(v - y), reduction), x)
    assert F.mse_loss(Tensor(x), Tensor(y)).item() == nn.MSELoss()(Tensor(x), Tensor(y)).item()
    assert F.l1_loss(Tensor(x), Tensor(y)).item() == nn.L1Loss()(Tensor(x), Tensor(y)).item()


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_binary_cross_entropy(reduction):
    rng = np.random.default_rng(4)
    p = rng.uniform(0.05, 0.95, (4, 3))
    t = rng.uniform(0, 1, (4, 3))
    w = rng.uniform(0.5, 2, (4, 3))

    def ref(m, v):
        return _reduce(m, -w * (t * m.log(v) + (1 - t) * m.log(1 - v)), reduction)
    check(lambda pt: pt.binary_cross_entropy(Tensor(t), weight=Tensor(w), reduction=reduction), ref, p)
    # probabilities of exactly 0 and 1: each log is clamped at -100, as PyTorch does
    edge = Tensor([0.0, 1.0, 0.0, 1.0]).binary_cross_entropy(Tensor([1.0, 0.0, 0.0, 1.0]), reduction="none")
    assert edge.tolist() == [100.0, 100.0, 0.0, 0.0]
    assert nn.BCELoss()(Tensor(p), Tensor(t)).item() == F.binary_cross_entropy(Tensor(p), Tensor(t)).item()


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_binary_cross_entropy_with_logits(reduction):
    x = rand(3, 5) * 3
    t = np.random.default_rng(5).uniform(0, 1, (3, 5))
    pw = np.array([1.0, 2.0, 0.5, 3.0, 1.0])

    def ref(m, v):
        logsig, log1msig = -m.log(1 + m.exp(-v)), -m.log(1 + m.exp(v))
        return _reduce(m, -(pw * t * logsig + (1 - t) * log1msig), reduction)
    check(lambda xt: xt.binary_cross_entropy_with_logits(Tensor(t), pos_weight=Tensor(pw), reduction=reduction),
          ref, x)
    big = Tensor([200.0, -200.0]).binary_cross_entropy_with_logits(Tensor([0.0, 1.0]), reduction="none")
    np.testing.assert_allclose(big.numpy(), [200.0, 200.0])        # no overflow at large |x|
    a = nn.BCEWithLogitsLoss()(Tensor(x), Tensor(t)).item()
    assert a == F.binary_cross_entropy_with_logits(Tensor(x), Tensor(t)).item()


@pytest.mark.parametrize("fn,error,message", [
    (lambda: Tensor.ones(4, 3).cross_entropy(Tensor([0, 1])), ShapeError,
     r"cross_entropy: input \(4, 3\) needs class targets of shape \(4,\), got \(2,\)"),
    (lambda: Tensor.ones(2, 3).cross_entropy(Tensor([0, 3])), IndexError,
     r"cross_entropy: target 3 is out of range for 3 classes \(and is not ignore_index=-100\)"),
    (lambda: Tensor.ones(2, 3).cross_entropy(Tensor([0, 1]), reduction="avg"), ValueError,
     "reduction must be 'mean', 'sum' or 'none', got 'avg'"),
    (lambda: Tensor.ones(2, 3).cross_entropy(Tensor([0, 1]), label_smoothing=1.5), ValueError,
     r"label_smoothing must be in \[0, 1\]"),
    (lambda: Tensor.ones(2, 3).cross_entropy(Tensor.ones(2, 4)), ShapeError,
     r"probability targets must have the input's shape \(2, 3\), got \(2, 4\)"),
    (lambda: Tensor.ones(2, 3).cross_entropy(Tensor([0, 1]), weight=Tensor.ones(4)), ShapeError,
     r"weight must have shape \(3,\) for 3 classes, got \(4,\)"),
    (lambda: Tensor([1, 2]).cross_entropy(Tensor(0)), DTypeError, "the input must be floating point"),
    (lambda: Tensor(2.0).cross_entropy(Tensor(0)), ShapeError, "needs a class dimension"),
    (lambda: Tensor.ones(2, 3).nll_loss(Tensor([0.0, 1.0])), DTypeError, "class targets must be integers, got float32"),
    (lambda: Tensor.ones(3, 1).mse_loss(Tensor.ones(3)), ShapeError,
     r"mse_loss: input shape \(3, 1\) and target shape \(3,\) differ"),
    (lambda: Tensor([1, 2]).l1_loss(Tensor([1, 2])), DTypeError, "l1_loss: the input must be floating point"),
])
def test_loss_errors_name_the_problem(fn, error, message):
    with pytest.raises(error, match=message):
        fn()
