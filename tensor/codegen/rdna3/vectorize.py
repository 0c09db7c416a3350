"""Neighbouring dword loads and stores become one wider access (before register allocation).

Within straight-line code (no label, branch, barrier or EXEC change in between), dword
accesses through the same address registers at consecutive immediate offsets merge: four into
a ``_b128``, two into a ``_b64`` (GLOBAL, DS and scalar loads; GLOBAL and DS stores).  The
merged access must be naturally aligned -- the address's register part is a known multiple of
the width (:meth:`MemoryMixin.address` records it) and so is the offset -- which every
gfx11 memory path accepts.  A merged load sits where the first of its parts was (its address
registers exist there; global inputs are never written and LDS is not stored to between
barriers without one); a merged store sits where the last was (every value exists there).
The parts' registers become the dwords of one register tuple, so no copies are needed.
"""
from .mir import MI, Neg, Sub, VReg

LOADS = {"global_load_b32": "global_load_b", "ds_load_b32": "ds_load_b", "s_load_b32": "s_load_b"}
STORES = {"global_store_b32": "global_store_b", "ds_store_b32": "ds_store_b"}
BOUNDARY_OPS = {"s_barrier", "s_endpgm", "s_and_saveexec_b32"}


def _key(op):
    if isinstance(op, VReg):
        return ("r", op.n)
    if isinstance(op, Sub):
        return ("s", op.reg.n, op.off, op.size)
    return ("t", op)


def _segments(code):
    seg = []
    for i, mi in enumerate(code):
        if mi.kind in ("label", "branch") or mi.op in BOUNDARY_OPS or "exec_lo" in mi.imp_def:
            if seg:
                yield seg
            seg = []
            continue
        seg.append(i)
    if seg:
        yield seg


def _defs(mi):
    out = set()
    for op in mi.ops[:mi.ndef]:
        if isinstance(op, VReg):
            out.add(op.n)
        elif isinstance(op, Sub):
            out.add(op.reg.n)
    return out


def _runs(items, step=4):
    """Split (imm, ...) items sorted by imm into runs of consecutive offsets."""
    runs, cur = [], []
    for it in items:
        if cur and it[0] == cur[-1][0] + step:
            cur.append(it)
        else:
            if len(cur) > 1:
                runs.append(cur)
            cur = [it]
    if len(cur) > 1:
        runs.append(cur)
    return runs


def _chunks(run, align):
    """Aligned groups of 4 or 2 consecutive dwords out of a run."""
    out, k = [], 0
    while k < len(run):
        imm = run[k][0]
        for width in (4, 2):
            nbytes = 4 * width
            if k + width <= len(run) and imm % nbytes == 0 and align % nbytes == 0:
                out.append(run[k:k + width])
                k += width
                break
        else:
            k += 1
    return out


def merge(code, newreg):
    rename = {}
    drop = set()
    replace = {}                       # position -> new MI
    for seg in _segments(code):
        base_defs = {}                 # vreg number -> positions redefining it in the segment
        for i in seg:
            for n in _defs(code[i]):
                base_defs.setdefault(n, []).append(i)
        lds_stores = [i for i in seg if code[i].op.startswith("ds_store")]
        lds_loads = [i for i in seg if code[i].op.startswith("ds_load")]
        groups = {}
        for i in seg:
            mi = code[i]
            if mi.imm is None or mi.op not in LOADS and mi.op not in STORES:
                continue
            if mi.op in LOADS:
                d = mi.ops[0]
                if not isinstance(d, VReg) or d.size != 1 or d.fixed:
                    continue
                addr = tuple(_key(o) for o in mi.ops[1:] if not (isinstance(o, str) and mi.op == "s_load_b32"))
                groups.setdefault(("L", mi.op, addr), []).append((mi.imm, i))
            else:
                data = mi.ops[1]
                if not isinstance(data, VReg) or data.size != 1 or data.fixed:
                    continue
                addr = tuple(_key(o) for k, o in enumerate(mi.ops) if k != 1)
                groups.setdefault(("S", mi.op, addr), []).append((mi.imm, i))
        for (kind, op, _), items in groups.items():
            items.sort()
            for run in _runs(items):
                align = min(code[i].align or 1 for _, i in run)
                for chunk in _chunks(run, align):
                    pos = [i for _, i in chunk]
                    lo, hi = min(pos), max(pos)
                    first = code[pos[0]]
                    addr_regs = {o.n if isinstance(o, VReg) else o.reg.n for o in first.ops[1 if kind == "L" else 0:]
                                 if isinstance(o, (VReg, Sub))} - ({first.ops[1].n} if kind == "S" else set())
                    if any(lo < p <= hi for n in addr_regs for p in base_defs.get(n, ())):
                        continue
                    if op.startswith("ds_") and any(lo < p < hi for p in (lds_stores if kind == "L" else lds_loads)):
                        continue
                    width = len(chunk)
                    if kind == "L":
                        regs = [code[p].ops[0] for p in pos]
                    else:
                        regs = [code[p].ops[1] for p in pos]
                    if any(r.n in rename for r in regs) or len({r.n for r in regs}) != width:
                        continue
                    tup = newreg(regs[0].cls, width)
                    for k, r in enumerate(regs):
                        rename[r.n] = Sub(tup, k, 1)
                    new_op = (LOADS if kind == "L" else STORES)[op] + str(32 * width)
                    at = lo if kind == "L" else hi
                    tmpl = code[at] if kind == "S" else first
                    ops = list(tmpl.ops)
                    if kind == "L":
                        ops[0] = tup
                    else:
                        ops[1] = tup
                    imm = chunk[0][0]
                    mi = MI(new_op, ops, tmpl.ndef, tmpl.mods, tmpl.imp_def, tmpl.imp_use)
                    if op == "s_load_b32" and isinstance(ops[-1], str):
                        ops[-1] = str(imm) if imm <= 64 else "0x%x" % imm
                        mi.ops = ops
                    else:
                        mi.mods = f"offset:{imm}" if imm else ""
                    mi.imm, mi.align = imm, tmpl.align
                    replace[at] = mi
                    drop.update(p for p in pos if p != at)
    if not rename:
        return code
    out = []
    for i, mi in enumerate(code):
        if i in drop:
            continue
        mi = replace.get(i, mi)
        mi.ops = [_renamed(o, rename) for o in mi.ops]
        out.append(mi)
    return out


def _renamed(op, rename):
    if isinstance(op, VReg):
        return rename.get(op.n, op)
    if isinstance(op, Sub) and op.reg.n in rename and op.size == 1:
        return rename[op.reg.n]
    if isinstance(op, Neg):
        return Neg(_renamed(op.op, rename))
    return op
