"""`python -m drivers.probe`: every vendor's GPUs through the registry of vendor probes."""
import json
import os

import pytest

from drivers.probe import VENDOR_PROBES, main


def run(argv, capsys):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_every_vendor_probe_exposes_rows():
    import importlib
    for vendor, name in VENDOR_PROBES.items():
        module = importlib.import_module(name)
        assert callable(module.rows) and issubclass(module.NoGPU, Exception), vendor


def test_emulated_a630_lists_the_adreno(capsys):
    code, out, _ = run(["--json", "--emulate", "a630"], capsys)
    report = json.loads(out)
    assert code == 0 and report["usable"] == 1
    (row,) = report["devices"]
    assert {k: row[k] for k in ("vendor", "index", "name", "arch", "clock_mhz", "usable", "reason")} == {
        "vendor": "qcom", "index": 0, "name": "Adreno 630", "arch": "a630", "clock_mhz": 710, "usable": True,
        "reason": None}
    assert row["details"]["chip_id"] == "0x06030001"
    assert report["reasons"] == {"amd": "not probed: --emulate a630 is a virtual QCOM GPU",
                                 "nv": "not probed: --emulate a630 is a virtual QCOM GPU"}


def test_emulated_gfx1100_lists_the_radeon(capsys):
    code, out, _ = run(["--emulate", "gfx1100x2"], capsys)
    lines = out.splitlines()
    assert code == 0 and lines[0].split() == ["VENDOR", "GPU", "NAME", "ARCH", "CLOCK", "STATUS"]
    assert [line.split()[:2] + line.split()[-3:] for line in lines[1:3]] == [
        ["AMD", "0", "2482", "MHz", "usable"], ["AMD", "1", "2482", "MHz", "usable"]]
    assert lines[3:] == ["NV: not probed: --emulate gfx1100x2 is a virtual AMD GPU",
                         "QCOM: not probed: --emulate gfx1100x2 is a virtual AMD GPU"]


def test_this_machine_has_no_gpu_of_any_vendor(capsys, monkeypatch):
    if any(os.path.exists(p) for p in ("/dev/kfd", "/dev/kgsl-3d0", "/dev/nvidiactl", "/proc/driver/nvidia")):
        pytest.skip("this machine has a GPU")
    monkeypatch.delenv("GPU_EMULATE", raising=False)
    code, out, err = run([], capsys)
    assert code == 1 and "AMD: no AMD GPU" in out and "QCOM: no Qualcomm GPU" in out
    assert "NV: no NVIDIA GPU: /dev/nvidiactl does not exist" in out
    # each vendor's reason says how to try its virtual GPU instead
    assert [line.split(":")[0] for line in out.splitlines() if "--emulate" in line] == ["AMD", "NV", "QCOM"]
    assert "try --emulate gfx1100, --emulate sm_86 or --emulate a630" in err


def test_unknown_target_exits_2(capsys):
    code, _, err = run(["--emulate", "sm_99"], capsys)
    assert code == 2 and "unknown emulation target 'sm_99'" in err


def test_emulated_sm_90_lists_the_h100s(capsys):
    code, out, _ = run(["--json", "--emulate", "sm_90x2"], capsys)
    report = json.loads(out)
    assert code == 0 and report["usable"] == 2
    assert [{k: r[k] for k in ("vendor", "index", "name", "arch", "clock_mhz", "usable", "reason")}
            for r in report["devices"]] == [
        {"vendor": "nv", "index": i, "name": "NVIDIA H100 80GB HBM3", "arch": "sm_90", "clock_mhz": None,
         "usable": True, "reason": None} for i in (0, 1)]
    assert report["devices"][1]["details"]["pci_address"] == "0000:29:00.0"
    assert report["devices"][0]["details"]["sms"] == 132
    assert report["reasons"] == {"amd": "not probed: --emulate sm_90x2 is a virtual NV GPU",
                                 "qcom": "not probed: --emulate sm_90x2 is a virtual NV GPU"}


# -- the command line the vendor probes share (drivers.probe.VendorProbeCLI) ----------------------
TARGETS = {"amd": "gfx1100", "nv": "sm_86", "qcom": "a630"}
TREE_OPTIONS = {"amd": "--sysfs-root", "nv": "--proc-root", "qcom": "--sysfs-root"}
NAMES = {"amd": "an AMD", "nv": "an NVIDIA", "qcom": "a Qualcomm"}


def vendor_main(vendor):
    import importlib
    return importlib.import_module(VENDOR_PROBES[vendor]).main


@pytest.mark.parametrize("vendor", sorted(VENDOR_PROBES))
def test_every_vendor_probe_has_the_same_options(vendor, capsys):
    with pytest.raises(SystemExit) as e:
        vendor_main(vendor)(["--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert e.value.code == 0 and out.startswith(f"usage: python -m drivers.{vendor}.probe [-h] [--json] "
                                                f"[--emulate TARGET] [{TREE_OPTIONS[vendor]} DIR] [--dev-root DIR]")
    assert "open device nodes below DIR instead of /dev" in out and "also GPU_EMULATE" in out


@pytest.mark.parametrize("vendor, owner", [(v, o) for v in sorted(VENDOR_PROBES) for o in sorted(VENDOR_PROBES)
                                           if v != o])
def test_every_vendor_probe_refuses_another_vendors_target(vendor, owner, capsys):
    assert vendor_main(vendor)(["--emulate", TARGETS[owner]]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == (
        f"probe: error: '{TARGETS[owner]}' is a virtual {owner.upper()} GPU, not {NAMES[vendor]} one; probe it with "
        f"python -m drivers.{owner}.probe, or every vendor with python -m drivers.probe\n")


@pytest.mark.parametrize("vendor", sorted(VENDOR_PROBES))
def test_every_vendor_probe_without_its_device_nodes_exits_1_with_json(vendor, tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("GPU_EMULATE", raising=False)
    assert vendor_main(vendor)(["--json", "--dev-root", str(tmp_path)]) == 1
    out, err = capsys.readouterr()
    report = json.loads(out)
    assert report == {"devices": [], "usable": 0, "reason": report["reason"]} and report["reason"]
    assert err == f"probe: {report['reason']}\n"
    assert "--emulate" in report["reason"]          # a user without the GPU learns of the virtual one


@pytest.mark.parametrize("module, target", [("drivers.probe", "sm_86")] +
                         [(VENDOR_PROBES[v], TARGETS[v]) for v in sorted(VENDOR_PROBES)])
def test_every_probe_ends_quietly_on_a_closed_pipe(module, target):
    import subprocess
    import sys
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    proc = subprocess.Popen([sys.executable, "-m", module, "--json", "--emulate", target], cwd=root,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout.readline() == b"{\n"
    proc.stdout.close()                          # `... | head -1`
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert proc.wait(timeout=60) == 0 and err == "", err
