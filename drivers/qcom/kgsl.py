"""/dev/kgsl-3d0 through the kernel seam: opening it, and asking it for properties.

IOCTL_KGSL_DEVICE_GETPROPERTY takes a type (KGSL_PROP_*), the address of the property's struct
and that struct's size; kernels of the Snapdragon 845 era refuse any other size with EINVAL, and
an unknown type too (newer kernels: ENODEV). Every ioctl error is an IoctlError naming the
property, e.g. "IOCTL_KGSL_DEVICE_GETPROPERTY(KGSL_PROP_DEVICE_INFO) (0xc0180902) failed: EINVAL".
"""
from dataclasses import dataclass

import kgsl_ioctl as K
from drivers.errors import IoctlError
from drivers.kernel import O_RDWR

KGSL_DEVICE = "/dev/kgsl-3d0"
PROP_NAMES = {getattr(K, n): n for n in dir(K) if n.startswith("KGSL_PROP_")}


def open_device(kernel, path=KGSL_DEVICE):
    """Open the KGSL node read-write after checking this process speaks its ABI (arm64).

    Raises kgsl_ioctl.UnsupportedABI in a 32-bit process, OSError as open(2) fails."""
    K.check_abi()
    return kernel.open(path, O_RDWR)


def get_property(kernel, fd, prop, ctype):
    """GETPROPERTY of `prop` into a fresh `ctype` ("struct kgsl_devinfo", "__u32"...).

    Returns the struct (cdata) or, for a scalar type, its int value."""
    value = K.ffi.new(f"{ctype} *")
    args = K.new("kgsl_device_getproperty", type=prop, value=K.address_of(value),
                 sizebytes=K.ffi.sizeof(ctype))
    kernel.ioctl(fd, K.IOCTL_KGSL_DEVICE_GETPROPERTY, args,
                 f"IOCTL_KGSL_DEVICE_GETPROPERTY({PROP_NAMES.get(prop, hex(prop))})")
    return value[0] if K.ffi.typeof(value).item.kind == "primitive" else value


def optional_property(kernel, fd, prop, ctype):
    """get_property, or None when the kernel does not serve that property (EINVAL, ENODEV,
    EOPNOTSUPP: which one depends on the kernel's age)."""
    try:
        return get_property(kernel, fd, prop, ctype)
    except IoctlError:
        return None


@dataclass
class DeviceInfo:
    """KGSL_PROP_DEVICE_INFO (struct kgsl_devinfo) plus the few properties a probe shows."""
    device_id: int
    chip_id: int
    mmu_enabled: bool
    gmem_bytes: int
    gmem_base: int
    kgsl_version: str = None        # KGSL_PROP_VERSION drv_major.drv_minor ("3.14")
    va_bits: int = None             # KGSL_PROP_DEVICE_BITNESS
    highest_bank_bit: int = None    # KGSL_PROP_HIGHEST_BANK_BIT
    ucode_version: tuple = None     # KGSL_PROP_UCODE_VERSION (pfp, pm4)


def device_info(kernel, fd):
    """DEVICE_INFO (required: IoctlError if refused) and the optional properties."""
    info = get_property(kernel, fd, K.KGSL_PROP_DEVICE_INFO, "struct kgsl_devinfo")
    out = DeviceInfo(device_id=info.device_id, chip_id=info.chip_id, mmu_enabled=bool(info.mmu_enabled),
                     gmem_bytes=info.gmem_sizebytes, gmem_base=info.gmem_gpubaseaddr)
    version = optional_property(kernel, fd, K.KGSL_PROP_VERSION, "struct kgsl_version")
    if version is not None:
        out.kgsl_version = f"{version.drv_major}.{version.drv_minor}"
    out.va_bits = optional_property(kernel, fd, K.KGSL_PROP_DEVICE_BITNESS, "__u32")
    out.highest_bank_bit = optional_property(kernel, fd, K.KGSL_PROP_HIGHEST_BANK_BIT, "__u32")
    ucode = optional_property(kernel, fd, K.KGSL_PROP_UCODE_VERSION, "struct kgsl_ucode_version")
    if ucode is not None:
        out.ucode_version = (ucode.pfp, ucode.pm4)
    return out
