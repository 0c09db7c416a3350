"""The loop-level IR: what every code generator receives, one :class:`Kernel` per launch.

A kernel is a flat list of instructions in SSA form.  Instruction ``i`` defines value ``%i``
(unless its dtype is ``void``), and its sources are indices of earlier instructions.  It knows
nothing of tensors, views or any ISA: an instruction selector walks it top to bottom, picks
machine instructions op by op, and allocates registers for the values.

Execution model
    The kernel runs once per *work-item*.  Work-items are grouped in workgroups: the grid has
    ``global_size`` workgroups (at most three dimensions for GPU targets) and each workgroup
    has ``local_size`` work-items.  ``RANGE`` instructions of kind ``global`` and ``local`` are
    not loops: they name the work-item's workgroup id and local id along one dimension (a
    code generator reads them from its workgroup-id and thread-id registers).  ``RANGE`` of
    kind ``reduce`` opens a serial loop ``for %i in range(size)`` that every work-item runs;
    ``END %i`` closes it.  Loops nest properly and a value defined inside a loop is not used
    after its ``END``, with one exception: accumulators.

Accumulators
    ``DEFINE_ACC`` (outside the loops) creates a mutable register holding ``arg`` (the
    identity of the reduction).  ``ACCUMULATE %acc, %v`` with ``arg`` ``"add"`` or ``"max"``
    does ``acc = acc + v`` / ``acc = max(acc, v)`` in place.  After the ``END`` of the loops
    containing its updates, reading ``%acc`` gives the final value.  An accumulator is never
    read inside the loops that update it.

Memory
    ``PARAM`` (arg = parameter number) is a pointer to global memory, described by
    ``Kernel.params`` (element dtype, number of elements, whether the kernel writes it).
    ``DEFINE_LOCAL`` (arg = (name, elements)) is workgroup-shared memory (LDS).
    ``LOAD %buf, %idx[, %gate]`` reads element ``idx`` (an element index, not a byte offset);
    with a gate, a work-item whose gate is false reads nothing and gets 0.
    ``STORE %buf, %idx, %val[, %gate]`` writes; gated likewise.  Each element of a global
    output is written by exactly one work-item, once.  Global inputs are never written.
    Local memory: a ``BARRIER`` separates every store from the loads that read it, and every
    load from the next store to the same memory (loop iterations included).

ALU (operands and result share the dtype unless said otherwise)
    unary:   EXP2 LOG2 SIN SQRT RECIPROCAL
    binary:  ADD MUL MAX (NaN-propagating) IDIV MOD (C semantics: truncate toward zero, the
             remainder has the dividend's sign; integers only) AND OR XOR (integers and bool)
             SHL SHR (integers; the shift count is taken modulo the bit width; SHR is
             arithmetic for signed types, logical for unsigned)
    compare: CMPLT CMPNE (result bool)
    select:  WHERE %cond(bool), %a, %b
    convert: CAST (float->int truncates toward zero; float->bool and int->bool are != 0;
             bfloat16 and float16 round to nearest even), BITCAST (same size, bits kept)
    CONST (arg = the Python value) has the instruction's dtype.

Every instruction carries an explicit dtype (:mod:`tensor.dtypes`); index arithmetic is int32.
No vector types: register tiling appears as several scalar instructions.

Optimizations a code generator can ask for when a kernel is lowered (:mod:`tensor.opt`):
``upcast`` (one work-item computes several outputs: register tiling), ``unroll`` (a reduce
loop body repeated), ``local`` (a global dimension split over the work-items of a workgroup),
``group`` (a reduction split across a workgroup, partial results combined through local
memory), ``shared`` (matmul-style tiling: the loads a workgroup shares are staged through
local memory one tile of the reduction at a time).  They change the instruction list, never
its vocabulary.

Worked example: ``(a + b).sum(axis=1)`` for float32 ``a``, ``b`` of shape (4, 8), contiguous,
lowered with no optimizations (``DEBUG=3`` prints kernels like this)::

    kernel r_4_8  global=(4,) local=()
      params: %0 out float32[4] (written), %1 in1 float32[32], %2 in2 float32[32]
       %0 = PARAM        float32   0
       %1 = PARAM        float32   1
       %2 = PARAM        float32   2
       %3 = RANGE        int32     ('global', 0, 4)
       %4 = DEFINE_ACC   float32   0.0
       %5 = CONST        int32     8
       %6 = MUL          int32     %3, %5
       %7 = RANGE        int32     ('reduce', 0, 8)
       %8 = ADD          int32       %6, %7
       %9 = LOAD         float32     %1, %8
      %10 = LOAD         float32     %2, %8
      %11 = ADD          float32     %9, %10
      %12 = ACCUMULATE   void        %4, %11  'add'
      %13 = END          void      %7
      %14 = STORE        void      %0, %3, %4

Four workgroups, one per row (``%3``).  Each zeroes an accumulator, computes its row's base
index ``%6 = row*8`` once (hoisted out of the loop), loops over the 8 columns (``%7``, the
loop body indented), loads one element of each input at ``row*8 + col``, adds them and
accumulates; after the loop it stores the sum to ``out[row]``.  An instruction selector maps
``%3`` to the workgroup id, ``%4`` to a register, ``%7..%13`` to a counted loop, each LOAD to a
global load with a byte offset of ``4 * %8``.

:func:`verify` checks every rule above; :func:`listing` prints a kernel like this.
"""
from dataclasses import dataclass, field
from enum import Enum

from tensor.dtypes import DType, dtypes


class Op(Enum):
    # memory and parameters
    PARAM = "PARAM"
    DEFINE_LOCAL = "DEFINE_LOCAL"
    LOAD = "LOAD"
    STORE = "STORE"
    CONST = "CONST"
    # control
    RANGE = "RANGE"
    END = "END"
    BARRIER = "BARRIER"
    DEFINE_ACC = "DEFINE_ACC"
    ACCUMULATE = "ACCUMULATE"
    # ALU
    EXP2 = "EXP2"
    LOG2 = "LOG2"
    SIN = "SIN"
    SQRT = "SQRT"
    RECIPROCAL = "RECIPROCAL"
    ADD = "ADD"
    MUL = "MUL"
    MAX = "MAX"
    CMPLT = "CMPLT"
    CMPNE = "CMPNE"
    IDIV = "IDIV"
    MOD = "MOD"
    AND = "AND"
    OR = "OR"
    XOR = "XOR"
    SHL = "SHL"
    SHR = "SHR"
    WHERE = "WHERE"
    CAST = "CAST"
    BITCAST = "BITCAST"

    def __repr__(self):
        return self.value


UNARY = frozenset({Op.EXP2, Op.LOG2, Op.SIN, Op.SQRT, Op.RECIPROCAL})
BINARY = frozenset({Op.ADD, Op.MUL, Op.MAX, Op.CMPLT, Op.CMPNE, Op.IDIV, Op.MOD, Op.AND, Op.OR,
                    Op.XOR, Op.SHL, Op.SHR})
ALU = UNARY | BINARY | {Op.WHERE, Op.CAST, Op.BITCAST}
COMPARE = frozenset({Op.CMPLT, Op.CMPNE})
RANGE_KINDS = ("global", "local", "reduce")
REDUCE_OPS = ("add", "max")


@dataclass(frozen=True)
class Instr:
    op: Op
    dtype: DType
    src: tuple = ()
    arg: object = None

    def __repr__(self):
        return f"Instr({self.op.value}, {self.dtype.name}, {self.src}, {self.arg!r})"


@dataclass(frozen=True)
class Param:
    """A global buffer the kernel takes: element dtype, number of elements, written or not."""
    name: str
    dtype: DType
    size: int
    output: bool = False


@dataclass
class Kernel:
    name: str
    params: tuple
    instrs: tuple
    global_size: tuple
    local_size: tuple = ()
    info: dict = field(default_factory=dict)   # ops fused, bytes moved, the source expression

    def listing(self):
        return listing(self)

    @property
    def key(self):
        """What identifies the kernel's behaviour (code generators cache compiled code by it)."""
        k = self.__dict__.get("_key")
        if k is None:
            k = self._key = (self.name, self.params, self.instrs, self.global_size,
                             self.local_size)
        return k


class IRError(ValueError):
    """A kernel breaks a rule of the loop-level IR; the message names the instruction."""


def _fmt_arg(ins):
    if ins.op is Op.ACCUMULATE:
        return f"  {ins.arg!r}"
    if ins.arg is None:
        return ""
    return f"{ins.arg!r}" if not ins.src else f"  {ins.arg!r}"


def listing(kernel):
    """The kernel as text, one instruction a line, indented inside loops."""
    lines = [f"kernel {kernel.name}  global={tuple(kernel.global_size)} "
             f"local={tuple(kernel.local_size)}"]
    ps = ", ".join(f"%{i} {p.name} {p.dtype.name}[{p.size}]" + (" (written)" if p.output else "")
                   for i, p in enumerate(kernel.params))
    lines.append(f"  params: {ps}")
    depth = 0
    for i, ins in enumerate(kernel.instrs):
        if ins.op is Op.END:
            depth -= 1
        srcs = ", ".join(f"%{s}" for s in ins.src)
        text = f"{'%' + str(i):>5} = {ins.op.value:<13}{ins.dtype.name:<9} {'  ' * depth}{srcs}"
        lines.append((text + _fmt_arg(ins)).rstrip())
        if ins.op is Op.RANGE and ins.arg[0] == "reduce":
            depth += 1
    return "\n".join(lines)


def _err(kernel, i, msg):
    raise IRError(f"{kernel.name}: %{i} {kernel.instrs[i].op.value}: {msg}")


def verify(kernel):
    """Check the rules of the module docstring; raise IRError naming the first broken one."""
    ins_list = kernel.instrs
    loops = []                      # open reduce ranges (instruction numbers)
    scope = {}                      # value -> tuple of loops open where it was defined
    accs_updated_in = {}            # acc -> set of loops containing an update
    seen_global, seen_local = {}, {}
    local_state = {}                # local buffer -> "stored" | "loaded" | "clean"
    local_stores_in = {}            # local buffer -> loops containing a store to it
    for i, ins in enumerate(ins_list):
        op = ins.op
        for s in ins.src:
            if not 0 <= s < i:
                _err(kernel, i, f"source %{s} is not an earlier instruction")
            src = ins_list[s]
            if src.dtype is dtypes.void and not (op is Op.END and src.op is Op.RANGE):
                _err(kernel, i, f"source %{s} ({src.op.value}) has no value")
            defined = scope[s]
            if tuple(loops[:len(defined)]) != defined:
                _err(kernel, i, f"uses %{s}, defined inside a loop that has ended")
            if src.op is Op.DEFINE_ACC and not (op is Op.ACCUMULATE and ins.src[0] == s):
                if accs_updated_in.get(s, set()) & set(loops):
                    _err(kernel, i, f"reads accumulator %{s} inside a loop that updates it")
        scope[i] = tuple(loops)
        if op is Op.RANGE:
            kind, dim, size = ins.arg
            if kind not in RANGE_KINDS or not isinstance(size, int) or size < 1:
                _err(kernel, i, f"bad range {ins.arg!r}")
            if ins.dtype is not dtypes.int32:
                _err(kernel, i, "ranges are int32")
            if kind == "reduce":
                loops.append(i)
            else:
                table, sizes = (seen_global, kernel.global_size) if kind == "global" else \
                               (seen_local, kernel.local_size)
                if loops:
                    _err(kernel, i, f"a {kind} range inside a loop")
                if dim in table or dim >= len(sizes) or sizes[dim] != size:
                    _err(kernel, i, f"{kind} dimension {dim} of size {size} does not match "
                                    f"the kernel's {kind}_size {tuple(sizes)}")
                table[dim] = i
        elif op is Op.END:
            if not loops or loops[-1] != ins.src[0]:
                _err(kernel, i, "END does not close the innermost open loop")
            for buf, state in local_state.items():
                if state == "loaded" and loops[-1] in local_stores_in.get(buf, ()):
                    _err(kernel, i, "the next iteration stores to local memory read without a "
                                    "BARRIER in between")
            loops.pop()
        elif op is Op.ACCUMULATE:
            acc = ins.src[0]
            if ins_list[acc].op is not Op.DEFINE_ACC or ins.arg not in REDUCE_OPS:
                _err(kernel, i, "ACCUMULATE needs a DEFINE_ACC and 'add' or 'max'")
            if ins_list[ins.src[1]].dtype is not ins_list[acc].dtype:
                _err(kernel, i, "value and accumulator dtypes differ")
            accs_updated_in.setdefault(acc, set()).update(loops[len(scope[acc]):])
        elif op in (Op.LOAD, Op.STORE):
            _check_memory(kernel, i, ins, local_state)
            if ins.op is Op.STORE and kernel.instrs[ins.src[0]].op is Op.DEFINE_LOCAL:
                local_stores_in.setdefault(ins.src[0], set()).update(loops)
        elif op is Op.BARRIER:
            for k in local_state:
                local_state[k] = "clean"
        elif op in ALU:
            _check_alu(kernel, i, ins)
        elif op is Op.PARAM:
            if not 0 <= ins.arg < len(kernel.params) or kernel.params[ins.arg].dtype is not ins.dtype:
                _err(kernel, i, "PARAM does not match Kernel.params")
    if loops:
        _err(kernel, loops[-1], "loop never ENDs")
    if len(seen_global) != len(kernel.global_size) or len(seen_local) != len(kernel.local_size):
        raise IRError(f"{kernel.name}: global/local sizes {kernel.global_size}/"
                      f"{kernel.local_size} do not match its RANGE instructions")
    return kernel


def _check_memory(kernel, i, ins, local_state):
    buf = kernel.instrs[ins.src[0]]
    if buf.op not in (Op.PARAM, Op.DEFINE_LOCAL):
        _err(kernel, i, "the first source must be a PARAM or DEFINE_LOCAL")
    idx = kernel.instrs[ins.src[1]]
    if idx.dtype not in (dtypes.int32, dtypes.int64):
        _err(kernel, i, "the index must be int32 or int64")
    ngate = 3 if ins.op is Op.LOAD else 4
    if len(ins.src) == ngate and kernel.instrs[ins.src[-1]].dtype is not dtypes.bool:
        _err(kernel, i, "the gate must be bool")
    if ins.op is Op.LOAD and ins.dtype is not buf.dtype:
        _err(kernel, i, "loads the buffer's dtype")
    if ins.op is Op.STORE:
        if kernel.instrs[ins.src[2]].dtype is not buf.dtype:
            _err(kernel, i, "stores the buffer's dtype")
        if buf.op is Op.PARAM and not kernel.params[buf.arg].output:
            _err(kernel, i, f"writes {kernel.params[buf.arg].name}, an input")
    if buf.op is Op.DEFINE_LOCAL:
        state = local_state.get(ins.src[0], "clean")
        if ins.op is Op.LOAD and state == "stored":
            _err(kernel, i, "reads local memory stored to without a BARRIER in between")
        if ins.op is Op.STORE and state == "loaded":
            _err(kernel, i, "stores to local memory read without a BARRIER in between")
        local_state[ins.src[0]] = "stored" if ins.op is Op.STORE else "loaded"


def _check_alu(kernel, i, ins):
    srcs = [kernel.instrs[s] for s in ins.src]
    op, dt = ins.op, ins.dtype
    if op in (Op.CAST, Op.BITCAST):
        if len(srcs) != 1:
            _err(kernel, i, "takes one source")
        if op is Op.BITCAST and srcs[0].dtype.itemsize != dt.itemsize:
            _err(kernel, i, "BITCAST between different sizes")
        return
    if op is Op.WHERE:
        if len(srcs) != 3 or srcs[0].dtype is not dtypes.bool or srcs[1].dtype is not dt \
                or srcs[2].dtype is not dt:
            _err(kernel, i, "WHERE takes a bool and two values of its dtype")
        return
    want = 1 if op in UNARY else 2
    if len(srcs) != want:
        _err(kernel, i, f"takes {want} sources")
    operand = srcs[0].dtype
    if any(s.dtype is not operand for s in srcs):
        _err(kernel, i, f"operand dtypes differ: {', '.join(s.dtype.name for s in srcs)}")
    if op in COMPARE:
        if dt is not dtypes.bool:
            _err(kernel, i, "comparisons give bool")
        return
    if operand is not dt:
        _err(kernel, i, f"result dtype {dt.name} differs from operand dtype {operand.name}")
    if op in UNARY and not dt.is_float:
        _err(kernel, i, f"{op.value} needs a float, got {dt.name}")
    if op in (Op.IDIV, Op.MOD, Op.SHL, Op.SHR) and not dt.is_int:
        _err(kernel, i, f"{op.value} needs an integer, got {dt.name}")
    if op in (Op.AND, Op.OR, Op.XOR) and dt.is_float:
        _err(kernel, i, f"{op.value} needs an integer or bool, got {dt.name}")
