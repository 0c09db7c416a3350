"""A code object from a few lines of gfx1100 assembly: one kernel ``k`` taking a kernarg pointer
in s[0:1], assembled and packaged by the in-tree assembler (no LLVM)."""
from assembler.amdgpu.codeobject import build_code_object
from assembler.rdna3 import assemble_program


def code_object(body, name="k", vgprs=8, sgprs=16, user_sgprs=2, kernarg_size=8, directives=""):
    text = f""".amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
.amdhsa_code_object_version 5
.text
.p2align 8
.globl {name}
.type {name},@function
{name}:
{body}
.rodata
.p2align 6
.amdhsa_kernel {name}
  .amdhsa_user_sgpr_count {user_sgprs}
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_kernarg_size {kernarg_size}
  .amdhsa_next_free_vgpr {vgprs}
  .amdhsa_next_free_sgpr {sgprs}
{directives}
.end_amdhsa_kernel
"""
    return build_code_object(assemble_program(text), text)
