"""An independent check of a kernel's memory waits, on its final text.

The wave simulator runs a load at once, so a missing ``s_waitcnt`` would pass there by luck.
This check reads the assembly a kernel ends up with (nothing of the generator's own state) and
proves, on every path, that no instruction touches a register a load in flight will still
write, the way the counters allow on real hardware:

* vmcnt counts GLOBAL/SCRATCH/BUFFER loads, which return in order: after ``vmcnt(N)`` a load
  with at least N younger loads behind it has landed;
* lgkmcnt counts LDS operations (in order among themselves) and scalar memory loads (in any
  order): ``lgkmcnt(N)`` retires an LDS operation with at least N younger LDS operations behind
  it, a scalar load only at ``lgkmcnt(0)``;
* vscnt counts stores (in order); a scratch reload of bytes a scratch store has in flight needs
  that store retired, and ``s_barrier`` needs every LDS operation of the wave retired (other
  waves read the LDS right after it).

Overwriting a register with another load of the same in-order counter is allowed (the later
load lands last).  A path's state is, per register and counter, the fewest younger operations
that follow its load; at a join the smaller count (and "scalar" if either path says so) wins,
iterated over loops until it settles.
"""
import re

REG = re.compile(r"\b([vs])(?:(\d+)\b|\[(\d+):(\d+)\])")
COUNT = re.compile(r"\b(vmcnt|lgkmcnt|expcnt)\((\d+)\)")
SCRATCH_OFFSET = re.compile(r"offset:(-?\d+|0x[0-9a-f]+)")
WIDTH = re.compile(r"_b(\d+)\b")


class WaitError(AssertionError):
    """A register (or LDS or scratch access) used while a load may still write it: names the
    kernel, the line and what is in flight."""


def _regs(text):
    out = []
    for cls, one, lo, hi in REG.findall(text):
        if one:
            out.append((cls, int(one)))
        else:
            out.extend((cls, k) for k in range(int(lo), int(hi) + 1))
    return out


def _classify(mnem):
    """(counter, in order, writes its first operand) of a memory instruction, or None."""
    if mnem.startswith(("global_load", "scratch_load", "buffer_load", "flat_load")):
        return "vm", True, True
    if mnem.startswith(("global_store", "scratch_store", "buffer_store", "flat_store")):
        return "vs", True, False
    if mnem.startswith(("s_load", "s_buffer_load")):
        return "lgkm", False, True
    if mnem.startswith("ds_"):
        returns = any(w in mnem for w in ("load", "read", "rtn", "swizzle", "permute"))
        return "lgkm", True, returns
    return None


def _wait(mnem, text):
    """{counter: N} an s_waitcnt* instruction waits down to."""
    if mnem == "s_waitcnt":
        got = {c: int(n) for c, n in COUNT.findall(text)}
        if not got:                                   # a raw simm16: vmcnt[15:10] lgkmcnt[9:4]
            imm = int(text.split()[1], 0)
            got = {"vmcnt": imm >> 10 & 63, "lgkmcnt": imm >> 4 & 63}
        return {"vm" if c == "vmcnt" else "lgkm": n for c, n in got.items() if c != "expcnt"}
    if mnem in ("s_waitcnt_vscnt", "s_waitcnt_vmcnt", "s_waitcnt_lgkmcnt"):
        n = int(text.split(",")[-1].strip(), 0)
        return {mnem.rsplit("_", 1)[1][:-3]: n}
    return None


def _scratch_bytes(mnem, text):
    m = SCRATCH_OFFSET.search(text)
    off = int(m.group(1), 0) if m else 0
    w = WIDTH.search(mnem)
    return off, off + (int(w.group(1)) // 8 if w else 4)


def _step(state, mnem, text, where):
    """Apply one instruction to ``state`` ({(key, counter): [younger, scalar]}), raising
    WaitError when it touches something in flight."""
    wait = _wait(mnem, text)
    if wait is not None:
        for (key, c), (younger, scalar) in list(state.items()):
            if c in wait and (wait[c] == 0 or (not scalar and younger >= wait[c])):
                del state[(key, c)]
        return
    if mnem == "s_barrier":
        lds = sorted(str(k) for (k, c) in state if c == "lgkm" and (k[0] == "lds" or k[0] == "v"))
        if lds:
            raise WaitError(f"{where}: s_barrier while LDS operations are in flight ({', '.join(lds[:4])})")
        return
    kind = _classify(mnem)
    ops = text.split(None, 1)[1] if " " in text else ""
    first, _, rest = ops.partition(",")
    dest = set(_regs(first)) if kind and kind[2] else set()
    for r in _regs(ops):
        for c in ("vm", "lgkm"):
            hit = state.get((r, c))
            if hit is None:
                continue
            same_pipe = kind is not None and kind[0] == c and kind[1] and not hit[1]
            if r in dest and same_pipe:
                continue                              # a later load of the same counter lands last
            what = "scalar load" if hit[1] else {"vm": "vector memory load", "lgkm": "LDS load"}[c]
            raise WaitError(f"{where}: {r[0]}{r[1]} is still being written by a {what} in flight "
                            f"(no s_waitcnt {c}cnt covers it)")
    if kind is None:
        return
    counter, in_order, _ = kind
    if mnem.startswith("scratch_load"):
        lo, hi = _scratch_bytes(mnem, text)
        for (key, c) in state:
            if c == "vs" and key[0] == "scratch" and key[1] < hi and lo < key[2]:
                raise WaitError(f"{where}: reloads scratch bytes {lo}..{hi} while a store to "
                                f"{key[1]}..{key[2]} is in flight (no s_waitcnt_vscnt)")
    if in_order:
        for k, v in state.items():
            if k[1] == counter and not v[1]:
                v[0] += 1
    if dest:
        for r in dest:
            state[(r, counter)] = [0, not in_order]
    elif mnem.startswith("scratch_store"):
        lo, hi = _scratch_bytes(mnem, text)
        state[(("scratch", lo, hi), "vs")] = [0, False]
    elif counter == "lgkm":
        state[(("lds", where), "lgkm")] = [0, False]


def _merge(into, other):
    """Join ``other`` into ``into``; True when ``into`` changed."""
    changed = False
    for k, (younger, scalar) in other.items():
        mine = into.get(k)
        if mine is None:
            into[k] = [younger, scalar]
            changed = True
        elif younger < mine[0] or (scalar and not mine[1]):
            into[k] = [min(younger, mine[0]), scalar or mine[1]]
            changed = True
    return changed


def check(name, text):
    """Raise WaitError at the first instruction of ``text`` (the kernel's assembly) that may
    touch something a memory operation in flight still owns."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    labels = {ln[:-1]: i for i, ln in enumerate(lines) if ln.endswith(":")}
    starts = sorted({0} | set(labels.values()) |
                    {i + 1 for i, ln in enumerate(lines) if ln.startswith(("s_branch", "s_cbranch"))})
    entry = {0: {}}
    work = [0]
    while work:
        b = work.pop()
        state = {k: list(v) for k, v in entry[b].items()}
        i, succ = b, []
        while i < len(lines):
            ln = lines[i]
            if not ln.endswith(":"):
                mnem = ln.split()[0]
                _step(state, mnem, ln, f"{name} line {i + 1} '{ln}'")
                if mnem == "s_endpgm":
                    break
                if mnem.startswith(("s_branch", "s_cbranch")):
                    target = ln.split()[1]
                    if target not in labels:
                        raise WaitError(f"{name} line {i + 1}: branch to unknown label {target}")
                    succ.append(labels[target])
                    if mnem == "s_branch":
                        break
            i += 1
            if i in entry or (i < len(lines) and i in starts):
                succ.append(i)
                break
        for s in succ:
            if s not in entry:
                entry[s] = {k: list(v) for k, v in state.items()}
                work.append(s)
            elif _merge(entry[s], state):
                work.append(s)
