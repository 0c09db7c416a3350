// A 3D dispatch: every workgroup id and work-item id component is used.
#include "common.h"

kernel void grid3d(global uint *where, global uint *ids) {
  constant hidden_args_t *h = implicit_args();
  uint lx = __builtin_amdgcn_workitem_id_x(), ly = __builtin_amdgcn_workitem_id_y(),
       lz = __builtin_amdgcn_workitem_id_z();
  uint gx = __builtin_amdgcn_workgroup_id_x(), gy = __builtin_amdgcn_workgroup_id_y(),
       gz = __builtin_amdgcn_workgroup_id_z();
  uint X = gx * h->group_size[0] + lx;
  uint Y = gy * h->group_size[1] + ly;
  uint Z = gz * h->group_size[2] + lz;
  uint W = h->block_count[0] * h->group_size[0];
  uint H = h->block_count[1] * h->group_size[1];
  uint flat = (Z * H + Y) * W + X;
  where[flat] = X | (Y << 10) | (Z << 20);
  ids[flat] = lx | (ly << 4) | (lz << 8) | (gx << 12) | (gy << 16) | (gz << 20);
}
