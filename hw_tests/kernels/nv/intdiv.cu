// Integer division and remainder by run-time divisors, signed and unsigned, 32 and 64 bits.
extern "C" __global__ void intdiv(const int *a, const int *b, int *q, int *r, unsigned *uq,
                                  long long *q64, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int x = a[i], y = b[i];
  q[i] = x / y;
  r[i] = x % y;
  uq[i] = (unsigned)x / (unsigned)y;
  q64[i] = ((long long)x * 1000003LL) / (long long)y;
}
