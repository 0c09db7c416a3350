"""`python -m drivers.probe`: the GPUs of every vendor this stack drives, in one table.

Each vendor's probe (drivers.<vendor>.probe) exposes ``rows(emulate=None)``: one dict per GPU
with the common columns (vendor, index, name, arch, clock_mhz, usable, reason) and the vendor's
full record under "details"; it raises its NoGPU with a one-line reason when the machine has
none of that vendor's GPUs. ``--emulate TARGET`` probes the virtual GPU of the vendor owning
TARGET (gfx1100, sm_86, a630...) and skips the others.

Exit status: 0 at least one usable GPU; 1 none (each vendor's reason is printed); 2 malformed
input or an unknown target.
"""
import argparse
import importlib
import json
import sys

from drivers.errors import MalformedInput

# Vendor -> module with rows(emulate=None) and NoGPU.
VENDOR_PROBES = {"amd": "drivers.amd.probe", "nv": "drivers.nv.probe", "qcom": "drivers.qcom.probe"}


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


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:                  # `probe | head`: the reader left; that is not an error
        sys.stderr.close()
        sys.exit(0)
