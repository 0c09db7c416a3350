"""Vector memory: GLOBAL, FLAT and SCRATCH loads, stores and atomics, lane by lane under EXEC.

Addresses are computed for every lane, then only lanes whose EXEC bit is set touch memory, in
(wave, lane) order, so a fault names the first active lane's VA.  Scratch is architected flat
scratch: lane L of a wave owns ``private_size`` bytes at ``scratch_base + L * private_size``, and a
per-lane offset past its private segment is a fault.  FLAT addresses inside the shared aperture
go to LDS and inside the private aperture to scratch; everything else is global memory.
"""
import numpy as np

from drivers.emu.faults import NOT_PRESENT, IllegalInstruction, MemoryFault

from . import atomics
from .operands import APERTURE_SIZE, PRIVATE_APERTURE, SHARED_APERTURE
from .state import EXEC_LO, LANE_BITS, WAVE32
from .lanesets import global_words, lane_set, lanes_of, put_words, scratch_words, store_words
from .vmaccess import element_offsets, gather, gather_words, locate, scatter, scatter_words, word_offsets

U32, U64, I64 = np.uint32, np.uint64, np.int64

# width of the memory access and how it lands in the VGPRs
LOAD_KINDS = {"u8": (1, "zext"), "i8": (1, "sext"), "u16": (2, "zext"), "i16": (2, "sext"),
              "b32": (4, "dwords"), "b64": (8, "dwords"), "b96": (12, "dwords"), "b128": (16, "dwords"),
              "d16_u8": (1, "lo_zext"), "d16_i8": (1, "lo_sext"), "d16_b16": (2, "lo"),
              "d16_hi_u8": (1, "hi_zext"), "d16_hi_i8": (1, "hi_sext"), "d16_hi_b16": (2, "hi")}
# sub-dword loads that fill the whole VGPR: the element type whose conversion to uint32 is theirs
ELEMENT_TYPES = {(1, "zext"): np.uint8, (1, "sext"): np.int8, (2, "zext"): np.uint16, (2, "sext"): np.int16}
STORE_KINDS = {"b8": (1, 0), "b16": (2, 0), "b32": (4, 0), "b64": (8, 0), "b96": (12, 0), "b128": (16, 0),
               "d16_hi_b8": (1, 2), "d16_hi_b16": (2, 2)}


def split_mnemonic(m):
    """'global_load_d16_hi_u8' -> ('load', 'd16_hi_u8')."""
    seg, rest = m.split("_", 1)
    kind, _, what = rest.partition("_")
    return kind, what


def to_lanes(raw, how, old):
    """Bytes loaded per lane (N, n) uint8 -> the new dword(s) (N, k) uint32 of the destination."""
    n = raw.shape[1]
    if how == "dwords":
        return np.ascontiguousarray(raw).view(U32)
    v = raw[:, 0].astype(U32) if n == 1 else np.ascontiguousarray(raw).view(np.uint16)[:, 0].astype(U32)
    if how.endswith("sext"):
        bits = 8 * n
        v = np.where(v & U32(1 << (bits - 1)), v | U32((0xFFFFFFFF << bits) & 0xFFFFFFFF), v)
    if how in ("zext", "sext"):
        return v[:, None]
    v &= U32(0xFFFF)
    if how.startswith("lo"):
        return ((old[:, 0] & U32(0xFFFF0000)) | v)[:, None]
    return ((old[:, 0] & U32(0xFFFF)) | (v << U32(16)))[:, None]


def store_bytes(dwords, nbytes, shift):
    """(N, k) uint32 -> the (N, nbytes) bytes a store writes (d16_hi forms take bytes 2..3)."""
    raw = np.ascontiguousarray(dwords).view(np.uint8)
    return raw[:, shift:shift + nbytes]


class LaneAccess:
    """The active lanes of one instruction, in (wave, lane) order, with each lane's VA.

    Dense when every lane of every selected wave is active: then the lanes are simply the
    (w, 32) block of ``sel`` and registers are read and written as slices.  Otherwise ``flat``
    holds each active lane's index into a register of the whole batch viewed as (W * 32,)."""
    __slots__ = ("st", "sel", "addrs", "flat", "_rows", "_lanes")

    def __init__(self, st, sel, flat=None, addrs=None):
        self.st, self.sel, self.flat, self.addrs = st, sel, flat, addrs
        self._rows = self._lanes = None

    @property
    def dense(self):
        return self.flat is None

    @property
    def rows(self):
        """The wave (batch index) of every accessing lane."""
        if self._rows is None:
            self._rows = (np.repeat(self.st.wave_ids[self.sel], WAVE32) if self.flat is None
                          else self.flat >> 5)
        return self._rows

    @property
    def lanes(self):
        if self._lanes is None:
            self._lanes = (np.tile(np.arange(WAVE32), self.st.pc[self.sel].shape[0]) if self.flat is None
                           else self.flat & (WAVE32 - 1))
        return self._lanes


_FULL = {}                # group size -> the bytes of an all-ones EXEC
_PARTIAL = {}             # (EXEC bytes, the group's waves) -> (flat, rows, lanes) or None
_CACHED_WAVES = 64        # groups up to this many waves keep the lanes of each EXEC pattern


def active_lanes(st, sel):
    """LaneAccess (without addresses) of the lanes with EXEC set, or None when there are none.
    A small group's EXEC patterns repeat (loops, the halves of a branch): their lane indices
    are worked out once per pattern and kept, read-only."""
    ex = st.sregs[EXEC_LO, sel]
    n = ex.shape[0]
    full = _FULL.get(n)
    if full is None:
        full = _FULL[n] = b"\xff" * (4 * n)
    bits = ex.tobytes()
    if bits == full:
        return LaneAccess(st, sel)
    if n > _CACHED_WAVES:
        flat = _active_flat(ex, sel)
        return None if flat is None else LaneAccess(st, sel, flat)
    key = (bits, sel.start or 0) if type(sel) is slice else (bits, sel.tobytes())
    hit = _PARTIAL.get(key, False)
    if hit is False:
        if len(_PARTIAL) >= 4096:
            _PARTIAL.clear()
        flat = _active_flat(ex, sel)
        hit = None
        if flat is not None:
            hit = tuple(_frozen(a) for a in (flat, flat >> 5, flat & (WAVE32 - 1)))
        _PARTIAL[key] = hit
    if hit is None:
        return None
    acc = LaneAccess(st, sel, hit[0])
    acc._rows, acc._lanes = hit[1], hit[2]
    return acc


def _frozen(a):
    a.flags.writeable = False
    return a


def _active_flat(ex, sel):
    """Indices of the active lanes into a register of the whole batch viewed as (W * 32,)."""
    active = (ex[:, None] & LANE_BITS) != 0
    flat = np.flatnonzero(active)
    if flat.size == 0:
        return None
    if type(sel) is slice:
        flat += (sel.start or 0) * WAVE32
    else:
        w = flat >> 5
        flat = (sel[w] << 5) | (flat & (WAVE32 - 1))
    return flat


def lane_regs(st, acc, reg):
    """(N,) uint32: register ``reg`` of every accessing lane."""
    if acc.flat is None:
        return st.vregs[reg, acc.sel].reshape(-1)
    return st.vregs[reg].reshape(-1)[acc.flat]


def lane_values(st, acc, reg, k):
    """(N, k) uint32: registers reg..reg+k-1 of the accessing lanes."""
    if acc.flat is None:
        return st.vregs[reg:reg + k, acc.sel].reshape(k, -1).T
    if k == 1:
        return st.vregs[reg].reshape(-1)[acc.flat][:, None]
    # (np.take along the lane axis: about half the cost of [:, flat] on a 2-D array)
    return np.take(st.vregs[reg:reg + k].reshape(k, -1), acc.flat, axis=1).T


def take_into(words, w, st, acc, vdst, steps):
    """Dwords ``words[w + steps[j]]`` into VGPR vdst + j of a group whose every lane accesses
    and whose waves are a slice of the batch (``w`` checked to be in range): straight into the
    registers, no lane matrix.  False (nothing done) for any other group."""
    if acc.flat is not None or type(acc.sel) is not slice:
        return False
    for j, step in enumerate(steps):                  # (indexing: np.take costs more per call)
        st.vregs[vdst + j, acc.sel] = words[w + step if step else w].reshape(-1, WAVE32)
    return True


def write_lane_column(st, acc, reg, values):
    """(N,) values of any integer type into VGPR reg of the accessing lanes, converted to uint32
    as C converts (a signed type sign-extends)."""
    if acc.flat is None:
        st.vregs[reg, acc.sel] = values.reshape(-1, WAVE32)
    else:
        st.vregs[reg].reshape(-1)[acc.flat] = values


def write_lane_values(st, acc, reg, values):
    for j in range(values.shape[1]):
        if acc.flat is None:
            st.vregs[reg + j, acc.sel] = values[:, j].reshape(-1, WAVE32)
        else:
            st.vregs[reg + j].reshape(-1)[acc.flat] = values[:, j]


def build_flat(ins, pc, vgprs):
    m = ins.mnemonic
    seg = ins.family                                  # GLOBAL, SCRATCH or FLAT
    ops = {o.role: o for o in ins.operands}
    mods = ins.modifiers
    offset = mods.get("offset", 0)
    kind, what = split_mnemonic(m)
    for o in ins.operands:
        if o.kind == "vgpr" and o.value + o.nregs > vgprs:
            raise IllegalInstruction(pc, f"{ins.text}: {o.text} lies beyond the {vgprs} VGPRs the kernel allocates")
    address = _address_fn(seg, ops, offset, what == "addtid_b32")
    short = _short_words_fn(seg, ops, offset) if what != "addtid_b32" else None
    if what == "addtid_b32":
        what = "b32"                              # lane L at SADDR + offset + 4 * L
    if kind == "load":
        nbytes, how = LOAD_KINDS[what]
        vdst = ops["vdst"].value

        words = nbytes // 4 if how == "dwords" and seg != "FLAT" else 0
        # a byte or short widened into the whole VGPR: one element per lane, read as its type
        element = ELEMENT_TYPES.get((nbytes, how)) if seg != "FLAT" else None
        short_element = element is not None and seg == "GLOBAL"

        skip = [0]                     # calls left on the general path (see RETRY)

        def load(st, sel):
            if skip[0]:
                skip[0] -= 1
            elif short is not None and DENSE_FAST and (words or short_element):
                ls = lane_set(st, sel)
                if ls is None:
                    return
                if words:
                    loc = short(st, ls, sel, nbytes, False)
                    if loc is not None:
                        put_words(st, ls, sel, vdst, words, loc[0], loc[1])
                        return
                else:                      # one element per lane: the assignment widens it
                    loc = short(st, ls, sel, nbytes, False, element)
                    if loc is not None:
                        put_words(st, ls, sel, vdst, 1, loc[0], loc[1])
                        return
                skip[0] = RETRY
            acc = active_lanes(st, sel)
            if acc is None:
                return
            acc = address(st, sel, nbytes, False, acc)
            if element is not None:
                r, i = element_offsets(st.vm, acc.addrs, nbytes, False)
                if r is not None:      # the assignment widens: zero- or sign-extends
                    write_lane_column(st, acc, vdst, r.mem.view(element)[i])
                    return
            if words:                      # whole dwords: no byte matrix
                if acc.flat is None and type(sel) is slice:
                    r, w = word_offsets(st.vm, acc.addrs, nbytes, False)
                    if r is not None:      # every lane in one mapping: straight into the VGPRs
                        take_into(r.mem.view(U32), w, st, acc, vdst, range(words))
                        return
                write_lane_values(st, acc, vdst, gather_words(st.vm, acc.addrs, words))
                return
            raw = _read(st, acc, nbytes, seg)
            old = lane_values(st, acc, vdst, 1) if how.startswith(("lo", "hi")) else None
            write_lane_values(st, acc, vdst, to_lanes(raw, how, old))
        load.memory = True
        return load
    if kind == "store":
        nbytes, shift = STORE_KINDS[what]
        data = ops["data"].value
        k = max(1, nbytes // 4)

        words = nbytes // 4 if nbytes % 4 == 0 and seg != "FLAT" else 0
        element = np.uint8 if nbytes == 1 else np.uint16 if nbytes == 2 else None
        if seg == "FLAT":
            element = None
        short_element = element is not None and seg == "GLOBAL"

        skip = [0]                     # calls left on the general path (see RETRY)

        def store(st, sel):
            if skip[0]:
                skip[0] -= 1
            elif short is not None and DENSE_FAST and (words or short_element):
                ls = lane_set(st, sel)
                if ls is None:
                    return
                if words:
                    loc = short(st, ls, sel, nbytes, True)
                    if loc is not None:
                        store_words(st, ls, sel, data, words, *loc)
                        return
                else:                      # the low byte / short of each lane (d16_hi: of bits 16+)
                    loc = short(st, ls, sel, nbytes, True, element)
                    if loc is not None:
                        d = lanes_of(st, ls, sel, data).reshape(-1)
                        loc[0][loc[1]] = (d >> U32(16)) if shift else d
                        return
                skip[0] = RETRY
            acc = active_lanes(st, sel)
            if acc is None:
                return
            acc = address(st, sel, nbytes, True, acc)
            if element is not None:
                r, i = element_offsets(st.vm, acc.addrs, nbytes, True)
                if r is not None:      # the low byte / short of each lane (d16_hi: of bits 16+)
                    d = lane_regs(st, acc, data)
                    r.mem.view(element)[i] = (d >> U32(16)) if shift else d
                    return
            if words:
                scatter_words(st.vm, acc.addrs, lane_values(st, acc, data, words))
                return
            _write(st, acc, store_bytes(lane_values(st, acc, data, k), nbytes, shift), seg)
        store.memory = True
        return store
    if kind == "atomic":
        name = atomics.op_name(m)
        bits = 64 if what.endswith("64") else 32
        k = bits // 32
        data = ops["data"].value
        vdst = ops["vdst"].value if "vdst" in ops else None
        has_cmp = name in ("cmpswap", "cmpswap_f")

        def atomic(st, sel):
            if k == 1 and seg == "GLOBAL" and short is not None and DENSE_FAST:
                ls = lane_set(st, sel)
                if ls is None:
                    return
                loc = short(st, ls, sel, 4, True)
                if loc is not None:
                    short_atomic(st, ls, sel, loc[0], loc[1], name, data, data + 1 if has_cmp else None, vdst)
                    return
            acc = address(st, sel, 4 * k, True)
            if acc is None:
                return
            d = lane_values(st, acc, data, 2 * k if has_cmp else k)
            src, cmp = atomics.combine_dwords(d[:, :k]), atomics.combine_dwords(d[:, k:]) if has_cmp else None
            if vdst is None and seg == "GLOBAL" and order_free(name):
                if global_atomic_at_once(st.vm, acc.addrs, name, src):
                    return
            old = _atomic(st, acc, seg, name, src, cmp)
            if vdst is not None:
                write_lane_values(st, acc, vdst, atomics.split_dwords(old, k))
        atomic.memory = True
        return atomic
    raise IllegalInstruction(pc, f"{ins.text}: not supported by the simulator")


def _atomic(st, acc, seg, name, src, cmp):
    """Atomics of GLOBAL, or of FLAT addresses, which may fall in the LDS or scratch aperture."""
    if seg != "FLAT":
        return global_atomic(st.vm, acc.addrs, name, src, cmp)
    shared, private = _classify_flat(acc.addrs)
    if not shared.any() and not private.any():
        return global_atomic(st.vm, acc.addrs, name, src, cmp)
    from .lds import lds_atomic
    old = np.zeros(acc.addrs.shape[0], src.dtype)
    pick = lambda x, m: None if x is None else x[m]       # noqa: E731
    glob = ~(shared | private)
    if glob.any():
        old[glob] = global_atomic(st.vm, acc.addrs[glob], name, src[glob], pick(cmp, glob))
    if private.any():
        off = (acc.addrs[private] - U64(PRIVATE_APERTURE)).astype(I64)
        va = scratch_va(st, acc.rows[private], acc.lanes[private], off, src.dtype.itemsize, True)
        old[private] = global_atomic(st.vm, va, name, src[private], pick(cmp, private))
    if shared.any():
        off = (acc.addrs[shared] - U64(SHARED_APERTURE)).astype(I64)
        old[shared] = lds_atomic(st, acc.rows[shared], off, name, src[shared], pick(cmp, shared))
    return old


def short_atomic(st, ls, sel, words, w, name, data, cmp, vdst):
    """32-bit atomics of the accessing lanes of a LaneSet at ``words[w]`` (checked), as the
    general paths apply them (atomics.apply, or at once when order-free and nothing returns);
    the values before go to VGPR ``vdst`` (None: not returned)."""
    src = lanes_of(st, ls, sel, data).reshape(-1)
    if vdst is None and order_free(name):
        apply_at_once(words, w, name, src)
        return
    cmp = lanes_of(st, ls, sel, cmp).reshape(-1) if cmp is not None else None
    old = atomics.apply(words, w, name, src, cmp)
    if vdst is None:
        return
    if ls.flat is None:
        st.vregs[vdst, sel] = old.reshape(ls.n, WAVE32)
    else:
        st.vregs[vdst].reshape(-1)[ls.flat] = old


def global_atomic(vm, addrs, name, src, cmp):
    """Apply an atomic to memory lane after lane; returns each lane's pre-op value."""
    nbytes = src.dtype.itemsize
    dt = src.dtype
    f = atomics.OPS[name]
    loc = locate(vm, addrs, nbytes, True)
    if loc is not None and not np.count_nonzero(loc[1] % nbytes):      # aligned: typed elements
        r, off = loc
        return atomics.apply(r.mem.view(dt), off // nbytes, name, src, cmp)
    old_all = np.empty(addrs.shape[0], dt)
    for batch in atomics.rounds(addrs):
        a = addrs[batch]
        if loc is not None:
            r, off = loc
            idx = off[batch][:, None] + np.arange(nbytes)
            old = np.ascontiguousarray(r.mem[idx]).view(dt)[:, 0]
            new = f(old, src[batch], None if cmp is None else cmp[batch]).astype(dt)
            r.mem[idx] = new.view(np.uint8).reshape(-1, nbytes)
        else:
            old = gather(vm, a, nbytes).view(dt)[:, 0].copy()
            new = f(old, src[batch], None if cmp is None else cmp[batch]).astype(dt)
            scatter(vm, a, new.view(np.uint8).reshape(-1, nbytes))
        old_all[batch] = old
    return old_all


DENSE_FAST = True          # lanesets.py's short paths (tests compare them with the general one)
# An instruction whose lanes the short path handed over (unaligned, typically: that is a
# property of the code) takes the general path for this many calls before trying it again.
RETRY = 16


def _short_words_fn(seg, ops, offset):
    """Accesses of GLOBAL (VADDR pair, or SADDR + VADDR; dwords or, given ``element``, bytes and
    shorts) and SCRATCH (VADDR or none; dwords) in few steps (lanesets.py):
    ``fn(st, lane_set, sel, nbytes, write)`` -> (memory, index of each lane, their alignment),
    or None when the general path decides (faults included).  None for other addressing."""
    addr, saddr = ops.get("addr"), ops.get("saddr")
    a = addr.value if addr is not None and addr.kind == "vgpr" else None
    s = saddr.value if saddr is not None and saddr.kind == "sgpr" else None
    if seg == "GLOBAL" and a is not None:
        return lambda st, ls, sel, nbytes, write, element=U32: global_words(st, ls, sel, a, s, offset, nbytes,
                                                                             write, element)
    if seg == "SCRATCH" and s is None:
        return lambda st, ls, sel, nbytes, write: scratch_words(st, ls, sel, a, offset, nbytes, write)
    return None


def _address_fn(seg, ops, offset, addtid=False):
    """Build (st, sel, nbytes, write) -> LaneAccess with addresses (None when no lane is active)."""
    addr = ops.get("addr")
    saddr = ops.get("saddr")
    use_saddr = saddr is not None and saddr.kind == "sgpr"
    off64 = U64(offset & 0xFFFFFFFFFFFFFFFF)
    if addtid:
        s = saddr.value

        def tid_va(st, sel, nbytes, write, acc=None):
            acc = acc or active_lanes(st, sel)
            if acc is not None:
                rows = acc.rows
                base = st.sgpr[rows, s].astype(U64) | st.sgpr[rows, s + 1].astype(U64) << U64(32)
                acc.addrs = base + acc.lanes.astype(U64) * U64(4) + off64
            return acc
        return tid_va
    if seg == "GLOBAL" or seg == "FLAT":
        a = addr.value
        if use_saddr:
            s = saddr.value

            def lane_va(st, acc):
                if acc.dense:
                    # (may be a view of the SGPRs: never written in place)
                    base = np.ascontiguousarray(st.sregs[s:s + 2, acc.sel].T).view(U64)[:, 0]
                    if offset:
                        base = base + off64
                    return np.add(base[:, None], st.vregs[a, acc.sel], dtype=U64).reshape(-1)
                # the SGPR pair of every wave of the batch as uint64, then each lane's wave's
                base = np.ascontiguousarray(st.sregs[s:s + 2].T).view(U64)[:, 0]
                va = np.add(base[acc.rows], st.vregs[a].reshape(-1)[acc.flat], dtype=U64)
                if offset:
                    va += off64
                return va
        else:
            def lane_va(st, acc):
                # the VGPR pair of each lane interleaved, viewed as uint64
                if acc.dense:
                    lo = lane_regs(st, acc, a)
                    va = np.empty((lo.shape[0], 2), np.uint32)
                    va[:, 0] = lo
                    va[:, 1] = lane_regs(st, acc, a + 1)
                else:
                    va = np.empty((acc.flat.shape[0], 2), np.uint32)
                    va[:, 0] = st.vregs[a].reshape(-1)[acc.flat]
                    va[:, 1] = st.vregs[a + 1].reshape(-1)[acc.flat]
                va = va.view(U64)[:, 0]
                if offset:
                    va += off64
                return va

        def access(st, sel, nbytes, write, acc=None):
            acc = acc or active_lanes(st, sel)
            if acc is not None:
                acc.addrs = lane_va(st, acc)
            return acc
        return access
    # SCRATCH: a per-lane offset into the lane's private segment
    s = saddr.value if use_saddr else None
    a = addr.value if addr is not None and addr.kind == "vgpr" else None

    def scratch_access(st, sel, nbytes, write, acc=None):
        acc = acc or active_lanes(st, sel)
        if acc is None:
            return None
        if acc.dense and a is not None:
            # every lane active: offsets summed in uint32 (the 32-bit adder wraps), one bounds check
            off = st.vregs[a, sel] + np.uint32(offset & 0xFFFFFFFF)
            if s is not None:
                off += st.sregs[s, sel][:, None]
            if int(off.max()) + nbytes <= st.private_size:
                lanes = _lane_bases(st)
                acc.addrs = (np.add(st.scratch_base[sel][:, None], lanes) + off).reshape(-1)
                return acc
        rows = acc.rows
        off = np.full(rows.shape, offset, I64)
        if s is not None:
            off += st.sgpr[rows, s].astype(I64)
        if a is not None:
            off += lane_regs(st, acc, a).astype(I64)
        off &= 0xFFFFFFFF
        acc.addrs = scratch_va(st, rows, acc.lanes, off, nbytes, write)
        return acc
    return scratch_access


def _lane_bases(st):
    """uint64 (32,): where each lane's private segment starts, relative to the wave's."""
    if st.scratch_lanes is None:
        st.scratch_lanes = np.arange(WAVE32, dtype=U64) * U64(st.private_size)
    return st.scratch_lanes


def scratch_va(st, rows, lanes, off, nbytes, write):
    """VA of per-lane private offsets; an offset past the lane's private segment is a fault."""
    va = st.scratch_base[rows] + lanes.astype(U64) * U64(st.private_size) + off.astype(U64)
    bad = off + nbytes > st.private_size
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise MemoryFault(int(va[i]), NOT_PRESENT, write,
                          f"{'write' if write else 'read'} of private offset 0x{int(off[i]):x} past the "
                          f"{st.private_size}-byte private segment of wave {int(rows[i])} lane {int(lanes[i])}")
    return va


def _classify_flat(addrs):
    """bool masks of the FLAT addresses in the shared (LDS) and private (scratch) apertures."""
    shared = (addrs >= U64(SHARED_APERTURE)) & (addrs < U64(SHARED_APERTURE + APERTURE_SIZE))
    private = (addrs >= U64(PRIVATE_APERTURE)) & (addrs < U64(PRIVATE_APERTURE + APERTURE_SIZE))
    return shared, private


def _read(st, acc, nbytes, seg):
    if seg != "FLAT":
        return gather(st.vm, acc.addrs, nbytes)
    shared, private = _classify_flat(acc.addrs)
    if not shared.any() and not private.any():
        return gather(st.vm, acc.addrs, nbytes)
    out = np.zeros((acc.addrs.shape[0], nbytes), np.uint8)
    glob = ~(shared | private)
    if glob.any():
        out[glob] = gather(st.vm, acc.addrs[glob], nbytes)
    if private.any():
        off = (acc.addrs[private] - U64(PRIVATE_APERTURE)).astype(I64)
        va = scratch_va(st, acc.rows[private], acc.lanes[private], off, nbytes, False)
        out[private] = gather(st.vm, va, nbytes)
    if shared.any():
        from .lds import lds_read
        off = (acc.addrs[shared] - U64(SHARED_APERTURE)).astype(I64)
        out[shared] = lds_read(st, acc.rows[shared], off, nbytes)
    return out


def _write(st, acc, data, seg):
    if seg != "FLAT":
        scatter(st.vm, acc.addrs, data)
        return
    shared, private = _classify_flat(acc.addrs)
    glob = ~(shared | private)
    if glob.any():
        scatter(st.vm, acc.addrs[glob], data[glob])
    if private.any():
        off = (acc.addrs[private] - U64(PRIVATE_APERTURE)).astype(I64)
        va = scratch_va(st, acc.rows[private], acc.lanes[private], off, data.shape[1], True)
        scatter(st.vm, va, data[private])
    if shared.any():
        from .lds import lds_write
        off = (acc.addrs[shared] - U64(SHARED_APERTURE)).astype(I64)
        lds_write(st, acc.rows[shared], off, data[shared])


# Atomics whose result in memory does not depend on the order of the lanes (commutative and
# associative in their integer arithmetic): when no lane wants the value before, one unbuffered
# ufunc.at applies every lane, duplicates included, instead of replaying lanes that share a
# location one round after another.
ORDER_FREE = {"add": np.add, "sub": np.subtract, "and": np.bitwise_and, "or": np.bitwise_or,
              "xor": np.bitwise_xor, "min_u": np.minimum, "max_u": np.maximum, "min_i": np.minimum,
              "max_i": np.maximum}


def order_free(name):
    return name in ORDER_FREE


def apply_at_once(mem, index, name, src):
    """Every lane's ``name`` of ``src`` into ``mem[index]`` (a typed array), duplicates included."""
    if name in ("min_i", "max_i"):                       # compared as signed integers
        signed = np.int32 if mem.dtype == U32 else np.int64
        mem, src = mem.view(signed), src.view(signed)
    ORDER_FREE[name].at(mem, index, src)


def global_atomic_at_once(vm, addrs, name, src):
    """global_atomic of an order-free operation whose lanes want nothing back: True when done
    (every address aligned in one mapping), False for the general path.  Faults are raised
    as global_atomic raises them (the same lookup, first)."""
    nbytes = src.dtype.itemsize
    loc = locate(vm, addrs, nbytes, True)
    if loc is None or np.count_nonzero(loc[1] % nbytes):
        return False
    r, off = loc
    apply_at_once(r.mem.view(src.dtype), off // nbytes, name, src)
    return True
