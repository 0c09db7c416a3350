"""DS instructions: LDS loads, stores and atomics, and the LDS-crossbar lane permutes.

Each workgroup owns ``lds_bytes`` of the batch's LDS array.  As the ISA specifies for LDS, an
access whose bytes are not all inside the workgroup's allocation reads 0 and its write is
dropped; the GPU VM is never involved.  Only lanes with EXEC set read or write LDS.
ds_bpermute/ds_permute/ds_swizzle move data between lanes of one wave; a lane whose EXEC bit is
clear contributes 0.
"""
import numpy as np

from drivers.emu.faults import IllegalInstruction

from . import atomics
from .lanesets import lane_set, lds_words, put_steps, put_words
from .lanesets import store_words as put_lds
from .memory import (LOAD_KINDS, STORE_KINDS, active_lanes, apply_at_once, lane_regs, lane_values, order_free,
                     short_atomic, store_bytes, take_into, to_lanes, write_lane_values)
from .state import EXEC_LO, M0, WAVE32
from .vmaccess import lane_major, read_index, write_index

U32, I64 = np.uint32, np.int64


# DS spells its d16 loads differently from FLAT: ds_load_u8_d16_hi is global_load_d16_hi_u8
DS_D16_LOADS = {"u8_d16": "d16_u8", "u8_d16_hi": "d16_hi_u8", "i8_d16": "d16_i8",
                "i8_d16_hi": "d16_hi_i8", "u16_d16": "d16_b16", "u16_d16_hi": "d16_hi_b16"}


def _inside(st, off, nbytes):
    return (off >= 0) & (off + nbytes <= st.lds_bytes)


def lds_word_index(st, acc, off, nbytes):
    """Dword indices into ``st.lds32`` of a dword-multiple access at workgroup-relative offsets
    ``off`` (uint32, one per accessing lane): one bounds check and one alignment check for
    the whole access; None when a lane is out of range or unaligned (the byte path decides)."""
    last = st.lds_bytes - nbytes                      # the highest offset an access may start at
    if last < 0:
        return None
    if st.lds_bytes & 3:                              # workgroups not dword-aligned: check each address
        if off.max() > last:
            return None
        rows = st.wave_ids[acc.sel].repeat(WAVE32) if acc.dense else acc.rows
        addr = np.add(off, st.wg[rows] * st.lds_bytes, dtype=np.intp)
        return None if np.count_nonzero(addr & 3) else addr >> 2
    # the OR of the offsets is at least the largest one: one reduction checks the alignment and,
    # unless it exceeds the bound, the range too
    bits = int(np.bitwise_or.reduce(off))
    if bits & 3 or bits > last and int(off.max()) > last:
        return None
    w = (off >> np.uint32(2)).astype(np.intp)
    w += _lane_words(st, acc)
    return w


def _lane_word_bases(st):
    base = st.lds_lane_words
    if base is None:
        base = st.lds_lane_words = np.repeat(st.wg * (st.lds_bytes >> 2), WAVE32).astype(np.intp)
        base.flags.writeable = False
    return base


def _lane_words(st, acc):
    """intp (N,): where the LDS of each accessing lane's workgroup starts in ``st.lds32``, from
    one array of every lane of the batch (made at the first LDS access; read-only).  Offsets and
    bases are added as one same-typed 1-D add: uint32 (w, 32) plus intp (w, 1) broadcasts
    through numpy's slow mixed-type path."""
    base = _lane_word_bases(st)
    if acc.flat is not None:
        return base[acc.flat]
    sel = acc.sel
    if type(sel) is slice:
        start, stop, _ = sel.indices(st.W)
        return base[start * WAVE32:stop * WAVE32]
    return base.reshape(-1, WAVE32)[sel].reshape(-1)


DENSE_FAST = True          # lanesets.py's short paths (tests compare them with the general one)


def lds_read_words(st, acc, off, k):
    """(N, k) uint32 read at ``off`` by the accessing lanes (the byte path when not aligned or
    partly outside the allocation)."""
    w = lds_word_index(st, acc, off, 4 * k)
    if w is None:
        return np.ascontiguousarray(lds_read(st, acc.rows, off.astype(I64), 4 * k)).view(U32)
    if k == 1:
        return np.take(st.lds32, w)[:, None]
    return np.take(st.lds32, read_index(w, k)).T


def lds_write_words(st, acc, off, values):
    """Store (N, k) uint32 at ``off`` (the last lane wins where addresses repeat)."""
    k = values.shape[1]
    w = lds_word_index(st, acc, off, 4 * k)
    if w is None:
        lds_write(st, acc.rows, off.astype(I64), np.ascontiguousarray(values).view(np.uint8))
    elif k == 1:
        st.lds32[w] = values[:, 0]
    else:
        st.lds32[write_index(w, k)] = lane_major(values)


def lds_read(st, rows, off, nbytes):
    """(N, nbytes) uint8 read by lanes of waves ``rows`` at workgroup-relative offsets ``off``."""
    ok = _inside(st, off, nbytes)
    base = st.wg[rows] * st.lds_bytes + np.where(ok, off, 0)
    out = st.lds[base[:, None] + np.arange(nbytes)]
    out[~ok] = 0
    return out


def lds_write(st, rows, off, data):
    nbytes = data.shape[1]
    ok = _inside(st, off, nbytes)
    if not ok.all():
        rows, off, data = rows[ok], off[ok], data[ok]
    base = st.wg[rows] * st.lds_bytes + off
    st.lds[base[:, None] + np.arange(nbytes)] = data


def lds_atomic(st, rows, off, name, src, cmp, returns=True):
    """Each lane's read-modify-write in lane order; the values before, or None when not
    ``returns`` (then order-free operations apply at once: memory.ORDER_FREE)."""
    nbytes = src.dtype.itemsize
    dt = src.dtype
    ok = _inside(st, off, nbytes)
    idx = np.flatnonzero(ok)
    if idx.size == 0:
        return np.zeros(rows.shape[0], dt) if returns else None
    addr = st.wg[rows[idx]] * st.lds_bytes + off[idx]
    aligned = not np.count_nonzero(addr % nbytes)
    if aligned and not returns and order_free(name):
        apply_at_once(st.lds.view(dt), addr // nbytes, name, src[idx])
        return None
    old_all = np.zeros(rows.shape[0], dt)
    if aligned:                                                            # typed elements
        old_all[idx] = atomics.apply(st.lds.view(dt), addr // nbytes, name, src[idx],
                                     None if cmp is None else cmp[idx])
        return old_all
    f = atomics.OPS[name]
    for batch in atomics.rounds(addr):
        lanes_idx = idx[batch]
        where = addr[batch][:, None] + np.arange(nbytes)
        old = np.ascontiguousarray(st.lds[where]).view(dt)[:, 0]
        new = f(old, src[lanes_idx], None if cmp is None else cmp[lanes_idx]).astype(dt)
        st.lds[where] = new.view(np.uint8).reshape(-1, nbytes)
        old_all[lanes_idx] = old
    return old_all


def lds_address(st, acc, addr, offset):
    """ADDR + OFFSET per active lane, summed in 32 bits: the adder wraps, and LLVM relies on it
    when it folds a positive offset onto a negative base (63 - lid written as -4*lid + 252)."""
    return (lane_regs(st, acc, addr).astype(I64) + offset) & 0xFFFFFFFF


def lds_address32(st, acc, addr, offset):
    """lds_address as uint32 (the wrapping add is uint32 arithmetic)."""
    a = lane_regs(st, acc, addr)
    return a + np.uint32(offset) if offset else a


def build_ds(ins, pc, vgprs):
    m = ins.mnemonic
    ops = {o.role: o for o in ins.operands}
    for o in ins.operands:
        if o.kind == "vgpr" and o.value + o.nregs > vgprs:
            raise IllegalInstruction(pc, f"{ins.text}: {o.text} lies beyond the {vgprs} VGPRs the kernel allocates")
    if ins.modifiers.get("gds"):
        raise IllegalInstruction(pc, f"{ins.text}: GDS is not available to compute queues on the virtual GPU")
    o0, o1 = ins.modifiers.get("offset0", 0), ins.modifiers.get("offset1", 0)
    offset = o1 << 8 | o0
    if m == "ds_nop":
        return None
    if m in ("ds_bpermute_b32", "ds_permute_b32"):
        return _build_permute(m, ops, offset)
    if m == "ds_swizzle_b32":
        return _build_swizzle(ops, offset)
    if m in ("ds_append", "ds_consume"):
        return _build_append(m, ops, offset)
    if m in ("ds_load_addtid_b32", "ds_store_addtid_b32"):
        return _build_addtid(m, ops, offset)
    addr = ops["addr"].value if "addr" in ops else None
    body = m[3:]
    if body.startswith(("load_2addr", "store_2addr", "storexchg_2addr")):
        return _build_2addr(m, ops, o0, o1)
    if body.startswith("load_"):
        what = DS_D16_LOADS.get(body[5:], body[5:])
        nbytes, how = LOAD_KINDS[what]
        vdst = ops["vdst"].value

        if how == "dwords":
            k = nbytes // 4

            def load_words(st, sel):
                if DENSE_FAST:
                    ls = lane_set(st, sel)
                    if ls is None:
                        return
                    w, _ = lds_words(st, ls, sel, addr, offset, nbytes)
                    if w is not None:
                        put_words(st, ls, sel, vdst, k, st.lds32, w)
                        return
                acc = active_lanes(st, sel)
                if acc is not None:
                    off = lds_address32(st, acc, addr, offset)
                    w = lds_word_index(st, acc, off, nbytes) if acc.flat is None else None
                    if w is not None and take_into(st.lds32, w, st, acc, vdst, range(nbytes // 4)):
                        return
                    write_lane_values(st, acc, vdst, lds_read_words(st, acc, off, nbytes // 4))
            return load_words

        def load(st, sel):
            acc = active_lanes(st, sel)
            if acc is None:
                return
            rows = acc.rows
            off = lds_address(st, acc, addr, offset)
            raw = lds_read(st, rows, off, nbytes)
            old = lane_values(st, acc, vdst, 1) if how.startswith(("lo", "hi")) else None
            write_lane_values(st, acc, vdst, to_lanes(raw, how, old))
        return load
    if body.startswith("store_"):
        what = body[6:]
        what = {"b8_d16_hi": "d16_hi_b8", "b16_d16_hi": "d16_hi_b16"}.get(what, what)
        nbytes, shift = STORE_KINDS[what]
        data = ops["data0"].value
        k = max(1, nbytes // 4)
        if nbytes % 4 == 0:
            def store_words(st, sel):
                if DENSE_FAST:
                    ls = lane_set(st, sel)
                    if ls is None:
                        return
                    w, align = lds_words(st, ls, sel, addr, offset, nbytes)
                    if w is not None:
                        put_lds(st, ls, sel, data, k, st.lds32, w, align)
                        return
                acc = active_lanes(st, sel)
                if acc is not None:
                    off = lds_address32(st, acc, addr, offset)
                    lds_write_words(st, acc, off, lane_values(st, acc, data, k))
            return store_words

        def store(st, sel):
            acc = active_lanes(st, sel)
            if acc is None:
                return
            rows = acc.rows
            off = lds_address(st, acc, addr, offset)
            lds_write(st, rows, off, store_bytes(lane_values(st, acc, data, k), nbytes, shift))
        return store
    try:
        name = atomics.op_name(m)
    except KeyError:
        raise IllegalInstruction(pc, f"{ins.text}: not supported by the simulator") from None
    bits = 64 if m.endswith("64") else 32
    k = bits // 32
    d0 = ops["data0"].value
    d1 = ops["data1"].value if "data1" in ops else None
    if name == "wrap" and d1 is None:
        d1 = d0 + k                               # ds_wrap_rtn_b32 reads DATA0 and the next VGPR
    vdst = ops["vdst"].value if "vdst" in ops else None

    def atomic(st, sel):
        if k == 1 and DENSE_FAST:
            ls = lane_set(st, sel)
            if ls is None:
                return
            w, _ = lds_words(st, ls, sel, addr, offset, 4)
            if w is not None:
                short_atomic(st, ls, sel, st.lds32, w, name, d0, d1, vdst)
                return
        acc = active_lanes(st, sel)
        if acc is None:
            return
        rows = acc.rows
        off = lds_address(st, acc, addr, offset)
        src = atomics.combine_dwords(lane_values(st, acc, d0, k))
        cmp = atomics.combine_dwords(lane_values(st, acc, d1, k)) if d1 is not None else None
        old = lds_atomic(st, rows, off, name, src, cmp, vdst is not None)
        if vdst is not None:
            write_lane_values(st, acc, vdst, atomics.split_dwords(old, k))
    return atomic


def _build_2addr(m, ops, o0, o1):
    bits = 64 if m.endswith("64") else 32
    k = bits // 32
    scale = (bits // 8) * (64 if "stride64" in m else 1)
    addr = ops["addr"].value
    offs = (o0 * scale, o1 * scale)
    lo, span = min(offs), abs(offs[1] - offs[0])
    if m.startswith("ds_load"):
        vdst = ops["vdst"].value

        # the dword steps of both results from the lower offset, in destination order: one
        # gather fills every destination register
        steps = np.concatenate([((o - lo) >> 2) + np.arange(k) for o in offs]).astype(np.intp)
        step_list = steps.tolist()
        steps = steps[:, None]                  # (2k, 1): the gather is register-major

        def load2(st, sel):
            if DENSE_FAST:
                ls = lane_set(st, sel)
                if ls is None:
                    return
                w, _ = lds_words(st, ls, sel, addr, lo, span + 4 * k)
                if w is not None:
                    put_steps(st, ls, sel, vdst, steps, st.lds32, w)
                    return
            acc = active_lanes(st, sel)
            if acc is None:
                return
            base = lane_regs(st, acc, addr)
            # both dwords in one bounds / alignment check when the span between them is checked
            # as one access (no lane then wraps around 2**32 at either offset)
            w = lds_word_index(st, acc, base + np.uint32(lo) if lo else base, span + 4 * k)
            if w is not None:
                if take_into(st.lds32, w, st, acc, vdst, step_list):
                    return
                got = np.take(st.lds32, steps + w)                   # (2k, lanes), vdst.. in order
                if acc.flat is None:
                    st.vregs[vdst:vdst + 2 * k, acc.sel] = got.reshape(2 * k, -1, WAVE32)
                else:
                    write_lane_values(st, acc, vdst, got.T)
                return
            for i, o in enumerate(offs):
                off = base + np.uint32(o) if o else base
                write_lane_values(st, acc, vdst + i * k, lds_read_words(st, acc, off, k))
        return load2
    datas = (ops["data0"].value, ops["data1"].value)
    vdst = ops["vdst"].value if "vdst" in ops else None

    # each data's first dword from the lower offset (the stores stay in order: data0's first)
    firsts = [(o - lo) >> 2 for o in offs]

    def store2(st, sel):
        if DENSE_FAST and vdst is None:
            ls = lane_set(st, sel)
            if ls is None:
                return
            w, _ = lds_words(st, ls, sel, addr, lo, span + 4 * k)
            if w is not None:
                for first, d in zip(firsts, datas):
                    put_lds(st, ls, sel, d, k, st.lds32, w + first if first else w)
                return
        acc = active_lanes(st, sel)
        if acc is None:
            return
        base = lane_regs(st, acc, addr)
        for i, (o, d) in enumerate(zip(offs, datas)):
            new = lane_values(st, acc, d, k)
            where = base + np.uint32(o) if o else base
            if vdst is not None:           # storexchg: return the old contents
                write_lane_values(st, acc, vdst + i * k, lds_read_words(st, acc, where, k))
            lds_write_words(st, acc, where, new)
    return store2


_ROW_BASES = {}             # group size -> uint32 (w, 1): where each wave's lanes start in its (w * 32,) lanes


def _build_permute(m, ops, offset):
    vdst, addr, data = ops["vdst"].value, ops["addr"].value, ops["data0"].value
    backward = m == "ds_bpermute_b32"

    def permute(st, sel):
        if backward and DENSE_FAST:
            ex = st.sregs[EXEC_LO, sel].tobytes()
            if ex == b"\xff" * len(ex):
                # every lane on: each lane's source lane in its wave, one gather (the lane
                # number is bits 2..6 of the 32-bit sum, which carries past bit 31 cannot change)
                a = st.vregs[addr, sel]
                lane = ((a + U32(offset) if offset else a) >> 2) & U32(WAVE32 - 1)
                rows = _ROW_BASES.get(lane.shape[0])
                if rows is None:
                    rows = _ROW_BASES[lane.shape[0]] = np.arange(0, lane.size, WAVE32, dtype=U32)[:, None]
                st.vregs[vdst, sel] = st.vregs[data, sel].reshape(-1)[(lane | rows).astype(np.intp)].reshape(lane.shape)
                return
        mask = st.exec_mask(sel)
        lane_sel = ((st.vgpr[sel, addr].astype(I64) + offset) >> 2) & (WAVE32 - 1)
        src = np.where(mask, st.vgpr[sel, data], U32(0))
        if backward:
            result = np.take_along_axis(src, lane_sel, axis=1)
        else:
            result = np.zeros_like(src)
            w, lane = np.nonzero(mask)
            result[w, lane_sel[w, lane]] = src[w, lane]    # the highest writing lane wins
        old = st.vgpr[sel, vdst]
        st.vgpr[sel, vdst] = np.where(mask, result, old)
    return permute


def swizzle_sources(offset):
    """Lane each lane reads for a ds_swizzle_b32 offset (quad-perm or bitmask mode)."""
    lanes = np.arange(WAVE32)
    if offset & 0x8000:
        return (lanes & ~3) | ((offset >> (2 * (lanes & 3))) & 3)
    and_m, or_m, xor_m = offset & 31, (offset >> 5) & 31, (offset >> 10) & 31
    return ((lanes & and_m) | or_m) ^ xor_m


def _build_swizzle(ops, offset):
    vdst, addr = ops["vdst"].value, ops["addr"].value
    src_lane = swizzle_sources(offset)

    def swizzle(st, sel):
        mask = st.exec_mask(sel)
        src = np.where(mask, st.vgpr[sel, addr], U32(0))
        st.vgpr[sel, vdst] = np.where(mask, src[:, src_lane], st.vgpr[sel, vdst])
    return swizzle


def _build_append(m, ops, offset):
    """ds_append / ds_consume: the counter at LDS address M0 + offset grows (shrinks) by the number
    of active lanes; every active lane receives the value before the update."""
    vdst = ops["vdst"].value
    sign = 1 if m == "ds_append" else -1

    def append(st, sel):
        rows = st.wave_ids[sel]
        ex = st.exec_mask(sel)
        count = ex.sum(axis=1).astype(np.int64)
        off = (st.sgpr[rows, M0].astype(I64) & 0xFFFF) + offset
        old = np.zeros(rows.shape[0], U32)
        for i in np.flatnonzero(count):                  # waves one after another
            before = lds_read(st, rows[i:i + 1], off[i:i + 1], 4).view(U32)[0, 0]
            old[i] = before
            new = np.array([(int(before) + sign * int(count[i])) & 0xFFFFFFFF], U32)
            lds_write(st, rows[i:i + 1], off[i:i + 1], new.view(np.uint8).reshape(1, 4))
        st.vgpr[rows, vdst] = np.where(ex, old[:, None], st.vgpr[rows, vdst])
    return append


def _build_addtid(m, ops, offset):
    """ds_load/store_addtid_b32: lane L accesses LDS at M0 + offset + 4 * L."""
    reg = ops["vdst"].value if m == "ds_load_addtid_b32" else ops["data0"].value

    def addtid(st, sel):
        acc = active_lanes(st, sel)
        if acc is None:
            return
        rows = acc.rows
        off = (st.sgpr[rows, M0].astype(I64) & 0xFFFF) + offset + 4 * acc.lanes.astype(I64)
        if m == "ds_load_addtid_b32":
            write_lane_values(st, acc, reg, lds_read(st, rows, off, 4).view(U32))
        else:
            lds_write(st, rows, off, lane_values(st, acc, reg, 1).view(np.uint8))
    return addtid
