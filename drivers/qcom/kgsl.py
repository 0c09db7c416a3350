"""/dev/kgsl-3d0 through the kernel seam: opening it, asking it for properties, draw contexts.

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

# A compute context: KGSL requires PREAMBLE and NO_GMEM_ALLOC (compute never renders into GMEM);
# a faulting kernel must fail rather than be replayed (NO_FAULT_TOLERANCE); PWR_CONSTRAINT lets
# SETPROPERTY pin the clock; medium priority, fine-grained preemption. This is the word tinygrad
# runs on A630 phones (0x04008a12).
COMPUTE_CONTEXT_FLAGS = K.context_flags(
    K.KGSL_CONTEXT_PREAMBLE, K.KGSL_CONTEXT_NO_GMEM_ALLOC, K.KGSL_CONTEXT_NO_FAULT_TOLERANCE,
    K.KGSL_CONTEXT_PWR_CONSTRAINT, priority=8, preempt_style=K.KGSL_CONTEXT_PREEMPT_STYLE_FINEGRAIN)


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


def create_context(kernel, fd, flags=COMPUTE_CONTEXT_FLAGS):
    """DRAWCTXT_CREATE -> (context id, the flags KGSL kept)."""
    args = K.new("kgsl_drawctxt_create", flags=flags)
    kernel.ioctl(fd, K.IOCTL_KGSL_DRAWCTXT_CREATE, args, "IOCTL_KGSL_DRAWCTXT_CREATE")
    return args.drawctxt_id, args.flags


def destroy_context(kernel, fd, context_id):
    kernel.ioctl(fd, K.IOCTL_KGSL_DRAWCTXT_DESTROY, K.new("kgsl_drawctxt_destroy", drawctxt_id=context_id),
                 "IOCTL_KGSL_DRAWCTXT_DESTROY")


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
