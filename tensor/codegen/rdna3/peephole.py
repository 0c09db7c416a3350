"""Clean-up after register allocation: copies that became no-ops disappear."""
from .mir import regs_of


def _same(a, b):
    ra, rb = regs_of(a), regs_of(b)
    if ra is None or rb is None:
        return False
    return (ra[0].cls, ra[0].phys + ra[1], ra[2]) == (rb[0].cls, rb[0].phys + rb[1], rb[2])


def peephole(code):
    out = []
    for mi in code:
        if mi.op in ("v_mov_b32", "s_mov_b32") and len(mi.ops) == 2 and mi.ndef == 1 \
                and _same(mi.ops[0], mi.ops[1]):
            continue
        out.append(mi)
    return out
