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
