"""Command line: assemble gfx1100 source, disassemble raw code or a code object's .text.

    python -m assembler.rdna3 asm IN.s [-o OUT]     raw bytes, or a code object when the source
                                                    has an .amdhsa_kernel block; without -o the
                                                    output goes next to IN.s (IN.hsaco or IN.bin)
    python -m assembler.rdna3 disasm FILE           raw instruction bytes or an ELF code object

Errors are one line each (FILE:LINE:COLUMN: error: ...) with exit status 1; a closed pipe
(``disasm ... | head``) ends the output quietly.
"""
import argparse
import os
import sys

from assembler.errors import AssemblerError, GPUError, MalformedInput

from . import assemble_program

MAX_MESSAGE = 300                # characters of a message echoed back (an operand can be huge)


def _read_text(path):
    """The source as text; bytes that are not UTF-8 are an error naming line and column."""
    with open(path, "rb") as f:
        raw = f.read()
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw.count(b"\n", 0, e.start) + 1
        column = e.start - (raw.rfind(b"\n", 0, e.start) + 1) + 1
        raise AssemblerError(f"not UTF-8 text: byte 0x{raw[e.start]:02x} cannot start a character", line, column,
                             path) from None


def _asm(args):
    text = _read_text(args.input)
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
        return MalformedInput(path, None, "not a readable ELF file: %s" % why)
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
        raise MalformedInput(path, None, "ELF file has no .text section")
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


def _short(text):
    text = str(text)
    return text if len(text) <= MAX_MESSAGE else text[:MAX_MESSAGE] + "... (%d characters)" % len(text)


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m assembler.rdna3",
                                description="gfx1100 assembler / disassembler (LLVM AMDGPU syntax, as llvm-mc-19 "
                                            "reads and writes it)")
    sub = p.add_subparsers(dest="cmd", required=True, metavar="{asm,disasm}")
    a = sub.add_parser("asm", help="assemble a .s file into raw code or a code object",
                       description="Assemble IN (UTF-8 gfx1100 assembly). With .amdhsa_kernel blocks the output "
                                   "is an HSA code object v5, otherwise the raw instruction bytes.")
    a.add_argument("input", metavar="IN", help="assembly source file (.s)")
    a.add_argument("-o", "--output", metavar="OUT",
                   help="where to write; default: next to IN, as IN.hsaco (code object) or IN.bin (raw code)")
    d = sub.add_parser("disasm", help="disassemble raw code or an ELF code object's .text",
                       description="Print the instructions of FILE, one per line in llvm-mc syntax; symbol "
                                   "names of a code object's .text become labels.")
    d.add_argument("input", metavar="FILE", help="raw gfx1100 instruction bytes, or an ELF code object (.hsaco)")
    args = p.parse_args(argv)
    try:
        return _asm(args) if args.cmd == "asm" else _disasm(args)
    except AssemblerError as e:
        if e.line is not None:
            print("%s:%d:%d: error: %s" % (args.input, e.line, e.column or 1, _short(e.reason)), file=sys.stderr)
        else:
            print("%s: error: %s" % (args.input, _short(e.reason)), file=sys.stderr)
        return 1
    except BrokenPipeError:                   # `... | head`: the reader has what it wanted
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return 0
    except (GPUError, OSError) as e:
        print("error: %s" % _short(e), file=sys.stderr)
        return 1
    except (RecursionError, MemoryError) as e:     # the last line of defence against pathological input
        print("%s: error: the input is nested too deeply or too large to process (%s)"
              % (args.input, type(e).__name__), file=sys.stderr)
        return 1


if __name__ == "__main__":
    try:
        status = main()
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:                  # `disasm ... | head`: the reader left; that is not an error
        sys.stderr.close()
        sys.exit(0)
    # Everything is written: end without tearing the interpreter down, which would free the
    # instruction tables and operand caches object by object (several percent of an assembly)
    os._exit(status or 0)
