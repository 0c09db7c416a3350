; GLOBAL: loads of every width (with sign/zero extension), byte and short stores, atomics with return.
; 64 work-items. out[16i..16i+9] = src dword i, dwords 2i..2i+1, dwords 4i..4i+3, u8/i8 at byte i,
; u16/i16 at short i, atomic_add's old value; bytes[i] = low byte of src[i]; shorts[i] = its low short;
; counters: [0] += 1 by all, [1] = max of (37i mod 64) - 20, [2] cmpswap 0 -> i + 1, [3] |= 1 << (i % 32).
.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
.amdhsa_code_object_version 5

.text
.p2align 8
.globl global_mem
.type global_mem,@function
global_mem:
  s_load_b256 s[4:11], s[0:1], 0x0        ; out, src, counters, bytes
  v_lshlrev_b32_e32 v1, 2, v0             ; i * 4
  v_lshlrev_b32_e32 v20, 3, v0            ; i * 8
  v_lshlrev_b32_e32 v21, 4, v0            ; i * 16
  v_lshlrev_b32_e32 v22, 6, v0            ; i * 64
  v_lshlrev_b32_e32 v23, 1, v0            ; i * 2
  s_waitcnt lgkmcnt(0)
  global_load_b32 v2, v1, s[6:7]
  global_load_b64 v[3:4], v20, s[6:7]
  global_load_b128 v[5:8], v21, s[6:7]
  global_load_u8 v9, v0, s[6:7]
  global_load_i8 v10, v0, s[6:7]
  global_load_u16 v11, v23, s[6:7]
  global_load_i16 v12, v23, s[6:7]
  v_mov_b32_e32 v14, 0
  v_mov_b32_e32 v15, 1
  global_atomic_add_u32 v13, v14, v15, s[8:9] glc
  v_mul_u32_u24_e32 v16, 37, v0
  v_and_b32_e32 v16, 63, v16
  v_subrev_nc_u32_e32 v16, 20, v16
  global_atomic_max_i32 v14, v16, s[8:9] offset:4
  v_add_nc_u32_e32 v17, 1, v0             ; new value i + 1
  v_mov_b32_e32 v18, 0                    ; expected old value 0
  global_atomic_cmpswap_b32 v19, v14, v[17:18], s[8:9] offset:8 glc
  v_and_b32_e32 v16, 31, v0
  v_lshlrev_b32_e32 v16, v16, v15
  global_atomic_or_b32 v14, v16, s[8:9] offset:12
  s_waitcnt vmcnt(0)
  global_store_b32 v22, v2, s[4:5]
  global_store_b64 v22, v[3:4], s[4:5] offset:4
  global_store_b128 v22, v[5:8], s[4:5] offset:12
  global_store_b128 v22, v[9:12], s[4:5] offset:28
  global_store_b64 v22, v[13:14], s[4:5] offset:44
  global_store_b32 v22, v19, s[4:5] offset:52
  global_store_b8 v0, v2, s[10:11]
  global_store_b16 v23, v2, s[10:11] offset:64
  s_endpgm

.rodata
.p2align 6
.amdhsa_kernel global_mem
  .amdhsa_user_sgpr_count 2
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_kernarg_size 32
  .amdhsa_system_sgpr_workgroup_id_x 1
  .amdhsa_wavefront_size32 1
  .amdhsa_next_free_vgpr 24
  .amdhsa_next_free_sgpr 16
  .amdhsa_float_denorm_mode_32 3
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.target: amdgcn-amd-amdhsa--gfx1100
amdhsa.kernels:
  - .name: global_mem
    .symbol: global_mem.kd
    .args:
      - { .name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: src, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: counters, .offset: 16, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: bytes, .offset: 24, .size: 8, .value_kind: global_buffer, .address_space: global }
    .kernarg_segment_size: 32
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 32
    .sgpr_count: 18
    .vgpr_count: 24
    .max_flat_workgroup_size: 64
...
.end_amdgpu_metadata
