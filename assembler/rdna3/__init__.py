"""RDNA3 (gfx1100) assembler and disassembler, bit-exact with llvm-mc-19, in LLVM's AMDGPU syntax.

    assemble(text) -> bytes
    assemble_program(text, source=None) -> Program(.data, .labels, .lines, .directives)
    disassemble(data) -> list[str]                    llvm-mc's canonical text, one per instruction
    decode(data, offset=0) -> (Instruction, size)     structured operands for an executor

Submodules load on first use, so `assembler.rdna3.formats` (field layouts) imports on its own,
as the table generator needs before tables.py exists.
"""
import importlib

_EXPORTS = {"Program": "asm", "assemble": "asm", "assemble_program": "asm",
            "Instruction": "decoder", "Operand": "decoder", "decode": "decoder",
            "disassemble": "decoder"}
__all__ = sorted(_EXPORTS)


def __getattr__(name):
    mod = _EXPORTS.get(name)
    if mod is None:
        raise AttributeError("module 'assembler.rdna3' has no attribute %r" % name)
    value = getattr(importlib.import_module("." + mod, __name__), name)
    globals()[name] = value
    return value
