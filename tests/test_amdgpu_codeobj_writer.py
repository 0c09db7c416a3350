"""Our code object writer: llvm-readelf-19 / llvm-objdump-19 accept what it writes, the
descriptors decode to what the directives said, and the bytes are those whose verdicts are
frozen in tests/data/codeobj/ (scripts/gen_codeobj_golden.py)."""
import io
import json
import re
import shutil
import struct
import subprocess
from types import SimpleNamespace

import pytest
from elftools.elf.elffile import ELFFile

from assembler.amdgpu.codeobject import build_code_object, collect_directives, kernel_specs
from assembler.amdgpu.directives import descriptor_directives, parse_directives
from assembler.amdgpu.elf_reader import load_code_object
from assembler.amdgpu.elf_writer import KernelSpec, elf_hash, write_code_object
from assembler.amdgpu.kernel_descriptor import KernelDescriptor
from assembler.amdgpu.metadata import sorted_map
from assembler.amdgpu.msgpack import unpackb
from assembler.amdgpu.yaml_subset import parse_yaml
from drivers.errors import AssemblerError
from tests.test_amdgpu_codeobj_support import WRITER_FIXTURES, fixture_program, read_data

needs_readelf = pytest.mark.skipif(shutil.which("llvm-readelf-19") is None, reason="llvm-readelf-19 not installed")
needs_objdump = pytest.mark.skipif(shutil.which("llvm-objdump-19") is None, reason="llvm-objdump-19 not installed")
S_ENDPGM = bytes.fromhex("0000b0bf")
S_CODE_END = bytes.fromhex("00009fbf")


def ours(name):
    program, source_text, kernels = fixture_program(name)
    return build_code_object(program, source_text), program, source_text, kernels


def run_tool(tool, args, data, tmp_path, name="k.hsaco"):
    path = tmp_path / name
    path.write_bytes(data)
    r = subprocess.run([tool, *args, str(path)], capture_output=True, text=True)
    return r.returncode, r.stdout.replace(str(path), name), r.stderr


def strip_addresses(disasm):
    """objdump lines without the address part of their trailing '// ADDR: BYTES' comment."""
    return re.sub(r"// [0-9A-F]+: ", "// ", disasm)


def kd_directives(objdump_text):
    """{kernel: {directive: value}} from llvm-objdump-19's decoding of NAME.kd symbols."""
    out, current = {}, None
    for line in objdump_text.splitlines():
        words = line.split()
        if words[:1] == [".amdhsa_kernel"]:
            current = out.setdefault(words[1], {})
        elif current is not None and len(words) == 2 and words[0].startswith(".amdhsa_"):
            current[words[0]] = int(words[1], 0)
    return out


# --- byte-for-byte against the frozen objects --------------------------------------------------

@pytest.mark.parametrize("name", WRITER_FIXTURES)
def test_writer_output_is_the_frozen_object(name):
    assert ours(name)[0] == read_data(f"ours_{name}.hsaco", "rb")


@pytest.mark.parametrize("name", WRITER_FIXTURES)
def test_frozen_readelf_verdict_shows_header_and_metadata(name):
    text = read_data(f"ours_{name}.readelf.txt")
    data, _, _, kernels = ours(name)
    assert "OS/ABI:                            AMDGPU - HSA" in text and "ABI Version:                       3" in text
    assert "Type:                              DYN (Shared object file)" in text
    assert "Machine:                           EM_AMDGPU" in text and "Flags:                             0x41, gfx1100" in text
    assert "NT_AMDGPU_METADATA (AMDGPU Metadata)" in text
    for k in kernels:
        assert re.search(rf"FUNC    GLOBAL PROTECTED +\d+ {k}\n", text)
        assert re.search(rf"64 OBJECT  GLOBAL PROTECTED +\d+ {k}\.kd\n", text)
    printed = parse_yaml(text[text.index("        ---") + 8:text.index("\n...") + 4])
    assert printed == load_code_object(data).metadata


@pytest.mark.parametrize("name", ["saxpy", "implicit"])
def test_frozen_disassembly_equals_clangs(name):
    assert strip_addresses(read_data(f"ours_{name}.disasm.txt")) == strip_addresses(read_data(f"{name}.disasm.txt"))


@pytest.mark.parametrize("name", WRITER_FIXTURES)
def test_frozen_kd_decoding_matches_the_directives(name):
    """llvm-objdump-19 decoded our descriptors to the values the .amdhsa_kernel blocks said."""
    decoded = kd_directives(read_data(f"ours_{name}.kd.txt"))
    program, source_text, kernels = fixture_program(name)
    directives = parse_directives(collect_directives(source_text))
    assert sorted(decoded) == sorted(kernels)
    for block in directives.kernels:
        got = decoded[block.name]
        compared = 0
        for directive, value in block.values.items():
            if directive == ".amdhsa_next_free_vgpr":     # printed as the granulated count
                assert got[directive] == -(-max(1, value) // 8) * 8
            elif directive in got and not directive.startswith(".amdhsa_reserve_") \
                    and directive != ".amdhsa_next_free_sgpr":
                assert got[directive] == value, directive
                compared += 1
        assert compared >= 3
        # and our own decoding of the same bytes agrees with LLVM's
        kd = load_code_object(ours(name)[0]).kernel(block.name).descriptor
        assert got[".amdhsa_kernarg_size"] == kd.kernarg_size
        assert got[".amdhsa_user_sgpr_kernarg_segment_ptr"] == kd.get("ENABLE_SGPR_KERNARG_SEGMENT_PTR")
        assert got[".amdhsa_float_denorm_mode_32"] == kd.get("FLOAT_DENORM_MODE_32")


@pytest.mark.parametrize("name", WRITER_FIXTURES)
def test_our_descriptor_decoding_agrees_with_llvm_objdump(name):
    """Every field llvm-objdump-19 printed for our KDs is what descriptor_directives() reads."""
    decoded = kd_directives(read_data(f"ours_{name}.kd.txt"))
    co = load_code_object(ours(name)[0])
    for kname, printed in decoded.items():
        mine = descriptor_directives(co.kernel(kname).descriptor, co.target)
        checked = {d: v for d, v in printed.items()
                   if not d.startswith(".amdhsa_reserve_") and d != ".amdhsa_next_free_sgpr"}
        assert {d: mine[d] for d in checked} == checked
        assert len(checked) >= 30


def test_descriptor_directives_round_trip_through_a_block():
    """descriptor_directives(kd) written back as a block gives llvm-mc-19's bytes again, for every
    accepted golden block (the SGPR count and .amdhsa_reserve_* choices are not in the KD, so they
    are taken from the original block)."""
    cases = [c for c in json.loads(read_data("kd_golden.json"))["cases"] if "kd" in c]
    for case in cases:
        original = parse_directives(list(enumerate(case["block"].splitlines(), 1)), target=case["target"])
        kept = {d: v for d, v in original.kernels[0].values.items()
                if d == ".amdhsa_next_free_sgpr" or d.startswith(".amdhsa_reserve_")}
        kd = KernelDescriptor.unpack(bytes.fromhex(case["kd"]))
        values = {**descriptor_directives(kd, case["target"]), **kept}
        if ".amdhsa_user_sgpr_count" not in original.kernels[0].values:
            values.pop(".amdhsa_user_sgpr_count")
        if values.get(".amdhsa_shared_vgpr_count") and values.get(".amdhsa_wavefront_size32") == 1:
            del values[".amdhsa_wavefront_size32"]     # the default; llvm-mc refuses it spelled out
        lines = [".amdhsa_kernel k"] + [f" {d} {v}" for d, v in values.items()] + [".end_amdhsa_kernel"]
        again = parse_directives(list(enumerate(lines, 1)), target=case["target"])
        assert again.kernels[0].descriptor.pack().hex() == case["kd"], case["block"]
    assert len(cases) >= 25


# --- live oracle checks ------------------------------------------------------------------------

@needs_readelf
@pytest.mark.parametrize("name", WRITER_FIXTURES)
def test_llvm_readelf_accepts_without_warnings(name, tmp_path):
    rc, out, err = run_tool("llvm-readelf-19", ["-h", "-S", "-l", "-s", "--notes"], ours(name)[0],
                            tmp_path, f"ours_{name}.hsaco")
    assert rc == 0 and err == ""
    assert out == read_data(f"ours_{name}.readelf.txt")


@needs_readelf
def test_llvm_readelf_dynamic_table_and_symbols(tmp_path):
    rc, out, err = run_tool("llvm-readelf-19", ["-d", "--dyn-syms", "-r"], ours("handwritten")[0], tmp_path)
    assert rc == 0 and err == ""
    assert "(HASH)" in out and "(SYMTAB)" in out and "(STRTAB)" in out
    assert re.search(r"FUNC    GLOBAL PROTECTED +\d+ copy\n", out) and "There are no relocations" in out


@needs_objdump
@pytest.mark.parametrize("name", WRITER_FIXTURES)
def test_llvm_objdump_disassembles_and_decodes_kds(name, tmp_path):
    data, _, _, kernels = ours(name)
    rc, out, err = run_tool("llvm-objdump-19", ["-d", "--no-show-raw-insn", "--no-leading-addr"], data, tmp_path)
    assert rc == 0 and err == ""
    assert out.split("Disassembly", 1)[1].split("\n", 1)[1] == read_data(f"ours_{name}.disasm.txt")
    kd_text = ""
    for k in kernels:
        rc, out, err = run_tool("llvm-objdump-19", ["-D", f"--disassemble-symbols={k}.kd"], data, tmp_path)
        assert rc == 0 and err == ""
        kd_text += out.split("Disassembly", 1)[1].split("\n", 1)[1]
    assert kd_text == read_data(f"ours_{name}.kd.txt")


@needs_objdump
def test_handwritten_disassembles_like_llvm_mc_and_lld_output(tmp_path):
    """Same instructions as the llvm-mc-19 + ld.lld-19 object of the same source."""
    args = ["-d", "--no-show-raw-insn", "--no-leading-addr"]
    _, mine, _ = run_tool("llvm-objdump-19", args, ours("handwritten")[0], tmp_path, "a.hsaco")
    _, theirs, _ = run_tool("llvm-objdump-19", args, read_data("handwritten.lld.hsaco", "rb"), tmp_path, "a.hsaco")
    assert strip_addresses(mine) == strip_addresses(theirs)


@pytest.mark.skipif(shutil.which("ld.lld-19") is None or shutil.which("clang-19") is None,
                    reason="ld.lld-19 / clang-19 not installed")
def test_ld_lld_links_against_our_shared_object(tmp_path):
    """ld.lld-19 reads our dynamic section, .dynsym and .hash when linking against the object."""
    (tmp_path / "z.cl").write_text("kernel void z(global int *p) { *p = 1; }\n")
    (tmp_path / "ours.hsaco").write_bytes(ours("handwritten")[0])
    cc = subprocess.run(["clang-19", "-target", "amdgcn-amd-amdhsa", "-mcpu=gfx1100", "-O3", "-x", "cl",
                         "-nogpulib", "-c", "z.cl", "-o", "z.o"], cwd=tmp_path, capture_output=True, text=True)
    assert cc.returncode == 0, cc.stderr
    ld = subprocess.run(["ld.lld-19", "-shared", "z.o", "ours.hsaco", "-o", "zz.hsaco"], cwd=tmp_path,
                        capture_output=True, text=True)
    assert ld.returncode == 0 and ld.stderr == ""


# --- against llvm-mc-19 + ld.lld-19's object for the same source (frozen) --------------------

def test_handwritten_kds_and_note_equal_llvms():
    mine = load_code_object(ours("handwritten")[0])
    theirs = load_code_object(read_data("handwritten.lld.hsaco", "rb"))
    assert list(mine.kernels) == list(theirs.kernels) == ["fill", "copy"]
    for name in mine.kernels:
        a, b = mine.kernel(name), theirs.kernel(name)
        strip = lambda kd: KernelDescriptor(**{**kd.__dict__, "kernel_code_entry_byte_offset": 0}).pack()
        assert strip(a.descriptor) == strip(b.descriptor)
        code_a = mine.image[a.entry_offset:a.entry_offset + 64]
        assert code_a == theirs.image[b.entry_offset:b.entry_offset + 64]
    assert _note(ours("handwritten")[0]) == _note(read_data("handwritten.lld.hsaco", "rb"))


def _note(data):
    sec = ELFFile(io.BytesIO(data)).get_section_by_name(".note").data()
    return sec


def test_clang_kds_equal_ours_except_llvm_mc_rules():
    """Our KDs for clang's own .s equal clang's, except the SGPR granule clang-19 sets on gfx10+."""
    for name in ("saxpy", "implicit"):
        clang = load_code_object(read_data(f"{name}.hsaco", "rb"))
        mine = load_code_object(ours(name)[0])
        for kname, info in clang.kernels.items():
            a, b = info.descriptor, mine.kernel(kname).descriptor
            clang_granules = (info.metadata.sgpr_count + 7) // 8 - 1
            assert a.get("GRANULATED_WAVEFRONT_SGPR_COUNT") == clang_granules
            assert b.get("GRANULATED_WAVEFRONT_SGPR_COUNT") == 0
            b2 = KernelDescriptor(**b.__dict__)
            b2.set("GRANULATED_WAVEFRONT_SGPR_COUNT", clang_granules)
            b2.kernel_code_entry_byte_offset = a.kernel_code_entry_byte_offset
            assert b2 == a
            assert mine.kernel(kname).metadata.raw == info.metadata.raw


# --- structure ---------------------------------------------------------------------------------

def test_layout_rules():
    data = ours("implicit")[0]
    elf = ELFFile(io.BytesIO(data))
    hdr = elf.header
    assert (data[7], data[8]) == (64, 3)          # ELFOSABI_AMDGPU_HSA, code object v5
    assert (hdr["e_type"], hdr["e_machine"], hdr["e_flags"]) == ("ET_DYN", "EM_AMDGPU", 0x41)
    text, rodata = elf.get_section_by_name(".text"), elf.get_section_by_name(".rodata")
    assert text["sh_addr"] % 256 == 0 and rodata["sh_addr"] % 64 == 0
    assert [s["p_type"] for s in elf.iter_segments()] == ["PT_LOAD", "PT_LOAD", "PT_LOAD", "PT_DYNAMIC", "PT_NOTE"]
    for seg in elf.iter_segments():
        assert seg["p_offset"] == seg["p_vaddr"]
    co = load_code_object(data)
    for k in co.kernels.values():
        assert k.entry_offset % 256 == 0 and k.kd_offset % 64 == 0
        assert k.entry_offset == k.kd_offset + k.descriptor.kernel_code_entry_byte_offset


def test_dynsym_hash_table_finds_every_symbol():
    elf = ELFFile(io.BytesIO(ours("handwritten")[0]))
    dynsym = elf.get_section_by_name(".dynsym")
    raw = elf.get_section_by_name(".hash").data()
    nbucket, nchain = struct.unpack_from("<II", raw)
    buckets = struct.unpack_from(f"<{nbucket}I", raw, 8)
    chains = struct.unpack_from(f"<{nchain}I", raw, 8 + 4 * nbucket)
    assert nchain == dynsym.num_symbols()
    for name in ("fill", "fill.kd", "copy", "copy.kd"):
        index = buckets[elf_hash(name) % nbucket]
        while index and dynsym.get_symbol(index).name != name:
            index = chains[index]
        assert index and dynsym.get_symbol(index).name == name


def test_elf_hash_known_values():
    assert elf_hash("") == 0 and elf_hash("printf") == 0x077905A6 and elf_hash("exit") == 0x0006CF04


# --- lower-level writer: raw instruction bytes, synthesized metadata --------------------------

def _kd(**fields):
    kd = KernelDescriptor()
    for name, value in fields.items():
        kd.set(name, value)
    return kd


def test_write_raw_code_with_two_kernels_and_synthesized_metadata():
    code = S_ENDPGM + S_CODE_END * 63 + S_ENDPGM
    kd_a = _kd(ENABLE_WAVEFRONT_SIZE32=1, ENABLE_SGPR_KERNARG_SEGMENT_PTR=1, USER_SGPR_COUNT=2,
               GRANULATED_WORKITEM_VGPR_COUNT=1)
    kd_a.kernarg_size = 24
    kd_b = _kd(ENABLE_WAVEFRONT_SIZE32=0, GRANULATED_WORKITEM_VGPR_COUNT=3)
    kd_b.group_segment_fixed_size = 4096
    data = write_code_object(code, [KernelSpec("a", 0, kd_a, sgpr_count=10), KernelSpec("b", 256, kd_b)])
    co = load_code_object(data)
    a, b = co.kernel("a"), co.kernel("b")
    assert co.image[a.entry_offset:a.entry_offset + 4] == S_ENDPGM == co.image[b.entry_offset:b.entry_offset + 4]
    assert (a.code_size, b.code_size) == (256, 4)
    assert a.descriptor.kernarg_size == 24 and a.descriptor.user_sgpr_count == 2
    assert (a.metadata.kernarg_segment_size, a.metadata.wavefront_size, a.metadata.sgpr_count,
            a.metadata.vgpr_count) == (24, 32, 10, 16)
    assert (b.metadata.group_segment_fixed_size, b.metadata.wavefront_size, b.metadata.vgpr_count) == (4096, 64, 16)
    assert a.metadata.args == [] and co.metadata["amdhsa.target"] == "amdgcn-amd-amdhsa--gfx1100"


# e_flags as clang-19 writes them for the same -mcpu (checked with llvm-readelf-19 -h)
@pytest.mark.parametrize("target,flags", [("gfx1030", 0x36), ("gfx1101", 0x46), ("gfx1102", 0x47),
                                          ("gfx1103", 0x44), ("gfx942", 0x54C), ("gfx90a:xnack+", 0x73F),
                                          ("amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-", 0xE4C)])
def test_e_flags_per_target(target, flags):
    data = write_code_object(S_ENDPGM, [KernelSpec("k", 0, _kd())], target=target)
    co = load_code_object(data)
    assert co.e_flags == flags and co.target.e_flags == flags
    assert co.metadata["amdhsa.target"] == co.target.target_id


def test_write_code_object_errors():
    kd = _kd()
    with pytest.raises(ValueError, match="not 256-byte aligned"):
        write_code_object(S_ENDPGM * 128, [KernelSpec("k", 4, kd)])
    with pytest.raises(ValueError, match="outside the 4-byte code"):
        write_code_object(S_ENDPGM, [KernelSpec("k", 256, kd)])
    with pytest.raises(ValueError, match="listed twice"):
        write_code_object(S_ENDPGM, [KernelSpec("k", 0, kd), KernelSpec("k", 0, kd)])
    with pytest.raises(ValueError, match="at least one kernel"):
        write_code_object(S_ENDPGM, [])
    with pytest.raises(ValueError, match="gfx11-generic is a generic target, which needs code object v6"):
        write_code_object(S_ENDPGM, [KernelSpec("k", 0, kd)], target="gfx11-generic")
    with pytest.raises(ValueError, match="unknown AMDGPU processor 'gfx1'"):
        write_code_object(S_ENDPGM, [KernelSpec("k", 0, kd)], target="gfx1")


# --- build_code_object: the assembler's entry point --------------------------------------------

def test_build_without_metadata_block_synthesizes_it():
    program, source_text, _ = fixture_program("handwritten")
    lines = [(n, t) for n, t in program.directives]
    start = next(i for i, (_, t) in enumerate(lines) if t.startswith(".amdgpu_metadata"))
    program = SimpleNamespace(data=program.data, labels=program.labels, directives=lines[:start])
    co = load_code_object(build_code_object(program, source_text))
    fill, copy = co.kernel("fill").metadata, co.kernel("copy").metadata
    assert (fill.kernarg_segment_size, fill.sgpr_count, fill.vgpr_count, fill.wavefront_size) == (12, 18, 2, 32)
    assert (copy.kernarg_segment_size, copy.sgpr_count) == (16, 16)      # .amdhsa_reserve_vcc 0
    assert fill.max_flat_workgroup_size == 1024 and fill.args == []
    assert co.kernel("copy").descriptor.get("ENABLE_SGPR_DISPATCH_PTR") == 1


def test_build_without_source_text_uses_directive_lines():
    program, source_text, _ = fixture_program("handwritten")
    assert build_code_object(program) == build_code_object(program, source_text)


def _program(source, labels, code=S_ENDPGM):
    return SimpleNamespace(data=code, labels=labels, directives=collect_directives(source))


KERNEL = ".amdhsa_kernel k\n .amdhsa_next_free_vgpr 1\n .amdhsa_next_free_sgpr 1\n.end_amdhsa_kernel\n"


@pytest.mark.parametrize("source,labels,code,message", [
    (KERNEL, {}, S_ENDPGM, "no label 'k:' marks its code"),
    (KERNEL, {"k": 4}, S_ENDPGM * 2, "not 256-byte aligned"),
    (KERNEL, {"k": 256}, S_ENDPGM * 64, "at the end of the code"),
    (".amdgcn_target \"amdgcn-amd-amdhsa--gfx1100\"\n", {}, S_ENDPGM, "no .amdhsa_kernel block"),
    (KERNEL + ".amdgpu_metadata\namdhsa.kernels:\n  - .name: j\n.end_amdgpu_metadata\n", {"k": 0}, S_ENDPGM,
     "describes kernel j but no .amdhsa_kernel j"),
    (KERNEL + ".amdgpu_metadata\namdhsa.target: amdgcn-amd-amdhsa--gfx90a\n.end_amdgpu_metadata\n", {"k": 0},
     S_ENDPGM, "does not match amdgcn-amd-amdhsa--gfx1100"),
    (KERNEL + ".amdgpu_metadata\namdhsa.version: [1, 1]\n.end_amdgpu_metadata\n", {"k": 0}, S_ENDPGM,
     "is not code object v5"),
    (KERNEL + ".amdgpu_metadata\namdhsa.kernels:\n  - .name: k\n    .symbol: x.kd\n.end_amdgpu_metadata\n",
     {"k": 0}, S_ENDPGM, "expected k.kd"),
    (KERNEL + ".amdgpu_metadata\namdhsa.kernels: 3\n.end_amdgpu_metadata\n", {"k": 0}, S_ENDPGM, "must be a list"),
    (KERNEL + ".amdgpu_metadata\n- 1\n.end_amdgpu_metadata\n", {"k": 0}, S_ENDPGM, "expected a YAML map"),
    (KERNEL + ".amdgpu_metadata\namdhsa.kernels:\n  - .symbol: k.kd\n.end_amdgpu_metadata\n", {"k": 0}, S_ENDPGM,
     "every amdhsa.kernels entry needs a .name"),
])
def test_build_errors(source, labels, code, message):
    with pytest.raises(AssemblerError, match=re.escape(message)):
        build_code_object(_program(source, labels, code), source, source="k.s")


def _handwritten_with(old, new):
    program, source_text, _ = fixture_program("handwritten")
    assert old in source_text
    source_text = source_text.replace(old, new)
    return SimpleNamespace(data=program.data, labels=program.labels,
                           directives=collect_directives(source_text)), source_text


@pytest.mark.parametrize("old,new,message", [
    (".value_kind: global_buffer, .address_space: global }", ".value_kind: bogus, .address_space: global }",
     "kernel fill argument 0: unknown .value_kind 'bogus'"),
    (".value_kind: global_buffer, .address_space: global }", ".value_kind: global_buffer, .address_space: far }",
     "kernel fill argument 0: unknown .address_space 'far'"),
    ("    .kernarg_segment_size: 12", "    .kernarg_segment_size: abc", "kernel fill: .kernarg_segment_size is 'abc', expected int"),
    ("    .sgpr_count: 18", "    .sgpr_countx: 18", "kernel fill: missing .sgpr_count"),
    ("    .symbol: fill.kd\n", "", "kernel fill: missing .symbol"),
    ("{ .offset: 0, .size: 8,", "{ .size: 8,", "kernel fill argument 0: missing .offset"),
])
def test_invalid_metadata_block_is_refused_like_llvm_mc(old, new, message):
    """llvm-mc-19 answers 'invalid HSA metadata' to each of these edits of handwritten.s."""
    program, source_text = _handwritten_with(old, new)
    with pytest.raises(AssemblerError) as info:
        build_code_object(program, source_text, source="handwritten.s")
    assert "invalid HSA metadata" in str(info.value) and message in str(info.value)
    assert info.value.line == source_text.splitlines().index(".amdgpu_metadata") + 1


def test_argument_past_the_kernarg_segment_is_refused():
    """Stricter than llvm-mc-19, which accepts an argument ending past .kernarg_segment_size."""
    program, source_text = _handwritten_with("    .kernarg_segment_size: 16", "    .kernarg_segment_size: 12")
    with pytest.raises(AssemblerError, match="kernel copy: argument global_buffer at 8\\+8 ends past "
                                             "\\.kernarg_segment_size 12"):
        build_code_object(program, source_text)


def test_build_error_points_at_the_kernel_line():
    source = "\n\n" + KERNEL
    with pytest.raises(AssemblerError) as info:
        build_code_object(_program(source, {}), source, source="k.s")
    assert info.value.line == 3 and str(info.value).startswith("k.s:3:1: ")


def test_kernel_specs_exposes_target_and_document():
    program, source_text, _ = fixture_program("handwritten")
    tgt, specs, document = kernel_specs(program, source_text)
    assert tgt.processor == "gfx1100" and [s.name for s in specs] == ["fill", "copy"]
    assert [s.entry_offset for s in specs] == [0, 256]
    assert document == sorted_map(parse_yaml(source_text.split(".amdgpu_metadata\n")[1].split(".end_amdgpu_metadata")[0]))
    note = _note(build_code_object(program, source_text))
    assert unpackb(note[20:20 + struct.unpack_from("<I", note, 4)[0]]) == document


def test_mutated_sources_fail_only_with_assembler_errors():
    """Random character edits of handwritten.s: build_code_object either writes an object our
    reader loads, or raises AssemblerError (4,000 such edits passed once; 300 run here)."""
    import random
    program, source_text, _ = fixture_program("handwritten")
    rng = random.Random(7)
    lines, built = source_text.splitlines(), 0
    for _ in range(300):
        edited = list(lines)
        for _ in range(rng.choice([1, 2, 3])):
            j = rng.randrange(len(edited))
            text, p = edited[j], rng.randrange(len(edited[j]) + 1)
            op = rng.random()
            if op < 0.4:
                text = text[:p] + rng.choice(" \t.:-_'\"[]{}#;/0123456789abcxyz") + text[p:]
            elif op < 0.8:
                text = text[:p] + text[p + 1:]
            else:
                text = text[:p]
            edited[j] = text
        source = "\n".join(edited)
        mutated = SimpleNamespace(data=program.data, labels=program.labels, directives=collect_directives(source))
        try:
            load_code_object(build_code_object(mutated, source))
            built += 1
        except AssemblerError:
            pass
    assert 30 < built < 300
