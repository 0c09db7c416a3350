"""tensor.optim against updates computed by hand in numpy (PyTorch's algorithms) over several
steps, learning-rate schedules, and what a step leaves readable (the loss, the gradients)."""
import math

import numpy as np
import pytest

from tensor import Tensor, dtypes, jit, nn, optim

F64 = dtypes.float64
STEPS = 5


def grads_sequence(shape, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(shape) for _ in range(STEPS)]


def run(make_opt, p0, grads):
    """Step an optimizer on one float64 parameter whose gradient at step k is grads[k]."""
    p = Tensor(p0, dtype=F64, requires_grad=True)
    opt = make_opt([p])
    out = []
    for g in grads:
        opt.zero_grad()
        (p * Tensor(g)).sum().backward()           # d/dp = g
        opt.step()
        out.append(p.numpy().copy())
    return out


def sgd_ref(p, grads, lr, momentum=0.0, dampening=0.0, weight_decay=0.0, nesterov=False):
    out, buf = [], None
    p = p.copy()
    for g in grads:
        d = g + weight_decay * p
        if momentum:
            buf = d.copy() if buf is None else momentum * buf + (1 - dampening) * d
            d = d + momentum * buf if nesterov else buf
        p = p - lr * d
        out.append(p)
    return out


def adam_ref(p, grads, lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0, decoupled=False):
    b1, b2 = betas
    m, v = np.zeros_like(p), np.zeros_like(p)
    out = []
    p = p.copy()
    for t, g in enumerate(grads, 1):
        if decoupled:
            p = p * (1 - lr * weight_decay)
        elif weight_decay:
            g = g + weight_decay * p
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        denom = np.sqrt(v) / math.sqrt(1 - b2 ** t) + eps
        p = p - lr / (1 - b1 ** t) * m / denom
        out.append(p)
    return out


P0 = np.random.default_rng(9).standard_normal((3, 4))
GRADS = grads_sequence((3, 4))


@pytest.mark.parametrize("kw", [
    {}, {"momentum": 0.9}, {"momentum": 0.9, "nesterov": True}, {"momentum": 0.8, "dampening": 0.3},
    {"momentum": 0.9, "weight_decay": 0.05}, {"weight_decay": 0.1},
])
def test_sgd_matches_hand_computed_updates(kw):
    got = run(lambda ps: optim.SGD(ps, lr=0.1, **kw), P0, GRADS)
    for a, b in zip(got, sgd_ref(P0, GRADS, 0.1, **kw)):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)       # lr is held in float32


@pytest.mark.parametrize("cls,kw", [
    (optim.Adam, {}), (optim.Adam, {"betas": (0.8, 0.99), "eps": 1e-6, "weight_decay": 0.1}),
    (optim.AdamW, {}), (optim.AdamW, {"weight_decay": 0.3, "betas": (0.0, 0.9)}),
])
def test_adam_and_adamw_match_hand_computed_updates(cls, kw):
    got = run(lambda ps: cls(ps, lr=0.01, **kw), P0, GRADS)
    wd = kw.get("weight_decay", 0.01 if cls is optim.AdamW else 0.0)
    want = adam_ref(P0, GRADS, 0.01, kw.get("betas", (0.9, 0.999)), kw.get("eps", 1e-8), wd,
                    decoupled=cls is optim.AdamW)
    for a, b in zip(got, want):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-7)


def test_parameters_without_gradients_are_left_alone_and_state_is_kept_in_place():
    a = Tensor.ones(2, requires_grad=True)
    b = Tensor.ones(2, requires_grad=True)
    opt = optim.SGD([a, b, a], lr=0.5, momentum=0.9)
    assert len(opt.params) == 2
    buffers = [p.node.buffer for p in opt.params]
    (a * 2).sum().backward()
    opt.step()
    assert a.tolist() == [0.0, 0.0] and b.tolist() == [1.0, 1.0] and b.grad is None
    assert [p.node.buffer for p in opt.params] == buffers            # updated in place
    opt.zero_grad()
    assert a.grad is None
    opt.step()                                                        # nothing to do
    assert a.tolist() == [0.0, 0.0]


def test_the_loss_and_gradients_stay_readable_after_the_step():
    model = nn.Linear(3, 2)
    opt = optim.SGD(model.parameters(), lr=0.1)
    x = Tensor(np.ones((4, 3), np.float32))
    before = model.weight.numpy().copy()
    loss = model(x).cross_entropy(Tensor([0, 1, 1, 0]))
    loss.backward()
    opt.step()                                                        # the loss is still lazy here
    value, grad = loss.item(), model.weight.grad.numpy()
    np.testing.assert_allclose(model.weight.numpy(), before - 0.1 * grad, rtol=1e-6)
    logits = x.numpy() @ before.T + model.bias.numpy() + 0.1 * model.bias.grad.numpy()
    ref = np.mean([np.log(np.exp(logits[i]).sum()) - logits[i, t] for i, t in enumerate([0, 1, 1, 0])])
    assert abs(value - ref) < 1e-5


def test_schedules_follow_pytorch_closed_forms():
    p = Tensor.ones(1, requires_grad=True)
    opt = optim.SGD([p], lr=0.1)
    sched = optim.lr_scheduler.StepLR(opt, step_size=3, gamma=0.5)
    seen = []
    for _ in range(8):
        seen.append(opt.get_lr())
        sched.step()
    np.testing.assert_allclose(seen, [0.1 * 0.5 ** (e // 3) for e in range(8)], rtol=1e-6)
    opt = optim.Adam([p], lr=0.2)
    sched = optim.CosineAnnealingLR(opt, T_max=4, eta_min=0.02)
    seen = []
    for _ in range(5):
        seen.append(opt.get_lr())
        sched.step()
    want = [0.02 + 0.18 * (1 + math.cos(math.pi * e / 4)) / 2 for e in range(5)]
    np.testing.assert_allclose(seen, want, rtol=1e-6)
    assert sched.get_last_lr() == [pytest.approx(0.02 + 0.18 * (1 + math.cos(math.pi * 5 / 4)) / 2)]


def test_a_schedule_reaches_a_jitted_step():
    """The learning rate lives in a tensor, so replays of a captured step use the new value."""
    p = Tensor(np.zeros(3), dtype=F64, requires_grad=True)
    opt = optim.SGD([p], lr=1.0)
    sched = optim.StepLR(opt, step_size=1, gamma=0.5)

    @jit
    def step(g):
        opt.zero_grad()
        (p * g).sum().backward()
        opt.step()
        return p.sum()
    total = 0.0
    for epoch in range(4):
        step(Tensor(np.ones(3)))
        total -= 0.5 ** epoch
        sched.step()
        np.testing.assert_allclose(p.numpy(), [total] * 3, rtol=1e-7)
    assert len(step.captured) == 1


def test_optimizer_state_round_trips_through_a_state_dict():
    p = Tensor(P0, dtype=F64, requires_grad=True)
    opt = optim.Adam([p], lr=0.01)
    for g in GRADS[:2]:
        opt.zero_grad()
        (p * Tensor(g)).sum().backward()
        opt.step()
    state = {k: v.numpy().copy() for k, v in opt.state_dict().items()}
    assert sorted(state) == ["exp_avg.0", "exp_avg_sq.0", "lr", "step.0"] and state["step.0"] == 2
    q = Tensor(p.numpy(), dtype=F64, requires_grad=True)
    opt2 = optim.Adam([q], lr=0.5)
    opt2.load_state_dict(state)
    assert abs(opt2.get_lr() - 0.01) < 1e-9
    for o, t in ((opt, p), (opt2, q)):
        o.zero_grad()
        (t * Tensor(GRADS[2])).sum().backward()
        o.step()
    np.testing.assert_allclose(q.numpy(), p.numpy(), rtol=1e-12)


@pytest.mark.parametrize("fn,error,message", [
    (lambda: optim.SGD([], lr=0.1), ValueError, "SGD: got an empty parameter list"),
    (lambda: optim.SGD([Tensor.ones(2)], lr=0.1), ValueError, r"a parameter of shape \(2,\) does not require grad"),
    (lambda: optim.SGD([{"params": []}], lr=0.1), TypeError, "parameter groups are not supported"),
    (lambda: optim.SGD([Tensor.ones(1, requires_grad=True)], lr=-1), ValueError, "invalid learning rate -1"),
    (lambda: optim.SGD([Tensor.ones(1, requires_grad=True)], lr=0.1, nesterov=True), ValueError,
     "nesterov momentum needs momentum > 0"),
    (lambda: optim.Adam([Tensor.ones(1, requires_grad=True)], betas=(1.0, 0.9)), ValueError,
     r"betas must be in \[0, 1\)"),
    (lambda: optim.StepLR(optim.SGD([Tensor.ones(1, requires_grad=True)]), step_size=0), ValueError,
     "step_size must be at least 1"),
])
def test_optimizer_errors(fn, error, message):
    with pytest.raises(error, match=message):
        fn()
