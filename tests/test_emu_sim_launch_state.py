"""The initial wave state of a repeated launch, copied from a per-shape template, is the state
a fresh build gives (and launches of one shape with different user SGPRs do not share any)."""
import numpy as np
import pytest

from drivers.emu.amd.dispatch import RSRC2_TG_SIZE_EN, Dispatch
from drivers.emu.amd.shader.launch import build_state, workgroup_table
from drivers.emu.vm import GpuVM

FIELDS = ("sregs", "vregs", "scc", "pc", "done", "at_barrier", "wg", "mode", "hw_id", "scratch_base",
          "lds", "wave_ids")


def dispatch(user, grid=(3, 2, 1), block=(40, 3, 1), items=(110, 5, 1), tgid=(1, 1, 0), tg_size=True):
    rsrc2 = len(user) << 1 | 1 | sum(1 << (7 + i) for i, t in enumerate(tgid) if t) \
        | (RSRC2_TG_SIZE_EN if tg_size else 0) | 3 << 15
    return Dispatch(source="test", code_va=0x10000, rsrc1=0x60AF0003 | 0x3 << 12, rsrc2=rsrc2, rsrc3=0,
                    user_sgprs=tuple(user), grid_workgroups=grid, workgroup_size=block, grid_size=items,
                    lds_bytes=1024, wave32=True, vm=GpuVM(), scratch_base=0x40000, private_segment_size=16)


def states_equal(a, b):
    assert (a.W, a.vgprs, a.lds_bytes, a.private_size, a.mode_uniform) == \
        (b.W, b.vgprs, b.lds_bytes, b.private_size, b.mode_uniform)
    for name in FIELDS:
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype and np.array_equal(x, y), name
    assert a.vm is b.vm


@pytest.mark.parametrize("kw", [{}, {"tgid": (0, 0, 0), "tg_size": False}, {"grid": (1, 1, 1), "block": (32, 1, 1),
                                                                           "items": (32, 1, 1)}])
def test_template_copy_equals_a_fresh_build(kw):
    templates = {}
    for user in ((0x1000, 0x2, 7), (0x3000, 0x4, 9)):        # same shape, other kernarg pointers
        d = dispatch(user, **kw)
        ids, extents, _ = workgroup_table(d)
        scratch = (d.scratch_base, 512, 16)
        fresh = build_state(d, ids, extents, 32, scratch)
        first = build_state(d, ids, extents, 32, scratch, templates)
        again = build_state(d, ids, extents, 32, scratch, templates)
        assert len(templates) == 1
        states_equal(fresh, first)
        states_equal(fresh, again)
        assert fresh.sregs[0, 0] == user[0] and again.sregs[2, -1] == user[2]
        # a launch's writes never reach the template or another launch's state
        again.sregs[:] = 0xDEAD
        again.vregs[:] = 1
        again.pc[:] = 4
        states_equal(fresh, build_state(d, ids, extents, 32, scratch, templates))


def test_small_batch_scheduler_picks_the_groups_the_array_path_picks(monkeypatch):
    """The list-based scheduler of small batches (up to 64 waves) against the numpy one of large
    batches, on random PCs with waves done or parked at a barrier (contiguous and scattered
    groups, whole and partial, barrier release)."""
    from drivers.emu.amd.shader import executor
    from drivers.emu.amd.shader.state import WaveState

    rng = np.random.default_rng(5)
    for trial in range(400):
        W = int(rng.integers(1, 65))
        st = WaveState(W, 8, 1, 0, None)
        st.pc[:] = rng.choice([0x100, 0x104, 0x200, 0x1000], W, p=[0.5, 0.2, 0.2, 0.1])
        st.done[:] = rng.random(W) < (0.3 if trial % 3 else 0.0)
        st.at_barrier[:] = ~st.done & (rng.random(W) < (0.3 if trial % 4 else 0.0))
        if trial % 7 == 0:
            st.at_barrier[:] = ~st.done                    # every live wave parked: released
        small_state, big_state = st, WaveState(W, 8, 1, 0, None)
        for name in ("pc", "done", "at_barrier"):
            getattr(big_state, name)[:] = getattr(st, name)
        small = executor._next_group(small_state)
        monkeypatch.setattr(executor, "SMALL_BATCH", 0)
        big = executor._next_group(big_state)
        monkeypatch.setattr(executor, "SMALL_BATCH", 64)
        assert np.array_equal(small_state.at_barrier, big_state.at_barrier)
        if big is None:
            assert small is None
            continue
        (pc, sel, n, whole, others), (pc2, sel2, n2, whole2, others2) = small, big
        assert (pc, n, whole, others) == (pc2, n2, whole2, others2) and type(pc) is int
        assert type(sel) is type(sel2)
        assert np.array_equal(np.arange(W)[sel], np.arange(W)[sel2])
        # others: the lowest PC of a runnable wave outside the group
        runnable = ~(small_state.done | small_state.at_barrier)
        outside = runnable.copy()
        outside[sel] = False
        assert others == (int(small_state.pc[outside].min()) if outside.any() else executor._PAST_EVERY_PC)


@pytest.mark.parametrize("blocks", [True, False])
@pytest.mark.parametrize("name", ["lds_reduce", "lds_scan", "divergent_loops", "softmax_rows"])
def test_divergent_branch_halves_are_the_groups_the_scheduler_picks(monkeypatch, name, blocks):
    """After every runnable wave branches divergently, the executor runs the lower half and then,
    once it has parked at s_barrier or ended, the other without scanning the batch: the groups
    run, in order, and the instruction count are those of asking the scheduler every time."""
    import copy

    from drivers.emu import simulate
    from drivers.emu.amd.shader import WaveExecutor, executor, waits
    from tests.clang_kernels.cases import CASES_BY_NAME, check_outputs

    case = CASES_BY_NAME[name]

    def run(shortcut):
        seen = []

        class Recording(waits.WaveStates):
            def enter(self, sel, n):
                seen.append(np.arange(self.W)[sel].tolist())
                return super().enter(sel, n)
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(executor, "WaveStates", Recording)
            if not shortcut:
                mp.setattr(executor, "_halves", lambda sel, split: (None, None))
            pristine = case.make_args()
            args = copy.deepcopy(pristine)
            ex = WaveExecutor(blocks=blocks)
            simulate(case.code_object_bytes(), case.kernel, case.grid, case.block, args, executor=ex)
            check_outputs(case, pristine, args)
        return seen, ex.last.wave_instructions

    (fast, count), (asked, count_asked) = run(True), run(False)
    assert count == count_asked and fast == asked


def test_a_released_state_restarts_as_a_fresh_build():
    """A finished state handed back to its Template is restarted for the next launch: whatever
    the kernel left in its registers, LDS, flags and counters, it starts as a new build does."""
    from drivers.emu.amd.shader.launch import Template
    d = dispatch((0x1000, 0x2, 7))
    ids, extents, _ = workgroup_table(d)
    scratch = (d.scratch_base, 512, 16)
    t = Template(d, ids, extents, 32, scratch)
    st = t.instantiate(d.vm, d.user_sgprs, None)
    for name in FIELDS:
        if name != "wave_ids":                        # (never written)
            getattr(st, name)[...] = 1
    st.mode_uniform, st.split, st.wave_instructions, st.lane_ops = False, (1, 2, 3), 5, 6
    t.release(st)
    d2 = dispatch((0x3000, 0x4, 9))
    again = t.instantiate(d2.vm, d2.user_sgprs, None)
    assert again is st
    states_equal(build_state(d2, ids, extents, 32, scratch), again)
    assert (again.split, again.wave_instructions, again.lane_ops) == (None, 0, 0)
    assert t.instantiate(d2.vm, d2.user_sgprs, None) is not st        # one state is handed out once
