// Reads the code object v5 hidden arguments and the AQL dispatch packet and
// writes them out, one row per workgroup.
#include "common.h"

typedef struct {                       // leading fields of hsa_kernel_dispatch_packet_t
  ushort header, setup;                // setup bits [1:0]: dimensions
  ushort workgroup_size[3];
  ushort reserved0;
  uint grid_size[3];                   // in work-items
} dispatch_packet_t;

kernel void hidden_args(global uint *out) {
  constant hidden_args_t *h = implicit_args();
  constant uchar *base = (constant uchar *)h;
  constant dispatch_packet_t *d = (constant dispatch_packet_t *)__builtin_amdgcn_dispatch_ptr();
  if (__builtin_amdgcn_workitem_id_x() | __builtin_amdgcn_workitem_id_y() |
      __builtin_amdgcn_workitem_id_z())
    return;
  uint wg = (__builtin_amdgcn_workgroup_id_z() * h->block_count[1] +
             __builtin_amdgcn_workgroup_id_y()) * h->block_count[0] +
            __builtin_amdgcn_workgroup_id_x();
  global uint *o = out + 20 * wg;
  for (int j = 0; j < 3; j++) {
    o[j] = h->block_count[j];
    o[3 + j] = h->group_size[j];
    o[6 + j] = h->remainder[j];
    o[9 + j] = (uint)*(constant ulong *)(base + 40 + 8 * j);   // hidden_global_offset
    o[12 + j] = d->workgroup_size[j];
    o[15 + j] = d->grid_size[j];
  }
  o[18] = *(constant ushort *)(base + 64);                      // hidden_grid_dims
  o[19] = d->setup & 3;
}
