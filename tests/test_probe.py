"""`python -m drivers.amd.probe`: output, exit codes and every failure reason."""
import json
import os
import shutil
import subprocess
import sys

import pytest

from drivers.amd.probe import NoGPU, main, probe
from drivers.emu import make_kernel

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "tests", "fixtures", "topology")


def run(argv, capsys):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_emulated_gfx1100_json_as_a_user_runs_it():
    env = dict(os.environ, PYTHONPATH=ROOT)
    env.pop("GPU_EMULATE", None)
    res = subprocess.run([sys.executable, "-m", "drivers.amd.probe", "--emulate", "gfx1100", "--json"],
                         capture_output=True, text=True, cwd=ROOT, env=env, timeout=60)
    assert res.returncode == 0, res.stderr
    report = json.loads(res.stdout)
    assert len(report["devices"]) == 1
    dev = report["devices"][0]
    assert dev["gfx_target"] == "gfx1100" and dev["compute_units"] == 96
    assert dev["name"] == "Radeon RX 7900 XTX" and dev["usable"] and dev["reason"] is None


def test_gpu_emulate_environment_variable(capsys, monkeypatch):
    monkeypatch.setenv("GPU_EMULATE", "gfx1100")
    code, out, _ = run([], capsys)
    assert code == 0
    assert "gfx1100" in out and "Radeon RX 7900 XTX" in out and "usable" in out


def test_table_output_has_one_row_per_gpu(capsys):
    code, out, _ = run(["--emulate", "gfx1100"], capsys)
    lines = out.splitlines()
    assert code == 0 and lines[1].split()[:3] == ["GPU", "NODE", "TARGET"]
    assert lines[2].split()[:3] == ["0", "1", "gfx1100"] and "96" in lines[2].split()
    assert "emulated gfx1100" in lines[0]


def test_no_kfd_exits_1_with_one_line_reason(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("GPU_EMULATE", raising=False)
    (tmp_path / "dev").mkdir()
    code, out, err = run(["--dev-root", str(tmp_path / "dev")], capsys)
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and "/dev/kfd does not exist" in err and "amdgpu" in err


def test_plain_probe_on_this_machine_exits_1_without_gpu(capsys, monkeypatch):
    if os.path.exists("/dev/kfd"):
        pytest.skip("this machine has /dev/kfd")
    monkeypatch.delenv("GPU_EMULATE", raising=False)
    code, _, err = run([], capsys)
    assert code == 1 and "no AMD GPU" in err and err.count("\n") == 1


def test_kfd_permission_denied_names_the_groups():
    kernel = make_kernel("gfx1100")
    kernel.denied.add("/dev/kfd")
    with pytest.raises(NoGPU, match=r"permission denied opening /dev/kfd: add your user to the 'render' and 'video'"):
        probe(kernel)


def test_render_node_permission_denied_makes_gpu_unusable():
    kernel = make_kernel("gfx1100")
    kernel.denied.add("/dev/dri/renderD128")
    report = probe(kernel)
    dev = report["devices"][0]
    assert report["usable"] == 0 and not dev["usable"]
    assert dev["reason"].startswith("permission denied opening /dev/dri/renderD128")


def test_missing_render_node_is_reported(tmp_path, capsys):
    shutil.copytree(os.path.join(FIXTURES, "rx7900xtx"), tmp_path / "t")
    os.unlink(tmp_path / "t/dev/dri/renderD128")
    code, out, err = run(["--sysfs-root", str(tmp_path / "t"), "--dev-root", str(tmp_path / "t/dev")], capsys)
    assert code == 1 and "/dev/dri/renderD128 does not exist" in out
    assert "no usable GPU" in err


def test_no_topology_with_kfd_present(tmp_path, capsys):
    (tmp_path / "sys/devices/virtual/kfd/kfd/topology").mkdir(parents=True)
    (tmp_path / "dev").mkdir()
    (tmp_path / "dev/kfd").write_text("")
    code, _, err = run(["--sysfs-root", str(tmp_path / "sys"), "--dev-root", str(tmp_path / "dev")], capsys)
    assert code == 1 and "no KFD topology" in err


@pytest.mark.parametrize("card,target", [("rx7900xtx", "gfx1100"), ("rx7600", "gfx1102"), ("apu780m", "gfx1103")])
def test_captured_supported_cards_are_usable(card, target, capsys):
    base = os.path.join(FIXTURES, card)
    code, out, _ = run(["--json", "--sysfs-root", base, "--dev-root", os.path.join(base, "dev")], capsys)
    report = json.loads(out)
    assert code == 0 and report["devices"][0]["gfx_target"] == target and report["usable"] == 1


@pytest.mark.parametrize("card,target", [("mi300x", "gfx942"), ("rx6900xt", "gfx1030")])
def test_unsupported_gpu_exits_1_with_reason(card, target, capsys):
    base = os.path.join(FIXTURES, card)
    code, out, err = run(["--sysfs-root", base, "--dev-root", os.path.join(base, "dev")], capsys)
    assert code == 1 and f"{target} (" in out and "not supported for compute" in err


def test_sysfs_root_alone_reads_topology_without_device_checks(capsys):
    code, out, _ = run(["--json", "--sysfs-root", os.path.join(FIXTURES, "apu780m", "sys")], capsys)
    report = json.loads(out)
    assert code == 0 and report["devices"][0]["render_node_checked"] is False
    assert report["cpus"][0]["cores"] == 16


def test_malformed_tree_exits_2_naming_file_and_line(tmp_path, capsys):
    shutil.copytree(os.path.join(FIXTURES, "rx7900xtx"), tmp_path / "t")
    props = tmp_path / "t/sys/devices/virtual/kfd/kfd/topology/nodes/1/properties"
    props.write_text(props.read_text().replace("simd_count 192", "simd_count lots"))
    code, out, err = run(["--sysfs-root", str(tmp_path / "t")], capsys)
    assert code == 2 and out == ""
    assert f"{props}:2: value of 'simd_count' is not a decimal integer: 'lots'" in err


def test_sysfs_root_without_topology_exits_2(tmp_path, capsys):
    code, _, err = run(["--sysfs-root", str(tmp_path)], capsys)
    assert code == 2 and "no devices/virtual/kfd/kfd/topology below it" in err


def test_unknown_emulation_target_exits_2(capsys):
    code, _, err = run(["--emulate", "gfx9000"], capsys)
    assert code == 2 and "unknown emulation target 'gfx9000'; available: gfx1100" in err


def test_another_vendors_target_exits_2(capsys):
    code, _, err = run(["--emulate", "a630"], capsys)
    assert code == 2 and "'a630' is a virtual QCOM GPU, not an AMD one" in err and "drivers.qcom.probe" in err


def _damaged_tree(tmp_path):
    shutil.copytree(os.path.join(FIXTURES, "rx7900xtx"), tmp_path / "t", symlinks=True)
    return tmp_path / "t", tmp_path / "t/sys/devices/virtual/kfd/kfd/topology/nodes/1"


def _fifo(path):
    path.unlink()
    os.mkfifo(path)


def _zero(path):
    path.unlink()
    path.symlink_to("/dev/zero")


def _directory(path):
    path.unlink()
    path.mkdir()
    (path / "x").write_text("1\n")


def _loop(path):
    path.unlink()
    path.symlink_to(path.name)


def _file_for_dir(path):
    shutil.rmtree(path)
    path.write_text("0\n")


def _non_ascii_node(path):
    os.rename(path, path.parent / "\u00b2")         # a superscript two: isdigit() but not a node number


def _bytes_name(path):
    os.rename(path, os.path.join(os.fsencode(path.parent), b"\xff"))


def _huge(path):
    path.write_text("simd_count 1\n" * 10000)


def _negative(path):
    path.write_text(path.read_text().replace("simd_per_cu 2", "simd_per_cu -1"))


def _fullwidth(path):
    path.write_text(path.read_text().replace("simd_count 192", "simd_count \uff11\uff19\uff12"))


def _too_big(path):
    path.write_text(path.read_text().replace("simd_count 192", f"simd_count {1 << 64}"))


@pytest.mark.parametrize("damage, where, reason", [
    (_fifo, "properties", "a FIFO, not a regular file"),
    (_zero, "properties", "a character device, not a regular file"),
    (_directory, "properties", "a directory, not a regular file"),
    (_loop, "properties", "Too many levels of symbolic links"),
    (_huge, "properties", "larger than 65536 bytes"),
    (_negative, "properties", "value of 'simd_per_cu' is not a decimal integer: '-1'"),
    (_fullwidth, "properties", "value of 'simd_count' is not a decimal integer"),
    (_too_big, "properties", "at most 64 bits"),
    (_file_for_dir, "mem_banks", "cannot be listed as a directory: Not a directory"),
    (_non_ascii_node, "..", "unexpected entry '\u00b2' (expected numbered subdirectories)"),
    (_bytes_name, "..", "unexpected entry '\\udcff'"),
])
def test_damaged_captures_exit_2_naming_the_path(tmp_path, capsys, damage, where, reason):
    root, node = _damaged_tree(tmp_path)
    target = node if where == ".." else node / where
    damage(target)
    code, out, err = run(["--sysfs-root", str(root), "--dev-root", str(root / "dev")], capsys)
    assert code == 2 and out == "" and err.count("\n") == 1, err
    shown = str(node.parent) if where == ".." else str(target)
    assert f"probe: error: {shown}" in err and reason in err


def test_dev_root_names_the_path_tried_and_the_emulator(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("GPU_EMULATE", raising=False)
    code, _, err = run(["--dev-root", str(tmp_path / "x")], capsys)
    assert code == 1 and f"{tmp_path / 'x'}/kfd does not exist" in err and "/dev/kfd" not in err
    assert "--emulate gfx1100" in err
