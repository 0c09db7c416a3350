// A per-thread array indexed at run time lives in local memory (STL/LDL against the stack pointer).
extern "C" __global__ void local_array(const int *idx, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int table[24];
  for (int k = 0; k < 24; k++) table[k] = (k * 7 + i) ^ (k << 3);
  int a = idx[i] % 24, b = (idx[i] / 24) % 24;
  table[a] += table[b];
  out[i] = table[a] - table[(a + 5) % 24];
}
