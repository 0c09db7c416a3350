"""`python -m assembler.cubin FILE.cubin...`: what a launcher reads from a cubin (no NVIDIA tools).

    python -m assembler.cubin k.cubin            kernels, registers, parameters, memory, banks
    python -m assembler.cubin -v k.cubin         also every .nv.info attribute
    python -m assembler.cubin --build k.sass -o k.cubin [--arch sm_90]
"""
import argparse
import os
import sys

from assembler.errors import AssemblerError, GPUError

from .reader import read_cubin


def describe(cub, verbose=False):
    lines = ["%s cubin (e_flags 0x%08x, ABI %d): %d kernel(s)" % (cub.arch, cub.e_flags, cub.abi_version,
                                                                  len(cub.kernels))]
    for k in cub.kernels.values():
        lines.append("kernel %s: %d bytes of code, %d registers, %d barrier(s)" % (k.name, k.code_size, k.regs,
                                                                                  k.barriers))
        lines.append("  parameters: %d bytes at c[0x0][0x%x] (constant bank 0 is %d bytes)"
                     % (k.param_size, k.param_base, k.cbank0_size))
        for p in k.params:
            lines.append("    #%d at c[0x0][0x%x], %d bytes" % (p.ordinal, k.param_base + p.offset, p.size))
        lines.append("  shared %d bytes%s, local %d bytes per thread (min stack %d, CRS stack %d)"
                     % (k.shared_size, " (%d reserved)" % k.shared_reserved if k.shared_reserved else "",
                        k.local_size, k.min_stack, k.crs_stack))
        for what, v in (("max threads", k.max_threads), ("required threads", k.reqntid),
                        ("cluster", k.cluster_dims)):
            if v:
                lines.append("  %s %s" % (what, "x".join(str(x) for x in v)))
        if k.exit_offsets:
            lines.append("  EXIT at " + " ".join("0x%x" % o for o in k.exit_offsets))
        for bank, data in sorted(k.const_banks.items()):
            lines.append("  constant bank %d: %d bytes" % (bank, len(data)))
        for fn, (off, size) in sorted(k.functions.items(), key=lambda x: x[1]):
            lines.append("  function %s at 0x%x (%d bytes)" % (fn, off, size))
        for r in k.relocations:
            lines.append("  relocation at 0x%x: type %d against %s%+d" % (r.offset, r.type, r.symbol, r.addend))
        if verbose:
            for name, fmt, value in k.attributes:
                v = value.hex() if isinstance(value, bytes) else value
                lines.append("    %s (format %d) %s" % (name, fmt, "" if v is None else v))
    for bank, data in sorted(cub.const_banks.items()):
        lines.append("constant bank %d: %d bytes" % (bank, len(data)))
    for name, (sec, off, size) in sorted(cub.globals.items()):
        lines.append("global %s: %d bytes at %s+0x%x" % (name, size, sec, off))
    for r in cub.relocations:
        if not r.section.startswith(".text") and "debug" not in r.section:
            lines.append("relocation in %s at 0x%x: type %d against %s%+d" % (r.section, r.offset, r.type, r.symbol,
                                                                           r.addend))
    return "\n".join(lines)


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m assembler.cubin",
                                description="Show what a launcher reads from NVIDIA cubins, or build one "
                                            "from SASS with .kernel directives")
    p.add_argument("files", nargs="+")
    p.add_argument("-v", "--verbose", action="store_true", help="list every .nv.info attribute")
    p.add_argument("--build", action="store_true", help="build a cubin from the directive text file")
    p.add_argument("-o", "--output")
    p.add_argument("--arch")
    args = p.parse_args(argv)
    try:
        if args.build:
            from .text import build_cubin
            if len(args.files) != 1:
                p.error("--build takes one text file")
            src = args.files[0]
            with open(src) as f:
                data = build_cubin(f.read(), args.arch, source=src)
            out = args.output or src.rsplit(".", 1)[0] + ".cubin"
            with open(out, "wb") as f:
                f.write(data)
            return 0
        for path in args.files:
            with open(path, "rb") as f:
                print(describe(read_cubin(f.read(), path), args.verbose))
    except AssemblerError as e:
        where = "%s:%s: " % (args.files[0], e.line) if e.line else "%s: " % args.files[0]
        print(where + "error: " + e.reason, file=sys.stderr)
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
