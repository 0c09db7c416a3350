"""Escape numbers, ioctl limits and UVM command numbers of the NVIDIA kernel modules, by their C names.

Sources (open-gpu-kernel-modules): nv_escape.h (RM escapes), nv-ioctl-numbers.h and nv-ioctl.h
(driver escapes), nvlimits.h, nvCpuUuid.h, uvm_ioctl.h / uvm_linux_ioctl.h / uvm_types.h and
nv_uvm_user_types.h (UVM).  Every value here is the same in every supported driver branch; the
header test compares each with the compiler's verdict for 570, 575, 580, 590 and 595.
"""

# ---- /dev/nvidiactl and /dev/nvidiaN: _IOWR(NV_IOCTL_MAGIC, escape, size) -----------------------
NV_IOCTL_MAGIC = ord("F")
NV_IOCTL_BASE = 200

# RM escapes (nv_escape.h): the resource manager API.  All but RM_ALLOC_MEMORY go to /dev/nvidiactl.
NV_ESC_RM_ALLOC_MEMORY = 0x27         # NVOS02 + fd: system memory / OS descriptors, on /dev/nvidiaN
NV_ESC_RM_ALLOC_OBJECT = 0x28
NV_ESC_RM_FREE = 0x29                 # NVOS00
NV_ESC_RM_CONTROL = 0x2A              # NVOS54
NV_ESC_RM_ALLOC = 0x2B                # NVOS21 or NVOS64 (the only escape with two accepted sizes)
NV_ESC_RM_DUP_OBJECT = 0x34
NV_ESC_RM_SHARE = 0x35
NV_ESC_RM_IDLE_CHANNELS = 0x41
NV_ESC_RM_VID_HEAP_CONTROL = 0x4A
NV_ESC_RM_MAP_MEMORY = 0x4E           # NVOS33 + fd: CPU mapping, then mmap() of that fd
NV_ESC_RM_UNMAP_MEMORY = 0x4F         # NVOS34
NV_ESC_RM_ALLOC_CONTEXT_DMA2 = 0x54
NV_ESC_RM_MAP_MEMORY_DMA = 0x57       # NVOS46: GPU virtual mapping
NV_ESC_RM_UNMAP_MEMORY_DMA = 0x58     # NVOS47
NV_ESC_RM_BIND_CONTEXT_DMA = 0x59
NV_ESC_RM_EXPORT_OBJECT_TO_FD = 0x5C
NV_ESC_RM_IMPORT_OBJECT_FROM_FD = 0x5D
NV_ESC_RM_UPDATE_DEVICE_MAPPING_INFO = 0x5E

# Driver escapes (nv-ioctl-numbers.h), handled by the kernel interface layer itself.
NV_ESC_CARD_INFO = NV_IOCTL_BASE + 0          # nv_ioctl_card_info_t[N], N >= the number of GPUs
NV_ESC_REGISTER_FD = NV_IOCTL_BASE + 1        # on /dev/nvidiaN: bind it to a /dev/nvidiactl fd
NV_ESC_ALLOC_OS_EVENT = NV_IOCTL_BASE + 6
NV_ESC_FREE_OS_EVENT = NV_IOCTL_BASE + 7
NV_ESC_STATUS_CODE = NV_IOCTL_BASE + 9
NV_ESC_CHECK_VERSION_STR = NV_IOCTL_BASE + 10  # nv_ioctl_rm_api_version_t
NV_ESC_IOCTL_XFER_CMD = NV_IOCTL_BASE + 11     # nv_ioctl_xfer_t: an argument over the 14-bit size
NV_ESC_ATTACH_GPUS_TO_FD = NV_IOCTL_BASE + 12  # NvU32 gpu_ids[N]
NV_ESC_QUERY_DEVICE_INTR = NV_IOCTL_BASE + 13
NV_ESC_SYS_PARAMS = NV_IOCTL_BASE + 14
NV_ESC_EXPORT_TO_DMABUF_FD = NV_IOCTL_BASE + 17
NV_ESC_WAIT_OPEN_COMPLETE = NV_IOCTL_BASE + 18

# NV_ESC_CHECK_VERSION_STR: cmd and reply
NV_RM_API_VERSION_STRING_LENGTH = 64
NV_RM_API_VERSION_CMD_STRICT = 0              # the whole version string must match
NV_RM_API_VERSION_CMD_RELAXED = ord("1")      # only up to the first '.': the branch
NV_RM_API_VERSION_CMD_QUERY = ord("2")        # just copy the kernel's version out
NV_RM_API_VERSION_REPLY_UNRECOGNIZED = 0
NV_RM_API_VERSION_REPLY_RECOGNIZED = 1

# ---- Limits -------------------------------------------------------------------------------------
NV_MAX_DEVICES = 32
NV_MAX_SUBDEVICES = 8
NV_PROC_NAME_MAX_LENGTH = 100
NV_UUID_LEN = 16

# ---- /dev/nvidia-uvm: the request is the command number itself (UVM_IOCTL_BASE(i) = i) ----------
UVM_INITIALIZE = 0x30000001           # must be the first ioctl on a UVM fd
UVM_DEINITIALIZE = 0x30000002
UVM_REGISTER_GPU_VASPACE = 25
UVM_UNREGISTER_GPU_VASPACE = 26
UVM_REGISTER_CHANNEL = 27
UVM_UNREGISTER_CHANNEL = 28
UVM_ENABLE_PEER_ACCESS = 29
UVM_DISABLE_PEER_ACCESS = 30
UVM_MAP_EXTERNAL_ALLOCATION = 33
UVM_FREE = 34
UVM_REGISTER_GPU = 37
UVM_UNREGISTER_GPU = 38
UVM_PAGEABLE_MEM_ACCESS = 39
UVM_CREATE_EXTERNAL_RANGE = 73
UVM_MM_INITIALIZE = 75

UVM_INIT_FLAGS_DISABLE_HMM = 0x1
UVM_INIT_FLAGS_MULTI_PROCESS_SHARING_MODE = 0x2
UVM_INIT_FLAGS_MASK = 0x3

UVM_PARENT_ID_MAX_SUB_PROCESSORS = 8
UVM_MAX_GPUS = NV_MAX_DEVICES * UVM_PARENT_ID_MAX_SUB_PROCESSORS   # perGpuAttributes[] entries

# UvmGpuMappingAttributes fields (nv_uvm_user_types.h enums)
UvmGpuMappingTypeDefault = 0
UvmGpuMappingTypeReadWriteAtomic = 1
UvmGpuMappingTypeReadWrite = 2
UvmGpuMappingTypeReadOnly = 3
UvmGpuCachingTypeDefault = 0
UvmGpuCachingTypeForceUncached = 1
UvmGpuCachingTypeForceCached = 2
