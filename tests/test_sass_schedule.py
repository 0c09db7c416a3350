"""The automatic scheduling control: kernels of the golden corpus assembled without their control
comments must pass a hazard check (every variable-latency result waited for on its scoreboard,
every fixed-latency result read no earlier than the latency the virtual SM checks
(assembler.sass.latency, the guard's for a predicate read as @P), no register overwritten while a
pending read still needs it), with registers as assembler.sass.usage over-approximates them;
the same code with one of its waits removed must fail the check."""
import os
import sys

import pytest

from assembler.sass import assemble_program, decode_word
from assembler.sass.control import Control
from assembler.sass.latency import latencies
from assembler.sass.schedule import BRANCHES
from assembler.sass.tables import load
from assembler.sass.usage import usage

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_sass_corpus import load as load_corpus  # noqa: E402

ARCHS = ("sm_86", "sm_89", "sm_90")


def hazards(words, arch, starts=()):
    """[(index, problem)] of a straight-line reading of the code, state dropped at block starts
    (labels) and after branches."""
    sched = load(arch).SCHEDULE
    var_w = set(sched["variable_write"])
    model = latencies(arch)
    problems = []
    ready, gready, pend_w, pend_r = {}, {}, {}, {}
    t = 0
    for i, w in enumerate(words):
        if i in starts:
            ready, gready, pend_w, pend_r = {}, {}, {}, {}
        ins = decode_word(w, arch, 16 * i)
        c = ins.control
        waited = {b for b in range(6) if c.wait >> b & 1}
        for m in (pend_w, pend_r):
            for r in [r for r, b in m.items() if b in waited]:
                del m[r]
        reads, writes = usage(ins)
        for r in reads:
            if r in pend_w:
                problems.append((i, "reads %s%d before scoreboard %d is waited on" % (r[0], r[1], pend_w[r])))
            elif ready.get(r, 0) > t:
                problems.append((i, "reads %s%d %d cycles early" % (r[0], r[1], ready[r] - t)))
            elif ins.guard is not None and r == ins.guard[:2] and gready.get(r, 0) > t:
                problems.append((i, "reads guard %s%d %d cycles early" % (r[0], r[1], gready[r] - t)))
        for r in writes:
            if r in pend_r:
                problems.append((i, "overwrites %s%d while scoreboard %d still reads it" % (r[0], r[1], pend_r[r])))
        if c.wbar != 7:
            for r in writes:
                pend_w[r] = c.wbar
                ready.pop(r, None)
                gready.pop(r, None)
        else:
            if ins.opcode in var_w and writes:
                problems.append((i, "%s writes without a scoreboard" % ins.opcode))
            for r in writes:
                ready[r] = t + model.check_latency(model.key(ins.opcode, ins.modifiers), r[0])
                if r[0] in ("P", "UP"):
                    gready[r] = t + model.guard_latency(model.key(ins.opcode, ins.modifiers), r[0])
                pend_w.pop(r, None)
        if c.rbar != 7:
            for r in reads:
                pend_r[r] = c.rbar
        t += max(1, c.stall)
        if ins.opcode in BRANCHES:
            ready, gready, pend_w, pend_r = {}, {}, {}, {}
    return problems


def _kernels(arch):
    for f, sec, insns, labels in load_corpus(arch):
        yield "%s %s" % (f, sec), insns, {i for i, _ in labels}


@pytest.mark.parametrize("arch", ARCHS)
def test_scheduled_corpus_has_no_hazard(arch):
    total = caught = checked = 0
    for name, insns, starts in _kernels(arch):
        src = "\n".join(raw for _, _, _, raw in insns)
        prog = assemble_program(src, arch)
        assert not any(prog.explicit)
        assert hazards(prog.words, arch, starts) == [], name
        total += len(prog.words)
        # the check is not blind: without the first wait the scheduler put in, it complains
        for k, w in enumerate(prog.words):
            c = Control.from_word(w)
            if c.wait and k not in starts and c.wait != 0x3f:
                bad = list(prog.words)
                bad[k] = (w & ~(((1 << 17) - 1) << 105)) | Control(c.stall, c.yield_, c.wbar, c.rbar, 0).bits()
                checked += 1
                caught += bool(hazards(bad, arch, starts))
                break
    assert total > 3000
    # (a wait the scheduler adds only to reuse the oldest busy scoreboard guards no register)
    assert checked > 10 and caught >= checked * 9 // 10, (caught, checked)


def test_explicit_controls_are_kept_and_tracked():
    src = """LDG.E R2, [R4.64] ;   // [B------:R-:W2:-:S04]
             FADD R3, R2, R2 ;"""
    prog = assemble_program(src, "sm_86")
    c0, c1 = (Control.from_word(w) for w in prog.words)
    assert prog.explicit == [True, False]
    assert (c0.wbar, c0.stall) == (2, 4) and c1.wait == 1 << 2


@pytest.mark.parametrize("arch", ARCHS)
def test_a_guard_waits_for_the_guard_latency(arch):
    """A predicate read as a guard (@P0) needs the longer latency the virtual SM checks; read as an
    operand (SEL's), the ordinary one."""
    from assembler.sass.latency import latencies
    model = latencies(arch)
    guard = assemble_program("ISETP.GE.AND P0, PT, R0, R1, PT ;\n@P0 IADD3 R2, R2, 0x1, RZ ;\nEXIT ;", arch)
    operand = assemble_program("ISETP.GE.AND P0, PT, R0, R1, PT ;\nSEL R2, R0, R1, P0 ;\nEXIT ;", arch)
    assert Control.from_word(guard.words[0]).stall == model.guard_latency("ISETP", "P") == 13
    assert Control.from_word(operand.words[0]).stall == model.check_latency("ISETP", "P") == 4


def test_the_latency_table_is_what_ptxas_code_gives():
    """assembler/sass/tables/latency.py is regenerated from the frozen corpus and cubins whenever they
    change (python scripts/gen_sass_latency.py): a new ptxas kernel may leave a shorter distance."""
    import importlib.util
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    spec = importlib.util.spec_from_file_location("gen_sass_latency", os.path.join(root, "scripts", "gen_sass_latency.py"))
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    with open(gen.OUT) as f:
        assert f.read() == gen.render(), "stale: run python scripts/gen_sass_latency.py"
