// C = A @ B, 256 x 256 x 256 float32: 64 x 64 blocks of C per work-group of 16 x 16, each
// work-item a 4 x 4 register tile; A and B staged through LDS 16 columns / rows at a time,
// each work-item loading one float4 of each tile.
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
  uint am = tid / 4, ak = (tid % 4) * 4;          // this work-item's float4 of the A tile
  uint bk = tid / 16, bn = (tid % 16) * 4;        // ... and of the B tile
  float acc[4][4] = {{0.0f}};
  for (uint k0 = 0; k0 < K; k0 += BK) {
    float4 a4 = *(global const float4 *)&A[(row0 + am) * K + k0 + ak];
    As[ak + 0][am] = a4.x;                        // A tile stored transposed: As[k][m]
    As[ak + 1][am] = a4.y;
    As[ak + 2][am] = a4.z;
    As[ak + 3][am] = a4.w;
    *(local float4 *)&Bs[bk][bn] = *(global const float4 *)&B[(k0 + bk) * N + col0 + bn];
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
    *(global float4 *)&C[(row0 + ty * 4 + u) * N + col0 + tx * 4] =
        (float4)(acc[u][0], acc[u][1], acc[u][2], acc[u][3]);
}
