"""The f32 v_exp / v_log / v_rcp / v_rcp_iflag / v_rsq / v_sqrt without modifiers take a short
path (transcendental.py: the flushes alone, the result's special lanes found by one compare);
it must give the bits of the general path, which a modifier bit of a source the op does not
have (neg of S1) selects without changing the operation, in every MODE."""
import numpy as np
import pytest

from drivers.emu.amd.shader.valu import VALU, Ctx, FloatMode

OPS = ["v_exp_f32", "v_log_f32", "v_rcp_f32", "v_rcp_iflag_f32", "v_rsq_f32", "v_sqrt_f32"]
MODES = [FloatMode(), FloatMode(denorm_f32=False), FloatMode(round_f32=3), FloatMode(ieee=False),
         FloatMode(denorm_f32=True, denorm_in_f32=False)]
EDGES = [0, 0x80000000, 1, 0x807FFFFF, 0x00800000, 0x7F7FFFFF, 0xFF800000, 0x7F800000, 0x7FA00001,
         0xFFC00123, 0x3F800000, 0xBF800000, 0x7E800000, 0x7F000000, 0x00400000, 0x42FE0000, 0xC2FC0000]


@pytest.mark.parametrize("name", OPS)
def test_short_path_matches_the_general_path(name):
    rng = np.random.default_rng(sum(map(ord, name)))
    fn = VALU[name].fn
    for trial in range(40):
        with np.errstate(over="ignore"):
            x = (rng.standard_normal((4, 32)) * 2.0 ** rng.integers(-140, 128, (4, 32))).astype(np.float32)
        bits = x.view(np.uint32).copy()
        k = trial % 12
        bits.reshape(-1)[rng.integers(0, 128, k)] = rng.choice(EDGES, k)
        if trial % 5 == 0:
            bits = np.broadcast_to(bits[:, :1], (4, 32))
        for mode in MODES:
            short = fn(Ctx(mode=mode), [bits], None)
            general = fn(Ctx(mode=mode, neg=2), [bits], None)
            assert short.dtype == general.dtype == np.uint32
            assert short.tobytes() == general.tobytes(), (trial, mode)
