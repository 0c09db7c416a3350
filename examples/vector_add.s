; c[i] = a[i] + b[i] for i < count: a gfx1100 (RDNA3) compute kernel written by hand, in LLVM's
; AMDGPU syntax, so `python -m assembler.rdna3 asm` and llvm-mc-19 read it the same way.
;
; Launch with one work-item per element (vector_add.py does):
;     prg["vector_add"](a, b, c, count, grid=(groups,), block=(256,))
; `grid` counts workgroups and `block` is the workgroup shape; the runtime packs a, b, c and count at
; the offsets the metadata below declares, then the hidden arguments the kernel reads.

.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
.amdhsa_code_object_version 5

.text
.p2align 8                              ; a kernel's entry must be 256-byte aligned
.globl vector_add
.type vector_add,@function
vector_add:
  ; On entry (see the .amdhsa_kernel block): s[0:1] = kernarg segment address (the two user
  ; SGPRs), s2 = workgroup id X (the first system SGPR after them), v0 = work-item ids packed as
  ; X[9:0] Y[19:10] Z[29:20]. Lanes of a partial last wave have EXEC clear.
  s_load_b256 s[4:11], s[0:1], 0x0      ; a -> s[4:5], b -> s[6:7], c -> s[8:9], count -> s10
  s_load_b32 s12, s[0:1], 0x2c          ; hidden_group_size_x (u16) | hidden_group_size_y << 16
  v_and_b32_e32 v0, 0x3ff, v0           ; work-item id X
  s_waitcnt lgkmcnt(0)                  ; the scalar loads above have landed
  s_and_b32 s12, s12, 0xffff            ; workgroup size X
  s_mul_i32 s13, s2, s12                ; first element of this workgroup
  v_add_nc_u32_e32 v0, s13, v0          ; i = workgroup id * size + work-item id
  v_cmp_gt_u32_e32 vcc_lo, s10, v0      ; i < count ?
  s_and_saveexec_b32 s14, vcc_lo        ; lanes past the end switch off...
  s_cbranch_execz .Ldone                ; ...and if none is left, the wave is done
  v_lshlrev_b32_e32 v0, 2, v0           ; byte offset of element i
  global_load_b32 v1, v0, s[4:5]        ; a[i]
  global_load_b32 v2, v0, s[6:7]        ; b[i]
  s_waitcnt vmcnt(0)                    ; both loads have returned (the virtual GPU checks this)
  v_add_f32_e32 v1, v1, v2
  global_store_b32 v0, v1, s[8:9]       ; c[i]
.Ldone:
  s_endpgm

; The kernel descriptor: what the command processor sets up before the first instruction.
.rodata
.p2align 6
.amdhsa_kernel vector_add
  .amdhsa_user_sgpr_count 2                 ; s[0:1] ...
  .amdhsa_user_sgpr_kernarg_segment_ptr 1   ; ... hold the kernarg segment address
  .amdhsa_system_sgpr_workgroup_id_x 1      ; s2 = workgroup id X
  .amdhsa_system_vgpr_workitem_id 0         ; v0 = work-item ids
  .amdhsa_kernarg_size 56
  .amdhsa_next_free_vgpr 3                  ; v0..v2
  .amdhsa_next_free_sgpr 15                 ; s0..s14
  .amdhsa_wavefront_size32 1
.end_amdhsa_kernel

; The metadata a launch needs: where each argument goes and what it is (code object v5).
.amdgpu_metadata
---
amdhsa.version:
  - 1
  - 2
amdhsa.target: amdgcn-amd-amdhsa--gfx1100
amdhsa.kernels:
  - .name: vector_add
    .symbol: vector_add.kd
    .args:
      - { .name: a, .type_name: 'float*', .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: b, .type_name: 'float*', .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: c, .type_name: 'float*', .offset: 16, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: count, .type_name: uint, .offset: 24, .size: 4, .value_kind: by_value }
      - { .offset: 32, .size: 4, .value_kind: hidden_block_count_x }
      - { .offset: 36, .size: 4, .value_kind: hidden_block_count_y }
      - { .offset: 40, .size: 4, .value_kind: hidden_block_count_z }
      - { .offset: 44, .size: 2, .value_kind: hidden_group_size_x }
      - { .offset: 46, .size: 2, .value_kind: hidden_group_size_y }
      - { .offset: 48, .size: 2, .value_kind: hidden_group_size_z }
    .kernarg_segment_size: 56
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 32
    .sgpr_count: 15
    .vgpr_count: 3
    .max_flat_workgroup_size: 1024
...
.end_amdgpu_metadata
