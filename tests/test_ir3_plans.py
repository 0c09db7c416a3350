"""Decoding plans (assembler/ir3/trace.py) against the reference decoder they are recorded from:
the same text and warnings for every word of the frozen corpora, learning, interpreted and
compiled, with and without labels."""
import os
import random

import pytest

from assembler.errors import AssemblerError
from assembler.ir3 import decoder, trace

DATA = os.path.join(os.path.dirname(__file__), "data", "ir3")


def _words(name):
    with open(os.path.join(DATA, name)) as f:
        return [int(line.split(" ; ", 1)[0], 16) for line in f if not line.startswith("#")]


WORDS = _words("vectors.txt") + _words("random.txt")


def _reference(word):
    state = decoder._State(630)
    if decoder._reference(word, state) is None or any(not decoder._is_warning(e) for e in state.errors):
        return None
    return "".join(state.out), state.errors


def _planned(word):
    try:
        ins = decoder.decode(word)
    except AssemblerError:
        return None
    return ins.text, ins.warnings


@pytest.fixture
def fresh_plans(monkeypatch):
    monkeypatch.setattr(decoder, "_PLANS", {})
    monkeypatch.setattr(decoder, "STATS", dict.fromkeys(decoder.STATS, 0))


def test_plans_decode_every_corpus_word_as_the_reference(fresh_plans):
    ref = [_reference(w) for w in WORDS]
    for rnd in range(3):                     # learning, replaying, compiled
        got = [_planned(w) for w in WORDS]
        bad = [("%016x" % w, r, g) for w, r, g in zip(WORDS, ref, got) if r != g]
        assert bad == [], (rnd, bad[:5])
    assert decoder.STATS["replayed"] > len(WORDS) and decoder.STATS["refused"] == 0
    compiled = sum(p.fn is not None for p in decoder._PLANS.values())
    assert compiled > 50


def test_interpreted_and_compiled_plans_agree(fresh_plans):
    rng = random.Random(5)
    words = [w for w in WORDS if _reference(w) is not None]
    for w in words + words:
        decoder.decode(w)
    for w in rng.sample(words, 300):
        plan = decoder._PLANS[(decoder._leaf_of(w), 630)]
        if plan.root is None:
            continue
        outs = []
        for compiled in (False, True):
            st = decoder._State(630)
            if compiled:
                plan.compile()
                plan.fn(w, st, st.out.append, st.error)
            else:
                plan.interpret(w, st)
            outs.append(("".join(st.out), st.errors))
        assert outs[0] == outs[1] == _reference(w), "%016x" % w


def test_labels_replay_like_the_reference(fresh_plans):
    # branches of every kind, forwards and backwards, twice so the plans replay the second time
    words = [w for w in WORDS if (w >> 61) == 0 and _reference(w) is not None][:60]
    data = b"".join(w.to_bytes(8, "little") for w in words)
    monkey = decoder.USE_PLANS
    try:
        decoder.USE_PLANS = False
        want = decoder.disassemble(data, labels=True)
    finally:
        decoder.USE_PLANS = monkey
    assert decoder.disassemble(data, labels=True) == want
    assert decoder.disassemble(data, labels=True) == want
    assert any(line.endswith(":") for line in want)


def test_a_replay_reads_exactly_the_recorded_fields():
    fn = decoder.isa.tables.EXPRS["#cat2-cat3-nop-encoding"]
    # recorded with SRC1_R set: SRC2_R was never read
    assert trace.ev(fn, ("SRC1_R", "REPEAT"), (1, 0), 3, 630) == 1
    with pytest.raises(trace.Diverge):
        trace.ev(fn, ("SRC1_R", "REPEAT"), (0, 0), 3, 630)       # now it would read SRC2_R
    with pytest.raises(trace.Diverge):
        trace.ev(fn, ("SRC1_R", "SRC2_R", "REPEAT"), (1, 0, 0), 7, 630)   # skips SRC2_R
