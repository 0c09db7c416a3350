// The hardware transcendental units, reached through amdgcn builtins, next to
// the IEEE-exact square root and division sequences clang expands.
#include "common.h"

kernel void transcendental(global const float *turns, global const float *e,
                           global const float *pos, global const float *den,
                           global float *out) {
  uint i = global_id_x();
  float t = turns[i], x = e[i], p = pos[i], d = den[i];
  global float *o = out + 10 * i;
  o[0] = __builtin_amdgcn_sinf(t);   // sin(2*pi*t)
  o[1] = __builtin_amdgcn_cosf(t);   // cos(2*pi*t)
  o[2] = __builtin_amdgcn_exp2f(x);
  o[3] = __builtin_amdgcn_logf(p);   // log2
  o[4] = __builtin_amdgcn_rsqf(p);
  o[5] = __builtin_amdgcn_rcpf(p);
  o[6] = __builtin_amdgcn_sqrtf(p);
  o[7] = __builtin_sqrtf(p);         // correctly rounded expansion
  o[8] = p / d;                      // OpenCL single-precision division
  o[9] = __builtin_amdgcn_fractf(x * 3.25f);
}
