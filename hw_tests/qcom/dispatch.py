"""Dispatch shapes (3D grids and workgroups: every work-item writes where it is) and command
buffers replayed with one GPU_COMMAND."""
import numpy as np

from hw_tests.programs import Buffers
from hw_tests.qcom.common import WAVES, program
from hw_tests.runner import check
from hw_tests.stages.isa import compare

SHAPES = (((1, 1, 1), (7, 1, 1), (3, 5, 2), (16, 8, 4)), ((1, 1, 1), (7, 1, 1), (3, 2, 2)))
LOCAL = (4, 4, 2)


def expected_ids(grid):
    gx, gy, gz = grid
    lx, ly, lz = LOCAL
    out = np.zeros(gx * gy * gz * lx * ly * lz, np.uint32)
    for z in range(gz):
        for y in range(gy):
            for x in range(gx):
                base = ((z * gy + y) * gx + x) * 32
                for k in range(lz):
                    for j in range(ly):
                        for i in range(lx):
                            out[base + (k * 4 + j) * 4 + i] = x | y << 6 | z << 12 | i << 18 | j << 22 | k << 26
    return out


def dispatch_shapes(ctx, r):
    """3D grids of 4x4x2 workgroups: every work-item writes its workgroup and local ids"""
    shapes = ctx.size(SHAPES[0], SHAPES[1], r, "grids")
    for wave in WAVES:
        for grid in shapes:
            r.step(f"wave{wave} grid {grid}")
            want = expected_ids(grid)
            with Buffers(ctx.dev) as b:
                out = b.empty(want.nbytes, fill=0xFF)
                program(ctx, "ids", wave)(out, grid=grid, wait=True)
                compare(f"ids over grid {grid} (wave{wave})", b.download(out, np.uint32), want)
    r.summary = f"{len(shapes)} grids up to {shapes[-1]} workgroups of {LOCAL}, wave64 and wave128"


def command_buffer(ctx, r):
    """Two launches recorded once, replayed three times, then with new arguments"""
    dev = ctx.dev
    n = 256
    x = np.arange(n, dtype=np.float32)
    with Buffers(dev) as b:
        bx, by, bz = b.upload(x), b.empty(4 * n), b.empty(4 * n)
        cb = dev.command_buffer()
        cb.add(program(ctx, "scale"), bx, by, 2.0, grid=(n // 64,))
        cb.add(program(ctx, "vadd"), bx, by, bz, grid=(n // 64,))
        try:
            secs = cb.submit(wait=True)
            cb.submit()
            cb.submit(wait=True)
            compare("replayed scale + vadd", b.download(bz, np.float32), x * 3 + np.float32(0.25))
            cb.update(0, bx, by, 5.0)
            cb.submit(wait=True)
            compare("replay after update", b.download(bz, np.float32), x * 6 + np.float32(0.25))
        finally:
            cb.free()
    check(secs > 0, f"a timed replay took {secs} s")
    r.measure("replay_seconds", round(secs, 9), "s")
    r.summary = "2 launches replayed 4 times (one GPU_COMMAND each), arguments patched in place"


def register(reg):
    reg.add("dispatch_shapes", dispatch_shapes, depends=["isa_vadd"])
    reg.add("command_buffer", command_buffer, depends=["isa_vadd", "isa_scale"])
