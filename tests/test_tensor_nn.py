"""tensor.nn: every layer forward and backward against numpy in float64 (gradients from the
`autograd` package, or central differences without it), PyTorch's initializations, the Module
API (parameters, buffers, state dicts, train/eval) and the errors layers give."""
import math

import numpy as np
import pytest

from tensor import DTypeError, ShapeError, Tensor, dtypes, jit, nn, optim
from tensor.nn import init

try:
    import autograd
    import autograd.numpy as anp
except ImportError:                      # pragma: no cover - depends on the environment
    autograd, anp = None, np

F64 = dtypes.float64


def reference_grads(fn, arrays, cot):
    """Gradients of sum(fn(m, *arrays) * cot) for each array (m: the numpy module to use)."""
    if autograd is not None:
        out = []
        for i in range(len(arrays)):
            def f(x, i=i):
                args = list(arrays)
                args[i] = x
                return anp.sum(fn(anp, *args) * cot)
            out.append(np.asarray(autograd.grad(f)(arrays[i])))
        return out
    out = []
    for i, a in enumerate(arrays):
        g = np.zeros_like(a)
        for j in np.ndindex(a.shape):
            hi, lo = [x.copy() for x in arrays], [x.copy() for x in arrays]
            hi[i][j] += 1e-6
            lo[i][j] -= 1e-6
            g[j] = (np.sum(fn(np, *hi) * cot) - np.sum(fn(np, *lo) * cot)) / 2e-6
        out.append(g)
    return out


def check_layer(layer, x, fn, params, rtol=1e-9, atol=1e-10, input_grad=True):
    """The layer's output and the gradients of its input and ``params`` (attribute names)
    against ``fn(m, x, *param_values)``."""
    rng = np.random.default_rng(1)
    xt = Tensor(x, dtype=F64, requires_grad=input_grad)
    out = layer(xt)
    pv = [getattr(layer, p).numpy() for p in params]
    want = fn(np, x, *pv)
    np.testing.assert_allclose(out.numpy(), want, rtol=rtol, atol=atol)
    cot = rng.standard_normal(want.shape)
    (out * Tensor(cot)).sum().backward()
    ref = reference_grads(fn, [x] + pv, cot)
    if input_grad:
        np.testing.assert_allclose(xt.grad.numpy(), ref[0], rtol=1e-7, atol=1e-9)
    for name, r in zip(params, ref[1:]):
        np.testing.assert_allclose(getattr(layer, name).grad.numpy(), r, rtol=1e-7, atol=1e-9, err_msg=name)


def rand(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


# ---- layers against numpy -------------------------------------------------------------------

def test_linear():
    layer = nn.Linear(5, 3, dtype=F64)
    check_layer(layer, rand(4, 5), lambda m, x, w, b: x @ w.T + b, ["weight", "bias"])
    check_layer(nn.Linear(5, 3, bias=False, dtype=F64), rand(2, 3, 5), lambda m, x, w: x @ w.T, ["weight"])


def _conv_ref(stride, padding, dilation, groups):
    def conv(m, x, w, b=None):
        N, C, H, W = x.shape
        O, Cg, KH, KW = w.shape
        xp = m.pad(x, ((0, 0), (0, 0), (padding, padding), (padding, padding)), mode="constant")
        OH = (H + 2 * padding - dilation * (KH - 1) - 1) // stride + 1
        OW = (W + 2 * padding - dilation * (KW - 1) - 1) // stride + 1
        outs = []
        for g in range(groups):
            xg = xp[:, g * Cg:(g + 1) * Cg]
            wg = w[g * (O // groups):(g + 1) * (O // groups)]
            acc = 0
            for i in range(KH):
                for j in range(KW):
                    patch = xg[:, :, i * dilation:i * dilation + stride * (OH - 1) + 1:stride,
                               j * dilation:j * dilation + stride * (OW - 1) + 1:stride]
                    acc = acc + m.einsum("nchw,oc->nohw", patch, wg[:, :, i, j])
            outs.append(acc)
        out = m.concatenate(outs, axis=1)
        return out if b is None else out + b.reshape(1, -1, 1, 1)
    return conv


@pytest.mark.parametrize("stride,padding,dilation,groups", [(1, 1, 1, 1), (2, 0, 1, 2), (1, 2, 2, 1)])
def test_conv2d(stride, padding, dilation, groups):
    layer = nn.Conv2d(4, 6, 3, stride=stride, padding=padding, dilation=dilation, groups=groups, dtype=F64)
    assert layer.weight.shape == (6, 4 // groups, 3, 3) and layer.bias.shape == (6,)
    check_layer(layer, rand(2, 4, 7, 6), _conv_ref(stride, padding, dilation, groups), ["weight", "bias"])


def _bn_ref(eps):
    def bn(m, x, w, b):
        axes = (0,) + tuple(range(2, x.ndim))
        shape = (1, -1) + (1,) * (x.ndim - 2)
        mean = m.mean(x, axis=axes, keepdims=True)
        var = m.mean((x - mean) ** 2, axis=axes, keepdims=True)
        return (x - mean) / m.sqrt(var + eps) * w.reshape(shape) + b.reshape(shape)
    return bn


def test_batchnorm2d_training_forward_backward_and_running_stats():
    layer = nn.BatchNorm2d(3, momentum=0.2, dtype=F64)
    with_params = nn.init.uniform_(layer.weight, 0.5, 1.5), nn.init.uniform_(layer.bias, -1, 1)
    assert all(p.requires_grad for p in with_params)
    xs = [rand(4, 3, 5, 2, seed=s) * (s + 1) + s for s in range(3)]
    check_layer(layer, xs[0], _bn_ref(1e-5), ["weight", "bias"], rtol=1e-8)
    for x in xs[1:]:
        layer(Tensor(x, dtype=F64)).realize()
    # running statistics: moved by momentum towards the batch mean and unbiased variance
    rm, rv = np.zeros(3), np.ones(3)
    for x in xs:
        rm = 0.8 * rm + 0.2 * x.mean((0, 2, 3))
        rv = 0.8 * rv + 0.2 * x.var((0, 2, 3), ddof=1)
    np.testing.assert_allclose(layer.running_mean.numpy(), rm, rtol=1e-10)
    np.testing.assert_allclose(layer.running_var.numpy(), rv, rtol=1e-10)
    assert layer.num_batches_tracked.item() == 3
    # eval: the running statistics normalize
    layer.eval()
    x = rand(2, 3, 4, 4, seed=9)
    w, b = layer.weight.numpy(), layer.bias.numpy()
    want = (x - rm.reshape(1, 3, 1, 1)) / np.sqrt(rv.reshape(1, 3, 1, 1) + 1e-5) * w.reshape(1, 3, 1, 1) \
        + b.reshape(1, 3, 1, 1)
    np.testing.assert_allclose(layer(Tensor(x, dtype=F64)).numpy(), want, rtol=1e-10)
    assert layer.num_batches_tracked.item() == 3                     # eval leaves the stats alone


def test_batchnorm_running_stats_move_at_every_replay_of_a_jitted_step():
    conv, bn = nn.Conv2d(1, 2, 1, dtype=F64), nn.BatchNorm2d(2, dtype=F64)
    model = nn.Sequential(conv, bn)
    opt = optim.SGD(model.parameters(), lr=0.0)           # the weights stay put: easy to follow

    @jit
    def step(x):
        opt.zero_grad()
        loss = (model(x) ** 2).sum()
        loss.backward()
        opt.step()
        return loss
    w, b = conv.weight.numpy().reshape(2), conv.bias.numpy()
    rm, rv = np.zeros(2), np.ones(2)
    for s in range(4):
        x = rand(3, 1, 2, 2, seed=s) + s
        step(Tensor(x, dtype=F64))
        y = x * w.reshape(1, 2, 1, 1) + b.reshape(1, 2, 1, 1)
        rm = 0.9 * rm + 0.1 * y.mean((0, 2, 3))
        rv = 0.9 * rv + 0.1 * y.var((0, 2, 3), ddof=1)
    assert len(step.captured) == 1 and bn.num_batches_tracked.item() == 4
    np.testing.assert_allclose(bn.running_mean.numpy(), rm, rtol=1e-10)
    np.testing.assert_allclose(bn.running_var.numpy(), rv, rtol=1e-10)


def test_batchnorm_cumulative_average_and_1d():
    layer = nn.BatchNorm1d(4, momentum=None, affine=False, dtype=F64)
    assert layer.parameters() == [] and len(layer.buffers()) == 3
    xs = [rand(6, 4, seed=s) + s for s in range(3)]
    for x in xs:
        out = layer(Tensor(x, dtype=F64))
        np.testing.assert_allclose(out.numpy(), (x - x.mean(0)) / np.sqrt(x.var(0) + 1e-5), rtol=1e-9)
    np.testing.assert_allclose(layer.running_mean.numpy(), np.mean([x.mean(0) for x in xs], 0), rtol=1e-10)
    np.testing.assert_allclose(layer.running_var.numpy(), np.mean([x.var(0, ddof=1) for x in xs], 0), rtol=1e-10)
    check_layer(nn.BatchNorm1d(3, dtype=F64), rand(5, 3, 4), _bn_ref(1e-5), ["weight", "bias"], rtol=1e-8)


def test_batchnorm_without_running_stats_normalizes_by_the_batch_in_eval_too():
    layer = nn.BatchNorm2d(2, track_running_stats=False, dtype=F64).eval()
    assert layer.buffers() == []
    x = rand(3, 2, 2, 2)
    np.testing.assert_allclose(layer(Tensor(x)).numpy(), _bn_ref(1e-5)(np, x, np.ones(2), np.zeros(2)), rtol=1e-9)


def test_layernorm():
    layer = nn.LayerNorm((3, 4), eps=1e-6, dtype=F64)
    init.normal_(layer.weight)
    init.normal_(layer.bias)

    def ln(m, x, w, b):
        mean = m.mean(x, axis=(-2, -1), keepdims=True)
        var = m.mean((x - mean) ** 2, axis=(-2, -1), keepdims=True)
        return (x - mean) / m.sqrt(var + 1e-6) * w + b
    check_layer(layer, rand(2, 5, 3, 4), ln, ["weight", "bias"], rtol=1e-8)
    plain = nn.LayerNorm(4, elementwise_affine=False, dtype=F64)
    assert plain.parameters() == []
    x = rand(3, 4)
    np.testing.assert_allclose(plain(Tensor(x)).numpy(), (x - x.mean(-1, keepdims=True)) /
                               np.sqrt(x.var(-1, keepdims=True) + 1e-5), rtol=1e-9)


def test_embedding_forward_backward_and_padding_idx():
    emb = nn.Embedding(6, 3, dtype=F64)
    idx = np.array([[1, 4, 1], [0, 5, 1]])
    w = emb.weight.numpy()
    out = emb(Tensor(idx))
    np.testing.assert_array_equal(out.numpy(), w[idx])
    cot = rand(2, 3, 3)
    (out * Tensor(cot)).sum().backward()
    want = np.zeros_like(w)
    np.add.at(want, idx, cot)                                       # repeated rows accumulate
    np.testing.assert_allclose(emb.weight.grad.numpy(), want, rtol=1e-12)

    pad = nn.Embedding(5, 2, padding_idx=-1, dtype=F64)
    assert pad.padding_idx == 4 and np.all(pad.weight.numpy()[4] == 0)
    idx = np.array([4, 0, 4, 2])
    pad(Tensor(idx)).sum().backward()
    g = pad.weight.grad.numpy()
    np.testing.assert_array_equal(g, np.array([[1, 1], [0, 0], [1, 1], [0, 0], [0, 0]], np.float64))


def test_dropout_module_follows_train_and_eval():
    drop = nn.Dropout(0.25)
    x = Tensor.ones(4000)
    y = drop(x).numpy()                               # modules start in training mode
    assert set(np.unique(y).tolist()) <= {0.0, float(np.float32(1 / 0.75))}
    assert 0.2 < (y == 0).mean() < 0.3
    drop.eval()
    assert drop(x) is x
    assert nn.Dropout(0.0)(x) is x
    with pytest.raises(ValueError, match=r"Dropout: probability must be in \[0, 1\], got 1.5"):
        nn.Dropout(1.5)


def test_pooling_activation_and_flatten_modules():
    x = rand(2, 3, 4, 4)
    t = Tensor(x)
    np.testing.assert_allclose(nn.MaxPool2d(2)(t).numpy(), x.reshape(2, 3, 2, 2, 2, 2).max((3, 5)))
    np.testing.assert_allclose(nn.AvgPool2d(2)(t).numpy(), x.reshape(2, 3, 2, 2, 2, 2).mean((3, 5)), rtol=1e-12)
    assert nn.Flatten()(t).shape == (2, 48) and nn.Flatten(0, 1)(t).shape == (6, 4, 4)
    np.testing.assert_allclose(nn.ReLU()(t).numpy(), np.maximum(x, 0))
    np.testing.assert_allclose(nn.Tanh()(t).numpy(), np.tanh(x), rtol=1e-12)
    np.testing.assert_allclose(nn.Sigmoid()(t).numpy(), 1 / (1 + np.exp(-x)), rtol=1e-12)
    np.testing.assert_allclose(nn.SiLU()(t).numpy(), x / (1 + np.exp(-x)), rtol=1e-12)
    np.testing.assert_allclose(nn.LeakyReLU(0.2)(t).numpy(), np.where(x > 0, x, 0.2 * x))
    sm = nn.Softmax(1)(t).numpy()
    np.testing.assert_allclose(sm, np.exp(x) / np.exp(x).sum(1, keepdims=True), rtol=1e-12)
    np.testing.assert_allclose(nn.LogSoftmax(1)(t).numpy(), np.log(sm), rtol=1e-10)
    assert nn.Identity()(t) is t


# ---- initializations ------------------------------------------------------------------------

def test_pytorch_default_initializations():
    Tensor.manual_seed(3)
    lin = nn.Linear(400, 50)
    w, b = lin.weight.numpy(), lin.bias.numpy()
    bound = 1 / math.sqrt(400)                # kaiming_uniform(a=sqrt(5)) = U(+-1/sqrt(fan_in))
    assert np.abs(w).max() <= bound and np.abs(w).max() > 0.98 * bound
    assert abs(w.std() - bound / math.sqrt(3)) < 0.02 * bound and abs(w.mean()) < 0.02 * bound
    assert np.abs(b).max() <= bound and len(np.unique(b)) == 50
    conv = nn.Conv2d(8, 16, (3, 5), groups=2)
    fan_in = 8 // 2 * 3 * 5
    assert np.abs(conv.weight.numpy()).max() <= 1 / math.sqrt(fan_in)
    assert np.abs(conv.weight.numpy()).max() > 0.95 / math.sqrt(fan_in)
    assert np.abs(conv.bias.numpy()).max() <= 1 / math.sqrt(fan_in)
    bn, ln = nn.BatchNorm2d(4), nn.LayerNorm(4)
    for layer in (bn, ln):
        assert layer.weight.tolist() == [1.0] * 4 and layer.bias.tolist() == [0.0] * 4
    assert bn.running_mean.tolist() == [0.0] * 4 and bn.running_var.tolist() == [1.0] * 4
    emb = nn.Embedding(1000, 20).weight.numpy()
    assert abs(emb.mean()) < 0.03 and abs(emb.std() - 1) < 0.03
    # the same seed gives the same model
    Tensor.manual_seed(3)
    np.testing.assert_array_equal(nn.Linear(400, 50).weight.numpy(), w)


def test_init_functions_follow_pytorch_formulas():
    assert init.fans((16, 8, 3, 3)) == (72, 144)
    assert init.calculate_gain("relu") == math.sqrt(2) and init.calculate_gain("tanh") == 5 / 3
    assert init.calculate_gain("leaky_relu", math.sqrt(5)) == math.sqrt(2 / 6)
    Tensor.manual_seed(0)
    t = init.kaiming_normal((300, 200), nonlinearity="relu").numpy()
    assert abs(t.std() - math.sqrt(2 / 200)) < 0.01 * math.sqrt(2 / 200) * 3
    t = init.xavier_uniform((300, 200)).numpy()
    assert np.abs(t).max() <= math.sqrt(6 / 500) and np.abs(t).max() > 0.99 * math.sqrt(6 / 500)
    t = init.kaiming_uniform((300, 200), mode="fan_out", nonlinearity="relu").numpy()
    assert np.abs(t).max() <= math.sqrt(2) * math.sqrt(3 / 300)
    p = Tensor.zeros(3, 4, requires_grad=True).realize()
    buf = p.node.buffer
    init.constant_(p, 2.5)
    assert p.tolist() == [[2.5] * 4] * 3 and p.node.buffer is buf and p.requires_grad
    with pytest.raises(ValueError, match="unknown nonlinearity 'swish'"):
        init.calculate_gain("swish")
    with pytest.raises(ValueError, match=r"at least 2 dimensions, got shape \(5,\)"):
        init.fans((5,))


# ---- the Module API -------------------------------------------------------------------------

class Block(nn.Module):
    def __init__(self):
        self.conv = nn.Conv2d(1, 2, 3)
        self.norm = nn.BatchNorm2d(2)
        self.heads = [nn.Linear(8, 3), nn.Linear(8, 2)]
        self.scale = Tensor.ones(1)                      # plain data: not state
        self.frozen = Tensor.zeros(2, requires_grad=True)
        self.frozen.requires_grad_(False)                # still a parameter, as in PyTorch

    def forward(self, x):
        h = self.norm(self.conv(x)).relu().flatten(1)
        return [head(h) for head in self.heads]


def test_module_finds_parameters_buffers_and_submodules_by_name():
    m = nn.Sequential(Block(), nn.Dropout(0.1))
    names = [n for n, _ in m.named_parameters()]
    assert names == ["0.frozen", "0.conv.weight", "0.conv.bias", "0.norm.weight", "0.norm.bias",
                     "0.heads.0.weight", "0.heads.0.bias", "0.heads.1.weight", "0.heads.1.bias"]
    assert [n for n, _ in m.named_buffers()] == ["0.norm.running_mean", "0.norm.running_var",
                                                 "0.norm.num_batches_tracked"]
    sd = m.state_dict()
    assert list(sd) == names[:1] + names[1:5] + [n for n, _ in m.named_buffers()] + names[5:]
    assert m.num_parameters() == 2 + 18 + 2 + 2 + 2 + 24 + 3 + 16 + 2
    assert [type(c).__name__ for c in m.modules()] == ["Sequential", "Block", "Conv2d", "BatchNorm2d",
                                                      "Linear", "Linear", "Dropout"]
    m.eval()
    assert not any(c.training for c in m.modules())
    m.train()
    assert all(c.training for c in m.modules())
    out = m[0](Tensor.ones(2, 1, 4, 4))
    assert [o.shape for o in out] == [(2, 3), (2, 2)]
    text = repr(m)
    assert "(0): Block(" in text and "(conv): Conv2d(1, 2, kernel_size=(3, 3)" in text and "(1): Dropout(p=0.1)" in text


def test_sequential_takes_callables_and_slices():
    seq = nn.Sequential(nn.Linear(4, 4), Tensor.relu, nn.Linear(4, 2))
    assert [n for n, _ in seq.named_parameters()] == ["0.weight", "0.bias", "2.weight", "2.bias"]
    assert len(seq) == 3 and seq[1] is Tensor.relu and isinstance(seq[1:], nn.Sequential)
    x = rand(3, 4)
    w0, b0, w2, b2 = [p.numpy() for p in seq.parameters()]
    np.testing.assert_allclose(seq(Tensor(x, dtype=dtypes.float32)).numpy(),
                               np.maximum(x @ w0.T + b0, 0) @ w2.T + b2, rtol=1e-5, atol=1e-6)
    with pytest.raises(TypeError, match="is not a module or a callable"):
        nn.Sequential(nn.Linear(2, 2), 3)
    ml = nn.ModuleList([nn.Linear(2, 2), nn.Linear(2, 1)])
    holder = nn.Sequential(ml)
    assert [n for n, _ in holder.named_parameters()][-1] == "0.1.bias" and len(ml) == 2


def test_shared_parameters_are_listed_once_and_to_dtype():
    lin = nn.Linear(3, 3)
    m = nn.Sequential(lin, nn.ReLU(), lin)
    assert len(m.parameters()) == 2
    m.to(dtype=dtypes.float64)
    assert lin.weight.dtype is F64 and lin.weight.requires_grad and lin.weight.node.realized
    assert m(Tensor.ones(1, 3, dtype=F64)).dtype is F64
    bn = nn.BatchNorm2d(2).to(dtype="float16")
    assert bn.running_mean.dtype is dtypes.float16 and bn.num_batches_tracked.dtype is dtypes.int64


def test_module_to_another_device():
    m = nn.Sequential(nn.Linear(3, 2), nn.BatchNorm1d(2))
    before = {k: v.numpy() for k, v in m.state_dict().items()}
    m.to("CPU:1")
    assert {t.device for t in m.state_dict().values()} == {"CPU:1"}
    assert all(p.requires_grad for p in m.parameters())
    for k, v in m.state_dict().items():
        np.testing.assert_array_equal(v.numpy(), before[k])
    out = m(Tensor.ones(4, 3, device="CPU:1"))
    out.sum().backward()
    assert out.device == "CPU:1" and m[0].weight.grad.device == "CPU:1"


@pytest.mark.parametrize("fn,error,message", [
    (lambda: nn.Linear(4, 2)(Tensor.ones(3, 5)), ShapeError, r"Linear\(4, 2\): input of shape \(3, 5\) does not end in 4"),
    (lambda: nn.Conv2d(3, 4, 3)(Tensor.ones(1, 2, 5, 5)), ShapeError, r"Conv2d\(3, 4\): needs input of shape \(N, 3, H, W\), got \(1, 2, 5, 5\)"),
    (lambda: nn.Conv2d(3, 4, 3, groups=2), ValueError, r"in_channels \(3\) and out_channels \(4\) must both be divisible by groups \(2\)"),
    (lambda: nn.Conv2d(3, 4, 3, padding_mode="reflect"), ValueError, "only padding_mode='zeros'"),
    (lambda: nn.BatchNorm2d(3)(Tensor.ones(2, 3, 4)), ShapeError, r"BatchNorm2d\(3\): needs a 4-D input with 3 channels in dimension 1, got shape \(2, 3, 4\)"),
    (lambda: nn.BatchNorm1d(3)(Tensor.ones(1, 3)), ShapeError, "expected more than 1 value per channel when training"),
    (lambda: nn.LayerNorm(4)(Tensor.ones(2, 5)), ShapeError, r"LayerNorm\(\(4,\)\): input shape \(2, 5\) does not end in \(4,\)"),
    (lambda: nn.Embedding(4, 2)(Tensor([0.5])), DTypeError, "Embedding: indices must be integers, got float32"),
    (lambda: nn.Embedding(4, 2)(Tensor([4])), IndexError, "index 4 is out of bounds for dimension 0 with size 4"),
    (lambda: nn.Embedding(4, 2, padding_idx=4), ValueError, "padding_idx 4 is out of range for 4 embeddings"),
    (lambda: nn.Module()(Tensor.ones(1)), TypeError, "Module has no forward"),
    (lambda: nn.Module().register_buffer("x", 3), TypeError, "'x' must be a Tensor or None"),
])
def test_layer_errors_name_the_problem(fn, error, message):
    with pytest.raises(error, match=message):
        fn()
