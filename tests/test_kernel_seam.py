"""The kernel seam: real system calls and the emulated kernel behave alike for drivers."""
import errno
import os

import numpy as np
import pytest

from drivers.emu.kernel import DeviceFile, EmulatedKernel
from drivers.errors import IoctlError
from drivers.kernel import MAP_NORESERVE, MAP_PRIVATE, PROT_NONE, RealKernel


def test_reserve_then_map_at_the_same_address():
    k = RealKernel()
    reservation = k.mmap(None, 1 << 20, prot=PROT_NONE, flags=MAP_PRIVATE | MAP_NORESERVE)
    m = k.mmap(None, 1 << 20, address=reservation.address)
    assert m.address == reservation.address
    m.view(np.uint32)[:3] = [1, 2, 0xDEADBEEF]
    m.store64(16, 0x1122334455667788)
    assert m.read(0, 12) == np.array([1, 2, 0xDEADBEEF], np.uint32).tobytes()
    assert m.load64(16) == 0x1122334455667788 and m.view(np.uint8, 16, 1)[0] == 0x88
    k.munmap(m)


def test_mapping_views_are_bounds_checked():
    k = RealKernel()
    m = k.mmap(None, 4096)
    with pytest.raises(ValueError, match="passes the end of a 4096-byte mapping"):
        m.view(np.uint64, 4088, 2)
    with pytest.raises(ValueError, match="not .*-aligned"):
        m.view(np.uint32, 2)
    k.munmap(m)


def test_real_ioctl_failure_names_ioctl_and_errno():
    k = RealKernel()
    fd = k.open("/dev/null", os.O_RDWR)
    try:
        with pytest.raises(IoctlError) as e:
            k.ioctl(fd, 0xC0084B01, bytearray(8), "AMDKFD_IOC_TEST")
    finally:
        k.close(fd)
    assert e.value.errno_name == "ENOTTY" and e.value.name == "AMDKFD_IOC_TEST"
    assert str(e.value).startswith("AMDKFD_IOC_TEST (0xc0084b01) failed: ENOTTY")


def test_real_kernel_redirects_sys_and_dev(tmp_path):
    (tmp_path / "sys/x").mkdir(parents=True)
    (tmp_path / "sys/x/f").write_text("7\n")
    (tmp_path / "dev").mkdir()
    k = RealKernel(sysfs_root=str(tmp_path / "sys"), dev_root=str(tmp_path / "dev"))
    assert k.read_text("/sys/x/f") == "7\n" and k.listdir("/sys/x") == ["f"]
    assert k.exists("/sys/x") and not k.exists("/dev/kfd")
    assert k.host_path("/system") == "/system"       # only whole path components are redirected


def test_mmap_failure_is_an_oserror_with_errno():
    with pytest.raises(OSError) as e:
        RealKernel().mmap(12345, 4096)
    assert e.value.errno == errno.EBADF


def test_emulated_kernel_files_and_devices():
    opened = []

    class Echo(DeviceFile):
        def __init__(self):
            opened.append(self)

        def ioctl(self, request, buf):
            buf[0] = request & 0xFF

    k = EmulatedKernel({"/sys/a/b": "1\n", "/sys/a/c/d": "2\n"}, {"/dev/echo": Echo}, denied={"/dev/secret"})
    assert k.listdir("/sys/a") == ["b", "c"] and k.exists("/sys/a/c") and k.read_text("/sys/a/c/d") == "2\n"
    with pytest.raises(FileNotFoundError):
        k.read_text("/sys/a/zz")
    with pytest.raises(IsADirectoryError):
        k.read_text("/sys/a/c")
    with pytest.raises(PermissionError):
        k.open("/dev/secret")
    with pytest.raises(FileNotFoundError):
        k.open("/dev/kfd")
    fd = k.open("/dev/echo")
    buf = bytearray(4)
    k.ioctl(fd, 0x1234, buf)
    assert buf[0] == 0x34 and fd in k.open_files
    k.close(fd)
    assert not k.open_files
    with pytest.raises(IoctlError, match="EBADF"):
        k.ioctl(fd, 0x1234, buf, "X")


def test_emulated_unknown_ioctl_is_enotty():
    k = EmulatedKernel({}, {"/dev/kfd": DeviceFile})
    fd = k.open("/dev/kfd")
    with pytest.raises(IoctlError) as e:
        k.ioctl(fd, 0xC0104B99, bytearray(16), "AMDKFD_IOC_UNKNOWN")
    assert e.value.errno_value == errno.ENOTTY
    k.close(fd)


@pytest.mark.parametrize("kernel", ["real", "emulated"])
def test_request_numbers_are_unsigned_32_bit(kernel):
    k = RealKernel() if kernel == "real" else EmulatedKernel({}, {"/dev/kfd": DeviceFile})
    fd = k.open("/dev/null" if kernel == "real" else "/dev/kfd", os.O_RDWR)
    try:
        for request in (-1, 1 << 32, "0x10"):
            with pytest.raises(IoctlError) as e:
                k.ioctl(fd, request, bytearray(8))
            assert e.value.errno_name == "EINVAL" and f"request {request!r} (not a 32-bit ioctl number)" in str(e.value)
            assert "0x-" not in str(e.value)
    finally:
        k.close(fd)


def test_kernel_internal_errnos_are_named():
    e = IoctlError("AMDKFD_IOC_CREATE_QUEUE", 0xC0604B02, 524, "queue_type 9")
    assert e.errno_name == "ENOTSUPP" and "Unknown error" not in str(e)
    assert str(e) == ("AMDKFD_IOC_CREATE_QUEUE (0xc0604b02) failed: ENOTSUPP (operation is not supported; "
                      "a kernel-internal errno): queue_type 9")
    assert IoctlError("X", 1, 4242).errno_name == "errno 4242"
