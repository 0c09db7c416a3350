// Divergent control flow: a data-dependent loop (Collatz steps, capped), a switch, and an early
// return, so lanes of one warp take different paths and reconverge (BSSY/BSYNC, predicated BRA).
extern "C" __global__ void divergent(const int *x, int *steps, int *kind, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v = x[i];
  int s = 0;
  while (v > 1 && s < 200) {
    v = (v & 1) ? 3 * v + 1 : v >> 1;
    s++;
  }
  steps[i] = s;
  int k;
  switch (x[i] % 5) {
    case 0: k = 10; break;
    case 1: k = x[i] * 3; break;
    case 2: k = -x[i]; break;
    case 3: k = s + 7; break;
    default: k = x[i] ^ 0x5a5a;
  }
  if (threadIdx.x & 1) k += 1000;
  kind[i] = k;
}
