"""ir3 source files, the program container and the command line."""
import os
import subprocess
import sys

import pytest

from assembler.errors import AssemblerError, MalformedInput
from assembler.ir3 import Program, assemble, assemble_program, decode, disassemble

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = os.path.join(ROOT, "tests", "data", "ir3", "computerator")
NAMES = sorted(os.listdir(EXAMPLES))


def test_every_computerator_example_is_here():
    assert NAMES == ["branch.asm", "buf-init.asm", "early_preamble.asm", "invocationid.asm",
                     "localmem.asm", "pvtmem.asm", "simple.asm", "stg_ldg_offset.asm"]


@pytest.mark.parametrize("name", NAMES)
def test_computerator_examples_round_trip(name):
    prog = assemble_program(open(os.path.join(EXAMPLES, name)).read(), source=name)
    text = "\n".join(disassemble(prog.code, labels=True))
    assert assemble(text) == prog.code
    again = Program.read(prog.write())
    assert again.code == prog.code and again.metadata() == prog.metadata()


def test_simple_example_headers_and_footprint():
    p = assemble_program(open(os.path.join(EXAMPLES, "simple.asm")).read())
    assert p.localsize == (1, 1, 1) and len(p.bufs) == 1 and p.bufs[0].size == 4
    assert p.consts == [(0, (0, 0, 0, 0)), (4, (0x3f800000, 0x40000000, 0x40400000, 0x40800000))]
    assert (p.invocationid, p.wgid, p.numwg) == (0, 48 * 4, 8)
    # hr4.x (r2.x): the wgid's r48 is a shared register, outside the footprint; c2 (numwg)
    assert p.footprint() == (3, 5, 3)
    assert p.instructions == 20 and p.instrlen == 2


def test_labels_and_branch_offsets():
    code = assemble("br !p0.x, #skip\nnop\nskip:\nend\n")
    assert disassemble(code) == ["br !p0.x, #2", "nop", "end"]
    assert disassemble(code, labels=True) == ["br !p0.x, #l2", "nop", "l2:", "end"]


def test_decode_gives_structure():
    ins = decode(0x40b8080410408004)
    assert ins.text == "(nop3) cmps.f.lt r1.x, (abs)r1.x, c16.x"
    assert (ins.name, ins.category, ins.nop, ins.repeat) == ("cmps.f", 2, 3, 0)
    assert [(o.role, o.file, o.num) for o in ins.operands] == [("DST", "r", 4), ("SRC1", "r", 4),
                                                              ("SRC2", "c", 64)]
    ins = decode(0x0000020000000000)
    assert ins.text == "(rpt2)nop" and ins.repeat == 2
    assert decode(0x04021000_00000000).ss


def test_errors_name_line_and_column():
    with pytest.raises(AssemblerError, match=r"^k\.asm:3:1: unknown instruction 'frob'"):
        assemble_program("nop\n\nfrob r0.x\n", source="k.asm")
    with pytest.raises(AssemblerError, match=r"2:1: undefined label 'nowhere'"):
        assemble("nop\nbr p0.x, #nowhere\n")
    with pytest.raises(AssemblerError, match=r"2:1: label 'a' defined twice"):
        assemble("a:\na: nop\n")
    with pytest.raises(AssemblerError, match=r"1:1: cannot encode 'add.f r0.x, r1.x, q9'"):
        assemble("add.f r0.x, r1.x, q9")
    with pytest.raises(AssemblerError, match=r"1:1: @wgid must name a high register"):
        assemble("@wgid(r0.x)\nend")
    with pytest.raises(AssemblerError, match=r"1:1: unknown header @frob"):
        assemble("@frob 1")
    with pytest.raises(AssemblerError, match=r"graphics shader"):
        assemble("@in(r0.x) 1")
    with pytest.raises(AssemblerError, match="truncated instruction at offset 8: 4 of 8 bytes"):
        disassemble(bytes(12))
    with pytest.raises(AssemblerError, match="not supported"):
        disassemble(bytes(8), gpu="a750")


def test_container_rejects_bad_files():
    good = assemble_program("@localsize 4, 1, 1\nend\n").write()
    with pytest.raises(MalformedInput, match="no IR3P magic"):
        Program.read(b"ELF" + good, "x.ir3")
    with pytest.raises(MalformedInput, match="not a multiple of 8"):
        Program.read(good + b"\0", "x.ir3")
    with pytest.raises(MalformedInput, match="container version 9"):
        Program.read(good[:4] + (9).to_bytes(4, "little") + good[8:], "x.ir3")


def _cli(*args, **kw):
    return subprocess.run([sys.executable, "-m", "assembler.ir3", *args], cwd=ROOT,
                          capture_output=True, text=True, **kw)


def test_cli_round_trip(tmp_path):
    src = tmp_path / "k.asm"
    src.write_text(open(os.path.join(EXAMPLES, "branch.asm")).read())
    r = _cli("asm", str(src), "-o", str(tmp_path / "k.ir3"))
    assert r.returncode == 0, r.stderr
    r = _cli("disasm", str(tmp_path / "k.ir3"))
    assert r.returncode == 0 and "@localsize 16, 1, 1" in r.stdout and "br !p0.x, #l5" in r.stdout
    (tmp_path / "bad.asm").write_text("nop\nfrob\n")
    r = _cli("asm", str(tmp_path / "bad.asm"))
    assert r.returncode == 1 and "bad.asm:2:1: error: unknown instruction 'frob'" in r.stderr
    assert _cli("--help").returncode == 0
