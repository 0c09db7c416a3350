; SMEM: scalar loads of every width and an SGPR offset; out[0..31] = src dwords 1, 2-3, 8-11, 16-23, 32-47, 64
.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
.amdhsa_code_object_version 5

.text
.p2align 8
.globl smem
.type smem,@function
smem:
  s_load_b128 s[4:7], s[0:1], 0x0         ; out, src
  s_waitcnt lgkmcnt(0)
  s_load_b32 s8, s[6:7], 0x4
  s_load_b64 s[10:11], s[6:7], 0x8
  s_load_b128 s[12:15], s[6:7], 0x20
  s_load_b256 s[16:23], s[6:7], 0x40
  s_load_b512 s[24:39], s[6:7], 0x80
  s_mov_b32 s40, 0x100
  s_load_b32 s41, s[6:7], s40
  v_mov_b32_e32 v0, 0
  s_waitcnt lgkmcnt(0)
  v_mov_b32_e32 v1, s8
  v_mov_b32_e32 v2, s10
  v_mov_b32_e32 v3, s11
  v_mov_b32_e32 v4, s12
  global_store_b128 v0, v[1:4], s[4:5]
  v_mov_b32_e32 v1, s13
  v_mov_b32_e32 v2, s14
  v_mov_b32_e32 v3, s15
  v_mov_b32_e32 v4, s16
  global_store_b128 v0, v[1:4], s[4:5] offset:16
  v_mov_b32_e32 v1, s17
  v_mov_b32_e32 v2, s18
  v_mov_b32_e32 v3, s19
  v_mov_b32_e32 v4, s20
  global_store_b128 v0, v[1:4], s[4:5] offset:32
  v_mov_b32_e32 v1, s21
  v_mov_b32_e32 v2, s22
  v_mov_b32_e32 v3, s23
  v_mov_b32_e32 v4, s24
  global_store_b128 v0, v[1:4], s[4:5] offset:48
  v_mov_b32_e32 v1, s25
  v_mov_b32_e32 v2, s26
  v_mov_b32_e32 v3, s27
  v_mov_b32_e32 v4, s28
  global_store_b128 v0, v[1:4], s[4:5] offset:64
  v_mov_b32_e32 v1, s29
  v_mov_b32_e32 v2, s30
  v_mov_b32_e32 v3, s31
  v_mov_b32_e32 v4, s32
  global_store_b128 v0, v[1:4], s[4:5] offset:80
  v_mov_b32_e32 v1, s33
  v_mov_b32_e32 v2, s34
  v_mov_b32_e32 v3, s35
  v_mov_b32_e32 v4, s36
  global_store_b128 v0, v[1:4], s[4:5] offset:96
  v_mov_b32_e32 v1, s37
  v_mov_b32_e32 v2, s38
  v_mov_b32_e32 v3, s39
  v_mov_b32_e32 v4, s41
  global_store_b128 v0, v[1:4], s[4:5] offset:112
  s_endpgm

.rodata
.p2align 6
.amdhsa_kernel smem
  .amdhsa_user_sgpr_count 2
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_kernarg_size 16
  .amdhsa_system_sgpr_workgroup_id_x 1
  .amdhsa_wavefront_size32 1
  .amdhsa_next_free_vgpr 5
  .amdhsa_next_free_sgpr 42
  .amdhsa_float_denorm_mode_32 3
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.target: amdgcn-amd-amdhsa--gfx1100
amdhsa.kernels:
  - .name: smem
    .symbol: smem.kd
    .args:
      - { .name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: src, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
    .kernarg_segment_size: 16
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 32
    .sgpr_count: 44
    .vgpr_count: 5
    .max_flat_workgroup_size: 32
...
.end_amdgpu_metadata
