"""Theoretical peaks from KFD topology trees of real cards (tests/fixtures/topology) against the
vendors' published figures: RX 7900 XTX 61.4 / 123 TFLOPS and 960 GB/s, RX 7600 288 GB/s,
RX 6900 XT 512 GB/s, MI300X 5.3 TB/s."""
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
