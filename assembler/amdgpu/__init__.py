"""AMDGPU (AMDHSA) code objects without LLVM: write them from assembled code, read them to load.

    codeobject.build_code_object(program, source_text) -> bytes   assembler entry point
    elf_writer.write_code_object(code, [KernelSpec], target)      lower level writer
    elf_reader.load_code_object(data) -> CodeObject               loader side
    kernel_descriptor.KernelDescriptor                             the 64-byte KD, typed
    directives.parse_directives(lines)                             .amdhsa_* / .amdgcn_target
    metadata / msgpack / yaml_subset                               the NT_AMDGPU_METADATA note
    targets.parse_target("gfx1100")                                processors and e_flags

`python -m assembler.amdgpu FILE.hsaco` prints what a loader sees in a code object.
"""
from .codeobject import build_code_object
from .elf_reader import CodeObject, KernelInfo, load_code_object
from .elf_writer import KernelSpec, write_code_object
from .kernel_descriptor import KernelDescriptor

__all__ = ["build_code_object", "CodeObject", "KernelDescriptor", "KernelInfo", "KernelSpec",
           "load_code_object", "write_code_object"]
