"""`python -m tensor`: which devices can the tensor library run on here?

Lists the tensor backends (the default first, as chosen by TENSOR_DEVICE or the first GPU with
a backend, else CPU) and the GPUs the drivers find, saying which have no tensor backend yet.
"""
import argparse
import json
import sys


def gpus(emulate=None):
    """[(name, description, usable reason or None)] for the GPUs the drivers can see."""
    from drivers.amd.probe import NoGPU, probe
    from drivers.emu import UnknownTarget, emulation_target, make_kernel
    from drivers.errors import MalformedInput
    from drivers.kernel import RealKernel
    target = emulation_target(emulate)
    try:
        kernel = make_kernel(target) if target else RealKernel()
        report = probe(kernel)
    except (NoGPU, MalformedInput, UnknownTarget, OSError) as e:
        hint = "" if target else " (run with --emulate gfx1100 to see the virtual GPU)"
        return [], f"AMD: {e}{hint}"
    out = []
    for d in report["devices"]:
        where = f"virtual {target}" if target else d.get("pci_address") or ""
        out.append({"name": f"AMD:{d['index']}", "gpu": d["name"], "target": d["gfx_target"],
                    "where": where, "usable": d["usable"], "reason": d["reason"]})
    return out, None


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m tensor", description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", action="store_true", help="print the same as JSON")
    ap.add_argument("--emulate", metavar="TARGET",
                    help="also look at the virtual GPU (gfx1100, gfx1100xN); also GPU_EMULATE")
    args = ap.parse_args(argv)
    from tensor import device as devices
    default = devices.default()
    backends = []
    for name in devices.BACKENDS:
        ok, detail = devices.probe(name)
        module, cls = devices.BACKENDS[name]
        desc = getattr(__import__(module, fromlist=[cls]), cls).description
        backends.append({"name": name, "available": ok, "default": name == default.partition(":")[0],
                         "description": desc, "detail": detail})
    found, note = gpus(args.emulate)
    if args.json:
        print(json.dumps({"backends": backends, "default": default, "gpus": found, "note": note}, indent=2))
        return 0
    print("tensor backends:")
    for b in backends:
        flag = "available" if b["available"] else f"unavailable: {b['detail']}"
        star = "  (default)" if b["default"] else ""
        print(f"  {b['name']:<6} {flag:<10} {b['description']}{star}")
    print("GPUs:")
    if note:
        print(f"  none: {note}")
    for g in found:
        state = "no tensor backend for it yet (code generator to come); drivers usable" if g["usable"] \
            else f"not usable: {g['reason']}"
        print(f"  {g['name']:<6} {g['gpu']} ({g['target']}, {g['where']}): {state}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:
        sys.stderr.close()
        sys.exit(0)
