; Many tiny workgroups: one work-item each, workgroup x writes byte 1 to out[x].
.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
.amdhsa_code_object_version 5

.text
.p2align 8
.globl grid_mark
.type grid_mark,@function
grid_mark:
  s_load_b64 s[4:5], s[0:1], 0x0
  v_mov_b32_e32 v0, s2
  v_mov_b32_e32 v1, 1
  s_waitcnt lgkmcnt(0)
  global_store_b8 v0, v1, s[4:5]
  s_endpgm

.rodata
.p2align 6
.amdhsa_kernel grid_mark
  .amdhsa_user_sgpr_count 2
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_kernarg_size 8
  .amdhsa_system_sgpr_workgroup_id_x 1
  .amdhsa_wavefront_size32 1
  .amdhsa_next_free_vgpr 2
  .amdhsa_next_free_sgpr 6
  .amdhsa_float_denorm_mode_32 3
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.target: amdgcn-amd-amdhsa--gfx1100
amdhsa.kernels:
  - .name: grid_mark
    .symbol: grid_mark.kd
    .args:
      - { .name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 32
    .sgpr_count: 8
    .vgpr_count: 2
    .max_flat_workgroup_size: 32
...
.end_amdgpu_metadata
