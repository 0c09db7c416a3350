; VALU f32: out[8i..8i+7] = a+b, a-b, a*b, fma(a,b,c), min, max, fmac(c += a*b), cvt_i32(a)
.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
.amdhsa_code_object_version 5

.text
.p2align 8
.globl valu_f32
.type valu_f32,@function
valu_f32:
  s_load_b256 s[4:11], s[0:1], 0x0        ; out, a, b, c
  s_lshl_b32 s12, s2, 6                   ; workgroup_id_x * 64 (blocks of 64 work-items)
  v_add_nc_u32_e32 v0, s12, v0            ; i
  v_lshlrev_b32_e32 v1, 2, v0             ; i * 4
  s_waitcnt lgkmcnt(0)
  global_load_b32 v2, v1, s[6:7]
  global_load_b32 v3, v1, s[8:9]
  global_load_b32 v4, v1, s[10:11]
  s_waitcnt vmcnt(0)
  v_lshlrev_b32_e32 v5, 5, v0             ; out offset i * 32
  v_add_f32_e32 v6, v2, v3
  v_sub_f32_e32 v7, v2, v3
  v_mul_f32_e32 v8, v2, v3
  v_fma_f32 v9, v2, v3, v4
  v_min_f32_e32 v10, v2, v3
  v_max_f32_e32 v11, v2, v3
  v_mov_b32_e32 v12, v4
  v_fmac_f32_e32 v12, v2, v3
  v_cvt_i32_f32_e32 v13, v2
  global_store_b128 v5, v[6:9], s[4:5]
  global_store_b128 v5, v[10:13], s[4:5] offset:16
  s_endpgm

.rodata
.p2align 6
.amdhsa_kernel valu_f32
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
  - .name: valu_f32
    .symbol: valu_f32.kd
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
