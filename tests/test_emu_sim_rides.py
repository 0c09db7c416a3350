"""Waves that leave a divergent branch with EXEC zero ride along the other waves' block when it
leaves them as they were up to their target (Program.ride, executor._riders): results,
registers, PCs and counts are those of one instruction at a time, and the group stays whole."""
import numpy as np
import pytest

from assembler.rdna3 import assemble
from drivers.emu.amd.shader import executor
from drivers.emu import simulate
from drivers.emu.amd.shader import WaveExecutor
from drivers.emu.faults import MemoryFault, MissingWait
from tests.test_emu_sim_blocks import BAD, PTR, both_paths
from tests.test_emu_sim_helpers import code_object

# 4 waves of one workgroup: lanes with bit 5 of the work-item id set and bit 0 clear are active
# in the branches, so waves 0 and 2 jump with EXEC zero.  An if (a load, waits, VALU, an LDS
# store) whose join is inside the fall-through block, then a loop whose body is skipped with
# s_cbranch_execz back to its head and closes with s_branch; a branch on SCC over a VALU op that
# the waves which take it (EXEC not zero) must not ride along; an if with a SALU op, which no
# wave may ride through.
KERNEL = """
  s_load_b64 s[4:5], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_lshlrev_b32_e32 v1, 2, v0
  v_and_b32_e32 v3, 33, v0
  v_mov_b32_e32 v2, v0
  s_mov_b32 s7, 0
  s_mov_b32 s6, exec_lo
  v_cmpx_eq_u32_e32 32, v3
  s_cbranch_execz join
  global_load_b32 v4, v1, s[4:5]
  s_waitcnt vmcnt(0)
  v_mul_lo_u32 v2, v4, 3
  v_add_nc_u32_e32 v2, 5, v2
  ds_store_b32 v1, v2
join:
  s_or_b32 exec_lo, exec_lo, s6
  s_add_u32 s7, s7, 1
  v_add_nc_u32_e32 v2, s7, v2
  s_waitcnt lgkmcnt(0)
  s_barrier
  ds_load_b32 v6, v1
  s_waitcnt lgkmcnt(0)
  v_add_nc_u32_e32 v2, v6, v2
  s_mov_b32 s9, 4
head:
  s_mov_b32 exec_lo, s6
  s_sub_u32 s9, s9, 1
  s_cmp_eq_u32 s9, 0
  s_cbranch_scc1 done
  v_cmpx_eq_u32_e32 32, v3
  s_cbranch_execz head
  v_mad_u32_u24 v2, v2, 3, 1
  s_branch head
done:
  s_mov_b32 exec_lo, s6
  v_readfirstlane_b32 s10, v0
  s_bitcmp1_b32 s10, 5
  s_cbranch_scc1 skip
  v_add_nc_u32_e32 v2, 0x3e8, v2
  s_branch skip
skip:
  s_mov_b32 s11, 3
  v_cmpx_eq_u32_e32 32, v3
  s_cbranch_execz join2
  s_add_u32 s11, s11, 7
  v_add_nc_u32_e32 v2, s11, v2
join2:
  s_or_b32 exec_lo, exec_lo, s6
  s_cmp_eq_u32 s9, 1
  s_cbranch_scc1 store
store:
  v_add_nc_u32_e32 v2, s11, v2
  global_store_b32 v1, v2, s[4:5]
  s_endpgm
"""


def test_waves_with_exec_zero_ride_along_and_match_one_instruction_at_a_time(monkeypatch):
    ridden, original = [], executor._riders

    def riders(program, st, *rest):
        taken, target, nxt = st.split
        r = original(program, st, *rest)
        if r is not None:
            ridden.append((program.ride(nxt, target), int(r[0])))
        return r
    monkeypatch.setattr(executor, "_riders", riders)
    co = code_object(assemble(KERNEL), args=PTR, lds=512)
    rng = np.random.default_rng(5)
    data = rng.integers(0, 2**32, 128, dtype=np.uint64).astype(np.uint32)
    (on, a1, e1), (off, a2, e2) = both_paths(co, (1, 1, 1), (128, 1, 1), lambda: [data.copy()])
    assert e1 is None and e2 is None
    assert a1[0].tobytes() == a2[0].tobytes() and not np.array_equal(a1[0], data)
    s1, s2 = on.states[-1], off.states[-1]
    assert (s1.wave_instructions, s1.lane_ops) == (s2.wave_instructions, s2.lane_ops)
    assert np.array_equal(s1.vregs, s2.vregs) and np.array_equal(s1.sregs, s2.sregs)
    assert np.array_equal(s1.lds, s2.lds)
    # the if (its join inside the block: 5 instructions, 4 vector ones, not executed by the two
    # waves riding along) and the loop's three skips (its body and s_branch), not the SCC branch
    assert sorted(ridden) == [((2, 1), 2)] * 3 + [((5, 4), 2)]


def test_groups_above_the_ride_size_split_instead(monkeypatch):
    """A big group would do its riders' masked work too: above RIDE_WAVES it splits at the
    branch as before (here the limit is lowered below the kernel's 4 waves)."""
    ridden, original = [], executor._riders

    def riders(*args):
        r = original(*args)
        ridden.append(r)
        return r
    monkeypatch.setattr(executor, "_riders", riders)
    monkeypatch.setattr(executor, "RIDE_WAVES", 3)
    co = code_object(assemble(KERNEL), args=PTR, lds=512)
    data = np.arange(128, dtype=np.uint32) * 7
    (on, a1, e1), (off, a2, e2) = both_paths(co, (1, 1, 1), (128, 1, 1), lambda: [data.copy()])
    assert e1 is None and e2 is None and a1[0].tobytes() == a2[0].tobytes()
    assert on.states[-1].wave_instructions == off.states[-1].wave_instructions
    assert ridden and not any(ridden)


def test_a_fault_in_a_ridden_block_leaves_the_riders_at_their_target():
    """The load before the join faults (a bad pointer): the waves riding along are where their
    branch sent them, the others at the load, the counts those of one instruction at a time."""
    co = code_object(assemble(KERNEL), args=PTR, lds=512)
    (on, _, e1), (off, _, e2) = both_paths(co, (1, 1, 1), (128, 1, 1), lambda: [BAD])
    assert isinstance(e1, MemoryFault) and (e1.va, e1.write) == (e2.va, e2.write)
    s1, s2 = on.states[-1], off.states[-1]
    assert (s1.wave_instructions, s1.lane_ops) == (s2.wave_instructions, s2.lane_ops)
    assert s1.pc.tolist() == s2.pc.tolist()
    assert np.array_equal(s1.vregs, s2.vregs) and np.array_equal(s1.sregs, s2.sregs)


def test_waves_whose_loads_the_block_waits_for_do_not_ride_along():
    """The block the other waves take waits for a load the waves jumping to the join have in
    flight, and the code after it reads the load's register: those waves lack the wait, on
    both paths."""
    co = code_object(assemble("""
  s_load_b64 s[4:5], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_lshlrev_b32_e32 v1, 2, v0
  v_and_b32_e32 v3, 33, v0
  global_load_b32 v7, v1, s[4:5]
  s_mov_b32 s6, exec_lo
  v_cmpx_eq_u32_e32 32, v3
  s_cbranch_execz join
  s_waitcnt vmcnt(0)
  v_add_nc_u32_e32 v2, v7, v7
join:
  s_or_b32 exec_lo, exec_lo, s6
  s_cmp_eq_u32 s6, 0
  s_cbranch_scc1 use
use:
  v_add_nc_u32_e32 v8, 1, v7
  global_store_b32 v1, v8, s[4:5]
  s_endpgm
"""), args=PTR)
    errors = []
    for blocks in (True, False):
        with pytest.raises(MissingWait) as e:
            simulate(co, "k", (1, 1, 1), (128, 1, 1), [np.zeros(128, np.uint32)],
                     executor=WaveExecutor(blocks=blocks))
        errors.append(str(e.value))
    assert errors[0] == errors[1] and "v7" in errors[0]


def test_memory_accesses_after_the_join_keep_the_order_of_one_instruction_at_a_time():
    """Every wave stores its first work-item id to one address after the join: the waves that
    jumped there store after the others, as when they run apart (the block is not ridden)."""
    co = code_object(assemble("""
  s_load_b64 s[4:5], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_and_b32_e32 v3, 33, v0
  v_mov_b32_e32 v1, 0
  s_mov_b32 s6, exec_lo
  v_cmpx_eq_u32_e32 32, v3
  s_cbranch_execz join
  v_add_nc_u32_e32 v2, 5, v0
join:
  s_mov_b32 exec_lo, 1
  global_store_b32 v1, v0, s[4:5]
  s_mov_b32 exec_lo, s6
  s_endpgm
"""), args=PTR)
    (on, a1, _), (off, a2, _) = both_paths(co, (1, 1, 1), (128, 1, 1), lambda: [np.zeros(4, np.uint32)])
    assert a1[0][0] == a2[0][0] == 64
