"""NVDevice end to end on the virtual GPU, without running a kernel: opening and closing without
leaks, memory and the copy engine, the push-buffer forms and host semaphores the PBDMA executes,
faults (a bad VA named, a malformed method named), hangs, recovery, and two GPUs of one process.
Kernels are tests/test_nv_kernels.py's."""
import time

import numpy as np
import pytest

import nv_ioctl as NV
from drivers.emu import make_kernel
from drivers.errors import DeviceNotFound, GPUError, GPUFault, GPUHang
from drivers.nv import NVDevice
from drivers.nv.copy import copy_methods
from drivers.nv.faults import ChannelError
from drivers.nv.gpfifo import PushBuffer

BAD_VA = 0xBAD0_0000_0000
LOW_BAD_VA = 0xBA_DD00_0000            # below 2^40, where a host semaphore can be
SEM_ADDR_LO = NV.NVC56F_SEM_ADDR_LO
EXECUTE = NV.NVC56F_SEM_EXECUTE
OP = NV.NVC56F_SEM_EXECUTE_OPERATION
RELEASE_32 = OP.num(NV.NVC56F_SEM_EXECUTE_OPERATION_RELEASE)
RELEASE_64_STAMP = RELEASE_32 | NV.NVC56F_SEM_EXECUTE_PAYLOAD_SIZE.num(NV.NVC56F_SEM_EXECUTE_PAYLOAD_SIZE_64BIT) \
    | NV.NVC56F_SEM_EXECUTE_RELEASE_TIMESTAMP.num(NV.NVC56F_SEM_EXECUTE_RELEASE_TIMESTAMP_EN)


def assert_nothing_left(kernel):
    assert set(kernel.live().values()) == {0}, kernel.live()


@pytest.fixture(scope="module", params=["sm_86", "sm_90"])
def machine(request):
    kernel = make_kernel(request.param)
    yield kernel
    assert_nothing_left(kernel)


@pytest.fixture
def dev(machine):
    d = NVDevice(kernel=machine, timeout=5.0)
    yield d
    d.close()


@pytest.fixture
def page(dev):
    p = dev.alloc(4096, host=True, low=True)
    p.view(np.uint64)[:] = 0
    yield p
    p.free()


def sem(pb, address, payload, operation, acquire_switch=False):
    """SEM_ADDR_LO..SEM_EXECUTE as one incrementing method of five dwords."""
    return pb.method(0, SEM_ADDR_LO, address & 0xFFFFFFFF, address >> 32, payload & 0xFFFFFFFF, payload >> 32,
                     operation)


# -- opening and closing -------------------------------------------------------------------------------
@pytest.mark.parametrize("target,board,compute", [("sm_86", "GA102", NV.AMPERE_COMPUTE_B),
                                                  ("sm_89", "AD102", NV.ADA_COMPUTE_A),
                                                  ("sm_90", "GH100", NV.HOPPER_COMPUTE_A)])
def test_open_close_leaves_nothing(target, board, compute):
    kernel = make_kernel(target)
    with NVDevice(kernel=kernel) as d:
        assert (d.target, d.compute_class) == (target, compute) and d.sku.chip == board
        assert kernel.live()["channels"] == 2 and kernel.live()["clients"] == 1
    assert_nothing_left(kernel)


def test_emulate_argument_and_environment(monkeypatch):
    d = NVDevice(emulate="sm_89")
    assert d.target == "sm_89" and d.kernel.target == "sm_89"
    d.close()
    monkeypatch.setenv("GPU_EMULATE", "sm_90x2")
    d = NVDevice(1)
    assert d.target == "sm_90" and d.index == 1 and len(d.kernel.gpus) == 2
    d.close()
    with pytest.raises(DeviceNotFound, match=r"'gfx1100' is not an NVIDIA target \(sm_86, sm_89, sm_90"):
        NVDevice(emulate="gfx1100")
    with pytest.raises(DeviceNotFound, match="no NVIDIA GPU with index 2: NV_ESC_CARD_INFO lists 2"):
        NVDevice(2, emulate="sm_90x2")


def test_close_frees_what_the_user_forgot(machine):
    d = NVDevice(kernel=machine)
    for kw in ({}, {"host": True}, {"cpu_access": True}):
        d.alloc(1 << 20, **kw)
    d.submit_raw(PushBuffer(), "nothing", wait=False)
    d.close()
    d.close()                                             # twice is harmless
    assert_nothing_left(machine)
    with pytest.raises(GPUError, match="closed"):
        d.alloc(16)


# -- memory and the copy engine ------------------------------------------------------------------------
@pytest.mark.parametrize("kw", [{}, {"host": True}, {"cpu_access": True}])
def test_round_trips_at_odd_sizes_and_offsets(dev, kw):
    rng = np.random.default_rng(3)
    buf = dev.alloc(70000, **kw)
    for n, off in ((1, 0), (3, 5), (4097, 4093), (65537, 1)):
        data = rng.integers(0, 256, n, dtype=np.uint8)
        dev.copyin(buf, data, off)
        out = np.empty(n, np.uint8)
        dev.copyout(out, buf, off)
        assert np.array_equal(out, data), (n, off)
    with pytest.raises(ValueError, match="copyin"):
        dev.copyin(buf, np.zeros(16, np.uint8), 70000 - 8)
    buf.free()


def test_device_to_device_copies_leave_their_neighbours(dev):
    a, b = dev.alloc(1 << 20), dev.alloc(1 << 20)
    data = np.random.default_rng(5).integers(0, 256, 1 << 20, dtype=np.uint8)
    a.copyin(data)
    b.copyin(np.full(1 << 20, 0xA5, np.uint8))
    dev.copy(b, a, 300001, dst_offset=7, src_offset=13)
    out = np.empty(1 << 20, np.uint8)
    b.copyout(out)
    want = np.full(1 << 20, 0xA5, np.uint8)
    want[7:7 + 300001] = data[13:13 + 300001]
    assert np.array_equal(out, want)
    a.free(), b.free()


# -- push-buffer forms ---------------------------------------------------------------------------------
def test_incrementing_non_incrementing_immediate_and_increment_once(dev, page):
    va = page.va
    words = page.view(np.uint32)
    # non-incrementing: three writes to SEM_PAYLOAD_LO, the last one stays
    pb = PushBuffer().method(0, SEM_ADDR_LO, va & 0xFFFFFFFF, va >> 32)
    pb.non_inc(0, NV.NVC56F_SEM_PAYLOAD_LO, [1, 2, 3])
    pb.method(0, EXECUTE, RELEASE_32)
    # increment-once: SEM_ADDR_LO, then every further dword to SEM_ADDR_HI (the last, 0, stays)
    pb.dwords.append(NV.push_header(NV.NVC56F_DMA_SEC_OP_ONE_INC, 0, SEM_ADDR_LO, 3))
    pb.dwords += [(va + 8) & 0xFFFFFFFF, 0x77, va >> 32]
    # immediate: SEM_PAYLOAD_LO = 0x1abc carried in the header's count field
    pb.immediate(0, NV.NVC56F_SEM_PAYLOAD_LO, 0x1ABC)
    pb.method(0, EXECUTE, RELEASE_32)
    dev.submit_raw(pb, "method forms")
    assert words[0] == 3 and words[2] == 0x1ABC


def test_semaphore_release_64_bit_with_timestamp(dev, page):
    before = time.perf_counter_ns()
    dev.submit_raw(sem(PushBuffer(), page.va, 0x1234_5678_9ABC_DEF0, RELEASE_64_STAMP), "64-bit release")
    value, stamp = (int(v) for v in page.view(np.uint64)[:2])
    assert value == 0x1234_5678_9ABC_DEF0 and stamp > 0
    dev.submit_raw(sem(PushBuffer(), page.va + 16, 5, RELEASE_64_STAMP), "second release")
    assert int(page.view(np.uint64)[3]) > stamp
    assert time.perf_counter_ns() - before > 0


@pytest.mark.parametrize("operation,initial,release,payload", [
    (NV.NVC56F_SEM_EXECUTE_OPERATION_ACQ_STRICT_GEQ, 4, 9, 9),
    (NV.NVC56F_SEM_EXECUTE_OPERATION_ACQ_CIRC_GEQ, 0xFFFF_FFF0, 3, 2),      # wraps past 2^32
    (NV.NVC56F_SEM_EXECUTE_OPERATION_ACQ_AND, 0b0110, 0b1000, 0b1001),
    (NV.NVC56F_SEM_EXECUTE_OPERATION_ACQ_NOR, 0xFFFF_FFFF, 0x7FFF, 0xFFFF_0000),         # NOR of bit 15
    (NV.NVC56F_SEM_EXECUTE_OPERATION_ACQUIRE, 1, 7, 7)])
def test_acquires_wait_until_the_cpu_satisfies_them(dev, page, operation, initial, release, payload):
    words = page.view(np.uint32)
    words[0] = initial
    pb = sem(PushBuffer(), page.va, payload, OP.num(operation))
    sem(pb, page.va + 64, 0xD0E, RELEASE_32)
    value = dev.submit_raw(pb, "an acquire", wait=False)
    time.sleep(0.05)
    assert words[16] == 0, "the release behind an unsatisfied acquire ran"
    words[0] = release
    dev.wait(dev.compute_timeline, value, 5)
    assert words[16] == 0xD0E


def test_semaphore_reduction_adds(dev, page):
    add = OP.num(NV.NVC56F_SEM_EXECUTE_OPERATION_REDUCTION) | NV.NVC56F_SEM_EXECUTE_REDUCTION.num(
        NV.NVC56F_SEM_EXECUTE_REDUCTION_IADD)
    page.view(np.uint32)[0] = 40
    pb = PushBuffer()
    for _ in range(3):
        sem(pb, page.va, 2, add)
    dev.submit_raw(pb, "three reductions")
    assert page.view(np.uint32)[0] == 46


def test_host_semaphores_must_be_reachable():
    with pytest.raises(GPUError, match=r"semaphore at 0x10000000004: .*8-byte aligned address below 2\^40"):
        PushBuffer().release(1 << 40 | 4, 1)


# -- faults, hangs, recovery ---------------------------------------------------------------------------
def after_recovery_works(dev, page):
    dev.submit_raw(PushBuffer().release(page.va + 256, 99), "after the fault")
    assert int(page.view(np.uint64)[32]) == 99


def test_a_release_to_an_unmapped_va_is_gpu_fault_naming_it(dev, page):
    with pytest.raises(GPUFault) as e:
        dev.submit_raw(PushBuffer().release(LOW_BAD_VA, 1), "a release to nowhere")
    # the timestamp (+8) is written before the payload, so a waiter that sees the payload sees its time
    assert e.value.va == LOW_BAD_VA + 8 and f"0x{LOW_BAD_VA + 8:x}" in str(e.value) and "write" in str(e.value)
    assert "compute channel was running: a release to nowhere" in str(e.value)
    after_recovery_works(dev, page)


def test_the_copy_engine_reading_an_unmapped_va_is_gpu_fault_naming_it(dev, page):
    buf = dev.alloc(4096)
    pb = dev.copy_channel.bind()
    copy_methods(pb, buf.va, BAD_VA + 0x40, 256)
    with pytest.raises(GPUFault) as e:
        dev.submit_raw(pb, "a copy from nowhere", channel="copy")
    assert e.value.va == BAD_VA + 0x40 and "read" in str(e.value)
    buf.free()
    after_recovery_works(dev, page)


@pytest.mark.parametrize("build,match", [
    (lambda pb: pb.method(0, NV.NVC56F_ILLEGAL, 0x55), "the ILLEGAL method"),
    (lambda pb: pb.method(0, 0xF4, 1), "host method 0xf4 is not one"),
    (lambda pb: pb.method(3, NV.NVC7C0_LAUNCH_DMA, 0), "on subchannel 3, which no SET_OBJECT bound"),
    (lambda pb: pb.method(0, NV.NVC56F_SET_OBJECT, 0xC0DE), "SET_OBJECT class 0xC0DE on subchannel 0, "
     "but the channel has no such object (it has: "),
    (lambda pb: pb.dwords.append(7 << 29), "has SEC_OP 7, which the host does not take"),
])
def test_a_malformed_push_buffer_stops_the_channel_naming_the_method(dev, page, build, match):
    pb = PushBuffer()
    build(pb)
    with pytest.raises(ChannelError) as e:
        dev.submit_raw(pb, "malformed")
    assert e.value.xid == NV.ROBUST_CHANNEL_PBDMA_ERROR and match in str(e.value), str(e.value)
    after_recovery_works(dev, page)


def test_a_method_header_running_past_its_gpfifo_entry_is_named(dev, page):
    seg = dev.alloc(4096, host=True, low=True)
    seg.view(np.uint32)[0] = NV.push_header(NV.NVC56F_DMA_SEC_OP_INC_METHOD, 0, SEM_ADDR_LO, 4)
    dev.compute._gp_entry(seg.va, 1)                     # a one-dword entry announcing four more
    with pytest.raises(ChannelError) as e:
        dev.submit_raw(PushBuffer(), "behind the truncated entry")
    assert e.value.xid == NV.ROBUST_CHANNEL_PBDMA_ERROR
    assert "INC_METHOD header for 4 more dwords runs past the end of its 1-dword segment" in str(e.value)
    seg.free()
    after_recovery_works(dev, page)


def test_an_acquire_nobody_releases_is_gpu_hang_naming_the_work(dev, page):
    dev.submit_raw(PushBuffer().acquire(page.va, 1), "an acquire nobody releases", wait=False)
    start = time.perf_counter()
    with pytest.raises(GPUHang, match="an acquire nobody releases"):
        dev.synchronize(timeout=0.3)
    assert time.perf_counter() - start < 3
    after_recovery_works(dev, page)


# -- two GPUs ------------------------------------------------------------------------------------------
def test_peer_copies_between_two_virtual_gpus_and_nothing_left():
    kernel = make_kernel("sm_90x2")
    a, b = NVDevice(0, kernel=kernel), NVDevice(1, kernel=kernel)
    assert a.process is b.process and a.uuid != b.uuid
    data = np.arange(1 << 16, dtype=np.uint32)
    x, y = a.alloc(data.nbytes), b.alloc(data.nbytes)
    x.copyin(data)
    b.copy(y, x)                           # b's copy engine reads a's VRAM
    out = np.empty_like(data)
    y.copyout(out)
    assert np.array_equal(out, data)
    a.copy(x, y, 4096, dst_offset=4, src_offset=8)     # and the other way
    x.copyout(out)
    assert np.array_equal(out[1:1025], data[2:1026]) and out[0] == 0
    x.free(), y.free()
    b.close(), a.close()
    assert_nothing_left(kernel)


def test_debug_2_prints_each_gpfifo_entry_with_its_methods_named(monkeypatch, capsys):
    monkeypatch.setenv("DEBUG", "2")
    with NVDevice(emulate="sm_86") as d:
        page = d.alloc(4096, host=True, low=True)
        capsys.readouterr()
        d.submit_raw(PushBuffer().immediate(0, NV.NVC56F_SEM_PAYLOAD_LO, 5).release(page.va, 7), "debug")
        err = capsys.readouterr().err
        page.free()
    lines = err.splitlines()
    assert any(line.startswith("NVDevice 0 compute GPFIFO entry ") for line in lines)
    assert "  subch 0 NVC56F_SEM_PAYLOAD_LO 0x5 (immediate)" in lines
    assert f"  subch 0 NVC56F_SEM_ADDR_LO 0x{page.va & 0xFFFFFFFF:x}" in lines
    assert sum(line.startswith("  subch 0 NVC56F_SEM_EXECUTE 0x") for line in lines) == 2     # ours, the timeline's


# -- loading cubins and passing arguments ----------------------------------------------------------------
def test_load_refuses_what_it_cannot_run_and_names_it(dev):
    from drivers.errors import KernargError, MalformedInput
    from hw_tests.nv_kernels import cubin_path
    with pytest.raises(MalformedInput, match="junk.cubin.*not an ELF file"):
        dev.load(b"\x7fELF nonsense", "junk.cubin")
    other = "sm_90" if dev.target != "sm_90" else "sm_86"
    with pytest.raises(GPUError, match=f"is {other} code; {dev.target} .* does not run it"):
        dev.load(cubin_path("saxpy", other))
    prg = dev.load(cubin_path("saxpy", dev.target))
    k = prg["saxpy"]
    buf = dev.alloc(64)
    with pytest.raises(KernargError, match="kernel saxpy takes 4 arguments, got 3"):
        k(1.0, buf, buf, grid=(1,), block=(32,))
    with pytest.raises(KernargError, match=r"argument 3 \(4-byte parameter at \+24\): 4294967296 does not fit"):
        k(1.0, buf, buf, 1 << 32, grid=(1,), block=(32,))
    with pytest.raises(KernargError, match=r"argument 0 \(4-byte parameter at \+0\): a pointer where"):
        k(buf, buf, buf, 4, grid=(1,), block=(32,))
    with pytest.raises(ValueError, match=r"block \(2048, 1, 1\) has 2048 threads"):
        k(1.0, buf, buf, 4, grid=(1,), block=(2048,))
    with pytest.raises(KeyError, match="no kernel 'nope' in this program \\(has: saxpy\\)"):
        prg["nope"]
    buf.free()
    prg.free()
