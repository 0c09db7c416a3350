"""Adreno a6xx (ir3) assembler and disassembler, bit-exact with mesa, in mesa's syntax.

    assemble(text, gpu="a630") -> bytes
    assemble_program(text, gpu="a630", source=None) -> Program (code, headers, footprint)
    disassemble(data, gpu="a630", labels=False) -> list[str]   mesa's text, one per instruction
    decode(data, offset=0) -> Instruction                         name, category, fields, flags,
                                                                  operands, text, warnings
    Program.read(bytes) / Program.write()                         the program container

The tables (tables.py) are generated from mesa's isaspec XML by scripts/gen_ir3_tables.py.
Submodules load on first use.
"""
import importlib

_EXPORTS = {"assemble": "asm", "assemble_program": "asm", "clear_caches": "asm",
            "Instruction": "decoder", "Operand": "decoder", "decode": "decoder",
            "disassemble": "decoder", "Program": "program", "Buf": "program",
            "encode_line": "encoder"}
__all__ = sorted(_EXPORTS)


def __getattr__(name):
    mod = _EXPORTS.get(name)
    if mod is None:
        raise AttributeError("module 'assembler.ir3' has no attribute %r" % name)
    value = getattr(importlib.import_module("." + mod, __name__), name)
    globals()[name] = value
    return value
