// Sub-dword memory traffic: signed and unsigned byte and short loads, byte and
// short stores into neighbouring addresses written by other lanes.
#include "common.h"

kernel void bytes_shorts(global const char *s8, global const uchar *u8,
                         global const short *s16, global const ushort *u16,
                         global short *o16, global uchar *o8, global int *o32) {
  uint i = global_id_x();
  char a = s8[i];
  uchar b = u8[i];
  short c = s16[i];
  ushort d = u16[i];
  int e = s16[i ^ 1];               // only widened: a sign-extending short load
  o16[3 * i] = (short)(a * 3 + c);  // stride 3: the two short stores cannot merge
  o16[3 * i + 2] = (short)(d >> 3) ^ (short)b;
  o8[3 * i] = (uchar)(a + b);
  o8[3 * i + 1] = (uchar)(c >> 4);
  o8[3 * i + 2] = b > 127 ? (uchar)a : (uchar)d;
  o32[i] = (int)a * (int)c + (int)b * (int)d + e * 257;
}
