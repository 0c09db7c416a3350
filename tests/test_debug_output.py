"""DEBUG levels say what the README says, once, in whole lines; the test summary names missing oracles."""
import os
import subprocess
import sys

from drivers.amd.device import AMDDevice
from tests.asm_kernel import code_object

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def launch_with_debug(monkeypatch, capsys, level):
    monkeypatch.setenv("DEBUG", str(level))
    with AMDDevice(emulate="gfx1100") as dev:
        prg = dev.load(code_object("s_nop 0\ns_endpgm"))
        prg["k"](grid=1, block=32, wait=True)
    return capsys.readouterr().err


def test_debug_3_prints_each_kernels_disassembly_once(monkeypatch, capsys):
    err = launch_with_debug(monkeypatch, capsys, 3)
    assert err.count("s_nop 0") == 1 and "kernel k: 8 bytes of gfx1100 code" in err
    assert all(line == line.strip("\x00") for line in err.splitlines())


def test_debug_2_prints_packets_and_ioctls_in_whole_lines(monkeypatch, capsys):
    err = launch_with_debug(monkeypatch, capsys, 2)
    lines = err.splitlines()
    assert any(line.startswith("PM4 compute queue 0 @ ") and "DISPATCH_DIRECT" in line for line in lines)
    assert any(line.startswith("kfd: AMDKFD_IOC_CREATE_QUEUE") for line in lines)
    assert "s_nop 0" not in err
    # the driver's and the virtual CP's threads never share a line
    for line in lines:
        assert not (line.startswith("PM4 queue") and "kfd:" in line[3:]), line


def test_summary_names_the_missing_oracles(tmp_path):
    bindir = tmp_path / "bin"
    bindir.mkdir()
    (bindir / "python").symlink_to(sys.executable)
    env = dict(os.environ, PATH=str(bindir))
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "tests/test_rdna3_differential.py", "tests/test_amdgpu_codeobj_writer.py"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    summary = next(line for line in proc.stdout.splitlines() if line.startswith("oracles not installed: "))
    assert "llvm-mc-19" in summary and "clang-19" in summary
    assert "apt-get install" in summary and "llvm-19" in summary and "(README: Test oracles)" in summary
    skipped = int(summary.split("(")[1].split(" tests skipped")[0])
    assert skipped > 0
