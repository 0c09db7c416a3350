// out = relu(a * b + c) * d + e over 2**20 floats: five operations fused in one kernel,
// each rounded on its own (no contraction: the tensor layer's semantics), NaN kept by relu;
// four neighbouring elements (float4) per work-item.
#include "common.h"
#pragma OPENCL FP_CONTRACT OFF
#define N (1 << 20)

__attribute__((reqd_work_group_size(256, 1, 1)))
kernel void chain(global float4 *restrict out, global const float4 *restrict a,
                  global const float4 *restrict b, global const float4 *restrict c,
                  global const float4 *restrict d, global const float4 *restrict e) {
  uint i = WG_ID_X * 256 + LID_X;
  float4 t = a[i] * b[i];
  t = t + c[i];
  t = (t > 0.0f || t != t) ? t : (float4)(0.0f);
  t = t * d[i];
  out[i] = t + e[i];
}
