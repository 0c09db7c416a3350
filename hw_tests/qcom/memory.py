"""GPU objects: sizes, the shared CPU/GPU address, copies through write-combined and cached
mappings (the cached ones need KGSL's cache maintenance, which copyin/copyout do)."""
import numpy as np

from hw_tests.runner import check
from hw_tests.stages.isa import compare
from hw_tests.units import size

SIZES = ((4096, 1 << 20, 64 << 20), (4096, 1 << 20, 8 << 20))


def memory(ctx, r):
    """Allocate, map and copy GPU objects of several sizes, write-combined and cached"""
    dev = ctx.dev
    sizes = ctx.size(SIZES[0], SIZES[1], r, "largest object")
    rng = np.random.default_rng(1)
    for cached in (False, True):
        kind = "cached" if cached else "write-combined"
        for n in sizes:
            r.step(f"{kind} {size(n)}")
            buf = dev.alloc(n, cached=cached)
            try:
                check(buf.va % 4096 == 0 and buf.va == buf.mapping.address,
                      f"{kind} object {buf.id}: GPU address 0x{buf.va:x}, CPU mapping 0x{buf.mapping.address:x}")
                data = rng.integers(0, 256, n, dtype=np.uint8)
                buf.copyin(data)
                back = np.empty_like(data)
                buf.copyout(back)
                compare(f"{kind} {size(n)} round trip", back, data)
            finally:
                buf.free()
    r.measure("largest_object", sizes[-1], "B")
    r.summary = f"{len(sizes)} sizes up to {size(sizes[-1])}, write-combined and cached, round trips exact"


def register(reg):
    reg.add("memory", memory, depends=["open"])
