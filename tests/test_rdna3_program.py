"""The assembler front end (labels, branches, directives, comments), the decode API an executor
builds on, and the command line."""
import glob
import os
import re
import shutil
import subprocess
import sys

import pytest

from assembler.rdna3 import Program, assemble, assemble_program, decode, disassemble
from drivers.errors import AssemblerError

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

LOOP = """\
.text
start:
  s_mov_b32 s0, 0            ; comment
loop:                        // another comment
  s_add_u32 s0, s0, 1
  s_cmp_lt_u32 s0, 10
  s_cbranch_scc1 loop
  s_branch done
  v_mov_b32 v0, 0x12345678
  .p2align 4
done: s_nop 0
  s_endpgm
"""
# llvm-mc-19 -filetype=obj of LOOP, .text extracted with llvm-objcopy-19 (padding is s_nop 0)
LOOP_BYTES = bytes.fromhex("800080be00810080008a0abffdffa2bf0300a0bfff02007e78563412000080bf"
                           "000080bf0000b0bf")


def test_labels_branches_padding_and_comments_match_llvm_mc():
    prog = assemble_program(LOOP)
    assert isinstance(prog, Program)
    assert prog.data == LOOP_BYTES
    assert prog.labels == {"start": 0, "loop": 4, "done": 32}
    assert [(off, line) for off, line, _ in prog.lines] == [(0, 3), (4, 5), (8, 6), (12, 7),
                                                           (16, 8), (20, 9), (32, 11), (36, 12)]
    assert prog.lines[0][2].strip().startswith("s_mov_b32 s0, 0")


@pytest.mark.skipif(shutil.which("llvm-mc-19") is None or shutil.which("llvm-objcopy-19") is None,
                    reason="llvm-mc-19 / llvm-objcopy-19 not installed")
def test_loop_program_against_llvm_mc(tmp_path):
    src = tmp_path / "loop.s"
    src.write_text(LOOP)
    subprocess.run(["llvm-mc-19", "-arch=amdgcn", "-mcpu=gfx1100", "-filetype=obj", str(src), "-o",
                    str(tmp_path / "loop.o")], check=True)
    subprocess.run(["llvm-objcopy-19", "-O", "binary", "--only-section=.text", str(tmp_path / "loop.o"),
                    str(tmp_path / "loop.bin")], check=True)
    assert (tmp_path / "loop.bin").read_bytes() == assemble(LOOP)


def test_branch_offsets_are_dwords_from_the_next_instruction():
    code = assemble("a: s_branch a\ns_branch b\ns_nop 0\nb: s_endpgm")
    assert code[0:4] == bytes.fromhex("ffffa0bf")          # -1: back to itself
    assert code[4:8] == bytes.fromhex("0100a0bf")          # skips one s_nop
    assert disassemble(code)[:2] == ["s_branch 65535", "s_branch 1"]


def test_data_directives_and_alignment():
    code = assemble(".byte 1, 2\n.short 0x1234\n.long -1\n.p2align 3\ns_endpgm")
    assert code == bytes([1, 2, 0x34, 0x12]) + b"\xff" * 4 + bytes.fromhex("0000b0bf")
    assert assemble("s_endpgm\n.p2align 4, 0") == bytes.fromhex("0000b0bf") + bytes(12)


def test_code_object_directives_are_collected_not_assembled():
    src = """\
.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
.text
.globl k
.p2align 8
.type k,@function
k:
  s_endpgm
.rodata
.p2align 6
.amdhsa_kernel k
  .amdhsa_next_free_vgpr 1
  .amdhsa_next_free_sgpr 0
.end_amdhsa_kernel
.amdgpu_metadata
---
amdhsa.version: [1, 2]
...
.end_amdgpu_metadata
"""
    prog = assemble_program(src)
    assert prog.data == bytes.fromhex("0000b0bf")
    assert prog.labels == {"k": 0}
    lines = [n for n, _ in prog.directives]
    texts = [t for _, t in prog.directives]
    assert texts[0] == '.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"'
    assert ".amdhsa_kernel k" in texts and ".end_amdhsa_kernel" in texts
    assert ".amdhsa_next_free_vgpr 1" in texts and "amdhsa.version: [1, 2]" in texts
    assert ".p2align 6" in texts                     # belongs to .rodata, not to the code
    assert lines == sorted(lines)
    assert (10, ".amdhsa_kernel k") in prog.directives


def test_instruction_outside_text_is_an_error():
    with pytest.raises(AssemblerError, match=r"2:1: instruction outside .text"):
        assemble(".data\ns_endpgm")


def test_decode_gives_structured_operands():
    ins, size = decode(assemble("v_add_f32_e32 v1, 0x3f000001, v2"))
    assert (ins.mnemonic, ins.family, ins.opcode, size) == ("v_add_f32_e32", "VOP2", 3, 8)
    dst, src0, src1 = ins.operands
    assert (dst.role, dst.kind, dst.value, dst.nregs) == ("vdst", "vgpr", 1, 1)
    assert (src0.role, src0.kind, src0.value, src0.dtype) == ("src0", "literal", 0x3F000001, "b32")
    assert ins.literal == 0x3F000001 and (src1.kind, src1.value) == ("vgpr", 2)

    ins, _ = decode(assemble("v_fma_f64 v[0:1], -s[2:3], |v[4:5]|, 1.0 clamp mul:2"))
    a, b, c = ins.operands[1:]
    assert (a.kind, a.value, a.nregs, a.neg) == ("sgpr", 2, 2, True)
    assert (b.kind, b.value, b.abs) == ("vgpr", 4, True)
    assert (c.kind, c.value, c.dtype) == ("const", 242, "f64")
    assert ins.modifiers["clamp"] == 1 and ins.modifiers["omod"] == 1

    ins, size = decode(assemble("v_mov_b32 v0, v1 row_shl:1 row_mask:0xa bank_mask:0x5 bound_ctrl:1"))
    assert size == 8 and ins.mnemonic == "v_mov_b32_dpp"
    assert ins.dpp["kind"] == "dpp16" and ins.dpp["ctrl"] == 0x101 and ins.dpp["row_mask"] == 0xA
    assert ins.dpp["bank_mask"] == 5 and ins.dpp["bound_ctrl"] == 1
    assert ins.operands[1].value == 1 and ins.operands[1].kind == "vgpr"

    ins, _ = decode(assemble("v_dual_mul_f32 v0, v1, v2 :: v_dual_mov_b32 v3, 2.0"))
    assert ins.family == "VOPD" and ins.mnemonic == "v_dual_mul_f32"
    assert ins.second.mnemonic == "v_dual_mov_b32" and ins.second.operands[0].value == 3

    ins, _ = decode(assemble("global_load_b64 v[2:3], v1, s[4:5] offset:-8 glc"))
    assert ins.family == "GLOBAL" and ins.modifiers["offset"] == -8 and ins.modifiers["glc"] == 1
    assert [(o.role, o.kind, o.value, o.nregs) for o in ins.operands] == [
        ("vdst", "vgpr", 2, 2), ("addr", "vgpr", 1, 1), ("saddr", "sgpr", 4, 2)]

    ins, _ = decode(assemble("s_waitcnt vmcnt(0) lgkmcnt(0)"))
    assert ins.operands[0].kind == "imm" and ins.operands[0].value == 0x0007


def test_disassembly_of_clang_kernels_matches_llvm_objdump():
    """The clang-19 code objects under tests/clang_kernels and their frozen llvm-objdump-19 text."""
    kernels = sorted(glob.glob(os.path.join(ROOT, "tests", "clang_kernels", "*.hsaco")))
    if not kernels:
        pytest.skip("no clang kernels in this checkout")
    from assembler.rdna3.__main__ import _text_of_elf
    total = 0
    for path in kernels:
        want = []
        with open(path[:-len(".hsaco")] + ".s.txt") as f:
            for line in f:
                if line.startswith("\t"):
                    want.append(line.split("//")[0].strip())
        text, labels = _text_of_elf(open(path, "rb").read(), path)
        got = disassemble(text)
        assert got == want, path
        assert assemble("\n".join(got)) == text
        total += len(got)
    assert total > 1000


def _cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "assembler.rdna3", *args], capture_output=True,
                          text=True, cwd=cwd or ROOT)


def test_cli_asm_and_disasm_raw(tmp_path):
    src = tmp_path / "k.s"
    src.write_text(LOOP)
    r = _cli("asm", str(src), "-o", str(tmp_path / "k.bin"))
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "k.bin").read_bytes() == LOOP_BYTES
    r = _cli("disasm", str(tmp_path / "k.bin"))
    assert r.returncode == 0
    assert r.stdout.split("\n")[:4] == ["\ts_mov_b32 s0, 0", "\ts_add_u32 s0, s0, 1",
                                        "\ts_cmp_lt_u32 s0, 10", "\ts_cbranch_scc1 65533"]


def test_cli_reports_errors_without_traceback(tmp_path):
    src = tmp_path / "bad.s"
    src.write_text("s_nop 0\n  v_add_f33 v0, v1, v2\n")
    r = _cli("asm", str(src))
    assert r.returncode == 1
    assert r.stderr.startswith("%s:2:3: error: unknown instruction 'v_add_f33'" % src)
    assert "Traceback" not in r.stderr
    (tmp_path / "junk.bin").write_bytes(b"\xff\xff\xff\xff")
    r = _cli("disasm", str(tmp_path / "junk.bin"))
    assert r.returncode == 1 and "invalid instruction word 0xffffffff at offset 0" in r.stderr


def test_cli_disasm_code_object_prints_symbols():
    path = os.path.join(ROOT, "tests", "clang_kernels", "bit_ops.hsaco")
    if not os.path.exists(path):
        pytest.skip("no clang kernels in this checkout")
    r = _cli("disasm", path)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "bit_ops:" and lines[1] == "\ts_clause 0x2"


KERNEL = """\
.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
.text
.globl k
.p2align 8
.type k,@function
k:
  v_mov_b32 v0, 1.0
  s_endpgm
.rodata
.p2align 6
.amdhsa_kernel k
  .amdhsa_next_free_vgpr 1
  .amdhsa_next_free_sgpr 0
.end_amdhsa_kernel
"""


def test_cli_asm_builds_a_code_object_when_the_source_has_a_kernel(tmp_path):
    src = tmp_path / "k.s"
    src.write_text(KERNEL)
    r = _cli("asm", str(src), "-o", str(tmp_path / "k.hsaco"))
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "k.hsaco").read_bytes()[:4] == b"\x7fELF"
    r = _cli("disasm", str(tmp_path / "k.hsaco"))
    assert r.stdout.splitlines() == ["k:", "\tv_mov_b32_e32 v0, 1.0", "\ts_endpgm"]


def test_cli_says_so_when_the_code_object_writer_is_missing(tmp_path):
    src = tmp_path / "k.s"
    src.write_text(KERNEL)
    shim = tmp_path / "shim"
    shim.mkdir()
    # a sitecustomize that hides the writer: the import fails the way a missing module would
    (shim / "sitecustomize.py").write_text(
        "import sys\nsys.modules['assembler.amdgpu.codeobject'] = None\n")
    env = dict(os.environ, PYTHONPATH=str(shim) + os.pathsep + ROOT)
    r = subprocess.run([sys.executable, "-m", "assembler.rdna3", "asm", str(src)], capture_output=True,
                       text=True, cwd=ROOT, env=env)
    assert r.returncode == 1
    assert re.search(r"has an .amdhsa_kernel block but the code-object writer .* is not available",
                     r.stderr)


CLANG = sorted(glob.glob(os.path.join(ROOT, "tests", "data", "rdna3", "clang", "*.s")))


@pytest.mark.parametrize("path", CLANG, ids=[os.path.basename(p)[:-2] for p in CLANG])
def test_clang_output_assembles_like_llvm_mc(path):
    """clang-19 -S output (directives, metadata blocks, .LBB labels, .p2alignl/.fill padding)
    gives the .text llvm-mc-19 gives."""
    with open(path[:-2] + ".text.hex") as f:
        want = bytes.fromhex("".join(line.strip() for line in f if not line.startswith("#")))
    prog = assemble_program(open(path).read(), source=path)
    assert prog.data == want
    kernel = os.path.basename(path)[:-2]
    assert prog.labels[kernel] == 0
    texts = [t for _, t in prog.directives]
    assert ".amdhsa_kernel %s" % kernel in texts and ".end_amdgpu_metadata" in texts


def test_clang_sources_are_there():
    assert len(CLANG) >= 10
