// 64-bit indexing: a strided gather with long long indices and offsets past 2^32 bytes of address.
extern "C" __global__ void index64(const float *x, float *y, long long n, long long stride, long long base) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  long long j = (i * stride + base) % n;
  y[i] = x[j] * 2.0f + (float)(j & 7);
}
