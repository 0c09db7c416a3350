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


# -- memory ------------------------------------------------------------------------------------------
def gpuobj_alloc(kernel, fd, size, flags):
    """GPUOBJ_ALLOC -> the struct (id, size and flags as KGSL kept them, mmapsize)."""
    args = K.new("kgsl_gpuobj_alloc", size=size, flags=flags)
    kernel.ioctl(fd, K.IOCTL_KGSL_GPUOBJ_ALLOC, args, "IOCTL_KGSL_GPUOBJ_ALLOC")
    return args


def gpuobj_info(kernel, fd, obj_id):
    args = K.new("kgsl_gpuobj_info", id=obj_id)
    kernel.ioctl(fd, K.IOCTL_KGSL_GPUOBJ_INFO, args, "IOCTL_KGSL_GPUOBJ_INFO")
    return args


def gpuobj_free(kernel, fd, obj_id):
    kernel.ioctl(fd, K.IOCTL_KGSL_GPUOBJ_FREE, K.new("kgsl_gpuobj_free", id=obj_id), "IOCTL_KGSL_GPUOBJ_FREE")


def gpuobj_sync(kernel, fd, obj_id, op, offset=0, length=0):
    """Cache maintenance on one object: op KGSL_GPUMEM_CACHE_TO_GPU / _FROM_GPU (| _RANGE)."""
    obj = K.new("kgsl_gpuobj_sync_obj", id=obj_id, op=op, offset=offset, length=length)
    args = K.new("kgsl_gpuobj_sync", objs=K.address_of(obj), obj_len=K.ffi.sizeof(obj[0]), count=1)
    kernel.ioctl(fd, K.IOCTL_KGSL_GPUOBJ_SYNC, args, "IOCTL_KGSL_GPUOBJ_SYNC")


# -- submission and timestamps -------------------------------------------------------------------------
def gpu_command(kernel, fd, context_id, ibs, flags=0):
    """GPU_COMMAND with the IBs [(gpuaddr, bytes)] -> the timestamp KGSL assigned."""
    objs = K.ffi.new("struct kgsl_command_object[]", max(len(ibs), 1))
    for i, (va, size) in enumerate(ibs):
        objs[i].gpuaddr, objs[i].size, objs[i].flags = va, size, K.KGSL_CMDLIST_IB
    args = K.new("kgsl_gpu_command", flags=flags, context_id=context_id)
    if ibs:
        args.cmdlist, args.cmdsize, args.numcmds = K.address_of(objs), K.ffi.sizeof("struct kgsl_command_object"), len(ibs)
    kernel.ioctl(fd, K.IOCTL_KGSL_GPU_COMMAND, args, "IOCTL_KGSL_GPU_COMMAND")
    return args.timestamp


def wait_timestamp(kernel, fd, context_id, timestamp, timeout_ms):
    """WAITTIMESTAMP_CTXTID; IoctlError ETIMEDOUT past the timeout, EDEADLK for a dead context."""
    args = K.new("kgsl_device_waittimestamp_ctxtid", context_id=context_id, timestamp=timestamp,
                 timeout=timeout_ms)
    kernel.ioctl(fd, K.IOCTL_KGSL_DEVICE_WAITTIMESTAMP_CTXTID, args, "IOCTL_KGSL_DEVICE_WAITTIMESTAMP_CTXTID")


def read_timestamp(kernel, fd, context_id, which=K.KGSL_TIMESTAMP_RETIRED):
    args = K.new("kgsl_cmdstream_readtimestamp_ctxtid", context_id=context_id, type=which)
    kernel.ioctl(fd, K.IOCTL_KGSL_CMDSTREAM_READTIMESTAMP_CTXTID, args, "IOCTL_KGSL_CMDSTREAM_READTIMESTAMP_CTXTID")
    return args.timestamp


def reset_status(kernel, fd, context_id):
    """KGSL_PROP_GPU_RESET_STAT of a context: KGSL_CTX_STAT_* (guilty, innocent, no error)."""
    value = K.ffi.new("uint32_t *", context_id)
    args = K.new("kgsl_device_getproperty", type=K.KGSL_PROP_GPU_RESET_STAT, value=K.address_of(value),
                 sizebytes=4)
    kernel.ioctl(fd, K.IOCTL_KGSL_DEVICE_GETPROPERTY, args, "IOCTL_KGSL_DEVICE_GETPROPERTY(KGSL_PROP_GPU_RESET_STAT)")
    return int(value[0])


def page_faults(kernel, fd, context_id, limit=4):
    """The page faults that invalidated a KGSL_CONTEXT_FAULT_INFO context, [(VA, KGSL_PAGEFAULT_TYPE_*)]
    (GET_FAULT_REPORT of newer kernels: IoctlError ENOTTY where the kernel lacks it)."""
    name = "IOCTL_KGSL_GET_FAULT_REPORT"
    counts = K.ffi.new("struct kgsl_fault[]", K.KGSL_FAULT_TYPE_MAX)
    args = K.new("kgsl_fault_report", faultlist=K.address_of(counts), faultnents=K.KGSL_FAULT_TYPE_MAX,
                 faultsize=K.ffi.sizeof("struct kgsl_fault"), context_id=context_id)
    kernel.ioctl(fd, K.IOCTL_KGSL_GET_FAULT_REPORT, args, name)
    n = next((min(c.count, limit) for c in counts if c.type == K.KGSL_FAULT_TYPE_PAGEFAULT), 0)
    if not n:
        return []
    reports = K.ffi.new("struct kgsl_pagefault_report[]", n)
    want = K.ffi.new("struct kgsl_fault[]", 1)
    want[0].fault, want[0].type = K.address_of(reports), K.KGSL_FAULT_TYPE_PAGEFAULT
    want[0].count, want[0].size = n, K.ffi.sizeof("struct kgsl_pagefault_report")
    args.faultlist, args.faultnents = K.address_of(want), 1
    kernel.ioctl(fd, K.IOCTL_KGSL_GET_FAULT_REPORT, args, name)
    return [(int(r.fault_addr), int(r.fault_type)) for r in reports]


def shadow(kernel, fd):
    """KGSL_PROP_DEVICE_SHADOW: (GPU address = mmap offset, size) of the memstore."""
    prop = get_property(kernel, fd, K.KGSL_PROP_DEVICE_SHADOW, "struct kgsl_shadowprop")
    return int(prop.gpuaddr), int(prop.size)
