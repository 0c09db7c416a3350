; Peak FP32: 16 independent accumulators per work-item, each += 1.0 * 1.0 per iteration with
; dual-issue (VOPD) FMAs; out[global id] = the sum of the 16 (16 * iterations, exact below 2^24).
; Blocks of 256 work-items.
.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
.amdhsa_code_object_version 5

.text
.p2align 8
.globl fma_peak
.type fma_peak,@function
fma_peak:
  s_load_b64 s[4:5], s[0:1], 0x0          ; out
  s_load_b32 s6, s[0:1], 0x8              ; iterations (>= 1)
  v_mov_b32_e32 v20, 1.0
  v_mov_b32_e32 v21, 1.0
  v_mov_b32_e32 v22, 1.0
  v_mov_b32_e32 v23, 1.0
  v_mov_b32_e32 v2, 0
  v_mov_b32_e32 v3, 0
  v_mov_b32_e32 v4, 0
  v_mov_b32_e32 v5, 0
  v_mov_b32_e32 v6, 0
  v_mov_b32_e32 v7, 0
  v_mov_b32_e32 v8, 0
  v_mov_b32_e32 v9, 0
  v_mov_b32_e32 v10, 0
  v_mov_b32_e32 v11, 0
  v_mov_b32_e32 v12, 0
  v_mov_b32_e32 v13, 0
  v_mov_b32_e32 v14, 0
  v_mov_b32_e32 v15, 0
  v_mov_b32_e32 v16, 0
  v_mov_b32_e32 v17, 0
  s_waitcnt lgkmcnt(0)
.Lloop:
  v_dual_fmac_f32 v2, v20, v21 :: v_dual_fmac_f32 v3, v22, v23
  v_dual_fmac_f32 v4, v20, v21 :: v_dual_fmac_f32 v5, v22, v23
  v_dual_fmac_f32 v6, v20, v21 :: v_dual_fmac_f32 v7, v22, v23
  v_dual_fmac_f32 v8, v20, v21 :: v_dual_fmac_f32 v9, v22, v23
  v_dual_fmac_f32 v10, v20, v21 :: v_dual_fmac_f32 v11, v22, v23
  v_dual_fmac_f32 v12, v20, v21 :: v_dual_fmac_f32 v13, v22, v23
  v_dual_fmac_f32 v14, v20, v21 :: v_dual_fmac_f32 v15, v22, v23
  v_dual_fmac_f32 v16, v20, v21 :: v_dual_fmac_f32 v17, v22, v23
  s_sub_u32 s6, s6, 1
  s_cmp_lg_u32 s6, 0
  s_cbranch_scc1 .Lloop
  v_add_f32_e32 v2, v2, v3
  v_add_f32_e32 v4, v4, v5
  v_add_f32_e32 v6, v6, v7
  v_add_f32_e32 v8, v8, v9
  v_add_f32_e32 v10, v10, v11
  v_add_f32_e32 v12, v12, v13
  v_add_f32_e32 v14, v14, v15
  v_add_f32_e32 v16, v16, v17
  v_add_f32_e32 v2, v2, v4
  v_add_f32_e32 v6, v6, v8
  v_add_f32_e32 v10, v10, v12
  v_add_f32_e32 v14, v14, v16
  v_add_f32_e32 v2, v2, v6
  v_add_f32_e32 v10, v10, v14
  v_add_f32_e32 v2, v2, v10
  s_lshl_b32 s7, s2, 8                    ; workgroup_id_x * 256
  v_add_nc_u32_e32 v1, s7, v0
  v_lshlrev_b32_e32 v1, 2, v1
  global_store_b32 v1, v2, s[4:5]
  s_endpgm

.rodata
.p2align 6
.amdhsa_kernel fma_peak
  .amdhsa_user_sgpr_count 2
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_kernarg_size 12
  .amdhsa_system_sgpr_workgroup_id_x 1
  .amdhsa_wavefront_size32 1
  .amdhsa_next_free_vgpr 24
  .amdhsa_next_free_sgpr 8
  .amdhsa_float_denorm_mode_32 3
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.target: amdgcn-amd-amdhsa--gfx1100
amdhsa.kernels:
  - .name: fma_peak
    .symbol: fma_peak.kd
    .args:
      - { .name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: iterations, .offset: 8, .size: 4, .value_kind: by_value, .type_name: uint }
    .kernarg_segment_size: 12
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 32
    .sgpr_count: 10
    .vgpr_count: 24
    .max_flat_workgroup_size: 256
...
.end_amdgpu_metadata
