; VALU f16: a, b, c hold half2; out[8i..] = add, mul, fma (low halves), pk_add, pk_mul, pk_fma, cvt_f32_f16(a.lo), cvt_f16_f32 round trip
.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
.amdhsa_code_object_version 5

.text
.p2align 8
.globl valu_f16
.type valu_f16,@function
valu_f16:
  s_load_b256 s[4:11], s[0:1], 0x0        ; out, a, b, c
  s_lshl_b32 s12, s2, 6                   ; workgroup_id_x * 64 (blocks of 64 work-items)
  v_add_nc_u32_e32 v0, s12, v0            ; i
  v_lshlrev_b32_e32 v1, 2, v0             ; i * 4
  s_waitcnt lgkmcnt(0)
  global_load_b32 v2, v1, s[6:7]
  global_load_b32 v3, v1, s[8:9]
  global_load_b32 v4, v1, s[10:11]
  s_waitcnt vmcnt(0)
  v_lshlrev_b32_e32 v5, 5, v0
  v_add_f16_e32 v6, v2, v3
  v_mul_f16_e32 v7, v2, v3
  v_fma_f16 v8, v2, v3, v4
  v_pk_add_f16 v9, v2, v3
  v_pk_mul_f16 v10, v2, v3
  v_pk_fma_f16 v11, v2, v3, v4
  v_cvt_f32_f16_e32 v12, v2
  v_cvt_f16_f32_e32 v13, v12
  global_store_b128 v5, v[6:9], s[4:5]
  global_store_b128 v5, v[10:13], s[4:5] offset:16
  s_endpgm

.rodata
.p2align 6
.amdhsa_kernel valu_f16
  .amdhsa_user_sgpr_count 2
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_kernarg_size 32
  .amdhsa_system_sgpr_workgroup_id_x 1
  .amdhsa_wavefront_size32 1
  .amdhsa_next_free_vgpr 14
  .amdhsa_next_free_sgpr 16
  .amdhsa_float_denorm_mode_32 3
  .amdhsa_float_denorm_mode_16_64 3
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.target: amdgcn-amd-amdhsa--gfx1100
amdhsa.kernels:
  - .name: valu_f16
    .symbol: valu_f16.kd
    .args:
      - { .name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: a, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: b, .offset: 16, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: c, .offset: 24, .size: 8, .value_kind: global_buffer, .address_space: global }
    .kernarg_segment_size: 32
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 32
    .sgpr_count: 18
    .vgpr_count: 14
    .max_flat_workgroup_size: 64
...
.end_amdgpu_metadata
