// y[i] = a * x[i] + y[i]; the global index is built from clang builtins because OpenCL's
// get_global_id() lives in device libraries the fixtures are built without.
kernel void saxpy(global float *y, global const float *x, float a) {
  unsigned i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
  y[i] = a * x[i] + y[i];
}
