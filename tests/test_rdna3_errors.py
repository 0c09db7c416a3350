"""Bad assembly and bad machine code give AssemblerError naming line, column and the problem."""
import pytest

from assembler.rdna3 import assemble, assemble_program
from drivers.errors import AssemblerError


@pytest.mark.parametrize("src, line, col, message", [
    # unknown mnemonic, with the closest known ones
    ("v_add_f33 v0, v1, v2", 1, 1, r"unknown instruction 'v_add_f33'; did you mean v_add_f32"),
    ("s_nop 0\n  s_endpgmm", 2, 3, r"unknown instruction 's_endpgmm'; did you mean s_endpgm"),
    # wrong operand kind: which operand, what was expected
    ("s_mov_b32 v0, s1", 1, 11, r"operand sdst of s_mov_b32 must be a 32-bit SGPR, got 'v0'"),
    ("v_fma_f32 v[0:1], v1, v2, v3", 1, 11, r"operand vdst of v_fma_f32 must be a 32-bit VGPR"),
    ("flat_load_b32 v0, v1", 1, 19, r"operand addr of flat_load_b32 must be a 64-bit VGPR range"),
    ("v_add_f32 v0, v1, s[2:3]", 1, 19, r"operand src1 of v_add_f32 must be 32-bit wide"),
    ("v_add_f32 v0, foo, v1", 1, 15, r"expected a register or a constant, got 'foo'"),
    ("buffer_load_b32 v0, v1, s[4:7], 0", 1, 21, r"needs offen or idxen"),
    # out-of-range immediates, constants and offsets
    ("s_sendmsg 70000", 1, 11, r"value 70000 out of range \[0, 65535\]"),
    ("s_movk_i32 s0, -32769", 1, 16, r"value -32769 out of range \[-32768, 65535\]"),
    ("ds_load_b32 v0, v1 offset:70000", 1, 20, r"DS offset 70000 out of range \[0, 65535\]"),
    ("global_load_b32 v0, v[2:3], off offset:5000", 1, 33, r"GLOBAL offset 5000 out of range"),
    ("flat_load_b32 v0, v[2:3] offset:-8", 1, 26, r"FLAT offset -8 out of range \[0, 4095\]"),
    ("s_load_b32 s0, s[2:3], 0x100000", 1, 24, r"SMEM offset 1048576 out of range"),
    ("v_add_f32 v0, 0x123456789, v1", 1, 15, r"literal 0x123456789 does not fit in 32 bits"),
    ("s_waitcnt vmcnt(99)", 1, 11, r"vmcnt: value 99 out of range \[0, 63\]"),
    ("v_mov_b32 v0, v256", 1, 15, r"register v256 out of range"),
    ("s_add_u32 s0, 0x1234, 0x5678", 1, 23, r"only one unique literal constant"),
    # a BVH image instruction has no cache bits to clear either (llvm-mc refuses noslc there)
    ("image_bvh64_intersect_ray v[4:7], v[9:20], s[4:7] noslc", 1, 51,
     r"image_bvh64_intersect_ray does not take noslc"),
    # misaligned register ranges
    ("s_mov_b64 s[1:2], s[4:5]", 1, 11, r"misaligned register range s\[1:2\]: a 2-register SGPR "
                                        r"tuple must start at a multiple of 2"),
    ("s_load_b128 s[2:5], s[0:1], 0", 1, 13, r"misaligned register range s\[2:5\]"),
    # VOPD rules
    ("v_dual_mul_f32 v0, v1, v2 :: v_dual_mul_f32 v2, v3, v4", 1, 45,
     r"VOPD destinations must be one even and one odd VGPR \(v0, v2\)"),
    ("v_dual_mul_f32 v0, v1, v2 :: v_dual_mul_f32 v1, v5, v7", 1, 49,
     r"VOPD src0 operands v1 and v5 must use different VGPR banks"),
    ("v_dual_mul_f32 v0, v1, v2 :: v_dual_mul_f32 v1, v4, v6", 1, 53,
     r"VOPD src1 operands v2 and v6 must use different VGPR banks"),
    ("v_dual_fmamk_f32 v20, v1, 0x1, v2 :: v_dual_fmamk_f32 v21, v6, 0x1, v4", 1, 69,
     r"VOPD src2 operands v2 and v4 must use different VGPR banks \(both % 2 == 0\)"),
    ("v_dual_add_nc_u32 v0, v1, v2 :: v_dual_mul_f32 v1, v4, v7", 1, 1,
     r"'v_dual_add_nc_u32' cannot be the first half of a VOPD pair"),
    # the constant bus: at most two scalar values (SGPRs, literal) per VALU instruction
    ("v_fma_f32 v0, s1, 0x1234, s2", 1, 27, r"v_fma_f32 reads 3 scalar values \(SGPRs, literal\) "
                                          r"but gfx11 allows 2 \(constant bus\)"),
    ("v_div_fmas_f32 v0, s1, v2, s3", 1, 28, r"v_div_fmas_f32 reads 3 scalar values"),
    ("v_cndmask_b32_e64 v0, s1, s2, vcc_lo", 1, 31, r"reads 3 scalar values"),
    ("v_lshlrev_b64 v[0:1], s0, s[2:3]", 1, 27, r"reads 2 scalar values .* allows 1"),
    ("v_dual_cndmask_b32 v1, s4, v2 :: v_dual_mul_f32 v4, s5, v6", 1, 53,
     r"VOPD pair reads 3 scalar values"),
    ("v_add_f32_e64_dpp v0, v1, s2 dpp8:[0,1,2,3,4,5,6,7]", 1, 27,
     r"src1 of the DPP form v_add_f32_e64_dpp must be a VGPR"),
    # labels and operand counts
    ("s_branch missing", 1, 10, r"undefined label 'missing'"),
    ("a:\na:", 2, 1, r"label 'a' redefined"),
    ("v_add_f32 v0, v1", 1, 17, r"too few operands for v_add_f32: expected 3, got 2"),
    ("v_add_f32 v0, v1, v2, v3", 1, 23, r"too many operands for v_add_f32: expected 3, got 4"),
    # modifiers an instruction does not have
    ("v_add_nc_u32 v0, v1, v2 mul:2", 1, 25, r"v_add_nc_u32 does not support output modifiers"),
    ("v_add_f32 v0, v1, v2 op_sel:[1,0,0]", 1, 22, r"v_add_f32 does not support op_sel"),
    ("v_add_f32 v0, v1, v2 bogus", 1, 22, r"unknown modifier 'bogus' for v_add_f32"),
    ("v_add_nc_u32_e64 v0, -v1, v2", 1, 22, r"operand src0 of v_add_nc_u32_e64 does not take a "
                                            r"negation modifier"),
    ("v_add_nc_u32 v0, neg(5), v1", 1, 18, r"operand src0 of v_add_nc_u32 does not take a "
                                           r"negation modifier"),
    ("s_mov_b32 s0, |1|", 1, 15, r"operand ssrc0 of s_mov_b32 does not take an absolute-value"),
    # operands llvm-mc-19 refuses on gfx11, also as SGPR destinations of plain statements
    ("v_cmp_eq_u32_e64 src_vccz, v1, v2", 1, 18, r"src_vccz is not an operand on gfx11"),
    ("v_cmp_eq_u32_e64 src_execz, v1, -1", 1, 18, r"src_execz is not an operand on gfx11"),
    ("s_mov_b32 src_vccz, 1", 1, 11, r"src_vccz is not an operand on gfx11"),
    ("v_mov_b32 v0, lds_direct", 1, 15, r"operand src0 of v_mov_b32 cannot be 'lds_direct'"),
    # symbolic immediates
    ("s_getreg_b32 s0, hwreg(HW_REG_FOO)", 1, 18, r"unknown hardware register 'HW_REG_FOO'"),
    ("s_sendmsg sendmsg(MSG_NOPE)", 1, 11, r"unknown message 'MSG_NOPE'"),
    ("s_waitcnt foo(1)", 1, 11, r"unknown counter 'foo'"),
    # directives
    (".p2align 99", 1, 1, r".p2align expects a power of two exponent"),
    (".long x", 1, 7, r".long expects integers, got 'x'"),
    (".byte 300", 1, 7, r"value 300 does not fit in .byte"),
    (".foo 1", 1, 1, r"unknown directive .foo"),
    (".amdhsa_kernel k\ns_endpgm", 2, 1, r"missing .end_amdhsa_kernel"),
])
def test_assembler_errors(src, line, col, message):
    with pytest.raises(AssemblerError, match=message) as info:
        assemble_program(src, source="k.s")
    e = info.value
    assert (e.line, e.column) == (line, col), str(e)
    assert str(e).startswith("k.s:%d:%d: " % (line, col))


def test_error_without_source_name_has_line_and_column():
    with pytest.raises(AssemblerError) as info:
        assemble("s_nop 0\ns_nop 0\nv_bogus v0")
    assert str(info.value).startswith("3:1: unknown instruction 'v_bogus'")


@pytest.mark.parametrize("data, message", [
    (b"\xff\xff\xff\xff", r"invalid instruction word 0xffffffff at offset 0"),
    (bytes.fromhex("0000b0bf") + b"\xff\x00\x00\xfc" + bytes(8),
     r"invalid instruction word 0xfc0000ff at offset 4"),
    (bytes.fromhex("0000f4f0") + bytes(8), r"invalid instruction word 0xf0f40000 at offset 0 \(MIMG"),
    (bytes.fromhex("010000f0") + bytes(4), r"invalid instruction word 0xf0000001 at offset 0: truncated NSA"),
    (bytes.fromhex("000020ce") + bytes(8), r"invalid instruction word 0xce200000 at offset 0"),
    (bytes.fromhex("00007fcd") + bytes(8), r"invalid instruction word 0xcd7f0000 at offset 0"),
    (bytes.fromhex("0000b0"), r"truncated instruction at offset 0 \(3 bytes left\)"),
    (bytes.fromhex("000013d6"), r"truncated VOP3 instruction at offset 0"),
    (bytes.fromhex("ff040006"), r"invalid instruction word 0x060004ff at offset 0: truncated literal"),
])
def test_decoder_errors(data, message):
    from assembler.rdna3 import disassemble
    with pytest.raises(AssemblerError, match=message):
        disassemble(data)


def test_mangled_corpus_lines_fail_only_with_assembler_errors():
    """Characters inserted, dropped or repeated in real instructions: either it still assembles
    or AssemblerError says why -- never another exception."""
    import os
    import random
    path = os.path.join(os.path.dirname(__file__), "data", "rdna3", "corpus.s")
    with open(path) as f:
        lines = [ln.rpartition(" ; [")[0] for ln in f if not ln.startswith(";")]
    rng = random.Random(5)
    alphabet = "vs[]:,|-()0123456789abcdefx.;_ \t&*+~<>"
    errors = 0
    for _ in range(1500):
        text = rng.choice(lines)
        for _ in range(rng.randrange(1, 4)):
            p = rng.randrange(len(text) + 1)
            r = rng.random()
            if r < 0.4:
                text = text[:p] + rng.choice(alphabet) + text[p:]
            elif r < 0.8:
                text = text[:p] + text[p + 1:]
            else:
                q = rng.randrange(len(text) + 1)
                text = text[:p] + text[q:p] + text[p:]
        try:
            assemble(text)
        except AssemblerError as e:
            assert e.line == 1 and e.column >= 1
            errors += 1
    assert errors > 500
