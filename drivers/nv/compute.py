"""Compute launches: constant buffer 0, the QMD, and the push-buffer methods that schedule it.

Per kernel a QMD template is built once (program address and prefetch, registers, barriers, shared
memory and its SM carve-out, local memory, the other constant banks, the cache invalidations); a
launch copies it, fills grid, block and constant buffer 0, and writes both into the launch arena
(pinned host memory the GPU reads).  Constant buffer 0 is the driver's part (blockDim at 0x0, gridDim at
0x0C, the shared and local windows at 0x18 / 0x20, the initial stack pointer at 0x28) followed by the
kernel parameters at the cubin's PARAM_CBANK offset (0x160 through Ada, 0x210 on Hopper).

Local memory: each thread's window is 16 MiB, its stack at the top: c[0x0][0x28] = 0xFFFDC0 and
SHADER_LOCAL_MEMORY_HIGH_SIZE covers the frame plus the 0x240 bytes above the stack pointer.  The
backing store (VRAM) holds every resident warp of every TPC; it grows (after the device idles) when
a kernel needs more.
"""
import numpy as np

import nv_ioctl as NV
from nv_ioctl import qmd as Q

from drivers.errors import GPUError
from drivers.nv.gpfifo import SUBCH_COMPUTE, PushBuffer
from drivers.nv.memory import VRAM, round_up

LOCAL_WINDOW_TOP = 1 << 24
STACK_TOP = 0xFFFDC0                      # c[0x0][0x28]: the initial stack pointer (R1)
STACK_RESERVE = LOCAL_WINDOW_TOP - STACK_TOP
CBUF0_DRIVER_BYTES = 0x30
QMD_ALIGN = 256
SHARED_CONFIGS_KIB = {0x806: (8, 16, 32, 64, 100), 0x809: (8, 16, 32, 64, 100),
                      0x900: (8, 16, 32, 64, 100, 132, 164, 196, 228)}
MAX_SHARED_PER_CTA = {0x806: 99 << 10, 0x809: 99 << 10, 0x900: 227 << 10}    # the carve-out less 1 KiB
_PCAS_SCHEDULE = NV.NVC7C0_SEND_SIGNALING_PCAS2_B_PCAS_ACTION.num(
    NV.NVC7C0_SEND_SIGNALING_PCAS2_B_PCAS_ACTION_INVALIDATE_PREFETCH_COPY_SCHEDULE)
_INVALIDATE = (NV.NVC7C0_INVALIDATE_SHADER_CACHES_NO_WFI_INSTRUCTION.num(1)
               | NV.NVC7C0_INVALIDATE_SHADER_CACHES_NO_WFI_GLOBAL_DATA.num(1)
               | NV.NVC7C0_INVALIDATE_SHADER_CACHES_NO_WFI_CONSTANT.num(1))


def smem_config(nbytes, sm_version):
    """The SM shared-memory carve-out (in the QMD's units: KiB / 4 + 1) that holds `nbytes`."""
    for kib in SHARED_CONFIGS_KIB[sm_version]:
        if nbytes <= kib * 1024:
            return kib * 1024 // 4096 + 1
    raise GPUError(f"{nbytes} bytes of shared memory exceed what an SM offers")


def local_bytes_per_thread(frame):
    return round_up(frame + STACK_RESERVE, 16) if frame else 0


def qmd_template(dev, kernel):
    """The launch-independent part of a kernel's QMD."""
    layout = dev.qmd_layout
    q = Q.Qmd(layout)
    v4 = layout.major >= 4
    q.set("QMD_MAJOR_VERSION", layout.major)
    q.set(layout.version_field, layout.minor)
    q.set("API_VISIBLE_CALL_LIMIT", 1)
    q.set("SAMPLER_INDEX", 0)
    q.set("CWD_MEMBAR_TYPE", 1)                                   # L1_SYSMEMBAR
    for cache in ("INVALIDATE_SHADER_DATA_CACHE", "INVALIDATE_INSTRUCTION_CACHE",
                  "INVALIDATE_SHADER_CONSTANT_CACHE", "INVALIDATE_TEXTURE_DATA_CACHE"):
        q.set(cache, 1)
    if v4:
        q.set("QMD_TYPE", "GRID_CTA")
    else:
        q.set("QMD_GROUP_ID", 0x3F)
        q.set("SM_GLOBAL_CACHING_ENABLE", 1)
    q.set_address("PROGRAM_ADDRESS_LOWER", "PROGRAM_ADDRESS_UPPER", kernel.code_va)
    q.set_address("PROGRAM_PREFETCH_ADDR_LOWER_SHIFTED", "PROGRAM_PREFETCH_ADDR_UPPER_SHIFTED",
                  kernel.code_va & ~0xFF, shift=8)
    q.set("PROGRAM_PREFETCH_SIZE", min(0x1FF, max(1, kernel.code_size >> 8)))
    q.set("REGISTER_COUNT" if v4 else "REGISTER_COUNT_V", kernel.registers)
    q.set("BARRIER_COUNT", kernel.barriers)
    q.set("SHADER_LOCAL_MEMORY_HIGH_SIZE", local_bytes_per_thread(kernel.local_bytes))
    q.set("SASS_VERSION", (dev.sm_version >> 8) << 4 | (dev.sm_version & 0xF))
    for bank, (va, size) in kernel.const_banks.items():
        set_cbuf(q, bank, va, size)
    return q


def set_shared(q, dev, nbytes):
    size = round_up(nbytes, 256)
    q.set("SHARED_MEMORY_SIZE", size)
    config = smem_config(size, dev.sm_version)
    q.set("MIN_SM_CONFIG_SHARED_MEM_SIZE", smem_config(0, dev.sm_version))
    q.set("MAX_SM_CONFIG_SHARED_MEM_SIZE", smem_config(SHARED_CONFIGS_KIB[dev.sm_version][-1] * 1024, dev.sm_version))
    q.set("TARGET_SM_CONFIG_SHARED_MEM_SIZE", config)


def set_cbuf(q, bank, va, size):
    v4 = q.layout.major >= 4
    q.set("CONSTANT_BUFFER_VALID", 1, bank)
    if v4:
        if va % 64:
            raise GPUError(f"constant buffer {bank} at 0x{va:x} is not 64-byte aligned (QMD V04 stores VA >> 6)")
        q.set_address("CONSTANT_BUFFER_ADDR_LOWER_SHIFTED6", "CONSTANT_BUFFER_ADDR_UPPER_SHIFTED6", va, bank, shift=6)
    else:
        q.set_address("CONSTANT_BUFFER_ADDR_LOWER", "CONSTANT_BUFFER_ADDR_UPPER", va, bank)
    q.set("CONSTANT_BUFFER_SIZE_SHIFTED4", round_up(size, 16) >> 4, bank)


def set_grid(q, grid, block):
    v4 = q.layout.major >= 4
    for i, name in enumerate(("GRID_WIDTH", "GRID_HEIGHT", "GRID_DEPTH") if v4 else
                             ("CTA_RASTER_WIDTH", "CTA_RASTER_HEIGHT", "CTA_RASTER_DEPTH")):
        q.set(name, grid[i])
    for i in range(3):
        q.set(f"CTA_THREAD_DIMENSION{i}", block[i])


def cbuf0_driver(dev, grid, block):
    """The driver's words at the start of constant buffer 0."""
    words = np.zeros(CBUF0_DRIVER_BYTES // 4, np.uint32)
    words[0:3], words[3:6] = block, grid
    words[6:8] = dev.shared_window & 0xFFFFFFFF, dev.shared_window >> 32
    words[8:10] = dev.local_window & 0xFFFFFFFF, dev.local_window >> 32
    words[10] = STACK_TOP
    return words


def launch_push(dev, qmd_va, start_stamp=None, copy_wait=True):
    """The compute channel's methods for one launch of the QMD at `qmd_va` (after the copy channel's
    last submission unless told otherwise)."""
    pb = PushBuffer()
    c = dev.copy_timeline
    if copy_wait and c.last_submitted:
        pb.acquire(c.address, c.last_submitted)
    if start_stamp is not None:
        pb.release(start_stamp, 0, wfi=True)
    pb.method(SUBCH_COMPUTE, NV.NVC7C0_INVALIDATE_SHADER_CACHES_NO_WFI, _INVALIDATE)
    pb.method(SUBCH_COMPUTE, NV.NVC7C0_SEND_PCAS_A, qmd_va >> 8)
    pb.method(SUBCH_COMPUTE, NV.NVC7C0_SEND_SIGNALING_PCAS2_B, _PCAS_SCHEDULE)
    return pb


def local_memory_bytes_per_tpc(dev, per_thread):
    return round_up(round_up(per_thread * 32, 0x200) * dev.max_warps_per_sm * dev.sms_per_tpc, 0x8000)


def ensure_local_memory(dev, per_thread):
    """Grow the local-memory backing store to hold `per_thread` bytes for every resident thread."""
    if per_thread <= dev.local_per_thread:
        return
    per_tpc = local_memory_bytes_per_tpc(dev, per_thread)
    total = round_up(per_tpc * dev.tpcs_total, 128 << 10)
    dev.synchronize()
    old = dev.local_memory
    dev.local_memory = dev.memory.alloc(total, VRAM)
    if old is not None:
        dev.memory.free(old)
    dev.local_per_thread = per_thread
    va = dev.local_memory.va
    pb = PushBuffer()
    pb.method(SUBCH_COMPUTE, NV.NVC7C0_SET_SHADER_LOCAL_MEMORY_A, va >> 32, va & 0xFFFFFFFF)
    pb.method(SUBCH_COMPUTE, NV.NVC7C0_SET_SHADER_LOCAL_MEMORY_NON_THROTTLED_A, per_tpc >> 32, per_tpc & 0xFFFFFFFF,
              0xFF)
    dev.wait(dev.compute_timeline, dev.compute.submit(pb, "local memory setup"))
