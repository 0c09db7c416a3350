// FP32 multiply-add throughput: 8 independent FFMA chains per thread, `iters` rounds each.
// With m = 1 and c = 1 every accumulator ends at exactly `iters` (each FFMA is exact), so the
// result is checkable while the compiler cannot fold the FFMAs into adds.
extern "C" __global__ void fma_peak(float *out, float m, float c, int iters) {
  float x0 = 0.f, x1 = 0.f, x2 = 0.f, x3 = 0.f, x4 = 0.f, x5 = 0.f, x6 = 0.f, x7 = 0.f;
  for (int i = 0; i < iters; i++) {
    x0 = fmaf(x0, m, c); x1 = fmaf(x1, m, c); x2 = fmaf(x2, m, c); x3 = fmaf(x3, m, c);
    x4 = fmaf(x4, m, c); x5 = fmaf(x5, m, c); x6 = fmaf(x6, m, c); x7 = fmaf(x7, m, c);
  }
  float s = x0;
  s = fminf(s, x1); s = fminf(s, x2); s = fminf(s, x3);
  s = fminf(s, x4); s = fminf(s, x5); s = fminf(s, x6); s = fminf(s, x7);
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
