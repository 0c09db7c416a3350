"""Seeded randomized differential test against mesa's ir3_isa_disasm from the tinymesa wheel
(pip install tinymesa==25.2.7.2): same text and warnings where mesa decodes, rejection where it
rejects, our re-assembly decodes to the same text and is mesa's own assembly of it wherever mesa's
assembler reads the text as its disassembler meant it. Skips without the wheel (the frozen corpus
in test_ir3_corpus.py still runs). `python scripts/gen_ir3_oracle.py 20000 SEED` runs it bigger."""
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts"))

import gen_ir3_oracle as oracle  # noqa: E402

pytestmark = pytest.mark.skipif(not oracle.available(),
                                reason="tinymesa not installed (pip install tinymesa==25.2.7.2)")


@pytest.mark.parametrize("seed", [11, 12])
def test_random_words_match_mesa(seed):
    stats, problems = oracle.differential(1500, seed, oracle.seed_words())
    assert problems == []
    assert stats["decoded"] > 400 and stats["rejected"] > 300 and stats["reassembled"] > 200
    if oracle.asm_available():
        assert stats["mesa_asm_same"] > 200


def test_computerator_programs_decode_as_mesa_decodes_them():
    from assembler.ir3 import assemble, disassemble
    d = os.path.join(os.path.dirname(__file__), "data", "ir3", "computerator")
    for name in sorted(os.listdir(d)):
        code = assemble(open(os.path.join(d, name)).read())
        mesa = oracle.disasm_text(code, labels=True).rstrip("\n").split("\n")
        assert disassemble(code, labels=True) == mesa, name
