"""Index arithmetic, views, the loop-level IR and its verifier, lowering optimizations, and the
reference backend's strictness."""
import itertools
import re

import numpy as np
import pytest

import tensor.loopir as loopir
from tensor import Tensor, dtypes, engine
from tensor import symbolic as sym
from tensor.backends.cpu import Program
from tensor.device import get
from tensor.loopir import Instr, IRError, Kernel, Op, Param, verify
from tensor.lower import lower
from tensor.opt import Opt, OptError
from tensor.schedule import create_schedule
from tensor.view import ShapeTracker


# ---- symbolic ------------------------------------------------------------------------------------

def test_symbolic_rules():
    x, y = sym.var("x", 0, 9), sym.var("y", 0, 3)
    assert sym.floordiv(x * 4 + y, 4) == x                       # (x*4+y)//4 -> x when y < 4
    assert sym.mod(x * 4 + y, 4) == y
    assert sym.floordiv(sym.floordiv(x, 2), 5) == sym.floordiv(x, 10)
    assert sym.mod(y, 4) == y and sym.floordiv(y, 4) == sym.const(0)
    assert sym.add(sym.add(x, 3), sym.mul(x, -1)) == sym.const(3)      # terms combine, constants fold
    assert sym.mod(sym.mod(x, 8), 4) == sym.mod(x, 4)
    assert sym.lt(x, 10) is True and sym.lt(x, 0) is False
    assert sym.lt(x * 4 + y, 8) == sym.lt(x, 2)                  # a bound moved through the division
    # mask merging: the tighter bound wins, contradictions are False, true conditions vanish
    assert sym.and_(sym.lt(x, 5), sym.lt(x, 3), True) == sym.lt(x, 3)
    assert sym.and_(sym.lt(x, 3), sym.ge(x, 3)) is False


def test_symbolic_matches_python_arithmetic_everywhere():
    rng = np.random.default_rng(0)
    x, y, z = sym.var("x", 0, 6), sym.var("y", 0, 4), sym.var("z", 0, 3)
    for _ in range(300):
        a, b, c, k = (int(v) for v in rng.integers(-5, 9, 4))
        d = int(rng.integers(1, 9))
        e = sym.add(sym.add(sym.mul(x, a), sym.mul(y, b)), sym.add(sym.mul(z, c), k))
        exprs = [sym.floordiv(e, d), sym.mod(e, d), sym.floordiv(sym.mod(e, d * 3), d),
                 sym.lt(e, d), sym.and_(sym.lt(e, d), sym.ge(e, -d))]
        for xv, yv, zv in itertools.product(range(7), range(5), range(4)):
            env = {"x": xv, "y": yv, "z": zv}
            v = a * xv + b * yv + c * zv + k
            want = [v // d, v % d, (v % (d * 3)) // d, v < d, -d <= v < d]
            got = [sym.evaluate(ex, env) for ex in exprs]
            assert got == want, (a, b, c, k, d, env)


# ---- views -----------------------------------------------------------------------------------------

def _apply(arr, st_ops):
    st = ShapeTracker.contiguous(arr.shape)
    ref = arr
    for op, arg in st_ops:
        if op == "reshape":
            st, ref = st.reshape(arg), ref.reshape(arg)
        elif op == "permute":
            st, ref = st.permute(arg), ref.transpose(arg)
        elif op == "expand":
            st, ref = st.expand(arg), np.broadcast_to(ref, arg)
        elif op == "pad":
            st, ref = st.pad(arg), np.pad(ref, arg)
        elif op == "shrink":
            st, ref = st.shrink(arg), ref[tuple(slice(lo, hi) for lo, hi in arg)]
        elif op == "flip":
            st, ref = st.flip(arg), np.flip(ref, arg)
    return st, ref


def _read(st, flat):
    out = np.zeros(st.shape, dtype=flat.dtype)
    names = [f"i{k}" for k in range(len(st.shape))]
    idx = [sym.var(n, 0, max(s - 1, 0)) for n, s in zip(names, st.shape)]
    pos, valid = st.expr(idx)
    for point in np.ndindex(*st.shape):
        env = dict(zip(names, point))
        if sym.evaluate(valid, env):
            out[point] = flat[sym.evaluate(pos, env)]
    return out


@pytest.mark.parametrize("ops", [
    [("permute", (1, 0)), ("reshape", (12,))],
    [("pad", ((1, 2), (0, 1))), ("reshape", (5, 6)), ("flip", (0,)), ("shrink", ((1, 4), (0, 3)))],
    [("reshape", (3, 1, 4)), ("expand", (3, 2, 4)), ("permute", (2, 0, 1)), ("reshape", (4, 6))],
    [("flip", (1,)), ("shrink", ((0, 3), (1, 3))), ("pad", ((0, 0), (2, 0))), ("reshape", (12,)),
     ("reshape", (2, 6)), ("permute", (1, 0))],
    [("reshape", (2, 2, 3)), ("permute", (2, 1, 0)), ("reshape", (3, 4)), ("permute", (1, 0)),
     ("reshape", (2, 6))],
])
def test_views_compose_without_copies(ops):
    arr = np.arange(12).reshape(3, 4)
    st, ref = _apply(arr, ops)
    assert st.shape == ref.shape
    np.testing.assert_array_equal(_read(st, arr.reshape(-1)), ref)


def test_reshape_keeps_one_view_when_strides_can_express_it():
    st = ShapeTracker.contiguous((4, 6)).permute((1, 0)).reshape((2, 3, 4))
    assert len(st.views) == 1
    st = ShapeTracker.contiguous((4, 6)).permute((1, 0)).reshape((24,))
    assert len(st.views) == 2


# ---- the IR and its verifier --------------------------------------------------------------------------

def _kernel(instrs, params=(Param("out", dtypes.float32, 4, True),), gs=(4,), ls=()):
    return Kernel("k", tuple(params), tuple(instrs), gs, ls)


F, I, B, V = dtypes.float32, dtypes.int32, dtypes.bool, dtypes.void


def test_docstring_worked_example_is_what_lowering_produces():
    text = loopir.__doc__
    block = text.split("lowered with no optimizations")[1].split("::\n\n", 1)[1].split("\n\n")[0]
    expected = "\n".join(line[4:] for line in block.splitlines())
    a = Tensor(np.zeros((4, 8), np.float32)).realize()
    b = Tensor(np.zeros((4, 8), np.float32)).realize()
    (item,) = create_schedule([(a + b).sum(axis=1).node.view()[0]])
    assert lower(item.ast, item.bufs).listing() == expected


@pytest.mark.parametrize("instrs,message", [
    ([Instr(Op.PARAM, F, (), 0), Instr(Op.RANGE, I, (), ("global", 0, 4)),
      Instr(Op.STORE, V, (0, 1, 5))], "not an earlier instruction"),
    ([Instr(Op.PARAM, F, (), 0), Instr(Op.RANGE, I, (), ("global", 0, 4)),
      Instr(Op.CONST, F, (), 1.0), Instr(Op.ADD, F, (1, 2))], "operand dtypes differ"),
    ([Instr(Op.PARAM, F, (), 0), Instr(Op.RANGE, I, (), ("global", 0, 4)),
      Instr(Op.RANGE, I, (), ("reduce", 0, 3)), Instr(Op.CONST, F, (), 1.0),
      Instr(Op.ADD, F, (3, 3)), Instr(Op.END, V, (2,)), Instr(Op.STORE, V, (0, 1, 4))],
     "loop that has ended"),
    ([Instr(Op.PARAM, F, (), 0), Instr(Op.RANGE, I, (), ("global", 0, 4)),
      Instr(Op.DEFINE_ACC, F, (), 0.0), Instr(Op.RANGE, I, (), ("reduce", 0, 3)),
      Instr(Op.CONST, F, (), 1.0), Instr(Op.ACCUMULATE, V, (2, 4), "add"),
      Instr(Op.STORE, V, (0, 1, 2)), Instr(Op.END, V, (3,))], "inside a loop that updates it"),
    ([Instr(Op.PARAM, F, (), 0), Instr(Op.RANGE, I, (), ("global", 0, 4)),
      Instr(Op.DEFINE_LOCAL, F, (), ("s", 4)), Instr(Op.CONST, F, (), 1.0),
      Instr(Op.STORE, V, (2, 1, 3)), Instr(Op.LOAD, F, (2, 1)), Instr(Op.STORE, V, (0, 1, 5))],
     "without a BARRIER"),
    ([Instr(Op.PARAM, F, (), 0), Instr(Op.RANGE, I, (), ("global", 0, 5)),
      Instr(Op.CONST, F, (), 1.0), Instr(Op.STORE, V, (0, 1, 2))], "does not match"),
    ([Instr(Op.PARAM, F, (), 0), Instr(Op.RANGE, I, (), ("global", 0, 4)),
      Instr(Op.CONST, I, (), 1), Instr(Op.EXP2, I, (2,)), Instr(Op.STORE, V, (0, 1, 3))],
     "needs a float"),
])
def test_verifier_names_the_broken_rule(instrs, message):
    with pytest.raises(IRError, match=message):
        verify(_kernel(instrs))


def test_reference_backend_rejects_out_of_bounds_and_double_writes():
    k = _kernel([Instr(Op.PARAM, F, (), 0), Instr(Op.RANGE, I, (), ("global", 0, 4)),
                 Instr(Op.CONST, I, (), 2), Instr(Op.ADD, I, (1, 2)), Instr(Op.CONST, F, (), 1.0),
                 Instr(Op.STORE, V, (0, 3, 4))])
    with pytest.raises(IRError, match="out of bounds"):
        Program(k)
    k = _kernel([Instr(Op.PARAM, F, (), 0), Instr(Op.RANGE, I, (), ("global", 0, 4)),
                 Instr(Op.CONST, I, (), 2), Instr(Op.IDIV, I, (1, 2)), Instr(Op.CONST, F, (), 1.0),
                 Instr(Op.STORE, V, (0, 3, 4))])
    with pytest.raises(IRError, match="written by more than one work-item"):
        Program(k)


# ---- optimizations ----------------------------------------------------------------------------------

def _run(item, opts, max_global_dims=None):
    dev = get(item.bufs[0].device)
    k = lower(item.ast, item.bufs, opts, max_global_dims)
    dev.launch(dev.compile(k), [b.handle() for b in item.bufs])
    return item.bufs[0].numpy(), k


OPTS = [[], [Opt("upcast", 1, 4)], [Opt("unroll", 2, 4)], [Opt("local", 0, 4), Opt("local", 2, 4)],
        [Opt("group", 2, 8)], [Opt("local", 0, 4), Opt("local", 2, 4), Opt("shared", 4, 8)],
        [Opt("local", 0, 2), Opt("upcast", 2, 2), Opt("local", 2, 3), Opt("unroll", 5, 2),
         Opt("shared", 5, 4)]]


@pytest.mark.parametrize("opts", OPTS, ids=lambda o: "+".join(f"{x.op}{x.axis}x{x.amount}" for x in o) or "none")
def test_optimizations_keep_the_result(opts):
    rng = np.random.default_rng(0)
    A = rng.standard_normal((8, 16)).astype(np.float32)
    Bm = rng.standard_normal((16, 12)).astype(np.float32)
    bias = rng.standard_normal(12).astype(np.float32)
    a, b, c = Tensor(A).realize(), Tensor(Bm).realize(), Tensor(bias).realize()
    (item,) = create_schedule([((a @ b) + c).relu().node])
    got, k = _run(item, opts)
    np.testing.assert_allclose(got.reshape(8, 12), np.maximum(A @ Bm + bias, 0), rtol=1e-5, atol=1e-5)
    kinds = {ins.arg[0] for ins in k.instrs if ins.op is Op.RANGE}
    if any(o.op in ("local", "group") for o in opts):
        assert "local" in kinds and k.local_size
    if any(o.op in ("group", "shared") for o in opts):
        assert any(ins.op is Op.BARRIER for ins in k.instrs)
        assert any(ins.op is Op.DEFINE_LOCAL for ins in k.instrs)


def test_at_most_three_global_dimensions_when_asked():
    x = Tensor(np.arange(2 * 3 * 4 * 5, dtype=np.float32).reshape(2, 3, 4, 5)).realize()
    y = x.permute(3, 1, 0, 2) * 2
    (item,) = create_schedule([y.node])
    got, k = _run(item, [], max_global_dims=3)
    assert len(k.global_size) <= 3
    np.testing.assert_array_equal(got.reshape(5, 3, 2, 4), np.arange(120).reshape(2, 3, 4, 5).transpose(3, 1, 0, 2) * 2)


def test_bad_optimizations_are_named():
    a = Tensor(np.zeros((6, 10), np.float32)).realize()
    (item,) = create_schedule([a.sum(1).node.view()[0]])
    with pytest.raises(OptError, match="does not divide axis 1 of size 10"):
        lower(item.ast, item.bufs, [Opt("unroll", 1, 4)])
    with pytest.raises(OptError, match="needs a global axis"):
        lower(item.ast, item.bufs, [Opt("upcast", 1, 2)])


def test_listing_indents_loops_and_names_ops():
    a = Tensor(np.zeros((4, 8), np.float32)).realize()
    (item,) = create_schedule([a.sum(1).node.view()[0]])
    text = lower(item.ast, item.bufs, [Opt("unroll", 1, 2)]).listing()
    assert re.search(r"RANGE\s+int32\s+\('reduce', 0, 4\)", text)
    assert "ACCUMULATE" in text and "END" in text


def _make_optimizing_backend():
    from tensor.backends.cpu import CPUBackend

    class OptimizingCPU(CPUBackend):
        """Asks for optimizations the way a GPU code generator will."""
        name = "OPTCPU"
        max_global_dims = 3
        requests = []

        def optimizations(self, info):
            OptimizingCPU.requests.append(info)
            opts = []
            shape, red = info["shape"], info["reduce_dims"]
            axes = [("reduce" if d in red else "global", s) for d, s in enumerate(shape)]
            for i, (kind, s) in enumerate(axes):           # a workgroup along the first axis
                if kind == "global" and s % 2 == 0:
                    opts.append(Opt("local", i, 2))
                    break
            r = [i for i, (kind, _) in enumerate(axes) if kind == "reduce"]
            if r and axes[r[0]][1] % 4 == 0:               # and an unrolled reduction
                opts.append(Opt("unroll", r[0] + len(opts), 2))
            return opts
    return OptimizingCPU


def test_a_backend_can_request_optimizations(monkeypatch):
    import tensor.device as devices
    backend = _make_optimizing_backend()
    monkeypatch.setattr(devices, "BACKENDS", dict(devices.BACKENDS))
    monkeypatch.setattr(devices, "_open", dict(devices._open))
    monkeypatch.setattr(engine, "_lowered", {})           # lower afresh for this backend
    devices.register("OPTCPU", backend)
    rng = np.random.default_rng(1)
    A, Bm = rng.standard_normal((6, 8)).astype(np.float32), rng.standard_normal((8, 4)).astype(np.float32)
    a, b = Tensor(A, device="OPTCPU"), Tensor(Bm, device="optcpu")
    out = ((a @ b).relu().sum(0) + a.T.reshape(4, 12).amax(1)).numpy()
    want = np.maximum(A @ Bm, 0).sum(0) + A.T.reshape(4, 12).max(1)
    np.testing.assert_allclose(out, want, rtol=1e-5, atol=1e-5)
    assert backend.requests and all("shape" in r and "reduce_dims" in r for r in backend.requests)
