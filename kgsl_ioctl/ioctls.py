"""Every IOCTL_KGSL_* request number, computed from the struct sizes, and the table to decode them.

KGSL reuses a few command numbers: 0x11 and 0x12 exist as _IOR (the *_OLD names) and as
_IOWR/_IOW, and 0x31 is both CFF_USER_EVENT and TIMESTAMP_EVENT_OLD, two different 32-byte
structs under one and the same request number 0x40200931; SETPROPERTY (0x32) takes
the getproperty struct and SHAREDMEM_FLUSH_CACHE (0x24) the sharedmem_free one; TIMELINE_DESTROY
takes a bare __u32. So records are keyed by the full request number: `by_request(request)` (0x40200931 answers
CFF_USER_EVENT, the first definition; `by_nr(0x31)` has both), and `by_nr(nr)` lists every
record of a command number (which is what the kernel dispatches on:
kgsl_ioctl_helper() indexes its table with _IOC_NR and copies min(caller, kernel) size bytes).
"""
from typing import NamedTuple

from .constants import KGSL_IOC_TYPE
from .ioc import _IOC, _IOC_READ, _IOC_READWRITE, _IOC_WRITE, direction_name
from .structs import ffi, new, struct_tag


class Ioctl(NamedTuple):
    name: str        # as in the header, e.g. "IOCTL_KGSL_GPUOBJ_ALLOC"
    nr: int          # command number, _IOC_NR(request)
    request: int     # the full number passed to ioctl(2)
    ctype: str       # the argument's C type: "struct kgsl_gpuobj_alloc", or "__u32"
    direction: int   # _IOC_WRITE (copied in), _IOC_READ (copied out), or both
    size: int        # bytes of the argument, _IOC_SIZE(request)

    @property
    def struct(self):
        """Tag of the argument struct ("kgsl_gpuobj_alloc"), None for a scalar argument."""
        return self.ctype[len("struct "):] if self.ctype.startswith("struct ") else None

    @property
    def copies_in(self):
        return bool(self.direction & _IOC_WRITE)

    @property
    def copies_out(self):
        return bool(self.direction & _IOC_READ)

    @property
    def direction_name(self):
        return direction_name(self.direction)

    def new(self, **fields):
        """A zeroed argument for this ioctl with `fields` set (see kgsl_ioctl.new)."""
        if self.struct is None:
            if fields:
                raise TypeError(f"{self.name} takes a bare {self.ctype}, not fields")
            return ffi.new(f"{self.ctype} *")
        return new(self.struct, **fields)


IOCTLS = {}    # request -> Ioctl
_BY_NR = {}    # nr -> [Ioctl, ...]


def _define(name, direction, nr, argument, same_request_as=None):
    ctype = argument if argument.startswith("__") else f"struct {struct_tag(argument)}"
    size = ffi.sizeof(ctype)
    request = _IOC(direction, KGSL_IOC_TYPE, nr, size)
    owner = IOCTLS.get(request)
    if owner is not None and owner.name != same_request_as:
        raise ValueError(f"{name}: request {request:#x} already belongs to {owner.name}")
    record = Ioctl(name, nr, request, ctype, direction, size)
    IOCTLS.setdefault(request, record)
    _BY_NR.setdefault(nr, []).append(record)
    return request


R, W, RW = _IOC_READ, _IOC_WRITE, _IOC_READWRITE

IOCTL_KGSL_DEVICE_GETPROPERTY = _define("IOCTL_KGSL_DEVICE_GETPROPERTY", RW, 0x02, "kgsl_device_getproperty")
IOCTL_KGSL_DEVICE_WAITTIMESTAMP = _define("IOCTL_KGSL_DEVICE_WAITTIMESTAMP", W, 0x06,
                                          "kgsl_device_waittimestamp")
IOCTL_KGSL_DEVICE_WAITTIMESTAMP_CTXTID = _define("IOCTL_KGSL_DEVICE_WAITTIMESTAMP_CTXTID", W, 0x07,
                                                 "kgsl_device_waittimestamp_ctxtid")
IOCTL_KGSL_RINGBUFFER_ISSUEIBCMDS = _define("IOCTL_KGSL_RINGBUFFER_ISSUEIBCMDS", RW, 0x10,
                                            "kgsl_ringbuffer_issueibcmds")
IOCTL_KGSL_CMDSTREAM_READTIMESTAMP_OLD = _define("IOCTL_KGSL_CMDSTREAM_READTIMESTAMP_OLD", R, 0x11,
                                                 "kgsl_cmdstream_readtimestamp")
IOCTL_KGSL_CMDSTREAM_READTIMESTAMP = _define("IOCTL_KGSL_CMDSTREAM_READTIMESTAMP", RW, 0x11,
                                             "kgsl_cmdstream_readtimestamp")
IOCTL_KGSL_CMDSTREAM_FREEMEMONTIMESTAMP = _define("IOCTL_KGSL_CMDSTREAM_FREEMEMONTIMESTAMP", W, 0x12,
                                                  "kgsl_cmdstream_freememontimestamp")
IOCTL_KGSL_CMDSTREAM_FREEMEMONTIMESTAMP_OLD = _define("IOCTL_KGSL_CMDSTREAM_FREEMEMONTIMESTAMP_OLD", R, 0x12,
                                                      "kgsl_cmdstream_freememontimestamp")
IOCTL_KGSL_DRAWCTXT_CREATE = _define("IOCTL_KGSL_DRAWCTXT_CREATE", RW, 0x13, "kgsl_drawctxt_create")
IOCTL_KGSL_DRAWCTXT_DESTROY = _define("IOCTL_KGSL_DRAWCTXT_DESTROY", W, 0x14, "kgsl_drawctxt_destroy")
IOCTL_KGSL_MAP_USER_MEM = _define("IOCTL_KGSL_MAP_USER_MEM", RW, 0x15, "kgsl_map_user_mem")
IOCTL_KGSL_CMDSTREAM_READTIMESTAMP_CTXTID = _define("IOCTL_KGSL_CMDSTREAM_READTIMESTAMP_CTXTID", RW, 0x16,
                                                    "kgsl_cmdstream_readtimestamp_ctxtid")
IOCTL_KGSL_CMDSTREAM_FREEMEMONTIMESTAMP_CTXTID = _define("IOCTL_KGSL_CMDSTREAM_FREEMEMONTIMESTAMP_CTXTID", W,
                                                         0x17, "kgsl_cmdstream_freememontimestamp_ctxtid")
IOCTL_KGSL_SHAREDMEM_FROM_PMEM = _define("IOCTL_KGSL_SHAREDMEM_FROM_PMEM", RW, 0x20, "kgsl_sharedmem_from_pmem")
IOCTL_KGSL_SHAREDMEM_FREE = _define("IOCTL_KGSL_SHAREDMEM_FREE", W, 0x21, "kgsl_sharedmem_free")
IOCTL_KGSL_DRAWCTXT_BIND_GMEM_SHADOW = _define("IOCTL_KGSL_DRAWCTXT_BIND_GMEM_SHADOW", W, 0x22,
                                               "kgsl_bind_gmem_shadow")
IOCTL_KGSL_SHAREDMEM_FROM_VMALLOC = _define("IOCTL_KGSL_SHAREDMEM_FROM_VMALLOC", RW, 0x23,
                                            "kgsl_sharedmem_from_vmalloc")
IOCTL_KGSL_SHAREDMEM_FLUSH_CACHE = _define("IOCTL_KGSL_SHAREDMEM_FLUSH_CACHE", W, 0x24, "kgsl_sharedmem_free")
IOCTL_KGSL_DRAWCTXT_SET_BIN_BASE_OFFSET = _define("IOCTL_KGSL_DRAWCTXT_SET_BIN_BASE_OFFSET", W, 0x25,
                                                  "kgsl_drawctxt_set_bin_base_offset")
IOCTL_KGSL_CMDWINDOW_WRITE = _define("IOCTL_KGSL_CMDWINDOW_WRITE", W, 0x2E, "kgsl_cmdwindow_write")
IOCTL_KGSL_GPUMEM_ALLOC = _define("IOCTL_KGSL_GPUMEM_ALLOC", RW, 0x2F, "kgsl_gpumem_alloc")
IOCTL_KGSL_CFF_SYNCMEM = _define("IOCTL_KGSL_CFF_SYNCMEM", W, 0x30, "kgsl_cff_syncmem")
IOCTL_KGSL_CFF_USER_EVENT = _define("IOCTL_KGSL_CFF_USER_EVENT", W, 0x31, "kgsl_cff_user_event")
IOCTL_KGSL_TIMESTAMP_EVENT_OLD = _define("IOCTL_KGSL_TIMESTAMP_EVENT_OLD", W, 0x31, "kgsl_timestamp_event",
                                         same_request_as="IOCTL_KGSL_CFF_USER_EVENT")
IOCTL_KGSL_SETPROPERTY = _define("IOCTL_KGSL_SETPROPERTY", W, 0x32, "kgsl_device_getproperty")
IOCTL_KGSL_TIMESTAMP_EVENT = _define("IOCTL_KGSL_TIMESTAMP_EVENT", RW, 0x33, "kgsl_timestamp_event")
IOCTL_KGSL_GPUMEM_ALLOC_ID = _define("IOCTL_KGSL_GPUMEM_ALLOC_ID", RW, 0x34, "kgsl_gpumem_alloc_id")
IOCTL_KGSL_GPUMEM_FREE_ID = _define("IOCTL_KGSL_GPUMEM_FREE_ID", RW, 0x35, "kgsl_gpumem_free_id")
IOCTL_KGSL_GPUMEM_GET_INFO = _define("IOCTL_KGSL_GPUMEM_GET_INFO", RW, 0x36, "kgsl_gpumem_get_info")
IOCTL_KGSL_GPUMEM_SYNC_CACHE = _define("IOCTL_KGSL_GPUMEM_SYNC_CACHE", W, 0x37, "kgsl_gpumem_sync_cache")
IOCTL_KGSL_PERFCOUNTER_GET = _define("IOCTL_KGSL_PERFCOUNTER_GET", RW, 0x38, "kgsl_perfcounter_get")
IOCTL_KGSL_PERFCOUNTER_PUT = _define("IOCTL_KGSL_PERFCOUNTER_PUT", W, 0x39, "kgsl_perfcounter_put")
IOCTL_KGSL_PERFCOUNTER_QUERY = _define("IOCTL_KGSL_PERFCOUNTER_QUERY", RW, 0x3A, "kgsl_perfcounter_query")
IOCTL_KGSL_PERFCOUNTER_READ = _define("IOCTL_KGSL_PERFCOUNTER_READ", RW, 0x3B, "kgsl_perfcounter_read")
IOCTL_KGSL_GPUMEM_SYNC_CACHE_BULK = _define("IOCTL_KGSL_GPUMEM_SYNC_CACHE_BULK", RW, 0x3C,
                                            "kgsl_gpumem_sync_cache_bulk")
IOCTL_KGSL_SUBMIT_COMMANDS = _define("IOCTL_KGSL_SUBMIT_COMMANDS", RW, 0x3D, "kgsl_submit_commands")
IOCTL_KGSL_SYNCSOURCE_CREATE = _define("IOCTL_KGSL_SYNCSOURCE_CREATE", RW, 0x40, "kgsl_syncsource_create")
IOCTL_KGSL_SYNCSOURCE_DESTROY = _define("IOCTL_KGSL_SYNCSOURCE_DESTROY", RW, 0x41, "kgsl_syncsource_destroy")
IOCTL_KGSL_SYNCSOURCE_CREATE_FENCE = _define("IOCTL_KGSL_SYNCSOURCE_CREATE_FENCE", RW, 0x42,
                                             "kgsl_syncsource_create_fence")
IOCTL_KGSL_SYNCSOURCE_SIGNAL_FENCE = _define("IOCTL_KGSL_SYNCSOURCE_SIGNAL_FENCE", RW, 0x43,
                                             "kgsl_syncsource_signal_fence")
IOCTL_KGSL_CFF_SYNC_GPUOBJ = _define("IOCTL_KGSL_CFF_SYNC_GPUOBJ", W, 0x44, "kgsl_cff_sync_gpuobj")
IOCTL_KGSL_GPUOBJ_ALLOC = _define("IOCTL_KGSL_GPUOBJ_ALLOC", RW, 0x45, "kgsl_gpuobj_alloc")
IOCTL_KGSL_GPUOBJ_FREE = _define("IOCTL_KGSL_GPUOBJ_FREE", W, 0x46, "kgsl_gpuobj_free")
IOCTL_KGSL_GPUOBJ_INFO = _define("IOCTL_KGSL_GPUOBJ_INFO", RW, 0x47, "kgsl_gpuobj_info")
IOCTL_KGSL_GPUOBJ_IMPORT = _define("IOCTL_KGSL_GPUOBJ_IMPORT", RW, 0x48, "kgsl_gpuobj_import")
IOCTL_KGSL_GPUOBJ_SYNC = _define("IOCTL_KGSL_GPUOBJ_SYNC", W, 0x49, "kgsl_gpuobj_sync")
IOCTL_KGSL_GPU_COMMAND = _define("IOCTL_KGSL_GPU_COMMAND", RW, 0x4A, "kgsl_gpu_command")
IOCTL_KGSL_PREEMPTIONCOUNTER_QUERY = _define("IOCTL_KGSL_PREEMPTIONCOUNTER_QUERY", RW, 0x4B,
                                             "kgsl_preemption_counters_query")
IOCTL_KGSL_GPUOBJ_SET_INFO = _define("IOCTL_KGSL_GPUOBJ_SET_INFO", W, 0x4C, "kgsl_gpuobj_set_info")
IOCTL_KGSL_SPARSE_PHYS_ALLOC = _define("IOCTL_KGSL_SPARSE_PHYS_ALLOC", RW, 0x50, "kgsl_sparse_phys_alloc")
IOCTL_KGSL_SPARSE_PHYS_FREE = _define("IOCTL_KGSL_SPARSE_PHYS_FREE", W, 0x51, "kgsl_sparse_phys_free")
IOCTL_KGSL_SPARSE_VIRT_ALLOC = _define("IOCTL_KGSL_SPARSE_VIRT_ALLOC", RW, 0x52, "kgsl_sparse_virt_alloc")
IOCTL_KGSL_SPARSE_VIRT_FREE = _define("IOCTL_KGSL_SPARSE_VIRT_FREE", W, 0x53, "kgsl_sparse_virt_free")
IOCTL_KGSL_SPARSE_BIND = _define("IOCTL_KGSL_SPARSE_BIND", W, 0x54, "kgsl_sparse_bind")
IOCTL_KGSL_GPU_SPARSE_COMMAND = _define("IOCTL_KGSL_GPU_SPARSE_COMMAND", RW, 0x55, "kgsl_gpu_sparse_command")
IOCTL_KGSL_GPUMEM_BIND_RANGES = _define("IOCTL_KGSL_GPUMEM_BIND_RANGES", RW, 0x56, "kgsl_gpumem_bind_ranges")
IOCTL_KGSL_GPU_AUX_COMMAND = _define("IOCTL_KGSL_GPU_AUX_COMMAND", RW, 0x57, "kgsl_gpu_aux_command")
IOCTL_KGSL_TIMELINE_CREATE = _define("IOCTL_KGSL_TIMELINE_CREATE", RW, 0x58, "kgsl_timeline_create")
IOCTL_KGSL_TIMELINE_WAIT = _define("IOCTL_KGSL_TIMELINE_WAIT", W, 0x59, "kgsl_timeline_wait")
IOCTL_KGSL_TIMELINE_QUERY = _define("IOCTL_KGSL_TIMELINE_QUERY", RW, 0x5A, "kgsl_timeline_val")
IOCTL_KGSL_TIMELINE_SIGNAL = _define("IOCTL_KGSL_TIMELINE_SIGNAL", W, 0x5B, "kgsl_timeline_signal")
IOCTL_KGSL_TIMELINE_FENCE_GET = _define("IOCTL_KGSL_TIMELINE_FENCE_GET", RW, 0x5C, "kgsl_timeline_fence_get")
IOCTL_KGSL_TIMELINE_DESTROY = _define("IOCTL_KGSL_TIMELINE_DESTROY", W, 0x5D, "__u32")
IOCTL_KGSL_GET_FAULT_REPORT = _define("IOCTL_KGSL_GET_FAULT_REPORT", RW, 0x5E, "kgsl_fault_report")
IOCTL_KGSL_RECURRING_COMMAND = _define("IOCTL_KGSL_RECURRING_COMMAND", RW, 0x5F, "kgsl_recurring_command")

del R, W, RW


def by_request(request):
    """The Ioctl record of a full request number, or None if KGSL defines no such request."""
    if not isinstance(request, int) or isinstance(request, bool):
        raise TypeError(f"ioctl request must be an int, got {type(request).__name__}")
    return IOCTLS.get(request)


def by_nr(nr):
    """Every record with command number `nr` (most have one; 0x11, 0x12 and 0x31 have two)."""
    return tuple(_BY_NR.get(nr, ()))


__all__ = sorted(name for name in globals() if name.startswith("IOCTL_KGSL_"))
