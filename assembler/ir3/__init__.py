"""Adreno a6xx (ir3) assembler and disassembler, bit-exact with mesa, in mesa's syntax."""
