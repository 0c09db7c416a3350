; Transcendentals: x = in[8i..8i+6]; out[8i..] = exp2, log2, rcp, rsq, sqrt, sin(2 pi x), cos(2 pi x), 0
.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
.amdhsa_code_object_version 5

.text
.p2align 8
.globl transcendental
.type transcendental,@function
transcendental:
  s_load_b128 s[4:7], s[0:1], 0x0         ; out, in
  s_lshl_b32 s12, s2, 6
  v_add_nc_u32_e32 v0, s12, v0
  v_lshlrev_b32_e32 v1, 5, v0             ; i * 32
  s_waitcnt lgkmcnt(0)
  global_load_b128 v[2:5], v1, s[6:7]
  global_load_b128 v[6:9], v1, s[6:7] offset:16
  s_waitcnt vmcnt(0)
  v_exp_f32_e32 v10, v2
  v_log_f32_e32 v11, v3
  v_rcp_f32_e32 v12, v4
  v_rsq_f32_e32 v13, v5
  v_sqrt_f32_e32 v14, v6
  v_sin_f32_e32 v15, v7
  v_cos_f32_e32 v16, v8
  v_mov_b32_e32 v17, 0
  global_store_b128 v1, v[10:13], s[4:5]
  global_store_b128 v1, v[14:17], s[4:5] offset:16
  s_endpgm

.rodata
.p2align 6
.amdhsa_kernel transcendental
  .amdhsa_user_sgpr_count 2
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_kernarg_size 16
  .amdhsa_system_sgpr_workgroup_id_x 1
  .amdhsa_wavefront_size32 1
  .amdhsa_next_free_vgpr 18
  .amdhsa_next_free_sgpr 16
  .amdhsa_float_denorm_mode_32 3
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.target: amdgcn-amd-amdhsa--gfx1100
amdhsa.kernels:
  - .name: transcendental
    .symbol: transcendental.kd
    .args:
      - { .name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: x, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
    .kernarg_segment_size: 16
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 32
    .sgpr_count: 18
    .vgpr_count: 18
    .max_flat_workgroup_size: 64
...
.end_amdgpu_metadata
