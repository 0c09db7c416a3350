"""ir3 source files -> words: comments, labels, `raw` words and computerator's @headers.

    assemble(text, gpu="a630") -> bytes
    assemble_program(text, gpu="a630", source=None) -> Program (code + what a dispatch needs)

Syntax is what mesa's disassembler prints (and its assembler, ir3_parser.y, reads): one
instruction per line, `;` or `//` starts a comment, `name:` defines a label that branches may
use in place of their offset (`br !p0.x, #endif`), `raw 0x0123456789abcdef` emits a word as is.
The @headers of mesa's computerator describe the program's interface (see program.py).
"""
import re

from assembler.errors import AssemblerError

from .decoder import gpu_id
from .encoder import encode_line
from .program import Program, parse_header

_LABEL = re.compile(r"^\s*([A-Za-z_.$][A-Za-z0-9_.$]*)\s*:\s*(.*)$")
_RAW = re.compile(r"^raw\s+(0[xX][0-9a-fA-F]{1,16}|\d+)\s*$")
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
            if name in labels:
                raise AssemblerError("label %r defined twice (first on line %d)"
                                     % (name, labels[name][1]), lineno, col, source)
            labels[name] = (len(stmts), lineno)
            line = m.group(2)
            col = raw_line.find(line) + 1 if line.strip() else col
            m = _LABEL.match(line)
        if line.strip():
            stmts.append((lineno, col, line.strip()))
    targets = {name: idx for name, (idx, _) in labels.items()}
    words = []
    for pc, (lineno, col, stmt) in enumerate(stmts):
        m = _RAW.match(stmt)
        if m:
            words.append(int(m.group(1), 0) & ((1 << 64) - 1))
            continue
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
