"""RDNA3 (gfx1100) assembler and disassembler, bit-exact with llvm-mc-19, in LLVM's AMDGPU syntax.

    assemble(text) -> bytes
    assemble_program(text, source=None) -> Program(.data, .labels, .lines, .directives)
    disassemble(data) -> list[str]                    llvm-mc's canonical text, one per instruction
    decode(data, offset=0) -> (Instruction, size)     structured operands for an executor
"""
from .asm import Program, assemble, assemble_program
from .decoder import Instruction, Operand, decode, disassemble

__all__ = ["Instruction", "Operand", "Program", "assemble", "assemble_program", "decode",
           "disassemble"]
