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
