"""`python -m hw_tests --emulate sm_86` (the virtual RTX 3090, --device nv:0 implied) end to end: the
report validates and describes the GPU as the RM reports it; the stages that need no kernel pass;
a kernel stage passes, or fails only because the SASS decoder cannot yet read that kernel as
nvdisasm does (LayerMissing naming assembler.sass and the instruction); on a machine without the
NVIDIA module the first stage says so and how to emulate, and the rest skip."""
import json
import os

import pytest

from hw_tests import cli
from hw_tests.schema import load_schema, validate
from hw_tests.stages import build_registry

NO_KERNEL = ("procfs", "open", "memory", "copies", "semaphores", "hang")


@pytest.fixture(scope="module")
def emulated_run(tmp_path_factory):
    path = tmp_path_factory.mktemp("hw_tests_nv") / "r.json"
    code = cli.main(["--emulate", "sm_86", "--json", str(path)])
    return code, json.loads(path.read_text())


def test_the_report_validates_and_describes_the_gpu(emulated_run):
    _, report = emulated_run
    assert validate(report, load_schema()) == []
    assert [s["name"] for s in report["stages"]] == build_registry("nv").names
    device = report["device"]
    assert device["spec"] == "emulate:sm_86" and device["target"] == "sm_86"
    assert device["name"] == "NVIDIA GeForce RTX 3090"
    nv = device["nvidia"]
    assert (nv["sm_version"], nv["sms"], nv["pci_device_id"], nv["pci_address"]) == (0x806, 82, 0x2204, "0000:01:00.0")
    assert nv["classes"] == {"compute": "AMPERE_COMPUTE_B", "copy": "AMPERE_DMA_COPY_B",
                             "gpfifo": "AMPERE_CHANNEL_GPFIFO_A", "usermode": "AMPERE_USERMODE_A"}
    assert nv["uuid"].startswith("GPU-") and len(nv["uuid"]) == 40
    assert report["versions"]["nvidia_driver"] == "595.45.04"


def test_stages_pass_or_wait_only_for_the_sass_decoder(emulated_run):
    code, report = emulated_run
    stages = {s["name"]: s for s in report["stages"]}
    for name in NO_KERNEL:
        assert stages[name]["status"] == "PASS", (name, stages[name]["error"])
    for name in ("faults", "isa_saxpy", "isa_sgemm", "isa_mma", "isa_grid_ids", "dispatch_shapes", "host_release",
                 "command_buffer", "peak_memory"):                      # their code decodes as nvdisasm's
        assert stages[name]["status"] == "PASS", (name, stages[name]["error"])
    for s in report["stages"]:
        if s["status"] == "FAIL":
            assert s["error"]["layer"] == "assembler.sass", s
        elif s["status"] == "SKIP":
            assert "depends on" in s["skip_reason"]
    assert stages["hang"]["numbers"]["hang_detected_after"]["value"] < 5
    assert stages["copies"]["numbers"]["copy_bandwidth"]["unit"] == "GB/s"
    assert code == (0 if report["summary"]["failed"] == 0 else 1)


def test_without_the_nvidia_module_the_first_stage_fails_and_the_rest_skip(tmp_path, monkeypatch):
    monkeypatch.delenv("GPU_EMULATE", raising=False)
    if os.path.exists("/proc/driver/nvidia/version"):
        pytest.skip("this machine has the NVIDIA kernel module")
    path = tmp_path / "r.json"
    assert cli.main(["--device", "nv:0", "--json", str(path)]) == 1
    report = json.loads(path.read_text())
    assert validate(report, load_schema()) == []
    first, *rest = report["stages"]
    assert first["status"] == "FAIL" and "no /proc/driver/nvidia/version" in first["error"]["message"]
    assert "--emulate sm_90" in first["error"]["message"]
    assert all(s["status"] == "SKIP" for s in rest)
