// A block-wide tree reduction in shared memory with __syncthreads (BAR.SYNC) between steps.
#define BLOCK 256
extern "C" __global__ void smem_reduce(const float *x, float *out, int n) {
  __shared__ float tile[BLOCK];
  int i = blockIdx.x * BLOCK + threadIdx.x;
  tile[threadIdx.x] = i < n ? x[i] : 0.0f;
  __syncthreads();
  for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
    if (threadIdx.x < stride) tile[threadIdx.x] += tile[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = tile[0];
}
