"""Register allocation: linear scan over live intervals, spilling when a file runs out.

Policy:

* A virtual register's interval runs from its first to its last appearance in the final
  instruction order.  A register that is read inside a loop before that loop writes it (a
  value from outside, an accumulator, a loop counter) is live on the back edge: its interval
  covers the whole loop.
* Intervals are visited by start; each gets the lowest-numbered free physical register(s)
  (first fit, aligned: SGPR pairs on even registers, SGPR quads on multiples of four), which
  keeps the VGPR count -- and so the number of waves a SIMD can hold -- low.  A register freed
  by its last reader can be the destination of that same ALU instruction (one-dword values).
* When no VGPR is free, the live interval that ends last is spilled to scratch (every
  definition stored, every use reloaded into a short-lived register: ``scratch_store_b32..128``
  / ``scratch_load_b32..128``, architected flat scratch), then allocation starts over.  SGPRs that do
  not fit are kept in lanes of a VGPR (``v_writelane_b32`` / ``v_readlane_b32``).
* Kernel inputs (the kernarg pointer s[0:1], workgroup ids, v0) are precoloured.

The limits are gfx11 wave32's: 256 VGPRs, 106 SGPRs (VCC is separate).
"""
from .mir import MI, Sub, VReg, regs_of

MAX_VGPRS = 256
MAX_SGPRS = 106
MAX_SCRATCH = 4096        # bytes per lane the 13-bit scratch offset reaches


class AllocationError(RuntimeError):
    """Registers ran out even with spilling; names the kernel and the counts."""


def _occurrences(code):
    """{VReg: [(position, is_def)]} in instruction order."""
    occ = {}
    for p, mi in enumerate(code):
        for k, op in enumerate(mi.ops):
            r = regs_of(op)
            if r is not None:
                occ.setdefault(r[0], []).append((p, k < mi.ndef))
        for op in mi.imp_use:
            if isinstance(op, VReg):
                occ.setdefault(op, []).append((p, False))
        for op in mi.imp_def:
            if isinstance(op, VReg):
                occ.setdefault(op, []).append((p, True))
    return occ


def intervals(code, loops):
    pos = {id(mi): p for p, mi in enumerate(code)}
    spans = [(pos[id(lp.head)], pos[id(lp.latch)]) for lp in loops]
    occ = _occurrences(code)
    out = {}
    for r, items in occ.items():
        start = 0 if r.fixed else min(p for p, _ in items)
        end = max(p for p, _ in items)
        out[r] = [start, end]
    changed = True
    while changed:
        changed = False
        for h, l in spans:
            for r, items in occ.items():
                iv = out[r]
                if iv[1] < h or iv[0] > l:
                    continue
                inside = [(p, d) for p, d in items if h <= p <= l]
                live_in = (inside and not inside[0][1]) or (iv[0] < h and inside)
                if live_in and (iv[0] > h or iv[1] < l):
                    iv[0], iv[1] = min(iv[0], h), max(iv[1], l)
                    changed = True
    return out, occ


class _File:
    def __init__(self, size):
        self.busy = [None] * size           # register -> VReg occupying it

    def find(self, size, align):
        n = len(self.busy)
        r = 0
        while r + size <= n:
            if all(self.busy[r + k] is None for k in range(size)):
                return r
            r += align
        return None

    def take(self, r, vreg):
        for k in range(vreg.size):
            self.busy[r + k] = vreg

    def free(self, vreg):
        for k in range(vreg.size):
            if self.busy[vreg.phys + k] is vreg:
                self.busy[vreg.phys + k] = None


def _scan(code, loops, limits):
    ivs, occ = intervals(code, loops)
    last_kind = {}
    for r, items in occ.items():
        last_kind[r] = code[max(p for p, _ in items)].kind
    order = sorted(ivs, key=lambda r: (ivs[r][0], not r.fixed, -r.size, r.n))
    files = {"v": _File(limits["v"]), "s": _File(limits["s"])}
    active = []
    spills = set()
    high = {"v": 0, "s": 0}
    for r in order:
        start, end = ivs[r]
        shared_ok = code[start].kind in ("valu", "salu", "trans") and r.size == 1
        for a in list(active):
            aend = ivs[a][1]
            if aend < start or (aend == start and shared_ok and a.size == 1 and not a.fixed):
                files[a.cls].free(a)
                active.remove(a)
        f = files[r.cls]
        if r.fixed:
            f.take(r.phys, r)
        else:
            p = f.find(r.size, r.align)
            while p is None:
                victim = _victim(active, r, ivs)
                if victim is None:
                    return None, None, high, r
                spills.add(victim)
                if victim is r:
                    break
                f.free(victim)
                active.remove(victim)
                p = f.find(r.size, r.align)
            if r in spills:
                continue
            f.take(p, r)
            r.phys = p
        high[r.cls] = max(high[r.cls], r.phys + r.size)
        active.append(r)
    return spills, ivs, high, None


def _victim(active, cur, ivs):
    cands = [a for a in active + [cur] if a.cls == cur.cls and not a.fixed
             and a.size <= 4 and a.spillable]
    if not cands:
        return None
    return max(cands, key=lambda a: (ivs[a][1], a.n))


def allocate(code, loops, newreg, name="kernel"):
    """Assign physical registers in place; returns (vgprs, sgprs, scratch bytes per lane)."""
    limits = {"v": MAX_VGPRS, "s": MAX_SGPRS}
    slots = {}
    scratch = 0
    lanes = {}
    lane_vgprs = []
    for _ in range(8):
        for mi in code:
            for op in mi.ops:
                r = regs_of(op)
                if r is not None and not r[0].fixed:
                    r[0].phys = None
        spills, ivs, high, failed = _scan(code, loops, limits)
        if failed is not None:
            raise AllocationError(f"{name}: no register for {failed!r} and nothing left to spill "
                                  f"(limits {limits})")
        if not spills:
            return high["v"], high["s"], scratch
        for r in spills:
            if r.cls == "v":
                slots[r] = scratch
                scratch += 4 * r.size
                if scratch > MAX_SCRATCH:
                    raise AllocationError(f"{name}: spills need more than {MAX_SCRATCH} bytes of "
                                          f"scratch per work-item")
            else:
                places = []
                for _ in range(r.size):
                    n = sum(len(p) for p in lanes.values()) + len(places)
                    if n % 32 == 0:
                        v = newreg("v", 1)
                        v.spillable = False
                        lane_vgprs.append(v)
                    places.append((lane_vgprs[n // 32], n % 32))
                lanes[r] = places
        code[:] = _rewrite(code, spills, slots, lanes, newreg)
    raise AllocationError(f"{name}: register allocation did not settle after repeated spilling")


def _rewrite(code, spills, slots, lanes, newreg):
    out = []
    for mi in code:
        touched = {}
        for k, op in enumerate(mi.ops):
            r = regs_of(op)
            if r is None or r[0] not in spills:
                continue
            reg = r[0]
            t = touched.get(reg)
            if t is None:
                t = touched[reg] = newreg(reg.cls, reg.size)
                t.spillable = False
            mi.ops[k] = _retarget(op, reg, t)
        reads = {reg for k, op in enumerate(mi.ops[mi.ndef:], mi.ndef)
                 for reg in touched if _names(op, touched[reg])}
        writes = {reg for op in mi.ops[:mi.ndef] for reg in touched if _names(op, touched[reg])}
        for reg in touched:
            if reg in reads or (reg in writes and _partial(mi, touched[reg])):
                out.extend(_reload(reg, touched[reg], slots, lanes))
        out.append(mi)
        for reg in writes:
            out.extend(_store(reg, touched[reg], slots, lanes))
    return out


def _names(op, t):
    r = regs_of(op)
    return r is not None and r[0] is t


def _partial(mi, t):
    """Does ``mi`` write only part of ``t`` (so the rest must be reloaded first)?"""
    for op in mi.ops[:mi.ndef]:
        r = regs_of(op)
        if r is not None and r[0] is t and r[2] < t.size:
            return True
    return False


def _retarget(op, old, new):
    if op is old:
        return new
    if isinstance(op, Sub):
        return Sub(new, op.off, op.size)
    from .mir import Neg
    if isinstance(op, Neg):
        return Neg(_retarget(op.op, old, new))
    return op


def _reload(reg, t, slots, lanes):
    if reg.cls == "v":
        op = f"scratch_load_b{32 * reg.size}"
        off = slots[reg]
        return [MI(op, [t, "off", "off"], 1, f"offset:{off}" if off else "")]
    return [MI("v_readlane_b32", [t if reg.size == 1 else t[k], v, str(lane)], 1)
            for k, (v, lane) in enumerate(lanes[reg])]


def _store(reg, t, slots, lanes):
    if reg.cls == "v":
        op = f"scratch_store_b{32 * reg.size}"
        off = slots[reg]
        return [MI(op, ["off", t, "off"], 0, f"offset:{off}" if off else "")]
    return [MI("v_writelane_b32", [v, t if reg.size == 1 else t[k], str(lane)], 1, imp_use=(v,))
            for k, (v, lane) in enumerate(lanes[reg])]
