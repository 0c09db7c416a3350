"""Per-lane memory access for the SASS simulator: global (through the channel's GPU VM), shared (one
row per CTA), local (one row per thread), generic addresses (the shared and local windows), with the
hardware's checks: a misaligned address is a MISALIGNED_ADDR SM exception, a shared or local address
past what the QMD gave an OOR_ADDR one, a global address no mapping covers an MMU fault naming it.

Global lanes are grouped by the VM mapping they fall in (usually one: a kernel streams through a
buffer), then gathered or scattered with numpy fancy indexing on that mapping's bytes.
"""
import numpy as np

from drivers.emu.faults import NOT_PRESENT, READ_ONLY, MemoryFault
from drivers.emu.nv.faults import ESR_INVALID_ADDR_SPACE, ESR_MISALIGNED_ADDR, ESR_OOR_ADDR, SmException
from drivers.emu.nv.sass.state import LOCAL_WINDOW

WINDOW = 1 << 32
_BYTE = np.arange(16, dtype=np.int64)


def check_aligned(addrs, size, pc, space):
    bad = addrs % size != 0
    if bad.any():
        a = int(addrs[bad][0])
        raise SmException(ESR_MISALIGNED_ADDR, pc, f"{space} access of {size} bytes at 0x{a:x} is not {size}-byte "
                          "aligned", a)


def vm_groups(vm, addrs, size, write, pc):
    """[(uint8 array of a mapping, offsets into it, positions in `addrs`)] covering every address."""
    lo, hi = int(addrs.min()), int(addrs.max())
    r = vm.lookup(lo)
    if r is not None and hi + size <= r.end:
        _perm(r, lo, write, pc)
        return [(r.mem, addrs - r.start, None)]
    starts = np.asarray(vm._starts, np.int64)
    idx = np.searchsorted(starts, addrs, side="right") - 1
    groups = []
    for i in np.unique(idx):
        sel = np.flatnonzero(idx == i)
        a = addrs[sel]
        r = vm._ranges[i] if i >= 0 else None
        if r is None or (a + size > r.end).any() or (a < r.start).any():
            bad = a if r is None else a[(a + size > r.end) | (a < r.start)]
            f = MemoryFault(int(bad.min()), NOT_PRESENT, write)
            f.pc = pc
            raise f
        _perm(r, int(a[0]), write, pc)
        groups.append((r.mem, a - r.start, sel))
    return groups


def _perm(r, va, write, pc):
    if write and not r.writable:
        f = MemoryFault(va, READ_ONLY, True)
        f.pc = pc
        raise f


def global_load(vm, addrs, size, pc):
    """Bytes [len(addrs), size] read at `addrs` (int64)."""
    out = np.empty((len(addrs), size), np.uint8)
    if len(addrs) == 0:
        return out
    check_aligned(addrs, size, pc, "global")
    for mem, offs, sel in vm_groups(vm, addrs, size, False, pc):
        data = mem[offs[:, None] + _BYTE[:size]]
        if sel is None:
            out[:] = data
        else:
            out[sel] = data
    return out


def global_store(vm, addrs, data, pc):
    if len(addrs) == 0:
        return
    size = data.shape[1]
    check_aligned(addrs, size, pc, "global")
    for mem, offs, sel in vm_groups(vm, addrs, size, True, pc):
        mem[offs[:, None] + _BYTE[:size]] = data if sel is None else data[sel]


class Space:
    """Where a lane's address points: 'global', 'shared' or 'local' plus the offset in that space."""
    GLOBAL, SHARED, LOCAL = 0, 1, 2


def classify_generic(st, addrs):
    """Generic addresses -> (space codes, offsets): inside the shared or local window, or global."""
    sw, lw = st.launch.shared_window, st.launch.local_window
    space = np.zeros(addrs.shape, np.int8)
    offs = addrs.copy()
    if sw:
        inside = (addrs >= sw) & (addrs < sw + WINDOW)
        space[inside], offs[inside] = Space.SHARED, addrs[inside] - sw
    if lw:
        inside = (addrs >= lw) & (addrs < lw + WINDOW)
        space[inside], offs[inside] = Space.LOCAL, addrs[inside] - lw
    return space, offs


def shared_index(st, G, m, offs, size, pc):
    """Flat indices into st.shared for each active lane's `size` bytes at shared offsets `offs`."""
    if st.sm >= 0x900:
        rank = offs >> 24
        if (rank[m] != 0).any():
            raise SmException(ESR_INVALID_ADDR_SPACE, pc, "a shared address of another CTA of the cluster "
                              "(distributed shared memory is not emulated)", int(offs[m][rank[m] != 0][0]))
        offs = offs & 0xFFFFFF
    a = offs[m]
    check_aligned(a, size, pc, "shared")
    bad = (a < 0) | (a + size > st.shared_bytes)
    if bad.any():
        v = int(a[bad][0])
        raise SmException(ESR_OOR_ADDR, pc, f"shared access at 0x{v:x} is past the {st.shared_bytes}-byte shared "
                          "memory of the CTA (SHARED_MEMORY_SIZE)", v)
    cta = np.broadcast_to(st.cta_of_warp[G][:, None], m.shape)[m].astype(np.int64)
    return cta * st.shared.shape[1] + a


def local_index(st, G, m, offs, size, pc):
    """Flat indices into st.local for each active lane: [0, LOW) and [16 MiB - HIGH, 16 MiB)."""
    a = offs[m]
    check_aligned(a, size, pc, "local")
    low, high = st.local_low, st.local_high
    in_low = (a >= 0) & (a + size <= low)
    in_high = (a >= LOCAL_WINDOW - high) & (a + size <= LOCAL_WINDOW)
    bad = ~(in_low | in_high)
    if bad.any() or st.local is None:
        v = int(a[bad][0]) if bad.any() else int(a[0])
        raise SmException(ESR_OOR_ADDR, pc, f"local access at 0x{v:x} is outside the thread's local memory "
                          f"(LOW {low} bytes at 0, HIGH {high} bytes below 0x{LOCAL_WINDOW:x})", v)
    row = np.where(in_low, a, low + a - (LOCAL_WINDOW - high))
    gw = np.arange(st.nw)[G][:, None]
    thread = (gw * 32 + np.arange(32)[None, :])[m].astype(np.int64)
    return thread * st.local.shape[1] + row


def flat_load(arr, idx, size):
    flat = arr.reshape(-1)
    return flat[idx[:, None] + _BYTE[:size]]


def flat_store(arr, idx, data):
    flat = arr.reshape(-1)
    flat[idx[:, None] + _BYTE[:data.shape[1]]] = data
