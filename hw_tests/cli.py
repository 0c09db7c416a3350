"""`python -m hw_tests`: bring up a card (or the virtual one) stage by stage.

    python -m hw_tests --device amd:0              # every stage on GPU 0
    python -m hw_tests --device qcom:0             # the Adreno of a Snapdragon phone, through KGSL
    python -m hw_tests --emulate gfx1100 --json r.json
    python -m hw_tests --emulate a630              # the virtual Adreno 630 (--device qcom:0 implied)
    python -m hw_tests --list                      # the stages and what each needs
    python -m hw_tests --device amd:0 --only sdma_copy,peak_memory

Exit status: 0 when every stage passed or was skipped for a stated reason, 1 when any failed,
2 for a bad command line.
"""
import argparse
import os
import sys
import time

from hw_tests.console import Console
from hw_tests.context import Context, UsageError, vendor_of
from hw_tests.report import build_report, write_report
from hw_tests.runner import Runner


def build_registry(vendor="amd"):
    from hw_tests.stages import build_registry as build
    return build(vendor)


def list_stages(registry, out):
    width = max(len(s.name) for s in registry)
    for s in registry:
        needs = f"  (needs {', '.join(s.depends)})" if s.depends else ""
        print(f"{s.name.ljust(width)}  {s.title}{needs}", file=out)


def captured_kernel(args):
    """A kernel reading a captured /sys (and /dev) tree, when --sysfs-root / --dev-root ask for one."""
    if not (args.sysfs_root or args.dev_root):
        return None
    if args.emulate:
        raise UsageError("--sysfs-root / --dev-root replay a captured machine; they do not combine with --emulate")
    from drivers.amd.probe import find_sysfs_root
    from drivers.errors import MalformedInput
    from drivers.kernel import RealKernel
    try:
        sysfs = find_sysfs_root(args.sysfs_root) if args.sysfs_root else "/sys"
    except MalformedInput as e:
        raise UsageError(f"--sysfs-root: {e}") from None
    return RealKernel(sysfs_root=sysfs, dev_root=args.dev_root or "/dev")


def parse_only(text, registry):
    names = [n.strip() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in registry]
    if unknown or not names:
        raise UsageError(f"--only {text!r}: unknown stage {unknown[0] if unknown else '(none given)'}; "
                         f"see --list for the {len(registry)} stages")
    return names


def run(ctx, registry, console, only=None, argv=None):
    """Run the suite on ``ctx``; returns (report dict, exit code). Always closes the device."""
    runner = Runner(registry, ctx, console)
    start = time.perf_counter()
    try:
        results = runner.run(only)
    finally:
        try:
            ctx.close()
        except Exception as e:       # noqa: BLE001 -- a teardown problem is reported, not hidden
            console.write(f"closing the device failed: {type(e).__name__}: {e}")
    seconds = time.perf_counter() - start
    console.summary(results, seconds)
    return build_report(ctx, results, seconds, argv), runner.exit_code


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    ap = argparse.ArgumentParser(prog="python -m hw_tests", description=__doc__.split("\n\n")[0])
    ap.add_argument("--device", default=None, metavar="VENDOR:N",
                    help="the GPU to test: amd:N, nv:N or qcom:0 (default amd:0, or the --emulate target's vendor)")
    ap.add_argument("--emulate", metavar="TARGET",
                    help="test the virtual GPU instead (gfx1100, sm_86, sm_89, sm_90, a630); also GPU_EMULATE")
    ap.add_argument("--json", metavar="FILE", help="write the whole report as JSON")
    ap.add_argument("--only", metavar="STAGE[,STAGE]", help="run these stages (and the stages they need)")
    ap.add_argument("--list", action="store_true", help="list the stages and exit")
    ap.add_argument("--sysfs-root", metavar="DIR", help="read the topology from a captured /sys tree "
                    "(e.g. tar c /sys/devices/virtual/kfd), with --only sysfs")
    ap.add_argument("--dev-root", metavar="DIR", help="open device nodes below DIR instead of /dev")
    args = ap.parse_args(argv)
    from drivers.emu import emulation_target
    try:
        registry = build_registry(vendor_of(args.device, emulation_target(args.emulate)))
    except UsageError as e:
        print(f"hw_tests: error: {e}", file=sys.stderr)
        return 2
    if args.list:
        list_stages(registry, sys.stdout)
        return 0
    console = Console()
    try:
        only = parse_only(args.only, registry) if args.only else None
        folder = os.path.dirname(os.path.abspath(args.json)) if args.json else None
        if folder and not os.path.isdir(folder):
            raise UsageError(f"--json {args.json}: directory {folder} does not exist")
        ctx = Context(args.device, emulation_target(args.emulate), kernel=captured_kernel(args))
        ctx.device_nodes = not (args.sysfs_root and not args.dev_root)
    except UsageError as e:
        print(f"hw_tests: error: {e}", file=sys.stderr)
        return 2
    where = f"virtual {ctx.target}" if ctx.emulated else f"{ctx.vendor}:{ctx.index}"
    console.write(f"hw_tests: bring-up of {where}")
    try:
        report, code = run(ctx, registry, console, only, argv)
    except KeyboardInterrupt:
        console.write("hw_tests: interrupted; the device was closed")
        return 130
    if args.json:
        try:
            write_report(report, args.json)
        except OSError as e:
            print(f"hw_tests: error: cannot write {args.json}: {e.strerror or e}", file=sys.stderr)
            return 2
        console.write(f"report written to {args.json}")
    return code
