"""The RM controls the virtual GPU answers: cmd -> (the object kind that takes it, handler).

Each handler gets the ResourceManager, the object and the parameter struct (the branch's layout,
over a copy the RM writes back).  Checks follow the RM: GR_GET_INFO refuses an empty or too long
list and an index past NV2080_CTRL_GR_INFO_MAX_SIZE, GET_CLASSLIST fills at most numClasses entries
and says NV_ERR_INVALID_PARAM_STRUCT when they do not suffice, GPU_GET_ID_INFO_V2 knows only
attached GPUs.  Lists behind embedded pointers (grInfoList, classList) are read and written in the
caller's memory, as the RM's embedded-parameter copy does.
"""
import nv_ioctl as NV

from drivers.emu.nv.classes import CLIENT, DEVICE, SUBDEVICE
from drivers.emu.nv.rm import RmFailure, copy_from_user, copy_to_user


def _set_string(field, text):
    data = text.encode()
    for i in range(len(field)):
        field[i] = data[i:i + 1] if i < len(data) else b"\0"


def get_build_version(rm, client, p):
    version = rm.machine.driver
    major, minor = version.major, version.minor
    _set_string(p.driverVersionBuffer, version.text)
    _set_string(p.versionBuffer, version.text)
    _set_string(p.driverBranch, f"r{major}_00")
    _set_string(p.titleBuffer, f"rel/gpu_drv/r{major}/r{major}_00-{minor}")
    p.changelistNumber = p.officialChangelistNumber = 0


def get_attached_ids(rm, client, p):
    ids = [g.board.gpu_id for g in rm.gpus if g.attached]
    for i in range(NV.NV0000_CTRL_GPU_MAX_ATTACHED_GPUS):
        p.gpuIds[i] = ids[i] if i < len(ids) else NV.NV0000_CTRL_GPU_INVALID_ID


def get_id_info_v2(rm, client, p):
    gpu = next((g for g in rm.gpus if g.board.gpu_id == p.gpuId and g.attached), None)
    if gpu is None:
        raise RmFailure("NV_ERR_INVALID_ARGUMENT", f"gpuId 0x{p.gpuId:x} is not an attached GPU "
                        "(a GPU attaches when its /dev/nvidiaN is opened)")
    p.gpuFlags = 0
    p.deviceInstance = gpu.device_instance
    p.subDeviceInstance = 0
    p.sliStatus = 0
    p.boardId = gpu.board.gpu_id
    p.gpuInstance = gpu.board.index
    p.numaId = NV.NV0000_CTRL_NO_NUMA_NODE


def get_classlist(rm, device, p):
    """gpuGetClassList: with classList NULL only the count; else at most numClasses entries, and
    NV_ERR_INVALID_PARAM_STRUCT (the entries that fit written) when they do not all fit."""
    classes = list(device.gpu.classes)
    if p.classList:
        room = p.numClasses
        copy_to_user(p.classList, b"".join(c.to_bytes(4, "little") for c in classes[:room]))
        if room < len(classes):
            raise RmFailure("NV_ERR_INVALID_PARAM_STRUCT", f"classList holds {room} entries, the GPU has "
                            f"{len(classes)} classes")
    p.numClasses = len(classes)


def get_classlist_v2(rm, device, p):
    classes, room = list(device.gpu.classes), rm.layouts.NV0080_CTRL_GPU_CLASSLIST_MAX_SIZE
    for i, c in enumerate(classes[:room]):
        p.classList[i] = c
    if len(classes) > room:
        raise RmFailure("NV_ERR_INVALID_PARAM_STRUCT", "more classes than NV0080_CTRL_GPU_CLASSLIST_MAX_SIZE")
    p.numClasses = len(classes)


def gr_get_info(rm, subdevice, p):
    limit = rm.layouts.NV2080_CTRL_GR_INFO_MAX_SIZE
    if p.grInfoListSize == 0 or p.grInfoListSize > limit:
        raise RmFailure("NV_ERR_INVALID_ARGUMENT", f"grInfoListSize {p.grInfoListSize} (1 to {limit})")
    raw = bytearray(copy_from_user(p.grInfoList, 8 * p.grInfoListSize, "grInfoList"))
    values = subdevice.gpu.gr_info()
    for i in range(p.grInfoListSize):
        index = int.from_bytes(raw[8 * i:8 * i + 4], "little")
        if index >= limit:
            raise RmFailure("NV_ERR_INVALID_ARGUMENT", f"grInfoList[{i}].index 0x{index:x} is past "
                            f"NV2080_CTRL_GR_INFO_MAX_SIZE 0x{limit:x}")
        raw[8 * i + 4:8 * i + 8] = values.get(index, 0).to_bytes(4, "little")
    copy_to_user(p.grInfoList, raw)


def gr_get_gpc_mask(rm, subdevice, p):
    p.gpcMask = subdevice.gpu.card.gpc_mask


def get_gid_info(rm, subdevice, p):
    if p.index != 0:
        raise RmFailure("NV_ERR_INVALID_ARGUMENT", f"GID index {p.index} (only 0)")
    fmt = NV.NV2080_GPU_CMD_GPU_GET_GID_FLAGS_FORMAT.val(p.flags)
    board = subdevice.gpu.board
    if fmt == NV.NV2080_GPU_CMD_GPU_GET_GID_FLAGS_FORMAT_BINARY:
        data = board.uuid_bytes
    elif fmt == NV.NV2080_GPU_CMD_GPU_GET_GID_FLAGS_FORMAT_ASCII:
        data = board.uuid.encode() + b"\0"
    else:
        raise RmFailure("NV_ERR_INVALID_ARGUMENT", f"GID format {fmt} (0 ASCII or 2 BINARY)")
    for i in range(len(p.data)):
        p.data[i] = data[i] if i < len(data) else 0
    p.length = len(data)


def fb_get_info_v2(rm, subdevice, p):
    limit = rm.layouts.NV2080_CTRL_FB_INFO_MAX_LIST_SIZE
    if p.fbInfoListSize == 0 or p.fbInfoListSize > limit:
        raise RmFailure("NV_ERR_INVALID_ARGUMENT", f"fbInfoListSize {p.fbInfoListSize} (1 to {limit})")
    values = subdevice.gpu.fb_info()
    for i in range(p.fbInfoListSize):
        entry = p.fbInfoList[i]
        if entry.index not in values:
            raise RmFailure("NV_ERR_INVALID_ARGUMENT", f"fbInfoList[{i}].index 0x{entry.index:x} is not an FB "
                            "info index the virtual GPU reports")
        entry.data = values[entry.index]


def mc_get_arch_info(rm, subdevice, p):
    card = subdevice.gpu.card
    p.architecture, p.implementation, p.revision, p.subRevision = card.architecture, card.implementation, 0xA1, 0


def fb_flush_gpu_cache(rm, subdevice, p):
    """Nothing is cached in the virtual GPU's memory; the flags are still checked as the RM does."""
    full = NV.NV2080_CTRL_FB_FLUSH_GPU_CACHE_FLAGS_FLUSH_MODE.val(p.flags)
    if full == NV.NV2080_CTRL_FB_FLUSH_GPU_CACHE_FLAGS_FLUSH_MODE_ADDRESS_ARRAY and (
            p.addressArraySize == 0 or p.addressArraySize > NV.NV2080_CTRL_FB_FLUSH_GPU_CACHE_MAX_ADDRESSES):
        raise RmFailure("NV_ERR_INVALID_ARGUMENT", f"addressArraySize {p.addressArraySize} with FLUSH_MODE "
                        "ADDRESS_ARRAY")
    if not (NV.NV2080_CTRL_FB_FLUSH_GPU_CACHE_FLAGS_WRITE_BACK.val(p.flags)
            or NV.NV2080_CTRL_FB_FLUSH_GPU_CACHE_FLAGS_INVALIDATE.val(p.flags)
            or NV.NV2080_CTRL_FB_FLUSH_GPU_CACHE_FLAGS_FB_FLUSH.val(p.flags)):
        raise RmFailure("NV_ERR_INVALID_ARGUMENT", "flags ask for neither WRITE_BACK, INVALIDATE nor FB_FLUSH")


CONTROL_HANDLERS = {
    NV.NV0000_CTRL_CMD_SYSTEM_GET_BUILD_VERSION_V2: (CLIENT, get_build_version),
    NV.NV0000_CTRL_CMD_GPU_GET_ATTACHED_IDS: (CLIENT, get_attached_ids),
    NV.NV0000_CTRL_CMD_GPU_GET_ID_INFO_V2: (CLIENT, get_id_info_v2),
    NV.NV0080_CTRL_CMD_GPU_GET_CLASSLIST: (DEVICE, get_classlist),
    NV.NV0080_CTRL_CMD_GPU_GET_CLASSLIST_V2: (DEVICE, get_classlist_v2),
    NV.NV2080_CTRL_CMD_GR_GET_INFO: (SUBDEVICE, gr_get_info),
    NV.NV2080_CTRL_CMD_GR_GET_GPC_MASK: (SUBDEVICE, gr_get_gpc_mask),
    NV.NV2080_CTRL_CMD_GPU_GET_GID_INFO: (SUBDEVICE, get_gid_info),
    NV.NV2080_CTRL_CMD_FB_GET_INFO_V2: (SUBDEVICE, fb_get_info_v2),
    NV.NV2080_CTRL_CMD_MC_GET_ARCH_INFO: (SUBDEVICE, mc_get_arch_info),
    NV.NV2080_CTRL_CMD_FB_FLUSH_GPU_CACHE: (SUBDEVICE, fb_flush_gpu_cache),
}
