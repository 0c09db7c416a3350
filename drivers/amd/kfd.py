"""The amdkfd ioctls a compute runtime issues, as Python calls over the kernel seam.

One :class:`KFD` is one open ``/dev/kfd`` (a KFD process). Each method fills the kernel's
argument struct (declared in :mod:`kfd_ioctl`), issues the ioctl through the seam, and returns
the struct so callers read the "out" fields by their header names. A refused ioctl raises
:class:`~drivers.errors.IoctlError` naming the ioctl and errno; nothing here retries or guesses.
"""
from kfd_ioctl import constants as K
from kfd_ioctl import ioctls as _ioctls
from kfd_ioctl.structs import ffi, new

from drivers.kernel import O_RDWR

KFD_PATH = "/dev/kfd"


def address_of(cdata):
    """The integer address of a cffi object (what the kernel sees in a *_ptr field)."""
    return int(ffi.cast("uintptr_t", cdata))


class KFD:
    """One open /dev/kfd. ``version`` is the (major, minor) the running kernel reports."""

    def __init__(self, kernel, fd=None):
        self.kernel = kernel
        self.fd = kernel.open(KFD_PATH, O_RDWR) if fd is None else fd
        args = self.ioctl(_ioctls.AMDKFD_IOC_GET_VERSION)
        self.version = (args.major_version, args.minor_version)

    def ioctl(self, request, **fields):
        """Issue ``request`` with a fresh argument struct holding ``fields``; return the struct."""
        record = _ioctls.by_request(request)
        args = new(record.struct, **fields)
        self.kernel.ioctl(self.fd, request, args, record.name)
        return args

    def close(self):
        if self.fd is not None:
            self.kernel.close(self.fd)
            self.fd = None

    # -- process / VM ---------------------------------------------------------------------------
    def acquire_vm(self, drm_fd, gpu_id):
        self.ioctl(_ioctls.AMDKFD_IOC_ACQUIRE_VM, drm_fd=drm_fd, gpu_id=gpu_id)

    @property
    def has_runtime_enable(self):
        """RUNTIME_ENABLE exists from ABI 1.14 on (kernels before it reject the number)."""
        return self.version >= (1, 14)

    def runtime_enable(self):
        # mode_mask 0 would mean "disable"; ENABLE without TTMP_SAVE is what a runtime without
        # a debugger attached asks for.
        self.ioctl(_ioctls.AMDKFD_IOC_RUNTIME_ENABLE, r_debug=0,
                   mode_mask=K.KFD_RUNTIME_ENABLE_MODE_ENABLE_MASK, capabilities_mask=0)

    def available_memory(self, gpu_id):
        """Bytes of VRAM this process can still allocate on ``gpu_id``."""
        return self.ioctl(_ioctls.AMDKFD_IOC_AVAILABLE_MEMORY, gpu_id=gpu_id).available

    def clock_counters(self, gpu_id):
        return self.ioctl(_ioctls.AMDKFD_IOC_GET_CLOCK_COUNTERS, gpu_id=gpu_id)

    # -- memory ---------------------------------------------------------------------------------
    def alloc_memory(self, gpu_id, va, size, flags, mmap_offset=0):
        """ALLOC_MEMORY_OF_GPU -> (handle, mmap_offset on the render node)."""
        args = self.ioctl(_ioctls.AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, va_addr=va, size=size,
                          gpu_id=gpu_id, flags=flags, mmap_offset=mmap_offset)
        return args.handle, args.mmap_offset

    def free_memory(self, handle):
        self.ioctl(_ioctls.AMDKFD_IOC_FREE_MEMORY_OF_GPU, handle=handle)

    def _map_call(self, request, handle, gpu_ids):
        ids = ffi.new("uint32_t[]", list(gpu_ids))
        args = self.ioctl(request, handle=handle, device_ids_array_ptr=address_of(ids),
                          n_devices=len(gpu_ids), n_success=0)
        return args.n_success

    def map_memory(self, handle, gpu_ids):
        """MAP_MEMORY_TO_GPU on every gpu in ``gpu_ids``; returns how many succeeded."""
        return self._map_call(_ioctls.AMDKFD_IOC_MAP_MEMORY_TO_GPU, handle, gpu_ids)

    def unmap_memory(self, handle, gpu_ids):
        return self._map_call(_ioctls.AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU, handle, gpu_ids)

    # -- events ---------------------------------------------------------------------------------
    def create_event(self, event_type, auto_reset=True, event_page_handle=0, node_id=0):
        """CREATE_EVENT -> the struct (event_id, event_slot_index, event_page_offset)."""
        return self.ioctl(_ioctls.AMDKFD_IOC_CREATE_EVENT, event_type=event_type,
                          auto_reset=int(auto_reset), node_id=node_id,
                          event_page_offset=event_page_handle)

    def destroy_event(self, event_id):
        self.ioctl(_ioctls.AMDKFD_IOC_DESTROY_EVENT, event_id=event_id)

    def set_event(self, event_id):
        self.ioctl(_ioctls.AMDKFD_IOC_SET_EVENT, event_id=event_id)

    def wait_events(self, event_data, timeout_ms, wait_for_all=False):
        """WAIT_EVENTS on a ``struct kfd_event_data[]`` (filled in place) -> wait_result."""
        args = self.ioctl(_ioctls.AMDKFD_IOC_WAIT_EVENTS, events_ptr=address_of(event_data),
                          num_events=len(event_data), wait_for_all=int(wait_for_all),
                          timeout=min(int(timeout_ms), 0xFFFFFFFE))
        return args.wait_result

    # -- queues ---------------------------------------------------------------------------------
    def create_queue(self, **fields):
        """CREATE_QUEUE (96-byte ABI 1.17 layout; older kernels take it too) -> the struct."""
        return self.ioctl(_ioctls.AMDKFD_IOC_CREATE_QUEUE, **fields)

    def destroy_queue(self, queue_id):
        self.ioctl(_ioctls.AMDKFD_IOC_DESTROY_QUEUE, queue_id=queue_id)


# Names the rest of the driver uses without importing kfd_ioctl itself.
QUEUE_TYPE_COMPUTE = K.KFD_IOC_QUEUE_TYPE_COMPUTE
QUEUE_TYPE_SDMA = K.KFD_IOC_QUEUE_TYPE_SDMA
QUEUE_TYPE_COMPUTE_AQL = K.KFD_IOC_QUEUE_TYPE_COMPUTE_AQL
EVENT_SIGNAL = K.KFD_IOC_EVENT_SIGNAL
EVENT_HW_EXCEPTION = K.KFD_IOC_EVENT_HW_EXCEPTION
EVENT_MEMORY = K.KFD_IOC_EVENT_MEMORY
WAIT_COMPLETE = K.KFD_IOC_WAIT_RESULT_COMPLETE
WAIT_TIMEOUT = K.KFD_IOC_WAIT_RESULT_TIMEOUT
SIGNAL_EVENT_LIMIT = K.KFD_SIGNAL_EVENT_LIMIT
MAX_QUEUE_PERCENTAGE = K.KFD_MAX_QUEUE_PERCENTAGE
