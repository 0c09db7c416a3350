"""ir3 assembly against mesa's own assembler (ir3_parse + ir3_shader_assemble of the tinymesa
25.2.7.2 wheel), frozen in tests/data/ir3/asm.txt and computerator.txt by
scripts/gen_ir3_corpus.py; the live tests re-ask the wheel and skip without it.

asm.txt holds one line of mesa's disassembly per row: its a6xx test vectors and seeded words of
every a6xx instruction form. mesa's assembler has three answers:
  - a word that mesa's disassembler prints as the text again: ours must be that word;
  - a word that prints as some other text: mesa's parser reads the text differently from what
    its disassembler meant (each such line has one of the reasons in MESA_MISREADS: an empty
    cat5 write mask `()` becomes (x), getlast's .wN is always .w8, ...). mesa's word is no
    encoding of the text, so ours is the word the text came from: it disassembles back;
  - no word (a syntax error, or an abort in its parser or encoder): ours must disassemble back.
"""
import os
import re
import sys

import pytest

from assembler.errors import AssemblerError
from assembler.ir3 import assemble_program, decode, encode_line, isa

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "tests", "data", "ir3")
sys.path.insert(0, os.path.join(ROOT, "scripts"))

import gen_ir3_oracle as oracle  # noqa: E402


def _rows(name):
    with open(os.path.join(DATA, name)) as f:
        return [line.rstrip("\n").split(" ; ") for line in f if not line.startswith("#")]


ROWS = [r + [""] * (4 - len(r)) for r in _rows("asm.txt")]
FAITHFUL = [r for r in ROWS if r[2] != "!reject" and not r[3]]
MISREAD = [r for r in ROWS if r[2] != "!reject" and r[3]]
REJECTED = [r for r in ROWS if r[2] == "!reject"]


def test_corpus_reaches_every_a6xx_form():
    forms = {r[0][5:] for r in ROWS if r[0].startswith("form ")}
    # brax has no a6xx display template: mesa's disassembler cannot print it
    assert forms == {leaf.name for leaf in isa.INSTRUCTIONS} - {"brax"}
    assert sum(r[0] == "vector" for r in ROWS) == 276
    assert len(FAITHFUL) > 900 and len(MISREAD) < 100 and len(REJECTED) < 120


def test_mesas_vectors_assemble_as_mesas_assembler_assembles_them():
    vectors = [r for r in ROWS if r[0] == "vector"]
    assert all(r in FAITHFUL for r in vectors)
    bad = [(text, want, "%016x" % encode_line(text)) for _, text, want, _ in vectors
           if encode_line(text) != int(want, 16)]
    assert bad == []


def test_every_form_assembles_as_mesas_assembler_assembles_it():
    bad = []
    for origin, text, want, _ in FAITHFUL:
        try:
            got = "%016x" % encode_line(text)
        except AssemblerError as e:
            got = str(e)
        if got != want:
            bad.append((origin, text, want, got))
    assert bad == []


def _ops(text):
    return text.split(", ")


def _differ_in_h(t, m):
    """Only operands that gain or lose an h (FULL: a half register, or h(N) for an immediate)."""
    def key(x):
        return re.sub(r"h\(([^()]*)\)$", r"\1", x).replace("h", "", 1)
    a, b = _ops(t), _ops(m)
    return len(a) == len(b) and a != b and all(x == y or key(x) == key(y) for x, y in zip(a, b))


def _half_imm(t, m):
    """Only h(N) operands of a float op changed spelling (h(512) -> h512, h(0) -> h(0.0))."""
    a, b = _ops(t), _ops(m)
    return len(a) == len(b) and a != b and all(x == y or "h(" in x for x, y in zip(a, b))


# why mesa's assembler reads a line differently from what its disassembler meant
MESA_MISREADS = [
    ("an empty cat5 write mask () becomes (x)", lambda t, m: t.replace(")()", ")(x)", 1) == m),
    ("dsxpp/dsypp: the mask becomes (x) and the destination full",
     lambda t, m: re.sub(r"^(\S+ )\(x?\)hr", r"\1(x)r", t) == m),
    ("getlast's cluster size is always .w8", lambda t, m: re.sub(r"\.w\d+", ".w8", t) == m),
    ("cov's u8_32 becomes u8", lambda t, m: t.replace("u8_32", "u8") == m),
    ("a 16-bit mov's immediate is cut to 16 bits",
     lambda t, m: "16u16" in t and _ops(t)[:-1] == _ops(m)[:-1]
     and int(_ops(t)[-1]) & 0xffff == int(_ops(m)[-1])),
    ("a half float immediate h(N) takes another encoding", _half_imm),
    ("FULL comes from the first source: an operand beside it changes its h", _differ_in_h),
    ("a cat3 a0.x destination becomes ha0.x", lambda t, m: t.replace(" a0.x", " ha0.x", 1) == m),
    ("(r) where it shares bits with (nopN) becomes (nopN)",
     lambda t, m: re.fullmatch(r"\(nop\d\) " + re.escape(t.replace("(r)", "", 1)), m) is not None),
    ("quad_shuffle's third source is dropped (and an empty mask becomes (x))",
     lambda t, m: m in (t.rsplit(", ", 1)[0], t.rsplit(", ", 1)[0].replace(")()", ")(x)", 1))),
    ("(nop1) beside an immediate adds (ei)", lambda t, m: "(ei)" not in t and m.replace("(ei)", "", 1) == t),
]


def test_each_misread_has_mesas_reason():
    unexplained = [(t, m) for _, t, _, m in MISREAD if not any(f(t, m) for _, f in MESA_MISREADS)]
    assert unexplained == []
    used = {why for why, f in MESA_MISREADS for _, t, _, m in MISREAD if f(t, m)}
    assert used == {why for why, _ in MESA_MISREADS}


@pytest.mark.parametrize("which", ["misread", "rejected"])
def test_texts_mesas_assembler_cannot_take_come_back(which):
    bad = []
    for origin, text, verdict, mesa_text in (MISREAD if which == "misread" else REJECTED):
        word = encode_line(text)
        if decode(word).text != text:
            bad.append((origin, text, "%016x" % word))
        if which == "misread":
            # mesa's word is no encoding of the text: its disassembly differs
            assert mesa_text != text and word != int(verdict, 16)
    assert bad == []


def _code_words(prog):
    return [int.from_bytes(prog.code[i:i + 8], "little") for i in range(0, len(prog.code), 8)]


def _check_computerator(name, words, regs, local, bufs, pvtmem, localmem, early, buf_addrs, buf_init, numwg,
                        consts):
    p = assemble_program(open(os.path.join(DATA, "computerator", name)).read(), source=name)
    ours = _code_words(p)
    assert ours == words[:len(ours)] and not any(words[len(ours):]), name  # mesa pads with zeros
    max_reg, max_half, max_const = regs
    full, half, const = p.footprint()
    assert (full, half) == (max_reg + 1, max_half + 1), name
    assert const >= max_const + 1, name        # ours also counts the consts the headers fill
    assert (p.localsize, [b.size for b in p.bufs]) == (local, bufs), name
    assert (p.pvtmem, p.localmem, p.earlypreamble) == (pvtmem, localmem, early), name
    # mesa keeps 0 for a buffer without an address const and for no @numwg
    assert [b.addr_const or 0 for b in p.bufs] == buf_addrs, name
    assert [list(b.init) for b in p.bufs] == buf_init and (p.numwg or 0) == numwg, name
    # mesa's immediates run from c0.x to the highest const a header names; words no @const
    # sets are left as its allocator had them
    for reg, values in p.consts:
        assert consts[reg:reg + len(values)] == list(values), name


def test_computerator_examples_are_what_mesas_assembler_makes():
    rows = _rows("computerator.txt")
    assert len(rows) == 8
    for name, words, regs, local, bufs, pvtmem, localmem, early, per_buf, numwg, consts in rows:
        per_buf = [[int(x) for x in b.split()] for b in per_buf.split(" / ")]
        _check_computerator(name, [int(w, 16) for w in words.split()], tuple(map(int, regs.split())),
                            tuple(map(int, local.split())), [int(b) for b in bufs.split()],
                            int(pvtmem), int(localmem), early == "1", [b[0] for b in per_buf],
                            [b[1:] for b in per_buf], int(numwg), [int(w, 16) for w in consts.split()])


needs_wheel = pytest.mark.skipif(not oracle.asm_available(),
                                 reason="mesa's assembler from tinymesa not available "
                                        "(pip install tinymesa==25.2.7.2)")


@needs_wheel
def test_frozen_verdicts_are_the_wheels():
    sample = ROWS[::9]
    got = oracle.mesa_assemble_many([r[1] for r in sample])
    for (origin, text, verdict, _), r in zip(sample, got):
        if verdict == "!reject":
            assert isinstance(r, str), (origin, text)
        else:
            assert not isinstance(r, str) and "%016x" % r.words[0] == verdict, (origin, text, r)


@needs_wheel
def test_computerator_examples_live():
    d = os.path.join(DATA, "computerator")
    names = sorted(os.listdir(d))
    for name, p in zip(names, oracle.mesa_assemble_many([open(os.path.join(d, n)).read() for n in names])):
        assert not isinstance(p, str), (name, p)
        _check_computerator(name, p.words, (p.max_reg, p.max_half_reg, p.max_const), p.local_size,
                            p.buf_sizes, p.pvtmem, p.localmem, p.early_preamble, p.buf_addr_regs,
                            p.buf_init, p.numwg, p.consts)


@needs_wheel
def test_trailing_flags_belong_to_the_next_instruction_as_in_mesa():
    texts = ["nop(sy)\nadd.u r0.x, r0.x, 1\nend", "nop (rpt2)\nnop", "(sy)\n(ss)\nnop",
             "nop(nop3)\nadd.f r0.x, r0.x, r0.y"]
    for text, m in zip(texts, oracle.mesa_assemble_many(texts)):
        ours = _code_words(assemble_program(text))
        assert ours == m.words[:len(ours)], text


# Pairs of lines of one shape whose second line mesa's encoder writes differently from what the
# first one's path gives (mesa's words, from its assembler): a template learned from the first
# line must not decide the second.
SHAPE_PAIRS = [
    # an immediate of a float op is a lookup-table index from 12 to 1023 (it prints plainly)
    ("add.f r1.w, (last)r2.x, (neg)5", "add.f r1.w, (last)r2.x, (neg)20", 0x4010000768140408),
    ("add.f r1.w, r2.x, (neg)7", "add.f r17.w, r2.x, (neg)73", 0x4010004768490008),
    # DST_CONV when a full destination takes half sources, also where r63 prints alike
    ("(ss)(rpt1)and.b r63.y, r0.y, r0.z", "(ss)(rpt1)and.b r63.y, hr0.y, hr0.z", 0x438051fd00020001),
    ("(nop1) mad.u16 hr3.y, hr5.y, hr44.y, hr<a0.x + 0>", "(nop1) mad.u16 r63.y, hr5.y, hr44.y, hr<a0.x + 0>",
     0x6058c8fd08000015),
    # but never for p0, whatever flags come before it
    ("(nop2) and.b (ei)p0.y, r<a0.x + -255>, (last)r0.z", "(nop2) and.b (ei)p0.y, hr<a0.x + -255>, (last)hr0.z",
     0x438880f904020b01),
]


@pytest.mark.parametrize("first,line,word", SHAPE_PAIRS)
def test_lines_of_one_shape_follow_mesas_encoder(first, line, word):
    from assembler.ir3 import templates
    templates.clear()
    encode_line(first)
    assert encode_line(line) == word
    templates.clear()
    assert encode_line(line) == word


def test_older_spellings_of_the_vectors_are_refused_as_mesa_refuses_them():
    # the g[...] address forms mesa's disasm.c still spells the older way: the wheel's parser
    # rejects them (a syntax error at the '<' or '+'), and so do we
    old = [r[3] for r in (line.rstrip("\n").split(" ; ") for line in open(os.path.join(DATA, "vectors.txt"))
                          if not line.startswith("#")) if len(r) > 3 and r[3] and r[1] != "!reject"]
    assert len(old) == 12
    for text in old:
        with pytest.raises(AssemblerError, match="cannot encode"):
            encode_line(text)
    if oracle.asm_available():
        assert all(isinstance(r, str) and "syntax error" in r for r in oracle.mesa_assemble_many(old))
