// Reference kernels for scripts/bench_codegen.py: the same computations the tensor layer asks
// the RDNA3 code generator for, written as an OpenCL programmer would, compiled by
// clang-19 -O3 (no device libraries: clang builtins only). Sizes are compile-time constants
// and work-group sizes are fixed (reqd_work_group_size), as they are for the generated code.
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H

#define WG_ID_X __builtin_amdgcn_workgroup_id_x()
#define WG_ID_Y __builtin_amdgcn_workgroup_id_y()
#define LID_X __builtin_amdgcn_workitem_id_x()
#define LID_Y __builtin_amdgcn_workitem_id_y()
#define LOG2E 1.4426950408889634f

// barrier(CLK_LOCAL_MEM_FENCE) without the library
static inline void workgroup_barrier(void) {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}

// PyTorch's max: NaN wins (fmaxf would drop it)
static inline float max_nan(float a, float b) { return (a > b || a != a) ? a : b; }

#endif
