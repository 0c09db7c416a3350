// A private array indexed with data-dependent subscripts, too large to keep in
// registers: the compiler places it in scratch memory.
#include "common.h"

kernel void scratch_array(global const uint *x, global const uint *idx, global uint *out, uint n) {
  uint i = global_id_x();
  uint buf[96];
  for (uint j = 0; j < 96; j++) buf[j] = x[(i * 7 + j) % n];
  for (uint j = 0; j < 32; j++) {
    uint k = idx[(i + j) % n] % 96;
    buf[k] = buf[k] * 3 + buf[(k + j) % 96];
  }
  uint acc = 0;
  for (uint j = 0; j < 96; j++) acc = acc * 31 + buf[(j * 5 + i) % 96];
  out[i] = acc;
}
