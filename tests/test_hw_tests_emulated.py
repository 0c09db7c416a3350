"""`python -m hw_tests --emulate gfx1100 --json FILE` end to end: every stage passes (a stage a
lower layer blocks fails naming that layer and is expected to), the report validates against
hw_tests/report.schema.json, and a stage broken on purpose fails while its dependents skip."""
import json

import pytest

from hw_tests import cli
from hw_tests.report import REPORT_FORMAT
from hw_tests.schema import load_schema, validate
from hw_tests.stages import build_registry


@pytest.fixture(scope="module")
def emulated_run(tmp_path_factory):
    path = tmp_path_factory.mktemp("hw_tests") / "r.json"
    code = cli.main(["--emulate", "gfx1100", "--json", str(path)])
    return code, json.loads(path.read_text())


def test_report_validates_against_the_schema(emulated_run):
    _, report = emulated_run
    assert validate(report, load_schema()) == []
    assert report["format"] == REPORT_FORMAT
    assert report["device"]["spec"] == "emulate:gfx1100" and report["device"]["emulated"] is True
    assert report["device"]["target"] == "gfx1100"
    assert report["device"]["topology"]["compute_units"] == 96
    assert report["versions"]["kfd_abi"] == "1.18"
    assert [s["name"] for s in report["stages"]] == build_registry().names


def test_report_is_consistent(emulated_run):
    code, report = emulated_run
    for s in report["stages"]:
        assert (s["error"] is not None) == (s["status"] == "FAIL"), s["name"]
        assert (s["skip_reason"] is not None) == (s["status"] == "SKIP"), s["name"]
    summary = report["summary"]
    assert summary["passed"] + summary["failed"] + summary["skipped"] == len(report["stages"])
    assert summary["exit_code"] == code == (1 if summary["failed"] else 0)


@pytest.mark.parametrize("name", build_registry().names)
def test_stage_passes_on_the_virtual_gpu(emulated_run, name):
    _, report = emulated_run
    stage = next(s for s in report["stages"] if s["name"] == name)
    assert stage["status"] == "PASS", json.dumps(stage, indent=1)


def test_throughput_stages_say_they_measure_the_simulator(emulated_run):
    _, report = emulated_run
    for s in report["stages"]:
        if s["status"] == "PASS" and (s["name"].startswith("peak_") or s["name"] == "sdma_bandwidth"):
            assert "virtual GPU" in s["summary"], s["summary"]
        if s["status"] == "PASS" and s["name"].startswith("peak_"):
            assert "this measures the simulator" in s["summary"]


def test_a_broken_stage_fails_and_its_dependents_skip(tmp_path, monkeypatch, capsys):
    from hw_tests.stages import memory

    def broken(ctx, r):
        r.step("about to break")
        raise RuntimeError("memory controller on fire (deliberately)")

    monkeypatch.setattr(memory, "memory_heaps", broken)
    path = tmp_path / "broken.json"
    assert cli.main(["--emulate", "gfx1100", "--only", "sdma_bandwidth,memory_limits", "--json", str(path)]) == 1
    out = capsys.readouterr().out
    report = json.loads(path.read_text())
    assert validate(report, load_schema()) == []
    stages = {s["name"]: s for s in report["stages"]}
    assert list(stages) == ["sysfs", "open", "memory", "memory_limits", "sdma_copy", "sdma_bandwidth"]
    assert stages["open"]["status"] == "PASS"
    assert stages["memory"]["status"] == "FAIL"
    assert stages["memory"]["error"]["message"] == "memory controller on fire (deliberately)"
    assert stages["memory"]["steps"] == ["about to break"]
    for name in ("memory_limits", "sdma_copy"):
        assert stages[name]["status"] == "SKIP" and stages[name]["skip_reason"] == "depends on memory, which failed"
    assert stages["sdma_bandwidth"]["skip_reason"] == "depends on sdma_copy, which was skipped because memory failed"
    assert "memory ............" in out and "FAIL" in out and "RuntimeError: memory controller on fire" in out
    assert "1 failed" in out


def test_a_gpu_clock_other_than_the_runtimes_fails_the_signals_stage(tmp_path, monkeypatch, capsys):
    from hw_tests.stages import signals
    monkeypatch.setattr(signals, "GPU_CLOCK_HZ", 50_000_000)
    path = tmp_path / "clock.json"
    assert cli.main(["--emulate", "gfx1100", "--only", "interrupts", "--json", str(path)]) == 1
    stages = {s["name"]: s for s in json.loads(path.read_text())["stages"]}
    message = stages["signals"]["error"]["message"]
    assert message.startswith("compute: ") and "the runtime converts at 50 MHz (tolerance 25%)" in message
    assert stages["interrupts"]["skip_reason"] == "depends on signals, which failed"


def test_scaled_sizes_are_noted_in_the_report(emulated_run):
    _, report = emulated_run
    notes = {s["name"]: s["notes"] for s in report["stages"]}
    assert "virtual GPU: sizes capped at 64 MiB (a card goes to 256 MiB)" in notes["sdma_copy"]
    assert "virtual GPU: work-items 256 (a card runs 4096)" in notes["isa_valu_f32"]
    assert any(n.startswith("virtual GPU: workgroups ") for n in notes["peak_fp32"])


def test_copy_sizes_are_printed_exactly(emulated_run):
    from hw_tests.units import exact_size
    assert [exact_size(n) for n in (1, 4095, 4096, 4097, 65537, 1 << 20, (1 << 20) + 13, 64 << 20)] == \
        ["1 B", "4095 B", "4 KiB", "4097 B", "65537 B", "1 MiB", "1048589 B", "64 MiB"]
    _, report = emulated_run
    copy = next(s for s in report["stages"] if s["name"] == "sdma_copy")
    assert "copies of 1 B .. 64 MiB" in copy["summary"]
    steps = " | ".join(copy["steps"])
    assert "4095 B at offsets" in steps and "4 KiB at offsets" in steps and "4097 B at offsets" in steps
