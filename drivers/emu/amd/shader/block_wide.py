"""64-bit VGPR pairs inside a compiled block: a pair's value is joined into uint64 lanes once and
reused by the block's later 64-bit reads, and a 64-bit result written with every lane on is
reused as it is, instead of joining the two dwords again (block.py emits the calls).

The registers are stored register-major, so a pair is two planes and each join is a copy; f64
code reads the same pairs again and again (the Newton steps of a division or a square root).
What a local stands for is decided at compile time from the block's straight-line code: a pair
is forgotten when a later VALU op writes either dword (its destination registers), and every
pair is forgotten at an instruction the compiler does not write out (memory, LDS, DPP,
cross-lane and M0-relative moves write VGPRs through their closures).  A result written under a
partial EXEC is not the register's value (the inactive lanes keep the old bits), so the write
leaves the local None and the next read joins the pair from the registers."""
from .vector import DualOp, VectorOp

JOINED, MAYBE = "joined", "maybe"         # the local holds the pair / holds it or None


def _local(r):
    return f"q{r}"


def wide_read(e, r):
    """The expression of VGPR pair r as uint64 lanes, joining it into its local when needed.
    ``e.branch``: the code is being emitted inside one branch of a conditional (the local must
    not be assigned there: the other branch would leave it unset)."""
    state = e.wide.get(r)
    name = _local(r)
    if state == JOINED:
        return name
    if e.branch:
        return f"J(V, {r}, sel)" if state is None else f"({name} if {name} is not None else J(V, {r}, sel))"
    if state is None:
        e.emit(f"{name} = J(V, {r}, sel)")
    else:
        e.emit(f"if {name} is None: {name} = J(V, {r}, sel)")
    e.wide[r] = JOINED
    return name


def put64_line(e, r, value):
    """The line writing a 64-bit result to pair r under EXEC, keeping it as the pair's local
    when every lane was written; the local becomes current when the op's writes are committed
    (``wide_written``)."""
    e.wide_pending.append(r)
    return f"{_local(r)} = PUT64F(V, {r}, sel, {value}, em, n)"


def _written(op):
    if not op.dst_bits or op.vdst is None:
        return ()
    return range(op.vdst, op.vdst + max(1, (op.dst_bits + 31) // 32))


def wide_written(e, ops):
    """After the writes of the VALU ops ``ops``: forget the pairs holding a dword they wrote,
    then take the 64-bit results written by ``put64_line`` as their pairs' locals."""
    for op in ops:
        for reg in _written(op):
            e.wide.pop(reg, None)
            e.wide.pop(reg - 1, None)
    for r in e.wide_pending:
        e.wide[r] = MAYBE
    e.wide_pending.clear()


SCALAR_ONLY = frozenset(("SOP1", "SOP2", "SOPC", "SOPK", "SOPP", "SMEM"))     # write no VGPR


def wide_step(e, step):
    """Before an instruction the compiler does not write out as VALU code: every pair is
    forgotten unless it writes no VGPR (ordering, SALU, SMEM, v_readfirstlane / v_readlane)."""
    fn, ins = step.body, step.ins
    if fn is None or isinstance(fn, DualOp) or isinstance(fn, VectorOp) and fn.dpp is None:
        return
    if ins.family in SCALAR_ONLY or ins.mnemonic in ("v_readfirstlane_b32", "v_readlane_b32"):
        return
    e.wide.clear()
