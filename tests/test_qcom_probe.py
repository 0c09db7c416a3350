"""`python -m drivers.qcom.probe`: output, exit codes, the fixture trees and every failure reason."""
import errno
import json
import os
import shutil
import subprocess
import sys

import pytest

import kgsl_ioctl
from drivers.emu import make_kernel
from drivers.emu.kernel import DeviceFile, EmulatedKernel
from drivers.emu.qcom.cards import CARDS, render_sysfs
from drivers.kernel import RealKernel
from drivers.qcom import chips
from drivers.qcom.probe import NoGPU, main, probe

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "tests", "fixtures", "kgsl")
SYSFS = "sys/class/kgsl/kgsl-3d0"
MiB, KiB = 1 << 20, 1 << 10


def run(argv, capsys):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def user_env():
    env = dict(os.environ, PYTHONPATH=ROOT)
    env.pop("GPU_EMULATE", None)
    return env


# ---------------------------------------------------------------------------------------------
# The virtual Adreno 630
# ---------------------------------------------------------------------------------------------

def test_emulated_a630_json_as_a_user_runs_it():
    res = subprocess.run([sys.executable, "-m", "drivers.qcom.probe", "--emulate", "a630", "--json"],
                         capture_output=True, text=True, cwd=ROOT, env=user_env(), timeout=60)
    assert res.returncode == 0, res.stderr
    report = json.loads(res.stdout)
    assert report["kgsl_version"] == "3.14" and report["usable"] == 1
    (dev,) = report["devices"]
    expected = {
        "index": 0, "device": "/dev/kgsl-3d0", "name": "Adreno 630", "chip_id": "0x06030001", "gpu_id": 630,
        "family": "a6xx", "gpu_model": "Adreno630v2", "soc": "SDM845", "soc_id": 321, "gmem_bytes": 1 * MiB,
        "mmu_enabled": True, "device_id": 1, "kgsl_version": "3.14", "va_bits": 48, "highest_bank_bit": 15,
        "ucode_version": [0, 0], "clock_mhz": 257, "max_clock_mhz": 710, "min_clock_mhz": 257,
        "freq_table_mhz": [710, 675, 596, 520, 414, 342, 257], "busy_percent": 0,
        "device_info_from": "ioctl", "device_checked": True, "supported": True, "usable": True, "reason": None}
    assert dev == expected


def test_gpu_emulate_environment_variable(capsys, monkeypatch):
    monkeypatch.setenv("GPU_EMULATE", "a630")
    code, out, _ = run([], capsys)
    assert code == 0 and "Adreno 630" in out and "emulated a630" in out


def test_table_has_one_row_per_gpu(capsys):
    code, out, _ = run(["--emulate", "a630"], capsys)
    lines = out.splitlines()
    assert code == 0 and lines[0] == "KGSL 3.14 · emulated a630"
    assert lines[1].split() == ["GPU", "DEVICE", "CHIP", "NAME", "GMEM", "CLOCK", "MAX", "BUSY", "MMU", "SOC",
                                "STATUS"]
    assert lines[2].split() == ["0", "kgsl-3d0", "0x06030001", "Adreno", "630", "1", "MiB", "257", "MHz", "710",
                                "MHz", "0%", "yes", "SDM845", "usable"]
    assert lines[3] == "GPU 0 clocks: 710 675 596 520 414 342 257 MHz (gpu_model Adreno630v2; device info from ioctl)"


def test_help_and_closed_pipe():
    res = subprocess.run([sys.executable, "-m", "drivers.qcom.probe", "--help"], capture_output=True, text=True,
                         cwd=ROOT, env=user_env(), timeout=60)
    assert res.returncode == 0 and "--emulate TARGET" in res.stdout and "--sysfs-root DIR" in res.stdout
    res = subprocess.run(f"{sys.executable} -m drivers.qcom.probe --emulate a630 | head -c 10", shell=True,
                         capture_output=True, text=True, cwd=ROOT, env=user_env(), timeout=60)
    assert res.returncode == 0 and res.stdout == "KGSL 3.14 " and res.stderr == ""


# ---------------------------------------------------------------------------------------------
# The fixture trees (from public specifications), replayed
# ---------------------------------------------------------------------------------------------

FIXTURE_EXPECTED = {
    "a630-sdm845": dict(name="Adreno 630", chip_id="0x06030001", gpu_id=630, gpu_model="Adreno630v2",
                        soc="SDM845", soc_id=321, gmem_bytes=1 * MiB, clock_mhz=257, max_clock_mhz=710,
                        min_clock_mhz=257, freq_table_mhz=[710, 675, 596, 520, 414, 342, 257], busy_percent=0),
    "a650-sm8250": dict(name="Adreno 650", chip_id="0x06050002", gpu_id=650, gpu_model="Adreno650v3",
                        soc="SM8250", soc_id=356, gmem_bytes=1152 * KiB, clock_mhz=441, max_clock_mhz=587,
                        min_clock_mhz=305, freq_table_mhz=[587, 525, 490, 441, 400, 305], busy_percent=37),
    "a660-sm8350": dict(name="Adreno 660", chip_id="0x06060001", gpu_id=660, gpu_model="Adreno660v2",
                        soc="SM8350", soc_id=439, gmem_bytes=1536 * KiB, clock_mhz=315, max_clock_mhz=840,
                        min_clock_mhz=315, freq_table_mhz=[840, 778, 738, 676, 608, 540, 491, 443, 379, 315],
                        busy_percent=3),
}


@pytest.mark.parametrize("tree", sorted(FIXTURE_EXPECTED))
def test_fixture_tree_probes_to_its_expected_values(tree, capsys):
    base = os.path.join(FIXTURES, tree)
    code, out, err = run(["--json", "--sysfs-root", base, "--dev-root", os.path.join(base, "dev")], capsys)
    assert code == 0, err
    report = json.loads(out)
    (dev,) = report["devices"]
    assert {k: dev[k] for k in FIXTURE_EXPECTED[tree]} == FIXTURE_EXPECTED[tree]
    # A replayed tree's device node is a stand-in: it is opened, never asked.
    assert (dev["device_info_from"], dev["device_checked"], dev["usable"], dev["reason"]) == (
        "sysfs gpu_model", True, True, None)
    assert dev["mmu_enabled"] is None and dev["kgsl_version"] is None and report["kgsl_version"] is None


def test_fixture_trees_are_what_the_generator_writes():
    """tests/fixtures/kgsl is scripts/gen_kgsl_fixtures.py's output for cards.py (regenerate it)."""
    for key, card in CARDS.items():
        base = os.path.join(FIXTURES, f"{key}-{card.soc.lower()}")
        for path, text in render_sysfs(card).items():
            with open(os.path.join(base, path.lstrip("/"))) as f:
                assert f.read() == text, path
        assert os.path.exists(os.path.join(base, "dev", "kgsl-3d0"))


def test_fixture_table_output(capsys):
    base = os.path.join(FIXTURES, "a650-sm8250")
    code, out, _ = run(["--sysfs-root", base, "--dev-root", os.path.join(base, "dev")], capsys)
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith("KGSL version unknown · sysfs ")
    assert lines[2].split() == ["0", "kgsl-3d0", "0x06050002", "Adreno", "650", "1152", "KiB", "441", "MHz", "587",
                                "MHz", "37%", "?", "SM8250", "usable"]


def test_sysfs_root_alone_does_not_check_the_device(capsys):
    code, out, _ = run(["--sysfs-root", os.path.join(FIXTURES, "a660-sm8350")], capsys)
    assert code == 0 and "supported (device node not checked)" in out
    code, out, _ = run(["--json", "--sysfs-root", os.path.join(FIXTURES, "a660-sm8350", "sys")], capsys)
    assert code == 0 and json.loads(out)["devices"][0]["device_checked"] is False


def test_malformed_fixture_exits_2_naming_file_and_line(capsys):
    base = os.path.join(FIXTURES, "a630-malformed")
    code, out, err = run(["--sysfs-root", base, "--dev-root", os.path.join(base, "dev")], capsys)
    assert code == 2 and out == ""
    path = os.path.join(base, SYSFS, "freq_table_mhz")
    assert err == f"probe: error: {path}:1: expected MHz values separated by spaces, got '52O'\n"


@pytest.mark.parametrize("name, text, message", [
    ("gpu_busy_percentage", "busy\n", "expected '<0..100> %', got 'busy'"),
    ("gpu_busy_percentage", "140 %\n", "expected '<0..100> %', got '140 %'"),
    ("clock_mhz", "257 MHz\n", "expected MHz, got '257 MHz'"),
    ("max_clock_mhz", "710\n675\n", ":2: expected one line, got 2"),
    ("gpu_model", "", ":1: empty"),
    ("num_pwrlevels", "-7\n", "expected a count, got '-7'"),
])
def test_malformed_files_name_the_problem(tmp_path, capsys, name, text, message):
    shutil.copytree(os.path.join(FIXTURES, "a630-sdm845"), tmp_path / "t")
    (tmp_path / "t" / SYSFS / name).write_text(text)
    code, out, err = run(["--sysfs-root", str(tmp_path / "t")], capsys)
    assert code == 2 and out == "" and str(tmp_path / "t" / SYSFS / name) in err and message in err


def test_binary_sysfs_file_is_malformed(tmp_path, capsys):
    shutil.copytree(os.path.join(FIXTURES, "a630-sdm845"), tmp_path / "t")
    (tmp_path / "t" / SYSFS / "gpu_model").write_bytes(b"\xff\xfe\x00")
    code, _, err = run(["--sysfs-root", str(tmp_path / "t")], capsys)
    assert code == 2 and "gpu_model: not a text file" in err


def test_missing_gpu_model_is_malformed(tmp_path, capsys):
    shutil.copytree(os.path.join(FIXTURES, "a630-sdm845"), tmp_path / "t")
    os.unlink(tmp_path / "t" / SYSFS / "gpu_model")
    code, _, err = run(["--sysfs-root", str(tmp_path / "t")], capsys)
    assert code == 2 and "gpu_model: missing" in err


def test_older_kernel_files_in_hz_are_read(tmp_path, capsys):
    """Kernels without the *_mhz files: gpuclk, max_gpuclk and gpu_available_frequencies in Hz."""
    shutil.copytree(os.path.join(FIXTURES, "a650-sm8250"), tmp_path / "t")
    for name in ("clock_mhz", "max_clock_mhz", "freq_table_mhz"):
        os.unlink(tmp_path / "t" / SYSFS / name)
    code, out, _ = run(["--json", "--sysfs-root", str(tmp_path / "t")], capsys)
    dev = json.loads(out)["devices"][0]
    assert code == 0 and (dev["clock_mhz"], dev["max_clock_mhz"], dev["freq_table_mhz"]) == (
        441, 587, [587, 525, 490, 441, 400, 305])


def test_sysfs_root_without_kgsl_exits_2(tmp_path, capsys):
    code, _, err = run(["--sysfs-root", str(tmp_path)], capsys)
    assert code == 2 and "no class/kgsl/kgsl-3d0 below it" in err


def test_replayed_gpu_model_that_names_no_chip(tmp_path, capsys):
    shutil.copytree(os.path.join(FIXTURES, "a630-sdm845"), tmp_path / "t")
    (tmp_path / "t" / SYSFS / "gpu_model").write_text("Adreno (TM) 630")
    code, out, err = run(["--json", "--sysfs-root", str(tmp_path / "t")], capsys)
    dev = json.loads(out)["devices"][0]
    assert code == 1 and dev["name"] == "Adreno (TM) 630" and dev["chip_id"] is None
    assert "does not spell a chip id" in dev["reason"] and "no usable GPU" in err


# ---------------------------------------------------------------------------------------------
# Every reason a GPU is not usable
# ---------------------------------------------------------------------------------------------

def test_no_device_node_exits_1_mentioning_emulate(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("GPU_EMULATE", raising=False)
    (tmp_path / "dev").mkdir()
    code, out, err = run(["--dev-root", str(tmp_path / "dev")], capsys)
    assert code == 1 and out == "" and err.count("\n") == 1
    assert "no Qualcomm GPU: /dev/kgsl-3d0 does not exist" in err and "drm/msm" in err
    assert "--emulate a630" in err


def test_plain_probe_on_this_machine_exits_1(capsys, monkeypatch):
    if os.path.exists("/dev/kgsl-3d0"):
        pytest.skip("this machine has /dev/kgsl-3d0")
    monkeypatch.delenv("GPU_EMULATE", raising=False)
    code, out, err = run([], capsys)
    assert code == 1 and out == "" and err.count("\n") == 1
    assert "no Qualcomm GPU" in err and "--emulate a630" in err
    code, out, _ = run(["--json"], capsys)
    assert code == 1 and json.loads(out)["usable"] == 0 and "--emulate a630" in json.loads(out)["reason"]


def test_permission_denied_names_the_node_group():
    kernel = make_kernel("a630")
    kernel.denied.add("/dev/kgsl-3d0")
    with pytest.raises(NoGPU, match=r"permission denied opening /dev/kgsl-3d0: /dev/kgsl-3d0 is crw-rw-rw- "
                                    r"system:system: add your user to the 'system' group"):
        probe(kernel)


def test_permission_denied_without_known_owner(capsys):
    kernel = make_kernel("a630")
    kernel.denied.add("/dev/kgsl-3d0")
    kernel.owners.clear()
    with pytest.raises(NoGPU, match=r"join the group that owns /dev/kgsl-3d0 \(ls -l /dev/kgsl-3d0\)"):
        probe(kernel)


def test_real_kernel_reports_a_node_owner(tmp_path):
    node = tmp_path / "kgsl-3d0"
    node.write_text("")
    os.chmod(node, 0o640)
    user, group, mode = RealKernel(dev_root=str(tmp_path)).node_owner("/dev/kgsl-3d0")
    assert mode == 0o640 and user and group
    assert RealKernel(dev_root=str(tmp_path)).node_owner("/dev/nothing") is None


def test_unknown_chip_id_is_not_usable(capsys):
    kernel = make_kernel("a630")
    kernel.kgsl.card = CARDS["a630"].__class__(**{**CARDS["a630"].__dict__, "chip_id": 0x0A0B0C0D})
    report = probe(kernel)
    dev = report["devices"][0]
    assert report["usable"] == 0 and dev["name"] == "unknown Adreno (0x0a0b0c0d)" and dev["gpu_id"] is None
    assert dev["reason"] == ("unknown chip id 0x0a0b0c0d (core 10, major 11, minor 12, patch 13): not an Adreno "
                             "this stack knows; please report it with the output of --json")


def test_known_chip_outside_the_supported_family(capsys):
    kernel = make_kernel("a630")
    kernel.kgsl.card = CARDS["a630"].__class__(**{**CARDS["a630"].__dict__, "chip_id": 0x43050A01})
    dev = probe(kernel)["devices"][0]
    assert dev["name"] == "Adreno 740" and not dev["usable"]
    assert dev["reason"] == "Adreno 740 (a7xx) is not supported for compute yet; supported: Adreno 6xx (a6xx)"


def test_a_node_that_is_not_kgsl():
    kernel = EmulatedKernel({}, {"/dev/kgsl-3d0": DeviceFile})
    with pytest.raises(NoGPU, match=r"/dev/kgsl-3d0 is not a KGSL device: IOCTL_KGSL_DEVICE_GETPROPERTY"
                                    r"\(KGSL_PROP_DEVICE_INFO\) \(0xc0180902\) failed: ENOTTY"):
        probe(kernel)


def test_open_failing_otherwise():
    class Busy(EmulatedKernel):
        def open(self, path, flags=os.O_RDWR):
            raise OSError(errno.EBUSY, os.strerror(errno.EBUSY), path)
    with pytest.raises(NoGPU, match="cannot open /dev/kgsl-3d0: Device or resource busy"):
        probe(Busy({}, {"/dev/kgsl-3d0": DeviceFile}))


def test_device_without_sysfs_still_probes():
    kernel = make_kernel("a630")
    for path in [p for p in kernel.files if p.startswith("/sys/class/kgsl")]:
        del kernel.files[path]
    dev = probe(kernel)["devices"][0]
    assert dev["usable"] and dev["gmem_bytes"] == 1 * MiB and dev["gpu_model"] is None and dev["clock_mhz"] is None


def test_neither_device_nor_sysfs(tmp_path):
    with pytest.raises(NoGPU, match="no KGSL sysfs at /sys/class/kgsl/kgsl-3d0"):
        probe(RealKernel(sysfs_root=str(tmp_path), dev_root=str(tmp_path)), check_devices=False)


def test_a_32_bit_process_exits_1_before_any_ioctl(capsys, monkeypatch):
    monkeypatch.setattr(kgsl_ioctl.abi, "pointer_size", lambda: 4)
    code, _, err = run(["--emulate", "a630"], capsys)
    assert code == 1 and "this Python is a 32-bit process" in err and "run a 64-bit (aarch64) Python" in err


def test_another_vendors_target_exits_2(capsys):
    code, _, err = run(["--emulate", "gfx1100"], capsys)
    assert code == 2 and "'gfx1100' is a virtual AMD GPU, not a Qualcomm one" in err
    assert "python -m drivers.amd.probe" in err


def test_unknown_emulation_target_exits_2(capsys):
    code, _, err = run(["--emulate", "a999"], capsys)
    assert code == 2 and "unknown emulation target 'a999'" in err and "a630" in err
    code, _, err = run(["--emulate", "a630x2"], capsys)
    assert code == 2 and "unknown emulation target 'a630x2'" in err


# ---------------------------------------------------------------------------------------------
# The chip table
# ---------------------------------------------------------------------------------------------

def test_chip_ids_and_gpu_model_names():
    assert chips.decode(0x06030001) == (6, 3, 0, 1)
    assert chips.gpu_model_name(0x06030001) == "Adreno630v2"
    assert chips.chip_id_from_gpu_model("Adreno630v2\n") == 0x06030001
    assert chips.chip_id_from_gpu_model("Adreno650v3") == 0x06050002
    assert chips.chip_id_from_gpu_model("Adreno630") is None and chips.chip_id_from_gpu_model("Adreno630v0") is None
    for card in CARDS.values():
        assert chips.gpu_model_name(card.chip_id) == card.gpu_model
        assert chips.lookup(card.chip_id).gmem_bytes == card.gmem_bytes
    assert chips.lookup(0x06030000).name == "Adreno 630"          # any stepping
    assert chips.lookup(0x43051401).family == "a7xx" and chips.lookup(0x07030001).gpu_id == 730
    assert chips.unsupported_reason(0x06060001) is None
    assert "Adreno 540 (a5xx) is not supported" in chips.unsupported_reason(0x05040001)
