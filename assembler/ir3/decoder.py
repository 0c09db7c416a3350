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

from . import isa

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
                 "capture")

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

    def error(self, msg):
        if len(self.errors) < 4:
            self.errors.append(msg)


class _Scope:
    __slots__ = ("val", "bitset", "params", "parent", "state", "cache")

    def __init__(self, state, bitset, val, parent, params=()):
        self.state, self.bitset, self.val, self.parent, self.params = state, bitset, val, parent, params
        self.cache = {}

    # -- expressions

    def evaluate(self, expr):
        cache = self.cache
        if expr in cache:
            return cache[expr]
        stack = self.state.stack
        # mesa's push_expr: refuse an expression already being evaluated (it skips slot 0)
        for i in range(len(stack) - 1, 0, -1):
            if stack[i] is expr:
                return 0
        stack.append(expr)
        try:
            ret = expr(self.field_value, self.state.gpu) & _U64
        finally:
            stack.pop()
        cache[expr] = ret
        return ret

    def field_value(self, name):
        """isa_decode_field(): the value of a field, an error and 0 when there is none."""
        found = self.resolve(name)
        if found is None:
            self.state.error("no field '%s'" % name)
            return 0
        return found[1]

    # -- fields

    def find_field(self, bitset, name):
        stack = self.state.stack
        cur = stack[-1] if stack else None
        while bitset is not None:
            for case in bitset.cases:
                if case.expr is not None and cur is not case.expr and not self.evaluate(case.expr):
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
        while bitset is not None:
            for case in bitset.cases:
                if case.expr is not None and not self.evaluate(case.expr):
                    continue
                for f in case.fields.values():
                    if f.kind == "assert":
                        v = (self.val >> f.low) & f.mask
                        if v != f.val:
                            self.state.error("WARNING: unexpected bits[%u:%u] in %s: %016x vs %016x"
                                             % (f.low, f.high, bitset.name, v, f.val))
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
        for kind, text in parts:
            if kind == "lit":
                out.append(text)
            else:
                self.display_field(text, depth)

    def display_field(self, name, depth):
        state = self.state
        out = state.out
        if name == "NAME":
            out.append(self.bitset.name)
            return
        found = self.resolve(name)
        if found is None:
            state.error("no field '%s'" % name)
            return
        f, val = found
        if state.capture is not None:
            state.capture.append((depth, name, val, f))
        kind = f.kind
        width = f.width
        if kind in ("branch", "absbranch"):
            if state.labels:
                off = _sext(val, width) + state.n if kind == "branch" else val
                if 0 <= off < state.num_instr:
                    if f.call:
                        out.append("fxn%d" % off)
                        state.calls.add(off)
                    else:
                        out.append("l%d" % off)
                        state.targets.add(off)
                    return
            out.append(str(_sext(val, width)))
        elif kind == "int":
            out.append(str(_sext(val, width)))
        elif kind == "uint":
            out.append(str(val))
        elif kind == "hex":
            out.append("%x" % val)
        elif kind == "offset":
            if val:
                out.append("%+d" % _sext(val, width))
        elif kind == "uoffset":
            if val:
                out.append("+%d" % val)
        elif kind == "float":
            if width == 16:
                out.append(_c_float(struct.unpack("<e", struct.pack("<H", val & 0xffff))[0]))
            else:
                out.append(_c_float(struct.unpack("<f", struct.pack("<I", val & 0xffffffff))[0]))
        elif kind == "bool":
            if f.display is not None:
                if val:
                    out.append(f.display)
            else:
                out.append("%u" % (1 if val else 0) if val in (0, 1) else "%u" % (val & 0xffffffff))
        elif kind == "bool_inv":
            if f.display is not None:
                if not val:
                    out.append(f.display)
            else:
                out.append("%u" % (0 if val else 1))
        elif kind == "enum":
            disp = isa.tables.ENUMS[f.type].get(val)
            out.append(disp if disp is not None else "%u" % (val & 0xffffffff))
        elif kind == "bitset":
            leaf = find_bitset(state, f.type, val)
            if leaf is None:
                state.error("no match: FIELD: '%s.%s': %016x" % (self.bitset.name, name, val))
                return
            _Scope(state, leaf, val, self, f.params).display(depth + 1)
        elif kind == "custom":
            pass                 # ir3 has no custom fields; mesa prints nothing without a callback
        else:
            state.error("Bad field type: %s (%s)" % (f.type, f.name))


def find_bitset(state, root, val):
    match = None
    for b in isa.candidates(root, val):
        if (val & b.mask & ~b.dontcare) != b.match:
            continue
        if match is not None:
            state.error("bitset conflict: %s vs %s" % (match.name, b.name))
            return None
        match = b
    if match is not None and val & match.dontcare:
        state.error("dontcare bits in %s: %016x" % (match.name, val & match.dontcare))
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


def _decode_word(word, gpu, state):
    leaf = find_bitset(state, "#instruction", word)
    if leaf is None:
        return None
    scope = _Scope(state, leaf, word, None)
    scope.display()
    return leaf


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
