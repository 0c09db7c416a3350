"""Learned SASS instruction formats, one generated module per arch (sm_86.py, sm_89.py, sm_90.py).

Each module has CLASSES: {opcode class (low 12 bits of the word): {"fbits", "formats"}}.
The value of the word's `fbits` selects a format:

    guard     "P" / "UP": file of the @predicate in bits 12..14 (negated by bit 15); None: none
    mnem      print order of the opcode tokens: a fixed token (str) or a group index (int)
    groups    [(bits, {value: "TOKENS"})]: a field (bits LSB first) and what each value prints
              ("" prints nothing; a value missing from the table is a word nvdisasm refuses)
    ops       operands in print order, each a dict:
                kind    reg / imm / cbuf / mem / name / target / pair / set (assembler.sass.syntax)
                shapes  {decoration value: shape}; the decoration value is read from `dbits`
                holes   how each number of the operand is read from the word:
                          ("bits", ((word bit, value bit), ...), signed width or 0, xor constant)
                          ("float", "f32" | "f16" | "bf16" | "f64h", word bits LSB first)
                          ("name", word bits, {value: name})
                          ("target", pairs, signed width, xor constant, addend): relative to
                                     the instruction's address
                          ("const", value)
                hide    (bits, value): the operand is not printed when these bits hold value
                hide_by ((group, value, shown), ...), optional: with that modifier value the
                        operand is printed always (1) or never (0), whatever `hide` says
                rz      {decoration value: (base shown, unsigned)}, optional, addresses only:
                        whether an RZ base prints beside a nonzero offset, and whether a
                        negative offset printed alone is shown unsigned; None: nvdisasm
                        refuses an RZ base there
    default   (mask, value): bits nvdisasm does not print, with the value ptxas gives them (also
              those of an operand hidden by another's bits, kept while it is hidden)
    strict    (mask, value), optional: unprinted bits nvdisasm refuses the word for at another
              value (the decoder refuses it too)
    nosb      optional: "w" / "r" / "wr": nvdisasm refuses a write / read scoreboard here
    forbid    optional: ((group i, value, group j, value), ...): modifier values nvdisasm takes
              alone but refuses together
    blank     optional: 1 when nvdisasm ends the statement with ' ;' whatever the control
    sbblank   optional: 1 when it does so as soon as a write or read scoreboard is named
    noreuse   optional: the reuse flags (4-bit mask) nvdisasm refuses with bit 109 set
    noreuse_by optional: ((group, value, mask), ...): reuse flags refused with that modifier value
    noreuse_mix optional: reuse values (a 16-bit mask over bits 122..125 read as a number)
              nvdisasm refuses with bit 109 set though it takes each of their flags alone
    hide_mod  optional: ((group, value, word bits, raw value), ...): that modifier value prints
              no text when those bits hold that value (an operand at its zero register: RZ)
    uses      how many corpus words ptxas wrote in this format
    spellings the mnemonics (opcode.MODIFIERS) ptxas wrote in it: the assembler prefers, among
              formats of several classes that print the same text, one ptxas wrote it with
"""
import importlib

ARCHS = ("sm_86", "sm_89", "sm_90")
_ALIASES = {"sm_87": "sm_86", "sm_88": "sm_86", "sm_90a": "sm_90"}
_cache = {}


def canonical_arch(arch):
    """'sm_90', 'SM90', '90', 'sm_90a' -> 'sm_90'; ValueError for an arch we have no tables for."""
    a = str(arch).strip().lower().replace("sm", "").lstrip("_")
    a = "sm_" + a
    a = _ALIASES.get(a, a)
    if a not in ARCHS:
        raise ValueError("unsupported arch %r (supported: %s)" % (arch, ", ".join(ARCHS)))
    return a


def load(arch):
    a = canonical_arch(arch)
    mod = _cache.get(a)
    if mod is None:
        mod = _cache[a] = importlib.import_module("." + a, __name__)
    return mod
