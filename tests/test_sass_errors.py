"""Bad SASS input gets an AssemblerError naming the line, the column and the problem; bad words
are refused with their offset; the command line reports file:line:col and handles a closed pipe."""
import os
import subprocess
import sys

import pytest

from assembler.errors import AssemblerError
from assembler.sass import assemble, assemble_program, decode, decode_word, disassemble

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def err(text, arch="sm_86"):
    with pytest.raises(AssemblerError) as e:
        assemble_program(text, arch, source="k.sass")
    return e.value


def test_unknown_opcode():
    e = err("NOP ;\n  FROB R0, R1 ;")
    assert (e.line, e.column) == (2, 3) and "unknown opcode 'FROB'" in e.reason


def test_unknown_modifier_lists_the_known_ones():
    e = err("IMAD.BOGUS R0, R1, R2, R3 ;")
    assert "no sm_86 form takes the modifiers .BOGUS" in e.reason and ".WIDE" in e.reason


def test_operand_that_does_not_fit_names_it():
    e = err("FADD R0, R1, [R2] ;")
    assert "operand 3 '[R2]' does not fit" in e.reason and e.column == 14


def test_register_out_of_range():
    e = err("MOV R0, R256 ;")
    assert "out of range" in e.reason and e.column == 9


def test_immediate_too_wide():
    e = err("IADD3 R0, R1, 0x123456789, RZ ;")
    assert "does not fit" in e.reason


def test_too_many_and_missing_operands():
    assert "too many operands" in err("FADD R0, R1, R2, R3, R4 ;").reason
    assert "missing operand" in err("FADD R0, R1 ;").reason


def test_labels():
    assert "undefined label 'nowhere'" in err("BRA `(nowhere) ;").reason
    e = err("a:\nNOP ;\na:\nEXIT ;")
    assert e.line == 3 and "defined twice" in e.reason


def test_bad_control_comment():
    e = err("NOP ;  // [B0-----:R-:W-:Y:S99]")
    assert "stall 99 is out of range" in e.reason
    assert "wait mask column" in err("NOP ;  // [B1-----:R-:W-:Y:S01]").reason
    assert "takes a stall of 1..11, not 0" in err("NOP ;  // [B------:R-:W-:-:S00]").reason


def test_a_word_without_yield_and_a_stall_of_0_or_12_up_is_refused():
    nop = int.from_bytes(assemble("NOP ;  // [B------:R-:W-:-:S01]"), "little")
    for stall in (0, 12, 15):
        w = nop & ~(15 << 105) | stall << 105
        with pytest.raises(AssemblerError, match="no yield .* stall of %d" % stall):
            decode(w.to_bytes(16, "little"), "sm_86")


def test_reuse_needs_the_yield_bit():
    e = err("FADD R0, R1.reuse, R2 ;  // [B------:R-:W-:Y:S04]")
    assert ".reuse needs the yield bit" in e.reason


@pytest.mark.parametrize("arch", ["sm_86", "sm_90"])
def test_what_nvdisasm_refuses_beyond_single_fields(arch):
    # a branch names no scoreboard, a store no write scoreboard (nvdisasm refuses both)
    e = err("BRA 0x0 ;  // [B------:R-:W2:-:S05]", arch)
    assert "BRA takes no write scoreboard" in e.reason or "a write scoreboard (W2)" in e.reason
    e = err("EXIT ;  // [B------:R1:W-:-:S05]", arch)
    assert "a read scoreboard (R1)" in e.reason
    w = int.from_bytes(assemble("BRA 0x0 ;  // [B------:R-:W-:-:S05]", arch), "little")
    with pytest.raises(AssemblerError, match=r"offset 0x0 .*a write scoreboard \(W3\)"):
        decode((w & ~(7 << 110) | 3 << 110).to_bytes(16, "little"), arch)
    # I2F from a 32-bit integer to f32 is the narrow class's; in the 64-bit class nvdisasm
    # refuses it, so the assembler writes the narrow class and the decoder refuses the other
    w = int.from_bytes(assemble("I2F.U32.RP R3, R2 ;", arch), "little")
    assert w & 0xfff != 0x312
    wide = int.from_bytes(assemble("I2F.F64.U32 R4, R2 ;", arch), "little")
    assert wide & 0xfff == 0x312
    bad = wide & ~(3 << 75) | 2 << 75                   # F64 -> F32 result, in the 64-bit class
    with pytest.raises(AssemblerError, match="refuses together"):
        decode(bad.to_bytes(16, "little"), arch)
    # .reuse on a slot that holds an immediate
    w = int.from_bytes(assemble("FMUL R3, R6.reuse, 16777216 ;  // [B------:R-:W-:-:S04]", arch), "little")
    with pytest.raises(AssemblerError, match="reuse flag 0x4 on an operand slot that takes none"):
        decode((w | 1 << 124).to_bytes(16, "little"), arch)


@pytest.mark.parametrize("arch", ["sm_86", "sm_89", "sm_90"])
def test_reuse_flags_taken_alone_but_not_together(arch):
    # LDS R31, [R2.X4+0x580] with the yield bit: nvdisasm takes the second or the third reuse
    # flag (neither prints), not both
    w = int.from_bytes(assemble("LDS R31, [R2.X4+0x580] ;  // [B------:R-:W0:-:S01]", arch), "little")
    for r in (2, 4):
        assert decode(((w & ~(15 << 122)) | r << 122).to_bytes(16, "little"), arch).text == \
            "LDS R31, [R2.X4+0x580] ;"
    with pytest.raises(AssemblerError, match="reuse flags 0x6 together, which nvdisasm refuses here"):
        decode(((w & ~(15 << 122)) | 6 << 122).to_bytes(16, "little"), arch)


@pytest.mark.parametrize("arch", ["sm_86", "sm_89"])
def test_modifier_hidden_by_an_rz_base(arch):
    # LDG with a 64-bit address and bit 72 clear prints .???0, but not when the address has no
    # register base (RZ): nvdisasm prints plain LDG there
    w = 0x0000e2200c1e884e25b12706ff0d7981
    ldg = decode(w.to_bytes(16, "little"), arch)
    assert ldg.text == "LDG.CONSTANT R13, [UR6+0x25b127], !P1 ;"
    with_base = (w & ~(0xff << 24)) | 4 << 24
    text = "LDG.???0.CONSTANT R13, [R4.64+UR6+0x25b127], !P1 ;"
    assert decode(with_base.to_bytes(16, "little"), arch).text == text
    assert decode(assemble(text, arch), arch).text == text
    # the assembler leaves .???0 out only where the operand hides it
    assert decode(assemble(ldg.text, arch), arch).text == ldg.text
    rz64 = int.from_bytes(assemble("LDG.CONSTANT R13, [RZ.64+UR6+0x25b127], !P1 ;", arch), "little")
    assert (rz64 >> 90 & 1, rz64 >> 72 & 1) == (1, 0)    # the 64-bit form, .???0 hidden by RZ
    assert decode(rz64.to_bytes(16, "little"), arch).text == ldg.text
    e = err("LDG.CONSTANT R13, [R4.64+UR6+0x25b127], !P1 ;", arch)
    assert e.reason == "LDG.CONSTANT: this form prints .???0 unless a register of operand 2 " \
        "'[R4.64+UR6+0x25b127]' is the zero one (RZ, URZ or PT)" and e.column == 19


@pytest.mark.parametrize("arch", ["sm_86", "sm_89", "sm_90"])
def test_rz_alone_prints_no_scale(arch):
    # nvdisasm prints a shared-memory address on RZ alone as [RZ] whatever scale the word holds
    # (the sm_90 words below are its answers); beside a uniform register or with a register
    # base the scale prints
    if arch == "sm_90":
        for word, text in ((0x000fe2800000880000000020fffff984, "@!PT LDS RZ, [RZ] ;"),
                           (0x038a640000008a0000000000ffacf984, "@!PT LDS.64 R172, [RZ] ;")):
            assert decode(word.to_bytes(16, "little"), arch).text == text
    for scale in ("X4", "X8", "X16"):
        assert disassemble(assemble(f"LDS R1, [RZ.{scale}] ;", arch), arch) == ["LDS R1, [RZ] ;"]
        assert disassemble(assemble(f"STS [RZ.{scale}], R1 ;", arch), arch) == ["STS [RZ], R1 ;"]
    for text in ("LDS R1, [RZ.X4+UR4] ;", "LDS R1, [R2.X8] ;", "LDS R1, [RZ] ;"):
        assert disassemble(assemble(text, arch), arch) == [text]


def _nvdisasm_text(word, arch, pc):
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    from sass_oracle import Nvdisasm, find_tool
    if find_tool("nvdisasm") is None:
        return None
    nvd = Nvdisasm(cache=False)
    try:
        return nvd.disassemble_words([word], arch, base=pc)[0]
    finally:
        nvd.close()


@pytest.mark.parametrize("pc, word, text", [
    # bits 77..80 are one field: 77+79 .STRONG.SM, 78+80 .STRONG.SYS, 77+78+79 .STRONG.GPU
    (0x464c0, 0x017bc6000800e60900000004300073ba, "UBLKCP.S.S.STRONG.GPU [UR4], [UR48], UR9 ;"),
    # two predicate outputs (bits 81..83, 84..86), both hidden while the first is PT
    (0x1fd50, 0x000fe20003e600000000000208087848, "VIMNMX.U32 R8, P3, P6, R8, 0x2, PT ;"),
], ids=["UBLKCP.STRONG.GPU", "VIMNMX-predicate-pair"])
def test_sm90_words_the_learner_once_missed(pc, word, text):
    # the texts are nvdisasm's; where it is installed, it prints the re-assembled word the same
    assert decode_word(word, "sm_90", pc).text == text
    again = assemble_program(text, "sm_90", base=pc).words[0]
    assert decode_word(again, "sm_90", pc).text == text
    theirs = _nvdisasm_text(again, "sm_90", pc)
    assert theirs in (None, text)


@pytest.mark.parametrize("arch", ["sm_86", "sm_89"])     # sm_90's corpus has no word of class 0xb12
@pytest.mark.parametrize("pc, word, text", [
    # the 64-bit class takes a 32-, 16- or 8-bit source only with an .F64 result (bits 84..85
    # next to 75..76): every single flip of the source size beside an .F32 result is refused
    (0x47c50, 0x000e30000020980000800200000d7b12, "I2F.F64.U32.RP R13, c[0x2][0x8] ;"),
    # with an 8- or 16-bit source the constant prints with a blank before its offset
    (0x100, 0x000e30000000180000800000000c7b12, "I2F.F64.U8 R12, c[0x2] [0x0] ;"),
    (0x100, 0x000e300000101c0000800000000c7b12, "I2F.F64.S16 R12, c[0x2] [0x0] ;"),
], ids=["U32", "U8", "S16"])
def test_i2f_narrow_source_to_f64_in_the_64_bit_class(arch, pc, word, text):
    # the texts are nvdisasm's (the same for both); where it is installed, it prints the
    # re-assembled word the same
    assert decode_word(word, arch, pc).text == text
    again = assemble_program(text, arch, base=pc).words[0]
    assert decode_word(again, arch, pc).text == text
    assert _nvdisasm_text(again, arch, pc) in (None, text)


def test_operands_shown_only_together_are_refused_apart():
    # VIMNMX prints its predicate outputs as a pair; hiding the second would hide the first too
    assert disassemble(assemble("VIMNMX.U32 R8, R8, 0x2, PT ;", "sm_90"), "sm_90") == \
        ["VIMNMX.U32 R8, R8, 0x2, PT ;"]
    e = err("VIMNMX.U32 R8, P3, R8, 0x2, PT ;", "sm_90")
    assert "an operand after operand 2 is missing" in e.reason and e.column == 16
    e = err("VIMNMX.U32 R8, PT, P6, R8, 0x2, PT ;", "sm_90")
    assert "operand 3 'P6' cannot be printed with the operands before it" in e.reason and e.column == 20


def test_guard_from_the_wrong_register_file():
    e = err("@UP0 FADD R0, R1, R2 ;")
    assert e.reason == "FADD cannot take a @UP guard" and e.line == 1


def test_unknown_arch():
    with pytest.raises(ValueError, match="unsupported arch 'sm_75'"):
        assemble("NOP ;", "sm_75")


def test_bad_words_are_refused_with_their_offset():
    good = assemble("NOP ;\nEXIT ;")
    bad = good + (0x3FF).to_bytes(16, "little")
    with pytest.raises(AssemblerError, match=r"offset 0x20 .*unknown opcode class 0x3ff"):
        disassemble(bad, "sm_86")
    with pytest.raises(AssemblerError, match="truncated instruction at offset 0x10"):
        decode(good[:24], "sm_86", 16)
    with pytest.raises(AssemblerError, match="not a multiple of 16"):
        disassemble(good[:24], "sm_86")


def _cli(*args, **kw):
    return subprocess.run([sys.executable, "-m", "assembler.sass", *args], capture_output=True, text=True,
                          cwd=ROOT, **kw)


def test_cli_reports_file_line_column(tmp_path):
    src = tmp_path / "k.sass"
    src.write_text("NOP ;\nFADD R0, R1, [R2] ;\n")
    r = _cli("asm", str(src), "--arch", "sm_90")
    assert r.returncode == 1 and "k.sass:2:14: error: FADD: operand 3" in r.stderr


def test_cli_round_trip_and_help(tmp_path):
    src = tmp_path / "k.sass"
    src.write_text("S2R R0, SR_TID.X ;\nIADD3 R1, R0, 0x1, RZ ;\nEXIT ;\n")
    assert _cli("asm", str(src), "--arch", "sm_89", "-o", str(tmp_path / "k.bin")).returncode == 0
    r = _cli("disasm", str(tmp_path / "k.bin"), "--arch", "sm_89", "--control")
    assert r.returncode == 0
    assert "IADD3 R1, R0, 0x1, RZ ;" in r.stdout and "// [B" in r.stdout
    r = _cli("disasm", str(tmp_path / "k.bin"))
    assert r.returncode == 2 and "--arch" in r.stderr
    assert _cli("--help").returncode == 0 and "asm" in _cli("--help").stdout


def test_cli_closed_pipe_is_quiet(tmp_path):
    src = tmp_path / "k.sass"
    src.write_text("NOP ;\n" * 3000)
    assert _cli("asm", str(src), "-o", str(tmp_path / "k.bin")).returncode == 0
    p = subprocess.Popen([sys.executable, "-m", "assembler.sass", "disasm", str(tmp_path / "k.bin"), "--arch",
                          "sm_86"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    p.stdout.readline()
    p.stdout.close()
    assert p.wait(timeout=60) == 0 and p.stderr.read() == b""


def test_cubin_cli_closed_pipe_is_quiet(tmp_path):
    from assembler.cubin import build_cubin
    path = tmp_path / "k.cubin"
    path.write_bytes(build_cubin(".target sm_86\n" + "".join(".kernel k%d\nEXIT ;\n.end\n" % i for i in range(300))))
    p = subprocess.Popen([sys.executable, "-m", "assembler.cubin", "-v", str(path)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, cwd=ROOT)
    p.stdout.readline()
    p.stdout.close()
    assert p.wait(timeout=60) == 0 and p.stderr.read() == b""
