"""Host-side cost of launching an empty kernel: first launch vs replay, against the floor.

    python scripts/bench_launch.py --emulate gfx1100 [--aql] [-n 2000]

Four numbers, each the host time per submission averaged over n (GPU time is not measured):

* floor     write one packet to the compute ring (PM4: a NOP as long as a replay's ring part;
            AQL: a BARRIER_AND without dependencies), publish the write pointer and ring the
            doorbell: the least any submission costs.
* first     the first launch of a kernel just loaded: 64 programs are loaded (not timed), then
            each kernel's first launch is timed; the mean of the 64.
* launch    prg["empty"](): kernarg packing, register programming, signal, doorbell.
* replayed  a recorded command buffer resubmitted: one INDIRECT_BUFFER + the signal.

On the virtual GPU the doorbell wakes the command-processor thread, which then runs the packets
while the caller goes on; the two threads share the interpreter, so the raw numbers include part
of the emulator's work. The time spent inside the doorbell store is measured and reported
separately: "driver" = total - doorbell. ``--no-gpu`` takes the GPU side out altogether: after a
warm-up the doorbell no longer reaches the command processor and every submission counts as
complete at once, so the numbers are the host cost of this runtime alone (on hardware the
doorbell is one posted MMIO write). Then every measurement runs once per round, the rounds
interleaved, and the best round counts; the figure is the CPU time of the submitting thread
(time other processes of a busy machine take is not in it), printed next to the wall time and
to the floor measured in the same run.
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
    A compute launch takes its timeline value once the doorbell is rung (``ahead``: the value
    completed here is the one after the last taken); a copy takes it before."""

    def __init__(self, timeline, ahead=1):
        self.timeline, self.ahead, self.seconds = timeline, ahead, 0.0

    def store64(self, offset, value):
        self.timeline._mv[0] = self.timeline.last_submitted + self.ahead


class TimedDoorbell:
    """Wraps a queue's doorbell Mapping; accumulates the seconds spent in its 64-bit stores."""

    def __init__(self, mapping):
        self.mapping, self.seconds = mapping, 0.0

    def store64(self, offset, value):
        t = time.perf_counter()
        self.mapping.store64(offset, value)
        self.seconds += time.perf_counter() - t


def per_call_us(fn, n, doorbell):
    """(total, total - doorbell, CPU) microseconds per call over ``n`` calls: wall-clock time,
    without the doorbell stores, and this thread's CPU time (what a busy machine's other processes
    do not add to). The collector is held off meanwhile so the emulator's garbage is not
    collected on the driver's time."""
    doorbell.seconds = 0.0
    gc.disable()
    try:
        cpu = time.thread_time()
        start = time.perf_counter()
        for _ in range(n):
            fn()
        total = time.perf_counter() - start
        cpu = time.thread_time() - cpu
    finally:
        gc.enable()
    return total / n * 1e6, (total - doorbell.seconds) / n * 1e6, cpu / n * 1e6


def first_launches_us(dev, doorbell):
    """Per-call microseconds (as per_call_us) of the first launches of FRESH_KERNELS programs
    loaded before the timing starts (each round loads its own; the loads and their uploads are
    not timed)."""
    gc.collect()
    fresh = iter([dev.load(empty_kernel_code_object(dev.target))["empty"] for _ in range(FRESH_KERNELS)])
    dev.synchronize()                     # the code's upload is done: the launches need not wait for it
    return per_call_us(lambda: next(fresh)(), FRESH_KERNELS, doorbell)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--emulate", metavar="TARGET", help="run on the virtual GPU (also GPU_EMULATE)")
    ap.add_argument("--aql", action="store_true", help="use an AQL compute queue instead of PM4")
    ap.add_argument("-n", type=int, default=2000, help="submissions per round (default 2000)")
    ap.add_argument("--rounds", type=int, default=9,
                    help="rounds per measurement with --no-gpu, interleaved; the best is reported (default 9)")
    ap.add_argument("--no-gpu", action="store_true",
                    help="after warm-up, stop forwarding doorbells and complete every submission at once: "
                         "times the driver's host work alone")
    args = ap.parse_args(argv)
    if args.n < 1 or args.rounds < 1:
        ap.error("-n and --rounds must be at least 1")
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
        if args.no_gpu:
            dev.synchronize()
            doorbell = q.hw.doorbell = InstantDoorbell(q.timeline)
            # the copies that upload programs do not wake the command processor either (it would
            # run the compute ring's unforwarded packets alongside the timing); no kernel runs here
            copier = getattr(dev.copier, "hw", None)
            if copier is not None:
                copier.doorbell = InstantDoorbell(dev.copier.timeline, ahead=0)
        # floor packets carry no signal, so their ring space comes back only with later work:
        # keep them to half the ring
        floor_n = min(args.n, q.hw.capacity // (1 if q.use_aql else len(packet)) // 2)
        steps = (("floor", floor, floor_n), ("launch", kernel, args.n), ("replayed", cb.submit, args.n))
        for _, fn, _ in steps:
            fn()
        # with --no-gpu every measurement runs once per round, in turn, so a burst of load on a
        # shared machine hits one round of each rather than every round of one; the best counts
        results = {}
        best = 2 if args.no_gpu else 0               # the figure rounds are compared by
        for _ in range(args.rounds if args.no_gpu else 1):
            sample = {"first": first_launches_us(dev, doorbell)}
            if not args.no_gpu:
                dev.synchronize()
            for name, fn, n in steps:
                gc.collect()
                sample[name] = per_call_us(fn, n, doorbell)
                if not args.no_gpu:
                    dev.synchronize()
            for name, value in sample.items():
                if name not in results or value[best] < results[name][best]:
                    results[name] = value
        if args.no_gpu:                  # the queues' contents were never run: start them afresh
            dev.recover()
        floor = results["floor"]
        if args.no_gpu:
            print(f"{dev.target} {q.name}, n={args.n}, host microseconds per submission (doorbells not forwarded, "
                  f"instant completion; best of {args.rounds} interleaved rounds): CPU time of the submitting "
                  "thread, wall time, and the CPU time against the floor measured in the same run")
            for name in ("floor", "first", "launch", "replayed"):
                total, _, cpu = results[name]
                print(f"  {name:9s} {cpu:8.2f} us CPU  {total:7.2f} us wall   {cpu / floor[2]:5.2f} x floor")
            return 0
        print(f"{dev.target} {q.name}, n={args.n}, host microseconds per submission (total incl. doorbell / "
              "driver alone, and against the floor measured in the same run):")
        for name in ("floor", "first", "launch", "replayed"):
            total, driver, _ = results[name]
            print(f"  {name:9s} {total:8.2f} us  {driver:7.2f} us   "
                  f"{total / floor[0]:5.2f} x / {driver / floor[1]:5.2f} x floor")
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
