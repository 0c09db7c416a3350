#!/usr/bin/env python3
"""How long a submission and a hung wait take on the virtual GPU, against what was asked for.

    python scripts/bench_waits.py [--aql] [--timeout 1.0] [-n 20]

A kernel that loops forever (s_branch to itself) is launched:

* with ``wait=False``: the host time until the launch returns (milliseconds; the reference is
  an empty kernel's launch measured in the same run: the submission does not depend on what the
  kernel does);
* with ``wait=True, timeout=T``: the host time until GPUHang is raised (the reference is T), then
  the time the next launch of an empty kernel takes to complete (the device recovered).

The instruction budget of the virtual GPU is set far beyond reach (GPU_EMULATE_BUDGET), so only
the wait's timeout and the preemption of the hung dispatch can end it.
"""
import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from assembler.amdgpu.codeobject import build_code_object  # noqa: E402
from assembler.rdna3 import assemble_program  # noqa: E402

KERNEL = """.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
.amdhsa_code_object_version 5
.text
.p2align 8
.globl k
.type k,@function
k:
{body}
.rodata
.p2align 6
.amdhsa_kernel k
  .amdhsa_user_sgpr_count 2
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 1
  .amdhsa_next_free_sgpr 8
.end_amdhsa_kernel
"""


def code_object(body):
    text = KERNEL.format(body=body)
    return build_code_object(assemble_program(text), text)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--aql", action="store_true", help="use an AQL compute queue instead of PM4")
    ap.add_argument("--timeout", type=float, default=1.0, help="the hung wait's timeout in seconds (default 1)")
    ap.add_argument("-n", type=int, default=20, help="asynchronous launches to time (default 20)")
    args = ap.parse_args(argv)
    if args.timeout <= 0 or args.n < 1:
        ap.error("--timeout must be > 0 and -n >= 1")
    os.environ["GPU_EMULATE_BUDGET"] = str(10 ** 15)
    from drivers.amd.device import AMDDevice
    from drivers.errors import GPUHang
    dev = AMDDevice(emulate="gfx1100", aql=args.aql)
    try:
        endless, empty = dev.load(code_object("s_branch 0xffff\ns_endpgm")), dev.load(code_object("s_endpgm"))
        empty["k"](grid=1, block=32, wait=True)                       # warm up both paths
        times = {"empty": [], "endless": []}
        for name, prg in (("empty", empty), ("endless", endless)):      # endless ones queue up behind the first
            for _ in range(args.n):
                t = time.perf_counter()
                prg["k"](grid=1, block=32)
                times[name].append(time.perf_counter() - t)
                if name == "empty":
                    dev.synchronize()
        hung_async = dev.compute.timeline.value < dev.compute.timeline.last_submitted
        t = time.perf_counter()
        try:
            dev.synchronize(timeout=args.timeout)
            outcome = "no GPUHang (the kernel finished?)"
        except GPUHang:
            outcome = "GPUHang"
        recover_wait = time.perf_counter() - t
        t = time.perf_counter()
        try:
            endless["k"](grid=4, block=64, wait=True, timeout=args.timeout)
            outcome2 = "no GPUHang"
        except GPUHang:
            outcome2 = "GPUHang"
        hang = time.perf_counter() - t
        t = time.perf_counter()
        empty["k"](grid=1, block=32, wait=True)
        after = time.perf_counter() - t
    finally:
        dev.close()
    med = {k: statistics.median(v) * 1e3 for k, v in times.items()}
    print(f"virtual gfx1100, {dev.compute.name if dev.compute else 'compute queue'}, median of {args.n}:")
    print(f"  launch, wait=False, endless kernel   {med['endless']:8.3f} ms   "
          f"({med['endless'] / med['empty']:.2f} x an empty kernel's {med['empty']:.3f} ms; "
          f"still running afterwards: {hung_async})")
    print(f"  synchronize(timeout={args.timeout:g}) on them       {recover_wait:8.3f} s    "
          f"({recover_wait / args.timeout:.2f} x the timeout) -> {outcome}")
    print(f"  launch, wait=True, timeout={args.timeout:g}        {hang:8.3f} s    "
          f"({hang / args.timeout:.2f} x the timeout) -> {outcome2}")
    print(f"  next launch of an empty kernel       {after * 1e3:8.3f} ms   (the device recovered)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
