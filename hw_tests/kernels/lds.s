; LDS with barriers: 256 work-items (8 waves) write lds[i], work-item 0 zeroes a counter
; (EXEC-masked), barrier, all add 1 to it, barrier; out[2i] = lds[255 - i], out[2i + 1] = counter.
.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
.amdhsa_code_object_version 5

.text
.p2align 8
.globl lds
.type lds,@function
lds:
  s_load_b64 s[4:5], s[0:1], 0x0          ; out
  v_lshlrev_b32_e32 v1, 2, v0             ; i * 4
  v_mad_u32_u24 v2, v0, 3, 7              ; value 3i + 7
  ds_store_b32 v1, v2
  v_mov_b32_e32 v4, 0
  v_cmp_eq_u32_e32 vcc_lo, 0, v0
  s_and_saveexec_b32 s6, vcc_lo
  ds_store_b32 v4, v4 offset:1024
  s_mov_b32 exec_lo, s6
  s_waitcnt lgkmcnt(0)
  s_barrier
  v_mov_b32_e32 v3, 1
  ds_add_u32 v4, v3 offset:1024
  s_waitcnt lgkmcnt(0)
  s_barrier
  v_sub_nc_u32_e32 v5, 255, v0
  v_lshlrev_b32_e32 v5, 2, v5
  ds_load_b32 v6, v5
  ds_load_b32 v7, v4 offset:1024
  v_lshlrev_b32_e32 v8, 3, v0             ; i * 8
  s_waitcnt lgkmcnt(0)
  global_store_b64 v8, v[6:7], s[4:5]
  s_endpgm

.rodata
.p2align 6
.amdhsa_kernel lds
  .amdhsa_user_sgpr_count 2
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_kernarg_size 8
  .amdhsa_system_sgpr_workgroup_id_x 1
  .amdhsa_wavefront_size32 1
  .amdhsa_next_free_vgpr 9
  .amdhsa_next_free_sgpr 8
  .amdhsa_float_denorm_mode_32 3
  .amdhsa_group_segment_fixed_size 1028
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.target: amdgcn-amd-amdhsa--gfx1100
amdhsa.kernels:
  - .name: lds
    .symbol: lds.kd
    .args:
      - { .name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 1028
    .private_segment_fixed_size: 0
    .wavefront_size: 32
    .sgpr_count: 10
    .vgpr_count: 9
    .max_flat_workgroup_size: 256
...
.end_amdgpu_metadata
