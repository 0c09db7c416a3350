"""`python -m tensor`: which devices can the tensor library run on here?

Lists the tensor backends (the default first, as chosen by TENSOR_DEVICE or the first GPU with
a backend, else CPU) and the GPUs the drivers find, saying which have no tensor backend yet.
"""
import argparse
import json
import sys


def gpus(emulate=None):
    """(GPU rows of every vendor, {vendor: why it has none}) from the drivers' probes."""
    from drivers.emu import emulation_target
    from drivers.probe import probe_all
    target = emulation_target(emulate)
    rows, reasons = probe_all(target)
    out = [{"name": f"{r['vendor'].upper()}:{r['index']}", "gpu": r["name"], "arch": r["arch"],
            "usable": r["usable"], "reason": r["reason"]} for r in rows]
    return out, reasons


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m tensor", description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", action="store_true", help="print the same as JSON")
    ap.add_argument("--emulate", metavar="TARGET",
                    help="look at a virtual GPU (gfx1100, sm_86, a630...); also GPU_EMULATE")
    args = ap.parse_args(argv)
    if args.emulate:                           # the tensor backends look at the same machine
        import os
        os.environ["GPU_EMULATE"] = args.emulate
    from tensor import device as devices
    default = devices.default()
    backends = []
    for name in devices.BACKENDS:
        ok, detail = devices.probe(name)
        desc = devices.backend_class(name).description
        backends.append({"name": name, "available": ok, "default": name == default.partition(":")[0],
                         "description": desc, "detail": detail})
    try:
        found, reasons = gpus(args.emulate)
    except Exception as e:                     # an unknown --emulate target, malformed sysfs...
        print(f"tensor: error: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps({"backends": backends, "default": default, "gpus": found,
                          "no_gpu": reasons}, indent=2))
        return 0
    print("tensor backends:")
    for b in backends:
        flag = "available" if b["available"] else f"unavailable: {b['detail']}"
        star = "  (default)" if b["default"] else ""
        print(f"  {b['name']:<6} {flag:<10} {b['description']}{star}")
    print("GPUs:")
    for g in found:
        if not g["usable"]:
            state = f"not usable: {g['reason']}"
        elif g["name"].startswith("AMD") and (g["arch"] or "").startswith("gfx11"):
            state = f"tensor device {g['name'] if not g['name'].endswith(':0') else 'AMD'}"
        else:
            state = "no tensor backend for it yet; the drivers can use it"
        print(f"  {g['name']:<7} {g['gpu']} ({g['arch'] or '?'}): {state}")
    for vendor, reason in reasons.items():
        print(f"  {vendor.upper():<7} none: {reason}")
    if not found and not args.emulate:
        print("  (--emulate gfx1100, sm_86 or a630 shows a virtual GPU)")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:
        sys.stderr.close()
        sys.exit(0)
