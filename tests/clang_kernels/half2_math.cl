// Packed half-precision arithmetic (v_pk_*) and f16 <-> f32 conversions.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#include "common.h"

kernel void half2_math(global const half2 *a, global const half2 *b, global const half2 *c,
                       global half2 *out, global float *fout) {
  uint i = global_id_x();
  half2 x = a[i], y = b[i], z = c[i];
  out[5 * i + 0] = x + y;
  out[5 * i + 1] = x * y;
  out[5 * i + 2] = __builtin_elementwise_fma(x, y, z);
  out[5 * i + 3] = __builtin_elementwise_min(x, y);
  out[5 * i + 4] = __builtin_elementwise_max(x - z, y);
  fout[2 * i] = (float)x.s0 * (float)y.s1;
  half h = (half)((float)z.s0 * 1.5f);   // f32 -> f16 rounds to nearest even
  fout[2 * i + 1] = (float)h;
}
