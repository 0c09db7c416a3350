; Scratch (private memory): each work-item stores 16 dwords 16i .. 16i + 15 to its scratch,
; reads them back last to first; out[i] = their sum, out[64 + i] = the dword at index 5.
.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
.amdhsa_code_object_version 5

.text
.p2align 8
.globl scratch
.type scratch,@function
scratch:
  s_load_b64 s[4:5], s[0:1], 0x0          ; out
  v_mov_b32_e32 v1, 0                     ; scratch offset
  v_lshlrev_b32_e32 v2, 4, v0             ; 16i
  s_mov_b32 s6, 16
.Lstore:
  scratch_store_b32 v1, v2, off
  v_add_nc_u32_e32 v1, 4, v1
  v_add_nc_u32_e32 v2, 1, v2
  s_sub_u32 s6, s6, 1
  s_cmp_lg_u32 s6, 0
  s_cbranch_scc1 .Lstore
  s_waitcnt_vscnt null, 0x0
  v_mov_b32_e32 v1, 60
  v_mov_b32_e32 v3, 0
  s_mov_b32 s6, 16
.Lload:
  scratch_load_b32 v4, v1, off
  s_waitcnt vmcnt(0)
  v_add_nc_u32_e32 v3, v3, v4
  v_subrev_nc_u32_e32 v1, 4, v1
  s_sub_u32 s6, s6, 1
  s_cmp_lg_u32 s6, 0
  s_cbranch_scc1 .Lload
  v_mov_b32_e32 v1, 20
  scratch_load_b32 v5, v1, off
  v_lshlrev_b32_e32 v6, 2, v0
  s_waitcnt lgkmcnt(0) vmcnt(0)
  global_store_b32 v6, v3, s[4:5]
  global_store_b32 v6, v5, s[4:5] offset:256
  s_endpgm

.rodata
.p2align 6
.amdhsa_kernel scratch
  .amdhsa_user_sgpr_count 2
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_kernarg_size 8
  .amdhsa_system_sgpr_workgroup_id_x 1
  .amdhsa_wavefront_size32 1
  .amdhsa_next_free_vgpr 7
  .amdhsa_next_free_sgpr 8
  .amdhsa_float_denorm_mode_32 3
  .amdhsa_enable_private_segment 1
  .amdhsa_private_segment_fixed_size 64
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.target: amdgcn-amd-amdhsa--gfx1100
amdhsa.kernels:
  - .name: scratch
    .symbol: scratch.kd
    .args:
      - { .name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 64
    .wavefront_size: 32
    .sgpr_count: 10
    .vgpr_count: 7
    .max_flat_workgroup_size: 64
...
.end_amdgpu_metadata
