// Reads the code object v5 hidden arguments through the implicit argument pointer, so the
// metadata note lists hidden_block_count_*, hidden_group_size_*, hidden_remainder_*, ...
typedef struct {
  unsigned block_count[3];
  unsigned short group_size[3];
  unsigned short remainder[3];
} implicit_args_head;

kernel void grid_info(global unsigned *out, unsigned n) {
  const constant implicit_args_head *ia =
      (const constant implicit_args_head *)__builtin_amdgcn_implicitarg_ptr();
  unsigned i = __builtin_amdgcn_workgroup_id_x() * ia->group_size[0] + __builtin_amdgcn_workitem_id_x();
  if (i < n) {
    out[4 * i + 0] = ia->block_count[0];
    out[4 * i + 1] = ia->group_size[0];
    out[4 * i + 2] = ia->remainder[0];
    out[4 * i + 3] = __builtin_amdgcn_workitem_id_y();
  }
}

kernel void lds_reverse(global float *data) {
  local float tile[64];
  unsigned lid = __builtin_amdgcn_workitem_id_x();
  unsigned base = __builtin_amdgcn_workgroup_id_x() * 64;
  tile[lid] = data[base + lid];
  __builtin_amdgcn_s_barrier();
  data[base + lid] = tile[63 - lid];
}

// A dynamically sized LDS argument (dynamic_shared_pointer) plus reads of the dynamic LDS size
// (implicit offset 120) and the queue pointer (offset 200) add hidden_dynamic_lds_size and
// hidden_queue_ptr to the metadata.
kernel void tail(global unsigned *out, local float *scratch) {
  const constant unsigned *ia = (const constant unsigned *)__builtin_amdgcn_implicitarg_ptr();
  unsigned lid = __builtin_amdgcn_workitem_id_x();
  scratch[lid] = (float)lid;
  __builtin_amdgcn_s_barrier();
  out[lid] = ia[120 / 4] + ia[200 / 4] + (unsigned)scratch[63 - lid];
}
