"""RDNA3 (gfx1100) assembler and disassembler, bit-exact with llvm-mc-19, in LLVM's AMDGPU syntax.

    decode(data, offset=0) -> (Instruction, size)     structured operands for an executor
    disassemble(data) -> list[str]                    llvm-mc's canonical text, one per instruction
"""
from .decoder import Instruction, Operand, decode, disassemble

__all__ = ["Instruction", "Operand", "decode", "disassemble"]
