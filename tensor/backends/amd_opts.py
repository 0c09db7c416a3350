"""Which lowering optimizations the AMD backend asks for, per kernel, and the BEAM search.

The heuristic reads the kernel's iteration space (output axes, reduce axes, element sizes):

* elementwise kernels: eight (or four) neighbouring elements per work-item along the last
  axis when it divides (16-byte loads and stores, the per-wave set-up shared by more
  elements); the code generator packs work-items into workgroups;
* a reduction with enough outputs to fill the GPU: one work-item per output, the reduce
  loop unrolled by 4 (fewer loop tests, immediate-offset loads, waits batched; a reduce axis
  of 4 is unrolled whole);
* a reduction with few outputs (under 2048, or under 8192 when each work-item still reduces
  16 elements or more): a reduce axis is split over a workgroup (``group``: 256, 128, 64 or 32
  work-items, the largest that divides it; the innermost axis when it is long, else the
  longest, such as the batch axis of a convolution's weight gradient), partial results meet
  in LDS, the remaining loop unrolled by 4 -- a GPU of 96 compute units needs more than a few
  thousand work-items, and a long serial loop in a few waves leaves it idle;
* matmul-like reductions (two output axes of at least 16 and a reduce axis): a 4 x 4 register
  tile per work-item (``upcast`` both output axes) and the reduce loop unrolled by 4, so each
  loaded value feeds four multiply-adds;
* float16 / bfloat16 matmuls with every size a multiple of 16: none, so the code generator
  sees the plain loop and uses WMMA (:mod:`tensor.codegen.rdna3.wmma`).

``BEAM=N`` (environment) replaces the heuristic for kernels the backend compiles: up to N
candidate optimization lists (the heuristic's and its neighbours) are lowered, compiled and
timed on the device, and the fastest kept (cached per kernel shape for the process).
"""
import os

from tensor.opt import Opt, OptError, apply_opts, initial_axes


GROUP_OUTPUTS = 8192     # below this many outputs a long reduction is split over workgroups


def _axes(shape, rdims, opts):
    return apply_opts(initial_axes(shape, set(rdims)), opts)


def _try(shape, rdims, opts, new):
    try:
        _axes(shape, rdims, opts + [new])
        return opts + [new]
    except OptError:
        return opts


def _index(axes, kind, from_end=0):
    found = [k for k, a in enumerate(axes) if a.kind == kind]
    return found[-1 - from_end] if len(found) > from_end else None


def heuristic(shape, rdims, dtypes=()):
    shape, rdims = tuple(shape), set(rdims)
    if _wmma_shaped(shape, rdims, dtypes):
        return []            # the code generator puts it on v_wmma_f32_16x16x16 as it stands
    if not rdims:
        # four neighbouring elements per work-item: one 16-byte access instead of four, and
        # the per-wave set-up shared by four times the elements
        total = 1
        for s in shape:
            total *= s
        for per in (8, 4):
            if shape and shape[-1] % per == 0 and total >= 1024 * per:
                return [Opt("upcast", len(shape) - 1, per)]
        return []
    outputs = reduced = 1
    for d, s in enumerate(shape):
        if d not in rdims:
            outputs *= s
        else:
            reduced *= s
    opts = []
    axes = _axes(shape, rdims, opts)
    globals_ = [k for k, a in enumerate(axes) if a.kind == "global"]
    if len(globals_) >= 2 and all(axes[k].size >= 16 for k in globals_[-2:]) and outputs >= 1024:
        for k in (globals_[-1], globals_[-2]):
            if axes[k].size % 4 == 0:
                opts = _try(shape, rdims, opts, Opt("upcast", _index(_axes(shape, rdims, opts), "global",
                                                                     0 if k == globals_[-1] else 1), 4))
    elif outputs < 2048:
        opts = _group(shape, rdims, opts, axes, reduced, 8)
    elif outputs < GROUP_OUTPUTS:
        opts = _group(shape, rdims, opts, axes, reduced, 16, innermost=False)
    axes = _axes(shape, rdims, opts)
    r = _index(axes, "reduce")
    if r is not None and axes[r].size % 4 == 0 and axes[r].size >= 4:
        opts = _try(shape, rdims, opts, Opt("unroll", r, 4))
    return opts


def _group(shape, rdims, opts, axes, reduced, per_lane, innermost=True):
    """Split a reduce axis over a workgroup: the innermost one when it holds at least two
    groups' worth, else the longest one a group size divides (a whole batch axis, say, when
    the inner ones are short, as in a convolution's weight gradient), each work-item keeping
    at least ``per_lane`` elements to reduce (fewer, and the exchange costs more than it
    saves)."""
    reduces = [k for k, a in enumerate(axes) if a.kind == "reduce"]
    last = reduces[-1]
    for g in (256, 128, 64, 32):
        if innermost and axes[last].size % g == 0 and axes[last].size >= 2 * g:
            return _try(shape, rdims, opts, Opt("group", last, g))
    for k in sorted(reduces, key=lambda k: -axes[k].size):
        for g in (256, 128, 64, 32):
            if axes[k].size % g == 0 and reduced // g >= per_lane:
                new = _try(shape, rdims, opts, Opt("group", k, g))
                if new is not opts:
                    return new
    return opts


def _wmma_shaped(shape, rdims, dtypes):
    from tensor.dtypes import dtypes as dt
    half = (dt.float16, dt.bfloat16)
    outs = [s for d, s in enumerate(shape) if d not in rdims]
    reds = [shape[d] for d in rdims]
    return (len(rdims) == 1 and len(outs) >= 2 and all(s % 16 == 0 for s in outs[-2:] + reds)
            and len(dtypes) >= 3 and all(d in half for d in dtypes[1:3]))


def neighbours(shape, rdims, base):
    """Candidate optimization lists around the heuristic's, for the search."""
    out = [base, []]
    axes = _axes(shape, set(rdims), [])
    r = _index(axes, "reduce")
    if r is not None:
        for u in (2, 8):
            out.append(_try(shape, rdims, [], Opt("unroll", r, u)))
        for g in (64, 128, 256):
            cand = _try(shape, rdims, [], Opt("group", r, g))
            out.append(_try(shape, rdims, cand, Opt("unroll", _index(_axes(shape, rdims, cand), "reduce"), 4))
                       if len(cand) == 1 else cand)
    seen, uniq = set(), []
    for c in out:
        key = tuple(c)
        if key not in seen:
            seen.add(key)
            uniq.append(c)
    return uniq


_beam_cache = {}


def choose(backend, info):
    shape, rdims = info["shape"], info["reduce_dims"]
    base = heuristic(shape, rdims, info.get("dtypes", ()))
    width = int(os.environ.get("BEAM", "0") or 0)
    if width <= 0 or backend is None or "ast" not in info or "bufs" not in info:
        return base
    key = (tuple(shape), tuple(sorted(rdims)), tuple(info.get("dtypes", ())))
    hit = _beam_cache.get(key)
    if hit is None:
        hit = _beam_cache[key] = beam(backend, info, neighbours(shape, rdims, base)[:width]) or base
    return hit


def beam(backend, info, candidates):
    """The candidate that runs fastest on the device (each lowered, compiled, run 3 times).
    The candidates run on copies of the kernel's buffers (real inputs, so a gather's indices
    stay in range; copies, so a kernel that reads what it writes is not run on its own output)."""
    from tensor.lower import lower
    best, best_t = None, None
    bufs = info["bufs"]
    backend.dev.synchronize()                 # the inputs' producers have finished
    handles = []
    for b in bufs:
        h = backend.alloc(b.nbytes)
        if b.nbytes:
            backend.dev.copy(h, b.handle(), b.nbytes)
        handles.append(h)
    try:
        for opts in candidates:
            try:
                k = lower(info["ast"], bufs, opts, backend.max_global_dims)
                prog = backend.compile(k)
            except (OptError, ValueError):
                continue
            t = min(backend.launch(prog, handles, timed=True) or 0.0 for _ in range(3))
            if best_t is None or t < best_t:
                best, best_t = opts, t
    finally:
        for h in handles:
            backend.free(h)
    return best
