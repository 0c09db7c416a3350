"""The gfx1100 golden corpus (frozen llvm-mc-19 verdicts, tests/data/rdna3): bit-exact both ways."""
import os

import pytest

from assembler.rdna3 import assemble, decode, disassemble
from drivers.errors import AssemblerError

DATA = os.path.join(os.path.dirname(__file__), "data", "rdna3")


def _asm_cases(name):
    cases = []
    with open(os.path.join(DATA, name)) as f:
        for line in f:
            if line.startswith(";"):
                continue
            text, _, enc = line.rstrip("\n").rpartition(" ; [")
            cases.append((text, bytes(int(x, 16) for x in enc.rstrip("]").split(","))))
    return cases


def _disasm_cases():
    cases = []
    with open(os.path.join(DATA, "disasm.txt")) as f:
        for line in f:
            if line.startswith("#"):
                continue
            h, _, text = line.rstrip("\n").partition(" ; ")
            cases.append((bytes.fromhex(h), text))
    return cases


CORPUS = _asm_cases("corpus.s")
SYNTAX = _asm_cases("syntax.s")
DISASM = _disasm_cases()


def test_corpus_is_large_and_covers_every_family():
    assert len(CORPUS) > 10000
    fams = {decode(enc)[0].family for _, enc in CORPUS}
    assert fams >= {"SOP1", "SOP2", "SOPK", "SOPC", "SOPP", "SMEM", "VOP1", "VOP2", "VOPC", "VOP3",
                    "VOP3SD", "VOP3P", "VOPD", "DS", "FLAT", "GLOBAL", "SCRATCH", "MUBUF", "MTBUF",
                    "VINTERP", "LDSDIR", "EXP", "MIMG"}


def test_every_opcode_of_the_tables_is_in_the_corpus():
    from assembler.rdna3.tables import ALU, MEM, VOPD
    seen = {(decode(enc)[0].family, decode(enc)[0].opcode) for _, enc in CORPUS}
    missing = [(f, op, e[0]) for f, ops in list(ALU.items()) + list(MEM.items())
               for op, e in ops.items() if (f, op) not in seen]
    # v_nop and v_pipeflush print the same in VOP3 as in VOP1: their text assembles to VOP1
    assert missing == [("VOP3", 384, "v_nop"), ("VOP3", 411, "v_pipeflush")]
    pairs = {(decode(enc)[0].opcode, decode(enc)[0].second.opcode) for _, enc in CORPUS
             if decode(enc)[0].family == "VOPD"}
    assert {(x, y) for x in VOPD["X"] for y in VOPD["Y"]} <= pairs


def test_image_instructions_cover_every_opcode_dim_and_address_layout():
    """MIMG: every opcode, every dim with and without a16, plain and NSA addresses, in both
    directions (the corpus tests above check the bytes and the text)."""
    from assembler.rdna3.tables import MIMG
    seen, shapes, nsa = set(), set(), set()
    for _, enc in CORPUS:
        ins = decode(enc)[0]
        if ins.family != "MIMG":
            continue
        m = ins.modifiers
        seen.add(ins.opcode)
        nsa.add((ins.opcode, m["nsa"]))
        if "dim" in m:
            shapes.add((m["dim"], m["a16"]))
    assert seen == set(MIMG)
    assert shapes == {(d, a) for d in range(8) for a in (0, 1)}
    # every NSA form llvm-mc assembles (image_get_resinfo has a single address: no NSA form)
    assert {(op, 0) for op in MIMG} | {(op, 1) for op, e in MIMG.items()
                                       if any(e["asm_nsa"].values() if e["kind"] == "bvh"
                                              else e["asm_nsa"])} <= nsa
    n = sum(1 for t, _ in CORPUS if t.startswith("image_"))
    assert n > 2000


def test_assemble_matches_llvm_mc_for_every_corpus_line():
    bad = [(t, e.hex()) for t, e in CORPUS if assemble(t) != e]
    assert bad == []


def test_alternative_spellings_match_llvm_mc():
    bad = []
    for text, enc in SYNTAX:
        got = assemble(text)
        if got != enc:
            bad.append((text, enc.hex(), got.hex()))
    assert bad == []


def test_disassembly_equals_llvm_mc_text_and_reassembles():
    bad = []
    for data, text in DISASM:
        ours = disassemble(data)
        if ours != [text] or assemble(ours[0]) != data:
            bad.append((data.hex(), text, ours))
    assert bad == []


def test_words_llvm_mc_rejects_are_rejected():
    n = 0
    with open(os.path.join(DATA, "invalid.txt")) as f:
        for line in f:
            if line.startswith("#"):
                continue
            data = bytes.fromhex(line.strip())
            with pytest.raises(AssemblerError, match=r"invalid instruction word 0x[0-9a-f]{8} at "
                                                     r"offset 0|unsupported encoding|truncated"):
                decode(data)
            n += 1
    assert n >= 1000


def test_older_spellings_assemble_like_the_gfx11_names():
    """tables.ALIASES holds pre-gfx11 names llvm-mc-19 was seen to accept; each one, put in place
    of its gfx11 name in a corpus line, gives the corpus bytes."""
    from assembler.rdna3.tables import ALIASES
    by_mnem = {}
    for text, enc in CORPUS:
        by_mnem.setdefault(text.split(" ", 1)[0], (text, enc))
    checked = 0
    for alias, mnem in ALIASES.items():
        if mnem not in by_mnem:
            continue
        text, enc = by_mnem[mnem]
        assert assemble(alias + text[len(mnem):]) == enc, (alias, text)
        checked += 1
    assert checked > 200
