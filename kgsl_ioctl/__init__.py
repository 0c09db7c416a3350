"""The Qualcomm KGSL user-space ABI (msm_kgsl.h, /dev/kgsl-3d0) for Python, through cffi in ABI mode.

    from kgsl_ioctl import ffi, new, address_of, IOCTL_KGSL_DEVICE_GETPROPERTY, KGSL_PROP_DEVICE_INFO
    info = new("kgsl_devinfo")
    prop = new("kgsl_device_getproperty", type=KGSL_PROP_DEVICE_INFO, value=address_of(info),
               sizebytes=ffi.sizeof(info[0]))
    fcntl.ioctl(fd, IOCTL_KGSL_DEVICE_GETPROPERTY, ffi.buffer(prop))

- `ffi`: every struct of the header (mesa's vendored msm_kgsl.h, KGSL "3.14"), named as there,
  laid out as on arm64 (LP64): pointer, `unsigned long` and `size_t` members are __u64.
- `IOCTL_KGSL_*`: request numbers computed with `_IOC` from the struct sizes; `IOCTLS`
  (request -> Ioctl record), `by_request(request)`, `by_nr(nr)`.
- Every constant of the header (KGSL_CONTEXT_*, KGSL_MEMFLAGS_*, KGSL_PROP_*...) as a plain int,
  its function-like macros as functions (KGSL_USERMEM_FLAG, KGSL_MEMSTORE_OFFSET...).
- `new(struct, **fields)`, `address_of(cdata)`; `context_flags()`, `memflags()` and
  `mmap_offset(id)` (= id << 12) to build flag words and mmap offsets.
- `check_abi()`: raises UnsupportedABI in a 32-bit process, whose KGSL ABI differs.
"""
from .abi import ABI, UnsupportedABI, check_abi  # noqa: F401
from .constants import *  # noqa: F401,F403  (the header's constants, by their C names)
from .constants import KGSL_CONVERT_TO_MBPS, KGSL_USERMEM_FLAG  # noqa: F401
from .flags import context_fields, context_flags, memflags, memflags_fields, mmap_offset  # noqa: F401
from .ioc import (_IOC, _IOC_DIR, _IOC_NONE, _IOC_NR, _IOC_READ, _IOC_SIZE, _IOC_TYPE,  # noqa: F401
                  _IOC_WRITE, _IOR, _IOW, _IOWR)
from .ioctls import *  # noqa: F401,F403  (IOCTL_KGSL_* request numbers)
from .ioctls import IOCTLS, Ioctl, by_nr, by_request  # noqa: F401
from .structs import (KGSL_MEMSTORE_OFFSET, STRUCT_NAMES, address_of, ffi, field_names, new,  # noqa: F401
                      struct_tag)
