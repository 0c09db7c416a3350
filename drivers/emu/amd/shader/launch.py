"""The initial state of a dispatch's waves, as the SPI would set it up on gfx11 (wave32).

Per workgroup, the work-items are linearized x-fastest over the workgroup's actual (possibly
partial) extent and cut into waves of 32; lanes past the end have EXEC clear.  Each wave gets the
user SGPRs, then the enabled workgroup ids X/Y/Z and workgroup info (COMPUTE_PGM_RSRC2 order),
the packed work-item ids in v0 (X[9:0] Y[19:10] Z[29:20]) and the MODE register from RSRC1.
"""
import numpy as np

from drivers.emu.amd.dispatch import LDS_GRANULE, RSRC2_TG_SIZE_EN
from drivers.emu.faults import IllegalInstruction

from .state import EXEC_LO, WAVE32, WaveState, arena_view, mode_from_rsrc1

MAX_VGPRS = 256


def vgpr_count(rsrc1):
    """VGPRs a wave32 kernel allocates: (GRANULATED_WORKITEM_VGPR_COUNT + 1) * 8."""
    return min(MAX_VGPRS, ((rsrc1 & 0x3F) + 1) * 8)


def check_dispatch(d):
    if not d.wave32:
        raise IllegalInstruction(d.code_va, "wave64 dispatch: the virtual gfx1100 runs wave32 kernels "
                                            "only (set ENABLE_WAVEFRONT_SIZE32 in the kernel descriptor)")
    if any(n <= 0 for n in d.workgroup_size) or any(n <= 0 for n in d.grid_workgroups):
        raise IllegalInstruction(d.code_va, f"empty dispatch: grid {d.grid_workgroups} of workgroups "
                                            f"{d.workgroup_size}")


def lds_allocation(d):
    """LDS bytes a workgroup owns: what COMPUTE_PGM_RSRC2.LDS_SIZE allocates (512-byte granules),
    at least the dispatch's group segment.  Accesses past it read 0 and drop writes."""
    return max(d.lds_bytes, ((d.rsrc2 >> 15) & 0x1FF) * LDS_GRANULE)


def workgroup_extent(d, wg_id):
    """Work-items of workgroup wg_id in each dimension (the last one may be partial)."""
    out = []
    for i in range(3):
        size = d.workgroup_size[i]
        total = d.grid_size[i] if d.grid_size and d.grid_size[i] else d.grid_workgroups[i] * size
        out.append(max(0, min(size, total - wg_id[i] * size)))
    return tuple(out)


def waves_in(extent):
    return -(-extent[0] * extent[1] * extent[2] // WAVE32)


def workgroup_ids(d):
    gx, gy, gz = d.grid_workgroups
    for z in range(gz):
        for y in range(gy):
            for x in range(gx):
                yield (x, y, z)


def workgroup_table(d):
    """Every workgroup of the dispatch in launch order (x fastest): ids (G, 3), extents (G, 3)
    and wave counts (G,) as int64 arrays."""
    gx, gy, gz = d.grid_workgroups
    size = d.workgroup_size
    total = [d.grid_size[k] if d.grid_size and d.grid_size[k] else d.grid_workgroups[k] * size[k]
             for k in range(3)]
    if gx * gy * gz <= 256:                 # small grids: plain Python is cheaper than numpy
        ids = [(x, y, z) for z in range(gz) for y in range(gy) for x in range(gx)]
        extents = [tuple(max(0, min(size[k], total[k] - w[k] * size[k])) for k in range(3)) for w in ids]
        waves = [-(-e[0] * e[1] * e[2] // WAVE32) for e in extents]
        return np.array(ids, np.int64), np.array(extents, np.int64), np.array(waves, np.int64)
    i = np.arange(gx * gy * gz, dtype=np.int64)
    ids = np.empty((i.shape[0], 3), np.int64)
    ids[:, 0], ids[:, 1], ids[:, 2] = i % gx, (i // gx) % gy, i // (gx * gy)
    size = np.array(size, np.int64)
    extents = np.minimum(np.maximum(np.array(total, np.int64) - ids * size, 0), size)
    return ids, extents, -(-(extents[:, 0] * extents[:, 1] * extents[:, 2]) // WAVE32)


def build_state(d, ids, extents, vgprs, scratch, templates=None):
    """WaveState for the workgroups with ids (G, 3) and extents (G, 3); scratch = (base VA of
    wave 0, bytes per wave, bytes per lane) or None.  ``templates``: a dict keeping the
    launch-independent part of the state per batch shape (small batches; repeated launches copy
    it)."""
    if templates is not None and len(ids) <= TEMPLATE_WORKGROUPS:
        key = (d.code_va, d.user_sgpr_count, d.rsrc1, d.rsrc2, tuple(d.tgid_enabled), lds_allocation(d), vgprs,
               scratch, ids.tobytes(), extents.tobytes())
        t = templates.get(key)
        if t is None:
            if len(templates) >= MAX_TEMPLATES:
                templates.pop(next(iter(templates)))
            t = templates[key] = Template(d, ids, extents, vgprs, scratch)
        return t.instantiate(d.vm, d.user_sgprs[:d.user_sgpr_count], getattr(d, "clock", None))
    st = _initial_state(d, ids, extents, vgprs, scratch)
    _user_sgprs(st, d)
    st.clock = getattr(d, "clock", None)
    return st


def _initial_state(d, ids, extents, vgprs, scratch):
    """The WaveState of build_state() before its user SGPRs and clock."""
    items = extents[:, 0] * extents[:, 1] * extents[:, 2]
    counts = -(-items // WAVE32)
    G = len(ids)
    W = int(counts.sum())
    st = WaveState(W, vgprs, G, lds_allocation(d), d.vm)
    n_user = d.user_sgpr_count
    st.pc[:] = d.code_va
    st.mode[:] = mode_from_rsrc1(d.rsrc1)
    if G == W:                                                         # one wave per workgroup
        group = np.arange(G)
        k_in_group = np.zeros(W, np.int64)
    else:
        group = np.repeat(np.arange(G), counts)                         # workgroup of each wave
        k_in_group = np.arange(W) - np.repeat(np.cumsum(counts) - counts, counts)   # wave index in it
    st.wg[:] = group
    k = n_user
    for axis in range(3):
        if d.tgid_enabled[axis]:
            st.sregs[k] = ids[group, axis]
            k += 1
    if d.rsrc2 & RSRC2_TG_SIZE_EN:
        st.sregs[k] = counts[group]                                    # workgroup info: its wave count
    if G and not np.count_nonzero(extents != extents[0]):          # one workgroup shape: its ids, repeated
        v0, exec_lo = _workitem_ids(extents[:1])
        st.vregs[0] = np.tile(v0, (G, 1))
        st.sregs[EXEC_LO] = np.tile(exec_lo, G)
    else:
        v0, exec_lo = _workitem_ids(extents[group], k_in_group, items[group])
        st.vregs[0], st.sregs[EXEC_LO] = v0, exec_lo
    st.hw_id[:] = (k_in_group & 31) | (group % 48) << 10
    if scratch is not None:
        base, per_wave, per_lane = scratch
        st.scratch_base[:] = np.uint64(base) + np.arange(W, dtype=np.uint64) * np.uint64(per_wave)
        st.private_size = per_lane
    return st


MAX_TEMPLATES = 16
TEMPLATE_WORKGROUPS = 256        # larger batches are built each time (their setup is a small part)


def _workitem_ids(ext, k_in_group=None, items=None):
    """(v0, EXEC) of waves of workgroups with extents ``ext`` (w, 3), each wave the
    ``k_in_group``-th of its workgroup, which has ``items`` work-items; without them, every wave
    of one workgroup of extent ``ext[0]``."""
    if k_in_group is None:
        items = ext[:, 0] * ext[:, 1] * ext[:, 2]
        k_in_group = np.arange(-(-int(items[0]) // WAVE32))
    flat = k_in_group[:, None] * WAVE32 + np.arange(WAVE32)
    ex, ey = np.maximum(ext[:, :1], 1), np.maximum(ext[:, 1:2], 1)
    x, y, z = flat % ex, (flat // ex) % ey, flat // (ex * ey)
    valid = flat < np.asarray(items)[:, None]
    return (np.where(valid, x | y << 10 | z << 20, 0).astype(np.uint32),
            np.packbits(valid, axis=1, bitorder="little").view(np.uint32)[:, 0])


def _user_sgprs(st, d):
    user = d.user_sgprs[:d.user_sgpr_count]
    if user:
        st.sregs[:len(user)] = np.array(user, np.uint32)[:, None]


class Template:
    """The initial state of a batch before its user SGPRs (which carry launch-specific
    pointers) and clock, for every launch of the same shape.  The arena with the last user SGPR
    values given is kept too (a launch shape's repeated dispatches pass the same ones), and so
    is one finished state handed back by ``release``, which the next launch restarts in place
    of building a new one."""

    def __init__(self, d, ids, extents, vgprs, scratch):
        st = _initial_state(d, ids, extents, vgprs, scratch)
        self.W, self.vgprs, self.lds_bytes = st.W, st.vgprs, st.lds_bytes
        self.lds_size = st.lds.size
        self.arena, self.v0 = st.arena, st.vregs[0].copy()
        self.private_size = st.private_size
        self.reusable = st.vregs.nbytes + st.lds.nbytes <= REUSED_STATE_BYTES
        self.last = (None, None)              # (user SGPR values, the arena with them): one object,
                                              # read once (launches in other threads replace it)
        self.free = []                        # a finished state to restart (release())

    def instantiate(self, vm, user, clock=None):
        last = self.last
        if last[0] != user:
            arena = self.arena.copy()
            if user:
                arena_view(arena, self.W, "sregs")[:len(user)] = np.array(user, np.uint32)[:, None]
            last = self.last = (user, arena)
        try:
            st = self.free.pop()              # (atomic: two threads never get the same one)
        except IndexError:
            st = WaveState.__new__(WaveState)
            st.init_from(self.W, self.vgprs, self.lds_size, self.lds_bytes, vm, last[1].copy())
            st.vregs[0] = self.v0
            st.private_size = self.private_size
        else:
            st.restart(last[1], self.v0, vm)
        st.clock = clock
        return st

    def release(self, st):
        """``st``, instantiated here, has run to its end and nothing refers to it any more."""
        if self.reusable and not self.free:
            self.free.append(st)


REUSED_STATE_BYTES = 1 << 20     # larger states are built anew (zeroing them costs as much)
