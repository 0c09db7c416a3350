// Divergent control flow: data-dependent trip counts, nested ifs, break and
// continue, so lanes of one wave leave loops at different iterations.
#include "common.h"

kernel void divergent_loops(global const uint *x, global uint *steps, global uint *peak,
                            global uint *klass, global uint *digits) {
  uint i = global_id_x();
  uint v = x[i], n = 0, top = v;
  while (v != 1 && n < 500) {        // Collatz
    v = (v & 1) ? 3 * v + 1 : v >> 1;
    top = v > top ? v : top;
    n++;
  }
  steps[i] = n;
  peak[i] = top;

  uint k;
  uint w = x[i];
  if (w % 3 == 0) {
    if (w % 5 == 0) k = 15;
    else k = 3;
  } else if (w % 5 == 0) {
    k = 5;
  } else {
    if (w & 1) k = (w % 7 == 0) ? 7 : 1;
    else k = 2;
  }
  klass[i] = k;

  uint sum = 0;
  for (uint d = w; d != 0; d /= 10) {
    uint digit = d % 10;
    if (digit == 0) continue;
    if (digit == 9) break;
    sum += digit * digit;
  }
  digits[i] = sum;
}
