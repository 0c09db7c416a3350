#!/usr/bin/env python3
"""Train the examples on the AMD tensor device and on the reference backend, and compare.

    python scripts/train_on_gpu.py                        # MLP and CNN, full runs (long on the
                                                          # virtual GPU: minutes per CNN epoch)
    python scripts/train_on_gpu.py --example mlp --epochs 3 --devices 2

Each run is ``python -m tensor.examples.NAME`` in a child process: on CPU (the numpy reference
backend), on AMD (a real GPU when /dev/kfd exists, else the virtual gfx1100 via
``GPU_EMULATE``), and with ``--devices N`` also data-parallel over N AMD GPUs.  Printed per
run: final test accuracy, kernels per training step, wall and CPU seconds per epoch and per
step; then whether every epoch's loss and accuracies equal the reference's.  The test suite
runs these examples briefly; this script is the long, opt-in version of that check.
"""
import argparse
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINE = re.compile(r"^epoch +\d+/\d+  loss (\S+)  train +(\S+)%  test +(\S+)%  +(\S+) s \(cpu +(\S+) s\)  (\d+) kernels/step")
STEPS = {"mlp": 1437 // 32, "cnn": 1437 // 32}       # the 8x8 digits' training split, batch 32


def run(example, device, devices, epochs, gpus):
    env = dict(os.environ)
    if device == "AMD" and not os.path.exists("/dev/kfd"):
        env["GPU_EMULATE"] = f"gfx1100x{gpus}" if gpus > 1 else "gfx1100"
    argv = [sys.executable, "-m", f"tensor.examples.{example}", "--device", device]
    if epochs:
        argv += ["--epochs", str(epochs)]
    if devices > 1:
        argv += ["--devices", str(devices)]
    t0 = time.perf_counter()
    p = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True)
    if p.returncode:
        raise SystemExit(f"train_on_gpu: {' '.join(argv[2:])} failed:\n{p.stderr.strip()[-2000:]}")
    rows = [m.groups() for m in map(LINE.match, p.stdout.splitlines()) if m]
    return rows, time.perf_counter() - t0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--example", action="append", choices=("mlp", "cnn"), help="default: both")
    ap.add_argument("--epochs", type=int, help="default: each example's own")
    ap.add_argument("--devices", type=int, default=2, metavar="N",
                    help="also train data-parallel on N AMD GPUs (default 2; 1 skips it)")
    args = ap.parse_args(argv)
    print(f"{'run':<22} {'test acc':>8} {'kernels':>7} {'s/epoch':>8} {'cpu s/epoch':>11} {'s/step':>7} "
          f"{'same as CPU':>11}")
    for ex in args.example or ["mlp", "cnn"]:
        ref = None
        runs = [("CPU", 1, 1), ("AMD", 1, 1)] + ([("AMD", args.devices, args.devices)] if args.devices > 1 else [])
        for device, n, gpus in runs:
            rows, _ = run(ex, device, n, args.epochs, gpus)
            wall = sum(float(r[3]) for r in rows) / len(rows)
            cpu = sum(float(r[4]) for r in rows) / len(rows)
            curve = [r[:3] for r in rows]
            same = "-" if ref is None else ("yes" if curve == ref else
                                            f"{sum(a == b for a, b in zip(curve, ref))}/{len(ref)} epochs")
            ref = curve if ref is None else ref
            name = f"{ex} {device}" + (f" x{n}" if n > 1 else "")
            print(f"{name:<22} {rows[-1][2]:>7}% {rows[-1][5]:>7} {wall:>8.1f} {cpu:>11.1f} "
                  f"{wall / STEPS[ex]:>7.2f} {same:>11}", flush=True)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:
        sys.stderr.close()
