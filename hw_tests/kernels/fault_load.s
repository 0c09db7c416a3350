; A load through a pointer the host chooses (an unmapped one, to provoke a memory fault); out[i] = src[i].
.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
.amdhsa_code_object_version 5

.text
.p2align 8
.globl fault_load
.type fault_load,@function
fault_load:
  s_load_b128 s[4:7], s[0:1], 0x0         ; out, src
  v_lshlrev_b32_e32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  global_load_b32 v2, v1, s[6:7]
  s_waitcnt vmcnt(0)
  global_store_b32 v1, v2, s[4:5]
  s_endpgm

.rodata
.p2align 6
.amdhsa_kernel fault_load
  .amdhsa_user_sgpr_count 2
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_kernarg_size 16
  .amdhsa_system_sgpr_workgroup_id_x 1
  .amdhsa_wavefront_size32 1
  .amdhsa_next_free_vgpr 3
  .amdhsa_next_free_sgpr 8
  .amdhsa_float_denorm_mode_32 3
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.target: amdgcn-amd-amdhsa--gfx1100
amdhsa.kernels:
  - .name: fault_load
    .symbol: fault_load.kd
    .args:
      - { .name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: src, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
    .kernarg_segment_size: 16
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 32
    .sgpr_count: 10
    .vgpr_count: 3
    .max_flat_workgroup_size: 32
...
.end_amdgpu_metadata
