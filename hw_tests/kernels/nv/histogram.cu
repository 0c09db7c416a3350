// Atomics: a per-block histogram with shared-memory atomicAdd, merged with global atomicAdd, plus a
// global atomicMax and atomicCAS-free atomicExch counter.
#define BINS 64
extern "C" __global__ void histogram(const unsigned *x, unsigned *bins, unsigned *maximum, int n) {
  __shared__ unsigned local[BINS];
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    atomicAdd(&local[x[i] % BINS], 1u);
    atomicMax(maximum, x[i]);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += blockDim.x)
    if (local[b]) atomicAdd(&bins[b], local[b]);
}
