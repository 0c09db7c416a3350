"""``tensor.jit``: capture the kernels a function launches once, replay them afterwards.

    @tensor.jit
    def step(x, y):
        loss = model(x).cross_entropy(y)       # build the graph
        loss.backward(); opt.step()            # assigns into the parameters
        return loss

The first call with a given signature (shapes, dtypes and devices of the tensor arguments,
values of the others) runs normally and records every kernel launch.  From the second call on
the recorded kernels run again on the new arguments' buffers: no graph, no scheduling, no
lowering.  ``DEBUG=1`` says which happens.

What a replay assumes, as with any capture: the function does the same thing every time.
Tensors it reads besides its arguments (parameters, optimizer state) may be lazy at the first
call: they are realized then, outside the capture, so a replay reads their buffers.  Random
numbers drawn inside are fresh at each replay (the generator's counter buffer is rewritten).
The returned tensors share buffers from call to call: copy one to keep it.
"""
import functools

import numpy as np

from tensor import engine
from tensor.ops import _ids, buffer
from tensor.random import MASK32, rng_buffers


class _Capture:
    __slots__ = ("runners", "inputs", "outputs", "structure", "rng", "rng_count", "subs", "segments")


class jit:
    def __init__(self, fn):
        self.fn = fn
        self.captured = {}
        functools.update_wrapper(self, fn)

    def _signature(self, args, kwargs):
        from tensor.tensor import Tensor
        key = []
        for a in list(args) + [kwargs[k] for k in sorted(kwargs)]:
            if isinstance(a, Tensor):
                key.append(("T", a.shape, a.dtype.name, a.device))
            else:
                key.append(("V", repr(a)))
        return tuple(key) + tuple(sorted(kwargs))

    def __call__(self, *args, **kwargs):
        from tensor.tensor import Tensor
        tensors = [a for a in list(args) + list(kwargs.values()) if isinstance(a, Tensor)]
        bufs = _input_buffers(tensors)
        key = self._signature(args, kwargs)
        cap = self.captured.get(key)
        if cap is not None:
            return self._replay(cap, bufs)
        return self._capture(key, args, kwargs, bufs)

    def _capture(self, key, args, kwargs, bufs):
        from tensor.tensor import Tensor
        if engine.capture is not None:
            raise RuntimeError("jit: a jitted function cannot call another jitted function")
        start = next(_ids)
        calls0 = Tensor._rng_calls
        engine.capture, engine.capture_start = [], start
        try:
            out = self.fn(*args, **kwargs)
            outs = _flatten(out)
            outs = [o.contiguous() for o in outs]
            assigned = [t for t in Tensor.pending_assigns() if t.node.id >= start]
            Tensor.realize_all(*outs, *assigned)
            runners = engine.capture
        finally:
            engine.capture, engine.capture_start = None, None
        cap = _Capture()
        cap.runners = runners
        cap.inputs = bufs
        cap.outputs = [_output(o) for o in outs]
        cap.structure = out
        cap.rng = sorted(((idx - calls0, b) for b, idx in list(rng_buffers.items())
                          if calls0 <= idx < Tensor._rng_calls), key=lambda t: t[0])
        cap.rng_count = Tensor._rng_calls - calls0
        # where each input buffer appears in each launch, for cheap substitution
        pos = {id(b): i for i, b in enumerate(bufs)}
        cap.subs = [[(j, pos[id(b)]) for j, b in enumerate(r.bufs) if id(b) in pos] for r in runners]
        cap.segments = None
        self.captured[key] = cap
        if engine.debug() >= 1:
            print(f"jit: {self.fn.__name__}: captured {len(runners)} kernels")
        return _rebuild(out, outs)

    def _replay(self, cap, bufs):
        from tensor.tensor import Tensor
        if engine.debug() >= 1:
            print(f"jit: {self.fn.__name__}: replaying {len(cap.runners)} kernels (no scheduling)")
        base = Tensor._rng_calls
        seed = Tensor._seed
        for k, b in cap.rng:
            b.copyin(np.array([seed & MASK32, (seed >> 32) & MASK32, (base + k) & MASK32], np.uint32))
        Tensor._rng_calls += cap.rng_count
        level = engine.debug()
        if cap.segments is None:
            cap.segments = _segments(cap.runners, cap.subs)
        for batch, items in cap.segments:
            if batch is not None and level < 2:         # one submission for the whole run
                batch([[b.handle() for b in _substituted(r, subs, bufs)] for r, subs in items])
                continue
            for runner, subs in items:
                t = runner(_substituted(runner, subs, bufs), timed=level >= 2)
                if level >= 2 and hasattr(runner, "kernel"):
                    print(f"  {runner.kernel.name:<28} (replay) {(t or 0) * 1e6:9.1f} us")
        outs = [Tensor(_rebuilt_node(o)) for o in cap.outputs]
        return _rebuild(cap.structure, outs)


def _output(t):
    """What a replay needs to hand an output back: its buffer(s) and shape."""
    n = t.node
    if n.is_multi:
        return ("multi", [p.view()[0].buffer for p in n.parts], [p.shape for p in n.parts], n.axis)
    return ("one", n.buffer, t.shape)


def _rebuilt_node(o):
    if o[0] == "one":
        return buffer(o[1], o[2])
    from tensor.multi import MultiNode
    from tensor.ops import G
    parts = [buffer(b, shape) for b, shape in zip(o[1], o[2])]
    return MultiNode(G.BUFFER, (), None, parts, o[3])


def _substituted(runner, subs, bufs):
    if not subs:
        return runner.bufs
    rb = list(runner.bufs)
    for j, i in subs:
        rb[j] = bufs[i]
    return rb


def _segments(runners, subs):
    """Consecutive kernel launches on one device whose backend can replay them as one batch
    (``backend.batch(programs)``, e.g. a recorded command buffer) -> (batch, items); anything
    else -> (None, [item])."""
    out = []
    for r, s in zip(runners, subs):
        dev = getattr(r, "device", None)
        if dev is not None and hasattr(dev, "batch"):
            if out and out[-1][0] is not None and out[-1][1][-1][0].device is dev:
                out[-1][1].append((r, s))
                continue
            out.append((dev, [(r, s)]))
        else:
            out.append((None, [(r, s)]))
    return [(dev.batch([r.program for r, _ in items]) if dev is not None else None, items)
            for dev, items in out]


def _input_buffers(tensors):
    """Each tensor argument realized into a contiguous buffer of its own."""
    from tensor.tensor import Tensor
    Tensor.realize_all(*tensors)
    out = []
    for t in tensors:
        if t.node.is_multi:                     # one buffer per device (tensor.multi)
            if not all(_plain(p) for p in t.node.parts):
                t.node = t.contiguous().realize().node
            out.extend(p.view()[0].buffer for p in t.node.parts)
            continue
        base, st = t.node.view()
        if not (base.realized and st.is_contiguous and base.shape == t.shape):
            t.node = t.contiguous().realize().node
            base = t.node
        out.append(base.buffer)
    return out


def _plain(node):
    base, st = node.view()
    return base.realized and st.is_contiguous and base.shape == node.shape


def _flatten(out):
    from tensor.tensor import Tensor
    if out is None:
        return []
    if isinstance(out, Tensor):
        return [out]
    if isinstance(out, (tuple, list)):
        items = []
        for o in out:
            if not isinstance(o, Tensor):
                raise TypeError(f"jit: a jitted function returns tensors, got {type(o).__name__}")
            items.append(o)
        return items
    raise TypeError(f"jit: a jitted function returns a tensor or a tuple of them, got {type(out).__name__}")


def _rebuild(structure, outs):
    from tensor.tensor import Tensor
    if structure is None:
        return None
    if isinstance(structure, Tensor):
        return outs[0]
    return type(structure)(outs)

