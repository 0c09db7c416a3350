"""What the three vendors' command buffers share (drivers.replay.CommandBuffer): the refusals while
empty or once finalized, the launch index of update(), the description a hang names, and a free
that is safe after the device closed."""
import os

import numpy as np
import pytest

from drivers.emu import make_kernel
from drivers.errors import GPUError, InvalidArgument

TESTS = os.path.dirname(os.path.abspath(__file__))


def amd():
    from drivers.amd.device import AMDDevice
    dev = AMDDevice(kernel=make_kernel("gfx1100"))
    with open(os.path.join(TESTS, "clang_kernels", "grid3d.hsaco"), "rb") as f:
        k = dev.load(f.read())["grid3d"]
    a, c = dev.alloc(256), dev.alloc(256)
    return dev, k, (a, c), {"grid": (1, 1, 1), "block": (16, 1, 1)}


def nv():
    from drivers.nv import NVDevice
    from hw_tests.nv_kernels import cubin_path
    dev = NVDevice(kernel=make_kernel("sm_86"), timeout=5.0)
    k = dev.load(cubin_path("saxpy", "sm_86"))["saxpy"]
    x, y = dev.alloc(256), dev.alloc(256)
    return dev, k, (np.float32(2.0), x, y, 64), {"grid": (1,), "block": (64,)}


def qcom():
    from drivers.qcom import QCOMDevice
    from hw_tests.ir3_programs import source_path
    dev = QCOMDevice(kernel=make_kernel("a630"))
    k = dev.load(source_path("scale"))["scale"]
    x, y = dev.alloc(256), dev.alloc(256)
    return dev, k, (x, y, 2.0), {"grid": (1,)}


@pytest.fixture(params=[amd, nv, qcom], ids=["amd", "nv", "qcom"])
def setup(request):
    dev, k, args, shape = request.param()
    yield dev, k, args, shape
    dev.close()


def test_an_empty_command_buffer_is_refused(setup):
    dev = setup[0]
    cb = dev.command_buffer()
    assert cb.description == "replay of an empty command buffer"
    with pytest.raises(GPUError, match=r"^empty command buffer: add\(\) at least one launch$"):
        cb.submit()


def test_recording_names_the_first_kernel_and_ends_at_finalize(setup):
    dev, k, args, shape = setup
    cb = dev.command_buffer()
    assert cb.add(k, *args, **shape) is cb
    cb.add(k, *args, **shape)
    assert cb.description == f"replay of 2 recorded launch(es) ({k.name}...)"
    assert cb.finalize() is cb and cb.finalize() is cb          # finalizing twice builds once
    with pytest.raises(GPUError, match="already finalized; record into a new one"):
        cb.add(k, *args, **shape)
    cb.free()


@pytest.mark.parametrize("index", [2, -1, True, "0", None])
def test_update_refuses_a_launch_index_out_of_range(setup, index):
    dev, k, args, shape = setup
    cb = dev.command_buffer().add(k, *args, **shape).add(k, *args, **shape)
    with pytest.raises(InvalidArgument, match=rf"^launch {index!r} out of range: 2 recorded$") as e:
        cb.update(index, *args)
    assert isinstance(e.value, IndexError)


def test_free_after_the_device_closed(setup):
    """The replay's memory went with the device: free must not wait on a timeline that is gone
    (reading it touched unmapped memory on AMD)."""
    dev, k, args, shape = setup
    cb = dev.command_buffer().add(k, *args, **shape)
    cb.submit()
    dev.close()
    cb.free()
    assert cb.buffer is None
