; Two hand-written gfx1100 kernels with their code object directives, in LLVM's AMDGPU syntax.
; fill: out[i] = value for the 64 work-items of each workgroup
; copy: dst[i] = src[i], reading its workgroup size from the dispatch packet
.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
.amdhsa_code_object_version 5

.text
.p2align 8
.globl fill
.type fill,@function
fill:
  s_load_b64 s[2:3], s[0:1], 0x0          ; out
  s_load_b32 s4, s[0:1], 0x8              ; value
  s_lshl_b32 s5, s15, 6                   ; workgroup_id_x * 64 (user SGPRs padded to 15)
  v_add_nc_u32_e32 v0, s5, v0
  v_lshlrev_b32_e32 v0, 2, v0
  s_waitcnt lgkmcnt(0)
  v_mov_b32_e32 v1, s4
  global_store_b32 v0, v1, s[2:3]
  s_endpgm

.p2align 8
.globl copy
.type copy,@function
copy:
  s_load_b128 s[4:7], s[2:3], 0x0         ; dst, src (kernarg pointer after the dispatch pointer)
  s_load_b32 s8, s[0:1], 0x4              ; dispatch packet: workgroup_size_x | y << 16
  s_waitcnt lgkmcnt(0)
  s_and_b32 s8, s8, 0xffff
  s_mul_i32 s8, s8, s15
  v_add_nc_u32_e32 v0, s8, v0
  v_lshlrev_b32_e32 v0, 2, v0
  global_load_b32 v1, v0, s[6:7]
  s_waitcnt vmcnt(0)
  global_store_b32 v0, v1, s[4:5]
  s_endpgm

.rodata
.p2align 6
.amdhsa_kernel fill
  .amdhsa_user_sgpr_count 15
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_kernarg_size 12
  .amdhsa_next_free_vgpr 2
  .amdhsa_next_free_sgpr 16
  .amdhsa_float_denorm_mode_32 3
.end_amdhsa_kernel

.p2align 6
.amdhsa_kernel copy
  .amdhsa_user_sgpr_count 15
  .amdhsa_user_sgpr_dispatch_ptr 1
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_kernarg_size 16
  .amdhsa_group_segment_fixed_size 0
  .amdhsa_next_free_vgpr 2
  .amdhsa_next_free_sgpr 16
  .amdhsa_reserve_vcc 0
  .amdhsa_system_vgpr_workitem_id 0
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version:
  - 1
  - 2
amdhsa.target: amdgcn-amd-amdhsa--gfx1100
amdhsa.kernels:
  - .name: fill
    .symbol: fill.kd
    .args:
      - { .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
    .kernarg_segment_size: 12
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 32
    .sgpr_count: 18
    .vgpr_count: 2
    .max_flat_workgroup_size: 64
  - .name: copy
    .symbol: copy.kd
    .args:
      - .name: dst
        .offset: 0
        .size: 8
        .value_kind: global_buffer
        .address_space: global
        .type_name: 'float*'
      - .name: src
        .offset: 8
        .size: 8
        .value_kind: global_buffer
        .address_space: global
        .is_const: true
    .kernarg_segment_size: 16
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 32
    .sgpr_count: 16
    .vgpr_count: 2
    .max_flat_workgroup_size: 256
...
.end_amdgpu_metadata
