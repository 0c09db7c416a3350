"""scripts/bench_emu.py stays runnable: its kernels, at toy sizes, produce numpy's results (the
script refuses to report a speed otherwise)."""
import importlib.util
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_emu", os.path.join(ROOT, "scripts", "bench_emu.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("op", ["v_fmac_f32_e32", "v_add_nc_u32_e32"])
def test_valu_kernel(bench, op):
    seconds, stats = bench.bench_valu(8, 3, 1, op)
    # per wave: 3 iterations of 10 VALU + 3 SALU, and 20 instructions around the loop
    assert stats.waves == 8 and stats.wave_instructions == 8 * (3 * 13 + 20)
    assert seconds > 0


def test_memory_kernel(bench):
    _, stats = bench.bench_memory(8, 2, 1)
    assert stats.waves == 8 and stats.lane_ops > 0


def test_report_line(bench, capsys):
    _, stats = bench.bench_memory(4, 1, 1)
    bench.report("memory", 0.5, stats)
    assert "x anchor" in capsys.readouterr().out
