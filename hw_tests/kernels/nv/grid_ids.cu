// Every thread writes its block and thread ids and the grid shape: dispatch shapes in 3 dimensions.
extern "C" __global__ void grid_ids(int *out) {
  int block = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  int thread = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  int *o = out + 8 * (block * blockDim.x * blockDim.y * blockDim.z + thread);
  o[0] = blockIdx.x; o[1] = blockIdx.y; o[2] = blockIdx.z;
  o[3] = threadIdx.x; o[4] = threadIdx.y; o[5] = threadIdx.z;
  o[6] = gridDim.x * gridDim.y * gridDim.z;
  o[7] = blockDim.x * blockDim.y * blockDim.z;
}
