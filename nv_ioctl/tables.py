"""Which argument goes with which escape, UVM command, control command and class.

These pair the numbers of constants.py / controls.py / classes.py with the struct names of cdefs.py;
sizes and request numbers follow from a branch's layouts (nv_ioctl.layouts).
"""
from typing import NamedTuple

from . import classes as C
from . import constants as K
from . import controls as X

CTL, GPU = "ctl", "gpu"     # /dev/nvidiactl, /dev/nvidiaN


class EscapeSpec(NamedTuple):
    name: str           # "NV_ESC_RM_ALLOC"
    nr: int             # _IOC_NR of the request
    struct: str         # argument type
    node: str           # CTL or GPU: the device node the kernel accepts it on
    array: bool = False  # the argument is struct[N] (N chosen by the caller)


# NV_ESC_RM_ALLOC takes two argument types; the first listed is the default.
ESCAPES = (
    EscapeSpec("NV_ESC_RM_ALLOC", K.NV_ESC_RM_ALLOC, "NVOS21_PARAMETERS", CTL),
    EscapeSpec("NV_ESC_RM_ALLOC", K.NV_ESC_RM_ALLOC, "NVOS64_PARAMETERS", CTL),
    EscapeSpec("NV_ESC_RM_CONTROL", K.NV_ESC_RM_CONTROL, "NVOS54_PARAMETERS", CTL),
    EscapeSpec("NV_ESC_RM_FREE", K.NV_ESC_RM_FREE, "NVOS00_PARAMETERS", CTL),
    EscapeSpec("NV_ESC_RM_MAP_MEMORY", K.NV_ESC_RM_MAP_MEMORY, "nv_ioctl_nvos33_parameters_with_fd", CTL),
    EscapeSpec("NV_ESC_RM_UNMAP_MEMORY", K.NV_ESC_RM_UNMAP_MEMORY, "NVOS34_PARAMETERS", CTL),
    EscapeSpec("NV_ESC_RM_ALLOC_MEMORY", K.NV_ESC_RM_ALLOC_MEMORY, "nv_ioctl_nvos02_parameters_with_fd", GPU),
    EscapeSpec("NV_ESC_RM_MAP_MEMORY_DMA", K.NV_ESC_RM_MAP_MEMORY_DMA, "NVOS46_PARAMETERS", CTL),
    EscapeSpec("NV_ESC_RM_UNMAP_MEMORY_DMA", K.NV_ESC_RM_UNMAP_MEMORY_DMA, "NVOS47_PARAMETERS", CTL),
    EscapeSpec("NV_ESC_CARD_INFO", K.NV_ESC_CARD_INFO, "nv_ioctl_card_info_t", CTL, array=True),
    EscapeSpec("NV_ESC_REGISTER_FD", K.NV_ESC_REGISTER_FD, "nv_ioctl_register_fd_t", GPU),
    EscapeSpec("NV_ESC_CHECK_VERSION_STR", K.NV_ESC_CHECK_VERSION_STR, "nv_ioctl_rm_api_version_t", CTL),
    EscapeSpec("NV_ESC_ATTACH_GPUS_TO_FD", K.NV_ESC_ATTACH_GPUS_TO_FD, "NvU32", CTL, array=True),
    EscapeSpec("NV_ESC_IOCTL_XFER_CMD", K.NV_ESC_IOCTL_XFER_CMD, "nv_ioctl_xfer_t", CTL),
)

# UVM command -> params struct (the request is the number itself; every struct ends in rmStatus).
UVM_IOCTLS = {
    "UVM_INITIALIZE": (K.UVM_INITIALIZE, "UVM_INITIALIZE_PARAMS"),
    "UVM_MM_INITIALIZE": (K.UVM_MM_INITIALIZE, "UVM_MM_INITIALIZE_PARAMS"),
    "UVM_PAGEABLE_MEM_ACCESS": (K.UVM_PAGEABLE_MEM_ACCESS, "UVM_PAGEABLE_MEM_ACCESS_PARAMS"),
    "UVM_REGISTER_GPU": (K.UVM_REGISTER_GPU, "UVM_REGISTER_GPU_PARAMS"),
    "UVM_UNREGISTER_GPU": (K.UVM_UNREGISTER_GPU, "UVM_UNREGISTER_GPU_PARAMS"),
    "UVM_REGISTER_GPU_VASPACE": (K.UVM_REGISTER_GPU_VASPACE, "UVM_REGISTER_GPU_VASPACE_PARAMS"),
    "UVM_UNREGISTER_GPU_VASPACE": (K.UVM_UNREGISTER_GPU_VASPACE, "UVM_UNREGISTER_GPU_VASPACE_PARAMS"),
    "UVM_REGISTER_CHANNEL": (K.UVM_REGISTER_CHANNEL, "UVM_REGISTER_CHANNEL_PARAMS"),
    "UVM_UNREGISTER_CHANNEL": (K.UVM_UNREGISTER_CHANNEL, "UVM_UNREGISTER_CHANNEL_PARAMS"),
    "UVM_CREATE_EXTERNAL_RANGE": (K.UVM_CREATE_EXTERNAL_RANGE, "UVM_CREATE_EXTERNAL_RANGE_PARAMS"),
    "UVM_MAP_EXTERNAL_ALLOCATION": (K.UVM_MAP_EXTERNAL_ALLOCATION, "UVM_MAP_EXTERNAL_ALLOCATION_PARAMS"),
    "UVM_FREE": (K.UVM_FREE, "UVM_FREE_PARAMS"),
    "UVM_ENABLE_PEER_ACCESS": (K.UVM_ENABLE_PEER_ACCESS, "UVM_ENABLE_PEER_ACCESS_PARAMS"),
    "UVM_DISABLE_PEER_ACCESS": (K.UVM_DISABLE_PEER_ACCESS, "UVM_DISABLE_PEER_ACCESS_PARAMS"),
}

# Control command -> (name, params struct).
CONTROLS = {
    X.NV0000_CTRL_CMD_SYSTEM_GET_BUILD_VERSION_V2: ("NV0000_CTRL_CMD_SYSTEM_GET_BUILD_VERSION_V2",
                                                    "NV0000_CTRL_SYSTEM_GET_BUILD_VERSION_V2_PARAMS"),
    X.NV0000_CTRL_CMD_GPU_GET_ATTACHED_IDS: ("NV0000_CTRL_CMD_GPU_GET_ATTACHED_IDS",
                                             "NV0000_CTRL_GPU_GET_ATTACHED_IDS_PARAMS"),
    X.NV0000_CTRL_CMD_GPU_GET_ID_INFO_V2: ("NV0000_CTRL_CMD_GPU_GET_ID_INFO_V2",
                                           "NV0000_CTRL_GPU_GET_ID_INFO_V2_PARAMS"),
    X.NV0080_CTRL_CMD_GPU_GET_CLASSLIST: ("NV0080_CTRL_CMD_GPU_GET_CLASSLIST", "NV0080_CTRL_GPU_GET_CLASSLIST_PARAMS"),
    X.NV0080_CTRL_CMD_GPU_GET_CLASSLIST_V2: ("NV0080_CTRL_CMD_GPU_GET_CLASSLIST_V2",
                                             "NV0080_CTRL_GPU_GET_CLASSLIST_V2_PARAMS"),
    X.NV2080_CTRL_CMD_GPU_GET_GID_INFO: ("NV2080_CTRL_CMD_GPU_GET_GID_INFO", "NV2080_CTRL_GPU_GET_GID_INFO_PARAMS"),
    X.NV2080_CTRL_CMD_GR_GET_INFO: ("NV2080_CTRL_CMD_GR_GET_INFO", "NV2080_CTRL_GR_GET_INFO_PARAMS"),
    X.NV2080_CTRL_CMD_GR_GET_GPC_MASK: ("NV2080_CTRL_CMD_GR_GET_GPC_MASK", "NV2080_CTRL_GR_GET_GPC_MASK_PARAMS"),
    X.NV2080_CTRL_CMD_FB_GET_INFO_V2: ("NV2080_CTRL_CMD_FB_GET_INFO_V2", "NV2080_CTRL_FB_GET_INFO_V2_PARAMS"),
    X.NV2080_CTRL_CMD_FB_FLUSH_GPU_CACHE: ("NV2080_CTRL_CMD_FB_FLUSH_GPU_CACHE",
                                           "NV2080_CTRL_FB_FLUSH_GPU_CACHE_PARAMS"),
    X.NV2080_CTRL_CMD_MC_GET_ARCH_INFO: ("NV2080_CTRL_CMD_MC_GET_ARCH_INFO", "NV2080_CTRL_MC_GET_ARCH_INFO_PARAMS"),
    X.NVA06C_CTRL_CMD_GPFIFO_SCHEDULE: ("NVA06C_CTRL_CMD_GPFIFO_SCHEDULE", "NVA06C_CTRL_GPFIFO_SCHEDULE_PARAMS"),
    X.NVA06F_CTRL_CMD_GPFIFO_SCHEDULE: ("NVA06F_CTRL_CMD_GPFIFO_SCHEDULE", "NVA06F_CTRL_GPFIFO_SCHEDULE_PARAMS"),
    X.NVC36F_CTRL_CMD_GPFIFO_GET_WORK_SUBMIT_TOKEN: ("NVC36F_CTRL_CMD_GPFIFO_GET_WORK_SUBMIT_TOKEN",
                                                     "NVC36F_CTRL_CMD_GPFIFO_GET_WORK_SUBMIT_TOKEN_PARAMS"),
    X.NV83DE_CTRL_CMD_DEBUG_READ_ALL_SM_ERROR_STATES: ("NV83DE_CTRL_CMD_DEBUG_READ_ALL_SM_ERROR_STATES",
                                                       "NV83DE_CTRL_DEBUG_READ_ALL_SM_ERROR_STATES_PARAMS"),
    X.NV83DE_CTRL_CMD_DEBUG_READ_MMU_FAULT_INFO: ("NV83DE_CTRL_CMD_DEBUG_READ_MMU_FAULT_INFO",
                                                  "NV83DE_CTRL_DEBUG_READ_MMU_FAULT_INFO_PARAMS"),
}

# Class -> its allocation parameter struct (None: the class takes none).
CLASS_PARAMS = {
    # The RM reads only an NvHandle (the client handle to use) here: the first member of this struct.
    C.NV01_ROOT_CLIENT: "NV0000_ALLOC_PARAMETERS",
    C.NV01_DEVICE_0: "NV0080_ALLOC_PARAMETERS",
    C.NV20_SUBDEVICE_0: "NV2080_ALLOC_PARAMETERS",
    C.NV01_MEMORY_SYSTEM: "NV_MEMORY_ALLOCATION_PARAMS",
    C.NV01_MEMORY_LOCAL_USER: "NV_MEMORY_ALLOCATION_PARAMS",
    C.NV01_MEMORY_VIRTUAL: "NV_MEMORY_VIRTUAL_ALLOCATION_PARAMS",
    C.NV01_MEMORY_SYSTEM_OS_DESCRIPTOR: "NV_OS_DESC_MEMORY_ALLOCATION_PARAMS",
    C.FERMI_VASPACE_A: "NV_VASPACE_ALLOCATION_PARAMETERS",
    C.KEPLER_CHANNEL_GROUP_A: "NV_CHANNEL_GROUP_ALLOCATION_PARAMETERS",
    C.FERMI_CONTEXT_SHARE_A: "NV_CTXSHARE_ALLOCATION_PARAMETERS",
    C.GT200_DEBUGGER: "NV83DE_ALLOC_PARAMETERS",
    C.VOLTA_USERMODE_A: None,
    C.TURING_USERMODE_A: None,
    C.AMPERE_USERMODE_A: None,
    C.HOPPER_USERMODE_A: "NV_HOPPER_USERMODE_A_PARAMS",
    **{cls: "NV_CHANNEL_ALLOC_PARAMS" for cls in (C.VOLTA_CHANNEL_GPFIFO_A, C.TURING_CHANNEL_GPFIFO_A,
                                                  C.AMPERE_CHANNEL_GPFIFO_A, C.HOPPER_CHANNEL_GPFIFO_A,
                                                  C.BLACKWELL_CHANNEL_GPFIFO_A)},
    **{cls: "NV_GR_ALLOCATION_PARAMETERS" for cls in (C.VOLTA_COMPUTE_A, C.TURING_COMPUTE_A, C.AMPERE_COMPUTE_A,
                                                      C.AMPERE_COMPUTE_B, C.ADA_COMPUTE_A, C.HOPPER_COMPUTE_A,
                                                      C.BLACKWELL_COMPUTE_A, C.BLACKWELL_COMPUTE_B)},
    **{cls: "NVB0B5_ALLOCATION_PARAMETERS" for cls in (C.AMPERE_DMA_COPY_A, C.AMPERE_DMA_COPY_B, C.HOPPER_DMA_COPY_A,
                                                       C.BLACKWELL_DMA_COPY_A, C.BLACKWELL_DMA_COPY_B)},
}


def class_name(class_id):
    """'AMPERE_COMPUTE_B' for 0xC7C0; the hex id when the class is not one declared here."""
    for name in dir(C):
        if name.isupper() and getattr(C, name) == class_id and name not in ("NV1_MEMORY_USER", "NV01_ROOT"):
            return name
    return "NV01_ROOT" if class_id == 0 else f"class 0x{class_id:04X}"


def control_name(cmd):
    entry = CONTROLS.get(cmd)
    return entry[0] if entry else f"control 0x{cmd:08X}"
