"""The whole path from assembly text to results runs with no vendor SDK or LLVM at run time:
assembler -> code object -> AMDDevice on the virtual GPU -> numpy, in a process whose PATH holds
no tools, where starting any program is an error, and which imports only the allowed packages."""
import os
import subprocess
import sys
import textwrap

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

KERNEL = """
.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
.text
.globl scale
.p2align 8
.type scale,@function
scale:
  s_load_b128 s[4:7], s[0:1], 0x0
  v_lshlrev_b32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  global_load_b32 v2, v1, s[4:5]
  s_waitcnt vmcnt(0)
  v_fma_f32 v2, v2, 2.0, 1.0
  global_store_b32 v1, v2, s[6:7]
  s_endpgm
.rodata
.p2align 6
.amdhsa_kernel scale
  .amdhsa_next_free_vgpr 3
  .amdhsa_next_free_sgpr 8
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_kernarg_size 16
  .amdhsa_wavefront_size32 1
.end_amdhsa_kernel
.amdgpu_metadata
---
amdhsa.kernels:
  - .args:
      - .address_space: global
        .offset: 0
        .size: 8
        .value_kind: global_buffer
      - .address_space: global
        .offset: 8
        .size: 8
        .value_kind: global_buffer
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 16
    .max_flat_workgroup_size: 256
    .name: scale
    .private_segment_fixed_size: 0
    .sgpr_count: 8
    .symbol: scale.kd
    .vgpr_count: 3
    .wavefront_size: 32
amdhsa.target: amdgcn-amd-amdhsa--gfx1100
amdhsa.version:
  - 1
  - 2
...
.end_amdgpu_metadata
"""

SCRIPT = textwrap.dedent("""
    import os, subprocess, sys
    at_start = set(sys.modules)                 # interpreter start-up and site hooks
    def refuse(*a, **k):
        raise AssertionError(f"a program was started at run time: {a[:1]}")
    subprocess.Popen = refuse
    for name in ("system", "execv", "execve", "execvp", "execvpe", "posix_spawn", "posix_spawnp"):
        setattr(os, name, refuse)

    import numpy as np
    from assembler.amdgpu.codeobject import build_code_object
    from assembler.rdna3 import assemble_program
    from drivers.amd import AMDDevice

    source = sys.stdin.read()
    code_object = build_code_object(assemble_program(source), source)
    x = np.linspace(-3, 3, 256, dtype=np.float32)
    with AMDDevice(emulate="gfx1100") as dev:
        a, b = dev.alloc(x.nbytes), dev.alloc(x.nbytes)
        a.copyin(x)
        dev.load(code_object)["scale"](a, b, grid=(1, 1, 1), block=(256, 1, 1), wait=True)
        y = np.zeros_like(x)
        b.copyout(y)
    want = (x.astype(np.float64) * 2 + 1).astype(np.float32)      # exact: fma rounds once
    assert np.array_equal(y, want), (y[:4], want[:4])

    ours = {"drivers", "assembler", "kfd_ioctl", "nv_ioctl", "tensor", "hw_tests"}
    # the four run-time dependencies (pycparser is cffi's own parser)
    allowed = set(sys.stdlib_module_names) | ours | {"numpy", "cffi", "_cffi_backend", "pycparser",
                                                     "elftools", "capstone"}
    foreign = sorted({m.split(".")[0] for m in set(sys.modules) - at_start} - allowed)
    assert not foreign, f"imported outside the allowed run-time dependencies: {foreign}"
    print("ok")
""")


def test_assembly_to_results_needs_no_vendor_sdk(tmp_path):
    env = {"PATH": str(tmp_path), "PYTHONPATH": ROOT, "HOME": str(tmp_path)}
    res = subprocess.run([sys.executable, "-c", SCRIPT], input=KERNEL, capture_output=True, text=True,
                         cwd=tmp_path, env=env, timeout=120)
    assert res.returncode == 0 and res.stdout.strip() == "ok", res.stderr[-3000:]
