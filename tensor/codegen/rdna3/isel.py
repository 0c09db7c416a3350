"""Instruction selection: loop-level IR -> machine IR on virtual registers.

The selector walks the kernel once.  Statements (loads, stores, accumulator updates, loop
bounds, barriers) are selected where they stand; pure values (constants, ranges, ALU) are
selected *when first asked for*, at the loop depth the IR defined them in.  That gives, with no
separate pass: dead-code elimination (index arithmetic folded into addresses is never
materialized), hoisting (a value of an outer block is emitted before the inner loop even when
an inner instruction asks first) and a load-early / compute-late order that hides memory
latency.

Register classes follow uniformity (:mod:`.analysis`): uniform integers and booleans live in
SGPRs and use the scalar ALU, everything per-lane in VGPRs.  Booleans are lane masks in one
SGPR (wave32): comparisons write them, ``v_cndmask_b32`` reads them, logic on them is scalar;
a uniform boolean is the all-ones or all-zero mask.  Values by type:

    float32, int32, uint32          one dword
    float16                         the low half of a dword
    bfloat16                        as the float32 it rounds to (bits << 16): arithmetic is
                                    float32 followed by round-to-nearest-even to bfloat16
    int8, uint8, int16              one dword, kept sign- or zero-extended
    float64, int64                  two dwords (lo, hi)
    bool                            a lane mask (one SGPR)

The ALU, conversion, memory and math parts are mixins (:mod:`.alu`, :mod:`.convert`,
:mod:`.memory`, :mod:`.mathlib`).
"""
import struct

from tensor.dtypes import dtypes
from tensor.loopir import ALU, Op

from .alu import AluMixin
from .convert import ConvertMixin
from .groupreduce import GroupReduceMixin
from .mathlib import MathMixin
from .memory import MemoryMixin
from .mir import MI, Code, Neg, Sub, VReg

F32, F16, BF16, F64 = dtypes.float32, dtypes.float16, dtypes.bfloat16, dtypes.float64
I64, BOOL = dtypes.int64, dtypes.bool
INLINE_FLOATS = {0.5: "0.5", -0.5: "-0.5", 1.0: "1.0", -1.0: "-1.0", 2.0: "2.0", -2.0: "-2.0",
                 4.0: "4.0", -4.0: "-4.0"}
WG_SGPR0 = 2                      # s[0:1] = kernarg segment pointer, then workgroup ids


class SelectError(ValueError):
    """The kernel uses something this code generator cannot express; names the instruction."""


class Val:
    """A selected value: a register (VReg or Sub) or a Python constant, with its IR dtype."""
    __slots__ = ("dtype", "reg", "const")

    def __init__(self, dtype, reg=None, const=None):
        self.dtype, self.reg, self.const = dtype, reg, const

    @property
    def cls(self):
        return "c" if self.reg is None else self.reg.cls

    @property
    def is_const(self):
        return self.reg is None

    def __repr__(self):
        return f"Val({self.dtype.name}, {self.reg if self.reg is not None else self.const!r})"


def words(dtype):
    return 2 if dtype.itemsize == 8 else 1


def f32_bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def f64_bits(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def f16_bits(x):
    return struct.unpack("<H", struct.pack("<e", x))[0]


def is_literal(op):
    """True for an operand text that needs a literal dword (not an inline constant)."""
    return isinstance(op, str) and op.startswith("0x")


class Selector(AluMixin, ConvertMixin, MemoryMixin, MathMixin, GroupReduceMixin):
    def __init__(self, kernel, launch, facts):
        self.k, self.launch, self.f = kernel, launch, facts
        self.ins = kernel.instrs
        self.code = Code()
        self.vals = [None] * len(self.ins)
        self.at = 0                       # loop depth new code goes to
        self.cache = {}                   # (key, depth) -> VReg: constants, address sums
        self.regions = {}                 # depth -> open EXEC region (gate, saved, index)
        self.loops = {}                   # reduce RANGE -> (counter VReg, label, Loop)
        self.accs = {}                    # DEFINE_ACC -> VReg
        self.acc_nan = {}                 # DEFINE_ACC -> SGPR mask of lanes that saw a NaN
        self.skip = set()                 # statements already selected with an earlier one
        self.params = {}                  # PARAM number -> SGPR pair
        self.lds_offsets = {}
        self.lds_bytes = 0
        self.scratch_bytes = 0

    # ---- emitting ----------------------------------------------------------------------------
    def E(self, op, *ops, ndef=1, mods="", imp_def=(), imp_use=(), depth=None, region_ok=False):
        d = self.at if depth is None else depth
        if not region_ok:
            self.close_region(d)
        return self.code.add(MI(op, ops, ndef, mods, imp_def, imp_use), d)

    def new(self, cls, size=1):
        return self.code.reg(cls, size)

    def op1(self, op, cls, *srcs, size=1):
        """Emit ``op dst, srcs...`` into a new register; returns it."""
        d = self.new(cls, size)
        self.E(op, d, *srcs)
        return d

    # ---- values ------------------------------------------------------------------------------
    def v(self, i):
        """The Val of IR value ``i``, selecting it now (at its own depth) if it is pure."""
        val = self.vals[i]
        if val is not None:
            return val
        for j in self._pending(i):
            self._select(j)
        return self.vals[i]

    def _pending(self, i):
        """Unselected pure values ``i`` needs, sources first (iteratively: chains are long).
        Values a reader may fuse (a MUL read once; the compares of a NaN-keeping ``<``) are
        left to that reader; their own sources are included."""
        order, seen, stack = [], set(), [(i, False)]
        while stack:
            j, done = stack.pop()
            if done:
                order.append(j)
                continue
            if j in seen or self.vals[j] is not None:
                continue
            seen.add(j)
            stack.append((j, True))
            for s in self._needs(j):
                if self.vals[s] is None and self._pure(s):
                    stack.append((s, False))
        return order

    def _needs(self, j):
        x = self.ins[j]
        if x.op is Op.OR and self.nan_or_less_operands(x) is not None:
            return self.nan_or_less_operands(x)
        out = []
        for s in x.src:
            y = self.ins[s]
            if y.op is Op.MUL and len(self.f.users[s]) == 1 and self.vals[s] is None:
                out.extend(y.src)
            else:
                out.append(s)
        return out

    def _pure(self, j):
        op = self.ins[j].op
        return op in ALU or op in (Op.CONST, Op.PARAM) or (op is Op.DEFINE_ACC and j in self.acc_nan) or \
            (op is Op.RANGE and (self.ins[j].arg[0] != "reduce" or j in self.loops))

    def _select(self, i):
        if self.vals[i] is not None:
            return
        x = self.ins[i]
        saved = self.at
        self.at = self.f.loop_depth[i] if i in self.f.loop_depth else self.f.depth[i]
        try:
            val = self.select_pure(i, x)
        finally:
            self.at = saved
        self.vals[i] = val

    def select_pure(self, i, x):
        op = x.op
        if op is Op.DEFINE_ACC and i in self.acc_nan:
            return self.acc_final(i)
        if op is Op.CONST:
            return Val(x.dtype, const=x.arg)
        if op is Op.RANGE:
            return self.range_value(i, x)
        if op is Op.PARAM:
            return Val(x.dtype, reg=self.param(x.arg))
        if op in ALU:
            return self.select_alu(i, x)
        raise SelectError(f"{self.k.name}: %{i} {op.value} has no value")

    def range_value(self, i, x):
        kind = x.arg[0]
        if kind == "reduce":
            counter, _, _ = self.loops[i]
            return Val(dtypes.int32, reg=self.op1("s_add_i32", "s", counter, self.iconst(x.arg[2])))
        c, terms = self.f.linear(i)
        return Val(dtypes.int32, reg=self.lin_value(terms, c))

    # ---- constants ---------------------------------------------------------------------------
    @staticmethod
    def iconst(v):
        """A 32-bit integer operand: inline for -16..64 (after wrapping), else a literal."""
        v = int(v) & 0xFFFFFFFF
        signed = v - (1 << 32) if v >= 1 << 31 else v
        if -16 <= signed <= 64:
            return str(signed)
        return "0x%x" % v

    def const_text(self, value, dtype, half=None):
        """Operand text of a 32-bit (or one half of a 64-bit) constant, inline when possible."""
        if dtype is BOOL:
            return "-1" if value else "0"
        if dtype.is_float and dtype.itemsize <= 4:
            value = float(value)
            if dtype is F16:
                if value == 0.0 and f16_bits(value) == 0:
                    return "0"
                if value in INLINE_FLOATS:
                    return INLINE_FLOATS[value]
                return "0x%x" % f16_bits(value)
            if value == 0.0 and f32_bits(value) == 0:
                return "0"
            if value in INLINE_FLOATS:
                return INLINE_FLOATS[value]
            return "0x%x" % f32_bits(value)
        if dtype is F64:
            bits = f64_bits(float(value))
            return self.iconst((bits >> 32) if half == 1 else bits & 0xFFFFFFFF)
        if dtype.itemsize == 8:
            v = int(value) & ((1 << 64) - 1)
            return self.iconst((v >> 32) if half == 1 else v & 0xFFFFFFFF)
        return self.iconst(int(value))

    def const64_operand(self, value, dtype):
        """A 64-bit constant as one VALU operand: inline text, a literal for the high dword of a
        float64 with a zero low dword, or an SGPR pair holding it."""
        if dtype is F64:
            value = float(value)
            bits = f64_bits(value)
            if bits == 0:
                return "0"
            if value in INLINE_FLOATS:
                return INLINE_FLOATS[value]
            if bits & 0xFFFFFFFF == 0:
                return "0x%x" % (bits >> 32)
        else:
            v = int(value)
            if -16 <= v <= 64:
                return str(v)
        return self.sconst64(value, dtype)

    def sconst64(self, value, dtype):
        key = ("c64", dtype.name, repr(value))
        r = self.cache.get((key, 0))
        if r is None:
            r = self.code.reg("s", 2)
            self.E("s_mov_b32", r.lo, self.const_text(value, dtype, 0), depth=0)
            self.E("s_mov_b32", r.hi, self.const_text(value, dtype, 1), depth=0)
            self.cache[(key, 0)] = r
        return r

    def operand(self, val, dtype=None):
        """A VALU/SALU source operand for ``val``: its register or constant text."""
        if val.reg is not None:
            return val.reg
        dt = dtype or val.dtype
        if words(dt) == 2:
            return self.const64_operand(val.const, dt)
        if dt is BF16:
            return self.const_text(val.const, F32)
        return self.const_text(val.const, dt)

    def vgpr(self, val, dtype=None):
        """``val`` in VGPR(s)."""
        if val.reg is not None and val.reg.cls == "v":
            return val.reg
        dt = dtype or val.dtype
        if words(dt) == 2:
            d = self.new("v", 2)
            for h in range(2):
                src = val.reg[h] if val.reg is not None else self.const_text(val.const, dt, h)
                self.E("v_mov_b32", d[h], src)
            return d
        if dt is BOOL:
            return self.bool_to_int(val)
        return self.op1("v_mov_b32", "v", self.operand(val, dt))

    def sgpr(self, val, dtype=None):
        """A uniform ``val`` in an SGPR (constants materialized)."""
        if val.reg is not None:
            if val.reg.cls != "s":
                raise SelectError("code generator bug: a per-lane value where a uniform one is needed")
            return val.reg
        dt = dtype or val.dtype
        return self.op1("s_mov_b32", "s", self.const_text(val.const, dt))

    def bool_to_int(self, val, one="1", cls="v"):
        """A boolean as a 0/``one`` dword."""
        if val.reg is None:
            return self.op1("v_mov_b32" if cls == "v" else "s_mov_b32", cls, one if val.const else "0")
        if cls == "s":
            self.E("s_cmp_lg_u32", val.reg, "0", ndef=0, imp_def=("scc",))
            return self.op1("s_cselect_b32", "s", one, "0")
        return self.op1("v_cndmask_b32", "v", "0", one, val.reg)

    def mask(self, val):
        """A boolean as a lane-mask operand (an SGPR or the constants -1 / 0)."""
        if val.reg is None:
            return "-1" if val.const else "0"
        return val.reg

    @staticmethod
    def _scalar_key(s):
        inner = s.op if isinstance(s, Neg) else s
        if isinstance(inner, (VReg, Sub)) and inner.cls == "s":
            return ("s", inner.reg.n if isinstance(inner, Sub) else inner.n, getattr(inner, "off", 0))
        if inner in ("vcc_lo", "exec_lo", "m0"):
            return ("s", inner, 0)
        if is_literal(inner):
            return ("lit", inner)
        return None

    def legal(self, srcs, limit=2, wide=False, keep=()):
        """Sources of one VALU instruction with at most ``limit`` scalar values (distinct SGPRs
        plus one literal, the constant bus) and one distinct literal; others move to VGPRs
        (never the positions in ``keep``, such as a lane mask).  ``wide``: the operands are
        64-bit (a literal is then the high dword of a float64)."""
        out = list(srcs)
        while True:
            keys = [self._scalar_key(s) for s in out]
            distinct = list(dict.fromkeys(k for k in keys if k is not None))
            lits = [k for k in distinct if k[0] == "lit"]
            if len(distinct) <= limit and len(lits) <= 1:
                return out
            bad = lits[1] if len(lits) > 1 else None
            for idx, k in enumerate(keys):
                if k is None or idx in keep or (bad is not None and k != bad):
                    continue
                out[idx] = self._to_vgpr(out[idx], wide)
                break
            else:
                raise SelectError(f"{self.k.name}: cannot satisfy the constant bus for {srcs!r}")

    def _to_vgpr(self, s, wide):
        inner = s.op if isinstance(s, Neg) else s
        size = inner.size if isinstance(inner, (VReg, Sub)) else 2 if wide else 1
        if size == 2:
            t = self.new("v", 2)
            if isinstance(inner, str):
                parts = ("0", inner)
            elif isinstance(inner, VReg):
                parts = (inner[0], inner[1])
            else:
                parts = (Sub(inner.reg, inner.off, 1), Sub(inner.reg, inner.off + 1, 1))
            self.E("v_mov_b32", t.lo, parts[0])
            self.E("v_mov_b32", t.hi, parts[1])
        else:
            t = self.op1("v_mov_b32", "v", inner)
        return Neg(t) if isinstance(s, Neg) else t

    def valu(self, op, srcs, size=1, limit=2, dst=None):
        keep = (2,) if op == "v_cndmask_b32" else ()
        srcs = self.legal(srcs, limit, wide=size == 2 and op.endswith("f64"), keep=keep)
        d = dst if dst is not None else self.new("v", size)
        self.E(op, d, *srcs)
        return d

    # ---- EXEC regions (gated memory accesses) ------------------------------------------------
    def open_region(self, gate):
        """EXEC &= gate for the memory instructions that follow at this depth."""
        d = self.at
        cur = self.regions.get(d)
        if cur is not None and cur[0] is gate:
            return
        self.close_region(d)
        saved = self.new("s")
        mi = self.E("s_and_saveexec_b32", saved, gate, imp_def=("exec_lo", "scc"), imp_use=("exec_lo",))
        self.regions[d] = (gate, saved, len(self.code.blocks[d]) - 1, mi)

    def close_region(self, d):
        cur = self.regions.pop(d, None)
        if cur is not None:
            self.code.add(MI("s_mov_b32", ["exec_lo", cur[1]], 0, imp_def=("exec_lo",)), d)

    def before_region(self, mi):
        """Insert ``mi`` before the open region's s_and_saveexec (it must run on every lane)."""
        d = self.at
        cur = self.regions.get(d)
        block = self.code.blocks[d]
        if cur is None:
            block.append(mi)
            return
        pos = block.index(cur[3])
        block.insert(pos, mi)

    # ---- kernel inputs -----------------------------------------------------------------------
    def param(self, n):
        r = self.params.get(n)
        if r is None:
            raise SelectError(f"{self.k.name}: parameter {n} is not loaded")
        return r

    def prologue(self):
        code, L = self.code, self.launch
        self.kernarg = code.fixed("s", 0, 2)
        self.wg_regs = {}
        s = WG_SGPR0
        self.wg_enabled = [g > 1 for g in L.grid]
        for h in range(3):
            if self.wg_enabled[h]:
                self.wg_regs[h] = code.fixed("s", s)
                s += 1
        self.v0 = code.fixed("v", 0)
        self.tid_regs = {}
        used = sorted({x.arg for x in self.ins if x.op is Op.PARAM})
        # kernel arguments: one 8-byte pointer per parameter, loaded 1, 2 or 4 at a time
        k = 0
        while k < len(used):
            n = used[k]
            run = 1
            while k + run < len(used) and used[k + run] == n + run and run < 4:
                run += 1
            run = 4 if run == 4 else 2 if run >= 2 else 1
            r = code.reg("s", 2 * run, align=2 if run == 1 else 4)
            self.E(f"s_load_b{64 * run}", r, self.kernarg, self.iconst(8 * n) if n else "0", depth=0)
            for j in range(run):
                self.params[n + j] = r[2 * j:2 * j + 2]
            k += run
        self.end_label = code.label()
        if L.partial:
            for h, size in L.partial:
                gid = self.lin_value({("wg", h): L.block[h], ("tid", h): 1}, 0, cls="v")
                self.E("v_cmpx_gt_u32", self.iconst(size), gid, ndef=0, imp_def=("exec_lo",),
                       imp_use=("exec_lo",), depth=0)
            self.E("s_cbranch_execz", self.end_label, ndef=0, imp_use=("exec_lo",), depth=0)

    def wg(self, h):
        return self.wg_regs[h]

    def tid(self, h):
        """The work-item id along hardware axis ``h`` (a VGPR, extracted from v0 once)."""
        r = self.tid_regs.get(h)
        if r is None:
            b = self.launch.block
            if h == 0 and b[1] == 1 and b[2] == 1:
                r = self.v0                   # Y and Z ids are 0: v0 is the X id
            elif h == 0:
                r = self.new("v")
                self.E("v_and_b32", r, "0x3ff", self.v0, depth=0)
            else:
                r = self.new("v")
                self.E("v_bfe_u32", r, self.v0, str(10 * h), "10", depth=0)
            self.tid_regs[h] = r
        return r

    # ---- control -----------------------------------------------------------------------------
    def open_loop(self, i, x):
        size = x.arg[2]
        self.close_region(self.at)
        counter = self.new("s")
        self.E("s_mov_b32", counter, self.iconst(-size))
        loop = self.code.open_loop()
        label = self.code.label()
        self.at = self.code.depth
        loop.head = self.E("label", label, ndef=0)
        self.loops[i] = (counter, label, loop)

    def close_loop(self, i):
        counter, label, loop = self.loops[i]
        d = self.code.depth
        self.close_region(d)
        self.E("s_add_u32", counter, counter, "1", imp_def=("scc",))
        loop.latch = self.E("s_cbranch_scc0", label, ndef=0, imp_use=("scc",))
        self.code.close_loop()
        self.at = self.code.depth
        self.cache = {k: v for k, v in self.cache.items() if k[1] < d}

    # ---- statements --------------------------------------------------------------------------
    def prefetch(self, start):
        """Issue the loads of this stretch of code now (up to the next loop or the END of this
        one): those whose sources are ready -- pure values or loads already issued, never an
        accumulator -- and, for LDS, with no barrier or LDS store in between.  Loads go out
        early, their waits come late."""
        lds_blocked, memo = False, {}
        for j in range(start, len(self.ins)):
            x = self.ins[j]
            if (x.op is Op.RANGE and x.arg[0] == "reduce") or x.op is Op.END:
                return
            if x.op is Op.BARRIER or (x.op is Op.STORE and self.ins[x.src[0]].op is Op.DEFINE_LOCAL):
                lds_blocked = True
            if x.op is not Op.LOAD or self.vals[j] is not None:
                continue
            if self.ins[x.src[0]].op is Op.DEFINE_LOCAL and lds_blocked:
                continue
            if all(self._ready(s, memo) for s in x.src):
                self.vals[j] = self.load(j, x)

    def _ready(self, j, memo):
        """Can value j be computed now (selected already, or pure over such values)?"""
        got = memo.get(j)
        if got is None:
            stack = [j]
            while stack:                                   # iterative: index chains are long
                k = stack.pop()
                if k in memo:
                    continue
                if self.ins[k].op is Op.DEFINE_ACC:
                    memo[k] = False
                elif self.vals[k] is not None:
                    memo[k] = True
                elif not self._pure(k):
                    memo[k] = False
                else:
                    pend = [s for s in self.ins[k].src if s not in memo]
                    if pend:
                        stack.append(k)
                        stack.extend(pend)
                    else:
                        memo[k] = all(memo[s] for s in self.ins[k].src)
            got = memo[j]
        return got

    def run(self):
        self.prologue()
        self.prefetch(0)
        for i, x in enumerate(self.ins):
            op = x.op
            if i in self.skip:
                continue
            if op is Op.RANGE and x.arg[0] == "reduce":
                self.open_loop(i, x)
                self.prefetch(i + 1)
            elif op is Op.END:
                self.close_loop(x.src[0])
                self.prefetch(i + 1)
            elif op is Op.DEFINE_ACC:
                self.define_acc(i, x)
            elif op is Op.ACCUMULATE:
                self.accumulate(i, x)
            elif op is Op.LOAD and self.vals[i] is None:
                self.vals[i] = self.load(i, x)
            elif op is Op.STORE:
                if self.ins[x.src[0]].op is Op.DEFINE_LOCAL and self.group_combine(i):
                    continue
                self.store(i, x)
            elif op is Op.BARRIER:
                self.close_region(self.at)
                self.E("s_barrier", ndef=0)
            elif op is Op.DEFINE_LOCAL:
                self.define_local(i, x)
        self.close_region(0)
        self.E("label", self.end_label, ndef=0)
        self.E("s_endpgm", ndef=0)
        return self.code

    def define_acc(self, i, x):
        dt = x.dtype
        if dt is BOOL:
            r = self.new("s")
            self.E("s_mov_b32", r, "-1" if x.arg else "0")
        else:
            r = self.vgpr(Val(dt, const=x.arg))
        self.accs[i] = r
        maxes = [self.ins[a].arg == "max" for a in self.f.accumulates.get(i, ())]
        if dt in (F32, BF16) and any(maxes):
            # a float max accumulates with v_max3_f32 (which skips NaNs); the lanes that saw
            # a NaN are kept in a mask and get their NaN back when the result is read
            nan = self.new("s")
            self.E("s_mov_b32", nan, "0")
            self.acc_nan[i] = nan
            return
        self.vals[i] = Val(dt, reg=r)

    def acc_final(self, i):
        acc, nan = self.accs[i], self.acc_nan[i]
        self.E("v_cndmask_b32", acc, acc, "0x7fc00000", nan)
        return Val(self.ins[i].dtype, reg=acc)

    def accumulate(self, i, x):
        acc_i, v_i = x.src
        acc = self.accs[acc_i]
        dt = self.ins[acc_i].dtype
        if x.arg == "add":
            self.acc_add(acc, dt, v_i)
        elif acc_i in self.acc_nan:
            self.acc_max_nan(i, acc_i)
        else:
            self.acc_max(acc, dt, v_i)

    def acc_max_nan(self, i, acc_i):
        """This ACCUMULATE max and the ones after it on the same accumulator in this block,
        two values per v_max3_f32, their NaNs noted with one v_cmp_u_f32 per pair."""
        group, depth = [i], 0
        for j in range(i + 1, len(self.ins)):
            x = self.ins[j]
            if x.op is Op.RANGE and x.arg[0] == "reduce":
                depth += 1
            elif x.op is Op.END:
                if depth == 0:
                    break
                depth -= 1
            elif depth == 0 and x.op is Op.ACCUMULATE and x.src[0] == acc_i and x.arg == "max":
                group.append(j)
        self.skip.update(group[1:])
        acc, nan = self.accs[acc_i], self.acc_nan[acc_i]
        vals = [self.operand(self.v(self.ins[j].src[1]), F32) for j in group]
        for k in range(0, len(vals), 2):
            pair = vals[k:k + 2]
            a, b = pair if len(pair) == 2 else (pair[0], pair[0])
            self.E("v_max3_f32", acc, *self.legal([acc, a, b]))
            m = self.new("s")
            self.E("v_cmp_u_f32", m, *self.legal([a, b]))
            self.E("s_or_b32", nan, nan, m)


def select(kernel, launch, facts):
    return Selector(kernel, launch, facts).run()
