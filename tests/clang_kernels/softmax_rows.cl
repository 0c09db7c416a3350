// Row softmax, one 256-wide workgroup per row: a max and a sum reduced through LDS trees,
// v_exp_f32 (exp2 of x * log2(e)) and one reciprocal per row.
#include "common.h"

#define WG 256
#define LOG2E 1.44269504088896340736f

static float tree(local float *red, uint tid, float v, int is_max) {
  red[tid] = v;
  workgroup_barrier();
  for (uint s = WG / 2; s > 0; s >>= 1) {
    if (tid < s) {
      float o = red[tid + s];
      red[tid] = is_max ? __builtin_fmaxf(red[tid], o) : red[tid] + o;
    }
    workgroup_barrier();
  }
  float r = red[0];
  workgroup_barrier();
  return r;
}

kernel void softmax_rows(global const float *x, global float *out, uint cols) {
  local float red[WG];
  uint row = __builtin_amdgcn_workgroup_id_x(), tid = __builtin_amdgcn_workitem_id_x();
  global const float *xr = x + row * cols;
  global float *yr = out + row * cols;
  float m = -__builtin_inff();
  for (uint j = tid; j < cols; j += WG) m = __builtin_fmaxf(m, xr[j]);
  m = tree(red, tid, m, 1);
  float s = 0.0f;
  for (uint j = tid; j < cols; j += WG) {
    float d = xr[j] - m;
    float e = __builtin_amdgcn_exp2f(d * LOG2E);
    yr[j] = e;
    s += e;
  }
  s = tree(red, tid, s, 0);
  float inv = __builtin_amdgcn_rcpf(s);
  for (uint j = tid; j < cols; j += WG) yr[j] = yr[j] * inv;
}
