; Dispatch shapes: every work-item of a 3D grid writes (linear workgroup id << 10) | flat local id
; to out[linear workgroup id * items per group + flat local id]. Kernel arguments: out, block x/y/z, grid y/x.
.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
.amdhsa_code_object_version 5

.text
.p2align 8
.globl ids
.type ids,@function
ids:
  s_load_b64 s[6:7], s[0:1], 0x0          ; out
  s_load_b128 s[8:11], s[0:1], 0x8        ; bx, by, bz, gx
  s_load_b32 s12, s[0:1], 0x18            ; gy
  v_and_b32_e32 v1, 0x3ff, v0             ; local x
  v_bfe_u32 v2, v0, 10, 10                ; local y
  v_bfe_u32 v3, v0, 20, 10                ; local z
  s_waitcnt lgkmcnt(0)
  s_mul_i32 s13, s12, s4                  ; wg = x + gx * (y + gy * z)
  s_add_u32 s13, s13, s3
  s_mul_i32 s13, s13, s11
  s_add_u32 s13, s13, s2
  s_mul_i32 s14, s8, s9                   ; items per workgroup
  s_mul_i32 s14, s14, s10
  v_mul_lo_u32 v4, v3, s9                 ; local = x + bx * (y + by * z)
  v_add_nc_u32_e32 v4, v4, v2
  v_mul_lo_u32 v4, v4, s8
  v_add_nc_u32_e32 v4, v4, v1
  s_mul_i32 s15, s13, s14
  v_add_nc_u32_e32 v5, s15, v4            ; global linear index
  v_lshlrev_b32_e32 v5, 2, v5
  s_lshl_b32 s16, s13, 10
  v_or_b32_e32 v6, s16, v4
  global_store_b32 v5, v6, s[6:7]
  s_endpgm

.rodata
.p2align 6
.amdhsa_kernel ids
  .amdhsa_user_sgpr_count 2
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_kernarg_size 28
  .amdhsa_system_sgpr_workgroup_id_x 1
  .amdhsa_wavefront_size32 1
  .amdhsa_next_free_vgpr 7
  .amdhsa_next_free_sgpr 17
  .amdhsa_float_denorm_mode_32 3
  .amdhsa_system_sgpr_workgroup_id_y 1
  .amdhsa_system_sgpr_workgroup_id_z 1
  .amdhsa_system_vgpr_workitem_id 2
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.target: amdgcn-amd-amdhsa--gfx1100
amdhsa.kernels:
  - .name: ids
    .symbol: ids.kd
    .args:
      - { .name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: bx, .offset: 8, .size: 4, .value_kind: by_value, .type_name: uint }
      - { .name: by, .offset: 12, .size: 4, .value_kind: by_value, .type_name: uint }
      - { .name: bz, .offset: 16, .size: 4, .value_kind: by_value, .type_name: uint }
      - { .name: gx, .offset: 20, .size: 4, .value_kind: by_value, .type_name: uint }
      - { .name: gy, .offset: 24, .size: 4, .value_kind: by_value, .type_name: uint }
    .kernarg_segment_size: 28
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 32
    .sgpr_count: 19
    .vgpr_count: 7
    .max_flat_workgroup_size: 1024
...
.end_amdgpu_metadata
