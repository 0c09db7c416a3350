// Integer division and remainder (C truncation) in 32 and 64 bits, signed and
// unsigned: the hardware has no divider, clang expands each into a sequence.
#include "common.h"

kernel void int_divmod(global const int *a32, global const int *b32,
                       global const long *a64, global const long *b64,
                       global int *q32, global ulong *q64) {
  uint i = global_id_x();
  int x = a32[i], y = b32[i];
  long X = a64[i], Y = b64[i];
  q32[4 * i + 0] = x / y;
  q32[4 * i + 1] = x % y;
  q32[4 * i + 2] = (int)((uint)x / (uint)y);
  q32[4 * i + 3] = (int)((uint)x % (uint)y);
  q64[4 * i + 0] = (ulong)(X / Y);
  q64[4 * i + 1] = (ulong)(X % Y);
  q64[4 * i + 2] = (ulong)X / (ulong)Y;
  q64[4 * i + 3] = (ulong)X % (ulong)Y;
}
