"""`python -m assembler.amdgpu FILE...`: print the target, kernels, descriptors and arguments of
AMDHSA code objects, as a loader reads them (no LLVM needed). Exit status 1 if any file could
not be read; a closed pipe (``... | head``) ends the output quietly."""
import argparse
import sys

from assembler.errors import GPUError

from .directives import descriptor_directives
from .elf_reader import load_code_object


def describe(co, verbose=False):
    lines = [f"target {co.target.target_id} (e_flags 0x{co.e_flags:x}), code object v{co.code_object_version}, "
             f"image {len(co.image)} bytes, {len(co.relocations)} relocations"]
    for k in co.kernels.values():
        kd = k.descriptor
        lines.append(f"kernel {k.name}: descriptor at 0x{k.kd_offset:x}, entry at 0x{k.entry_offset:x}"
                     + (f" ({k.code_size} bytes)" if k.code_size is not None else ""))
        lines.append(f"  rsrc1 0x{kd.compute_pgm_rsrc1:08x} rsrc2 0x{kd.compute_pgm_rsrc2:08x} "
                     f"rsrc3 0x{kd.compute_pgm_rsrc3:08x} properties 0x{kd.kernel_code_properties:04x} "
                     f"kernarg {kd.kernarg_size} lds {kd.group_segment_fixed_size} "
                     f"scratch {kd.private_segment_fixed_size}")
        if verbose:
            for name, value in descriptor_directives(kd, co.target).items():
                lines.append(f"    {name} {value}")
        if k.metadata is not None:
            m = k.metadata
            lines.append(f"  kernarg segment {m.kernarg_segment_size} bytes (align {m.kernarg_segment_align}), "
                         f"wave{m.wavefront_size}, {m.sgpr_count} SGPRs, {m.vgpr_count} VGPRs")
            for a in m.args:
                where = f" {a.address_space}" if a.address_space else ""
                label = f" {a.name}" if a.name else ""
                lines.append(f"    +{a.offset:<4} {a.size:>2} bytes  {a.value_kind}{where}{label}")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m assembler.amdgpu", description=__doc__)
    parser.add_argument("files", nargs="+", help="code objects (.hsaco, .co)")
    parser.add_argument("-v", "--verbose", action="store_true", help="also print every .amdhsa_* field")
    args = parser.parse_args(argv)
    status = 0
    for path in args.files:
        try:
            with open(path, "rb") as f:
                data = f.read()
            text = describe(load_code_object(data, path), args.verbose)
        except OSError as err:
            print(f"{path}: {err.strerror}", file=sys.stderr)
            status = 1
            continue
        except GPUError as err:
            print(str(err), file=sys.stderr)
            status = 1
            continue
        print(f"{path}:\n{text}")
    return status


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:                  # `... | head`: the reader left; that is not an error
        sys.stderr.close()
        sys.exit(0)
