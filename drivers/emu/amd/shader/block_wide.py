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
from .block_forms import with_signs
from .state import SGPR_CODES
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


# -- 64-bit integer compares and v_ashrrev_i64 written out -------------------------------------
_COMPARES64 = {"lt": "np.less", "eq": "np.equal", "le": "np.less_equal", "gt": "np.greater",
               "ne": "np.not_equal", "ge": "np.greater_equal"}


def wide_integer(e, op, v):
    """The 64-bit integer compares (v_cmp/v_cmpx lt/eq/le/gt/ne/ge of u64 and i64: the library's
    comparison of the sources as uint64, or as int64 for i64) and v_ashrrev_i64 (S1 as int64
    shifted by S0[5:0]) without modifiers, on the pairs as uint64 lanes: emits the computation
    and returns the lines writing the result, or None for any other op."""
    from .block import _inline_source, _library_op, _mask_lines, _vector_source
    m = op.mnemonic
    parts = m.split("_")
    compare = len(parts) == 4 and parts[1] in ("cmp", "cmpx") and parts[2] in _COMPARES64 \
        and parts[3] in ("u64", "i64")
    if not (compare or m == "v_ashrrev_i64") or not _library_op(op, wide=not compare):
        return None
    if compare:
        a, b = (_vector_source(e, op, o, 64, r) for o, r in zip(op.sources, op.readers))
        if parts[3] == "i64":
            a, b = (f"{x}.astype(U64, copy=False).view(np.int64)" for x in (a, b))
        e.emit(f"m{v} = {_COMPARES64[parts[2]]}({a}, {b})")
        return _mask_lines(e, op, v)
    count, value = op.sources
    if not all(o.kind in ("vgpr", "const", "literal") or (o.kind == "sgpr" and o.value < SGPR_CODES)
               for o in op.sources):
        return None
    count = _inline_source(e, op, 0)
    x = _vector_source(e, op, value, 64, op.readers[1])
    e.emit(f"d{v} = np.right_shift({x}.astype(U64, copy=False).view(np.int64), "
           f"np.bitwise_and({count}, U32(63)).astype(np.int64)).view(U64)")
    return [put64_line(e, op.vdst, f"d{v}")]


# -- independent f64 fmas in one call -----------------------------------------------------------
def fma_groups(steps):
    """Runs of v_fma_f64 ops with nothing but ordering-only steps between, each reading no register
    an earlier one of its run writes, all writing different registers: their written-out fmas run
    as one call over all of them (the Newton steps of a division and of a square root that
    compilers interleave).  A run is a chain {i: j, j: k, ...} from each member to the next."""
    chain, run = {}, []
    for i, s in enumerate(steps):
        if s.body is None:
            continue
        fusable = _fusable(s.body)
        if fusable and run and all(_independent(steps[k].body, s.body) for k in run):
            chain[run[-1]] = i
            run.append(i)
            continue
        run = [i] if fusable else []
    return chain


def _fusable(op):
    from .block import _library_op
    return isinstance(op, VectorOp) and op.dpp is None and op.mnemonic == "v_fma_f64" \
        and _library_op(op, wide=True, signs=True) \
        and all(o.kind in ("vgpr", "const", "literal") for o in op.sources)


def _independent(x, y):
    written = set(_written(x))
    read = {r for o in y.sources if o.kind == "vgpr" for r in (o.value, o.value + 1)}
    return not written & read and not written & set(_written(y))


def fused_step(e, s, i):
    """Emit step i with the rest of its run when it is the first of an fma run (True), or nothing
    when it is a later member (True: emitted with the first); False for any other step."""
    if i in e.fused_second:
        return True
    j = e.fused.get(i)
    if j is None:
        return False
    from .block import _commit, _emit_call, _f64_plain, _float_globals
    run = [s.body]
    while j is not None:
        run.append(e.fused_ops[j])
        e.fused_second.add(j)
        j = e.fused.get(j)
    names = ["a", "b"] + [f"b{k}" for k in range(2, len(run))]
    e.need_em()
    _float_globals(e)
    args = [a for op in run for a in _fma_args(e, op)]
    flag = e.slot(lambda fm, n, lane: _f64_plain(fm))
    e.emit(f"if {flag}: {', '.join('d' + v for v in names)} = FMA64N({', '.join(args)})")
    e.emit("else:")
    mark = len(e.lines)
    e.branch = True
    post = [line for op, v in zip(run, names) for line in _emit_call(e, op, v)]
    e.branch = False
    e.lines[mark:] = ["    " + line for line in e.lines[mark:]]
    _commit(e, post)
    wide_written(e, run)
    return True


def _fma_args(e, op):
    """The sources of a fusable fma as float64 lanes, with the abs and neg bits applied to the
    bits as the library's operand reads apply them (abs first)."""
    from .block import _wide_sources
    args = with_signs(_wide_sources(e, op), op.kw.get("abs", 0), op.kw.get("neg", 0), True, 3)
    return [f"{a}.view(F64)" for a in args]
