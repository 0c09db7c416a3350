"""Every clang-19 validation kernel, run through drivers.emu.simulate, must match numpy."""
import pytest

from assembler.rdna3.decoder import decode
from drivers.emu import simulate
from drivers.errors import AssemblerError
from tests.clang_kernels.cases import CASES, run_case

BARRIER_KERNELS = {"lds_reduce", "lds_scan", "lds_histogram", "matmul_tiled"}


def decoder_knows_s_barrier():
    try:
        return decode(bytes.fromhex("0000bdbf"), 0)[0].mnemonic == "s_barrier"
    except AssemblerError:
        return False


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_clang_kernel_matches_numpy(case):
    if case.name in BARRIER_KERNELS and not decoder_knows_s_barrier():
        pytest.skip("assembler.rdna3 does not decode s_barrier (SOPP 61) yet")
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
