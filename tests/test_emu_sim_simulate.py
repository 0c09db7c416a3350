"""drivers.emu.amd.simulate with code objects built by this project's assembler from source text,
including kernels whose metadata describes no arguments (an opaque kernarg segment)."""
import numpy as np
import pytest

from assembler.amdgpu import build_code_object
from assembler.rdna3 import assemble_program
from drivers.emu import LaunchError, simulate

SCALE = """
.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
.text
.globl scale
.p2align 8
.type scale,@function
scale:
  s_load_b64 s[4:5], s[0:1], 0x0          ; x
  s_load_b32 s6, s[0:1], 0x8              ; factor
  s_lshl_b32 s7, s2, 6                    ; workgroup id * 64
  v_add_nc_u32_e32 v0, s7, v0
  v_lshlrev_b32_e32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  global_load_b32 v2, v1, s[4:5]
  s_waitcnt vmcnt(0)
  v_mul_lo_u32 v2, v2, s6
  global_store_b32 v1, v2, s[4:5]
  s_endpgm
.rodata
.p2align 6
.amdhsa_kernel scale
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_system_sgpr_workgroup_id_x 1
  .amdhsa_kernarg_size 16
  .amdhsa_wavefront_size32 1
.end_amdhsa_kernel
"""


@pytest.fixture(scope="module")
def scale():
    return build_code_object(assemble_program(SCALE), SCALE)


def test_opaque_kernarg_packs_arrays_and_numpy_scalars_in_order(scale):
    x = np.arange(256, dtype=np.uint32)
    stats = simulate(scale, "scale", 4, 64, [x, np.uint32(3)])
    assert x.tolist() == [3 * i for i in range(256)]
    assert stats.workgroups == 4 and stats.waves == 8


def test_opaque_kernarg_refuses_ambiguous_python_numbers(scale):
    with pytest.raises(LaunchError, match="numpy scalar"):
        simulate(scale, "scale", 1, 64, [np.zeros(64, np.uint32), 3])
    with pytest.raises(LaunchError, match="do not fit its 16-byte kernarg segment"):
        simulate(scale, "scale", 1, 64, [np.zeros(64, np.uint32), np.uint64(1), np.uint64(2)])


@pytest.mark.parametrize("grid,block", [(2, 64), ((2,), (64,)), ((2, 1, 1), (64, 1, 1))])
def test_grid_and_block_forms(scale, grid, block):
    x = np.ones(128, np.uint32)
    simulate(scale, "scale", grid, block, [x, np.uint32(5)])
    assert (x == 5).all()


TAIL = """
.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
.text
.globl tail
.p2align 8
.type tail,@function
tail:
  s_load_b64 s[4:5], s[0:1], 0x0          ; x: 64 dwords, its page holds 960 more
  v_mov_b32_e32 v1, 0x100                 ; the first byte past the array
  v_mov_b32_e32 v4, 0
  s_waitcnt lgkmcnt(0)
  global_load_b32 v2, v1, s[4:5]
  s_waitcnt vmcnt(0)
  v_add_nc_u32_e32 v3, 1, v2
  global_store_b32 v1, v3, s[4:5]         ; leave a mark past the array
  global_store_b32 v4, v2, s[4:5]         ; x[0] = what was there
  s_endpgm
.rodata
.p2align 6
.amdhsa_kernel tail
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_kernarg_size 8
  .amdhsa_wavefront_size32 1
.end_amdhsa_kernel
"""


def test_repeated_launches_start_from_fresh_memory_and_take_new_values(scale):
    """A launch of the same shape reuses the previous one's GPU VM: what a kernel left past its
    array (inside the page) is gone at the next launch, and new data and scalars are used."""
    co = build_code_object(assemble_program(TAIL), TAIL)
    for _ in range(3):
        x = np.full(64, 7, np.uint32)
        simulate(co, "tail", 1, 1, [x])
        assert x[0] == 0 and (x[1:] == 7).all()
    for factor in (3, 5, 3):
        x = np.arange(128, dtype=np.uint32)
        simulate(scale, "scale", 2, 64, [x, np.uint32(factor)])
        assert x.tolist() == [factor * i for i in range(128)]
    ro = np.arange(64, dtype=np.uint32)
    ro.flags.writeable = False
    with pytest.raises(LaunchError, match="read-only array"):
        simulate(scale, "scale", 1, 64, [ro, np.uint32(2)])
    x = np.arange(64, dtype=np.uint32)
    simulate(scale, "scale", 1, 64, [x, np.uint32(2)])      # the same shape again, after the error
    assert x.tolist() == [2 * i for i in range(64)]


def test_arrays_of_one_size_and_other_types_reuse_a_launch(scale):
    """Launches of one shape take arrays of the same byte size whatever their dtype and shape:
    each goes in and comes back as its bytes (float views of integers keep their bits)."""
    base = np.arange(64, dtype=np.uint32) * 0x00010203 + 1
    for form in (lambda b: b, lambda b: b.view(np.float32), lambda b: b.reshape(8, 8),
                 lambda b: b.view(np.uint8), lambda b: b.view(np.int16).reshape(4, 32), lambda b: b):
        x = form(base.copy())
        dtype, shape = x.dtype, x.shape
        simulate(scale, "scale", 1, 64, [x, np.uint32(3)])
        assert x.dtype == dtype and x.shape == shape
        assert x.reshape(-1).view(np.uint32).tolist() == (base * 3).tolist()


def test_launch_shapes_with_other_argument_pointers_share_an_executor(scale):
    """Two launch shapes of one kernel whose kernarg segments lie at other VAs (a larger array
    moves them), alternated through one executor: each dispatch gets its own user SGPRs."""
    from drivers.emu.amd.shader import WaveExecutor
    ex = WaveExecutor()
    for n, factor in ((64, 3), (4096, 5), (64, 7), (4096, 2)):
        x = np.arange(n, dtype=np.uint32)
        simulate(scale, "scale", 1, 64, [x, np.uint32(factor)], executor=ex)
        assert x[:64].tolist() == [factor * i for i in range(64)] and x[64:].tolist() == list(range(64, n))
