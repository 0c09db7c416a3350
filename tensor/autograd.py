"""Reverse-mode autodiff on the primitive graph: every derivative rule, on one page.

``g`` is the gradient arriving at node ``n``; each rule returns one gradient per source
(None where there is none).  Every Tensor method is built from these primitives, so its
gradient follows.  Ties in MAX split the gradient evenly, like PyTorch's maximum and amax.
"""
import math

from tensor import ops
from tensor.dtypes import dtypes
from tensor.loopir import Op
from tensor.ops import G


def _c(n, v):
    return ops.const(v, n.dtype, n.shape, n.device)


def _eq(a, b):
    return ops.alu(Op.CMPNE, ops.alu(Op.CMPNE, a, b), ops.const(True, dtypes.bool, a.shape, a.device))


def _mul(a, b):
    return ops.alu(Op.MUL, a, b)


def _sel(c, a, n):
    return ops.alu(Op.WHERE, c, a, _c(n, 0))


def rules(n, g):
    op, s = n.op, n.src
    if op is Op.ADD:
        return g, g
    if op is Op.MUL:
        return _mul(g, s[1]), _mul(g, s[0])
    if op is Op.MAX:
        a, b = s
        half = ops.alu(Op.WHERE, _eq(a, b), _c(n, 0.5), _c(n, 0.0))
        wa = ops.alu(Op.WHERE, ops.alu(Op.CMPLT, b, a), _c(n, 1.0), half)
        wb = ops.alu(Op.WHERE, ops.alu(Op.CMPLT, a, b), _c(n, 1.0), half)
        return _mul(g, wa), _mul(g, wb)
    if op is Op.WHERE:
        return None, _sel(s[0], g, n), ops.alu(Op.WHERE, s[0], _c(n, 0), g)
    if op is Op.EXP2:
        return (_mul(g, _mul(n, _c(n, math.log(2)))),)
    if op is Op.LOG2:
        return (_mul(g, _mul(ops.alu(Op.RECIPROCAL, s[0]), _c(n, 1 / math.log(2)))),)
    if op is Op.SIN:
        return (_mul(g, ops.alu(Op.SIN, ops.alu(Op.ADD, s[0], _c(n, math.pi / 2)))),)
    if op is Op.SQRT:
        return (_mul(g, _mul(ops.alu(Op.RECIPROCAL, n), _c(n, 0.5))),)
    if op is Op.RECIPROCAL:
        return (_mul(g, _mul(_mul(n, n), _c(n, -1.0))),)
    if op is Op.CAST:
        return (ops.cast(g, s[0].dtype) if s[0].dtype.is_float else None,)
    if op is G.REDUCE:
        rop, axes = n.arg
        x = s[0]
        if rop == "add":
            return (ops.expand(g, x.shape),)
        hit = ops.cast(_eq(x, ops.expand(n, x.shape)), n.dtype)
        count = ops.reduce(hit, "add", axes)
        share = _mul(g, ops.alu(Op.RECIPROCAL, count))
        return (_mul(ops.expand(share, x.shape), hit),)
    if op is G.RESHAPE:
        return (ops.reshape(g, s[0].shape),)
    if op is G.PERMUTE:
        inv = [0] * len(n.arg)
        for i, p in enumerate(n.arg):
            inv[p] = i
        return (ops.permute(g, inv),)
    if op is G.EXPAND:
        axes = [i for i, (a, b) in enumerate(zip(s[0].shape, n.shape)) if a != b]
        return (ops.reduce(g, "add", axes),)
    if op is G.PAD:
        return (ops.shrink(g, [(lo, lo + sz) for (lo, _), sz in zip(n.arg, s[0].shape)]),)
    if op is G.SHRINK:
        return (ops.pad(g, [(lo, sz - hi) for (lo, hi), sz in zip(n.arg, s[0].shape)]),)
    if op is G.FLIP:
        return (ops.flip(g, n.arg),)
    if op is G.CONTIGUOUS:
        return (g,)
    if op is G.COPY:
        return (ops.copy(g, s[0].device),)
    return tuple(None for _ in s)


def gradients(root, grad, wanted):
    """{node id: gradient node} for the nodes in ``wanted`` (ids) that ``root`` depends on."""
    topo = ops.walk([root], stop=lambda n: not n.requires_grad)
    grads = {root.id: grad}
    out = {}
    for n in reversed(topo):
        g = grads.pop(n.id, None)
        if g is None or not n.requires_grad:
            continue
        if n.id in wanted:
            out[n.id] = g
        for src, gs in zip(n.src, rules(n, g)):
            if gs is None or not src.requires_grad:
                continue
            if gs.shape != src.shape:
                raise RuntimeError(f"internal: gradient of {n.op} has shape {gs.shape}, "
                                   f"expected {src.shape}")
            prev = grads.get(src.id)
            grads[src.id] = gs if prev is None else ops.alu(Op.ADD, prev, gs)
    return out
