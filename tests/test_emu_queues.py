"""PM4, AQL and SDMA queues of the virtual GPU, driven through doorbells like a driver drives them."""
import numpy as np
import pytest

import kfd_ioctl as K
from drivers.emu import make_kernel
from drivers.emu.faults import IllegalInstruction, MemoryFault, ShaderHang
from drivers.emu.amd.kfd_client import GTT, KfdClient

COMPUTE, AQL, SDMA = K.KFD_IOC_QUEUE_TYPE_COMPUTE, K.KFD_IOC_QUEUE_TYPE_COMPUTE_AQL, K.KFD_IOC_QUEUE_TYPE_SDMA
COMPLETE, TIMEOUT = K.KFD_IOC_WAIT_RESULT_COMPLETE, K.KFD_IOC_WAIT_RESULT_TIMEOUT
READ_ONLY = K.KFD_IOC_ALLOC_MEM_FLAGS_GTT


@pytest.fixture
def c():
    k = make_kernel("gfx1100")
    client = KfdClient(k)
    yield client
    client.close()
    assert k.gpu.live()["bos"] == 0 and k.gpu.live()["queues"] == 0


def lo(v):
    return v & 0xFFFFFFFF


def hi(v):
    return v >> 32


# -- PM4 packet builders (amd.md §2.3) ------------------------------------------------------------
def pkt3(op, *payload):
    return [(3 << 30) | ((len(payload) - 1) << 16) | (op << 8), *payload]


def write_data(va, *values):
    return pkt3(0x37, 5 << 8, lo(va), hi(va), *values)


def release_mem(va=0, data=0, data_sel=1, int_ctxid=None):
    int_sel = 2 if int_ctxid is not None else 0
    return pkt3(0x49, 0x14 | 5 << 8, data_sel << 29 | int_sel << 24, lo(va), hi(va), lo(data), hi(data),
                int_ctxid or 0)


def signal_event(c, ev):
    return release_mem(c.mailbox(ev), ev.event_id, 1, ev.event_id)


def wait_reg_mem(va, ref, mask=0xFFFFFFFF, function=3):
    return pkt3(0x3C, function | 1 << 4, lo(va), hi(va), ref, mask, 4)


def indirect_buffer(va, ndw, chain=False):
    return pkt3(0x3F, lo(va), hi(va), ndw | 1 << 23 | (1 << 20 if chain else 0))


def set_sh_reg(reg, *values):
    return pkt3(0x76, reg - 0x2C00, *values)


class PM4:
    """A PM4 queue plus its 64-bit dword write pointer, as a driver keeps it."""

    def __init__(self, c, ring_size=4096):
        self.c, self.q = c, c.create_queue(COMPUTE, ring_size)
        self.ring = self.q.ring.view(np.uint32, 0, ring_size // 4)
        self.wptr = 0

    def submit(self, *packets):
        for dw in [d for p in packets for d in p]:
            self.ring[self.wptr % self.ring.size] = dw
            self.wptr += 1
        self.q.pointers.view(np.uint64, self.q.wptr_offset, 1)[0] = self.wptr
        self.c.ring_doorbell(self.q, self.wptr)


@pytest.fixture
def pm4(c):
    return PM4(c)


def vm(c):
    return c.k.gpu.processes[0].vm


def test_write_data_and_release_mem_signal_an_event(c, pm4):
    buf = c.alloc(4096)
    ev = c.create_event()
    pm4.submit(write_data(buf.va, 0x11, 0x22, 0x33), release_mem(buf.va + 64, 0x1234_5678_9ABC, 2),
               release_mem(buf.va + 128, 7, 1), signal_event(c, ev))
    result, _ = c.wait([ev.event_id], timeout_ms=100)
    assert result == COMPLETE
    assert list(buf.view(np.uint32, 0, 3)) == [0x11, 0x22, 0x33]
    assert buf.view(np.uint64, 64, 1)[0] == 0x1234_5678_9ABC and buf.view(np.uint32, 128, 1)[0] == 7
    assert c.rptr(pm4.q) == pm4.wptr and c.k.gpu.last_error is None
    assert c.event_page.view(np.uint64)[ev.event_slot_index] == 2**64 - 1    # kfd acknowledged the slot


def test_gpu_clock_from_release_mem_and_copy_data(c, pm4):
    buf = c.alloc(4096)
    before = c.ioctl("GET_CLOCK_COUNTERS", gpu_id=c.gpu_id).gpu_clock_counter
    pm4.submit(release_mem(buf.va, data_sel=3), pkt3(0x40, 9 | 5 << 8 | 1 << 16, 0, 0, lo(buf.va + 8), hi(buf.va + 8)),
               pkt3(0x40, 5 | 5 << 8, 0xABCD, 0, lo(buf.va + 16), hi(buf.va + 16)),
               pkt3(0x40, 2 | 5 << 8, lo(buf.va + 16), hi(buf.va + 16), lo(buf.va + 20), hi(buf.va + 20)))
    after = c.ioctl("GET_CLOCK_COUNTERS", gpu_id=c.gpu_id).gpu_clock_counter
    t0, t1 = buf.view(np.uint64, 0, 2)
    assert before <= t0 <= t1 <= after
    assert list(buf.view(np.uint32, 16, 2)) == [0xABCD, 0xABCD]


def test_indirect_buffers_nest_and_chain(c, pm4):
    out = c.alloc(4096)
    ib1, ib1b, ib2 = c.alloc(4096), c.alloc(4096), c.alloc(4096)
    body2 = write_data(out.va + 4, 2)
    ib2.view(np.uint32)[:len(body2)] = body2
    body1b = write_data(out.va + 12, 4)
    ib1b.view(np.uint32)[:len(body1b)] = body1b
    body1 = write_data(out.va, 1) + indirect_buffer(ib2.va, len(body2)) + write_data(out.va + 8, 3) + \
        indirect_buffer(ib1b.va, len(body1b), chain=True) + write_data(out.va + 16, 0xBAD)
    ib1.view(np.uint32)[:len(body1)] = body1
    pm4.submit(indirect_buffer(ib1.va, len(body1)), write_data(out.va + 20, 5))
    assert list(out.view(np.uint32, 0, 6)) == [1, 2, 3, 4, 0, 5]
    assert c.k.gpu.last_error is None


def test_ib_nesting_deeper_than_two_levels_is_a_hw_exception(c, pm4):
    hw = c.create_event(K.KFD_IOC_EVENT_HW_EXCEPTION)
    ib1, ib2, ib3 = c.alloc(4096), c.alloc(4096), c.alloc(4096)
    ib3.view(np.uint32)[:2] = pkt3(0x10, 0)
    ib2.view(np.uint32)[:4] = indirect_buffer(ib3.va, 2)
    ib1.view(np.uint32)[:4] = indirect_buffer(ib2.va, 4)
    pm4.submit(indirect_buffer(ib1.va, 4))
    result, data = c.wait([hw.event_id], timeout_ms=0)
    assert result == COMPLETE and data[0].hw_exception_data.gpu_id == c.gpu_id
    assert f"IB 0x{ib2.va:x} dword 0" in c.k.gpu.last_error and "deeper than 2" in c.k.gpu.last_error


def test_wait_reg_mem_blocks_until_memory_changes(c, pm4):
    flag, out = c.alloc(4096), c.alloc(4096)
    ev = c.create_event()
    pm4.submit(write_data(out.va, 1), wait_reg_mem(flag.va, 5), write_data(out.va + 4, 2), signal_event(c, ev))
    assert list(out.view(np.uint32, 0, 2)) == [1, 0]
    assert c.rptr(pm4.q) == 5                      # parked on the WAIT_REG_MEM packet
    assert c.wait([ev.event_id], timeout_ms=0)[0] == TIMEOUT
    flag.view(np.uint32)[0] = 4
    c.ring_doorbell(pm4.q, pm4.wptr)
    assert out.view(np.uint32)[1] == 0
    flag.view(np.uint32)[0] = 5                    # no doorbell: the waiter's poll sees it
    assert c.wait([ev.event_id], timeout_ms=100)[0] == COMPLETE
    assert out.view(np.uint32)[1] == 2 and c.rptr(pm4.q) == pm4.wptr


def test_a_doorbell_of_another_queue_releases_a_waiting_queue(c, pm4):
    flag, out = c.alloc(4096), c.alloc(4096)
    pm4.submit(wait_reg_mem(flag.va, 0x100, 0xF00, function=5), write_data(out.va, 9))   # (flag & 0xF00) >= 0x100
    sdma = SDMARing(c)
    flag.view(np.uint32)[0] = 0x1FF
    sdma.submit([0])                               # an SDMA NOP rings a different doorbell
    assert out.view(np.uint32)[0] == 9


def test_pm4_packets_wrap_around_the_ring(c):
    q = PM4(c, ring_size=1024)                     # 256 dwords
    out = c.alloc(4096)
    for i in range(100):                           # 5-dword packets: some straddle the ring end
        q.submit(write_data(out.va + 4 * (i % 64), i))
    assert q.wptr == 500 and c.rptr(q.q) == 500
    assert out.view(np.uint32)[99 % 64] == 99 and c.k.gpu.last_error is None


def test_unknown_opcode_stops_the_queue_with_a_hw_exception(c, pm4):
    hw = c.create_event(K.KFD_IOC_EVENT_HW_EXCEPTION)
    out = c.alloc(4096)
    pm4.submit(write_data(out.va, 1), pkt3(0x99, 0, 0), write_data(out.va, 2))
    assert c.wait([hw.event_id], timeout_ms=0)[0] == COMPLETE
    err = c.k.gpu.last_error
    assert "unknown PM4 opcode 0x99" in err and "ring dword 5" in err and "PM4 queue 0" in err
    assert out.view(np.uint32)[0] == 1
    pm4.submit(write_data(out.va, 3))              # a stopped queue ignores its doorbell
    assert out.view(np.uint32)[0] == 1


@pytest.mark.parametrize("packets,message", [
    ([[(3 << 30) | (4 << 16) | (0x37 << 8), 5 << 8]], "were published by the write pointer"),
    ([set_sh_reg(0x2FFF, 1, 2)], "leave the 0x2c00..0x2fff space"),
    ([pkt3(0x58, 0, 0)], "count 1 is wrong"),
    ([[0x0000_1234]], "type-0 PM4 header"),
    ([write_data(0x1002, 1)], "not 4-byte aligned"),
    ([pkt3(0x3F, 0, 0, 4)], "VALID (bit 23) is not set"),
    ([pkt3(0x15, 1, 1, 1, 0)], "lacks COMPUTE_SHADER_EN"),
    ([wait_reg_mem(0, 0, function=7)], "compare function 7"),
])
def test_malformed_pm4_packets_are_named(c, pm4, packets, message):
    hw = c.create_event(K.KFD_IOC_EVENT_HW_EXCEPTION)
    pm4.submit(*packets)
    assert c.wait([hw.event_id], timeout_ms=0)[0] == COMPLETE
    assert message in c.k.gpu.last_error and "ring dword 0" in c.k.gpu.last_error


def test_bad_va_in_a_packet_is_a_memory_exception(c, pm4):
    mem = c.create_event(K.KFD_IOC_EVENT_MEMORY)
    bad = 0x7F00_1234_5678
    pm4.submit(write_data(bad, 1))
    result, data = c.wait([mem.event_id], timeout_ms=0)
    d = data[0].memory_exception_data
    assert result == COMPLETE and d.va == bad & ~0xFFF and d.failure.NotPresent == 1 and d.failure.ReadOnly == 0
    assert d.gpu_id == c.gpu_id and f"0x{bad:x}" in c.k.gpu.last_error
    assert "(executing WRITE_DATA at ring dword 0)" in c.k.gpu.last_error


def test_write_to_a_read_only_buffer_is_a_read_only_fault(c, pm4):
    mem = c.create_event(K.KFD_IOC_EVENT_MEMORY)
    ro = c.alloc(4096, READ_ONLY)
    pm4.submit(write_data(ro.va + 16, 1))
    result, data = c.wait([mem.event_id], timeout_ms=0)
    assert result == COMPLETE and data[0].memory_exception_data.failure.ReadOnly == 1
    assert data[0].memory_exception_data.va == ro.va


# -- dispatch ---------------------------------------------------------------------------------
class FakeExecutor:
    """Records each Dispatch and stores the workgroup count at the VA in user SGPRs s[0:1]."""

    def __init__(self, fault=None):
        self.dispatches, self.fault = [], fault

    def __call__(self, d):
        self.dispatches.append(d)
        if self.fault:
            raise self.fault
        out = d.user_sgprs[0] | d.user_sgprs[1] << 32
        d.vm.write_u32(out, d.workgroup_count)


def pm4_dispatch(code_va, user, groups=(4, 2, 1), wg=(64, 1, 1), rsrc2=None):
    rsrc2 = rsrc2 if rsrc2 is not None else (len(user) << 1) | 1 << 7 | 2 << 15
    return (set_sh_reg(0x2E0C, lo(code_va >> 8), hi(code_va >> 8)) + set_sh_reg(0x2E12, 0x60AF0000, rsrc2)
            + set_sh_reg(0x2E28, 0x10) + set_sh_reg(0x2E18, 0x1234) + set_sh_reg(0x2E10, 0x100, 0)
            + set_sh_reg(0x2E40, *user) + set_sh_reg(0x2E07, *wg) + pkt3(0x58, 0, 0, 0, 0, 0, 0, 0)
            + pkt3(0x15, *groups, 0x8005) + pkt3(0x46, 7 | 4 << 8))


def test_pm4_dispatch_direct_calls_the_executor(c, pm4):
    code, out = c.alloc(4096), c.alloc(4096)
    ev = c.create_event()
    ex = c.k.gpu.executor = FakeExecutor()
    c.ioctl("SET_TRAP_HANDLER", tba_addr=0x1000, tma_addr=0x2000, gpu_id=c.gpu_id)
    pm4.submit(pm4_dispatch(code.va + 0x100, [lo(out.va), hi(out.va), 0xAB]), signal_event(c, ev))
    assert c.wait([ev.event_id], timeout_ms=0)[0] == COMPLETE
    (d,) = ex.dispatches
    assert (d.source, d.code_va, d.rsrc1, d.rsrc3, d.tmpring_size) == ("pm4", code.va + 0x100, 0x60AF0000, 0x10, 0x1234)
    assert d.user_sgprs == (lo(out.va), hi(out.va), 0xAB) and d.user_sgpr_count == 3
    assert d.grid_workgroups == (4, 2, 1) and d.workgroup_size == (64, 1, 1) and d.grid_size == (256, 2, 1)
    assert d.wave32 and d.lds_bytes == 1024 and d.scratch_base == 0x10000 and d.tgid_enabled == (True, False, False)
    assert d.vm is vm(c) and out.view(np.uint32)[0] == 8 and c.k.gpu.dispatch_count == 1
    now = d.clock()                               # the same counter GET_CLOCK_COUNTERS reads
    assert 0 < now <= c.ioctl("GET_CLOCK_COUNTERS", gpu_id=c.gpu_id).gpu_clock_counter
    assert d.trap_handler == (0x1000, 0x2000)


def test_dispatch_without_executor_is_a_hw_exception(c, pm4):
    c.k.gpu.executor = None
    hw = c.create_event(K.KFD_IOC_EVENT_HW_EXCEPTION)
    pm4.submit(pm4_dispatch(0x1000, [0, 0]))
    assert c.wait([hw.event_id], timeout_ms=0)[0] == COMPLETE and "no shader executor" in c.k.gpu.last_error


@pytest.mark.parametrize("fault,event,text", [
    (MemoryFault(0xDEAD000, "NotPresent", True), K.KFD_IOC_EVENT_MEMORY, "0xdead000"),
    (IllegalInstruction(0x1234, "word 0xffffffff"), K.KFD_IOC_EVENT_HW_EXCEPTION, "illegal instruction at PC 0x1234"),
    (ShaderHang(0x1300, 10_000_000), K.KFD_IOC_EVENT_HW_EXCEPTION, "after 10000000 instructions"),
])
def test_executor_faults_become_kfd_exceptions(c, pm4, fault, event, text):
    ev = c.create_event(event)
    c.k.gpu.executor = FakeExecutor(fault)
    pm4.submit(pm4_dispatch(0x1000, [0, 0]))
    result, data = c.wait([ev.event_id], timeout_ms=0)
    assert result == COMPLETE and text in c.k.gpu.last_error
    if event == K.KFD_IOC_EVENT_MEMORY:
        assert data[0].memory_exception_data.va == 0xDEAD000 and data[0].memory_exception_data.failure.NotPresent


# -- AQL --------------------------------------------------------------------------------------
class AQLRing:
    def __init__(self, c, ring_size=4096):
        self.c, self.q = c, c.create_queue(AQL, ring_size)
        self.ring = self.q.ring.view(np.uint8, 0, ring_size)
        self.ring.view(np.uint16)[::32] = 1          # every header INVALID
        self.write_id = 0

    def write(self, packet, publish=True):
        """Copy a 64-byte packet, header last, bump write_dispatch_id; ring unless told not to."""
        slot = (self.write_id % (self.ring.size // 64)) * 64
        raw = np.frombuffer(bytes(packet), np.uint8)
        self.ring[slot + 4:slot + 64] = raw[4:]
        self.ring[slot:slot + 4] = raw[:4]
        self.write_id += 1
        self.q.pointers.view(np.uint64, 56, 1)[0] = self.write_id
        if publish:
            self.c.ring_doorbell(self.q, self.write_id - 1)
        return slot

    @property
    def read_dispatch_id(self):
        return int(self.q.pointers.view(np.uint64, 128, 1)[0])


def dispatch_packet(kd, kernarg, signal=0, grid=(100, 3, 1), wg=(32, 1, 1), group=256, header=0x1502):
    p = np.zeros(64, np.uint8)
    p[0:4] = np.array([header | 3 << 16], np.uint32).view(np.uint8)
    p[4:10] = np.array(wg, np.uint16).view(np.uint8)
    p[12:24] = np.array(grid, np.uint32).view(np.uint8)
    p[28:32] = np.array([group], np.uint32).view(np.uint8)
    p[32:48] = np.array([kd, kernarg], np.uint64).view(np.uint8)
    p[56:64] = np.array([signal], np.uint64).view(np.uint8)
    return p.tobytes()


def make_kd(buf, offset, entry_offset, props=0b1010 | 1 << 10, user_sgprs=4):
    kd = np.zeros(64, np.uint8)
    kd[0:4] = np.array([128], np.uint32).view(np.uint8)
    kd[0x10:0x18] = np.array([entry_offset], np.int64).view(np.uint8)
    kd[0x2C:0x38] = np.array([0, 0x60AF0080, user_sgprs << 1 | 1 << 7], np.uint32).view(np.uint8)
    kd[0x38:0x3A] = np.array([props], np.uint16).view(np.uint8)
    buf.view(np.uint8)[offset:offset + 64] = kd
    return buf.va + offset


def amd_signal(c, value=1, event=None):
    s = c.alloc(4096)
    v = s.view(np.int64)
    v[0], v[1] = 1, value
    if event is not None:
        v[2] = c.mailbox(event)
        s.view(np.uint32)[6] = event.event_id
    return s


def test_aql_kernel_dispatch_decrements_the_signal_and_fires_its_event(c):
    aql = AQLRing(c)
    code, kernarg = c.alloc(8192), c.alloc(4096)
    kd = make_kd(code, 0x1000, -0x1000 + 0x100)
    out = kernarg.va + 256
    kernarg.view(np.uint64)[0] = out
    ev = c.create_event()
    sig = amd_signal(c, 1, ev)
    seen = []

    def executor(d):
        seen.append(d)
        dst = d.vm.u64(d.kernarg_va)
        d.vm.write_u32(dst, d.grid_size[0])

    c.k.gpu.executor = executor
    slot = aql.write(dispatch_packet(kd, kernarg.va, sig.va))
    assert c.wait([ev.event_id], timeout_ms=0)[0] == COMPLETE
    (d,) = seen
    pkt_va = aql.q.ring.va + slot
    assert (d.source, d.code_va, d.kernel_object, d.packet_va) == ("aql", code.va + 0x100, kd, pkt_va)
    assert d.user_sgprs == (lo(pkt_va), hi(pkt_va), lo(kernarg.va), hi(kernarg.va))
    assert d.grid_workgroups == (4, 3, 1) and d.grid_size == (100, 3, 1) and d.workgroup_size == (32, 1, 1)
    assert d.wave32 and d.lds_bytes == 256 and (d.rsrc2 >> 15) & 0x1FF == 1
    assert kernarg.view(np.uint32)[64] == 100
    assert sig.view(np.int64)[1] == 0 and aql.read_dispatch_id == 1
    assert sig.view(np.uint64)[5] >= sig.view(np.uint64)[4] > 0          # end_ts >= start_ts


def test_aql_waits_for_a_valid_header(c):
    aql = AQLRing(c)
    sig = amd_signal(c, 2)
    barrier = np.zeros(64, np.uint8)
    barrier[0:2] = np.array([3 | 1 << 8], np.uint16).view(np.uint8)
    barrier[56:64] = np.array([sig.va], np.uint64).view(np.uint8)
    pkt = bytearray(barrier.tobytes())
    pkt[0:2] = (1).to_bytes(2, "little")                 # still INVALID when the doorbell rings
    aql.write(pkt)
    assert aql.read_dispatch_id == 0 and sig.view(np.int64)[1] == 2
    aql.ring[0:2] = barrier[0:2]
    c.ring_doorbell(aql.q, 0)
    assert aql.read_dispatch_id == 1 and sig.view(np.int64)[1] == 1


def test_aql_barrier_and_blocks_until_dependencies_reach_zero(c):
    aql = AQLRing(c)
    dep, done = amd_signal(c, 1), amd_signal(c, 1)
    barrier = np.zeros(64, np.uint8)
    barrier[0:2] = np.array([3 | 1 << 8], np.uint16).view(np.uint8)
    barrier[8:16] = np.array([dep.va], np.uint64).view(np.uint8)
    barrier[56:64] = np.array([done.va], np.uint64).view(np.uint8)
    aql.write(barrier.tobytes())
    assert aql.read_dispatch_id == 0 and done.view(np.int64)[1] == 1
    dep.view(np.int64)[1] = 0
    c.ring_doorbell(aql.q, 0)
    assert aql.read_dispatch_id == 1 and done.view(np.int64)[1] == 0


def test_aql_pm4_ib_vendor_packet(c):
    aql = AQLRing(c)
    out, ib = c.alloc(4096), c.alloc(4096)
    body = write_data(out.va, 0x77)
    ib.view(np.uint32)[:len(body)] = body
    sig = amd_signal(c, 1)
    p = np.zeros(16, np.uint32)
    p[0] = 0 | 1 << 8 | 1 << 16
    p[1:5] = indirect_buffer(ib.va, len(body))
    p[5] = 10
    p[14:16] = [lo(sig.va), hi(sig.va)]
    aql.write(p.tobytes())
    assert out.view(np.uint32)[0] == 0x77 and sig.view(np.int64)[1] == 0 and aql.read_dispatch_id == 1


@pytest.mark.parametrize("mutate,message", [
    (lambda p: p.__setitem__(slice(0, 2), (7).to_bytes(2, "little")), "reserved packet type 7"),
    (lambda p: p.__setitem__(slice(0, 2), (4).to_bytes(2, "little")), "agent dispatch"),
    (lambda p: p.__setitem__(slice(4, 6), b"\0\0"), "must be non-zero"),
    (lambda p: p.__setitem__(slice(32, 40), (0x1010).to_bytes(8, "little")), "not 64-byte aligned"),
])
def test_malformed_aql_packets(c, mutate, message):
    aql = AQLRing(c)
    hw = c.create_event(K.KFD_IOC_EVENT_HW_EXCEPTION)
    c.k.gpu.executor = FakeExecutor()
    code = c.alloc(4096)
    pkt = bytearray(dispatch_packet(make_kd(code, 0, 256), 0))
    mutate(pkt)
    aql.write(pkt)
    assert c.wait([hw.event_id], timeout_ms=0)[0] == COMPLETE
    assert message in c.k.gpu.last_error and "packet 0 (ring byte 0" in c.k.gpu.last_error


def test_aql_kernel_descriptor_needing_more_user_sgprs_than_declared(c):
    aql = AQLRing(c)
    hw = c.create_event(K.KFD_IOC_EVENT_HW_EXCEPTION)
    c.k.gpu.executor = FakeExecutor()
    code = c.alloc(4096)
    aql.write(dispatch_packet(make_kd(code, 0, 256, user_sgprs=2), 0))
    assert c.wait([hw.event_id], timeout_ms=0)[0] == COMPLETE
    assert "enables 4 user SGPRs but COMPUTE_PGM_RSRC2.USER_SGPR_COUNT is 2" in c.k.gpu.last_error


def test_aql_doorbell_past_write_dispatch_id(c):
    aql = AQLRing(c)
    hw = c.create_event(K.KFD_IOC_EVENT_HW_EXCEPTION)
    c.ring_doorbell(aql.q, 3)
    assert c.wait([hw.event_id], timeout_ms=0)[0] == COMPLETE
    assert "write_dispatch_id is only 0" in c.k.gpu.last_error


def test_aql_kernel_object_unmapped_is_a_memory_exception(c):
    aql = AQLRing(c)
    mem = c.create_event(K.KFD_IOC_EVENT_MEMORY)
    c.k.gpu.executor = FakeExecutor()
    aql.write(dispatch_packet(0x7000_0000_0000, 0))
    result, data = c.wait([mem.event_id], timeout_ms=0)
    assert result == COMPLETE and data[0].memory_exception_data.va == 0x7000_0000_0000


# -- SDMA -------------------------------------------------------------------------------------
class SDMARing:
    def __init__(self, c, ring_size=4096):
        self.c, self.q = c, c.create_queue(SDMA, ring_size)
        self.ring = self.q.ring.view(np.uint32, 0, ring_size // 4)
        self.wptr = 0                                    # bytes

    def submit(self, *packets):
        for dw in [d for p in packets for d in p]:
            self.ring[(self.wptr // 4) % self.ring.size] = dw
            self.wptr += 4
        self.q.pointers.view(np.uint64, self.q.wptr_offset, 1)[0] = self.wptr
        self.c.ring_doorbell(self.q, self.wptr)


def sdma_copy(dst, src, n):
    return [1, n - 1, 0, lo(src), hi(src), lo(dst), hi(dst)]


def sdma_fence(va, value):
    return [5 | 3 << 16, lo(va), hi(va), value]


def test_sdma_copies_are_exact_at_odd_offsets_and_sizes(c):
    sdma = SDMARing(c, ring_size=1024)
    src, dst = c.alloc(4 << 20), c.alloc(4 << 20)
    rng = np.random.default_rng(1)
    src.view(np.uint8)[:] = rng.integers(0, 256, 4 << 20, dtype=np.uint8)
    cases = [(1, 0, 1), (3, 5, 7), (4095, 4097, 3), (4097, 1, 12345), ((1 << 20) + 5, 77, 3),
             ((3 << 20) + 7, 333, 999)]
    for n, so, do in cases * 7:                          # 42 packets of 7 dwords wrap the 256-dword ring
        dst.view(np.uint8)[:] = 0
        sdma.submit(sdma_copy(dst.va + do, src.va + so, n))
        d = dst.view(np.uint8)
        assert np.array_equal(d[do:do + n], src.view(np.uint8)[so:so + n])
        assert d[:do].sum() == 0 and d[do + n:].sum() == 0
    assert sdma.wptr > 1024 and c.rptr(sdma.q) == sdma.wptr and c.k.gpu.last_error is None


def test_sdma_fence_and_trap_signal_an_event(c):
    sdma = SDMARing(c)
    ev = c.create_event()
    out = c.alloc(4096)
    sdma.submit([2, lo(out.va), hi(out.va), 1, 0xA, 0xB], [13 | 2 << 8, lo(out.va + 16), hi(out.va + 16)],
                [11 | 2 << 30, lo(out.va + 32), hi(out.va + 32), 0xC3C2C1C0, 9], [0 | 2 << 16, 0, 0],
                sdma_fence(c.mailbox(ev), ev.event_id), [6, ev.event_id])
    assert c.wait([ev.event_id], timeout_ms=0)[0] == COMPLETE
    assert list(out.view(np.uint32, 0, 2)) == [0xA, 0xB] and out.view(np.uint64)[2] > 0
    assert list(out.view(np.uint8, 32, 11)) == [0xC0, 0xC1, 0xC2, 0xC3] * 2 + [0xC0, 0xC1, 0]


def test_sdma_poll_regmem_blocks(c):
    sdma = SDMARing(c)
    flag, out = c.alloc(4096), c.alloc(4096)
    sdma.submit([8 | 3 << 28 | 1 << 31, lo(flag.va), hi(flag.va), 1, 0xFF, 10], sdma_fence(out.va, 5))
    assert out.view(np.uint32)[0] == 0 and c.rptr(sdma.q) == 0
    flag.view(np.uint32)[0] = 0x301
    c.ring_doorbell(sdma.q, sdma.wptr)
    assert out.view(np.uint32)[0] == 5 and c.rptr(sdma.q) == sdma.wptr


def test_sdma_unknown_opcode_and_bad_va(c):
    sdma = SDMARing(c)
    hw, mem = c.create_event(K.KFD_IOC_EVENT_HW_EXCEPTION), c.create_event(K.KFD_IOC_EVENT_MEMORY)
    sdma.submit([0, 0], [0x3F])
    assert c.wait([hw.event_id], timeout_ms=0)[0] == COMPLETE
    assert "unknown SDMA opcode 63" in c.k.gpu.last_error and "ring byte 8" in c.k.gpu.last_error
    sdma2 = SDMARing(c)
    src = c.alloc(4096)
    sdma2.submit(sdma_copy(0x6000_0000_0000, src.va, 16))
    result, data = c.wait([mem.event_id], timeout_ms=0)
    assert result == COMPLETE and data[0].memory_exception_data.va == 0x6000_0000_0000
    assert "SDMA queue" in c.k.gpu.last_error


def test_a_gtt_flag_free_gpu_view_is_consistent(c):
    buf = c.alloc(4096, GTT)
    assert vm(c).lookup(buf.va).owner.handle == buf.handle


def test_userptr_pages_unmapped_by_the_host_fault_instead_of_crashing(c):
    host = c.k.mmap(None, 4096)
    a = c.ioctl("ALLOC_MEMORY_OF_GPU", va_addr=host.address, size=4096, gpu_id=c.gpu_id,
                flags=K.KFD_IOC_ALLOC_MEM_FLAGS_USERPTR | K.KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE, mmap_offset=host.address)
    ids = K.ffi.new("uint32_t[1]", [c.gpu_id])
    c.ioctl("MAP_MEMORY_TO_GPU", handle=a.handle, n_devices=1, device_ids_array_ptr=int(K.ffi.cast("uintptr_t", ids)))
    mem = c.create_event(K.KFD_IOC_EVENT_MEMORY)
    sdma = SDMARing(c)
    sdma.submit(sdma_fence(host.address, 1))
    assert host.view(np.uint32)[0] == 1
    c.k.munmap(host)
    sdma.submit(sdma_fence(host.address, 2))
    result, data = c.wait([mem.event_id], timeout_ms=0)
    assert result == COMPLETE and data[0].memory_exception_data.va == host.address
    c.ioctl("UNMAP_MEMORY_FROM_GPU", handle=a.handle, n_devices=1, device_ids_array_ptr=int(K.ffi.cast("uintptr_t", ids)))
    c.ioctl("FREE_MEMORY_OF_GPU", handle=a.handle)


def test_a_thread_waiting_on_an_event_is_released_by_another_threads_doorbell(c, pm4):
    import threading
    ev = c.create_event()
    results = []
    waiter = threading.Thread(target=lambda: results.append(c.wait([ev.event_id], timeout_ms=5000)[0]))
    waiter.start()
    import time
    time.sleep(0.05)                     # let the waiter block first
    pm4.submit(signal_event(c, ev))
    waiter.join(10)
    assert results == [COMPLETE]


def test_update_queue_parks_and_resumes_a_queue(c, pm4):
    out = c.alloc(4096)
    fields = dict(queue_id=pm4.q.queue_id, ring_base_address=pm4.q.ring.va, ring_size=4096, queue_priority=7)
    c.ioctl("UPDATE_QUEUE", queue_percentage=0, **fields)
    pm4.submit(write_data(out.va, 1))
    assert out.view(np.uint32)[0] == 0 and c.rptr(pm4.q) == 0        # an inactive queue is not served
    c.ioctl("UPDATE_QUEUE", queue_percentage=100, **fields)
    c.ring_doorbell(pm4.q, pm4.wptr)
    assert out.view(np.uint32)[0] == 1


def test_a_bug_in_the_executor_stops_the_queue_and_propagates(c, pm4):
    def broken(d):
        raise ZeroDivisionError("simulator bug")
    c.k.gpu.executor = broken
    with pytest.raises(ZeroDivisionError):
        pm4.submit(pm4_dispatch(0x1000, [0, 0]))
    assert "internal error: ZeroDivisionError: simulator bug" in c.k.gpu.last_error


def test_debug_2_prints_packets(c, pm4, capsys, monkeypatch):
    monkeypatch.setenv("DEBUG", "2")
    out = c.alloc(4096)
    pm4.submit(write_data(out.va, 0xFEED))
    assert f"PM4 queue 0: WRITE_DATA at ring dword 0: c0033700 00000500 {lo(out.va):08x}" in capsys.readouterr().err


def test_an_endless_wait_says_what_it_waits_for(c, capsys, monkeypatch):
    import threading
    import time
    from drivers.emu.amd import events
    monkeypatch.setattr(events, "STALL_WARNING", 0.02)
    ev = c.create_event()
    setter = threading.Timer(0.2, lambda: c.ioctl("SET_EVENT", event_id=ev.event_id))
    setter.start()
    t0 = time.monotonic()
    assert c.wait([ev.event_id], timeout_ms=0xFFFFFFFF)[0] == COMPLETE
    setter.join()
    assert time.monotonic() - t0 >= 0.15
    assert f"still waiting for events [{ev.event_id}]" in capsys.readouterr().err


@pytest.mark.parametrize("queue_type", [COMPUTE, SDMA])
def test_a_doorbell_past_the_write_pointer_in_memory_is_refused(c, queue_type):
    hw = c.create_event(K.KFD_IOC_EVENT_HW_EXCEPTION)
    q = c.create_queue(queue_type)
    c.ring_doorbell(q, 8)                          # nothing published at the write pointer address
    assert c.wait([hw.event_id], timeout_ms=0)[0] == COMPLETE
    assert "doorbell write pointer 8 is past the write pointer 0 in memory" in c.k.gpu.last_error


def barrier_packet(kind, deps, done=0):
    p = np.zeros(64, np.uint8)
    p[0:2] = np.array([kind | 1 << 8], np.uint16).view(np.uint8)
    p[8:8 + 8 * len(deps)] = np.array(deps, np.uint64).view(np.uint8)
    p[56:64] = np.array([done], np.uint64).view(np.uint8)
    return p.tobytes()


def test_aql_barrier_or_waits_for_any_dependency(c):
    aql = AQLRing(c)
    a, b, done = amd_signal(c, 1), amd_signal(c, 1), amd_signal(c, 1)
    aql.write(barrier_packet(5, [a.va, b.va], done.va))
    assert aql.read_dispatch_id == 0
    b.view(np.int64)[1] = 0
    c.ring_doorbell(aql.q, 0)
    assert aql.read_dispatch_id == 1 and done.view(np.int64)[1] == 0


def test_aql_barrier_value_vendor_packet(c):
    aql = AQLRing(c)
    sig, done = amd_signal(c, 5), amd_signal(c, 1)
    p = np.zeros(8, np.uint64)
    p[0] = 0 | 1 << 8 | 2 << 16                    # VENDOR_SPECIFIC, AMD_AQL_FORMAT_BARRIER_VALUE
    p[1:4] = [sig.va, 3, 0xFF]                     # signal, value, mask
    p[4] = 3                                       # condition GTE
    p[7] = done.va
    p4 = p.copy()
    p4[4] = 2                                      # LT: 5 < 3 is false -> the CP waits
    aql.write(p4.tobytes())
    assert aql.read_dispatch_id == 0
    sig.view(np.int64)[1] = 2
    c.ring_doorbell(aql.q, 0)
    assert aql.read_dispatch_id == 1 and done.view(np.int64)[1] == 0
    aql.write(p.tobytes())                         # GTE: 2 >= 3 is false
    assert aql.read_dispatch_id == 1
    sig.view(np.int64)[1] = 0x103                  # masked to 3
    c.ring_doorbell(aql.q, 1)
    assert aql.read_dispatch_id == 2


def test_aql_ring_wraps_around(c):
    aql = AQLRing(c, ring_size=1024)                # 16 packets
    done = amd_signal(c, 40)
    for i in range(40):
        aql.write(barrier_packet(3, [], done.va))
    assert aql.read_dispatch_id == 40 and done.view(np.int64)[1] == 0 and c.k.gpu.last_error is None


def test_an_ib_chain_that_loops_is_stopped(c, pm4, monkeypatch):
    from drivers.emu.amd import pm4 as pm4_module
    monkeypatch.setattr(pm4_module, "MAX_IB_PACKETS", 1000)
    hw = c.create_event(K.KFD_IOC_EVENT_HW_EXCEPTION)
    ib = c.alloc(4096)
    body = pkt3(0x10, 0) + indirect_buffer(ib.va, 6, chain=True)     # NOP, then chain to itself
    ib.view(np.uint32)[:len(body)] = body
    pm4.submit(indirect_buffer(ib.va, len(body)))
    assert c.wait([hw.event_id], timeout_ms=0)[0] == COMPLETE
    assert "1000 IB packets ran without the chain ending" in c.k.gpu.last_error
