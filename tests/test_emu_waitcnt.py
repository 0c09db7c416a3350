"""The virtual gfx1100 counts each wave's memory operations in flight: a kernel that reads (or
overwrites) a load's destination before the s_waitcnt that retires it stops with MissingWait at
that instruction, naming the register and the load's PC, on both execution paths; the same kernel
with the wait runs and matches numpy.  Partial waits retire exactly what the counters guarantee:
vector memory loads and LDS operations in order, scalar loads only at lgkmcnt(0)."""
import re

import numpy as np
import pytest

from assembler.rdna3 import assemble
from drivers.emu import simulate
from drivers.emu.faults import MissingWait, WaveFault
from drivers.emu.amd.shader import WaveExecutor
from tests.test_emu_sim_helpers import code_object

PATHS = pytest.mark.parametrize("blocks", [True, False], ids=["blocks", "steps"])
ARGS = [(8, "global_buffer", "uint*"), (8, "global_buffer", "uint*")]
X = np.arange(128, dtype=np.uint32) * 7 + 3

# x in s[4:5], y in s[6:7], v1 = lane * 4
PROLOGUE = """
s_load_b128 s[4:7], s[0:1], 0x0
v_lshlrev_b32 v1, 2, v0
s_waitcnt lgkmcnt(0)
"""


def run(body, blocks, lds=0):
    """y after running ``body`` (after PROLOGUE) on one wave of 32 lanes with x = X."""
    co = code_object(assemble(PROLOGUE + body), args=ARGS, lds=lds)
    y = np.zeros(32, np.uint32)
    simulate(co, "k", (1, 1, 1), (32, 1, 1), [X.copy(), y], executor=WaveExecutor(blocks=blocks))
    return y


def offset(body, marker):
    """Byte offset from the kernel's start of the first instruction of ``body`` at ``marker``."""
    head = body[:body.index(marker)]
    return len(assemble(PROLOGUE + head))


def missing(body, blocks, at, load, reg, wait, lds=0):
    """Run ``body``; assert it stops with MissingWait at the instruction starting ``at``, naming
    ``reg``, the load starting ``load`` and the wait it lacks."""
    with pytest.raises(MissingWait) as e:
        run(body, blocks, lds)
    err = e.value
    entry = err.pc - offset(body, at)
    load_pc = entry + offset(body, load)
    assert isinstance(err, WaveFault) and str(err).startswith(f"missing s_waitcnt at PC 0x{err.pc:x}: ")
    assert err.text.startswith(at.split("\n")[0].split()[0]), err.text
    assert f"{reg} before the" in err.text and f"at PC 0x{load_pc:x}" in err.text, err.text
    assert f"missing {wait}" in err.text, err.text
    return err


# -- VM_CNT: vector memory loads return in order ----------------------------------------------
TWO_LOADS = """
global_load_b32 v2, v1, s[4:5]
global_load_b32 v3, v1, s[4:5] offset:128
{wait_a}
v_mul_lo_u32 v2, v2, 3
{wait_b}
v_add_nc_u32 v2, v2, v3
global_store_b32 v1, v2, s[6:7]
s_endpgm
"""
EXPECTED = X[:32] * 3 + X[32:64]


@PATHS
def test_with_its_waits_the_kernel_runs_and_matches_numpy(blocks):
    y = run(TWO_LOADS.format(wait_a="s_waitcnt vmcnt(1)", wait_b="s_waitcnt vmcnt(0)"), blocks)
    assert y.tolist() == EXPECTED.tolist()


@PATHS
def test_vmcnt_1_retires_the_older_load_only(blocks):
    # vmcnt(1) with two loads in flight: v2 (older) may be used, v3 (younger) may not
    body = TWO_LOADS.format(wait_a="s_waitcnt vmcnt(1)", wait_b="")
    missing(body, blocks, "v_add_nc_u32 v2, v2, v3", "global_load_b32 v3", "reads v3", "s_waitcnt vmcnt(0)")


@PATHS
@pytest.mark.parametrize("wait_a", ["", "s_waitcnt vmcnt(2)", "s_waitcnt lgkmcnt(0)", "s_waitcnt_vscnt null, 0x0",
                                    "s_waitcnt_depctr 0xfffe"])
def test_a_use_without_a_vmcnt_that_covers_the_load_stops_there(blocks, wait_a):
    body = TWO_LOADS.format(wait_a=wait_a, wait_b="s_waitcnt vmcnt(0)")
    missing(body, blocks, "v_mul_lo_u32", "global_load_b32 v2", "reads v2", "s_waitcnt vmcnt(1)")


@PATHS
def test_the_separate_counter_instructions_retire_like_s_waitcnt(blocks):
    body = TWO_LOADS.format(wait_a="s_waitcnt_vmcnt null, 0x1", wait_b="s_waitcnt_vmcnt null, 0x0")
    assert run(body, blocks).tolist() == EXPECTED.tolist()


@PATHS
def test_overwriting_a_register_a_load_still_writes_is_a_hazard(blocks):
    body = TWO_LOADS.format(wait_a="v_mov_b32 v3, 0", wait_b="s_waitcnt vmcnt(0)")
    missing(body, blocks, "v_mov_b32 v3, 0", "global_load_b32 v3", "overwrites v3", "s_waitcnt vmcnt(0)")


@PATHS
def test_a_later_load_may_overwrite_an_earlier_loads_register(blocks):
    # loads return in order: the second lands last, so v2 ends with x[lane + 32]
    body = """
global_load_b32 v2, v1, s[4:5]
global_load_b32 v2, v1, s[4:5] offset:128
s_waitcnt vmcnt(0)
global_store_b32 v1, v2, s[6:7]
s_endpgm
"""
    assert run(body, blocks).tolist() == X[32:64].tolist()


@PATHS
def test_a_load_address_still_being_loaded_is_a_hazard(blocks):
    body = """
global_load_b32 v2, v1, s[4:5]
global_load_b32 v3, v2, s[4:5]
s_waitcnt vmcnt(0)
s_endpgm
"""
    missing(body, blocks, "global_load_b32 v3", "global_load_b32 v2", "reads v2", "s_waitcnt vmcnt(0)")


@PATHS
def test_an_atomic_with_return_counts_as_a_load_and_one_without_as_a_store(blocks):
    body = """
v_mov_b32 v3, 5
global_atomic_add_u32 v2, v1, v3, s[4:5] glc
global_atomic_add_u32 v1, v3, s[4:5]
v_add_nc_u32 v2, v2, 1
s_endpgm
"""
    missing(body, blocks, "v_add_nc_u32 v2, v2, 1", "global_atomic_add_u32 v2", "reads v2", "s_waitcnt vmcnt(0)")
    ok = body.replace("v_add_nc_u32 v2, v2, 1", "s_waitcnt vmcnt(0)\nv_add_nc_u32 v2, v2, 1\n"
                      "global_store_b32 v1, v2, s[6:7]")
    assert run(ok, blocks).tolist() == (X[:32] + 1).tolist()


# -- VS_CNT: stores read their registers at issue ---------------------------------------------
@PATHS
def test_stores_need_no_wait_to_reuse_their_data_and_may_be_in_flight_at_s_endpgm(blocks):
    body = """
v_mov_b32 v2, 11
global_store_b32 v1, v2, s[6:7]
v_mov_b32 v2, 22
global_store_b32 v1, v2, s[6:7] offset:64
v_mov_b32 v2, 33
s_endpgm
"""
    y = run(body, blocks)
    assert y[:16].tolist() == [11] * 16 and y[16:].tolist() == [22] * 16


# -- LGKM_CNT: scalar loads in any order, LDS in order ----------------------------------------
@PATHS
def test_scalar_loads_return_in_any_order_so_only_lgkmcnt_0_retires_them(blocks):
    body = """
s_load_b32 s8, s[0:1], 0x0
s_load_b32 s9, s[0:1], 0x4
s_waitcnt lgkmcnt(1)
v_mov_b32 v2, s8
s_endpgm
"""
    missing(body, blocks, "v_mov_b32 v2, s8", "s_load_b32 s8", "reads s8", "s_waitcnt lgkmcnt(0)")


@PATHS
def test_two_scalar_loads_into_one_register_need_a_wait_between_them(blocks):
    body = """
s_load_b32 s8, s[0:1], 0x0
s_load_b32 s8, s[0:1], 0x4
s_waitcnt lgkmcnt(0)
s_endpgm
"""
    missing(body, blocks, "s_load_b32 s8, s[0:1], 0x4", "s_load_b32 s8", "overwrites s8", "s_waitcnt lgkmcnt(0)")


LDS_BODY = """
v_add_nc_u32 v4, 7, v0
ds_store_b32 v1, v4
ds_store_b32 v1, v0 offset:128
ds_load_b32 v2, v1
ds_load_b32 v3, v1 offset:128
{wait_a}
v_mul_lo_u32 v2, v2, 3
{wait_b}
v_add_nc_u32 v2, v2, v3
global_store_b32 v1, v2, s[6:7]
s_endpgm
"""
LDS_EXPECTED = (np.arange(32) + 7) * 3 + np.arange(32)


@PATHS
def test_lds_operations_complete_in_order(blocks):
    body = LDS_BODY.format(wait_a="s_waitcnt lgkmcnt(1)", wait_b="s_waitcnt lgkmcnt(0)")
    assert run(body, blocks, lds=256).tolist() == LDS_EXPECTED.tolist()
    body = LDS_BODY.format(wait_a="s_waitcnt lgkmcnt(1)", wait_b="")
    missing(body, blocks, "v_add_nc_u32 v2, v2, v3", "ds_load_b32 v3", "reads v3", "s_waitcnt lgkmcnt(0)", lds=256)
    body = LDS_BODY.format(wait_a="s_waitcnt lgkmcnt(2)", wait_b="s_waitcnt lgkmcnt(0)")
    missing(body, blocks, "v_mul_lo_u32", "ds_load_b32 v2", "reads v2", "s_waitcnt lgkmcnt(1)", lds=256)
    body = LDS_BODY.format(wait_a="s_waitcnt_lgkmcnt null, 0x1", wait_b="s_waitcnt_lgkmcnt null, 0x0")
    assert run(body, blocks, lds=256).tolist() == LDS_EXPECTED.tolist()


@PATHS
def test_a_scalar_load_in_flight_keeps_lgkmcnt_from_vouching_for_an_lds_load(blocks):
    # ds_load then s_load: after lgkmcnt(1) either one may still be in flight
    body = """
ds_store_b32 v1, v0
ds_load_b32 v2, v1
s_load_b32 s8, s[0:1], 0x0
s_waitcnt lgkmcnt(1)
v_add_nc_u32 v2, v2, 1
s_waitcnt lgkmcnt(0)
s_endpgm
"""
    missing(body, blocks, "v_add_nc_u32 v2, v2, 1", "ds_load_b32 v2", "reads v2", "s_waitcnt lgkmcnt(0)", lds=256)


# -- FLAT: counted on both counters -----------------------------------------------------------
FLAT_BODY = """
v_mov_b32 v6, s4
v_mov_b32 v7, s5
v_add_co_u32 v6, vcc_lo, v6, v1
v_add_co_ci_u32_e32 v7, vcc_lo, 0, v7, vcc_lo
flat_load_b32 v2, v[6:7]
{wait}
v_add_nc_u32 v2, v2, 1
global_store_b32 v1, v2, s[6:7]
s_endpgm
"""


@PATHS
@pytest.mark.parametrize("wait", ["s_waitcnt vmcnt(0)", "s_waitcnt lgkmcnt(0)", "s_waitcnt vmcnt(0) lgkmcnt(0)"])
def test_a_flat_load_is_retired_by_either_counter(blocks, wait):
    assert run(FLAT_BODY.format(wait=wait), blocks).tolist() == (X[:32] + 1).tolist()


@PATHS
def test_a_flat_load_not_waited_for(blocks):
    missing(FLAT_BODY.format(wait="s_waitcnt lgkmcnt(1)"), blocks, "v_add_nc_u32 v2, v2, 1", "flat_load_b32",
            "reads v2", "s_waitcnt vmcnt(0) or lgkmcnt(0)")


# -- waves of one group with different operations in flight -----------------------------------
DIVERGENT = """
v_cmp_gt_u32_e32 vcc_lo, 32, v0
s_and_saveexec_b32 s8, vcc_lo
s_cbranch_execz .Lskip
global_load_b32 v2, v1, s[4:5]
.Lskip:
s_or_b32 exec_lo, exec_lo, s8
{wait}
v_add_nc_u32 v2, v2, 1
global_store_b32 v1, v2, s[6:7]
s_endpgm
"""


def run_two_waves(body, blocks):
    co = code_object(assemble(PROLOGUE + body), args=ARGS)
    y = np.zeros(64, np.uint32)
    simulate(co, "k", (1, 1, 1), (64, 1, 1), [X.copy(), y], executor=WaveExecutor(blocks=blocks))
    return y


@PATHS
def test_waves_that_took_different_paths_keep_their_own_operations_in_flight(blocks):
    # the first wave loads, the second skips the load: both meet at the join with different
    # operations in flight; only the first one needs the wait
    y = run_two_waves(DIVERGENT.format(wait="s_waitcnt vmcnt(0)"), blocks)
    assert y[:32].tolist() == (X[:32] + 1).tolist() and y[32:].tolist() == [1] * 32
    with pytest.raises(MissingWait, match=r"v_add_nc_u32_e64 v2, v2, 1: reads v2 before the vector memory load"):
        run_two_waves(DIVERGENT.format(wait=""), blocks)


# -- the error reaches the device's user ------------------------------------------------------
def test_a_missing_wait_reaches_the_device_user_as_a_wave_exception():
    from drivers.amd.device import AMDDevice
    from drivers.errors import WaveException
    from tests.asm_kernel import code_object as kernel_object
    body = "v_mov_b32 v1, 0\nglobal_load_b32 v2, v1, s[0:1]\nv_add_nc_u32 v3, v2, 1\ns_endpgm"
    dev = AMDDevice(emulate="gfx1100")
    try:
        k = dev.load(kernel_object(body))["k"]
        with pytest.raises(WaveException) as e:
            k(grid=1, block=32, wait=True, timeout=5)
        load_pc = k.code_va + len(assemble("v_mov_b32 v1, 0"))
        use_pc = load_pc + len(assemble("global_load_b32 v2, v1, s[0:1]"))
        assert e.value.pc == use_pc
        assert re.search(rf"reads v2 before the vector memory load '.*' at PC 0x{load_pc:x} has written it",
                         e.value.reason), e.value.reason
        fixed = body.replace("v_add", "s_waitcnt vmcnt(0)\nv_add")
        dev.load(kernel_object(fixed))["k"](grid=1, block=32, wait=True, timeout=5)
    finally:
        dev.close()
