"""Dispatch shapes (3D grids and blocks: every thread writes where it is), a kernel the host
releases (and the same kernel never released: GPUHang, preemption, recovery), and command buffers
replayed as one GPFIFO entry."""
import time

import numpy as np

from drivers.errors import GPUHang
from hw_tests.nv.common import kernel
from hw_tests.programs import Buffers
from hw_tests.runner import check
from hw_tests.stages.isa import compare

SHAPES = ((((1, 1, 1), (1, 1, 1)), ((7, 1, 1), (33, 1, 1)), ((3, 5, 2), (8, 4, 2)), ((64, 4, 2), (16, 8, 4))),
          (((1, 1, 1), (1, 1, 1)), ((7, 1, 1), (33, 1, 1)), ((3, 2, 2), (4, 3, 2))))
HANG_TIMEOUT_S = 0.5


def expected_ids(grid, block):
    gx, gy, gz = grid
    bx, by, bz = block
    z, y, x, tz, ty, tx = np.meshgrid(range(gz), range(gy), range(gx), range(bz), range(by), range(bx), indexing="ij")
    cols = [x, y, z, tx, ty, tz, np.full_like(x, gx * gy * gz), np.full_like(x, bx * by * bz)]
    return np.stack([c.reshape(-1) for c in cols], axis=1).astype(np.int32)


def dispatch_shapes(ctx, r):
    """Grids and blocks in three dimensions: every thread writes its block and thread ids"""
    shapes = ctx.size(SHAPES[0], SHAPES[1], r, "shapes")
    for grid, block in shapes:
        r.step(f"grid {grid} block {block}")
        want = expected_ids(grid, block)
        with Buffers(ctx.dev) as b:
            out = b.empty(want.nbytes, fill=0xFF)
            kernel(ctx, "grid_ids")(out, grid=grid, block=block, wait=True)
            compare(f"ids over grid {grid} block {block}", b.download(out, np.int32).reshape(want.shape), want)
    r.summary = f"{len(shapes)} shapes up to grid {shapes[-1][0]} x block {shapes[-1][1]}"


def host_release(ctx, r):
    """A kernel spinning on a flag the CPU sets; never set, it is GPUHang and the device recovers"""
    dev = ctx.dev
    flag = dev.alloc(4096, host=True)
    try:
        words = flag.view(np.int32)
        words[:] = 0
        spin = kernel(ctx, "spin")
        r.step("released by the CPU")
        spin(flag, grid=(2,), block=(64,))
        time.sleep(0.05)
        check(int(words[1]) == 0, "the spinning kernel finished before the flag was set")
        words[0] = 7
        dev.synchronize(timeout=30)
        check(int(words[1]) == 7, f"the kernel acknowledged {int(words[1])}, not the flag 7")
        r.step("never released")
        words[:] = 0
        start = time.perf_counter()
        try:
            spin(flag, grid=(1,), block=(32,), wait=True, timeout=HANG_TIMEOUT_S)
        except GPUHang as e:
            check("spin" in str(e), f"the GPUHang does not name the launch: {e}")
            r.measure("hang_detected_after", round(time.perf_counter() - start, 3), "s")
        else:
            raise AssertionError("a kernel spinning on a flag nobody sets completed")
        r.step("the device after the hang")
        words[0] = 1
        spin(flag, grid=(1,), block=(32,), wait=True, timeout=30)
    finally:
        flag.free()
    r.summary = "a spinning kernel ended when the CPU set its flag; unreleased, it was GPUHang after " \
                f"{r.numbers['hang_detected_after']['value']} s and the channels were recreated"


def command_buffer(ctx, r):
    """Two launches recorded once, replayed three times, then with new arguments"""
    dev = ctx.dev
    n = 1000
    x = np.arange(n, dtype=np.float32)
    saxpy = kernel(ctx, "saxpy")
    with Buffers(dev) as b:
        bx, by = b.upload(x), b.upload(np.zeros(n, np.float32))
        cb = dev.command_buffer()
        cb.add(saxpy, np.float32(2.0), bx, by, n, grid=(-(-n // 128),), block=(128,))
        cb.add(saxpy, np.float32(1.0), bx, by, n, grid=(-(-n // 128),), block=(128,))
        try:
            secs = cb.submit(wait=True)
            cb.submit()
            cb.submit(wait=True)
            compare("3 replays of 2x + 1x", b.download(by, np.float32), x * 9)
            cb.update(1, np.float32(-3.0), bx, by, n)
            cb.submit(wait=True)
            compare("a replay after update", b.download(by, np.float32), x * 8)
        finally:
            cb.free()
    check(secs > 0, f"a timed replay took {secs} s")
    r.measure("replay_seconds", round(secs, 9), "s")
    r.summary = "2 launches replayed 4 times (one GPFIFO entry each), parameters patched in place"


def register(reg):
    reg.add("dispatch_shapes", dispatch_shapes, depends=["isa_grid_ids"])
    reg.add("host_release", host_release, depends=["isa_saxpy", "hang"])
    reg.add("command_buffer", command_buffer, depends=["isa_saxpy"])
