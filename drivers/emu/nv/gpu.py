"""One virtual NVIDIA GPU: its board, class list, the numbers the RM's controls report, and what runs
on it (channel ids, the usermode page, VRAM in use, the PTIMER clock, the shader executor).

The GPU is *attached* (initialized by the RM, visible to GPU_GET_ATTACHED_IDS and GET_ID_INFO_V2)
while a /dev/nvidiaN of it is open, as the open kernel module does without persistence mode.
A write of a work-submit token to the usermode page's NOTIFY_CHANNEL_PENDING wakes the machine's
host thread (host.py); grids run on `executor` (the SASS simulator unless a test attaches another).
"""
import itertools
import os
import sys
import time

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


MAX_CHANNELS = 2048


class NvGpu:
    def __init__(self, board, machine=None):
        self.board, self.card, self.machine = board, board.card, machine
        self.classes = CHIP_CLASSES[self.card.class_list]
        self.open_files = 0           # open /dev/nvidiaN of this GPU: attached while > 0
        self.persistent = False
        self.vram_used = 0
        self.memory_objects = 0
        self.channels = {}            # chid -> Channel
        self.contexts = {}            # id(channel group or lone channel) -> rc.Context (fault records)
        self.executor = None          # callable(Launch); None: the SASS simulator
        self.launches = 0
        self.last_error = None
        self._physical = itertools.count(0x100000, 0x200000)
        self._t0 = time.monotonic_ns()
        self._usermode = None

    # -- what runs ------------------------------------------------------------------------------
    def ptimer(self):
        """The GPU's nanosecond timer (PTIMER; semaphore timestamps, usermode TIME_0/TIME_1)."""
        return time.monotonic_ns() - self._t0

    def fake_physical(self, size):
        """A made-up FB offset for NV_MEMORY_ALLOCATION_PARAMS.offset (nothing reads it back)."""
        return next(self._physical)

    def alloc_chid(self, channel):
        for chid in range(MAX_CHANNELS):
            if chid not in self.channels:
                self.channels[chid] = channel
                return chid
        from drivers.emu.nv.rm import RmFailure
        raise RmFailure("NV_ERR_NO_FREE_FIFOS", f"all {MAX_CHANNELS} channels of GPU {self.board.minor} are in use")

    def free_chid(self, channel):
        if self.channels.get(channel.chid) is channel:
            del self.channels[channel.chid]
        self.contexts.pop(id(channel), None)
        if channel.tsg is not None and not [c for c in channel.tsg.channels if c is not channel]:
            self.contexts.pop(id(channel.tsg), None)

    def context_of(self, channel):
        """The fault records of the channel's context (its channel group's, shared by its channels)."""
        from drivers.emu.nv.rc import Context
        key = id(channel.tsg if channel.tsg is not None else channel)
        context = self.contexts.get(key)
        if context is None:
            context = self.contexts[key] = Context()
        return context

    @property
    def usermode_page(self):
        """The 64 KiB usermode register page every usermode mapping of this GPU shows."""
        if self._usermode is None:
            from drivers.emu.memory import HostMemory
            self._usermode = HostMemory(NV.NVC361_NV_USERMODE__SIZE, f"usermode page of GPU {self.board.minor}")
        return self._usermode

    def update_time(self):
        t = self.ptimer()
        words = self.usermode_page.array.view("uint32")
        words[NV.NVC361_TIME_0 // 4], words[NV.NVC361_TIME_1 // 4] = t & 0xFFFFFFFF, t >> 32

    def doorbell(self, token):
        """A work-submit token was written to NOTIFY_CHANNEL_PENDING."""
        self.update_time()
        channel = next((c for c in self.channels.values() if c.token == token), None)
        if channel is None:
            log(2, f"virtual GPU {self.board.minor}: doorbell with token {token}, which no channel has")
            return
        log(2, f"virtual GPU {self.board.minor}: doorbell for chid {channel.chid}")
        self.kick()

    def kick(self):
        if self.machine is not None:
            self.machine.host.kick()

    def execute(self, launch):
        """Run one grid (called by the compute engine with the machine lock held)."""
        self.launches += 1
        if self.executor is not None:
            return self.executor(launch)
        from drivers.emu.nv.sass import execute
        return execute(launch)

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
