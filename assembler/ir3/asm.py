"""ir3 source files -> words: comments, labels, `raw` words and computerator's @headers.

    assemble(text, gpu="a630") -> bytes
    assemble_program(text, gpu="a630", source=None) -> Program (code + what a dispatch needs)

Syntax is what mesa's disassembler prints (and its assembler, ir3_parser.y, reads): one
instruction per line, `;` or `//` starts a comment, `name:` defines a label that branches may
use in place of their offset (`br !p0.x, #endif`), `raw 0x0123456789abcdef` emits a word as is.
As in mesa's parser, which reads a stream of tokens, instruction flags written after an
instruction (`nop(sy)`, or `(sy)` alone on a line) belong to the next instruction.
The @headers of mesa's computerator describe the program's interface (see program.py).
"""
import re

from assembler.errors import AssemblerError

from .decoder import gpu_id
from .encoder import encode_line
from .program import Program, parse_header

_LABEL = re.compile(r"^\s*([A-Za-z_.$][A-Za-z0-9_.$]*)\s*:\s*(.*)$")
# (ss)(sy)... at the end of a line: mesa's grammar reads them as the next instruction's flags
_TRAILING_FLAGS = re.compile(r"^(.*?)\s*((?:\((?:sy|ss|jp|eq|sat|ul|rpt\d+|nop\d+)\)\s*)+)$")
_CACHE = {}


def _strip_comment(line):
    for mark in (";", "//"):
        i = line.find(mark)
        if i >= 0:
            line = line[:i]
    return line


def assemble_program(text, gpu=None, source=None):
    """Assemble a whole file; AssemblerError carries line and column of the first problem."""
    gpu = gpu_id(gpu)
    prog = Program(gpu=gpu)
    stmts, labels = [], {}
    carry = None              # (flags, line) written after an instruction, for the next one
    for lineno, raw_line in enumerate(text.splitlines(), 1):
        line = _strip_comment(raw_line)
        if not line.strip():
            continue
        col = len(line) - len(line.lstrip()) + 1
        stripped = line.strip()
        if stripped.startswith("@"):
            try:
                parse_header(prog, stripped)
            except AssemblerError as e:
                raise AssemblerError(e.reason, lineno, col, source) from None
            continue
        m = _LABEL.match(line)
        while m and not m.group(1).startswith("("):
            name = m.group(1)
            if carry:
                raise AssemblerError("flags %s (line %d) belong to the next instruction, but label %r "
                                     "comes first" % (carry[0], carry[1], name), lineno, col, source)
            if name in labels:
                raise AssemblerError("label %r defined twice (first on line %d)"
                                     % (name, labels[name][1]), lineno, col, source)
            labels[name] = (len(stmts), lineno)
            line = m.group(2)
            col = raw_line.find(line) + 1 if line.strip() else col
            m = _LABEL.match(line)
        stmt = line.strip()
        if carry and stmt:
            stmt = carry[0] + stmt
            carry = None
        m = _TRAILING_FLAGS.match(stmt)
        if m and not stmt.startswith("raw "):
            stmt, carry = m.group(1), ("".join(m.group(2).split()), lineno)
        if stmt:
            stmts.append((lineno, col, stmt))
    if carry:
        raise AssemblerError("flags %s at the end of the program, with no instruction to apply to"
                             % carry[0], carry[1], None, source)
    targets = {name: idx for name, (idx, _) in labels.items()}
    words = []
    for pc, (lineno, col, stmt) in enumerate(stmts):
        key = (stmt, gpu)
        word = _CACHE.get(key)
        if word is None:
            try:
                word = encode_line(stmt, gpu, pc, targets)
            except AssemblerError as e:
                raise AssemblerError(e.reason, lineno, col, source) from None
            if not _uses_label(stmt, targets):
                _CACHE[key] = word
        words.append(word)
    prog.code = b"".join(w.to_bytes(8, "little") for w in words)
    prog.labels = {name: 8 * idx for name, idx in targets.items()}
    prog.lines = [lineno for lineno, _, _ in stmts]
    return prog


def _uses_label(stmt, targets):
    return bool(targets) and any(re.search(r"\b%s\b" % re.escape(t), stmt) for t in targets)


def assemble(text, gpu=None):
    """Assemble `text` (mesa's syntax) into little-endian 64-bit words."""
    return assemble_program(text, gpu).code


def clear_caches():
    _CACHE.clear()
