; VALU integer: out[16i..16i+15] = add, sub, mul_lo, mul_hi, shl, shr, ashr, xor, min_i32, max_u32, bfe, select, carry, add lo, popcount, cvt_f32_u32
.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
.amdhsa_code_object_version 5

.text
.p2align 8
.globl valu_int
.type valu_int,@function
valu_int:
  s_load_b256 s[4:11], s[0:1], 0x0        ; out, a, b, c
  s_lshl_b32 s12, s2, 6                   ; workgroup_id_x * 64 (blocks of 64 work-items)
  v_add_nc_u32_e32 v0, s12, v0            ; i
  v_lshlrev_b32_e32 v1, 2, v0             ; i * 4
  s_waitcnt lgkmcnt(0)
  global_load_b32 v2, v1, s[6:7]
  global_load_b32 v3, v1, s[8:9]
  global_load_b32 v4, v1, s[10:11]
  s_waitcnt vmcnt(0)
  v_lshlrev_b32_e32 v5, 6, v0             ; out offset i * 64
  v_add_nc_u32_e32 v6, v2, v3
  v_sub_nc_u32_e32 v7, v2, v3
  v_mul_lo_u32 v8, v2, v3
  v_mul_hi_u32 v9, v2, v3
  v_lshlrev_b32_e32 v10, v3, v2
  v_lshrrev_b32_e32 v11, v3, v2
  v_ashrrev_i32_e32 v12, v3, v2
  v_xor_b32_e32 v13, v2, v3
  v_min_i32_e32 v14, v2, v3
  v_max_u32_e32 v15, v2, v3
  v_bfe_u32 v16, v2, 3, 9
  v_cmp_gt_i32_e32 vcc_lo, v2, v3
  v_cndmask_b32_e32 v17, v3, v2, vcc_lo   ; a > b (signed) ? a : b
  v_add_co_u32 v19, vcc_lo, v2, v3
  v_mov_b32_e32 v18, 0
  v_add_co_ci_u32_e32 v18, vcc_lo, 0, v18, vcc_lo   ; the carry out of a + b
  v_bcnt_u32_b32 v20, v2, 0
  v_cvt_f32_u32_e32 v21, v2
  global_store_b128 v5, v[6:9], s[4:5]
  global_store_b128 v5, v[10:13], s[4:5] offset:16
  global_store_b128 v5, v[14:17], s[4:5] offset:32
  global_store_b128 v5, v[18:21], s[4:5] offset:48
  s_endpgm

.rodata
.p2align 6
.amdhsa_kernel valu_int
  .amdhsa_user_sgpr_count 2
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_kernarg_size 32
  .amdhsa_system_sgpr_workgroup_id_x 1
  .amdhsa_wavefront_size32 1
  .amdhsa_next_free_vgpr 22
  .amdhsa_next_free_sgpr 16
  .amdhsa_float_denorm_mode_32 3
  .amdhsa_float_denorm_mode_16_64 3
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.target: amdgcn-amd-amdhsa--gfx1100
amdhsa.kernels:
  - .name: valu_int
    .symbol: valu_int.kd
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
    .vgpr_count: 22
    .max_flat_workgroup_size: 64
...
.end_amdgpu_metadata
