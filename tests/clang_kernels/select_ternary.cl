// Branch-free selects: clamps, signs and piecewise functions become v_cndmask.
#include "common.h"

kernel void select_ternary(global const int *a, global const int *b, global const float *f,
                           global int *iout, global float *fout) {
  uint i = global_id_x();
  int x = a[i], y = b[i];
  float v = f[i];
  iout[4 * i + 0] = x < -100 ? -100 : (x > 100 ? 100 : x);
  iout[4 * i + 1] = (x > 0) - (x < 0);
  iout[4 * i + 2] = x > y ? x - y : y - x;
  iout[4 * i + 3] = ((uint)x & 1) ? (y & 2 ? x : y) : (x == y ? 7 : -7);
  fout[2 * i + 0] = v < -1.0f ? -1.0f : (v > 1.0f ? v * 0.5f : v * v);
  fout[2 * i + 1] = (x & 4) ? v : -v;
}
