"""Assembled program + its code object directives -> HSA code object v5 bytes.

`build_code_object(program, source_text)` is what `python -m assembler.rdna3 asm` calls when a
source declares kernels. `program` needs three attributes:

    .data        the bytes of .text
    .labels      {label: byte offset in .text}; each kernel's code starts at the label named
                 like the kernel (256-byte aligned: `.p2align 8` before it)
    .directives  [(line_no, text)] of the `.amdgcn_target` / `.amdhsa_*` lines, the
                 `.amdhsa_kernel` blocks and the `.amdgpu_metadata` block

Kernel metadata comes from the `.amdgpu_metadata` block when there is one (kernels it does not
mention get synthesized entries), otherwise it is synthesized from the directives.
"""
from assembler.errors import AssemblerError, MalformedInput

from .directives import parse_directives
from .elf_writer import CODE_ALIGN, KernelSpec, write_code_object
from .metadata import (CODE_OBJECT_V5_VERSION, metadata_document, parse_kernel_map, sorted_map,
                       synthesize_kernel_map)

__all__ = ["build_code_object", "collect_directives", "kernel_specs", "KernelSpec", "write_code_object"]

_BLOCKS = {".amdhsa_kernel": ".end_amdhsa_kernel", ".amdgpu_metadata": ".end_amdgpu_metadata"}


def collect_directives(source_text):
    """[(line_no, text)] of the lines build_code_object needs from an assembly source: every
    `.amdgcn_target` / `.amdhsa_*` line and the whole `.amdhsa_kernel` and `.amdgpu_metadata`
    blocks (line numbers 1-based)."""
    return _code_object_lines(enumerate(source_text.splitlines(), 1))


def _code_object_lines(lines):
    """The (line_no, text) pairs that concern the code object; other directives an assembler
    passes along (.globl, .type, .size, .section...) are not ours to judge."""
    out, end = [], None
    for line_no, text in lines:
        words = text.split(";", 1)[0].split()
        word = words[0] if words else ""
        if end is not None:
            out.append((line_no, text))
            if word == end:
                end = None
        elif word in _BLOCKS:
            out.append((line_no, text))
            end = _BLOCKS[word]
        elif word.startswith(".amdhsa_") or word == ".amdgcn_target" or word.startswith(".end_amd"):
            out.append((line_no, text))
    return out


def _raw_lines(directives, source_text):
    """The directive lines with their original indentation (YAML needs it) when the source has it."""
    if not source_text:
        return list(directives)
    src = source_text.splitlines()
    out = []
    for line_no, text in directives:
        raw = src[line_no - 1] if 0 < line_no <= len(src) else None
        out.append((line_no, raw if raw is not None and raw.strip() == text.strip() else text))
    return out


def kernel_specs(program, source_text=None, target=None, source=None):
    """(Target, [KernelSpec], metadata document) for an assembled program."""
    lines = _raw_lines(_code_object_lines(program.directives), source_text)
    directives = parse_directives(lines, target, source)
    tgt = directives.target
    if not directives.kernels:
        raise AssemblerError("no .amdhsa_kernel block: a code object needs at least one kernel",
                             1, 1, source)
    given = _given_kernel_maps(directives, source)
    specs, maps = [], []
    code = bytes(program.data)
    for block in directives.kernels:
        if block.name not in program.labels:
            raise AssemblerError(f".amdhsa_kernel {block.name}: no label '{block.name}:' marks its "
                                 f"code", block.line, 1, source)
        entry = program.labels[block.name]
        if entry % CODE_ALIGN:
            raise AssemblerError(f".amdhsa_kernel {block.name}: label {block.name} is at offset "
                                 f"0x{entry:x}, not {CODE_ALIGN}-byte aligned (put .p2align 8 before it)",
                                 block.line, 1, source)
        if entry >= len(code):
            raise AssemblerError(f".amdhsa_kernel {block.name}: label {block.name} is at the end of "
                                 f"the code, the kernel has no instructions", block.line, 1, source)
        kd = block.descriptor
        kmap = given.pop(block.name, None)
        if kmap is None:
            kmap = synthesize_kernel_map(
                block.name, kernarg_size=kd.kernarg_size,
                group_segment_fixed_size=kd.group_segment_fixed_size,
                private_segment_fixed_size=kd.private_segment_fixed_size,
                wavefront_size=32 if kd.wave32 else 64, sgpr_count=block.sgpr_count,
                vgpr_count=block.vgpr_count, uses_dynamic_stack=kd.get("USES_DYNAMIC_STACK"),
                workgroup_processor_mode=kd.get("WGP_MODE") if tgt.major >= 10 else None)
        maps.append(kmap)
        specs.append(KernelSpec(block.name, entry, kd, metadata=kmap, sgpr_count=block.sgpr_count,
                                vgpr_count=block.vgpr_count))
    if given:
        name = next(iter(given))
        raise AssemblerError(f".amdgpu_metadata describes kernel {name} but no .amdhsa_kernel {name} "
                             f"declares it", directives.metadata_line, 1, source)
    if directives.metadata is not None:
        for kmap in maps:
            try:
                parse_kernel_map(kmap, strict=True)
            except MalformedInput as err:
                raise AssemblerError(f".amdgpu_metadata: invalid HSA metadata: {err.reason}",
                                     directives.metadata_line, 1, source) from None
    document = metadata_document(tgt.target_id, maps)
    if directives.metadata is not None:
        extra = {k: v for k, v in directives.metadata.items()
                 if k not in ("amdhsa.kernels", "amdhsa.target", "amdhsa.version")}
        document = sorted_map({**document, **extra})
    return tgt, specs, document


def _given_kernel_maps(directives, source):
    doc = directives.metadata
    if doc is None:
        return {}
    line = directives.metadata_line
    if not isinstance(doc, dict):
        raise AssemblerError(".amdgpu_metadata: expected a YAML map with amdhsa.kernels", line, 1, source)
    version = doc.get("amdhsa.version", CODE_OBJECT_V5_VERSION)
    if version != CODE_OBJECT_V5_VERSION:
        raise AssemblerError(f".amdgpu_metadata: amdhsa.version {version} is not code object v5 "
                             f"({CODE_OBJECT_V5_VERSION})", line, 1, source)
    target = doc.get("amdhsa.target")
    if target is not None and target != directives.target.target_id:
        raise AssemblerError(f".amdgpu_metadata: amdhsa.target {target} does not match "
                             f"{directives.target.target_id}", line, 1, source)
    kernels = doc.get("amdhsa.kernels", [])
    if not isinstance(kernels, list):
        raise AssemblerError(".amdgpu_metadata: amdhsa.kernels must be a list", line, 1, source)
    result = {}
    for kmap in kernels:
        if not isinstance(kmap, dict) or not isinstance(kmap.get(".name"), str):
            raise AssemblerError(".amdgpu_metadata: every amdhsa.kernels entry needs a .name", line, 1, source)
        name = kmap[".name"]
        symbol = kmap.get(".symbol", f"{name}.kd")
        if symbol != f"{name}.kd":
            raise AssemblerError(f".amdgpu_metadata: kernel {name} has .symbol {symbol}, expected "
                                 f"{name}.kd", line, 1, source)
        result[name] = sorted_map(kmap)
    return result


def build_code_object(program, source_text=None, target=None, source=None):
    """HSA code object v5 bytes for an assembled program (see the module docstring)."""
    tgt, specs, document = kernel_specs(program, source_text, target, source)
    return write_code_object(program.data, specs, tgt, metadata=document)
