"""The whole run as one JSON document (its shape is hw_tests/report.schema.json)."""
import datetime
import json
import os
import platform
import re

from hw_tests.runner import FAIL, PASS, SKIP

REPORT_FORMAT = "gpustack-hw-tests-report/1"
_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def package_version():
    """gpustack's version: the installed distribution's, else setup.py's in this checkout."""
    try:
        from importlib.metadata import PackageNotFoundError, version
        return version("gpustack")
    except PackageNotFoundError:
        pass
    try:
        with open(os.path.join(_ROOT, "setup.py")) as f:
            m = re.search(r'version="([^"]+)"', f.read())
        return m.group(1) if m else "unknown"
    except OSError:
        return "unknown"


def versions(ctx):
    import numpy
    kfd = None
    dev = ctx.dev
    if getattr(ctx, "vendor", "amd") == "amd":
        if dev is not None and not dev.closed:
            kfd = "%d.%d" % dev.kfd.version
        elif "kfd_version" in ctx.shared:
            kfd = ctx.shared["kfd_version"]
    out = {"gpustack": package_version(), "kfd_abi": kfd, "python": platform.python_version(),
           "numpy": numpy.__version__, "kernel": platform.release()}
    if getattr(ctx, "vendor", "amd") == "qcom":
        out["kgsl"] = (ctx.shared.get("qcom") or {}).get("kgsl", {}).get("version")
    if getattr(ctx, "vendor", "amd") == "nv":
        out["nvidia_driver"] = ctx.shared.get("nvidia_driver")
    return out


def build_report(ctx, results, seconds, argv=None):
    counts = {s: sum(r.status == s for r in results) for s in (PASS, FAIL, SKIP)}
    return {
        "format": REPORT_FORMAT,
        "created": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "command": list(argv) if argv is not None else None,
        "device": ctx.describe(),
        "versions": versions(ctx),
        "stages": [r.as_dict() for r in results],
        "summary": {"passed": counts[PASS], "failed": counts[FAIL], "skipped": counts[SKIP],
                    "seconds": round(seconds, 3), "exit_code": 1 if counts[FAIL] else 0},
    }


def write_report(report, path):
    with open(path, "w") as f:
        json.dump(report, f, indent=2, default=_plain)
        f.write("\n")


def _plain(value):
    """numpy scalars and other stragglers -> JSON values."""
    if hasattr(value, "item"):
        return value.item()
    if isinstance(value, (set, tuple)):
        return list(value)
    return str(value)
