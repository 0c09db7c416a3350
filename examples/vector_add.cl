// c[i] = a[i] + b[i] for i < count, in OpenCL C: the same kernel as vector_add.s, compiled by clang-19
// for gfx1100 and linked by ld.lld-19 (vector_add.py --opencl does both).  The global index is
// built from clang builtins because get_global_id() lives in ROCm's device libraries, which this
// project does without (-nogpulib).
typedef struct {
  uint block_count[3];     // code object v5 hidden arguments, after the explicit ones
  ushort group_size[3];
} hidden_args_t;

kernel void vector_add(global const float *a, global const float *b, global float *c, uint count) {
  constant hidden_args_t *hidden = (constant hidden_args_t *)__builtin_amdgcn_implicitarg_ptr();
  uint i = __builtin_amdgcn_workgroup_id_x() * hidden->group_size[0] + __builtin_amdgcn_workitem_id_x();
  if (i < count)
    c[i] = a[i] + b[i];
}
