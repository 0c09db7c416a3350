"""Source text -> assembler.rdna3.assemble_program -> build_code_object -> load_code_object.

Checked against llvm-mc-19's machine code for the same source (frozen in
handwritten.program.json), the descriptors/metadata of our frozen object, and clang-19's own
objects for its assembly output."""
import pytest

from assembler.amdgpu.codeobject import build_code_object
from assembler.amdgpu.elf_reader import load_code_object
from tests.test_amdgpu_codeobj_support import handwritten_program, read_data

S_ENDPGM = bytes.fromhex("0000b0bf")


def _assemble_program():
    from assembler.rdna3 import assemble_program
    return assemble_program


def _kernel_code(image, entry):
    """Instructions from `entry` through the first s_endpgm (padding excluded)."""
    end = entry
    while image[end:end + 4] != S_ENDPGM:
        end += 4
        assert end - entry < 4096, "no s_endpgm"
    return image[entry:end + 4]


def _metadata_first(source):
    """handwritten.s with its .amdgpu_metadata block moved before .text (llvm-mc accepts either)."""
    start = source.index(".amdgpu_metadata\n")
    end = source.index(".end_amdgpu_metadata\n") + len(".end_amdgpu_metadata\n")
    block, rest = source[start:end], source[:start] + source[end:]
    return rest.replace("\n.text\n", "\n" + block + "\n.text\n", 1)


@pytest.mark.parametrize("layout", ["as_written", "metadata_first"])
def test_handwritten_source_end_to_end(layout):
    assemble_program = _assemble_program()
    source = read_data("handwritten.s")
    if layout == "metadata_first":
        source = _metadata_first(source)
    program = assemble_program(source, source="handwritten.s")
    reference, _, _ = handwritten_program()
    assert {k: program.labels[k] for k in ("fill", "copy")} == reference.labels
    co = load_code_object(build_code_object(program, source, source="handwritten.s"))
    frozen = load_code_object(read_data("ours_handwritten.hsaco", "rb"))
    assert list(co.kernels) == ["fill", "copy"]
    for name, info in co.kernels.items():
        want = frozen.kernel(name)
        assert info.descriptor.pack()[:0x10] == want.descriptor.pack()[:0x10]
        assert info.descriptor.pack()[0x18:] == want.descriptor.pack()[0x18:]
        assert info.metadata.raw == want.metadata.raw
        llvm_code = _kernel_code(bytes(reference.data), reference.labels[name])
        assert _kernel_code(co.image, info.entry_offset) == llvm_code


@pytest.mark.parametrize("name", ["saxpy", "implicit"])
def test_clang_assembly_end_to_end(name):
    """clang-19 -S output through our assembler and writer: same code and descriptors (up to the
    SGPR granule clang-19 sets itself) as clang-19 + ld.lld-19's object."""
    assemble_program = _assemble_program()
    source = read_data(f"{name}.s")
    program = assemble_program(source, source=f"{name}.s")
    co = load_code_object(build_code_object(program, source, source=f"{name}.s"))
    clang = load_code_object(read_data(f"{name}.hsaco", "rb"))
    assert list(co.kernels) == list(clang.kernels)
    for kname, info in co.kernels.items():
        want = clang.kernel(kname)
        assert co.image[info.entry_offset:info.entry_offset + want.code_size] == \
            clang.image[want.entry_offset:want.entry_offset + want.code_size]
        mine, theirs = info.descriptor, want.descriptor
        assert (mine.compute_pgm_rsrc2, mine.compute_pgm_rsrc3, mine.kernel_code_properties, mine.kernarg_size) == \
            (theirs.compute_pgm_rsrc2, theirs.compute_pgm_rsrc3, theirs.kernel_code_properties, theirs.kernarg_size)
        assert info.metadata.raw == want.metadata.raw
