"""The assembler front end: lines, comments, labels, directives, mnemonic lookup, branch fixups."""
import gc

from assembler.errors import AssemblerError

from .constants import parse_number
from . import encode_alu as _alu, fastpath as _fast
from .encode_alu import encode_alu
from .modifiers_alu import DPP_WORDS
from .encode_vopd import VOPD_X, VOPD_Y, encode_vopd
from .encode_mem import encode_export, encode_mem
from .fastpath import encoder
from .syntax import SyntaxErr, split_instruction, split_top
from .mimg import encode as encode_mimg
from .index_table import INDEX_REFS
from .tables import ALU, MEM, MIMG

S_NOP = b"\x00\x00\x80\xbf"            # what llvm-mc pads code with for .p2align


class Program:
    """What assemble_program returns (a plain class: the CLI does not import dataclasses).
    ``lines`` is worked out on first use, by assembling the text again while recording them:
    keeping a tuple per statement costs several percent of an assembly nobody asks them of."""
    __slots__ = ("data", "labels", "_lines", "directives", "_relines")

    def __init__(self, data, labels=None, lines=None, directives=None, relines=None):
        self.data = data
        self.labels = {} if labels is None else labels              # label -> byte offset
        self._lines = [] if lines is None and relines is None else lines
        self._relines = relines                                     # () -> lines, when not recorded
        self.directives = [] if directives is None else directives  # (line number, text) for the code-object writer

    @property
    def lines(self):
        """(offset, line number, source line) of every instruction statement."""
        if self._lines is None:
            self._lines, self._relines = self._relines(), None
        return self._lines

    @lines.setter
    def lines(self, value):
        self._lines, self._relines = value, None

    def __repr__(self):
        return "Program(%d bytes, %d labels, %d lines, %d directives)" % (
            len(self.data), len(self.labels), len(self.lines), len(self.directives))


def _resolve(ref):
    kind, fam, op, variant = ref
    entry = ALU[fam][op] if kind == "alu" else MEM[fam][op] if kind == "mem" else MIMG[op] if kind == "mimg" \
        else None
    return kind, fam, op, entry, variant


class _Index(dict):
    """mnemonic -> [(kind, family, opcode, table entry, variant)] in the order llvm-mc tries them
    (mnemonics.build_index), read from the generated index_table.py, each mnemonic's forms
    looked up in the tables on first use."""

    def __missing__(self, name):
        value = self[name] = [_resolve(r) for r in INDEX_REFS[name]]
        return value

    def __contains__(self, name):
        return name in INDEX_REFS

    def get(self, name, default=None):
        return self[name] if name in INDEX_REFS else default

    def __iter__(self):
        return iter(INDEX_REFS)

    def __len__(self):
        return len(INDEX_REFS)


INDEX = _Index()
_DIRECTIVE_BLOCKS = {".amdhsa_kernel": ".end_amdhsa_kernel",
                     ".amdgpu_metadata": ".end_amdgpu_metadata"}
# symbol and code-object bookkeeping: kept in Program.directives for the code-object writer
_IGNORED_PREFIXES = (".amdhsa_", ".amdgcn_target", ".amdgcn_", ".globl", ".global", ".type",
                     ".size", ".hsa_code_object", ".file", ".ident", ".end_amdhsa", ".set",
                     ".protected", ".hidden", ".weak", ".local", ".addrsig", ".loc", ".cfi_")


class _Ctx:
    __slots__ = ("mnem_end", "opsel_hi_set")

    def __init__(self):
        self.mnem_end = 0
        self.opsel_hi_set = False


def _strip_comment(line):
    if ";" not in line and "/" not in line:
        return line
    cut = len(line)
    i = line.find(";")
    if i >= 0:
        cut = i
    j = line.find("//")
    if 0 <= j < cut:
        cut = j
    return line[:cut]


def closest(name, n=3):
    """Known mnemonics that look like `name` (same family prefix, similar spelling)."""
    import difflib
    stem = "_".join(name.split("_")[:2])
    pool = [k for k in INDEX if k.startswith(stem)]
    if len(pool) < n:
        pool = [k for k in INDEX if k[:2] == name[:2] and abs(len(k) - len(name)) <= 3]
    pool.sort(key=lambda k: abs(len(k) - len(name)))
    return difflib.get_close_matches(name, pool[:200], n=n, cutoff=0.6)


def _imm_mode(cands):
    """0: operands split normally; 1: scalar immediates (commas only); 2: one symbolic operand
    with blanks inside (s_waitcnt, s_delay_alu, s_waitcnt_depctr)."""
    if cands[0][0] != "alu":
        return 0
    mode = 0
    for s in cands[0][3][1]:
        if s[0] == "imm":
            if s[2] in ("waitcnt", "delay_alu", "depctr"):
                return 2
            mode = 1
        elif s[0] == "msg":
            mode = 1
    return mode


class _PerMnemonic(dict):
    """A table over INDEX's mnemonics, each entry computed on first use (importing the assembler
    stays cheap; a program uses a few hundred mnemonics of the thousands)."""

    def __init__(self, make):
        super().__init__()
        self.make = make

    def __missing__(self, name):
        if name not in INDEX:
            raise KeyError(name)
        value = self[name] = self.make(name, INDEX[name])
        return value

    def __contains__(self, name):
        return name in INDEX and self[name] is not None

    def get(self, name, default=None):
        value = self[name] if name in INDEX else None
        return default if value is None else value


def _fast_forms(name, cands):
    plain = [(f, op, e) for kind, f, op, e, v in cands if v is None and kind == "alu"]
    return plain if plain and IMM_MODE[name] == 0 and cands[0][0] == "alu" else None


IMM_MODE = _PerMnemonic(lambda name, cands: _imm_mode(cands))
# mnemonics whose first plain (non-DPP) forms are ALU: tried without column bookkeeping first
FAST = _PerMnemonic(_fast_forms)
PLAIN = _PerMnemonic(lambda name, cands: [c for c in cands if c[4] is None] or cands)
_STMT_CACHE = {}


def clear_caches():
    """Forget every memoized statement, operand and compiled encoder (for cold timings)."""
    _STMT_CACHE.clear()
    _alu.clear_caches()
    _fast.clear_caches()


def encode_line(text, col0, ctx):
    """Encode one instruction statement -> (bytes, [(label, column)] fixups)."""
    hit = _STMT_CACHE.get(text)
    if hit is not None:
        return hit, ()
    mnem, _, rest = text.partition(" ")
    fast = encoder(mnem, PLAIN, FAST)
    if fast:
        enc = fast(rest)
        if enc is not None:
            return enc, ()
    if "::" in text:
        return _encode_vopd(text, col0, ctx), []
    mnem = text.partition(" ")[0]
    if "\t" in mnem:
        mnem = mnem.partition("\t")[0]
    ctx.mnem_end = col0 + len(mnem)
    cands = INDEX.get(mnem)
    if cands is None and mnem.lower() in INDEX:     # mnemonics are case-insensitive
        text = mnem.lower() + text[len(mnem):]
        mnem = mnem.lower()
        cands = INDEX[mnem]
    if cands is None:
        near = closest(mnem)
        hint = "; did you mean %s?" % ", ".join(near) if near else ""
        raise SyntaxErr("unknown instruction %r%s" % (mnem, hint), col0)
    mode = IMM_MODE[mnem]
    if not mode:
        rest = text[len(mnem):]
        if "(" not in rest and ":[" not in rest and "| " not in rest and " |" not in rest:
            # quick split without columns; any error is redone below with columns
            toks = [p.strip() for p in rest.split(",")] if rest.strip() else []
            words = toks[-1].split() if toks else []
            if toks and words:
                ops = [(t, 0) for t in toks[:-1]] + [(words[0], 0)]
                mods = [(w, 0) for w in words[1:]]
                try:
                    return _try_candidates(text, mnem, cands, ops, mods, ctx)
                except SyntaxErr:
                    pass
        _, ops, mods = split_instruction(text, col0, mnem)
    else:
        # symbolic immediates contain blanks: keep the whole tail as operands
        rest = text[len(mnem):]
        stripped = rest.strip()
        if mode == 2:
            ops = [(stripped, col0 + len(mnem) + (len(rest) - len(rest.lstrip())))] if stripped else []
            mods = []
        else:
            _, ops, mods = split_instruction(text, col0, mnem, bare=False)
    return _try_candidates(text, mnem, cands, ops, mods, ctx)


def _try_candidates(text, mnem, cands, ops, mods, ctx):
    """Encode with the first form of `mnem` that takes these operands (llvm-mc's order)."""
    tried = PLAIN[mnem]
    if mods:
        dppkind = None
        for m, _ in mods:
            key = m.partition(":")[0]
            if key == "dpp8":
                dppkind = "dpp8"
            elif key in DPP_WORDS and key not in ("row_mask", "bank_mask", "bound_ctrl", "fi"):
                dppkind = dppkind or "dpp16"
        if dppkind is not None:
            tried = [c for c in cands if c[4] == dppkind] or cands
    err = None
    for kind, fam, op, entry, variant in tried:
        try:
            if kind == "alu":
                enc, fix = encode_alu(fam, op, entry, variant, mnem, ops, mods, ctx)
            elif kind == "mem":
                enc, fix = encode_mem(fam, op, entry, mnem, ops, mods, ctx)
            elif kind == "mimg":
                enc, fix = encode_mimg(op, entry, mnem, ops, mods, ctx)
            else:
                enc, fix = encode_export(mnem, ops, mods, ctx)
        except SyntaxErr as e:
            if err is None or e.col >= err.col:
                err = e
            continue
        if not fix and len(_STMT_CACHE) < 200000:
            _STMT_CACHE[text] = enc
        return enc, fix
    raise err


def _encode_vopd(text, col0, ctx):
    left, _, right = text.partition("::")
    lcol, rcol = col0, col0 + len(left) + 2
    rcol += len(right) - len(right.lstrip())
    xm, xops, xmods = split_instruction(left.strip(), lcol + len(left) - len(left.lstrip()))
    ym, yops, ymods = split_instruction(right.strip(), rcol)
    # llvm-mc takes the _e32 suffix on the first half (parsed like any mnemonic; VOPD has no
    # VOP3 encoding), not on the second
    if xm not in VOPD_X and xm.endswith("_e32"):
        xm = xm[:-4]
    for m, c in xmods + ymods:
        raise SyntaxErr("VOPD instructions take no modifiers (%r)" % m, c)
    if xm not in VOPD_X:
        raise SyntaxErr("%r cannot be the first half of a VOPD pair" % xm, lcol)
    if ym not in VOPD_Y:
        raise SyntaxErr("%r cannot be the second half of a VOPD pair" % ym, rcol)
    x, y = VOPD_X[xm], VOPD_Y[ym]
    return encode_vopd(x, y, xops, yops, ctx, {"X": lcol, "Y": rcol})


def assemble_program(text, source=None, record_lines=False):
    """Assemble gfx1100 source text into a Program (raises AssemblerError with line:column).
    Its ``lines`` are recorded now with ``record_lines``, else on first use."""
    enabled = gc.isenabled()
    gc.disable()            # only short-lived tuples are made here; collections would dominate
    try:
        prog = _assemble_program(text, source, record_lines)
    finally:
        if enabled:
            gc.enable()
    if not record_lines:
        prog._lines, prog._relines = None, lambda: assemble_program(text, source, True).lines
    return prog


def _assemble_program(text, source, record_lines):
    out = bytearray()
    labels, lines, directives, fixups = {}, [], [], []
    ctx = _Ctx()
    block_end = None
    in_text = True
    encoders = _fast._ENCODERS
    comments = ";" in text or "/" in text       # else no line needs looking at for one
    add_line = lines.append
    for lineno, raw in enumerate(text.splitlines(), 1):
        if block_end is None and in_text:
            # an unindented statement without comment or label: its compiled encoder, if any
            mnem, _, rest = raw.partition(" ")
            fast = encoders.get(mnem)
            if fast is None:
                fast = encoder(mnem, PLAIN, FAST)
            if fast and (not comments or ";" not in rest and "/" not in rest):
                enc = fast(rest)
                if enc is not None:
                    if record_lines:
                        add_line((len(out), lineno, raw))
                    out += enc
                    continue
        try:
            if block_end is not None:
                directives.append((lineno, raw.strip()))
                if raw.strip().split()[:1] == [block_end]:
                    block_end = None
                continue
            line = _strip_comment(raw) if (";" in raw or "/" in raw) else raw
            stripped = line.strip()
            if not stripped:
                continue
            col = line.index(stripped[0])
            # labels: "name:" (several may precede a statement)
            while True:
                i = stripped.find(":")
                if i <= 0 or (i + 1 < len(stripped) and stripped[i + 1] not in " \t"):
                    break
                head = stripped[:i + 1]
                if " " not in head and "\t" not in head and (head[0].isalpha() or head[0] in "_.$"):
                    name = head[:-1]
                    if not in_text:
                        directives.append((lineno, head))     # a data label of another section
                    elif name in labels:
                        raise SyntaxErr("label %r redefined" % name, col)
                    else:
                        labels[name] = len(out)
                    rest = stripped[len(head):]
                    col += len(head) + len(rest) - len(rest.lstrip())
                    stripped = rest.strip()
                    if not stripped:
                        break
                    continue
                break
            if not stripped:
                continue
            if stripped.startswith("."):
                word = stripped.split(None, 1)[0]
                section = _section_switch(word, stripped)
                if section is not None:
                    in_text = section
                    if word != ".text":
                        directives.append((lineno, stripped))
                    continue
                if word in _DIRECTIVE_BLOCKS:
                    block_end = _DIRECTIVE_BLOCKS[word]
                    directives.append((lineno, stripped))
                elif not in_text:
                    directives.append((lineno, stripped))   # data of another section
                elif word.startswith(_IGNORED_PREFIXES):
                    directives.append((lineno, stripped))
                else:
                    _directive(word, stripped, col, out)
                continue
            if not in_text:
                raise SyntaxErr("instruction outside .text", col)
            pc = len(out)
            enc, fix = encode_line(stripped, col, ctx)
            for label, c in fix:
                fixups.append((label, pc, lineno, c))
            if record_lines:
                add_line((pc, lineno, raw))
            out += enc
        except SyntaxErr as e:
            raise AssemblerError(e.reason, lineno, e.col + 1, source) from None
    if block_end is not None:
        raise AssemblerError("missing %s" % block_end, len(text.splitlines()), 1, source)
    for label, pc, lineno, c in fixups:
        if label not in labels:
            raise AssemblerError("undefined label %r" % label, lineno, c + 1, source)
        delta = labels[label] - (pc + 4)
        if delta % 4:
            raise AssemblerError("branch target %r is not 4-byte aligned" % label, lineno, c + 1,
                                 source)
        delta //= 4
        if not -0x8000 <= delta <= 0x7FFF:
            raise AssemblerError("branch to %r out of range (%d dwords)" % (label, delta), lineno,
                                 c + 1, source)
        out[pc:pc + 2] = (delta & 0xFFFF).to_bytes(2, "little")
    return Program(bytes(out), labels, lines, directives)


def _section_switch(word, stmt):
    """True when the statement switches to .text, False for another section, None otherwise."""
    if word == ".text":
        return True
    if word in (".rodata", ".data", ".bss"):
        return False
    if word == ".section":
        name = stmt[len(word):].strip().split(",")[0].strip().strip('"')
        return name == ".text" or name.startswith(".text.")
    return None


def _directive(word, stmt, col, out):
    args = stmt[len(word):].strip()
    if word in (".text",):
        return
    if word == ".p2align":
        parts = [a.strip() for a in args.split(",")]
        num = parse_number(parts[0]) if parts[0] else None
        if num is None or num[1] or not 0 <= num[0] <= 16:
            raise SyntaxErr(".p2align expects a power of two exponent 0..16", col)
        align = 1 << num[0]
        pad = -len(out) % align
        if len(parts) > 1 and parts[1]:
            fill = parse_number(parts[1])
            if fill is None or fill[1]:
                raise SyntaxErr(".p2align fill must be an integer", col)
            out += bytes([fill[0] & 0xFF]) * pad
        else:
            while pad >= 4 and len(out) % 4 == 0:
                out += S_NOP
                pad -= 4
            out += b"\x00" * pad
        return
    if word == ".p2alignl":                # align with a repeated 32-bit pattern (s_code_end)
        parts = [a.strip() for a in args.split(",")]
        num = parse_number(parts[0]) if parts[0] else None
        fill = parse_number(parts[1]) if len(parts) > 1 else (0, False)
        if num is None or num[1] or not 0 <= num[0] <= 16 or fill is None or fill[1]:
            raise SyntaxErr(".p2alignl expects an exponent and a 32-bit fill value", col)
        if len(out) % 4:
            raise SyntaxErr(".p2alignl needs a 4-byte aligned location", col)
        pattern = (fill[0] & 0xFFFFFFFF).to_bytes(4, "little")
        while len(out) % (1 << num[0]):
            out += pattern
        return
    if word == ".fill":
        parts = [parse_number(a) for a in args.split(",")]
        if not 1 <= len(parts) <= 3 or any(p is None or p[1] for p in parts):
            raise SyntaxErr(".fill expects repeat[, size[, value]] integers", col)
        count = parts[0][0]
        size = parts[1][0] if len(parts) > 1 else 1
        value = parts[2][0] if len(parts) > 2 else 0
        if not 0 <= count <= 1 << 24 or size not in (1, 2, 4, 8):
            raise SyntaxErr(".fill repeat or size out of range", col)
        out += (value & ((1 << (8 * size)) - 1)).to_bytes(size, "little") * count
        return
    sizes = {".byte": 1, ".short": 2, ".hword": 2, ".2byte": 2, ".long": 4, ".word": 4, ".4byte": 4,
             ".int": 4, ".quad": 8, ".8byte": 8}
    if word in sizes:
        n = sizes[word]
        for piece, c in split_top(args, col + len(word) + 1, ","):
            num = parse_number(piece)
            if num is None or num[1]:
                raise SyntaxErr("%s expects integers, got %r" % (word, piece), c)
            if not -(1 << (8 * n - 1)) <= num[0] < (1 << (8 * n)):
                raise SyntaxErr("value %s does not fit in %s" % (piece, word), c)
            out += (num[0] & ((1 << (8 * n)) - 1)).to_bytes(n, "little")
        return
    raise SyntaxErr("unknown directive %s" % word, col)


def assemble(text, source=None):
    return assemble_program(text, source).data
