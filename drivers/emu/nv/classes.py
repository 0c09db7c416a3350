"""What the virtual RM knows of each class: its parents, its allocation parameters, and which chips
offer it.

`RESOURCES` follows the RM's resource list (src/nvidia/src/kernel/rmapi/resource_list.h): a class
may only be allocated under the parent kinds listed, and its parameters are REQUIRED (a NULL pointer
is NV_ERR_INVALID_ARGUMENT), OPTIONAL or NONE.  `CHIP_CLASSES` are the classes of each chip's class
list (src/nvidia/generated/g_gpu_class_list.c) that a compute driver uses; NV0080_CTRL_CMD_GPU_GET_CLASSLIST
answers with them, and allocating a GPU class a chip does not list is NV_ERR_INVALID_CLASS.
"""
from typing import NamedTuple

import nv_ioctl as NV

REQUIRED, OPTIONAL, NONE = "required", "optional", "none"
# Parent kinds (the RM's internal classes)
ROOT, CLIENT, DEVICE, SUBDEVICE, CHANNEL_GROUP, CHANNEL = ("root", "client", "device", "subdevice",
                                                           "channel group", "channel")


class Resource(NamedTuple):
    kind: str            # what children see this object as (a parent kind)
    parents: tuple       # parent kinds it may be allocated under
    params: str          # REQUIRED, OPTIONAL or NONE
    gpu_class: bool      # offered per chip (checked against the chip's class list)


_GPFIFO = Resource(CHANNEL, (DEVICE, CHANNEL_GROUP), REQUIRED, True)
_ENGINE = Resource("engine object", (CHANNEL,), OPTIONAL, True)
_USERMODE = Resource("usermode", (SUBDEVICE,), NONE, True)

RESOURCES = {
    NV.NV01_ROOT: Resource(CLIENT, (ROOT,), OPTIONAL, False),
    NV.NV01_ROOT_NON_PRIV: Resource(CLIENT, (ROOT,), OPTIONAL, False),
    NV.NV01_ROOT_CLIENT: Resource(CLIENT, (ROOT,), OPTIONAL, False),
    NV.NV01_DEVICE_0: Resource(DEVICE, (CLIENT,), OPTIONAL, False),
    NV.NV20_SUBDEVICE_0: Resource(SUBDEVICE, (DEVICE,), OPTIONAL, False),
    NV.NV01_MEMORY_SYSTEM: Resource("memory", (DEVICE,), REQUIRED, False),
    NV.NV01_MEMORY_SYSTEM_OS_DESCRIPTOR: Resource("memory", (DEVICE,), REQUIRED, False),
    NV.NV01_MEMORY_LOCAL_USER: Resource("memory", (DEVICE, SUBDEVICE), REQUIRED, True),
    NV.NV01_MEMORY_VIRTUAL: Resource("virtual memory", (DEVICE,), REQUIRED, True),
    NV.FERMI_VASPACE_A: Resource("VA space", (DEVICE, SUBDEVICE), REQUIRED, True),
    NV.KEPLER_CHANNEL_GROUP_A: Resource(CHANNEL_GROUP, (DEVICE,), REQUIRED, True),
    NV.FERMI_CONTEXT_SHARE_A: Resource("context share", (CHANNEL_GROUP,), REQUIRED, True),
    NV.GT200_DEBUGGER: Resource("debugger", (DEVICE,), REQUIRED, True),
    NV.VOLTA_USERMODE_A: _USERMODE,
    NV.TURING_USERMODE_A: _USERMODE,
    NV.AMPERE_USERMODE_A: _USERMODE,
    NV.HOPPER_USERMODE_A: Resource("usermode", (SUBDEVICE,), OPTIONAL, True),
    NV.VOLTA_CHANNEL_GPFIFO_A: _GPFIFO,
    NV.TURING_CHANNEL_GPFIFO_A: _GPFIFO,
    NV.AMPERE_CHANNEL_GPFIFO_A: _GPFIFO,
    NV.HOPPER_CHANNEL_GPFIFO_A: _GPFIFO,
    NV.AMPERE_COMPUTE_B: _ENGINE,
    NV.ADA_COMPUTE_A: _ENGINE,
    NV.HOPPER_COMPUTE_A: _ENGINE,
    NV.AMPERE_DMA_COPY_B: _ENGINE,
    NV.HOPPER_DMA_COPY_A: _ENGINE,
}

# Every chip of these generations also lists the Volta/Turing GPFIFO and usermode classes.
_COMMON = (NV.FERMI_CONTEXT_SHARE_A, NV.FERMI_VASPACE_A, NV.GT200_DEBUGGER, NV.KEPLER_CHANNEL_GROUP_A,
           NV.NV01_MEMORY_LOCAL_USER,
           NV.NV01_MEMORY_VIRTUAL, NV.TURING_CHANNEL_GPFIFO_A, NV.TURING_USERMODE_A, NV.VOLTA_CHANNEL_GPFIFO_A,
           NV.VOLTA_USERMODE_A, NV.AMPERE_CHANNEL_GPFIFO_A, NV.AMPERE_USERMODE_A)
CHIP_CLASSES = {
    "GA102": tuple(sorted(_COMMON + (NV.AMPERE_COMPUTE_B, NV.AMPERE_DMA_COPY_B))),
    "AD102": tuple(sorted(_COMMON + (NV.ADA_COMPUTE_A, NV.AMPERE_DMA_COPY_B))),
    "GH100": tuple(sorted(_COMMON + (NV.HOPPER_CHANNEL_GPFIFO_A, NV.HOPPER_COMPUTE_A, NV.HOPPER_DMA_COPY_A,
                                     NV.HOPPER_USERMODE_A))),
}
