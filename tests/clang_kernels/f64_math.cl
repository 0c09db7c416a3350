// Double precision: the exact operations and the correctly rounded division
// and square root sequences clang expands around v_rcp_f64 / v_rsq_f64.
#include "common.h"

kernel void f64_math(global const double *a, global const double *b, global const float *f,
                     global double *out) {
  uint i = global_id_x();
  double x = a[i], y = b[i];
  global double *o = out + 7 * i;
  double p = x * y;
  o[0] = x + y;
  o[1] = p - x;
  o[2] = x / y;
  o[3] = __builtin_sqrt(__builtin_fabs(x));
  o[4] = (double)f[i] * 3.0;
  o[5] = (double)(float)(x * 1e-3);
  o[6] = __builtin_fmin(x, y) + __builtin_floor(y);
}
