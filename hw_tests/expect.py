"""What a stage expects of work that goes wrong on purpose: a wait nobody releases becomes a GPUHang
naming the stuck work, and a read of an unmapped address a GPUFault naming that address."""
import time

from drivers.errors import GPUFault, GPUHang
from hw_tests.runner import check


def expect_hang(dev, r, timeout, stuck):
    """``dev.synchronize(timeout)`` must end in a GPUHang that names the work nobody releases;
    records how long it took as hang_detected_after. ``stuck`` is that work, for the failure."""
    start = time.perf_counter()
    try:
        dev.synchronize(timeout=timeout)
    except GPUHang as e:
        waited = time.perf_counter() - start
        check("nobody releases" in str(e), f"the GPUHang does not name the pending work: {e}")
        return r.measure("hang_detected_after", round(waited, 3), "s")
    raise AssertionError(f"{stuck} completed")


def expect_fault(r, key, va, run, reader, reading):
    """``run()`` must end in a GPUFault naming ``va``; records the address under ``key``. The
    failures say who read it: ``reader`` "the copy read", ``reading`` "a copy from"."""
    try:
        run()
    except GPUFault as e:
        check(e.va == va, f"the fault names VA 0x{e.va:x}; {reader} 0x{va:x}")
        return r.measure(key, f"0x{e.va:x}")
    raise AssertionError(f"{reading} 0x{va:x} completed without a fault")
