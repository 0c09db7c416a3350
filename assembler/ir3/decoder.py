"""64-bit ir3 words -> mesa's disassembly text and structured instructions.

This follows mesa's isaspec decoder (what `ir3_isa_disasm` runs) step by step, so the text is
the same character for character: the leaf bitset whose pattern matches, overrides chosen by
their expressions, fields resolved through the parent chain and through <param> renames,
expression evaluation with the same recursion guard and per-scope cache, and the same
warnings ("dontcare bits in ...", "WARNING: unexpected bits[...]").

    decode(word) -> Instruction     name, category, fields, flags, operands, text, warnings
    disassemble(data) -> list[str]
"""
import math
import struct

from assembler.errors import AssemblerError

from . import isa, trace as _trace

_U64 = (1 << 64) - 1


def _sext(val, width):
    val &= (1 << width) - 1 if width < 64 else _U64
    return val - (1 << width) if width and val >> (width - 1) & 1 else val


def _c_float(x):
    """printf("%f") as glibc prints it."""
    if math.isnan(x):
        return "-nan" if math.copysign(1.0, x) < 0 else "nan"
    if math.isinf(x):
        return "-inf" if x < 0 else "inf"
    return "%f" % x


def _is_warning(msg):
    return msg.startswith("dontcare bits") or msg.startswith("WARNING:")


class _State:
    __slots__ = ("gpu", "errors", "stack", "n", "num_instr", "labels", "targets", "calls", "out",
                 "capture", "trace")

    def __init__(self, gpu, labels=False, num_instr=1):
        self.gpu = gpu
        self.errors = []
        self.stack = []
        self.n = 0
        self.num_instr = num_instr
        self.labels = labels
        self.targets = set()
        self.calls = set()
        self.out = []
        self.capture = None      # list of (depth, field, value, bitset) while decoding structure
        self.trace = None        # a trace.Trace while recording a plan

    def error(self, msg):
        if len(self.errors) < 4:
            self.errors.append(msg)
        if self.trace is not None:
            self.trace.event(("err", msg))

    def snapshot(self):
        return (len(self.out), len(self.errors), set(self.targets) if self.labels else None,
                set(self.calls) if self.labels else None)

    def restore(self, snap):
        del self.out[snap[0]:], self.errors[snap[1]:]
        if snap[2] is not None:
            self.targets, self.calls = snap[2], snap[3]

    def error_data(self, msg, event):
        """An error whose text depends on the word: recorded as the event that prints it."""
        if len(self.errors) < 4:
            self.errors.append(msg)
        if self.trace is not None:
            self.trace.event(event)


class _Scope:
    __slots__ = ("val", "bitset", "params", "parent", "state", "cache", "node", "nodes")

    def __init__(self, state, bitset, val, parent, params=(), node=None):
        self.state, self.bitset, self.val, self.parent, self.params = state, bitset, val, parent, params
        self.cache = {}
        self.node = node         # recording: the trace node of val
        self.nodes = {}          # recording: expression -> node of its cached value

    # -- expressions

    def evaluate(self, expr):
        cache = self.cache
        tr = self.state.trace
        if expr in cache:
            if tr is not None:
                tr.last = self.nodes[expr]
            return cache[expr]
        stack = self.state.stack
        # mesa's push_expr: refuse an expression already being evaluated (it skips slot 0)
        for i in range(len(stack) - 1, 0, -1):
            if stack[i] is expr:
                if tr is not None:
                    tr.last = _trace.CONST0
                return 0
        stack.append(expr)
        if tr is not None:
            tr.reads.append([])
        try:
            ret = expr(self.field_value, self.state.gpu) & _U64
        finally:
            stack.pop()
            if tr is not None:
                reads = tr.reads.pop()
        cache[expr] = ret
        if tr is not None:
            tr.last = self.nodes[expr] = tr.evaluated(expr, reads)
        return ret

    def field_value(self, name):
        """isa_decode_field(): the value of a field, an error and 0 when there is none."""
        tr = self.state.trace
        found = self.resolve(name)
        if found is None:
            self.state.error("no field '%s'" % name)
            val = 0
            if tr is not None:
                tr.last = _trace.CONST0
        else:
            val = found[1]
        if tr is not None:
            tr.reads[-1].append((name, tr.last))
        return val

    # -- fields

    def case_holds(self, case, display=False):
        """A case's expression, as a decision (display: one that picks the display)."""
        v = self.evaluate(case.expr)
        tr = self.state.trace
        if tr is not None:
            if display:
                tr.display.add(tr.last)
            tr.decide(("case", tr.last), bool(v))
        return v

    def find_field(self, bitset, name):
        stack = self.state.stack
        cur = stack[-1] if stack else None
        while bitset is not None:
            for case in bitset.cases:
                if case.expr is not None and cur is not case.expr and not self.case_holds(case):
                    continue
                f = case.fields.get(name)
                if f is not None:
                    return f
            bitset = bitset.parent
        return None

    def resolve(self, name):
        """(Field, raw value) of `name` in this scope, following <param> renames upwards."""
        scope = self
        while scope is not None:
            f = scope.find_field(scope.bitset, name)
            if f is not None:
                if f.expr is not None:
                    return f, scope.evaluate(f.expr)
                tr = self.state.trace
                if tr is not None:
                    tr.last = _trace.bits(scope.node, f.low, f.width)
                return f, (scope.val >> f.low) & f.mask
            for pname, alias in scope.params:
                if alias == name:
                    name = pname
                    break
            else:
                return None
            scope = scope.parent
        return None

    def find_display(self, bitset):
        tr = self.state.trace
        while bitset is not None:
            for case in bitset.cases:
                if case.expr is not None and not self.case_holds(case, True):
                    continue
                for f in case.fields.values():
                    if f.kind == "assert":
                        v = (self.val >> f.low) & f.mask
                        if tr is not None:
                            tr.event(("as", _trace.bits(self.node, f.low, f.width), f.val, f.low,
                                      f.high, bitset.name))
                        if v != f.val:
                            msg = ("WARNING: unexpected bits[%u:%u] in %s: %016x vs %016x"
                                   % (f.low, f.high, bitset.name, v, f.val))
                            if len(self.state.errors) < 4:
                                self.state.errors.append(msg)
                if case.parts is None:
                    continue
                return case.parts
            bitset = bitset.parent
        return None

    # -- display

    def display(self, depth=0):
        parts = self.find_display(self.bitset)
        if parts is None:
            self.state.error("%s: no display template" % self.bitset.name)
            return
        out = self.state.out
        tr = self.state.trace
        for kind, text in parts:
            if kind == "lit":
                out.append(text)
                if tr is not None:
                    tr.event(("lit", text))
            else:
                self.display_field(text, depth)

    def display_field(self, name, depth):
        state = self.state
        tr = state.trace
        if name == "NAME":
            state.out.append(self.bitset.name)
            if tr is not None:
                tr.event(("lit", self.bitset.name))
            return
        found = self.resolve(name)
        if found is None:
            state.error("no field '%s'" % name)
            return
        f, val = found
        if state.capture is not None:
            state.capture.append((depth, name, val, f))
        if f.kind == "bitset":
            node = tr.last if tr is not None else None
            leaf = find_bitset(state, f.type, val, node)
            if leaf is None:
                state.error_data("no match: FIELD: '%s.%s': %016x" % (self.bitset.name, name, val),
                                 ("errv", "no match: FIELD: '%s.%s': %%016x" % (self.bitset.name, name),
                                  node))
                return
            _Scope(state, leaf, val, self, f.params, node).display(depth + 1)
            return
        if f.kind == "custom":
            return               # ir3 has no custom fields; mesa prints nothing without a callback
        if f.kind not in _VALUE_KINDS:
            state.error("Bad field type: %s (%s)" % (f.type, f.name))
            return
        if tr is not None:
            tr.event(("fmt", f, tr.last))
        emit_value(state, f, val)


_VALUE_KINDS = frozenset(("branch", "absbranch", "int", "uint", "hex", "offset", "uoffset", "float",
                          "bool", "bool_inv", "enum"))


def emit_value(state, f, val):
    """Append field f's display of `val` (a field of a builtin type or an enum)."""
    state.out.append(value_text(state, f, val))


def value_text(state, f, val):
    """Field f's display of `val` (a branch target may become a label, noted in state)."""
    kind = f.kind
    width = f.width
    if kind in ("branch", "absbranch"):
        if state.labels:
            off = _sext(val, width) + state.n if kind == "branch" else val
            if 0 <= off < state.num_instr:
                if f.call:
                    state.calls.add(off)
                    return "fxn%d" % off
                state.targets.add(off)
                return "l%d" % off
        return str(_sext(val, width))
    if kind == "int":
        return str(_sext(val, width))
    if kind == "uint":
        return str(val)
    if kind == "hex":
        return "%x" % val
    if kind == "offset":
        return "%+d" % _sext(val, width) if val else ""
    if kind == "uoffset":
        return "+%d" % val if val else ""
    if kind == "float":
        if width == 16:
            return _c_float(struct.unpack("<e", struct.pack("<H", val & 0xffff))[0])
        return _c_float(struct.unpack("<f", struct.pack("<I", val & 0xffffffff))[0])
    if kind == "bool":
        if f.display is not None:
            return f.display if val else ""
        return "%u" % (1 if val else 0) if val in (0, 1) else "%u" % (val & 0xffffffff)
    if kind == "bool_inv":
        if f.display is not None:
            return "" if val else f.display
        return "%u" % (0 if val else 1)
    disp = isa.tables.ENUMS[f.type].get(val)       # enum
    return disp if disp is not None else "%u" % (val & 0xffffffff)


def find_bitset(state, root, val, node=None, top=False):
    match = conflict = None
    for b in isa.candidates(root, val):
        if (val & b.mask & ~b.dontcare) != b.match:
            continue
        if match is not None:
            conflict = b
            break
        match = b
    tr = state.trace
    if tr is not None and not top:
        tr.decide(("leaf", root, node), "!" if conflict else match.name if match else None)
    if conflict is not None:
        state.error("bitset conflict: %s vs %s" % (match.name, conflict.name))
        return None
    if match is not None:
        if tr is not None:
            tr.event(("dc", node, match.dontcare, match.name))
        if val & match.dontcare:
            msg = "dontcare bits in %s: %016x" % (match.name, val & match.dontcare)
            if len(state.errors) < 4:
                state.errors.append(msg)
    return match


# ---------------------------------------------------------------------------------------------
# Structured result


class Operand:
    """One operand as the display shows it: `role` is the field (DST, SRC1, ...), `bitset` the
    encoding that decoded it (#reg-gpr, #multisrc-const, #cat1-immed-src, ...), `fields` its
    values; `file`/`num` give the register file ('r', 'c', 'a0', 'p0', 'imm', 'flut', 'r<a0>',
    'c<a0>') and the register number (reg*4 + component) or immediate when that applies."""
    __slots__ = ("role", "bitset", "fields", "text", "file", "num")

    def __init__(self, role, bitset, fields, text):
        self.role, self.bitset, self.fields, self.text = role, bitset, fields, text
        self.file, self.num = _classify(bitset, fields)

    def __repr__(self):
        return "Operand(%s=%s)" % (self.role, self.text)


def _classify(bitset, fields):
    if "GPR" in fields and "SWIZ" in fields:
        gpr = fields["GPR"]
        f = "a0" if gpr == 61 else "p0" if gpr == 62 else "r"
        return f, gpr * 4 + fields["SWIZ"]
    if "CONST" in fields and "SWIZ" in fields:
        return "c", fields["CONST"] * 4 + fields["SWIZ"]
    if "relative" in bitset and "OFFSET" in fields:
        return ("c<a0>" if "const" in bitset else "r<a0>"), fields["OFFSET"]
    if "flut" in bitset and "IMMED" in fields:
        return "flut", fields["IMMED"]
    if "IMMED" in fields:
        return "imm", fields["IMMED"]
    return None, None


class Instruction:
    """A decoded word: `name` (mesa's bitset name, e.g. 'add.f'), `category` (0..7), `word`,
    `text` (mesa's disassembly), `warnings` (what ir3_isa_disasm appends after '; '), and, on
    first use, `fields` (every field of the form, derived ones included), `operands` and the
    sync/repeat flags."""

    def __init__(self, word, leaf, text, warnings, gpu):
        self.word, self.leaf, self.text, self.warnings, self.gpu = word, leaf, text, warnings, gpu
        self.name = leaf.name
        self.category = (word >> 61) & 7
        self._fields = self._operands = None

    def __repr__(self):
        return "Instruction(%016x %s)" % (self.word, self.text)

    def _structure(self):
        state = _State(self.gpu)
        state.capture = []
        scope = _Scope(state, self.leaf, self.word, None)
        fields = {}
        for b in self.leaf.chain:
            for case in b.cases:
                for name, f in case.fields.items():
                    if f.kind != "assert" and name not in fields:
                        found = scope.resolve(name)
                        if found is not None:
                            v = found[1]
                            fields[name] = _sext(v, found[0].width) if found[0].kind in (
                                "int", "offset", "branch") else v
        state.errors = []
        scope.display()
        ops, cur = [], None
        for depth, name, val, f in state.capture:
            if depth == 0:
                cur = None
                if f.kind == "bitset":
                    cur = [name, val, f, {}]
                    ops.append(cur)
            elif cur is not None and f.kind != "bitset":
                # the operand's own fields and those of the register inside it (GPR, SWIZ)
                cur[3].setdefault(name, _sext(val, f.width) if f.kind in ("int", "offset") else val)
        self._fields = fields
        self._operands = []
        for name, val, f, sub in ops:
            leaf = find_bitset(_State(self.gpu), f.type, val)
            text = _render_field(self, name)
            self._operands.append(Operand(name, leaf.name if leaf else None, sub, text))

    @property
    def fields(self):
        if self._fields is None:
            self._structure()
        return self._fields

    @property
    def operands(self):
        if self._operands is None:
            self._structure()
        return self._operands

    def _flag(self, name):
        return int(self.fields.get(name, 0) or 0)

    sy = property(lambda self: bool(self._flag("SY")))
    ss = property(lambda self: bool(self._flag("SS")))
    jp = property(lambda self: bool(self._flag("JP")))
    ul = property(lambda self: bool(self._flag("UL")))
    sat = property(lambda self: bool(self._flag("SAT")))
    eq = property(lambda self: bool(self._flag("EQ")))
    ei = property(lambda self: bool(self._flag("EI")))

    @property
    def repeat(self):
        """(rptN): N, the number of extra repetitions (0 when the form has none)."""
        return self._flag("REPEAT")

    @property
    def nop(self):
        """(nopN) of cat2/cat3: N delay slots, encoded in the (r) bits when REPEAT is 0."""
        if "NOP" in self.fields and self.text.find("(nop") >= 0:
            return self._flag("NOP")
        return 0


def _render_field(ins, name):
    state = _State(ins.gpu)
    scope = _Scope(state, ins.leaf, ins.word, None)
    scope.display_field(name, 0)
    return "".join(state.out)


def _reference(word, state, record=False):
    """mesa's algorithm, step by step (recording a trace.Trace when asked)."""
    if record:
        state.trace = _trace.Trace()
    leaf = find_bitset(state, "#instruction", word, _trace.WORD, top=True)
    if leaf is not None:
        _Scope(state, leaf, word, None, (), _trace.WORD).display()
    return leaf


# Decoding plans (trace.py), per (leaf, gpu); which leaf a word is, by the bits that decide it.
_PLANS = {}
_LEAF_OF = {}
_CAT_MASK = {}
STATS = {"replayed": 0, "recorded": 0, "refused": 0}
USE_PLANS = True


def _leaf_of(word):
    cat = (word >> 61) & 7
    m = _CAT_MASK.get(cat)
    if m is None:
        m = 0
        for b in isa.candidates("#instruction", word):
            m |= b.mask & ~b.dontcare
        _CAT_MASK[cat] = m
    key = word & m
    leaf = _LEAF_OF.get(key, False)
    if leaf is False:
        matches = [b for b in isa.candidates("#instruction", word)
                   if (word & b.mask & ~b.dontcare) == b.match]
        leaf = matches[0] if len(matches) == 1 else None
        _LEAF_OF[key] = leaf
    return leaf


def _decode_word(word, gpu, state):
    """Decode into state.out / state.errors; the leaf bitset, or None for no match.

    A word of a form seen before replays that form's plan; a path the plan lacks is decoded by
    the reference and recorded (from the form's second word on: one-off forms are not worth
    recording)."""
    leaf = _leaf_of(word) if USE_PLANS else None
    if leaf is None:
        return _reference(word, state)
    plan = _PLANS.get((leaf, gpu))
    if plan is None:
        _PLANS[(leaf, gpu)] = _trace.Plan(leaf, gpu, emit_value, value_text)
        return _reference(word, state)
    try:
        _trace.replay(plan, word, state)
        STATS["replayed"] += 1
        return leaf
    except _trace.Miss:
        pass
    state.out.clear()
    state.errors.clear()
    got = _reference(word, state, True)
    tr, state.trace = state.trace, None
    if plan.insert(tr, lambda: _State(gpu)):
        STATS["recorded"] += 1
    else:
        STATS["refused"] += 1
    return got


def learn(word, gpu):
    """Make sure the plan of word's form has the path word decodes along (the assembler's
    templates are read from plans)."""
    leaf = _leaf_of(word)
    if leaf is None:
        return
    plan = _PLANS.get((leaf, gpu))
    if plan is None:
        plan = _PLANS[(leaf, gpu)] = _trace.Plan(leaf, gpu, emit_value, value_text)
    try:
        _trace.replay(plan, word, _State(gpu))
        return
    except _trace.Miss:
        pass
    state = _State(gpu)
    _reference(word, state, True)
    plan.insert(state.trace, lambda: _State(gpu))


def decode(data, offset=0, gpu=None):
    """Decode the 64-bit instruction at `offset` of `data` (bytes), or an int word.

    Returns an Instruction; raises AssemblerError for a word mesa has no match for (or whose
    operand has none). Warnings (dontcare bits set, unexpected asserted bits) do not raise: mesa
    prints such words, and they are in `.warnings`."""
    gpu = gpu_id(gpu)
    if isinstance(data, int):
        word = data & _U64
    else:
        if offset + 8 > len(data):
            raise AssemblerError("truncated instruction at offset %d: %d of 8 bytes"
                                 % (offset, len(data) - offset))
        word = int.from_bytes(data[offset:offset + 8], "little")
    state = _State(gpu)
    leaf = _decode_word(word, gpu, state)
    return _finish(word, leaf, state, offset, gpu)


def _finish(word, leaf, state, offset, gpu):
    errors = [e for e in state.errors if not _is_warning(e)]
    if leaf is None or errors:
        reason = "; ".join(errors) if errors else "no match"
        raise AssemblerError("invalid instruction word %016x at offset %d: %s" % (word, offset, reason))
    return Instruction(word, leaf, "".join(state.out), list(state.errors), gpu)


def gpu_id(gpu):
    """'a630' / 630 / None -> 630 (the generation the tables were generated for)."""
    if gpu is None:
        return isa.GPU_ID
    if isinstance(gpu, str):
        g = gpu.lower().lstrip("a")
        if not g.isdigit():
            raise AssemblerError("unknown gpu %r (expected e.g. 'a630')" % gpu)
        gpu = int(g)
    if gpu // 100 != isa.GPU_ID // 100:
        raise AssemblerError("gpu a%d is not supported: the tables describe the a%dxx generation"
                             % (gpu, isa.GPU_ID // 100))
    return gpu


def disassemble(data, gpu=None, labels=False, show_errors=False, raw=False):
    """mesa's disassembly of `data` (bytes, length a multiple of 8), one string per instruction.

    labels: branch targets as `lN` with `lN:` lines before them (mesa's branch_labels);
    show_errors: append '\\t; warning, ...' as ir3_isa_disasm does with show_errors;
    raw: print an undecodable word as 'raw 0x...' (mesa's test harness) instead of raising."""
    gpu = gpu_id(gpu)
    if len(data) % 8:
        raise AssemblerError("truncated instruction at offset %d: %d of 8 bytes"
                             % (len(data) - len(data) % 8, len(data) % 8))
    words = [int.from_bytes(data[i:i + 8], "little") for i in range(0, len(data), 8)]
    n = len(words)
    targets, calls = set(), set()
    if labels:
        pre = _State(gpu, labels=True, num_instr=n)
        for i, w in enumerate(words):
            pre.n, pre.out, pre.errors = i, [], []
            _decode_word(w, gpu, pre)
        targets, calls = pre.targets, pre.calls
    lines = []
    state = _State(gpu, labels=labels, num_instr=n)
    for i, w in enumerate(words):
        if labels:
            if i in calls:
                if i:
                    lines.append("")
                lines.append("fxn%d:" % i)
            if i in targets:
                lines.append("l%d:" % i)
        state.n, state.out, state.errors = i, [], []
        leaf = _decode_word(w, gpu, state)
        errors = [e for e in state.errors if not _is_warning(e)]
        if leaf is None or errors:
            if raw:
                lines.append("raw 0x%016X" % w)
                continue
            _finish(w, leaf, state, 8 * i, gpu)
        text = "".join(state.out)
        if show_errors and state.errors:
            text += "\t; " + ", ".join(state.errors)
        lines.append(text)
    return lines
