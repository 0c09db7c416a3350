"""Command line: assemble mesa-syntax ir3 source, disassemble raw words or a program container.

    python -m assembler.ir3 asm IN.asm [-o OUT] [--raw]   a program container (.ir3), or raw
                                                          words with --raw
    python -m assembler.ir3 disasm FILE [--no-labels] [--show-errors]
                                                          raw words or a container (headers are
                                                          printed as @lines, then the code)
No GPU is needed: this is an offline tool (the virtual Adreno is selected with --emulate a630
by the driver tools, not here).
"""
import argparse
import signal
import sys

from assembler.errors import AssemblerError, GPUError

from . import Program, assemble_program, disassemble
from .program import MAGIC, regname


def _asm(args):
    with open(args.input) as f:
        text = f.read()
    prog = assemble_program(text, args.gpu, source=args.input)
    data = prog.code if args.raw else prog.write()
    out = args.output or (args.input.rsplit(".", 1)[0] + (".bin" if args.raw else ".ir3"))
    with open(out, "wb") as f:
        f.write(data)
    return 0


def _headers(p):
    out = ["@localsize %d, %d, %d" % p.localsize]
    for kind, i in p.params:                 # in header order: the order call arguments take
        if kind == "buf":
            b = p.bufs[i]
            s = "@buf %d" % b.size
            if b.addr_const is not None:
                s += " (%s)" % regname("c", b.addr_const)
            if b.init:
                s += " " + ", ".join("0x%x" % w for w in b.init)
        else:
            a = p.args[i]
            s = "@arg(%s) %s%s" % (regname("c", a.regid), a.type, " " + a.name if a.name else "")
        out.append(s)
    if p.threadsize != 64:
        out.append("@threadsize %d" % p.threadsize)
    for reg, words in p.consts:
        out.append("@const(%s) %s" % (regname("c", reg), ", ".join("0x%08x" % w for w in words)))
    for name, file in (("invocationid", "r"), ("wgid", "r"), ("numwg", "c")):
        if getattr(p, name) is not None:
            out.append("@%s(%s)" % (name, regname(file, getattr(p, name))))
    if p.branchstack:
        out.append("@branchstack %d" % p.branchstack)
    if p.pvtmem:
        out.append("@pvtmem %d" % p.pvtmem)
    if p.localmem:
        out.append("@localmem %d" % p.localmem)
    if p.earlypreamble:
        out.append("@earlypreamble")
    full, half, const = p.footprint()
    out.append("; %d instructions, full regs %d, half regs %d, constlen %d vec4"
               % (p.instructions, full, half, const))
    return out


def _disasm(args):
    with open(args.input, "rb") as f:
        data = f.read()
    lines = []
    if data[:4] == MAGIC:
        prog = Program.read(data, args.input)
        lines += _headers(prog)
        data = prog.code
    lines += disassemble(data, args.gpu, labels=not args.no_labels, show_errors=args.show_errors)
    sys.stdout.write("".join(line + "\n" for line in lines))
    return 0


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m assembler.ir3",
                                description="Adreno a6xx (ir3) assembler / disassembler in mesa's syntax")
    p.add_argument("--gpu", default="a630", help="target GPU (a6xx; default a630)")
    sub = p.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("asm", help="assemble a source file")
    a.add_argument("input")
    a.add_argument("-o", "--output")
    a.add_argument("--raw", action="store_true", help="write the bare instruction words")
    d = sub.add_parser("disasm", help="disassemble raw words or a program container")
    d.add_argument("input")
    d.add_argument("--no-labels", action="store_true", help="print branch offsets, not lN labels")
    d.add_argument("--show-errors", action="store_true",
                   help="append mesa's warnings (dontcare bits set...) after '; '")
    args = p.parse_args(argv)
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)   # `... | head` ends quietly
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
