"""Command line: assemble gfx1100 source, disassemble raw code or a code object's .text.

    python -m assembler.rdna3 asm IN.s [-o OUT]     raw bytes, or a code object when the source
                                                    has an .amdhsa_kernel block; without -o the
                                                    output goes next to IN.s (IN.hsaco or IN.bin)
    python -m assembler.rdna3 disasm FILE           raw instruction bytes or an ELF code object

Errors are one line each (FILE:LINE:COLUMN: error: ...) with exit status 1; a closed pipe
(``disasm ... | head``) ends the output quietly.
"""
import argparse
import sys

from assembler.errors import AssemblerError, GPUError, MalformedInput

from . import assemble_program, decode

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


def _text_of_elf(data, path):
    """(.text bytes, {offset: [symbol names]}) of an ELF code object; MalformedInput for a file
    the ELF reader cannot make sense of (pyelftools raises many kinds of errors on damaged input,
    so any of them means the same here)."""
    import io

    from elftools.elf.elffile import ELFFile
    try:
        elf = ELFFile(io.BytesIO(data))
        text = elf.get_section_by_name(".text")
        if text is None:
            raise MalformedInput(path, None, "ELF file has no .text section")
        base = text["sh_addr"]
        labels = {}
        symtab = elf.get_section_by_name(".symtab")
        if symtab is not None:
            index = elf.get_section_index(".text")
            for sym in symtab.iter_symbols():
                if sym.name and sym["st_info"]["type"] in ("STT_FUNC", "STT_NOTYPE") and sym["st_shndx"] == index:
                    labels.setdefault(sym["st_value"] - base, []).append(sym.name)
        code = text.data()
    except MalformedInput:
        raise
    except Exception as e:                   # noqa: BLE001 -- a damaged file, whatever the parser tripped on
        raise MalformedInput(path, None, f"not a readable ELF file ({type(e).__name__}: {e})") from None
    if not isinstance(code, bytes) or len(code) > len(data):
        raise MalformedInput(path, None, "the .text section lies outside the file")
    return code, labels


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
    except BrokenPipeError:
        raise
    except (GPUError, OSError) as e:
        print("error: %s" % _short(e), file=sys.stderr)
        return 1
    except (RecursionError, MemoryError) as e:     # the last line of defence against pathological input
        print("%s: error: the input is nested too deeply or too large to process (%s)"
              % (args.input, type(e).__name__), file=sys.stderr)
        return 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:                  # `disasm ... | head`: the reader left; that is not an error
        sys.stderr.close()
        sys.exit(0)
