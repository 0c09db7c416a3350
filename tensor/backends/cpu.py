"""The reference backend "CPU": runs loop-level IR with numpy, vectorized over every range.

Each RANGE becomes an axis of an n-dimensional iteration space and each value an array
broadcastable to it, with size 1 along the axes it does not depend on: a loaded row of a
matrix has the row's axes only, however many loops enclose it.  What depends on ranges and
constants alone (index arithmetic, gates) is computed once, when the kernel is compiled;
launching only loads, computes, reduces and stores:

* a load whose index is affine in the ranges becomes a strided view of the buffer (no copy);
  any other load is a gather with its index array precomputed;
* ``ACCUMULATE`` sums (or maxes) its value over the loops opened after its ``DEFINE_ACC``;
  when that value is a product used nowhere else, the contraction goes to ``np.matmul``;
* local memory holds one copy per iteration of the non-local ranges enclosing its stores.

numpy's OpenBLAS is set to one thread when the backend opens (``TENSOR_BLAS_THREADS=N`` to
choose): its threads cost far more than they save on kernels this size, ruinously so on a
busy machine (a 128x64x128 product went from 0.04 ms to 40 ms on two shared cores).

It is also strict, like the virtual GPU: an out-of-bounds index, two work-items writing one
output element, or a kernel that breaks the IR's rules fail at compile time with the
kernel's name.
"""
import os
import time

import numpy as np

from tensor.backends import npalu
from tensor.device import Backend
from tensor.dtypes import bf16_bits_to_float32, dtypes, float32_to_bf16_bits
from tensor.loopir import ALU, IRError, Op, verify


def set_blas_threads(n):
    """Best effort: tell numpy's OpenBLAS how many threads to use (True if it listened)."""
    import ctypes
    try:
        with open("/proc/self/maps") as f:
            libs = sorted({line.split()[-1] for line in f if "openblas" in line.lower()
                           and line.split()[-1].startswith("/")})
    except OSError:
        return False
    for path in libs:
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        for name in ("scipy_openblas_set_num_threads64_", "scipy_openblas_set_num_threads",
                     "openblas_set_num_threads64_", "openblas_set_num_threads"):
            fn = getattr(lib, name, None)
            if fn is not None:
                fn(int(n))
                return True
    return False


class CPUBackend(Backend):
    name = "CPU"
    description = "reference backend: numpy, loop-level IR vectorized over the iteration space"
    max_global_dims = None

    def __init__(self, index=0):
        super().__init__(index)
        set_blas_threads(int(os.environ.get("TENSOR_BLAS_THREADS", "1")))

    def alloc(self, nbytes):
        return np.zeros(nbytes, dtype=np.uint8)

    def free(self, handle):
        pass

    def copyin(self, handle, host):
        handle[:host.size] = host

    def copyout(self, handle, host):
        host[:] = handle[:host.size]

    def copy_from(self, dst, src):
        """Buffer -> buffer between reference devices: one memory copy (not out to a host
        array and back); False for another kind of device."""
        if not str(src.device).partition(":")[0] == "CPU" or src.nbytes != dst.nbytes:
            return False
        n = src.nbytes
        dst.handle()[:n] = src.handle()[:n]
        return True

    def compile(self, kernel):
        return Program(kernel)

    def launch(self, program, handles, timed=False):
        t0 = time.perf_counter() if timed else 0.0
        program(handles)
        return time.perf_counter() - t0 if timed else None


def _storage(dtype):
    return np.dtype(np.uint16) if dtype is dtypes.bfloat16 else dtype.np


class Program:
    def __init__(self, kernel):
        verify(kernel)
        self.kernel = kernel
        self.name = kernel.name
        ins = kernel.instrs
        self.axis_of, sizes = {}, []
        for i, x in enumerate(ins):
            if x.op is Op.RANGE:
                self.axis_of[i] = len(sizes)
                sizes.append(x.arg[2])
        self.sizes = tuple(sizes)
        nd = len(sizes)
        self.nd = nd
        uses = {}
        for i, x in enumerate(ins):
            for s in x.src:
                uses.setdefault(s, []).append(i)
        # enclosing axes of every instruction (all hardware ranges + open loops)
        hw = {self.axis_of[i] for i, x in enumerate(ins) if x.op is Op.RANGE and x.arg[0] != "reduce"}
        local_axes = {self.axis_of[i] for i, x in enumerate(ins)
                      if x.op is Op.RANGE and x.arg[0] == "local"}
        open_loops, enclosing = [], []
        for i, x in enumerate(ins):
            if x.op is Op.END:
                open_loops.pop()
            enclosing.append(frozenset(hw) | frozenset(open_loops))
            if x.op is Op.RANGE and x.arg[0] == "reduce":
                open_loops.append(self.axis_of[i])
        static = {}
        steps = []
        skip = set()
        local_axes_of = {}
        for i, x in enumerate(ins):
            op = x.op
            if op is Op.CONST:
                static[i] = np.asarray(npalu.scalar(x.arg, x.dtype))
            elif op is Op.RANGE:
                shape = [1] * nd
                shape[self.axis_of[i]] = x.arg[2]
                static[i] = np.arange(x.arg[2], dtype=np.int32).reshape(shape)
            elif op in (Op.END, Op.BARRIER):
                pass
            elif op is Op.PARAM:
                steps.append(_param(i, x.arg, _storage(x.dtype)))
            elif op in ALU:
                if i in skip:
                    continue
                srcs = [static.get(s) for s in x.src]
                sdt = [ins[s].dtype for s in x.src]
                if all(s is not None for s in srcs):
                    static[i] = np.asarray(npalu.alu_quiet(op, x.dtype, srcs, sdt))
                else:
                    steps.append(_alu(i, op, x.dtype, x.src, sdt, static))
            elif op is Op.DEFINE_ACC:
                steps.append(_define_acc(i, x))
            elif op is Op.ACCUMULATE:
                acc, v = x.src
                axes = tuple(sorted(enclosing[i] - enclosing[acc]))
                vi = ins[v]
                if x.arg == "add" and vi.op is Op.MUL and uses.get(v) == [i] and v not in static and \
                        all(s not in static for s in vi.src) and vi.dtype.is_float:
                    skip.add(v)
                    steps.remove(next(s for s in steps if getattr(s, "target", None) == v))
                    steps.append(_contract(acc, vi.src, axes, x.arg, vi.dtype, self.sizes))
                else:
                    steps.append(_accumulate(acc, v, axes, x.arg, ins[acc].dtype, self.sizes, static))
            elif op is Op.DEFINE_LOCAL:
                local_axes_of[i] = None
                steps.append(_define_local(i, x, self, local_axes_of))
            elif op is Op.LOAD:
                buf = ins[x.src[0]]
                if buf.op is Op.DEFINE_LOCAL:
                    steps.append(_local_load(i, x, static, local_axes_of, nd))
                else:
                    steps.append(_global_load(kernel, i, x, static, enclosing[i], self.sizes))
            elif op is Op.STORE:
                buf = ins[x.src[0]]
                if buf.op is Op.DEFINE_LOCAL:
                    if local_axes_of.get(x.src[0]) is None:
                        local_axes_of[x.src[0]] = tuple(sorted(enclosing[i] - local_axes))
                    steps.append(_local_store(kernel, i, x, static, local_axes_of, enclosing[i],
                                              self.sizes))
                else:
                    steps.append(_global_store(kernel, i, x, static, enclosing[i], self.sizes))
            else:
                raise IRError(f"{kernel.name}: %{i}: the reference backend cannot run {op.value}")
        self.static = static
        self.steps = steps
        self.n = len(ins)

    def __call__(self, handles):
        vals = [None] * self.n
        for i, v in self.static.items():
            vals[i] = v
        with np.errstate(all="ignore"):
            for step in self.steps:
                step(vals, handles)


# ---- steps (each a closure over precomputed plans) -------------------------------------------

def _param(i, index, storage):
    def step(vals, handles):
        vals[i] = handles[index].view(storage)
    return step


_FAST = {Op.ADD: np.add, Op.MUL: np.multiply, Op.MAX: np.maximum}


def _alu(i, op, dtype, src, sdt, static):
    fast = _FAST.get(op) if dtype in (dtypes.float32, dtypes.float64) else None
    if fast is not None:
        a, b = src

        def step(vals, handles):
            vals[i] = fast(vals[a], vals[b])
    elif op is Op.WHERE and dtype in (dtypes.float32, dtypes.float64):
        c, a, b = src

        def step(vals, handles):
            vals[i] = np.where(vals[c], vals[a], vals[b])
    elif op in (Op.CMPLT, Op.CMPNE):
        fn = np.less if op is Op.CMPLT else np.not_equal
        a, b = src

        def step(vals, handles):
            vals[i] = fn(vals[a], vals[b])
    else:
        def step(vals, handles):
            vals[i] = npalu.alu(op, dtype, [vals[s] for s in src], sdt)
    step.target = i
    return step


def _define_acc(i, x):
    init = np.asarray(npalu.scalar(x.arg, x.dtype))

    def step(vals, handles):
        vals[i] = init
    return step


def _reduce(v, axes, rop, sizes):
    v = np.asarray(v)
    if v.ndim == 0:
        v = v.reshape((1,) * len(sizes))
    real = tuple(a for a in axes if v.shape[a] > 1)
    out = v
    if real:
        out = np.add.reduce(v, axis=real, keepdims=True) if rop == "add" else \
            np.maximum.reduce(v, axis=real, keepdims=True)
    if rop == "add":
        n = 1
        for a in axes:
            if v.shape[a] == 1:
                n *= sizes[a]
        if n != 1:
            out = out * n
    return out


def _accumulate(acc, v, axes, rop, dtype, sizes, static):
    def step(vals, handles):
        contrib = _reduce(vals[v], axes, rop, sizes)
        a = vals[acc]
        vals[acc] = npalu.alu(Op.ADD if rop == "add" else Op.MAX, dtype, [a, contrib], [dtype, dtype])
    return step


def _contract(acc, srcs, axes, rop, dtype, sizes):
    """acc += sum over axes of a*b, as a batched matmul."""
    a_i, b_i = srcs
    nd = len(sizes)
    plan = {}

    def make_plan(sa, sb):
        A = {k for k in range(nd) if sa[k] > 1}
        B = {k for k in range(nd) if sb[k] > 1}
        R = set(axes)
        batch = sorted((A & B) - R)
        contract = sorted(A & B & R)
        a_only_r = sorted((A - B) & R)
        b_only_r = sorted((B - A) & R)
        fa = sorted(A - B - R)
        fb = sorted(B - A - R)
        scale = 1
        for k in R - A - B:
            scale *= sizes[k]
        return batch, contract, a_only_r, b_only_r, fa, fb, scale

    def step(vals, handles):
        a, b = np.asarray(vals[a_i]), np.asarray(vals[b_i])
        if a.ndim < nd:
            a = a.reshape((1,) * (nd - a.ndim) + a.shape)
        if b.ndim < nd:
            b = b.reshape((1,) * (nd - b.ndim) + b.shape)
        key = (a.shape, b.shape)
        p = plan.get(key)
        if p is None:
            p = plan[key] = make_plan(a.shape, b.shape)
        batch, contract, a_r, b_r, fa, fb, scale = p
        if not fa or not fb:                      # no matrix product here: multiply and sum
            prod_ab = np.multiply(a, b)
            r = _reduce(prod_ab, axes, "add", sizes) if axes else prod_ab
            prev = vals[acc]
            vals[acc] = npalu.alu(Op.ADD if rop == "add" else Op.MAX, dtype, [prev, r], [dtype, dtype])
            return
        if a_r:
            a = np.add.reduce(a, axis=tuple(a_r), keepdims=True)
        if b_r:
            b = np.add.reduce(b, axis=tuple(b_r), keepdims=True)
        nb = [sizes[k] for k in batch]
        am = a.transpose(batch + fa + contract + [k for k in range(nd) if k not in batch + fa + contract])
        am = am.reshape(int(np.prod(nb)), int(np.prod([sizes[k] for k in fa])),
                        int(np.prod([sizes[k] for k in contract])))
        bm = b.transpose(batch + contract + fb + [k for k in range(nd) if k not in batch + contract + fb])
        bm = bm.reshape(int(np.prod(nb)), int(np.prod([sizes[k] for k in contract])),
                        int(np.prod([sizes[k] for k in fb])))
        if dtype is dtypes.float16:
            r = np.matmul(am.astype(np.float32), bm.astype(np.float32)).astype(np.float16)
        else:
            r = np.matmul(am, bm)
        order = batch + fa + fb
        r = r.reshape([sizes[k] for k in order])
        rest = [k for k in range(nd) if k not in order]
        r = r.reshape(r.shape + (1,) * len(rest)).transpose(np.argsort(order + rest))
        if scale != 1:
            r = r * scale
        prev = vals[acc]
        vals[acc] = npalu.alu(Op.ADD if rop == "add" else Op.MAX, dtype, [prev, r], [dtype, dtype])
    return step


def _affine(idx, sizes):
    """(offset, strides) if idx[...] == offset + sum(stride_k * i_k), else None."""
    idx = np.asarray(idx)
    if idx.ndim == 0:
        return int(idx), (0,) * len(sizes)
    origin = int(idx.reshape(-1)[0])
    strides = []
    for k in range(idx.ndim):
        if idx.shape[k] > 1:
            sl = [0] * idx.ndim
            sl[k] = 1
            strides.append(int(idx[tuple(sl)]) - origin)
        else:
            strides.append(0)
    expect = origin
    for k in range(idx.ndim):
        if idx.shape[k] > 1:
            shape = [1] * idx.ndim
            shape[k] = idx.shape[k]
            expect = expect + np.arange(idx.shape[k], dtype=np.int64).reshape(shape) * strides[k]
    if not np.array_equal(np.broadcast_to(expect, idx.shape), idx):
        return None
    return origin, tuple(strides)


def _strided(flat, offset, strides, shape):
    it = flat.itemsize
    return np.ndarray(shape, flat.dtype, buffer=flat, offset=offset * it,
                      strides=tuple(s * it for s in strides))


def _out_of_bounds(kernel, i, idx, size, what):
    bad = idx[(idx < 0) | (idx >= size)]
    raise IRError(f"{kernel.name}: %{i}: {what} index {int(bad.reshape(-1)[0])} is out of bounds "
                  f"for {size} elements")


def _global_load(kernel, i, x, static, enclosing, sizes):
    buf_i = x.src[0]
    size = kernel.params[kernel.instrs[buf_i].arg].size
    bf16 = x.dtype is dtypes.bfloat16
    idx = static.get(x.src[1])
    gate = static.get(x.src[2]) if len(x.src) == 3 else None
    if idx is None or (len(x.src) == 3 and gate is None):
        return _dynamic_load(kernel, i, x, size, bf16)
    idx = np.asarray(idx).astype(np.int64)
    if gate is not None:
        shape = np.broadcast_shapes(idx.shape, np.shape(gate))
        g = np.broadcast_to(gate, shape)
        ib = np.broadcast_to(idx, shape)
        if g.any() and (ib[g].min() < 0 or ib[g].max() >= size):
            _out_of_bounds(kernel, i, ib[g], size, "load")
        safe = np.where(g, ib, 0).astype(np.intp)
        if not g.any():
            zero = np.zeros(shape, dtype=npalu.value_type(x.dtype))
            return _set(i, zero)
        gate_arr = np.ascontiguousarray(g)

        def step(vals, handles):
            v = vals[buf_i].take(safe)
            if bf16:
                v = bf16_bits_to_float32(v)
            vals[i] = np.where(gate_arr, v, 0).astype(v.dtype, copy=False)
        return step
    if idx.size and (idx.min() < 0 or idx.max() >= size):
        _out_of_bounds(kernel, i, idx, size, "load")
    aff = _affine(idx, sizes)
    if aff is not None:
        offset, strides = aff
        shape = idx.shape if idx.ndim else ()

        def step(vals, handles):
            v = _strided(vals[buf_i], offset, strides[:len(shape)], shape)
            vals[i] = bf16_bits_to_float32(v) if bf16 else v
        return step
    take = idx.astype(np.intp)

    def step(vals, handles):
        v = vals[buf_i].take(take)
        vals[i] = bf16_bits_to_float32(v) if bf16 else v
    return step


def _set(i, value):
    def step(vals, handles):
        vals[i] = value
    return step


def _dynamic_load(kernel, i, x, size, bf16):
    buf_i, idx_i = x.src[0], x.src[1]
    gate_i = x.src[2] if len(x.src) == 3 else None

    def step(vals, handles):
        idx = np.asarray(vals[idx_i]).astype(np.int64)
        if gate_i is not None:
            g = np.asarray(vals[gate_i])
            shape = np.broadcast_shapes(idx.shape, g.shape)
            idx, g = np.broadcast_to(idx, shape), np.broadcast_to(g, shape)
            if g.any() and (idx[g].min() < 0 or idx[g].max() >= size):
                _out_of_bounds(kernel, i, idx[g], size, "load")
            v = vals[buf_i].take(np.where(g, idx, 0))
            v = bf16_bits_to_float32(v) if bf16 else v
            vals[i] = np.where(g, v, 0).astype(v.dtype, copy=False)
            return
        if idx.size and (idx.min() < 0 or idx.max() >= size):
            _out_of_bounds(kernel, i, idx, size, "load")
        v = vals[buf_i].take(idx)
        vals[i] = bf16_bits_to_float32(v) if bf16 else v
    return step


def _full_shape(enclosing, sizes):
    return tuple(sizes[k] if k in enclosing else 1 for k in range(len(sizes)))


def _global_store(kernel, i, x, static, enclosing, sizes):
    buf_i, idx_i, val_i = x.src[:3]
    param = kernel.params[kernel.instrs[buf_i].arg]
    bf16 = param.dtype is dtypes.bfloat16
    storage = _storage(param.dtype)
    shape = _full_shape(enclosing, sizes)
    idx = static.get(idx_i)
    gate = static.get(x.src[3]) if len(x.src) == 4 else None
    if idx is None or (len(x.src) == 4 and gate is None):
        raise IRError(f"{kernel.name}: %{i}: the reference backend needs store indices that "
                      "depend on ranges and constants only")
    full_idx = np.broadcast_to(np.asarray(idx).astype(np.int64), shape)
    sel = None if gate is None else np.broadcast_to(gate, shape)
    dst = full_idx if sel is None else full_idx[sel]
    dst = dst.reshape(-1)
    if dst.size and (dst.min() < 0 or dst.max() >= param.size):
        _out_of_bounds(kernel, i, dst, param.size, "store")
    uniq = np.unique(dst)
    if uniq.size != dst.size:
        counts = np.bincount(dst - dst.min()) if dst.size else []
        twice = int(np.argmax(counts)) + int(dst.min())
        raise IRError(f"{kernel.name}: %{i}: output element {twice} is written by more than one "
                      "work-item (each output element must be written once)")
    contiguous = sel is None and dst.size and np.array_equal(dst, np.arange(dst[0], dst[0] + dst.size))
    start = int(dst[0]) if dst.size else 0
    n = dst.size
    dst_p = dst.astype(np.intp)

    def convert(v):
        v = np.asarray(v)
        if bf16:
            return float32_to_bf16_bits(v)
        return v.astype(storage, copy=False)

    if contiguous:
        def step(vals, handles):
            out = vals[buf_i]
            out[start:start + n] = convert(np.broadcast_to(vals[val_i], shape)).reshape(-1)
        return step
    if sel is None:
        def step(vals, handles):
            vals[buf_i][dst_p] = convert(np.broadcast_to(vals[val_i], shape)).reshape(-1)
        return step
    sel_c = np.ascontiguousarray(sel)

    def step(vals, handles):
        vals[buf_i][dst_p] = convert(np.broadcast_to(vals[val_i], shape)[sel_c])
    return step


def _define_local(i, x, prog, local_axes_of):
    name, n = x.arg
    vt = npalu.value_type(x.dtype)

    def step(vals, handles):
        axes = local_axes_of.get(i) or ()
        shape = tuple(prog.sizes[k] if k in axes else 1 for k in range(prog.nd)) + (n,)
        vals[i] = np.zeros(shape, dtype=vt)
    return step


def _local_index(axes, nd, sizes, addr, extra_shape):
    """Index arrays for local memory: one per iteration-space axis (0 where not stored) + addr."""
    out = []
    for k in range(nd):
        if k in axes:
            shape = [1] * nd
            shape[k] = sizes[k]
            out.append(np.arange(sizes[k]).reshape(shape))
        else:
            out.append(np.zeros((1,) * nd, dtype=np.int64))
    out.append(np.asarray(addr).astype(np.int64))
    return out


def _local_store(kernel, i, x, static, local_axes_of, enclosing, sizes):
    buf_i, idx_i, val_i = x.src[:3]
    n = kernel.instrs[buf_i].arg[1]
    axes = local_axes_of[buf_i]
    nd = len(sizes)
    shape = _full_shape(enclosing, sizes)
    addr = static.get(idx_i)
    gate = static.get(x.src[3]) if len(x.src) == 4 else None
    if addr is None or (len(x.src) == 4 and gate is None):
        raise IRError(f"{kernel.name}: %{i}: local store indices must depend on ranges only")
    index = [np.broadcast_to(a, shape) for a in _local_index(axes, nd, sizes, addr, shape)]
    sel = np.ones(shape, dtype=bool) if gate is None else np.broadcast_to(gate, shape)
    flat_addr = index[-1][sel]
    if flat_addr.size and (flat_addr.min() < 0 or flat_addr.max() >= n):
        _out_of_bounds(kernel, i, flat_addr, n, "local store")
    keys = np.stack([ix[sel] for ix in index]) if sel.any() else np.zeros((nd + 1, 0), np.int64)
    if keys.shape[1] and np.unique(keys, axis=1).shape[1] != keys.shape[1]:
        raise IRError(f"{kernel.name}: %{i}: two work-items store to one local memory element "
                      "between barriers (a race)")
    index_sel = tuple(ix[sel] for ix in index)

    def step(vals, handles):
        vals[buf_i][index_sel] = np.broadcast_to(vals[val_i], shape)[sel]
    return step


def _local_load(i, x, static, local_axes_of, nd):
    buf_i, idx_i = x.src[:2]

    def step(vals, handles):
        L = vals[buf_i]
        axes = local_axes_of.get(buf_i) or ()
        addr = vals[idx_i]
        index = _local_index(axes, nd, [L.shape[k] for k in range(nd)], addr, None)
        vals[i] = L[tuple(index)]
    return step
