"""Channels in the virtual RM: channel groups (TSGs), context shares, GPFIFO channels, the engine
objects on them, the usermode doorbell page and the debugger, with the controls that go to them.

A GPFIFO channel brings its own USERD (hUserdMemory[0] + userdOffset[0], 512-byte aligned) and error
notifier (hObjectError); its GPFIFO ring is gpFifoEntries (a power of two) 8-byte entries at GPU VA
gpFifoOffset of the channel's VA space.  It runs once its channel group is scheduled
(NVA06C_CTRL_CMD_GPFIFO_SCHEDULE) and someone writes its work-submit token to the usermode page's
NOTIFY_CHANNEL_PENDING.  A compute class may only go on a graphics channel, a copy class on a copy
engine's channel or a graphics one (whose own copy engine, GRCE, runs it); one object per class and
channel.  The debugger (GT200_DEBUGGER) is bound to the
channel of the compute object it names and reads that context's SM error state and MMU faults.
"""
import numpy as np

import nv_ioctl as NV

from drivers.emu.nv.classes import CHANNEL, CHANNEL_GROUP
from drivers.emu.nv.rm import RmFailure, RmObject
from drivers.emu.nv.rm_memory import MEMORY, USERMODE, VASPACE, default_vaspace

COMPUTE_CLASSES = (NV.AMPERE_COMPUTE_B, NV.ADA_COMPUTE_A, NV.HOPPER_COMPUTE_A)
COPY_CLASSES = (NV.AMPERE_DMA_COPY_B, NV.HOPPER_DMA_COPY_A)
COPY_ENGINES = range(NV.NV2080_ENGINE_TYPE_COPY0, NV.NV2080_ENGINE_TYPE_COPY0 + 10)
USERD_BYTES = 512
MAX_GPFIFO_ENTRIES = 1 << 21
CONTEXT_SHARE, ENGINE_OBJECT, DEBUGGER = "context share", "engine object", "debugger"


def engine_name(engine_type):
    if engine_type == NV.NV2080_ENGINE_TYPE_GRAPHICS:
        return "GR0"
    if engine_type in COPY_ENGINES:
        return f"COPY{engine_type - NV.NV2080_ENGINE_TYPE_COPY0}"
    return f"engine {engine_type}"


def _check_engine(engine_type, what):
    if engine_type != NV.NV2080_ENGINE_TYPE_GRAPHICS and engine_type not in COPY_ENGINES:
        raise RmFailure("NV_ERR_INVALID_ARGUMENT", f"{what}: engineType {engine_type} is neither "
                        "NV2080_ENGINE_TYPE_GRAPHICS nor a COPYn engine")


class ChannelGroup(RmObject):
    def __init__(self, handle, class_id, parent, gpu, vaspace, engine_type):
        super().__init__(handle, class_id, CHANNEL_GROUP, parent, gpu)
        self.vaspace, self.engine_type = vaspace, engine_type
        self.channels = []
        self.scheduled = False
        self.next_subctx = 0

    def destroy(self):
        self.scheduled = False


class ContextShare(RmObject):
    def __init__(self, handle, class_id, parent, gpu, vaspace, subctx):
        super().__init__(handle, class_id, CONTEXT_SHARE, parent, gpu)
        self.vaspace, self.subctx = vaspace, subctx


class Channel(RmObject):
    """A GPFIFO channel; `pbdma` (pbdma.Pbdma) fetches and executes what it is given."""

    def __init__(self, handle, class_id, parent, gpu, tsg, vaspace, engine_type, p, userd, notifier):
        super().__init__(handle, class_id, CHANNEL, parent, gpu)
        self.tsg, self.vaspace, self.engine_type = tsg, vaspace, engine_type
        self.ring_va, self.entries = p.gpFifoOffset, p.gpFifoEntries
        self.userd_memory, self.userd_offset = userd, p.userdOffset[0]
        self.notifier = notifier
        self.engines = {}                  # class id -> EngineObject
        self.scheduled = False             # for a channel without a channel group
        self.chid = gpu.alloc_chid(self)
        self.token = self.chid             # NVC36F_CTRL_CMD_GPFIFO_GET_WORK_SUBMIT_TOKEN
        self.error = None                  # why the RM stopped the channel (robust-channel recovery)
        self.preempt = False               # set from another thread: stop what runs now
        from drivers.emu.nv.pbdma import Pbdma
        self.pbdma = Pbdma(self)

    @property
    def enabled(self):
        return (self.tsg.scheduled if self.tsg is not None else self.scheduled) and self.error is None

    def userd(self):
        """The USERD control page as uint32 words (Nvc56fControl)."""
        return self.userd_memory.array(self.userd_offset, USERD_BYTES).view(np.uint32)

    def describe(self):
        return f"{self.class_name} 0x{self.handle:x} (chid {self.chid}, {engine_name(self.engine_type)})"

    def destroy(self):
        self.preempt = True
        self.gpu.free_chid(self)
        if self.tsg is not None and self in self.tsg.channels:
            self.tsg.channels.remove(self)
        if self in self.vaspace.channels:
            self.vaspace.channels.remove(self)
        self.pbdma.release()


class EngineObject(RmObject):
    """A compute or copy class instantiated on a channel; `engine` executes its methods."""

    def __init__(self, handle, class_id, parent, gpu):
        super().__init__(handle, class_id, ENGINE_OBJECT, parent, gpu)
        self.channel = parent
        if class_id in COMPUTE_CLASSES:
            from drivers.emu.nv.compute import ComputeEngine
            self.engine = ComputeEngine(parent, class_id)
        else:
            from drivers.emu.nv.copy import CopyEngine
            self.engine = CopyEngine(parent, class_id)

    def destroy(self):
        self.channel.engines.pop(self.class_id, None)


class Usermode(RmObject):
    def __init__(self, handle, class_id, parent, gpu):
        super().__init__(handle, class_id, USERMODE, parent, gpu)
        self.size = NV.NVC361_NV_USERMODE__SIZE


class Debugger(RmObject):
    def __init__(self, handle, class_id, parent, gpu, channel):
        super().__init__(handle, class_id, DEBUGGER, parent, gpu)
        self.channel = channel


def _memory_of(client, handle, what, least):
    obj = client.objects.get(handle)
    if obj is None or obj.kind != MEMORY:
        raise RmFailure("NV_ERR_INVALID_OBJECT_HANDLE", f"{what} 0x{handle:x} is not a memory object of the client")
    if obj.size < least:
        raise RmFailure("NV_ERR_INVALID_ARGUMENT", f"{what} {obj.describe()} is smaller than {least} bytes")
    return obj


def _vaspace_of(client, handle, device, what):
    if not handle:
        return default_vaspace(device)
    vas = client.objects.get(handle)
    if vas is None or vas.kind != VASPACE:
        raise RmFailure("NV_ERR_INVALID_OBJECT_HANDLE", f"{what}: hVASpace 0x{handle:x} is not a FERMI_VASPACE_A")
    if vas.gpu is not device.gpu:
        raise RmFailure("NV_ERR_INVALID_ARGUMENT", f"{what}: hVASpace 0x{handle:x} belongs to another GPU")
    return vas


def _channel_group(rm, client, parent, handle, h_class, p):
    _check_engine(p.engineType, "KEPLER_CHANNEL_GROUP_A")
    vas = _vaspace_of(client, p.hVASpace, parent, "KEPLER_CHANNEL_GROUP_A")
    if p.hObjectError:
        _memory_of(client, p.hObjectError, "hObjectError", 16)
    return ChannelGroup(handle, h_class, parent, parent.gpu, vas, p.engineType)


def _context_share(rm, client, parent, handle, h_class, p):
    vas = _vaspace_of(client, p.hVASpace, parent.parent, "FERMI_CONTEXT_SHARE_A") if p.hVASpace else parent.vaspace
    if vas is not parent.vaspace:
        raise RmFailure("NV_ERR_INVALID_ARGUMENT", f"FERMI_CONTEXT_SHARE_A: hVASpace 0x{p.hVASpace:x} is not the VA "
                        "space of its channel group")
    mode = NV.NV_CTXSHARE_ALLOCATION_FLAGS_SUBCONTEXT.val(p.flags)
    if mode == NV.NV_CTXSHARE_ALLOCATION_FLAGS_SUBCONTEXT_SPECIFIED:
        subctx = p.subctxId
    else:
        subctx, parent.next_subctx = parent.next_subctx, parent.next_subctx + 1
    p.subctxId = subctx
    return ContextShare(handle, h_class, parent, parent.gpu, vas, subctx)


def _channel(rm, client, parent, handle, h_class, p):
    what = NV.class_name(h_class)
    if parent.kind == CHANNEL_GROUP:
        tsg, device = parent, parent.parent
        if p.engineType not in (0, tsg.engine_type):
            raise RmFailure("NV_ERR_INVALID_ARGUMENT", f"{what}: engineType {p.engineType}, but the channel group runs "
                            f"{engine_name(tsg.engine_type)}")
        engine_type, vas = tsg.engine_type, tsg.vaspace
        if p.hContextShare:
            share = client.objects.get(p.hContextShare)
            if share is None or share.kind != CONTEXT_SHARE or share.parent is not tsg:
                raise RmFailure("NV_ERR_INVALID_OBJECT_HANDLE", f"{what}: hContextShare 0x{p.hContextShare:x} is not "
                                "a context share of the channel group")
    else:
        tsg, device = None, parent
        _check_engine(p.engineType, what)
        engine_type, vas = p.engineType, _vaspace_of(client, p.hVASpace, device, what)
    entries = p.gpFifoEntries
    if entries < 2 or entries & (entries - 1) or entries > MAX_GPFIFO_ENTRIES:
        raise RmFailure("NV_ERR_INVALID_ARGUMENT", f"{what}: gpFifoEntries {entries} is not a power of two in "
                        f"2..{MAX_GPFIFO_ENTRIES}")
    if p.gpFifoOffset % 8 or p.gpFifoOffset == 0:
        raise RmFailure("NV_ERR_INVALID_ARGUMENT", f"{what}: gpFifoOffset 0x{p.gpFifoOffset:x} is not an 8-byte "
                        "aligned GPU VA")
    notifier = _memory_of(client, p.hObjectError, f"{what}: hObjectError", 16)
    if not p.hUserdMemory[0]:
        raise RmFailure("NV_ERR_NOT_SUPPORTED", f"{what}: hUserdMemory[0] is 0 (a USERD the RM allocates itself); "
                        "give the memory holding USERD")
    if p.userdOffset[0] % USERD_BYTES:
        raise RmFailure("NV_ERR_INVALID_ARGUMENT", f"{what}: userdOffset[0] 0x{p.userdOffset[0]:x} is not "
                        f"{USERD_BYTES}-byte aligned")
    userd = _memory_of(client, p.hUserdMemory[0], f"{what}: hUserdMemory[0]", p.userdOffset[0] + USERD_BYTES)
    channel = Channel(handle, h_class, parent, parent.gpu, tsg, vas, engine_type, p, userd, notifier)
    words = channel.userd()
    words[:] = 0                         # the RM initializes GP_GET / GP_PUT
    if tsg is not None:
        tsg.channels.append(channel)
    vas.channels.append(channel)
    return channel


def _engine_object(rm, client, parent, handle, h_class, p):
    what = NV.class_name(h_class)
    if h_class in COMPUTE_CLASSES and parent.engine_type != NV.NV2080_ENGINE_TYPE_GRAPHICS:
        raise RmFailure("NV_ERR_INVALID_ARGUMENT", f"{what} goes on a graphics channel; {parent.describe()} runs "
                        f"{engine_name(parent.engine_type)}")
    if h_class in COPY_CLASSES and parent.engine_type not in COPY_ENGINES and \
            parent.engine_type != NV.NV2080_ENGINE_TYPE_GRAPHICS:
        raise RmFailure("NV_ERR_INVALID_ARGUMENT", f"{what} goes on a copy engine's (or the graphics engine's GRCE) "
                        f"channel; {parent.describe()} runs {engine_name(parent.engine_type)}")
    if h_class in COPY_CLASSES and p is not None and p.version == NV.NVB0B5_ALLOCATION_PARAMETERS_VERSION_1 \
            and p.engineType not in (0, parent.engine_type) and parent.engine_type in COPY_ENGINES:
        raise RmFailure("NV_ERR_INVALID_ARGUMENT", f"{what}: engineType {p.engineType}, the channel runs "
                        f"{engine_name(parent.engine_type)}")
    if h_class in parent.engines:
        raise RmFailure("NV_ERR_STATE_IN_USE", f"{parent.describe()} already has a {what} object")
    obj = EngineObject(handle, h_class, parent, parent.gpu)
    parent.engines[h_class] = obj
    return obj


def _usermode(rm, client, parent, handle, h_class, p):
    if p is not None and p.bPriv:
        raise RmFailure("NV_ERR_INSUFFICIENT_PERMISSIONS", f"{NV.class_name(h_class)}: bPriv needs a privileged client")
    return Usermode(handle, h_class, parent, parent.gpu)


def _debugger(rm, client, parent, handle, h_class, p):
    if p.hDebuggerClient_Obsolete:
        raise RmFailure("NV_ERR_NOT_SUPPORTED", "GT200_DEBUGGER: hDebuggerClient_Obsolete must be 0")
    app = rm.clients.get(p.hAppClient)
    if app is None:
        raise RmFailure("NV_ERR_INVALID_CLIENT", f"GT200_DEBUGGER: hAppClient 0x{p.hAppClient:x} is not a client")
    target = app.objects.get(p.hClass3dObject)
    if target is None or target.kind != ENGINE_OBJECT or target.class_id not in COMPUTE_CLASSES:
        raise RmFailure("NV_ERR_INVALID_OBJECT_HANDLE", f"GT200_DEBUGGER: hClass3dObject 0x{p.hClass3dObject:x} is "
                        "not a compute object of the app client")
    if target.gpu is not parent.gpu:
        raise RmFailure("NV_ERR_INVALID_ARGUMENT", "GT200_DEBUGGER: the compute object is on another GPU")
    return Debugger(handle, h_class, parent, parent.gpu, target.channel)


CONSTRUCTORS = {
    NV.KEPLER_CHANNEL_GROUP_A: _channel_group,
    NV.FERMI_CONTEXT_SHARE_A: _context_share,
    **{c: _channel for c in (NV.VOLTA_CHANNEL_GPFIFO_A, NV.TURING_CHANNEL_GPFIFO_A, NV.AMPERE_CHANNEL_GPFIFO_A,
                             NV.HOPPER_CHANNEL_GPFIFO_A)},
    **{c: _engine_object for c in COMPUTE_CLASSES + COPY_CLASSES},
    **{c: _usermode for c in (NV.VOLTA_USERMODE_A, NV.TURING_USERMODE_A, NV.AMPERE_USERMODE_A,
                              NV.HOPPER_USERMODE_A)},
    NV.GT200_DEBUGGER: _debugger,
}


# -- controls -------------------------------------------------------------------------------------

def get_work_submit_token(rm, channel, p):
    p.workSubmitToken = channel.token


def tsg_schedule(rm, tsg, p):
    if p.bEnable and not tsg.channels:
        raise RmFailure("NV_ERR_INVALID_STATE", f"{tsg.describe()} has no channels to schedule")
    tsg.scheduled = bool(p.bEnable)
    if tsg.scheduled:
        tsg.gpu.kick()


def channel_schedule(rm, channel, p):
    if channel.tsg is not None:
        raise RmFailure("NV_ERR_INVALID_ARGUMENT", f"{channel.describe()} is in {channel.tsg.describe()}: schedule "
                        "the channel group (NVA06C_CTRL_CMD_GPFIFO_SCHEDULE)")
    channel.scheduled = bool(p.bEnable)
    if channel.scheduled:
        channel.gpu.kick()


def _debugged_channel(rm, debugger, h_channel):
    channel = debugger.channel
    if h_channel and h_channel != channel.handle:
        raise RmFailure("NV_ERR_INVALID_ARGUMENT", f"hTargetChannel 0x{h_channel:x} is not the channel the debugger "
                        f"is bound to ({channel.describe()})")
    return channel


def read_all_sm_error_states(rm, debugger, p):
    channel = _debugged_channel(rm, debugger, p.hTargetChannel)
    gpu = channel.gpu
    limit = NV.NV83DE_CTRL_DEBUG_MAX_SMS_PER_CALL
    if p.numSMsToRead > limit or p.startingSM + p.numSMsToRead > gpu.card.sms:
        raise RmFailure("NV_ERR_INVALID_ARGUMENT", f"SMs {p.startingSM}..{p.startingSM + p.numSMsToRead - 1}: the GPU "
                        f"has {gpu.card.sms}, at most {limit} per call")
    context = gpu.context_of(channel)
    for i in range(p.numSMsToRead):
        state = context.sm_errors.get(p.startingSM + i)
        entry = p.smErrorStateArray[i]
        entry.hwwGlobalEsr = entry.hwwWarpEsr = entry.hwwWarpEsrPc = 0
        entry.hwwEsrAddr = entry.hwwWarpEsrPc64 = 0
        if state is not None:
            entry.hwwGlobalEsr, entry.hwwWarpEsr = state.global_esr, state.warp_esr
            entry.hwwWarpEsrPc, entry.hwwWarpEsrPc64 = state.pc & 0xFFFFFFFF, state.pc
            entry.hwwEsrAddr = state.address
    p.mmuFault.valid = bool(context.mmu_faults)
    p.mmuFault.faultInfo = context.mmu_faults[-1].fault_type if context.mmu_faults else 0
    p.mmuFaultInfo = p.mmuFault.faultInfo


def read_mmu_fault_info(rm, debugger, p):
    context = debugger.gpu.context_of(debugger.channel)
    faults = context.mmu_faults[-NV.NV83DE_CTRL_DEBUG_READ_MMU_FAULT_INFO_MAX_ENTRIES:]
    for i, fault in enumerate(faults):
        entry = p.mmuFaultInfoList[i]
        entry.faultAddress, entry.faultType, entry.accessType = fault.address, fault.fault_type, fault.access_type
    p.count = len(faults)


CONTROLS = {
    NV.NVC36F_CTRL_CMD_GPFIFO_GET_WORK_SUBMIT_TOKEN: (CHANNEL, get_work_submit_token),
    NV.NVA06C_CTRL_CMD_GPFIFO_SCHEDULE: (CHANNEL_GROUP, tsg_schedule),
    NV.NVA06F_CTRL_CMD_GPFIFO_SCHEDULE: (CHANNEL, channel_schedule),
    NV.NV83DE_CTRL_CMD_DEBUG_READ_ALL_SM_ERROR_STATES: (DEBUGGER, read_all_sm_error_states),
    NV.NV83DE_CTRL_CMD_DEBUG_READ_MMU_FAULT_INFO: (DEBUGGER, read_mmu_fault_info),
}
