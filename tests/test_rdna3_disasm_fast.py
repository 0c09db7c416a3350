"""The disassembler's compiled plans (assembler/rdna3/disasm.py) say exactly what the full
decoder says, text and errors, on every instruction of the llvm-mc corpus, the clang kernels,
corrupted corpus words and random words."""
import glob
import os
import random

import pytest

from assembler.errors import AssemblerError
from assembler.rdna3 import decoder, disasm
from assembler.rdna3.__main__ import _text_of_elf
from tests.test_rdna3_corpus import CORPUS, DISASM

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def full_decoder(data):
    out, pos = [], 0
    while pos < len(data):
        ins, size = decoder.decode(data, pos)
        out.append(ins.text)
        pos += size
    return out


def outcome(fn, data):
    try:
        return fn(data)
    except AssemblerError as e:
        return "error: %s" % e


def differences(chunks):
    return [(data.hex(), outcome(full_decoder, data), outcome(disasm.disassemble, data))
            for data in chunks if outcome(full_decoder, data) != outcome(disasm.disassemble, data)]


def test_every_corpus_instruction_alone_and_all_together():
    chunks = [enc for _, enc in CORPUS] + [data for data, _ in DISASM]
    assert differences(chunks) == []
    whole = b"".join(enc for _, enc in CORPUS)
    assert disasm.disassemble(whole) == full_decoder(whole)


def test_clang_kernels():
    paths = sorted(glob.glob(os.path.join(ROOT, "tests", "clang_kernels", "*.hsaco")))
    texts = [_text_of_elf(open(p, "rb").read(), p)[0] for p in paths]
    assert len(texts) > 10 and differences(texts) == []


def test_corrupted_corpus_words():
    """One to three flipped bits in each corpus instruction: valid neighbours, invalid words,
    literals and truncations, all decided as the full decoder decides them."""
    rng = random.Random(11)
    chunks = []
    for _, enc in CORPUS[::3]:
        word = bytearray(enc + bytes(rng.getrandbits(8) for _ in range(4)))
        for _ in range(rng.randint(1, 3)):
            bit = rng.randrange(8 * len(enc))
            word[bit // 8] ^= 1 << (bit % 8)
        cut = rng.choice((len(enc), len(enc) + 4, len(enc) - 1, len(word)))
        chunks.append(bytes(word[:cut]))
    assert differences(chunks) == []


@pytest.mark.parametrize("seed", range(4))
def test_random_words(seed):
    rng = random.Random(seed)
    chunks = [bytes(rng.getrandbits(8) for _ in range(rng.choice((4, 8, 12, 16, 6)))) for _ in range(2500)]
    assert differences(chunks) == []


def test_offsets_and_the_text_before_an_invalid_word():
    good = b"".join(enc for _, enc in CORPUS[:50])
    offsets, texts = disasm.disassemble_at(good)
    assert texts == full_decoder(good) and offsets[0] == 0 and len(offsets) == len(texts)
    offsets, texts = [], []
    with pytest.raises(AssemblerError, match="at offset %d" % len(good)):
        disasm.disassemble_at(good + b"\xff\xff\xff\xff", offsets, texts)
    assert texts == full_decoder(good)
