"""Host-side cost of launching an empty kernel: first launch vs replay, against the floor.

    python scripts/bench_launch.py --emulate gfx1100 [--aql] [-n 2000]

Three numbers, each the host time per submission averaged over n (GPU time is not measured):

* floor     write one packet to the compute ring (PM4: a NOP as long as a replay's ring part;
            AQL: a BARRIER_AND without dependencies), publish the write pointer and ring the
            doorbell: the least any submission costs.
* first     the first launch of a kernel just loaded (its dispatch template is built then):
            the mean over 64 freshly loaded programs (per round).
* launch    prg["empty"](): kernarg packing, register programming, signal, doorbell.
* replayed  a recorded command buffer resubmitted: one INDIRECT_BUFFER + the signal.

On the virtual GPU the doorbell wakes the command-processor thread, which then runs the packets
while the caller goes on; the two threads share the interpreter, so the raw numbers include part
of the emulator's work. The time spent inside the doorbell store is measured and reported
separately: "driver" = total - doorbell. ``--no-gpu`` takes the GPU side out altogether: after a
warm-up the doorbell no longer reaches the command processor and every submission counts as
complete at once, so the numbers are the host cost of this runtime alone (on hardware the
doorbell is one posted MMIO write).
"""
import argparse
import gc
from array import array
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from assembler.amdgpu.elf_writer import KernelSpec, write_code_object  # noqa: E402
from assembler.amdgpu.kernel_descriptor import KernelDescriptor  # noqa: E402
from drivers.amd import aql, pm4  # noqa: E402
from drivers.amd.device import AMDDevice  # noqa: E402
from drivers.errors import GPUError  # noqa: E402

S_ENDPGM = (0xBFB00000).to_bytes(4, "little")
FRESH_KERNELS = 64


def empty_kernel_code_object(target="gfx1100"):
    """One kernel without arguments (kernarg pointer still in s[0:1]) that ends at once."""
    kd = KernelDescriptor(kernarg_size=0)
    kd.set("ENABLE_SGPR_KERNARG_SEGMENT_PTR", 1)
    kd.set("ENABLE_WAVEFRONT_SIZE32", 1)
    kd.set("USER_SGPR_COUNT", 2)
    kd.set("ENABLE_SGPR_WORKGROUP_ID_X", 1)
    return write_code_object(S_ENDPGM, [KernelSpec("empty", 0, kd, sgpr_count=3, vgpr_count=1)], target)


class InstantDoorbell:
    """--no-gpu: a doorbell that does not reach the command processor; it marks everything
    submitted as complete at once (a GPU of zero latency), so only the host's work is timed.
    The runtime takes a submission's timeline value once the doorbell is rung, so the value
    completed here is the one after the last taken."""

    def __init__(self, timeline):
        self.timeline, self.seconds = timeline, 0.0

    def store64(self, offset, value):
        self.timeline._mv[0] = self.timeline.last_submitted + 1


class TimedDoorbell:
    """Wraps a queue's doorbell Mapping; accumulates the seconds spent in its 64-bit stores."""

    def __init__(self, mapping):
        self.mapping, self.seconds = mapping, 0.0

    def store64(self, offset, value):
        t = time.perf_counter()
        self.mapping.store64(offset, value)
        self.seconds += time.perf_counter() - t


def per_call_us(fn, n, doorbell, rounds=1):
    """(total, total - doorbell) microseconds per call, the best of ``rounds`` rounds of ``n``
    calls (a shared machine only ever adds time); the collector is held off meanwhile so the
    emulator's garbage is not collected on the driver's time."""
    best = None
    for _ in range(rounds):
        doorbell.seconds = 0.0
        gc.collect()
        gc.disable()
        try:
            start = time.perf_counter()
            for _ in range(n):
                fn()
            total = time.perf_counter() - start
        finally:
            gc.enable()
        result = (total / n * 1e6, (total - doorbell.seconds) / n * 1e6)
        best = result if best is None or result[0] < best[0] else best
    return best


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--emulate", metavar="TARGET", help="run on the virtual GPU (also GPU_EMULATE)")
    ap.add_argument("--aql", action="store_true", help="use an AQL compute queue instead of PM4")
    ap.add_argument("-n", type=int, default=2000, help="submissions per round (default 2000)")
    ap.add_argument("--rounds", type=int, default=5, help="rounds per measurement; the best is reported (default 5)")
    ap.add_argument("--no-gpu", action="store_true",
                    help="after warm-up, stop forwarding doorbells and complete every submission at once: "
                         "times the driver's host work alone")
    args = ap.parse_args(argv)
    try:
        dev = AMDDevice(emulate=args.emulate, aql=args.aql)
    except GPUError as e:
        print(f"bench_launch: {e}", file=sys.stderr)
        return 1
    try:
        gpu = getattr(dev.kernel, "gpu", None)
        if gpu is not None and gpu.executor is None:
            gpu.executor = lambda dispatch: None         # the kernel is empty: nothing to execute
        prg = dev.load(empty_kernel_code_object(dev.target))
        kernel = prg["empty"]
        kernel(wait=True)                                   # warm up: scratch, caches, first IB
        q = dev.compute
        doorbell = q.hw.doorbell = TimedDoorbell(q.hw.doorbell)
        packet = memoryview(array("I", pm4.nop(20)))

        barrier = aql.kernel_dispatch(0, 0, (1, 1, 1), (1, 1, 1), header=aql.PACKET_TYPE_BARRIER_AND)
        barrier[1:] = 0                        # a BARRIER_AND with no dependencies and no signal
        barrier = memoryview(array("I", barrier))

        def floor():
            _raw_submit_aql(q, barrier) if q.use_aql else _raw_submit(q, packet)

        cb = dev.command_buffer()
        cb.add(kernel)
        cb.submit(wait=True)
        rounds = args.rounds if args.no_gpu else 1
        fresh = [dev.load(empty_kernel_code_object(dev.target))["empty"] for _ in range(FRESH_KERNELS * rounds)]
        if args.no_gpu:
            dev.synchronize()
            doorbell = q.hw.doorbell = InstantDoorbell(q.timeline)
        results = {}
        fresh_iter = iter(fresh)
        results["first"] = per_call_us(lambda: next(fresh_iter)(), FRESH_KERNELS, doorbell, rounds)
        if not args.no_gpu:
            dev.synchronize()
        # floor packets carry no signal, so their ring space comes back only with later work:
        # keep them to half the ring
        floor_n = min(args.n, q.hw.capacity // (1 if q.use_aql else len(packet)) // 2)
        for name, fn, n in (("floor", floor, floor_n), ("launch", kernel, args.n), ("replayed", cb.submit, args.n)):
            fn()
            results[name] = per_call_us(fn, n, doorbell, args.rounds if args.no_gpu else 1)
            if not args.no_gpu:
                dev.synchronize()
        if args.no_gpu:                  # the queues' contents were never run: start them afresh
            dev.recover()
        mode = f"doorbells not forwarded, instant completion, best of {args.rounds} rounds" if args.no_gpu else \
        "total incl. doorbell / driver alone"
        print(f"{dev.target} {q.name}, n={args.n}, host microseconds per submission ({mode}):")
        floor_total, floor_driver = results["floor"]
        for name in ("floor", "first", "launch", "replayed"):
            total, driver = results[name]
            print(f"  {name:9s} {total:8.2f} us  {driver:7.2f} us   "
                  f"{total / floor_total:5.2f} x / {driver / floor_driver:5.2f} x floor")
        return 0
    finally:
        dev.close()


def _raw_submit(q, packet):
    """The floor: one packet into the ring, write pointer, doorbell (no signal, no kernargs),
    with the same memory primitives as the runtime (memoryviews of the ring and pointer words)."""
    hw = q.hw
    n = len(packet)
    if hw.wptr + n - hw.retired > hw.capacity:
        hw.make_room(n, q.timeline)
    pos = hw.wptr % hw.capacity
    if pos + n > hw.capacity:                                 # keep the floor free of wrap handling
        hw.ring_u32[pos:] = pm4.nop(hw.capacity - pos) if hw.capacity - pos > 1 else [0]
        hw.wptr += hw.capacity - pos
        pos = 0
    hw.ring_mv[pos:pos + n] = packet
    hw.wptr += n
    hw.wptr_mv[0] = hw.wptr
    hw.doorbell.store64(hw.doorbell_offset, hw.wptr)


def _raw_submit_aql(q, packet):
    """The AQL floor: one packet (body, then header), write_dispatch_id, doorbell = its index."""
    hw = q.hw
    if hw.wptr + 1 - hw.retired > hw.capacity:
        hw.make_room(1, q.timeline)
    base = (hw.wptr % hw.capacity) * 16
    hw.ring_mv[base + 1:base + 16] = packet[1:]
    hw.ring_mv[base] = packet[0]
    hw.wptr += 1
    hw.wptr_mv[0] = hw.wptr
    hw.doorbell.store64(hw.doorbell_offset, hw.wptr - 1)


if __name__ == "__main__":
    sys.exit(main())
