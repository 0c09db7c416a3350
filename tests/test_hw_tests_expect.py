"""hw_tests.expect: what the NVIDIA and Qualcomm stages expect of a stuck wait and of a bad address,
including the ways a device can fail those expectations."""
import pytest

from drivers.errors import GPUError, GPUFault, GPUHang
from hw_tests.expect import expect_fault, expect_hang
from hw_tests.registry import Stage
from hw_tests.runner import CheckFailed, StageResult


def result():
    return StageResult(Stage("s", "a stage", lambda ctx, r: None))


class Device:
    def __init__(self, error=None):
        self.error, self.timeouts = error, []

    def synchronize(self, timeout=None):
        self.timeouts.append(timeout)
        if self.error is not None:
            raise self.error


def test_a_hang_naming_the_stuck_work_is_measured():
    dev, r = Device(GPUHang(3, 4, "compute value 4: a wait nobody releases")), result()
    assert expect_hang(dev, r, 0.25, "a wait") >= 0
    assert dev.timeouts == [0.25] and r.numbers["hang_detected_after"]["unit"] == "s"


def test_a_hang_that_does_not_name_the_work_fails_the_check():
    with pytest.raises(CheckFailed, match="the GPUHang does not name the pending work: .*value 4: a copy"):
        expect_hang(Device(GPUHang(3, 4, "compute value 4: a copy")), result(), 0.25, "a wait")


def test_a_stuck_wait_that_completes_fails():
    with pytest.raises(AssertionError, match="^a CP wait on a flag nobody sets completed$"):
        expect_hang(Device(), result(), 0.25, "a CP wait on a flag nobody sets")


def fault(va):
    def run():
        raise GPUFault(va, "page not present", "a copy")
    return run


def test_a_fault_naming_the_address_is_recorded():
    r = result()
    assert expect_fault(r, "copy_fault_va", 0xBAD000, fault(0xBAD000), "the copy read", "a copy from") == "0xbad000"
    assert r.numbers["copy_fault_va"]["value"] == "0xbad000"


def test_a_fault_at_another_address_fails_the_check():
    with pytest.raises(CheckFailed, match="^the fault names VA 0xbad100; the copy read 0xbad000$"):
        expect_fault(result(), "k", 0xBAD000, fault(0xBAD100), "the copy read", "a copy from")


def test_no_fault_fails_and_other_errors_pass_through():
    with pytest.raises(AssertionError, match="^a load from 0xbad000 completed without a fault$"):
        expect_fault(result(), "k", 0xBAD000, lambda: None, "the shader loaded from", "a load from")

    def reset():
        raise GPUError("the GPU was reset")
    with pytest.raises(GPUError, match="reset"):
        expect_fault(result(), "k", 0xBAD000, reset, "the shader loaded from", "a load from")
