"""RDNA3 (gfx1100) code generator: loop-level IR -> machine code, with no LLVM.

    from tensor.codegen.rdna3 import compile_kernel
    ck = compile_kernel(kernel)            # a verified tensor.loopir.Kernel
    ck.code_object                         # HSA code object v5 bytes: AMDDevice.load() runs it
    ck.grid, ck.block                      # the launch: workgroups, work-items per workgroup
    ck.text                                # the assembly (LLVM AMDGPU syntax)

Pipeline, one module each: launch shape (:mod:`.launch`), facts about the IR such as
uniformity and index forms (:mod:`.analysis`), instruction selection on virtual registers
(:mod:`.isel` with :mod:`.alu`, :mod:`.convert`, :mod:`.memory`, :mod:`.mathlib`), register
allocation (:mod:`.regalloc`), wait counts and hazards (:mod:`.waitcnt`), peephole clean-up
(:mod:`.peephole`), then text through ``assembler.rdna3`` into a code object
(:mod:`.emit`).  The kernel's parameters are passed as 8-byte pointers in order.

This package reads only the loop-level IR and the element types of the tensor layer.
"""
import time
from dataclasses import dataclass, field

from tensor.loopir import verify as verify_ir

from .analysis import Facts
from .emit import code_object, descriptor, render
from .isel import SelectError, Selector
from .launch import LaunchError, plan
from .peephole import peephole
from .regalloc import AllocationError, allocate
from .validate import record
from .sched import schedule
from .vectorize import merge
from .vopd import pair
from .waitcnt import fix_hazards, insert_waits
from .wmma import WmmaSelector, match as match_wmma

__all__ = ["AllocationError", "CompiledKernel", "LaunchError", "SelectError", "compile_kernel"]


@dataclass
class CompiledKernel:
    name: str
    code_object: bytes
    code: bytes
    text: str
    grid: tuple
    block: tuple
    vgprs: int
    sgprs: int
    lds: int
    scratch: int
    params: tuple
    stats: dict = field(default_factory=dict)


def compile_kernel(kernel, block=None, check=True):
    """Compile one loop-level IR kernel.  ``block``: lanes per hardware axis for a kernel
    without local ranges (what a launch-shape search tries); default: the heuristic."""
    t0 = time.perf_counter()
    if check:
        verify_ir(kernel)
    wplan = match_wmma(kernel) if block is None else None
    if wplan is not None:
        sel = WmmaSelector(kernel, wplan)
        facts_launch = sel.launch
    else:
        facts_launch = plan(kernel.global_size, kernel.local_size,
                            any(x.op.value in ("DEFINE_LOCAL", "BARRIER") for x in kernel.instrs), block)
        sel = Selector(kernel, facts_launch, Facts(kernel, facts_launch))
    code = sel.run()
    mis = schedule(merge(code.finish(), code.reg))
    vgprs, sgprs, scratch = allocate(mis, code.loops, code.reg, kernel.name)
    mis = pair(peephole(mis))
    mis = insert_waits(mis, code.loops)
    mis = fix_hazards(mis, code.loops)
    text = render(mis)
    kd = descriptor(facts_launch, vgprs, sel.lds_bytes, scratch, len(kernel.params), sel.wg_enabled)
    co, raw = code_object(kernel.name, text, kd, kernel.params, vgprs, sgprs, facts_launch)
    record(kernel.name, text, raw, co)
    stats = {"instructions": sum(1 for mi in mis if mi.kind != "label"),
             "seconds": time.perf_counter() - t0}
    return CompiledKernel(kernel.name, co, raw, text, facts_launch.grid, facts_launch.block,
                          vgprs, sgprs, sel.lds_bytes, scratch, tuple(kernel.params), stats)
