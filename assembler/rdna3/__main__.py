"""Command line: assemble gfx1100 source, disassemble raw code or a code object's .text.

    python -m assembler.rdna3 asm IN.s [-o OUT]     raw bytes, or a code object when the source
                                                    has an .amdhsa_kernel block
    python -m assembler.rdna3 disasm FILE           raw instruction bytes or an ELF code object
"""
import argparse
import sys

from assembler.errors import AssemblerError, GPUError

from . import assemble_program, decode


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


def _text_of_elf(data, path):
    """(.text bytes, {offset: [symbol names]}) of an ELF code object."""
    import io

    from elftools.common.exceptions import ELFError
    from elftools.elf.elffile import ELFFile
    try:
        elf = ELFFile(io.BytesIO(data))
        text = elf.get_section_by_name(".text")
    except ELFError as e:
        raise GPUError("%s: not a readable ELF file: %s" % (path, e)) from None
    if text is None:
        raise GPUError("%s: ELF file has no .text section" % path)
    base = text["sh_addr"]
    labels = {}
    symtab = elf.get_section_by_name(".symtab")
    if symtab is not None:
        for sym in symtab.iter_symbols():
            if sym.name and sym["st_info"]["type"] in ("STT_FUNC", "STT_NOTYPE") and \
                    sym["st_shndx"] == elf.get_section_index(".text"):
                labels.setdefault(sym["st_value"] - base, []).append(sym.name)
    return text.data(), labels


def _disasm(args):
    with open(args.input, "rb") as f:
        data = f.read()
    labels = {}
    if data[:4] == b"\x7fELF":
        data, labels = _text_of_elf(data, args.input)
    pos = 0
    out = sys.stdout
    while pos < len(data):
        for name in sorted(labels.get(pos, ())):
            out.write("%s:\n" % name)
        ins, size = decode(data, pos)
        out.write("\t%s\n" % ins.text)
        pos += size
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
    except (GPUError, OSError) as e:
        print("error: %s" % e, file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
