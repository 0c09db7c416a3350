"""The training examples, shortened (seconds, not minutes): they learn, print one line per epoch
with the kernels per step, say what is wrong when they cannot run, and save what they trained.
The full runs (96% / 97% test accuracy within 2 minutes) are measured by running them."""
import os
import re
import subprocess
import sys

import numpy as np
import pytest

from tensor import Tensor, engine, nn
from tensor.datasets import write_idx
from tensor.examples import cnn, mlp

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINE = re.compile(r"^epoch +(\d+)/(\d+)  loss (\d+\.\d+)  train +(\d+\.\d+)%  test +(\d+\.\d+)%  +\d+\.\d+ s "
                  r"\(cpu +\d+\.\d+ s\)  (\d+) kernels/step$")
needs_sklearn = pytest.mark.skipif(__import__("importlib").util.find_spec("sklearn") is None,
                                   reason="the digits ship with scikit-learn (pip install -e '.[examples]')")


def epochs_of(out):
    rows = [LINE.match(line) for line in out.splitlines() if line.startswith("epoch")]
    assert rows and all(rows), out
    return [(float(m.group(3)), float(m.group(4)), float(m.group(5)), int(m.group(6))) for m in rows]


def final_accuracy(out):
    m = re.search(r"^test accuracy (\d+\.\d+)% \((\d+)/(\d+)\)$", out, re.M)
    assert m, out
    return float(m.group(1))


@needs_sklearn
def test_mlp_learns_and_a_step_is_the_stated_number_of_kernels(capsys):
    assert mlp.main(["--epochs", "2"]) == 0
    out = capsys.readouterr().out
    rows = epochs_of(out)
    assert len(rows) == 2 and rows[1][0] < rows[0][0]                      # the loss falls
    assert all(k == mlp.STEP_KERNELS for *_, k in rows)
    assert final_accuracy(out) >= 90.0 and final_accuracy(out) == rows[-1][2]
    assert "20 kernels" in mlp.__doc__ and mlp.STEP_KERNELS == 20


def test_an_eager_mlp_step_launches_the_same_kernels():
    """Counted independently of the jit: the launches of one eager step (forward, loss,
    backward and update realized together), with Linear's forward one kernel of them."""
    import argparse
    Tensor.manual_seed(0)
    model, opt, _, loss_fn = mlp.build(argparse.Namespace(lr=0.05, epochs=5), (8, 8))
    x = Tensor(np.random.default_rng(0).random((32, 8, 8), np.float32)).realize()
    y = Tensor(np.arange(32) % 10).realize()
    for _ in range(2):                                  # the second step has no lazy state left
        before = engine.stats["launches"]
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
        launched = engine.stats["launches"] - before
    assert launched == mlp.STEP_KERNELS and np.isfinite(loss.item())
    from test_tensor_fusion import schedule
    h = model[1](x.flatten(1))
    assert len(schedule(h)) == 1


@needs_sklearn
def test_cnn_learns_in_a_short_run(capsys):
    assert cnn.main(["--epochs", "3", "--train-limit", "480", "--lr", "0.01"]) == 0
    out = capsys.readouterr().out
    rows = epochs_of(out)
    assert len(rows) == 3 and rows[-1][0] < rows[0][0] and len({k for *_, k in rows}) == 1
    assert final_accuracy(out) >= 85.0
    assert "(480 train, 360 test)" in out


def test_examples_train_on_mnist_files_and_save_the_weights(tmp_path, capsys):
    rng = np.random.default_rng(0)
    for name, shape in (("train-images-idx3-ubyte", (64, 28, 28)), ("t10k-images-idx3-ubyte", (16, 28, 28))):
        write_idx(str(tmp_path / name), rng.integers(0, 256, shape).astype(np.uint8))
    write_idx(str(tmp_path / "train-labels-idx1-ubyte"), rng.integers(0, 10, 64).astype(np.uint8))
    write_idx(str(tmp_path / "t10k-labels-idx1-ubyte"), rng.integers(0, 10, 16).astype(np.uint8))
    weights = str(tmp_path / "mlp.safetensors")
    assert mlp.main(["--mnist", str(tmp_path), "--epochs", "1", "--batch-size", "16", "--save", weights,
                     "--device", "CPU:1"]) == 0
    out = capsys.readouterr().out
    assert "MLP 784-128-10" in out and "(64 train, 16 test), device CPU:1" in out and len(epochs_of(out)) == 1
    saved = nn.safe_load(weights)
    assert sorted(saved) == ["1.bias", "1.weight", "3.bias", "3.weight"] and saved["1.weight"].shape == (128, 784)
    assert nn.safe_load_metadata(weights)[1]["example"] == "python -m tensor.examples.mlp"
    assert cnn.main(["--mnist", str(tmp_path), "--epochs", "1", "--batch-size", "16", "--train-limit", "16"]) == 0
    assert len(epochs_of(capsys.readouterr().out)) == 1


@pytest.mark.parametrize("argv,message", [
    (["--devices", "3"], "--batch-size 32 does not split evenly over 3 devices"),
    (["--device", "tpu"], "unknown device 'tpu'"),
    (["--mnist", "/nonexistent"], "/nonexistent: not a directory"),
])
def test_examples_say_what_is_wrong(capsys, argv, message):
    assert mlp.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("python -m tensor.examples.mlp: error: ") and message in err


def test_examples_without_scikit_learn_say_how_to_get_it(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "sklearn", None)
    monkeypatch.setitem(sys.modules, "sklearn.datasets", None)
    assert cnn.main([]) == 2
    assert "pip install -e '.[examples]'" in capsys.readouterr().err


def test_examples_help_and_a_closed_pipe():
    out = subprocess.run([sys.executable, "-m", "tensor.examples.mlp", "--help"], cwd=ROOT,
                         capture_output=True, text=True)
    assert out.returncode == 0 and "--devices N" in out.stdout and "20 kernels" in out.stdout
    with pytest.raises(SystemExit):
        mlp.main(["--epochs", "0"])
    if __import__("importlib").util.find_spec("sklearn") is not None:
        out = subprocess.run(f"{sys.executable} -m tensor.examples.mlp --epochs 1 --train-limit 64 | head -1",
                             shell=True, cwd=ROOT, capture_output=True, text=True)
        assert out.stdout.startswith("python -m tensor.examples.mlp: MLP") and "Traceback" not in out.stderr


def test_bench_tensor_times_the_example_step():
    out = subprocess.run([sys.executable, "scripts/bench_tensor.py", "--steps", "3", "--quick"], cwd=ROOT,
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert f"one training step = {mlp.STEP_KERNELS} kernels" in out.stdout
    assert re.search(r"MLP on reference backend: 1 device +20 kernels .* 2 devices +46 kernels", out.stdout), out.stdout
    assert "host overhead" in out.stdout and "hand-written numpy" in out.stdout and "ratio" in out.stdout


def test_python_m_tensor_examples_lists_them():
    # a fresh process, as a user runs it (pytest's import hook cannot serve runpy the package)
    out = subprocess.run([sys.executable, "-m", "tensor.examples"], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout
    assert "python -m tensor.examples.mlp" in out and "python -m tensor.examples.cnn" in out
