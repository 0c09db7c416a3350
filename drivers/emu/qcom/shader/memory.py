"""cat6: global memory (ldg/stg, atomic.g), IBOs (ldib/stib/atomic.b, resinfo), local memory
(ldl/stl, ldlw/stlw, atomic.*.l), private memory (ldp/stp), UBO loads (ldc), stc, getfiberid.

Addresses: ``ldg``/``stg`` take a 64-bit address from a register pair (SRC1 = low word, the next
register the high word) plus a signed byte offset; the ``.a`` forms add
``((SRC2 << SRC2_SHIFT) + OFF) << log2(element size)``. IBO instructions take an element index
(the descriptor's format gives the element size) and read or write TYPE_SIZE consecutive
elements; an index past the descriptor's size is an error naming the IBO. Local addresses are
byte offsets into the workgroup's local memory, private ones into the fiber's slot of the
private memory SP_CS_PVT_MEM_* describe.

Every access goes through the GPU VM: an unmapped byte is a MemoryFault with its VA, a store
to a GPU-read-only buffer a ReadOnly fault, and an access not aligned to its element size a
fault too (the hardware's load/store units require natural alignment). Stores and atomics of
one instruction take effect in fiber order (the highest fiber wins a store to a shared address;
atomics return what each fiber saw in that order).
"""
import numpy as np

from drivers.emu.faults import NOT_PRESENT, READ_ONLY, MemoryFault
from drivers.errors import GPUError

from . import convert as C
from .alu import _writer
from .op import SS, SY, WAR_EITHER, WAR_SS, Op
from .operands import Imm, Reg
from .state import units

ELEMENT_BYTES = {C.F16: 2, C.F32: 4, C.U16: 2, C.U32: 4, C.S16: 2, C.S32: 4, C.U8: 1, C.U8_32: 1}
ATOMIC_OPS = ("add", "sub", "xchg", "inc", "dec", "cmpxchg", "min", "max", "and", "or", "xor")


# -- the GPU VM, vectorized ------------------------------------------------------------------------
def _groups(vm, addrs, span, write):
    """[(VMRange, positions)] covering every address of ``addrs`` (+ span bytes)."""
    lo, hi = int(addrs.min()), int(addrs.max()) + span
    r = vm.lookup(lo)
    if r is not None and hi <= r.end:
        if write and not r.writable:
            raise MemoryFault(lo, READ_ONLY, True)
        return [(r, np.arange(addrs.size))]
    out = {}
    for k, a in enumerate(addrs.tolist()):
        r = vm.lookup(a)
        if r is None or a + span > r.end:
            bad = a if r is None else r.end
            raise MemoryFault(bad, NOT_PRESENT, write)
        if write and not r.writable:
            raise MemoryFault(a, READ_ONLY, True)
        out.setdefault(r.start, (r, []))[1].append(k)
    return [(r, np.array(ks)) for r, ks in out.values()]


def _view(r, addrs, itemsize, write):
    """(typed view of the range, element indices) for aligned ``addrs`` inside range ``r``."""
    off = addrs - np.uint64(r.start)
    if itemsize > 1:
        bad = (off % np.uint64(itemsize)) != 0
        if bad.any():
            raise MemoryFault(int(addrs[np.flatnonzero(bad)[0]]), "Misaligned", write,
                              f"{itemsize}-byte access not aligned to {itemsize} bytes")
    dtype = {1: np.uint8, 2: np.uint16, 4: np.uint32}[itemsize]
    return r.mem.view(dtype), (off // np.uint64(itemsize)).astype(np.int64)


def vm_load(vm, addrs, itemsize, count):
    """(count, n) elements at ``addrs`` (n addresses), element k at addr + k * itemsize."""
    out = np.zeros((count, addrs.size), {1: np.uint8, 2: np.uint16, 4: np.uint32}[itemsize])
    if addrs.size == 0:
        return out
    for r, pos in _groups(vm, addrs, itemsize * count, False):
        view, idx = _view(r, addrs[pos], itemsize, False)
        for k in range(count):
            out[k, pos] = view[idx + k]
    return out


def vm_store(vm, addrs, itemsize, values):
    """values: (count, n) elements for the n addresses."""
    if addrs.size == 0:
        return
    count = values.shape[0]
    for r, pos in _groups(vm, addrs, itemsize * count, True):
        view, idx = _view(r, addrs[pos], itemsize, True)
        for k in range(count):
            view[idx + k] = values[k, pos]


def atomic(view, idx, op, data, compare=None, signed=False, bits=32):
    """Apply ``op`` at view[idx[k]] for k in order; returns the old values."""
    mask = (1 << bits) - 1
    idx = np.asarray(idx, np.int64)
    data = np.asarray(data).astype(np.int64) & mask
    if op in ("add", "sub", "inc", "dec"):
        delta = {"add": data, "sub": -data, "inc": np.ones_like(data), "dec": -np.ones_like(data)}[op]
        if op in ("inc", "dec"):
            raise GPUError(f"atomic {op} is not emulated (mesa never emits it on a6xx)")
        order = np.argsort(idx, kind="stable")
        s_idx, s_delta = idx[order], delta[order]
        csum = np.cumsum(s_delta)
        start = np.r_[True, s_idx[1:] != s_idx[:-1]]
        group_first = np.maximum.accumulate(np.where(start, np.arange(s_idx.size), 0))
        before = csum - s_delta - (csum[group_first] - s_delta[group_first])
        base = view[s_idx].astype(np.int64)
        old_sorted = (base + before) & mask
        old = np.empty_like(old_sorted)
        old[order] = old_sorted
        last = np.r_[s_idx[1:] != s_idx[:-1], True]
        view[s_idx[last]] = ((base + before + s_delta)[last] & mask).astype(view.dtype)
        return old
    old = np.empty(idx.size, np.int64)
    for k in range(idx.size):
        i = idx[k]
        o = int(view[i])
        old[k] = o
        d = int(data[k])
        if op == "xchg":
            n = d
        elif op == "cmpxchg":
            n = d if o == int(compare[k]) & mask else o
        elif op in ("min", "max"):
            if signed:
                so, sd = (o - (1 << bits) if o >> (bits - 1) else o), (d - (1 << bits) if d >> (bits - 1) else d)
                n = (min if op == "min" else max)(so, sd) & mask
            else:
                n = (min if op == "min" else max)(o, d)
        elif op == "and":
            n = o & d
        elif op == "or":
            n = o | d
        else:
            n = o ^ d
        view[i] = n
    return old


# -- helpers ---------------------------------------------------------------------------------------
def _pair(wg, regid):
    """64-bit addresses from a register pair."""
    return wg.full(regid).astype(np.uint64) | (wg.full(regid + 1).astype(np.uint64) << np.uint64(32))


def _reg_rows(regid, count, half=False):
    return [u for k in range(count) for u in units(regid + k, half)]


def _u(*regids):
    """Hazard units of full registers."""
    return [u for r in regids for u in units(r)]


def _src(f, name, pc, limits, half=False):
    """A #cat6-src operand: an immediate when its *_IM bit is set, else a register."""
    raw = f[name]
    if f.get(name + "_IM"):
        return Imm(raw, False)
    return Reg(raw, half, 0, limits, pc)


def _regs_write(x, dst, half, values, active, pc):
    """Write rows of ``values`` (count, F) to consecutive registers from ``dst``."""
    for k in range(values.shape[0]):
        if half:
            x.wg.write_half(dst + k, values[k], active, pc)
        else:
            x.wg.write_full(dst + k, values[k], active, pc)


def _regs_read(x, src, half, count):
    wg = x.wg
    return np.stack([wg.half(src + k) if half else wg.full(src + k) for k in range(count)])


def _widen(values, type_, half):
    """Loaded elements -> register bits (u8 zero-extends into a half or full register)."""
    return values.astype(np.uint16 if half else np.uint32)


# -- global ----------------------------------------------------------------------------------------
def _global(ins, pc, limits):
    f, name = ins.fields, ins.name
    t = f["TYPE"]
    half = bool(f.get("TYPE_HALF"))
    size = ELEMENT_BYTES[t]
    count = f["SIZE"]
    if not 1 <= count <= 4:
        raise GPUError(f"PC 0x{pc:x}: {ins.text}: SIZE {count} (1..4 components)")
    base = f["SRC1"]
    Reg(base, False, 1, limits, pc)
    reads = _u(base, base + 1)
    shifted = name.endswith(".a")
    if shifted:
        idx_reg = f["SRC2"]
        Reg(idx_reg, False, 0, limits, pc)
        reads += _u(idx_reg)
        shift2, off, tshift = f.get("SRC2_SHIFT", 0), f.get("OFF", 0), f["TYPE_SHIFT"]
    else:
        off = f.get("OFF", 0)

    def addresses(x, active):
        a = _pair(x.wg, base)[active]
        if shifted:
            i = x.wg.full(idx_reg)[active].astype(np.uint64)
            a = a + (((i << np.uint64(shift2)) + np.uint64(off)) << np.uint64(tshift))
        else:
            a = a + np.uint64(off & 0xFFFFFFFFFFFFFFFF) if off >= 0 else a - np.uint64(-off)
        return a

    if name.startswith("ldg"):
        dst = f["DST"]
        write_rows = _reg_rows(dst, count, half)
        for k in range(count):
            Reg(dst + k, half, 0, limits, pc)

        def run(x, active):
            vals = vm_load(x.ctx.vm, addresses(x, active), size, count)
            full = np.zeros((count, x.wg.F), vals.dtype)
            full[:, active] = vals
            _regs_write(x, dst, half, _widen(full, t, half), active, pc)
        return Op(pc, ins, run, reads, write_rows, produces=SY, war=WAR_EITHER)
    value = f["SRC3"]
    for k in range(count):
        Reg(value + k, half, 0, limits, pc)
    reads += _reg_rows(value, count, half)
    dtype = {1: np.uint8, 2: np.uint16, 4: np.uint32}[size]

    def run(x, active):
        vals = _regs_read(x, value, half, count)[:, active].astype(dtype)
        vm_store(x.ctx.vm, addresses(x, active), size, vals)
    return Op(pc, ins, run, reads, (), war=WAR_SS)


def _atomic_global(ins, pc, limits):
    f, name = ins.fields, ins.name
    op = name.split(".")[-1]
    t = f["TYPE"]
    if t not in (C.U32, C.S32):
        raise GPUError(f"PC 0x{pc:x}: {ins.text}: global atomics on type {t} are not emulated (u32, s32)")
    if f.get("SRC1_IM") or f.get("SRC2_IM"):
        raise GPUError(f"PC 0x{pc:x}: {ins.text}: atomic.g takes registers")
    addr, data, dst = f["SRC1"], f["SRC2"], f["DST"]
    for r in (addr, addr + 1, data, dst):
        Reg(r, False, 0, limits, pc)
    reads = _u(addr, addr + 1, data) + (_u(data + 1) if op == "cmpxchg" else [])

    def run(x, active):
        wg = x.wg
        a = _pair(wg, addr)[active]
        d = wg.full(data)[active]
        cmp = wg.full(data + 1)[active] if op == "cmpxchg" else None
        old = np.zeros(wg.F, np.uint32)
        if a.size:
            vals = old[active]
            for r, pos in _groups(x.ctx.vm, a, 4, True):
                view, idx = _view(r, a[pos], 4, True)
                vals[pos] = atomic(view, idx, op, d[pos], None if cmp is None else cmp[pos], t == C.S32)
            old[active] = vals
        wg.write_full(dst, old, active, pc)
    return Op(pc, ins, run, reads, _u(dst), produces=SY, war=WAR_EITHER)


# -- IBOs ------------------------------------------------------------------------------------------
def _ibo_index(x, ssbo, active, pc, text):
    """The IBO slot: an immediate, or a register every active fiber must agree on."""
    if isinstance(ssbo, Imm):
        return int(ssbo.value)
    v = ssbo.read(x.wg, x.ctx)[active]
    if v.size and (v != v[0]).any():
        raise GPUError(f"PC 0x{pc:x}: {text}: fibers index different IBOs in one instruction (not emulated)")
    return int(v[0]) if v.size else 0


def _ibo_access(x, ibo, coord, count, pc, text, write):
    """(typed view, element indices (n, count)) of IBO ``ibo`` at element ``coord``."""
    end = coord.astype(np.int64) + count
    if end.size and int(end.max()) > ibo.elements:
        k = int(np.argmax(end))
        raise GPUError(f"PC 0x{pc:x}: {text}: element {int(coord[k])} (+{count}) is past the end of IBO {ibo.index} "
                       f"({ibo.elements} elements of {ibo.element_bytes} bytes at 0x{ibo.base:x})")
    addrs = np.uint64(ibo.base) + coord.astype(np.uint64) * np.uint64(ibo.element_bytes)
    return addrs


def _ibo(ins, pc, limits):
    f, name = ins.fields, ins.name
    if f.get("BINDLESS"):
        raise GPUError(f"PC 0x{pc:x}: {ins.text}: bindless IBOs are not emulated")
    if f.get("TYPED") and name != "resinfo.b":
        raise GPUError(f"PC 0x{pc:x}: {ins.text}: typed (image) access is not emulated; use .untyped")
    ssbo = _src(f, "SSBO", pc, limits)
    t = f["TYPE"]
    if name == "resinfo.b":
        dst = f["DST"]

        def run(x, active):
            ibo = x.ctx.ibo(_ibo_index(x, ssbo, active, pc, ins.text), pc)
            for k, v in enumerate((ibo.elements, 1, 1)):
                x.wg.write_full(dst + k, np.uint32(v), active, pc)
        return Op(pc, ins, run, ssbo.rows(), _reg_rows(dst, 3), produces=SS)
    half = bool(f.get("TYPE_HALF"))
    count = f.get("TYPE_SIZE", 1)
    if f.get("D", 1) != 1:
        raise GPUError(f"PC 0x{pc:x}: {ins.text}: only 1d (buffer) IBO access is emulated")
    values, coord_reg = f["SRC1"], f["SRC2"]
    offset = f.get("OFFSET", 0)
    for k in range(count):
        Reg(values + k, half, 0, limits, pc)
    Reg(coord_reg, False, 0, limits, pc)
    reads = _u(coord_reg) + list(ssbo.rows())
    vrows = _reg_rows(values, count, half)

    def target(x, active):
        ibo = x.ctx.ibo(_ibo_index(x, ssbo, active, pc, ins.text), pc)
        if ibo.element_bytes != ELEMENT_BYTES[t] and t != C.U8_32:
            raise GPUError(f"PC 0x{pc:x}: {ins.text}: {C.TYPE_NAMES[t]} access to IBO {ibo.index} whose format "
                           f"{ibo.format} has {ibo.element_bytes}-byte elements")
        coord = x.wg.full(coord_reg)[active].astype(np.int64) + offset
        return ibo, _ibo_access(x, ibo, coord, count, pc, ins.text, name != "ldib.b")

    if name == "ldib.b":
        def run(x, active):
            ibo, addrs = target(x, active)
            vals = vm_load(x.ctx.vm, addrs, ibo.element_bytes, count)
            full = np.zeros((count, x.wg.F), vals.dtype)
            full[:, active] = vals
            _regs_write(x, values, half, _widen(full, t, half), active, pc)
        return Op(pc, ins, run, reads, vrows, produces=SY, war=WAR_EITHER)
    if name == "stib.b":
        def run(x, active):
            ibo, addrs = target(x, active)
            dtype = {1: np.uint8, 2: np.uint16, 4: np.uint32}[ibo.element_bytes]
            vm_store(x.ctx.vm, addrs, ibo.element_bytes, _regs_read(x, values, half, count)[:, active].astype(dtype))
        return Op(pc, ins, run, reads + vrows, (), war=WAR_SS)
    op = name.split(".")[-1]
    if t not in (C.U32, C.S32):
        raise GPUError(f"PC 0x{pc:x}: {ins.text}: IBO atomics on {C.TYPE_NAMES[t]} are not emulated (u32, s32)")
    data_rows = _u(values, values + 1) if op == "cmpxchg" else _u(values)

    def run(x, active):
        wg = x.wg
        ibo, addrs = target(x, active)
        d = wg.full(values)[active]
        cmp = wg.full(values + 1)[active] if op == "cmpxchg" else None
        old = np.zeros(wg.F, np.uint32)
        if addrs.size:
            vals = old[active]
            for r, pos in _groups(x.ctx.vm, addrs, 4, True):
                view, idx = _view(r, addrs[pos], 4, True)
                vals[pos] = atomic(view, idx, op, d[pos], None if cmp is None else cmp[pos], t == C.S32)
            old[active] = vals
        wg.write_full(values, old, active, pc)      # the old value comes back in SRC1
    return Op(pc, ins, run, reads + data_rows, _u(values), produces=SY, war=WAR_EITHER)


# -- local and private -----------------------------------------------------------------------------
def _local_bytes(x, addrs, span, pc, text):
    n = x.wg.local.size
    if addrs.size and (int(addrs.min()) < 0 or int(addrs.max()) + span > n):
        k = int(np.argmax(addrs)) if int(addrs.max()) + span > n else int(np.argmin(addrs))
        raise GPUError(f"PC 0x{pc:x}: {text}: local memory byte {int(addrs[k])} (+{span}) is outside the "
                       f"workgroup's {n} bytes (SP_CS_UNKNOWN_A9B1.SHARED_SIZE / the program's @localmem)")


def _local_view(x, itemsize, addrs, pc, text):
    if itemsize > 1 and addrs.size and ((addrs % itemsize) != 0).any():
        k = int(np.flatnonzero(addrs % itemsize)[0])
        raise GPUError(f"PC 0x{pc:x}: {text}: local memory byte {int(addrs[k])} is not {itemsize}-byte aligned")
    return x.wg.local.view({1: np.uint8, 2: np.uint16, 4: np.uint32}[itemsize]), addrs // itemsize


def _private_addrs(x, offs, active, span, pc, text):
    base, per_fiber, slots = x.ctx.private
    if per_fiber == 0:
        raise GPUError(f"PC 0x{pc:x}: {text}: private memory access, but the dispatch has none "
                       "(SP_CS_PVT_MEM_PARAM.MEMSIZEPERITEM is 0)")
    if offs.size and (int(offs.min()) < 0 or int(offs.max()) + span > per_fiber):
        raise GPUError(f"PC 0x{pc:x}: {text}: private offset outside the {per_fiber} bytes per fiber")
    fibers = np.flatnonzero(active)
    slot = x.ctx.private_slot(x.wg, fibers)
    if slot.size and int(slot.max()) >= slots:
        raise GPUError(f"PC 0x{pc:x}: {text}: private memory of {slots} fiber slots is too small for this dispatch")
    return np.uint64(base) + slot.astype(np.uint64) * np.uint64(per_fiber) + offs.astype(np.uint64)


def _local_private(ins, pc, limits):
    f, name = ins.fields, ins.name
    t = f["TYPE"]
    half = bool(f.get("TYPE_HALF")) and name in ("ldp", "stp")
    if name in ("ldl", "ldlw", "stl", "stlw") and t in (C.F16, C.U16, C.S16, C.U8):
        half = True
    size = ELEMENT_BYTES[t]
    count = f["SIZE"]
    if not 1 <= count <= 4:
        raise GPUError(f"PC 0x{pc:x}: {ins.text}: SIZE {count} (1..4 components)")
    off = f.get("OFF", 0)
    load = name.startswith("ld")
    addr_reg = f["SRC"] if load else f["DST"]
    Reg(addr_reg, False, 0, limits, pc)
    local = name != "ldp" and name != "stp"
    dtype = {1: np.uint8, 2: np.uint16, 4: np.uint32}[size]

    def addresses(x, active):
        offs = x.wg.full(addr_reg)[active].view(np.int32).astype(np.int64) + off
        if local:
            _local_bytes(x, offs, size * count, pc, ins.text)
            return offs
        return _private_addrs(x, offs, active, size * count, pc, ins.text)

    if load:
        dst = f["DST"]
        for k in range(count):
            Reg(dst + k, half, 0, limits, pc)

        def run(x, active):
            a = addresses(x, active)
            if local:
                view, idx = _local_view(x, size, a, pc, ins.text)
                vals = np.stack([view[idx + k] for k in range(count)]) if a.size else np.zeros((count, 0), dtype)
            else:
                vals = vm_load(x.ctx.vm, a, size, count)
            full = np.zeros((count, x.wg.F), dtype)
            full[:, active] = vals
            _regs_write(x, dst, half, _widen(full, t, half), active, pc)
        return Op(pc, ins, run, _u(addr_reg), _reg_rows(dst, count, half),
                  produces=SS if local else SY, war=WAR_SS if local else WAR_EITHER)
    src = f["SRC"]
    for k in range(count):
        Reg(src + k, half, 0, limits, pc)

    def run(x, active):
        a = addresses(x, active)
        vals = _regs_read(x, src, half, count)[:, active].astype(dtype)
        if local:
            view, idx = _local_view(x, size, a, pc, ins.text)
            for k in range(count):
                view[idx + k] = vals[k]
        else:
            vm_store(x.ctx.vm, a, size, vals)
    return Op(pc, ins, run, _u(addr_reg) + _reg_rows(src, count, half), (), war=WAR_SS)


def _atomic_local(ins, pc, limits):
    f, name = ins.fields, ins.name
    op = name.split(".")[-1]
    t = f["TYPE"]
    if t not in (C.U32, C.S32):
        raise GPUError(f"PC 0x{pc:x}: {ins.text}: local atomics on {C.TYPE_NAMES[t]} are not emulated (u32, s32)")
    addr = _src(f, "SRC1", pc, limits)
    data = _src(f, "SRC2", pc, limits)
    dst = f["DST"]
    Reg(dst, False, 0, limits, pc)
    if op == "cmpxchg" and not isinstance(data, Reg):
        raise GPUError(f"PC 0x{pc:x}: {ins.text}: cmpxchg takes its (new, compare) pair in registers")
    reads = list(addr.rows()) + list(data.rows()) + (_u(data.regid + 1) if op == "cmpxchg" else [])

    def run(x, active):
        wg = x.wg
        a = addr.read(wg, x.ctx)[active].astype(np.int64)
        _local_bytes(x, a, 4, pc, ins.text)
        view, idx = _local_view(x, 4, a, pc, ins.text)
        d = data.read(wg, x.ctx)[active]
        cmp = wg.full(data.regid + 1)[active] if op == "cmpxchg" else None
        old = np.zeros(wg.F, np.uint32)
        if a.size:
            old[active] = atomic(view, idx, op, d, cmp, t == C.S32)
        wg.write_full(dst, old, active, pc)
    return Op(pc, ins, run, reads, _u(dst), produces=SS, war=WAR_SS)


# -- consts and ids --------------------------------------------------------------------------------
def _ldc(ins, pc, limits):
    f = ins.fields
    if f.get("BINDLESS"):
        raise GPUError(f"PC 0x{pc:x}: {ins.text}: bindless UBOs are not emulated")
    offset_reg = _src(f, "SRC1", pc, limits)
    ubo = _src(f, "SRC2", pc, limits)
    dst, count, comp = f["DST"], f.get("TYPE_SIZE", 1), f.get("OFFSET", 0)
    for k in range(count):
        Reg(dst + k, False, 0, limits, pc)

    def run(x, active):
        index = _ibo_index(x, ubo, active, pc, ins.text)
        base, size = x.ctx.ubo(index, pc)
        vec4 = offset_reg.read(x.wg, x.ctx)[active].astype(np.int64)
        byte = vec4 * 16 + comp * 4
        if byte.size and int(byte.max()) + 4 * count > size:
            raise GPUError(f"PC 0x{pc:x}: {ins.text}: UBO {index} read at byte {int(byte.max())} (+{4 * count}) "
                           f"past its {size} bytes")
        vals = vm_load(x.ctx.vm, np.uint64(base) + byte.astype(np.uint64), 4, count)
        full = np.zeros((count, x.wg.F), np.uint32)
        full[:, active] = vals
        _regs_write(x, dst, False, full, active, pc)
    return Op(pc, ins, run, list(offset_reg.rows()) + list(ubo.rows()), _reg_rows(dst, count), produces=SY,
              war=WAR_EITHER)


def _stc(ins, pc, limits):
    """stc c[N], rS, SIZE: SIZE registers into const words N.. (the preamble's uniform results)."""
    f = ins.fields
    raw = f["DST"]
    if raw & 0x100:
        raise GPUError(f"PC 0x{pc:x}: {ins.text}: stc relative to a1.x is not emulated")
    word, src, count, t = raw & 0xFF, f["SRC"], f["SIZE"], f["TYPE"]
    if t in (C.F16, C.U16, C.S16):
        raise GPUError(f"PC 0x{pc:x}: {ins.text}: 16-bit stc is not emulated")
    for k in range(count):
        limits.check_const(word + k, f"{ins.text} at PC 0x{pc:x}")
        Reg(src + k, False, 0, limits, pc)

    def run(x, active):
        wg = x.wg
        fibers = np.flatnonzero(active)
        if fibers.size:
            for k in range(count):
                x.ctx.consts[word + k] = wg.full(src + k)[fibers[0]]
    return Op(pc, ins, run, _reg_rows(src, count), (), war=WAR_SS)


def _getfiberid(ins, pc, limits):
    dst = ins.fields["DST"]
    half = bool(ins.fields.get("TYPE_HALF"))
    write, rows = _writer(dst, half, pc, limits)

    def run(x, active):
        write(x, 0, x.wg.lane.astype(np.uint16 if half else np.uint32), active)
    return Op(pc, ins, run, (), rows)


def build_cat6(ins, pc, limits):
    name = ins.name
    if name in ("ldg", "ldg.a", "stg", "stg.a"):
        return _global(ins, pc, limits)
    if name.startswith("atomic.g."):
        return _atomic_global(ins, pc, limits)
    if name in ("ldib.b", "stib.b", "resinfo.b") or name.startswith("atomic.b."):
        return _ibo(ins, pc, limits)
    if name in ("ldl", "ldlw", "stl", "stlw", "ldp", "stp"):
        return _local_private(ins, pc, limits)
    if name.startswith("atomic.") and name.split(".")[1] in ATOMIC_OPS:
        return _atomic_local(ins, pc, limits)
    if name == "ldc":
        return _ldc(ins, pc, limits)
    if name == "stc":
        return _stc(ins, pc, limits)
    if name == "getfiberid":
        return _getfiberid(ins, pc, limits)
    raise GPUError(f"PC 0x{pc:x}: {ins.text}: {name} is not emulated")

