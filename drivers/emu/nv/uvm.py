"""/dev/nvidia-uvm of the virtual machine (kernel-open/nvidia-uvm/uvm.c, uvm_va_space.c,
uvm_map_external.c).

The request is the raw command number, so the kernel cannot see the caller's struct size: it copies
sizeof(its params) from the pointer.  Here the argument's length is known and must be that size
(EINVAL otherwise, naming the size the real module would read regardless).  UVM_INITIALIZE must come
first on a file (anything else before it is NV_ERR_ILLEGAL_ACTION in rmStatus); UVM_MM_INITIALIZE
names another, initialized UVM fd.  Failures are reported in rmStatus with the ioctl succeeding, as
uvm.c does; an unknown command is -EINVAL.

Each initialized fd is a UVM VA space: registered GPUs (by binary UUID) and their GPU VA spaces (an
RM FERMI_VASPACE_A created IS_EXTERNALLY_OWNED, named by rmCtrlFd/hClient/hVaSpace), external ranges
(UVM_CREATE_EXTERNAL_RANGE: 4 KiB aligned, never overlapping another range or a channel's reserved
range) into which UVM_MAP_EXTERNAL_ALLOCATION maps RM memory (hMemory of hClient through rmCtrlFd) for
each GPU listed, peer access between GPU pairs (another GPU's VRAM is mapped only with
UVM_ENABLE_PEER_ACCESS), registered channels, and UVM_FREE of a range.  Statuses are UVM's own:
NV_ERR_INVALID_ADDRESS for a range that is not one, NV_ERR_UVM_ADDRESS_IN_USE for an overlap,
NV_ERR_INVALID_DEVICE for a GPU that is not registered (or a peer not enabled), NV_ERR_GPU_UUID_NOT_FOUND
for a UUID no GPU has.  Closing the fd unmaps everything it mapped.
"""
import errno
from dataclasses import dataclass, field

import nv_ioctl as NV

from drivers.emu.kernel import DeviceFile
from drivers.emu.memory import PAGE_SIZE
from drivers.emu.nv.gpu import log
from drivers.emu.nv.rm import RmFailure

USER_VA_LIMIT = 1 << 47                     # x86-64 user address space: UVM ranges live in it


def fail(err, message):
    log(2, f"virtual nvidia-uvm: {message}")
    raise OSError(err, message)


@dataclass
class ExternalRange:
    base: int
    length: int
    mappings: dict = field(default_factory=dict)      # gpu -> {va: length}


class UvmFile(DeviceFile):
    def __init__(self, machine):
        self.machine, self.L = machine, machine.layouts
        self.initialized = False
        self.flags = None
        self.mm_of = None                 # UVM_MM_INITIALIZE: the UVM file this one mirrors
        self.gpus = {}                    # uuid bytes -> NvGpu
        self.vaspaces = {}                # NvGpu -> VaSpace (RM object)
        self.ranges = {}                  # base -> ExternalRange
        self.channels = {}                # (hClient, hChannel) -> (gpu, base, length)
        self.peers = set()                # frozenset({gpu, gpu})

    def ioctl(self, request, buf):
        with self.machine.lock:
            self._ioctl(request, buf)

    def _ioctl(self, request, buf):
        if request == NV.UVM_DEINITIALIZE:
            self.release_all()
            self.initialized = False      # takes no argument
            return
        cmd = self.L.uvm_by_number(request)
        if cmd is None:
            fail(errno.EINVAL, f"UVM command {request:#x} is not one the virtual nvidia-uvm takes")
        if len(buf) != cmd.size:
            fail(errno.EINVAL, f"{cmd.name}: argument of {len(buf)} bytes, but {cmd.struct} is {cmd.size} in "
                               f"driver {self.L.tag} (the real module copies {cmd.size} bytes regardless)")
        arg = bytearray(buf)
        p = self.L.from_buffer(cmd.struct, arg)
        try:
            status = self._run(cmd.name, p)
        except RmFailure as f:
            status = self._refuse(cmd.name, f.status, f.reason)
        p.rmStatus = self.L.status_code(status)
        buf[:] = arg

    def _run(self, name, p):
        if name == "UVM_INITIALIZE":
            if p.flags & ~NV.UVM_INIT_FLAGS_MASK:
                return self._refuse(name, "NV_ERR_INVALID_ARGUMENT", f"flags 0x{p.flags:x} outside UVM_INIT_FLAGS_MASK")
            if self.initialized and p.flags != self.flags:
                return self._refuse(name, "NV_ERR_INVALID_ARGUMENT", "already initialized with other flags")
            if self.mm_of is not None:
                return self._refuse(name, "NV_ERR_INVALID_STATE", "this fd was set up by UVM_MM_INITIALIZE")
            self.initialized, self.flags = True, p.flags
            return "NV_OK"
        if name == "UVM_MM_INITIALIZE":
            try:
                other = self.machine.file(p.uvmFd)
            except OSError:
                other = None
            if not isinstance(other, UvmFile) or not other.initialized or other is self:
                return self._refuse(name, "NV_ERR_INVALID_ARGUMENT", f"uvmFd {p.uvmFd} is not another, "
                                    "initialized /dev/nvidia-uvm")
            if self.initialized or self.mm_of is not None:
                return self._refuse(name, "NV_ERR_INVALID_STATE", "this fd is already in use")
            self.mm_of = other
            return "NV_OK"
        if not self.initialized:
            return self._refuse(name, "NV_ERR_ILLEGAL_ACTION", "UVM_INITIALIZE must be the first ioctl on the fd")
        if name == "UVM_PAGEABLE_MEM_ACCESS":
            p.pageableMemAccess = 0       # no HMM/ATS behind the virtual GPU
            return "NV_OK"
        handler = getattr(self, "cmd_" + name[4:].lower(), None)
        if handler is None:
            return self._refuse(name, "NV_ERR_NOT_SUPPORTED", "not emulated by the virtual nvidia-uvm")
        handler(p)
        return "NV_OK"

    @staticmethod
    def _refuse(name, status, reason):
        log(2, f"virtual nvidia-uvm: {name}: {status}: {reason}")
        return status

    # -- GPUs and their VA spaces ------------------------------------------------------------
    def _gpu(self, uuid, what, registered=True):
        raw = bytes(uuid.uuid)
        if registered:
            gpu = self.gpus.get(raw)
            if gpu is None:
                raise RmFailure("NV_ERR_INVALID_DEVICE", f"{what}: GPU {raw.hex()} is not registered on this fd")
            return gpu
        gpu = next((g for g in self.machine.gpus if g.board.uuid_bytes == raw), None)
        if gpu is None:
            raise RmFailure("NV_ERR_GPU_UUID_NOT_FOUND", f"{what}: no GPU has UUID {raw.hex()}")
        return gpu

    def cmd_register_gpu(self, p):
        gpu = self._gpu(p.gpu_uuid, "UVM_REGISTER_GPU", registered=False)
        if not gpu.attached:
            raise RmFailure("NV_ERR_INVALID_DEVICE", f"UVM_REGISTER_GPU: GPU {gpu.board.minor} is not attached "
                            "(open its /dev/nvidiaN first)")
        if gpu in self.gpus.values():
            raise RmFailure("NV_ERR_INVALID_DEVICE", f"UVM_REGISTER_GPU: GPU {gpu.board.minor} is already registered")
        self.gpus[gpu.board.uuid_bytes] = gpu

    def cmd_unregister_gpu(self, p):
        gpu = self._gpu(p.gpu_uuid, "UVM_UNREGISTER_GPU")
        self._drop_vaspace(gpu)
        self.peers = {pair for pair in self.peers if gpu not in pair}
        del self.gpus[gpu.board.uuid_bytes]

    def _rm_object(self, fd, h_client, handle, kinds, what):
        from drivers.emu.nv.devices import CtlFile
        try:
            ctl = self.machine.file(fd)
        except OSError:
            ctl = None
        if not isinstance(ctl, CtlFile):
            raise RmFailure("NV_ERR_INVALID_ARGUMENT", f"{what}: rmCtrlFd {fd} is not an open /dev/nvidiactl")
        client = self.machine.rm.clients.get(h_client)
        if client is None or client.owner is not ctl:
            raise RmFailure("NV_ERR_INVALID_CLIENT", f"{what}: hClient 0x{h_client:x} is not a client of rmCtrlFd {fd}")
        obj = client.objects.get(handle)
        if obj is None or obj.kind not in kinds:
            raise RmFailure("NV_ERR_OBJECT_NOT_FOUND", f"{what}: 0x{handle:x} is not a {' or '.join(kinds)} of "
                            f"client 0x{h_client:x}")
        return obj

    def cmd_register_gpu_vaspace(self, p):
        from drivers.emu.nv.rm_memory import VASPACE
        what = "UVM_REGISTER_GPU_VASPACE"
        gpu = self._gpu(p.gpuUuid, what)
        if gpu in self.vaspaces:
            raise RmFailure("NV_ERR_INVALID_DEVICE", f"{what}: GPU {gpu.board.minor} already has a VA space here")
        vas = self._rm_object(p.rmCtrlFd, p.hClient, p.hVaSpace, (VASPACE,), what)
        if vas.gpu is not gpu:
            raise RmFailure("NV_ERR_INVALID_DEVICE", f"{what}: hVaSpace 0x{p.hVaSpace:x} is a VA space of GPU "
                            f"{vas.gpu.board.minor}, not {gpu.board.minor}")
        if not vas.externally_owned:
            raise RmFailure("NV_ERR_INVALID_ARGUMENT", f"{what}: hVaSpace 0x{p.hVaSpace:x} was not created with "
                            "NV_VASPACE_ALLOCATION_FLAGS_IS_EXTERNALLY_OWNED")
        if vas.uvm is not None:
            raise RmFailure("NV_ERR_INVALID_DEVICE", f"{what}: hVaSpace 0x{p.hVaSpace:x} is registered already")
        vas.uvm = self
        self.vaspaces[gpu] = vas

    def cmd_unregister_gpu_vaspace(self, p):
        self._drop_vaspace(self._gpu(p.gpuUuid, "UVM_UNREGISTER_GPU_VASPACE"))

    def _drop_vaspace(self, gpu):
        vas = self.vaspaces.pop(gpu, None)
        if vas is None:
            return
        for r in self.ranges.values():
            for va in r.mappings.pop(gpu, {}):
                vas.unmap(va)
        self.channels = {k: v for k, v in self.channels.items() if v[0] is not gpu}
        vas.uvm = None

    def cmd_enable_peer_access(self, p):
        a, b = self._gpu(p.gpuUuidA, "UVM_ENABLE_PEER_ACCESS"), self._gpu(p.gpuUuidB, "UVM_ENABLE_PEER_ACCESS")
        if a is b or frozenset((a, b)) in self.peers:
            raise RmFailure("NV_ERR_INVALID_DEVICE", "UVM_ENABLE_PEER_ACCESS: the same GPU twice, or a pair already "
                            "enabled")
        self.peers.add(frozenset((a, b)))

    def cmd_disable_peer_access(self, p):
        a, b = self._gpu(p.gpuUuidA, "UVM_DISABLE_PEER_ACCESS"), self._gpu(p.gpuUuidB, "UVM_DISABLE_PEER_ACCESS")
        if frozenset((a, b)) not in self.peers:
            raise RmFailure("NV_ERR_INVALID_DEVICE", "UVM_DISABLE_PEER_ACCESS: peer access is not enabled")
        self.peers.discard(frozenset((a, b)))
        for r in self.ranges.values():        # peer mappings go with the peer access
            for gpu, other in ((a, b), (b, a)):
                for va in [va for va, (_, mem) in r.mappings.get(gpu, {}).items() if mem.gpu is other
                           and mem.location == "vidmem"]:
                    self.vaspaces[gpu].unmap(va)
                    del r.mappings[gpu][va]

    # -- channels -----------------------------------------------------------------------------
    def cmd_register_channel(self, p):
        from drivers.emu.nv.classes import CHANNEL
        what = "UVM_REGISTER_CHANNEL"
        gpu = self._gpu(p.gpuUuid, what)
        vas = self.vaspaces.get(gpu)
        if vas is None:
            raise RmFailure("NV_ERR_INVALID_DEVICE", f"{what}: GPU {gpu.board.minor} has no VA space registered")
        channel = self._rm_object(p.rmCtrlFd, p.hClient, p.hChannel, (CHANNEL,), what)
        if channel.vaspace is not vas:
            raise RmFailure("NV_ERR_INVALID_CHANNEL", f"{what}: {channel.describe()} is not in the registered VA space")
        self._check_free(p.base, p.length, what)
        self.channels[(p.hClient, p.hChannel)] = (gpu, p.base, p.length)

    def cmd_unregister_channel(self, p):
        if self.channels.pop((p.hClient, p.hChannel), None) is None:
            raise RmFailure("NV_ERR_INVALID_CHANNEL", f"UVM_UNREGISTER_CHANNEL: channel 0x{p.hChannel:x} of client "
                            f"0x{p.hClient:x} is not registered")

    # -- external ranges ----------------------------------------------------------------------
    @staticmethod
    def _aligned(base, length, what):
        if base % PAGE_SIZE or length % PAGE_SIZE or length == 0 or base + length > USER_VA_LIMIT:
            raise RmFailure("NV_ERR_INVALID_ADDRESS", f"{what}: 0x{base:x} (+{length:#x}) is not a 4 KiB-aligned "
                            f"range below 0x{USER_VA_LIMIT:x}")

    def _check_free(self, base, length, what):
        self._aligned(base, length, what)
        spans = [(r.base, r.length) for r in self.ranges.values()] + [(b, n) for _, b, n in self.channels.values()]
        for start, size in spans:
            if base < start + size and start < base + length:
                raise RmFailure("NV_ERR_UVM_ADDRESS_IN_USE", f"{what}: 0x{base:x} (+{length:#x}) overlaps the range "
                                f"0x{start:x} (+{size:#x})")

    def cmd_create_external_range(self, p):
        self._check_free(p.base, p.length, "UVM_CREATE_EXTERNAL_RANGE")
        self.ranges[p.base] = ExternalRange(p.base, p.length)

    def _range_holding(self, base, length):
        for r in self.ranges.values():
            if r.base <= base and base + length <= r.base + r.length:
                return r
        return None

    def cmd_map_external_allocation(self, p):
        from drivers.emu.nv.rm_memory import MEMORY
        what = "UVM_MAP_EXTERNAL_ALLOCATION"
        self._aligned(p.base, p.length, what)
        if not 1 <= p.gpuAttributesCount <= NV.UVM_MAX_GPUS:
            raise RmFailure("NV_ERR_INVALID_ARGUMENT", f"{what}: gpuAttributesCount {p.gpuAttributesCount} "
                            f"(1 to {NV.UVM_MAX_GPUS})")
        r = self._range_holding(p.base, p.length)
        if r is None:
            raise RmFailure("NV_ERR_INVALID_ADDRESS", f"{what}: 0x{p.base:x} (+{p.length:#x}) is not inside one "
                            "UVM_CREATE_EXTERNAL_RANGE range")
        memory = self._rm_object(p.rmCtrlFd, p.hClient, p.hMemory, (MEMORY,), what)
        if p.offset % PAGE_SIZE or p.offset + p.length > memory.size:
            raise RmFailure("NV_ERR_INVALID_OFFSET", f"{what}: offset {p.offset:#x} + length {p.length:#x} does not "
                            f"fit {memory.describe()}")
        targets = []
        for i in range(p.gpuAttributesCount):
            attr = p.perGpuAttributes[i]
            if attr.gpuMappingType > NV.UvmGpuMappingTypeReadOnly or attr.gpuCachingType > \
                    NV.UvmGpuCachingTypeForceCached or attr.gpuFormatType or attr.gpuElementBits or \
                    attr.gpuCompressionType:
                raise RmFailure("NV_ERR_INVALID_ARGUMENT", f"{what}: perGpuAttributes[{i}] has a mapping, caching or "
                                "format type UVM does not define")
            gpu = self._gpu(attr.gpuUuid, what)
            if gpu not in self.vaspaces:
                raise RmFailure("NV_ERR_INVALID_DEVICE", f"{what}: GPU {gpu.board.minor} has no VA space registered")
            if memory.location == "vidmem" and memory.gpu is not gpu and frozenset((gpu, memory.gpu)) not in self.peers:
                raise RmFailure("NV_ERR_INVALID_DEVICE", f"{what}: {memory.describe()} is VRAM of GPU "
                                f"{memory.gpu.board.minor}; GPU {gpu.board.minor} reaches it only after "
                                "UVM_ENABLE_PEER_ACCESS")
            targets.append((gpu, attr.gpuMappingType != NV.UvmGpuMappingTypeReadOnly))
        for gpu, writable in targets:
            vas, maps = self.vaspaces[gpu], r.mappings.setdefault(gpu, {})
            for va, (size, _) in list(maps.items()):         # a new mapping replaces what it overlaps
                if va < p.base + p.length and p.base < va + size:
                    vas.unmap(va)
                    del maps[va]
            if vas.vm.overlaps(p.base, p.length):
                raise RmFailure("NV_ERR_UVM_ADDRESS_IN_USE", f"{what}: 0x{p.base:x} (+{p.length:#x}) is mapped in GPU "
                                f"{gpu.board.minor}'s VA space by the RM")
            vas.map(p.base, memory.array(p.offset, p.length), memory, writable)
            maps[p.base] = (p.length, memory)

    def cmd_free(self, p):
        r = self.ranges.pop(p.base, None)
        if r is None:
            raise RmFailure("NV_ERR_INVALID_ADDRESS", f"UVM_FREE: 0x{p.base:x} is not the base of a UVM range")
        self._unmap_range(r)

    def _unmap_range(self, r):
        for gpu, maps in r.mappings.items():
            vas = self.vaspaces.get(gpu)
            for va in maps:
                if vas is not None:
                    vas.unmap(va)
        r.mappings.clear()

    def release_all(self):
        for r in self.ranges.values():
            self._unmap_range(r)
        self.ranges.clear()
        for gpu in list(self.vaspaces):
            self._drop_vaspace(gpu)
        self.gpus.clear()
        self.peers.clear()
        self.channels.clear()

    def release(self):
        with self.machine.lock:
            self.release_all()

    def live(self):
        return {"uvm_ranges": len(self.ranges), "uvm_gpus": len(self.gpus),
                "uvm_mappings": sum(len(m) for r in self.ranges.values() for m in r.mappings.values())}
