"""Dispatch shapes (one work-item to the largest workgroup, 3D grids, 2^20 workgroups), a shader
memory fault, and kernel timing."""
import numpy as np

from drivers.amd.kernargs import Pointer
from drivers.errors import GPUFault
from drivers.kernel import MAP_ANONYMOUS, MAP_NORESERVE, MAP_PRIVATE, PROT_NONE
from hw_tests.programs import Buffers, run
from hw_tests.runner import check
from hw_tests.stages.isa import compare

MAX_WORKGROUP = 1024
SHAPES = (((1, 1, 1), (1, 1, 1)), ((1, 1, 1), (MAX_WORKGROUP, 1, 1)), ((1, 1, 1), (8, 8, 16)),
          ((3, 2, 2), (4, 4, 2)), ((2, 3, 5), (7, 3, 1)), ((5, 1, 1), (33, 1, 1)), ((2, 2, 2), (16, 4, 4)))
MANY_GROUPS = (1 << 20, 1 << 20)         # hardware, simulator: the grid_mark kernel is 5 instructions


def ids_expected(grid, block):
    gx, gy, gz = grid
    bx, by, bz = block
    items = bx * by * bz
    wg = np.arange(gx * gy * gz, dtype=np.uint32)
    local = np.arange(items, dtype=np.uint32)
    return ((wg[:, None] << 10) | local[None, :]).reshape(-1)


def dispatch_shapes(ctx, r):
    """Dispatch shapes: 1 work-item, the largest workgroup, 3D grids and blocks, 2^20 workgroups"""
    with Buffers(ctx.dev) as b:
        for grid, block in SHAPES:
            r.step(f"grid {grid} x block {block}")
            total = int(np.prod(grid) * np.prod(block))
            out = b.empty(total * 4 + 64, fill=0xFF)
            run(ctx, "ids", out, *block, grid[0], grid[1], grid=grid, block=block)
            got = b.download(out, np.uint32)
            compare(f"work-item ids of grid {grid} x block {block}", got[:total], ids_expected(grid, block))
            check((got[total:] == 0xFFFFFFFF).all(), f"grid {grid} x block {block} wrote past its {total} work-items")
        groups = ctx.size(*MANY_GROUPS, r, "workgroups in the large grid")
        r.step(f"{groups} workgroups of one work-item")
        marks = b.empty(groups + 64, fill=0)
        seconds = run(ctx, "grid_mark", marks, grid=(groups, 1, 1), block=(1, 1, 1))
        got = b.download(marks, np.uint8)
    ran = int(got[:groups].sum())
    check(ran == groups and not got[groups:].any(), f"{groups} workgroups: {ran} wrote their mark "
          f"({int(got[groups:].sum())} marks past the grid)")
    r.measure("many_groups", groups)
    r.measure("many_groups_seconds", round(seconds, 6), "s")
    r.summary = (f"{len(SHAPES)} shapes (1 .. {MAX_WORKGROUP} work-items per group, 3D) exact; "
                 f"{groups} workgroups all ran in {seconds * 1000:.1f} ms of GPU time")


def fault_shader(ctx, r):
    """A kernel load from an unmapped VA is reported with that VA, and the device recovers"""
    dev = ctx.dev
    hole = ctx.kernel.mmap(None, 1 << 21, 0, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE)
    bad_va = hole.address + 0x4560
    fault = None
    try:
        with Buffers(dev) as b:
            out = b.empty(4096, fill=0)
            r.step(f"global_load from unmapped VA 0x{bad_va:x}")
            try:
                run(ctx, "fault_load", out, Pointer(bad_va), grid=(1, 1, 1), block=(32, 1, 1))
            except GPUFault as e:
                fault = e
            check(fault is not None, f"a kernel reading unmapped VA 0x{bad_va:x} finished without a fault")
            r.measure("fault_va", f"0x{fault.va:x}")
            r.measure("fault_reason", fault.reason)
            check(fault.va & ~0xFFF == bad_va & ~0xFFF,
                  f"the fault names VA 0x{fault.va:x}, the kernel read page 0x{bad_va & ~0xFFF:x}")
            r.step("the same kernel on a mapped buffer")
            src = b.upload(np.arange(32, dtype=np.uint32) * 3)
            run(ctx, "fault_load", out, src, grid=(1, 1, 1), block=(32, 1, 1))
            compare("fault_load after recovery", b.download(out, np.uint32, 32), np.arange(32, dtype=np.uint32) * 3)
    finally:
        ctx.kernel.munmap(hole)
    r.summary = f"fault at VA 0x{fault.va:x} ({fault.reason}); the next kernel ran correctly"


def register(reg):
    reg.add("dispatch", dispatch_shapes, depends=["first_dispatch"])
    reg.add("fault_shader", fault_shader, depends=["first_dispatch"])
