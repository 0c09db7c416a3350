"""Which user-space ABI these bindings describe (arm64, LP64), and the refusal of any other.

KGSL serves two ABIs: 64-bit processes on arm64 kernels, and 32-bit ARM processes through the
kernel's compat ioctl path (older phones). In the 32-bit ABI `unsigned long`, `size_t` and
pointers are 4 bytes, so 25 of the header's 100 structs change layout (kgsl_device_getproperty:
24 -> 12 bytes, kgsl_devinfo: 40 -> 24) and 23 request numbers change with them
(IOCTL_KGSL_DEVICE_GETPROPERTY: 0xc0180902 -> 0xc00c0902), as the header compiled for armv7
says (tests/data/kgsl_ioctl/*_armv7.json). kgsl_ioctl lays out only the arm64 structs; a
32-bit process would send arm64 bytes under numbers the compat path decodes with 32-bit
layouts, or numbers it does not know. `check_abi()` refuses that before the first ioctl.
"""
import struct

ABI = "arm64 (LP64)"


class UnsupportedABI(RuntimeError):
    """The process cannot speak the KGSL ABI these bindings describe; the message says why."""


def pointer_size():
    """Bytes of a pointer in this process (8 on arm64 and x86-64, 4 on 32-bit ARM)."""
    return struct.calcsize("P")


def check_abi():
    """Raise UnsupportedABI unless this process is 64-bit (LP64), the ABI of kgsl_ioctl."""
    size = pointer_size()
    if size != 8:
        raise UnsupportedABI(
            f"this Python is a {8 * size}-bit process: KGSL's structs and request numbers differ "
            f"in the 32-bit ARM ABI (DEVICE_GETPROPERTY is 0xc00c0902 with a 12-byte argument "
            f"there, 0xc0180902 with 24 bytes on arm64), and these bindings describe {ABI} only; "
            f"run a 64-bit (aarch64) Python")
