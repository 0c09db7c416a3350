"""The runtime on a virtual machine with two RX 7900 XTX: two AMDDevices in one KFD process,
buffers of one GPU mapped into the other's VM, and device-to-device copies between them."""
import os

import numpy as np
import pytest

from drivers.amd import AMDDevice
from drivers.emu import make_kernel
from drivers.errors import GPUFault

NOTHING = {"processes": 0, "bos": 0, "queues": 0, "events": 0, "mappings": 0}
CLANG = os.path.join(os.path.dirname(__file__), "clang_kernels")


def code_object(name):
    with open(os.path.join(CLANG, f"{name}.hsaco"), "rb") as f:
        return f.read()


def assert_nothing_live(kernel):
    for gpu in kernel.gpus:
        assert gpu.live() == NOTHING, f"gpu 0x{gpu.gpu_id:x} still holds {gpu.live()}"
    assert kernel.live() == NOTHING and kernel.open_files == {}


@pytest.fixture
def kernel():
    k = make_kernel("gfx1100", gpus=2)
    yield k
    assert_nothing_live(k)


@pytest.fixture
def devs(kernel):
    a, b = AMDDevice(0, kernel=kernel), AMDDevice(1, kernel=kernel)
    yield a, b
    b.close()
    a.close()


def pattern(n, seed):
    return np.random.default_rng(seed).integers(0, 256, n, dtype=np.uint8)


def test_two_devices_are_two_gpus_of_one_process(devs, kernel):
    a, b = devs
    assert a.process is b.process
    assert (a.gpu_id, b.gpu_id) == tuple(g.gpu_id for g in kernel.gpus)
    assert a.target == b.target == "gfx1100"
    for gpu in kernel.gpus:                           # each device has its own compute and SDMA queue
        assert gpu.live()["queues"] == 2


def test_peer_mapping_puts_the_buffer_in_the_other_gpus_vm(devs, kernel):
    a, b = devs
    buf = a.alloc(8192)
    b_vm = kernel.gpus[1].processes[0].vm
    assert b_vm.lookup(buf.va) is None
    a.memory.map_peer(buf, b.gpu_id)
    assert buf.mapped_gpus == [a.gpu_id, b.gpu_id]
    assert np.shares_memory(b_vm.lookup(buf.va).mem, kernel.gpus[0].processes[0].vm.lookup(buf.va).mem)
    buf.free()                                        # unmaps from both GPUs, then frees
    assert b_vm.lookup(buf.va) is None


@pytest.mark.parametrize("direction", ["a_to_b", "b_to_a"])
def test_device_to_device_copies_are_exact(devs, direction):
    a, b = devs
    src_dev, dst_dev = (a, b) if direction == "a_to_b" else (b, a)
    size = 3 * 4096 + 123
    data = pattern(size, 3)
    src, dst = src_dev.alloc(size), dst_dev.alloc(size)
    src.copyin(data)
    for copier in (dst_dev, src_dev):                 # the copy may run on either GPU's SDMA engine
        for n, so, do in ((1, 0, 0), (7, 3, 5), (4097, 4095, 1), (5001, 77, 333), (size, 0, 0)):
            dst.copyin(np.zeros(size, np.uint8))
            copier.copy(dst, src, n, dst_offset=do, src_offset=so)
            out = np.zeros(size, np.uint8)
            dst.copyout(out)
            assert np.array_equal(out[do:do + n], data[so:so + n]), (copier, n, so, do)
            assert not out[:do].any() and not out[do + n:].any()


def test_copies_both_ways_then_close_leaves_nothing(kernel):
    a, b = AMDDevice(0, kernel=kernel), AMDDevice(1, kernel=kernel)
    x, y = a.alloc(1000), b.alloc(1000)
    x.copyin(pattern(1000, 1))
    b.copy(y, x)                                      # A's VRAM read by B's SDMA
    a.copy(x, y, 999, dst_offset=1)                   # B's VRAM read by A's SDMA
    out = np.zeros(1000, np.uint8)
    x.copyout(out)
    assert out[0] == pattern(1000, 1)[0] and np.array_equal(out[1:], pattern(1000, 1)[:999])
    a.close()                                         # A goes first while B still maps A's buffer
    b.close()


def test_a_buffer_of_a_device_that_closed_is_gone_from_the_peer(kernel):
    a, b = AMDDevice(0, kernel=kernel), AMDDevice(1, kernel=kernel)
    x, y = a.alloc(4096), b.alloc(4096)
    b.copy(y, x)
    a.close()
    assert kernel.gpus[1].processes[0].vm.lookup(x.va) is None
    with pytest.raises(GPUFault):
        b.copier.copy(y.va, x.va, 16)
        b.synchronize()
    b.close()


def test_a_kernel_on_b_writes_a_buffer_of_a(devs, kernel):
    """grid3d runs on GPU B's wave simulator; its first argument lives in GPU A's VRAM."""
    from drivers.emu.amd.shader import WaveExecutor
    a, b = devs
    kernel.gpus[1].executor = WaveExecutor()          # GPU A has no executor: nothing may run there
    grid, block = (3, 2, 1), (4, 2, 2)
    n = 3 * 2 * 4 * 2 * 2
    where, ids = a.alloc(4 * n), b.alloc(4 * n)
    prg = b.load(code_object("grid3d"))
    prg["grid3d"](where, ids, grid=grid, block=block, wait=True)
    out = np.zeros(n, np.uint32)
    where.copyout(out)
    z, y, x = np.meshgrid(np.arange(2), np.arange(4), np.arange(12), indexing="ij")
    assert np.array_equal(out, (x | y << 10 | z << 20).ravel())
    assert kernel.gpus[1].dispatch_count == 1 and kernel.gpus[0].dispatch_count == 0
    assert where.mapped_gpus == [a.gpu_id, b.gpu_id]


def test_the_environment_form_opens_the_second_gpu(monkeypatch):
    monkeypatch.setenv("GPU_EMULATE", "gfx1100x2")
    with AMDDevice(1) as d:
        assert d.node.render_node == "/dev/dri/renderD129" and d.gpu_id == d.kernel.gpus[1].gpu_id
        kernel = d.kernel
    assert_nothing_live(kernel)
