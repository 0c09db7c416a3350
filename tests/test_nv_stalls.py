"""The stall-count check of the virtual SMs (drivers/emu/nv/sass/stalls.py), through NVDevice on
sm_86, sm_89 and sm_90: ptxas's kernels with the stall count after a fixed-latency producer lowered
by a control comment of our assembler fail at the reader with a stall hazard naming the register,
the producer's PC, its latency and the cycles missing (a predicate read as a guard needs the longer
guard latency; the clock runs on across branches; a result landing before an older pending one is
out of order); at exactly the latency they run; and every test kernel rescheduled by our assembler
runs and matches numpy.  (tests/test_nv_kernels.py runs every ptxas kernel unmodified.)"""
import functools
import re

import numpy as np
import pytest

from drivers.nv import NVDevice
from drivers.nv.faults import ShaderError
from hw_tests.nv_kernels import CASES, TARGETS, cubin_path, decoder_disagrees

ESR_SCOREBOARD_HAZARD = 0x3F


@functools.lru_cache(maxsize=None)
def _gate(name, target):
    return decoder_disagrees(name, target)


@pytest.fixture(scope="module", params=TARGETS)
def dev(request):
    d = NVDevice(emulate=request.param)
    yield d
    d.close()


def ptxas_cubin(name, target):
    if _gate(name, target):
        pytest.skip(_gate(name, target))
    with open(cubin_path(name, target), "rb") as f:
        return f.read()


def text_section(data, kernel):
    from assembler.cubin.elf import read
    return read(data).section(f".text.{kernel}")


def relisted(data, kernel, target, change=None, controls=True):
    """The cubin with `kernel`'s code disassembled and assembled again by assembler.sass: with each
    instruction's control comment (after `change(instruction, control)`), or with none (the
    assembler schedules; branch targets become labels)."""
    from assembler.sass import assemble_program, decode
    text = text_section(data, kernel)
    code = text.data
    insns = [decode(code, target, off) for off in range(0, len(code), 16)]
    targets = {}
    for ins in insns:
        for op in ins.operands:
            if op.kind == "target" or (op.kind == "pair" and op.shape[2] == "target"):
                targets.setdefault(op.holes[-1], f".L_{len(targets)}")
    lines = []
    for ins in insns:
        if ins.pc in targets:
            lines.append(f"{targets[ins.pc]}:")
        line = ins.text
        for op in ins.operands:
            if op.kind == "target" or (op.kind == "pair" and op.shape[2] == "target"):
                line = re.sub(r"\b0x%x\b" % op.holes[-1], "`(%s)" % targets[op.holes[-1]], line)
        if controls:
            c = ins.control
            if change:
                change(ins, c)
            line += f"  // {c.text()}"
        lines.append(line)
    prog = assemble_program("\n".join(lines), target)
    again = b"".join(w.to_bytes(16, "little") for w in prog.words)
    assert len(again) == len(code)
    return data[:text.offset] + again + data[text.offset + len(code):]


def set_stall(opcode, stall, nth=0):
    """A change() giving the `nth` instruction of `opcode` the stall count `stall`; the PC it
    changed is left in .pcs."""
    seen = []

    def change(ins, c):
        if ins.opcode == opcode:
            if len(seen) == nth:
                c.stall, c.yield_ = stall, stall == 0 or stall > 11
                change.pcs.append(ins.pc)
            seen.append(ins.pc)
    change.pcs = []
    return change


def saxpy(dev, data, name):
    prg = dev.load(data, name)
    x = np.arange(64, dtype=np.float32)
    buf = dev.alloc(256)
    dev.copyin(buf, x)
    try:
        prg["saxpy"](np.float32(2), buf, buf, 64, grid=(1,), block=(64,), wait=True)
        out = np.empty_like(x)
        dev.copyout(out, buf)
        return out, x
    finally:
        buf.free()


def test_a_short_stall_after_a_producer_fails_at_its_reader(dev):
    """saxpy's FFMA with a stall of 1: the store reads its result 3 cycles before the 4 it takes."""
    data = ptxas_cubin("saxpy", dev.target)
    short = set_stall("FFMA", 1)
    with pytest.raises(ShaderError) as e:
        saxpy(dev, relisted(data, "saxpy", dev.target, short), "saxpy, FFMA stall 1")
    ffma = short.pcs[0]
    msg = str(e.value)
    assert e.value.esr == ESR_SCOREBOARD_HAZARD and e.value.pc == ffma + 16, msg
    assert f"at PC 0x{ffma + 16:x}: stall hazard (STG.E " in msg, msg
    assert "R7 is read 3 cycle(s) too early: `FFMA R7, R2, " in msg and f"at PC 0x{ffma:x}" in msg, msg
    assert "fixed latency of 4 cycles and the stall counts since it issued add up to 1" in msg, msg


def test_the_latency_itself_is_enough(dev):
    """The check is exact, not conservative: the same FFMA with a stall of 4 runs, and so does the
    kernel relisted unchanged."""
    data = ptxas_cubin("saxpy", dev.target)
    for change, name in ((set_stall("FFMA", 4), "saxpy, FFMA stall 4"), (None, "saxpy relisted")):
        out, x = saxpy(dev, relisted(data, "saxpy", dev.target, change), name)
        assert np.array_equal(out, 3 * x)


def test_a_guard_needs_the_guard_latency(dev):
    """`ISETP P0 ...; @P0 EXIT`: a predicate read as a guard needs 13 cycles; an operand needs 4."""
    data = ptxas_cubin("saxpy", dev.target)
    short = set_stall("ISETP", 4)
    with pytest.raises(ShaderError) as e:
        saxpy(dev, relisted(data, "saxpy", dev.target, short), "saxpy, ISETP stall 4")
    msg = str(e.value)
    isetp = short.pcs[0]
    assert e.value.pc == isetp + 16 and "stall hazard (@P0 EXIT ;)" in msg, msg
    assert "P0 is read as the guard 9 cycle(s) too early: `ISETP.GE.AND P0, PT, " in msg, msg
    assert f"at PC 0x{isetp:x} writes it with a fixed latency of 13 cycles" in msg, msg


def jump(target, bra_stall):
    """`IMAD.MOV R4 ... ; BRA` to a reader of R4, the branch with the given stall count."""
    from assembler.cubin import build_cubin
    return build_cubin(f"""
.target {target}
.kernel jump
    .param out, 8
    IMAD.MOV.U32 R4, RZ, RZ, 0x3 ;    // [B------:R-:W-:-:S01]
    BRA `(.L_x_0) ;                   // [B------:R-:W-:-:S{bra_stall:02d}]
.L_x_0:
    IADD3 R4, R4, 0x1, RZ ;           // [B------:R-:W-:-:S04]
    EXIT ;                            // [B------:R-:W-:-:S05]
.end
""")


def test_the_clock_runs_on_across_a_branch(dev):
    """The reader behind a taken branch (a new straight-line run of the simulator) still sees the
    producer's pending result: a branch stall one short of IMAD's latency fails, the latency runs.
    (ptxas never leaves a branch this tight: its branches stall 5 or 6 cycles.)"""
    from assembler.sass.latency import latencies
    lat = latencies(dev.target).check_latency("IMAD", "R")
    with pytest.raises(ShaderError) as e:
        dev.load(jump(dev.target, lat - 2), "jump")["jump"](0, grid=(1,), block=(32,), wait=True)
    msg = str(e.value)
    assert e.value.pc == 0x20 and "stall hazard (IADD3 R4, R4, 0x1, RZ ;)" in msg, msg
    assert "R4 is read 1 cycle(s) too early: `IMAD.MOV.U32 R4, RZ, RZ, 0x3 ;` at PC 0x0" in msg, msg
    assert f"fixed latency of {lat} cycles and the stall counts since it issued add up to {lat - 1}" in msg, msg
    dev.load(jump(dev.target, lat - 1), "jump")["jump"](0, grid=(1,), block=(32,), wait=True)


def test_a_result_landing_before_an_older_one_is_out_of_order(dev):
    """An HMMA result takes 23 cycles; a MOV to the same register 4 cycles later would land first
    and be overwritten by the older result."""
    from assembler.cubin import build_cubin
    target = dev.target
    src = f"""
.target {target}
.kernel waw
    .param out, 8
    HMMA.16816.F32 R4, R8, R12, R4 ;   // [B------:R-:W-:-:S04]
    MOV R4, RZ ;                       // [B------:R-:W-:Y:S15]
    EXIT ;                             // [B------:R-:W-:-:S05]
.end
"""
    prg = dev.load(build_cubin(src), "waw")
    with pytest.raises(ShaderError) as e:
        prg["waw"](0, grid=(1,), block=(32,), wait=True)
    msg = str(e.value)
    assert e.value.pc == 0x10 and "stall hazard (MOV R4, RZ ;)" in msg, msg
    assert "R4 is overwritten out of order" in msg and "`HMMA.16816.F32 R4, R8, R12, R4 ;` at PC 0x0" in msg, msg


@pytest.mark.parametrize("cls", CASES, ids=[c.name for c in CASES])
def test_every_kernel_scheduled_by_our_assembler_runs(dev, cls):
    """Each test kernel's listing without its control comments, scheduled by assembler.sass (the
    latencies the check uses), runs on the strict virtual GPU and matches numpy."""
    data = ptxas_cubin(cls.name, dev.target)
    case = cls()
    case.check(case.run(dev, dev.load(relisted(data, cls.kernel, dev.target, controls=False),
                                      f"{cls.name} scheduled")))


def test_the_sm90_example_scheduled_by_our_assembler_runs():
    """examples/vector_add_sm90.sass leaves its control to the assembler: on the virtual H100 it
    passes the stall and scoreboard checks and adds."""
    import os
    from assembler.cubin import build_cubin
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(os.path.join(root, "examples", "vector_add_sm90.sass")) as f:
        data = build_cubin(f.read())
    d = NVDevice(emulate="sm_90")
    try:
        n = 1000
        a, b = np.arange(n, dtype=np.float32), np.full(n, 0.5, np.float32)
        bufs = [d.alloc(4 * n) for _ in range(3)]
        d.copyin(bufs[0], a)
        d.copyin(bufs[1], b)
        d.load(data, "vadd")["vadd"](*bufs, np.int32(n), grid=(8,), block=(128,), wait=True)
        out = np.empty_like(a)
        d.copyout(out, bufs[2])
        assert np.array_equal(out, a + b)
        for x in bufs:
            x.free()
    finally:
        d.close()
