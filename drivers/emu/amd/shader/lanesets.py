"""The short path of GLOBAL, SCRATCH and LDS accesses: few numpy steps per instruction.

Dword accesses of the three, byte and short accesses of GLOBAL and 32-bit atomics of GLOBAL
and LDS (their callers: memory.py, lds.py) take it for any EXEC.

A group calls an access's closure once for all its waves, and which lanes access depends only
on its waves and their EXEC bits, which repeat (every lane on, the halves of a branch, the
lanes of a reduction step).  A ``LaneSet`` is worked out once per (waves, EXEC bits) of a
WaveState and kept: every lane on (``flat`` None: the registers of the group are its (w, 32)
block), or the index of each active lane into a register of the batch viewed as (W * 32,);
and, per instruction offset, the dword of each lane's workgroup LDS and of its private
(scratch) segment, the offset included.

Each function below checks what the general path checks, with one reduction over the active
lanes' offsets (their OR is at least the largest, and its low bits are their common
alignment), and returns None when that path must decide: an unaligned or out-of-range lane, an
address that could wrap around 2**32, a fault, a read-only mapping.  Then nothing was done.
An offset is folded into the bases only as a sum that cannot wrap (the VGPR is checked against
the bound minus the offset), so a result is the general path's bit for bit.
"""
import numpy as np

from .state import EXEC_LO, LANE_BITS, WAVE32
from .vmaccess import write_index

INTP = np.intp
_OR, _MAX = np.bitwise_or.reduce, np.maximum.reduce
_STEPS = {k: np.arange(k, dtype=INTP)[:, None] for k in (2, 3, 4)}       # (k, 1) dword steps
_KEEP = 4096                    # LaneSets kept per WaveState


class LaneSet:
    """The accessing lanes of one group and EXEC pattern (see the module docstring)."""
    __slots__ = ("n", "flat", "lds", "scratch")

    def __init__(self, n, flat):
        self.n, self.flat = n, flat
        self.lds, self.scratch = {}, {}


def lane_set(st, sel):
    """The LaneSet of the waves ``sel`` under their EXEC, or None when no lane is active."""
    ex = st.sregs[EXEC_LO, sel]
    bits = ex.tobytes()
    key = (sel.start, sel.stop, sel.step, bits) if type(sel) is slice else (sel.tobytes(), bits)
    sets = st.lane_sets
    got = sets.get(key, False)
    if got is False:
        if len(sets) >= _KEEP:
            sets.clear()
        n = ex.shape[0]
        if bits == b"\xff" * (4 * n):
            got = LaneSet(n, None)
        else:
            flat = np.flatnonzero((ex[:, None] & LANE_BITS) != 0)
            if flat.size == 0:
                got = None
            else:
                flat = (st.wave_ids[sel][flat >> 5] << 5) | (flat & (WAVE32 - 1))
                flat.flags.writeable = False
                got = LaneSet(n, flat)
        sets[key] = got
    return got


def lanes_of(st, ls, sel, reg):
    """VGPR ``reg`` of the accessing lanes: (w, 32) with every lane on, else (N,)."""
    if ls.flat is None:
        return st.vregs[reg, sel]
    return st.vregs[reg].reshape(-1)[ls.flat]


def _checked(off, lim, shift=2):
    """(offsets >> shift) as intp (N,) when every offset is a multiple of 1 << shift (the
    element size) and at most ``lim``, and the OR of the offsets (their common alignment),
    else (None, 0)."""
    off = off.reshape(-1)                     # (a 1-D reduction costs less than axis=None)
    bits = int(_OR(off))
    if bits & ((1 << shift) - 1) or bits > lim and int(_MAX(off)) > lim:
        return None, 0
    return (off >> shift if shift else off).astype(INTP), bits


# From this many lanes of a slice of waves, a gather goes straight into each register (np.take
# into it: a fixed cost more per call, but one pass over the lanes less).
_TAKE_INTO = 4096


def _contiguous(sel):
    """Waves whose lanes of one register are one block (np.take can write into it)."""
    return type(sel) is slice and sel.step in (None, 1)


def put_words(st, ls, sel, reg, k, words, w):
    """VGPRs reg..reg+k-1 of the accessing lanes = ``words[w + j]`` (``w`` checked)."""
    if k == 1:
        if ls.flat is not None:
            st.vregs[reg].reshape(-1)[ls.flat] = words[w]
        elif w.shape[0] >= _TAKE_INTO and _contiguous(sel) and words.dtype == np.uint32:
            np.take(words, w, out=st.vregs[reg, sel].reshape(-1), mode="clip")
        else:
            st.vregs[reg, sel] = words[w].reshape(ls.n, WAVE32)
        return
    put_steps(st, ls, sel, reg, _STEPS[k], words, w)


def put_steps(st, ls, sel, reg, steps, words, w):
    """VGPR reg + j of the accessing lanes = ``words[w + steps[j]]`` (steps (m, 1) intp)."""
    m = steps.shape[0]
    if ls.flat is None and w.shape[0] >= _TAKE_INTO and _contiguous(sel):
        for j, step in enumerate(steps[:, 0].tolist()):        # (``w`` is checked: clip is never used)
            np.take(words, w + step if step else w, out=st.vregs[reg + j, sel].reshape(-1), mode="clip")
        return
    got = words[steps + w]                                   # (m, N): register-major
    if ls.flat is None:
        st.vregs[reg:reg + m, sel] = got.reshape(m, ls.n, WAVE32)
    else:                                     # (one register at a time: [:, flat] costs more)
        for j in range(m):
            st.vregs[reg + j].reshape(-1)[ls.flat] = got[j]


def store_words(st, ls, sel, reg, k, words, w, align=3):
    """``words[w + j]`` = VGPR reg + j of each accessing lane, in lane order (where accesses
    overlap, the highest lane's dwords land last, as the general path writes them)."""
    if k == 1:
        words[w] = lanes_of(st, ls, sel, reg).reshape(-1)
        return
    if ls.flat is None:
        values = st.vregs[reg:reg + k, sel].reshape(k, -1)
    else:
        values = np.take(st.vregs[reg:reg + k].reshape(k, -1), ls.flat, axis=1)
    if k in (2, 4) and not align & (4 * k - 1):
        # aligned to their size, two accesses either are one or do not meet: register after
        # register, the highest lane of each address still lands last
        words[_STEPS[k] + w] = values
    else:
        words[write_index(w, k)] = values.T.reshape(-1)


# -- LDS -------------------------------------------------------------------------------------

def lds_words(st, ls, sel, addr, offset, nbytes):
    """(intp (N,): the dword of ``st.lds32`` each accessing lane's access at VGPR ``addr`` +
    ``offset`` starts at, the OR of their byte addresses), or (None, 0): the general path
    decides."""
    lim = st.lds_bytes - nbytes - offset                # the largest VGPR value that fits
    if lim < 0 or offset & 3 or st.lds_bytes & 3:
        return None, 0
    ent = ls.lds.get(offset)
    if ent is None:
        ent = ls.lds[offset] = _lds_bases(st, ls, sel, offset)
    base, add = ent
    w, bits = _checked(lanes_of(st, ls, sel, addr), lim)
    if w is None:
        return None, 0
    w += base
    if add:
        w += add
    return w, bits | offset | st.lds_bytes


def _lds_bases(st, ls, sel, offset):
    """(intp (N,), a number): each accessing lane's workgroup LDS dword plus the offset's dwords
    are their sum.  The offset is folded into a copy of the bases, but for big groups of a slice:
    their bases are a view of the batch's, shared by every offset (copies of half a megabyte per
    offset would crowd the caches the gathers need)."""
    from .lds import _lane_word_bases
    every = _lane_word_bases(st)
    if ls.flat is not None:
        base = every[ls.flat]
    else:
        base = every.reshape(-1, WAVE32)[sel].reshape(-1)
        if base.shape[0] >= _TAKE_INTO and _contiguous(sel):
            return base, offset >> 2                   # (a read-only view)
        base = np.array(base)
    base += offset >> 2
    base.flags.writeable = False
    return base, 0


# -- SCRATCH ---------------------------------------------------------------------------------

def scratch_words(st, ls, sel, addr, offset, nbytes, write):
    """(dwords of the scratch mapping, intp (N,) index of each accessing lane's access, the OR
    of their byte offsets into the mapping) for a VGPR offset ``addr`` (None: 0) + ``offset``
    into each lane's private segment, or None."""
    size = st.private_size
    lim = size - nbytes - offset
    if lim < 0 or offset < 0 or offset & 3 or size & 3:
        return None
    key = (offset, size)
    ent = ls.scratch.get(key)
    sb = st.scratch_base
    if ent is not None:
        r, bases, base, align = ent
        # the same mapping, the same segments (a later launch may map scratch elsewhere)
        if st.vm.lookup(r.start) is not r or sb.tobytes() != bases:
            ent = None
    if ent is None:
        ent = _scratch_bases(st, ls, sel, offset)
        if ent is None:
            return None
        ls.scratch[key] = ent
        r, bases, base, align = ent
    if write and not r.writable:
        return None
    if addr is None:                                    # every lane at ``offset``
        return r.mem.view(np.uint32), base, align
    w, bits = _checked(lanes_of(st, ls, sel, addr), lim)
    if w is None:
        return None
    w += base
    return r.mem.view(np.uint32), w, align | bits


def _scratch_bases(st, ls, sel, offset):
    """(mapping, scratch bases as bytes, intp (N,) dword of each lane's segment + offset, their
    alignment) when the group's private segments lie in one mapping at dword-aligned places,
    else None."""
    sb = st.scratch_base[sel]
    if sb.size == 0:
        return None
    lo, hi = int(sb.min()), int(sb.max()) + WAVE32 * st.private_size
    r = st.vm.lookup(lo) if st.vm is not None else None
    if r is None or hi > r.end or (lo - r.start) & 3:
        return None
    rel = (sb - np.uint64(r.start)).astype(INTP)
    if np.count_nonzero((rel ^ rel[0]) & 15) or rel[0] & 3:     # alike below 16, dword-aligned
        return None
    lanes = np.arange(WAVE32, dtype=INTP) * (st.private_size >> 2)
    base = ((rel >> 2)[:, None] + lanes).reshape(-1) + (offset >> 2)
    if ls.flat is not None:
        # the active lanes' rows among the group's: positions of flat within the group's block
        where = np.zeros(st.W, INTP)
        where[st.wave_ids[sel]] = np.arange(sb.size)
        base = base[where[ls.flat >> 5] * WAVE32 + (ls.flat & (WAVE32 - 1))]
    base.flags.writeable = False
    # the low bits of each lane's byte offset into the mapping, but for the VGPR's
    return r, st.scratch_base.tobytes(), base, int(rel[0]) | st.private_size | offset


# -- GLOBAL ----------------------------------------------------------------------------------

def global_words(st, ls, sel, addr, saddr, offset, nbytes, write, element=np.uint32):
    """(a mapping's memory as ``element`` (of 1, 2 or 4 bytes), intp (N,) index of each
    accessing lane's access, the OR of their byte offsets into the mapping) for GLOBAL
    addresses VADDR (a VGPR pair) or SADDR (an SGPR pair) + VADDR (one VGPR), + ``offset``, when
    the upper address dwords (or the SADDR) are the same for every lane, else None."""
    lo = lanes_of(st, ls, sel, addr)
    if saddr is None:
        hi = lanes_of(st, ls, sel, addr + 1)
        hb = hi.tobytes()
        if hb != hb[:4] * (len(hb) >> 2):
            va = np.empty(lo.shape + (2,), np.uint32)            # each lane's pair as uint64
            va[..., 0], va[..., 1] = lo, hi
            return _va_words(st, va.view(np.uint64).reshape(-1), offset, nbytes, write, element)
        base = int.from_bytes(hb[:4], "little") << 32
    else:
        sl, sh = st.sregs[saddr, sel].tobytes(), st.sregs[saddr + 1, sel].tobytes()
        if sl != sl[:4] * (len(sl) >> 2) or sh != sh[:4] * (len(sh) >> 2):
            # a base per wave (each wave's own record): each lane's wave's
            bases = np.ascontiguousarray(st.sregs[saddr:saddr + 2].T).view(np.uint64)[:, 0]
            if ls.flat is None:
                va = np.add(bases[sel][:, None], lo, dtype=np.uint64).reshape(-1)
            else:
                va = np.add(bases[ls.flat >> 5], lo, dtype=np.uint64)
            return _va_words(st, va, offset, nbytes, write, element)
        base = int.from_bytes(sl[:4], "little") | int.from_bytes(sh[:4], "little") << 32
    base += offset                                    # every lane's VA is base + lo (uint32)
    r = st.vm.lookup(base + lo.item(0))
    if r is None or write and not r.writable:
        return None
    words = r.mem.view(element)
    shift = _SHIFTS[words.itemsize]
    limit = r.end - r.start - nbytes
    gap = base - r.start                               # VA - mapping start = lo + gap
    if gap >= 0 and not gap & ((1 << shift) - 1):
        # lo <= limit - gap: then no sum passes 2**32 (limit is a mapping's size)
        w, bits = _checked(lo, limit - gap, shift)
        if w is None:
            return None
        if gap:
            w += gap >> shift
        return words, w, bits | gap
    if gap < 0 and not -gap & ((1 << shift) - 1) and limit - gap < 1 << 32:
        # the mapping starts above base: lo - (-gap), where a lane below the mapping wraps to
        # a value above 2**32 - (-gap), past the limit when the mapping is smaller than that
        w, bits = _checked(lo - np.uint32(-gap), limit, shift)
        return None if w is None else (words, w, bits)
    # (a mapping reaching across 4 GiB of base, a base not aligned to the element)
    va = np.add(lo, np.uint64(base & 0xFFFFFFFFFFFFFFFF), dtype=np.uint64).reshape(-1)
    return _va_words(st, va, 0, nbytes, write, element)


_SHIFTS = {1: 0, 2: 1, 4: 2}


def _va_words(st, va, offset, nbytes, write, element):
    """global_words of lanes whose VAs (uint64 (N,), our own array) are not one base plus a
    uint32: the general path's steps (offset added modulo 2**64, the mapping of the first lane's
    VA, offsets from it wrapping below it), without its LaneAccess."""
    if offset:
        va += np.uint64(offset & 0xFFFFFFFFFFFFFFFF)
    r = st.vm.lookup(int(va[0]))
    if r is None or write and not r.writable:
        return None
    va -= np.uint64(r.start)
    words = r.mem.view(element)
    w, bits = _checked(va, r.end - r.start - nbytes, _SHIFTS[words.itemsize])
    return None if w is None else (words, w, bits)
