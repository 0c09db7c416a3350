; WMMA: D = A (16x16 f16) x B (16x16 f16) + C (f32) with v_wmma_f32_16x16x16_f16 on one wave.
; Lane l holds row l%16 of A, column l%16 of B (bt = B transposed) and C/D elements
; [2e + l/16][l%16], e = 0..7, at c[8l + e] / out[8l + e].
.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
.amdhsa_code_object_version 5

.text
.p2align 8
.globl wmma
.type wmma,@function
wmma:
  s_load_b256 s[4:11], s[0:1], 0x0        ; out, a, bt, c
  v_and_b32_e32 v1, 15, v0
  v_lshlrev_b32_e32 v1, 5, v1             ; (lane % 16) * 32: one row of 16 halves
  v_lshlrev_b32_e32 v26, 5, v0            ; lane * 32: eight f32 of C / D
  s_waitcnt lgkmcnt(0)
  global_load_b128 v[2:5], v1, s[6:7]
  global_load_b128 v[6:9], v1, s[6:7] offset:16
  global_load_b128 v[10:13], v1, s[8:9]
  global_load_b128 v[14:17], v1, s[8:9] offset:16
  global_load_b128 v[18:21], v26, s[10:11]
  global_load_b128 v[22:25], v26, s[10:11] offset:16
  s_waitcnt vmcnt(0)
  v_wmma_f32_16x16x16_f16 v[18:25], v[2:9], v[10:17], v[18:25]
  global_store_b128 v26, v[18:21], s[4:5]
  global_store_b128 v26, v[22:25], s[4:5] offset:16
  s_endpgm

.rodata
.p2align 6
.amdhsa_kernel wmma
  .amdhsa_user_sgpr_count 2
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_kernarg_size 32
  .amdhsa_system_sgpr_workgroup_id_x 1
  .amdhsa_wavefront_size32 1
  .amdhsa_next_free_vgpr 27
  .amdhsa_next_free_sgpr 16
  .amdhsa_float_denorm_mode_32 3
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.target: amdgcn-amd-amdhsa--gfx1100
amdhsa.kernels:
  - .name: wmma
    .symbol: wmma.kd
    .args:
      - { .name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: a, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: bt, .offset: 16, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: c, .offset: 24, .size: 8, .value_kind: global_buffer, .address_space: global }
    .kernarg_segment_size: 32
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 32
    .sgpr_count: 18
    .vgpr_count: 27
    .max_flat_workgroup_size: 32
...
.end_amdgpu_metadata
