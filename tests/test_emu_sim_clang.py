"""Every clang-19 validation kernel, run through drivers.emu.amd.simulate, must match numpy."""
import pytest

from drivers.emu import simulate
from tests.clang_kernels.cases import CASES, run_case


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_clang_kernel_matches_numpy(case):
    run_case(case, simulate)


def test_stats_count_what_ran():
    case = next(c for c in CASES if c.name == "f32_elementwise")
    args = case.make_args()
    stats = simulate(case.code_object_bytes(), case.kernel, case.grid, case.block, args)
    waves = 5 * 64 // 32
    assert stats.waves == waves and stats.workgroups == 5 and stats.dispatches == 1
    assert stats.wave_instructions >= waves * 10          # at least the prologue and stores per wave
    assert 0 < stats.lane_ops <= stats.wave_instructions * 32


@pytest.mark.parametrize("name", ["scratch_array", "global_atomics", "divergent_loops", "grid3d"])
def test_small_batches_give_the_same_results(name):
    """Workgroups simulated a few at a time (scratch slots reused, atomics across batches)."""
    case = next(c for c in CASES if c.name == name)
    run_case(case, lambda *a: simulate(*a, batch_waves=2))
