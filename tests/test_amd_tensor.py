"""The AMD tensor device on the virtual RX 7900 XTX pair: names and defaults, the kernel cache
(memory and disk, with a version key), jit replay through recorded command buffers, tensors
sharded over two GPUs with a ring all-reduce over peer copies, data-parallel training equal to
single-device training, and a small network that learns on the GPU."""
import os
import re

import numpy as np
import pytest

import tensor
from tensor import DeviceError, Tensor
from tensor import device as devices
from tensor.backends import amd

TWO = ("AMD", "AMD:1")


@pytest.fixture(autouse=True)
def virtual_pair(monkeypatch):
    monkeypatch.setenv("GPU_EMULATE", "gfx1100x2")
    monkeypatch.setenv("TENSOR_CACHE", "0")
    monkeypatch.delenv("TENSOR_DEVICE", raising=False)
    monkeypatch.setattr(devices, "_default", None)


def test_device_names_and_the_default():
    assert devices.default() == "AMD"                    # a GPU (virtual or not) wins the default
    a = Tensor([1.0, 2.0], device="amd:1")
    assert a.device == "AMD:1" and (a * 3).tolist() == [3.0, 6.0]
    assert Tensor([1.0]).device == "AMD"
    ok, detail = amd.AMDBackend.probe()
    assert ok and "gfx1100" in detail
    with pytest.raises(DeviceError, match="AMD:7"):
        (Tensor([1.0], device="AMD:7") * 2).numpy()


def test_waits_on_the_virtual_gpu_allow_for_a_busy_host(monkeypatch):
    b = amd.AMDBackend(0)
    try:
        assert b.dev.timeout == 600                  # the virtual GPU runs at the host's pace
    finally:
        b.dev.close()
    monkeypatch.setenv("TENSOR_GPU_TIMEOUT", "5")
    b = amd.AMDBackend(1)
    try:
        assert b.dev.timeout == 5
    finally:
        b.dev.close()
    monkeypatch.setenv("TENSOR_GPU_TIMEOUT", "soon")
    with pytest.raises(DeviceError, match="TENSOR_GPU_TIMEOUT='soon' is not valid"):
        amd.AMDBackend(0)


def test_probe_without_a_gpu_says_how_to_get_the_virtual_one(monkeypatch):
    monkeypatch.delenv("GPU_EMULATE")
    monkeypatch.setattr(os.path, "exists", lambda p: False if p == "/dev/kfd" else os.path.lexists(p))
    ok, detail = amd.AMDBackend.probe()
    assert not ok and "GPU_EMULATE=gfx1100" in detail


def _kernel():
    from tensor.schedule import create_schedule
    from tensor.lower import lower
    a = Tensor(np.arange(12, dtype=np.float32), device="CPU").realize()
    (item,) = create_schedule([(a * 2 + 1).node])
    return lower(item.ast, item.bufs, [], 3)


def test_kernels_are_cached_in_memory_and_on_disk(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("TENSOR_CACHE", "1")
    k = _kernel()
    first = amd.AMDBackend(0)
    p1 = first.compile(k)
    assert first.compile(k) is p1                                   # memory
    folder = tmp_path / "gpustack" / "rdna3" / amd.VERSION          # the version key
    assert sorted(f.suffix for f in folder.iterdir()) == [".hsaco", ".json"]
    import tensor.codegen.rdna3 as codegen

    def refuse(*a, **kw):
        raise AssertionError("compiled again although the disk cache holds the kernel")
    monkeypatch.setattr(codegen, "compile_kernel", refuse)
    second = amd.AMDBackend(0)
    p2 = second.compile(k)                                          # disk
    assert (p2.grid, p2.block) == (p1.grid, p1.block)
    out = second.alloc(48)
    x = second.alloc(48)
    second.copyin(x, np.arange(12, dtype=np.float32).view(np.uint8))
    second.launch(p2, [out, x])
    got = np.zeros(12, np.float32)
    second.copyout(out, got.view(np.uint8))
    np.testing.assert_array_equal(got, np.arange(12) * 2 + 1)
    assert amd.VERSION == amd._codegen_version()


@pytest.mark.parametrize("shape,rdims,want", [
    ((1, 1 << 20), [1], [("group", 1, 256), ("unroll", 1, 4)]),          # a long row: its own axis
    ((32, 16, 8, 8, 3, 3), [0, 2, 3], [("group", 0, 32), ("unroll", 3, 4)]),   # conv weight grad: batch
    ((32, 32, 16, 4, 4, 3, 3), [0, 3, 4], [("group", 0, 32), ("unroll", 4, 4)]),  # 4608 outputs, 512 each
    ((4096, 256), [1], [("unroll", 1, 4)]),                             # enough rows: one per work-item
    ((32, 10, 128), [0], [("unroll", 0, 4)]),                           # 32 each: the exchange costs more
], ids=["row", "conv1-wgrad", "conv2-wgrad", "softmax-rows", "short"])
def test_reductions_with_few_outputs_spread_over_workgroups(shape, rdims, want):
    from tensor.backends.amd_opts import heuristic
    assert [(o.op, o.axis, o.amount) for o in heuristic(shape, rdims)] == want


def test_beam_search_times_candidates_and_keeps_a_correct_one(monkeypatch):
    from tensor.backends import amd_opts
    monkeypatch.setenv("BEAM", "3")
    monkeypatch.setattr(amd_opts, "_beam_cache", {})
    timed = []
    real = amd_opts.beam

    def spy(backend, info, candidates):
        timed.append(len(candidates))
        return real(backend, info, candidates)
    monkeypatch.setattr(amd_opts, "beam", spy)
    rng = np.random.default_rng(5)
    a, b = rng.standard_normal((40, 24), np.float32), rng.standard_normal((24, 36), np.float32)
    x = Tensor(a, device="AMD")
    got = (x @ Tensor(b, device="AMD")).numpy()
    np.testing.assert_allclose(got, a @ b, rtol=1e-5, atol=1e-5)
    assert timed and max(timed) > 1 and amd_opts._beam_cache
    # a kernel that reads the buffer it writes: the candidates are timed on copies
    y = Tensor(a, device="AMD").realize()
    y.assign(y * 2 + 1).realize()
    np.testing.assert_allclose(y.numpy(), a * 2 + 1)


def test_jit_replays_through_a_command_buffer_with_arguments_patched(monkeypatch):
    calls = {"record": 0, "update": 0}
    real_add, real_update = None, None
    from drivers.amd import replay
    real_add, real_update = replay.CommandBuffer.finalize, replay.CommandBuffer.update

    def finalize(self):
        calls["record"] += 1
        return real_add(self)

    def update(self, index, *args):
        calls["update"] += 1
        return real_update(self, index, *args)
    monkeypatch.setattr(replay.CommandBuffer, "finalize", finalize)
    monkeypatch.setattr(replay.CommandBuffer, "update", update)
    w = Tensor(np.linspace(-1, 1, 12, dtype=np.float32).reshape(4, 3))

    @tensor.jit
    def f(x):
        return (x @ w).relu().sum(1)
    rng = np.random.default_rng(0)
    for i in range(4):
        x = rng.standard_normal((5, 4)).astype(np.float32)
        got = f(Tensor(x)).numpy()
        np.testing.assert_allclose(got, np.maximum(x @ w.numpy(), 0).sum(1), rtol=1e-5, atol=1e-6)
    assert calls["record"] == 1                       # recorded at the first replay only
    assert calls["update"] >= 2                       # each later replay patched the new input


def test_shard_slices_copies_and_gathers():
    x = np.arange(30, dtype=np.float32).reshape(10, 3)
    s = Tensor(x).shard(TWO, axis=0)
    assert s.device == TWO and s.shape == (10, 3)
    assert [p.shape for p in s.node.parts] == [(5, 3), (5, 3)]
    np.testing.assert_array_equal(s.numpy(), x)
    np.testing.assert_array_equal((s * 2 + 1).to("CPU").numpy(), x * 2 + 1)
    r = Tensor(x).shard(TWO)
    assert r.node.axis is None and [p.device for p in r.node.parts] == list(TWO)
    np.testing.assert_array_equal((s + r).numpy(), 2 * x)          # a replica meets a slice
    np.testing.assert_allclose(s.sum(0).numpy(), x.sum(0))          # all-reduce over the slices
    np.testing.assert_allclose(s.amax(0).numpy(), x.max(0))
    np.testing.assert_allclose(s.sum(1).numpy(), x.sum(1))          # stays sliced
    with pytest.raises(DeviceError, match="different devices"):
        s + Tensor(x)


@pytest.mark.parametrize("n", [2, 3])
@pytest.mark.parametrize("shape", [(7, 5), (), (2,)], ids=["7x5", "scalar", "2"])
def test_ring_allreduce_on_any_number_of_devices(n, shape):
    """The ring's arithmetic on n reference-backend devices (the algorithm is device-agnostic),
    down to tensors of fewer elements than devices (a loss: some chunks are empty)."""
    from tensor.multi import allreduce
    devs = ["CPU"] + [f"CPU:{i}" for i in range(1, n)]
    rng = np.random.default_rng(n)
    xs = [np.asarray(rng.standard_normal(shape), np.float32) for _ in devs]
    parts = [Tensor(x, device=d).node for x, d in zip(xs, devs)]
    outs = allreduce(parts, "add")
    for d, o in zip(devs, outs):
        assert o.device == d
        np.testing.assert_allclose(Tensor(o).numpy(), sum(xs), rtol=1e-5)
    for o in allreduce(parts, "max"):
        np.testing.assert_array_equal(Tensor(o).numpy(), np.maximum.reduce(xs))


def _mlp_step(params, x, y):
    for p in params:
        p.grad = None
    w1, w2 = params
    logits = (x @ w1).relu() @ w2
    loss = -(logits.log_softmax(-1) * y.one_hot(4)).sum(-1).mean()
    loss.backward()
    with tensor.no_grad():
        for p in params:
            p.assign(p - 0.5 * p.grad)
    return loss


def test_data_parallel_training_matches_one_device(monkeypatch):
    rng = np.random.default_rng(0)
    X = rng.standard_normal((64, 16)).astype(np.float32)
    Y = rng.integers(0, 4, 64)
    init = [(rng.standard_normal((16, 32)) * 0.3).astype(np.float32),
            (rng.standard_normal((32, 4)) * 0.3).astype(np.float32)]
    peer = {"n": 0}
    real = amd.AMDBackend.copy_from

    def counted(self, dst, src):
        ok = real(self, dst, src)
        peer["n"] += ok
        return ok
    monkeypatch.setattr(amd.AMDBackend, "copy_from", counted)
    single = [Tensor(w, device="CPU", requires_grad=True) for w in init]
    multi = [Tensor(w, requires_grad=True).shard(TWO) for w in init]
    one = tensor.jit(lambda x, y: _mlp_step(single, x, y))
    two = tensor.jit(lambda x, y: _mlp_step(multi, x, y))
    for _ in range(3):
        l1 = one(Tensor(X, device="CPU"), Tensor(Y, device="CPU")).item()
        l2 = two(Tensor(X).shard(TWO, axis=0), Tensor(Y).shard(TWO, axis=0)).item()
        assert abs(l1 - l2) < 1e-5 * max(1, abs(l1))
    for s, m in zip(single, multi):
        np.testing.assert_allclose(m.numpy(), s.numpy(), rtol=1e-4, atol=1e-5)
        for part in m.node.parts:                       # both replicas hold the same weights
            np.testing.assert_allclose(Tensor(part).numpy(), s.numpy(), rtol=1e-4, atol=1e-5)
    assert peer["n"] > 0                               # the gradients met over peer copies


def test_a_small_network_learns_on_the_gpu():
    """Two-layer perceptron, cross-entropy, SGD, jitted step: 4 Gaussian blobs in 8 dimensions."""
    rng = np.random.default_rng(1)
    centers = rng.standard_normal((4, 8)) * 3
    Y = rng.integers(0, 4, 256)
    X = (centers[Y] + rng.standard_normal((256, 8))).astype(np.float32)
    Tensor.manual_seed(0)
    w1 = (Tensor.randn(8, 32) * 0.3).realize().requires_grad_()
    w2 = (Tensor.randn(32, 4) * 0.3).realize().requires_grad_()
    assert w1.device == "AMD"
    step = tensor.jit(lambda x, y: _mlp_step([w1, w2], x, y))
    first = None
    for epoch in range(6):
        for b in range(0, 256, 64):
            loss = step(Tensor(X[b:b + 64]), Tensor(Y[b:b + 64])).item()
            first = loss if first is None else first
    pred = ((Tensor(X) @ w1).relu() @ w2).argmax(-1).numpy()
    assert loss < first / 4 and (pred == Y).mean() > 0.95


def test_the_mlp_example_trains_on_two_reference_devices_as_on_one(capsys):
    """``--devices 2`` is the same arithmetic on any backend: on two CPU devices the epoch's
    loss and accuracies equal one device's."""
    from tensor.examples import mlp
    lines = []
    for argv in (["--device", "CPU"], ["--device", "CPU", "--devices", "2"]):
        assert mlp.main(argv + ["--epochs", "2", "--train-limit", "256"]) == 0
        out = capsys.readouterr().out
        lines.append([line.split("%")[:2] + [line.split("loss")[1].split()[0]]
                      for line in out.splitlines() if line.startswith("epoch")])
        assert "device 2 x CPU" in out or "--devices" not in argv
    assert lines[0] == lines[1] and len(lines[0]) == 2


def test_random_numbers_on_several_devices_are_one_devices_numbers():
    """Dropout of a batch split over two devices: the same masks as on one device, and fresh
    ones at every jit replay (the state lives on the first device, the mask is copied)."""
    x = np.ones((8, 6), np.float32)
    masks = {}
    for devs in (("CPU",), ("CPU", "CPU:1")):
        Tensor.manual_seed(3)
        step = tensor.jit(lambda t: t.dropout(0.5, training=True) * 1)
        masks[devs] = [step(Tensor(x).shard(devs, axis=0) if len(devs) > 1 else Tensor(x, device="CPU"))
                       .numpy().copy() for _ in range(3)]
    one, two = masks.values()
    for a, b in zip(one, two):
        np.testing.assert_array_equal(a, b)
    assert (two[0] != two[1]).any() and (two[1] != two[2]).any()


def test_the_cnn_example_trains_on_two_reference_devices(capsys):
    """The CNN (BatchNorm statistics all-reduced over the split batch, dropout masks made once
    and copied) trains with ``--devices 2`` to one device's loss."""
    from tensor.examples import cnn
    losses = []
    for argv in (["--device", "CPU"], ["--device", "CPU", "--devices", "2"]):
        assert cnn.main(argv + ["--epochs", "1", "--train-limit", "64"]) == 0
        out = capsys.readouterr().out
        losses.append(float(next(ln for ln in out.splitlines() if ln.startswith("epoch")).split("loss")[1].split()[0]))
    assert abs(losses[0] - losses[1]) < 1e-3, losses


def test_the_examples_say_how_to_get_more_virtual_gpus(monkeypatch, capsys):
    from tensor.examples import common, mlp
    monkeypatch.setenv("GPU_EMULATE", "gfx1100")
    assert mlp.main(["--device", "AMD", "--devices", "4", "--epochs", "1"]) == 2
    err = capsys.readouterr().err
    assert re.search(r"--devices 4 needs 4 AMD devices: cannot open AMD:[123]: no AMD GPU", err), err
    assert "GPU_EMULATE=gfx1100xN makes a machine of N virtual GPUs" in err
    args = common.arguments("mlp", "", ["--emulate", "gfx1100", "--devices", "3"], **mlp.DEFAULTS)
    assert os.environ["GPU_EMULATE"] == "gfx1100x3" and args.device == "AMD"
    with pytest.raises(SystemExit):
        common.arguments("mlp", "", ["--emulate", "gfx9999"], **mlp.DEFAULTS)
    assert "--emulate: unknown emulation target 'gfx9999'" in capsys.readouterr().err


def test_the_mlp_example_trains_on_two_gpus_as_on_one(capsys):
    """``python -m tensor.examples.mlp --devices 2``: each batch split over the virtual pair,
    gradients all-reduced in one bucket; the same loss and accuracy as one GPU and as the
    reference, and each GPU's 20 kernels plus 3 (tests/test_multi_allreduce.py says which)."""
    from tensor.examples import mlp
    lines, kernels = {}, {}
    for argv in (["--device", "CPU"], ["--device", "AMD"], ["--device", "AMD", "--devices", "2"]):
        assert mlp.main(argv + ["--epochs", "1", "--train-limit", "64"]) == 0
        out = capsys.readouterr().out
        epoch = next(line for line in out.splitlines() if line.startswith("epoch"))
        lines[tuple(argv)] = epoch.split("%")[:2] + [epoch.split("loss")[1].split()[0]]
        kernels[len(argv)] = int(epoch.split()[-2])
    assert len({tuple(v) for v in lines.values()}) == 1, lines
    assert kernels == {2: mlp.STEP_KERNELS, 4: 2 * mlp.STEP_KERNELS + 6}, kernels


def test_a_free_on_another_thread_never_waits_for_the_gpu(monkeypatch):
    """The collector may finalize a tensor's buffer on the virtual GPU's command-processor thread
    in the middle of a dispatch: waiting for the GPU there would wait for itself. Such frees are
    kept for the backend's own thread, which releases them with its next batch."""
    import threading
    import types
    from tensor.backends.amd import AMDBackend
    backend = AMDBackend.__new__(AMDBackend)
    backend.dev, backend._dead, backend._thread = types.SimpleNamespace(closed=False), [], threading.get_ident()
    waits = []
    monkeypatch.setattr(backend, "synchronize", lambda: waits.append(threading.get_ident()))
    handle = types.SimpleNamespace(freed=False)
    other = threading.Thread(target=lambda: [backend.free(handle) for _ in range(300)])
    other.start()
    other.join()
    assert waits == [] and len(backend._dead) == 300
    backend.free(handle)
    assert waits == [threading.get_ident()]
