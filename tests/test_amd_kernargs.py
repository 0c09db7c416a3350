"""Kernarg packing against the metadata of clang-19 code objects (explicit + v5 hidden args),
and every mismatch error, plus the CWSR/EOP size rules of libhsakmt."""
import os
import struct

import numpy as np
import pytest

from assembler.amdgpu.elf_reader import load_code_object
from drivers.amd.kernargs import KernargError, KernargLayout, Pointer
from drivers.amd.queues import cwsr_sizes
from drivers.amd.topology import read_topology
from drivers.emu import make_kernel

HERE = os.path.dirname(__file__)


def layout_of(name):
    with open(os.path.join(HERE, "clang_kernels", f"{name}.hsaco"), "rb") as f:
        co = load_code_object(f.read())
    info = co.kernels[name]
    return KernargLayout.from_metadata(name, info.metadata, info.descriptor.kernarg_size)


class Buf:
    def __init__(self, va):
        self.va = va


def test_matmul_explicit_and_hidden_args():
    layout = layout_of("matmul_tiled")          # (float* a, float* b, float* c, uint, uint, uint, float)
    assert [a.kind for a in layout.args] == ["pointer"] * 3 + ["int"] * 3 + ["float"]
    out = bytearray(layout.size)
    layout.pack_into(out, 0, [Buf(0x1000), Buf(0x2000), Pointer(0x3000), 16, np.uint32(32), 48, 0.5],
                     grid=(4, 2, 1), block=(16, 8, 1), queue_ptr=0xABC)
    assert struct.unpack_from("<QQQIIIf", out, 0) == (0x1000, 0x2000, 0x3000, 16, 32, 48, 0.5)
    assert struct.unpack_from("<III", out, 40) == (4, 2, 1)                  # hidden_block_count_x/y/z
    assert struct.unpack_from("<HHH", out, 52) == (16, 8, 1)                 # hidden_group_size_x/y/z
    assert struct.unpack_from("<HHH", out, 58) == (0, 0, 0)                  # remainders: whole groups
    dims = next(off for off, size, what in layout.hidden if what == ("dims", 0))
    assert struct.unpack_from("<H", out, dims)[0] == 2


def test_hidden_grid_dims_and_offsets_from_metadata():
    layout = layout_of("hidden_args")
    out = bytearray(b"\xff" * layout.size)
    out[:] = bytes(layout.size)
    layout.pack_into(out, 0, [Buf(0x5000)], grid=(2, 3, 4), block=(8, 1, 1), queue_ptr=0x7777_0000)
    assert struct.unpack_from("<H", out, 72)[0] == 3                        # hidden_grid_dims
    assert struct.unpack_from("<III", out, 8) == (2, 3, 4)
    assert struct.unpack_from("<QQQ", out, 48) == (0, 0, 0)                 # global offsets


def test_hidden_queue_ptr():
    from assembler.amdgpu.metadata import KernelArg, KernelMetadata
    meta = KernelMetadata("k", "k.kd", [KernelArg(0, 8, "global_buffer"), KernelArg(8, 8, "hidden_queue_ptr")],
                          16, 8, 0, 0, 32, 8, 8, 256)
    layout = KernargLayout.from_metadata("k", meta)
    out = bytearray(layout.size)
    layout.pack_into(out, 0, [Buf(0x5000)], (1, 1, 1), (1, 1, 1), queue_ptr=0x7777_0000)
    assert struct.unpack_from("<QQ", out, 0) == (0x5000, 0x7777_0000)


@pytest.mark.parametrize("args, message", [
    ([Buf(1), Buf(2)], r"takes 7 arguments, 2 given"),
    ([Buf(1), Buf(2), Buf(3), 1.5, 2, 3, 1.0], r"argument 3 .*must be an integer"),
    ([Buf(1), Buf(2), Buf(3), 1, 2, 3, Buf(4)], r"argument 6 .*must be a 4-byte float value, got Buf"),
    ([Buf(1), 7, Buf(3), 1, 2, 3, 1.0], r"argument 1 .*must be a buffer"),
    ([Buf(1), Buf(2), Buf(3), 1 << 32, 2, 3, 1.0], r"argument 3 .*does not fit in 32 bits"),
    ([Buf(1), Buf(2), Buf(3), np.float32(1), 2, 3, 1.0], r"argument 3 .*must be a 4-byte int"),
    ([Buf(1), Buf(2), Buf(3), 1, 2, 3, "x"], r"argument 6 .*must be a float"),
])
def test_argument_mismatches_are_named(args, message):
    layout = layout_of("matmul_tiled")
    with pytest.raises(KernargError, match=message):
        layout.pack_into(bytearray(layout.size), 0, args, (1, 1, 1), (1, 1, 1))


def test_freed_buffer_is_rejected():
    layout = layout_of("grid3d")
    b = Buf(0x1000)
    b.freed = True
    with pytest.raises(KernargError, match="freed buffer"):
        layout.pack_into(bytearray(layout.size), 0, [b, Buf(2)], (1, 1, 1), (1, 1, 1))


def test_ints_widen_to_float_and_negative_ints_wrap():
    layout = layout_of("matmul_tiled")
    out = bytearray(layout.size)
    layout.pack_into(out, 0, [Buf(1), Buf(2), Buf(3), -1, 0, 0, 3], (1, 1, 1), (1, 1, 1))
    assert struct.unpack_from("<If", out, 24 + 0)[0] == 0xFFFFFFFF
    assert struct.unpack_from("<f", out, 36)[0] == 3.0


def test_sequential_layout_without_metadata():
    layout = KernargLayout.sequential("k", [Buf(0x10), 3, 2.5, np.float64(1.0), np.int16(-2)])
    assert [(a.offset, a.size, a.kind) for a in layout.args] == \
        [(0, 8, "pointer"), (8, 4, "int"), (12, 4, "float"), (16, 8, "float"), (24, 2, "int")]
    out = bytearray(layout.size)
    layout.pack_into(out, 0, [Buf(0x10), 3, 2.5, np.float64(1.0), np.int16(-2)], (1, 1, 1), (1, 1, 1))
    assert struct.unpack_from("<QIfdh", out, 0) == (0x10, 3, 2.5, 1.0, -2)
    with pytest.raises(KernargError, match="argument 0 is a str"):
        KernargLayout.sequential("k", ["no"])


def test_cwsr_sizes_for_the_7900xtx():
    node = read_topology(make_kernel("gfx1100")).gpus[0]
    s = cwsr_sizes(node)
    # 96 CUs, 32 waves each, 12 bytes per wave + 40-byte header + 8, page aligned
    assert s.ctl_stack_size == 40960
    # amd.md 1.6: wg_data = 96 x 0x75000 = 46,006,272 bytes
    assert s.ctx_save_restore_size == 40960 + 46006272
    assert s.debug_memory_size == 96 * 32 * 32
    assert s.total == s.ctx_save_restore_size + s.debug_memory_size


def test_cwsr_sizes_multi_xcc_and_gfx10_clamp():
    from drivers.amd.topology import Node
    mi300 = Node(1, 1, "", {"gfx_target_version": 90402, "simd_count": 1216, "simd_per_cu": 4, "num_xcc": 8})
    s = cwsr_sizes(mi300)
    cu = 1216 // 4 // 8
    assert s.ctx_save_restore_size == s.ctl_stack_size + -(-cu * (0x80000 + 0x15000) // 4096) * 4096
    assert s.total == (s.ctx_save_restore_size + s.debug_memory_size) * 8
    navi21 = Node(1, 1, "", {"gfx_target_version": 100300, "simd_count": 160, "simd_per_cu": 2, "num_xcc": 1})
    assert cwsr_sizes(navi21).ctl_stack_size <= 0x7000
