"""The assembler front end: SASS text in nvdisasm's syntax -> 128-bit words.

    assemble(text, arch="sm_86", base=0) -> bytes
    assemble_program(text, arch, source=None, base=0) -> Program

Accepted input, one statement per line:

    label:                              any name (.L_x_0, $f$g, loop ...)
    @!P0 IMAD.WIDE R2, R4, 0x4, R2 ;    the trailing ';' is optional
    BRA `(.L_x_0) ;                     a label (nvdisasm's cubin listing) ...
    BRA 0x140 ;                         ... or an absolute address (its raw listing) ...
    BRA loop ;                          ... or a bare label name
    FADD R9, R2, R5 ;  // [B--2---:R-:W3:Y:S05]     scheduling control (assembler.sass.control)
    LDG.E R2, [R4.64] ;  // desc=UR6                 sm_86/89: the unprinted memory descriptor
    FSEL R5, R5, 0x7ff00000, !P0 ;                   a floating-point immediate as its raw bits

Comments: // to the end of the line and /* ... */, as in nvdisasm's listings, whose address
prefixes (/*0040*/) and (*"..."*) annotations are skipped. In a `nvdisasm -hex` listing the
second word's comment (/* 0x000fca0000000000 */) supplies the scheduling control of the
instruction above it. Listing directives (.section, .global, .type, .size, .other,
.headerflags, .elftype, .target, .align) are accepted and ignored.

Instructions without a control comment get one from the scheduler (assembler.sass.schedule):
dependencies are honoured with stall counts and scoreboards, conservatively.
"""
import functools
import re

from assembler.errors import AssemblerError

from . import aliases
from .control import CONTROL_MASK, Control, parse_control
from .decoder import decode_word
from .encoder import EncodeError, encode
from .syntax import Operand, SyntaxProblem, parse_operand, split_statement
from .tables import canonical_arch

# operands repeat (RZ, PT, R2, c[0x0][0x0] ...): parse each text once (Operands are not changed)
_operand = functools.lru_cache(maxsize=1 << 14)(parse_operand)

_LABEL = re.compile(r"^\s*([A-Za-z_.$][\w.$]*)\s*:(?!:)")
_ADDR_PREFIX = re.compile(r"^\s*/\*[0-9a-fA-F]{4,}\*/")
_HEX_COMMENT = re.compile(r"/\*\s*0x([0-9a-fA-F]{16})\s*\*/")
_ANNOT = re.compile(r"\(\*.*?\*\)")
_DESC_COMMENT = re.compile(r"(?<![\w.])desc=UR(\d+)\b")
_IGNORED_DIRECTIVES = {".section", ".global", ".globl", ".type", ".size", ".other", ".headerflags",
                       ".elftype", ".target", ".align", ".weak", ".local", ".text"}


class Program:
    """Result of assemble_program.

    data         the code (16 bytes per instruction)
    words        128-bit words
    labels       {name: byte offset (from base)}
    lines        source line of each instruction (1-based)
    texts        the statement text of each instruction
    explicit     True where the control came from the source, False where it was scheduled
    """

    def __init__(self, arch, base):
        self.arch, self.base = arch, base
        self.words, self.labels, self.lines, self.texts, self.explicit = [], {}, [], [], []

    @property
    def data(self):
        return b"".join((w & ((1 << 64) - 1)).to_bytes(8, "little") + (w >> 64).to_bytes(8, "little")
                        for w in self.words)


def _strip_comments(line):
    """(code, comment text) of one line."""
    comment = []
    code = _ADDR_PREFIX.sub("", line)
    code = _ANNOT.sub("", code)

    def keep(m):
        comment.append(m.group(0))
        return " "
    code = re.sub(r"/\*.*?\*/", keep, code)
    if "//" in code:
        code, _, rest = code.partition("//")
        comment.append(rest)
    return code, " ".join(comment)


class _Stmt:
    __slots__ = ("line", "text", "st", "control", "hi_comment", "col0", "desc")


def assemble_program(text, arch="sm_86", source=None, base=0):
    arch = canonical_arch(arch)
    prog = Program(arch, base)
    stmts = []
    pending_label_cols = {}
    for n, raw in enumerate(text.splitlines(), 1):
        code, comment = _strip_comments(raw)
        hexes = _HEX_COMMENT.findall(raw)
        if not code.strip():
            # a line holding only the second word of a -hex listing: control of the last one
            if hexes and stmts and stmts[-1].line == n - 1 and stmts[-1].hi_comment is None:
                stmts[-1].hi_comment = int(hexes[-1], 16)
            continue
        while True:
            m = _LABEL.match(code)
            if not m:
                break
            name = m.group(1)
            if name in prog.labels:
                raise AssemblerError("label %r defined twice" % name, n, m.start(1) + 1, source)
            prog.labels[name] = base + 16 * len(stmts)
            pending_label_cols[name] = (n, m.start(1) + 1)
            code = code[m.end():]
        body = code.strip()
        if not body:
            continue
        if body.startswith("."):
            word = body.split(None, 1)[0]
            if word in _IGNORED_DIRECTIVES:
                continue
            raise AssemblerError("unknown directive %r (a cubin's .kernel/.param directives are read "
                                 "by assembler.cubin)" % word, n, code.index(word) + 1, source)
        col0 = code.index(body)
        try:
            st = split_statement(body)
        except SyntaxProblem as e:
            raise AssemblerError(str(e), n, col0 + e.column + 1, source) from None
        s = _Stmt()
        s.line, s.text, s.st, s.col0, s.hi_comment = n, body, st, col0, None
        try:
            s.control = parse_control(comment)
        except ValueError as e:
            raise AssemblerError(str(e), n, raw.find("[B") + 1, source) from None
        m = _DESC_COMMENT.search(comment)
        s.desc = int(m.group(1)) if m else None
        if m and arch not in DESC_FIELD:
            raise AssemblerError("desc=UR%s: %s prints the memory descriptor (desc[URn][...]); the "
                                 "comment is for sm_86 and sm_89" % (m.group(1), arch), n,
                                 raw.find("desc=") + 1, source)
        stmts.append(s)
    # operands, with labels resolved to addresses
    parsed = []
    for i, s in enumerate(stmts):
        ops = []
        for t, col in zip(s.st.operands, s.st.columns):
            try:
                op = _operand(t)
            except SyntaxProblem as e:
                raise AssemblerError(str(e), s.line, s.col0 + col + 1, source) from None
            ops.append(_resolve(op, prog.labels, s, col, source))
        parsed.append(ops)
    controls = [None] * len(stmts)
    for i, s in enumerate(stmts):
        if s.control is not None:
            controls[i] = s.control
        elif s.hi_comment is not None:
            controls[i] = Control.from_word(s.hi_comment << 64)
    explicit = {i: s.desc for i, s in enumerate(stmts) if s.desc is not None}
    words = []
    for i, s in enumerate(stmts):
        pc = base + 16 * i
        try:
            # a control given is known here: a format told apart by a reuse bit (sm_89's LDGSTS
            # splits on bit 122) is chosen only where nvdisasm takes that bit beside it
            w = encode(s.st, arch, pc, controls[i].bits() if controls[i] is not None else None, parsed[i])
        except EncodeError as e:
            raise AssemblerError(str(e), s.line, s.col0 + e.column + 1, source) from None
        words.append(w)
    _descriptors(arch, stmts, words, parsed, base, explicit, source)
    if any(c is None for c in controls):
        from .schedule import schedule
        controls = schedule(words, arch, controls, stmts_labels(prog.labels, base, len(words)))
    for i, s in enumerate(stmts):
        w = (words[i] & ~CONTROL_MASK) | controls[i].bits()
        if (w >> 122) & 15 and not (w >> 109) & 1 and any(".reuse" in o for o in s.st.operands):
            raise AssemblerError(".reuse needs the yield bit set: write '-' instead of 'Y' in the control "
                                 "(nvdisasm does not show reuse flags otherwise)", s.line, s.col0 + 1, source)
        w = _indirect(w, s.st, parsed[i], arch, base + 16 * i)
        prog.words.append(w)
        prog.lines.append(s.line)
        prog.texts.append(s.text)
        prog.explicit.append(s.control is not None or s.hi_comment is not None)
    return prog


# Global and generic memory instructions on sm_86/sm_89 name a memory descriptor, a uniform
# register pair ptxas loads from c[0x0][0x118] (ULDC.64 URn, c[0x0][0x118]), in a field nvdisasm
# does not print there (sm_90's prints it: desc[UR4][R2.64]). The assembler fills it with the pair
# the first dominating load wrote; where ptxas chose another copy a comment after the statement
# names it (exact listings write one): LDG.E R39, [R18.64] ;  // [B------:R-:W2:-:S04] desc=UR4
# (desc[UR4][R18.64] is another encoding there, which nvdisasm prints so).
# {arch: {opcode class: lowest bit of the 6-bit field}}
DESC_FIELD = {arch: {0x980: 32, 0x981: 32, 0x985: 64, 0x986: 64, 0x98a: 64, 0x98e: 64, 0x9a8: 64}
              for arch in ("sm_86", "sm_89")}


def _descriptors(arch, stmts, words, parsed, base, explicit, source=None):
    """Fill the unprinted descriptor field: the pair the text named, else the one loaded by the
    first ULDC.64 that dominates the instruction in the control flow (falling through, and
    branching to BRA targets): the one ptxas keeps live for it (where it uses a later copy the
    text must say so)."""
    fields = DESC_FIELD.get(arch)
    if not fields:
        return
    n = len(stmts)
    for i, ur in explicit.items():
        at = fields.get(words[i] & 0xfff)
        if at is None:
            raise AssemblerError("%s: desc=UR%d names a memory descriptor, which this form of the "
                                 "instruction does not have on %s" % (stmts[i].st.opcode, ur, arch),
                                 stmts[i].line, stmts[i].col0 + 1, source)
        words[i] = words[i] & ~(63 << at) | ur << at
    if not any(fields.get(w & 0xfff) is not None for i, w in enumerate(words) if i not in explicit):
        return
    loads = {}
    for i, s in enumerate(stmts):
        st = s.st
        if st.opcode == "ULDC" and st.modifiers[:1] == ("64",) and len(st.operands) == 2 \
                and st.operands[1].replace(" ", "").lower() == "c[0x0][0x118]":
            r = st.operands[0].strip()
            if r.startswith("UR") and r[2:].isdigit():
                loads[i] = int(r[2:])
    succ = [[] for _ in range(n)]
    for i, s in enumerate(stmts):
        st = s.st
        stop = st.guard is None and st.opcode in ("BRA", "EXIT", "RET", "BRX", "JMP", "JMX", "KILL")
        if not stop and i + 1 < n:
            succ[i].append(i + 1)
        if st.opcode == "BRA":
            for op in parsed[i]:
                if op.kind == "imm" and op.shape == ("hex",):
                    j = (op.holes[0] - base) // 16
                    if 0 <= j < n:
                        succ[i].append(j)

    def reaches(avoid):
        seen = [False] * n
        work = [0] if avoid != 0 else []
        while work:
            i = work.pop()
            if seen[i]:
                continue
            seen[i] = True
            work.extend(j for j in succ[i] if j != avoid and not seen[j])
        return seen
    cut = {k: reaches(k) for k in loads}            # what is reachable without passing load k
    for i, w in enumerate(words):
        at = fields.get(w & 0xfff)
        if at is None or i in explicit:
            continue
        dom = [k for k in loads if k < i and not cut[k][i]]
        if dom:
            words[i] = w & ~(63 << at) | loads[min(dom)] << at


def _indirect(w, st, ops, arch, pc):
    """Unprinted bits that still change nvdisasm's text: the blank before ';' (see
    decoder.semicolon), and an IMAD whose operands call
    for IMAD.MOV / .IADD / .SHL written without it (reuse bits 0 and 1 set, not printed; nvdisasm
    takes that only with a stall of 1 and more)."""
    tokens = (st.opcode,) + tuple(st.modifiers)
    if st.opcode == "IMAD" and not (w >> 109) & 1 and (w >> 105) & 15 and aliases.strip(tokens) == tokens \
            and aliases.add(tokens, ops) != tokens:
        w |= 3 << 122
    if st.semicolon and (" ;" if decode_word(w, arch, pc).text.endswith(" ;") else ";") != st.semicolon:
        if st.semicolon == ";":
            w &= ~(3 << 102)
        else:
            want = decode_word(w, arch, pc).text[:-1].rstrip()
            for b in (103, 102):
                try:
                    if decode_word(w | 1 << b, arch, pc).text[:-2] == want:
                        return w | 1 << b
                except AssemblerError:
                    continue
    return w


def stmts_labels(labels, base, n):
    """Instruction indices that are branch targets (labels)."""
    return sorted({(a - base) // 16 for a in labels.values() if 0 <= a - base < 16 * n})


def _resolve(op, labels, s, col, source):
    if op.kind == "label":
        name = op.holes[0]
        if name not in labels:
            raise AssemblerError("undefined label %r" % name, s.line, s.col0 + col + 1, source)
        return Operand("imm", ("hex",), (labels[name],))
    if op.kind == "name" and op.holes[0] in labels:
        return Operand("imm", ("hex",), (labels[op.holes[0]],))
    if op.kind == "pair":
        ka, sa, kb, sb = op.shape
        if kb == "label":
            name = op.holes[-1]
            if name not in labels:
                raise AssemblerError("undefined label %r" % name, s.line, s.col0 + col + 1, source)
            return Operand("pair", (ka, sa, "imm", ("hex",)), op.holes[:-1] + (labels[name],))
    return op


def assemble(text, arch="sm_86", base=0):
    """SASS text -> code bytes (16 per instruction)."""
    return assemble_program(text, arch, base=base).data
