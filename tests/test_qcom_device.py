"""QCOMDevice end to end on the virtual Adreno 630: opening and closing without leaks, memory and
copies (write-combined and cached), loading ir3 programs, arguments, faults, hangs (the wait's
own timeout and the ones KGSL detects), the (ss)/(sy) check through the whole stack, and
command buffers."""
import os

import numpy as np
import pytest

from assembler.ir3 import assemble_program
from drivers.emu import make_kernel
from drivers.errors import DeviceNotFound, GPUError, GPUFault, GPUHang, KernargError
from drivers.qcom import QCOMDevice, pm4
from hw_tests.ir3_programs import source_path

NOTHING_LIVE = {"files": 0, "contexts": 0, "objects": 0, "mappings": 0, "pending": 0}
VADD = source_path("vadd")
SCALE = source_path("scale")


def assert_nothing_left(kernel):
    assert kernel.live() == NOTHING_LIVE
    assert kernel.kgsl.leaked == [] and kernel.open_files == {}


@pytest.fixture
def dev():
    kernel = make_kernel("a630")
    d = QCOMDevice(kernel=kernel)
    kernel.kgsl.gpu.hang_timeout = 0.3          # the dispatcher gives up on a stuck CP quickly here
    yield d
    d.close()
    assert_nothing_left(kernel)


def vadd(d, n=128, wait=True, **kw):
    prg = d.load(VADD)
    a, b = np.arange(n, dtype=np.float32), np.full(n, 0.5, np.float32)
    bufs = [d.alloc(4 * n, **kw) for _ in range(3)]
    bufs[0].copyin(a)
    bufs[1].copyin(b)
    secs = prg["vadd"](*bufs, grid=(n // 64,), wait=wait)
    out = np.zeros(n, np.float32)
    bufs[2].copyout(out)
    return secs, out, a + b


# -- opening and closing -------------------------------------------------------------------------------
def test_open_close_leaves_nothing():
    kernel = make_kernel("a630")
    with QCOMDevice(kernel=kernel) as d:
        assert d.target == "a630" and d.info.chip_id == 0x06030001 and d.fault_info
        assert kernel.live()["contexts"] == 1 and kernel.live()["mappings"] >= 3      # memstore, signals, arena
    assert_nothing_left(kernel)


def test_emulate_argument_and_environment(monkeypatch):
    monkeypatch.setenv("GPU_EMULATE", "a630")
    d = QCOMDevice()
    try:
        assert d.target == "a630"
    finally:
        d.close()
    with pytest.raises(DeviceNotFound, match="'gfx1100' is a virtual AMD GPU, not an Adreno"):
        QCOMDevice(emulate="gfx1100")


def test_no_kgsl_node_says_so_and_how_to_emulate():
    kernel = make_kernel("a630")
    del kernel.devices["/dev/kgsl-3d0"]
    with pytest.raises(DeviceNotFound, match=r"/dev/kgsl-3d0 does not exist.*emulate='a630'"):
        QCOMDevice(kernel=kernel)
    kernel2 = make_kernel("a630")
    kernel2.denied.add("/dev/kgsl-3d0")
    with pytest.raises(DeviceNotFound, match="permission denied opening /dev/kgsl-3d0: .* 'system' group"):
        QCOMDevice(kernel=kernel2)


def test_close_frees_what_the_user_forgot():
    kernel = make_kernel("a630")
    d = QCOMDevice(kernel=kernel)
    vadd(d, wait=False)                          # programs, buffers and a launch in flight, none freed
    cb = d.command_buffer()
    cb.add(d.load(SCALE)["scale"], d.alloc(256), d.alloc(256), 2.0, grid=(1,))
    cb.submit()
    d.close()
    assert_nothing_left(kernel)
    with pytest.raises(GPUError, match="QCOMDevice 0 is closed"):
        d.alloc(64)


# -- memory --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("cached", [False, True])
def test_launch_round_trip(dev, cached):
    secs, out, want = vadd(dev, cached=cached)
    assert np.array_equal(out, want) and secs > 0


def test_cached_buffers_need_cache_maintenance(dev):
    """Without a clean, what the CPU wrote through a write-back mapping is not what the GPU
    reads (the virtual KGSL keeps the CPU's view apart until GPUOBJ_SYNC)."""
    n = 64
    prg = dev.load(VADD)
    a, b, c = (dev.alloc(4 * n, cached=True) for _ in range(3))
    a.view(np.float32)[:] = 1.0                 # straight into the CPU's cache, no clean
    b.copyin(np.full(n, 2.0, np.float32))       # copyin cleans
    prg["vadd"](a, b, c, grid=(1,), wait=True)
    out = np.zeros(n, np.float32)
    c.copyout(out)
    assert (out == 2.0).all()                   # the GPU saw zeros in a
    a.sync_to_gpu()
    prg["vadd"](a, b, c, grid=(1,), wait=True)
    c.copyout(out)
    assert (out == 3.0).all()


def test_buffers_report_their_object_and_refuse_after_free(dev):
    buf = dev.alloc(100)
    assert buf.size == 100 and buf.alloc_size == 4096 and buf.va % 4096 == 0
    assert dev.kernel.kgsl.entries[buf.id].gpuaddr == buf.va            # SVM: one address for both
    buf.free()
    with pytest.raises(GPUError, match="already freed"):
        buf.copyin(np.zeros(4, np.uint8))
    with pytest.raises(ValueError, match="do not fit the 64-byte buffer"):
        dev.alloc(64).copyin(np.zeros(65, np.uint8))


# -- arguments -----------------------------------------------------------------------------------------
def test_argument_errors_name_the_argument(dev):
    k = dev.load(SCALE)["scale"]
    a, b = dev.alloc(256), dev.alloc(256)
    with pytest.raises(KernargError, match=r"kernel scale takes 3 arguments \(argument 0 \(@buf 0 at c2.x\), "):
        k(a, b, grid=(1,))
    with pytest.raises(KernargError, match=r"argument 2 \(@arg f32 scale\) must be a number, got Buffer"):
        k(a, b, a, grid=(1,))
    with pytest.raises(KernargError, match=r"argument 1 \(@buf 1 at c2.z\) must be a Buffer, got float"):
        k(a, 1.0, 1.0, grid=(1,))
    b.free()
    with pytest.raises(KernargError, match="argument 1 .* is a freed buffer"):
        k(a, b, 1.0, grid=(1,))
    with pytest.raises(ValueError, match="block .* has 2048 work-items"):
        k(a, a, 1.0, grid=(1,), block=(2048,))


def test_load_takes_programs_containers_and_paths(dev, tmp_path):
    p = assemble_program(open(VADD).read())
    assert dev.load(p)["main"].threadsize == 64
    path = tmp_path / "double.ir3"
    path.write_bytes(p.write())
    assert "double" in dev.load(str(path)) and dev.load(p.write(), name="x", threadsize=128)["x"].threadsize == 128
    with pytest.raises(TypeError, match="load\\(\\) takes"):
        dev.load(42)


# -- faults and hangs ----------------------------------------------------------------------------------
BAD_POINTER = """@localsize 64, 1, 1
@arg(c2.x) u64 src
@buf 0 (c3.x)
@invocationid(r0.x)
mov.u32u32 r1.x, c2.x
mov.u32u32 r1.y, c2.y
(rpt5)nop
ldg.a.u32 r2.x, g[r1.x+(r0.x<<2)], 1
(sy)nop
end
"""


def test_bad_pointer_is_gpu_fault_with_the_address_and_the_next_launch_works(dev):
    k = dev.load(assemble_program(BAD_POINTER), name="bad")["bad"]
    bad = 0xDEAD_0000_0000
    with pytest.raises(GPUFault) as err:
        k(bad, dev.alloc(256), grid=(1,), wait=True)
    assert err.value.va == bad and err.value.reason == "page not present" and "dispatch of bad" in str(err.value)
    secs, out, want = vadd(dev)
    assert np.array_equal(out, want)


def test_wait_past_its_timeout_is_gpu_hang_naming_the_work_and_the_device_recovers(dev):
    flag = dev.alloc(4096)
    flag.view(np.uint32)[:] = 0
    done = dev.submit_pm4(pm4.pkt7(pm4.CP_NOP), "warm-up")
    dev.synchronize()
    dev.submit_pm4(pm4.wait_reg_mem_ge(flag.va, 1), "CP_WAIT_REG_MEM on a flag nobody sets")
    with pytest.raises(GPUHang) as err:
        dev.synchronize(timeout=0.2)
    assert err.value.last_value == done and "nobody sets" in str(err.value)
    assert f"CP_WAIT_REG_MEM: waiting for [0x{flag.va:x}] GREATER_EQUAL 1" in str(err.value)
    secs, out, want = vadd(dev)
    assert np.array_equal(out, want)


def test_a_host_write_releases_a_cp_wait(dev):
    flag = dev.alloc(4096)
    flag.view(np.uint32)[:] = 0
    value = dev.submit_pm4(pm4.wait_reg_mem_ge(flag.va, 7), "wait for the host")
    flag.view(np.uint32)[0] = 7
    dev.wait(value, timeout=2)


def test_endless_shader_is_detected_by_kgsl_and_the_device_recovers(dev):
    dev.kernel.kgsl.gpu.shader_budget = 5000
    k = dev.load(assemble_program("@localsize 64, 1, 1\nloop:\njump #loop\nend\n"), name="spin")["spin"]
    with pytest.raises(GPUHang) as err:
        k(grid=(1,), wait=True)
    assert "KGSL reset the GPU" in str(err.value) and "GPU hang in context" in str(err.value)
    assert "dispatch of spin" in str(err.value)
    secs, out, want = vadd(dev)
    assert np.array_equal(out, want)


def test_missing_sync_fails_through_the_whole_stack_naming_the_pc(dev):
    text = open(VADD).read().replace("(sy)add.f", "add.f")
    k = dev.load(assemble_program(text), name="unsynced")["unsynced"]
    bufs = [dev.alloc(256) for _ in range(3)]
    with pytest.raises(GPUHang) as err:
        k(*bufs, grid=(1,), wait=True)
    assert "hazard at PC 0xc (add.f r3.z, r3.x, r3.y): reads r3.x before (sy)" in str(err.value)


# -- command buffers -----------------------------------------------------------------------------------
def test_replay_is_one_gpu_command_and_update_patches_arguments(dev):
    n = 128
    scale, add = dev.load(SCALE)["scale"], dev.load(VADD)["vadd"]
    x, y, z = (dev.alloc(4 * n) for _ in range(3))
    x.copyin(np.arange(n, dtype=np.float32))
    cb = dev.command_buffer()
    cb.add(scale, x, y, 2.0, grid=(n // 64,))
    cb.add(add, x, y, z, grid=(n // 64,))
    gpu = dev.kernel.kgsl.gpu
    before = gpu.submissions, gpu.dispatches
    secs = cb.submit(wait=True)
    cb.submit()
    cb.submit()
    dev.synchronize()
    assert secs > 0 and gpu.submissions == before[0] + 3 and gpu.dispatches == before[1] + 6
    out = np.zeros(n, np.float32)
    z.copyout(out)
    assert np.array_equal(out, np.arange(n) * 3.0 + 0.25)
    cb.update(0, x, y, 4.0)
    cb.submit(wait=True)
    z.copyout(out)
    assert np.array_equal(out, np.arange(n) * 5.0 + 0.25)
    with pytest.raises(KernargError, match="takes 3 arguments"):
        cb.update(0, x)
    with pytest.raises(IndexError):
        cb.update(5, x, y, 1.0)
    cb.free()


def test_debug_levels_print_launches_packets_and_disassembly(monkeypatch, capsys):
    monkeypatch.setitem(os.environ, "DEBUG", "3")
    kernel = make_kernel("a630")
    with QCOMDevice(kernel=kernel) as d:
        vadd(d)
    err = capsys.readouterr().err
    assert "QCOMDevice 0: Adreno 630 (chip 0x06030001)" in err and "dispatch of vadd grid (2, 1, 1)" in err
    assert "CP_EXEC_CS: 00000000 00000002 00000001 00000001" in err
    assert "(sy)add.f r3.z, r3.x, r3.y" in err


@pytest.mark.parametrize("how", ["CP_EXEC_CS_INDIRECT", "CP_RUN_OPENCL"])
def test_the_other_dispatch_packets(dev, how):
    """The command processor also dispatches from group counts in memory (CP_EXEC_CS_INDIRECT) and
    from HLSQ_CS_KERNEL_GROUP_X/Y/Z (CP_RUN_OPENCL, the OpenCL blob's way)."""
    from drivers.qcom.compute import dispatch_words, ibo_words, program_words
    n = 128
    k = dev.load(VADD)["vadd"]
    a, b, c = (dev.alloc(4 * n) for _ in range(3))
    a.copyin(np.arange(n, dtype=np.float32))
    b.copyin(np.ones(n, np.float32))
    words, buffers = k.pack([a, b, c], (2, 1, 1))
    q = dev.queue
    ib = program_words(k) + dispatch_words(k, q.put(words), q.put(ibo_words(buffers)), 3, (2, 1, 1), (64, 1, 1))
    exec_cs = pm4.pkt7(pm4.CP_EXEC_CS, 0, 2, 1, 1)
    at = next(i for i in range(len(ib)) if ib[i:i + 5] == exec_cs)
    if how == "CP_EXEC_CS_INDIRECT":
        groups_va = q.put([2, 1, 1])
        other = pm4.pkt7(0x41, 0, *pm4.lo_hi(groups_va), 63 << 2)
    else:
        other = pm4.pkt4(pm4.HLSQ_CS_KERNEL_GROUP_X, 2, 1, 1) + pm4.pkt7(pm4.CP_RUN_OPENCL, 0)
    ib[at:at + 5] = other
    before = dev.kernel.kgsl.gpu.dispatches
    dev.wait(dev.submit_pm4(ib, how), timeout=5)
    out = np.zeros(n, np.float32)
    c.copyout(out)
    assert dev.kernel.kgsl.gpu.dispatches == before + 1 and np.array_equal(out, np.arange(n) + 1.0)
