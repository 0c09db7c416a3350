"""Facts about a kernel the instruction selector needs before it starts.

* ``users``: who reads each value; ``depth``: how many reduce loops enclose each instruction
  (a loop's counter lives one deeper than its RANGE).
* ``uniform``: whether a value is the same for every lane of a wave (then it lives in SGPRs and
  is computed by the scalar unit): constants, pointers, loop counters, workgroup ids, and
  integer/boolean arithmetic on uniform values that the scalar ALU can do; loads of 4- and
  8-byte elements at uniform, ungated indices (scalar loads).
* ``interval``: a conservative [lo, hi] of each int32 value (divisions by constants pick the
  unsigned form when the dividend cannot be negative; 24-bit multiplies need small operands).
* ``linear``: index arithmetic as ``const + sum(coeff * atom)``, the form the address
  selector folds into immediate offsets and shares between loads.  Atoms are
  ``("wg", axis)``, ``("tid", axis)``, ``("loop", i)`` (a loop counter register, which runs
  from ``-size`` up to 0: the range's value is ``counter + size``) and ``("ir", i)``.
"""
from tensor.dtypes import dtypes
from tensor.loopir import Op

I32 = dtypes.int32
INT32_MIN, INT32_MAX = -(1 << 31), (1 << 31) - 1
SALU_INT = frozenset({dtypes.int32, dtypes.uint32, dtypes.int16, dtypes.int8, dtypes.uint8})
SALU_OPS = frozenset({Op.ADD, Op.MUL, Op.MAX, Op.CMPLT, Op.CMPNE, Op.AND, Op.OR, Op.XOR, Op.SHL,
                      Op.SHR, Op.WHERE})


class Facts:
    def __init__(self, kernel, launch):
        self.kernel, self.launch = kernel, launch
        ins = self.ins = kernel.instrs
        n = len(ins)
        self.users = [[] for _ in range(n)]
        self.depth = [0] * n
        self.loop_depth = {}                # reduce RANGE -> depth of its body
        self.loop_of = [None] * n           # innermost open reduce RANGE at each instruction
        open_loops = []
        for i, x in enumerate(ins):
            if x.op is Op.END:
                open_loops.pop()
            self.depth[i] = len(open_loops)
            self.loop_of[i] = open_loops[-1] if open_loops else None
            for s in x.src:
                self.users[s].append(i)
            if x.op is Op.RANGE and x.arg[0] == "reduce":
                open_loops.append(i)
                self.loop_depth[i] = len(open_loops)
        self.accumulates = {}               # DEFINE_ACC -> its ACCUMULATE instructions
        for i, x in enumerate(ins):
            if x.op is Op.ACCUMULATE:
                self.accumulates.setdefault(x.src[0], []).append(i)
        self.uses_local_memory = any(x.op in (Op.DEFINE_LOCAL, Op.BARRIER) for x in ins)
        self._lin = {}
        self.intervals = [None] * n
        for i in range(n):
            self.intervals[i] = self._interval(i)
        self.uniform = [False] * n
        for i in range(n):
            self.uniform[i] = self._uniform(i)

    # ---- uniformity --------------------------------------------------------------------------
    def range_axis(self, x):
        """(kind, hw axis, lanes on it) of a global/local RANGE."""
        kind, dim, _ = x.arg
        if kind == "global":
            h, b = self.launch.global_axes[dim]
            return kind, h, b
        h = self.launch.local_axes[dim]
        return kind, h, self.launch.block[h]

    def _uniform(self, i):
        x, U = self.ins[i], self.uniform
        op = x.op
        if op in (Op.CONST, Op.PARAM, Op.DEFINE_LOCAL):
            return True
        if op is Op.RANGE:
            if x.arg[0] == "reduce":
                return True
            _, h, b = self.range_axis(x)
            return x.arg[0] == "global" and b == 1 or self.launch.block[h] == 1
        if op is Op.LOAD:
            buf = self.ins[x.src[0]]
            return (buf.op is Op.PARAM and len(x.src) == 2 and U[x.src[1]]
                    and x.dtype.itemsize in (4, 8) and x.dtype is not dtypes.bfloat16)
        if op in (Op.DEFINE_ACC, Op.ACCUMULATE, Op.STORE, Op.END, Op.BARRIER):
            return False
        if not all(U[s] for s in x.src):
            return False
        srcdt = self.ins[x.src[0]].dtype if x.src else x.dtype
        if op in SALU_OPS:
            if op is Op.WHERE:
                return x.dtype in SALU_INT or x.dtype is dtypes.bool
            return srcdt in SALU_INT or srcdt is dtypes.bool
        if op in (Op.IDIV, Op.MOD):
            d = self.ins[x.src[1]]
            return srcdt in SALU_INT and d.op is Op.CONST and d.arg != 0
        if op is Op.CAST:
            ok = (SALU_INT | {dtypes.bool})
            return srcdt in ok and x.dtype in ok
        if op is Op.BITCAST:
            return srcdt in SALU_INT and x.dtype in SALU_INT
        return False

    # ---- value intervals ---------------------------------------------------------------------
    def _interval(self, i):
        x = self.ins[i]
        dt = x.dtype
        full = (dt.min, dt.max) if (dt.is_int or dt.is_bool) else None
        if dt is dtypes.bool:
            return (0, 1)
        if not dt.is_int:
            return None
        op, iv = x.op, self.intervals
        try:
            if op is Op.CONST:
                return (int(x.arg), int(x.arg))
            if op is Op.RANGE:
                return (0, x.arg[2] - 1)
            a = iv[x.src[0]] if x.src else None
            b = iv[x.src[1]] if len(x.src) > 1 else None
            if op is Op.ADD and a and b:
                return _clip((a[0] + b[0], a[1] + b[1]), full)
            if op is Op.MUL and a and b:
                p = [a[0] * b[0], a[0] * b[1], a[1] * b[0], a[1] * b[1]]
                return _clip((min(p), max(p)), full)
            if op is Op.IDIV and a and b and b[0] == b[1] and b[0] > 0:
                c = b[0]
                return (_tdiv(a[0], c), _tdiv(a[1], c))
            if op is Op.MOD and a and b and b[0] == b[1] and b[0] > 0:
                c = b[0]
                return (0, min(a[1], c - 1)) if a[0] >= 0 else (-(c - 1), c - 1)
            if op is Op.AND and a and b and (a[0] >= 0 or b[0] >= 0):
                return (0, min(v[1] for v in (a, b) if v[0] >= 0))
            if op is Op.MAX and a and b:
                return (max(a[0], b[0]), max(a[1], b[1]))
            if op is Op.WHERE:
                a, b = iv[x.src[1]], iv[x.src[2]]
                if a and b:
                    return (min(a[0], b[0]), max(a[1], b[1]))
            if op is Op.CAST:
                s = iv[x.src[0]]
                if s and full and full[0] <= s[0] and s[1] <= full[1]:
                    return s
        except (TypeError, ValueError):
            pass
        return full

    def nonneg(self, i):
        iv = self.intervals[i]
        return iv is not None and iv[0] >= 0

    # ---- linear forms of index arithmetic ----------------------------------------------------
    def linear(self, i):
        """(const, {atom: coeff}) with index value == const + sum(coeff * atom)."""
        got = self._lin.get(i)
        if got is None:
            got = self._lin[i] = self._linear(i)
        return got

    def _linear(self, i):
        x = self.ins[i]
        op = x.op
        if x.dtype is I32:
            if op is Op.CONST:
                return int(x.arg), {}
            if op is Op.ADD:
                c1, t1 = self.linear(x.src[0])
                c2, t2 = self.linear(x.src[1])
                terms = dict(t1)
                for k, v in t2.items():
                    terms[k] = terms.get(k, 0) + v
                return c1 + c2, {k: v for k, v in terms.items() if v}
            if op is Op.MUL:
                a, b = x.src
                for s, o in ((a, b), (b, a)):
                    if self.ins[o].op is Op.CONST:
                        k = int(self.ins[o].arg)
                        c, t = self.linear(s)
                        return c * k, {a_: v * k for a_, v in t.items() if v * k}
            if op is Op.RANGE:
                kind, _, size = x.arg
                if kind == "reduce":
                    return size, {("loop", i): 1}
                _, h, b = self.range_axis(x)
                if kind == "local":
                    return (0, {}) if self.launch.block[h] == 1 else (0, {("tid", h): 1})
                if b == 1:
                    return 0, {("wg", h): 1}
                if self.launch.grid[h] == 1:
                    return 0, {("tid", h): 1}
                return 0, {("wg", h): b, ("tid", h): 1}
        return 0, {("ir", i): 1}

    def atom_depth(self, atom):
        kind, key = atom
        if kind in ("wg", "tid"):
            return 0
        if kind == "loop":
            return self.loop_depth[key]
        return self.depth[key]

    def atom_uniform(self, atom):
        kind, key = atom
        if kind == "tid":
            return False
        if kind in ("wg", "loop"):
            return True
        return self.uniform[key]

    def atom_interval(self, atom):
        kind, key = atom
        if kind == "tid":
            return (0, self.launch.block[key] - 1)
        if kind == "wg":
            return (0, self.launch.grid[key] - 1)
        if kind == "loop":
            return (-self.ins[key].arg[2], -1)
        return self.intervals[key] or (INT32_MIN, INT32_MAX)


def _tdiv(a, c):
    q = abs(a) // c
    return q if a >= 0 else -q


def _clip(iv, full):
    if full is None:
        return iv
    lo, hi = iv
    if lo < full[0] or hi > full[1]:
        return full                      # may wrap: nothing known
    return iv
