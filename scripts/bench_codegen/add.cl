// out = a + b over 2**20 floats, four neighbouring elements (one float4) per work-item.
#include "common.h"
#define N (1 << 20)

__attribute__((reqd_work_group_size(256, 1, 1)))
kernel void add(global float4 *restrict out, global const float4 *restrict a,
                global const float4 *restrict b) {
  uint i = WG_ID_X * 256 + LID_X;
  out[i] = a[i] + b[i];
}
