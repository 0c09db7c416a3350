; SALU: arithmetic, logic, shifts, bit fields, compares and a counted loop on two scalars.
; out[j] = result j (22 dwords); one work-item.
.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
.amdhsa_code_object_version 5

.text
.p2align 8
.globl salu
.type salu,@function
salu:
  s_load_b64 s[4:5], s[0:1], 0x0          ; out
  s_load_b64 s[6:7], s[0:1], 0x8          ; a, b
  v_mov_b32 v0, 0
  s_waitcnt lgkmcnt(0)
  s_add_u32 s8, s6, s7
  s_sub_u32 s9, s6, s7
  s_mul_i32 s10, s6, s7
  s_mul_hi_u32 s11, s6, s7
  s_and_b32 s12, s6, s7
  s_or_b32 s13, s6, s7
  s_xor_b32 s14, s6, s7
  s_lshl_b32 s15, s6, 7
  s_lshr_b32 s16, s6, 5
  s_ashr_i32 s17, s6, 9
  s_min_u32 s18, s6, s7
  s_max_i32 s19, s6, s7
  s_bcnt1_i32_b32 s20, s6
  s_brev_b32 s21, s6
  s_bfe_u32 s22, s6, 0x80004              ; 8 bits from bit 4
  s_cmp_gt_u32 s6, s7
  s_cselect_b32 s23, s6, s7
  s_and_b32 s24, s7, 63                   ; sum of 1 .. (b & 63) in a loop
  s_mov_b32 s25, 0
.Lsum:
  s_cmp_eq_u32 s24, 0
  s_cbranch_scc1 .Lsummed
  s_add_u32 s25, s25, s24
  s_sub_u32 s24, s24, 1
  s_branch .Lsum
.Lsummed:
  s_add_u32 s26, s6, s7                   ; carry out of a + b
  s_addc_u32 s27, 0, 0
  s_ctz_i32_b32 s28, s6
  s_not_b32 s29, s6
  v_mov_b32 v1, s8
  v_mov_b32 v2, s9
  v_mov_b32 v3, s10
  v_mov_b32 v4, s11
  global_store_b128 v0, v[1:4], s[4:5]
  v_mov_b32 v1, s12
  v_mov_b32 v2, s13
  v_mov_b32 v3, s14
  v_mov_b32 v4, s15
  global_store_b128 v0, v[1:4], s[4:5] offset:16
  v_mov_b32 v1, s16
  v_mov_b32 v2, s17
  v_mov_b32 v3, s18
  v_mov_b32 v4, s19
  global_store_b128 v0, v[1:4], s[4:5] offset:32
  v_mov_b32 v1, s20
  v_mov_b32 v2, s21
  v_mov_b32 v3, s22
  v_mov_b32 v4, s23
  global_store_b128 v0, v[1:4], s[4:5] offset:48
  v_mov_b32 v1, s25
  v_mov_b32 v2, s27
  v_mov_b32 v3, s28
  v_mov_b32 v4, s29
  global_store_b128 v0, v[1:4], s[4:5] offset:64
  s_endpgm

.rodata
.p2align 6
.amdhsa_kernel salu
  .amdhsa_user_sgpr_count 2
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_kernarg_size 16
  .amdhsa_wavefront_size32 1
  .amdhsa_next_free_vgpr 5
  .amdhsa_next_free_sgpr 30
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.target: amdgcn-amd-amdhsa--gfx1100
amdhsa.kernels:
  - .name: salu
    .symbol: salu.kd
    .args:
      - { .name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: a, .offset: 8, .size: 4, .value_kind: by_value, .type_name: uint }
      - { .name: b, .offset: 12, .size: 4, .value_kind: by_value, .type_name: uint }
    .kernarg_segment_size: 16
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 32
    .sgpr_count: 30
    .vgpr_count: 5
    .max_flat_workgroup_size: 32
...
.end_amdgpu_metadata
