"""Talking to the NVIDIA resource manager through /dev/nvidiactl, over the kernel seam.

    ctl = NvCtl.open(kernel, layouts)          # /dev/nvidiactl
    cards = ctl.card_info()                    # NV_ESC_CARD_INFO: the GPUs the module drives
    rm = RmClient(ctl)                         # NV01_ROOT_CLIENT
    dev = rm.alloc(rm.handle, NV01_DEVICE_0, layouts.new("NV0080_ALLOC_PARAMETERS", deviceId=0))
    info = rm.control(sub, NV2080_CTRL_CMD_GR_GET_INFO, params)
    rm.close()

An escape the kernel refuses raises IoctlError (name and errno); an RM call that comes back with a
status other than NV_OK raises RMError naming the call, the object and the NV_STATUS by name.
Arguments larger than _IOC_SIZE's 14 bits go through NV_ESC_IOCTL_XFER_CMD.
"""
import errno

import nv_ioctl as NV

from drivers.errors import GPUError, IoctlError
from drivers.kernel import O_RDWR

NVIDIACTL = "/dev/nvidiactl"


class RMError(GPUError):
    """An RM call answered a status other than NV_OK: `status` (the code) and `status_name`."""

    def __init__(self, call, status, status_name):
        self.call, self.status, self.status_name = call, status, status_name
        super().__init__(f"{call} failed: {status_name} (0x{status:x})")


def address_of(cdata, ffi):
    return int(ffi.cast("uintptr_t", cdata))


class NvCtl:
    """An open /dev/nvidiactl (or /dev/nvidiaN: the same escapes, other ones accepted) and the
    layouts of the driver branch behind it."""

    def __init__(self, kernel, layouts, fd, path=NVIDIACTL):
        self.kernel, self.L, self.fd, self.path = kernel, layouts, fd, path

    @classmethod
    def open(cls, kernel, layouts, path=NVIDIACTL):
        return cls(kernel, layouts, kernel.open(path, O_RDWR), path)

    def close(self):
        if self.fd is not None:
            self.kernel.close(self.fd)
            self.fd = None

    def escape(self, name, args, struct=None, count=1):
        """Issue escape `name` with `args` (a cffi pointer or array); XFER when it is too large."""
        esc = self.L.escape(name, struct)
        size = esc.size * (count if esc.array else 1)
        if size <= NV._IOC_SIZEMASK:
            self.kernel.ioctl(self.fd, esc.request(count), args, name)
            return args
        xfer = self.L.new("nv_ioctl_xfer_t", cmd=esc.nr, size=size, ptr=address_of(args, self.L.ffi))
        self.kernel.ioctl(self.fd, self.L.request("NV_ESC_IOCTL_XFER_CMD"), xfer, f"{name} (through XFER)")
        return args

    def check_version(self, version, cmd=NV.NV_RM_API_VERSION_CMD_STRICT):
        """NV_ESC_CHECK_VERSION_STR: (True, None) when the module accepts `version`, else
        (False, the module's own version).  QUERY (version None) returns (True, its version)."""
        args = self.L.new("nv_ioctl_rm_api_version_t", cmd=NV.NV_RM_API_VERSION_CMD_QUERY if version is None else cmd)
        if version is not None:
            raw = version.encode()[:NV.NV_RM_API_VERSION_STRING_LENGTH - 1]
            self.L.ffi.memmove(args.versionString, raw, len(raw))
        try:
            self.escape("NV_ESC_CHECK_VERSION_STR", args)
        except IoctlError as e:
            if e.errno_value == errno.EINVAL and args.reply == NV.NV_RM_API_VERSION_REPLY_RECOGNIZED:
                return False, self.L.ffi.string(args.versionString).decode(errors="replace")
            raise
        return True, (self.L.ffi.string(args.versionString).decode(errors="replace") if version is None else None)

    def card_info(self, count=64):
        """NV_ESC_CARD_INFO with room for `count` GPUs -> the valid entries."""
        cards = self.L.new_array("nv_ioctl_card_info_t", count)
        self.escape("NV_ESC_CARD_INFO", cards, count=count)
        return [self.L.ffi.new("nv_ioctl_card_info_t *", cards[i])[0] for i in range(count) if cards[i].valid]


def pci_address(card):
    p = card.pci_info
    return f"{p.domain:04x}:{p.bus:02x}:{p.slot:02x}.{p.function:x}"


class RmClient:
    """One NV01_ROOT_CLIENT and the objects allocated under it."""

    def __init__(self, ctl):
        self.ctl, self.L = ctl, ctl.L
        self.handle = None
        args = self.L.new("NVOS21_PARAMETERS", hClass=NV.NV01_ROOT_CLIENT)
        self._call("NV_ESC_RM_ALLOC", args, "NV_ESC_RM_ALLOC of NV01_ROOT_CLIENT")
        self.handle = args.hObjectNew

    def _call(self, name, args, call, status=None):
        self.ctl.escape(name, args)
        code = args.status if status is None else status(args)
        if code != NV.NV_OK:
            raise RMError(call, code, self.L.status_name(code))
        return args

    def alloc(self, parent, class_id, params=None, handle=0):
        """RM_ALLOC of `class_id` under `parent` -> the new handle (RM picks it when `handle` is 0)."""
        args = self.L.new("NVOS21_PARAMETERS", hRoot=self.handle, hObjectParent=parent, hObjectNew=handle,
                          hClass=class_id)
        if params is not None:
            args.pAllocParms = address_of(params, self.L.ffi)
            args.paramsSize = self.L.ffi.sizeof(params[0])
        self._call("NV_ESC_RM_ALLOC", args, f"NV_ESC_RM_ALLOC of {NV.class_name(class_id)} under 0x{parent:x}")
        return args.hObjectNew

    def control(self, obj, cmd, params=None):
        """RM_CONTROL `cmd` on `obj` with `params` (a zeroed struct of the command's type if None)."""
        control = self.L.control(cmd)
        if params is None:
            params = self.L.new(control.struct)
        args = self.L.new("NVOS54_PARAMETERS", hClient=self.handle, hObject=obj, cmd=cmd,
                          params=address_of(params, self.L.ffi), paramsSize=self.L.ffi.sizeof(params[0]))
        self._call("NV_ESC_RM_CONTROL", args, f"{NV.control_name(cmd)} on 0x{obj:x}")
        return params

    def free(self, obj):
        args = self.L.new("NVOS00_PARAMETERS", hRoot=self.handle, hObjectParent=self.handle, hObjectOld=obj)
        self._call("NV_ESC_RM_FREE", args, f"NV_ESC_RM_FREE of 0x{obj:x}")

    def close(self):
        """Free the client and everything under it."""
        if self.handle is not None:
            handle, self.handle = self.handle, None
            args = self.L.new("NVOS00_PARAMETERS", hRoot=handle, hObjectParent=handle, hObjectOld=handle)
            self.ctl.escape("NV_ESC_RM_FREE", args)

    # -- queries a probe makes --------------------------------------------------------------------
    def gr_info(self, subdevice, indices):
        """GR_GET_INFO for `indices` -> {index: data}."""
        entries = self.L.new_array("NV2080_CTRL_GR_INFO", len(indices))
        for entry, index in zip(entries, indices):
            entry.index = index
        params = self.L.new("NV2080_CTRL_GR_GET_INFO_PARAMS", grInfoListSize=len(indices),
                            grInfoList=address_of(entries, self.L.ffi))
        self.control(subdevice, NV.NV2080_CTRL_CMD_GR_GET_INFO, params)
        return {e.index: e.data for e in entries}

    def fb_info(self, subdevice, indices):
        """FB_GET_INFO_V2 for `indices` -> {index: data}."""
        params = self.L.new("NV2080_CTRL_FB_GET_INFO_V2_PARAMS", fbInfoListSize=len(indices))
        for i, index in enumerate(indices):
            params.fbInfoList[i].index = index
        self.control(subdevice, NV.NV2080_CTRL_CMD_FB_GET_INFO_V2, params)
        return {params.fbInfoList[i].index: params.fbInfoList[i].data for i in range(len(indices))}

    def uuid(self, subdevice):
        """GPU_GET_GID_INFO in ASCII: 'GPU-xxxxxxxx-...'."""
        params = self.L.new("NV2080_CTRL_GPU_GET_GID_INFO_PARAMS",
                            flags=NV.NV2080_GPU_CMD_GPU_GET_GID_FLAGS_FORMAT.num(
                                NV.NV2080_GPU_CMD_GPU_GET_GID_FLAGS_FORMAT_ASCII))
        self.control(subdevice, NV.NV2080_CTRL_CMD_GPU_GET_GID_INFO, params)
        return bytes(params.data[0:params.length]).split(b"\0", 1)[0].decode(errors="replace")

    def class_list(self, device):
        """GPU_GET_CLASSLIST, asked twice as the RM wants: the count, then the list."""
        params = self.control(device, NV.NV0080_CTRL_CMD_GPU_GET_CLASSLIST)
        classes = self.L.new_array("NvU32", params.numClasses)
        params.classList = address_of(classes, self.L.ffi)
        self.control(device, NV.NV0080_CTRL_CMD_GPU_GET_CLASSLIST, params)
        return list(classes)
