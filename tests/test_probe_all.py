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
    assert report["reasons"] == {"amd": "not probed: --emulate a630 is a virtual QCOM GPU"}


def test_emulated_gfx1100_lists_the_radeon(capsys):
    code, out, _ = run(["--emulate", "gfx1100x2"], capsys)
    lines = out.splitlines()
    assert code == 0 and lines[0].split() == ["VENDOR", "GPU", "NAME", "ARCH", "CLOCK", "STATUS"]
    assert [line.split()[:2] + line.split()[-3:] for line in lines[1:3]] == [
        ["AMD", "0", "2482", "MHz", "usable"], ["AMD", "1", "2482", "MHz", "usable"]]
    assert lines[3] == "QCOM: not probed: --emulate gfx1100x2 is a virtual AMD GPU"


def test_this_machine_has_no_gpu_of_any_vendor(capsys, monkeypatch):
    if os.path.exists("/dev/kfd") or os.path.exists("/dev/kgsl-3d0"):
        pytest.skip("this machine has a GPU")
    monkeypatch.delenv("GPU_EMULATE", raising=False)
    code, out, err = run([], capsys)
    assert code == 1 and "AMD: no AMD GPU" in out and "QCOM: no Qualcomm GPU" in out
    assert "try --emulate gfx1100 or --emulate a630" in err


def test_unknown_target_exits_2(capsys):
    code, _, err = run(["--emulate", "sm_99"], capsys)
    assert code == 2 and "unknown emulation target 'sm_99'" in err
