// Waits until the host (or another kernel) sets *flag, then acknowledges in flag[1]: a kernel that
// never ends unless released, for hang detection and host-to-kernel signalling.
extern "C" __global__ void spin(volatile int *flag) {
  while (flag[0] == 0) {
  }
  if (threadIdx.x == 0 && blockIdx.x == 0) flag[1] = flag[0];
}
