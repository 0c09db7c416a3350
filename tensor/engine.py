"""Run a schedule: lower each kernel (cached by its tree), compile it (cached by its IR),
launch it; copies between devices go buffer to buffer where the destination's backend can
(``copy_from``: a peer GPU's memory, or host memory on both sides), else through the host.
DEBUG=2 prints one line per kernel, DEBUG=3 its loop-level IR, DEBUG=4 the lazy graph and the
kernel trees as well.
"""
import os
import time

from tensor import device as devices
from tensor.allreduce import resolve as resolve_allreduces
from tensor.lower import canonical_shape, lower
from tensor.ops import G, graph_text, walk
from tensor.schedule import ast_text, create_schedule

_lowered = {}         # (ast key, buffer sizes, device) -> Kernel
_compiled = {}        # (device, kernel key) -> program
stats = {"kernels": 0, "launches": 0}
capture = None        # the jit sets a list here to record launches
capture_start = None  # ... and the first node id of the captured call


def debug():
    return int(os.environ.get("DEBUG", "0") or 0)


class Runner:
    """One launch: a compiled program and its buffers (what the jit replays)."""
    __slots__ = ("device", "program", "kernel", "bufs")

    def __init__(self, device, program, kernel, bufs):
        self.device, self.program, self.kernel, self.bufs = device, program, kernel, bufs

    def __call__(self, bufs=None, timed=False):
        bufs = self.bufs if bufs is None else bufs
        return self.device.launch(self.program, [b.handle() for b in bufs], timed=timed)


class CopyRunner:
    __slots__ = ("bufs",)

    def __init__(self, bufs):
        self.bufs = bufs

    def __call__(self, bufs=None, timed=False):
        dst, src = self.bufs if bufs is None else bufs
        dev = devices.get(dst.device)
        # a backend that reaches the source's memory directly (a peer GPU) copies device to
        # device; otherwise the data goes through the host
        if getattr(dev, "copy_from", None) is None or not dev.copy_from(dst, src):
            dst.copyin(src.storage())


def get_runner(item):
    if item.kind == "copy":
        return CopyRunner(item.bufs)
    out = item.bufs[0]
    dev = devices.get(out.device)
    key = (item.ast.key, tuple(b.size for b in item.bufs), tuple(b.dtype.name for b in item.bufs),
           out.device)
    kernel = _lowered.get(key)
    if kernel is None:
        _, shape, reduce_dims = canonical_shape(item.ast)
        opts = dev.optimizations({"shape": shape, "reduce_dims": sorted(reduce_dims),
                                  "dtypes": [b.dtype for b in item.bufs],
                                  "sizes": [b.size for b in item.bufs],
                                  "ast": item.ast, "bufs": list(item.bufs)})
        kernel = _lowered[key] = lower(item.ast, item.bufs, opts, dev.max_global_dims)
        stats["kernels"] += 1
    pkey = (out.device, kernel.key)
    program = _compiled.get(pkey)
    if program is None:
        program = _compiled[pkey] = dev.compile(kernel)
        if debug() >= 3:
            print(kernel.listing())
    return Runner(dev, program, kernel, list(item.bufs))


def run_schedule(items):
    level = debug()
    for item in items:
        if item.bufs[0].size == 0:
            continue
        runner = get_runner(item)
        if level >= 4 and item.kind == "kernel":
            print(f"kernel tree of {runner.kernel.name}:\n{ast_text(item.ast)}")
        t = runner(timed=level >= 2)
        stats["launches"] += 1
        if capture is not None:
            capture.append(runner)
        if level >= 2:
            _print_line(runner, item, t)


def _print_line(runner, item, t):
    if isinstance(runner, CopyRunner):
        dst, src = item.bufs
        print(f"  copy  {src.device} -> {dst.device}  {dst.nbytes} bytes")
        return
    k = runner.kernel
    shape = tuple(item.node.shape)
    ops = k.info.get("ops", 0)
    nbytes = k.info.get("bytes", 0)
    secs = t or 0.0
    gbs = nbytes / secs / 1e9 if secs > 0 else 0.0
    print(f"  {k.name:<28} out {str(shape):<18} ops {ops:<4} {nbytes:>10} bytes "
          f"{secs * 1e6:>9.1f} us  {gbs:6.2f} GB/s")


def realize_nodes(nodes):
    """Materialize these nodes; returns the schedule items run (after attaching buffers).
    A node kept on several devices (tensor.multi) stands for its parts."""
    multis = [n for n in nodes if n.is_multi]
    if multis:
        from tensor.multi import expand_nodes, settle
        items = realize_nodes(expand_nodes(nodes))
        settle(multis)
        return items
    nodes = [n for n in nodes if not n.realized]
    if not nodes:
        return []
    if capture is not None:
        _settle(nodes)
    nodes = resolve_allreduces(nodes)       # before the buffers are attached to the targets
    if debug() >= 4:
        print("lazy graph:")
        print(graph_text(nodes))
    items = create_schedule(nodes)
    run_schedule(items)
    for item in items:
        n = item.node
        if n.op is G.ASSIGN:
            buf = item.bufs[0]
            buf.version += 1
            n.op, n.src, n.arg = G.BUFFER, (), None
            n.buffer, n.version = buf, buf.version
        elif n.refs > 0 or n in nodes:
            n.buffer, n.version = item.bufs[0], item.bufs[0].version
    return items


def _settle(nodes):
    """Under a jit capture, lazy values made before the call (parameters, optimizer state)
    are realized outside the capture first, so replays read their buffers."""
    global capture
    start = capture_start
    old = set()
    for n in walk(nodes, stop=lambda n: n.realized or n.id < start):
        if n.id < start and not n.realized:
            base = n.view()[0]
            if not base.realized and base.op not in (G.CONST, G.IOTA):
                old.add(base)
    if old:
        saved, capture = capture, None
        try:
            realize_nodes(sorted(old, key=lambda n: n.id))
        finally:
            capture = saved


def timed_schedule(nodes):
    """(schedule, seconds to build it) without running: for benchmarks and kernel counts."""
    t0 = time.perf_counter()
    items = create_schedule([n for n in nodes if not n.realized])
    return items, time.perf_counter() - t0
