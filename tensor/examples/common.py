"""What the training examples share: arguments, data, devices, the jitted steps, and one
progress line per epoch.

The training step (forward, loss, backward, optimizer step) runs under ``tensor.jit``: the
first call schedules it and records its kernels, every later call replays them.  Batches
have one size (the last, incomplete batch of each shuffled epoch is dropped), so there is
one capture.  Evaluation runs in eval mode on fixed-size chunks (the last one padded), so it
is one more capture.
"""
import argparse
import os
import sys
import time

import numpy as np

from tensor import Tensor, jit, nn
from tensor import device as devices
from tensor.datasets import DatasetError, digits, mnist
from tensor.device import DeviceError

EVAL_CHUNK = 512
TRAIN_EVAL_LIMIT = 10000        # train accuracy is measured on at most this many images


class ExampleError(RuntimeError):
    """A problem the user can fix (missing package, bad flag); printed without a traceback."""


def arguments(prog, description, argv, *, epochs, batch_size, lr):
    ap = argparse.ArgumentParser(prog=prog, description=description,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--device", help="backend to train on: CPU (the reference backend), AMD, ... "
                    "(default: TENSOR_DEVICE, else the first GPU with a backend, else CPU)")
    ap.add_argument("--devices", type=int, default=1, metavar="N",
                    help="data-parallel training on N devices of that kind: each takes 1/N of every "
                         "batch and the gradients are summed across them (default 1)")
    ap.add_argument("--emulate", metavar="TARGET",
                    help="train on the virtual GPU: gfx1100 (with --devices N, N of them); also GPU_EMULATE")
    ap.add_argument("--epochs", type=int, default=epochs, help=f"passes over the training set (default {epochs})")
    ap.add_argument("--batch-size", type=int, default=batch_size, help=f"default {batch_size}")
    ap.add_argument("--lr", type=float, default=lr, help=f"peak learning rate (default {lr})")
    ap.add_argument("--seed", type=int, default=0,
                    help="fixes the initialization, split and shuffling (default 0)")
    ap.add_argument("--mnist", metavar="DIR", help="train on MNIST read from the IDX files in DIR (you supply "
                    "them; nothing is downloaded) instead of the 8x8 digits")
    ap.add_argument("--train-limit", type=int, metavar="N", help="train on the first N training images only")
    ap.add_argument("--save", metavar="FILE", help="write the trained weights to FILE (safetensors)")
    args = ap.parse_args(argv)
    for flag in ("epochs", "batch_size", "devices"):
        if getattr(args, flag) < 1:
            ap.error(f"--{flag.replace('_', '-')} must be at least 1")
    if args.emulate:                # read when a device opens; gfx1100xN is a machine of N GPUs
        from drivers.emu.machine import parse_target
        try:
            base, count, _ = parse_target(args.emulate)
        except Exception as e:
            ap.error(f"--emulate: {e}")
        target = f"{base}x{args.devices}" if count == 1 and args.devices > 1 else args.emulate
        os.environ["GPU_EMULATE"] = target
        if args.device is None:
            args.device = "AMD" if target.startswith("gfx") else None
    return args


def load(args):
    """(x_train, y_train, x_test, y_test, what) as numpy arrays."""
    if args.mnist:
        xtr, ytr, xte, yte = mnist(args.mnist)
        what = f"MNIST from {args.mnist}"
    else:
        xtr, ytr, xte, yte = digits(seed=args.seed)
        what = "the 8x8 digits"
    if args.train_limit:
        xtr, ytr = xtr[:args.train_limit], ytr[:args.train_limit]
    if len(xtr) < args.batch_size:
        raise ExampleError(f"{len(xtr)} training images are fewer than one batch of {args.batch_size}")
    return xtr, ytr, xte, yte, what


def pick_devices(args):
    """The device names to train on: one, or N of one kind for data parallelism."""
    dev = devices.canonical(args.device)
    if args.devices == 1:
        return [dev]
    if args.batch_size % args.devices:
        raise ExampleError(f"--batch-size {args.batch_size} does not split evenly over {args.devices} devices")
    kind = dev.partition(":")[0]
    names = [f"{kind}:{i}" for i in range(args.devices)]
    for name in names:
        try:
            devices.get(name)
        except DeviceError as e:
            raise ExampleError(f"--devices {args.devices} needs {args.devices} {kind} devices: {e}") from None
    return names


class Trainer:
    """Runs the epochs: ``model`` maps a batch to logits, ``loss_fn(logits, labels)``."""

    def __init__(self, model, opt, sched, devs, loss_fn):
        self.model, self.opt, self.sched, self.devs = model, opt, sched, devs
        self.multi = len(devs) > 1

        @jit
        def train_step(x, y):
            opt.zero_grad()
            loss = loss_fn(model(x), y)
            loss.backward()
            opt.step()
            return loss

        @jit
        def predict(x):
            return model(x).argmax(-1)

        self.train_step, self.predict = train_step, predict

    def to_device(self, arr):
        if self.multi:
            return Tensor(arr).shard(tuple(self.devs), axis=0)
        return Tensor(arr, device=self.devs[0])

    def kernels_per_step(self):
        cap = next(iter(self.train_step.captured.values()), None)
        return None if cap is None else sum(1 for r in cap.runners if hasattr(r, "kernel"))

    def epoch(self, x, y, batch_size, rng):
        self.model.train()
        order = rng.permutation(len(x))
        losses = []
        for b in range(len(x) // batch_size):
            idx = order[b * batch_size:(b + 1) * batch_size]
            loss = self.train_step(self.to_device(x[idx]), self.to_device(y[idx]))
            losses.append(loss.item())          # the returned buffer is reused by the next step
        self.sched.step()
        return float(np.mean(losses))

    def accuracy(self, x, y):
        """(correct, total) in eval mode, in chunks of one size (the last one padded)."""
        self.model.eval()
        chunk = min(EVAL_CHUNK, len(x))
        if self.multi:
            chunk -= chunk % len(self.devs)
        correct = 0
        for start in range(0, len(x), chunk):
            part = x[start:start + chunk]
            n = len(part)
            if n < chunk:
                part = np.concatenate([part, np.zeros((chunk - n,) + part.shape[1:], part.dtype)])
            pred = self.predict(self.to_device(part)).numpy()[:n]
            correct += int((pred == y[start:start + n]).sum())
        return correct, len(x)


def run(prog, args, example):
    """Train and report; ``example`` is the example's module (make_model, make_optimizer, loss,
    describe).  Returns the final test accuracy (a fraction)."""
    xtr, ytr, xte, yte, what = load(args)
    devs = pick_devices(args)
    Tensor.manual_seed(args.seed)
    model = example.make_model(xtr.shape[1:], devs[0])
    if len(devs) > 1:       # every device holds the whole model; batches are split along axis 0
        model.apply_tensors(lambda t: t.shard(tuple(devs), axis=None))
    opt, sched = example.make_optimizer(args, model)
    trainer = Trainer(model, opt, sched, devs, example.loss)
    describe = example.describe
    rng = np.random.default_rng(args.seed)
    where = devs[0] if len(devs) == 1 else f"{len(devs)} x {devs[0].partition(':')[0]}"
    print(f"{prog}: {describe(model)} on {what} ({len(xtr)} train, {len(xte)} test), device {where}, "
          f"batch {args.batch_size}, {args.epochs} epoch{'s' if args.epochs != 1 else ''}")
    tr_x, tr_y = xtr[:TRAIN_EVAL_LIMIT], ytr[:TRAIN_EVAL_LIMIT]
    for epoch in range(1, args.epochs + 1):
        t0, c0 = time.perf_counter(), time.process_time()
        loss = trainer.epoch(xtr, ytr, args.batch_size, rng)
        tr_ok, tr_n = trainer.accuracy(tr_x, tr_y)
        te_ok, te_n = trainer.accuracy(xte, yte)
        secs, cpu = time.perf_counter() - t0, time.process_time() - c0
        print(f"epoch {epoch:3d}/{args.epochs}  loss {loss:.4f}  train {100 * tr_ok / tr_n:6.2f}%  "
              f"test {100 * te_ok / te_n:6.2f}%  {secs:6.2f} s (cpu {cpu:6.2f} s)  "
              f"{trainer.kernels_per_step()} kernels/step", flush=True)
    if args.save:
        nn.safe_save(model.state_dict(), args.save,
                     metadata={"example": prog, "test_accuracy": f"{te_ok / te_n:.4f}"})
        print(f"saved the weights to {args.save}")
    print(f"test accuracy {100 * te_ok / te_n:.2f}% ({te_ok}/{te_n})")
    return te_ok / te_n


def main(example, argv):
    """``python -m tensor.examples.NAME``: the example module's docstring is the help."""
    prog = "python -m " + getattr(example.__spec__, "name", example.__name__)
    args = arguments(prog, example.__doc__, argv, **example.DEFAULTS)
    try:
        run(prog, args, example)
    except (ExampleError, DatasetError, DeviceError) as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        sys.stderr.close()
    return 0
