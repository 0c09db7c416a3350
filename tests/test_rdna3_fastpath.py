"""The compiled per-mnemonic encoders (assembler/rdna3/fastpath.py) and the assembler's other
shortcuts give what the general path gives, and really take the statements they are built for."""
import os
import sys

import pytest

from assembler.errors import AssemblerError
from assembler.rdna3 import asm, assemble, assemble_program, fastpath
from assembler.rdna3.lexer import LexError, parse_source
from assembler.rdna3.operands import is_register_name

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts"))
from bench_asm import program  # noqa: E402

# each shape a compiled encoder is written for, with the operands that take its other branches
SHAPES = {
    "vopd": ["v_dual_mul_f32 v10, v4, v8 :: v_dual_add_f32 v11, v5, v9",
             "v_dual_mov_b32 v0, 0x1234 :: v_dual_add_f32 v1, s5, v9",
             "v_dual_mov_b32 v0, s1 :: v_dual_mov_b32 v1, s1",
             "v_dual_mov_b32 v0, lds_direct :: v_dual_mov_b32 v1, v2",
             "v_dual_fmac_f32 v0, v1, v2 :: v_dual_fmac_f32 v3, v4, v5",
             "v_dual_cndmask_b32 v0, s1, v2 :: v_dual_mov_b32 v1, v3",
             "v_dual_add_f32 v0, 1.0, v2 :: v_dual_sub_f32 v1, 0.5, v7"],
    "vop3 modifiers": ["v_add_f32_e64 v1, -v2, |v3| clamp", "v_fma_f32 v1, -|v2|, v3, -v4 mul:2",
                       "v_mad_u64_u32 v[2:3], null, s4, v5, v[6:7]", "v_add_f32_e64 v1, -s2, 0.5 div:2",
                       "v_max_f32_e64 v1, |v2|, -1.0 clamp", "v_mul_f32_e64 v0, v1, 0x1234 mul:4"],
    "smem": ["s_load_b64 s[2:3], s[4:5], 0x10", "s_load_b32 s7, s[4:5], 0x1fc", "s_load_b128 s[4:7], s[0:1], 0",
             "s_buffer_load_b32 s1, s[4:7], 0x40"],
    "alu": ["s_add_u32 s1, s2, -17", "s_add_u32 s1, s2, 0x1234", "v_add_f32_e32 v1, s3, v2",
            "v_cmp_gt_f32_e32 vcc_lo, 0.5, v3", "v_cmp_eq_u32_e64 s1, v2, 100", "v_mov_b32_e32 v0, -4.0",
            "s_and_b64 s[2:3], s[4:5], exec", "v_cndmask_b32_e32 v0, s1, v2, vcc_lo"],
    "memory": ["global_load_b32 v1, v[2:3], off offset:-16", "global_store_b32 v1, v2, s[4:5]",
               "ds_load_b32 v1, v2 offset:40", "ds_store_b32 v1, v2"],
}
# statements the compiled encoders must leave to the general path (which words their errors)
BAIL = ["v_dual_mov_b32 v0, v1 :: v_dual_mov_b32 v2, v3",          # two even destinations
        "v_dual_add_f32 v0, v4, v1 :: v_dual_add_f32 v1, v8, v3",   # src0 in the same bank
        "v_dual_add_f32 v0, v1, v4 :: v_dual_add_f32 v1, v2, v8",   # vsrc1 in the same bank
        "v_dual_mov_b32 v0, 0x1234 :: v_dual_mov_b32 v1, 0x5678",   # two literals
        "v_dual_cndmask_b32 v0, s1, v2 :: v_dual_mov_b32 v1, s3",   # vcc + two SGPRs
        "v_add_f32_e64 v1, v2, v3 clamp clamp", "v_add_f32_e64 v1, v2, v3 mul:2 clamp",
        "s_load_b32 s1, s[2:3], s4", "v_add_f32_e32 v1, s3, s4"]


def _general_path(monkeypatch):
    """Assembly with every compiled encoder switched off."""
    asm.clear_caches()
    monkeypatch.setattr(asm, "encoder", lambda *args: False)
    monkeypatch.setattr(fastpath, "_ENCODERS", {})
    monkeypatch.setattr(asm._fast, "_ENCODERS", fastpath._ENCODERS)


def _each(texts):
    out = []
    for t in texts:
        try:
            out.append(assemble(t))
        except AssemblerError as e:
            out.append(e.reason)
    return out


def test_compiled_encoders_agree_with_the_general_path(monkeypatch):
    texts = program(3000, seed=7).splitlines() + [t for ts in SHAPES.values() for t in ts] + BAIL
    asm.clear_caches()
    fast = _each(texts)
    whole = assemble("\n".join(texts[:3000]))
    with monkeypatch.context() as m:
        _general_path(m)
        slow = _each(texts)
        assert assemble("\n".join(texts[:3000])) == whole
    asm.clear_caches()
    assert [(t, a, b) for t, a, b in zip(texts, fast, slow) if a != b] == []


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_the_shapes_they_are_built_for_take_them(shape):
    asm.clear_caches()
    for text in SHAPES[shape]:
        mnem, _, rest = text.partition(" ")
        assert asm.encoder(mnem, asm.PLAIN, asm.FAST)(rest) == assemble(text), text


def test_statements_they_cannot_decide_go_to_the_general_path():
    asm.clear_caches()
    for text in BAIL:
        mnem, _, rest = text.partition(" ")
        fn = asm.encoder(mnem, asm.PLAIN, asm.FAST)
        assert not fn or fn(rest) is None, text


def test_register_ranges_parse_as_the_tokenizer_reads_them():
    for text in ("s[2:3]", "v[4:7]", "ttmp[4:7]", "s[100:101]"):
        quick = parse_source(text, True, False, is_register_name)
        slow = parse_source(" " + text, True, False, is_register_name)        # the tokenizer's way
        assert (quick.reg, quick.neg, quick.abs, quick.value) == (slow.reg, False, False, None) == (text, False,
                                                                                                   False, None)
    with pytest.raises(LexError):
        parse_source("s[2:3", True, False, is_register_name)


@pytest.mark.parametrize("tok", ["-v1", "|-1.0|", "neg(1.0)"])
def test_an_operand_is_read_under_each_modifier_syntax_apart(tok):
    """An operand's lexed form is kept per modifier syntax: read where -x / |x| are modifiers, it
    is still refused where they are not (llvm-mc's words), never encoded from the first reading."""
    asm.clear_caches()
    assemble("v_add_f32_e64 v0, %s, v2" % tok)
    for text in ("v_add_nc_u32_e64 v0, %s, v2" % tok, "v_dual_mul_f32 v0, v4, v8 :: v_dual_lshlrev_b32 v1, %s, v9"
                 % tok):
        with pytest.raises(AssemblerError, match="does not take an? (negation|absolute-value) modifier here$"):
            assemble(text)


def test_lines_are_worked_out_on_first_use_as_recorded():
    text = "start:\n  s_mov_b32 s0, 0 ; zero\n.p2align 4\nv_dual_mov_b32 v0, v1 :: v_dual_mov_b32 v3, v2\n" \
           "  s_cbranch_scc0 start\ns_endpgm\n"
    lazy = assemble_program(text)
    assert lazy._lines is None
    recorded = assemble_program(text, record_lines=True).lines
    assert lazy.lines == recorded == [(0, 2, "  s_mov_b32 s0, 0 ; zero"), (16, 4, text.splitlines()[3]),
                                      (24, 5, "  s_cbranch_scc0 start"), (28, 6, "s_endpgm")]


def test_the_committed_mnemonic_index_is_what_the_tables_give():
    """index_table.py is generated (scripts/gen_rdna3_index.py): stale, it would send mnemonics to
    forms tables.py no longer has."""
    from assembler.rdna3 import encode_alu
    from assembler.rdna3.mnemonics import build_index
    built = build_index()
    assert sorted(built) == sorted(asm.INDEX)
    assert [n for n in built if built[n] != asm.INDEX[n]] == []
    assert {name: dict(pairs) for name, pairs in encode_alu.SRC_SYNTAX.items()} == encode_alu.build_src_syntax()
    assert "v_add_f32" in asm.INDEX and "v_add_f32_e33" not in asm.INDEX and asm.INDEX.get("nope") is None
