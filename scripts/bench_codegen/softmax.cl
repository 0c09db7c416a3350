// Row softmax of a 4096 x 256 matrix: one work-item per row, three passes over it
// (NaN-propagating max, sum of exp2((x - max) * log2 e), scale by 1 / sum).
#include "common.h"
#define ROWS 4096
#define COLS 256

__attribute__((reqd_work_group_size(256, 1, 1)))
kernel void softmax(global float *restrict out, global const float *restrict x) {
  uint r = WG_ID_X * 256 + LID_X;
  global const float *row = x + r * COLS;
  float m = -__builtin_inff();
  for (uint c = 0; c < COLS; c++) m = max_nan(row[c], m);
  float s = 0.0f;
  for (uint c = 0; c < COLS; c++) s += __builtin_exp2f((row[c] - m) * LOG2E);
  float inv = 1.0f / s;
  for (uint c = 0; c < COLS; c++) out[r * COLS + c] = __builtin_exp2f((row[c] - m) * LOG2E) * inv;
}
