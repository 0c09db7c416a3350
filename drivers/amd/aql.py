"""HSA AQL packets (64 bytes each) and the amd_queue_t block an AQL queue's CP reads.

Layouts from the HSA runtime headers (hsa.h, amd_hsa_queue.h, amd_hsa_signal.h). A packet is
built as 16 little-endian dwords; the first dword (header + setup) must reach the ring last,
because the CP treats a valid header as "this packet is ready" — :func:`publish` does that.
"""
import struct

import numpy as np

PACKET_BYTES = 64

# header bits
PACKET_TYPE_VENDOR_SPECIFIC, PACKET_TYPE_INVALID, PACKET_TYPE_KERNEL_DISPATCH = 0, 1, 2
PACKET_TYPE_BARRIER_AND = 3
HEADER_BARRIER = 1 << 8
FENCE_SCOPE_SYSTEM = 2
ACQUIRE_SHIFT, RELEASE_SHIFT = 9, 11
SYSTEM_FENCES = (FENCE_SCOPE_SYSTEM << ACQUIRE_SHIFT) | (FENCE_SCOPE_SYSTEM << RELEASE_SHIFT)
DISPATCH_HEADER = PACKET_TYPE_KERNEL_DISPATCH | HEADER_BARRIER | SYSTEM_FENCES     # 0x1502
SETUP_DIMENSIONS_SHIFT = 0

# AMD vendor packet carrying a PM4 INDIRECT_BUFFER (ROCr's "PM4 IB" packet)
AMD_AQL_FORMAT_PM4_IB = 1
PM4_IB_DW_CNT_REMAIN = 10

INVALID_PACKET_DWORD0 = PACKET_TYPE_INVALID

# amd_queue_t (256 bytes)
AMD_QUEUE_BYTES = 256
AMD_QUEUE_OFFSETS = {
    "hsa_queue_type": 0, "features": 4, "base_address": 8, "doorbell_signal": 16, "size": 24,
    "id": 32, "caps": 40, "write_dispatch_id": 56, "group_segment_aperture_base_hi": 64,
    "private_segment_aperture_base_hi": 68, "max_cu_id": 72, "max_wave_id": 76,
    "read_dispatch_id": 128, "read_dispatch_id_field_base_byte_offset": 136,
    "compute_tmpring_size": 140, "scratch_resource_descriptor": 144,
    "scratch_backing_memory_location": 160, "scratch_backing_memory_byte_size": 168,
    "scratch_wave64_lane_byte_size": 176, "queue_properties": 180,
}
AMD_QUEUE_PROPERTIES_IS_PTR64 = 1 << 1
AMD_QUEUE_PROPERTIES_ENABLE_PROFILING = 1 << 3
HSA_QUEUE_TYPE_SINGLE = 1


def kernel_dispatch(kernel_object, kernarg_address, grid, block, group_segment_size=0,
                    private_segment_size=0, completion_signal=0, header=DISPATCH_HEADER):
    """hsa_kernel_dispatch_packet_t as 16 dwords. ``grid`` counts workgroups (as the runtime's
    API does); the packet wants work-items, so it is multiplied by ``block`` here."""
    if kernel_object % 64:
        raise ValueError(f"kernel_object 0x{kernel_object:x} (the kernel descriptor) must be 64-byte aligned")
    if kernarg_address % 16:
        raise ValueError(f"kernarg_address 0x{kernarg_address:x} must be 16-byte aligned")
    dims = 3 if grid[2] > 1 or block[2] > 1 else 2 if grid[1] > 1 or block[1] > 1 else 1
    items = [g * b for g, b in zip(grid, block)]
    if any(x >= 1 << 32 for x in items):
        raise ValueError(f"grid of {items} work-items does not fit the packet's 32-bit grid_size fields")
    raw = DISPATCH_PACKET.pack(header, dims << SETUP_DIMENSIONS_SHIFT, block[0], block[1], block[2], 0, *items,
                               private_segment_size, group_segment_size, kernel_object, kernarg_address, 0,
                               completion_signal)
    return np.frombuffer(raw, np.uint32).copy()


# hsa_kernel_dispatch_packet_t: header, setup, workgroup_size_x/y/z, reserved0, grid_size_x/y/z,
# private_segment_size, group_segment_size, kernel_object, kernarg_address, reserved2, completion_signal
DISPATCH_PACKET = struct.Struct("<HHHHHHIIIIIQQQQ")


def pack_kernel_dispatch(out, kernel_object, kernarg_address, dims, bx, by, bz, gx_items, gy_items, gz_items,
                         private_segment_size, group_segment_size, header=DISPATCH_HEADER, offset=0):
    """Write a dispatch packet into ``out`` (64 writable bytes at ``offset``) without building
    an array: the per-launch path of :func:`kernel_dispatch` (same checks)."""
    if kernel_object % 64 or kernarg_address % 16:
        kernel_dispatch(kernel_object, kernarg_address, (1, 1, 1), (1, 1, 1))      # raises, naming the field
    if gx_items >= 1 << 32 or gy_items >= 1 << 32 or gz_items >= 1 << 32:
        raise ValueError(f"grid of {[gx_items, gy_items, gz_items]} work-items does not fit the packet's 32-bit "
                         "grid_size fields")
    DISPATCH_PACKET.pack_into(out, offset, header, dims << SETUP_DIMENSIONS_SHIFT, bx, by, bz, 0, gx_items,
                              gy_items, gz_items, private_segment_size, group_segment_size, kernel_object,
                              kernarg_address, 0, 0)


def pm4_indirect(ib_address, ib_dwords, completion_signal=0, header=HEADER_BARRIER | SYSTEM_FENCES):
    """AMD vendor-specific packet that runs a PM4 indirect buffer from the AQL queue."""
    from drivers.amd import pm4
    p = np.zeros(16, np.uint32)
    p[0] = (header | PACKET_TYPE_VENDOR_SPECIFIC) | (AMD_AQL_FORMAT_PM4_IB << 16)
    p[1:5] = pm4.indirect_buffer(ib_address, ib_dwords)
    p[5] = PM4_IB_DW_CNT_REMAIN
    p[14:16] = _split(completion_signal)
    return p


def _split(x):
    return [x & 0xFFFFFFFF, (x >> 32) & 0xFFFFFFFF]


def publish(ring_dwords, slot, packet):
    """Write ``packet`` into packet slot ``slot`` of a ring viewed as uint32: body first, then
    the header dword, so the CP never sees a valid header over a half-written body."""
    base = slot * 16
    ring_dwords[base + 1:base + 16] = packet[1:]
    ring_dwords[base] = packet[0]


def fill_amd_queue(view, ring_address, ring_packets, queue_id, max_cu_id, max_wave_id,
                   tmpring_size=0, scratch_address=0, scratch_bytes=0, scratch_wave64_lane_bytes=0,
                   scratch_srd=(0, 0, 0, 0)):
    """Initialise an amd_queue_t in ``view`` (a uint8 numpy view of at least 256 bytes)."""
    view[:AMD_QUEUE_BYTES] = 0
    u32 = view[:AMD_QUEUE_BYTES].view(np.uint32)
    u64 = view[:AMD_QUEUE_BYTES].view(np.uint64)
    o = AMD_QUEUE_OFFSETS
    u32[o["hsa_queue_type"] // 4] = HSA_QUEUE_TYPE_SINGLE
    u64[o["base_address"] // 8] = ring_address
    u32[o["size"] // 4] = ring_packets
    u64[o["id"] // 8] = queue_id
    u32[o["max_cu_id"] // 4] = max_cu_id
    u32[o["max_wave_id"] // 4] = max_wave_id
    u32[o["read_dispatch_id_field_base_byte_offset"] // 4] = o["read_dispatch_id"]
    u32[o["queue_properties"] // 4] = AMD_QUEUE_PROPERTIES_IS_PTR64 | AMD_QUEUE_PROPERTIES_ENABLE_PROFILING
    set_scratch(view, tmpring_size, scratch_address, scratch_bytes, scratch_wave64_lane_bytes, scratch_srd)


def set_scratch(view, tmpring_size, scratch_address, scratch_bytes, scratch_wave64_lane_bytes, scratch_srd):
    """The scratch fields of amd_queue_t the CP reads for dispatches that need private memory."""
    u32 = view[:AMD_QUEUE_BYTES].view(np.uint32)
    u64 = view[:AMD_QUEUE_BYTES].view(np.uint64)
    o = AMD_QUEUE_OFFSETS
    u32[o["compute_tmpring_size"] // 4] = tmpring_size
    u32[o["scratch_resource_descriptor"] // 4:o["scratch_resource_descriptor"] // 4 + 4] = scratch_srd
    u64[o["scratch_backing_memory_location"] // 8] = scratch_address
    u64[o["scratch_backing_memory_byte_size"] // 8] = scratch_bytes
    u32[o["scratch_wave64_lane_byte_size"] // 4] = scratch_wave64_lane_bytes
