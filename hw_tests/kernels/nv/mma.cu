// One warp multiplies a 16x16 half tile by a 16x8 one into a 16x8 float tile with the tensor cores:
// mma.sync.aligned.m16n8k16 (HMMA), fragments loaded by hand as the PTX ISA lays them out.
#include <cuda_fp16.h>
extern "C" __global__ void mma_f16(const __half *A, const __half *B, float *C) {
  int lane = threadIdx.x & 31, group = lane >> 2, tig = lane & 3;
  unsigned a[4], b[2];
  float d[4] = {0.f, 0.f, 0.f, 0.f};
  for (int r = 0; r < 4; r++) {
    int row = group + 8 * (r & 1), col = tig * 2 + 8 * (r >> 1);
    __half2 h = __halves2half2(A[row * 16 + col], A[row * 16 + col + 1]);
    a[r] = *(unsigned *)&h;
  }
  for (int r = 0; r < 2; r++) {
    int k = tig * 2 + 8 * r, col = group;
    __half2 h = __halves2half2(B[k * 8 + col], B[(k + 1) * 8 + col]);
    b[r] = *(unsigned *)&h;
  }
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
               "{%0,%1,%2,%3};"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  for (int r = 0; r < 4; r++) {
    int row = group + 8 * (r >> 1), col = tig * 2 + (r & 1);
    C[row * 8 + col] = d[r];
  }
}
