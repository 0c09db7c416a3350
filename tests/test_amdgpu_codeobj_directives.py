"""`.amdhsa_kernel` blocks -> kernel descriptors, checked against llvm-mc-19's (frozen in
tests/data/codeobj/kd_golden.json by scripts/gen_codeobj_golden.py), plus the errors."""
import json
import shutil

import pytest

from assembler.amdgpu.directives import parse_directives
from assembler.amdgpu.expr import ExprError, evaluate
from assembler.amdgpu.kernel_descriptor import KernelDescriptor
from assembler.amdgpu.yaml_subset import YAMLError, parse_yaml
from drivers.errors import AssemblerError
from tests.test_amdgpu_codeobj_support import read_data

GOLDEN = json.loads(read_data("kd_golden.json"))["cases"]


def block_lines(block, first_line=1):
    return list(enumerate(block.splitlines(), first_line))


def our_kd(target, block):
    return parse_directives(block_lines(block), target=target).kernels[0].descriptor


@pytest.mark.parametrize("case", [c for c in GOLDEN if "kd" in c],
                         ids=lambda c: c["target"] + ":" + c["block"].splitlines()[-2].strip())
def test_descriptor_bytes_equal_llvm_mc(case):
    assert our_kd(case["target"], case["block"]).pack().hex() == case["kd"]


@pytest.mark.parametrize("case", [c for c in GOLDEN if "error" in c],
                         ids=lambda c: c["target"] + ":" + c["block"].splitlines()[-2].strip())
def test_llvm_mc_errors_are_errors_here(case):
    """Every block llvm-mc-19 rejects is rejected, with a line inside the block."""
    with pytest.raises(AssemblerError) as info:
        our_kd(case["target"], case["block"])
    err = info.value
    assert 1 <= err.line <= len(case["block"].splitlines())
    if case["error_line"] is None:
        return
    bad = case["block"].splitlines()[case["error_line"] - 1].split()[0]
    if bad == ".end_amdhsa_kernel":
        # llvm-mc reports block-level problems at the end; ours names the directive involved
        assert ".amdhsa_" in str(err)
    else:
        assert err.line == case["error_line"] and bad in str(err)


def test_golden_cover_many_targets_and_errors():
    assert {c["target"] for c in GOLDEN} >= {"gfx1100", "gfx1030", "gfx90a", "gfx942"}
    assert sum("kd" in c for c in GOLDEN) >= 15 and sum("error" in c for c in GOLDEN) >= 15


@pytest.mark.skipif(shutil.which("llvm-mc-19") is None, reason="llvm-mc-19 (oracle) not installed")
def test_golden_file_is_what_llvm_mc_says_now():
    import importlib.util
    import os
    spec = importlib.util.spec_from_file_location(
        "gen", os.path.join(os.path.dirname(__file__), "..", "scripts", "gen_codeobj_golden.py"))
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    for case in GOLDEN[:6] + [c for c in GOLDEN if "error" in c][:3]:
        fresh = gen.llvm_mc_kd(case["target"], case["block"])
        assert fresh == {k: case[k] for k in fresh}


def test_clang_block_with_user_sgpr_count_quirk():
    """clang-19 asks for 15 user SGPRs on gfx1100 even when only the kernarg pointer is used."""
    source = read_data("saxpy.s")
    from assembler.amdgpu.codeobject import collect_directives
    d = parse_directives(collect_directives(source))
    kd = d.kernels[0].descriptor
    assert d.target.processor == "gfx1100" and d.code_object_version == 5
    assert kd.user_sgpr_count == 15 and kd.get("ENABLE_SGPR_KERNARG_SEGMENT_PTR") == 1
    assert kd.kernarg_size == 20 and kd.wave32
    assert d.kernels[0].sgpr_count == 18 and d.kernels[0].vgpr_count == 4   # as the metadata says
    assert d.metadata["amdhsa.kernels"][0][".sgpr_count"] == 18


# --- errors with line, column and directive name -------------------------------------------

def error_of(text, target="gfx1100"):
    with pytest.raises(AssemblerError) as info:
        parse_directives(block_lines(text), target=target, source="k.s")
    return info.value


BASE = ".amdhsa_kernel k\n .amdhsa_next_free_vgpr 4\n .amdhsa_next_free_sgpr 4\n"


def test_unknown_directive_in_block():
    err = error_of(BASE + " .amdhsa_bogus 1\n.end_amdhsa_kernel")
    assert (err.line, err.column) == (4, 2) and ".amdhsa_bogus" in str(err) and "unknown" in str(err)
    assert str(err).startswith("k.s:4:2: ")


def test_unknown_top_level_directive():
    err = error_of(".amdhsa_frobnicate 3")
    assert err.line == 1 and "unknown directive .amdhsa_frobnicate" in str(err)


def test_kernel_directive_outside_block():
    err = error_of(".amdhsa_next_free_vgpr 3")
    assert "only allowed inside .amdhsa_kernel" in str(err)


def test_missing_end():
    err = error_of(BASE)
    assert err.line == 1 and "missing .end_amdhsa_kernel" in str(err)


def test_missing_end_before_next_kernel():
    err = error_of(BASE + ".amdhsa_kernel j\n.end_amdhsa_kernel")
    assert err.line == 1 and "missing .end_amdhsa_kernel" in str(err)


def test_end_without_start():
    assert "without a matching .amdhsa_kernel" in str(error_of(".end_amdhsa_kernel"))


def test_missing_metadata_end():
    err = error_of(".amdgpu_metadata\n---\namdhsa.version: [1, 2]\n")
    assert err.line == 1 and "missing .end_amdgpu_metadata" in str(err)


def test_bad_value():
    err = error_of(BASE + " .amdhsa_ieee_mode yes\n.end_amdhsa_kernel")
    assert (err.line, err.column) == (4, 20) and ".amdhsa_ieee_mode: bad value" in str(err)


def test_value_out_of_range_names_directive_and_range():
    err = error_of(BASE + " .amdhsa_float_denorm_mode_32 4\n.end_amdhsa_kernel")
    assert err.line == 4 and ".amdhsa_float_denorm_mode_32: value 4 out of range (0..3)" in str(err)


def test_negative_register_count():
    err = error_of(".amdhsa_kernel k\n .amdhsa_next_free_vgpr -1\n .amdhsa_next_free_sgpr 4\n.end_amdhsa_kernel")
    assert err.line == 2 and "out of range" in str(err)


def test_too_many_vgprs():
    err = error_of(".amdhsa_kernel k\n .amdhsa_next_free_vgpr 600\n .amdhsa_next_free_sgpr 4\n.end_amdhsa_kernel")
    assert err.line == 2 and ".amdhsa_next_free_vgpr" in str(err)


def test_too_many_sgprs_on_gfx9():
    err = error_of(".amdhsa_kernel k\n .amdhsa_next_free_vgpr 1\n .amdhsa_next_free_sgpr 200\n"
                   " .amdhsa_accum_offset 4\n.end_amdhsa_kernel", target="gfx90a")
    assert err.line == 3 and ".amdhsa_next_free_sgpr" in str(err)


def test_repeated_directive():
    err = error_of(BASE + " .amdhsa_next_free_vgpr 4\n.end_amdhsa_kernel")
    assert err.line == 4 and "cannot be repeated" in str(err)


def test_required_directive():
    err = error_of(".amdhsa_kernel k\n .amdhsa_next_free_vgpr 4\n.end_amdhsa_kernel")
    assert err.line == 3 and ".amdhsa_next_free_sgpr directive is required" in str(err)


def test_kernel_name_missing_and_duplicate():
    assert "expected a kernel symbol name" in str(error_of(".amdhsa_kernel\n.end_amdhsa_kernel"))
    err = error_of(BASE + ".end_amdhsa_kernel\n" + BASE + ".end_amdhsa_kernel")
    assert err.line == 5 and "already defined" in str(err)


def test_user_sgpr_count_below_implied():
    err = error_of(BASE + " .amdhsa_user_sgpr_dispatch_ptr 1\n .amdhsa_user_sgpr_count 1\n.end_amdhsa_kernel")
    assert err.line == 5 and "smaller than the 2 user SGPRs" in str(err)


def test_target_dependent_directives():
    assert "architected flat scratch" in str(error_of(BASE + " .amdhsa_user_sgpr_flat_scratch_init 1\n"
                                                              ".end_amdhsa_kernel"))
    assert "requires gfx10+" in str(error_of(BASE + " .amdhsa_wavefront_size32 1\n .amdhsa_accum_offset 4\n"
                                                     ".end_amdhsa_kernel", target="gfx942"))


def test_amdgcn_target_checks():
    d = parse_directives([(1, '.amdgcn_target "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-"')])
    assert d.target.e_flags == 0xE4C and d.target_line == 1
    assert "does not match the specified target" in str(
        error_of('.amdgcn_target "amdgcn-amd-amdhsa--gfx1030"', target="gfx1100"))
    assert "unknown AMDGPU processor 'gfx9999'" in str(error_of('.amdgcn_target "amdgcn-amd-amdhsa--gfx9999"'))
    assert "expected a quoted target id" in str(error_of(".amdgcn_target gfx1100"))
    assert "bad target feature" in str(error_of('.amdgcn_target "amdgcn-amd-amdhsa--gfx942:ecc+"'))
    assert "must start with amdgcn-amd-amdhsa--" in str(error_of('.amdgcn_target "gfx1100"'))
    with pytest.raises(AssemblerError) as info:
        parse_directives(block_lines('.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"\n'
                                     '.amdgcn_target "amdgcn-amd-amdhsa--gfx1101"'))
    err = info.value
    assert err.line == 2 and "differs from amdgcn-amd-amdhsa--gfx1100 on line 1" in str(err)
    same = '.amdgcn_target "amdgcn-amd-amdhsa--gfx1101"\n'
    assert parse_directives(block_lines(same * 2)).target.processor == "gfx1101"


def test_one_metadata_block_only():
    block = ".amdgpu_metadata\namdhsa.version: [1, 2]\n.end_amdgpu_metadata\n"
    err = error_of(block + block)
    assert err.line == 4 and "only one metadata block is allowed" in str(err)


def test_code_object_version():
    assert parse_directives([(1, ".amdhsa_code_object_version 5")]).code_object_version == 5
    err = error_of(".amdhsa_code_object_version 4")
    assert "only code object version 5" in str(err)


def test_comments_and_expressions_are_accepted():
    d = parse_directives(block_lines(BASE + " .amdhsa_kernarg_size (8*3)+4 ; explicit args\n"
                                            " .amdhsa_group_segment_fixed_size 1<<10 // LDS\n"
                                            ".end_amdhsa_kernel"))
    kd = d.kernels[0].descriptor
    assert (kd.kernarg_size, kd.group_segment_fixed_size) == (28, 1024)


def test_metadata_block_yaml_errors_carry_source_line():
    err = error_of("\n.amdgpu_metadata\n---\namdhsa.kernels:\n  - .name: k\n   .bad: 1\n.end_amdgpu_metadata")
    assert err.line == 6 and "indentation" in str(err)


# --- expressions and the YAML subset ----------------------------------------------------------

@pytest.mark.parametrize("text,value", [("0x1f", 31), ("0b101", 5), ("017", 15), ("-(2+3)*4", -20),
                                        ("~0 & 0xff", 255), ("7/2", 3), ("-7/2", -3), ("1<<4|1", 17)])
def test_expressions(text, value):
    assert evaluate(text) == value


@pytest.mark.parametrize("text,offset", [("abc", 0), ("1 +", 3), ("(1", 2), ("1/0", 1), ("08", 0), ("1<<99", 1)])
def test_expression_errors(text, offset):
    with pytest.raises(ExprError) as info:
        evaluate(text)
    assert info.value.offset == offset


def test_yaml_of_llvm_readelf_notes_matches_the_note():
    """The YAML llvm-readelf-19 prints and the msgpack note of the same file parse identically."""
    from assembler.amdgpu.elf_reader import load_code_object
    notes = read_data("implicit.notes.txt")
    yaml_doc = parse_yaml(notes[notes.index("---"):notes.index("\n...") + 4])
    co = load_code_object(read_data("implicit.hsaco", "rb"))
    assert yaml_doc == co.metadata


def test_yaml_scalars_and_flow():
    doc = parse_yaml("---\na: 'it''s'\nb: \"x\\ty\"\nc: [1, 2]\nd: {}\ne: ~\nf: 1.5\ng: -3\nh: true\n"
                     "i:\n- 1\n- x: 2\n  y: 3\nj: { .offset: 0, .size: 8 }\n...\n")
    assert doc == {"a": "it's", "b": "x\ty", "c": [1, 2], "d": {}, "e": None, "f": 1.5, "g": -3,
                   "h": True, "i": [1, {"x": 2, "y": 3}], "j": {".offset": 0, ".size": 8}}


@pytest.mark.parametrize("text,line,reason", [
    ("a: 1\na: 2", 2, "duplicate key"), ("a: 'x", 1, "unterminated"), ("a: &x 1\n", 1, "unsupported"),
    ("- 1\nb: 2", 2, "unexpected"), ("a: |\n  text", 1, "unsupported YAML construct '|'"),
    ("&a x: 1", 1, "unsupported YAML construct '&'"), ("a: 'x' y", 1, "text after quoted string"),
    ("a: 1\n  b: 2", 2, "unexpected indentation"), ("a: 1\njust text", 2, "expected 'key: value'"), ("a:\n\tb: 1", 2, "tab"), ("---\na: 1\n---\nb: 2", 3, "one YAML document"),
    ("a: [1", 1, "unterminated flow"), ("a: {b: 1", 1, "unterminated flow"), ("a: {b}", 1, "flow mapping"),
    ("a: {b: 1, b: 2}", 1, "duplicate key")])
def test_yaml_errors(text, line, reason):
    with pytest.raises(YAMLError) as info:
        parse_yaml(text)
    assert info.value.line == line and reason in str(info.value)


# --- the descriptor object -------------------------------------------------------------------

def test_descriptor_fields_round_trip():
    kd = KernelDescriptor(group_segment_fixed_size=256, kernarg_size=24, kernel_code_entry_byte_offset=-4096)
    kd.set("USER_SGPR_COUNT", 2)
    kd.set("ENABLE_VGPR_WORKITEM_ID", 2)
    kd.set("GRANULATED_WORKITEM_VGPR_COUNT", 5)
    kd.set("ENABLE_WAVEFRONT_SIZE32", 1)
    raw = kd.pack()
    assert len(raw) == 64 and raw[0x10:0x18] == (-4096).to_bytes(8, "little", signed=True)
    back = KernelDescriptor.unpack(raw)
    assert back == kd and back.get("ENABLE_VGPR_WORKITEM_ID") == 2 and back.user_sgpr_count == 2
    assert back.decoded()["compute_pgm_rsrc1"]["GRANULATED_WORKITEM_VGPR_COUNT"] == 5
    with pytest.raises(ValueError, match="USER_SGPR_COUNT = 32 does not fit in 5 bits"):
        kd.set("USER_SGPR_COUNT", 32)
    with pytest.raises(KeyError):
        kd.get("NO_SUCH_FIELD")


def test_quoted_keys():
    assert parse_yaml("'a b': 1\n\"c\": [x]") == {"a b": 1, "c": ["x"]}


def test_descriptor_pack_out_of_range():
    with pytest.raises(ValueError, match="kernel descriptor field out of range"):
        KernelDescriptor(kernarg_size=-1).pack()


def test_target_parse_errors():
    from assembler.amdgpu.targets import parse_target
    with pytest.raises(ValueError, match="must be 'amdgcn-amd-amdhsa--<processor>'"):
        parse_target("amdgcn-amd-amdhsa-gfx1100")
    with pytest.raises(ValueError, match="gfx1100 does not support xnack"):
        parse_target("gfx1100:xnack+")
    assert parse_target("gfx90a:sramecc-:xnack+").target_id == "amdgcn-amd-amdhsa--gfx90a:sramecc-:xnack+"


def test_descriptor_unpack_errors():
    from drivers.errors import MalformedInput
    with pytest.raises(MalformedInput, match="truncated: 10 of 64 bytes"):
        KernelDescriptor.unpack(b"\0" * 10)
    bad = bytearray(64)
    bad[0x20] = 1
    with pytest.raises(MalformedInput, match="reserved bytes 0x18..0x2b"):
        KernelDescriptor.unpack(bytes(bad))


def test_granule_helpers():
    from assembler.amdgpu.kernel_descriptor import (granulated_lds_size, granulated_wavefront_sgpr_count,
                                                    granulated_workitem_vgpr_count, vgprs_from_granules)
    assert [granulated_workitem_vgpr_count(n, True) for n in (0, 1, 8, 9, 256)] == [0, 0, 0, 1, 31]
    assert [granulated_workitem_vgpr_count(n, False) for n in (4, 5, 256)] == [0, 1, 63]
    assert granulated_workitem_vgpr_count(9, False, gfx90a_class=True) == 1
    assert vgprs_from_granules(1, True) == 16
    assert granulated_wavefront_sgpr_count(106, 11) == 0 and granulated_wavefront_sgpr_count(15, 9) == 1
    assert granulated_lds_size(0) == 0 and granulated_lds_size(513) == 2


# --- randomized blocks against the live oracle ---------------------------------------------------

def _random_blocks(rng, target, count):
    """Blocks setting random subsets of the bit-field directives to random in-range values."""
    from assembler.amdgpu.directives import _BITS, _WORDS, _field
    from assembler.amdgpu.targets import parse_target
    tgt = parse_target(target)
    usable = [d for d, (reg, f, req) in _BITS.items() if req(tgt) is None]
    blocks = []
    for i in range(count):
        vgprs = rng.randrange(0, 257)
        lines = [f".amdhsa_kernel k{i}", f"  .amdhsa_next_free_vgpr {vgprs}",
                 f"  .amdhsa_next_free_sgpr {rng.randrange(0, 107 if tgt.major >= 10 else 103)}"]
        if tgt.gfx90a_class:
            lines.append(f"  .amdhsa_accum_offset {4 * rng.randrange(1, (max(1, vgprs) + 3) // 4 + 1)}")
        for directive in rng.sample(usable, rng.randrange(0, len(usable))):
            reg, fname, _ = _BITS[directive]
            width = _field(reg, fname, tgt).width
            lines.append(f"  {directive} {rng.randrange(0, 1 << width)}")
        for directive in rng.sample(sorted(_WORDS), rng.randrange(0, 4)):
            lines.append(f"  {directive} {rng.choice([0, 4, 256, 65536, rng.randrange(1 << 32)])}")
        if rng.random() < 0.3:
            lines.append(f"  .amdhsa_reserve_vcc {rng.randrange(2)}")
        lines.append(".end_amdhsa_kernel")
        blocks.append("\n".join(lines))
    return blocks


def _llvm_mc(tmp_path, target, blocks):
    """(returncode, stderr, .rodata bytes) of llvm-mc-19 on kernels k0..kN with these blocks."""
    import subprocess
    from elftools.elf.elffile import ELFFile
    src = [".text"] + [f".p2align 8\nk{i}:\n  s_endpgm" for i in range(len(blocks))] + [".rodata"]
    src += [".p2align 6\n" + b for b in blocks]
    (tmp_path / "r.s").write_text("\n".join(src) + "\n")
    r = subprocess.run(["llvm-mc-19", "-triple=amdgcn-amd-amdhsa", f"-mcpu={target}", "-filetype=obj",
                        "r.s", "-o", "r.o"], cwd=tmp_path, capture_output=True, text=True)
    if r.returncode:
        return r.returncode, r.stderr, b""
    with open(tmp_path / "r.o", "rb") as f:
        return 0, r.stderr, ELFFile(f).get_section_by_name(".rodata").data()


@pytest.mark.skipif(shutil.which("llvm-mc-19") is None, reason="llvm-mc-19 (oracle) not installed")
@pytest.mark.parametrize("target", ["gfx1100", "gfx1030", "gfx942"])
def test_random_blocks_agree_with_llvm_mc(target, tmp_path):
    """200 random blocks per target: the ones we accept give llvm-mc-19's descriptor bytes (one
    llvm-mc run for all of them); the ones we refuse, llvm-mc-19 refuses too."""
    import random
    rng = random.Random(f"kd-{target}")
    accepted, refused = [], []
    for i, block in enumerate(_random_blocks(rng, target, 200)):
        try:
            kd = parse_directives(block_lines(block), target=target).kernels[0].descriptor
            accepted.append((block.replace(f"k{i}", f"k{len(accepted)}"), kd.pack()))
        except AssemblerError as err:
            refused.append((block.replace(f"k{i}", "k0"), err))
    rc, err, rodata = _llvm_mc(tmp_path, target, [b for b, _ in accepted])
    assert rc == 0, err[:2000]
    for i, (block, mine) in enumerate(accepted):
        assert mine.hex() == rodata[64 * i:64 * i + 64].hex(), block
    assert len(accepted) >= 150
    for block, our_error in refused[:15]:
        rc, err, _ = _llvm_mc(tmp_path, target, [block])
        assert rc != 0, f"llvm-mc-19 accepts what we refused ({our_error}):\n{block}"
