// Cross-lane operations within a 32-lane wave: ballot, lane permutes, the
// first active lane's value, and the lane index from mbcnt.
#include "common.h"

kernel void wave_ops(global const uint *x, global uint *out) {
  uint i = global_id_x();
  uint v = x[i];
  uint lane = __builtin_amdgcn_mbcnt_lo(~0u, 0u);
  global uint *o = out + 5 * i;
  o[0] = lane;
  o[1] = __builtin_amdgcn_ballot_w32((v & 3) == 0);
  o[2] = __builtin_amdgcn_ds_bpermute((int)(((lane * 7) & 31) << 2), (int)v);   // pull
  o[3] = __builtin_amdgcn_readfirstlane(v);
  uint r = 0;
  if (v & 1) r = __builtin_amdgcn_readfirstlane(v ^ lane);   // first lane of the odd subset
  o[4] = r;
}
