"""Addresses, loads and stores.

An element index is a linear form (:meth:`Facts.linear`): ``c + sum(k * atom)``.  Its byte
offset is split three ways:

* the constant goes to the instruction's immediate offset (GLOBAL: 13-bit signed, DS: 16-bit
  unsigned, SMEM: 21-bit signed) when it fits;
* uniform atoms are summed by the scalar ALU, per-lane atoms by the vector ALU with the scalar
  sum as the addend of the first multiply-add (``v_lshl_add_u32``, ``v_mad_u32_u24``);
* sums are built from the outermost loop depth inward, each partial sum keyed by its terms
  and shared: a[i] and b[i] of one element size use one offset register, and the part of an
  address that does not change in a loop is computed once before it.

Global memory is addressed as SGPR base (the kernel argument) + 32-bit VGPR offset +
immediate.  The VGPR offset is unsigned, so when the register part could be negative (loop
counters run from -size to 0) just enough of the constant moves into it.  Uniform loads of 4-
and 8-byte elements at ungated indices use the scalar unit (``s_load_b32/b64``, the offset in
an SGPR).  A gated access runs under EXEC &= gate; a gated load's register is zeroed first, so
work-items with a false gate read 0 as the IR says.
"""
from tensor.dtypes import dtypes
from tensor.loopir import Op

from .mir import MI

GLOBAL_LOAD = {1: "global_load_u8", 2: "global_load_u16", 4: "global_load_b32", 8: "global_load_b64"}
GLOBAL_STORE = {1: "global_store_b8", 2: "global_store_b16", 4: "global_store_b32", 8: "global_store_b64"}
DS_LOAD = {1: "ds_load_u8", 2: "ds_load_u16", 4: "ds_load_b32", 8: "ds_load_b64"}
DS_STORE = {1: "ds_store_b8", 2: "ds_store_b16", 4: "ds_store_b32", 8: "ds_store_b64"}


def _load_op(table, dt, signed_prefix):
    if dt in (dtypes.int8, dtypes.int16):
        return signed_prefix + ("i8" if dt is dtypes.int8 else "i16")
    return table[dt.itemsize]


def _pow2(k):
    return k > 0 and k & (k - 1) == 0


class MemoryMixin:
    # ---- linear sums ---------------------------------------------------------------------
    def atom_operand(self, atom):
        kind, key = atom
        if kind == "wg":
            return self.wg(key)
        if kind == "tid":
            return self.tid(key)
        if kind == "loop":
            return self.loops[key][0]
        val = self.v(key)
        if val.reg is None:
            return self.iconst(int(val.const))
        if val.dtype.itemsize == 8:
            return val.reg[0]
        return val.reg

    def lin_value(self, terms, const, cls=None):
        """A register holding ``const + sum(k * atom)`` (shared, hoisted); ``cls`` "v" forces a
        VGPR, "s" an SGPR.  None for an empty sum without ``cls``."""
        f = self.f
        groups = {}
        for atom, k in terms.items():
            groups.setdefault(f.atom_depth(atom), []).append((atom, k))
        depths = sorted(groups)
        if const and (not depths or depths[0] != 0):
            depths.insert(0, 0)
        acc, done = None, {}
        for n, d in enumerate(depths):
            items = sorted(groups.get(d, []), key=lambda t: repr(t[0]))
            done.update(items)
            key = (frozenset(done.items()), const)
            hit = self.cache.get((key, d))
            if hit is not None:
                acc = hit
                continue
            saved, self.at = self.at, d
            try:
                uni = [(a, k) for a, k in items if f.atom_uniform(a)]
                vec = [(a, k) for a, k in items if not f.atom_uniform(a)]
                base = self.iconst(const) if n == 0 and const else acc
                if base is None or isinstance(base, str) or base.cls == "s":
                    if uni:
                        base = self.salu_sum(base, uni)
                    uni = []
                acc = self.valu_sum(base, vec + uni) if vec or uni else base
            finally:
                self.at = saved
            if not isinstance(acc, str) and acc is not None:
                self.cache[(key, d)] = acc
        if isinstance(acc, str):
            acc = self.op1("v_mov_b32" if cls == "v" else "s_mov_b32", "v" if cls == "v" else "s", acc)
        if cls == "v":
            if acc is None:
                return self.zero_vgpr()
            if acc.cls == "s":
                key = (("v", acc.n), self.at)
                hit = self.cache.get(key)
                if hit is None:
                    hit = self.cache[key] = self.op1("v_mov_b32", "v", acc)
                acc = hit
        return acc

    def zero_vgpr(self):
        hit = self.cache.get((("zero",), 0))
        if hit is None:
            hit = self.new("v")
            self.E("v_mov_b32", hit, "0", depth=0)
            self.cache[(("zero",), 0)] = hit
        return hit

    def salu_sum(self, base, terms):
        """base (None, constant text or SGPR) + sum(k * atom) of uniform atoms, in an SGPR."""
        r = base
        for a, k in terms:
            x = self.atom_operand(a)
            if r is not None and not isinstance(r, str) and k in (2, 4, 8, 16):
                r = self.op1(f"s_lshl{k.bit_length() - 1}_add_u32", "s", x, r)
                continue
            if k == 1:
                t = x
            elif _pow2(k):
                t = self.op1("s_lshl_b32", "s", x, str(k.bit_length() - 1))
            else:
                t = self.op1("s_mul_i32", "s", x, self.iconst(k))
            r = t if r is None else self.op1("s_add_i32", "s", t, r)
        if isinstance(r, str):
            r = self.op1("s_mov_b32", "s", r)
        return r

    def _fits24(self, atom, k, signed):
        lo, hi = self.f.atom_interval(atom)
        if signed:
            lim = 1 << 23
            return -lim <= lo and hi < lim and -lim <= k < lim
        return 0 <= lo and hi < (1 << 24) and 0 <= k < (1 << 24)

    def valu_sum(self, base, terms):
        """base (SGPR/VGPR/None) + sum(k * atom) in a VGPR."""
        r = base
        for a, k in terms:
            x = self.atom_operand(a)
            if isinstance(x, str):
                x = self.op1("v_mov_b32", "v", x)
            if r is None:
                if k == 1:
                    r = x if x.cls == "v" else self.op1("v_mov_b32", "v", x)
                elif _pow2(k):
                    r = self.valu("v_lshlrev_b32", [str(k.bit_length() - 1), x])
                elif self._fits24(a, k, False):
                    r = self.valu("v_mul_u32_u24", [x, self.iconst(k)])
                elif self._fits24(a, k, True):
                    r = self.valu("v_mul_i32_i24", [x, self.iconst(k)])
                else:
                    r = self.valu("v_mul_lo_u32", [x, self.iconst(k)])
                continue
            if k == 1:
                r = self.valu("v_add_nc_u32", [r, x] if isinstance(r, str) or r.cls == "s" else [x, r])
            elif _pow2(k):
                r = self.valu("v_lshl_add_u32", [x, str(k.bit_length() - 1), r])
            elif self._fits24(a, k, False):
                r = self.valu("v_mad_u32_u24", [x, self.iconst(k), r])
            elif self._fits24(a, k, True):
                r = self.valu("v_mad_i32_i24", [x, self.iconst(k), r])
            else:
                t = self.valu("v_mul_lo_u32", [x, self.iconst(k)])
                r = self.valu("v_add_nc_u32", [r, t])
        if isinstance(r, str) or (r is not None and r.cls == "s"):
            r = self.op1("v_mov_b32", "v", r)
        return r

    # ---- addresses -----------------------------------------------------------------------
    def address(self, idx, scale, lo, hi, cls, base=0):
        """(register or None, immediate) with byte offset == base + scale * index; also sets
        ``self.last_align``: what the register part is known to be a multiple of."""
        import math
        c, terms = self.f.linear(idx)
        bterms = {a: k * scale for a, k in terms.items()}
        C = c * scale + base
        pmin = 0
        for a, k in bterms.items():
            alo, ahi = self.f.atom_interval(a)
            pmin += min(k * alo, k * ahi)
        fold = max(0, -pmin)
        imm = C - fold
        if not lo <= imm <= hi:
            fold, imm = C, 0
        g = 0
        for k in list(bterms.values()) + [fold]:
            g = math.gcd(g, abs(k))
        self.last_align = g & -g if g else 1 << 20
        if not bterms and not fold:
            return (self.zero_vgpr() if cls == "v" else None), imm
        return self.lin_value(bterms, fold, cls), imm

    def mem(self, op, *ops, ndef=0, imm=0, region_ok=False):
        """Emit a memory instruction, recording its offset and the address's alignment."""
        mi = self.E(op, *ops, ndef=ndef, mods=self.offset_mod(imm), region_ok=region_ok)
        mi.imm, mi.align = imm, self.last_align
        return mi

    @staticmethod
    def offset_mod(imm, key="offset"):
        return f"{key}:{imm}" if imm else ""

    # ---- loads ---------------------------------------------------------------------------
    def gate_of(self, x, n):
        """The gate of a load/store (None when there is none or it is constant true), or False."""
        if len(x.src) <= n:
            return None
        g = self.v(x.src[n])
        if g.reg is None:
            return None if g.const else False
        return g.reg

    def load(self, i, x):
        buf = self.ins[x.src[0]]
        dt = x.dtype
        if buf.op is Op.DEFINE_LOCAL:
            return self.local_load(i, x, buf)
        if self.f.uniform[i]:
            return self.scalar_load(i, x, buf)
        gate = self.gate_of(x, 2)
        if gate is False:
            return self._zero(dt)
        voff, imm = self.address(x.src[1], dt.itemsize, -4096, 4095, "v")
        saddr = self.param(buf.arg)
        return self._vector_load(dt, gate, GLOBAL_LOAD, "global_load_", "global_load_d16_hi_b16",
                                 [voff, saddr], imm)

    def _zero(self, dt):
        from .isel import Val
        return Val(dt, const=False if dt is dtypes.bool else 0)

    def _vector_load(self, dt, gate, table, signed_prefix, d16_hi, addr_ops, imm):
        from .isel import Val, words
        size = words(dt)
        d = self.new("v", size)
        if dt is dtypes.bfloat16:
            op = d16_hi
        else:
            op = _load_op(table, dt, signed_prefix)
        if gate is not None or dt is dtypes.bfloat16:
            for h in range(size):
                self.before_region(MI("v_mov_b32", [d if size == 1 else d[h], "0"], 1))
        if gate is not None:
            self.open_region(gate)
        self.mem(op, d, *addr_ops, ndef=1, imm=imm, region_ok=gate is not None)
        if dt is dtypes.bool:
            m = self.new("s")
            self.E("v_cmp_ne_u32", m, "0", d)
            return Val(dt, reg=m)
        return Val(dt, reg=d)

    def scalar_load(self, i, x, buf):
        from .isel import Val, words
        dt = x.dtype
        soff, imm = self.address(x.src[1], dt.itemsize, -(1 << 20), (1 << 20) - 1, "s")
        d = self.new("s", words(dt))
        ops = [d, self.param(buf.arg)]
        if soff is not None:
            ops.append(soff)
            self.mem(f"s_load_b{32 * words(dt)}", *ops, ndef=1, imm=imm)
        else:
            ops.append(self.iconst(imm) if imm else "0")
            mi = self.E(f"s_load_b{32 * words(dt)}", *ops)
            mi.imm, mi.align = imm, self.last_align
        return Val(dt, reg=d)

    # ---- local memory --------------------------------------------------------------------
    def define_local(self, i, x):
        name, n = x.arg
        nbytes = n * x.dtype.itemsize
        off = (self.lds_bytes + 15) // 16 * 16
        self.lds_offsets[i] = off
        self.lds_bytes = off + nbytes

    def local_load(self, i, x, buf):
        dt = x.dtype
        gate = self.gate_of(x, 2)
        if gate is False:
            return self._zero(dt)
        vaddr, imm = self.address(x.src[1], dt.itemsize, 0, 65535, "v", self.lds_offsets[x.src[0]])
        return self._vector_load(dt, gate, DS_LOAD, "ds_load_", "ds_load_u16_d16_hi", [vaddr], imm)

    # ---- stores --------------------------------------------------------------------------
    def store_data(self, val_i, dt):
        val = self.v(val_i)
        if dt is dtypes.bool:
            return self.bool_to_int(val)
        return self.vgpr(val, dt)

    def store(self, i, x):
        buf = self.ins[x.src[0]]
        dt = buf.dtype
        gate = self.gate_of(x, 3)
        if gate is False:
            return
        local = buf.op is Op.DEFINE_LOCAL
        data = self.store_data(x.src[2], dt)
        if local:
            addr, imm = self.address(x.src[1], dt.itemsize, 0, 65535, "v", self.lds_offsets[x.src[0]])
            op = "ds_store_b16_d16_hi" if dt is dtypes.bfloat16 else DS_STORE[dt.itemsize]
            ops = [addr, data]
        else:
            addr, imm = self.address(x.src[1], dt.itemsize, -4096, 4095, "v")
            op = "global_store_d16_hi_b16" if dt is dtypes.bfloat16 else GLOBAL_STORE[dt.itemsize]
            ops = [addr, data, self.param(buf.arg)]
        if gate is not None:
            self.open_region(gate)
        self.mem(op, *ops, imm=imm, region_ok=gate is not None)
