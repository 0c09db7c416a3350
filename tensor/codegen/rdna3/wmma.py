"""Matrix multiplies of float16 / bfloat16 inputs on v_wmma_f32_16x16x16_{f16,bf16}.

The tensor layer lowers ``A @ B`` (half-precision inputs, float32 accumulation) without
optimizations to one reduce loop::

    acc += CAST(f32, LOAD A[a(m, k, b)]) * CAST(f32, LOAD B[b(k, n, b)])

with ``m`` and ``n`` output ranges, ``k`` the reduce range, ``b`` an optional batch range and
``a``, ``b`` linear.  When every size is a multiple of 16, each wave32 computes one 16 x 16
tile of the output instead of one element per work-item:

* grid (N/16, M/16, batch), one wave per workgroup; lane l works on row (and column)
  ``l % 16`` of its tile -- lanes 16-31 load the same data as 0-15, as WMMA wants;
* per 16 steps of k, a lane loads the 16 values of its row of A and its column of B into the
  halves of 8 VGPRs (two ``global_load_b128`` when k is contiguous, otherwise
  ``global_load_d16_b16`` / ``_d16_hi_b16`` straight into each half), then one
  ``v_wmma_f32_16x16x16_*`` accumulates the tile in 8 VGPRs of float32;
* afterwards VGPR r of lane l holds output (m = 2r + l/16, n = l % 16) of the tile: the IR's
  epilogue (cast, bias, activation, store...) is selected once per r with the ranges and the
  accumulator bound to those values.

Anything else falls back to the scalar code generator.
"""
from tensor.dtypes import dtypes
from tensor.loopir import Op

from .analysis import Facts
from .isel import Selector, Val
from .launch import Launch

I32, F32 = dtypes.int32, dtypes.float32
HALF = {dtypes.float16: "v_wmma_f32_16x16x16_f16", dtypes.bfloat16: "v_wmma_f32_16x16x16_bf16"}


def _linear(ins, i, out=None, scale=1):
    """const + {range index: coeff} of int32 index arithmetic over RANGEs, or None."""
    if out is None:
        out = [0, {}]
    x = ins[i]
    if x.op is Op.CONST:
        out[0] += scale * int(x.arg)
    elif x.op is Op.RANGE:
        out[1][i] = out[1].get(i, 0) + scale
    elif x.op is Op.ADD and x.dtype is I32:
        for s in x.src:
            if _linear(ins, s, out, scale) is None:
                return None
    elif x.op is Op.MUL and x.dtype is I32:
        a, b = x.src
        for v, c in ((a, b), (b, a)):
            if ins[c].op is Op.CONST:
                return _linear(ins, v, out, scale * int(ins[c].arg))
        return None
    else:
        return None
    return out


class Plan:
    pass


def match(kernel):
    """A Plan when the kernel is a half-precision matmul in the form above, else None."""
    ins = kernel.instrs
    if kernel.local_size:
        return None
    loops = [i for i, x in enumerate(ins) if x.op is Op.RANGE and x.arg[0] == "reduce"]
    if len(loops) != 1:
        return None
    r = loops[0]
    end = next(i for i, x in enumerate(ins) if x.op is Op.END and x.src[0] == r)
    body = range(r + 1, end)
    loads = [i for i in body if ins[i].op is Op.LOAD]
    accs = [i for i in body if ins[i].op is Op.ACCUMULATE]
    others = [i for i in body if ins[i].op in (Op.STORE, Op.BARRIER, Op.DEFINE_LOCAL)]
    if len(loads) != 2 or len(accs) != 1 or others:
        return None
    upd = ins[accs[0]]
    acc = upd.src[0]
    if upd.arg != "add" or ins[acc].dtype is not F32 or ins[acc].arg != 0.0:
        return None
    mul = ins[upd.src[1]]
    if mul.op is not Op.MUL or mul.dtype is not F32:
        return None
    srcs = []
    for s in mul.src:
        c = ins[s]
        if c.op is not Op.CAST or ins[c.src[0]].op is not Op.LOAD:
            return None
        srcs.append(c.src[0])
    if sorted(srcs) != sorted(loads):
        return None
    dt = ins[srcs[0]].dtype
    if dt not in HALF or ins[srcs[1]].dtype is not dt:
        return None
    forms = []
    for ld in srcs:
        x = ins[ld]
        if len(x.src) != 2 or ins[x.src[0]].op is not Op.PARAM:
            return None
        lin = _linear(ins, x.src[1])
        if lin is None or lin[1].get(r, 0) == 0:
            return None
        forms.append((ld, lin))
    globals_ = [i for i, x in enumerate(ins) if x.op is Op.RANGE and x.arg[0] == "global"]
    (la, fa), (lb, fb) = forms
    only_a = [g for g in globals_ if g in fa[1] and g not in fb[1]]
    only_b = [g for g in globals_ if g in fb[1] and g not in fa[1]]
    if len(only_a) != 1 or len(only_b) != 1:
        return None
    m, n = only_a[0], only_b[0]
    batch = [g for g in globals_ if g not in (m, n)]
    if len(batch) > 1:
        return None
    sizes = {g: ins[g].arg[2] for g in globals_}
    K = ins[r].arg[2]
    if sizes[m] % 16 or sizes[n] % 16 or K % 16:
        return None
    for f in (fa, fb):
        if any(v not in (m, n, r) + tuple(batch) for v in f[1]):
            return None
    # nothing but index arithmetic and the multiply-accumulate in the loop
    keep = {r, end, la, lb, mul.src[0], mul.src[1], upd.src[1], accs[0]}
    for i in body:
        if i in keep:
            continue
        x = ins[i]
        if x.dtype is not I32 or x.op not in (Op.ADD, Op.MUL, Op.CONST):
            return None
    # the accumulator is read only after the loop, and nothing else reads the loads
    p = Plan()
    p.r, p.end, p.acc, p.upd, p.dt = r, end, acc, accs[0], dt
    p.m, p.n, p.batch = m, n, (batch[0] if batch else None)
    p.M, p.N, p.K = sizes[m], sizes[n], K
    p.a, p.b = (la, fa), (lb, fb)
    p.grid = (p.N // 16, p.M // 16, sizes[p.batch] if p.batch is not None else 1)
    return p


class WmmaFacts(Facts):
    """Facts with the output ranges bound to per-lane values (m, n) and a uniform batch."""

    def __init__(self, kernel, launch, plan):
        self.plan = plan
        Facts.__init__(self, kernel, launch)

    def _uniform(self, i):
        x = self.ins[i]
        if x.op is Op.RANGE and x.arg[0] == "global":
            return i == self.plan.batch
        return Facts._uniform(self, i)

    def _linear(self, i):
        x = self.ins[i]
        if x.op is Op.RANGE and x.arg[0] == "global":
            return 0, {("ir", i): 1}
        return Facts._linear(self, i)

    def range_axis(self, x):
        return "global", 0, 1


class WmmaSelector(Selector):
    def __init__(self, kernel, plan):
        launch = Launch((32, 1, 1), plan.grid, [], [], [])
        facts = WmmaFacts(kernel, launch, plan)
        Selector.__init__(self, kernel, launch, facts)
        self.plan = plan

    def range_value(self, i, x):
        raise RuntimeError("code generator bug: a WMMA kernel range read before it is bound")

    def run(self):
        p = self.plan
        self.prologue()
        lane = self.v0
        l16 = self.op1("v_and_b32", "v", "15", lane)
        hi = self.op1("v_lshrrev_b32", "v", "4", lane)
        tile_n = self.wg_regs.get(0, "0")
        tile_m = self.wg_regs.get(1, "0")
        batch = self.wg_regs.get(2, "0")
        m_lane = self.valu("v_lshl_add_u32", [tile_m, "4", l16])         # tile_m*16 + l%16
        n_lane = self.valu("v_lshl_add_u32", [tile_n, "4", l16])
        d = self.new("v", 8)
        for k in range(8):
            self.E("v_mov_b32", d[k], "0")
        bases = []
        for (ld, (c0, terms)), row in ((p.a, m_lane), (p.b, n_lane)):
            own = p.m if ld == p.a[0] else p.n
            ck = terms[p.r]
            if ck == 1 and any((2 * c) % 16 for c in [c0] + [terms[t] for t in terms if t != p.r]):
                ck = (ck, "unaligned")                   # 16-byte loads need 16-byte addresses
            v = self.valu("v_mul_lo_u32", [row, self.iconst(2 * terms[own])])
            extra = 2 * c0
            if p.batch is not None and p.batch in terms:
                sb = self.op1("s_mul_i32", "s", batch if not isinstance(batch, str) else
                              self.op1("s_mov_b32", "s", batch), self.iconst(2 * terms[p.batch]))
                v = self.valu("v_add_nc_u32", [sb, v])
            if extra:
                v = self.valu("v_add_nc_u32", [self.iconst(extra), v])
            bases.append((ld, v, ck))
        counter = self.new("s")
        self.E("s_mov_b32", counter, self.iconst(-(p.K // 16)))
        loop = self.code.open_loop()
        label = self.code.label()
        self.at = self.code.depth
        loop.head = self.E("label", label, ndef=0)
        regs = []
        for ld, voff, ck in bases:
            regs.append(self.fragment(ld, voff, ck))
        self.E(HALF[p.dt], d, regs[0], regs[1], d)
        for ld, voff, ck in bases:
            step = ck[0] if isinstance(ck, tuple) else ck
            self.E("v_add_nc_u32", voff, self.iconst(32 * step), voff)   # next 16 values of k
        self.E("s_add_u32", counter, counter, "1", imp_def=("scc",))
        loop.latch = self.E("s_cbranch_scc0", label, ndef=0, imp_use=("scc",))
        self.code.close_loop()
        self.at = 0
        # the epilogue, once per accumulator register: output row 2r + l/16 of the tile
        stmts = [i for i, x in enumerate(self.ins)
                 if not (p.r <= i <= p.end) and x.op in (Op.STORE, Op.LOAD)]
        base_m = self.valu("v_lshl_add_u32", [tile_m, "4", hi])
        for r in range(8):
            self.vals = [None] * len(self.ins)
            self.cache = {k: v for k, v in self.cache.items() if k[0] in (("zero",),) or
                          (isinstance(k[0], tuple) and k[0] and k[0][0] == "c64")}
            mr = self.valu("v_add_nc_u32", [str(2 * r), base_m]) if r else base_m
            self.vals[p.m] = Val(I32, reg=mr)
            self.vals[p.n] = Val(I32, reg=n_lane)
            if p.batch is not None:
                self.vals[p.batch] = Val(I32, reg=batch if not isinstance(batch, str) else None,
                                         const=0 if isinstance(batch, str) else None)
            self.vals[p.acc] = Val(F32, reg=d[r])
            for i in stmts:
                x = self.ins[i]
                if x.op is Op.LOAD:
                    self.vals[i] = self.load(i, x)
                else:
                    self.store(i, x)
        self.close_region(0)
        self.E("label", self.end_label, ndef=0)
        self.E("s_endpgm", ndef=0)
        return self.code

    def fragment(self, ld, voff, ck):
        """One lane's 16 values of k for its row of A (or column of B), packed two per VGPR."""
        x = self.ins[ld]
        saddr = self.param(self.ins[x.src[0]].arg)
        frag = self.new("v", 8)
        if isinstance(ck, tuple):
            ck = ck[0]
        elif ck == 1:
            for h in range(2):
                mi = self.E("global_load_b128", frag[4 * h:4 * h + 4], voff, saddr,
                            mods=f"offset:{16 * h}" if h else "")
                mi.imm, mi.align = 16 * h, 16
            return frag
        base, step = voff, 2 * ck
        first = 0
        for k in range(16):
            off = (k - first) * step
            if not -4096 <= off <= 4095:                 # re-base when the offset runs out
                base = self.valu("v_add_nc_u32", [self.iconst(k * step), voff])
                first, off = k, 0
            op = "global_load_d16_b16" if k % 2 == 0 else "global_load_d16_hi_b16"
            mi = self.E(op, frag[k // 2], base, saddr, mods=f"offset:{off}" if off else "",
                        imp_use=(frag[k // 2].reg,) if k % 2 else ())
            mi.imm, mi.align = off, 2
        return frag
