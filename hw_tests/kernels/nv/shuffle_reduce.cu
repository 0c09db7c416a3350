// Warp-level reductions: a sum with SHFL.DOWN, a max with SHFL.BFLY (xor), and a ballot count.
extern "C" __global__ void shuffle_reduce(const float *x, float *sums, float *maxes, unsigned *votes, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
  float s = v, m = v;
  for (int off = 16; off > 0; off >>= 1) s += __shfl_down_sync(0xffffffffu, s, off);
  for (int off = 16; off > 0; off >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, off));
  unsigned positive = __ballot_sync(0xffffffffu, v > 0.0f);
  int warp = i / 32;
  if ((threadIdx.x & 31) == 0) {
    sums[warp] = s;
    maxes[warp] = m;
    votes[warp] = __popc(positive);
  }
}
