"""The RDNA3 code generator's passes on small hand-written machine code: wait counts, hazards,
register allocation, VOPD pairing, access merging and the launch-shape heuristic."""
import re

import pytest

from tensor.codegen.rdna3.launch import LaunchError, plan
from tensor.codegen.rdna3.mir import MI, Code
from tensor.codegen.rdna3.regalloc import allocate
from tensor.codegen.rdna3.vopd import pair
from tensor.codegen.rdna3.waitcnt import fix_hazards, insert_waits


def phys(code, cls, n, size=1):
    r = code.reg(cls, size)
    r.phys = n
    return r


def texts(mis):
    return [mi.text() for mi in mis]


def test_waits_follow_the_loads_in_flight():
    c = Code()
    base, off = phys(c, "s", 2, 2), phys(c, "v", 0)
    a, b, d = phys(c, "v", 1), phys(c, "v", 2), phys(c, "v", 3)
    loads = [MI("global_load_b32", [a, off, base], 1), MI("global_load_b32", [b, off, base], 1)]
    # the second use is within the look-ahead window: one wait covers both
    near = loads + [MI("v_add_f32", [d, a, a], 1), MI("v_add_f32", [d, b, d], 1)]
    assert texts(insert_waits(near, [])) == [
        "global_load_b32 v1, v0, s[2:3]", "global_load_b32 v2, v0, s[2:3]",
        "s_waitcnt vmcnt(0)", "v_add_f32 v3, v1, v1", "v_add_f32 v3, v2, v3"]
    # far apart: the first use waits only for the older load, the younger keeps flying
    far = loads + [MI("v_add_f32", [d, a, a], 1)] + [MI("v_mul_f32", [d, d, d], 1)] * 10 + \
        [MI("v_add_f32", [d, b, d], 1)]
    out = texts(insert_waits(far, []))
    assert out[2] == "s_waitcnt vmcnt(1)" and out[-2] == "s_waitcnt vmcnt(0)"


def test_a_scalar_load_in_flight_means_lgkmcnt_zero_and_barriers_wait_for_lds():
    c = Code()
    s0, s4 = phys(c, "s", 0, 2), phys(c, "s", 4)
    v1, v2 = phys(c, "v", 1), phys(c, "v", 2)
    code = [MI("ds_store_b32", [v1, v2], 0), MI("s_load_b32", [s4, s0, "0"], 1),
            MI("v_mov_b32", [v1, s4], 1), MI("s_barrier", [], 0)]
    out = texts(insert_waits(code, []))
    assert out[2] == "s_waitcnt lgkmcnt(0)"                  # SMEM returns out of order
    assert out[-1] == "s_barrier"                            # the wait above already covers the store
    store_then_barrier = [MI("ds_store_b32", [v1, v2], 0), MI("s_barrier", [], 0)]
    assert texts(insert_waits(store_then_barrier, [])) == ["ds_store_b32 v1, v2", "s_waitcnt lgkmcnt(0)",
                                                           "s_barrier"]


def test_transcendental_results_wait_or_are_far_enough():
    c = Code()
    v = [phys(c, "v", k) for k in range(8)]
    near = [MI("v_exp_f32", [v[1], v[0]], 1), MI("v_mul_f32", [v[2], v[1], v[1]], 1)]
    assert texts(fix_hazards(near, []))[1] == "s_waitcnt_depctr 0xfff"
    far = [MI("v_exp_f32", [v[1], v[0]], 1)] + [MI("v_mov_b32", [v[3 + k % 4], "0"], 1) for k in range(6)] + \
        [MI("v_mul_f32", [v[2], v[1], v[1]], 1)]
    assert "s_waitcnt_depctr 0xfff" not in texts(fix_hazards(far, []))
    two_trans = [MI("v_exp_f32", [v[1], v[0]], 1), MI("v_log_f32", [v[3], v[0]], 1),
                 MI("v_sqrt_f32", [v[4], v[0]], 1), MI("v_mul_f32", [v[2], v[1], v[1]], 1)]
    assert "s_waitcnt_depctr 0xfff" not in texts(fix_hazards(two_trans, []))


def test_wmma_reading_the_previous_wmma_result_gets_a_nop():
    c = Code()
    d, a, b = phys(c, "v", 0, 8), phys(c, "v", 8, 8), phys(c, "v", 16, 8)
    code = [MI("v_wmma_f32_16x16x16_f16", [d, a, b, d], 1), MI("v_wmma_f32_16x16x16_f16", [a, d, b, a], 1)]
    assert texts(fix_hazards(code, []))[1] == "v_nop"
    chained = [MI("v_wmma_f32_16x16x16_f16", [d, a, b, d], 1), MI("v_wmma_f32_16x16x16_f16", [d, a, b, d], 1)]
    assert "v_nop" not in texts(fix_hazards(chained, []))       # the accumulator may chain


def test_permlane_after_cmpx_is_separated():
    c = Code()
    v0, v1 = phys(c, "v", 0), phys(c, "v", 1)
    s0 = phys(c, "s", 5)
    code = [MI("v_cmpx_gt_u32", ["16", v0], 0, imp_def=("exec_lo",)),
            MI("v_permlanex16_b32", [v1, v0, s0, "0xfedcba98"], 1)]
    out = texts(fix_hazards(code, []))
    assert out[1] == "v_mov_b32 v0, v0" and out[2].startswith("v_permlanex16_b32")


def test_allocation_takes_the_lowest_free_registers_and_keeps_loop_values_alive():
    c = Code()
    x, y, acc = c.reg("v"), c.reg("v"), c.reg("v")
    loop = c.open_loop()
    head, latch = MI("label", ["L1"], 0), MI("s_cbranch_scc0", ["L1"], 0)
    loop.head, loop.latch = head, latch
    code = [MI("v_mov_b32", [acc, "0"], 1), MI("v_mov_b32", [x, "1.0"], 1), head,
            MI("v_mov_b32", [y, "2.0"], 1), MI("v_fmac_f32", [acc, x, y], 1), latch,
            MI("v_mov_b32", [y, acc], 1)]
    vgprs, sgprs, scratch = allocate(code, [loop], c.reg)
    assert (acc.phys, x.phys) == (0, 1)               # first fit
    assert y.phys not in (acc.phys, x.phys)           # x and acc live across the whole loop
    assert vgprs == 3 and scratch == 0


def test_vopd_pairs_independent_neighbours_and_respects_banks():
    c = Code()
    v = [phys(c, "v", k) for k in range(12)]
    code = [MI("v_add_f32", [v[0], v[4], v[5]], 1), MI("v_mul_f32", [v[1], v[6], v[7]], 1),
            MI("v_add_f32", [v[2], v[0], v[7]], 1)]           # reads the first result: stays single
    out = texts(pair(code))
    assert out[0] == "v_dual_add_f32 v0, v4, v5 :: v_dual_mul_f32 v1, v6, v7"
    assert out[1] == "v_add_f32 v2, v0, v7"
    clash = [MI("v_add_f32", [v[0], v[4], v[5]], 1), MI("v_mul_f32", [v[1], v[8], v[9]], 1)]  # v4/v8 bank 0
    assert len(pair(clash)) == 2


@pytest.mark.parametrize("sizes,block", [((1000,), (256, 1, 1)), ((3, 4), (4, 3, 1)), ((5, 300), (160, 1, 1)),
                                         ((4096, 256), (256, 1, 1))])
def test_launch_shape_heuristic(sizes, block):
    assert plan(sizes, (), False).block == block


def test_launch_errors_name_the_problem():
    with pytest.raises(LaunchError, match="4 global / 0 local dimensions"):
        plan((2, 2, 2, 2), (), False)
    with pytest.raises(LaunchError, match="2048 work-items; a workgroup holds at most 1024"):
        plan((4,), (2048,), True)


# ---- the independent wait check (on the final text) ------------------------------------------

def test_wait_check_accepts_what_the_counters_prove():
    from tensor.codegen.rdna3.waitcheck import check
    check("ok", "global_load_b32 v1, v0, s[2:3]\nglobal_load_b32 v2, v0, s[2:3]\n"
                "s_waitcnt vmcnt(1)\nv_add_f32 v3, v1, v1\ns_waitcnt vmcnt(0)\nv_add_f32 v3, v2, v3\n"
                "s_endpgm\n")
    # a second load of the same in-order counter may overwrite the first one's register
    check("waw", "global_load_b32 v1, v0, s[2:3]\nglobal_load_d16_hi_b16 v1, v0, s[2:3] offset:2\n"
                 "s_waitcnt vmcnt(0)\nv_mov_b32 v3, v1\ns_endpgm\n")


@pytest.mark.parametrize("text,why", [
    ("global_load_b32 v1, v0, s[2:3]\nv_add_f32 v3, v1, v1\ns_endpgm", "v1 is still being written by a vector"),
    ("global_load_b64 v[4:5], v0, s[2:3]\nglobal_load_b32 v1, v0, s[2:3]\ns_waitcnt vmcnt(1)\n"
     "v_add_f32 v3, v1, v5\ns_endpgm", "v1 is still"),                       # the younger load
    ("s_load_b64 s[4:5], s[0:1], 0\nds_load_b32 v1, v0\ns_waitcnt lgkmcnt(1)\ns_add_u32 s6, s4, 1\n"
     "s_endpgm", "s4 is still being written by a scalar load"),               # SMEM: out of order
    ("global_load_b32 v1, v0, s[2:3]\nv_mov_b32 v1, 0\ns_endpgm", "v1 is still"),   # overwritten by ALU
    ("ds_store_b32 v1, v2\ns_barrier\ns_endpgm", "s_barrier while LDS operations are in flight"),
    ("scratch_store_b128 off, v[2:5], off offset:16\nscratch_load_b32 v6, off, off offset:20\n"
     "s_waitcnt vmcnt(0)\ns_endpgm", "reloads scratch bytes 20..24"),
    # the back edge brings the loop's own load around to the top of the loop
    ("s_mov_b32 s4, 0\nL1:\nv_add_f32 v3, v1, v3\nglobal_load_b32 v1, v0, s[2:3]\ns_add_u32 s4, s4, 1\n"
     "s_cmp_lg_u32 s4, 8\ns_cbranch_scc1 L1\ns_waitcnt vmcnt(0)\ns_endpgm", "line 3 'v_add_f32 v3, v1, v3'"),
], ids=["raw", "in-order", "smem", "waw-alu", "barrier", "scratch", "loop"])
def test_wait_check_finds_what_is_missing(text, why):
    from tensor.codegen.rdna3.waitcheck import WaitError, check
    with pytest.raises(WaitError, match=re.escape(why)):
        check("k", text + "\n")


def test_wait_check_finds_a_wait_removed_from_generated_code():
    """Every generated kernel passes the check (RDNA3_VERIFY); dropping any one of a real
    kernel's s_waitcnt makes it fail."""
    from tensor.codegen.rdna3 import compile_kernel
    from tensor.codegen.rdna3.waitcheck import WaitError, check
    import numpy as np
    from tensor import Tensor
    from tensor.lower import lower
    from tensor.schedule import create_schedule
    rng = np.random.default_rng(0)
    a = Tensor(rng.random((64, 8), np.float32), device="CPU").realize()
    b = Tensor(rng.random((8, 64), np.float32), device="CPU").realize()
    out = (a @ b).exp()                                   # a loop of loads, then a transcendental
    (item,) = [i for i in create_schedule([out.node]) if i.kind == "kernel"]
    text = compile_kernel(lower(item.ast, item.bufs, [], 3)).text
    check("matmul_exp", text)
    lines = text.splitlines()
    waits = [i for i, ln in enumerate(lines) if ln.startswith("s_waitcnt ")]
    assert waits
    for i in waits:
        with pytest.raises(WaitError):
            check("matmul_exp", "\n".join(lines[:i] + lines[i + 1:]))
