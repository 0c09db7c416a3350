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
* what the compiler does not specialise (memory, LDS, DPP, cross-lane moves, control) calls the
  instruction's own closure, exactly as the per-instruction path does.

The semantics stay in the per-instruction implementations (the VALU library, the SALU tables);
this module only removes the interpretation around them.  When an instruction raises, the line
of the generated code that raised names it (``Block.failed_at``), so the executor can report
its PC and count exactly the instructions that ran.
"""
import numpy as np

from .operands import constant_value
from .state import EXEC_HI, EXEC_LO, FULL_EXEC, LANE_BITS, NULL, SGPR_CODES, VCC_LO, WAVE32
from .vector import DualOp, VectorOp, write_vgpr

U32, U64, I32 = np.uint32, np.uint64, np.int32
MAX_INSTRUCTIONS = 400
# instructions that never fall through (they raise): a block ends with them
NO_FALL_THROUGH = frozenset(("s_code_end", "s_trap", "s_sethalt", "s_sendmsghalt", "s_rfe_b64", "v_illegal"))
MODE_WRITERS = frozenset(("s_setreg_b32", "s_setreg_imm32_b32", "s_round_mode", "s_denorm_mode"))
# read the wave-instruction counter (the timestamp of a GPU without a clock)
DEST_ROLES = ("sdst", "vdst", "sdata")
COUNTER_READERS = frozenset(("s_getreg_b32", "s_sendmsg_rtn_b32", "s_sendmsg_rtn_b64"))


class Block:
    """One compiled block: ``fn(st, sel, n, C)`` runs it for the ``n`` waves ``sel``; ``C`` is
    ``prepared(mode, n)``.  ``count`` instructions, ``vector`` of them lane operations."""
    __slots__ = ("pc", "pcs", "fn", "count", "vector", "vector_upto", "next_pc", "sets_pc", "ends", "source",
                 "_lines", "_prepare", "_prepared", "_code")

    def prepared(self, mode, n, env):
        key = (mode, n)
        c = self._prepared.get(key)
        if c is None:
            if len(self._prepared) > 32:
                self._prepared.clear()
            fm = env.float_mode(mode)
            lane = env.lanes(n)
            c = self._prepared[key] = tuple(make(fm, n, lane) for make in self._prepare)
        return c

    def failed_at(self, tb):
        """Index of the instruction whose code raised, from the exception's traceback (None when
        the block's frame is not in it)."""
        line = None
        while tb is not None:
            if tb.tb_frame.f_code is self._code:
                line = tb.tb_lineno
            tb = tb.tb_next
        if line is None:
            return None
        index = 0
        for i, first in enumerate(self._lines):
            if first <= line:
                index = i
        return index


# -- helpers the generated code calls ---------------------------------------------------------
def _lanes(x):
    """(w,) -> read-only (w, 32) repeating each wave's value over its lanes (x is not copied:
    the VALU functions never write into their sources)."""
    x = np.ascontiguousarray(x)
    v = np.ndarray((x.shape[0], WAVE32), x.dtype, buffer=x, strides=(x.itemsize, 0))
    v.flags.writeable = False
    return v


_UNPACKED = {}              # lane-mask bytes of a small group -> read-only bool (w, 32)
_CACHED_WAVES = 64          # groups up to this many waves cache their unpacked masks


def _unpack(bits):
    """uint32 (w,) lane masks -> bool (w, 32), read-only.  A small group's masks repeat (EXEC
    inside a loop, carries that are mostly clear), so they are unpacked once per bit pattern."""
    if bits.shape[0] > _CACHED_WAVES:
        return (bits[:, None] & LANE_BITS) != 0
    key = bits.tobytes()
    m = _UNPACKED.get(key)
    if m is None:
        if len(_UNPACKED) >= 4096:
            _UNPACKED.clear()
        m = _UNPACKED[key] = (bits[:, None] & LANE_BITS) != 0
        m.flags.writeable = False
    return m


def _exec_mask(ex, full):
    """None when every lane is active (``full``: the bytes of an all-ones EXEC for the group),
    else the lanes as bool (w, 32)."""
    return None if ex.tobytes() == full else _unpack(ex)


def _join(V, r, sel):
    """A VGPR pair as uint64 (w, 32): the two dwords interleaved, viewed as one."""
    lo = V[r, sel]
    pair = np.empty(lo.shape + (2,), U32)
    pair[..., 0] = lo
    pair[..., 1] = V[r + 1, sel]
    return pair.view(U64)[..., 0]


def _join_s(S, c, sel):
    return S[c, sel].astype(U64) | S[c + 1, sel].astype(U64) << U64(32)


def _put64(V, r, sel, value, em):
    """Write a 64-bit result to a VGPR pair under the EXEC mask ``em``."""
    v = value if type(value) is np.ndarray and value.dtype == U64 and value.flags.c_contiguous \
        else np.ascontiguousarray(value, U64)
    halves = v.view(U32).reshape(v.shape + (2,))          # [..., 0] low dword, [..., 1] high
    if type(sel) is slice:                                # both registers in one call
        if em is None:
            V[r:r + 2, sel] = halves.transpose(2, 0, 1)
        else:
            np.copyto(V[r:r + 2, sel], halves.transpose(2, 0, 1), where=em)
        return
    lo, hi = halves[..., 0], halves[..., 1]
    if em is None:
        V[r, sel] = lo
        V[r + 1, sel] = hi
    else:
        V[r, sel] = np.where(em, lo, V[r, sel])
        V[r + 1, sel] = np.where(em, hi, V[r + 1, sel])


def _put64_s(S, c, sel, value):
    v = np.asarray(value, U64)
    S[c, sel] = v.astype(U32)
    S[c + 1, sel] = (v >> U64(32)).astype(U32)


def _mask(mask, n, em):
    """A lane-mask result as bool (w, 32) with the lanes EXEC leaves off cleared (what the
    SGPR receives)."""
    if not (type(mask) is np.ndarray and mask.dtype == bool and mask.shape == (n, WAVE32)):
        mask = np.broadcast_to(np.asarray(mask, bool), (n, WAVE32))
    return mask if em is None else mask & em


def _pack_bits(mask):
    return np.packbits(mask, bitorder="little").view(U32)


def _pack(mask, n, em):
    """A lane mask result as SGPR bits, EXEC-masked (lanes with EXEC clear write 0)."""
    if not (type(mask) is np.ndarray and mask.dtype == bool and mask.shape == (n, WAVE32)):
        mask = np.broadcast_to(np.asarray(mask, bool), (n, WAVE32))
    if em is not None:
        mask = mask & em
    return np.packbits(mask, bitorder="little").view(U32)


def _constant(v, n):
    """A constant operand for n waves: a small group gets a real array (numpy's loops over
    same-shaped contiguous operands are the fast ones), a large one a broadcast view."""
    if n > _CACHED_WAVES:
        return np.broadcast_to(v, (n, WAVE32))
    return _readonly(np.full((n, WAVE32), v))


def _readonly(a):
    a.flags.writeable = False
    return a


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


_HELPERS = {"np": np, "U32": U32, "I32": I32, "FULL": FULL_EXEC, "LS": _lanes, "UL": _unpack,
            "EM": _exec_mask, "J": _join, "JS": _join_s, "PUT64": _put64, "PUT64S": _put64_s,
            "PACK": _pack, "MK": _mask, "PK": _pack_bits, "WV": write_vgpr, "CP": np.copyto}


# -- the compiler -----------------------------------------------------------------------------
class _Emitter:
    def __init__(self, env):
        self.env = env
        self.lines = []
        self.globals = dict(_HELPERS)
        self.prepare = []          # make(float_mode, n, lanes) -> an entry of C
        self._names = {}
        self.em_valid = False      # whether ``em`` holds the current EXEC at this point
        self.full = None
        self.fwd = {}              # SGPR -> the name holding its lane mask as bool (w, 32)
        self.dead = set()          # ids of VALU ops whose lane-mask write is overwritten unread

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
    e.dead = _dead_mask_writes(steps)
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
    exec(code, namespace)
    b.fn = namespace["block"]
    b._code = b.fn.__code__
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
    64-bit address arithmetic.  Their packing into the SGPR is skipped."""
    dead = set()
    for i, s in enumerate(steps):
        for op in _inline_valu(s) or ():
            k = op.mask_dst
            if not op.op.mask_out or k is None or k >= SGPR_CODES or k in (NULL, EXEC_LO, EXEC_HI):
                continue
            for t in steps[i + 1:]:
                if t.body is None:
                    continue
                later = _inline_valu(t)
                if later is None or any(_reads_sgpr(o, k) for o in later):
                    break
                if any(o.op.mask_out and o.mask_dst == k for o in later):
                    dead.add(id(op))
                    break
    return dead


def _ends_block(step):
    m = step.ins.mnemonic
    return step.sets_pc or step.ends or m in NO_FALL_THROUGH or m in MODE_WRITERS


def _emit_step(e, s, i):
    fn, ins = s.body, s.ins
    if fn is None:
        return                                            # ordering only: costs nothing
    if s.sets_pc or s.ends:
        e.emit(f"st.pc[sel] = {s.next_pc - s.size}")
        e.emit(f"return {e.name(fn, 'f')}(st, sel)")
        return
    if isinstance(fn, VectorOp) and fn.dpp is None:
        e.need_em()
        _commit(e, _emit_valu(e, fn, "a"))
        return
    if isinstance(fn, DualOp):
        e.need_em()
        px = _emit_valu(e, fn.x, "a")
        py = _emit_valu(e, fn.y, "b")         # both halves read before either writes
        if fn.y_reads_x_dst:                      # Y's result may be a view of X's destination
            e.emit("db = np.array(db)")
        _commit(e, px + py)
        return
    e.fwd.clear()              # anything else may write SGPRs: masks are read from them again
    fam = ins.family
    if fam in ("SOP1", "SOP2", "SOPC", "SOPK") and _emit_salu(e, ins):
        if _writes_exec(ins):
            e.em_valid = False
        return
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
        return f"J(V, {o.value}, sel)"
    if o.kind in ("const", "literal") and bits in (32, 64):
        value = (U64 if bits == 64 else U32)(constant_value(o, bits, op.mnemonic))
        if "med3" in op.mnemonic:          # a clamp's bounds: fmed3 clips when two are uniform
            return e.slot(lambda fm, n, lane, v=value: np.broadcast_to(v, (n, WAVE32)))
        return e.slot(lambda fm, n, lane, v=value: _constant(v, n))
    if o.kind == "sgpr" and bits == 32 and o.value < SGPR_CODES:
        return f"LS(S[{o.value}, sel])"
    return f"{e.name(reader, 'r')}(st, sel)"


def _emit_valu(e, op, tag):
    """Emit the computation of one VALU op now; return the lines that write its results."""
    v = tag                 # names reused per instruction: a finished result is freed at once
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
            old = f"J(V, {op.vdst}, sel)"
        else:
            old = f"{e.name(op.old_reader, 'r')}(st, sel)"
    if op.op.mask_in:
        m = op.mask_operand
        k = VCC_LO if m is None else m.value if m.kind == "sgpr" and m.value < SGPR_CODES else None
        if k in e.fwd:
            mask = e.fwd[k]
        elif k is not None:
            mask = f"UL(S[{k}, sel])"
        else:
            mask = f"UL({e.name(op.mask_reader, 'r')}(st, sel))"
        e.emit(f"c{v} = {ctx}; c{v}.mask = {mask}")
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
        post.append(f"if em is None: V[{op.vdst}, sel] = d{v}")
        post.append(f"elif IX: V[{op.vdst}, sel] = np.where(em, d{v}, V[{op.vdst}, sel])")
        post.append(f"else: CP(V[{op.vdst}, sel], d{v}, casting='unsafe', where=em)")
    elif bits == 64:
        post.append(f"PUT64(V, {op.vdst}, sel, d{v}, em)")
    elif bits:
        post.append(f"WV(st, sel, {op.vdst}, {bits}, d{v}, em, o{v})")
    k = op.mask_dst
    if op.op.mask_out and k != NULL:
        if k < SGPR_CODES and k not in (EXEC_LO, EXEC_HI):
            post.append(f"k{k} = MK(m{v}, n, em)")
            if id(op) not in e.dead:
                post.append(f"S[{k}, sel] = PK(k{k})")
            e.fwd[k] = f"k{k}"
        else:
            post.append(f"S[{k}, sel] = PACK(m{v}, n, em)")
            e.fwd.pop(k, None)
        if k == EXEC_LO:
            post.append(None)
    return post


# -- SALU -------------------------------------------------------------------------------------
def _scalar_source(e, o, width, m):
    if o.kind == "sgpr" and o.value < SGPR_CODES:
        if width == 32:
            return f"S[{o.value}, sel]"
        if o.value + 1 < SGPR_CODES and o.value != NULL:
            return f"JS(S, {o.value}, sel)"
    if o.kind in ("const", "literal"):
        dt = U64 if width == 64 else U32
        value = dt(constant_value(o, width, m))
        return e.slot(lambda fm, n, lane, v=value, dt=dt: _readonly(np.full(n, v, dt)))
    from .operands import scalar_reader
    return f"{e.name(scalar_reader(o, width, m), 'r')}(st, sel)"


def _scalar_dest(e, o, width, value):
    if o.kind != "sgpr" or o.value >= SGPR_CODES or (width == 64 and o.value + 1 >= SGPR_CODES):
        return False
    if o.value == NULL:
        return True
    if width == 32:
        e.emit(f"S[{o.value}, sel] = {value}")
    else:
        e.emit(f"PUT64S(S, {o.value}, sel, {value})")
    return True


def _emit_salu(e, ins):
    """Inline the table-driven SALU ops (semantics from scalar.py's tables); False leaves the
    instruction to its closure."""
    from . import scalar as salu
    m, ops = ins.mnemonic, ins.operands
    if ins.family == "SOP2" and m in salu.SOP2:
        width, f = salu.SOP2[m]
        wa, wb = salu.SOP2_SRC_BITS.get(m, (width, width))
        dst, s0, s1 = ops
        if not _dest_ok(dst, width):
            return False
        a, b = _scalar_source(e, s0, wa, m), _scalar_source(e, s1, wb, m)
        e.emit(f"r, c = {e.name(f, 's')}({a}, {b}, SCC[sel])")
        e.emit("if c is not None: SCC[sel] = c")
        return _scalar_dest(e, dst, width, "r")
    if ins.family == "SOP1" and m in salu.SOP1:
        width, swidth, f = salu.SOP1[m]
        if not _dest_ok(ops[0], width):
            return False
        a = _scalar_source(e, ops[1], swidth, m)
        e.emit(f"r, c = {e.name(f, 's')}({a})")
        e.emit("if c is not None: SCC[sel] = c")
        return _scalar_dest(e, ops[0], width, "r")
    if ins.family == "SOPC" and not m.startswith("s_bitcmp"):
        _, _, cond, typ = m.split("_")
        width = 64 if typ.endswith("64") else 32
        a, b = _scalar_source(e, ops[0], width, m), _scalar_source(e, ops[1], width, m)
        if typ.startswith("i"):
            a, b = f"S32({a})", f"S32({b})"
            e.globals["S32"] = salu._s32
        e.emit(f"SCC[sel] = {e.name(salu._CMP[cond], 's')}({a}, {b})")
        return True
    if ins.family == "SOPK" and m in ("s_movk_i32", "s_cmpk_eq_i32", "s_cmpk_lg_i32", "s_cmpk_gt_i32",
                                      "s_cmpk_ge_i32", "s_cmpk_lt_i32", "s_cmpk_le_i32", "s_cmpk_eq_u32",
                                      "s_cmpk_lg_u32", "s_cmpk_gt_u32", "s_cmpk_ge_u32", "s_cmpk_lt_u32",
                                      "s_cmpk_le_u32"):
        dst = ops[0]
        imm = ops[1].value if len(ops) > 1 else 0
        simm = imm - 0x10000 if imm & 0x8000 else imm
        if m == "s_movk_i32":
            if not _dest_ok(dst, 32):
                return False
            return _scalar_dest(e, dst, 32, f"U32({simm & 0xFFFFFFFF})")
        if dst.kind != "sgpr" or dst.value >= SGPR_CODES:
            return False
        _, _, cond, typ = m.split("_")
        cmp = e.name(salu._CMP[cond], "s")
        if typ == "i32":
            e.globals["S32"] = salu._s32
            e.emit(f"SCC[sel] = {cmp}(S32(S[{dst.value}, sel]), I32({simm}))")
        else:
            e.emit(f"SCC[sel] = {cmp}(S[{dst.value}, sel], U32({imm}))")
        return True
    if ins.family == "SOP1" and m.endswith("_b32") and ("saveexec" in m or "wrexec" in m):
        # EXEC = f(S0, EXEC); SCC = EXEC != 0; D = the old EXEC (saveexec) or the new (wrexec)
        kind = m[2:].rsplit("_", 2)[0]
        f = (salu.WREXEC if "wrexec" in m else salu.SAVEEXEC)[kind]
        dst, src = ops
        if not _dest_ok(dst, 32):
            return False
        e.emit(f"x = {_scalar_source(e, src, 32, m)}; old = S[{EXEC_LO}, sel].copy()")
        e.emit(f"new = {e.name(f, 's')}(x, old)")
        e.emit(f"S[{EXEC_LO}, sel] = new; SCC[sel] = new != 0")
        return _scalar_dest(e, dst, 32, "new" if "wrexec" in m else "old")
    return False


def _dest_ok(o, width):
    return o.kind == "sgpr" and o.value < SGPR_CODES and (width == 32 or o.value + 1 < SGPR_CODES)
