// Exact single-precision arithmetic: every result is bit-comparable with numpy.
#include "common.h"

kernel void f32_elementwise(global const float *a, global const float *b,
                            global const float *c, global float *out,
                            global int *iout, uint n) {
  uint i = global_id_x();
  if (i >= n) return;
  float x = a[i], y = b[i], z = c[i];
  global float *o = out + 12 * i;
  float p = x * y;                  // separate statements: no fma contraction
  o[0] = p + z;
  o[1] = __builtin_fmaf(x, y, z);
  o[2] = __builtin_fminf(x, y);
  o[3] = __builtin_fmaxf(x, y);
  o[4] = __builtin_fabsf(x) - y;
  o[5] = __builtin_floorf(x);
  o[6] = __builtin_ceilf(x);
  o[7] = __builtin_truncf(x);
  o[8] = __builtin_rintf(x);
  o[9] = __builtin_copysignf(y, x);
  o[10] = (float)(int)z;            // z is finite and in int range
  o[11] = (float)as_uint(y);        // u32 -> f32 rounds to nearest even
  iout[2 * i] = (int)z;             // f32 -> i32 truncates toward zero
  iout[2 * i + 1] = (int)__builtin_ldexpf(z, 3);
}
