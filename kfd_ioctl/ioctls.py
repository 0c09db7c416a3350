"""Every AMDKFD_IOC_* request number, computed from the struct sizes, and the table to decode them.

`IOCTLS[nr]` describes command `nr` with its current argument struct; `by_request(request)` maps a
full request number back to its record, which is what a (virtual) KFD dispatches on.

CREATE_QUEUE has two request numbers in use: 0xc0604b02 with the 96-byte struct of ABI >= 1.17,
and 0xc0584b02 (AMDKFD_IOC_CREATE_QUEUE_LEGACY) with the 88-byte one older headers declare. The
kernel takes both, because it dispatches on _IOC_NR and copies only the caller's size.
"""
from typing import NamedTuple

from .constants import AMDKFD_IOCTL_BASE
from .ioc import _IOC, _IOC_READ, _IOC_WRITE, _IOC_NONE, direction_name
from .structs import ffi, new, struct_tag

_IOC_READWRITE = _IOC_READ | _IOC_WRITE


class Ioctl(NamedTuple):
    name: str        # as in the header, e.g. "AMDKFD_IOC_CREATE_QUEUE"
    nr: int          # command number, _IOC_NR(request)
    request: int     # the full number passed to ioctl(2)
    struct: str      # tag of the argument struct, e.g. "kfd_ioctl_create_queue_args"
    direction: int   # _IOC_WRITE (copied in), _IOC_READ (copied out), or both
    size: int        # bytes of the argument, _IOC_SIZE(request)

    @property
    def copies_in(self):
        """The kernel reads the argument from the caller (_IOC_WRITE)."""
        return bool(self.direction & _IOC_WRITE)

    @property
    def copies_out(self):
        """The kernel writes the argument back to the caller (_IOC_READ)."""
        return bool(self.direction & _IOC_READ)

    @property
    def direction_name(self):
        return direction_name(self.direction)

    def new(self, **fields):
        """A zeroed argument struct for this ioctl with `fields` set (see kfd_ioctl.new)."""
        return new(self.struct, **fields)


def _request(direction, nr, struct):
    return _IOC(direction, AMDKFD_IOCTL_BASE, nr, ffi.sizeof(f"struct {struct_tag(struct)}"))


# The header's AMDKFD_IOR/IOW/IOWR macros; they take the struct name instead of a C type.
def AMDKFD_IO(nr):
    return _IOC(_IOC_NONE, AMDKFD_IOCTL_BASE, nr, 0)


def AMDKFD_IOR(nr, struct):
    return _request(_IOC_READ, nr, struct)


def AMDKFD_IOW(nr, struct):
    return _request(_IOC_WRITE, nr, struct)


def AMDKFD_IOWR(nr, struct):
    return _request(_IOC_READWRITE, nr, struct)


IOCTLS = {}        # nr -> Ioctl, current layouts
_BY_REQUEST = {}   # request -> Ioctl, every accepted number (legacy CREATE_QUEUE too)


def _define(name, direction, nr, struct, legacy=False):
    request = _request(direction, nr, struct)
    record = Ioctl(name, nr, request, struct_tag(struct), direction, ffi.sizeof(f"struct {struct}"))
    if request in _BY_REQUEST:
        raise ValueError(f"{name}: request {request:#x} already belongs to {_BY_REQUEST[request].name}")
    _BY_REQUEST[request] = record
    if not legacy:
        if nr in IOCTLS:
            raise ValueError(f"{name}: command number {nr:#x} already belongs to {IOCTLS[nr].name}")
        IOCTLS[nr] = record
    return request


R, W, RW = _IOC_READ, _IOC_WRITE, _IOC_READWRITE

AMDKFD_IOC_GET_VERSION = _define("AMDKFD_IOC_GET_VERSION", R, 0x01, "kfd_ioctl_get_version_args")
AMDKFD_IOC_CREATE_QUEUE = _define("AMDKFD_IOC_CREATE_QUEUE", RW, 0x02, "kfd_ioctl_create_queue_args")
AMDKFD_IOC_CREATE_QUEUE_LEGACY = _define("AMDKFD_IOC_CREATE_QUEUE_LEGACY", RW, 0x02,
                                         "kfd_ioctl_create_queue_args_legacy", legacy=True)
AMDKFD_IOC_DESTROY_QUEUE = _define("AMDKFD_IOC_DESTROY_QUEUE", RW, 0x03, "kfd_ioctl_destroy_queue_args")
AMDKFD_IOC_SET_MEMORY_POLICY = _define("AMDKFD_IOC_SET_MEMORY_POLICY", W, 0x04,
                                       "kfd_ioctl_set_memory_policy_args")
AMDKFD_IOC_GET_CLOCK_COUNTERS = _define("AMDKFD_IOC_GET_CLOCK_COUNTERS", RW, 0x05,
                                        "kfd_ioctl_get_clock_counters_args")
AMDKFD_IOC_GET_PROCESS_APERTURES = _define("AMDKFD_IOC_GET_PROCESS_APERTURES", R, 0x06,
                                           "kfd_ioctl_get_process_apertures_args")
AMDKFD_IOC_UPDATE_QUEUE = _define("AMDKFD_IOC_UPDATE_QUEUE", W, 0x07, "kfd_ioctl_update_queue_args")
AMDKFD_IOC_CREATE_EVENT = _define("AMDKFD_IOC_CREATE_EVENT", RW, 0x08, "kfd_ioctl_create_event_args")
AMDKFD_IOC_DESTROY_EVENT = _define("AMDKFD_IOC_DESTROY_EVENT", W, 0x09, "kfd_ioctl_destroy_event_args")
AMDKFD_IOC_SET_EVENT = _define("AMDKFD_IOC_SET_EVENT", W, 0x0A, "kfd_ioctl_set_event_args")
AMDKFD_IOC_RESET_EVENT = _define("AMDKFD_IOC_RESET_EVENT", W, 0x0B, "kfd_ioctl_reset_event_args")
AMDKFD_IOC_WAIT_EVENTS = _define("AMDKFD_IOC_WAIT_EVENTS", RW, 0x0C, "kfd_ioctl_wait_events_args")
AMDKFD_IOC_DBG_REGISTER_DEPRECATED = _define("AMDKFD_IOC_DBG_REGISTER_DEPRECATED", W, 0x0D,
                                             "kfd_ioctl_dbg_register_args")
AMDKFD_IOC_DBG_UNREGISTER_DEPRECATED = _define("AMDKFD_IOC_DBG_UNREGISTER_DEPRECATED", W, 0x0E,
                                               "kfd_ioctl_dbg_unregister_args")
AMDKFD_IOC_DBG_ADDRESS_WATCH_DEPRECATED = _define("AMDKFD_IOC_DBG_ADDRESS_WATCH_DEPRECATED", W, 0x0F,
                                                  "kfd_ioctl_dbg_address_watch_args")
AMDKFD_IOC_DBG_WAVE_CONTROL_DEPRECATED = _define("AMDKFD_IOC_DBG_WAVE_CONTROL_DEPRECATED", W, 0x10,
                                                 "kfd_ioctl_dbg_wave_control_args")
AMDKFD_IOC_SET_SCRATCH_BACKING_VA = _define("AMDKFD_IOC_SET_SCRATCH_BACKING_VA", RW, 0x11,
                                            "kfd_ioctl_set_scratch_backing_va_args")
AMDKFD_IOC_GET_TILE_CONFIG = _define("AMDKFD_IOC_GET_TILE_CONFIG", RW, 0x12,
                                     "kfd_ioctl_get_tile_config_args")
AMDKFD_IOC_SET_TRAP_HANDLER = _define("AMDKFD_IOC_SET_TRAP_HANDLER", W, 0x13,
                                      "kfd_ioctl_set_trap_handler_args")
AMDKFD_IOC_GET_PROCESS_APERTURES_NEW = _define("AMDKFD_IOC_GET_PROCESS_APERTURES_NEW", RW, 0x14,
                                               "kfd_ioctl_get_process_apertures_new_args")
AMDKFD_IOC_ACQUIRE_VM = _define("AMDKFD_IOC_ACQUIRE_VM", W, 0x15, "kfd_ioctl_acquire_vm_args")
AMDKFD_IOC_ALLOC_MEMORY_OF_GPU = _define("AMDKFD_IOC_ALLOC_MEMORY_OF_GPU", RW, 0x16,
                                         "kfd_ioctl_alloc_memory_of_gpu_args")
AMDKFD_IOC_FREE_MEMORY_OF_GPU = _define("AMDKFD_IOC_FREE_MEMORY_OF_GPU", W, 0x17,
                                        "kfd_ioctl_free_memory_of_gpu_args")
AMDKFD_IOC_MAP_MEMORY_TO_GPU = _define("AMDKFD_IOC_MAP_MEMORY_TO_GPU", RW, 0x18,
                                       "kfd_ioctl_map_memory_to_gpu_args")
AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU = _define("AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU", RW, 0x19,
                                           "kfd_ioctl_unmap_memory_from_gpu_args")
AMDKFD_IOC_SET_CU_MASK = _define("AMDKFD_IOC_SET_CU_MASK", W, 0x1A, "kfd_ioctl_set_cu_mask_args")
AMDKFD_IOC_GET_QUEUE_WAVE_STATE = _define("AMDKFD_IOC_GET_QUEUE_WAVE_STATE", RW, 0x1B,
                                          "kfd_ioctl_get_queue_wave_state_args")
AMDKFD_IOC_GET_DMABUF_INFO = _define("AMDKFD_IOC_GET_DMABUF_INFO", RW, 0x1C,
                                     "kfd_ioctl_get_dmabuf_info_args")
AMDKFD_IOC_IMPORT_DMABUF = _define("AMDKFD_IOC_IMPORT_DMABUF", RW, 0x1D, "kfd_ioctl_import_dmabuf_args")
AMDKFD_IOC_ALLOC_QUEUE_GWS = _define("AMDKFD_IOC_ALLOC_QUEUE_GWS", RW, 0x1E,
                                     "kfd_ioctl_alloc_queue_gws_args")
AMDKFD_IOC_SMI_EVENTS = _define("AMDKFD_IOC_SMI_EVENTS", RW, 0x1F, "kfd_ioctl_smi_events_args")
# The size counts the fixed part only (24 bytes); nattr attributes follow it in the buffer.
AMDKFD_IOC_SVM = _define("AMDKFD_IOC_SVM", RW, 0x20, "kfd_ioctl_svm_args")
AMDKFD_IOC_SET_XNACK_MODE = _define("AMDKFD_IOC_SET_XNACK_MODE", RW, 0x21,
                                    "kfd_ioctl_set_xnack_mode_args")
AMDKFD_IOC_CRIU_OP = _define("AMDKFD_IOC_CRIU_OP", RW, 0x22, "kfd_ioctl_criu_args")
AMDKFD_IOC_AVAILABLE_MEMORY = _define("AMDKFD_IOC_AVAILABLE_MEMORY", RW, 0x23,
                                      "kfd_ioctl_get_available_memory_args")
AMDKFD_IOC_EXPORT_DMABUF = _define("AMDKFD_IOC_EXPORT_DMABUF", RW, 0x24, "kfd_ioctl_export_dmabuf_args")
AMDKFD_IOC_RUNTIME_ENABLE = _define("AMDKFD_IOC_RUNTIME_ENABLE", RW, 0x25,
                                    "kfd_ioctl_runtime_enable_args")
AMDKFD_IOC_DBG_TRAP = _define("AMDKFD_IOC_DBG_TRAP", RW, 0x26, "kfd_ioctl_dbg_trap_args")

del R, W, RW


def by_request(request):
    """The Ioctl record of a full request number, or None if KFD defines no such request."""
    if not isinstance(request, int) or isinstance(request, bool):
        raise TypeError(f"ioctl request must be an int, got {type(request).__name__}")
    return _BY_REQUEST.get(request)


def all_requests():
    """Every accepted request number with its record, legacy CREATE_QUEUE included."""
    return dict(_BY_REQUEST)


__all__ = sorted(name for name in globals() if name.startswith("AMDKFD_IOC_"))
