"""Atomics without a return value whose memory result does not depend on the lanes' order
(memory.ORDER_FREE) apply every lane at once: LDS and GLOBAL, against lane-by-lane execution."""
import numpy as np
import pytest

from tests.test_emu_sim_helpers import DATA_VA

M32 = 0xFFFFFFFF


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
