"""PM4, AQL and SDMA packet builders against the field tables of amd.md (from the Linux and ROCm
headers): header encodings, field positions, alignment rules and their errors."""
import numpy as np
import pytest

from drivers.amd import aql, pm4, sdma


# -- PM4 -------------------------------------------------------------------------------------------
def test_type3_header_counts_payload_minus_one():
    assert pm4.header(pm4.SET_SH_REG, 3) == 0xC0027600
    assert pm4.decode_header(0xC0027600) == (3, 0x76, 3)
    with pytest.raises(ValueError, match="payload of 0 dwords"):
        pm4.header(pm4.NOP, 0)


def test_set_sh_reg_indexes_from_the_sh_window():
    words = pm4.set_sh_reg(pm4.COMPUTE_PGM_RSRC1, 0x60AF0080, 0x9E)
    assert words == [0xC0027600, 0x212, 0x60AF0080, 0x9E]
    assert pm4.set_sh_reg(pm4.COMPUTE_USER_DATA_0, 1)[1] == 0x240
    assert pm4.set_sh_reg(pm4.COMPUTE_PGM_RSRC3, 0)[1] == 0x228
    with pytest.raises(ValueError, match="outside the SH window"):
        pm4.set_sh_reg(0x3000, 1)
    with pytest.raises(ValueError, match="outside the SH window"):
        pm4.set_sh_reg(0x2FFF, 1, 2)
    with pytest.raises(ValueError, match="at least one value"):
        pm4.set_sh_reg(pm4.COMPUTE_PGM_LO)


def test_dispatch_direct_and_initiator():
    initiator = pm4.COMPUTE_SHADER_EN | pm4.FORCE_START_AT_000 | pm4.CS_W32_EN
    assert initiator == 0x8005
    assert pm4.dispatch_direct(4, 2, 1, initiator) == [pm4.header(0x15, 4), 4, 2, 1, 0x8005]


def test_release_mem_fields():
    w = pm4.release_mem(0x1234_5678_9000, data=0x1_0000_0002, int_sel=pm4.INT_SEL_AFTER_WRITE_CONFIRM, int_ctxid=7)
    assert len(w) == 8 and pm4.decode_header(w[0]) == (3, 0x49, 7)
    assert w[1] & 0x3F == 0x14 and (w[1] >> 8) & 0xF == 5            # CACHE_FLUSH_AND_INV_TS, end of pipe
    assert w[1] & pm4.RM_GL2_WB and w[1] & pm4.RM_GLM_INV
    assert w[2] >> 29 == 2 and (w[2] >> 24) & 7 == 2                  # 64-bit data, interrupt after write
    assert w[3:8] == [0x5678_9000, 0x1234, 2, 1, 7]
    clock = pm4.release_mem(0x1000, data_sel=pm4.DATA_SEL_GPU_CLOCK, gcr=0, event_type=pm4.BOTTOM_OF_PIPE_TS)
    assert clock[2] >> 29 == 3 and clock[1] == 0x28 | 5 << 8
    with pytest.raises(ValueError, match="not aligned"):
        pm4.release_mem(0x1004)
    pm4.release_mem(0x1004, data_sel=pm4.DATA_SEL_32)     # 4-byte alignment is enough for 32-bit data


def test_acquire_mem_covers_everything_and_invalidates_code():
    w = pm4.acquire_mem()
    assert pm4.decode_header(w[0]) == (3, 0x58, 7)
    assert w[2:4] == [0xFFFFFFFF, 0xFFFFFF] and w[4:6] == [0, 0]
    assert w[7] & pm4.GCR_GLI_INV_ALL and w[7] & pm4.GCR_GL2_INV and w[7] & pm4.GCR_GLK_INV


def test_wait_reg_mem_and_indirect_buffer():
    w = pm4.wait_reg_mem(0x2_0000_1000, 5)
    assert w == [pm4.header(0x3C, 6), 5 | 1 << 4, 0x1000, 2, 5, 0xFFFFFFFF, 4]
    ib = pm4.indirect_buffer(0x7F00_0000_0100, 20)
    assert ib == [pm4.header(0x3F, 3), 0x100, 0x7F00, 20 | 1 << 23]
    with pytest.raises(ValueError, match="not 4-byte aligned"):
        pm4.indirect_buffer(0x102, 4)
    with pytest.raises(ValueError, match="size field"):
        pm4.indirect_buffer(0x100, 1 << 20)
    with pytest.raises(ValueError, match="not 4-byte aligned"):
        pm4.wait_reg_mem(0x1002, 1)


def test_split_packets_round_trip_and_rejects_garbage():
    stream = pm4.acquire_mem() + pm4.set_sh_reg(pm4.COMPUTE_PGM_LO, 1, 2) + pm4.nop(3) + pm4.write_data(0x100, [9])
    names = [name for name, _ in pm4.split_packets(stream)]
    assert names == ["ACQUIRE_MEM", "SET_SH_REG", "NOP", "WRITE_DATA"]
    with pytest.raises(ValueError, match="not a type-3"):
        pm4.split_packets([0x12345678])
    with pytest.raises(ValueError, match="needs 7 payload dwords"):
        pm4.split_packets(pm4.acquire_mem()[:5])


# -- AQL -------------------------------------------------------------------------------------------
def test_kernel_dispatch_packet_layout():
    p = aql.kernel_dispatch(0x7000_0040, 0x8000_0010, grid=(4, 3, 1), block=(64, 2, 1),
                            group_segment_size=1024, private_segment_size=16, completion_signal=0x9000)
    raw = p.view(np.uint8)
    assert raw.size == 64
    header, setup = int(p[0] & 0xFFFF), int(p[0] >> 16)
    assert header == 0x1502 and setup == 2                           # KERNEL_DISPATCH|barrier|system fences, 2-D
    assert raw[4:10].view(np.uint16).tolist() == [64, 2, 1]
    assert p[3:6].tolist() == [256, 6, 1]                             # grid in work-items
    assert p[6] == 16 and p[7] == 1024
    assert raw[32:40].view(np.uint64)[0] == 0x7000_0040
    assert raw[40:48].view(np.uint64)[0] == 0x8000_0010
    assert raw[56:64].view(np.uint64)[0] == 0x9000
    with pytest.raises(ValueError, match="64-byte aligned"):
        aql.kernel_dispatch(0x1010, 0x2000, (1, 1, 1), (1, 1, 1))
    with pytest.raises(ValueError, match="16-byte aligned"):
        aql.kernel_dispatch(0x1000, 0x2008, (1, 1, 1), (1, 1, 1))
    with pytest.raises(ValueError, match="32-bit grid_size"):
        aql.kernel_dispatch(0x1000, 0x2000, (1 << 26, 1, 1), (64, 1, 1))


def test_pm4_ib_vendor_packet():
    p = aql.pm4_indirect(0x4000, 12)
    assert p[0] & 0xFF == aql.PACKET_TYPE_VENDOR_SPECIFIC and p[0] >> 16 == aql.AMD_AQL_FORMAT_PM4_IB
    assert p[1:5].tolist() == pm4.indirect_buffer(0x4000, 12)
    assert p[5] == 10


def test_publish_writes_header_last():
    ring = np.zeros(32, np.uint32)
    seen = []

    class Spy(np.ndarray):
        def __setitem__(self, key, value):
            seen.append(key)
            super().__setitem__(key, value)

    spy = ring.view(Spy)
    packet = aql.kernel_dispatch(0x1000, 0x2000, (1, 1, 1), (32, 1, 1))
    aql.publish(spy, 1, packet)
    assert seen[-1] == 16 and np.array_equal(ring[16:32], packet)


def test_amd_queue_fields():
    block = np.zeros(256, np.uint8)
    aql.fill_amd_queue(block, 0x5000, 1024, 3, max_cu_id=95, max_wave_id=31)
    u32, u64 = block.view(np.uint32), block.view(np.uint64)
    assert u64[1] == 0x5000 and u32[6] == 1024 and u32[72 // 4] == 95
    assert u32[136 // 4] == 128                                        # read_dispatch_id offset
    assert u32[180 // 4] & aql.AMD_QUEUE_PROPERTIES_IS_PTR64


# -- SDMA ------------------------------------------------------------------------------------------
def test_sdma_copy_linear_splits_at_one_gib():
    w = sdma.copy_linear(0x2_0000_0000, 0x1000, 100)
    assert w == [1, 99, 0, 0x1000, 0, 0, 2]
    big = sdma.copy_linear(0x10_0000_0000, 0x20_0000_0000, (1 << 30) + 5)
    assert len(big) == 14 and big[1] == (1 << 30) - 1 and big[8] == 4
    assert big[10:14] == [1 << 30, 0x20, 1 << 30, 0x10]                 # second chunk starts 1 GiB in
    with pytest.raises(ValueError):
        sdma.copy_linear(0, 0, 0)


def test_sdma_fence_trap_timestamp_poll():
    assert sdma.fence(0x1004, 7) == [5 | 3 << 16, 0x1004, 0, 7]
    lo_first = sdma.fence64(0x2000, 0x1_0000_0003)
    assert lo_first[1] == 0x2000 and lo_first[3] == 3 and lo_first[5] == 0x2004 and lo_first[7] == 1
    assert sdma.trap(0x1234) == [6, 0x1234]
    assert sdma.timestamp(0x3008) == [13 | 2 << 8, 0x3008, 0]
    poll = sdma.poll_regmem(0x4000, 9)
    assert poll[0] == 8 | 5 << 28 | 1 << 31 and poll[3:5] == [9, 0xFFFFFFFF]
    with pytest.raises(ValueError, match="4-byte"):
        sdma.fence(0x1002, 0)
    with pytest.raises(ValueError, match="8-byte"):
        sdma.timestamp(0x3004)
    with pytest.raises(ValueError, match="4-byte"):
        sdma.poll_regmem(0x4001, 0)
    assert sdma.nops(3) == [0, 0, 0]
