"""The compute class of the virtual GPU without the SASS simulator (a recorder stands in for the SMs):
the QMD NVDevice writes (V03_00 on Ampere, V04_00 on Hopper) decoded field by field into the grid
the SMs would run, QMD release semaphores, dependent-QMD chaining, inline QMDs, and the launches the
class refuses, named."""
import numpy as np
import pytest

import nv_ioctl as NV

from drivers.emu import make_kernel
from drivers.nv import NVDevice
from drivers.nv.compute import launch_push
from drivers.nv.faults import ChannelError
from drivers.nv.gpfifo import SUBCH_COMPUTE, PushBuffer
from hw_tests.nv_kernels import cubin_path


@pytest.fixture(scope="module", params=["sm_86", "sm_90"])
def dev(request):
    d = NVDevice(kernel=make_kernel(request.param), timeout=5.0)
    d.ran = []
    d.kernel.gpu.executor = d.ran.append          # the SMs: record each grid instead of running it
    yield d
    d.close()
    assert set(d.kernel.live().values()) == {0}, d.kernel.live()


@pytest.fixture
def saxpy(dev):
    return dev.load(cubin_path("saxpy", dev.target))["saxpy"]


@pytest.fixture
def page(dev):
    p = dev.alloc(4096, host=True, low=True)
    p.view(np.uint64)[:] = 0
    yield p
    p.free()


def qmd_in(dev, kernel, buf, off, grid=(1, 1, 1), block=(32, 1, 1)):
    """Write a launch's constant buffer 0 and QMD into `buf` at `off` -> (qmd, its VA)."""
    params = kernel.pack((np.float32(1), buf, buf, 4))
    va = dev.write_launch(kernel, params, grid, block, 0, buf, off)
    return va


def qmd_words(dev, buf, va):
    from nv_ioctl import qmd as Q
    words = buf.view(np.uint32, va - buf.va, dev.qmd_layout.dwords)
    return Q.Qmd(dev.qmd_layout, words), words


def test_the_qmd_decodes_to_the_launch_the_driver_asked_for(dev, saxpy):
    x = dev.alloc(4096)
    dev.ran.clear()
    saxpy(np.float32(2.5), x, x, 1000, grid=(3, 2, 5), block=(64, 2, 1), wait=True)
    (launch,) = dev.ran
    assert (launch.grid, launch.block, launch.threads) == ((3, 2, 5), (64, 2, 1), 128)
    assert launch.program_va == saxpy.code_va and launch.registers == saxpy.registers
    assert launch.sm_version == dev.sm_version and launch.barriers == saxpy.barriers
    cb0_va, cb0_size = launch.cbufs[0]
    cb0 = launch.vm.view(cb0_va, np.uint8, cb0_size).copy()
    assert cb0[:24].view(np.uint32).tolist() == [64, 2, 1, 3, 2, 5]                 # blockDim, gridDim
    params = cb0[saxpy.param_base:saxpy.param_base + saxpy.param_size]
    assert params[:4].view(np.float32)[0] == 2.5 and params[8:16].view(np.uint64)[0] == x.va
    assert params[24:28].view(np.int32)[0] == 1000
    assert (launch.shared_window, launch.local_window) == (dev.shared_window, dev.local_window)
    x.free()


@pytest.mark.parametrize("wide", [False, True])
def test_qmd_release_semaphores_and_dependent_qmds(dev, saxpy, page, wide):
    buf = dev.alloc(8192, host=True, low=True)
    first, second = qmd_in(dev, saxpy, buf, 0, grid=(1, 1, 1)), qmd_in(dev, saxpy, buf, 4096, grid=(7, 1, 1))
    q, _ = qmd_words(dev, buf, first)
    v4 = dev.qmd_layout.major >= 4
    for i, (offset, payload) in enumerate(((0, 0x1_0000_0005 if wide else 5), (64, 9))):
        if v4:
            q.set("RELEASE_ENABLE", 1, i)
            q.set("RELEASE_PAYLOAD64B", int(wide), i)
            q.set("RELEASE_STRUCTURE_SIZE", 1, i)                              # one word (no timestamp)
            q.set_address(f"RELEASE_SEMAPHORE{i}_ADDR_LOWER", f"RELEASE_SEMAPHORE{i}_ADDR_UPPER", page.va + offset)
            q.set(f"RELEASE_SEMAPHORE{i}_PAYLOAD_LOWER", payload & 0xFFFFFFFF)
            q.set(f"RELEASE_SEMAPHORE{i}_PAYLOAD_UPPER", payload >> 32)
        else:
            q.set(f"RELEASE{i}_ENABLE", 1)
            q.set(f"RELEASE{i}_PAYLOAD64B", int(wide))
            q.set(f"RELEASE{i}_STRUCTURE_SIZE", 1)
            q.set_address(f"RELEASE{i}_ADDRESS_LOWER", f"RELEASE{i}_ADDRESS_UPPER", page.va + offset)
            q.set(f"RELEASE{i}_PAYLOAD_LOWER", payload & 0xFFFFFFFF)
            q.set(f"RELEASE{i}_PAYLOAD_UPPER", payload >> 32)
    if v4:
        q.set("DEPENDENT_QMD_ENABLE", 1, 0)
    else:
        q.set("DEPENDENT_QMD0_ENABLE", 1)
    q.set("DEPENDENT_QMD0_POINTER", second >> 8)
    buf.view(np.uint32, first - buf.va, dev.qmd_layout.dwords)[:] = q.words
    dev.ran.clear()
    dev.submit_raw(launch_push(dev, first), "a QMD with releases and a dependent QMD")
    assert [r.grid for r in dev.ran] == [(1, 1, 1), (7, 1, 1)] and [r.qmd_va for r in dev.ran] == [first, second]
    words = page.view(np.uint64)
    assert int(words[0]) == (0x1_0000_0005 if wide else 5) and int(words[8]) == 9
    buf.free()


def test_an_inline_qmd_is_written_then_launched(dev, saxpy):
    buf = dev.alloc(8192, host=True, low=True)
    built = qmd_in(dev, saxpy, buf, 0, grid=(4, 1, 1))
    target = buf.va + 4096
    words = buf.view(np.uint32, built - buf.va, dev.qmd_layout.dwords).tolist()
    pb = PushBuffer().method(SUBCH_COMPUTE, NV.NVC7C0_SET_INLINE_QMD_ADDRESS_A, target >> 40,
                             (target >> 8) & 0xFFFFFFFF)
    pb.method(SUBCH_COMPUTE, NV.load_inline_qmd_data(0), *words)
    dev.ran.clear()
    dev.submit_raw(pb, "an inline QMD")
    assert [(r.qmd_va, r.grid) for r in dev.ran] == [(target, (4, 1, 1))]
    assert buf.view(np.uint32, 4096, len(words)).tolist() == words
    buf.free()


@pytest.mark.parametrize("field,value,match", [
    ("CTA_THREAD_DIMENSION0", 2048, "CTA_THREAD_DIMENSION (2048, 1, 1) is 2048 threads (1 to 1024)"),
    ("SASS_VERSION", 0x75, "SASS_VERSION 0x75"),
    ("QMD_MAJOR_VERSION", 2, "says version 2."),
    ("PROGRAM_ADDRESS_LOWER", 0x1040, "is not 128-byte aligned"),
    ("SHADER_LOCAL_MEMORY_HIGH_SIZE", 0x1000, "needs 4096 bytes of local memory per thread, but no "
     "SET_SHADER_LOCAL_MEMORY_A/B backing store was given"),
    ("REGISTER_COUNT_V", 0, "REGISTER_COUNT 0"),
])
def test_a_qmd_the_class_refuses_stops_the_channel_naming_the_field(dev, saxpy, page, field, value, match):
    buf = dev.alloc(4096, host=True, low=True)
    va = qmd_in(dev, saxpy, buf, 0)
    q, words = qmd_words(dev, buf, va)
    if field == "REGISTER_COUNT_V" and dev.qmd_layout.major >= 4:
        field = "REGISTER_COUNT"
    q.set(field, value)
    words[:] = q.words
    dev.ran.clear()
    with pytest.raises(ChannelError) as e:
        dev.submit_raw(launch_push(dev, va), "a bad QMD")
    assert e.value.xid == NV.ROBUST_CHANNEL_GR_CLASS_ERROR and match in str(e.value), str(e.value)
    assert dev.ran == []
    buf.free()
    dev.submit_raw(PushBuffer().release(page.va, 3), "after the class error")
    assert int(page.view(np.uint64)[0]) == 3


def test_a_method_the_compute_class_does_not_have_is_named(dev, page):
    with pytest.raises(ChannelError) as e:
        dev.submit_raw(PushBuffer().method(SUBCH_COMPUTE, 0x1FFC, 0x1234), "an unknown method")
    assert "method 0x1ffc (data 0x1234) is not one the virtual GPU implements" in str(e.value)
