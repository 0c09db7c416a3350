"""``tensor.optim``: SGD, Adam and AdamW with PyTorch's update rules, and learning-rate schedules.

    opt = optim.AdamW(model.parameters(), lr=1e-3)
    sched = optim.lr_scheduler.CosineAnnealingLR(opt, T_max=epochs)
    for epoch in range(epochs):
        for x, y in batches:
            opt.zero_grad(); model(x).cross_entropy(y).backward(); opt.step()
        sched.step()

``step()`` writes every update in place (``assign``: the parameters keep their buffers) and
runs them in one schedule, together with the loss and gradients the step used, so those can
still be read afterwards.  Parameters without a gradient are left alone, as in PyTorch.

Everything that changes from step to step lives in tensors, never in Python numbers: the
learning rate (``opt.lr``, which a schedule overwrites), Adam's step count, the momentum and
moment buffers.  So a training step under ``tensor.jit`` replays with the current values.
The state is created (and realized) with the optimizer, before any capture.
"""
import math

import numpy as np

from tensor.dtypes import dtypes
from tensor.tensor import Tensor, no_grad


def _state_like(p):
    """A zero buffer shaped, typed and placed like parameter ``p``."""
    return p.zeros_like().contiguous().realize()


class Optimizer:
    def __init__(self, params, lr):
        params = list(params)
        if params and isinstance(params[0], dict):
            raise TypeError(f"{type(self).__name__}: parameter groups are not supported; make one "
                            "optimizer per group")
        if not params:
            raise ValueError(f"{type(self).__name__}: got an empty parameter list")
        seen, self.params = set(), []
        for p in params:
            if not isinstance(p, Tensor):
                raise TypeError(f"{type(self).__name__}: parameters must be Tensors, got {type(p).__name__}")
            if not p.requires_grad:
                raise ValueError(f"{type(self).__name__}: a parameter of shape {p.shape} does not require grad")
            if id(p) not in seen:
                seen.add(id(p))
                self.params.append(p)
        if lr < 0:
            raise ValueError(f"{type(self).__name__}: invalid learning rate {lr}")
        Tensor.realize_all(*self.params)
        self.lr = Tensor(np.array(lr, np.float32), device=self.params[0].device).realize()

    def get_lr(self):
        return self.lr.item()

    def set_lr(self, value):
        """Overwrite the learning rate (what a schedule does); jitted steps see it at once."""
        with no_grad():
            self.lr.assign(float(value))
        self.lr.realize()

    def zero_grad(self, set_to_none=True):
        for p in self.params:
            p.grad = None if set_to_none or p.grad is None else p.grad.zeros_like()

    def step(self):
        live = [(i, p) for i, p in enumerate(self.params) if p.grad is not None]
        if not live:
            return
        with no_grad():
            updated = self._update(live)
        Tensor.realize_all(*updated)

    def _update(self, live):
        """Assign the new values; returns every tensor assigned."""
        raise TypeError(f"{type(self).__name__} does not define an update")

    def _lr(self, p):
        return self.lr.cast(p.dtype) if p.dtype is not dtypes.float32 else self.lr

    def state_dict(self):
        """The optimizer's tensors by name (save them with nn.safe_save, restore with
        nn.load_state_dict)."""
        out = {"lr": self.lr}
        for name, tensors in self._state_lists():
            for i, t in enumerate(tensors):
                if t is not None:
                    out[f"{name}.{i}"] = t
        return out

    def load_state_dict(self, state, strict=True):
        from tensor.nn.state import load_state_dict
        return load_state_dict(self, state, strict)

    def _state_lists(self):
        return []


class SGD(Optimizer):
    """p -= lr * d, where d = g + weight_decay * p, then with momentum
    buf = momentum * buf + (1 - dampening) * d (buf = d at the first step) and
    d = d + momentum * buf (nesterov) or d = buf."""

    def __init__(self, params, lr=1e-3, momentum=0.0, dampening=0.0, weight_decay=0.0, nesterov=False):
        super().__init__(params, lr)
        if momentum < 0 or weight_decay < 0:
            raise ValueError(f"SGD: momentum ({momentum}) and weight_decay ({weight_decay}) must be >= 0")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("SGD: nesterov momentum needs momentum > 0 and dampening = 0")
        self.momentum, self.dampening = momentum, dampening
        self.weight_decay, self.nesterov = weight_decay, nesterov
        self.momentum_buffers = [_state_like(p) for p in self.params] if momentum else []
        # dampening does not apply at the first step: the buffer starts as the gradient
        self.steps = Tensor.zeros((), dtype=dtypes.int32, device=self.params[0].device).contiguous().realize() \
            if momentum and dampening else None

    def _update(self, live):
        out = []
        first = None
        if self.steps is not None:
            first = self.steps == 0
            self.steps.assign(self.steps + 1)
            out.append(self.steps)
        for i, p in live:
            d = p.grad.cast(p.dtype)
            if self.weight_decay:
                d = d + p * self.weight_decay
            if self.momentum:
                buf = self.momentum_buffers[i]
                new = buf * self.momentum + (d * (1 - self.dampening) if self.dampening else d)
                buf.assign(first.where(d, new) if first is not None else new)
                out.append(buf)
                d = d + buf * self.momentum if self.nesterov else buf
            p.assign(p - d * self._lr(p))
            out.append(p)
        return out

    def _state_lists(self):
        steps = [("steps", [self.steps])] if self.steps is not None else []
        return [("momentum_buffer", self.momentum_buffers)] + steps


def _beta_power(t, beta):
    """beta ** t for a step-count tensor t (exp2 of t * log2(beta))."""
    if beta == 0:
        return t * 0.0
    return (t * math.log2(beta)).exp2()


class Adam(Optimizer):
    """Adam (Kingma & Ba, 2015) as PyTorch computes it: m = b1*m + (1-b1)*g,
    v = b2*v + (1-b2)*g^2, p -= lr / (1 - b1^t) * m / (sqrt(v) / sqrt(1 - b2^t) + eps).
    weight_decay adds weight_decay * p to g (L2); AdamW decays p itself instead."""
    decoupled = False

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0):
        super().__init__(params, lr)
        b1, b2 = betas
        if not (0 <= b1 < 1 and 0 <= b2 < 1):
            raise ValueError(f"{type(self).__name__}: betas must be in [0, 1), got {betas}")
        if eps < 0 or weight_decay < 0:
            raise ValueError(f"{type(self).__name__}: eps ({eps}) and weight_decay ({weight_decay}) must be >= 0")
        self.betas, self.eps, self.weight_decay = (b1, b2), eps, weight_decay
        self.exp_avg = [_state_like(p) for p in self.params]
        self.exp_avg_sq = [_state_like(p) for p in self.params]
        self.t = Tensor.zeros((), dtype=dtypes.float32, device=self.params[0].device).contiguous().realize()

    def _update(self, live):
        b1, b2 = self.betas
        self.t.assign(self.t + 1)
        bc1 = 1 - _beta_power(self.t, b1)
        bc2_sqrt = (1 - _beta_power(self.t, b2)).sqrt()
        out = [self.t]
        for i, p in live:
            g = p.grad.cast(p.dtype)
            lr = self._lr(p)
            if self.weight_decay and not self.decoupled:
                g = g + p * self.weight_decay
            m, v = self.exp_avg[i], self.exp_avg_sq[i]
            m.assign(m * b1 + g * (1 - b1))
            v.assign(v * b2 + g * g * (1 - b2))
            step = m / ((v.sqrt() / bc2_sqrt.cast(p.dtype)) + self.eps) * (lr / bc1.cast(p.dtype))
            base = p * (1 - lr * self.weight_decay) if self.weight_decay and self.decoupled else p
            p.assign(base - step)
            out += [m, v, p]
        return out

    def _state_lists(self):
        return [("exp_avg", self.exp_avg), ("exp_avg_sq", self.exp_avg_sq), ("step", [self.t])]


class AdamW(Adam):
    """Adam with decoupled weight decay (Loshchilov & Hutter, 2019): p *= 1 - lr * weight_decay
    before the Adam step; PyTorch's default weight_decay is 0.01."""
    decoupled = True

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01):
        super().__init__(params, lr, betas, eps, weight_decay)


from tensor.optim import lr_scheduler  # noqa: E402
from tensor.optim.lr_scheduler import CosineAnnealingLR, LRScheduler, StepLR  # noqa: E402

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "lr_scheduler", "LRScheduler", "StepLR", "CosineAnnealingLR"]
