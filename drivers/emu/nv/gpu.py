"""One virtual NVIDIA GPU: its board, class list, and the numbers the RM's controls report.

The GPU is *attached* (initialized by the RM, visible to GPU_GET_ATTACHED_IDS and GET_ID_INFO_V2)
while a /dev/nvidiaN of it is open, as the open kernel module does without persistence mode.
The GPFIFO/QMD engines and the SASS simulator will hang off this object.
"""
import os
import sys

import nv_ioctl as NV

from drivers.emu.nv.classes import CHIP_CLASSES

KiB = 1024


def debug_level():
    try:
        return int(os.environ.get("DEBUG", "0"))
    except ValueError:
        return 0


def log(level, msg):
    if debug_level() >= level:
        print(msg, file=sys.stderr)


class NvGpu:
    def __init__(self, board):
        self.board, self.card = board, board.card
        self.classes = CHIP_CLASSES[self.card.class_list]
        self.open_files = 0           # open /dev/nvidiaN of this GPU: attached while > 0
        self.persistent = False

    @property
    def gpu_id(self):
        """The RM's gpuId (NV_ESC_CARD_INFO, GPU_GET_ID_INFO_V2, ATTACH_GPUS_TO_FD)."""
        return self.board.gpu_id

    @property
    def attached(self):
        return self.persistent or self.open_files > 0

    @property
    def device_instance(self):
        return self.board.index

    def gr_info(self):
        """NV2080_CTRL_CMD_GR_GET_INFO's answers by index (indices it does not know read 0)."""
        c = self.card
        return {
            NV.NV2080_CTRL_GR_INFO_INDEX_SHADER_PIPE_COUNT: c.tpcs,
            NV.NV2080_CTRL_GR_INFO_INDEX_SHADER_PIPE_SUB_COUNT: c.tpcs,
            NV.NV2080_CTRL_GR_INFO_INDEX_SM_VERSION: c.sm_version,
            NV.NV2080_CTRL_GR_INFO_INDEX_MAX_WARPS_PER_SM: c.max_warps_per_sm,
            NV.NV2080_CTRL_GR_INFO_INDEX_MAX_THREADS_PER_WARP: 32,
            NV.NV2080_CTRL_GR_INFO_INDEX_MAX_SP_PER_SM: c.cores_per_sm,
            NV.NV2080_CTRL_GR_INFO_INDEX_LITTER_NUM_GPCS: c.litter_gpcs,
            NV.NV2080_CTRL_GR_INFO_INDEX_LITTER_NUM_TPC_PER_GPC: c.litter_tpcs_per_gpc,
            NV.NV2080_CTRL_GR_INFO_INDEX_GPU_CORE_COUNT: c.sms * c.cores_per_sm,
            NV.NV2080_CTRL_GR_INFO_INDEX_LITTER_NUM_SM_PER_TPC: c.sms_per_tpc,
        }

    def fb_info(self):
        """NV2080_CTRL_CMD_FB_GET_INFO_V2's answers by index (sizes in KiB, L2 in bytes)."""
        c = self.card
        heap = (c.vram_bytes - c.reserved_bytes) // KiB
        return {
            NV.NV2080_CTRL_FB_INFO_INDEX_BAR1_SIZE: c.bar1_bytes // KiB,
            NV.NV2080_CTRL_FB_INFO_INDEX_RAM_SIZE: c.vram_bytes // KiB,
            NV.NV2080_CTRL_FB_INFO_INDEX_TOTAL_RAM_SIZE: c.vram_bytes // KiB,
            NV.NV2080_CTRL_FB_INFO_INDEX_HEAP_SIZE: heap,
            NV.NV2080_CTRL_FB_INFO_INDEX_HEAP_FREE: heap,
            NV.NV2080_CTRL_FB_INFO_INDEX_USABLE_RAM_SIZE: c.vram_bytes // KiB,
            NV.NV2080_CTRL_FB_INFO_INDEX_BUS_WIDTH: c.bus_width,
            NV.NV2080_CTRL_FB_INFO_INDEX_RAM_TYPE: c.ram_type,
            NV.NV2080_CTRL_FB_INFO_INDEX_L2CACHE_SIZE: c.l2_bytes,
        }
