#!/usr/bin/env python3
"""Host cost of the tensor layer on one training step of the MLP example, and the reference
backend's speed.

The step is ``python -m tensor.examples.mlp``'s, built from tensor.nn and tensor.optim: a
64-128-10 perceptron (nn.Linear, ReLU), cross-entropy, backward, SGD with Nesterov momentum
and weight decay, on a batch of 8x8 digits (random here: the cost does not depend on them).

Prints, measured in this run:
  * host time to build the graph (forward, loss, backward, the optimizer's updates), schedule
    it and lower every kernel to loop-level IR (cold: lowering caches cleared);
  * per step replayed by tensor.jit: total time, time inside kernels, and the difference (the
    host overhead the jit leaves; goal under 1 ms);
  * the reference backend's step time next to the same step written by hand in numpy (which
    computes the same numbers: the script checks it), and their ratio;
  * data parallelism (``--devices N`` of the examples): kernels per training step and CPU time
    per replayed step of the MLP and the CNN examples on one device and on two, on the
    reference backend and on the virtual AMD GPU pair (gfx1100x2: a few minutes; ``--quick``
    leaves it out), and the ratio 2 devices / 1 device; next to it the same two-device step
    with one all-reduce per tensor (``TENSOR_BUCKET_MB=0``) instead of buckets.  Each device
    runs the forward and backward on half the batch and the whole optimizer update, and the
    host simulates both devices of a pair, so the ideal ratio is between 1 and 2; what the
    all-reduce adds is the rest.
The machine may be shared: every figure is the best of several runs.
"""
import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tensor import Tensor, jit, no_grad  # noqa: E402
from tensor import engine  # noqa: E402
from tensor.examples import cnn, common, mlp  # noqa: E402
from tensor.lower import lower  # noqa: E402
from tensor.schedule import create_schedule  # noqa: E402

LR, MOMENTUM, WD = 0.05, 0.9, 1e-4


def make(seed=0):
    Tensor.manual_seed(seed)
    model, opt, _, loss_fn = mlp.build(argparse.Namespace(lr=LR, epochs=10), (8, 8))
    assert (opt.momentum, opt.nesterov, opt.weight_decay) == (MOMENTUM, True, WD)
    return model, opt, loss_fn


def numpy_step(params, bufs, x, y):
    """The same step by hand: forward, cross-entropy, backward, SGD (Nesterov, weight decay)."""
    W1, b1, W2, b2 = params
    x = x.reshape(len(x), -1)
    pre = x @ W1.T + b1
    h = np.maximum(pre, 0)
    logits = h @ W2.T + b2
    m = logits.max(-1, keepdims=True)
    e = np.exp(logits - m)
    s = e.sum(-1, keepdims=True)
    n = len(x)
    loss = (np.log(s[:, 0]) + m[:, 0] - logits[np.arange(n), y]).mean()
    dlogits = e / s
    dlogits[np.arange(n), y] -= 1
    dlogits /= n
    dW2, db2 = dlogits.T @ h, dlogits.sum(0)
    dh = (dlogits @ W2) * (pre > 0)
    dW1, db1 = dh.T @ x, dh.sum(0)
    for p, buf, g in zip(params, bufs, (dW1, db1, dW2, db2)):
        d = g + WD * p
        buf *= MOMENTUM
        buf += d
        p -= LR * (d + MOMENTUM * buf)
    return loss


def best(fn, repeat):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def data_parallel_step(example, kind, n, steps, batch=32):
    """(kernels per step, CPU seconds per replayed step) of ``example``'s jitted training step
    on ``n`` devices of ``kind``, as the example runs it (batch sharded along axis 0)."""
    ns = argparse.Namespace(device=kind, devices=n, batch_size=batch, lr=example.DEFAULTS["lr"], epochs=10)
    devs = common.pick_devices(ns)
    Tensor.manual_seed(0)
    model = example.make_model((8, 8), devs[0])
    if n > 1:
        model.apply_tensors(lambda t: t.shard(tuple(devs), axis=None))
    opt, sched = example.make_optimizer(ns, model)
    trainer = common.Trainer(model, opt, sched, devs, example.loss)
    model.train()
    rng = np.random.default_rng(0)
    xs = rng.random((batch, 8, 8), dtype=np.float32)
    ys = rng.integers(0, 10, batch)

    def step():
        trainer.train_step(trainer.to_device(xs), trainer.to_device(ys)).item()
    step()                                          # capture
    step()                                          # first replay (records command buffers)
    times = []
    for _ in range(steps):
        c0 = time.process_time()
        step()
        times.append(time.process_time() - c0)
    return trainer.kernels_per_step(), min(times)


def data_parallel(quick, steps):
    print("data parallelism: kernels per training step and CPU time per replayed step, 1 vs 2 devices "
          "(and 2 with one all-reduce per tensor)")
    if not os.environ.get("GPU_EMULATE") and not os.path.exists("/dev/kfd"):
        os.environ["GPU_EMULATE"] = "gfx1100x2"    # the virtual pair (set before AMD opens)
    runs = [("MLP", mlp, "CPU", steps), ("CNN", cnn, "CPU", max(3, steps // 5))]
    if not quick:
        runs += [("MLP", mlp, "AMD", 3), ("CNN", cnn, "AMD", 2)]
    for name, example, kind, n_steps in runs:
        k1, t1 = data_parallel_step(example, kind, 1, n_steps)
        k2, t2 = data_parallel_step(example, kind, 2, n_steps)
        saved = os.environ.get("TENSOR_BUCKET_MB")
        os.environ["TENSOR_BUCKET_MB"] = "0"
        try:
            k0, t0 = data_parallel_step(example, kind, 2, n_steps)
        finally:
            os.environ.pop("TENSOR_BUCKET_MB")
            if saved is not None:
                os.environ["TENSOR_BUCKET_MB"] = saved
        where = "reference backend" if kind == "CPU" else "virtual gfx1100"
        print(f"  {name} on {where:<17}: 1 device {k1:4d} kernels {1e3 * t1:8.1f} ms   "
              f"2 devices {k2:4d} kernels {1e3 * t2:8.1f} ms  ratio {t2 / t1:4.2f}x   "
              f"per tensor {k0:4d} kernels {1e3 * t0:8.1f} ms  ratio {t0 / t1:4.2f}x", flush=True)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--batch", type=int, default=32, help="batch size (the example's: 32)")
    ap.add_argument("--steps", type=int, default=50, help="replayed steps to time")
    ap.add_argument("--only-parallel", action="store_true", help="only the data-parallel figures")
    ap.add_argument("--quick", action="store_true", help="skip the CNN on the virtual GPU (the slow one)")
    args = ap.parse_args(argv)
    if args.only_parallel:
        return data_parallel(args.quick, args.steps)
    rng = np.random.default_rng(0)
    xs = rng.random((args.batch, 8, 8), dtype=np.float32)
    ys = rng.integers(0, 10, args.batch)
    x, y = Tensor(xs).realize(), Tensor(ys).realize()

    # 1. build + schedule + lower, cold
    model, opt, loss_fn = make()
    engine._lowered.clear()
    t0 = time.perf_counter()
    opt.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    with no_grad():
        updated = opt._update(list(enumerate(opt.params)))
    t1 = time.perf_counter()
    items = create_schedule([loss.node] + [t.node for t in updated])
    t2 = time.perf_counter()
    for it in items:
        if it.kind == "kernel":
            lower(it.ast, it.bufs)
    t3 = time.perf_counter()
    Tensor.realize_all(loss, *updated)            # run it: a real step, nothing left pending
    kernels = sum(1 for it in items if it.kind == "kernel")
    print(f"MLP 64-128-10 (tensor.nn, SGD Nesterov), batch {args.batch}: one training step = {kernels} kernels")
    print(f"  host, cold: build graph {1e3 * (t1 - t0):7.2f} ms   schedule {1e3 * (t2 - t1):7.2f} ms   "
          f"lower {1e3 * (t3 - t2):7.2f} ms   total {1e3 * (t3 - t0):7.2f} ms")

    # 2. eager step (build, schedule, run; lowering cached) and jit replay
    def eager():
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
    eager()
    t_eager = best(eager, 5)

    @jit
    def step(x, y):
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
        return loss
    step(x, y)
    step(x, y)                                     # the first replay warms numpy's caches
    cap = next(iter(step.captured.values()))
    assert len(cap.runners) == kernels == mlp.STEP_KERNELS, (len(cap.runners), kernels)
    t_replay = best(lambda: step(x, y), args.steps)
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

    # 3. reference backend vs hand-written numpy, from the same parameters
    model2, opt2, _ = make(seed=1)
    params = [p.numpy().astype(np.float32) for p in opt2.params]
    bufs = [np.zeros_like(p) for p in params]
    ref_loss = numpy_step(params, bufs, xs, ys)
    opt2.zero_grad()
    loss = loss_fn(model2(x), y)
    loss.backward()
    opt2.step()
    diff = max(float(np.abs(p.numpy() - q).max()) for p, q in zip(opt2.params, params))
    assert abs(loss.item() - ref_loss) < 1e-4 and diff < 1e-5, (loss.item(), ref_loss, diff)
    t_numpy = best(lambda: numpy_step(params, bufs, xs, ys), args.steps)
    print(f"  reference backend step (jit) {1e3 * t_replay:7.3f} ms vs hand-written numpy "
          f"{1e3 * t_numpy:7.3f} ms: ratio {t_replay / t_numpy:5.2f}x  (same update: max |diff| {diff:.1e})")

    # 4. data parallelism
    data_parallel(args.quick, args.steps)


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:
        sys.stderr.close()
