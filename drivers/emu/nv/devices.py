"""/dev/nvidiactl and /dev/nvidiaN of the virtual machine: nvidia_ioctl() of kernel-open/nvidia/nv.c.

Each request is checked as the kernel checks it before anything runs: an XFER escape must be exactly
nv_ioctl_xfer_t and carries the real escape and size; every escape has one accepted size for the
pinned driver branch (a multiple of the element for CARD_INFO and ATTACH_GPUS_TO_FD, NVOS21 or NVOS64
for RM_ALLOC); the RM escapes are taken on /dev/nvidiactl only, RM_ALLOC_MEMORY and REGISTER_FD on a
/dev/nvidiaN only.  Any of those is -EINVAL, as an escape the RM refuses is; RM failures themselves
come back as `status` with the ioctl succeeding.  The argument is copied back even on failure.

NV_ESC_RM_MAP_MEMORY leaves an mmap context on the fd it names; mmap() of that fd maps exactly that
range (offset 0, the context's length), once; the usermode page's mapping rings the GPU when a
work-submit token is stored at NOTIFY_CHANNEL_PENDING.  Ioctls run under the machine lock; RM_FREE
and the last close of /dev/nvidiactl first ask the channels they will free to stop (preempt).

Stricter than nv.c in one place: the kernel ignores _IOC_TYPE; here anything but 'F' is EINVAL.
"""
import errno

import numpy as np

import nv_ioctl as NV

from drivers.emu.kernel import DeviceFile
from drivers.emu.nv.gpu import log
from drivers.emu.nv.rm import RmFailure, copy_from_user, copy_to_user
from drivers.kernel import PROT_WRITE, Mapping


def fail(err, message):
    log(2, f"virtual nvidia: {message}")
    raise OSError(err, message)


class NvFile(DeviceFile):
    """What /dev/nvidiactl and /dev/nvidiaN share: request validation and the escape table."""
    node = None

    def __init__(self, machine):
        self.machine, self.L = machine, machine.layouts
        self.mmap_context = None       # (object, offset, length, prot, cookie) from NV_ESC_RM_MAP_MEMORY

    def ioctl(self, request, buf):
        with self.machine.lock:
            self._ioctl(request, buf)

    def _ioctl(self, request, buf):
        nr, size = NV._IOC_NR(request), NV._IOC_SIZE(request)
        if NV._IOC_TYPE(request) != NV.NV_IOCTL_MAGIC:
            fail(errno.EINVAL, f"ioctl 0x{request:08x}: type 0x{NV._IOC_TYPE(request):02x} is not "
                               f"NV_IOCTL_MAGIC 'F' (the kernel ignores it; the virtual one does not)")
        if len(buf) < size:
            fail(errno.EFAULT, f"ioctl 0x{request:08x}: _IOC_SIZE says {size} bytes, the argument has {len(buf)}")
        if nr == NV.NV_ESC_IOCTL_XFER_CMD:
            return self._xfer(size, buf)
        arg = bytearray(buf[:size])
        try:
            self.escape(nr, arg)
        finally:
            buf[:size] = arg

    def _xfer(self, size, buf):
        expected = self.L.sizeof("nv_ioctl_xfer_t")
        if size != expected:
            fail(errno.EINVAL, f"NV_ESC_IOCTL_XFER_CMD: argument of {size} bytes, nv_ioctl_xfer_t is {expected}")
        xfer = self.L.from_buffer("nv_ioctl_xfer_t", bytearray(buf[:size]))
        try:
            arg = bytearray(copy_from_user(xfer.ptr, xfer.size, f"NV_ESC_IOCTL_XFER_CMD {xfer.cmd} argument"))
        except RmFailure as f:
            fail(errno.EFAULT, f.reason)
        try:
            self.escape(xfer.cmd, arg)
        finally:
            copy_to_user(xfer.ptr, arg)

    def escape(self, nr, arg):
        if nr == NV.NV_ESC_IOCTL_XFER_CMD:
            fail(errno.EINVAL, "NV_ESC_IOCTL_XFER_CMD inside NV_ESC_IOCTL_XFER_CMD")
        specs = self.L.escapes_by_nr(nr)
        if not specs:
            fail(errno.EINVAL, f"escape {nr:#x}: not an escape the virtual nvidia driver takes")
        spec = specs[0]
        if spec.array:
            if not arg or len(arg) % spec.size:
                fail(errno.EINVAL, f"{spec.name}: {len(arg)} bytes is not a whole number of {spec.struct} "
                                   f"({spec.size} bytes)")
        else:
            spec = next((s for s in specs if s.size == len(arg)), None)
            if spec is None:
                sizes = " or ".join(f"{s.size} ({s.struct})" for s in specs)
                fail(errno.EINVAL, f"{specs[0].name}: argument of {len(arg)} bytes, driver {self.L.tag} takes {sizes}")
        if spec.node != self.node:
            where = "/dev/nvidiactl" if spec.node == NV.CTL else "a /dev/nvidiaN"
            fail(errno.EINVAL, f"{spec.name} is taken on {where} only")
        handler = getattr(self, "esc_" + spec.name[len("NV_ESC_"):].lower(), None)
        if handler is None:
            self._not_emulated(spec, arg)
            return
        log(2, f"virtual nvidia: {spec.name} ({len(arg)} bytes)")
        handler(spec, arg)

    def _rm_call(self, spec, arg, fn, extra=None):
        """Run an RM call on the escape's parameters; an RmFailure becomes their status."""
        args = self.L.from_buffer(spec.struct, arg)
        params = args.params if hasattr(args, "params") and not isinstance(args.params, int) else args
        try:
            fn(self.machine.rm, params, *(extra(args) if extra else ()))
            params.status = NV.NV_OK
        except RmFailure as f:
            params.status = self.machine.rm._status(f, spec.name)

    def mmap(self, kernel, length, offset, prot, flags, address):
        """Map what the last NV_ESC_RM_MAP_MEMORY naming this fd set up (nv_mmap)."""
        from drivers.emu.nv.rm_memory import USERMODE
        with self.machine.lock:
            ctx = self.mmap_context
            if ctx is None:
                fail(errno.EINVAL, "mmap: no NV_ESC_RM_MAP_MEMORY named this fd (no mmap context)")
            obj, start, size, allowed, cookie = ctx
            if offset != 0:
                fail(errno.EINVAL, f"mmap: offset {offset:#x}; the mmap context is mapped at offset 0")
            if length != size:
                fail(errno.EINVAL, f"mmap: length {length:#x}, the RM_MAP_MEMORY context is {size:#x} bytes")
            if prot & PROT_WRITE and not allowed & PROT_WRITE:
                fail(errno.EACCES, "mmap: PROT_WRITE of a mapping made with NVOS33_FLAGS_ACCESS_READ_ONLY")
            self.mmap_context = None
            if obj.kind == USERMODE:
                obj.gpu.update_time()
                m = obj.gpu.usermode_page.map_at(start, length, prot, address)
                return UsermodePage(m.address, m.size, obj.gpu)
            return obj.store.map_at(start, length, prot, address)

    def _not_emulated(self, spec, arg):
        """An RM escape the virtual RM does not implement yet: NV_ERR_NOT_SUPPORTED in its status."""
        args = self.L.from_buffer(spec.struct, arg)
        params = args.params if hasattr(args, "params") and not isinstance(args.params, int) else args
        params.status = self.L.status_code("NV_ERR_NOT_SUPPORTED")
        log(2, f"virtual nvidia: {spec.name} is not emulated yet (NV_ERR_NOT_SUPPORTED)")


class CtlFile(NvFile):
    """An open /dev/nvidiactl."""
    node = NV.CTL

    def __init__(self, machine):
        super().__init__(machine)
        self.attached = []             # ATTACH_GPUS_TO_FD: GPUs this fd holds attached

    def esc_card_info(self, spec, arg):
        count = len(arg) // spec.size
        cards = self.L.ffi.from_buffer(f"nv_ioctl_card_info_t[{count}]", arg)
        arg[:] = bytes(len(arg))
        visible = list(self.machine.gpus)
        if count < len(visible):
            fail(errno.EINVAL, f"NV_ESC_CARD_INFO: room for {count} GPUs, the machine has {len(visible)}")
        for entry, gpu in zip(cards, visible):
            b = gpu.board
            entry.valid = 1
            entry.pci_info.domain, entry.pci_info.bus, entry.pci_info.slot = b.domain, b.bus, b.slot
            entry.pci_info.function = b.function
            entry.pci_info.vendor_id, entry.pci_info.device_id = 0x10DE, b.card.device_id
            entry.gpu_id, entry.interrupt_line, entry.minor_number = b.gpu_id, b.irq, b.minor
            entry.reg_address, entry.reg_size = 0xFB000000 - 0x2000000 * b.index, 16 << 20
            entry.fb_address, entry.fb_size = 0x38000000000 + (b.index << 36), b.card.bar1_bytes

    def esc_check_version_str(self, spec, arg):
        """RmPerformVersionCheck: QUERY copies the version out; STRICT compares all of it, RELAXED up
        to the first '.'; a mismatch returns the kernel's version and fails with EINVAL."""
        p = self.L.from_buffer(spec.struct, arg)
        p.reply = NV.NV_RM_API_VERSION_REPLY_RECOGNIZED
        ours = self.machine.driver.text.encode()
        if p.cmd == NV.NV_RM_API_VERSION_CMD_QUERY:
            _put(p.versionString, ours)
            return
        client = bytes(self.L.ffi.buffer(p.versionString)).split(b"\0", 1)[0]
        if p.cmd == NV.NV_RM_API_VERSION_CMD_RELAXED:
            same = client.split(b".", 1)[0] == ours.split(b".", 1)[0] and b"." in client
        else:
            same = client == ours
        if not same:
            _put(p.versionString, ours)
            fail(errno.EINVAL, f"NVRM: API mismatch: the client has the version {client.decode(errors='replace')}, "
                               f"but this kernel module has the version {ours.decode()}")

    def esc_attach_gpus_to_fd(self, spec, arg):
        ids = [int.from_bytes(arg[i:i + 4], "little") for i in range(0, len(arg), 4)]
        if self.attached:
            fail(errno.EINVAL, "NV_ESC_ATTACH_GPUS_TO_FD: this fd already has GPUs attached")
        by_id = {g.board.gpu_id: g for g in self.machine.gpus}
        unknown = [i for i in ids if i and i not in by_id]
        if unknown:
            fail(errno.EINVAL, f"NV_ESC_ATTACH_GPUS_TO_FD: no GPU with gpu_id 0x{unknown[0]:x}")
        self.attached = [by_id[i] for i in ids if i]
        for gpu in self.attached:
            gpu.open_files += 1

    def esc_rm_alloc(self, spec, arg):
        self.machine.rm.alloc(self.L.from_buffer(spec.struct, arg), owner=self)

    def esc_rm_free(self, spec, arg):
        self.machine.rm.free(self.L.from_buffer(spec.struct, arg))

    def esc_rm_control(self, spec, arg):
        self.machine.rm.control(self.L.from_buffer(spec.struct, arg))

    def esc_rm_map_memory(self, spec, arg):
        from drivers.emu.nv.rm_memory import map_memory
        self._rm_call(spec, arg, map_memory, lambda args: (args.fd,))

    def esc_rm_unmap_memory(self, spec, arg):
        from drivers.emu.nv.rm_memory import unmap_memory
        self._rm_call(spec, arg, unmap_memory)

    def esc_rm_map_memory_dma(self, spec, arg):
        from drivers.emu.nv.rm_memory import map_memory_dma
        self._rm_call(spec, arg, map_memory_dma)

    def esc_rm_unmap_memory_dma(self, spec, arg):
        from drivers.emu.nv.rm_memory import unmap_memory_dma
        self._rm_call(spec, arg, unmap_memory_dma)

    def ioctl(self, request, buf):
        if NV._IOC_NR(request) == NV.NV_ESC_RM_FREE and len(buf) >= self.L.sizeof("NVOS00_PARAMETERS"):
            args = self.L.from_buffer("NVOS00_PARAMETERS", bytearray(buf[:self.L.sizeof("NVOS00_PARAMETERS")]))
            self.machine.rm.preempt(args.hRoot, args.hObjectOld)       # before waiting for the lock
        super().ioctl(request, buf)

    def release(self):
        self.machine.rm.preempt_owner(self)
        with self.machine.lock:
            self._release()

    def _release(self):
        self.machine.rm.release(self)
        for gpu in self.attached:
            gpu.open_files -= 1
        self.attached = []


class GpuFile(NvFile):
    """An open /dev/nvidiaN: opening it attaches the GPU."""
    node = NV.GPU

    def __init__(self, machine, gpu):
        super().__init__(machine)
        self.gpu = gpu
        self.ctl = None
        gpu.open_files += 1

    def esc_register_fd(self, spec, arg):
        p = self.L.from_buffer(spec.struct, arg)
        try:
            ctl = self.machine.file(p.ctl_fd)
        except OSError:
            ctl = None
        if not isinstance(ctl, CtlFile):
            fail(errno.EINVAL, f"NV_ESC_REGISTER_FD: fd {p.ctl_fd} is not an open /dev/nvidiactl")
        if self.ctl is not None:
            fail(errno.EINVAL, "NV_ESC_REGISTER_FD: this fd is already registered")
        self.ctl = ctl

    def esc_rm_alloc_memory(self, spec, arg):
        from drivers.emu.nv.rm_memory import alloc_memory
        self._rm_call(spec, arg, alloc_memory, lambda args: (self,))

    def release(self):
        with self.machine.lock:
            self.gpu.open_files -= 1


class UsermodePage(Mapping):
    """A mapping of a GPU's usermode page: a 32-bit store to NOTIFY_CHANNEL_PENDING rings the doorbell."""

    def __init__(self, address, size, gpu):
        super().__init__(address, size)
        self.gpu = gpu

    def store32(self, offset, value):
        super().store32(offset, value)
        if offset == NV.NVC361_NOTIFY_CHANNEL_PENDING:
            self.gpu.doorbell(int(value) & 0xFFFFFFFF)

    def load32(self, offset):
        if offset in (NV.NVC361_TIME_0, NV.NVC361_TIME_1):
            self.gpu.update_time()
        return int(self.view(np.uint32, offset, 1)[0])


def _put(field, data):
    for i in range(len(field)):
        field[i] = data[i:i + 1] if i < len(data) else b"\0"
