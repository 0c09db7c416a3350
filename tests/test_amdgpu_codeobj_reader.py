"""Reading code objects built by clang-19 + ld.lld-19 (tests/data/codeobj/*.hsaco): descriptors,
entry points, argument metadata with code object v5 hidden arguments, relocations, and clear
errors for everything a loader must refuse. Expected values come from the frozen
llvm-readelf-19 output (NAME.syms.txt, NAME.notes.txt) and clang's own assembly (NAME.s)."""
import io
import re
import struct

import pytest
from elftools.elf.elffile import ELFFile

from assembler.amdgpu.codeobject import collect_directives
from assembler.amdgpu.directives import parse_directives
from assembler.amdgpu.elf_reader import load_code_object
from assembler.amdgpu.targets import parse_target
from assembler.amdgpu.yaml_subset import parse_yaml
from drivers.errors import MalformedInput
from tests.test_amdgpu_codeobj_support import CLANG_FIXTURES, read_data


def load(name):
    return load_code_object(read_data(f"{name}.hsaco", "rb"), f"{name}.hsaco")


def frozen_symbols(name):
    """{name: (value, size, type)} of the .symtab section as llvm-readelf-19 printed it."""
    text = read_data(f"{name}.syms.txt").split("Symbol table '.symtab'")[1]
    syms = {}
    for m in re.finditer(r"^\s+\d+: ([0-9a-f]{16}) +(\d+) (\w+) +\w+ +\w+ +\S+ (\S+)$", text, re.M):
        syms[m.group(4)] = (int(m.group(1), 16), int(m.group(2)), m.group(3))
    return syms


def frozen_notes(name):
    text = read_data(f"{name}.notes.txt")
    return parse_yaml(text[text.index("        ---") + 8:text.index("\n...") + 4])


@pytest.mark.parametrize("name", CLANG_FIXTURES)
def test_header_target_and_kernels(name):
    co = load(name)
    assert co.target.processor == "gfx1100" and co.e_flags == 0x41 and co.code_object_version == 5
    kernels = [k[".name"] for k in frozen_notes(name)["amdhsa.kernels"]]
    assert list(co.kernels) == kernels


@pytest.mark.parametrize("name", CLANG_FIXTURES)
def test_descriptor_and_entry_offsets_equal_readelf_symbols(name):
    co, syms = load(name), frozen_symbols(name)
    for kname, info in co.kernels.items():
        assert (info.kd_offset, 64, "OBJECT") == syms[f"{kname}.kd"]
        assert info.entry_offset == syms[kname][0] and info.code_size == syms[kname][1]
        assert syms[kname][2] == "FUNC"


@pytest.mark.parametrize("name", CLANG_FIXTURES)
def test_descriptor_fields_equal_clangs_directives(name):
    co = load(name)
    blocks = parse_directives(collect_directives(read_data(f"{name}.s"))).kernels
    assert len(blocks) == len(co.kernels)
    for block in blocks:
        kd, expected = co.kernel(block.name).descriptor, block.descriptor
        v = block.values
        assert kd.kernarg_size == v[".amdhsa_kernarg_size"]
        assert kd.group_segment_fixed_size == v[".amdhsa_group_segment_fixed_size"]
        assert kd.private_segment_fixed_size == v[".amdhsa_private_segment_fixed_size"]
        assert kd.user_sgpr_count == v[".amdhsa_user_sgpr_count"] == 15        # amd.md §3.3 quirk (a)
        assert kd.get("ENABLE_SGPR_KERNARG_SEGMENT_PTR") == v[".amdhsa_user_sgpr_kernarg_segment_ptr"]
        assert kd.get("ENABLE_SGPR_DISPATCH_PTR") == v[".amdhsa_user_sgpr_dispatch_ptr"]
        assert kd.get("ENABLE_VGPR_WORKITEM_ID") == v[".amdhsa_system_vgpr_workitem_id"]
        assert kd.get("ENABLE_SGPR_WORKGROUP_ID_X") == v[".amdhsa_system_sgpr_workgroup_id_x"]
        assert kd.get("FLOAT_DENORM_MODE_32") == v[".amdhsa_float_denorm_mode_32"]
        assert kd.get("ENABLE_IEEE_MODE") == v[".amdhsa_ieee_mode"]
        assert kd.get("WGP_MODE") == v[".amdhsa_workgroup_processor_mode"]
        assert kd.wave32 == bool(v[".amdhsa_wavefront_size32"])
        assert kd.get("GRANULATED_WORKITEM_VGPR_COUNT") == (v[".amdhsa_next_free_vgpr"] - 1) // 8
        # clang-19 itself writes an SGPR granule on gfx1100 that llvm-mc zeroes (quirk (b))
        assert kd.get("GRANULATED_WAVEFRONT_SGPR_COUNT") == (block.sgpr_count + 7) // 8 - 1
        assert kd.compute_pgm_rsrc2 == expected.compute_pgm_rsrc2
        assert kd.compute_pgm_rsrc3 == expected.compute_pgm_rsrc3
        assert kd.kernel_code_properties == expected.kernel_code_properties


def test_saxpy_known_descriptor_words():
    """The values amd.md §5 lists for this kernel: rsrc1 0x60AF0080, rsrc2 0x9E, properties 0x408."""
    kd = load("saxpy").kernel("saxpy").descriptor
    assert (kd.compute_pgm_rsrc1, kd.compute_pgm_rsrc2, kd.kernel_code_properties) == (0x60AF0080, 0x9E, 0x408)
    assert kd.get("USER_SGPR_COUNT") == 15 and kd.kernel_code_entry_byte_offset == 0x1600 - 0x540


@pytest.mark.parametrize("name", CLANG_FIXTURES)
def test_argument_metadata_equals_readelf_notes(name):
    co = load(name)
    for kmap in frozen_notes(name)["amdhsa.kernels"]:
        meta = co.kernel(kmap[".name"]).metadata
        assert meta.symbol == kmap[".symbol"]
        assert [(a.offset, a.size, a.value_kind, a.address_space, a.type_name) for a in meta.args] == \
            [(a[".offset"], a[".size"], a[".value_kind"], a.get(".address_space", ""), a.get(".type_name", ""))
             for a in kmap.get(".args", [])]
        for key in ("kernarg_segment_size", "kernarg_segment_align", "group_segment_fixed_size",
                    "private_segment_fixed_size", "wavefront_size", "sgpr_count", "vgpr_count",
                    "max_flat_workgroup_size"):
            assert getattr(meta, key) == kmap["." + key], key


def test_hidden_arguments_of_code_object_v5():
    meta = load("implicit").kernel("grid_info").metadata
    assert [(a.offset, a.size, a.value_kind) for a in meta.explicit_args] == [(0, 8, "global_buffer"), (8, 4, "by_value")]
    hidden = {a.value_kind: (a.offset, a.size) for a in meta.hidden_args}
    assert hidden["hidden_block_count_x"] == (16, 4) and hidden["hidden_block_count_z"] == (24, 4)
    assert hidden["hidden_group_size_x"] == (28, 2) and hidden["hidden_group_size_z"] == (32, 2)
    assert hidden["hidden_remainder_x"] == (34, 2) and hidden["hidden_remainder_z"] == (38, 2)
    assert hidden["hidden_global_offset_x"] == (56, 8) and hidden["hidden_grid_dims"] == (80, 2)
    assert meta.arg("hidden_group_size_y").offset == 30 and meta.kernarg_segment_size == 272
    assert all(a.hidden for a in meta.hidden_args)
    with pytest.raises(KeyError, match="no argument 'hidden_heap_v1'"):
        meta.arg("hidden_heap_v1")
    lds = load("implicit").kernel("lds_reverse")
    assert lds.metadata.group_segment_fixed_size == 256 == lds.descriptor.group_segment_fixed_size
    assert lds.metadata.hidden_args == []
    tail = load("implicit").kernel("tail").metadata
    assert [(a.offset, a.value_kind, a.address_space) for a in tail.explicit_args] == \
        [(0, "global_buffer", "global"), (8, "dynamic_shared_pointer", "local")]
    assert tail.arg("hidden_dynamic_lds_size").offset == 136 and tail.arg("hidden_queue_ptr").offset == 216
    assert tail.arg("hidden_queue_ptr").size == 8 and tail.kernarg_segment_size == 272


def test_image_keeps_segment_addresses():
    data = read_data("saxpy.hsaco", "rb")
    co = load_code_object(data)
    elf = ELFFile(io.BytesIO(data))
    text = elf.get_section_by_name(".text")
    assert co.image[text["sh_addr"]:text["sh_addr"] + text["sh_size"]] == text.data()
    k = co.kernel("saxpy")
    assert co.image[k.entry_offset:k.entry_offset + 4] == text.data()[:4]
    assert [(v, f) for v, _, f in co.segments] == [(0, 4), (0x1600, 5), (0x2800, 6)]
    assert len(co.image) == 0x2800 + 0x800          # .relro_padding (NOBITS) is zero-filled


def test_relative64_relocation_is_applied():
    co = load("table")
    (rel,) = co.relocations
    assert (rel.offset, rel.type_name, rel.addend) == (0x2800, "R_AMDGPU_RELATIVE64", 0x500)
    assert struct.unpack_from("<4i", co.image, 0x500) == (10, 20, 30, 40)
    base = 0x7F00_1234_0000
    image = co.relocated_image(base)
    assert struct.unpack_from("<Q", image, 0x2800)[0] == base + 0x500
    assert image[:0x2800] == co.image[:0x2800]


def test_kernel_lookup_error_lists_kernels():
    with pytest.raises(KeyError, match="no kernel 'nope' in the code object \\(has: grid_info, lds_reverse, tail\\)"):
        load("implicit").kernel("nope")


# --- errors ------------------------------------------------------------------------------------

def patched(name, offset, fmt, value):
    data = bytearray(read_data(f"{name}.hsaco", "rb"))
    struct.pack_into(fmt, data, offset, value)
    return bytes(data)


def error(data, **kw):
    with pytest.raises(MalformedInput) as info:
        load_code_object(data, "k.hsaco", **kw)
    assert str(info.value).startswith("k.hsaco: ")
    return str(info.value)


def test_not_elf():
    assert "not an ELF file (starts with b'\\x00asm')" in error(b"\0asm\x01\0\0\0")
    assert "not an ELF file" in error(b"")


@pytest.mark.parametrize("cut", [10, 63])
def test_truncated_header(cut):
    assert "truncated: the ELF64 header needs 64 bytes" in error(read_data("saxpy.hsaco", "rb")[:cut])


@pytest.mark.parametrize("cut,what", [(100, "program header table"), (2000, "section header table")])
def test_truncated_tables(cut, what):
    assert f"truncated: the {what} ends at byte" in error(read_data("saxpy.hsaco", "rb")[:cut])


def test_truncated_segment():
    no_sections = patched("saxpy", 60, "<H", 0)      # e_shnum = 0: only the segments remain
    assert "truncated: PT_LOAD segment 2 needs bytes up to 2048, the file has 1792" in error(no_sections[:0x700])


def test_wrong_class_and_endianness():
    assert "EI_CLASS 1, expected 2 (ELFCLASS64)" in error(patched("saxpy", 4, "B", 1))
    assert "EI_DATA 2, expected 1 (little-endian)" in error(patched("saxpy", 5, "B", 2))


def test_wrong_machine():
    assert "wrong machine: e_machine 62, expected 224 (EM_AMDGPU)" in error(patched("saxpy", 18, "<H", 62))


def test_wrong_osabi_and_abi_version():
    assert "EI_OSABI 0, expected 64 (ELFOSABI_AMDGPU_HSA)" in error(patched("saxpy", 7, "B", 0))
    assert "EI_ABIVERSION 0 is not a supported code object version" in error(patched("saxpy", 8, "B", 0))
    assert "metadata amdhsa.version [1, 2] does not match code object v4 (EI_ABIVERSION 2)" in \
        error(patched("saxpy", 8, "B", 2))


def test_relocatable_object_is_refused():
    assert "e_type ET_REL, expected ET_DYN: link it with ld.lld -shared first" in error(patched("saxpy", 16, "<H", 1))


def test_unknown_mach_and_expected_target():
    assert "e_flags 0x27: unknown EF_AMDGPU_MACH 0x27" in error(patched("saxpy", 48, "<I", 0x27))
    assert "code object is for gfx1100, expected gfx942" in error(read_data("saxpy.hsaco", "rb"),
                                                                   expected_target="gfx942")
    for wanted in ("gfx1100", "amdgcn-amd-amdhsa--gfx1100", parse_target("gfx1100")):
        assert load_code_object(read_data("saxpy.hsaco", "rb"), expected_target=wanted).target.processor == "gfx1100"


def test_note_target_must_match_e_flags():
    assert "metadata amdhsa.target amdgcn-amd-amdhsa--gfx1100 does not match e_flags 0x46 " \
           "(amdgcn-amd-amdhsa--gfx1101)" in error(patched("saxpy", 48, "<I", 0x46))


def test_missing_kd_symbol():
    data = read_data("saxpy.hsaco", "rb").replace(b"saxpy.kd\0", b"saxpy.kx\0")
    assert "kernel saxpy: descriptor symbol saxpy.kd is missing" in error(data)


def _kd_offset(name, kernel):
    return load(name).kernel(kernel).kd_offset


def test_reserved_descriptor_bytes():
    kd = _kd_offset("saxpy", "saxpy")
    assert "saxpy.kd: kernel descriptor reserved bytes 0x18..0x2b are not zero" in \
        error(patched("saxpy", kd + 0x20, "B", 1))


def test_entry_outside_code():
    kd = _kd_offset("saxpy", "saxpy")
    msg = error(patched("saxpy", kd + 0x10, "<q", -0x540))
    assert "kernel saxpy: entry 0x0 (descriptor 0x540 -1344) is not in an executable segment" in msg
    assert "is not 256-byte aligned" in error(patched("saxpy", kd + 0x10, "<q", 0x10C0 + 4))


def _note_offset(data):
    return ELFFile(io.BytesIO(data)).get_section_by_name(".note")["sh_offset"]


def test_bad_metadata_note():
    data = read_data("saxpy.hsaco", "rb")
    off = _note_offset(data)
    big = bytearray(data)
    struct.pack_into("<I", big, off + 4, 0x10000)
    assert "section .note: note at offset 0 runs past the end" in error(bytes(big))
    broken = bytearray(data)
    broken[off + 20] = 0xC1                           # first byte of the MessagePack map
    assert "NT_AMDGPU_METADATA note: msgpack at offset 0: byte 0xc1 is never used" in error(bytes(broken))


def test_metadata_missing_required_key():
    data = read_data("saxpy.hsaco", "rb")
    renamed = data.replace(b"\xb5.kernarg_segment_size", b"\xb5.kernarg_segment_sizf")
    assert "kernel saxpy: missing .kernarg_segment_size" in error(renamed)


def test_unsupported_relocation_type():
    data = read_data("table.hsaco", "rb")
    rela = ELFFile(io.BytesIO(data)).get_section_by_name(".rela.dyn")["sh_offset"]
    bad = bytearray(data)
    struct.pack_into("<Q", bad, rela + 8, 10)        # r_info: R_AMDGPU_REL32_LO, no symbol
    assert ".rela.dyn: relocation R_AMDGPU_REL32_LO at 0x2800 is not supported" in error(bytes(bad))
    struct.pack_into("<Q", bad, rela, 0x100000)       # r_offset outside the image
    struct.pack_into("<Q", bad, rela + 8, 13)
    assert "relocation at 0x100000 is outside the loaded image" in error(bytes(bad))


def test_abs64_relocation_against_a_symbol():
    data = read_data("table.hsaco", "rb")
    elf = ELFFile(io.BytesIO(data))
    rela = elf.get_section_by_name(".rela.dyn")["sh_offset"]
    dynsym = elf.get_section_by_name(".dynsym")
    index = next(i for i, s in enumerate(dynsym.iter_symbols()) if s.name == "lookup.kd")
    abs64 = bytearray(data)
    struct.pack_into("<QQq", abs64, rela, 0x2800, (index << 32) | 3, 8)
    co = load_code_object(bytes(abs64))
    assert co.relocations[0].type_name == "R_AMDGPU_ABS64" and co.relocations[0].symbol == "lookup.kd"
    assert struct.unpack_from("<Q", co.relocated_image(0x10000), 0x2800)[0] == 0x10000 + 0x4C0 + 8
    struct.pack_into("<Q", abs64, rela + 8, 3)        # symbol 0: undefined
    assert "R_AMDGPU_ABS64 at 0x2800 refers to undefined symbol ''" in error(bytes(abs64))


# --- python -m assembler.amdgpu ---------------------------------------------------------------

def test_cli_describes_kernels_and_hidden_args(capsys):
    from assembler.amdgpu.__main__ import main
    from tests.test_amdgpu_codeobj_support import data_path
    assert main(["-v", data_path("implicit.hsaco")]) == 0
    out = capsys.readouterr().out
    assert "target amdgcn-amd-amdhsa--gfx1100 (e_flags 0x41), code object v5" in out
    assert "kernel grid_info: descriptor at 0xf00, entry at 0x2000 (184 bytes)" in out
    assert "+80    2 bytes  hidden_grid_dims" in out and ".amdhsa_system_vgpr_workitem_id 1" in out


def test_cli_errors_are_one_line_each(capsys, tmp_path):
    from assembler.amdgpu.__main__ import main
    bad = tmp_path / "bad.hsaco"
    bad.write_bytes(b"MZ\0\0")
    assert main([str(bad), str(tmp_path / "missing.hsaco")]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err == [f"{bad}: not an ELF file (starts with b'MZ\\x00\\x00')",
                   f"{tmp_path / 'missing.hsaco'}: No such file or directory"]


def test_stripped_object_is_read_through_dynsym():
    """Without .symtab (llvm-strip) the kernels are found through .dynsym."""
    data = bytearray(read_data("ours_handwritten.hsaco", "rb"))
    elf = ELFFile(io.BytesIO(bytes(data)))
    index = next(i for i, s in enumerate(elf.iter_sections()) if s.name == ".symtab")
    shdr = elf.header["e_shoff"] + index * elf.header["e_shentsize"]
    struct.pack_into("<I", data, shdr + 4, 0)        # sh_type = SHT_NULL
    co = load_code_object(bytes(data))
    assert list(co.kernels) == ["fill", "copy"] and co.kernel("fill").code_size == 256
    assert co.kernel("copy").entry_offset == 0x700 and co.kernel("fill").kd_offset == 0x540


# --- less common refusals, on objects our writer makes ------------------------------------------

def _ours():
    return bytearray(read_data("ours_handwritten.hsaco", "rb"))


def _phdr(data, i):
    return struct.unpack_from("<Q", data, 32)[0] + i * 56


def _section(data, name):
    elf = ELFFile(io.BytesIO(bytes(data)))
    index = next(i for i, s in enumerate(elf.iter_sections()) if s.name == name)
    return elf.header["e_shoff"] + index * elf.header["e_shentsize"], elf.get_section(index)


def test_no_program_headers():
    data = _ours()
    struct.pack_into("<H", data, 56, 0)              # e_phnum
    assert "no program headers: nothing to load" in error(bytes(data))


def test_no_load_segment():
    data = _ours()
    for i in range(3):                               # the three PT_LOADs become PT_NULL
        struct.pack_into("<I", data, _phdr(data, i), 0)
    assert "no PT_LOAD segment" in error(bytes(data))


def test_segment_filesz_larger_than_memsz():
    data = _ours()
    struct.pack_into("<Q", data, _phdr(data, 1) + 40, 8)     # p_memsz of the code segment
    assert "PT_LOAD at 0x600: p_filesz > p_memsz" in error(bytes(data))


def test_segment_beyond_one_gib():
    data = _ours()
    struct.pack_into("<Q", data, _phdr(data, 2) + 16, 1 << 31)   # p_vaddr of the RW segment
    assert "PT_LOAD segments span" in error(bytes(data)) and "more than 1 GiB" in error(bytes(data))


def test_symbol_table_with_bad_string_offset():
    data = _ours()
    shdr, symtab = _section(data, ".symtab")
    struct.pack_into("<I", data, symtab["sh_offset"] + 24, 0x7FFFFFF0)   # st_name of symbol 1
    assert ".symtab: symbol 1 has name offset 2147483632, past the 27-byte string table" in error(bytes(data))


@pytest.mark.parametrize("offset,fmt,value,message", [
    (40, "<I", 99, "Reading section 99"),                       # sh_link to a missing section
    (40, "<I", 6, "expected SHT_STRTAB"),                       # sh_link to .text
    (56, "<Q", 0, "entry size of section '.symtab' to be > 0"),
])
def test_inconsistent_section_links_are_bad_structure(offset, fmt, value, message):
    data = _ours()
    shdr, _ = _section(data, ".symtab")
    struct.pack_into(fmt, data, shdr + offset, value)
    msg = error(bytes(data))
    assert "bad ELF structure" in msg and message in msg


def test_stray_bytes_after_the_last_note():
    data = _ours()
    shdr, note = _section(data, ".note")
    struct.pack_into("<Q", data, shdr + 32, note["sh_size"] + 8)    # sh_size covers 8 more bytes
    struct.pack_into("<Q", data, note["sh_offset"] + note["sh_size"], 0xFFFF)
    assert "section .note: 8 stray bytes after the last note" in error(bytes(data))


def test_no_metadata_and_no_descriptor_symbols():
    data = _ours()
    shdr, note = _section(data, ".note")
    struct.pack_into("<I", data, note["sh_offset"] + 8, 33)        # note type != NT_AMDGPU_METADATA
    co = load_code_object(bytes(data))                              # kernels found by their .kd symbols
    assert co.metadata is None and sorted(co.kernels) == ["copy", "fill"]
    assert co.kernel("fill").metadata is None
    bare = bytes(data).replace(b"fill.kd\0", b"fill.kx\0").replace(b"copy.kd\0", b"copy.kx\0")
    assert "no kernels: no metadata note and no NAME.kd symbol" in error(bare)


def test_descriptor_symbol_size_and_alignment():
    data = _ours()
    shdr, symtab = _section(data, ".symtab")
    for index, sym in enumerate(symtab.iter_symbols()):
        if sym.name == "fill.kd":
            entry = symtab["sh_offset"] + index * 24
    bad_size = bytearray(data)
    struct.pack_into("<Q", bad_size, entry + 16, 32)
    assert "kernel fill: fill.kd has size 32, expected 64" in error(bytes(bad_size))
    bad_addr = bytearray(data)
    struct.pack_into("<Q", bad_addr, entry + 8, 0x548)
    assert "kernel fill: fill.kd at 0x548 is not a 64-byte aligned address inside the image" in error(bytes(bad_addr))


@pytest.mark.parametrize("doc,message", [
    ([], "AMDGPU metadata is not a map"),
    ({"amdhsa.version": "1.2"}, "amdhsa.version is '1.2', expected [major, minor]"),
    ({"amdhsa.version": [1, 2], "amdhsa.kernels": {}}, "amdhsa.kernels is not a list"),
    ({"amdhsa.version": [1, 2], "amdhsa.kernels": [3]}, "amdhsa.kernels entry is int, not a map"),
])
def test_metadata_document_shape_errors(doc, message):
    from assembler.amdgpu.metadata import parse_metadata_document
    with pytest.raises(MalformedInput, match=re.escape(message)):
        parse_metadata_document(doc, "note")


def _kernel_map(**changes):
    kmap = dict(load("saxpy").kernel("saxpy").metadata.raw)
    kmap.update(changes)
    return kmap


@pytest.mark.parametrize("kmap,message", [
    (_kernel_map(**{".args": {}}), "kernel saxpy: .args is not a list"),
    (_kernel_map(**{".args": [7]}), "kernel saxpy argument 0: not a map"),
    (_kernel_map(**{".vgpr_count": True}), "kernel saxpy: .vgpr_count is True, expected int"),
    (_kernel_map(**{".args": [{".offset": 0, ".size": 8}]}), "kernel saxpy argument 0: missing .value_kind"),
])
def test_kernel_map_errors(kmap, message):
    from assembler.amdgpu.metadata import parse_kernel_map
    with pytest.raises(MalformedInput, match=re.escape(message)):
        parse_kernel_map(kmap, "note")


@pytest.mark.parametrize("name", ["saxpy", "table", "ours_handwritten"])
def test_corrupted_objects_fail_only_with_malformed_input(name):
    """Random byte/word corruptions and truncations: the reader either loads the object or says
    what is wrong (MalformedInput), never another exception (15,000 such cases passed once)."""
    import random
    base = read_data(f"{name}.hsaco", "rb")
    rng = random.Random(f"corrupt-{name}")
    refused = 0
    for _ in range(150):
        data = bytearray(base)
        for _ in range(rng.choice([1, 1, 2, 4])):
            pos = rng.randrange(len(data) - 4)
            if rng.random() < 0.5:
                data[pos] = rng.randrange(256)
            else:
                struct.pack_into("<I", data, pos - pos % 4,
                                 rng.choice([0, 0xFFFFFFFF, 0x7FFFFFFF, rng.randrange(1 << 32), rng.randrange(256)]))
        if rng.random() < 0.1:
            data = data[:rng.randrange(len(data))]
        try:
            load_code_object(bytes(data)).relocated_image(0x10000)
        except MalformedInput:
            refused += 1
    assert refused > 10
