"""`python -m hw_tests --emulate a630` (the virtual Adreno 630, --device qcom:0 implied) end to end:
every Qualcomm stage passes, the report validates against the schema and describes the chip,
and on a machine without KGSL the first stage fails with the reason and the rest skip."""
import json
import os

import pytest

from hw_tests import cli
from hw_tests.schema import load_schema, validate
from hw_tests.stages import build_registry


@pytest.fixture(scope="module")
def emulated_run(tmp_path_factory):
    path = tmp_path_factory.mktemp("hw_tests_qcom") / "r.json"
    code = cli.main(["--emulate", "a630", "--json", str(path)])
    return code, json.loads(path.read_text())


def test_every_stage_passes_and_the_report_validates(emulated_run):
    code, report = emulated_run
    assert validate(report, load_schema()) == []
    assert code == 0 and report["summary"]["failed"] == 0 and report["summary"]["skipped"] == 0
    assert [s["name"] for s in report["stages"]] == build_registry("qcom").names
    device = report["device"]
    assert device["spec"] == "emulate:a630" and device["target"] == "a630" and device["name"] == "Adreno 630"
    assert device["kgsl"] == {"chip_id": 0x06030001, "gmem_bytes": 1 << 20, "version": "3.14", "fault_reports": True}
    assert report["versions"]["kgsl"] == "3.14" and report["versions"]["kfd_abi"] is None


def test_the_stages_cover_the_programs_on_both_wave_sizes(emulated_run):
    _, report = emulated_run
    stages = {s["name"]: s for s in report["stages"]}
    for name in ("vadd", "scale", "bits", "loopsum", "reduce", "atomics", "half", "branch", "sfu"):
        numbers = stages[f"isa_{name}"]["numbers"]
        assert "wave64_seconds" in numbers and "wave128_seconds" in numbers
    assert stages["faults"]["numbers"]["fault_va"]["value"] == "0xbad000000000"
    assert "this measures the simulator" in stages["peak_fp32"]["summary"]


def test_without_kgsl_the_first_stage_fails_and_the_rest_skip(tmp_path, monkeypatch):
    monkeypatch.delenv("GPU_EMULATE", raising=False)
    if os.path.exists("/dev/kgsl-3d0"):
        pytest.skip("this machine has KGSL")
    path = tmp_path / "r.json"
    assert cli.main(["--device", "qcom:0", "--json", str(path)]) == 1
    report = json.loads(path.read_text())
    assert validate(report, load_schema()) == []
    first, *rest = report["stages"]
    assert first["status"] == "FAIL" and "no /sys/class/kgsl/kgsl-3d0" in first["error"]["message"]
    assert all(s["status"] == "SKIP" for s in rest)
