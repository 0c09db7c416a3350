// 64-bit integer arithmetic assembled from 32-bit halves: carries, wide
// multiplies, funnel shifts and 64-bit compares.
#include "common.h"

kernel void int64_math(global const ulong *a, global const ulong *b, global ulong *out) {
  uint i = global_id_x();
  ulong x = a[i], y = b[i];
  uint s = (uint)y & 63;
  global ulong *o = out + 12 * i;
  o[0] = x + y;
  o[1] = x - y;
  o[2] = x * y;
  o[3] = (ulong)(uint)x * (ulong)(uint)(y >> 32);
  o[4] = x << s;
  o[5] = x >> s;
  o[6] = (ulong)((long)x >> s);
  o[7] = (x < y) | ((ulong)((long)x < (long)y) << 1) | ((ulong)(x == y) << 2);
  o[8] = x > y ? x : y;
  o[9] = (long)x < (long)y ? x : y;
  o[10] = (x << (s | 1)) | (x >> (64 - (s | 1)));
  o[11] = (ulong)(long)(int)x * 0x9E3779B97F4A7C15ul + (y ^ (y >> 29));
}
