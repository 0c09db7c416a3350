// The accurate libdevice-free math of CUDA: sinf/cosf (range reduction, with a local-memory slow path
// for huge arguments), expf, logf, sqrtf, rsqrtf, IEEE division (FCHK + a CALL to the slow path),
// and the fast __expf / __sinf intrinsics (MUFU).
extern "C" __global__ void transcendental(const float *x, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  float *o = out + 9 * i;
  o[0] = sinf(v);
  o[1] = cosf(v);
  o[2] = expf(v * 0.125f);
  o[3] = logf(fabsf(v) + 1.0f);
  o[4] = sqrtf(fabsf(v));
  o[5] = rsqrtf(fabsf(v) + 0.5f);
  o[6] = 1.0f / v;
  o[7] = __expf(v * 0.0625f);
  o[8] = __sinf(v);
}
