"""VOPD: two independent VALU operations issued as one instruction (after register allocation).

gfx11 wave32 can issue a pair of simple VALU ops -- ``v_dual_X :: v_dual_Y`` -- in one slot.
Each is ``dst, src0[, vsrc1]`` with vsrc1 a VGPR; the pair may read one literal (the same in
both halves) and at most two scalar values; the two src0 (and the two vsrc1) VGPRs must sit
in different banks (register number mod 4) and the two destinations must differ in parity.

The pass walks straight-line code (waits are inserted afterwards, so they are no obstacle)
and, for each eligible op, looks ahead a few instructions for an eligible partner that can
move up next to it: the partner must not read or write what the instructions it jumps over
(or the first op) write, nor write what they read.  Commutative ops swap their operands to
put a scalar or constant in src0.  Anything with a source modifier, a non-VCC lane mask or a
64-bit operand stays single.
"""
from .mir import MI, Neg, regs_of

X_OPS = {"v_fmac_f32": "fmac_f32", "v_mul_f32": "mul_f32", "v_add_f32": "add_f32",
         "v_sub_f32": "sub_f32", "v_subrev_f32": "subrev_f32", "v_mov_b32": "mov_b32",
         "v_cndmask_b32": "cndmask_b32", "v_max_f32": "max_f32", "v_min_f32": "min_f32"}
Y_ONLY = {"v_add_nc_u32": "add_nc_u32", "v_lshlrev_b32": "lshlrev_b32", "v_and_b32": "and_b32"}
COMMUTATIVE = {"v_mul_f32", "v_add_f32", "v_max_f32", "v_min_f32", "v_add_nc_u32", "v_and_b32"}
WINDOW = 24


def _phys(op):
    r = regs_of(op)
    if r is None:
        return None
    reg, off, size = r
    return reg.cls, reg.phys + off, size


def _vgpr(op):
    p = _phys(op)
    return p is not None and p[0] == "v" and p[2] == 1 and not isinstance(op, Neg)


def _scalar(op):
    if isinstance(op, Neg):
        return None
    if isinstance(op, str):
        if op.startswith("0x"):
            return ("lit", op)
        return ("c", op) if op not in ("vcc_lo", "exec_lo") else None
    p = _phys(op)
    if p is None or p[2] != 1:
        return None
    return ("s", p[1]) if p[0] == "s" else None


class Half:
    """One side of a VOPD pair: ``dst``, ``src0``, ``vsrc1`` (None for mov)."""
    __slots__ = ("name", "dst", "src0", "vsrc1", "mi")

    def __init__(self, name, dst, src0, vsrc1, mi):
        self.name, self.dst, self.src0, self.vsrc1, self.mi = name, dst, src0, vsrc1, mi

    def operands(self):
        return [self.dst, self.src0] + ([self.vsrc1] if self.vsrc1 is not None else [])

    def text(self):
        parts = [o if isinstance(o, str) else o.text() for o in self.operands()]
        return f"v_dual_{self.name} " + ", ".join(parts)


def _half(mi, allow_y_only):
    names = dict(X_OPS)
    if allow_y_only:
        names.update(Y_ONLY)
    name = names.get(mi.op)
    if name is None or mi.ndef != 1 or mi.mods or mi.imp_def:
        return None
    dst = mi.ops[0]
    if not _vgpr(dst):
        return None
    srcs = mi.ops[1:]
    if mi.op == "v_mov_b32":
        if len(srcs) != 1 or (_scalar(srcs[0]) is None and not _vgpr(srcs[0])):
            return None
        return Half(name, dst, srcs[0], None, mi)
    if mi.op == "v_cndmask_b32":
        if len(srcs) != 3 or srcs[2] != "vcc_lo":
            return None
        srcs = srcs[:2]
    if len(srcs) != 2:
        return None
    s0, s1 = srcs
    if not _vgpr(s1):
        if mi.op in COMMUTATIVE and _vgpr(s0):
            s0, s1 = s1, s0
        elif mi.op == "v_sub_f32" and _vgpr(s0):
            name, s0, s1 = "subrev_f32", s1, s0
        elif mi.op == "v_subrev_f32" and _vgpr(s0):
            name, s0, s1 = "sub_f32", s1, s0
        else:
            return None
    if _scalar(s0) is None and not _vgpr(s0):
        return None
    return Half(name, dst, s0, s1, mi)


def _reads(mi):
    """Physical registers an instruction reads (a FMAC reads its destination too)."""
    out = set()
    for op in mi.ops[mi.ndef:]:
        p = _phys(op)
        if p is not None:
            out.update((p[0], p[1] + k) for k in range(p[2]))
    if mi.op.startswith("v_fmac") or mi.op.startswith("v_writelane"):
        p = _phys(mi.ops[0])
        out.update((p[0], p[1] + k) for k in range(p[2]))
    for name in mi.imp_use:
        if isinstance(name, str):
            out.add(("x", name))
    if mi.op == "v_cndmask_b32" and mi.ops[-1] == "vcc_lo":
        out.add(("x", "vcc_lo"))
    return out


def _writes(mi):
    out = set()
    for op in mi.ops[:mi.ndef]:
        p = _phys(op)
        if p is not None:
            out.update((p[0], p[1] + k) for k in range(p[2]))
        elif isinstance(op, str):
            out.add(("x", op))
    for name in mi.imp_def:
        if isinstance(name, str):
            out.add(("x", name))
    return out


def _compatible(x, y):
    if x.dst is y.dst or _phys(x.dst)[1] % 2 == _phys(y.dst)[1] % 2:
        return False
    if _vgpr(x.src0) and _vgpr(y.src0) and _phys(x.src0)[1] % 4 == _phys(y.src0)[1] % 4:
        return False
    if x.vsrc1 is not None and y.vsrc1 is not None and _phys(x.vsrc1)[1] % 4 == _phys(y.vsrc1)[1] % 4:
        return False
    scalars = {s for s in (_scalar(x.src0), _scalar(y.src0)) if s is not None and s[0] != "c"}
    if len([s for s in scalars if s[0] == "lit"]) > 1 or len(scalars) > 2:
        return False
    # y must not read x's result (the halves read their sources together)
    return not (_writes(x.mi) & _reads(y.mi))


class Dual(MI):
    __slots__ = ("x", "y")

    def __init__(self, x, y):
        ops = [x.dst, y.dst] + [o for o in x.operands()[1:] + y.operands()[1:]]
        imp_use = tuple(set(x.mi.imp_use) | set(y.mi.imp_use))
        MI.__init__(self, "v_dual", ops, 2, "", (), imp_use)
        self.x, self.y = x, y
        self.kind = "valu"

    def text(self):
        return f"{self.x.text()} :: {self.y.text()}"


def _boundary(mi):
    return mi.kind in ("label", "branch") or "exec_lo" in mi.imp_def or mi.op in ("s_barrier", "s_endpgm")


def pair(code):
    out = list(code)
    info = {}

    def facts(mi):
        f = info.get(id(mi))
        if f is None:
            valu = mi.kind == "valu" and not _boundary(mi)
            f = info[id(mi)] = (_reads(mi), _writes(mi), _boundary(mi),
                                _half(mi, False) if valu else None,
                                _half(mi, True) if valu else None)
        return f
    i = 0
    while i < len(out):
        mi = out[i]
        reads, writes, boundary, x, _ = facts(mi)
        if boundary or x is None:
            i += 1
            continue
        w_between, r_between = set(writes), set(reads)
        found = None
        for j in range(i + 1, min(len(out), i + 1 + WINDOW)):
            cand = out[j]
            rc, wc, bnd, _, y = facts(cand)
            if bnd:
                break
            if y is not None and _compatible(x, y):
                if not (rc & w_between) and not (wc & r_between) and not (wc & w_between):
                    found = (j, y)
                    break
            w_between |= wc
            r_between |= rc
        if found is None:
            i += 1
            continue
        j, y = found
        del out[j]
        out[i] = Dual(x, y)
        i += 1
    return out
