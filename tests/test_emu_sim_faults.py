"""Faults the way the hardware reports them: the first faulting active lane's VA, the PC of an
illegal instruction, the PC where an endless loop ran out of budget -- through
drivers.emu.amd.simulate and through a queue of the virtual GPU (KFD exception events)."""
import struct

import numpy as np
import pytest

from assembler.amdgpu import load_code_object
from drivers.amd.device import AMDDevice
from drivers.amd.kernargs import Pointer
from drivers.emu import LaunchError, make_kernel, simulate
from drivers.emu.faults import IllegalInstruction, MemoryFault, ShaderHang
from drivers.emu.amd.shader import WaveExecutor
from drivers.emu.amd.simulate import CODE_VA
from drivers.errors import GPUError, GPUFault
from tests.test_emu_sim_helpers import (EXEC, code_object, endpgm, flat, program, s_mov, smem, sop1,
                                        sopp, v, vop2)

BAD = 0xDEAD_0000_0000
PTR = [(8, "global_buffer", "uint*")]


def load_from_arg_lanes_4_up():
    """v1 = lane * 4; EXEC = lanes 4..31; global_load_b32 v2, v1, s[2:3] (s[2:3] = argument 0)."""
    return program(smem("s_load_b64", 2, 0), sopp("s_waitcnt", 0xFC07),
                   vop2("v_lshlrev_b32_e32", 1, 130, v(0)), s_mov(EXEC, 0xFFFFFFF0),
                   flat("global_load_b32", "GLOBAL", vdst=2, addr=1, saddr=2), endpgm())


def entry_va(co):
    k = next(iter(load_code_object(co).kernels.values()))
    return CODE_VA + k.entry_offset


def test_unmapped_read_faults_at_the_first_active_lane():
    co = code_object(load_from_arg_lanes_4_up(), args=PTR)
    with pytest.raises(MemoryFault) as e:
        simulate(co, "k", (1, 1, 1), (32, 1, 1), [BAD])
    assert e.value.va == BAD + 16 and e.value.reason == "NotPresent" and not e.value.write
    assert f"0x{BAD + 16:x}" in str(e.value)


def test_scalar_load_from_an_unmapped_address_faults_with_it():
    code = program(smem("s_load_b64", 2, 0), sopp("s_waitcnt", 0xFC07),
                   smem("s_load_b128", 4, 2, offset=0x40), endpgm())
    with pytest.raises(MemoryFault) as e:
        simulate(code_object(code, args=PTR), "k", (1, 1, 1), (32, 1, 1), [BAD])
    assert e.value.va == BAD + 0x40 and e.value.reason == "NotPresent"


def test_store_to_read_only_code_faults_with_its_va():
    code = program(sop1("s_getpc_b64", 4, 0), vop2("v_lshlrev_b32_e32", 1, 130, v(0)),
                   s_mov(EXEC, 0xFFFFFF00),
                   flat("global_store_b32", "GLOBAL", addr=1, data=0, saddr=4), endpgm())
    co = code_object(code)
    with pytest.raises(MemoryFault) as e:
        simulate(co, "k", (1, 1, 1), (32, 1, 1), [])
    assert e.value.va == entry_va(co) + 4 + 8 * 4 and e.value.reason == "ReadOnly" and e.value.write


def test_faulting_store_writes_nothing():
    out = np.zeros(64, np.uint32)
    # lanes 0..31 store to out[lane * 32]: lane 2 onwards is past the 256-byte buffer (a guard page)
    code = program(smem("s_load_b64", 2, 0), sopp("s_waitcnt", 0xFC07),
                   vop2("v_lshlrev_b32_e32", 1, 128 + 7, v(0)), vop2("v_lshlrev_b32_e32", 1, 133, v(1)),
                   flat("global_store_b32", "GLOBAL", addr=1, data=0, saddr=2), endpgm())
    with pytest.raises(MemoryFault):
        simulate(code_object(code, args=PTR), "k", (1, 1, 1), (32, 1, 1), [out], batch_waves=1)
    assert not out.any()


@pytest.mark.parametrize("word,text", [(0xFFFFFFFF, "0xffffffff"), (0xCD000000, "VINTERP")])
def test_illegal_instruction_names_its_pc(word, text):
    co = code_object(program(s_mov(4, 1), struct.pack("<I", word), endpgm()))
    with pytest.raises(IllegalInstruction) as e:
        simulate(co, "k", (2, 1, 1), (32, 1, 1), [])
    assert e.value.pc == entry_va(co) + 8
    assert f"PC 0x{entry_va(co) + 8:x}" in str(e.value) and text in str(e.value)


@pytest.mark.parametrize("text", [
    "image_load v[0:3], v[4:5], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D",
    "image_sample  v0, [v4, v8], s[8:15], s[12:15] dmask:0x1 dim:SQ_RSRC_IMG_2D",
    "image_bvh_intersect_ray v[0:3], v[4:14], s[8:11]",
])
def test_image_instructions_are_refused_by_name_at_their_pc(text):
    """The simulator has no texture unit: an image instruction stops the dispatch with an
    illegal-instruction error that names it and its PC (the assembler and decoder know it)."""
    from assembler.rdna3 import assemble
    co = code_object(program(s_mov(4, 1), assemble(text), endpgm()))
    with pytest.raises(IllegalInstruction) as e:
        simulate(co, "k", (1, 1, 1), (32, 1, 1), [])
    pc = entry_va(co) + 8
    assert e.value.pc == pc
    assert str(e.value) == (f"illegal instruction at PC 0x{pc:x}: {text}: image instructions (MIMG) "
                            "are not supported: the virtual GPU has no texture unit")


def test_endless_loop_is_a_shader_hang_at_its_pc():
    co = code_object(program(s_mov(4, 1), sopp("s_branch", -1), endpgm()))
    with pytest.raises(ShaderHang) as e:
        simulate(co, "k", (4, 1, 1), (64, 1, 1), [], budget=10_000)
    assert e.value.pc == entry_va(co) + 8 and 9_000 <= e.value.executed <= 10_000
    assert f"PC 0x{entry_va(co) + 8:x}" in str(e.value)


def test_budget_from_the_environment(monkeypatch):
    monkeypatch.setenv("GPU_EMULATE_BUDGET", "500")
    co = code_object(program(sopp("s_branch", -1), endpgm()))
    with pytest.raises(ShaderHang):
        simulate(co, "k", (1, 1, 1), (32, 1, 1), [])
    monkeypatch.setenv("GPU_EMULATE_BUDGET", "lots")
    with pytest.raises(ValueError, match="GPU_EMULATE_BUDGET"):
        simulate(co, "k", (1, 1, 1), (32, 1, 1), [])


def test_an_executor_reads_the_budget_at_its_first_dispatch(monkeypatch):
    """simulate() without an executor reads GPU_EMULATE_BUDGET at each call (above); an executor
    given reads it once, at its first dispatch."""
    co = code_object(program(sopp("s_branch", -1), endpgm()))
    ex = WaveExecutor()
    monkeypatch.setenv("GPU_EMULATE_BUDGET", "500")
    for text in ("500", "lots"):
        monkeypatch.setenv("GPU_EMULATE_BUDGET", text)
        with pytest.raises(ShaderHang) as e:
            simulate(co, "k", (1, 1, 1), (32, 1, 1), [], executor=ex)
        assert e.value.executed == 500


def test_wave64_kernel_is_rejected_clearly():
    co = code_object(program(endpgm()), props=0x008)           # no ENABLE_WAVEFRONT_SIZE32
    with pytest.raises(GPUError, match="wave64"):
        simulate(co, "k", (1, 1, 1), (64, 1, 1), [])


def test_launch_errors_name_the_problem():
    co = code_object(load_from_arg_lanes_4_up(), args=PTR)
    with pytest.raises(LaunchError, match="takes 1 arguments, 2 given"):
        simulate(co, "k", (1, 1, 1), (32, 1, 1), [1, 2])
    with pytest.raises(LaunchError, match="no kernel 'nope'"):
        simulate(co, "nope", (1, 1, 1), (32, 1, 1), [1])
    with pytest.raises(LaunchError, match="grid"):
        simulate(co, "k", (0, 1, 1), (32, 1, 1), [1])


def test_vgpr_beyond_the_allocation_is_illegal():
    co = code_object(program(vop2("v_add_nc_u32_e32", 40, v(0), 0), endpgm()), vgprs=16)
    with pytest.raises(IllegalInstruction, match="v40 lies beyond the 16 VGPRs"):
        simulate(co, "k", (1, 1, 1), (32, 1, 1), [])


# -- through the virtual GPU's queues ---------------------------------------------------------
@pytest.mark.parametrize("aql", [False, True], ids=["pm4", "aql"])
def test_queue_memory_fault_carries_the_va(aql):
    kernel = make_kernel("gfx1100")
    kernel.gpu.executor = WaveExecutor()
    co = code_object(load_from_arg_lanes_4_up(), args=PTR)
    with AMDDevice(kernel=kernel, aql=aql) as dev:
        k = dev.load(co)["k"]
        with pytest.raises(GPUFault) as e:
            k(Pointer(BAD), grid=(1, 1, 1), block=(32, 1, 1), wait=True)
        assert e.value.va == (BAD + 16) & ~0xFFF        # amdkfd reports the faulting page
        assert f"0x{BAD + 16:x}" in kernel.gpu.last_error  # the CP's message names the lane's VA
        out = dev.alloc(4096)                        # the queue recovers: the next launch runs
        k(out, grid=(1, 1, 1), block=(32, 1, 1), wait=True)


def test_queue_shader_hang_names_the_pc():
    kernel = make_kernel("gfx1100")
    kernel.gpu.executor = WaveExecutor(budget=2000)
    co = code_object(program(s_mov(4, 1), sopp("s_branch", -1), endpgm()))
    with AMDDevice(kernel=kernel) as dev:
        k = dev.load(co)["k"]
        with pytest.raises(GPUError):
            k(grid=(1, 1, 1), block=(32, 1, 1), wait=True)
    assert "shader hang: still running at PC 0x" in kernel.gpu.last_error


def test_queue_illegal_instruction_is_a_hardware_exception():
    kernel = make_kernel("gfx1100")
    kernel.gpu.executor = WaveExecutor()
    co = code_object(program(s_mov(4, 1), struct.pack("<I", 0xFFFFFFFF), endpgm()))
    with AMDDevice(kernel=kernel) as dev:
        k = dev.load(co)["k"]
        with pytest.raises(GPUError):
            k(grid=(1, 1, 1), block=(32, 1, 1), wait=True)
    assert "illegal instruction at PC 0x" in kernel.gpu.last_error and "0xffffffff" in kernel.gpu.last_error


def test_decoded_programs_are_reused_only_for_the_same_bytes():
    def store(value):
        """out[lane] = value + lane"""
        return code_object(program(smem("s_load_b64", 2, 0), sopp("s_waitcnt", 0xFC07),
                                   vop2("v_lshlrev_b32_e32", 1, 130, v(0)), s_mov(4, value),
                                   vop2("v_add_nc_u32_e32", 2, 4, v(0)),
                                   flat("global_store_b32", "GLOBAL", addr=1, data=2, saddr=2), endpgm()),
                           args=PTR)
    ex = WaveExecutor()
    out = np.zeros(32, np.uint32)
    simulate(store(100), "k", (1, 1, 1), (32, 1, 1), [out], executor=ex)
    assert out.tolist() == list(range(100, 132))
    first = ex.programs[next(iter(ex.programs))]
    simulate(store(100), "k", (1, 1, 1), (32, 1, 1), [out], executor=ex)
    assert list(ex.programs.values()) == [first]      # same bytes at the same VA: decoded once
    simulate(store(200), "k", (1, 1, 1), (32, 1, 1), [out], executor=ex)
    assert out.tolist() == list(range(200, 232))      # new bytes at the same VA: decoded again
    assert list(ex.programs.values()) != [first]


def test_read_only_arrays_are_inputs_only():
    code = program(smem("s_load_b64", 2, 0), sopp("s_waitcnt", 0xFC07), vop2("v_lshlrev_b32_e32", 1, 130, v(0)),
                   flat("global_store_b32", "GLOBAL", addr=1, data=0, saddr=2), endpgm())
    co = code_object(code, args=PTR)
    frozen = np.zeros(32, np.uint32)
    frozen.flags.writeable = False
    with pytest.raises(LaunchError, match="read-only array"):
        simulate(co, "k", (1, 1, 1), (32, 1, 1), [frozen])
    loads = code_object(load_from_arg_lanes_4_up(), args=PTR)
    simulate(loads, "k", (1, 1, 1), (32, 1, 1), [frozen])          # reading one is fine



def test_dense_load_running_past_its_buffer_faults_at_the_first_lane_past_it():
    """Every lane active and dword-aligned, the first lane's address in the buffer: the range
    check (one OR reduction, then the maximum) must still see lane 16 past the buffer's page, at
    its guard page, instead of clipping the index into the mapping."""
    src = np.arange(64, dtype=np.uint32)
    code = program(smem("s_load_b64", 2, 0), sopp("s_waitcnt", 0xFC07),
                   vop2("v_lshlrev_b32_e32", 1, 128 + 8, v(0)),                # lane * 256
                   flat("global_load_b32", "GLOBAL", vdst=2, addr=1, saddr=2), endpgm())
    with pytest.raises(MemoryFault) as e:
        simulate(code_object(code, args=PTR), "k", (1, 1, 1), (32, 1, 1), [src])
    assert e.value.va % 4096 == 0 and e.value.reason == "NotPresent" and not e.value.write
    assert f"0x{e.value.va:x}" in str(e.value)
