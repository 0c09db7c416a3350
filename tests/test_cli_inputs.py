"""The command lines on hostile input: one error line naming the file, exit status 1, never a
traceback; a closed pipe ends them quietly; --help says what each argument is."""
import os
import random
import subprocess
import sys

import pytest

from assembler.amdgpu.__main__ import main as amdgpu_main
from assembler.rdna3.__main__ import main as rdna3_main

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HSACO = os.path.join(ROOT, "tests", "clang_kernels", "matmul_tiled.hsaco")


def asm(tmp_path, capsys, source):
    path = tmp_path / "in.s"
    path.write_bytes(source if isinstance(source, bytes) else source.encode())
    code = rdna3_main(["asm", str(path), "-o", str(tmp_path / "out.bin")])
    out, err = capsys.readouterr()
    return code, out, err.replace(str(path), "in.s")


@pytest.mark.parametrize("source, message", [
    (b"s_nop 0\ns_mov_b32 s0, \xff\xfe\n", "in.s:2:15: error: not UTF-8 text: byte 0xff cannot start a character"),
    ("s_mov_b32 s0, " + "-" * 3000 + "1\n", "in.s:1:115: error: operand ssrc0 of s_mov_b32: expression nested "
                                            "more than 100 levels deep"),
    ("s_mov_b32 s0, " + "~" * 20000 + "\n", "in.s:1:20015: error: missing operand"),
    (".long " + "-" * 3000 + "1\n", "in.s:1:7: error: .long expects integers"),
    (".amdhsa_kernel k\n.amdhsa_next_free_vgpr " + "-" * 3000 + "1\n.end_amdhsa_kernel\n",
     "expression nested more than 100 levels deep"),
    (".amdhsa_kernel k\n.amdhsa_next_free_vgpr " + "(" * 500 + "1" + ")" * 500 + "\n.end_amdhsa_kernel\n",
     "expression nested more than 100 levels deep"),
    ("v_mov_b32_dpp v0, v1 dpp8:[\u00b2,1,2,3,4,5,6,7]\n", "in.s:1:28: error: invalid character '\u00b2' in operand"),
    ("v_mov_b32_dpp v0, v1 dpp8:[\uff11,1,2,3,4,5,6,7]\n", "in.s:1:28: error: invalid character '\uff11'"),
    ("s_mov_b32 s\u00b2, 1\n", "in.s:1:12: error: invalid character '\u00b2' in operand"),
    ("v_mov_b32 v[\u00b2:3], 1\n", "in.s:1:13: error: invalid character '\u00b2'"),
])
def test_asm_errors_are_one_line(tmp_path, capsys, source, message):
    code, out, err = asm(tmp_path, capsys, source)
    assert code == 1 and out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert message in err, err
    assert len(err) < 600                       # a huge operand is not echoed whole


def damaged_objects(seed=7, count=40):
    with open(HSACO, "rb") as f:
        data = f.read()
    rng = random.Random(seed)
    yield "truncated", data[:3000]
    yield "header only", data[:64]
    yield "magic only", b"\x7fELF"
    yield "magic and garbage", b"\x7fELF" + bytes(rng.randrange(256) for _ in range(500))
    for i in range(count):
        d = bytearray(data)
        for _ in range(rng.randrange(1, 20)):
            d[rng.randrange(0, min(len(d), 4096))] = rng.randrange(256)
        yield f"corrupted {i}", bytes(d)


@pytest.mark.parametrize("name, data", list(damaged_objects()), ids=lambda v: v if isinstance(v, str) else "")
def test_disasm_and_describe_damaged_elf_without_traceback(tmp_path, capsys, name, data):
    path = tmp_path / "bad.hsaco"
    path.write_bytes(data)
    for main, argv in ((rdna3_main, ["disasm", str(path)]), (amdgpu_main, ["-v", str(path)])):
        code = main(argv)
        out, err = capsys.readouterr()
        assert code in (0, 1) and "Traceback" not in err
        if code:
            assert str(path) in err and err.count("\n") == 1, err


@pytest.mark.parametrize("argv", [
    [sys.executable, "-m", "assembler.amdgpu", "-v", HSACO, HSACO, HSACO],
    [sys.executable, "-m", "assembler.rdna3", "disasm", HSACO],
    [sys.executable, "-m", "drivers.amd.probe", "--emulate", "gfx1100", "--json"],
    [sys.executable, "-m", "hw_tests", "--list"],
])
def test_a_closed_pipe_ends_quietly(argv):
    proc = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.readline()
    proc.stdout.close()                          # `... | head -1`
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert proc.wait(timeout=60) == 0 and err == "", err


def test_help_texts_say_what_each_argument_is(capsys):
    with pytest.raises(SystemExit) as e:
        rdna3_main(["asm", "--help"])
    out = capsys.readouterr().out
    assert e.value.code == 0 and "assembly source file" in out
    assert "default: next to IN, as IN.hsaco (code object) or IN.bin (raw code)" in " ".join(out.split())
    with pytest.raises(SystemExit):
        rdna3_main(["disasm", "--help"])
    assert "raw gfx1100 instruction bytes, or an ELF code object" in " ".join(capsys.readouterr().out.split())


@pytest.mark.parametrize("script", ["bench_asm.py", "bench_launch.py", "bench_waits.py", "bench_emu.py"])
def test_bench_scripts_have_help(script):
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", script), "--help"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and proc.stdout.startswith("usage:") and proc.stderr == "", proc.stderr
