; Memory bandwidth: each work-item copies 16-byte elements gid, gid + T, ... (T work-items in all,
; 'count' elements each) from src to dst. Blocks of 256 work-items.
.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
.amdhsa_code_object_version 5

.text
.p2align 8
.globl copy_bw
.type copy_bw,@function
copy_bw:
  s_load_b256 s[4:11], s[0:1], 0x0        ; dst, src, count, total work-items
  s_lshl_b32 s12, s2, 8
  v_add_nc_u32_e32 v1, s12, v0
  v_lshlrev_b32_e32 v1, 4, v1             ; byte offset of element gid
  s_waitcnt lgkmcnt(0)
  s_lshl_b32 s9, s9, 4                    ; stride in bytes
.Lloop:
  global_load_b128 v[2:5], v1, s[6:7]
  s_waitcnt vmcnt(0)
  global_store_b128 v1, v[2:5], s[4:5]
  v_add_nc_u32_e32 v1, s9, v1
  s_sub_u32 s8, s8, 1
  s_cmp_lg_u32 s8, 0
  s_cbranch_scc1 .Lloop
  s_endpgm

.rodata
.p2align 6
.amdhsa_kernel copy_bw
  .amdhsa_user_sgpr_count 2
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_kernarg_size 24
  .amdhsa_system_sgpr_workgroup_id_x 1
  .amdhsa_wavefront_size32 1
  .amdhsa_next_free_vgpr 6
  .amdhsa_next_free_sgpr 13
  .amdhsa_float_denorm_mode_32 3
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.target: amdgcn-amd-amdhsa--gfx1100
amdhsa.kernels:
  - .name: copy_bw
    .symbol: copy_bw.kd
    .args:
      - { .name: dst, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: src, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: count, .offset: 16, .size: 4, .value_kind: by_value, .type_name: uint }
      - { .name: total, .offset: 20, .size: 4, .value_kind: by_value, .type_name: uint }
    .kernarg_segment_size: 24
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 32
    .sgpr_count: 15
    .vgpr_count: 6
    .max_flat_workgroup_size: 256
...
.end_amdgpu_metadata
