"""cat0 (flow control) and cat7 (barriers, fences, cache maintenance).

Branch offsets count instructions from the branch itself (``br p0.x, #2`` skips one). Every
fiber has its own PC: a divergent ``br`` sends each fiber its own way, and the executor runs the
fibers with the lowest PC first, so both sides of an if run (in program order) and meet again
where their paths join; a loop runs until its last fiber leaves. ``bany``/``ball`` decide once
per wave, ``getone`` lets the first active fiber of each wave fall through and sends the others
to the target. ``shps`` runs the preamble once per dispatch: the first wave to reach it falls
through, everyone else (and every later workgroup) jumps past it.

``bar`` is the workgroup barrier: a fiber stops there until every live fiber of the workgroup
has arrived (fibers that executed ``end`` no longer count), then all continue together. Fibers
waiting at different barrier instructions are a deadlock on hardware and an error here.
"""
import numpy as np

from drivers.errors import GPUError

from .op import Op
from .state import P0, units

NOPS = ("nop", "fence", "sleep", "icinv", "dccln", "dcinv", "dcflu")


def _pred(x, comp, inv):
    p = x.wg.R[P0 + comp] != 0
    return ~p if inv else p


def build_flow(ins, pc, limits):
    f, name = ins.fields, ins.name
    if name in NOPS:
        return Op(pc, ins, lambda x, active: None)
    target = pc + f.get("IMMED", 0)
    reads = ()                              # the predicate a branch tests

    if name == "end":
        def run(x, active):
            x.alive &= ~active
    elif name == "jump":
        def run(x, active):
            x.pcs[active] = target
    elif name in ("br", "bany", "ball"):
        comp, inv = f.get("COMP1", 0), bool(f.get("INV1"))

        def run(x, active):
            cond = _pred(x, comp, inv)
            if name != "br":              # one decision per wave, from its active fibers
                wg = x.wg
                c = (cond & active).reshape(wg.waves, wg.wave)
                a = active.reshape(wg.waves, wg.wave)
                per_wave = c.any(axis=1) if name == "bany" else (c | ~a).all(axis=1)
                cond = np.repeat(per_wave, wg.wave)
            x.pcs[active] = np.where(cond[active], target, pc + 1)
        reads = units(P0 + comp)
    elif name in ("braa", "brao"):
        c1, i1 = f.get("COMP1", 0), bool(f.get("INV1"))
        c2, i2 = f.get("COMP2", 0), bool(f.get("INV2"))

        def run(x, active):
            a, b = _pred(x, c1, i1), _pred(x, c2, i2)
            cond = (a & b) if name == "braa" else (a | b)
            x.pcs[active] = np.where(cond[active], target, pc + 1)
        reads = units(P0 + c1) + units(P0 + c2)
    elif name == "getone":
        def run(x, active):
            wg = x.wg
            a = active.reshape(wg.waves, wg.wave)
            first = np.zeros_like(a)
            rows = np.flatnonzero(a.any(axis=1))
            first[rows, a[rows].argmax(axis=1)] = True
            x.pcs[active] = np.where(first.reshape(-1)[active], pc + 1, target)
    elif name == "shps":
        def run(x, active):
            if x.ctx.preamble_done:
                x.pcs[active] = target
                return
            x.ctx.preamble_done = True
            wg = x.wg
            w = int(np.flatnonzero(wg.waves_active(active))[0])
            mine = active & (wg.wave_of == w)
            x.pcs[mine] = pc + 1
            x.pcs[active & ~mine] = target
    elif name == "shpe":
        return Op(pc, ins, lambda x, active: None)
    elif name == "bar":
        def run(x, active):               # they move past the bar, but wait there until released
            x.blocked |= active
            x.bar_pc[active] = pc
    else:
        raise GPUError(f"PC 0x{pc:x}: {ins.text}: {name} is not emulated (compute programs on the virtual "
                       "Adreno use nop, end, jump, br, braa, brao, bany, ball, getone, shps/shpe and bar)")
    return Op(pc, ins, run, reads, flow=name != "bar")
