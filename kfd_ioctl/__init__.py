"""The amdkfd user-space ABI (<linux/kfd_ioctl.h>) for Python, through cffi in ABI mode.

    from kfd_ioctl import ffi, new, by_request, AMDKFD_IOC_GET_VERSION
    args = new("kfd_ioctl_get_version_args")
    fcntl.ioctl(fd, AMDKFD_IOC_GET_VERSION, ffi.buffer(args))

- `ffi`: every struct of the header (ABI 1.18), named as there, plus the 88-byte
  `struct kfd_ioctl_create_queue_args_legacy` of ABI <= 1.16.
- `AMDKFD_IOC_*`: request numbers computed with `_IOC` from the struct sizes.
- `IOCTLS` (nr -> Ioctl record) and `by_request(request)` to decode a request number.
- Every constant of the header (KFD_*, EC_*, DEBUG_RUNTIME_STATE_*...) as a plain int, and its
  one-argument macros (KFD_EC_MASK, KFD_SMI_EVENT_MASK_FROM_INDEX...) as functions.
- `new(struct, **fields)`: a zeroed struct with fields set; an unknown field is a TypeError.
"""
from .constants import *  # noqa: F401,F403  (the header's constants, by their C names)
from .constants import KFD_IOCTL_MAJOR_VERSION, KFD_IOCTL_MINOR_VERSION  # noqa: F401
from .ioc import (_IO, _IOC, _IOC_DIR, _IOC_NONE, _IOC_NR, _IOC_READ, _IOC_SIZE,  # noqa: F401
                  _IOC_TYPE, _IOC_WRITE, _IOR, _IOW, _IOWR)
from .ioctls import *  # noqa: F401,F403  (AMDKFD_IOC_* request numbers)
from .ioctls import (AMDKFD_IO, AMDKFD_IOR, AMDKFD_IOW, AMDKFD_IOWR, IOCTLS, Ioctl,  # noqa: F401
                     all_requests, by_request)
from .structs import STRUCT_NAMES, ffi, field_names, new, struct_tag  # noqa: F401
