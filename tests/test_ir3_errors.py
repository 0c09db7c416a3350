"""Every way ir3 source, words or a program container can be wrong gets an error that names it."""
import json
import re
import struct

import pytest

from assembler.errors import AssemblerError, MalformedInput
from assembler.ir3 import Program, assemble, assemble_program, disassemble, encode_line

SOURCE_ERRORS = [
    # (source, the error with line and column)
    ("nop(sy)\nl1: nop\n",
     "k.asm:2:1: flags (sy) (line 1) belong to the next instruction, but label 'l1' comes first"),
    ("nop\nend (ss)\n", "k.asm:2:1: flags (ss) at the end of the program, with no instruction to apply to"),
    ("nop\n  frob r0.x\n", "k.asm:2:3: unknown instruction 'frob'"),
    ("br p0.x, #nowhere\n", "k.asm:1:1: undefined label 'nowhere'"),
    ("a:\na: nop\n", "k.asm:2:1: label 'a' defined twice (first on line 1)"),
    ("add.f r0.x, r1.x, r2.x, r3.x\n",
     "k.asm:1:1: cannot encode 'add.f r0.x, r1.x, r2.x, r3.x': add.f matches up to column 23 (', r3.x')"),
    ("add.f r0.x, r1.x, q9\n", "k.asm:1:1: cannot encode 'add.f r0.x, r1.x, q9' as add.f: no operand form fits"),
    ("mov.f32f32 r0.x\n", "k.asm:1:1: cannot encode 'mov.f32f32 r0.x' as "),
    ("@\n", "k.asm:1:1: bad header '@'"),
    ("@localsize 0, 1, 1\n", "k.asm:1:1: @localsize 0, 1, 1: each must be >= 1 and the product <= 1024"),
    ("@localsize 64, 32, 1\n", "k.asm:1:1: @localsize 64, 32, 1: each must be >= 1 and the product <= 1024"),
    ("@localsize 4, 1\n", "k.asm:1:1: @localsize takes 3 non-negative integers, got '4, 1'"),
    ("@buf (c0.x)\n",
     "k.asm:1:1: @buf takes a size in dwords, an optional (cN.c) and optional initial values, got '(c0.x)'"),
    ("@buf 2 (c0.x) 1, 2, 3\n", "k.asm:1:1: @buf 2 has 3 initial values"),
    ("@buf 2 (c0.x) 1, zz\n", "k.asm:1:1: bad constant value 'zz'"),
    ("@arg(c0.x) u8\n",
     "k.asm:1:1: @arg takes (cN.c), a type (u32, s32, f32, u64) and an optional name, got '(c0.x) u8'"),
    ("@arg(c0.y) u64 n\n", "k.asm:1:1: @arg u64 needs an even const component (cN.x or cN.z), got c0.y"),
    ("@threadsize 32\n", "k.asm:1:1: @threadsize must be 64 or 128 (a6xx waves), got 32"),
    ("@const c0.x 1\n", "k.asm:1:1: @const takes (cN.c) then up to four values, got 'c0.x 1'"),
    ("@const(c0.x) 1, 2, 3, 4, 5\n", "k.asm:1:1: @const takes one to four values, got 5"),
    ("@invocationid r0.x\n", "k.asm:1:1: @invocationid takes one register in parentheses, got 'r0.x'"),
    ("@numwg(r0.x)\n", "k.asm:1:1: expected a const register like c0.x, got 'r0.x'"),
    ("@wgid(r0.x)\n", "k.asm:1:1: @wgid must name a high register (r48.x and up), got r0.x"),
    ("@fullnopstart\n", "k.asm:1:1: @fullnopstart (mesa's debugging aid) is not supported"),
    ("@in(r0.x) 1\n", "k.asm:1:1: @in describes a graphics shader; only compute programs are supported"),
    ("@frob 1\n", "k.asm:1:1: unknown header @frob"),
]


@pytest.mark.parametrize("source,error", SOURCE_ERRORS, ids=[e.split(": ", 1)[-1][:40] for _, e in SOURCE_ERRORS])
def test_source_errors_name_line_column_and_problem(source, error):
    with pytest.raises(AssemblerError, match="^" + re.escape(error)):
        assemble_program(source, source="k.asm")


@pytest.mark.parametrize("line,error", [
    ("   ", "empty instruction"),
    ("nop(sy)", "flags after an instruction belong to the next one (as in mesa's assembler): 'nop(sy)'"),
    ("frob", "unknown instruction 'frob'"),
    ("raw 0x1FFFFFFFFFFFFFFFFF", "raw takes one 64-bit word (0x0123456789abcdef), got '0x1FFFFFFFFFFFFFFFFF'"),
    ("raw zz", "raw takes one 64-bit word (0x0123456789abcdef), got 'zz'"),
])
def test_single_line_errors(line, error):
    with pytest.raises(AssemblerError, match="^" + re.escape(error)):
        encode_line(line)


def test_raw_words_assemble_as_written():
    assert encode_line("raw 0xFFFFFFFFFFFFFFFF") == (1 << 64) - 1
    assert assemble("raw 12\nraw 0x10") == (12).to_bytes(8, "little") + (16).to_bytes(8, "little")


def test_word_errors():
    with pytest.raises(AssemblerError, match="invalid instruction word ffffffffffffffff at offset 8"):
        disassemble(bytes(8) + b"\xff" * 8)
    with pytest.raises(AssemblerError, match="truncated instruction at offset 0: 3 of 8 bytes"):
        disassemble(bytes(3))
    with pytest.raises(AssemblerError, match=r"unknown gpu 'mali' \(expected e.g. 'a630'\)"):
        assemble("nop", gpu="mali")
    with pytest.raises(AssemblerError, match="gpu a750 is not supported: the tables describe the a6xx"):
        assemble("nop", gpu="a750")


def _container(meta, code=b""):
    raw = json.dumps(meta).encode()
    return b"IR3P" + struct.pack("<II", 1, len(raw)) + raw + code


@pytest.mark.parametrize("data,error", [
    (b"IR3", "no IR3P magic"),
    (b"IR3P" + struct.pack("<II", 2, 0), "container version 2, this reader knows 1"),
    (b"IR3P" + struct.pack("<II", 1, 100) + b"{}", "metadata of 100 bytes runs past the end (14 bytes)"),
    (b"IR3P" + struct.pack("<II", 1, 3) + b"{x}", "metadata is not JSON"),
    (_container({}), "metadata field missing or malformed: 'localsize'"),
    (_container({"localsize": [1, 1, 1], "bufs": 5}), "metadata field missing or malformed"),
    (_container({"localsize": [1, 0], "bufs": [], "consts": [], "invocationid": None, "wgid": None,
                 "numwg": None, "branchstack": 0, "pvtmem": 0, "localmem": 0, "earlypreamble": False,
                 "labels": {}}), r"localsize must be three positive integers, got (1, 0)"),
    (_container({}, b"\0" * 3), "code is 3 bytes, not a multiple of 8"),
])
def test_container_errors_name_the_file_and_problem(data, error):
    with pytest.raises(MalformedInput, match=re.escape(error)) as e:
        Program.read(data, "k.ir3")
    assert "k.ir3" in str(e.value)


def test_cli_errors_name_the_file(tmp_path, capsys):
    from assembler.ir3.__main__ import main
    assert main(["disasm", str(tmp_path / "none.ir3")]) == 1
    assert "No such file" in capsys.readouterr().err
    bad = tmp_path / "bad.ir3"
    bad.write_bytes(b"IR3P" + struct.pack("<II", 7, 0))
    assert main(["disasm", str(bad)]) == 1
    assert "container version 7" in capsys.readouterr().err
    words = tmp_path / "w.bin"
    words.write_bytes(b"\xff" * 8)
    assert main(["disasm", str(words)]) == 1
    want = "%s: error: invalid instruction word ffffffffffffffff at offset 0: no match\n" % words
    assert capsys.readouterr().err == want


def test_cli_output_into_a_closed_pipe_ends_quietly(tmp_path):
    import subprocess
    import sys
    src = tmp_path / "k.asm"
    src.write_text("nop\n" * 20000 + "end\n")
    code = tmp_path / "k.bin"
    assert subprocess.run([sys.executable, "-m", "assembler.ir3", "asm", str(src), "--raw", "-o", str(code)],
                          capture_output=True).returncode == 0
    r = subprocess.run("%s -m assembler.ir3 disasm %s | head -1" % (sys.executable, code), shell=True,
                       capture_output=True, text=True)
    assert r.stdout == "nop\n" and r.stderr == ""
