"""The variants of a compiled block (block_views.py): a group that is a slice of the batch runs
through register views kept per batch state and slice, a group given by wave indices reads
register rows first.  Both against the per-instruction path, with destinations that are
sources, partial EXEC, several dispatch shapes on one executor, and states that are kept or
restarted; and the views against register files that are reallocated."""
import numpy as np
import pytest

from drivers.emu import simulate
from drivers.emu.amd.shader import WaveExecutor
from drivers.emu.amd.shader.block_views import index_source, register_views, slice_source
from drivers.emu.amd.shader.state import WaveState
from assembler.rdna3 import assemble
from drivers.emu.faults import MemoryFault
from tests.test_emu_sim_blocks import BAD, PTR, both_paths, lane_ops_kernel
from tests.test_emu_sim_helpers import code_object

# destinations equal to sources (a carry op's, a float op's), results written into the registers
# with their carries read afterwards, SALU results into their SGPRs, an SGPR shift by a register
# count before a 64-bit result (the block's wave count must survive it), SCC read by a select
BODY = """
  v_add_co_u32 v6, vcc_lo, s6, v3
  v_add_co_ci_u32_e32 v7, vcc_lo, s6, v4, vcc_lo
  v_add_co_u32 v3, vcc_lo, s6, v3
  v_add_co_ci_u32_e32 v4, vcc_lo, v2, v4, vcc_lo
  v_mul_f32_e32 v8, v2, v5
  v_mul_f32_e32 v5, v5, v2
  v_xor_b32_e32 v9, v3, v4
  v_lshlrev_b32_e32 v10, 3, v2
  s_add_u32 s7, s6, s6
  s_or_b32 s7, s7, s6
  s_lshl_b32 s10, s6, s7
  v_add_co_u32 v11, s11, v2, v3
  v_cndmask_b32_e64 v12, 0, 1, s11
  v_mov_b32_e32 v13, s7
  v_mad_u64_u32 v[17:18], null, v2, s6, v[3:4]
  v_mov_b32_e32 v14, s10
  s_cmp_eq_u32 s10, 0
  s_cselect_b32 s12, 1, 2
  v_add_nc_u32_e32 v15, s12, v2
  v_sub_nc_u32_e64 v16, v2, s12
  global_store_b128 v1, v[2:5], s[4:5]
  global_store_b128 v1, v[6:9], s[4:5] offset:16
  global_store_b128 v1, v[10:13], s[4:5] offset:32
  global_store_b128 v1, v[14:17], s[4:5] offset:48
  global_store_b32 v1, v18, s[4:5] offset:64
"""


def _inputs(seed):
    rng = np.random.default_rng(seed)
    inputs = rng.integers(0, 2**32, 4 * 32 * 4, dtype=np.uint64).astype(np.uint32)
    inputs[::3] = 0xFFFFFFFF                       # carries out of every add
    inputs[0:32:8] = 0x80000001, 0, 0xFFFFFFFF, 7  # s6 of workgroups 0-3 (0: SCC set)
    return inputs


def _run(co, ex, shape, seed):
    args = [np.zeros(4 * 0x1000 // 4, np.uint32), _inputs(seed)]
    simulate(co, "k", shape[0], shape[1], args, executor=ex)
    return args[0]


@pytest.mark.parametrize("keep_state", [False, True])
def test_slice_and_index_groups_of_several_shapes_on_one_executor_match_the_per_instruction_path(keep_state):
    co = lane_ops_kernel(BODY)
    ex = WaveExecutor(keep_state=keep_state)
    # 4 workgroups of a wave: the branch on the workgroup's parity splits them into {0, 2} and
    # {1, 3} (index arrays); 2 and 1: slices of a wave; a workgroup of 2 waves: a slice of 2;
    # shapes alternate, so kept views meet new states and old ones again
    one, two, four, wide = ((1, 1, 1), (32, 1, 1)), ((2, 1, 1), (32, 1, 1)), ((4, 1, 1), (32, 1, 1)), \
        ((1, 1, 1), (64, 1, 1))
    for i, shape in enumerate([four, wide, two, one, four, wide, two, four]):
        got = _run(co, ex, shape, i)
        want = _run(co, WaveExecutor(blocks=False), shape, i)
        assert got.any() and got.tobytes() == want.tobytes(), shape
    blocks = [b for p in ex.programs.values() for b in p.blocks.values()]
    assert any(b.fs is not None for b in blocks) and any(b.fx is not None for b in blocks)


def _alu_then_store_kernel():
    """lane_ops_kernel's inputs and outputs, with BODY's ALU part (no memory access: the blocks
    of index-array groups run on gathered copies) on each side of the parity branch, the stores
    after them, where the halves meet; the odd half loads into a register its block wrote
    before (zeros: nothing is stored yet) and reads the SCC its ALU block left in the next
    block."""
    alu, stores = BODY.split("  global_store_b128 v1, v[2:5]")
    stores = "  global_store_b128 v1, v[2:5]" + stores
    return code_object(assemble(f"""
  s_load_b128 s[4:7], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_lshlrev_b32_e32 v1, 4, v0
  s_lshl_b32 s8, s2, 9
  v_add_nc_u32_e32 v1, s8, v1
  global_load_b128 v[2:5], v1, s[6:7]
  v_lshlrev_b32_e32 v1, 7, v0
  s_lshl_b32 s9, s2, 12
  v_add_nc_u32_e32 v1, s9, v1
  s_lshl_b32 s8, s2, 5
  s_waitcnt vmcnt(0)
  s_load_b32 s6, s[6:7], s8
  s_waitcnt lgkmcnt(0)
  s_bitcmp1_b32 s2, 0
  s_cbranch_scc1 odd
{alu}
  s_branch store
odd:
  v_cmpx_gt_u32_e32 27, v0
{alu}
  v_mov_b32_e32 v20, 77
  global_load_b32 v20, v1, s[4:5]
  s_waitcnt vmcnt(0)
  v_xor_b32_e32 v18, v20, v18
  s_branch on
on:
  s_cselect_b32 s13, 5, 7
  v_mov_b32_e32 v19, s13
  s_mov_b32 exec_lo, -1
  v_add_nc_u32_e32 v16, 1, v16
  s_cmp_eq_u32 s12, 2
  s_cbranch_scc1 store
  v_add_nc_u32_e32 v15, 1, v15
store:
{stores}
  global_store_b32 v1, v19, s[4:5] offset:68
  s_endpgm
"""), args=PTR + PTR, vgprs=40)


def test_index_groups_without_closures_run_on_gathered_copies_like_the_per_instruction_path():
    co = _alu_then_store_kernel()
    ex = WaveExecutor()
    four, three = ((4, 1, 1), (32, 1, 1)), ((3, 1, 1), (32, 1, 1))
    for i, shape in enumerate([four, three, four]):
        got = _run(co, ex, shape, i)
        want = _run(co, WaveExecutor(blocks=False), shape, i)
        assert got.any() and got.tobytes() == want.tobytes(), shape
    blocks = [b for p in ex.programs.values() for b in p.blocks.values()]
    assert any(b.fx is not None and b._gathered for b in blocks)


def test_views_are_made_again_for_registers_that_were_reallocated():
    st = WaveState(4, 8, 1, 0, None)
    views = register_views(st, slice(1, 3))
    assert register_views(st, slice(1, 3)) is views
    st.init_from(4, 8, st.lds.size, 0, None, st.arena.copy())         # new register files
    again = register_views(st, slice(1, 3))
    assert again is not views and again.vregs is st.vregs
    st.vregs = np.ones_like(st.vregs)                                   # replaced behind its back
    third = register_views(st, slice(1, 3))
    assert third is not again and third.vregs is st.vregs
    spec = slice_source("def block(st, sel, n, C):\n    V = st.vregs; S = st.sregs; SCC = st.scc\n"
                        "    x = V[5, sel]\n")[1]
    assert np.shares_memory(third[spec][0], st.vregs[5]) and (third[spec][0] == 1).all()


HEADER = "def block(st, sel, n, C):\n    V = st.vregs; S = st.sregs; SCC = st.scc; IX = type(sel) is not slice\n"


def _body(source):
    return [line.strip() for line in slice_source(HEADER + source)[0].splitlines()[3:]]


def test_a_carry_result_is_computed_into_its_register_only_when_no_carry_line_reads_the_register():
    carry = """    da = np.add(S[4, sel][:, None], V[3, sel])
    ma = np.less(da, V[3, sel])
    if em is None: V[{d}, sel] = da
    else: CP(V[{d}, sel], da, casting='unsafe', where=em)
    k106 = ma if em is None else ma & em
"""
    assert _body(carry.format(d=5))[:4] == ["if em is None: da = np.add(Sc4, Vr3, out=Vr5)",
                                            "else: da = np.add(Sc4, Vr3)", "ma = np.less(da, Vr3)",
                                            "if em is not None: CP(Vr5, da, casting='unsafe', where=em)"]
    # v3 = s4 + v3: the carry compares the sum with v3's old value
    assert _body(carry.format(d=3))[:3] == ["da = np.add(Sc4, Vr3)", "ma = np.less(da, Vr3)",
                                            "if em is None: Vr3[...] = da"]


def test_a_result_read_again_later_is_not_written_in_place_of_its_local():
    once = """    da = np.bitwise_xor(V[2, sel], V[3, sel])
    if em is None: V[4, sel] = da
    else: CP(V[4, sel], da, casting='unsafe', where=em)
"""
    assert _body(once)[0] == "if em is None: np.bitwise_xor(Vr2, Vr3, out=Vr4, casting='unsafe')"
    assert _body(once + "    db = np.add(da, C[0])\n")[0] == "da = np.bitwise_xor(Vr2, Vr3)"
    assert _body(once + "    da = np.add(V[1, sel], C[0])\n")[0].startswith("if em is None: np.bitwise_xor(")
    assert _body(once + "    da = np.add(da, C[0])\n")[0] == "da = np.bitwise_xor(Vr2, Vr3)"


def test_index_variant_reads_rows_and_puts_scalars():
    source = index_source(HEADER + "    S[5, sel] = np.bitwise_or(S[4, sel], S[6, sel])\n"
                          "    if em is None: V[3, sel] = V[4, sel]\n"
                          "    elif em is None: np.add(V[1, sel], V[2, sel], out=V[3, sel])\n")
    lines = [line.strip() for line in source.splitlines()[2:]]
    assert lines == ["S[5].put(sel, np.bitwise_or(S[4][sel], S[6][sel]))",
                     "if em is None: V[3, sel] = V[4].take(sel, 0)",
                     "elif em is None: np.add(V[1, sel], V[2, sel], out=V[3, sel])"]


def test_a_fault_in_a_gathered_block_leaves_the_registers_and_counts_of_one_instruction_at_a_time():
    """An index-array group's block with ALU writes on each side of a load that faults: the
    registers written before it are in the register files, the PC and counts name the load."""
    co = code_object(assemble("""
  s_load_b64 s[4:5], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  s_bitcmp1_b32 s2, 0
  s_cbranch_scc1 odd
  s_endpgm
odd:
  v_add_nc_u32_e32 v3, s2, v0
  s_add_u32 s10, s2, 5
  s_cmp_eq_u32 s2, 1
  v_lshlrev_b32_e32 v1, 2, v0
  global_load_b32 v2, v1, s[4:5] offset:16
  v_add_nc_u32_e32 v3, 7, v3
  s_add_u32 s10, s10, 5
  s_waitcnt vmcnt(0)
  global_store_b32 v1, v2, s[4:5]
  s_endpgm
"""), args=PTR)
    (on, _, e1), (off, _, e2) = both_paths(co, (4, 1, 1), (32, 1, 1), lambda: [BAD])
    assert isinstance(e1, MemoryFault) and (e1.va, e1.write) == (e2.va, e2.write)
    s1, s2 = on.states[-1], off.states[-1]
    assert s1.pc.tolist() == s2.pc.tolist()
    assert (s1.wave_instructions, s1.lane_ops) == (s2.wave_instructions, s2.lane_ops)
    assert np.array_equal(s1.vregs, s2.vregs) and np.array_equal(s1.sregs, s2.sregs)
    assert (s1.scc == s2.scc).all() and s1.vregs[3, 1, 5] == 1 + 5
    blocks = [b for p in on.programs.values() for b in p.blocks.values()]
    assert any(b._gathered for b in blocks)
