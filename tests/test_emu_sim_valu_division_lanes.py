"""v_div_scale / v_div_fixup decide the few lanes their cases can hold one by one (division.py:
the exponent ranges outside which a case may apply, then the pseudocode's cases per lane), and
v_div_fmas_f64 post-scales its few masked lanes one by one: each against the case-by-case array path
on ordinary lanes with a few edge lanes, in several MODEs."""
import numpy as np
import pytest

from drivers.emu.amd.shader.valu import VALU, Ctx, FloatMode
from drivers.emu.amd.shader.valu import division

EDGES = {
    np.float32: [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, -3e-39, 1.17549435e-38, 2.0 ** 127, 3.0e38,
                 2.0 ** 126, 2.0 ** -126, 2.0 ** -100, 2.0 ** -130, 2.0 ** -149, 2.0 ** 100, 1.0, -2.0,
                 2.0 ** 23, 2.0 ** 24, -2.0 ** 25],        # exponent gaps at the underflow bound
    np.float64: [0.0, -0.0, np.inf, -np.inf, np.nan, 5e-324, -1e-310, 2.2250738585072014e-308,
                 2.0 ** 1023, 1.7e308, 2.0 ** 1022, 2.0 ** -1022, 2.0 ** -1000, 2.0 ** -1030, 2.0 ** 900,
                 2.0 ** -900, 2.0 ** -970, 1.0, -2.0,
                 2.0 ** 52, 2.0 ** 53, -2.0 ** 54],
}
# (S1, S2) on either side of each exponent bound: 1/S1 and S2/S1 at the smallest normal, the
# fixup's underflow gap, the scale's near-maximum gap and its exponent(S2) <= mantissa bits
PAIRS = {
    np.float32: [(1.5, 2.0 ** -126), (1.0, 2.0 ** -126), (1.5 * 2.0 ** 126, 1.0), (2.0 ** 126, 1.0),
                 (1.5 * 2.0 ** 24, 2.0 ** -126), (1.5 * 2.0 ** 25, 2.0 ** -126), (1.0, 2.0 ** 96),
                 (1.0, 1.5 * 2.0 ** 95), (1.0, 2.0 ** -104), (1.0, 2.0 ** -103), (1.5 * 2.0 ** 126, 4.0),
                 (1.5 * 2.0 ** 23, 2.0 ** -103), (2.0 ** 23, 2.0 ** -103)],
    np.float64: [(1.5, 2.0 ** -1022), (1.0, 2.0 ** -1022), (1.5 * 2.0 ** 1022, 1.0), (2.0 ** 1022, 1.0),
                 (1.5 * 2.0 ** 53, 2.0 ** -1022), (1.5 * 2.0 ** 54, 2.0 ** -1022), (1.0, 2.0 ** 768),
                 (1.0, 1.5 * 2.0 ** 767), (1.0, 2.0 ** -970), (1.0, 2.0 ** -969), (1.5 * 2.0 ** 1022, 4.0),
                 (1.5 * 2.0 ** 53, 2.0 ** -969), (2.0 ** 53, 2.0 ** -969)],
}
UTYPE = {np.float32: np.uint32, np.float64: np.uint64}
PAYLOADS = {np.float32: [0x7FA00001, 0xFFC00123], np.float64: [0x7FF0000000000005, 0xFFF8000000000ABC]}
MODES = [FloatMode(), FloatMode(denorm_f32=False, denorm_f16_64=False),
         FloatMode(round_f32=1, round_f16_64=1), FloatMode(round_f32=3, round_f16_64=2)]


def _operands(rng, dtype, edges):
    """Three (4, 32) operands of ordinary values (some sharing a value, as S0 shares S1 or S2 in a
    division) with ``edges`` lanes drawn from the edge values, NaN payloads among them."""
    u = UTYPE[dtype]
    xs = [(rng.standard_normal((4, 32)) * 2.0 ** rng.integers(-30, 30, (4, 32))).astype(dtype) for _ in range(3)]
    xs[0] = np.where(rng.random((4, 32)) < 0.3, xs[rng.integers(1, 3)], xs[0]).astype(dtype)
    bits = [x.view(u).copy() for x in xs]
    pool = np.concatenate([np.array(EDGES[dtype], dtype).view(u), np.array(PAYLOADS[dtype], u)])
    for _ in range(edges):
        k, w, lane = rng.integers(0, 3), rng.integers(0, 4), rng.integers(0, 32)
        bits[k][w, lane] = rng.choice(pool)
        if rng.random() < 0.4:
            pair = PAIRS[dtype][rng.integers(len(PAIRS[dtype]))]
            sign = rng.choice((-1.0, 1.0), 2)
            bits[1][w, lane], bits[2][w, lane] = np.array(pair * sign, dtype).view(u)
            k = rng.integers(1, 3)
        if rng.random() < 0.3:                        # S0 equal to the edited S1 / S2
            bits[0][w, lane] = bits[k][w, lane]
    return bits


def _both(name, srcs, mode, mask=None):
    """(the result with the few-lanes path, the result with the case-by-case arrays)."""
    out = []
    for few in (division._FEW, -1):
        saved, division._FEW = division._FEW, few
        try:
            r = VALU[name].fn(Ctx(mode=mode, mask=mask, lane=None), [s.copy() for s in srcs], None)
        finally:
            division._FEW = saved
        out.append(r if isinstance(r, tuple) else (r,))
    return out


@pytest.mark.parametrize("name", ["v_div_scale_f32", "v_div_scale_f64", "v_div_fixup_f32", "v_div_fixup_f64"])
def test_few_edge_lanes_decided_one_by_one_match_the_array_path(name):
    dtype = np.float64 if name.endswith("64") else np.float32
    rng = np.random.default_rng(sum(map(ord, name)))
    lanes_path = 0
    for trial in range(240):
        edges = trial % 10
        srcs = _operands(rng, dtype, edges)
        for mode in MODES:
            fast, slow = _both(name, srcs, mode)
            for f, s in zip(fast, slow):
                assert np.asarray(f).tobytes() == np.asarray(s).tobytes(), (trial, mode, srcs)
        lanes_path += 0 < edges <= division._FEW
    assert lanes_path > 100


def test_div_fmas_with_few_post_scaled_lanes_is_the_scaled_fma():
    """No post-scaled lane: the fma itself; a few: those lanes scaled one by one, the ones that
    land among the denormals or overflow rounded once from the exact value."""
    rng = np.random.default_rng(4)
    extreme = [(1.5 * 2.0 ** -450, 1.25 * 2.0 ** -450, 2.0 ** -920),      # 2**-900 scaled by 2**-128
               # rounded to 53 bits, then to the denormals' 46: a tie only the first rounding made
               (2.0 ** -450, -(2.0 ** -450), -(2.0 ** -947 + 2.0 ** -980)),
               (1.5 * 2.0 ** -450, -1.25 * 2.0 ** -451, 1.0 + 2.0 ** -52),
               (1.5 * 2.0 ** 450, 1.3 * 2.0 ** 450, 3.0),                 # 2**900 scaled by 2**128
               (1.5 * 2.0 ** 400, 1.3 * 2.0 ** 400, -3.0), (np.inf, 0.0, 3.0), (np.nan, 1.0, 0.5)]
    fast = 0
    for trial in range(90):
        srcs = _operands(rng, np.float64, trial % 6)
        mask = np.zeros((4, 32), bool)
        for _ in range(trial % 10):
            w, lane = rng.integers(0, 4), rng.integers(0, 32)
            mask[w, lane] = True
            if rng.random() < 0.5:
                for src, x in zip(srcs, extreme[rng.integers(len(extreme))]):
                    src[w, lane] = np.float64(x).view(np.uint64)
        fast += 0 < np.count_nonzero(mask) <= division._FEW
        got = VALU["v_div_fmas_f64"].fn(Ctx(mode=FloatMode(), mask=mask, lane=None), srcs, None)
        post = np.where(mask, np.where((srcs[2] >> np.uint64(52) & np.uint64(0x7FF)) > 1023, 128, -128), 0)
        with np.errstate(all="ignore"):
            want = division.fma64_scaled(*(s.view(np.float64) for s in srcs), post)
        want = np.where(np.isnan(want), want.view(np.uint64) | np.uint64(1 << 51), want.view(np.uint64))
        assert got.tobytes() == want.tobytes(), trial
    assert fast > 40
