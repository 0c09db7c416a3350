"""Command line: assemble SASS (or a cubin from directive text), disassemble code or a cubin.

    python -m assembler.sass asm IN.sass [-o OUT] [--arch sm_90]
        raw 128-bit words, or a cubin when the text has .kernel blocks (assembler.cubin.text)
    python -m assembler.sass disasm FILE [--arch sm_90] [--control] [--hex] [--exact] [--addresses]
        a cubin (arch from its header) or raw words (--arch needed), as nvdisasm lists a cubin:
        branch targets as labels (`(.L_x_0), or absolute addresses with --addresses); --control
        adds each instruction's scheduling control as a // [B------:R-:W-:Y:S00] comment;
        --exact adds it and annotates what nvdisasm's text does not say (assembler.sass.listing),
        so that `asm` gives back the same words
"""
import argparse
import os
import re
import sys

from assembler.errors import AssemblerError, GPUError



def _asm(args):
    with open(args.input) as f:
        text = f.read()
    if any(line.strip().startswith(".kernel") for line in text.splitlines()):
        from assembler.cubin.text import build_cubin
        data = build_cubin(text, args.arch, source=args.input)
        ext = ".cubin"
    else:
        from .asm import assemble_program
        m = re.search(r"^\s*\.target\s+(\S+)", text, re.M)
        data = assemble_program(text, args.arch or (m.group(1) if m else "sm_86"), source=args.input).data
        ext = ".bin"
    out = args.output or os.path.splitext(args.input)[0] + ext
    with open(out, "wb") as f:
        f.write(data)
    return 0


def _listing(sections, arch, base, args):
    from .listing import listing
    return listing(sections, arch, base, addresses=args.addresses, control=args.control, hex=args.hex,
                   exact=args.exact)


def _disasm(args):
    with open(args.input, "rb") as f:
        data = f.read()
    out = sys.stdout
    if data[:4] == b"\x7fELF":
        from assembler.cubin.reader import read_cubin
        cub = read_cubin(data, args.input)
        arch = args.arch or cub.arch
        # in section order: nvdisasm numbers the labels through the sections
        kernels = sorted(cub.kernels.values(), key=lambda k: cub.elf.section(k.text_section).index)
        out.write(".target %s\n" % arch)
        sections = []
        for k in kernels:
            symbols = {0: [k.name]}
            for fn, (off, _size) in k.functions.items():
                symbols.setdefault(off, []).append(fn)
            sections.append((k.code, symbols))
        for k, lines in zip(kernels, _listing(sections, arch, 0, args)):
            out.write("// kernel %s: %d registers, %d parameter bytes at c[0x0][0x%x], shared %d, local %d\n"
                      % (k.name, k.regs, k.param_size, k.param_base, k.shared_size, k.local_size))
            for line in lines:
                out.write(line + "\n")
        return 0
    if not args.arch:
        print("error: %s is raw code: say which arch it is for with --arch (sm_86, sm_89, sm_90)"
              % args.input, file=sys.stderr)
        return 2
    out.write(".target %s\n" % args.arch)
    for line in _listing([(data, {})], args.arch, args.base, args)[0]:
        out.write(line + "\n")
    return 0


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m assembler.sass",
                                description="NVIDIA SASS assembler / disassembler (nvdisasm syntax) for "
                                            "sm_86, sm_89 and sm_90")
    sub = p.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("asm", help="assemble SASS text (a cubin when it has .kernel blocks)")
    a.add_argument("input")
    a.add_argument("-o", "--output")
    a.add_argument("--arch", help="sm_86, sm_89 or sm_90 (default: the text's .target, else sm_86)")
    d = sub.add_parser("disasm", help="disassemble a cubin or raw 128-bit words")
    d.add_argument("input")
    d.add_argument("--arch", help="needed for raw words; a cubin says its own")
    d.add_argument("--base", type=lambda s: int(s, 0), default=0, help="address of the first raw word")
    d.add_argument("--control", action="store_true", help="print the scheduling control of each instruction")
    d.add_argument("--hex", action="store_true", help="print the two 64-bit halves of each word")
    d.add_argument("--exact", action="store_true",
                   help="print the control and annotate what nvdisasm's text does not say (a desc=URn note "
                        "for an sm_86/89 descriptor, a NaN's bits), so that asm gives back the same words")
    d.add_argument("--addresses", action="store_true",
                   help="print branch targets as absolute addresses (as nvdisasm -b does) instead of labels")
    args = p.parse_args(argv)
    try:
        if args.arch:
            from .tables import canonical_arch
            args.arch = canonical_arch(args.arch)
        return _asm(args) if args.cmd == "asm" else _disasm(args)
    except AssemblerError as e:
        if e.line is not None:
            print("%s:%d:%d: error: %s" % (args.input, e.line, e.column or 1, e.reason), file=sys.stderr)
        else:
            print("%s: error: %s" % (args.input, e.reason), file=sys.stderr)
        return 1
    except BrokenPipeError:
        # `... | head`: stop quietly (BrokenPipeError is an OSError: caught first)
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return 0
    except (GPUError, OSError, ValueError) as e:
        print("error: %s" % e, file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
