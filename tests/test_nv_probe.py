"""`python -m drivers.nv.probe`: the fixture trees and the virtual GPUs probe to hand-written values
(public specifications of each board), and every failure reason has its test."""
import json
import os
import shutil
import subprocess
import sys

import pytest

from drivers.emu.nv.cards import version_line
from drivers.emu.nv.machine import VirtualMachine
from drivers.emu.nv.rm import RmFailure
from drivers.nv.probe import EMULATE_HINT, NO_MODULE, main, probe

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "tests", "fixtures", "nv")
GiB = 1 << 30
VERSION = "/proc/driver/nvidia/version"

# Hand-written from the boards' public specifications (and the fixtures' driver versions).
EXPECTED = {
    "rtx3090": dict(name="NVIDIA GeForce RTX 3090", chip="GA102", target="sm_86", architecture="Ampere", sms=82,
                    vram_bytes=24 * GiB, pci_address="0000:01:00.0", minor=0, driver="580.95.05", branch=580,
                    uuid="GPU-cc16183f-81f5-9a5f-8671-6c9a9b2af16d"),
    "rtx4090": dict(name="NVIDIA GeForce RTX 4090", chip="AD102", target="sm_89", architecture="Ada", sms=128,
                    vram_bytes=24 * GiB, pci_address="0000:01:00.0", minor=0, driver="570.172.08", branch=570,
                    uuid="GPU-b262a1c8-7a65-eea3-2b88-e218fe678edd"),
    "h100sxm": dict(name="NVIDIA H100 80GB HBM3", chip="GH100", target="sm_90", architecture="Hopper", sms=132,
                    vram_bytes=80 * GiB, pci_address="0000:19:00.0", minor=0, driver="595.45.04", branch=595,
                    uuid="GPU-be87e24a-1a10-abe8-ec60-ac6a2f66347f"),
}
# What the RM adds when it is asked (the virtual GPUs): GPCs enabled / of the chip, TPCs, cores, L2.
RM_EXPECTED = {
    "sm_86": dict(card="rtx3090", gpcs=7, max_gpcs=7, tpcs=41, tpcs_per_gpc=6, cuda_cores=10496, max_warps_per_sm=48,
                  bus_width=384, l2_bytes=6 << 20, compute_class="AMPERE_COMPUTE_B", sm_version="8.6"),
    "sm_89": dict(card="rtx4090", gpcs=11, max_gpcs=12, tpcs=64, tpcs_per_gpc=6, cuda_cores=16384,
                  max_warps_per_sm=48, bus_width=384, l2_bytes=72 << 20, compute_class="ADA_COMPUTE_A", sm_version="8.9"),
    "sm_90": dict(card="h100sxm", gpcs=8, max_gpcs=8, tpcs=66, tpcs_per_gpc=9, cuda_cores=16896, max_warps_per_sm=64,
                  bus_width=5120, l2_bytes=50 << 20, compute_class="HOPPER_COMPUTE_A", sm_version="9.0"),
}


def run(argv, capsys):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def fixture(card):
    base = os.path.join(FIXTURES, card)
    return ["--proc-root", base, "--dev-root", os.path.join(base, "dev")]


def copy_fixture(tmp_path, card="rtx3090"):
    dest = tmp_path / card
    shutil.copytree(os.path.join(FIXTURES, card), dest)
    return dest


def info_file(tree, address="0000:01:00.0"):
    return tree / "proc/driver/nvidia/gpus" / address / "information"


# -- the fixture trees ---------------------------------------------------------------------------
@pytest.mark.parametrize("card", sorted(EXPECTED))
def test_fixture_tree_probes_to_its_specifications(card, capsys):
    code, out, _ = run(["--json", *fixture(card)], capsys)
    report = json.loads(out)
    want = EXPECTED[card]
    assert code == 0 and report["usable"] == 1 and report["reason"] is None
    assert report["driver"] == {"version": want["driver"], "branch": want["branch"], "flavour": "open",
                                "arch": "x86_64", "layouts": want["branch"],
                                "layouts_checked_against": {570: "570.211.01", 580: "580.142",
                                                            595: "595.45.04"}[want["branch"]],
                                "rm_build_version": None}
    d = report["devices"][0]
    for key in ("name", "chip", "target", "architecture", "sms", "vram_bytes", "pci_address", "minor", "uuid"):
        assert d[key] == want[key], key
    assert d["details"] == "specifications" and d["usable"] and d["device_node"] == "/dev/nvidia0"
    assert report["rm_checked"] is False and report["uvm"]["present"] is True


def test_fixture_table_says_where_the_numbers_come_from(capsys):
    code, out, _ = run(fixture("rtx3090"), capsys)
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith("NVIDIA driver 580.95.05 (open kernel module, branch 580 layouts)")
    assert "RM not queried" in lines[0]
    assert lines[1].split()[:4] == ["GPU", "MINOR", "TARGET", "CHIP"]
    assert lines[2].split()[:9] == ["0", "0", "sm_86", "GA102", "NVIDIA", "GeForce", "RTX", "3090", "82"]
    assert "usable (RM not queried)" in lines[2]
    assert "from the board's public specifications" in out and "not the driver's device node" in out


def test_proc_root_alone_does_not_check_devices(capsys):
    code, out, _ = run(["--json", "--proc-root", os.path.join(FIXTURES, "h100sxm", "proc")], capsys)
    report = json.loads(out)
    assert code == 0 and report["devices_checked"] is False and report["uvm"] is None
    assert report["devices"][0]["sms"] == 132 and report["devices"][0]["nodes_checked"] is False
    code, out, _ = run(["--proc-root", os.path.join(FIXTURES, "h100sxm")], capsys)
    assert "supported (device nodes not checked)" in out


def test_malformed_information_exits_2_naming_file_and_line(capsys):
    code, out, err = run(["--proc-root", os.path.join(FIXTURES, "malformed")], capsys)
    path = os.path.join(FIXTURES, "malformed", "proc/driver/nvidia/gpus/0000:01:00.0/information")
    assert code == 2 and out == ""
    assert err == f"probe: error: {path}:9: Device Minor is not a decimal integer: 'nvidia0'\n"


@pytest.mark.parametrize("edit, message", [
    (lambda t: t.replace("Bus Location: \t 0000:01:00.0", "Bus Location: \t 0000:02:00.0"),
     ":8: Bus Location 0000:02:00.0 is not the directory's 0000:01:00.0"),
    (lambda t: t.replace("GPU UUID: \t GPU-", "GPU UUID: \t XPU-"), ":3: GPU UUID is not GPU-xxxxxxxx"),
    (lambda t: t.replace("Model: \t\t NVIDIA", "Model \t\t NVIDIA"), ":1: expected 'Key: value', got 'Model"),
    (lambda t: t.replace("Device Minor: \t 0\n", ""), ": no 'Device Minor:' line"),
])
def test_other_malformed_information_files(tmp_path, capsys, edit, message):
    tree = copy_fixture(tmp_path)
    info = info_file(tree)
    info.write_text(edit(info.read_text()))
    code, _, err = run(["--proc-root", str(tree)], capsys)
    assert code == 2 and f"{info}{message}" in err


def test_malformed_version_file(tmp_path, capsys):
    tree = copy_fixture(tmp_path)
    (tree / "proc/driver/nvidia/version").write_text("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  "
                                                     "beta  Release Build\n")
    code, _, err = run(["--proc-root", str(tree)], capsys)
    assert code == 2 and "version:1: no driver version (like 580.95.05) after the module name: 'beta" in err


def test_proc_root_without_the_nvidia_tree_exits_2(tmp_path, capsys):
    code, _, err = run(["--proc-root", str(tmp_path)], capsys)
    assert code == 2 and "no driver/nvidia/version below it" in err


# -- the virtual GPUs ----------------------------------------------------------------------------
@pytest.mark.parametrize("target", sorted(RM_EXPECTED))
def test_emulated_gpu_probes_through_the_rm(target):
    kernel = VirtualMachine(target, 1)
    report = probe(kernel)
    want = {**EXPECTED[RM_EXPECTED[target]["card"]], **RM_EXPECTED[target]}
    d = report["devices"][0]
    for key in ("name", "chip", "target", "architecture", "sms", "vram_bytes", "pci_address", "uuid", "gpcs",
                "max_gpcs", "tpcs", "tpcs_per_gpc", "cuda_cores", "max_warps_per_sm", "bus_width", "l2_bytes",
                "compute_class", "sm_version"):
        assert d[key] == want[key], key
    assert d["details"] == "rm" and d["usable"] and d["vendor_id"] == "0x10de"
    assert report["rm_checked"] and report["driver"]["rm_build_version"] == "595.45.04"
    assert report["uvm"] == {"device": "/dev/nvidia-uvm", "present": True, "initialized": True,
                             "pageable_mem_access": False}
    assert set(kernel.live().values()) == {0}, kernel.live()


@pytest.mark.parametrize("driver", ["570.211.01", "575.64.05", "580.95.05", "590.48.01", "595.45.04"])
def test_each_branch_probes_with_its_own_layouts(driver):
    """The virtual kernel checks every size against its branch: a probe with the wrong layouts fails."""
    kernel = VirtualMachine("sm_89", 1, driver=driver)
    report = probe(kernel)
    assert report["driver"]["layouts"] == int(driver[:3]) and report["usable"] == 1 and kernel.rm.last_error is None


def test_emulated_json_as_a_user_runs_it():
    env = dict(os.environ, PYTHONPATH=ROOT)
    env.pop("GPU_EMULATE", None)
    res = subprocess.run([sys.executable, "-m", "drivers.nv.probe", "--emulate", "sm_90x2", "--json"],
                         capture_output=True, text=True, cwd=ROOT, env=env, timeout=60)
    assert res.returncode == 0, res.stderr
    report = json.loads(res.stdout)
    assert [d["pci_address"] for d in report["devices"]] == ["0000:19:00.0", "0000:29:00.0"]
    assert [d["minor"] for d in report["devices"]] == [0, 1] and report["usable"] == 2
    assert report["devices"][0]["uuid"] != report["devices"][1]["uuid"]


def test_gpu_emulate_environment_variable(capsys, monkeypatch):
    monkeypatch.setenv("GPU_EMULATE", "sm_89")
    code, out, _ = run([], capsys)
    assert code == 0 and "NVIDIA GeForce RTX 4090" in out and "AD102" in out and " usable" in out
    assert out.splitlines()[0].endswith("RM queried · emulated sm_89")


def test_closed_pipe_is_quiet():
    env = dict(os.environ, PYTHONPATH=ROOT)
    res = subprocess.run(f"{sys.executable} -m drivers.nv.probe --emulate sm_86x8 | head -1", shell=True,
                         capture_output=True, text=True, cwd=ROOT, env=env, timeout=60)
    assert res.stdout.startswith("NVIDIA driver 595.45.04") and res.stderr == ""


def test_unknown_emulation_target_exits_2(capsys):
    code, _, err = run(["--emulate", "sm_75"], capsys)
    assert code == 2 and "unknown emulation target 'sm_75'" in err and "sm_86" in err and "sm_90" in err
    code, _, err = run(["--emulate", "gfx1100"], capsys)
    assert code == 2 and "'gfx1100' is a virtual AMD GPU, not an NVIDIA one; probe it with python -m drivers.amd.probe" in err


# -- every failure reason ------------------------------------------------------------------------
def test_this_machine_without_nvidia_exits_1_and_mentions_emulate(capsys, monkeypatch):
    if os.path.exists("/dev/nvidiactl") or os.path.exists("/proc/driver/nvidia"):
        pytest.skip("this machine has the nvidia module loaded")
    monkeypatch.delenv("GPU_EMULATE", raising=False)
    code, out, err = run([], capsys)
    assert code == 1 and out == "" and err.count("\n") == 1
    assert err == f"probe: {NO_MODULE}; without an NVIDIA GPU, --emulate sm_86, sm_89 or sm_90 probes a virtual one\n"


def test_no_module_json(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("GPU_EMULATE", raising=False)
    (tmp_path / "dev").mkdir()
    code, out, err = run(["--json", "--dev-root", str(tmp_path / "dev")], capsys)
    if os.path.exists("/proc/driver/nvidia"):
        pytest.skip("this machine has /proc/driver/nvidia")
    assert code == 1 and json.loads(out) == {"devices": [], "usable": 0, "reason": f"{NO_MODULE}; {EMULATE_HINT}"}


def test_module_loaded_but_no_nvidiactl(tmp_path, capsys):
    tree = copy_fixture(tmp_path)
    os.unlink(tree / "dev/nvidiactl")
    code, out, err = run(["--proc-root", str(tree), "--dev-root", str(tree / "dev")], capsys)
    assert code == 1 and "not usable" in out
    assert "/dev/nvidiactl does not exist although the nvidia module is loaded" in err
    assert "nvidia-modprobe -c 0 -u" in err


def test_nvidiactl_permission_denied():
    kernel = VirtualMachine("sm_86", 1)
    kernel.denied.add("/dev/nvidiactl")
    report = probe(kernel)
    assert report["usable"] == 0 and not report["rm_checked"]
    assert report["reason"].startswith("permission denied opening /dev/nvidiactl: the driver restricts its device "
                                       "files (NVreg_DeviceFileUID/GID/Mode)")
    assert report["devices"][0]["name"] == "NVIDIA GeForce RTX 3090"      # still listed, from /proc


def test_gpu_node_permission_denied_makes_that_gpu_unusable():
    kernel = VirtualMachine("sm_86", 2)
    kernel.denied.add("/dev/nvidia1")
    report = probe(kernel)
    assert report["usable"] == 1 and report["reason"] is None
    assert report["devices"][1]["reason"].startswith("permission denied opening /dev/nvidia1")
    assert kernel.live()["open_files"] == 0


def test_proprietary_module(capsys, monkeypatch):
    kernel = VirtualMachine("sm_89", 1, open_module=False)
    monkeypatch.setattr("drivers.emu.make_kernel", lambda target: kernel)
    code, out, err = run(["--emulate", "sm_89"], capsys)
    assert code == 1
    assert "(proprietary kernel module, branch 595 layouts)" in out.splitlines()[0]
    assert "the proprietary NVIDIA kernel module is loaded; this stack needs the open kernel module" in err


def test_user_space_kernel_version_mismatch():
    kernel = VirtualMachine("sm_86", 1, driver="595.45.04")
    kernel.files[VERSION] = version_line("595.44.03") + "\n"     # /proc from another install of the branch
    report = probe(kernel)
    assert report["usable"] == 0 and not report["rm_checked"]
    assert report["reason"].startswith("user-space/kernel version mismatch: /proc/driver/nvidia/version says "
                                       "595.44.03 but the kernel module behind /dev/nvidiactl is 595.45.04")


def test_unknown_driver_branch(tmp_path, capsys):
    tree = copy_fixture(tmp_path)
    (tree / "proc/driver/nvidia/version").write_text(version_line("535.288.01") + "\n")
    code, out, err = run(["--json", "--proc-root", str(tree), "--dev-root", str(tree / "dev")], capsys)
    report = json.loads(out)
    assert code == 1 and report["driver"]["layouts"] is None
    assert report["reason"] == "driver 535.288.01: layouts known for 570, 575, 580, 590, 595"
    assert "no usable NVIDIA GPU: driver 535.288.01: layouts known for 570, 575, 580, 590, 595" in err


def test_no_nvidia_uvm():
    kernel = VirtualMachine("sm_90", 1)
    del kernel.devices["/dev/nvidia-uvm"]
    report = probe(kernel)
    assert report["usable"] == 0 and report["rm_checked"] and report["devices"][0]["sms"] == 132
    assert report["reason"] == ("no /dev/nvidia-uvm: the nvidia-uvm module is not loaded (sudo modprobe nvidia-uvm; "
                                "'sudo nvidia-modprobe -u -c 0' creates the node)")
    assert report["uvm"]["present"] is False


def test_nvidia_uvm_permission_denied():
    kernel = VirtualMachine("sm_90", 1)
    kernel.denied.add("/dev/nvidia-uvm")
    report = probe(kernel)
    assert report["reason"].startswith("permission denied opening /dev/nvidia-uvm")


def test_excluded_and_unsupported_gpus(tmp_path, capsys):
    tree = copy_fixture(tmp_path)
    info = info_file(tree)
    info.write_text(info.read_text().replace("GPU Excluded:\t No", "GPU Excluded:\t Yes"))
    code, out, err = run(["--json", "--proc-root", str(tree)], capsys)
    assert code == 1 and json.loads(out)["devices"][0]["reason"].startswith("excluded by the driver")
    info.write_text(info.read_text().replace("GPU Excluded:\t Yes", "GPU Excluded:\t No")
                    .replace("NVIDIA GeForce RTX 3090", "NVIDIA A100-SXM4-40GB"))
    code, out, err = run(["--json", "--proc-root", str(tree)], capsys)
    d = json.loads(out)["devices"][0]
    assert code == 1 and (d["chip"], d["target"], d["sms"]) == ("GA100", "sm_80", 108)
    assert d["reason"] == ("sm_80 is not supported for compute yet; supported: sm_86 (Ampere GA10x), "
                           "sm_89 (Ada), sm_90 (Hopper)")


def test_unknown_board_without_the_rm(tmp_path, capsys):
    tree = copy_fixture(tmp_path)
    info = info_file(tree)
    info.write_text(info.read_text().replace("NVIDIA GeForce RTX 3090", "NVIDIA Prototype X"))
    code, out, _ = run(["--json", "--proc-root", str(tree)], capsys)
    assert code == 1 and json.loads(out)["devices"][0]["reason"].startswith("unknown board")


def test_no_proc_tree_asks_the_module_for_its_version():
    """In a container without /proc/driver/nvidia the module itself names the version (QUERY)."""
    kernel = VirtualMachine("sm_86", 1, driver="580.95.05")
    for path in [p for p in kernel.files if p.startswith("/proc/")]:
        del kernel.files[path]
    report = probe(kernel)
    assert report["driver"]["version"] == "580.95.05" and report["driver"]["flavour"] == "unknown"
    assert report["usable"] == 1 and report["devices"][0]["name"] == "NVIDIA GeForce RTX 3090"
    assert report["devices"][0]["chip"] == "GA102"


def test_module_without_gpus(tmp_path, capsys):
    tree = copy_fixture(tmp_path)
    shutil.rmtree(tree / "proc/driver/nvidia/gpus")
    code, _, err = run(["--proc-root", str(tree)], capsys)
    assert code == 1 and "the nvidia module drives no GPU" in err


def test_gpu_in_proc_but_not_in_card_info():
    kernel = VirtualMachine("sm_86", 1)
    info = kernel.files["/proc/driver/nvidia/gpus/0000:01:00.0/information"]
    kernel.files["/proc/driver/nvidia/gpus/0000:42:00.0/information"] = (
        info.replace("0000:01:00.0", "0000:42:00.0").replace("Device Minor: \t 0", "Device Minor: \t 5"))
    report = probe(kernel)
    assert report["usable"] == 1 and report["devices"][1]["pci_address"] == "0000:42:00.0"
    assert report["devices"][1]["reason"].startswith("listed in /proc/driver/nvidia/gpus but not by NV_ESC_CARD_INFO")


def test_a_refused_rm_query_names_the_control_and_status():
    kernel = VirtualMachine("sm_89", 1)
    del kernel.rm.control_handlers[0x20801201]          # NV2080_CTRL_CMD_GR_GET_INFO
    report = probe(kernel)
    reason = report["devices"][0]["reason"]
    assert report["usable"] == 0 and reason.startswith("the RM refused a query: NV2080_CTRL_CMD_GR_GET_INFO on 0x")
    assert reason.endswith("failed: NV_ERR_NOT_SUPPORTED (0x56)")
    assert set(kernel.live().values()) == {0}, kernel.live()


def test_a_refused_root_client_is_a_machine_reason(monkeypatch):
    kernel = VirtualMachine("sm_86", 1)

    def no_more_clients(*args):
        raise RmFailure("NV_ERR_INSUFFICIENT_RESOURCES", "no more clients")

    monkeypatch.setattr(kernel.rm, "_new_client", no_more_clients)
    report = probe(kernel)
    assert report["usable"] == 0
    assert report["reason"] == ("the RM refused the probe: NV_ESC_RM_ALLOC of NV01_ROOT_CLIENT failed: "
                                "NV_ERR_INSUFFICIENT_RESOURCES (0x1a)")
