"""Straight-line blocks of a program compiled once into one Python function each.

A block starts at any PC a group of waves reaches and runs to the first instruction that moves
the PC or ends the wave (included), to an instruction that changes MODE (included), or to the
first one that cannot be decoded (excluded: executing up to it raises the proper fault).  The
function it compiles to executes every instruction of the block for a group of waves:

* register operands are direct slices of the register files (``V[reg, sel]``: one VGPR of the
  group, contiguous in the register-major storage), constants are arrays prepared once per
  group size, the VALU library's op functions are called without the per-call float-warning
  guard (the executor silences numpy for the whole dispatch);
* the float mode is decided once per block: every instruction's Ctx is built per (MODE, group
  size) and reused; the executor runs a block only when every wave shares one MODE;
* EXEC is read once at entry (None when every lane is on, the unmasked fast path), and again
  only after an instruction that can write it; a group of up to 64 waves unpacks each EXEC or
  carry-in bit pattern once (they repeat: loop masks, carries that are mostly clear);
* a lane mask a VALU op writes to an SGPR other than EXEC (a carry, a compare into VCC) is kept
  as bool lanes for the block's later carry-in reads, and is not packed into the SGPR when a
  later op overwrites it with only inlined VALU ops between that read it, if at all, as their
  carry-in (the chains of 64-bit address arithmetic);
* instructions that only order or hint (s_waitcnt, s_delay_alu, s_nop, s_clause...) emit no
  code; the executor adds the block's instruction and lane-operation counts once;
* the integer ops that are one uint32 ufunc in the VALU library (adds, subs, logic, shifts,
  min/max, v_mul_lo_u32, moves; INLINE_OPS), without modifiers, are emitted as that ufunc and
  written in place: an augmented operator (``x += ...``) when the destination is a source,
  ``out=`` (``where=`` EXEC) otherwise; 32-bit integer compares are one numpy comparison, the
  wrapping carry ops (v_add_co_u32, v_sub_co_ci_u32...) and v_cndmask_b32 the library's own
  expressions, their masks read from the forwarded lanes;
* the three-operand integer ops (v_lshl_add_u32, v_add3_u32, v_and_or_b32...), multiply-high, the
  24-bit multiplies, v_bfe_u32, v_bfi_b32 and signed min/max/med3 are one numpy expression each;
* what the compiler does not specialise (memory, LDS, DPP, cross-lane moves, control) calls the
  instruction's own closure, exactly as the per-instruction path does.

The semantics stay in the per-instruction implementations (the VALU library, the SALU tables);
this module only removes the interpretation around them.  When an instruction raises, the line
of the generated code that raised names it (``Block.failed_at``), so the executor can report
its PC and count exactly the instructions that ran.
"""
import numpy as np

from .block_runtime import HELPERS, constant
from .block_ints import BIT_OPS, bit_op, folded
from .block_float import HELPERS as FLOAT_HELPERS, MODELESS, UNARY, canonical, double_op, float_compare
from .block_half import half_op
from .block_forms import (AUGMENTED, CARRY_LINES, COMMUTATIVE, COMPARES, EXPRESSIONS, FLOAT_FAST,
                          INLINE_OPS, SHIFTS64, with_signs)
from .block_salu import emit_branch, emit_readfirstlane, emit_salu, scc_dead
from .block_code import Block
from .block_wide import fma_groups, fused_step, put64_line, wide_integer, wide_read, wide_step, wide_written
from .operands import constant_value
from .state import EXEC_HI, EXEC_LO, NULL, SGPR_CODES, VCC_LO, WAVE32
from .vector import DualOp, VectorOp

U32, U64, I32 = np.uint32, np.uint64, np.int32
MAX_INSTRUCTIONS = 400
# instructions that never fall through (they raise): a block ends with them
NO_FALL_THROUGH = frozenset(("s_code_end", "s_trap", "s_sethalt", "s_sendmsghalt", "s_rfe_b64", "v_illegal"))
MODE_WRITERS = frozenset(("s_setreg_b32", "s_setreg_imm32_b32", "s_round_mode", "s_denorm_mode"))
# read the wave-instruction counter (the timestamp of a GPU without a clock)
DEST_ROLES = ("sdst", "vdst", "sdata")
COUNTER_READERS = frozenset(("s_getreg_b32", "s_sendmsg_rtn_b32", "s_sendmsg_rtn_b64"))


# -- the compiler -----------------------------------------------------------------------------
def _reads_old(fn):
    """Whether an op function can look at its ``old`` argument (the destination's previous
    bits): False only when its code never loads the name and no inner function captures it."""
    import dis
    code = fn.__code__
    if "old" in code.co_cellvars:
        return True
    return any(i.opname.startswith("LOAD") and i.argval == "old" for i in dis.get_instructions(code))


def _raw(fn):
    """A VALU function without its float-warning guard (the dispatch runs with warnings off)."""
    return getattr(fn, "__wrapped__", fn)


class _Emitter:
    def __init__(self, env):
        self.env = env
        self.lines = []
        self.globals = dict(HELPERS)
        self.prepare = []          # make(float_mode, n, lanes) -> an entry of C
        self._names = {}
        self.em_valid = False      # whether ``em`` holds the current EXEC at this point
        self.full = None
        self.fwd = {}              # SGPR -> the name holding its lane mask as bool (w, 32)
        self.dead = set()          # ids of VALU ops whose lane-mask write is overwritten unread
        self.unread = set()        # ... and not even read as a carry-in before that
        self.wide = {}             # VGPR pair -> state of its uint64 local (block_wide.py)
        self.wide_pending = []
        self.branch = False        # emitting inside one branch of a conditional
        self.fused, self.fused_ops, self.fused_second = {}, {}, set()    # fma groups (block_wide)
        self.calls = {}            # name of a closure called on a line of its own -> its Step

    def need_em(self):
        """Make ``em`` current before code that writes under EXEC."""
        if not self.em_valid:
            if self.full is None:
                self.full = self.slot(lambda fm, n, lane: b"\xff" * (4 * n))
            self.emit(f"em = EM(S[{EXEC_LO}, sel], {self.full})")
            self.em_valid = True

    def name(self, obj, prefix="g"):
        key = id(obj)
        n = self._names.get(key)
        if n is None:
            n = self._names[key] = f"{prefix}{len(self._names)}"
            self.globals[n] = obj
        return n

    def slot(self, make):
        self.prepare.append(make)
        return f"C[{len(self.prepare) - 1}]"

    def emit(self, line):
        self.lines.append("    " + line)


def compile_block(program, pc):
    steps = [program.step(pc)]
    while len(steps) < MAX_INSTRUCTIONS and not _ends_block(steps[-1]):
        try:
            steps.append(program.step(steps[-1].next_pc))
        except Exception:            # noqa: BLE001 - executing up to it raises it properly
            break
    e = _Emitter(program.env)
    e.dead, e.unread = _dead_mask_writes(steps)
    e.fused = fma_groups(steps)
    e.fused_ops = {j: steps[j].body for j in e.fused.values()}
    e.scc_dead = scc_dead(steps, lambda s: _inline_valu(s) is not None)
    starts = []
    e.lines.append("def block(st, sel, n, C):")
    e.emit("V = st.vregs; S = st.sregs; SCC = st.scc; IX = type(sel) is not slice")
    for i, s in enumerate(steps):
        starts.append(len(e.lines) + 1)
        e.emit(f"# 0x{s.next_pc - s.size:x}: {s.text}")
        # the executor counted the whole block before running it: a reader of the counter sees
        # the instructions up to and including its own
        later = len(steps) - 1 - i
        if s.ins.mnemonic in COUNTER_READERS and later:
            e.emit(f"st.wave_instructions -= n * {later}")
            _emit_step(e, s, i)
            e.emit(f"st.wave_instructions += n * {later}")
        else:
            _emit_step(e, s, i)
    last = steps[-1]
    e.emit("return None")
    b = Block()
    b.pc, b.pcs = pc, [s.next_pc - s.size for s in steps]
    b.count, b.vector = len(steps), sum(s.vector for s in steps)
    b.vector_upto = list(np.cumsum([s.vector for s in steps]).tolist())
    b.next_pc, b.sets_pc, b.ends = last.next_pc, last.sets_pc, last.ends
    b.source = "\n".join(e.lines) + "\n"
    b._lines, b._prepare, b._prepared = starts, e.prepare, {}
    code = compile(b.source, f"<block 0x{pc:x}>", "exec")
    namespace = e.globals
    b._globals = dict(namespace)
    exec(code, namespace)
    b.fn = namespace["block"]
    b._code = b.fn.__code__
    b.fs = b._code_s = b.fx = b._code_x = None
    b._gathered, b._calls = None, e.calls
    return b


def _inline_valu(step):
    """The VALU ops the compiler inlines for ``step`` (None when it calls a closure)."""
    fn = step.body
    if isinstance(fn, VectorOp) and fn.dpp is None:
        return (fn,)
    if isinstance(fn, DualOp):
        return fn.x, fn.y
    return None


def _reads_sgpr(op, k):
    """Whether op reads SGPR k as a data source (its carry-in mask is forwarded, not read)."""
    for o in op.sources:
        if o.kind not in ("vgpr", "const", "literal") and o is not op.mask_operand \
                and o.value <= k < o.value + max(1, o.nregs):
            return True
    return False


def _dead_mask_writes(steps):
    """VALU lane-mask writes (VCC and other SGPRs; not EXEC) that a later VALU op of the block
    overwrites with nothing but inlined VALU ops in between that read the mask, if at all, as
    their carry-in (which the compiler forwards as the bool lanes): the usual carry chains of
    64-bit address arithmetic.  Their packing into the SGPR is skipped.  Returns (those, the
    ones of them no op reads at all, whose lanes need not be computed either)."""
    dead, unread = set(), set()
    for i, s in enumerate(steps):
        for op in _inline_valu(s) or ():
            k = op.mask_dst
            if not op.op.mask_out or k is None or k >= SGPR_CODES or k in (NULL, EXEC_LO, EXEC_HI):
                continue
            carried = False
            for t in steps[i + 1:]:
                if t.body is None:
                    continue
                later = _inline_valu(t)
                if later is None or any(_reads_sgpr(o, k) for o in later):
                    break
                carried = carried or any(_carries(o, k) for o in later)
                if any(o.op.mask_out and o.mask_dst == k for o in later):
                    dead.add(id(op))
                    if not carried:
                        unread.add(id(op))
                    break
    return dead, unread


def _carries(op, k):
    """Whether op reads SGPR k as its carry-in / select mask (VCC when it names none)."""
    if not op.op.mask_in:
        return False
    m = op.mask_operand
    return (VCC_LO if m is None else m.value if m.kind == "sgpr" else None) == k


def _ends_block(step):
    m = step.ins.mnemonic
    return step.sets_pc or step.ends or m in NO_FALL_THROUGH or m in MODE_WRITERS


def _emit_step(e, s, i):
    fn, ins = s.body, s.ins
    wide_step(e, s)
    if fn is None or fused_step(e, s, i):
        return                                            # ordering only: costs nothing
    if s.sets_pc or s.ends:
        if emit_branch(e, s):
            return
        e.emit(f"st.pc[sel] = {s.next_pc - s.size}")
        e.emit(f"return {e.name(fn, 'f')}(st, sel)")
        return
    if isinstance(fn, VectorOp) and fn.dpp is None:
        e.need_em()
        if _inline_form(fn) is not None:
            _emit_inline_in_place(e, fn)
        else:
            _commit(e, _emit_valu(e, fn, "a"))
        wide_written(e, (fn,))
        return
    if isinstance(fn, DualOp):
        e.need_em()
        px = _emit_valu(e, fn.x, "a")
        py = _emit_valu(e, fn.y, "b")         # both halves read before either writes
        if fn.y_reads_x_dst:                      # Y's result may be a view of X's destination
            e.emit("db = np.array(db)")
        _commit(e, px + py)
        wide_written(e, (fn.x, fn.y))
        return
    if ins.mnemonic == "v_readfirstlane_b32" and emit_readfirstlane(e, ins, fn):
        return
    e.fwd.clear()              # anything else may write SGPRs: masks are read from them again
    fam = ins.family
    if fam in ("SOP1", "SOP2", "SOPC", "SOPK") and emit_salu(e, ins, i in e.scc_dead):
        if _writes_exec(ins):
            e.em_valid = False
        return
    e.calls[e.name(fn, 'f')] = s
    e.emit(f"{e.name(fn, 'f')}(st, sel)")
    if _writes_exec(ins) or (isinstance(fn, VectorOp) and fn.mask_dst == EXEC_LO):
        e.em_valid = False


def _commit(e, lines):
    for line in lines:
        if line is None:                  # the instruction wrote EXEC
            e.em_valid = False
        else:
            e.emit(line)


def _writes_exec(ins):
    m = ins.mnemonic
    if "exec" in m or m.startswith(("v_cmpx", "s_movreld")):
        return True
    return any(o.role in DEST_ROLES and o.kind == "sgpr" and o.value <= EXEC_HI
               and o.value + max(1, o.nregs) > EXEC_LO for o in ins.operands)


# -- VALU -------------------------------------------------------------------------------------
def _vector_source(e, op, o, bits, reader):
    if o.kind == "vgpr" and bits == 32:
        return f"V[{o.value}, sel]"
    if o.kind == "vgpr" and bits == 64:
        return wide_read(e, o.value)
    if o.kind in ("const", "literal") and bits in (32, 64):
        value = (U64 if bits == 64 else U32)(constant_value(o, bits, op.mnemonic))
        if "med3" in op.mnemonic:          # a clamp's bounds: fmed3 clips when two are uniform
            return e.slot(lambda fm, n, lane, v=value: np.broadcast_to(v, (n, WAVE32)))
        return e.slot(lambda fm, n, lane, v=value: constant(v, n))
    if o.kind == "sgpr" and bits == 32 and o.value < SGPR_CODES:
        return f"LS(S[{o.value}, sel])"
    return f"{e.name(reader, 'r')}(st, sel)"


def _emit_valu(e, op, tag):
    """Emit the computation of one VALU op now; return the lines that write its results."""
    v = tag                 # names reused per instruction: a finished result is freed at once
    if _inline_form(op) is not None:
        e.emit(f"d{v} = {_inline_expr(e, op)}")
        return _write_lines(op.vdst, f"d{v}")
    compare = _inline_compare(e, op)
    if compare is not None:
        e.emit(f"m{v} = {compare}")
        return _mask_lines(e, op, v, _full_lanes(op))
    fast = float_compare(e, op)
    if fast is not None and fast[0] is None:                # depends on no MODE field
        e.emit(f"m{v} = {fast[1]}")
        return _mask_lines(e, op, v)
    if fast is not None:
        return _flagged(e, op, v, fast[0], f"m{v} = {fast[1]}")
    post = wide_integer(e, op, v)
    if post is not None:
        return post
    lane_count = _lane_count(e, op)
    if lane_count is not None:
        e.emit(f"d{v} = {lane_count}")
        return _write_lines(op.vdst, f"d{v}")
    lines = _inline_lines(e, op, v)
    if lines is not None:
        for line in lines:
            e.emit(line)
        return _write_lines(op.vdst, f"d{v}") + (_mask_lines(e, op, v, _full_lanes(op)) if op.op.mask_out else [])
    expr = _expression(e, op)
    if expr is not None:
        e.emit(f"d{v} = {expr}")
        return _write_lines(op.vdst, f"d{v}")
    post = _inline_wide(e, op, v)
    if post is not None:
        return post
    fast = _float_fast(e, op) or _f32_unary(e, op) or half_op(e, op) or double_op(e, op)
    if fast is None:
        return _emit_call(e, op, v)
    flag, expr = fast
    if flag is None:                  # depends on no MODE field
        e.emit(f"d{v} = {expr}")
        return _write_lines(op.vdst, f"d{v}")
    return _flagged(e, op, v, flag, f"d{v} = {expr}")


def _flagged(e, op, v, flag, line):
    """``line`` (the result written out) where the per-MODE ``flag`` holds, else the library's
    call; returns the lines that write the results."""
    e.emit(f"if {flag}: {line}")
    e.emit("else:")
    mark = len(e.lines)
    e.branch = True
    post = _emit_call(e, op, v)
    e.branch = False
    e.lines[mark:] = ["    " + line for line in e.lines[mark:]]
    return post


def _emit_call(e, op, v):
    """Emit a call of the op's VALU library function; return the lines that write its results."""
    srcs = [_vector_source(e, op, o, bits, r) for o, bits, r in zip(op.sources, op.op.src_bits, op.readers)]
    kw = op.kw

    def make_ctx(fm, n, lane, kw=kw, Ctx=e.env.Ctx):
        return Ctx(mode=fm, mask=None, lane=lane, wave32=True, **kw)
    ctx = e.slot(make_ctx)
    bits = op.dst_bits
    old = "None"
    if bits > 64 or bits and _reads_old(_raw(op.op.fn)):
        if bits == 32:
            old = f"V[{op.vdst}, sel]"
        elif bits == 64:
            old = wide_read(e, op.vdst)
        else:
            old = f"{e.name(op.old_reader, 'r')}(st, sel)"
    if op.op.mask_in:
        e.emit(f"c{v} = {ctx}; c{v}.mask = {_mask_in(e, op)}")
        ctx = f"c{v}"
    if bits > 64:
        e.emit(f"o{v} = {old}")
        old = f"o{v}"
    e.emit(f"r{v} = {e.name(_raw(op.op.fn), 'op')}({ctx}, [{', '.join(srcs)}], {old})")
    post = []
    if op.op.mask_out:
        if bits:
            e.emit(f"d{v}, m{v} = r{v}")
        else:
            e.emit(f"m{v} = r{v}")
    else:
        e.emit(f"d{v} = r{v}")
    if bits == 32:
        post += _write_lines(op.vdst, f"d{v}")
    elif bits == 64:
        post.append(put64_line(e, op.vdst, f"d{v}"))
    elif bits:
        post.append(f"WV(st, sel, {op.vdst}, {bits}, d{v}, em, o{v})")
    if op.op.mask_out:
        post += _mask_lines(e, op, v)
    return post


def _inline_wide(e, op, v):
    """The 64-bit address arithmetic of compiled kernels written out: v_lshlrev_b64 /
    v_lshrrev_b64 (the library's S1 shifted by S0[5:0], a constant count folded) and
    v_mad_u64_u32 without clamp (S0 * S1 in uint64, exact, plus S2, the carry where the sum
    wrapped).  Emits the computation of d{v} (and m{v}); returns the lines writing the
    results, or None for any other op or a replaced registry."""
    from .valu import VALU
    m = op.mnemonic
    if m not in SHIFTS64 and m != "v_mad_u64_u32" or VALU.get(m) is not op.op or any(op.kw.values()):
        return None
    if not all(o.kind in ("vgpr", "const", "literal") or (o.kind == "sgpr" and o.value < SGPR_CODES)
               for o in op.sources):
        return None
    if m in SHIFTS64:
        count, value = op.sources
        if count.kind in ("const", "literal") and value.kind == "vgpr":
            return _shift64_halves(e, op, v, int(constant_value(count, 32, m)) & 63)
        if count.kind in ("const", "literal"):
            n = e.name(U64(int(constant_value(count, 32, m)) & 63), "shift")
        else:
            n = f"np.bitwise_and({_inline_source(e, op, 0)}, U32(63)).astype(U64)"
        src = _vector_source(e, op, value, 64, op.readers[1])
        e.emit(f"d{v} = {SHIFTS64[m]}({src}, {n})")
        return [put64_line(e, op.vdst, f"d{v}")]
    a, b = _inline_source(e, op, 0), _inline_source(e, op, 1)
    addend = op.sources[2]
    if addend.kind in ("const", "literal") and int(constant_value(addend, 64, m)) == 0:
        e.emit(f"p{v} = np.multiply({a}, {b}, dtype=U64); d{v} = p{v}")     # + 0: the product
    else:
        c = _vector_source(e, op, addend, 64, op.readers[2])
        e.emit(f"p{v} = np.multiply({a}, {b}, dtype=U64); d{v} = np.add(p{v}, {c})")
    post = [put64_line(e, op.vdst, f"d{v}")]
    if op.mask_dst != NULL:
        e.emit(f"m{v} = np.less(d{v}, p{v})")
        post += _mask_lines(e, op, v, True)
    return post


def _shift64_halves(e, op, v, n):
    """A 64-bit shift of a VGPR pair by a constant count n, on the two dwords: each result
    dword is the source dword moved over plus the bits the other one passes across (the
    library's uint64 shift, without joining and splitting the pair).  Emits the low result as
    d{v} and the high one as h{v}; returns the lines writing them."""
    lo, hi = f"V[{op.sources[1].value}, sel]", f"V[{op.sources[1].value + 1}, sel]"
    left = op.mnemonic == "v_lshlrev_b64"
    near, far = (lo, hi) if left else (hi, lo)        # the dword bits move away from / into
    into, away = ("np.left_shift", "np.right_shift") if left else ("np.right_shift", "np.left_shift")
    if n == 0:
        moved, crossed = f"{near}.copy()", f"{far}.copy()"
    elif n < 32:
        e.emit(f"x{v} = {into}({far}, U32({n})); x{v} |= {away}({near}, U32({32 - n}))")
        moved, crossed = f"{into}({near}, U32({n}))", f"x{v}"
    else:
        moved, crossed = f"np.zeros_like({near})", f"{into}({near}, U32({n - 32}))"
    # the near dword of the result only receives zeros and shifted-in bits of itself
    e.emit(f"n{v} = {moved}; f{v} = {crossed}")
    d = op.vdst
    low, high = (f"n{v}", f"f{v}") if left else (f"f{v}", f"n{v}")
    return _write_lines(d, low) + _write_lines(d + 1, high)


def _f32_plain(fm):
    """Whether MODE ``fm`` lets the FLOAT_FAST forms stand for the library's f32 ops."""
    from .valu.fp import F32
    return fm.round_f32 == 0 and bool(F32.keep(fm)) and bool(F32.keep_in(fm))


def _f64_plain(fm):
    """Whether MODE ``fm`` lets the FLOAT_FAST forms stand for the library's f64 ops."""
    from .valu.fp import F64
    return fm.round_f16_64 == 0 and bool(F64.keep(fm)) and bool(F64.keep_in(fm))


def _float_fast(e, op):
    """(the per-MODE flag, the expression of the result bits) of an f32 or f64 op of
    FLOAT_FAST without modifiers, or None."""
    form = FLOAT_FAST.get(op.mnemonic)
    wide = op.mnemonic.endswith("_f64")
    if form is None or op.dst_bits != (64 if wide else 32) or op.op.mask_in or op.op.mask_out \
            or not _library_op(op, wide, signs=True):
        return None
    neg, abs_ = op.kw.get("neg", 0), op.kw.get("abs", 0)
    if "{d}" in form and (neg | abs_) >> 2 & 1:
        return None
    args = _wide_sources(e, op) if wide else _inline_sources(e, op)
    if args is None:
        return None
    _float_globals(e)
    ctx = ""
    if "{ctx}" in form:
        ctx = _plain_ctx(e, op)
    flag = e.slot(lambda fm, n, lane: _f64_plain(fm)) if wide else e.slot(lambda fm, n, lane: _f32_plain(fm))
    if not (neg | abs_) and op.mnemonic in ("v_max_f32", "v_min_f32", "v_max_f64", "v_min_f64") and _same_vgpr(op):
        # max(x, x) / min(x, x): clang's canonicalize; the library's choice between two equal
        # operands is x itself, a signalling NaN quieted in IEEE mode
        return flag, f"CANON({ctx}, {args[0]})"
    args = with_signs(args, abs_, neg, wide)
    if wide:
        return flag, f"{form.format(*(f'{a}.view(F64)' for a in args), ctx=ctx)}.view(U64)"
    args = [f"{a}.view(F32)" for a in args]
    expr = form.format(*args, d=f"V[{op.vdst}, sel].view(F32)", ctx=ctx)
    return flag, f"{expr}.view(U32)"


def _f32_unary(e, op):
    """(the per-MODE flag, the expression of the result bits) of an f32 conversion, rounding
    or transcendental of block_float.UNARY without modifiers, or None (no flag: MODELESS)."""
    form = UNARY.get(op.mnemonic)
    if form is None or op.dst_bits != 32 or op.op.mask_in or op.op.mask_out or not _library_op(op):
        return None
    args = _inline_sources(e, op)
    if args is None:
        return None
    e.globals.update(FLOAT_HELPERS)
    flag = None if op.mnemonic in MODELESS else e.slot(lambda fm, n, lane: _f32_plain(fm))
    return flag, form.format(*args)


def _float_globals(e):
    if "FMA" not in e.globals:
        from .valu.fp import F32, F64, fma64_group, fma64_quiet, fma_narrow, fmax, fmed3, fmin
        e.globals.update(FMA=fma_narrow, FMAX=fmax, FMIN=fmin, FMED3=fmed3, F32F=F32, F32=np.float32,
                         FMA64=fma64_quiet, FMA64N=fma64_group, F64F=F64, F64=np.float64, CANON=canonical)


def _plain_ctx(e, op):
    kw = op.kw

    def make_ctx(fm, n, lane, kw=kw, Ctx=e.env.Ctx):
        return Ctx(mode=fm, mask=None, lane=lane, wave32=True, **kw)
    return e.slot(make_ctx)


def _same_vgpr(op):
    a, b = op.sources[:2]
    return a.kind == b.kind == "vgpr" and a.value == b.value


def _wide_sources(e, op):
    """The 64-bit sources of an f64 op read as the library's readers read them (a VGPR pair
    joined, a constant's lanes, an SGPR pair through its reader)."""
    if len(op.op.src_bits) != len(op.sources) or any(b != 64 for b in op.op.src_bits):
        return None
    return [_vector_source(e, op, o, 64, r) for o, r in zip(op.sources, op.readers)]


def _full_lanes(op):
    """Whether the mask an inlined compare or carry op computes has every lane's bool, (w, 32):
    a source is a VGPR or a constant (SGPR columns alone give (w, 1))."""
    return any(o.kind in ("vgpr", "const", "literal") for o in op.sources)


def _mask_lines(e, op, v, lanes=False):
    """The lines writing the lane mask ``m{v}`` of ``op`` (a carry, a compare's VCC or SGPR, or
    EXEC for v_cmpx); a mask other than EXEC is also kept as lanes for the block's carry-ins.
    ``lanes``: m{v} is known to be bool (w, 32), EXEC-masked here without MK's checks."""
    post = []
    k = op.mask_dst
    if id(op) in e.unread:
        e.fwd.pop(k, None)
        return post
    masked = f"m{v} if em is None else m{v} & em" if lanes else f"MK(m{v}, n, em)"
    if k != NULL:
        if k < SGPR_CODES and k not in (EXEC_LO, EXEC_HI):
            post.append(f"k{k} = {masked}")
            if id(op) not in e.dead:
                post.append(f"S[{k}, sel] = PK(k{k})")
            e.fwd[k] = f"k{k}"
        elif lanes:
            post.append(f"S[{k}, sel] = PK({masked})")
            e.fwd.pop(k, None)
        else:
            post.append(f"S[{k}, sel] = PACK(m{v}, n, em)")
            e.fwd.pop(k, None)
        if k == EXEC_LO:
            post.append(None)
    return post


def _mask_in(e, op):
    """The carry-in / select mask of ``op`` as bool lanes: forwarded lanes, or the SGPR unpacked."""
    m = op.mask_operand
    k = VCC_LO if m is None else m.value if m.kind == "sgpr" and m.value < SGPR_CODES else None
    if k in e.fwd:
        return e.fwd[k]
    if k is not None:
        return f"UL(S[{k}, sel])"
    return f"UL({e.name(op.mask_reader, 'r')}(st, sel))"


def _expression(e, op):
    """The numpy expression of an EXPRESSIONS op without modifiers, or None."""
    form = EXPRESSIONS.get(op.mnemonic)
    if form is None and op.mnemonic not in BIT_OPS or op.dst_bits != 32 or not _library_op(op) \
            or not all(o.kind in ("vgpr", "const", "literal") or o.kind == "sgpr" and o.value < SGPR_CODES
                       for o in op.sources):
        return None
    if form is None:
        return bit_op(e, op, lambda: _inline_sources(e, op))
    return folded(e, op, form, _inline_sources(e, op))


def _lane_count(e, op):
    """v_mbcnt_lo_u32_b32 of an all-ones mask (clang's lane id): the bits of S0 below a lane
    are as many as the lane's number, plus S1, wrapping; None for anything else."""
    if op.mnemonic != "v_mbcnt_lo_u32_b32" or not _library_op(op):
        return None
    mask = op.sources[0]
    if mask.kind not in ("const", "literal") or int(constant_value(mask, 32, op.mnemonic)) != 0xFFFFFFFF:
        return None
    args = _inline_sources(e, op)
    if args is None:
        return None
    lanes = e.slot(lambda fm, n, lane: lane)          # uint32 lane numbers, read-only
    return f"np.add({lanes}, {args[1]})"


def _inline_lines(e, op, v):
    """The lines of an inlined carry op or v_cndmask_b32 (see CARRY_LINES), or None."""
    lines = CARRY_LINES.get(op.mnemonic)
    if lines is None or op.dst_bits != 32 or not _library_op(op):
        return None
    args = _inline_sources(e, op)
    if args is None:
        return None
    if op.op.mask_in:
        e.emit(f"c{v} = {_mask_in(e, op)}")
    lines = [line.format(v=v, a=args[0], b=args[1], c=f"c{v}") for line in lines]
    if id(op) in e.unread and lines[-1].startswith(f"m{v} = "):
        return lines[:-1]                 # a carry-out nothing reads before it is overwritten
    if op.mnemonic in ("v_add_co_u32", "v_add_co_ci_u32") and op.sources[0].kind != "vgpr" \
            and op.sources[1].kind == "vgpr":
        # the sum wraps iff it is below either addend: compare with the VGPR's lanes rather
        # than with an SGPR column numpy broadcasts (the same bools, a cheaper loop)
        first = "d" if op.mnemonic == "v_add_co_u32" else "t"
        lines[-1] = lines[-1].replace(f"np.less({first}{v}, {args[0]})", f"np.less({first}{v}, {args[1]})")
    return lines


def _inline_compare(e, op):
    """The numpy expression of a 32-bit integer v_cmp/v_cmpx without modifiers (the library's
    own op; signed ones compare the bits as int32), or None."""
    parts = op.mnemonic.split("_")
    if len(parts) != 4 or parts[0] != "v" or parts[1] not in ("cmp", "cmpx") or parts[3] not in ("u32", "i32") \
            or parts[2] not in COMPARES or not _library_op(op):
        return None
    args = _inline_sources(e, op)
    if args is None:
        return None
    if parts[3] == "i32":
        args = [f"{a}.view(I32)" for a in args]
    return f"{COMPARES[parts[2]]}({args[0]}, {args[1]})"


def _write_lines(vdst, value):
    """The lines writing a 32-bit result ``value`` to VGPR ``vdst`` under EXEC."""
    return [f"if em is None: V[{vdst}, sel] = {value}",
            f"elif IX: V[{vdst}, sel] = np.where(em, {value}, V[{vdst}, sel])",
            f"else: CP(V[{vdst}, sel], {value}, casting='unsafe', where=em)"]


def _inline_form(op):
    """The INLINE_OPS entry of ``op`` when it may be inlined (the library's own op, no source or
    output modifiers, every source a VGPR, SGPR or constant), else None."""
    form = INLINE_OPS.get(op.mnemonic, False)
    if form is False or op.dst_bits != 32 or not _library_op(op):
        return None
    for o in op.sources:
        if not (o.kind in ("vgpr", "const", "literal") or (o.kind == "sgpr" and o.value < SGPR_CODES)):
            return None
    return form or ("", None)


def _inline_source(e, op, i):
    """Source i of an inlined op read as 32 bits (a VGPR, a constant or an SGPR column)."""
    o = op.sources[i]
    if o.kind == "sgpr" and o.value < SGPR_CODES:
        return f"S[{o.value}, sel][:, None]"
    return _vector_source(e, op, o, 32, op.readers[i])


def _inline_sources(e, op, sgpr=True):
    """The sources of an inlined op: VGPRs and constants as the compiler reads them, an SGPR as
    a column (w, 1) the ufunc or the write broadcasts over the lanes (when ``sgpr``); None for
    other operands."""
    out = []
    for o, r in zip(op.sources, op.readers):
        if o.kind == "sgpr" and o.value < SGPR_CODES and sgpr:
            out.append(f"S[{o.value}, sel][:, None]")
        elif o.kind in ("vgpr", "const", "literal"):
            out.append(_vector_source(e, op, o, 32, r))
        else:
            return None
    return out


def _library_op(op, wide=False, signs=False):
    """Whether ``op`` runs the VALU library's own function (a replacement registry decides
    itself) without source or output modifiers (``signs``: but for the source abs and neg
    bits), on 32-bit results or none (``wide``: 64-bit)."""
    from .valu import VALU
    mods = [v for k, v in op.kw.items() if not (signs and k in ("neg", "abs"))]
    return VALU.get(op.mnemonic) is op.op and not any(mods) and op.dst_bits in ((64,) if wide else (0, 32))


def _inline_call(e, op):
    """(ufunc, its arguments) computing an inlined op's result; (None, [source]) for a move."""
    srcs = _inline_sources(e, op)
    ufunc, order = _inline_form(op)
    if order is None:
        return None, srcs[:1]
    if order == "shift":
        o = op.sources[0]
        if o.kind in ("const", "literal"):            # the shift count folded at compile time
            count = e.name(U32(int(constant_value(o, 32, op.mnemonic)) & 31), "shift")
        else:
            count = f"np.bitwise_and({srcs[0]}, U32(31))"
        return ufunc, [srcs[1], count]
    return ufunc, [srcs[order[0]], srcs[order[1]]]


def _inline_expr(e, op):
    """The expression of an inlined op's result (for a move, the source itself: a view)."""
    ufunc, args = _inline_call(e, op)
    return args[0] if ufunc is None else f"{ufunc}({', '.join(args)})"


def _emit_inline_in_place(e, op):
    """An inlined op written straight into its destination register when the group is a slice
    of the batch (``out=``; under a partial EXEC the result copied in where EXEC is set)."""
    ufunc, args = _inline_call(e, op)
    d = op.vdst
    if ufunc is None:                                   # a move
        _commit(e, _write_lines(d, args[0]))
        return
    call = f"{ufunc}({', '.join(args)}"
    e.emit(f"if IX: da = {call}); V[{d}, sel] = da if em is None else np.where(em, da, V[{d}, sel])")
    dest, augmented = f"V[{d}, sel]", AUGMENTED.get(ufunc)
    other = args[1] if args[0] == dest else args[0] if ufunc in COMMUTATIVE and args[1] == dest else None
    if augmented and other is not None:               # D = D op X: the operator form, in place
        e.emit(f"elif em is None: x = {dest}; x {augmented} {other}")
    else:
        e.emit(f"elif em is None: {call}, out={dest})")
    e.emit(f"else: CP({dest}, {call}), where=em)")          # (faster than the ufunc's where=)
