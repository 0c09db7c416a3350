// C = alpha * A @ B with 16x16 tiles staged through LDS (2D grid, 16x16 blocks).
#include "common.h"

#define TILE 16

kernel void matmul_tiled(global const float *A, global const float *B, global float *C,
                         uint M, uint N, uint K, float alpha) {
  local float As[TILE][TILE];
  local float Bs[TILE][TILE];
  uint tx = __builtin_amdgcn_workitem_id_x(), ty = __builtin_amdgcn_workitem_id_y();
  uint col = global_id_x(), row = global_id_y();
  float acc = 0.0f;
  for (uint k0 = 0; k0 < K; k0 += TILE) {
    As[ty][tx] = A[row * K + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * N + col];
    workgroup_barrier();
    for (uint k = 0; k < TILE; k++) acc = __builtin_fmaf(As[ty][k], Bs[k][tx], acc);
    workgroup_barrier();
  }
  if (row < M && col < N) C[row * N + col] = alpha * acc;
}
