"""The initial state of a dispatch's waves, as the SPI would set it up on gfx11 (wave32).

Per workgroup, the work-items are linearized x-fastest over the workgroup's actual (possibly
partial) extent and cut into waves of 32; lanes past the end have EXEC clear.  Each wave gets the
user SGPRs, then the enabled workgroup ids X/Y/Z and workgroup info (COMPUTE_PGM_RSRC2 order),
the packed work-item ids in v0 (X[9:0] Y[19:10] Z[29:20]) and the MODE register from RSRC1.
"""
import numpy as np

from drivers.emu.dispatch import RSRC2_TG_SIZE_EN
from drivers.emu.faults import IllegalInstruction

from .state import EXEC_LO, WAVE32, WaveState, mode_from_rsrc1

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


def build_state(d, wg_ids, vgprs, scratch):
    """WaveState for the workgroups ``wg_ids``; scratch = (base VA of wave 0, bytes per wave,
    bytes per lane) or None."""
    extents = [workgroup_extent(d, w) for w in wg_ids]
    counts = [waves_in(e) for e in extents]
    W = sum(counts)
    st = WaveState(W, vgprs, len(wg_ids), d.lds_bytes, d.vm)
    n_user = d.user_sgpr_count
    user = list(d.user_sgprs)[:n_user]
    st.sgpr[:, :len(user)] = np.array(user, np.uint32)
    st.pc[:] = d.code_va
    st.mode[:] = mode_from_rsrc1(d.rsrc1)
    tgid = d.tgid_enabled
    row = 0
    for g, (wg_id, ext, n) in enumerate(zip(wg_ids, extents, counts)):
        rows = slice(row, row + n)
        st.wg[rows] = g
        k = n_user
        for axis in range(3):
            if tgid[axis]:
                st.sgpr[rows, k] = wg_id[axis]
                k += 1
        if d.rsrc2 & RSRC2_TG_SIZE_EN:
            st.sgpr[rows, k] = n                     # workgroup info: waves in the workgroup
            k += 1
        flat = np.arange(n * WAVE32).reshape(n, WAVE32)
        items = ext[0] * ext[1] * ext[2]
        x = flat % max(ext[0], 1)
        y = (flat // max(ext[0], 1)) % max(ext[1], 1)
        z = flat // max(ext[0] * ext[1], 1)
        ids = x | y << 10 | z << 20
        valid = flat < items
        st.vgpr[rows, 0, :] = np.where(valid, ids, 0).astype(np.uint32)
        st.sgpr[rows, EXEC_LO] = np.packbits(valid, axis=1, bitorder="little").view(np.uint32)[:, 0]
        st.hw_id[rows] = (np.arange(n) & 31) | (g % 48) << 10
        row += n
    if scratch is not None:
        base, per_wave, per_lane = scratch
        st.scratch_base[:] = np.uint64(base) + np.arange(W, dtype=np.uint64) * np.uint64(per_wave)
        st.private_size = per_lane
    return st
