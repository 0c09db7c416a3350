"""RM class ids (the hClass of NV_ESC_RM_ALLOC), by their C names (sdk/nvidia/inc/class/clXXXX.h).

A compute driver builds this tree (parent -> child):

    NV01_ROOT_CLIENT
    └─ NV01_DEVICE_0                                one per GPU (deviceId = GPU_GET_ID_INFO_V2's deviceInstance)
       ├─ NV20_SUBDEVICE_0
       │  └─ *_USERMODE_A                           the doorbell page (NOTIFY_CHANNEL_PENDING at +0x90)
       ├─ NV01_MEMORY_VIRTUAL                       the hDma of NV_ESC_RM_MAP_MEMORY_DMA
       ├─ NV01_MEMORY_LOCAL_USER / _SYSTEM          VRAM / system memory
       ├─ FERMI_VASPACE_A                           the GPU address space
       └─ KEPLER_CHANNEL_GROUP_A                    a TSG
          ├─ FERMI_CONTEXT_SHARE_A                  its subcontext
          └─ *_CHANNEL_GPFIFO_A                     a channel ...
             └─ *_COMPUTE_* / *_DMA_COPY_*          ... and the engine object on it

Which of the per-architecture classes a GPU offers is NV0080_CTRL_CMD_GPU_GET_CLASSLIST's answer.
"""

NV01_ROOT = 0x0
NV01_ROOT_NON_PRIV = 0x1
NV01_ROOT_CLIENT = 0x41               # what a user-space client always gets (the kernel forces it)
NV01_DEVICE_0 = 0x80
NV20_SUBDEVICE_0 = 0x2080

NV01_MEMORY_SYSTEM = 0x3E
NV01_MEMORY_LOCAL_USER = 0x40         # VRAM; also spelled NV1_MEMORY_USER
NV1_MEMORY_USER = 0x40
NV01_MEMORY_VIRTUAL = 0x70
NV01_MEMORY_SYSTEM_OS_DESCRIPTOR = 0x71

FERMI_CONTEXT_SHARE_A = 0x9067
FERMI_VASPACE_A = 0x90F1
KEPLER_CHANNEL_GROUP_A = 0xA06C
GT200_DEBUGGER = 0x83DE

VOLTA_USERMODE_A = 0xC361
TURING_USERMODE_A = 0xC461
AMPERE_USERMODE_A = 0xC561
HOPPER_USERMODE_A = 0xC661

VOLTA_CHANNEL_GPFIFO_A = 0xC36F
TURING_CHANNEL_GPFIFO_A = 0xC46F
AMPERE_CHANNEL_GPFIFO_A = 0xC56F
HOPPER_CHANNEL_GPFIFO_A = 0xC86F
BLACKWELL_CHANNEL_GPFIFO_A = 0xC96F

VOLTA_COMPUTE_A = 0xC3C0
TURING_COMPUTE_A = 0xC5C0
AMPERE_COMPUTE_A = 0xC6C0             # GA100, sm_80
AMPERE_COMPUTE_B = 0xC7C0             # GA10x, sm_86
ADA_COMPUTE_A = 0xC9C0                # AD10x, sm_89
HOPPER_COMPUTE_A = 0xCBC0             # GH100, sm_90
BLACKWELL_COMPUTE_A = 0xCDC0
BLACKWELL_COMPUTE_B = 0xCEC0

AMPERE_DMA_COPY_A = 0xC6B5
AMPERE_DMA_COPY_B = 0xC7B5
HOPPER_DMA_COPY_A = 0xC8B5
BLACKWELL_DMA_COPY_A = 0xC9B5
BLACKWELL_DMA_COPY_B = 0xCAB5
