"""Memory in the virtual RM: allocations, CPU mappings, VA spaces and GPU (DMA) mappings.

- NV01_MEMORY_LOCAL_USER is VRAM (counted against the board's heap: NV_ERR_NO_MEMORY past it),
  NV01_MEMORY_SYSTEM system memory; both are shared anonymous host memory, so a CPU mapping and the
  GPU see the same bytes.  NV01_MEMORY_SYSTEM_OS_DESCRIPTOR wraps the caller's own pages (through
  NV_ESC_RM_ALLOC_MEMORY or RM_ALLOC), which must be mapped.
- NV_ESC_RM_MAP_MEMORY attaches an mmap context to the fd the caller names (a /dev/nvidiaN of the
  memory's GPU, registered with NV_ESC_REGISTER_FD, for VRAM and the usermode page; any nvidia fd for
  system memory); mmap() of that fd then maps exactly that range, once.  pLinearAddress is a cookie
  that NV_ESC_RM_UNMAP_MEMORY takes back.
- FERMI_VASPACE_A is a GPU address space (a GpuVM); NV01_MEMORY_VIRTUAL a window of one (the device's
  default VA space when hVASpace is 0), which NV_ESC_RM_MAP_MEMORY_DMA maps memory into, at the
  caller's dmaOffset with DMA_OFFSET_FIXED or at the next free address.  An externally owned VA space
  (IS_EXTERNALLY_OWNED, the one UVM manages) is mapped through UVM instead (uvm.py).

Every refusal is the RM's NV_STATUS with a reason naming the handle, size or address.
"""
import itertools

import nv_ioctl as NV

from drivers.emu.memory import PAGE_SIZE, HostMemory, UserMemory, host_range_mapped
from drivers.emu.nv.classes import DEVICE, SUBDEVICE
from drivers.emu.nv.rm import RmFailure, RmObject
from drivers.emu.vm import GpuVM
from drivers.kernel import PROT_READ, PROT_WRITE

MEMORY, VASPACE, VIRTUAL = "memory", "VA space", "virtual memory"
USERMODE = "usermode"
BIG_PAGE = 64 * 1024
HUGE_PAGE = 2 * 1024 * 1024
GPU_VA_LIMIT = 1 << 49            # Ampere..Hopper GMMU: 49-bit virtual addresses
DEFAULT_VA_BASE = 1 << 32         # where the device's default VA space starts placing mappings
_cookies = itertools.count(0x7F0000000000, 0x10000000)


def round_up(n, align):
    return -(-n // align) * align


class Memory(RmObject):
    """An allocation: `store` (HostMemory or UserMemory) of `size` bytes, in VRAM or system memory."""

    def __init__(self, handle, class_id, parent, gpu, store, size, location):
        super().__init__(handle, class_id, MEMORY, parent, gpu)
        self.store, self.size, self.location = store, size, location
        self.cpu_maps = {}            # cookie -> (offset, length)
        self.dma_maps = []            # [(VaSpace, va)] made by RM_MAP_MEMORY_DMA

    def array(self, offset=0, length=None):
        """The bytes [offset, offset+length) as a numpy uint8 view."""
        length = self.size - offset if length is None else length
        return self.store.array[offset:offset + length]

    def destroy(self):
        for vas, va in self.dma_maps:
            vas.unmap(va)
        self.dma_maps.clear()
        if self.location == "vidmem":
            self.gpu.vram_used -= self.size
        self.gpu.memory_objects -= 1
        self.store.release()

    def describe(self):
        where = "VRAM" if self.location == "vidmem" else "system memory"
        return f"{self.class_name} 0x{self.handle:x} ({self.size:#x} bytes of {where})"


class VaSpace(RmObject):
    """A GPU virtual address space: what the GMMU translates for the channels bound to it."""

    def __init__(self, handle, class_id, parent, gpu, base, size, flags):
        super().__init__(handle, class_id, VASPACE, parent, gpu)
        self.vm = GpuVM()
        self.base, self.size, self.flags = base, size, flags
        self.externally_owned = bool(flags & NV.NV_VASPACE_ALLOCATION_FLAGS_IS_EXTERNALLY_OWNED)
        self.uvm = None               # the UVM va_space that registered it (UVM_REGISTER_GPU_VASPACE)
        self.channels = []

    def check(self, va, size, what):
        if va % PAGE_SIZE or size % PAGE_SIZE or size <= 0:
            raise RmFailure("NV_ERR_INVALID_ADDRESS", f"{what}: 0x{va:x} (+{size:#x}) is not page-aligned")
        if va < self.base or va + size > self.base + self.size:
            raise RmFailure("NV_ERR_INVALID_ADDRESS", f"{what}: 0x{va:x}..0x{va + size:x} is outside the VA space "
                            f"0x{self.base:x}..0x{self.base + self.size:x}")
        if self.vm.overlaps(va, size):
            raise RmFailure("NV_ERR_INVALID_ADDRESS", f"{what}: 0x{va:x} (+{size:#x}) overlaps a mapping")

    def map(self, va, array, owner, writable=True):
        self.vm.map(va, array, writable=writable, executable=True, owner=owner)

    def unmap(self, va):
        self.vm.unmap(va)

    def destroy(self):
        for r in self.vm.ranges():
            self.vm.unmap(r.start)


class VirtualMemory(RmObject):
    """NV01_MEMORY_VIRTUAL: [offset, limit] of a VA space, the hDma of RM_MAP_MEMORY_DMA."""

    def __init__(self, handle, class_id, parent, gpu, vaspace, offset, limit):
        super().__init__(handle, class_id, VIRTUAL, parent, gpu)
        self.vaspace, self.offset, self.limit = vaspace, offset, limit
        self.mappings = {}            # va -> Memory
        self.next_va = max(offset, vaspace.base, DEFAULT_VA_BASE)

    def destroy(self):
        for va, memory in list(self.mappings.items()):
            self.vaspace.unmap(va)
            memory.dma_maps = [m for m in memory.dma_maps if m != (self.vaspace, va)]
        self.mappings.clear()


# -- allocation ---------------------------------------------------------------------------------

def _memory(rm, client, parent, handle, h_class, p):
    gpu = parent.gpu
    local = h_class == NV.NV01_MEMORY_LOCAL_USER
    location = NV.NVOS32_ATTR_LOCATION.val(p.attr)
    if local and location not in (NV.NVOS32_ATTR_LOCATION_VIDMEM, NV.NVOS32_ATTR_LOCATION_ANY):
        raise RmFailure("NV_ERR_INVALID_ARGUMENT", f"NV01_MEMORY_LOCAL_USER with attr LOCATION {location} "
                        "(VRAM is LOCATION_VIDMEM)")
    if not local and location == NV.NVOS32_ATTR_LOCATION_VIDMEM and p.type != NV.NVOS32_TYPE_NOTIFIER:
        raise RmFailure("NV_ERR_INVALID_ARGUMENT", "NV01_MEMORY_SYSTEM with attr LOCATION_VIDMEM")
    if p.size == 0:
        raise RmFailure("NV_ERR_INVALID_ARGUMENT", "size 0")
    if p.flags & NV.NVOS32_ALLOC_FLAGS_ALIGNMENT_FORCE and (p.alignment & (p.alignment - 1)):
        raise RmFailure("NV_ERR_INVALID_ARGUMENT", f"alignment {p.alignment:#x} is not a power of two")
    page = {NV.NVOS32_ATTR_PAGE_SIZE_BIG: BIG_PAGE, NV.NVOS32_ATTR_PAGE_SIZE_HUGE: HUGE_PAGE}.get(
        NV.NVOS32_ATTR_PAGE_SIZE.val(p.attr), PAGE_SIZE)
    if local and NV.NVOS32_ATTR2_PAGE_SIZE_HUGE.val(p.attr2) and NV.NVOS32_ATTR_PAGE_SIZE.val(p.attr) == \
            NV.NVOS32_ATTR_PAGE_SIZE_HUGE:
        page = HUGE_PAGE
    size = round_up(p.size, max(page, p.alignment if p.flags & NV.NVOS32_ALLOC_FLAGS_ALIGNMENT_FORCE else 0))
    if local:
        heap = gpu.card.vram_bytes - gpu.card.reserved_bytes
        if gpu.vram_used + size > heap:
            raise RmFailure("NV_ERR_NO_MEMORY", f"{size:#x} bytes of VRAM asked for, "
                            f"{heap - gpu.vram_used:#x} of {heap:#x} free on {gpu.card.model}")
    store = HostMemory(size, f"{NV.class_name(h_class)} 0x{handle:x}")
    if local:
        gpu.vram_used += size
    gpu.memory_objects += 1
    p.size, p.limit = size, size - 1
    p.offset = gpu.fake_physical(size)
    return Memory(handle, h_class, parent, gpu, store, size, "vidmem" if local else "sysmem")


def os_descriptor(rm, parent, handle, h_class, address, limit, what):
    """NV01_MEMORY_SYSTEM_OS_DESCRIPTOR over the caller's pages [address, address + limit]."""
    size = limit + 1
    if address % PAGE_SIZE or size % PAGE_SIZE or size <= 0:
        raise RmFailure("NV_ERR_INVALID_ARGUMENT", f"{what}: 0x{address:x} (+{size:#x}) is not page-aligned")
    if not host_range_mapped(address, size):
        raise RmFailure("NV_ERR_INVALID_ADDRESS", f"{what}: 0x{address:x} (+{size:#x}) is not mapped memory")
    parent.gpu.memory_objects += 1
    return Memory(handle, h_class, parent, parent.gpu, UserMemory(address, size), size, "sysmem")


def _os_descriptor(rm, client, parent, handle, h_class, p):
    return os_descriptor(rm, parent, handle, h_class, p.descriptor, p.limit, "NV_OS_DESC_MEMORY_ALLOCATION_PARAMS")


def _vaspace(rm, client, parent, handle, h_class, p):
    if p.index != NV.NV_VASPACE_ALLOCATION_INDEX_GPU_NEW:
        raise RmFailure("NV_ERR_INVALID_ARGUMENT", f"VA space index {p.index} (only GPU_NEW, 0)")
    if p.bigPageSize not in (0, NV.NV_VASPACE_BIG_PAGE_SIZE_64K, NV.NV_VASPACE_BIG_PAGE_SIZE_128K):
        raise RmFailure("NV_ERR_INVALID_ARGUMENT", f"bigPageSize {p.bigPageSize:#x} (64 KiB or 128 KiB)")
    base = p.vaBase or PAGE_SIZE
    size = p.vaSize or GPU_VA_LIMIT - base
    if base % PAGE_SIZE or base + size > GPU_VA_LIMIT:
        raise RmFailure("NV_ERR_INVALID_ARGUMENT", f"vaBase 0x{base:x} + vaSize 0x{size:x} is not a page-aligned "
                        f"range below the 49-bit limit 0x{GPU_VA_LIMIT:x}")
    p.vaSize = size
    return VaSpace(handle, h_class, parent, parent.gpu, base, size, p.flags)


def default_vaspace(device):
    """The device's own VA space (what NV01_MEMORY_VIRTUAL with hVASpace 0 windows)."""
    vas = getattr(device, "default_vaspace", None)
    if vas is None:
        vas = device.default_vaspace = VaSpace(0, NV.FERMI_VASPACE_A, device, device.gpu, PAGE_SIZE,
                                               GPU_VA_LIMIT - PAGE_SIZE, 0)
    return vas


def _virtual(rm, client, parent, handle, h_class, p):
    if p.hVASpace:
        vas = client.objects.get(p.hVASpace)
        if vas is None or vas.kind != VASPACE:
            raise RmFailure("NV_ERR_INVALID_OBJECT_HANDLE", f"hVASpace 0x{p.hVASpace:x} is not a FERMI_VASPACE_A")
        if vas.gpu is not parent.gpu:
            raise RmFailure("NV_ERR_INVALID_ARGUMENT", f"hVASpace 0x{p.hVASpace:x} belongs to another GPU")
    else:
        vas = default_vaspace(parent if parent.kind == DEVICE else parent.parent)
    limit = p.limit or vas.base + vas.size - 1
    if p.offset > limit or limit >= vas.base + vas.size:
        raise RmFailure("NV_ERR_INVALID_LIMIT", f"offset 0x{p.offset:x} / limit 0x{limit:x} outside the VA space")
    p.limit = limit
    return VirtualMemory(handle, h_class, parent, parent.gpu, vas, p.offset, limit)


CONSTRUCTORS = {
    NV.NV01_MEMORY_LOCAL_USER: _memory,
    NV.NV01_MEMORY_SYSTEM: _memory,
    NV.NV01_MEMORY_SYSTEM_OS_DESCRIPTOR: _os_descriptor,
    NV.FERMI_VASPACE_A: _vaspace,
    NV.NV01_MEMORY_VIRTUAL: _virtual,
}


# -- escapes --------------------------------------------------------------------------------------

def alloc_memory(rm, p, owner_file):
    """NV_ESC_RM_ALLOC_MEMORY (NVOS02): only OS descriptors, under a device, LOCATION_PCI."""
    what = f"NV_ESC_RM_ALLOC_MEMORY of {NV.class_name(p.hClass)}"
    client = rm._client(p.hRoot, "NV_ERR_INVALID_CLIENT")
    if p.hClass != NV.NV01_MEMORY_SYSTEM_OS_DESCRIPTOR:
        raise RmFailure("NV_ERR_INVALID_CLASS", f"{what}: only NV01_MEMORY_SYSTEM_OS_DESCRIPTOR is allocated here")
    parent = client.objects.get(p.hObjectParent)
    if parent is None or parent.kind != DEVICE:
        raise RmFailure("NV_ERR_INVALID_OBJECT_PARENT", f"{what}: parent 0x{p.hObjectParent:x} is not a device")
    if owner_file.gpu is not parent.gpu:
        raise RmFailure("NV_ERR_INVALID_ARGUMENT", f"{what}: sent to /dev/nvidia{owner_file.gpu.board.minor}, "
                        f"the device is GPU {parent.gpu.board.minor}")
    if NV.NVOS02_FLAGS_LOCATION.val(p.flags) != NV.NVOS02_FLAGS_LOCATION_PCI:
        raise RmFailure("NV_ERR_INVALID_FLAGS", f"{what}: flags LOCATION must be PCI")
    handle = p.hObjectNew or client.new_handle()
    if handle in client.objects:
        raise RmFailure("NV_ERR_INSERT_DUPLICATE_NAME", f"{what}: handle 0x{handle:x} is in use")
    obj = os_descriptor(rm, parent, handle, p.hClass, p.pMemory, p.limit, what)
    client.objects[handle] = obj
    parent.children.append(obj)
    p.hObjectNew = handle


def _mappable(rm, p, what):
    obj = rm.lookup(p.hClient, p.hMemory, (MEMORY, USERMODE), what)
    dev = rm.lookup(p.hClient, p.hDevice, (DEVICE, SUBDEVICE), what)
    if dev.gpu is not obj.gpu:
        raise RmFailure("NV_ERR_INVALID_ARGUMENT", f"{what}: hDevice 0x{p.hDevice:x} is another GPU than "
                        f"the memory's")
    return obj


def map_memory(rm, p, fd):
    """NV_ESC_RM_MAP_MEMORY: give `fd` an mmap context for [offset, offset + length) of hMemory."""
    what = "NV_ESC_RM_MAP_MEMORY"
    obj = _mappable(rm, p, what)
    from drivers.emu.nv.devices import GpuFile, NvFile
    try:
        target = rm.machine.file(fd)
    except OSError:
        target = None
    if not isinstance(target, NvFile):
        raise RmFailure("NV_ERR_INVALID_ARGUMENT", f"{what}: fd {fd} is not an open nvidia device file")
    size = obj.size if obj.kind == MEMORY else NV.NVC361_NV_USERMODE__SIZE
    if obj.kind == USERMODE or obj.location == "vidmem":
        if not isinstance(target, GpuFile) or target.gpu is not obj.gpu:
            raise RmFailure("NV_ERR_INVALID_ARGUMENT", f"{what}: {obj.describe()} is mapped through a "
                            f"/dev/nvidia{obj.gpu.board.minor} fd, fd {fd} is not one")
        if target.ctl is None:
            raise RmFailure("NV_ERR_INVALID_ARGUMENT", f"{what}: fd {fd} was not registered with NV_ESC_REGISTER_FD")
    if obj.kind == MEMORY and isinstance(obj.store, UserMemory):
        raise RmFailure("NV_ERR_NOT_SUPPORTED", f"{what}: {obj.describe()} is the caller's own memory already")
    if p.length == 0 or p.offset % PAGE_SIZE or p.offset + p.length > size:
        raise RmFailure("NV_ERR_INVALID_LIMIT", f"{what}: offset {p.offset:#x} + length {p.length:#x} does not fit "
                        f"{obj.describe()} ({size:#x} bytes, page-aligned offset)")
    if target.mmap_context is not None:
        raise RmFailure("NV_ERR_STATE_IN_USE", f"{what}: fd {fd} already holds an mmap context that was not mapped")
    access = NV.NVOS33_FLAGS_ACCESS.val(p.flags)
    prot = PROT_READ if access == NV.NVOS33_FLAGS_ACCESS_READ_ONLY else PROT_READ | PROT_WRITE
    cookie = next(_cookies)
    target.mmap_context = (obj, p.offset, round_up(p.length, PAGE_SIZE), prot, cookie)
    if obj.kind == MEMORY:
        obj.cpu_maps[cookie] = (p.offset, p.length)
    p.pLinearAddress = cookie


def unmap_memory(rm, p):
    what = "NV_ESC_RM_UNMAP_MEMORY"
    obj = _mappable(rm, p, what)
    if obj.kind == MEMORY and obj.cpu_maps.pop(p.pLinearAddress, None) is None:
        raise RmFailure("NV_ERR_INVALID_ARGUMENT", f"{what}: 0x{p.pLinearAddress:x} is not a mapping of "
                        f"{obj.describe()}")


def map_memory_dma(rm, p):
    """NV_ESC_RM_MAP_MEMORY_DMA: map hMemory into hDma's VA space."""
    what = "NV_ESC_RM_MAP_MEMORY_DMA"
    memory = rm.lookup(p.hClient, p.hMemory, (MEMORY,), what)
    virt = rm.lookup(p.hClient, p.hDma, (VIRTUAL,), what)
    if memory.location == "vidmem" and memory.gpu is not virt.gpu:
        raise RmFailure("NV_ERR_INVALID_DEVICE", f"{what}: {memory.describe()} is VRAM of another GPU")
    length = p.length or memory.size - p.offset
    if p.offset % PAGE_SIZE or length % PAGE_SIZE or p.offset + length > memory.size or length <= 0:
        raise RmFailure("NV_ERR_INVALID_LIMIT", f"{what}: offset {p.offset:#x} + length {length:#x} does not fit "
                        f"{memory.describe()} (page-aligned)")
    vas = virt.vaspace
    if NV.NVOS46_FLAGS_DMA_OFFSET_FIXED.val(p.flags):
        va = p.dmaOffset
    else:
        va = round_up(virt.next_va, BIG_PAGE)
        while vas.vm.overlaps(va, length):
            va = round_up(va + length, BIG_PAGE)
        virt.next_va = va + length
    if va < virt.offset or va + length - 1 > virt.limit:
        raise RmFailure("NV_ERR_INVALID_OFFSET", f"{what}: 0x{va:x} (+{length:#x}) is outside hDma's window "
                        f"0x{virt.offset:x}..0x{virt.limit:x}")
    vas.check(va, length, what)
    writable = NV.NVOS46_FLAGS_ACCESS.val(p.flags) != NV.NVOS46_FLAGS_ACCESS_READ_ONLY
    vas.map(va, memory.array(p.offset, length), memory, writable)
    virt.mappings[va] = memory
    memory.dma_maps.append((vas, va))
    p.dmaOffset = va


def unmap_memory_dma(rm, p):
    what = "NV_ESC_RM_UNMAP_MEMORY_DMA"
    memory = rm.lookup(p.hClient, p.hMemory, (MEMORY,), what)
    virt = rm.lookup(p.hClient, p.hDma, (VIRTUAL,), what)
    if virt.mappings.get(p.dmaOffset) is not memory:
        raise RmFailure("NV_ERR_INVALID_ARGUMENT", f"{what}: {memory.describe()} is not mapped at 0x{p.dmaOffset:x}")
    del virt.mappings[p.dmaOffset]
    virt.vaspace.unmap(p.dmaOffset)
    memory.dma_maps.remove((virt.vaspace, p.dmaOffset))
