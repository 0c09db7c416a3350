"""RDNA3 (gfx1100) assembler and disassembler, bit-exact with llvm-mc-19, in LLVM's AMDGPU syntax."""
