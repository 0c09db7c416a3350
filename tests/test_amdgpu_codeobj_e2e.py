"""Source text -> assembler.rdna3.assemble_program -> build_code_object -> load_code_object.

Checked against llvm-mc-19's machine code for the same source (frozen in
handwritten.program.json) and the descriptors/metadata of our frozen object.
Skips while the RDNA3 assembler has no assemble_program."""
import pytest

from assembler.amdgpu.codeobject import build_code_object
from assembler.amdgpu.elf_reader import load_code_object
from tests.test_amdgpu_codeobj_support import handwritten_program, read_data

S_ENDPGM = bytes.fromhex("0000b0bf")


def _assemble_program():
    rdna3 = pytest.importorskip("assembler.rdna3")
    if not hasattr(rdna3, "assemble_program"):
        pytest.skip("assembler.rdna3.assemble_program is not available")
    return rdna3.assemble_program


def _kernel_code(image, entry):
    """Instructions from `entry` through the first s_endpgm (padding excluded)."""
    end = entry
    while image[end:end + 4] != S_ENDPGM:
        end += 4
        assert end - entry < 4096, "no s_endpgm"
    return image[entry:end + 4]


def test_handwritten_source_end_to_end():
    assemble_program = _assemble_program()
    source = read_data("handwritten.s")
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
