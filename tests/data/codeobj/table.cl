// A constant table holding the address of another constant: ld.lld-19 -shared emits an
// R_AMDGPU_RELATIVE64 dynamic relocation for it, which a loader must apply.
constant int values[4] = {10, 20, 30, 40};
constant int *constant table = values;

kernel void lookup(global int *out) {
  unsigned i = __builtin_amdgcn_workitem_id_x();
  out[i] = table[i & 3];
}
