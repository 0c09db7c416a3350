"""Shared inputs of the code object tests and of scripts/gen_codeobj_golden.py (no tests here)."""
import os
from types import SimpleNamespace

from elftools.elf.elffile import ELFFile

from assembler.amdgpu.codeobject import collect_directives

DATA = os.path.join(os.path.dirname(__file__), "data", "codeobj")
CLANG_FIXTURES = ("saxpy", "implicit", "table")
# Programs our writer packages in the tests: clang fixtures whose code is self-contained, and
# handwritten.s (its machine code from llvm-mc-19 frozen in handwritten.program.json).
WRITER_FIXTURES = ("saxpy", "implicit", "handwritten")


def data_path(name):
    return os.path.join(DATA, name)


def read_data(name, mode="r"):
    with open(data_path(name), mode) as f:
        return f.read()


def handwritten_program():
    """handwritten.s as the RDNA3 assembler's Program would describe it (code from llvm-mc-19)."""
    import json
    frozen = json.loads(read_data("handwritten.program.json"))
    source_text = read_data("handwritten.s")
    program = SimpleNamespace(data=bytes.fromhex(frozen["text"]), labels=frozen["labels"],
                              directives=collect_directives(source_text))
    return program, source_text, sorted(frozen["labels"], key=frozen["labels"].get)


def fixture_program(name):
    """(program, source_text, kernel names) for clang fixture NAME, shaped like the RDNA3
    assembler's Program: .data is the linked .text, .labels the kernels' offsets in it and
    .directives the code object directives of clang's assembly output NAME.s."""
    if name == "handwritten":
        return handwritten_program()
    with open(data_path(f"{name}.hsaco"), "rb") as f:
        elf = ELFFile(f)
        text = elf.get_section_by_name(".text")
        code, base = text.data(), text["sh_addr"]
        labels = {sym.name: sym["st_value"] - base
                  for sym in elf.get_section_by_name(".symtab").iter_symbols()
                  if sym["st_info"]["type"] == "STT_FUNC"}
    source_text = read_data(f"{name}.s")
    program = SimpleNamespace(data=code, labels=labels, directives=collect_directives(source_text))
    return program, source_text, sorted(labels, key=labels.get)
