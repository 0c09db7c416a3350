// C = A @ B, 256 x 256 x 256 float32: 64 x 64 blocks of C per work-group of 16 x 16, each
// work-item a 4 x 4 register tile; A and B staged through LDS 16 columns / rows at a time.
#include "common.h"
#define M 256
#define N 256
#define K 256
#define BM 64
#define BN 64
#define BK 16

__attribute__((reqd_work_group_size(16, 16, 1)))
kernel void matmul(global float *restrict C, global const float *restrict A,
                   global const float *restrict B) {
  local float As[BK][BM];
  local float Bs[BK][BN];
  uint tx = LID_X, ty = LID_Y, tid = ty * 16 + tx;
  uint row0 = WG_ID_Y * BM, col0 = WG_ID_X * BN;
  float acc[4][4] = {{0.0f}};
  for (uint k0 = 0; k0 < K; k0 += BK) {
    // (the tile loads are unrolled: a plain loop here compiles to exec-masked loops that give
    // wrong results on the simulator at -O2/-O3, a discrepancy under investigation)
    _Pragma("unroll") for (uint i = tid; i < BM * BK; i += 256) {  // A tile, as As[k][m]
      uint m = i / BK, k = i % BK;
      As[k][m] = A[(row0 + m) * K + k0 + k];
    }
    _Pragma("unroll") for (uint i = tid; i < BK * BN; i += 256) {
      uint k = i / BN, n = i % BN;
      Bs[k][n] = B[(k0 + k) * N + col0 + n];
    }
    workgroup_barrier();
    for (uint k = 0; k < BK; k++) {
      float4 a = *(local float4 *)&As[k][ty * 4];
      float4 b = *(local float4 *)&Bs[k][tx * 4];
      float av[4] = {a.x, a.y, a.z, a.w}, bv[4] = {b.x, b.y, b.z, b.w};
      for (uint u = 0; u < 4; u++)
        for (uint v = 0; v < 4; v++) acc[u][v] = __builtin_fmaf(av[u], bv[v], acc[u][v]);
    }
    workgroup_barrier();
  }
  for (uint u = 0; u < 4; u++)
    for (uint v = 0; v < 4; v++) C[(row0 + ty * 4 + u) * N + col0 + tx * 4 + v] = acc[u][v];
}
