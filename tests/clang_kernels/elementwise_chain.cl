// A long chain of exact single-precision operations per element, the shape of a fused
// elementwise kernel: fma, mul, add, max and min twelve times over (fully unrolled).
#include "common.h"

kernel void elementwise_chain(global const float *x, global const float *y, global float *out, uint n) {
  uint i = global_id_x();
  if (i >= n) return;
  float a = x[i], b = y[i];
  float t = a;
#pragma unroll
  for (int k = 0; k < 12; k++) {
    t = __builtin_fmaf(t, 0.5f + 0.0625f * k, b);
    float u = t * a;                  // separate statements: no fma contraction
    t = u + t;
    t = __builtin_fminf(__builtin_fmaxf(t, -8.0f), 8.0f);
  }
  out[i] = t;
}
