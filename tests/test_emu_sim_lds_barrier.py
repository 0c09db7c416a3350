"""LDS and barrier paths of the wave simulator's scheduler work: the whole-wave LDS path against
the general one, stores whose lanes overlap landing in lane order, and s_barrier holding waves
that reach it on several paths."""
import numpy as np
import pytest

from tests.test_emu_sim_helpers import DATA_VA, EXEC, const, ds, endpgm, flat, program, run_code, s_mov, v, vop2

LANES = np.arange(32, dtype=np.uint32)
M32 = 0xFFFFFFFF
BASE = program(s_mov(2, DATA_VA), s_mov(3, 0))           # s[2:3] = data buffer


def lane_offsets(shift, reg=1):
    """v[reg] = lane << shift."""
    return vop2("v_lshlrev_b32_e32", reg, const(shift), v(0))


@pytest.mark.parametrize("exec_mask", [M32, 0x7FFF_FFFE])
@pytest.mark.parametrize("where,stride", [("global", 4), ("global", 2), ("lds", 4)])
def test_overlapping_multi_dword_stores_land_in_lane_order(where, stride, exec_mask):
    """b64/b96 stores whose lanes overlap (lane L at byte stride * L): the highest active lane's
    bytes land last, as the memory pipeline orders one instruction's lanes (dword-aligned and
    byte paths, every lane active or a partial EXEC)."""
    code = program(BASE, lane_offsets(stride.bit_length() - 1),
                   vop2("v_lshlrev_b32_e32", 2, const(8), v(0)), vop2("v_or_b32_e32", 2, const(1), v(2)),
                   vop2("v_lshlrev_b32_e32", 3, const(8), v(0)), vop2("v_or_b32_e32", 3, const(2), v(3)),
                   vop2("v_lshlrev_b32_e32", 4, const(8), v(0)), vop2("v_or_b32_e32", 4, const(3), v(4)),
                   s_mov(EXEC, exec_mask),
                   flat("global_store_b96", "GLOBAL", addr=1, data=2, saddr=2) if where == "global"
                   else ds("ds_store_b96", addr=1, data0=2),
                   endpgm())
    _, st, vm = run_code(code, data=bytes(512), lds=512)
    want = np.zeros(512, np.uint8)
    for lane in range(32):
        if exec_mask >> lane & 1:
            words = np.array([lane << 8 | 1, lane << 8 | 2, lane << 8 | 3], np.uint32)
            want[stride * lane:stride * lane + 12] = words.view(np.uint8)
    got = vm.view(DATA_VA, np.uint8, 512) if where == "global" else st.lds[:512]
    assert got.tolist() == want.tolist()


@pytest.mark.parametrize("text", [
    "ds_load_b32 v8, v5", "ds_load_b64 v[8:9], v5 offset:8", "ds_load_b128 v[8:11], v5 offset:16",
    "ds_load_2addr_b32 v[8:9], v5 offset0:3 offset1:1", "ds_load_2addr_stride64_b64 v[8:11], v5 offset1:1",
    "ds_store_b32 v5, v6 offset:4", "ds_store_b64 v5, v[6:7]", "ds_store_b96 v5, v[8:10] offset:12"])
def test_whole_wave_lds_path_matches_the_general_one(monkeypatch, text):
    """LDS dword accesses by groups whose every lane is active take a shorter path
    (lds.DENSE_FAST): it must leave the registers and LDS the general path leaves, for slices and
    scattered waves of several workgroups, and hand over unaligned, out-of-range and partial-EXEC
    accesses (and allocations that are not whole dwords) to it."""
    from assembler.rdna3 import assemble
    from assembler.rdna3.decoder import decode
    from drivers.emu.amd.shader import lds
    from drivers.emu.amd.shader.state import EXEC_LO, WaveState

    ins, _ = decode(assemble(text), 0)
    fn = lds.build_ds(ins, 0, 16)
    rng = np.random.default_rng(len(text))
    for trial in range(16):
        W = int(rng.integers(1, 9))
        lds_bytes = [2048, 1024, 2046, 4096][trial % 4]
        sel = slice(1, W) if trial % 2 else np.sort(rng.choice(W, max(1, W // 2), replace=False))
        if trial % 2 and W == 1:
            sel = slice(0, 1)
        offs = rng.integers(0, 256, W * 32) * 4
        if trial % 8 == 3:
            offs[7] += 2                                   # one unaligned lane
        if trial % 8 == 5:
            offs[-1] = lds_bytes - 4                       # one lane at the end of the allocation
        vregs0 = rng.integers(0, 1 << 32, (16, W, 32), dtype=np.uint64).astype(np.uint32)
        vregs0[5] = offs.reshape(W, 32)
        lds0 = None
        outcomes = []
        for fast in (True, False):
            monkeypatch.setattr(lds, "DENSE_FAST", fast)
            st = WaveState(W, 16, 3, lds_bytes, None)
            st.wg[:] = np.arange(W) % 3                    # waves of three workgroups, interleaved
            if lds0 is None:
                lds0 = rng.integers(0, 256, st.lds.shape, dtype=np.uint8)
            st.lds[:] = lds0
            st.vregs[:] = vregs0
            st.sregs[EXEC_LO] = 0xFFFFFFFF if trial % 8 != 6 else 0xFFFF0FFF
            fn(st, sel)
            outcomes.append((st.vregs.copy(), st.lds.copy()))
        (v1, l1), (v2, l2) = outcomes
        assert np.array_equal(v1, v2) and np.array_equal(l1, l2), trial


def test_barrier_waits_for_waves_arriving_on_three_paths():
    """Waves 2-3, 1 and 0 of a workgroup reach s_barrier on three paths (two nested divergent
    branches, run lowest PC first), and each reads its neighbour's LDS slot right after it: the
    first group to park must not release the barrier while the others still run towards it."""
    from assembler.rdna3 import assemble

    def path(label, value):
        return f"""{label}:
  v_mov_b32_e32 v2, {value}
  ds_store_b32 v1, v2
  s_waitcnt lgkmcnt(0)
  s_barrier
  ds_load_b32 v5, v4
  s_waitcnt lgkmcnt(0)
  s_endpgm
"""
    code = assemble(f"""
  v_lshrrev_b32_e32 v3, 5, v0
  v_readfirstlane_b32 s4, v3
  v_lshlrev_b32_e32 v1, 2, v3
  v_add_nc_u32_e32 v4, 1, v3
  v_and_b32_e32 v4, 3, v4
  v_lshlrev_b32_e32 v4, 2, v4
  s_cmp_eq_u32 s4, 0
  s_cbranch_scc1 path_c
  s_cmp_eq_u32 s4, 1
  s_cbranch_scc1 path_b
{path("path_a", "v3")}{path("path_b", 101)}{path("path_c", 100)}""")
    _, st, _ = run_code(code, waves=1, block=128, lds=64)
    slots = [100, 101, 2, 3]
    for w in range(4):
        assert st.vgpr[w, 5].tolist() == [slots[(w + 1) % 4]] * 32, w


@pytest.mark.parametrize("op", ["ds_add_u32", "ds_sub_u32", "ds_and_b32", "ds_or_b32", "ds_xor_b32", "ds_min_i32",
                                "ds_max_i32", "ds_min_u32", "ds_max_u32", "ds_add_u64", "ds_min_i64", "ds_max_u64",
                                "ds_add_rtn_u32", "ds_rsub_u32"])
def test_order_free_lds_atomics_match_lane_by_lane(monkeypatch, op):
    """LDS atomics without a return value whose result does not depend on the lanes' order apply
    at once (memory.ORDER_FREE, duplicates included): LDS and registers must be those of
    executing the lanes one after another, with lanes out of range, unaligned lanes and partial
    EXEC."""
    from assembler.rdna3 import assemble
    from assembler.rdna3.decoder import decode
    from drivers.emu.amd.shader import lds, memory
    from drivers.emu.amd.shader.state import EXEC_LO, WaveState

    order_free = dict(memory.ORDER_FREE)
    wide = op.endswith("64")
    data = "v[2:3]" if wide else "v2"
    text = f"{op} v4, v1, {data}" if "rtn" in op else f"{op} v1, {data}"
    fn = lds.build_ds(decode(assemble(text), 0)[0], 0, 16)
    rng = np.random.default_rng(len(op))
    for trial in range(8):
        W = int(rng.integers(1, 6))
        step = 8 if wide else 4
        offs = rng.integers(0, 24, W * 32) * step                  # many lanes on few locations
        if trial % 4 == 1:
            offs[3] = 1000                                         # past the 256-byte allocation
        if trial % 4 == 2:
            offs[5] += 2                                           # unaligned: the byte path
        vregs0 = rng.integers(0, 1 << 32, (16, W, 32), dtype=np.uint64).astype(np.uint32)
        vregs0[1] = offs.reshape(W, 32)
        outcomes, lds0 = [], None
        for fast in (True, False):
            monkeypatch.setattr(memory, "ORDER_FREE", order_free if fast else {})
            st = WaveState(W, 16, 2, 256, None)
            st.wg[:] = np.arange(W) % 2
            if lds0 is None:
                lds0 = rng.integers(0, 256, st.lds.shape, dtype=np.uint8)
            st.lds[:] = lds0
            st.vregs[:] = vregs0
            st.sregs[EXEC_LO] = M32 if trial % 2 == 0 else 0x7FF0FFFF
            fn(st, slice(0, W))
            outcomes.append((st.lds.copy(), st.vregs.copy()))
        (l1, v1), (l2, v2) = outcomes
        assert np.array_equal(l1, l2) and np.array_equal(v1, v2), trial


@pytest.mark.parametrize("op", ["global_atomic_add_u32", "global_atomic_min_i32", "global_atomic_xor_b64",
                                "global_atomic_max_u64", "global_atomic_sub_u32"])
def test_order_free_global_atomics_match_lane_by_lane(monkeypatch, op):
    """GLOBAL atomics without a return value whose memory result does not depend on the lanes'
    order apply at once (memory.ORDER_FREE): memory must be that of executing the lanes one
    after another, many lanes on few locations; a fault stays the general path's."""
    from assembler.rdna3 import assemble
    from assembler.rdna3.decoder import decode
    from drivers.emu.amd.shader import memory
    from drivers.emu.amd.shader.state import EXEC_LO, WaveState
    from drivers.emu.faults import MemoryFault
    from drivers.emu.vm import GpuVM

    order_free = dict(memory.ORDER_FREE)
    wide = op.endswith("64")
    fn = memory.build_flat(decode(assemble(f"{op} v1, {'v[2:3]' if wide else 'v2'}, s[0:1]"), 0)[0], 0, 16)
    rng = np.random.default_rng(len(op))
    for trial in range(6):
        W = int(rng.integers(1, 5))
        offs = rng.integers(0, 16, W * 32) * (8 if wide else 4)
        if trial == 3:
            offs[9] = 0x2000                                       # past the mapping: a fault
        if trial == 4:
            offs[2] += 2                                           # unaligned: lane by lane
        mem0 = rng.integers(0, 256, 0x1000, dtype=np.uint8)
        vregs0 = rng.integers(0, 1 << 32, (16, W, 32), dtype=np.uint64).astype(np.uint32)
        vregs0[1] = offs.reshape(W, 32)
        outcomes = []
        for fast in (True, False):
            monkeypatch.setattr(memory, "ORDER_FREE", order_free if fast else {})
            vm, mem = GpuVM(), mem0.copy()
            vm.map(DATA_VA, mem)
            st = WaveState(W, 16, W, 0, vm)
            st.vregs[:] = vregs0
            st.sregs[EXEC_LO] = M32 if trial % 2 == 0 else 0x0FFF_FFF0
            st.sregs[0], st.sregs[1] = DATA_VA & M32, DATA_VA >> 32
            try:
                fn(st, slice(0, W))
                err = None
            except MemoryFault as e:
                err = str(e)
            outcomes.append((err, mem))
        (e1, m1), (e2, m2) = outcomes
        assert e1 == e2 and np.array_equal(m1, m2), (trial, e1, e2)
        assert (e1 is not None) == (trial == 3)
