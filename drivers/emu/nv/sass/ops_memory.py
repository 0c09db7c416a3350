"""Loads, stores and atomics: LDG/STG, LD/ST (generic), LDS/STS, LDL/STL, LDC/ULDC, ATOMS/ATOM(G),
RED(G).

Widths come from the type modifier (.U8 .S8 .U16 .S16, none = 32 bits, .64, .128: 1, 2 or 4 registers);
the address is [Ra(.64)(.X4) + URb + offset] (desc[URx] on sm_90 names a memory descriptor, which the
virtual GPU does not need).  Atomics run lane by lane in lane order within a warp (what the hardware's
serialization of equal addresses amounts to); reductions without a returned value use numpy's
unbuffered ufunc.at.
"""
import numpy as np

from drivers.emu.nv.faults import ESR_ILLEGAL_INSTR_PARAM, SmException
from drivers.emu.nv.sass.executor import Impl, op
from drivers.emu.nv.sass.memory import (Space, classify_generic, flat_load, flat_store, global_load, global_store,
                                        local_index, shared_index, vm_groups)
from drivers.emu.nv.sass.operands import DecodeProblem, dst_reg, reg_file, src
from drivers.emu.nv.sass.state import RZ, URZ

WIDTH = {"U8": 1, "S8": 1, "U16": 2, "S16": 2, "64": 8, "128": 16, "32": 4}


def width(ins):
    return next((WIDTH[m] for m in ins.mods if m in WIDTH), 4)


def _mem_operand(ins):
    o = next((o for o in ins.operands if o.kind == "mem"), None)
    if o is None:
        raise DecodeProblem(ins, "no memory operand")
    return o


class Address:
    """[Ra(.64)(.Xn) + URb + imm] of a memory operand."""

    def __init__(self, ins, o, wide):
        has_desc, suff, reg_present, ureg_present = o.shape
        _desc, reg, ureg, off = o.holes
        self.reg = reg if reg_present and reg != RZ else None
        self.reg64 = "64" in suff
        self.scale = next((int(s[1:]) for s in suff if s in ("X4", "X8", "X16")), 1)
        self.ureg = ureg if ureg_present and ureg != URZ else None
        self.off = off
        self.wide = wide or self.reg64
        self.regs = []
        if self.reg is not None:
            self.regs = [("R", self.reg)] + ([("R", self.reg + 1)] if self.reg64 else [])
        if self.ureg is not None:
            self.regs += [("UR", self.ureg)] + ([("UR", self.ureg + 1)] if self.wide and not self.reg64 else [])

    def lanes(self, st, G, shape):
        a = np.zeros(shape, np.int64)
        if self.reg is not None:
            r = st.r(self.reg, G).astype(np.uint64)
            if self.reg64:
                r = r | (st.r(self.reg + 1, G).astype(np.uint64) << np.uint64(32))
            a = a + (r.astype(np.int64) * self.scale)
        if self.ureg is not None:
            u = st.ur(self.ureg, G).astype(np.uint64)
            if self.wide and not self.reg64:
                u = u | (st.ur(self.ureg + 1, G).astype(np.uint64) << np.uint64(32))
            a = a + u.astype(np.int64)[:, None]
        a = a + self.off
        if not self.wide:
            a = a & 0xFFFFFFFF
        return a


def _to_regs(data, size, signed_sub):
    """Bytes [k, size] -> uint32 words [k, max(1, size/4)] (sub-word values extended)."""
    if size >= 4:
        return data.view(np.uint32).reshape(len(data), size // 4)
    v = data.view(np.uint8 if size == 1 else np.uint16).reshape(len(data))
    if signed_sub:
        v = v.view(np.int8 if size == 1 else np.int16).astype(np.int32).view(np.uint32)
    return v.astype(np.uint32).reshape(-1, 1)


def _from_regs(words, size):
    """uint32 words [k, n] -> bytes [k, size]."""
    if size >= 4:
        return np.ascontiguousarray(words).view(np.uint8).reshape(len(words), size)
    return np.ascontiguousarray(words[:, 0]).astype(np.uint32).view(np.uint8).reshape(-1, 4)[:, :size]


def _write_lanes(st, G, m, d, words):
    n = words.shape[1]
    for k in range(n):
        full = np.zeros(m.shape, np.uint32)
        full[m] = words[:, k]
        st.w(d + k, G, m, full)


def _read_lanes(st, G, m, s, n):
    return np.stack([np.broadcast_to(st.r(s + k, G), m.shape)[m] if s != RZ else np.zeros(int(m.sum()), np.uint32)
                     for k in range(n)], axis=1)


def _space_of(opcode):
    return {"LDG": "global", "STG": "global", "LDS": "shared", "STS": "shared", "LDL": "local", "STL": "local",
            "LD": "generic", "ST": "generic"}[opcode]


def _gather(st, G, m, space, addrs, size, pc):
    if space == "global":
        return global_load(st.vm, addrs[m], size, pc)
    if space == "shared":
        return flat_load(st.shared, shared_index(st, G, m, addrs, size, pc), size)
    if space == "local":
        return flat_load(st.local, local_index(st, G, m, addrs, size, pc), size)
    kinds, offs = classify_generic(st, addrs)
    out = np.empty((int(m.sum()), size), np.uint8)
    k = kinds[m]
    for code, name in ((Space.GLOBAL, "global"), (Space.SHARED, "shared"), (Space.LOCAL, "local")):
        sub = m & (kinds == code)
        if sub.any():
            out[k == code] = _gather(st, G, sub, name, offs, size, pc)
    return out


def _scatter(st, G, m, space, addrs, data, pc):
    if space == "global":
        return global_store(st.vm, addrs[m], data, pc)
    if space == "shared":
        return flat_store(st.shared, shared_index(st, G, m, addrs, data.shape[1], pc), data)
    if space == "local":
        return flat_store(st.local, local_index(st, G, m, addrs, data.shape[1], pc), data)
    kinds, offs = classify_generic(st, addrs)
    k = kinds[m]
    for code, name in ((Space.GLOBAL, "global"), (Space.SHARED, "shared"), (Space.LOCAL, "local")):
        sub = m & (kinds == code)
        if sub.any():
            _scatter(st, G, sub, name, offs, data[k == code], pc)


@op("LDG", "LDS", "LDL", "LD")
def load(ins, ctx):
    d = dst_reg(ins, ins.operands[0])[1]
    size = width(ins)
    space = _space_of(ins.opcode)
    addr = Address(ins, _mem_operand(ins), wide=space in ("global", "generic"))
    signed = ins.has("S8") or ins.has("S16")
    n = max(1, size // 4)
    queue = "mio" if space == "shared" else "lsu"

    def fn(st, G, m, gm, ins):
        if not gm.any():
            return
        addrs = addr.lanes(st, G, gm.shape)
        data = _gather(st, G, gm, space, addrs, size, ins.pc)
        if d != RZ:
            _write_lanes(st, G, gm, d, _to_regs(data, size, signed))
    writes = [("R", d + k) for k in range(n)] if d != RZ else []
    return Impl(fn, addr.regs, writes, queue=queue)


@op("STG", "STS", "STL", "ST")
def store(ins, ctx):
    size = width(ins)
    space = _space_of(ins.opcode)
    addr = Address(ins, _mem_operand(ins), wide=space in ("global", "generic"))
    s = reg_file(ins.operands[-1])
    if s is None or s[0] != "R":
        raise DecodeProblem(ins, "a store source that is not a register")
    n = max(1, size // 4)
    queue = "mio" if space == "shared" else "lsu"

    def fn(st, G, m, gm, ins):
        if not gm.any():
            return
        addrs = addr.lanes(st, G, gm.shape)
        words = _read_lanes(st, G, gm, s[1], n)
        _scatter(st, G, gm, space, addrs, _from_regs(words, size), ins.pc)
    reads = addr.regs + ([("R", s[1] + k) for k in range(n)] if s[1] != RZ else [])
    return Impl(fn, reads, (), queue=queue)


@op("LDC")
def ldc(ins, ctx):
    d = dst_reg(ins, ins.operands[0])[1]
    size = width(ins)
    c = src(ins, ins.operands[1])
    n = max(1, size // 4)
    if size < 4:
        raise DecodeProblem(ins, "a sub-word LDC")

    def fn(st, G, m, gm, ins):
        if c.kind == "cbuf_idx":
            offs = st.r(c.index, G).astype(np.int64) + c.offset
            words = st.cbuf_lanes(c.bank, offs, size, gm, ins.pc)
            for k in range(n):
                st.w(d + k, G, gm, words[..., k])
        else:
            v = st.cbuf(c.bank, c.offset, size, ins.pc)
            for k in range(n):
                st.w(d + k, G, gm, np.broadcast_to(np.uint32(v >> (32 * k) & 0xFFFFFFFF), gm.shape))
    reads = [("R", c.index)] if c.kind == "cbuf_idx" else []
    return Impl(fn, reads, [("R", d + k) for k in range(n)] if d != RZ else [], queue="const")


@op("ULDC")
def uldc(ins, ctx):
    d = dst_reg(ins, ins.operands[0], ("UR",))[1]
    size = width(ins)
    c = src(ins, ins.operands[1])
    if c.kind != "cbuf":
        raise DecodeProblem(ins, "a ULDC that is not c[bank][offset]")
    n = max(1, size // 4)

    def fn(st, G, m, gm, ins):
        v = st.cbuf(c.bank, c.offset, size, ins.pc)
        warps = gm.any(axis=1)
        for k in range(n):
            st.wur(d + k, G, warps, np.uint32(v >> (32 * k) & 0xFFFFFFFF))
    return Impl(fn, (), [("UR", d + k) for k in range(n)] if d != URZ else [])


# -- atomics --------------------------------------------------------------------------------------

_ATOM_OPS = ("ADD", "MIN", "MAX", "INC", "DEC", "AND", "OR", "XOR", "EXCH", "CAS", "CAST")


def _atom_type(ins):
    if ins.has("F32") or ins.has("F32x"):
        return np.float32
    if ins.has("F16x2"):
        raise DecodeProblem(ins, "f16x2 atomics")
    if ins.has("64") or ins.has("U64") or ins.has("S64"):
        return np.int64 if ins.has("S64") else np.uint64
    if ins.has("S32"):
        return np.int32
    return np.uint32


def _apply(opname, old, val, cmp_=None):
    if opname == "ADD":
        return old + val
    if opname == "MIN":
        return min(old, val)
    if opname == "MAX":
        return max(old, val)
    if opname == "INC":
        return 0 if old >= val else old + 1
    if opname == "DEC":
        return val if old == 0 or old > val else old - 1
    if opname == "AND":
        return old & val
    if opname == "OR":
        return old | val
    if opname == "XOR":
        return old ^ val
    if opname == "EXCH":
        return val
    if opname == "CAS":
        return val if old == cmp_ else old
    raise AssertionError(opname)


def _atomic(ins, space):
    ops = list(ins.operands)
    pout = None
    if reg_file(ops[0]) and reg_file(ops[0])[0] == "P":
        pout, ops = ops[0], ops[1:]
    if space != "reduce":
        d = dst_reg(ins, ops[0])[1]
        ops = ops[1:]
    else:
        d = RZ
    mem_i = next(i for i, o in enumerate(ops) if o.kind == "mem")
    addr = Address(ins, ops[mem_i], wide=space != "shared")
    vals = [reg_file(o)[1] if reg_file(o) else None for o in ops[mem_i + 1:]]
    opname = next((m for m in ins.mods if m in _ATOM_OPS), None)
    popc_inc = ins.has("POPC") and ins.has("INC")
    if popc_inc:
        opname = "ADD"          # each lane adds one (the hardware adds the popcount of lanes per address)
    if opname is None:
        raise DecodeProblem(ins, "no atomic operation")
    if opname == "CAST":
        raise DecodeProblem(ins, "ATOMS.CAST (a spin-lock compare-and-store)")
    dtype = _atom_type(ins)
    size = np.dtype(dtype).itemsize
    n = size // 4
    where = "shared" if space == "shared" else "global"
    del pout

    def fn(st, G, m, gm, ins):
        if not gm.any():
            return
        addrs = addr.lanes(st, G, gm.shape)
        k = int(gm.sum())
        if popc_inc:
            operand = np.ones(k, np.uint64)
        else:
            words = _read_lanes(st, G, gm, vals[0], n)
            operand = words.view(dtype).reshape(k) if n else words
        cmp_vals = None
        if opname == "CAS":
            cmp_vals = operand
            operand = _read_lanes(st, G, gm, vals[1], n).view(dtype).reshape(k)
        if where == "shared":
            idx = shared_index(st, G, gm, addrs, size, ins.pc)
            mem, offs = st.shared.reshape(-1), idx
            groups = [(mem, offs, None)]
        else:
            groups = vm_groups(st.vm, addrs[gm], size, True, ins.pc)
            for _, o, _ in groups:
                if (o % size).any():
                    raise SmException(ESR_ILLEGAL_INSTR_PARAM, ins.pc, "misaligned atomic")
        old = np.zeros(k, dtype)
        for mem, offs, sel in groups:
            view = mem.view(dtype) if mem.size % size == 0 else None
            if view is None:
                raise SmException(ESR_ILLEGAL_INSTR_PARAM, ins.pc, "atomic on memory of odd size")
            index = offs // size
            lanes = np.arange(k) if sel is None else sel
            if d == RZ and opname in ("ADD", "MIN", "MAX", "AND", "OR", "XOR") and cmp_vals is None:
                ufunc = {"ADD": np.add, "MIN": np.minimum, "MAX": np.maximum, "AND": np.bitwise_and,
                         "OR": np.bitwise_or, "XOR": np.bitwise_xor}[opname]
                ufunc.at(view, index, operand[lanes].astype(dtype))
                continue
            for j, lane in zip(index.tolist(), lanes.tolist()):
                cur = view[j]
                old[lane] = cur
                view[j] = _apply(opname, cur, operand[lane], cmp_vals[lane] if cmp_vals is not None else None)
        if d != RZ:
            _write_lanes(st, G, gm, d, old.view(np.uint32).reshape(k, n))
    reads = addr.regs + [("R", v + j) for v in vals if v is not None and v != RZ for j in range(n)]
    writes = [("R", d + j) for j in range(n)] if d != RZ else []
    return Impl(fn, reads, writes, queue="mio" if space == "shared" else "lsu")


@op("ATOMS")
def atoms(ins, ctx):
    return _atomic(ins, "shared")


@op("ATOM", "ATOMG")
def atomg(ins, ctx):
    return _atomic(ins, "global")


@op("RED", "REDG")
def red(ins, ctx):
    return _atomic(ins, "reduce")
