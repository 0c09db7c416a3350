// The sum of 2**20 floats in one work-group of 256: each work-item adds every 256th element,
// then the partial sums meet in LDS (a tree, one barrier per level).
#include "common.h"
#define N (1 << 20)
#define WG 256

__attribute__((reqd_work_group_size(WG, 1, 1)))
kernel void sum(global float *restrict out, global const float *restrict x) {
  local float part[WG];
  uint t = LID_X;
  float acc = 0.0f;
  for (uint i = t; i < N; i += WG) acc += x[i];
  part[t] = acc;
  workgroup_barrier();
  for (uint s = WG / 2; s > 0; s >>= 1) {
    if (t < s) part[t] += part[t + s];
    workgroup_barrier();
  }
  if (t == 0) out[0] = part[0];
}
