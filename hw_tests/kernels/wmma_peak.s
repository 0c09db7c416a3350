; Peak FP16 matrix: per wave, 4 independent 16x16 f32 accumulators each += A x B per iteration
; with A = B = all ones (each element grows by 16); out[4 * global id .. + 3] = the first element of each
; accumulator (16 * iterations). Blocks of 256 work-items (8 waves).
.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
.amdhsa_code_object_version 5

.text
.p2align 8
.globl wmma_peak
.type wmma_peak,@function
wmma_peak:
  s_load_b64 s[4:5], s[0:1], 0x0          ; out
  s_load_b32 s6, s[0:1], 0x8              ; iterations (>= 1)
  s_mov_b32 s7, 0x3c003c00                ; two f16 ones
  v_mov_b32_e32 v2, s7
  v_mov_b32_e32 v3, s7
  v_mov_b32_e32 v4, s7
  v_mov_b32_e32 v5, s7
  v_mov_b32_e32 v6, s7
  v_mov_b32_e32 v7, s7
  v_mov_b32_e32 v8, s7
  v_mov_b32_e32 v9, s7
  v_mov_b32_e32 v10, s7
  v_mov_b32_e32 v11, s7
  v_mov_b32_e32 v12, s7
  v_mov_b32_e32 v13, s7
  v_mov_b32_e32 v14, s7
  v_mov_b32_e32 v15, s7
  v_mov_b32_e32 v16, s7
  v_mov_b32_e32 v17, s7
  v_mov_b32_e32 v18, 0
  v_mov_b32_e32 v19, 0
  v_mov_b32_e32 v20, 0
  v_mov_b32_e32 v21, 0
  v_mov_b32_e32 v22, 0
  v_mov_b32_e32 v23, 0
  v_mov_b32_e32 v24, 0
  v_mov_b32_e32 v25, 0
  v_mov_b32_e32 v26, 0
  v_mov_b32_e32 v27, 0
  v_mov_b32_e32 v28, 0
  v_mov_b32_e32 v29, 0
  v_mov_b32_e32 v30, 0
  v_mov_b32_e32 v31, 0
  v_mov_b32_e32 v32, 0
  v_mov_b32_e32 v33, 0
  v_mov_b32_e32 v34, 0
  v_mov_b32_e32 v35, 0
  v_mov_b32_e32 v36, 0
  v_mov_b32_e32 v37, 0
  v_mov_b32_e32 v38, 0
  v_mov_b32_e32 v39, 0
  v_mov_b32_e32 v40, 0
  v_mov_b32_e32 v41, 0
  v_mov_b32_e32 v42, 0
  v_mov_b32_e32 v43, 0
  v_mov_b32_e32 v44, 0
  v_mov_b32_e32 v45, 0
  v_mov_b32_e32 v46, 0
  v_mov_b32_e32 v47, 0
  v_mov_b32_e32 v48, 0
  v_mov_b32_e32 v49, 0
  s_waitcnt lgkmcnt(0)
.Lloop:
  v_wmma_f32_16x16x16_f16 v[18:25], v[2:9], v[10:17], v[18:25]
  v_wmma_f32_16x16x16_f16 v[26:33], v[2:9], v[10:17], v[26:33]
  v_wmma_f32_16x16x16_f16 v[34:41], v[2:9], v[10:17], v[34:41]
  v_wmma_f32_16x16x16_f16 v[42:49], v[2:9], v[10:17], v[42:49]
  s_sub_u32 s6, s6, 1
  s_cmp_lg_u32 s6, 0
  s_cbranch_scc1 .Lloop
  v_mov_b32_e32 v50, v18
  v_mov_b32_e32 v51, v26
  v_mov_b32_e32 v52, v34
  v_mov_b32_e32 v53, v42
  s_lshl_b32 s8, s2, 8
  v_add_nc_u32_e32 v1, s8, v0
  v_lshlrev_b32_e32 v1, 4, v1
  global_store_b128 v1, v[50:53], s[4:5]
  s_endpgm

.rodata
.p2align 6
.amdhsa_kernel wmma_peak
  .amdhsa_user_sgpr_count 2
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_kernarg_size 12
  .amdhsa_system_sgpr_workgroup_id_x 1
  .amdhsa_wavefront_size32 1
  .amdhsa_next_free_vgpr 54
  .amdhsa_next_free_sgpr 9
  .amdhsa_float_denorm_mode_32 3
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.target: amdgcn-amd-amdhsa--gfx1100
amdhsa.kernels:
  - .name: wmma_peak
    .symbol: wmma_peak.kd
    .args:
      - { .name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: iterations, .offset: 8, .size: 4, .value_kind: by_value, .type_name: uint }
    .kernarg_segment_size: 12
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 32
    .sgpr_count: 11
    .vgpr_count: 54
    .max_flat_workgroup_size: 256
...
.end_amdgpu_metadata
