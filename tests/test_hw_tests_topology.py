"""hw_tests on the KFD topology trees of real cards (tests/fixtures/topology): theoretical peaks
against the vendors' published figures (RX 7900 XTX 61.4 / 123 TFLOPS and 960 GB/s, RX 7600
288 GB/s, RX 6900 XT 512 GB/s, MI300X 5.3 TB/s), and the sysfs stage on every shape, and on
trees with one property made inconsistent."""
import os

import pytest

from drivers.amd.topology import read_topology
from drivers.kernel import RealKernel
from hw_tests.peaks import compute_peak, memory_peak

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures", "topology")


def gpu(card):
    return read_topology(RealKernel(sysfs_root=os.path.join(FIXTURES, card, "sys"))).gpus[0]


def test_rx7900xtx_compute_peaks_match_amds_figures():
    node = gpu("rx7900xtx")
    fp32, fp16 = compute_peak(node, "fp32"), compute_peak(node, "fp16_matrix")
    # AMD quotes the 2.5 GHz boost clock; KFD reports the 2482 MHz compute clock
    boost = 2500 / node.engine_clock_mhz
    assert fp32 * boost / 1e12 == pytest.approx(61.44, abs=0.01)
    assert fp16 * boost / 1e12 == pytest.approx(122.88, abs=0.01)
    assert fp32 / 1e12 == pytest.approx(61.0, abs=0.05)


@pytest.mark.parametrize("card, gbps", [("rx7900xtx", 960), ("rx7600", 288), ("rx6900xt", 512), ("mi300x", 5325)])
def test_memory_peak_follows_the_data_rate_rule(card, gbps):
    peak, rule = memory_peak(gpu(card))
    assert peak / 1e9 == pytest.approx(gbps, rel=0.002), rule


def test_families_without_rates_have_no_compute_peak():
    assert compute_peak(gpu("mi300x"), "fp32") is None
    assert compute_peak(gpu("rx6900xt"), "fp32") is None


# -- the sysfs stage on the same captured trees --------------------------------------------------
def sysfs_stage(card_dir, index=0):
    from hw_tests.context import Context
    from hw_tests.runner import Runner
    from hw_tests.stages import build_registry
    kernel = RealKernel(sysfs_root=os.path.join(card_dir, "sys"), dev_root=os.path.join(card_dir, "dev"))
    return Runner(build_registry(), Context(f"amd:{index}", None, kernel=kernel)).run_stage("sysfs")


@pytest.mark.parametrize("card", sorted(os.listdir(FIXTURES)))
def test_sysfs_stage_accepts_every_real_card_shape(card):
    r = sysfs_stage(os.path.join(FIXTURES, card))
    assert r.status == "PASS", r.error
    assert r.numbers["compute_units"]["value"] == gpu(card).compute_units


@pytest.mark.parametrize("key, value, message", [
    ("simd_count", "191", "simd_count 191 is not a positive multiple of simd_per_cu 2"),
    ("wave_front_size", "16", "wave_front_size 16 is neither 32 nor 64"),
    ("mem_banks_count", "2", "mem_banks_count says 2 but the node has 1 mem_banks directories"),
    ("max_engine_clk_fcompute", "25", "max_engine_clk_fcompute 25 MHz is outside the plausible 300..4000 MHz"),
    ("drm_render_minor", "129", "render node /dev/dri/renderD129 does not exist"),
])
def test_sysfs_stage_names_the_inconsistent_property(tmp_path, key, value, message):
    import re
    import shutil
    card = tmp_path / "card"
    shutil.copytree(os.path.join(FIXTURES, "rx7900xtx"), card, symlinks=True)
    props = card / "sys/devices/virtual/kfd/kfd/topology/nodes/1/properties"
    props.write_text(re.sub(rf"^{key} \d+$", f"{key} {value}", props.read_text(), flags=re.M))
    r = sysfs_stage(str(card))
    assert r.status == "FAIL" and r.error["message"] == message


def test_sysfs_stage_without_the_gpu_index():
    r = sysfs_stage(os.path.join(FIXTURES, "rx7900xtx"), index=3)
    assert r.status == "FAIL" and r.error["message"] == "no GPU with index 3: the topology has 1 GPU node(s)"


def test_cli_replays_a_captured_sysfs_tree(tmp_path, capsys):
    import json

    from hw_tests import cli
    path = tmp_path / "r.json"
    assert cli.main(["--sysfs-root", os.path.join(FIXTURES, "rx7600"), "--only", "sysfs", "--json", str(path)]) == 0
    report = json.loads(path.read_text())
    stage = report["stages"][0]
    assert stage["status"] == "PASS" and stage["numbers"]["compute_units"]["value"] == 32
    assert stage["notes"] == ["/dev/dri/renderD128 not checked: the topology is a capture replayed without its /dev"]
    assert report["device"]["target"] == "gfx1102" and report["versions"]["kfd_abi"] is None


def test_cli_refuses_a_directory_without_a_topology(tmp_path, capsys):
    from hw_tests import cli
    assert cli.main(["--sysfs-root", str(tmp_path), "--only", "sysfs"]) == 2
    assert "no devices/virtual/kfd/kfd/topology below it" in capsys.readouterr().err
    assert cli.main(["--sysfs-root", str(tmp_path), "--emulate", "gfx1100"]) == 2
    assert "do not combine with --emulate" in capsys.readouterr().err
