"""`python -m drivers.probe`: one table of the GPUs of every vendor, from one kernel."""
import importlib
import json
import os

import pytest

from drivers.probe import VENDOR_PROBES, main


def run(argv, capsys):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_every_vendor_probe_has_the_contract():
    for vendor, module in VENDOR_PROBES.items():
        m = importlib.import_module(module)
        assert isinstance(m.VENDOR, str) and callable(m.summarize), vendor


def test_emulated_nvidia_machine(capsys):
    code, out, _ = run(["--emulate", "sm_86x2"], capsys)
    lines = out.splitlines()
    assert code == 0 and lines[0] == "GPUs of every vendor · emulated sm_86x2"
    assert lines[1].split() == ["VENDOR", "GPU", "TARGET", "NAME", "UNITS", "VRAM", "PCI", "STATUS"]
    assert lines[2].split() == ["NVIDIA", "0", "sm_86", "NVIDIA", "GeForce", "RTX", "3090", "82", "SM", "24.0", "GiB",
                                "0000:01:00.0", "usable"]
    assert lines[3].split()[:3] == ["NVIDIA", "1", "sm_86"]
    assert lines[4].startswith("AMD: no AMD GPU: /dev/kfd does not exist")


def test_emulated_amd_machine_json(capsys):
    code, out, _ = run(["--json", "--emulate", "gfx1100"], capsys)
    result = json.loads(out)
    amd, nv = result["vendors"]
    assert code == 0 and result["usable"] == 1
    assert (amd["vendor"], amd["devices"][0]["target"], amd["devices"][0]["units"]) == ("AMD", "gfx1100", "96 CU")
    assert nv == {"vendor": "NVIDIA", "devices": [], "reason": nv["reason"]} and nv["reason"].startswith("no NVIDIA GPU")


def test_this_machine_without_gpus_mentions_emulate(capsys, monkeypatch):
    if any(os.path.exists(p) for p in ("/dev/kfd", "/dev/nvidiactl", "/proc/driver/nvidia")):
        pytest.skip("this machine has a GPU driver loaded")
    monkeypatch.delenv("GPU_EMULATE", raising=False)
    code, out, err = run([], capsys)
    assert code == 1 and "AMD: no AMD GPU" in out and "NVIDIA: no NVIDIA GPU" in out
    assert err == "probe: no GPU of any vendor; --emulate TARGET (gfx1100, sm_86, sm_89 or sm_90) probes a virtual one\n"


def test_unknown_target_exits_2(capsys):
    code, _, err = run(["--emulate", "tpu_v5"], capsys)
    assert code == 2 and "unknown emulation target 'tpu_v5'" in err
