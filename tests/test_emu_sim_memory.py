"""Vector and scalar memory of the wave simulator: global loads/stores of every width, atomics
executed lane after lane, scratch, LDS (bounds: reads 0, writes dropped), the LDS permutes and
SMEM, with expected values computed here."""
import struct

import numpy as np
import pytest

from drivers.emu.faults import MemoryFault
from tests.test_emu_sim_helpers import (DATA_VA, EXEC, LIT, const, ds, endpgm, flat, program, run_code,
                                        s_mov, smem, sopp, v, vop1, vop2)

LANES = np.arange(32, dtype=np.uint32)
M32 = 0xFFFFFFFF
BASE = program(s_mov(2, DATA_VA), s_mov(3, 0))           # s[2:3] = data buffer


def data_words(vm, count, offset=0):
    return vm.view(DATA_VA + offset, np.uint32, count).copy()


def lane_offsets(shift, reg=1):
    """v[reg] = lane << shift."""
    return vop2("v_lshlrev_b32_e32", reg, const(shift), v(0))


def test_global_widths_and_sign_extension():
    data = bytes(range(256)) * 4
    code = program(BASE, lane_offsets(2),
                   flat("global_load_i8", "GLOBAL", vdst=2, addr=1, saddr=2, offset=0x80),
                   flat("global_load_u16", "GLOBAL", vdst=3, addr=1, saddr=2, offset=0x100),
                   flat("global_load_b64", "GLOBAL", vdst=4, addr=1, saddr=2, offset=4),      # dword-aligned
                   vop1("v_mov_b32_e32", 6, const(5)),
                   flat("global_load_d16_hi_b16", "GLOBAL", vdst=6, addr=1, saddr=2, offset=0x200),
                   endpgm())
    _, st, _ = run_code(code, data=data)
    b = np.frombuffer(data, np.uint8)
    off = LANES * 4
    assert st.vgpr[0, 2].tolist() == [x & M32 for x in b[off + 0x80].astype(np.int8).astype(np.int64)]
    assert st.vgpr[0, 3].tolist() == (b[off + 0x100] | b[off + 0x101].astype(np.uint32) << 8).tolist()
    w = np.frombuffer(data, np.uint32)
    assert st.vgpr[0, 4].tolist() == w[LANES + 1].tolist() and st.vgpr[0, 5].tolist() == w[LANES + 2].tolist()
    hi = (b[off + 0x200] | b[off + 0x201].astype(np.uint32) << 8).astype(np.uint32)
    assert st.vgpr[0, 6].tolist() == (hi << 16 | 5).tolist()


def test_stores_of_every_width_and_exec():
    code = program(BASE, lane_offsets(4), vop2("v_add_nc_u32_e32", 2, LIT, v(0), 0xA0B0C000),
                   vop2("v_add_nc_u32_e32", 3, const(1), 2), vop2("v_add_nc_u32_e32", 4, const(2), 2),
                   vop2("v_add_nc_u32_e32", 5, const(3), 2),
                   s_mov(EXEC, 0x5555_5555),
                   flat("global_store_b96", "GLOBAL", addr=1, data=2, saddr=2),
                   flat("global_store_b8", "GLOBAL", addr=1, data=5, saddr=2, offset=12),
                   flat("global_store_d16_hi_b16", "GLOBAL", addr=1, data=5, saddr=2, offset=14),
                   endpgm())
    _, st, vm = run_code(code, data=bytes(512))
    got = data_words(vm, 128).reshape(32, 4)
    for lane in range(32):
        if lane % 2:
            assert got[lane].tolist() == [0, 0, 0, 0]
        else:
            x = 0xA0B0C000 + lane
            assert got[lane].tolist() == [x, x + 1, x + 2, ((x + 3) & 0xFF) | ((x + 3) >> 16) << 16]


def test_global_atomics_run_lane_after_lane():
    code = program(BASE, vop1("v_mov_b32_e32", 1, const(0)), vop1("v_mov_b32_e32", 2, const(1)),
                   flat("global_atomic_add_u32", "GLOBAL", vdst=3, addr=1, data=2, saddr=2, glc=1),
                   vop2("v_add_nc_u32_e32", 4, const(10), v(0)),
                   flat("global_atomic_max_u32", "GLOBAL", addr=1, data=4, saddr=2, offset=4),
                   endpgm())
    _, st, vm = run_code(code, waves=2, data=bytes(64))
    assert sorted(st.vgpr[:, 3].ravel().tolist()) == list(range(64))
    assert st.vgpr[0, 3].tolist() == list(range(32))                   # wave 0 first, lanes in order
    assert data_words(vm, 2).tolist() == [64, 41]


def test_cmpswap_64():
    init = struct.pack("<Q", 7) + bytes(56)
    code = program(BASE, vop1("v_mov_b32_e32", 1, const(0)),
                   vop2("v_add_nc_u32_e32", 2, const(8), v(0)), vop1("v_mov_b32_e32", 3, const(0)),   # new = lane + 8
                   vop2("v_add_nc_u32_e32", 4, const(7), v(0)), vop1("v_mov_b32_e32", 5, const(0)),   # cmp = lane + 7
                   flat("global_atomic_cmpswap_b64", "GLOBAL", vdst=6, addr=1, data=2, saddr=2, glc=1),
                   endpgm())
    _, st, vm = run_code(code, data=init)
    # lane L succeeds when memory holds L + 7: a chain 7 -> 8 -> ... -> 39
    assert int(vm.u64(DATA_VA)) == 39
    assert st.vgpr[0, 6].tolist() == [l + 7 for l in range(32)]


def test_lds_out_of_range_reads_zero_and_drops_writes():
    code = program(lane_offsets(2), vop2("v_add_nc_u32_e32", 2, const(1), v(0)),
                   ds("ds_store_b32", addr=1, data0=2, offset0=0x70),            # lanes 4.. past 128 bytes
                   ds("ds_load_b32", vdst=3, addr=1, offset0=0x70),
                   ds("ds_load_2addr_b32", vdst=4, addr=1, offset0=0, offset1=1),
                   endpgm())
    _, st, _ = run_code(code, lds=128)
    inside = LANES * 4 + 0x70 + 4 <= 128
    assert st.vgpr[0, 3].tolist() == np.where(inside, LANES + 1, 0).tolist()
    lds = st.lds[:128].view(np.uint32)
    assert lds[28:32].tolist() == [1, 2, 3, 4]


def test_lds_address_plus_offset_wraps_at_32_bits():
    """clang folds tile[63 - lid] into ds_load (-4*lid) offset:252: ADDR + OFFSET wraps."""
    code = program(lane_offsets(2), vop2("v_add_nc_u32_e32", 2, const(1), v(0)),
                   ds("ds_store_b32", addr=1, data0=2, offset0=0),
                   vop2("v_sub_nc_u32_e32", 3, const(0), v(1)),                # -4*lane as u32
                   ds("ds_load_b32", vdst=4, addr=3, offset0=124),
                   ds("ds_load_2addr_b32", vdst=5, addr=3, offset0=31, offset1=30),
                   endpgm())
    _, st, _ = run_code(code, lds=128)
    assert st.vgpr[0, 4].tolist() == (32 - LANES).tolist()            # lane 31 - l wrote 32 - l
    assert st.vgpr[0, 5].tolist() == (32 - LANES).tolist()
    # offset1 30 -> 120 - 4*lane: lane 31 wraps to 0xfffffffc, past the LDS allocation -> 0
    assert st.vgpr[0, 6].tolist() == np.where(LANES <= 30, 31 - LANES, 0).tolist()


@pytest.mark.parametrize("width,exec_mask", [("b32", M32), ("b32", 0x0F0F_F0F1), ("b64", M32), ("b64", 0x8000_0003)])
def test_lds_load_2addr_fills_both_destinations_in_order(width, exec_mask):
    """ds_load_2addr: offset0's data goes to the first destination register(s), offset1's to
    the next, for every active lane (all lanes, or a scattered EXEC); inactive lanes keep them."""
    k = 2 if width == "b64" else 1
    code = program(lane_offsets(2), vop2("v_add_nc_u32_e32", 2, const(1), v(0)),
                   vop2("v_add_nc_u32_e32", 3, LIT, v(0), 1000),
                   ds("ds_store_b32", addr=1, data0=2, offset0=0),           # dword L = L + 1
                   ds("ds_store_b32", addr=1, data0=3, offset0=128),         # dword 32 + L = L + 1000
                   vop1("v_mov_b32_e32", 8, LIT, 0xAAAA), vop1("v_mov_b32_e32", 9, LIT, 0xAAAA),
                   vop1("v_mov_b32_e32", 10, LIT, 0xAAAA), vop1("v_mov_b32_e32", 11, LIT, 0xAAAA),
                   lane_offsets(1, reg=5),                                   # byte 2 * L (dword aligned pairs)
                   vop2("v_and_b32_e32", 5, LIT, v(5), 0x38),
                   s_mov(EXEC, exec_mask),
                   ds(f"ds_load_2addr_{width}", vdst=8, addr=5, offset0=3, offset1=1),
                   endpgm())
    _, st, _ = run_code(code, lds=512)
    lds = np.concatenate([LANES + 1, LANES + 1000, np.zeros(64, np.uint32)])
    active = (exec_mask >> LANES) & 1 == 1
    word = (2 * LANES & 0x38) // 4
    for i, off in enumerate((3, 1)):
        for j in range(k):
            want = np.where(active, lds[word + off * k + j], 0xAAAA)
            assert st.vgpr[0, 8 + i * k + j].tolist() == want.tolist()


def test_lds_is_per_workgroup_and_atomics_count_every_lane():
    code = program(vop1("v_mov_b32_e32", 1, const(0)), vop1("v_mov_b32_e32", 2, const(1)),
                   ds("ds_add_rtn_u32", vdst=3, addr=1, data0=2),
                   ds("ds_max_u32", addr=1, data0=0, offset0=4),
                   ds("ds_load_2addr_b32", vdst=4, addr=1, offset0=0, offset1=1),
                   endpgm())
    _, st, _ = run_code(code, waves=3, block=64, lds=64)
    for w in range(6):                       # two waves per 64-lane workgroup
        assert st.vgpr[w, 4].tolist() == [64] * 32
        assert st.vgpr[w, 5].tolist() == [63] * 32
    assert st.vgpr[1, 3].tolist() == list(range(32, 64))


def test_ds_bpermute_and_swizzle():
    code = program(vop2("v_add_nc_u32_e32", 1, LIT, v(0), 300),
                   vop2("v_xor_b32_e32", 2, const(1), v(0)), vop2("v_lshlrev_b32_e32", 2, const(2), v(2)),
                   s_mov(EXEC, 0xFFFF_FFFE),
                   ds("ds_bpermute_b32", vdst=3, addr=2, data0=1),                 # lane L reads lane L ^ 1
                   # bitmask mode: and 0x1f, or 0, xor 1 (offset 0x41f): lane L reads lane L ^ 1
                   ds("ds_swizzle_b32", vdst=4, addr=1, offset0=0x1F, offset1=0x04),
                   endpgm())
    _, st, _ = run_code(code)
    for reg in (3, 4):
        got = st.vgpr[0, reg].tolist()
        assert got[1] == 0                              # lane 0 is inactive: it contributes 0
        assert got[2:] == [300 + (l ^ 1) for l in range(2, 32)]


def test_scratch_is_private_per_lane_and_bounded():
    code = program(vop2("v_add_nc_u32_e32", 1, LIT, v(0), 700), vop1("v_mov_b32_e32", 2, const(8)),
                   flat("scratch_store_b32", "SCRATCH", addr=2, data=1, sve=1),
                   flat("scratch_load_b32", "SCRATCH", vdst=3, addr=2, sve=1),
                   endpgm())
    _, st, _ = run_code(code, waves=2, private=16)
    assert st.vgpr[1, 3].tolist() == (LANES + 700).tolist()
    code = program(vop1("v_mov_b32_e32", 2, const(16)),
                   flat("scratch_load_b32", "SCRATCH", vdst=3, addr=2, sve=1), endpgm())
    with pytest.raises(MemoryFault, match="past the 16-byte private segment"):
        run_code(code, private=16)


def test_smem_loads_and_buffer_range():
    data = struct.pack("<16I", *range(100, 116))
    vsharp = program(s_mov(8, DATA_VA), s_mov(9, 0), s_mov(10, 12), s_mov(11, 0))   # num_records = 12
    code = program(BASE, smem("s_load_b128", 4, 2, offset=8), vsharp,
                   smem("s_buffer_load_b128", 12, 8, offset=4), endpgm())
    _, st, _ = run_code(code, data=data)
    assert st.sgpr[0, 4:8].tolist() == [102, 103, 104, 105]
    assert st.sgpr[0, 12:16].tolist() == [101, 102, 0, 0]          # bytes 12.. are past num_records


def test_flat_addresses_in_the_shared_aperture_reach_lds():
    from drivers.emu.amd.shader.operands import SHARED_APERTURE
    code = program(lane_offsets(2), s_mov(4, SHARED_APERTURE >> 32), vop1("v_mov_b32_e32", 2, 4),
                   vop2("v_add_nc_u32_e32", 3, LIT, v(0), 900),
                   flat("flat_store_b32", "FLAT", addr=1, data=3),
                   ds("ds_load_b32", vdst=5, addr=1), endpgm())
    _, st, _ = run_code(code, lds=128)
    assert st.vgpr[0, 5].tolist() == (LANES + 900).tolist()


def test_barrier_exchanges_lds_between_the_waves_of_a_workgroup():
    from tests.test_emu_sim_helpers import sop2, sopc
    # Wave 0 of each workgroup takes a detour placed after s_endpgm (higher PCs, so the scheduler
    # runs wave 1 first) and spins there before it stores: wave 1 only reads wave 0's data if it
    # really waits in s_barrier.
    head = program(vop1("v_readfirstlane_b32", 4, v(0)), sopc("s_cmp_eq_u32", 4, const(0)))
    body = program(lane_offsets(2), vop2("v_add_nc_u32_e32", 2, LIT, v(0), 1000),
                   ds("ds_store_b32", addr=1, data0=2),
                   sopp("s_barrier"),
                   vop2("v_xor_b32_e32", 3, LIT, v(1), 128),                 # the other wave's slot
                   ds("ds_load_b32", vdst=4, addr=3),
                   endpgm())
    spin = program(sop2("s_sub_u32", 5, 5, const(1)), sopc("s_cmp_lg_u32", 5, const(0)))
    detour_start = len(head) + 4 + len(body)
    detour = program(s_mov(5, 20), spin, sopp("s_cbranch_scc1", -(len(spin) + 4) // 4))
    back = len(head) + 4 - (detour_start + len(detour) + 4)
    code = program(head, sopp("s_cbranch_scc1", len(body) // 4), body, detour, sopp("s_branch", back // 4))
    _, st, _ = run_code(code, waves=2, block=64, lds=256)
    for w in range(4):
        other = (w % 2 ^ 1) * 32
        assert st.vgpr[w, 4].tolist() == [1000 + other + l for l in range(32)]


def test_flat_atomics_follow_the_aperture():
    from drivers.emu.amd.shader.operands import PRIVATE_APERTURE, SHARED_APERTURE
    code = program(vop1("v_mov_b32_e32", 1, const(8)), s_mov(4, SHARED_APERTURE >> 32), vop1("v_mov_b32_e32", 2, 4),
                   vop1("v_mov_b32_e32", 3, const(1)),
                   flat("flat_atomic_add_u32", "FLAT", vdst=5, addr=1, data=3, glc=1),      # LDS[8] += 1
                   s_mov(4, PRIVATE_APERTURE >> 32), vop1("v_mov_b32_e32", 2, 4),
                   flat("flat_atomic_add_u32", "FLAT", addr=1, data=3),                     # private[8] += 1
                   flat("flat_atomic_add_u32", "FLAT", vdst=6, addr=1, data=3, glc=1),
                   ds("ds_load_b32", vdst=7, addr=1), endpgm())
    _, st, _ = run_code(code, lds=64, private=16)
    assert sorted(st.vgpr[0, 5].tolist()) == list(range(32))       # one LDS counter, lane after lane
    assert st.vgpr[0, 7].tolist() == [32] * 32
    assert st.vgpr[0, 6].tolist() == [1] * 32                       # each lane's own private word


def mubuf(m, vdata, vaddr, srsrc, soffset=128, offset=0, offen=1, idxen=0, glc=0):
    from assembler.rdna3.formats import put
    from tests.test_emu_sim_helpers import opcode
    word = put("MUBUF", op=opcode("MUBUF", m), vdata=vdata, vaddr=vaddr, srsrc=srsrc // 4,
               soffset=soffset, offset=offset, offen=offen, idxen=idxen, glc=glc)
    return word.to_bytes(8, "little")


def test_buffer_accesses_are_range_checked_by_the_vsharp():
    data = struct.pack("<32I", *range(500, 532))
    vsharp = program(s_mov(8, DATA_VA), s_mov(9, 0), s_mov(10, 40), s_mov(11, 0))     # 40 bytes
    code = program(vsharp, lane_offsets(2),
                   mubuf("buffer_load_b32", 2, 1, 8),                         # lanes 0..9 inside
                   vop2("v_add_nc_u32_e32", 3, LIT, v(0), 900),
                   mubuf("buffer_store_b32", 3, 1, 8, offset=4),              # lanes 0..8 inside
                   endpgm())
    _, st, vm = run_code(code, data=data)
    assert st.vgpr[0, 2].tolist() == [500 + l if l < 10 else 0 for l in range(32)]
    words = data_words(vm, 32)
    assert words[1:10].tolist() == [900 + l for l in range(9)]
    assert words[10:].tolist() == list(range(510, 532))                        # dropped stores


def test_addtid_forms_and_ds_append():
    from tests.test_emu_sim_helpers import M0
    code = program(BASE, vop2("v_add_nc_u32_e32", 2, LIT, v(0), 40),
                   flat("global_store_addtid_b32", "GLOBAL", data=2, saddr=2, offset=8),   # out[2 + lane]
                   s_mov(M0, 16),
                   ds("ds_store_addtid_b32", data0=2),                                    # LDS[16 + 4 * lane]
                   ds("ds_load_addtid_b32", vdst=3, offset0=4),                          # LDS[20 + 4 * lane]
                   s_mov(M0, 0), s_mov(EXEC, 0x00FF00FF),
                   ds("ds_append", vdst=4),                                               # counter at LDS[0]
                   ds("ds_append", vdst=5),
                   endpgm())
    _, st, vm = run_code(code, waves=2, lds=256, data=bytes(256))
    assert data_words(vm, 34)[2:].tolist() == (LANES + 40).tolist()
    assert st.vgpr[0, 3].tolist()[:31] == (LANES[1:] + 40).tolist()
    active = (0x00FF00FF >> LANES) & 1 == 1
    assert st.vgpr[0, 4][active].tolist() == [0] * 16 and st.vgpr[0, 5][active].tolist() == [16] * 16
    assert st.vgpr[1, 4][active].tolist() == [0] * 16         # each workgroup has its own LDS


def test_ds_permute_pushes_to_the_addressed_lane():
    code = program(vop2("v_add_nc_u32_e32", 1, LIT, v(0), 300),
                   vop2("v_add_nc_u32_e32", 2, const(1), v(0)), vop2("v_and_b32_e32", 2, const(31), v(2)),
                   vop2("v_lshlrev_b32_e32", 2, const(2), v(2)),                 # lane L -> lane L + 1
                   vop1("v_mov_b32_e32", 3, const(7)),
                   s_mov(EXEC, 0x7FFF_FFFF),                                   # lane 31 inactive
                   ds("ds_permute_b32", vdst=3, addr=2, data0=1),
                   endpgm())
    _, st, _ = run_code(code)
    got = st.vgpr[0, 3].tolist()
    assert got[0] == 0                              # lane 31 would have written lane 0: it is inactive
    assert got[1:31] == [300 + l - 1 for l in range(1, 31)]
    assert got[31] == 7                             # inactive lanes keep their value


def test_simulate_passes_dynamic_lds_as_an_offset_after_the_static_lds():
    from drivers.emu import simulate
    from tests.test_emu_sim_helpers import code_object
    # kernarg: out (8 bytes) then the dynamic LDS pointer (4 bytes); out[lane] = pointer + lane,
    # stored through LDS at the pointer's offset
    code = program(smem("s_load_b64", 2, 0), smem("s_load_b32", 4, 0, offset=8), sopp("s_waitcnt", 0xFC07),
                   lane_offsets(2), vop2("v_add_nc_u32_e32", 3, 4, v(1)),               # LDS address
                   vop2("v_add_nc_u32_e32", 5, 4, v(0)),                               # value = ptr + lane
                   ds("ds_store_b32", addr=3, data0=5), ds("ds_load_b32", vdst=6, addr=3),
                   sopp("s_waitcnt", 0xFC07), flat("global_store_b32", "GLOBAL", addr=1, data=6, saddr=2), endpgm())
    co = code_object(code, args=[(8, "global_buffer", "uint*"), (4, "dynamic_shared_pointer", "uint*")], lds=100)
    out = np.zeros(32, np.uint32)
    simulate(co, "k", (1, 1, 1), (32, 1, 1), [out, 128])
    assert out.tolist() == (LANES + 100).tolist()          # aligned after the 100 static bytes


def test_lds_bound_is_the_granule_rounded_allocation():
    from drivers.emu.amd.shader.launch import lds_allocation
    from drivers.emu.amd.dispatch import Dispatch
    d = Dispatch(source="test", code_va=0, rsrc1=0, rsrc2=2 << 15, rsrc3=0, user_sgprs=(),
                 grid_workgroups=(1, 1, 1), workgroup_size=(32, 1, 1), grid_size=(32, 1, 1),
                 lds_bytes=600, wave32=True, vm=None)
    assert lds_allocation(d) == 1024                 # LDS_SIZE = 2 granules of 512 bytes


def test_d16_loads_keep_the_other_half():
    data = bytes([0x80, 0x7F, 0x34, 0x12]) * 64
    code = program(BASE, lane_offsets(2),
                   vop1("v_mov_b32_e32", 2, LIT, 0xAAAA5555), vop1("v_mov_b32_e32", 3, LIT, 0xAAAA5555),
                   vop1("v_mov_b32_e32", 4, LIT, 0xAAAA5555), vop1("v_mov_b32_e32", 5, LIT, 0xAAAA5555),
                   flat("global_load_d16_i8", "GLOBAL", vdst=2, addr=1, saddr=2),          # 0x80 -> 0xff80
                   flat("global_load_d16_hi_u8", "GLOBAL", vdst=3, addr=1, saddr=2, offset=1),  # 0x7f
                   flat("global_load_d16_b16", "GLOBAL", vdst=4, addr=1, saddr=2, offset=2),   # 0x1234
                   flat("global_load_d16_hi_i8", "GLOBAL", vdst=5, addr=1, saddr=2),        # 0xff80
                   flat("global_load_b128", "GLOBAL", vdst=6, addr=1, saddr=2),
                   endpgm())
    _, st, _ = run_code(code, data=data)
    assert st.vgpr[0, 2].tolist() == [0xAAAAFF80] * 32
    assert st.vgpr[0, 3].tolist() == [0x007F5555] * 32
    assert st.vgpr[0, 4].tolist() == [0xAAAA1234] * 32
    assert st.vgpr[0, 5].tolist() == [0xFF805555] * 32
    assert st.vgpr[0, 6:10, 0].tolist() == [0x12347F80] * 4



def test_lds_dword_bounds_per_workgroup_with_offsets_whose_or_passes_the_end():
    """Dword LDS accesses check their range with the OR of the lane offsets (at least the largest
    one) before their maximum: offsets 64 and 32 in a 96-byte allocation OR to 96, past the last
    valid start (92), and are still inside; offsets past the end read 0 in every workgroup, never
    the next workgroup's LDS."""
    code = program(lane_offsets(2), vop2("v_add_nc_u32_e32", 2, const(1), v(0)),
                   ds("ds_store_b32", addr=1, data0=2, offset0=0),               # dword L = L + 1 (L < 24)
                   vop2("v_and_b32_e32", 4, const(1), v(0)),
                   vop2("v_lshlrev_b32_e32", 4, const(5), v(4)),                # odd lanes 32, even 0
                   vop2("v_sub_nc_u32_e32", 4, LIT, v(4), 64),                  # even lanes 64, odd 32
                   ds("ds_load_b32", vdst=5, addr=4, offset0=0),
                   ds("ds_load_b32", vdst=6, addr=1, offset0=0x10),             # lanes 20.. past the end
                   endpgm())
    _, st, _ = run_code(code, waves=3, lds=96)
    for w in range(3):
        assert st.vgpr[w, 5].tolist() == np.where(LANES % 2 == 0, 17, 9).tolist()
        assert st.vgpr[w, 6].tolist() == np.where(LANES <= 19, LANES + 5, 0).tolist()


@pytest.mark.parametrize("exec_mask", [M32, 0x5555_5555])
def test_byte_and_short_accesses_index_the_mapping_as_elements(monkeypatch, exec_mask):
    """Aligned byte and short loads and stores into one mapping index it as uint8 / uint16
    elements (the byte-matrix path is not called): loads zero- or sign-extend, stores keep the
    low byte or short (d16_hi: of the high half), a short at an odd address takes the byte path
    and gives the same, and lanes storing to one address leave the last active lane's value."""
    from drivers.emu.amd.shader import memory
    data = bytes((i * 37 + 11) & 0xFF for i in range(1024))
    code = program(BASE, lane_offsets(1), s_mov(EXEC, exec_mask),
                   flat("global_load_i8", "GLOBAL", vdst=2, addr=1, saddr=2, offset=0x41),
                   flat("global_load_u8", "GLOBAL", vdst=3, addr=1, saddr=2, offset=0x41),
                   flat("global_load_i16", "GLOBAL", vdst=4, addr=1, saddr=2, offset=0x80),
                   flat("global_load_u16", "GLOBAL", vdst=5, addr=1, saddr=2, offset=0x80),
                   vop2("v_lshlrev_b32_e32", 6, const(3), v(0)),          # v6 = lane * 8
                   vop2("v_add_nc_u32_e32", 7, LIT, v(0), 0x8765F300),
                   flat("global_store_b8", "GLOBAL", addr=6, data=7, saddr=2, offset=0x200),
                   flat("global_store_d16_hi_b8", "GLOBAL", addr=6, data=7, saddr=2, offset=0x201),
                   flat("global_store_b16", "GLOBAL", addr=6, data=7, saddr=2, offset=0x202),
                   flat("global_store_d16_hi_b16", "GLOBAL", addr=6, data=7, saddr=2, offset=0x204),
                   vop1("v_mov_b32_e32", 8, const(0)),
                   flat("global_store_b8", "GLOBAL", addr=8, data=7, saddr=2, offset=0x300),
                   flat("global_store_b16", "GLOBAL", addr=8, data=7, saddr=2, offset=0x302),
                   endpgm())
    byte_path = []
    for name in ("_read", "_write"):
        real = getattr(memory, name)
        monkeypatch.setattr(memory, name, lambda *a, real=real: byte_path.append(1) or real(*a))
    _, st, vm = run_code(code, data=data)
    assert not byte_path
    on = [lane for lane in range(32) if exec_mask >> lane & 1]
    b = np.frombuffer(data, np.uint8)
    lanes = np.array(on)
    s8 = b[lanes * 2 + 0x41]
    s16 = b[lanes * 2 + 0x80].astype(np.uint32) | b[lanes * 2 + 0x81].astype(np.uint32) << 8
    assert st.vgpr[0, 2, lanes].tolist() == [x & M32 for x in s8.astype(np.int8).astype(np.int64)]
    assert st.vgpr[0, 3, lanes].tolist() == s8.tolist()
    assert st.vgpr[0, 4, lanes].tolist() == [x & M32 for x in s16.astype(np.uint16).view(np.int16).astype(np.int64)]
    assert st.vgpr[0, 5, lanes].tolist() == s16.tolist()
    out = vm.view(DATA_VA, np.uint8, 1024)
    for lane in range(32):
        x = 0x8765F300 + lane
        row = out[0x200 + 8 * lane:0x206 + 8 * lane].tolist()
        want = [x & 0xFF, x >> 16 & 0xFF, x & 0xFF, x >> 8 & 0xFF, x >> 16 & 0xFF, x >> 24] \
            if lane in on else list(data[0x200 + 8 * lane:0x206 + 8 * lane])
        assert row == want, lane
    last = 0x8765F300 + on[-1]
    assert out[0x300] == last & 0xFF and out[0x302:0x304].tolist() == [last & 0xFF, last >> 8 & 0xFF]
    # a short at an odd address: the byte path, the same values
    code = program(BASE, lane_offsets(1), s_mov(EXEC, exec_mask),
                   flat("global_load_i16", "GLOBAL", vdst=4, addr=1, saddr=2, offset=0x81),
                   endpgm())
    _, st, _ = run_code(code, data=data)
    assert byte_path
    odd = b[lanes * 2 + 0x81].astype(np.uint32) | b[lanes * 2 + 0x82].astype(np.uint32) << 8
    assert st.vgpr[0, 4, lanes].tolist() == [x & M32 for x in odd.astype(np.uint16).view(np.int16).astype(np.int64)]


@pytest.mark.parametrize("exec_mask", [M32, 0x0F0F_F0F0])
@pytest.mark.parametrize("width", [2, 4])
def test_wide_accesses_aligned_to_their_size_move_whole_rows(exec_mask, width):
    """b64 and b128 loads and stores at addresses aligned to their size (rows of the mapping)
    and at addresses only dword-aligned give the dwords in order; lanes storing to one address
    leave the last active lane's row."""
    rng = np.random.default_rng(width)
    data = rng.integers(0, 2**32, 1024, dtype=np.uint64).astype(np.uint32).tobytes()
    load, store = f"global_load_b{32 * width}", f"global_store_b{32 * width}"
    code = program(BASE, lane_offsets(4 if width == 4 else 3), s_mov(EXEC, exec_mask),
                   flat(load, "GLOBAL", vdst=4, addr=1, saddr=2, offset=0x100),        # aligned
                   flat(load, "GLOBAL", vdst=8, addr=1, saddr=2, offset=0x204),        # dword-aligned
                   sopp("s_waitcnt", 0),
                   flat(store, "GLOBAL", addr=1, data=8, saddr=2, offset=0x800),
                   flat(store, "GLOBAL", addr=1, data=4, saddr=2, offset=0xC04),
                   vop1("v_mov_b32_e32", 2, const(0)),
                   flat(store, "GLOBAL", addr=2, data=4, saddr=2, offset=0x7F0),
                   endpgm())
    _, st, vm = run_code(code, data=data)
    words = np.frombuffer(data, np.uint32)
    on = [lane for lane in range(32) if exec_mask >> lane & 1]
    stride = 4 if width == 4 else 2
    for lane in on:
        a = words[0x40 + stride * lane:0x40 + stride * lane + width]
        b = words[0x81 + stride * lane:0x81 + stride * lane + width]
        assert st.vgpr[0, 4:4 + width, lane].tolist() == a.tolist()
        assert st.vgpr[0, 8:8 + width, lane].tolist() == b.tolist()
    out = data_words(vm, 1024)
    for lane in range(32):
        x, y = out[0x200 + stride * lane:][:width], out[0x301 + stride * lane:][:width]
        if lane in on:
            assert x.tolist() == st.vgpr[0, 8:8 + width, lane].tolist()
            assert y.tolist() == st.vgpr[0, 4:4 + width, lane].tolist()
    assert out[0x1FC:0x1FC + width].tolist() == st.vgpr[0, 4:4 + width, on[-1]].tolist()


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
    "global_load_b32 v8, v[5:6], off", "global_load_b64 v[8:9], v[5:6], off offset:-8",
    "global_load_b128 v[8:11], v7, s[0:1] offset:16", "global_store_b32 v[5:6], v4, off offset:16",
    "global_store_b96 v7, v[8:10], s[0:1]", "global_store_b64 v[5:6], v[8:9], off",
    "global_load_b128 v[8:11], v[5:6], off", "global_store_b128 v7, v[8:11], s[0:1] offset:-16",
    "global_load_i8 v8, v[5:6], off offset:3", "global_load_u16 v8, v7, s[0:1] offset:2",
    "global_load_i16 v8, v[5:6], off", "global_load_u8 v8, v7, s[0:1]",
    "global_store_b8 v[5:6], v8, off offset:1", "global_store_d16_hi_b16 v7, v8, s[0:1] offset:-2",
    "global_store_b16 v7, v8, s[0:1]"])
def test_whole_wave_global_path_matches_the_general_one(monkeypatch, text):
    """GLOBAL dword, short and byte accesses take a shorter path (memory.DENSE_FAST, lanesets.py):
    it must leave the registers and memory the general path leaves, for whole and partial EXEC,
    slices and scattered waves, and fall back to it (faults included) for unaligned addresses,
    addresses past the mapping or below it, a read-only mapping, and SGPR bases that differ by
    wave."""
    from assembler.rdna3 import assemble
    from assembler.rdna3.decoder import decode
    from drivers.emu.amd.shader import lanesets, memory
    from drivers.emu.amd.shader.state import EXEC_LO, WaveState
    from drivers.emu.vm import GpuVM

    ins, _ = decode(assemble(text), 0)
    fn = memory.build_flat(ins, 0, 16)
    rng = np.random.default_rng(len(text))
    va0 = DATA_VA + 0x1000
    for trial in range(24):
        monkeypatch.setattr(lanesets, "_TAKE_INTO", 64 if trial % 2 else 8192)   # (as for big groups)
        W = int(rng.integers(1, 7))
        stride = [4, 16, 2, -4, 0, 1][trial % 6]           # -4: lanes descending; 2, 1: unaligned
        lanes = np.arange(W * 32, dtype=np.int64)
        addrs = (va0 + 0x800 + lanes * stride).astype(np.uint64)
        if trial in (5, 17):
            addrs[-1] = np.uint64(DATA_VA + 0x3000 - 4)      # past the 0x3000-byte mapping
        if trial == 11:
            addrs[3] = np.uint64(DATA_VA - 16)               # below it
        sel = slice(0, W) if trial % 3 else np.sort(rng.choice(W, max(1, W - 1), replace=False))
        exec_bits = [M32, 0x7FFFFFFF, 0x0000FFF0, 0][trial % 4] if trial >= 8 else M32
        mem0 = rng.integers(0, 256, 0x3000, dtype=np.uint8)
        vregs0 = rng.integers(0, 1 << 32, (16, W, 32), dtype=np.uint64).astype(np.uint32)
        vregs0[5] = (addrs & M32).astype(np.uint32).reshape(W, 32)
        vregs0[6] = (addrs >> np.uint64(32)).astype(np.uint32).reshape(W, 32)
        vregs0[7] = ((addrs - np.uint64(DATA_VA)) & M32).astype(np.uint32).reshape(W, 32)
        outcomes = []
        for fast in (True, False):
            monkeypatch.setattr(memory, "DENSE_FAST", fast)
            monkeypatch.setattr(memory, "RETRY", 0)
            vm, mem = GpuVM(), mem0.copy()
            vm.map(DATA_VA, mem, writable=trial != 7)
            st = WaveState(W, 16, W, 0, vm)
            st.sregs[EXEC_LO] = exec_bits
            st.sregs[EXEC_LO, 0] = M32 if trial % 5 == 1 else exec_bits
            st.vregs[:] = vregs0
            st.sregs[0], st.sregs[1] = DATA_VA & M32, DATA_VA >> 32
            if trial == 13:
                st.sregs[0, -1] += 4                          # one wave's SADDR differs
            try:
                fn(st, sel)
                err = None
            except MemoryFault as e:
                err = str(e)
            outcomes.append((err, mem, st.vregs))
        (e1, m1, v1), (e2, m2, v2) = outcomes
        assert e1 == e2 and np.array_equal(m1, m2) and np.array_equal(v1, v2), (trial, e1, e2)


@pytest.mark.parametrize("text", [
    "ds_load_b32 v8, v5", "ds_load_b64 v[8:9], v5 offset:8", "ds_load_b128 v[8:11], v5 offset:16",
    "ds_load_2addr_b32 v[8:9], v5 offset0:3 offset1:1", "ds_load_2addr_stride64_b64 v[8:11], v5 offset1:1",
    "ds_store_b32 v5, v6 offset:4", "ds_store_b64 v5, v[6:7]", "ds_store_b96 v5, v[8:10] offset:12",
    "ds_store_b128 v5, v[8:11] offset:32", "ds_store_2addr_b32 v5, v6, v7 offset0:5 offset1:2",
    "ds_store_2addr_stride64_b64 v5, v[6:7], v[8:9] offset1:1", "ds_storexchg_2addr_rtn_b32 v[10:11], v5, v6, v7"])
def test_whole_wave_lds_path_matches_the_general_one(monkeypatch, text):
    """LDS dword accesses take a shorter path (lds.DENSE_FAST, lanesets.py): it must leave the
    registers and LDS the general path leaves, for whole and partial EXEC, slices and scattered
    waves of several workgroups, and hand over unaligned and out-of-range accesses (and
    allocations that are not whole dwords) to it."""
    from assembler.rdna3 import assemble
    from assembler.rdna3.decoder import decode
    from drivers.emu.amd.shader import lanesets, lds
    from drivers.emu.amd.shader.state import EXEC_LO, WaveState

    ins, _ = decode(assemble(text), 0)
    fn = lds.build_ds(ins, 0, 16)
    rng = np.random.default_rng(len(text))
    for trial in range(24):
        W = int(rng.integers(1, 9))
        lds_bytes = [2048, 1024, 2046, 4096][trial % 4]
        sel = slice(1, W) if trial % 2 else np.sort(rng.choice(W, max(1, W // 2), replace=False))
        if trial % 2 and W == 1:
            sel = slice(0, 1)
        offs = rng.integers(0, 256, W * 32) * (16 if trial % 3 == 0 else 4)   # (16: b128 rows)
        offs %= lds_bytes - 160
        if trial % 8 == 3:
            offs[7] += 2                                   # one unaligned lane
        if trial % 8 == 5:
            offs[-1] = lds_bytes - 4                       # one lane at the end of the allocation
        vregs0 = rng.integers(0, 1 << 32, (16, W, 32), dtype=np.uint64).astype(np.uint32)
        vregs0[5] = offs.reshape(W, 32)
        lds0 = None
        outcomes = []
        # big groups gather straight into each register: from 64 lanes in odd trials
        monkeypatch.setattr(lanesets, "_TAKE_INTO", 64 if trial % 2 else 8192)
        for fast in (True, False):
            monkeypatch.setattr(lds, "DENSE_FAST", fast)
            st = WaveState(W, 16, 3, lds_bytes, None)
            st.wg[:] = np.arange(W) % 3                    # waves of three workgroups, interleaved
            if lds0 is None:
                lds0 = rng.integers(0, 256, st.lds.shape, dtype=np.uint8)
            st.lds[:] = lds0
            st.vregs[:] = vregs0
            st.sregs[EXEC_LO] = [0xFFFFFFFF, 0xFFFF0FFF, 0x80000001, 0xFFFFFFFF, 0][trial % 5]
            st.sregs[EXEC_LO, 0] = 0xFFFFFFFF
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


@pytest.mark.parametrize("text", [
    "scratch_load_b32 v8, v5, off", "scratch_load_b128 v[8:11], v5, off offset:16",
    "scratch_store_b32 v5, v6, off offset:4", "scratch_store_b128 off, v[8:11], off offset:32",
    "scratch_load_b64 v[8:9], off, off offset:8", "scratch_store_b64 v5, v[6:7], off"])
def test_scratch_short_path_matches_the_general_one(monkeypatch, text):
    """SCRATCH dword accesses take a shorter path (memory.DENSE_FAST, lanesets.py: each lane's
    private segment worked out once per group): it must leave the registers and memory the
    general path leaves, for whole and partial EXEC, slices and scattered waves, and fall back
    to it (faults included) for unaligned offsets, offsets past a lane's segment, a scratch
    mapping that moved (a later launch) and a read-only one."""
    from assembler.rdna3 import assemble
    from assembler.rdna3.decoder import decode
    from drivers.emu.amd.shader import memory
    from drivers.emu.amd.shader.state import EXEC_LO, WaveState
    from drivers.emu.vm import GpuVM

    ins, _ = decode(assemble(text), 0)
    fn = memory.build_flat(ins, 0, 16)
    rng = np.random.default_rng(len(text))
    private = 128
    for trial in range(16):
        W = int(rng.integers(1, 6))
        sel = slice(0, W) if trial % 3 else np.sort(rng.choice(W, max(1, W - 1), replace=False))
        offs = rng.integers(0, private // 16 - 1, W * 32) * (16 if trial % 2 else 4)
        if trial == 5:
            offs[9] += 2                                   # one unaligned lane
        if trial == 7:
            offs[-1] = private - 4                         # past the segment for wide accesses
        if trial == 9:
            offs[0] = private                              # past every segment
        mem0 = rng.integers(0, 256, 0x8000, dtype=np.uint8)
        vregs0 = rng.integers(0, 1 << 32, (16, W, 32), dtype=np.uint64).astype(np.uint32)
        vregs0[5] = offs.reshape(W, 32)
        exec_bits = [M32, 0x7FFFFFF0, 0x00010001, M32][trial % 4]
        outcomes = []
        for fast in (True, False):
            monkeypatch.setattr(memory, "DENSE_FAST", fast)
            monkeypatch.setattr(memory, "RETRY", 0)
            vm, mem = GpuVM(), mem0.copy()
            vm.map(DATA_VA, mem, writable=trial != 11)
            st = WaveState(W, 16, W, 0, vm)
            st.private_size = private
            st.scratch_base[:] = DATA_VA + 0x100 + np.arange(W, dtype=np.uint64) * (32 * private)
            st.sregs[EXEC_LO] = exec_bits
            st.vregs[:] = vregs0
            errs = []
            for launch in range(2):
                if launch:                                 # a later launch: scratch elsewhere
                    st.scratch_base += np.uint64(0x40)
                try:
                    fn(st, sel)
                    errs.append(None)
                except MemoryFault as e:
                    errs.append(str(e))
            outcomes.append((errs, mem, st.vregs.copy()))
        (e1, m1, v1), (e2, m2, v2) = outcomes
        assert e1 == e2 and np.array_equal(m1, m2) and np.array_equal(v1, v2), (trial, e1, e2)


@pytest.mark.parametrize("text", [
    "ds_add_u32 v5, v6", "ds_add_rtn_u32 v8, v5, v6 offset:8", "ds_max_rtn_i32 v8, v5, v6",
    "ds_cmpstore_rtn_b32 v8, v5, v6, v7", "ds_min_u32 v5, v6 offset:4",
    "global_atomic_add_u32 v[2:3], v6, off", "global_atomic_add_u32 v8, v[2:3], v6, off glc",
    "global_atomic_cmpswap_b32 v8, v4, v[6:7], s[0:1] glc", "global_atomic_xor_b32 v4, v6, s[0:1] offset:-4"])
def test_short_atomics_match_the_general_path(monkeypatch, text):
    """32-bit atomics of LDS and GLOBAL take the short path's addressing (memory.DENSE_FAST,
    lds.DENSE_FAST): lanes sharing an address, partial EXEC and scattered waves must leave the
    memory and registers (the values before) the general path leaves; unaligned and
    out-of-range lanes hand over to it."""
    from assembler.rdna3 import assemble
    from assembler.rdna3.decoder import decode
    from drivers.emu.amd.shader import lds, memory
    from drivers.emu.amd.shader.state import EXEC_LO, WaveState
    from drivers.emu.vm import GpuVM

    ins, _ = decode(assemble(text), 0)
    is_lds = text.startswith("ds_")
    fn = lds.build_ds(ins, 0, 16) if is_lds else memory.build_flat(ins, 0, 16)
    rng = np.random.default_rng(len(text))
    for trial in range(12):
        W = int(rng.integers(1, 5))
        sel = slice(0, W) if trial % 3 else np.sort(rng.choice(W, max(1, W - 1), replace=False))
        offs = rng.integers(0, [4, 64, 1][trial % 3] + 3, W * 32) * 4       # many lanes share a dword
        if trial == 4:
            offs[5] += 1                                   # one unaligned lane
        if trial == 7:
            offs[-1] = 0x2000                              # past the LDS / the mapping
        vregs0 = rng.integers(0, 8, (16, W, 32), dtype=np.uint64).astype(np.uint32)
        va = (DATA_VA + offs).astype(np.uint64)
        vregs0[5] = offs.reshape(W, 32)
        vregs0[4] = offs.reshape(W, 32)
        vregs0[2] = (va & M32).astype(np.uint32).reshape(W, 32)
        vregs0[3] = (va >> np.uint64(32)).astype(np.uint32).reshape(W, 32)
        mem0 = rng.integers(0, 8, 0x1000, dtype=np.uint32)
        outcomes = []
        for fast in (True, False):
            monkeypatch.setattr(memory, "DENSE_FAST", fast)
            monkeypatch.setattr(memory, "RETRY", 0)
            monkeypatch.setattr(lds, "DENSE_FAST", fast)
            vm, mem = GpuVM(), mem0.copy()
            vm.map(DATA_VA, mem.view(np.uint8))
            st = WaveState(W, 16, 2, 0x1000, vm)
            st.wg[:] = np.arange(W) % 2
            st.lds32[:0x800] = mem0[:0x800]
            st.vregs[:] = vregs0
            st.sregs[0], st.sregs[1] = DATA_VA & M32, DATA_VA >> 32
            st.sregs[EXEC_LO] = [M32, 0x0F0F00FF, M32, 0x80000001][trial % 4]
            try:
                fn(st, sel)
                err = None
            except MemoryFault as e:
                err = str(e)
            outcomes.append((err, mem, st.lds.copy(), st.vregs.copy()))
        (e1, m1, l1, v1), (e2, m2, l2, v2) = outcomes
        assert e1 == e2 and np.array_equal(m1, m2) and np.array_equal(l1, l2) and np.array_equal(v1, v2), trial


@pytest.mark.parametrize("text", ["ds_bpermute_b32 v8, v5, v6", "ds_bpermute_b32 v8, v5, v6 offset:4",
                                  "ds_permute_b32 v8, v5, v6 offset:8"])
def test_permute_short_path_matches_the_general_one(monkeypatch, text):
    """ds_bpermute_b32 with every lane on is one gather (lds.DENSE_FAST): the lane each lane reads
    must be the general path's (bits 2..6 of ADDR + offset, wrapping at 2**32), for slices and
    scattered waves; partial EXEC keeps the general path."""
    from assembler.rdna3 import assemble
    from assembler.rdna3.decoder import decode
    from drivers.emu.amd.shader import lds
    from drivers.emu.amd.shader.state import EXEC_LO, WaveState

    ins, _ = decode(assemble(text), 0)
    fn = lds.build_ds(ins, 0, 16)
    rng = np.random.default_rng(len(text))
    for trial in range(8):
        W = int(rng.integers(1, 6))
        sel = slice(0, W) if trial % 2 else np.sort(rng.choice(W, max(1, W - 1), replace=False))
        vregs0 = rng.integers(0, 1 << 32, (16, W, 32), dtype=np.uint64).astype(np.uint32)
        if trial % 4 == 1:
            vregs0[5] = np.uint32(0xFFFFFFFC)                   # wraps with the offset
        outcomes = []
        for fast in (True, False):
            monkeypatch.setattr(lds, "DENSE_FAST", fast)
            st = WaveState(W, 16, W, 0, None)
            st.vregs[:] = vregs0
            st.sregs[EXEC_LO] = M32 if trial < 6 else 0xFFFF00FF
            fn(st, sel)
            outcomes.append(st.vregs.copy())
        assert np.array_equal(outcomes[0], outcomes[1]), trial
        if text.startswith("ds_bpermute") and trial < 6:             # and the ISA's answer
            rows = np.arange(W)[sel]
            src = (vregs0[5, rows].astype(np.int64) + ins.modifiers.get("offset0", 0) + 256 *
                   ins.modifiers.get("offset1", 0)) >> 2 & 31
            want = np.take_along_axis(vregs0[6, rows], src, axis=1)
            assert np.array_equal(outcomes[0][8, rows], want), trial


def test_readfirstlane_reads_the_lowest_exec_lane_of_each_wave():
    """v_readfirstlane_b32 (its closure): the lowest lane with EXEC set of each wave, lane 0
    when EXEC is empty, for slices and scattered waves."""
    from assembler.rdna3 import assemble
    from assembler.rdna3.decoder import decode
    from drivers.emu.amd.shader.program import Program  # noqa: F401 (the builders' imports)
    from drivers.emu.amd.shader.state import EXEC_LO, WaveState
    from drivers.emu.amd.shader.vector import build_cross_lane

    ins, _ = decode(assemble("v_readfirstlane_b32 s7, v5"), 0)
    fn = build_cross_lane(ins, 0, 16)
    execs = np.array([0x80000000, 0, 0x00010100, 1, M32, 0x6], np.uint32)
    st = WaveState(6, 16, 6, 0, None)
    st.vregs[5] = np.arange(6 * 32, dtype=np.uint32).reshape(6, 32) * 3
    st.sregs[EXEC_LO] = execs
    for sel in (slice(0, 6), np.array([1, 2, 5])):
        st.sregs[7] = 0
        fn(st, sel)
        rows = np.arange(6)[sel]
        first = [31, 0, 8, 0, 0, 1]
        assert st.sregs[7, rows].tolist() == [3 * (32 * w + first[w]) for w in rows]


@pytest.mark.parametrize("text", ["global_load_b32 v8, v[5:6], off offset:-4", "global_store_b64 v[5:6], v[8:9], off",
                                  "global_load_u16 v8, v[5:6], off offset:2", "global_store_b32 v7, v8, s[0:1] offset:4",
                                  "global_load_b64 v[8:9], v7, s[0:1]"])
def test_short_global_path_with_a_base_per_lane(monkeypatch, text):
    """Lanes of one access whose VGPR pairs differ in the upper dword (a buffer across a 4 GiB
    boundary), or whose waves' SADDR differ (each wave's own record), take the short path with a
    VA per lane, never the general one: the registers and memory it leaves are the general
    path's, whole and partial EXEC."""
    from assembler.rdna3 import assemble
    from assembler.rdna3.decoder import decode
    from drivers.emu.amd.shader import memory
    from drivers.emu.amd.shader.state import EXEC_LO, WaveState
    from drivers.emu.vm import GpuVM

    ins, _ = decode(assemble(text), 0)
    fn = memory.build_flat(ins, 0, 16)
    rng = np.random.default_rng(len(text))
    start = (1 << 32) - 0x1000
    general = memory.active_lanes
    for trial in range(4):
        W = 3
        # across 2**32; the last trial below it, with the mapping 4 GiB from a negative offset's base
        first = 0xE00 if trial < 3 else 0x10
        addrs = (start + first + np.arange(W * 32, dtype=np.int64) * 8 * (1 + trial % 2)).astype(np.uint64)
        vregs0 = rng.integers(0, 1 << 32, (16, W, 32), dtype=np.uint64).astype(np.uint32)
        vregs0[5] = (addrs & M32).astype(np.uint32).reshape(W, 32)
        vregs0[6] = (addrs >> np.uint64(32)).astype(np.uint32).reshape(W, 32)
        assert len(set(vregs0[6].reshape(-1).tolist())) == (2 if trial < 3 else 1)
        vregs0[7] = (np.arange(32, dtype=np.uint32) * 4 * (1 + trial % 2))[None, :]
        mem0 = rng.integers(0, 256, 0x2000, dtype=np.uint8)
        outcomes = []
        for fast in (True, False):
            monkeypatch.setattr(memory, "DENSE_FAST", fast)
            monkeypatch.setattr(memory, "RETRY", 0)
            monkeypatch.setattr(memory, "active_lanes", general if not fast else None)
            vm, mem = GpuVM(), mem0.copy()
            vm.map(start, mem)
            st = WaveState(W, 16, W, 0, vm)
            st.sregs[EXEC_LO] = M32 if trial < 2 else 0x0FF0F00F
            bases = start + np.arange(W, dtype=np.uint64) * np.uint64(0x300)      # one per wave
            st.sregs[0], st.sregs[1] = (bases & M32).astype(np.uint32), (bases >> np.uint64(32)).astype(np.uint32)
            st.vregs[:] = vregs0
            fn(st, slice(0, W))
            outcomes.append((mem, st.vregs.copy()))
        (m1, v1), (m2, v2) = outcomes
        assert np.array_equal(m1, m2) and np.array_equal(v1, v2), trial
        assert not np.array_equal(m1, mem0) or not np.array_equal(v1, vregs0)


def test_short_path_is_tried_again_after_handing_over(monkeypatch):
    """An access the short path hands over (an unaligned lane) takes the general path for the
    next memory.RETRY calls of its instruction, then the short path again; results are the
    general path's throughout."""
    from assembler.rdna3 import assemble
    from assembler.rdna3.decoder import decode
    from drivers.emu.amd.shader import memory
    from drivers.emu.amd.shader.state import EXEC_LO, WaveState
    from drivers.emu.vm import GpuVM

    ins, _ = decode(assemble("global_load_b32 v8, v7, s[0:1]"), 0)
    fn = memory.build_flat(ins, 0, 16)
    general = []
    real = memory.active_lanes
    monkeypatch.setattr(memory, "active_lanes", lambda st, sel: general.append(1) or real(st, sel))
    monkeypatch.setattr(memory, "RETRY", 3)
    vm = GpuVM()
    mem = np.arange(0x1000, dtype=np.uint32)
    vm.map(DATA_VA, mem.view(np.uint8))
    st = WaveState(1, 16, 1, 0, vm)
    st.sregs[EXEC_LO], st.sregs[0], st.sregs[1] = M32, DATA_VA, 0
    paths = []
    for call in range(6):
        st.vregs[7] = LANES * 4 + (2 if call == 0 else 0)       # the first call unaligned
        del general[:]
        fn(st, slice(0, 1))
        paths.append(len(general))
        want = (np.frombuffer(mem.tobytes(), np.uint8)[(st.vregs[7, 0][:, None] + np.arange(4)).astype(np.intp)]
                .copy().view(np.uint32)[:, 0])
        assert st.vgpr[0, 8].tolist() == want.tolist()
    assert paths == [1, 1, 1, 1, 0, 0]
