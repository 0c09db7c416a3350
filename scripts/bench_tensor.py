#!/usr/bin/env python3
"""Host cost of the tensor layer on one MLP training step, and the reference backend's speed.

The step is written with raw Tensor ops (no tensor.nn): a 64-128-10 MLP with ReLU, softmax
cross-entropy and an SGD update through assign(), on a batch of 8x8-digit-sized inputs.

Prints, measured in this run:
  * host time to build the graph (forward + backward + update), schedule it, and lower
    every kernel to loop-level IR (cold: lowering caches cleared);
  * per step replayed by tensor.jit: total time, time inside kernels, and the difference
    (the host overhead the jit leaves; goal under 1 ms);
  * the reference backend's step time next to the same step written by hand in numpy, and
    their ratio.
"""
import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tensor import Tensor, jit, no_grad  # noqa: E402
from tensor import engine  # noqa: E402
from tensor.lower import lower  # noqa: E402
from tensor.schedule import create_schedule  # noqa: E402

IN, HID, OUT = 64, 128, 10


def make_params(rng):
    def p(*shape, scale):
        return Tensor((rng.standard_normal(shape) * scale).astype(np.float32), requires_grad=True)
    params = [p(HID, IN, scale=IN ** -0.5), p(HID, scale=0.0), p(OUT, HID, scale=HID ** -0.5),
              p(OUT, scale=0.0)]
    Tensor.realize_all(*params)
    return params


def build_step(params, x, y, lr=0.05):
    W1, b1, W2, b2 = params
    h = (x @ W1.T + b1).relu()
    logits = h @ W2.T + b2
    loss = -(logits.log_softmax(-1) * y).sum(-1).mean()
    loss.backward()
    with no_grad():
        for p in params:
            p.assign(p - lr * p.grad)
            p.grad = None
    return loss


def numpy_step(params, x, y, lr=0.05):
    W1, b1, W2, b2 = params
    pre = x @ W1.T + b1
    h = np.maximum(pre, 0)
    logits = h @ W2.T + b2
    m = logits.max(-1, keepdims=True)
    e = np.exp(logits - m)
    s = e.sum(-1, keepdims=True)
    logp = logits - m - np.log(s)
    loss = -(logp * y).sum(-1).mean()
    dlogits = (e / s - y) / x.shape[0]
    dW2, db2 = dlogits.T @ h, dlogits.sum(0)
    dh = (dlogits @ W2) * (pre > 0)
    dW1, db1 = dh.T @ x, dh.sum(0)
    for p, g in zip(params, (dW1, db1, dW2, db2)):
        p -= lr * g
    return loss


def best(fn, repeat):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--steps", type=int, default=30, help="replayed steps to time")
    args = ap.parse_args(argv)
    rng = np.random.default_rng(0)
    xs = rng.standard_normal((args.batch, IN)).astype(np.float32)
    ys = np.eye(OUT, dtype=np.float32)[rng.integers(0, OUT, args.batch)]
    params = make_params(rng)
    x, y = Tensor(xs).realize(), Tensor(ys).realize()

    # 1. build + schedule + lower, cold
    engine._lowered.clear()
    t0 = time.perf_counter()
    W1, b1, W2, b2 = params
    h = (x @ W1.T + b1).relu()
    logits = h @ W2.T + b2
    loss = -(logits.log_softmax(-1) * y).sum(-1).mean()
    loss.backward()
    news = []
    with no_grad():
        for p in params:
            news.append(p - 0.05 * p.grad)
    t1 = time.perf_counter()
    items = create_schedule([loss.node.view()[0]] + [n.node for n in news])
    t2 = time.perf_counter()
    for it in items:
        if it.kind == "kernel":
            lower(it.ast, it.bufs)
    t3 = time.perf_counter()
    for p in params:
        p.grad = None
    kernels = sum(1 for it in items if it.kind == "kernel")
    print(f"MLP {IN}-{HID}-{OUT}, batch {args.batch}: one training step = {kernels} kernels")
    print(f"  host, cold: build graph {1e3 * (t1 - t0):7.2f} ms   schedule {1e3 * (t2 - t1):7.2f} ms   "
          f"lower {1e3 * (t3 - t2):7.2f} ms   total {1e3 * (t3 - t0):7.2f} ms")

    # 2. eager step (build + schedule + cached lowering + run) and jit replay
    def eager():
        loss = build_step(params, x, y)
        Tensor.realize_all(loss)
    eager()
    t_eager = best(eager, 5)
    step = jit(build_step)
    step(params, x, y)
    step(params, x, y)                             # first replay warms numpy's caches
    cap = next(iter(step.captured.values()))
    t_replay = best(lambda: step(params, x, y), args.steps)
    kernel_time = []
    for _ in range(args.steps):
        total = 0.0
        for r in cap.runners:
            total += r(timed=True) or 0.0
        kernel_time.append(total)
    t_kernels = min(kernel_time)
    print(f"  eager step (build, schedule, run): {1e3 * t_eager:7.2f} ms")
    print(f"  jit replay: {1e3 * t_replay:7.3f} ms per step, of which kernels {1e3 * t_kernels:7.3f} ms; "
          f"host overhead {1e3 * (t_replay - t_kernels):6.3f} ms (goal < 1 ms)")

    # 3. reference backend vs hand-written numpy
    nparams = [p.numpy().copy() for p in params]
    t_numpy = best(lambda: numpy_step(nparams, xs, ys), args.steps)
    print(f"  reference backend step (jit) {1e3 * t_replay:7.3f} ms vs hand-written numpy "
          f"{1e3 * t_numpy:7.3f} ms: ratio {t_replay / t_numpy:5.2f}x")


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:
        sys.stderr.close()
