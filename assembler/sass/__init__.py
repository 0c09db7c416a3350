"""NVIDIA SASS assembler and disassembler for sm_86, sm_89 and sm_90, in nvdisasm's syntax.

    assemble(text, arch="sm_86") -> bytes
    assemble_program(text, arch, source=None) -> Program(.data .words .labels .lines ...)
    disassemble(data, arch, base=0) -> list[str]      nvdisasm's text, one per instruction
    listing([(code, {addr: [symbols]})], arch, ...)   a cubin's listing: nvdisasm's labels, and
                                                      with exact=True what asm needs to give
                                                      back the same words (assembler.sass.listing)
    decode(data, arch, offset=0) -> Instruction       opcode, modifiers, operands, guard,
                                                      control bits, for an executor
    schedule(words, arch, controls)                   control bits for words without them

The instruction formats are learned from nvdisasm by scripts/gen_sass_tables.py and stored in
assembler/sass/tables; the encoder, decoder, operand syntax and scheduler are ours. Submodules
load on first use.
"""
import importlib

_EXPORTS = {"Program": "asm", "assemble": "asm", "assemble_program": "asm",
            "Instruction": "decoder", "decode": "decoder", "decode_word": "decoder",
            "decode_all": "decoder", "disassemble": "decoder", "listing": "listing", "Control": "control",
            "parse_control": "control", "schedule": "schedule", "Operand": "syntax",
            "ARCHS": "tables", "canonical_arch": "tables"}
__all__ = sorted(_EXPORTS)


def __getattr__(name):
    mod = _EXPORTS.get(name)
    if mod is None:
        raise AttributeError("module 'assembler.sass' has no attribute %r" % name)
    value = getattr(importlib.import_module("." + mod, __name__), name)
    globals()[name] = value
    return value
