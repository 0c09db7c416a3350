// Per-workgroup histogram with LDS atomics, merged into global memory with
// global atomics.
#include "common.h"

#define BINS 64

kernel void lds_histogram(global const uint *x, global uint *hist) {
  local uint bins[BINS];
  uint t = __builtin_amdgcn_workitem_id_x();
  if (t < BINS) bins[t] = 0;
  workgroup_barrier();
  __opencl_atomic_fetch_add((volatile local atomic_uint *)&bins[x[global_id_x()] % BINS], 1u,
                            memory_order_relaxed, memory_scope_work_group);
  workgroup_barrier();
  if (t < BINS)
    __opencl_atomic_fetch_add((volatile global atomic_uint *)&hist[t], bins[t],
                              memory_order_relaxed, memory_scope_device);
}
