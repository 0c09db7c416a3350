"""Hangs and waits on the virtual gfx1100: a submission returns before the GPU has run it, a wait
gives up at its timeout however long the kernel would run, a refused launch leaves the queue as it
was, wave exceptions name their PC and reason, and bad settings are refused where they are read."""
import time

import pytest

from assembler.amdgpu.elf_writer import KernelSpec, write_code_object
from assembler.amdgpu.kernel_descriptor import KernelDescriptor
from drivers.amd.device import AMDDevice
from drivers.emu import make_kernel
from drivers.errors import GPUError, GPUHang, WaveException
from drivers.settings import SettingError
from tests.asm_kernel import code_object

ENDLESS = "s_branch 0xffff\ns_endpgm"          # jumps to itself
EMPTY = "s_endpgm"


def assert_nothing_live(kernel):
    assert kernel.live() == {"processes": 0, "bos": 0, "queues": 0, "events": 0, "mappings": 0}
    assert kernel.open_files == {}


@pytest.fixture(params=["pm4", "aql"])
def machine(request, monkeypatch):
    # a budget no test could exhaust: only the wait's timeout (and preemption) can end a hung kernel
    monkeypatch.setenv("GPU_EMULATE_BUDGET", str(10 ** 15))
    kernel = make_kernel("gfx1100")
    dev = AMDDevice(kernel=kernel, aql=request.param == "aql")
    yield kernel, dev
    dev.close()
    assert_nothing_live(kernel)
    assert not kernel.kfd.cp.alive            # the command-processor thread ended with the process


def test_submission_returns_before_the_gpu_has_run_it(machine):
    kernel, dev = machine
    prg = dev.load(code_object(ENDLESS))
    assert prg["k"](grid=1, block=32) is None
    t = dev.compute.timeline
    assert t.value < t.last_submitted           # still running: the launch did not wait for it
    with pytest.raises(GPUHang) as e:
        dev.synchronize(timeout=0.2)
    assert "dispatch of k" in str(e.value) and "still running" not in str(e.value)


def test_hung_kernel_ends_at_the_wait_timeout_and_the_device_stays_usable(machine):
    kernel, dev = machine
    prg = dev.load(code_object(ENDLESS))
    with pytest.raises(GPUHang) as e:
        prg["k"](grid=4, block=64, wait=True, timeout=1)
    msg = str(e.value)
    assert e.value.last_value == 0 and "dispatch of k grid (4, 1, 1) block (64, 1, 1)" in msg
    assert ("DISPATCH_DIRECT" if not dev.compute.use_aql else "KERNEL_DISPATCH") in msg
    # the queue was destroyed, which preempted the endless dispatch; a new one works
    assert "preempted" in (kernel.gpu.last_error or "preempted")
    ok = dev.load(code_object(EMPTY))
    assert ok["k"](grid=1, block=32, wait=True) >= 0
    prg.free()


def test_timeout_must_be_a_number_of_seconds(machine):
    kernel, dev = machine
    prg = dev.load(code_object(EMPTY))
    for bad in (float("nan"), -1, "1", True):
        with pytest.raises(GPUError, match="timeout must be a number of seconds"):
            prg["k"](grid=1, block=32, wait=True, timeout=bad)
    dev.synchronize()


def inconsistent_descriptor():
    kd = KernelDescriptor(kernarg_size=8)
    kd.set("ENABLE_SGPR_KERNARG_SEGMENT_PTR", 1)      # two user SGPRs...
    kd.set("ENABLE_WAVEFRONT_SIZE32", 1)
    kd.set("USER_SGPR_COUNT", 0)                      # ...but none loaded
    return write_code_object((0xBFB00000).to_bytes(4, "little"), [KernelSpec("bad", 0, kd, sgpr_count=3, vgpr_count=1)], "gfx1100")


def test_refused_launch_leaves_the_queue_as_it_was(machine):
    kernel, dev = machine
    prg = dev.load(inconsistent_descriptor())
    dev.synchronize()                            # the code object's upload is done
    before = (dev.compute.timeline.last_submitted, dev.compute.hw.wptr)
    for _ in range(2):
        with pytest.raises(GPUError, match="enable 2 user SGPRs but COMPUTE_PGM_RSRC2.USER_SGPR_COUNT is 0"):
            prg["bad"](grid=1, block=32)
    assert (dev.compute.timeline.last_submitted, dev.compute.hw.wptr) == before
    dev.synchronize(timeout=0)                   # nothing reserved: nothing to wait for
    prg.free()


def test_refused_kernel_argument_leaves_the_queue_as_it_was(machine):
    kernel, dev = machine
    prg = dev.load(code_object(EMPTY))
    dev.synchronize()
    before = dev.compute.timeline.last_submitted
    with pytest.raises(GPUError, match="takes 0 arguments, 1 given"):
        prg["k"](1.0, grid=1, block=32)
    assert dev.compute.timeline.last_submitted == before
    dev.synchronize(timeout=0)


@pytest.mark.parametrize("body, offset, exception, reason", [
    ("s_nop 0\ns_trap 2\ns_endpgm", 4, "trap", "s_trap 2: the shader trapped"),
    ("v_mov_b32 v40, 1\ns_endpgm", 0, "illegal instruction", "v40 lies beyond the 8 VGPRs the kernel allocates"),
    ("s_getpc_b64 s[2:3]\ns_add_u32 s2, s2, 10\ns_addc_u32 s3, s3, 0\ns_setpc_b64 s[2:3]\ns_endpgm\ns_endpgm", 14,
     "illegal instruction", "misaligned PC"),
    ("s_nop 0\n.long 0xffffffff\ns_endpgm", 4, "illegal instruction", "invalid instruction word 0xffffffff"),
])
def test_wave_exceptions_name_the_pc_and_the_reason(machine, body, offset, exception, reason):
    kernel, dev = machine
    prg = dev.load(code_object(body))
    k = prg["k"]
    with pytest.raises(WaveException) as e:
        k(grid=2, block=64, wait=True, timeout=5)
    assert e.value.pc == k.code_va + offset and reason in e.value.reason
    assert f"{exception} at PC 0x{k.code_va + offset:x}" in str(e.value)
    assert dev.compute.name in str(e.value)
    assert isinstance(e.value, GPUError) and not isinstance(e.value, GPUHang)
    ok = dev.load(code_object(EMPTY))
    ok["k"](grid=1, block=32, wait=True)         # the queue was recreated


def test_wave_exception_seen_by_synchronize_after_an_async_launch(machine):
    kernel, dev = machine
    prg = dev.load(code_object("s_trap 2\ns_endpgm"))
    prg["k"](grid=1, block=32)
    with pytest.raises(WaveException, match="trap at PC"):
        dev.synchronize(timeout=5)
    dev.synchronize(timeout=0)


@pytest.mark.parametrize("name, value, message", [
    ("GPU_EMULATE_BUDGET", "abc", "GPU_EMULATE_BUDGET='abc' is not valid: expected a positive number"),
    ("GPU_EMULATE_BUDGET", "0", "GPU_EMULATE_BUDGET='0'"),
    ("GPU_EMULATE_BUDGET", "-5", "GPU_EMULATE_BUDGET='-5'"),
    ("GPU_EMULATE_BUDGET", "１０", "GPU_EMULATE_BUDGET='１０'"),          # fullwidth digits are not ASCII
    ("DEBUG", "verbose", "DEBUG='verbose' is not valid: expected a debug level 0..4"),
    ("AMD_AQL", "maybe", "AMD_AQL='maybe' is not valid: expected 0 or 1"),
    ("AMD_DISABLE_SDMA", "2", "AMD_DISABLE_SDMA='2' is not valid"),
])
def test_settings_are_checked_where_they_are_read(monkeypatch, name, value, message):
    monkeypatch.setenv(name, value)
    with pytest.raises(SettingError, match=message.replace("(", r"\(").replace(")", r"\)")) as e:
        AMDDevice(emulate="gfx1100")
    assert isinstance(e.value, ValueError) and e.value.name == name


def test_budget_setting_reaches_the_virtual_gpu(monkeypatch):
    monkeypatch.setenv("GPU_EMULATE_BUDGET", "1000")
    kernel = make_kernel("gfx1100")
    monkeypatch.setenv("GPU_EMULATE_BUDGET", "oops")     # read once, when the machine was made
    with AMDDevice(kernel=kernel) as dev:
        prg = dev.load(code_object(ENDLESS))
        with pytest.raises(GPUHang, match="KFD reported a GPU reset"):     # the GPU gave up, not the wait
            prg["k"](grid=1, block=32, wait=True, timeout=30)
    assert "shader hang: still running at PC" in kernel.gpu.last_error and "after 1000 instructions" in \
        kernel.gpu.last_error
    assert_nothing_live(kernel)


LONG = "s_mov_b32 s4, 3000\n.Lloop:\ns_sub_u32 s4, s4, 1\ns_cmp_lg_u32 s4, 0\ns_cbranch_scc1 .Lloop\ns_endpgm"


def test_an_ioctl_waits_for_one_dispatch_not_for_the_whole_queue(machine):
    """The virtual CP takes one dispatch per pass and lets a waiting ioctl in between: an
    allocation made behind 16 queued long kernels returns while most of them are still queued."""
    kernel, dev = machine
    prg = dev.load(code_object(LONG))
    dev.synchronize()
    for _ in range(16):
        prg["k"](grid=1, block=32)
    deadline = time.monotonic() + 60
    while kernel.gpu.running is None and time.monotonic() < deadline:    # the CP is inside the first one
        time.sleep(0.001)
    buf = dev.alloc(4096)                          # ALLOC_MEMORY_OF_GPU and MAP_MEMORY_TO_GPU
    t = dev.compute.timeline
    assert t.last_submitted - t.value >= 8, (t.value, t.last_submitted)
    dev.synchronize(timeout=120)
    buf.free()
