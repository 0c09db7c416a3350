"""The scheduler's promises, counted in kernels: fusion, free views, folded constants, dead
work dropped, buffers reused, outputs written once."""
import numpy as np

from tensor import Tensor, dtypes, no_grad
from tensor.ops import G
from tensor.schedule import create_schedule


def schedule(*tensors):
    nodes = []
    for t in tensors:
        base = t.node.view()[0]
        nodes.append(base if base.op not in (G.CONST, G.IOTA) else t.node)
    return [i for i in create_schedule(nodes) if i.kind == "kernel"]


def realized(*shapes, seed=0):
    rng = np.random.default_rng(seed)
    return [Tensor(rng.standard_normal(s).astype(np.float32)).realize() for s in shapes]


def test_elementwise_chain_reduce_is_one_kernel():
    a, b, c = realized((4, 6), (4, 6), (4, 6))
    out = ((a + b) * c).exp().sum(axis=1)
    assert len(schedule(out)) == 1
    np.testing.assert_allclose(out.numpy(), np.exp((a.numpy() + b.numpy()) * c.numpy()).sum(1), rtol=1e-5)


def test_linear_forward_is_one_kernel():
    x, W, b = realized((8, 16), (10, 16), (10,))
    out = x @ W.T + b
    items = schedule(out)
    assert len(items) == 1
    assert items[0].ast.op == "STORE"
    np.testing.assert_allclose(out.numpy(), x.numpy() @ W.numpy().T + b.numpy(), rtol=1e-5, atol=1e-5)


def test_softmax_is_at_most_three_kernels():
    (x,) = realized((5, 7))
    assert len(schedule(x.softmax(-1))) <= 3
    assert len(schedule(x.log_softmax(-1))) <= 3


def test_matmul_and_conv_are_one_kernel_each_without_im2col():
    a, b = realized((3, 5, 4), (4, 6))
    assert len(schedule(a @ b)) == 1
    x, w, bias = realized((2, 3, 8, 8), (4, 3, 3, 3), (4,))
    items = schedule(x.conv2d(w, bias, stride=2, padding=1))
    assert len(items) == 1
    # the inputs are read in place: every buffer of the kernel is an input or the output
    sizes = sorted(b.size for b in items[0].bufs)
    assert sizes == sorted([4, 4 * 3 * 3 * 3, 2 * 3 * 8 * 8, 2 * 4 * 4 * 4])


def test_views_cost_nothing():
    (x,) = realized((4, 6))
    v = x.T.reshape(3, 8).flip(0)[1:, ::2].pad((1, 1)).permute(1, 0)
    assert len(schedule(v * 2)) == 1
    np.testing.assert_array_equal((v * 2).numpy(),
                                  np.pad(x.numpy().T.reshape(3, 8)[::-1][1:, ::2], ((0, 0), (1, 1))).T * 2)
    assert schedule(x.T) == [] and schedule(x.reshape(24)) == []   # a view of a buffer


def test_constants_fold_and_broadcast_constants_cost_no_buffer():
    t = Tensor.full((3, 4), 2.0) * 3 + 1
    assert t.node.const_value() == 7.0
    (x,) = realized((3, 4))
    items = schedule(x * Tensor.ones(3, 4) + Tensor.zeros(3, 4) * 5)
    assert len(items) == 1 and len(items[0].bufs) == 2              # output + x only


def test_unused_work_is_dropped():
    a, b = realized((4, 4), (4, 4))
    unused = (a @ b).exp()                                          # never asked for
    wanted = a + b
    assert len(schedule(wanted)) == 1
    del unused


def test_reduction_feeding_a_broadcast_is_its_own_kernel():
    (x,) = realized((4, 5))
    y = x - x.mean(1, keepdim=True)
    assert len(schedule(y)) == 2
    np.testing.assert_allclose(y.numpy(), x.numpy() - x.numpy().mean(1, keepdims=True), rtol=1e-5, atol=1e-6)


def test_buffers_are_reused_within_a_realize():
    (x,) = realized((64, 64))
    h = x
    for _ in range(4):
        h = (h @ x).relu()                         # each matmul output read once, then free
    items = schedule(h)
    assert len(items) == 4
    outs = {id(i.bufs[0]) for i in items}
    assert len(outs) < 4
    # and the result is still right
    ref = x.numpy()
    hn = ref
    for _ in range(4):
        hn = np.maximum(hn @ ref, 0)
    np.testing.assert_allclose(h.numpy(), hn, rtol=1e-4)


def test_each_kernel_writes_its_output_once():
    from tensor.lower import lower
    from tensor.backends.cpu import Program
    from tensor.loopir import Op
    a, b = realized((6, 7), (7, 5))
    for item in schedule(a @ b, (a.T @ a).sum(0), a.amax(1)):
        k = lower(item.ast, item.bufs)
        stores = [i for i in k.instrs if i.op is Op.STORE]
        assert len(stores) == 1
        Program(k)                                 # the reference backend checks uniqueness


def test_training_step_kernel_count_is_stable():
    rng = np.random.default_rng(0)
    W1 = Tensor(rng.standard_normal((16, 8)).astype(np.float32), requires_grad=True).realize()
    W2 = Tensor(rng.standard_normal((4, 16)).astype(np.float32), requires_grad=True).realize()
    x = Tensor(rng.standard_normal((5, 8)).astype(np.float32)).realize()
    y = Tensor(np.eye(4, dtype=np.float32)[[0, 1, 2, 3, 0]]).realize()
    loss = -((x @ W1.T).relu() @ W2.T).log_softmax(-1).mul(y).sum(-1).mean()
    loss.backward()
    with no_grad():
        news = [W1 - 0.1 * W1.grad, W2 - 0.1 * W2.grad]
    n = len(schedule(loss, *news))
    assert n <= 10, n


def test_debug_2_prints_one_line_per_kernel(capsys, monkeypatch):
    monkeypatch.setenv("DEBUG", "2")
    a, b = realized((3, 4), (4, 5))
    ((a @ b).relu() + 1).realize()
    lines = [line for line in capsys.readouterr().out.splitlines() if "bytes" in line]
    assert len(lines) == 1
    assert "r_3_5_4" in lines[0] and "(3, 5)" in lines[0] and "ops" in lines[0] and " us" in lines[0]


def test_debug_4_prints_the_graph_and_kernel_tree(capsys, monkeypatch):
    monkeypatch.setenv("DEBUG", "4")
    (a,) = realized((3, 4))
    (a.exp() + 1).sum().realize()
    out = capsys.readouterr().out
    assert "lazy graph:" in out and "EXP2" in out and "REDUCE" in out
    assert "kernel tree of" in out and "STORE" in out
    assert "RANGE" in out                          # DEBUG=3 and up: the loop-level IR


def test_int_and_bool_kernels():
    t = Tensor(np.arange(10, dtype=np.int32))
    out = ((t * 3) % 4 == 1).cast(dtypes.int32).sum()
    assert out.item() == int((((np.arange(10) * 3) % 4) == 1).sum())


def test_long_chains_are_split_into_bounded_kernels():
    x = Tensor([1.0, 2.0])
    y = np.array([1.0, 2.0], np.float32)
    for _ in range(1500):
        x = x * 1.0001 + 0.001
        y = y * np.float32(1.0001) + np.float32(0.001)
    n = len(schedule(x))
    assert 2 <= n <= 1500 * 2 // 100
    np.testing.assert_allclose(x.numpy(), y, rtol=1e-6)
