"""`python -m drivers.probe`: the GPUs of every vendor this stack drives, in one table.

Each vendor's probe (drivers.<vendor>.probe) exposes ``rows(emulate=None)``: one dict per GPU
with the common columns (vendor, index, name, arch, clock_mhz, usable, reason) and the vendor's
full record under "details"; it raises its NoGPU with a one-line reason when the machine has
none of that vendor's GPUs. ``--emulate TARGET`` probes the virtual GPU of the vendor owning
TARGET (gfx1100, sm_86, a630...) and skips the others.

Exit status: 0 at least one usable GPU; 1 none (each vendor's reason is printed); 2 malformed
input or an unknown target.

This module also holds what the vendor probes' command lines share (VendorProbeCLI, run): the
options, --emulate with its refusal of another vendor's target, replaying a captured tree, --json,
the exit codes and a quiet exit when the reader of a pipe leaves.  Each vendor module keeps only
its own part: how to probe, how to print, where its captured tree is rooted.
"""
import argparse
import importlib
import json
import sys
from dataclasses import dataclass
from typing import Callable

from drivers.errors import MalformedInput

# Vendor -> module with rows(emulate=None) and NoGPU.
VENDOR_PROBES = {"amd": "drivers.amd.probe", "nv": "drivers.nv.probe", "qcom": "drivers.qcom.probe"}
# Vendor -> how a sentence names one of its GPUs ("not an AMD one").
VENDOR_NAMES = {"amd": "an AMD", "nv": "an NVIDIA", "qcom": "a Qualcomm"}


def probe_all(emulate=None):
    """(rows, reasons): every vendor's GPUs, and why a vendor has none (vendor -> reason)."""
    owner = None
    if emulate:
        from drivers.emu import parse_target, targets
        owner = targets()[parse_target(emulate)[0]]
    rows, reasons = [], {}
    for vendor, name in VENDOR_PROBES.items():
        if owner is not None and vendor != owner:
            reasons[vendor] = f"not probed: --emulate {emulate} is a virtual {owner.upper()} GPU"
            continue
        module = importlib.import_module(name)
        try:
            rows += module.rows(emulate if vendor == owner else None)
        except module.NoGPU as e:
            reasons[vendor] = str(e)
    return rows, reasons


def format_table(rows, reasons):
    cols = ("VENDOR", "GPU", "NAME", "ARCH", "CLOCK", "STATUS")
    table = [cols] + [(r["vendor"].upper(), str(r["index"]), r["name"], r["arch"] or "?",
                       f"{r['clock_mhz']} MHz" if r["clock_mhz"] else "?",
                       "usable" if r["usable"] else "not usable") for r in rows]
    widths = [max(len(t[i]) for t in table) for i in range(len(cols))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(t, widths)).rstrip() for t in table] if rows else []
    lines += [f"{r['vendor'].upper()} GPU {r['index']} ({r['name']}): {r['reason']}" for r in rows if r["reason"]]
    lines += [f"{vendor.upper()}: {reason}" for vendor, reason in reasons.items()]
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m drivers.probe", description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", action="store_true", help="print the report as JSON")
    ap.add_argument("--emulate", metavar="TARGET", help="probe a virtual GPU (gfx1100, sm_86, a630...); "
                    "also GPU_EMULATE")
    args = ap.parse_args(argv)
    from drivers.emu import UnknownTarget, emulation_target
    try:
        rows, reasons = probe_all(emulation_target(args.emulate))
    except (UnknownTarget, MalformedInput) as e:
        print(f"probe: error: {e}", file=sys.stderr)
        return 2
    usable = sum(r["usable"] for r in rows)
    if args.json:
        print(json.dumps({"devices": rows, "usable": usable, "reasons": reasons}, indent=2))
    else:
        print(format_table(rows, reasons))
    if not usable:
        hint = "; without one, try --emulate gfx1100, --emulate sm_86 or --emulate a630"
        print("probe: no usable GPU" + ("" if rows else hint), file=sys.stderr)
        return 1
    return 0


# ---------------------------------------------------------------------------------------------
# What the vendor probes' command lines share
# ---------------------------------------------------------------------------------------------

def emulated_kernel(vendor, target):
    """The virtual machine of ``target`` for the probe of ``vendor``; another vendor's target is an
    UnknownTarget that names the probe to use instead."""
    from drivers.emu import UnknownTarget, make_kernel, parse_target, targets
    owner = targets()[parse_target(target)[0]]
    if owner != vendor:
        raise UnknownTarget(f"{target!r} is a virtual {owner.upper()} GPU, not {VENDOR_NAMES[vendor]} one; probe it "
                            f"with python -m drivers.{owner}.probe, or every vendor with python -m drivers.probe")
    return make_kernel(target)


@dataclass(frozen=True)
class CapturedTree:
    """The option that replays a captured kernel tree (``--sysfs-root`` for /sys, ``--proc-root``
    for /proc): ``find`` accepts the directory given (or raises MalformedInput) and returns the root."""
    option: str
    kind: str                   # "sysfs" or "proc": the RealKernel argument and the source label
    default: str                # "/sys" or "/proc"
    help: str
    find: Callable


@dataclass(frozen=True)
class VendorProbeCLI:
    """`python -m drivers.<vendor>.probe`.  ``probe(kernel, check_devices, stand_ins)`` returns the
    report dict ({"devices": [...], "usable": n, ...}) or raises ``no_gpu`` (exit 1), MalformedInput
    or one of ``input_errors`` (exit 2); ``stand_ins`` is true when --dev-root names device files
    that cannot answer ioctls.  ``format_table(report, source)`` is the text output."""
    vendor: str
    doc: str
    emulate_help: str
    tree: CapturedTree
    probe: Callable
    format_table: Callable
    no_gpu: type
    input_errors: tuple = ()
    no_usable: str = "no usable GPU"        # the start of the message when nothing is usable
    no_devices: str = ""                    # the reason when the report lists no device

    def parser(self):
        ap = argparse.ArgumentParser(prog=f"python -m drivers.{self.vendor}.probe",
                                     description=self.doc.split("\n\n")[0])
        ap.add_argument("--json", action="store_true", help="print the report as JSON")
        ap.add_argument("--emulate", metavar="TARGET", help=self.emulate_help)
        ap.add_argument(self.tree.option, metavar="DIR", help=self.tree.help)
        ap.add_argument("--dev-root", metavar="DIR", help="open device nodes below DIR instead of /dev")
        return ap

    def machine(self, args):
        """(kernel, source label, check_devices): the virtual GPU, the real machine or a captured tree."""
        from drivers.emu import emulation_target
        from drivers.kernel import RealKernel
        captured = getattr(args, self.tree.option.lstrip("-").replace("-", "_"))
        target = emulation_target(args.emulate)
        if target and not (captured or args.dev_root):
            return emulated_kernel(self.vendor, target), f"emulated {target}", True
        root = self.tree.find(captured) if captured else self.tree.default
        kernel = RealKernel(dev_root=args.dev_root or "/dev", **{f"{self.tree.kind}_root": root})
        source = f"{self.tree.kind} {root}" + (f", devices {args.dev_root}" if args.dev_root else "")
        # A captured tree without --dev-root: its device nodes are not this machine's, so none is opened.
        return kernel, source, not (captured and not args.dev_root)

    def main(self, argv=None):
        args = self.parser().parse_args(argv)
        from drivers.emu import UnknownTarget
        try:
            kernel, source, check = self.machine(args)
            report = self.probe(kernel, check, args.dev_root is not None)
        except (UnknownTarget, MalformedInput, *self.input_errors) as e:
            print(f"probe: error: {e}", file=sys.stderr)
            return 2
        except self.no_gpu as e:
            if args.json:
                print(json.dumps({"devices": [], "usable": 0, "reason": str(e)}, indent=2))
            print(f"probe: {e}", file=sys.stderr)
            return 1
        print(json.dumps(report, indent=2) if args.json else self.format_table(report, source))
        if report["usable"]:
            return 0
        reasons = (report.get("reason") or "; ".join(d["reason"] for d in report["devices"] if d["reason"])
                   or self.no_devices)
        print(f"probe: {self.no_usable}: {reasons}", file=sys.stderr)
        return 1


def run(main):
    """Exit with main()'s status; `probe | head` closing the pipe early is not an error."""
    try:
        sys.exit(main())
    except BrokenPipeError:                  # the reader left: say nothing more, and exit 0
        sys.stderr.close()
        sys.exit(0)


if __name__ == "__main__":
    run(main)
