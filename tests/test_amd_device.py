"""AMDDevice end to end on the virtual gfx1100: open/close, memory heaps, out-of-memory, copies,
launches (with a test executor standing in for the shader simulator), faults, hangs and replay.

The executor reads what the command processor handed it (user SGPRs or the AQL kernarg
address, grid, block) and writes a pattern through the GPU VM, so a test proves that packets,
kernargs, signals and waits line up, not just that nothing crashed.
"""
import os
import struct

import numpy as np
import pytest

from drivers.amd import pm4
from drivers.amd.device import AMDDevice
from drivers.amd.kernargs import KernargError, Pointer
from drivers.amd.memory import GTT, USERPTR, VRAM, VRAM_PUBLIC, OutOfMemory
from drivers.emu import make_kernel
from drivers.errors import DeviceNotFound, GPUError, GPUFault, GPUHang

CLANG = os.path.join(os.path.dirname(__file__), "clang_kernels")
MiB = 1 << 20


def code_object(name):
    with open(os.path.join(CLANG, f"{name}.hsaco"), "rb") as f:
        return f.read()


def assert_nothing_live(kernel):
    assert kernel.gpu.live() == {"processes": 0, "bos": 0, "queues": 0, "events": 0, "mappings": 0}
    assert kernel.open_files == {}


@pytest.fixture(params=["pm4", "aql"])
def queue_kind(request):
    return request.param


@pytest.fixture
def dev(queue_kind):
    kernel = make_kernel("gfx1100")
    d = AMDDevice(kernel=kernel, aql=queue_kind == "aql")
    yield d
    d.close()
    assert_nothing_live(kernel)


def kernarg_va(d):
    """Where the kernargs are: the kernarg pointer user SGPRs (PM4) or the packet (AQL)."""
    if d.source == "aql":
        return d.kernarg_va
    return d.user_sgprs[0] | d.user_sgprs[1] << 32          # clang kernels: only KERNARG_SEGMENT_PTR


def pattern_executor(seen):
    """Fake shader: out[i] = 3 * i + 7 for every work-item, out = first kernel argument."""
    def run(d):
        ka = kernarg_va(d)
        seen.append(d)
        out = d.vm.u64(ka)
        n = d.grid_size[0] * d.grid_size[1] * d.grid_size[2]
        d.vm.write(out, (np.arange(n, dtype=np.uint32) * 3 + 7).tobytes())
    return run


# -- opening and closing ---------------------------------------------------------------------------
def test_open_close_leaves_nothing_and_reports_the_node():
    kernel = make_kernel("gfx1100")
    with AMDDevice(kernel=kernel) as d:
        assert d.target == "gfx1100" and d.gpu_id == kernel.gpu.gpu_id
        assert d.kfd.version >= (1, 14) and kernel.gpu.live()["queues"] == 2       # compute + SDMA
        assert d.compute.name == "PM4 compute queue"
    assert_nothing_live(kernel)


def test_emulate_argument_and_environment(monkeypatch):
    monkeypatch.setenv("GPU_EMULATE", "gfx1100")
    d = AMDDevice()
    try:
        assert d.target == "gfx1100"
    finally:
        d.close()
    assert_nothing_live(d.kernel)


def test_no_gpu_is_device_not_found_with_the_probes_reason(monkeypatch, tmp_path):
    from drivers.kernel import RealKernel
    monkeypatch.delenv("GPU_EMULATE", raising=False)
    with pytest.raises(DeviceNotFound, match=f"{tmp_path}/kfd does not exist .* add --emulate gfx1100"):
        AMDDevice(kernel=RealKernel(sysfs_root=str(tmp_path), dev_root=str(tmp_path)))


def test_bad_index_is_device_not_found():
    kernel = make_kernel("gfx1100")
    with pytest.raises(DeviceNotFound, match="no AMD GPU with index 3: this machine has 1 GPU node"):
        AMDDevice(3, kernel=kernel)
    assert_nothing_live(kernel)


def test_closed_device_refuses_work():
    d = AMDDevice(emulate="gfx1100")
    d.close()
    d.close()                                        # idempotent
    with pytest.raises(GPUError, match="is closed"):
        d.alloc(16)


# -- memory ----------------------------------------------------------------------------------------
def test_heaps_and_shared_virtual_addresses(dev):
    k = dev.kernel
    bufs = {"vram": dev.alloc(100), "host": dev.alloc(5000, host=True), "gtt": dev.alloc(4096, uncached=True),
            "public": dev.alloc(8192, cpu_access=True)}
    assert [b.heap for b in bufs.values()] == [VRAM, USERPTR, GTT, VRAM_PUBLIC]
    for b in bufs.values():
        assert b.va % 4096 == 0
        assert k.gpu.processes[0].vm.lookup(b.va) is not None          # the GPU sees the same VA
    with pytest.raises(GPUError, match="which the CPU cannot map"):
        bufs["vram"].view()
    # CPU writes through the shared VA are what the GPU reads there
    bufs["gtt"].view(np.uint32)[:4] = [1, 2, 3, 4]
    assert np.array_equal(k.gpu.processes[0].vm.view(bufs["gtt"].va, np.uint32, 4), [1, 2, 3, 4])
    live = k.gpu.live()["bos"]
    for b in bufs.values():
        b.free()
        b.free()                                     # freeing twice is harmless
    assert k.gpu.live()["bos"] == live - 4
    with pytest.raises(GPUError, match="already freed"):
        bufs["gtt"].copyin(np.zeros(4, np.uint8))


def test_bad_sizes_and_heap_names(dev):
    with pytest.raises(ValueError, match="positive number of bytes"):
        dev.alloc(0)
    with pytest.raises(ValueError, match="unknown heap"):
        dev.memory.alloc(16, "vrma")
    with pytest.raises(ValueError, match="choose one"):
        dev.alloc(16, host=True, uncached=True)


def test_out_of_vram_names_heap_size_and_free_space(dev):
    k = dev.kernel
    before = k.gpu.live()
    too_big = 64 << 30
    with pytest.raises(OutOfMemory) as err:
        dev.alloc(too_big)
    e = err.value
    assert e.heap is VRAM and e.size == too_big and 0 < e.available <= k.gpu.card.vram_bytes
    assert "vram" in str(e) and "64.0 GiB" in str(e) and "free" in str(e)
    assert k.gpu.live() == before                     # nothing leaked
    dev.alloc(MiB).free()                            # and the heap still works


# -- copies ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("sdma", [True, False], ids=["sdma", "cpu"])
def test_copies_are_exact_at_odd_sizes_and_offsets(sdma):
    kernel = make_kernel("gfx1100")
    d = AMDDevice(kernel=kernel, sdma=sdma)
    try:
        rng = np.random.default_rng(5)
        big = d.alloc(9 * MiB + 3)
        for size, offset in ((1, 0), (1, 5), (3, 1), (4097, 3), (MiB + 1, 7), (9 * MiB - 3, 5)):
            src = rng.integers(0, 256, size, dtype=np.uint8)
            big.copyin(src, offset)
            out = np.zeros(size, np.uint8)
            big.copyout(out, offset)
            assert np.array_equal(out, src), (size, offset)
        # device to device, overlapping neither end
        other = d.alloc(5 * MiB)
        d.copy(other, big, 2 * MiB + 1, dst_offset=11, src_offset=5)
        a, b = np.zeros(2 * MiB + 1, np.uint8), np.zeros(2 * MiB + 1, np.uint8)
        big.copyout(a, 5)
        other.copyout(b, 11)
        assert np.array_equal(a, b)
        with pytest.raises(ValueError, match="do not fit the"):
            big.copyin(np.zeros(16, np.uint8), big.size - 8)
        with pytest.raises(ValueError, match="C-contiguous"):
            big.copyin(np.zeros((4, 4), np.uint8)[:, 1])
        with pytest.raises(TypeError, match="numpy array or bytes"):
            big.copyin([1, 2, 3])
    finally:
        d.close()
    assert_nothing_live(kernel)


def test_copy_64_mib_round_trip():
    kernel = make_kernel("gfx1100")
    with AMDDevice(kernel=kernel) as d:
        src = np.random.default_rng(1).integers(0, 2**32, 16 * MiB, dtype=np.uint32)
        buf = d.alloc(64 * MiB + 1)
        buf.copyin(src, 1)
        out = np.zeros_like(src)
        buf.copyout(out, 1)
        assert np.array_equal(out, src)
    assert_nothing_live(kernel)


def test_rings_wrap(queue_kind):
    """Far more submissions than 4 KiB rings hold: SDMA pads the tail with NOPs, PM4 packets
    straddle the end, AQL slots are reused."""
    kernel = make_kernel("gfx1100")
    dev = AMDDevice(kernel=kernel, aql=queue_kind == "aql", ring_bytes=4096)
    seen = []
    kernel.gpu.executor = pattern_executor(seen)
    prg = dev.load(code_object("grid3d"))
    out = dev.alloc(64)
    for i in range(300):
        prg["grid3d"](out, out, grid=(1, 1, 1), block=(1 + i % 16, 1, 1))
    dev.synchronize()
    assert len(seen) == 300 and dev.compute.hw.wptr * dev.compute.hw.UNIT > 4 * 4096
    assert [d.workgroup_size[0] for d in seen[-3:]] == [1 + i % 16 for i in (297, 298, 299)]
    buf = dev.alloc(4096, cpu_access=True)
    ring_bytes = dev.copier.hw.ring_size
    per_copy = 0
    for i in range(3000):
        before = dev.copier.hw.wptr
        buf.copyin(np.full(3, i % 251, np.uint8), i % 4000)
        per_copy = dev.copier.hw.wptr - before
    assert dev.copier.hw.wptr > 20 * ring_bytes and per_copy % 4 == 0
    dev.synchronize()
    assert buf.view()[2999 % 4000] == 2999 % 251
    dev.close()
    assert_nothing_live(kernel)


def test_cpu_copies_need_a_cpu_visible_buffer():
    with AMDDevice(emulate="gfx1100", sdma=False) as d:
        assert d.alloc(64).heap is VRAM_PUBLIC            # the default follows the copy engine
        private = d.memory.alloc(4096, VRAM)
        private.device = d
        with pytest.raises(GPUError, match="SDMA copies are disabled"):
            private.copyin(np.zeros(4, np.uint8))
        private.free()


def test_environment_disables_sdma(monkeypatch):
    monkeypatch.setenv("AMD_DISABLE_SDMA", "1")
    kernel = make_kernel("gfx1100")
    with AMDDevice(kernel=kernel) as d:
        assert d.copier.timeline is None and kernel.gpu.live()["queues"] == 1


# -- launches --------------------------------------------------------------------------------------
def test_launch_packs_kernargs_and_reports_gpu_time(dev):
    seen = []
    dev.kernel.gpu.executor = pattern_executor(seen)
    prg = dev.load(code_object("grid3d"))
    out, aux = dev.alloc(4 * 512), dev.alloc(4096)
    secs = prg["grid3d"](out, aux, grid=(2, 2, 2), block=(8, 4, 2), wait=True)
    assert isinstance(secs, float) and secs >= 0
    result = np.zeros(512, np.uint32)
    out.copyout(result)
    assert np.array_equal(result, np.arange(512) * 3 + 7)
    d = seen[0]
    assert d.grid_workgroups == (2, 2, 2) and d.workgroup_size == (8, 4, 2) and d.wave32
    ka = kernarg_va(d)
    assert d.vm.u64(ka + 8) == aux.va
    assert struct.unpack("<IIIHHH", d.vm.read(ka + 16, 18)) == (2, 2, 2, 8, 4, 2)   # hidden block counts/sizes
    kd = prg["grid3d"]
    assert d.code_va == kd.code_va and d.rsrc1 == kd.rsrc1


def test_many_async_launches_then_synchronize(dev):
    seen = []
    dev.kernel.gpu.executor = pattern_executor(seen)
    prg = dev.load(code_object("grid3d"))
    out, aux = dev.alloc(4 * 64), dev.alloc(64)
    for _ in range(1500):                          # more than the kernarg arena and ring hold at once
        assert prg["grid3d"](out, aux, grid=(1, 1, 1), block=(64, 1, 1)) is None
    dev.synchronize()
    assert len(seen) == 1500 and dev.compute.timeline.value == dev.compute.timeline.last_submitted


def test_aql_launch_writes_the_packets_submit_packets_writes():
    """An untimed AQL launch packs its dispatch straight into the ring: the two slots it fills
    (dispatch, signal) hold what the general path (aql_dispatch_packet + submit_packets) writes."""
    kernel = make_kernel("gfx1100")
    with AMDDevice(kernel=kernel, aql=True) as dev:
        seen = []
        kernel.gpu.executor = pattern_executor(seen)
        hw = dev.compute.hw
        slots = []

        class Snapshot:                       # the ring as the doorbell publishes it
            def __init__(self, inner):
                self.inner = inner

            def store64(self, offset, value):
                first = (hw.wptr - 2) % hw.capacity
                slots.append(hw.ring_u32.reshape(-1, 16)[first:first + 2].copy())
                self.inner.store64(offset, value)
        hw.doorbell = Snapshot(hw.doorbell)
        general_calls = []
        submit_packets = dev.compute.submit_packets
        dev.compute.submit_packets = lambda *a: general_calls.append(1) or submit_packets(*a)
        prg = dev.load(code_object("grid3d"))
        out, aux = dev.alloc(4 * 512), dev.alloc(4096)
        dev.synchronize()                             # the code's upload done: no copy to wait for
        for shape in (((2, 2, 2), (8, 4, 2)), ((3, 1, 1), (5, 1, 1)), ((1, 4, 1), (2, 3, 1))):
            for general in (False, True):
                hw.debug = 2 if general else 0          # DEBUG>=2 takes the general path
                prg["grid3d"](out, aux, grid=shape[0], block=shape[1])
                dev.synchronize()
        hw.debug = 0
    assert len(slots) == 6 and len(seen) == 6 and len(general_calls) == 3
    for fused, general in zip(slots[0::2], slots[1::2]):
        fused, general = fused.copy(), general.copy()
        for p in (fused, general):
            p[0, 10:12] = 0                          # kernarg address: the arena's next block
            p[1, 2:4] = 0                            # signal IB: the slot of its timeline value
        assert np.array_equal(fused, general)
        assert fused[0, 0] & 0xFFFF == 0x1502 and fused[0, 8] != 0 and fused[1, 0] != 0   # headers, KD
    for a, b in zip(seen[0::2], seen[1::2]):
        assert (a.grid_workgroups, a.workgroup_size, a.grid_size, a.code_va, a.lds_bytes) == \
            (b.grid_workgroups, b.workgroup_size, b.grid_size, b.code_va, b.lds_bytes)
    assert_nothing_live(kernel)


def test_launch_argument_and_shape_errors(dev):
    prg = dev.load(code_object("matmul_tiled"))
    k = prg["matmul_tiled"]
    a = dev.alloc(64)
    with pytest.raises(KernargError, match=r"takes 7 arguments, 2 given"):
        k(a, a, grid=(1, 1, 1), block=(1, 1, 1))
    with pytest.raises(KernargError, match=r"argument 3 .*must be an integer"):
        k(a, a, a, 1.5, 1, 1, 1.0, grid=(1, 1, 1), block=(1, 1, 1))
    with pytest.raises(ValueError, match="grid must be up to three positive integers"):
        k(a, a, a, 1, 1, 1, 1.0, grid=(0, 1, 1), block=(1, 1, 1))
    with pytest.raises(ValueError, match="work-items; the kernel allows at most"):
        k(a, a, a, 1, 1, 1, 1.0, grid=(1, 1, 1), block=(1024, 2, 1))
    with pytest.raises(KeyError, match="no kernel 'nope'"):
        prg["nope"]


def test_wrong_target_code_object_is_rejected(dev):
    from drivers.errors import MalformedInput
    data = bytearray(code_object("grid3d"))
    data[48] = 0x4C                                    # EF_AMDGPU_MACH gfx942
    with pytest.raises(MalformedInput, match="expected gfx1100"):
        dev.load(bytes(data))


def test_private_segment_grows_scratch_and_programs_tmpring(dev):
    seen = []
    dev.kernel.gpu.executor = lambda d: seen.append(d)
    prg = dev.load(code_object("scratch_array"))
    k = prg["scratch_array"]
    assert k.needs_scratch and k.private_segment_size > 0
    a = dev.alloc(256)
    k(a, a, a, 4, grid=(1, 1, 1), block=(32, 1, 1), wait=True)
    assert dev.scratch is not None and dev.scratch_va == dev.scratch.va
    wave_bytes = ((dev.tmpring_size >> 12) & 0x7FFF) * 256
    assert wave_bytes >= k.private_segment_size * 32
    if seen[0].source == "pm4":
        assert seen[0].scratch_base == dev.scratch_va and seen[0].tmpring_size == dev.tmpring_size


# -- faults and hangs ------------------------------------------------------------------------------
def test_bad_pointer_is_gpu_fault_and_the_next_launch_works(dev):
    seen = []
    dev.kernel.gpu.executor = pattern_executor(seen)
    prg = dev.load(code_object("grid3d"))
    bad = 0xDEAD_0000_0000
    with pytest.raises(GPUFault) as err:
        prg["grid3d"](Pointer(bad), Pointer(bad), grid=(1, 1, 1), block=(4, 1, 1), wait=True)
    assert err.value.va == bad and "not present" in err.value.reason
    out = dev.alloc(64)
    prg["grid3d"](out, out, grid=(1, 1, 1), block=(4, 1, 1), wait=True)
    result = np.zeros(4, np.uint32)
    out.copyout(result)
    assert result.tolist() == [7, 10, 13, 16]


def test_wait_past_timeout_is_gpu_hang_naming_the_work(dev):
    flag = dev.alloc(4096, uncached=True)
    flag.view(np.uint32)[:] = 0
    q = dev.compute
    done = q.submit_pm4(pm4.nop(4), "warm-up")
    dev.synchronize()
    q.submit_pm4(pm4.wait_reg_mem(flag.va, 1), "WAIT_REG_MEM on a flag nobody sets")
    with pytest.raises(GPUHang) as err:
        dev.synchronize(timeout=0.2)
    assert err.value.last_value == done and "nobody sets" in str(err.value)
    # where the command processor stopped: at the wait (PM4) or the packet carrying it (AQL)
    assert "read pointer" in str(err.value)
    assert ("dword" in str(err.value) and "WAIT_REG_MEM" in str(err.value)) or "PM4_IB" in str(err.value)
    seen = []
    dev.kernel.gpu.executor = pattern_executor(seen)
    prg = dev.load(code_object("grid3d"))
    out = dev.alloc(64)
    prg["grid3d"](out, out, grid=(1, 1, 1), block=(2, 1, 1), wait=True)
    assert len(seen) == 1


# -- replay ----------------------------------------------------------------------------------------
def test_replay_uses_one_indirect_buffer_and_patches_kernargs(dev):
    seen = []
    dev.kernel.gpu.executor = pattern_executor(seen)
    prg = dev.load(code_object("grid3d"))
    a, b, c = dev.alloc(4 * 64), dev.alloc(4 * 64), dev.alloc(4 * 64)
    cb = dev.command_buffer()
    cb.add(prg["grid3d"], a, c, grid=(1, 1, 1), block=(16, 1, 1))
    cb.add(prg["grid3d"], b, c, grid=(2, 1, 1), block=(16, 1, 1))
    secs = cb.submit(wait=True)
    assert secs is not None and secs >= 0 and len(seen) == 2
    hw = dev.compute.hw
    start = hw.wptr
    cb.submit()
    cb.submit()
    dev.synchronize()
    assert len(seen) == 6
    if not dev.compute.use_aql:
        words = [int(hw.ring_u32[i % hw.capacity]) for i in range(start, hw.wptr)]
        names = [n for n, _ in pm4.split_packets(words)]
        assert names.count("INDIRECT_BUFFER") == 2 and "DISPATCH_DIRECT" not in names
    cb.update(1, c, a)
    cb.submit(wait=True)
    assert seen[-1].vm.u64(kernarg_va(seen[-1])) == c.va
    with pytest.raises(KernargError, match="takes 2 arguments"):
        cb.update(0, a)
    with pytest.raises(IndexError):
        cb.update(5, a, b)
    cb.free()


def test_gpu_detected_hang_is_gpu_hang_and_the_device_recovers(dev):
    from drivers.emu.faults import ShaderHang
    calls = []

    def hang_once(d):
        calls.append(d)
        if len(calls) == 1:
            raise ShaderHang(d.code_va, 1 << 20)
        pattern_executor([])(d)

    dev.kernel.gpu.executor = hang_once
    prg = dev.load(code_object("grid3d"))
    out = dev.alloc(64)
    with pytest.raises(GPUHang) as err:
        prg["grid3d"](out, out, grid=(1, 1, 1), block=(4, 1, 1), wait=True)
    assert "GPU reset" in str(err.value) and "dispatch of grid3d" in str(err.value)
    prg["grid3d"](out, out, grid=(1, 1, 1), block=(4, 1, 1), wait=True)
    result = np.zeros(4, np.uint32)
    out.copyout(result)
    assert result.tolist() == [7, 10, 13, 16]


def test_denied_render_node_is_device_not_found():
    kernel = make_kernel("gfx1100")
    kernel.denied.add("/dev/dri/renderD128")
    with pytest.raises(DeviceNotFound, match="permission denied opening /dev/dri/renderD128"):
        AMDDevice(kernel=kernel)
    assert_nothing_live(kernel)


@pytest.mark.parametrize("minor, enabled", [(13, False), (14, True)])
def test_runtime_enable_only_from_abi_1_14(monkeypatch, minor, enabled):
    import drivers.emu.amd.kfd as emu_kfd
    monkeypatch.setattr(emu_kfd, "KFD_ABI_MINOR", minor)
    kernel = make_kernel("gfx1100")
    with AMDDevice(kernel=kernel) as d:
        assert d.kfd.version == (1, minor)
        assert kernel.gpu.processes[0].runtime_enabled is enabled
    assert_nothing_live(kernel)


def test_our_own_code_object_without_explicit_args(dev):
    """A code object from assembler.amdgpu's writer: no arguments, kernarg pointer in s[0:1]."""
    from assembler.amdgpu.elf_writer import KernelSpec, write_code_object
    from assembler.amdgpu.kernel_descriptor import KernelDescriptor
    kd = KernelDescriptor()
    kd.set("ENABLE_SGPR_KERNARG_SEGMENT_PTR", 1)
    kd.set("ENABLE_SGPR_DISPATCH_PTR", 1)
    kd.set("ENABLE_WAVEFRONT_SIZE32", 1)
    kd.set("USER_SGPR_COUNT", 4)
    data = write_code_object((0xBFB00000).to_bytes(4, "little"), [KernelSpec("empty", 0, kd, sgpr_count=4, vgpr_count=1)])
    seen = []
    dev.kernel.gpu.executor = seen.append
    prg = dev.load(data)
    secs = prg["empty"](grid=(3, 1, 1), block=(32, 1, 1), wait=True)
    assert secs >= 0 and seen[0].grid_workgroups == (3, 1, 1) and seen[0].code_va == prg["empty"].code_va
    assert seen[0].vm.read(seen[0].code_va, 4) == (0xBFB00000).to_bytes(4, "little")   # image placed in VRAM
    if seen[0].source == "pm4":                      # dispatch ptr then kernarg ptr, in SGPR order
        packet = seen[0].user_sgprs[0] | seen[0].user_sgprs[1] << 32
        assert struct.unpack("<HHHH", seen[0].vm.read(packet + 2, 8))[1:] == (32, 1, 1)
        assert struct.unpack("<I", seen[0].vm.read(packet + 12, 4))[0] == 96       # grid in work-items
    with pytest.raises(KernargError, match="takes 0 arguments, 1 given"):
        prg["empty"](1, grid=(1, 1, 1), block=(1, 1, 1))


def test_debug_prints_devices_and_launches(monkeypatch, capsys):
    monkeypatch.setenv("DEBUG", "1")
    kernel = make_kernel("gfx1100")
    kernel.gpu.executor = lambda d: None
    with AMDDevice(kernel=kernel) as d:
        prg = d.load(code_object("grid3d"))
        out = d.alloc(64)
        prg["grid3d"](out, out, grid=(1, 1, 1), block=(1, 1, 1), wait=True)
    err = capsys.readouterr().err
    assert "AMDDevice 0: gfx1100" in err and "dispatch of grid3d" in err


def test_two_devices_share_one_kfd_process():
    """Two AMDDevice objects on one kernel share /dev/kfd, the event page and the GPU's VM;
    either can close first."""
    kernel = make_kernel("gfx1100")
    a, b = AMDDevice(kernel=kernel), AMDDevice(kernel=kernel, sdma=False)
    assert a.process is b.process and kernel.gpu.live()["processes"] == 1
    assert a.events.mailbox != b.events.mailbox
    x, y = a.alloc(4096), b.alloc(4096)
    x.copyin(np.arange(1024, dtype=np.uint32))
    with pytest.raises(GPUError, match="SDMA copies are disabled"):
        b.copy(y, x)                                  # b copies with the CPU; x is private VRAM
    a.copy(y, x)                                      # a buffer of the other device, by SDMA
    out = np.zeros(1024, np.uint32)
    y.copyout(out)
    assert np.array_equal(out, np.arange(1024))
    a.close()
    assert kernel.gpu.live()["queues"] == 1
    y.copyin(np.zeros(1024, np.uint32))
    b.close()
    assert_nothing_live(kernel)


def test_hdp_flush_page_and_its_absence(monkeypatch, capsys):
    from drivers.amd.memory import MMIO_REMAP, Memory
    from drivers.errors import IoctlError
    kernel = make_kernel("gfx1100")
    with AMDDevice(kernel=kernel) as d:
        assert d.mmio.heap is MMIO_REMAP and d.hdp_flush_word is not None
        assert not d.flush_hdp_on_submit
        d.alloc(4096, cpu_access=True)
        assert d.flush_hdp_on_submit                 # CPU writes through the BAR now need a flush
    assert_nothing_live(kernel)
    real_alloc = Memory.alloc

    def no_remap(self, size, heap=VRAM, align=None):
        if heap is MMIO_REMAP:
            raise IoctlError("AMDKFD_IOC_ALLOC_MEMORY_OF_GPU", 0xc0284b16, 22)
        return real_alloc(self, size, heap, align)

    monkeypatch.setattr(Memory, "alloc", no_remap)
    monkeypatch.setenv("DEBUG", "1")
    kernel = make_kernel("gfx1100")
    with AMDDevice(kernel=kernel) as d:
        assert d.mmio is None
        d.hdp_flush()                                # harmless without the page
    assert "no MMIO remap page" in capsys.readouterr().err
    assert_nothing_live(kernel)


def test_debug_2_prints_packets(monkeypatch, capsys, queue_kind):
    monkeypatch.setenv("DEBUG", "2")
    kernel = make_kernel("gfx1100")
    kernel.gpu.executor = lambda d: None
    with AMDDevice(kernel=kernel, aql=queue_kind == "aql") as d:
        prg = d.load(code_object("grid3d"))
        out = d.alloc(64)
        prg["grid3d"](out, out, grid=(1, 1, 1), block=(1, 1, 1), wait=True)
    err = capsys.readouterr().err
    assert ("KERNEL_DISPATCH PM4_IB" if queue_kind == "aql" else "SET_SH_REG DISPATCH_DIRECT EVENT_WRITE") in err
    assert "SDMA queue" in err


def test_host_memory_exhaustion_is_out_of_memory(dev):
    with pytest.raises(OutOfMemory, match=r"userptr .*cannot allocate .*free space unknown .*host mmap failed"):
        dev.alloc(1 << 46, host=True)
    with pytest.raises(OutOfMemory, match=r"cannot allocate 1024.0 PiB .*larger than the GPU's 128 TiB"):
        dev.alloc(1 << 60, host=True)


def test_peer_mapping_names_the_refusing_gpu(dev):
    """A buffer mapped into another GPU's VM goes through MAP_MEMORY_TO_GPU with that gpu_id; a
    gpu_id that is not a GPU of this machine is refused by KFD, loudly."""
    from drivers.errors import IoctlError
    buf = dev.alloc(4096)
    dev.memory.map_peer(buf, dev.gpu_id)          # already mapped there: nothing to do
    assert buf.mapped_gpus == [dev.gpu_id]
    with pytest.raises(IoctlError, match="MAP_MEMORY_TO_GPU.*EINVAL"):
        dev.memory.map_peer(buf, 0x1234)
    assert buf.mapped_gpus == [dev.gpu_id]


def test_copies_and_launches_are_ordered_across_queues(dev):
    """Held-up compute work holds up a later SDMA copy (POLL_REGMEM on the compute timeline),
    and a held-up copy holds up a later launch (WAIT_REG_MEM on the copy timeline)."""
    seen = []
    dev.kernel.gpu.executor = pattern_executor(seen)
    prg = dev.load(code_object("grid3d"))
    out = dev.alloc(4 * 8)
    flag = dev.alloc(4096, uncached=True)
    gate = flag.view(np.uint32)
    gate[:] = 0
    # compute: a gate, then the kernel; the copy-out must wait for both
    dev.compute.submit_pm4(pm4.wait_reg_mem(flag.va, 1), "gate 1")
    prg["grid3d"](out, out, grid=(1, 1, 1), block=(8, 1, 1))
    value = dev.copier.copy(flag.va + 64, out.va, 32)
    assert not seen and dev.copier.timeline.value < value
    gate[0] = 1
    dev.synchronize()
    assert flag.view(np.uint32, 64, 8).tolist() == [7, 10, 13, 16, 19, 22, 25, 28]
    # copy: a gate, then a copy into `out`; the launch must see the copied bytes first
    from drivers.amd import sdma
    dev.copier.submit(sdma.poll_regmem(flag.va + 4, 1), "gate 2")
    staging = dev.alloc(32, host=True)
    staging.view(np.uint32)[:] = 99
    dev.copier.copy(out.va, staging.va, 32)
    reads = []
    dev.kernel.gpu.executor = lambda d: reads.append(d.vm.view(out.va, np.uint32, 8).tolist())
    prg["grid3d"](out, out, grid=(1, 1, 1), block=(8, 1, 1))
    assert not reads
    gate[1] = 1
    dev.synchronize()
    assert reads == [[99] * 8]


def test_launch_time_is_within_the_host_wall_time(dev):
    import time
    dev.kernel.gpu.executor = lambda d: time.sleep(0.02)
    prg = dev.load(code_object("grid3d"))
    out = dev.alloc(64)
    start = time.perf_counter()
    secs = prg["grid3d"](out, out, grid=(1, 1, 1), block=(1, 1, 1), wait=True)
    wall = time.perf_counter() - start
    assert 0.015 <= secs <= wall


def test_kernel_of_a_freed_program_is_refused(dev):
    prg = dev.load(code_object("grid3d"))
    k = prg["grid3d"]
    assert "grid3d" in prg
    prg.free()
    out = dev.alloc(64)
    with pytest.raises(GPUError, match="its program was freed"):
        k(out, out, grid=(1, 1, 1), block=(1, 1, 1))


def test_sdma_fault_is_gpu_fault_and_copies_work_after(dev):
    src = dev.alloc(4096)
    dev.copier.copy(0xBAD0_0000_0000, src.va, 256)
    with pytest.raises(GPUFault) as err:
        dev.synchronize()
    assert err.value.va == 0xBAD0_0000_0000
    data = np.arange(1024, dtype=np.uint32)
    src.copyin(data)
    out = np.zeros_like(data)
    src.copyout(out)
    assert np.array_equal(out, data)


def test_devices_on_the_host_share_one_kernel(monkeypatch):
    """Without emulation every AMDDevice must reach the same KFD process (one /dev/kfd per
    address space), so they all use one RealKernel."""
    from drivers.amd import device as device_module
    monkeypatch.delenv("GPU_EMULATE", raising=False)
    assert device_module._host_kernel() is device_module._host_kernel()


IMPLICIT = os.path.join(os.path.dirname(__file__), "data", "codeobj", "implicit.hsaco")


def test_dynamic_lds_argument_sizes_the_dispatch(dev):
    """tail(global uint *out, local float *scratch): scratch is sized at launch; the kernel gets
    its LDS offset, hidden_dynamic_lds_size says how much, hidden_queue_ptr is the queue."""
    seen = []
    dev.kernel.gpu.executor = seen.append
    prg = dev.load(IMPLICIT)
    k = prg["tail"]
    assert [a.kind for a in k.layout.args] == ["pointer", "lds"]
    out = dev.alloc(256)
    k(out, 300, grid=(1, 1, 1), block=(64, 1, 1), wait=True)
    d = seen[0]
    assert d.lds_bytes >= k.group_segment_size + 300
    ka = kernarg_va(d)
    assert struct.unpack("<I", d.vm.read(ka + 8, 4))[0] == k.group_segment_size     # first dynamic byte
    assert struct.unpack("<I", d.vm.read(ka + 136, 4))[0] == 300                    # hidden_dynamic_lds_size
    assert d.vm.u64(ka + 216) == dev.compute.queue_ptr                              # hidden_queue_ptr
    with pytest.raises(KernargError, match=r"argument 1 .*size in bytes of its dynamic LDS array"):
        k(out, out, grid=(1, 1, 1), block=(64, 1, 1))
    with pytest.raises(ValueError, match=r"needs 70000 bytes of LDS \(0 static \+ 70000 dynamic\)"):
        k(out, 70000, grid=(1, 1, 1), block=(64, 1, 1))


def test_dynamic_lds_replay_update_resizes(dev):
    seen = []
    dev.kernel.gpu.executor = seen.append
    k = dev.load(IMPLICIT)["tail"]
    out = dev.alloc(256)
    cb = dev.command_buffer()
    cb.add(k, out, 128, grid=(1, 1, 1), block=(64, 1, 1))
    cb.submit(wait=True)
    cb.update(0, out, 4096)
    cb.submit(wait=True)
    assert 128 <= seen[0].lds_bytes < 4096 <= seen[1].lds_bytes          # PM4 counts 512-byte granules


def wave_simulator():
    from drivers.emu.amd.shader import WaveExecutor
    return WaveExecutor()


def test_hidden_arguments_read_by_real_code(dev):
    """grid_info reads block count, group size and remainder through the implicit-argument
    pointer: the wave simulator runs clang's code on what this driver packed."""
    dev.kernel.gpu.executor = wave_simulator()
    prg = dev.load(IMPLICIT)
    n = 100
    out = dev.alloc(16 * 128)
    out.copyin(np.full(4 * 128, 0xEEEEEEEE, np.uint32))
    prg["grid_info"](out, n, grid=(4, 1, 1), block=(32, 1, 1), wait=True)
    got = np.zeros((128, 4), np.uint32)
    out.copyout(got)
    assert (got[:n] == [4, 32, 0, 0]).all()
    assert (got[n:] == 0xEEEEEEEE).all()                 # i >= n wrote nothing


def test_dynamic_lds_and_queue_ptr_read_by_real_code(dev):
    dev.kernel.gpu.executor = wave_simulator()
    k = dev.load(IMPLICIT)["tail"]
    out = dev.alloc(256)
    k(out, 256, grid=(1, 1, 1), block=(64, 1, 1), wait=True)
    got = np.zeros(64, np.uint32)
    out.copyout(got)
    want = (256 + (dev.compute.queue_ptr & 0xFFFFFFFF) + 63 - np.arange(64)) & 0xFFFFFFFF
    assert np.array_equal(got, want)


def test_debug_3_disassembles_each_kernel(monkeypatch, capsys):
    monkeypatch.setenv("DEBUG", "3")
    with AMDDevice(emulate="gfx1100") as d:
        d.load(code_object("grid3d"))
    err = capsys.readouterr().err
    assert "kernel grid3d:" in err and "s_load_b" in err and "s_endpgm" in err


def test_scratch_survives_queue_recreation(dev):
    """After a fault the queue (and its amd_queue_t) is new; scratch must still be described."""
    seen = []
    dev.kernel.gpu.executor = seen.append
    k = dev.load(code_object("scratch_array"))["scratch_array"]
    a = dev.alloc(256)
    k(a, a, a, 4, grid=(1, 1, 1), block=(32, 1, 1), wait=True)
    dev.recover()
    k(a, a, a, 4, grid=(1, 1, 1), block=(32, 1, 1), wait=True)
    assert seen[1].scratch_base == dev.scratch_va and seen[1].tmpring_size == dev.tmpring_size


def test_open_without_room_for_the_cwsr_area_fails_cleanly():
    kernel = make_kernel("gfx1100")
    kernel.kfd.limits.max_ttm = 16 << 20          # the 7900 XTX's CWSR area alone is ~44 MiB of GTT
    with pytest.raises(OutOfMemory, match="gtt"):
        AMDDevice(kernel=kernel)
    assert_nothing_live(kernel)
    kernel = make_kernel("gfx1100")
    kernel.gpu.vram_budget = 0                    # not even the 4 KiB EOP buffer of the compute queue
    with pytest.raises(OutOfMemory, match="vram") as err:
        AMDDevice(kernel=kernel)
    assert err.value.available == 0
    assert_nothing_live(kernel)


def test_open_fails_cleanly_when_staging_memory_runs_out(monkeypatch):
    from drivers.amd.memory import Memory
    real_alloc, calls = Memory.alloc, []

    def second_userptr_fails(self, size, heap=VRAM, align=None):
        if heap is USERPTR:
            calls.append(size)
            if len(calls) == 2:
                raise OutOfMemory(USERPTR, size, None, "test")
        return real_alloc(self, size, heap, align)

    monkeypatch.setattr(Memory, "alloc", second_userptr_fails)
    kernel = make_kernel("gfx1100")
    with pytest.raises(OutOfMemory, match="userptr"):
        AMDDevice(kernel=kernel)
    assert_nothing_live(kernel)


def test_sdma_hang_names_the_poll(dev):
    from drivers.amd import sdma
    flag = dev.alloc(4096, uncached=True)
    flag.view(np.uint32)[:] = 0
    dev.copier.submit(sdma.poll_regmem(flag.va, 1), "POLL_REGMEM on a flag nobody sets")
    with pytest.raises(GPUHang) as err:
        dev.synchronize(timeout=0.1)
    assert "SDMA queue" in str(err.value) and "POLL_REGMEM" in str(err.value)
    out = dev.alloc(64)
    out.copyin(np.arange(16, dtype=np.uint32))        # the recreated SDMA queue works
    got = np.zeros(16, np.uint32)
    out.copyout(got)
    assert got.tolist() == list(range(16))


def test_device_timeout_applies_to_every_wait():
    """A copy stuck behind a compute wait runs into the device's timeout, not a default."""
    import time
    kernel = make_kernel("gfx1100")
    with AMDDevice(kernel=kernel, timeout=0.2) as d:
        flag = d.alloc(4096, uncached=True)
        flag.view(np.uint32)[:] = 0
        d.compute.submit_pm4(pm4.wait_reg_mem(flag.va, 1), "gate")
        buf = d.alloc(64)
        start = time.perf_counter()
        with pytest.raises(GPUHang):
            buf.copyout(np.zeros(16, np.uint32))          # SDMA waits for the gated compute queue
        assert time.perf_counter() - start < 5
    assert_nothing_live(kernel)


def test_free_waits_for_work_that_may_use_the_buffer(dev):
    flag = dev.alloc(4096, uncached=True)
    flag.view(np.uint32)[:] = 0
    dev.compute.submit_pm4(pm4.wait_reg_mem(flag.va, 1), "gate")
    buf = dev.alloc(64)
    dev.timeout = 0.2
    dev.compute.timeline.timeout = 0.2
    with pytest.raises(GPUHang):
        buf.free()                                   # the gated queue might still use it
    buf.free()                                       # after recovery nothing is in flight
    assert buf.freed


def test_large_buffers_get_large_page_alignment(dev):
    small, big = dev.alloc(4096), dev.alloc(3 << 20)
    assert small.va % 4096 == 0 and big.va % (2 << 20) == 0
    data = np.arange(3 << 18, dtype=np.uint32)
    big.copyin(data)
    out = np.zeros_like(data)
    big.copyout(out)
    assert np.array_equal(out, data)
    big.free()
    assert dev.kernel.gpu.processes[0].vm.lookup(big.va) is None    # the whole padded range went
