// Tree reduction of 256 floats per workgroup in LDS, with barriers between levels.
#include "common.h"

kernel void lds_reduce(global const float *x, global float *partial) {
  local float s[256];
  uint t = __builtin_amdgcn_workitem_id_x();
  s[t] = x[global_id_x()];
  workgroup_barrier();
  for (uint stride = 128; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    workgroup_barrier();
  }
  if (t == 0) partial[__builtin_amdgcn_workgroup_id_x()] = s[0];
}
