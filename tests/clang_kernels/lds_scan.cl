// Inclusive prefix sum of 128 uints per workgroup (Hillis-Steele, double-buffered in LDS).
#include "common.h"

kernel void lds_scan(global const uint *x, global uint *scan, global uint *totals) {
  local uint buf[2][128];
  uint t = __builtin_amdgcn_workitem_id_x();
  uint i = global_id_x();
  uint src = 0;
  buf[0][t] = x[i];
  workgroup_barrier();
  for (uint off = 1; off < 128; off <<= 1) {
    uint v = buf[src][t];
    if (t >= off) v += buf[src][t - off];
    buf[src ^ 1][t] = v;
    src ^= 1;
    workgroup_barrier();
  }
  scan[i] = buf[src][t];
  if (t == 127) totals[__builtin_amdgcn_workgroup_id_x()] = buf[src][t];
}
