"""Command line: assemble gfx1100 source, disassemble raw code or a code object's .text.

    python -m assembler.rdna3 asm IN.s [-o OUT]     raw bytes, or a code object when the source
                                                    has an .amdhsa_kernel block
    python -m assembler.rdna3 disasm FILE           raw instruction bytes or an ELF code object
"""
import argparse
import os
import sys

from assembler.errors import AssemblerError, GPUError

from . import assemble_program


def _asm(args):
    with open(args.input) as f:
        text = f.read()
    prog = assemble_program(text, source=args.input)
    data = prog.data
    if any(t.split(None, 1)[0] == ".amdhsa_kernel" for _, t in prog.directives):
        try:
            from assembler.amdgpu.codeobject import build_code_object
        except ImportError as e:
            print("error: %s has an .amdhsa_kernel block but the code-object writer "
                  "(assembler.amdgpu.codeobject.build_code_object) is not available: %s"
                  % (args.input, e), file=sys.stderr)
            return 1
        data = build_code_object(prog, text)
    out = args.output or (args.input.rsplit(".", 1)[0] + (".hsaco" if data[:4] == b"\x7fELF"
                                                          else ".bin"))
    with open(out, "wb") as f:
        f.write(data)
    return 0


_SHT_SYMTAB, _STT_NOTYPE, _STT_FUNC = 2, 0, 2


def _text_of_elf(data, path):
    """(.text bytes, {offset: [symbol names]}) of an ELF64 little-endian object: the section
    headers and .symtab read with struct (no ELF library to import for a disassembly)."""
    import struct

    def bad(why):
        return GPUError("%s: not a readable ELF file: %s" % (path, why))
    if len(data) < 64 or data[4] != 2 or data[5] != 1:
        raise bad("not ELF64 little-endian")
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    if shentsize != 64 or shoff + 64 * shnum > len(data) or shstrndx >= max(shnum, 1):
        raise bad("section headers out of range")
    sections = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + 64 * i) for i in range(shnum)]

    def contents(sh):
        if sh[4] + sh[5] > len(data):
            raise bad("a section runs past the end of the file")
        return data[sh[4]:sh[4] + sh[5]]
    names = contents(sections[shstrndx])

    def name_at(table, off):
        end = table.find(b"\0", off)
        return table[off:end if end >= 0 else len(table)].decode("utf-8", "replace")
    text_index = next((i for i, sh in enumerate(sections) if name_at(names, sh[0]) == ".text"), None)
    if text_index is None:
        raise GPUError("%s: ELF file has no .text section" % path)
    text = sections[text_index]
    base = text[3]
    labels = {}
    for sh in sections:
        if sh[1] != _SHT_SYMTAB or name_at(names, sh[0]) != ".symtab" or sh[6] >= shnum:
            continue
        strtab, table = contents(sections[sh[6]]), contents(sh)
        for off in range(0, len(table) - 23, 24):
            st_name, st_info, _, st_shndx, st_value, _ = struct.unpack_from("<IBBHQQ", table, off)
            if st_name and st_shndx == text_index and st_info & 15 in (_STT_NOTYPE, _STT_FUNC):
                labels.setdefault(st_value - base, []).append(name_at(strtab, st_name))
    return contents(text), labels


def _disasm(args):
    from .disasm import disassemble_at
    with open(args.input, "rb") as f:
        data = f.read()
    labels = {}
    if data[:4] == b"\x7fELF":
        data, labels = _text_of_elf(data, args.input)
    offsets, texts, error = [], [], None
    try:
        disassemble_at(data, offsets, texts)
    except AssemblerError as e:               # print what precedes the bad word, then the error
        error = e
    if labels:
        lines = []
        for off, t in zip(offsets, texts):
            for name in sorted(labels.get(off, ())):
                lines.append("%s:\n" % name)
            lines.append("\t%s\n" % t)
        sys.stdout.write("".join(lines))
    elif texts:
        sys.stdout.write("\t" + "\n\t".join(texts) + "\n")
    if error is not None:
        raise error
    return 0


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m assembler.rdna3",
                                description="gfx1100 assembler / disassembler (LLVM AMDGPU syntax)")
    sub = p.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("asm", help="assemble a .s file")
    a.add_argument("input")
    a.add_argument("-o", "--output")
    d = sub.add_parser("disasm", help="disassemble raw bytes or an ELF code object")
    d.add_argument("input")
    args = p.parse_args(argv)
    try:
        return _asm(args) if args.cmd == "asm" else _disasm(args)
    except AssemblerError as e:
        if e.line is not None:
            print("%s:%d:%d: error: %s" % (args.input, e.line, e.column or 1, e.reason), file=sys.stderr)
        else:
            print("%s: error: %s" % (args.input, e.reason), file=sys.stderr)
        return 1
    except BrokenPipeError:                   # `... | head`: the reader has what it wanted
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return 0
    except (GPUError, OSError) as e:
        print("error: %s" % e, file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
