"""The assembler's fidelity classes: each statement, with the bytes llvm-mc-19 assembles it to or
None where llvm-mc-19 refuses it (its verdicts, recorded when these tests were written; the
differential fuzzer, scripts/fuzz_rdna3_asm.py and test_rdna3_fuzz.py, covers the rest).

One group per class of disagreement the fuzzer or a held-out corpus found; a class fixed once
must stay fixed.
"""
import os
import shutil
import sys

import pytest

from assembler.errors import AssemblerError
from assembler.rdna3 import assemble, disassemble

CASES = [
    # neg() of a constant flips its sign bit (f32 bit 31, f16 bit 15); refused on integer operands
    ('v_mul_f32 v0, neg(0x3f000000), v1', 'f1020010'),
    ('v_mul_f32_e64 v0, neg(0x3f000000), v1', '000008d5f0020220'),
    ('v_mul_f32 v0, neg(0.5), v1', 'f1020010'),
    ('v_add_f16 v0, neg(0x3800), v1', 'f1020064'),
    ('v_add_f16 v0, neg(0x1234), v1', 'ff02006434920000'),
    ('v_add_nc_u32 v0, neg(0x10), v1', None),
    ('v_add_nc_u32 v0, neg(v1), v2', None),
    ('s_add_u32 s0, neg(1), s1', None),
    # SMEM: a constant in the soffset place is the immediate offset (soffset null); 0.0 is offset 0
    ('s_load_b32 s0, s[2:3], 0x10', '010000f4100000f8'),
    ('s_load_b32 s0, s[2:3], 0x10 offset:0x20', None),
    ('s_load_b32 s0, s[2:3], 0.0', '010000f4000000f8'),
    ('s_load_b32 s0, s[2:3], 1.0', None),
    ('s_load_b32 s0, s[2:3], s4 offset:0x20', '010000f420000008'),
    # DPP lists: quad_perm entries are 2 bits; dpp8 brackets must balance
    ('v_mov_b32_dpp v0, v1 quad_perm:[23,0,0,0]', None),
    ('v_mov_b32_dpp v0, v1 quad_perm:[0,0,0,123]', None),
    ('v_mov_b32_dpp v0, v1 quad_perm:[3,2,1,0]', 'fa02007e011b00ff'),
    ('v_mov_b32_dpp v0, v1 dpp8:[0,1,2,3,4,5,6,7', None),
    ('v_mov_b32_dpp v0, v1 dpp8:[0,1,2,3,4,5,6,7]]', None),
    ('v_mov_b32_dpp v0, v1 dpp8:[7,6,5,4,3,2,1,0]', 'e902007e01773905'),
    # modifiers are never dropped or merged: source modifiers on offset registers, repeats, conflicts
    ('buffer_load_b32 v1, off, s[4:7], s5', '000050e000010105'),
    ('buffer_load_b32 v1, off, s[4:7], -s5', None),
    ('buffer_load_b32 v1, off, s[4:7], |s5|', None),
    ('buffer_load_b32 v1, off, s[4:7], neg(s5)', None),
    ('s_load_b32 s0, s[2:3], -s5', None),
    ('s_load_b32 s0, s[2:3], |s5|', None),
    ('s_load_b32 s0, s[2:3], neg(s5)', None),
    ('v_add_f32_e64 v0, v1, v2 div:2', '000003d501050218'),
    ('v_add_f32_e64 v0, v1, v2 mul:4 mul:2', None),
    ('global_load_b32 v1, v[2:3], off offset:4 offset:8', None),
    ('global_load_b32 v1, v[2:3], off glc glc', None),
    ('v_mov_b32_dpp v0, v1 quad_perm:[0,1,2,3] row_shl:1', None),
    ('v_mov_b32_dpp v0, v1 row_mirror dpp8:[0,1,2,3,4,5,6,7]', None),
    # 64-bit operands: no silent truncation; an inline value is inline
    ('v_add_f64 v[0:1], 0x100000000, v[2:3]', None),
    ('v_add_f64 v[0:1], 1.0, v[2:3]', '000027d7f2040200'),
    ('v_add_f64 v[0:1], 0x3ff0000000000000, v[2:3]', '000027d7f2040200'),
    ('v_add_f64 v[0:1], 0x12345678, v[2:3]', '000027d7ff04020078563412'),
    # inline constants: 0xfffffff0..0xffffffff are -16..-1; abs() folds into constants; fmaak_f16 literal
    ('v_add_f32 v0, 0xfffffff0, v1', 'd0020006'),
    ('v_add_f32 v0, 0xffffffff, v1', 'c1020006'),
    ('v_add_nc_u32 v0, 0xfffffff5, v1', 'cb02004a'),
    ('v_add_f32 v0, abs(-2.0), v1', 'f4020006'),
    ('v_add_f32 v0, abs(0xbf800000), v1', 'f2020006'),
    ('v_add_f32_e64 v0, abs(-2.0), v1', '000103d5f5020200'),
    ('v_fmaak_f16 v0, v1, v2, 0x1234', '0105007034120000'),
    ('v_fmaak_f16 v0, v1, v2, 0x12345678', None),
    ('v_fmaak_f32 v0, v1, v2, 0x123456789', None),
    # number and operand syntax llvm-mc refuses
    ('v_add_f32 v٣, v1, v2', None),
    ('v_add_nc_u32 v0, 1_000, v1', None),
    ('v_add_f32 v0, -01.0, v1', None),
    ('v_add_f32 v0, --14, v1', None),
    ('v_add_f32 v0, --1.0, v1', None),
    ('v_add_nc_u32 v0, --14, v1', '8e02004a'),
    ('s_mov_b32 s0, --14', '8e0080be'),
    ('v_add_nc_u32 v0, vccz, v1', None),
    ('v_add_nc_u32 v0, execz, v1', None),
    ('v_cndmask_b32 v0, v1, v2, vccz', None),
    ('v_readlane_b32 s0, v1, 5', '000060d7010b0100'),
    ('v_readlane_b32 s0, v1, s5', '000060d7010b0000'),
    ('v_readlane_b32 s0, v1, 0x1234', None),
    ('v_add_f16 v0, 1e-8, v1', None),
    ('v_add_f16 v0, 3e-8, v1', None),
    ('v_add_f16 v0, 5.960464477539063e-8, v1', '81020064'),
    ('v_add_f16 v0, 65520.0, v1', None),
    ('s_sendmsg -1', None),
    ('s_sendmsg 65536', None),
    ('s_sendmsg 3', '0300b6bf'),
    # image instructions (more in the golden corpus): data and address register counts, dim names, NSA lists, modifier order
    ('image_load v[0:3], v[4:5], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D', '040f00f004000200'),
    ('image_load v[0:2], v[4:5], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D', None),
    ('image_load v[0:1], v[4:5], s[8:15] dmask:0xf dim:2D d16', '040f02f004000200'),
    ('image_load v[0:4], v[4:5], s[8:15] dmask:0xf dim:2D tfe', '040f00f004002200'),
    ('image_load v0, v4, s[8:15] dmask:0x1 dim:2D a16', '040101f004000200'),
    ('image_load v0, v[4:5], s[8:15] dmask:0x1 dim:2D a16', None),
    ('image_load v0, v4, s[8:15] dmask:0x1', None),
    ('image_load v0, v4, s[8:15] dim:1D dmask:0x1', None),
    ('image_load v0, v4, s[8:15] dmask:0x1 dim:2 D', None),
    ('image_load v0, v4, s[8:15] dmask:0x1 dim:1D glc unorm', None),
    ('image_load v0, v4, s[8:15] dmask:0x1 dim:1D nounorm noglc noslc nodlc nor128 noa16 notfe nolwe nod16', '000100f004000200'),
    ('image_load v0, v4, s[8:15] dmask:0x1 dim:1D noglc noslc nodlc nounorm', None),
    ('image_load v0, v4, s[8:15] dmask:0x1 dim:1D glc noglc', None),
    ('image_load v0, [v4, v9, v2], s[8:15] dmask:0x1 dim:3D', '090100f00400020009020000'),
    ('image_load v0, [v4, v[9:10]], s[8:15] dmask:0x1 dim:3D', None),
    ('image_load v0, [v4], s[8:15] dmask:0x1 dim:1D', '000100f004000200'),
    ('image_load v0, v4, s[9:16] dmask:0x1 dim:1D', None),
    ('image_load v0, v4, null dmask:0x1 dim:1D', None),
    ('image_sample_d v0, [v4, v5, v6, v7, v[8:9]], s[8:15], s[12:15] dmask:0x1 dim:2D', '050170f00400020c05060708'),
    ('image_sample_d v0, [v4, v5, v6, v7, v8, v9], s[8:15], s[12:15] dmask:0x1 dim:2D', None),
    ('image_sample_d v0, v[4:11], s[8:15], s[12:15] dmask:0x1 dim:2D', '040170f00400020c'),
    ('image_sample v0, v4, s[8:15] dmask:0x1 dim:1D', None),
    ('image_gather4 v[0:3], v4, s[8:15], s[12:15] dmask:0x3 dim:1D', None),
    ('image_atomic_swap v0, v4, s[8:15] dmask:0x2 dim:1D', None),
    ('image_atomic_cmpswap v[0:3], v4, s[8:15] dmask:0xf dim:1D glc', '004f2cf004000200'),
    ('image_msaa_load v[0:3], v[4:5], s[8:15] dmask:0x1 dim:2D', None),
    ('image_load_pck v0, v4, s[8:15] dmask:0x1 dim:1D d16', None),
    ('image_bvh_intersect_ray v[0:3], [v4, v5, v[6:8], v[9:11], v[12:14]], s[8:11]', '818f64f0040002000506090c'),
    ('image_bvh_intersect_ray v[0:3], [v4, v5, v[6:8], v[9:11], v[12:14]], s[8:11] a16', None),
    ('image_bvh64_intersect_ray v[0:3], v[4:12], s[8:11] a16', '808f69f004000200'),
    ('image_bvh_intersect_ray v[0:3], v[4:14], s[8:11] glc', None),
    # found by the fuzzer while this was built: no- forms of named bits, v1 [v2] as two operands, scc as buffer soffset, VOPD's implicit vcc
    ('v_add_f32 v0, v1, v2 noclamp', '000003d501050200'),
    ('v_add_f32_e32 v0, v1, v2 noclamp', None),
    ('v_and_b32_e64 v0, v1, v2 noclamp', None),
    ('v_add_f32 v0, v1, v2 mul:2 noclamp', None),
    ('s_load_b32 s0, s[0:1], 0x0 noslc', '000000f4000000f8'),
    ('s_load_b32 s0, s[0:1], 0x0 slc', None),
    ('ds_load_b32 v1, v2 offset:4 nogds', '0400d8d802000001'),
    ('ds_load_b32 v1, v2 nogds offset:4', None),
    ('buffer_load_b32 v1, off, s[4:7], 0 notfe', None),
    ('global_load_b32 v1, v[2:3], off noglc glc', None),
    ('image_sample_d v0 [v4, v5, v6, v7, v[8:9]] s[8:15], s[12:15] dmask:0x1 dim:2D', '050170f00400020c05060708'),
    ('buffer_load_b32 v1, off, s[16:19], scc', '000050e0000104fd'),
    ('s_load_b32 s0, s[0:1], scc', None),
    ('v_dual_cndmask_b32 v0, vcc_lo, v1 :: v_dual_mov_b32 v3, s1', None),
    ('v_dual_cndmask_b32 v0, s1, v1 :: v_dual_mov_b32 v3, s1', '010250ca01000200'),
    ('v_dual_cndmask_b32 v0, vcc_lo, v1 :: v_dual_mov_b32 v3, vcc_lo', '6a0250ca6a000200'),
]


@pytest.mark.parametrize("text, llvm", CASES, ids=[t for t, _ in CASES])
def test_same_bytes_or_same_refusal_as_llvm_mc(text, llvm):
    if llvm is None:
        with pytest.raises(AssemblerError):
            assemble(text)
    else:
        assert assemble(text).hex() == llvm


@pytest.mark.parametrize("text, llvm", [c for c in CASES if c[1] is not None],
                         ids=[t for t, e in CASES if e is not None])
def test_the_bytes_disassemble_to_text_that_assembles_back(text, llvm):
    data = bytes.fromhex(llvm)
    lines = disassemble(data)
    assert b"".join(assemble(line) for line in lines) == data


def test_neg_of_a_literal_means_the_negated_float():
    """neg(0x3f000000) is -0.5 (the sign bit flipped), which is an inline constant."""
    import struct
    assert assemble("v_mul_f32 v0, neg(0x3f000000), v1") == assemble("v_mul_f32 v0, -0.5, v1")
    assert struct.unpack("<f", struct.pack("<I", 0x3F000000 ^ 0x80000000))[0] == -0.5


@pytest.mark.skipif(shutil.which("llvm-mc-19") is None, reason="llvm-mc-19 not installed")
def test_the_recorded_verdicts_are_llvm_mc_19s():
    """The bytes and refusals above are what llvm-mc-19 says today (one process for all)."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                    "scripts"))
    from gen_rdna3_oracle import assemble_lines
    theirs = assemble_lines([text for text, _ in CASES])
    got = [(text, None if err is not None else enc.hex()) for (text, _), (enc, err) in
           zip(CASES, theirs)]
    assert got == CASES

