"""OpenCL C kernels compiled by clang-19 for gfx1100, with launch cases and numpy references.

The code objects are committed; `cases.CASES` and `cases.run_case` drive them
through any simulator with the signature simulate(code_object_bytes,
kernel_name, grid, block, args).
"""
