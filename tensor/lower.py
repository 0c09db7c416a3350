"""Lowering: a scheduled kernel (KAST tree) -> loop-level IR (:mod:`tensor.loopir`).

1. The iteration space is the shape under the reduction (or the output shape): size-1
   dimensions go, neighbours every view can merge become one dimension.
2. Requested optimizations split axes (:mod:`tensor.opt`).
3. Instructions are emitted into nested blocks: pure values are hoisted to the outermost
   block their sources allow (loop-invariant code never sits in a loop) and shared
   (common-subexpression elimination); loads, stores, accumulator updates and barriers stay
   where they are put.  Index expressions go through :mod:`tensor.symbolic` first.
"""
from itertools import product

from tensor import symbolic as sym
from tensor.dtypes import dtypes
from tensor.loopir import Instr, Kernel, Op, Param, verify
from tensor.opt import apply_opts, initial_axes
from tensor.view import prod

INDEX = dtypes.int32


class _V:
    """An instruction being emitted: sources are other _V, ``depth`` the block it lives in."""
    __slots__ = ("op", "dtype", "src", "arg", "depth", "n")

    def __init__(self, op, dtype, src, arg, depth):
        self.op, self.dtype, self.src, self.arg, self.depth, self.n = op, dtype, src, arg, depth, -1


class Emitter:
    def __init__(self):
        self.blocks = [[]]
        self.cse = [{}]

    @property
    def depth(self):
        return len(self.blocks) - 1

    def pure(self, op, dtype, src=(), arg=None, after=None):
        depth = max([s.depth for s in src] + ([after.depth] if after is not None else []) + [0])
        key = (op, dtype, tuple(id(s) for s in src), repr(arg) if op is Op.CONST else arg, id(after))
        table = self.cse[depth]
        v = table.get(key)
        if v is None:
            v = table[key] = _V(op, dtype, tuple(src), arg, depth)
            self.blocks[depth].append(v)
        return v

    def const(self, value, dtype):
        return self.pure(Op.CONST, dtype, (), typed(value, dtype))

    def stmt(self, op, dtype, src=(), arg=None, depth=None):
        depth = self.depth if depth is None else depth
        v = _V(op, dtype, tuple(src), arg, depth)
        self.blocks[depth].append(v)
        return v

    def open_loop(self, size):
        r = _V(Op.RANGE, INDEX, (), ("reduce", 0, size), len(self.blocks))
        self.blocks.append([r])
        self.cse.append({})
        return r

    def close_loop(self, r):
        block = self.blocks.pop()
        self.cse.pop()
        block.append(_V(Op.END, dtypes.void, (r,), None, self.depth))
        self.blocks[-1].extend(block)

    def finish(self):
        assert len(self.blocks) == 1
        out = self.blocks[0]
        for i, v in enumerate(out):
            v.n = i
        return tuple(Instr(v.op, v.dtype, tuple(s.n for s in v.src), v.arg) for v in out)


def _map_sts(ast, fn, pre=False, memo=None):
    """A copy of the tree with every ShapeTracker passed through fn(st, pre)."""
    from tensor.schedule import KAST
    memo = {} if memo is None else memo
    key = (ast.key, pre)
    if key in memo:
        return memo[key]
    if ast.op in ("LOAD", "STORE"):
        i, st = ast.arg
        out = KAST(ast.op, tuple(_map_sts(s, fn, pre, memo) for s in ast.src), (i, fn(st, pre)),
                   ast.dtype)
    elif ast.op == "CONST":
        out = KAST("CONST", (), (ast.arg[0], fn(ast.arg[1], pre)), ast.dtype)
    elif ast.op == "IOTA":
        out = KAST("IOTA", (), fn(ast.arg, pre), ast.dtype)
    else:
        inner = pre or ast.op == "REDUCE"
        out = KAST(ast.op, tuple(_map_sts(s, fn, inner, memo) for s in ast.src), ast.arg, ast.dtype)
    memo[key] = out
    return out


def _nodes(ast):
    """Every distinct node of the tree once, with whether it sits under the REDUCE."""
    out, seen, stack = [], set(), [(ast, False)]
    while stack:
        n, pre = stack.pop()
        if (n.key, pre) in seen:
            continue
        seen.add((n.key, pre))
        out.append((n, pre))
        stack.extend((s, pre or n.op == "REDUCE") for s in n.src)
    return out


def _sts(ast):
    out = []
    for n, pre in _nodes(ast):
        if n.op in ("LOAD", "STORE", "CONST"):
            out.append((n.arg[1], pre))
        elif n.op == "IOTA":
            out.append((n.arg, pre))
    return out


def _find(ast, op):
    for n, _ in _nodes(ast):
        if n.op == op:
            return n
    return None


def canonical_shape(ast):
    """Simplify the iteration space: drop size-1 dims, merge what every view lets merge.

    Returns (ast with reshaped views, full shape, reduce dims)."""
    red = _find(ast, "REDUCE")
    out_shape = ast.arg[1].shape
    full = _sts(red.src[0])[0][0].shape if red is not None else out_shape
    rdims = set(red.arg[1]) if red is not None else set()
    # drop size-1 dims
    keep = [d for d, s in enumerate(full) if s != 1]
    groups = [[d] for d in keep]
    sts = _sts(ast)

    def shaped(st, dims_groups):
        shape = tuple(prod((st.shape[d] for d in g)) for g in dims_groups)
        return st.reshape(shape)

    # merge neighbours: same kind, and every view mergeable
    merged = []
    for g in groups:
        if merged:
            last = merged[-1]
            d1, d2 = last[-1], g[0]
            if (d1 in rdims) == (d2 in rdims) and all(_mergeable(st, d1, d2) for st, _ in sts):
                last.extend(g)
                continue
        merged.append(list(g))
    new_full = tuple(prod(full[d] for d in g) for g in merged)
    new_rdims = {i for i, g in enumerate(merged) if g[0] in rdims}
    if new_full != full:
        ast = _map_sts(ast, lambda st, pre: shaped(st, merged) if st.shape else st)
    return ast, new_full, new_rdims


def _mergeable(st, d1, d2):
    if not st.shape:
        return True
    # size-1 dims between d1 and d2 were dropped: look at the top view directly
    v = st.views[-1]
    s1, s2 = v.shape[d1], v.shape[d2]
    if s1 == 1 or s2 == 1:
        return True
    if v.strides[d1] != v.strides[d2] * s2:
        return False
    return not v.mask or (v.mask[d1] == (0, s1) and v.mask[d2] == (0, s2))


class Lowerer:
    def __init__(self, ast, params, opts=(), max_global_dims=None, name=None):
        self.ast, self.params = ast, params
        ast, self.full, self.rdims = canonical_shape(ast)
        self.ast_c = ast
        self.axes = apply_opts(initial_axes(self.full, self.rdims), opts)
        self.max_global_dims = max_global_dims
        self.name = name

    # ---- index expressions --------------------------------------------------------------
    def dim_exprs(self, axis_vals, pre):
        """Per dimension of the full shape, its index as a symbolic expression."""
        idx = [sym.const(0) for _ in self.full]
        for a, val in zip(self.axes, axis_vals):
            if not pre and a.dim in self.rdims:
                continue
            idx[a.dim] = sym.add(idx[a.dim], sym.mul(val, a.mult))
        return idx

    def render_index(self, e):
        E = self.E
        if e is True or e is False:
            return E.const(e, dtypes.bool)
        if isinstance(e, sym.And):
            out = None
            for c in e.conds:
                v = self.render_index(c)
                out = v if out is None else E.pure(Op.AND, dtypes.bool, (out, v))
            return out
        if isinstance(e, sym.Lt):
            return E.pure(Op.CMPLT, dtypes.bool, (self.render_index(e.a), E.const(e.c, INDEX)))
        if isinstance(e, sym.Lin):
            out = None
            for atom, c in e.terms:
                v = self.render_atom(atom)
                if c != 1:
                    v = E.pure(Op.MUL, INDEX, (v, E.const(c, INDEX)))
                out = v if out is None else E.pure(Op.ADD, INDEX, (out, v))
            if out is None:
                return E.const(e.const, INDEX)
            if e.const:
                out = E.pure(Op.ADD, INDEX, (out, E.const(e.const, INDEX)))
            return out
        raise TypeError(e)

    def render_atom(self, a):
        if isinstance(a, sym.Var):
            return self.var_value[a.name]
        op = Op.IDIV if isinstance(a, sym.Div) else Op.MOD
        return self.E.pure(op, INDEX, (self.render_index(a.a), self.E.const(a.d, INDEX)))

    # ---- values -------------------------------------------------------------------------
    def render(self, ast, vals, pre, accs):
        key = (id(ast), vals)
        memo = self.memo
        if key in memo:
            return memo[key]
        E, op = self.E, ast.op
        if op == "REDUCE":
            out = accs
        elif op == "LOAD":
            i, st = ast.arg
            out = self.load(i, st, vals, pre, ast.dtype)
        elif op == "CONST":
            value, st = ast.arg
            valid = st.expr(self.dim_exprs(vals, pre))[1]
            c = E.const(value, ast.dtype)
            if valid is not True:
                zero = E.const(0 if not ast.dtype.is_bool else False, ast.dtype)
                c = zero if valid is False else \
                    E.pure(Op.WHERE, ast.dtype, (self.render_index(valid), c, zero))
            out = c
        elif op == "IOTA":
            idx, valid = ast.arg.expr(self.dim_exprs(vals, pre))
            out = self.render_index(idx)
            if valid is not True:
                zero = E.const(0, INDEX)
                out = zero if valid is False else \
                    E.pure(Op.WHERE, INDEX, (self.render_index(valid), out, zero))
        else:
            srcs = tuple(self.render(s, vals, pre, accs) for s in ast.src)
            out = E.pure(op, ast.dtype, srcs)
        memo[key] = out
        return out

    def load(self, i, st, vals, pre, dtype):
        E = self.E
        idx, valid = st.expr(self.dim_exprs(vals, pre))
        if valid is False:
            return E.const(0 if not dtype.is_bool else False, dtype)
        if pre and self.tile is not None and self._shareable(idx, valid):
            return self.staged_load(i, st, vals, dtype)
        src = (self.param_values[i], self.render_index(idx))
        if valid is not True:
            src += (self.render_index(valid),)
        return E.pure(Op.LOAD, dtype, src)

    # ---- shared-memory tiling -----------------------------------------------------------
    def _vars(self, e, out):
        if isinstance(e, sym.Lin):
            for a, _ in e.terms:
                self._vars(a, out)
        elif isinstance(e, sym.Var):
            out.add(e.name)
        elif isinstance(e, (sym.Div, sym.Mod)):
            self._vars(e.a, out)
        elif isinstance(e, sym.Lt):
            self._vars(e.a, out)
        elif isinstance(e, sym.And):
            for c in e.conds:
                self._vars(c, out)
        return out

    def _shareable(self, idx, valid):
        used = self._vars(idx, set())
        if valid is not True:
            self._vars(valid, used)
        locals_ = [k for k, a in enumerate(self.axes) if a.kind == "local"]
        return self.tile_name in used and any(self.axis_name[k] not in used for k in locals_)

    def staged_load(self, i, st, vals, dtype):
        E = self.E
        locals_ = [k for k, a in enumerate(self.axes) if a.kind == "local"]
        idx0, valid0 = st.expr(self.dim_exprs(vals, True))
        used = self._vars(idx0, set())
        if valid0 is not True:
            self._vars(valid0, used)
        dep = [k for k in locals_ if self.axis_name[k] in used]
        tile_k = self.tile
        sizes = [self.axes[k].size for k in dep] + [self.axes[tile_k].size]
        count = prod(sizes)
        threads = prod(self.axes[k].size for k in locals_)
        lid = sym.const(0)
        for k in locals_:
            lid = sym.add(sym.mul(lid, self.axes[k].size), self.sym_vars[k])
        name = f"smem{len(self.locals)}"
        lbuf = E.pure(Op.DEFINE_LOCAL, dtype, (), (name, count))
        self.locals.append(lbuf)
        for rep in range(-(-count // threads)):
            e = sym.add(lid, threads * rep)
            parts, rest = [], e
            for s in reversed(sizes):
                parts.append(sym.mod(rest, s))
                rest = sym.floordiv(rest, s)
            parts.reverse()
            v = list(vals)
            for k, p in zip(dep + [tile_k], parts):
                v[k] = p
            for k in locals_:
                if k not in dep:
                    v[k] = sym.const(0)
            gidx, gvalid = st.expr(self.dim_exprs(tuple(v), True))
            in_range = sym.lt(e, count)
            gate = sym.and_(gvalid, in_range)
            src = (self.param_values[i], self.render_index(gidx))
            if gate is not True:
                src += (self.render_index(gate),)
            val = E.pure(Op.LOAD, dtype, src) if gate is not False else E.const(0, dtype)
            ssrc = (lbuf, self.render_index(e), val)
            if in_range is not True:
                ssrc += (self.render_index(in_range),)
            E.stmt(Op.STORE, dtypes.void, ssrc, depth=self.stage_depth)
        addr = sym.const(0)
        for k, s in zip(dep + [tile_k], sizes):
            addr = sym.add(sym.mul(addr, s), vals[k])
        return E.pure(Op.LOAD, dtype, (lbuf, self.render_index(addr)), after=self.barrier_marker)

    # ---- the kernel ---------------------------------------------------------------------
    def lower(self):
        E = self.E = Emitter()
        self.memo, self.locals = {}, []
        ast = self.ast_c
        self.param_values = [E.pure(Op.PARAM, p.dtype, (), i) for i, p in enumerate(self.params)]
        axes = self.axes
        red = _find(ast, "REDUCE")
        # hardware ranges
        gl = [k for k, a in enumerate(axes) if a.kind == "global"]
        lo = [k for k, a in enumerate(axes) if a.kind in ("local", "group")]
        self.var_value, self.sym_vars, self.axis_name = {}, {}, {}
        global_size, local_size = [], []
        fuse = 0
        if self.max_global_dims is not None and len(gl) > self.max_global_dims:
            fuse = len(gl) - self.max_global_dims + 1
        if fuse:
            size = prod(axes[k].size for k in gl[:fuse])
            r = E.pure(Op.RANGE, INDEX, (), ("global", 0, size))
            global_size.append(size)
            name = ("g", 0)
            self.var_value[name] = r
            whole = sym.var(name, 0, size - 1)
            inner = size
            for k in gl[:fuse]:
                inner //= axes[k].size
                self.sym_vars[k] = sym.mod(sym.floordiv(whole, inner), axes[k].size)
                self.axis_name[k] = name
        for k in gl[fuse:]:
            dim = len(global_size)
            r = E.pure(Op.RANGE, INDEX, (), ("global", dim, axes[k].size))
            global_size.append(axes[k].size)
            self._bind(k, r)
        for k in lo:
            r = E.pure(Op.RANGE, INDEX, (), ("local", len(local_size), axes[k].size))
            local_size.append(axes[k].size)
            self._bind(k, r)
        for k, a in enumerate(axes):
            if a.kind in ("reduce", "tile"):
                name = ("r", k)
                self.sym_vars[k] = sym.var(name, 0, a.size - 1)
                self.axis_name[k] = name
        up = [k for k, a in enumerate(axes) if a.kind == "upcast"]
        un = [k for k, a in enumerate(axes) if a.kind == "unroll"]
        tiles = [k for k, a in enumerate(axes) if a.kind == "tile"]
        self.tile = tiles[0] if tiles else None
        self.tile_name = self.axis_name.get(self.tile)

        def values(up_vals, un_vals):
            v = [self.sym_vars.get(k) for k in range(len(axes))]
            for k, c in zip(up, up_vals):
                v[k] = sym.const(c)
            for k, c in zip(un, un_vals):
                v[k] = sym.const(c)
            return tuple(v)

        up_space = list(product(*(range(axes[k].size) for k in up)))
        un_space = list(product(*(range(axes[k].size) for k in un)))
        store_gate = None
        results = {}
        if red is not None:
            rop, _ = red.arg
            dt = red.dtype
            ident = _identity(rop, dt)
            accs = {u: E.stmt(Op.DEFINE_ACC, dt, (), ident) for u in up_space}
            loops = []
            for k, a in enumerate(axes):
                if a.kind == "reduce":
                    r = E.open_loop(a.size)
                    self.var_value[self.axis_name[k]] = r
                    loops.append(r)
            if self.tile is not None:
                self.stage_depth = E.depth
                self.barrier_marker = _V(Op.BARRIER, dtypes.void, (), None, E.depth + 1)
                tr = E.open_loop(axes[self.tile].size)
                self.var_value[self.tile_name] = tr
                loops.append(tr)
            for u in up_space:
                for w in un_space:
                    v = self.render(red.src[0], values(u, w), True, None)
                    E.stmt(Op.ACCUMULATE, dtypes.void, (accs[u], v), rop)
            if self.tile is not None:
                inner = loops.pop()
                E.close_loop(inner)
                block = E.blocks[-1]
                # the tile loop was appended after the staging stores: barrier before it
                start = block.index(inner)
                block.insert(start, _V(Op.BARRIER, dtypes.void, (), None, E.depth))
                E.stmt(Op.BARRIER, dtypes.void)
            for r in reversed(loops):
                E.close_loop(r)
            groups = [k for k, a in enumerate(axes) if a.kind == "group"]
            if groups:
                accs, store_gate = self.combine_groups(groups, accs, up_space, rop, dt)
            results = accs
        out_i, out_st = ast.arg
        for u in up_space:
            self.memo = {}
            vals = values(u, ())
            value = self.render(ast.src[0], vals, False, results.get(u))
            idx, valid = out_st.expr(self.dim_exprs(vals, False))
            src = (self.param_values[0], self.render_index(idx), value)
            gate = valid if store_gate is None else sym.and_(valid, store_gate)
            if gate is not True:
                src += (self.render_index(gate),)
            E.stmt(Op.STORE, dtypes.void, src)
        instrs = E.finish()
        kname = self.name or _name(red, self.full, self.rdims)
        k = Kernel(kname, tuple(self.params), instrs, tuple(global_size), tuple(local_size))
        return verify(k)

    def _bind(self, k, r):
        name = ("a", k)
        self.var_value[name] = r
        self.sym_vars[k] = sym.var(name, 0, self.axes[k].size - 1)
        self.axis_name[k] = name

    def combine_groups(self, groups, accs, up_space, rop, dt):
        E = self.E
        gsize = prod(self.axes[k].size for k in groups)
        n_up = len(up_space)
        lbuf = E.pure(Op.DEFINE_LOCAL, dt, (), (f"group{len(self.locals)}", gsize * n_up))
        self.locals.append(lbuf)
        glin = sym.const(0)
        for k in groups:
            glin = sym.add(sym.mul(glin, self.axes[k].size), self.sym_vars[k])
        for j, u in enumerate(up_space):
            addr = sym.add(sym.mul(glin, n_up), j)
            E.stmt(Op.STORE, dtypes.void, (lbuf, self.render_index(addr), accs[u]))
        barrier = E.stmt(Op.BARRIER, dtypes.void)
        ident = _identity(rop, dt)
        out = {u: E.stmt(Op.DEFINE_ACC, dt, (), ident) for u in up_space}
        r = E.open_loop(gsize)
        for j, u in enumerate(up_space):
            addr = E.pure(Op.ADD, INDEX, (E.pure(Op.MUL, INDEX, (r, E.const(n_up, INDEX))),
                                          E.const(j, INDEX)))
            v = E.pure(Op.LOAD, dt, (lbuf, addr), after=barrier)
            E.stmt(Op.ACCUMULATE, dtypes.void, (out[u], v), rop)
        E.close_loop(r)
        gate = True
        for k in groups:
            gate = sym.and_(gate, sym.lt(self.sym_vars[k], 1))
        return out, gate


def _identity(rop, dt):
    return typed(0 if rop == "add" else dt.min, dt)


def typed(value, dt):
    """A constant as the Python type of its dtype (bool, int or float)."""
    if dt.is_bool:
        return bool(value)
    if dt.is_float:
        return float(value)
    return int(value)


def _name(red, full, rdims):
    kind = "r" if red is not None else "E"
    return kind + "_" + "_".join(str(s) for s in full) if full else kind + "_1"


def lower(ast, bufs, opts=(), max_global_dims=None):
    """KAST + its buffers (output first) -> a verified loopir.Kernel."""
    params = tuple(Param("out" if i == 0 else f"in{i}", b.dtype, b.size, i == 0)
                   for i, b in enumerate(bufs))
    big = [p for p in params if p.size >= 2**31]
    if big:
        raise ValueError(f"a {big[0].dtype.name} buffer of {big[0].size} elements is too large for "
                         "the IR's 32-bit index arithmetic (at most 2**31 - 1 elements)")
    k = Lowerer(ast, params, opts, max_global_dims).lower()
    k.info["ops"] = _count_ops(ast)
    k.info["bytes"] = sum(b.nbytes for b in bufs)
    return k


def _count_ops(ast):
    return len({n.key for n, _ in _nodes(ast) if isinstance(n.op, Op) or n.op == "REDUCE"})
