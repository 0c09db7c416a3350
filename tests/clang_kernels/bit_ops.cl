// Bit manipulation: population count, leading and trailing zeros, bit and byte
// reversal, rotates and bitfield extraction, in 32 and 64 bits.
#include "common.h"

kernel void bit_ops(global const uint *a, global const ulong *b, global uint *out) {
  uint i = global_id_x();
  uint x = a[i];
  ulong y = b[i];
  global uint *o = out + 10 * i;
  o[0] = __builtin_popcount(x);
  o[1] = x ? __builtin_clz(x) : 32;
  o[2] = x ? __builtin_ctz(x) : 32;
  o[3] = __builtin_bitreverse32(x);
  o[4] = __builtin_bswap32(x);
  o[5] = (x << 7) | (x >> 25);
  o[6] = (x >> 5) & 0x7ff;
  o[7] = (uint)((int)(x << 3) >> 20);
  o[8] = __builtin_popcountl(y);
  o[9] = y ? __builtin_clzl(y) : 64;
}
