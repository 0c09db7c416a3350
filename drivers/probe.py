"""`python -m drivers.probe`: every GPU of every vendor this stack knows, in one table.

Each vendor's probe module (VENDOR_PROBES) has `VENDOR` and `summarize(kernel)`, which returns
{"vendor", "devices": [{"index", "target", "name", "units", "vram_bytes", "pci_address", "usable",
"reason"}], "reason"} (the reason why that vendor has nothing usable, or None) and raises
MalformedInput for a tree it cannot read.  All of them probe the same kernel: this machine, or with
--emulate the one virtual machine (which has only that target's GPUs, so the other vendors report
none).  `python -m drivers.amd.probe` / `drivers.nv.probe` show every detail.

Exit status: 0 at least one usable GPU; 1 none (each vendor's reason is printed); 2 malformed input
or an unknown emulation target.
"""
import argparse
import importlib
import json
import sys

from drivers.errors import MalformedInput
from drivers.kernel import RealKernel

# Vendor -> its probe module (VENDOR, summarize).  One line per vendor.
VENDOR_PROBES = {
    "amd": "drivers.amd.probe",
    "nv": "drivers.nv.probe",
}


def summaries(kernel):
    return [importlib.import_module(module).summarize(kernel) for module in VENDOR_PROBES.values()]


def _gib(n):
    return f"{n / (1 << 30):.1f} GiB" if n else "?"


def format_table(results, source):
    cols = ("VENDOR", "GPU", "TARGET", "NAME", "UNITS", "VRAM", "PCI", "STATUS")
    rows = [cols]
    for r in results:
        for d in r["devices"]:
            rows.append((r["vendor"], str(d["index"]), d["target"] or "?", d["name"] or "?", d["units"],
                         _gib(d["vram_bytes"]), d["pci_address"] or "?", "usable" if d["usable"] else "not usable"))
    lines = [f"GPUs of every vendor · {source}"]
    if len(rows) > 1:
        widths = [max(len(row[i]) for row in rows) for i in range(len(cols))]
        lines += ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in rows]
    for r in results:
        for d in r["devices"]:
            if d["reason"]:
                lines.append(f"{r['vendor']} GPU {d['index']} ({d['target'] or '?'}, {d['name']}): {d['reason']}")
        if not r["devices"] and r["reason"]:
            lines.append(f"{r['vendor']}: {r['reason']}")
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m drivers.probe", description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", action="store_true", help="print the result as JSON")
    ap.add_argument("--emulate", metavar="TARGET", help="probe a virtual machine with that target's GPUs "
                    "(gfx1100, sm_86, sm_89, sm_90; xN for N of them); also GPU_EMULATE")
    args = ap.parse_args(argv)
    from drivers.emu import UnknownTarget, emulation_target, make_kernel, targets
    target = emulation_target(args.emulate)
    try:
        kernel, source = (make_kernel(target), f"emulated {target}") if target else (RealKernel(), "this machine")
        results = summaries(kernel)
    except (UnknownTarget, MalformedInput) as e:
        print(f"probe: error: {e}", file=sys.stderr)
        return 2
    usable = sum(d["usable"] for r in results for d in r["devices"])
    if args.json:
        print(json.dumps({"vendors": results, "usable": usable}, indent=2))
    else:
        print(format_table(results, source))
    if usable:
        return 0
    if not any(r["devices"] for r in results) and not target:
        names = list(targets())
        choices = ", ".join(names[:-1]) + f" or {names[-1]}" if len(names) > 1 else names[0]
        print(f"probe: no GPU of any vendor; --emulate TARGET ({choices}) probes a virtual one", file=sys.stderr)
    else:
        print("probe: no usable GPU", file=sys.stderr)
    return 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:                  # `probe | head`: the reader left; that is not an error
        sys.stderr.close()
        sys.exit(0)
