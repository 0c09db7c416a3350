// C = A @ B, 256 x 256 x 256 with float16 inputs and output, accumulated in float32 by
// v_wmma_f32_16x16x16_f16: each wave32 owns one 16 x 16 tile of C, four waves per work-group.
#include "common.h"
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#define M 256
#define N 256
#define K 256

typedef half half16 __attribute__((ext_vector_type(16)));
typedef float float8 __attribute__((ext_vector_type(8)));

__attribute__((reqd_work_group_size(128, 1, 1)))
kernel void matmul_f16(global half *restrict C, global const half *restrict A,
                       global const half *restrict B) {
  uint lane = LID_X % 32, wave = LID_X / 32;
  uint tile = WG_ID_X * 4 + wave;
  uint row0 = (tile / (N / 16)) * 16, col0 = (tile % (N / 16)) * 16;
  float8 acc = (float8)(0.0f);
  for (uint k0 = 0; k0 < K; k0 += 16) {
    half16 a, b;
    for (uint k = 0; k < 16; k++) {
      a[k] = A[(row0 + lane % 16) * K + k0 + k];       // lane: row of A
      b[k] = B[(k0 + k) * N + col0 + lane % 16];       // lane: column of B
    }
    acc = __builtin_amdgcn_wmma_f32_16x16x16_f16_w32(a, b, acc);
  }
  for (uint r = 0; r < 8; r++)                           // lane: rows 2r + lane/16 of column
    C[(row0 + 2 * r + lane / 16) * N + col0 + lane % 16] = (half)acc[r];
}
