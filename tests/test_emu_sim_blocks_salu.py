"""The SALU ops compiled blocks write out (block_salu.py) against the per-instruction path: the
32-bit adds, subs and their carries, multiplies, shifts and min / max on edge values, and SCC
left unwritten only where a later instruction of the block overwrites it unread."""
import numpy as np

from assembler.rdna3 import assemble
from tests.test_emu_sim_blocks import PTR, block_source, both_paths, same_inputs
from tests.test_emu_sim_helpers import code_object

# s[16:23] hold the wave's inputs; every result is read back through a VGPR (s_cselect makes
# the SCC of the op before it a register)
SALU_BODY = """
  s_lshl_b64 s[62:63], s[16:17], 5
  s_cselect_b32 s64, 27, 28
  s_lshr_b64 s[66:67], s[18:19], 40
  s_cselect_b32 s65, 29, 30
  s_lshl_b64 s[68:69], s[20:21], 32
  s_lshr_b64 s[70:71], s[22:23], 0
  s_lshr_b64 s[72:73], s[22:23], 63
  s_cselect_b32 s74, 31, 32
  s_lshl_b64 s[20:21], s[20:21], 13
  s_add_u32 s24, s16, s17
  s_add_u32 s25, s17, s18
  s_addc_u32 s26, s18, s19
  s_cselect_b32 s27, 1, 2
  s_sub_u32 s28, s16, s19
  s_subb_u32 s29, s20, s21
  s_cselect_b32 s30, 3, 4
  s_add_i32 s31, s16, s20
  s_cselect_b32 s32, 5, 6
  s_sub_i32 s33, s21, s17
  s_cselect_b32 s34, 7, 8
  s_mul_i32 s35, s16, s22
  s_cselect_b32 s36, 9, 10
  s_lshl_b32 s37, s16, 5
  s_lshr_b32 s38, s17, s23
  s_ashr_i32 s39, s18, 31
  s_cselect_b32 s40, 11, 12
  s_ashr_i32 s41, s19, s20
  s_cselect_b32 s42, 13, 14
  s_min_u32 s43, s16, s17
  s_cselect_b32 s44, 15, 16
  s_max_u32 s45, s18, s18
  s_cselect_b32 s46, 17, 18
  s_min_i32 s47, s20, s21
  s_cselect_b32 s48, 19, 20
  s_max_i32 s49, s22, s16
  s_cselect_b32 s50, 21, 22
  s_lshl_b32 s51, s23, s19
  s_add_u32 s52, s16, 0x80000000
  s_subb_u32 s53, s17, s52
  s_lshr_b32 s54, s22, 33
  s_cmp_eq_u32 s54, 0
  s_or_b32 s55, s17, s18
  s_sub_u32 s56, s56, s19
  s_lshl_b32 s16, s16, 1
  s_cselect_b32 s57, 23, 24
  s_and_b32 s58, s17, s18
  s_sub_u32 s60, s19, s19
  s_cselect_b32 s61, 25, 26
  s_max_u32 s59, s17, s18
"""


def test_salu_ops_written_out_match_the_table_and_keep_the_scc_that_is_read():
    regs = list(range(24, 75)) + [16, 20, 21]
    moves = "\n".join(f"  v_mov_b32_e32 v{2 + i}, s{r}" for i, r in enumerate(regs))
    stores = "\n".join(f"  global_store_b128 v1, v[{2 + 4 * k}:{5 + 4 * k}], s[4:5] offset:{16 * k}"
                       for k in range(len(regs) // 4 + 1))
    co = code_object(assemble(f"""
  s_load_b128 s[4:7], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  s_lshl_b32 s8, s2, 5
  s_add_u32 s6, s6, s8
  s_addc_u32 s7, s7, 0
  s_load_b256 s[16:23], s[6:7], 0x0
  s_mov_b32 s56, s2
  s_waitcnt lgkmcnt(0)
{SALU_BODY}
  s_cbranch_scc1 taken
  s_mov_b32 s59, 0x1234
taken:
  v_lshlrev_b32_e32 v1, 8, v0
  s_lshl_b32 s8, s2, 13
  v_add_nc_u32_e32 v1, s8, v1
{moves}
{stores}
  s_endpgm
"""), args=PTR + PTR, vgprs=64)
    rng = np.random.default_rng(5)
    edges = np.array([0, 1, 2, 31, 32, 33, 0x7FFFFFFF, 0x80000000, 0x80000001, 0xFFFFFFFF, 0xFFFFFFFE], np.uint32)
    waves = 16

    def make_args():
        inputs = rng.integers(0, 2**32, waves * 8, dtype=np.uint64).astype(np.uint32)
        pick = rng.random(inputs.shape) < 0.6
        inputs[pick] = rng.choice(edges, int(pick.sum()))
        return [np.zeros(waves * 0x800, np.uint32), inputs]
    (on, a, err_on), (off, b, err_off) = both_paths(co, (waves, 1, 1), (32, 1, 1), same_inputs(rng, make_args))
    assert err_on is None and err_off is None
    assert a[0].any() and a[0].tobytes() == b[0].tobytes()
    assert np.array_equal(on.states[-1].sregs, off.states[-1].sregs)
    assert np.array_equal(on.states[-1].scc, off.states[-1].scc)
    assert on.last.wave_instructions == off.last.wave_instructions
    source = block_source(on)
    assert "r, c = s" not in source                     # every op of the body written out
    for form in ("np.right_shift(S[18, sel].view(I32), shift", "np.greater_equal(S[18, sel], S[18, sel])",
                 "t = np.add(S[18, sel], S[19, sel])", "y |= np.right_shift(S[16, sel], U32(27))", "np.bitwise_and(S[23, sel], U32(31))"):
        assert form in source
    # SCC is not written by the 64-bit shifts into s[68:69], s[70:71] and s[20:21], the first s_add_u32, the s_lshl / s_lshr before another shift or add,
    # the second s_subb, s_lshr s54, the compare, s_or, s_sub s56 and s_and (each overwritten
    # unread), and is by the 19 others (read by s_addc, s_subb, s_cselect, the branch)
    body = source[source.index("s_lshl_b64 s[62:63]"):source.index("s_cbranch_scc1")]
    assert body.count("SCC[sel] =") == 19
