// Work-item geometry and synchronisation from clang builtins alone, so the
// kernels link with -nogpulib (no ROCm device libraries).
#ifndef CLANG_KERNELS_COMMON_H
#define CLANG_KERNELS_COMMON_H

// Leading fields of the code object v5 hidden kernel arguments
// (AMDGPUUsage, "Code Object V5 Metadata"): the runtime places them after
// the explicit arguments; __builtin_amdgcn_implicitarg_ptr() points at them.
typedef struct {
  uint block_count[3];   // offset 0: workgroups per dimension
  ushort group_size[3];  // offset 12: work-items per workgroup
  ushort remainder[3];   // offset 18: size of a partial last workgroup
} hidden_args_t;

static inline constant hidden_args_t *implicit_args(void) {
  return (constant hidden_args_t *)__builtin_amdgcn_implicitarg_ptr();
}

static inline uint global_id_x(void) {
  return __builtin_amdgcn_workgroup_id_x() * implicit_args()->group_size[0] +
         __builtin_amdgcn_workitem_id_x();
}

static inline uint global_id_y(void) {
  return __builtin_amdgcn_workgroup_id_y() * implicit_args()->group_size[1] +
         __builtin_amdgcn_workitem_id_y();
}

static inline uint global_size_x(void) {
  return implicit_args()->block_count[0] * implicit_args()->group_size[0];
}

// barrier(CLK_LOCAL_MEM_FENCE) without the library: make LDS writes visible
// to the workgroup, rendezvous, then acquire the other waves' writes.
static inline void workgroup_barrier(void) {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}

#endif
