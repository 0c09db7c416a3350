"""The KFD topology parser on fixture trees of real cards and on malformed input."""
import os
import shutil

import pytest

from drivers.amd.topology import gfx_target_name, marketing_name, pci_address, read_topology
from drivers.errors import MalformedInput
from drivers.kernel import RealKernel

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures", "topology")
GiB, MiB = 1 << 30, 1 << 20

# Public specifications of each card, written out by hand (not derived from the fixture code).
EXPECTED = {
    "rx7900xtx": dict(gfx_target="gfx1100", compute_units=96, marketing_name="Radeon RX 7900 XTX",
                      wave_size=32, vram_bytes=24560 * MiB, visible_vram_bytes=24560 * MiB,
                      engine_clock_mhz=2482, num_xcc=1, sdma_engines=2, device_id=0x744C,
                      pci_address="0000:03:00.0", render_node="/dev/dri/renderD128", supported=True,
                      lds_bytes=65536, max_waves=192 * 16),
    "rx7600": dict(gfx_target="gfx1102", compute_units=32, wave_size=32, device_id=0x7480,
                   vram_bytes=8176 * MiB, num_xcc=1, supported=True),
    "apu780m": dict(gfx_target="gfx1103", compute_units=12, marketing_name="Radeon 780M", wave_size=32,
                    vram_bytes=512 * MiB, pci_address="0000:c3:00.0", sdma_engines=1, supported=True),
    "mi300x": dict(gfx_target="gfx942", compute_units=304, marketing_name="Instinct MI300X", wave_size=64,
                   num_xcc=8, vram_bytes=192 * GiB, engine_clock_mhz=2100, sdma_engines=16, supported=False),
    "rx6900xt": dict(gfx_target="gfx1030", compute_units=80, marketing_name="Radeon RX 6900 XT",
                     vram_bytes=16368 * MiB, visible_vram_bytes=0, sdma_engines=4, supported=False),
}


def fixture_kernel(name, root=FIXTURES):
    return RealKernel(sysfs_root=os.path.join(root, name, "sys"))


@pytest.mark.parametrize("card", sorted(EXPECTED))
def test_fixture_tree_parses_to_public_specs(card):
    topo = read_topology(fixture_kernel(card))
    assert len(topo.gpus) == 1 and len(topo.cpus) == 1
    gpu = topo.gpus[0]
    for attr, want in EXPECTED[card].items():
        assert getattr(gpu, attr) == want, f"{card}.{attr}"
    assert gpu.vendor_id == 0x1002 and gpu.gpu_id != 0


def test_unsupported_reasons_name_the_target():
    mi300 = read_topology(fixture_kernel("mi300x")).gpus[0]
    assert "gfx942" in mi300.unsupported_reason and "not supported" in mi300.unsupported_reason
    navi21 = read_topology(fixture_kernel("rx6900xt")).gpus[0]
    assert "gfx1030" in navi21.unsupported_reason and "RDNA" in navi21.unsupported_reason


def test_apu_has_cpu_node_with_system_memory():
    topo = read_topology(fixture_kernel("apu780m"))
    cpu = topo.cpus[0]
    assert cpu.name == "AMD Ryzen 7 7840U w/ Radeon 780M Graphics"
    assert cpu.prop("cpu_cores_count") == 16 and cpu.system_memory_bytes == 32 * GiB
    assert cpu.io_links[0].node_to == 1


def test_mi300x_is_one_node_with_eight_xccs():
    gpu = read_topology(fixture_kernel("mi300x")).gpus[0]
    assert gpu.num_xcc == 8 and gpu.compute_units // gpu.num_xcc == 38


@pytest.mark.parametrize("version,name", [(110000, "gfx1100"), (110002, "gfx1102"), (90402, "gfx942"),
                                          (90010, "gfx90a"), (100300, "gfx1030"), (120001, "gfx1201"),
                                          (110501, "gfx1151")])
def test_gfx_target_name(version, name):
    assert gfx_target_name(version) == name


def test_pci_address_and_marketing_fallback():
    assert pci_address(0, 0x0300) == "0000:03:00.0"
    assert pci_address(1, (0xC3 << 8) | (0x1F << 3) | 7) == "0001:c3:1f.7"
    assert marketing_name(0x1234, 10) == "unknown (0x1234)"
    assert marketing_name(0x744C, 84) == "Radeon RX 7900 XT"


def _copy(tmp_path, card="rx7900xtx"):
    shutil.copytree(os.path.join(FIXTURES, card), tmp_path / card)
    return tmp_path / card / "sys/devices/virtual/kfd/kfd/topology"


def test_malformed_property_line_names_file_and_line(tmp_path):
    topo = _copy(tmp_path)
    props = topo / "nodes/1/properties"
    lines = props.read_text().splitlines()
    lines[4] = "io_links_count 1 extra"
    props.write_text("\n".join(lines) + "\n")
    with pytest.raises(MalformedInput) as e:
        read_topology(fixture_kernel("rx7900xtx", tmp_path))
    assert str(e.value).endswith("nodes/1/properties:5: expected 'key value', got 'io_links_count 1 extra'")


def test_non_decimal_value_is_rejected(tmp_path):
    topo = _copy(tmp_path)
    bank = topo / "nodes/1/mem_banks/0/properties"
    bank.write_text(bank.read_text().replace("heap_type 1", "heap_type 0x1"))
    with pytest.raises(MalformedInput, match=r"mem_banks/0/properties:1: value of 'heap_type' is not a decimal"):
        read_topology(fixture_kernel("rx7900xtx", tmp_path))


def test_missing_gpu_id_and_stray_node_entry(tmp_path):
    topo = _copy(tmp_path)
    (topo / "nodes/1/gpu_id").unlink()
    with pytest.raises(MalformedInput, match=r"nodes/1/gpu_id: missing"):
        read_topology(fixture_kernel("rx7900xtx", tmp_path))
    (topo / "nodes/1/gpu_id").write_text("53722\n")
    (topo / "nodes/notes.txt").write_text("x")
    with pytest.raises(MalformedInput, match=r"unexpected entry 'notes.txt'"):
        read_topology(fixture_kernel("rx7900xtx", tmp_path))


def test_gpu_id_not_a_number(tmp_path):
    topo = _copy(tmp_path)
    (topo / "nodes/1/gpu_id").write_text("gpu\n")
    with pytest.raises(MalformedInput, match=r"nodes/1/gpu_id:1: expected a decimal integer, got 'gpu'"):
        read_topology(fixture_kernel("rx7900xtx", tmp_path))
