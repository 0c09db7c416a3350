"""WMMA register layout checked against clang-19: kernels written with the documented gfx11 wave32
layout (lane l holds row / column l % 16 of A / B, element 2r + l // 16 of C in VGPR r) are
compiled by clang-19 and run on the wave simulator; the results must equal numpy's matmul.
Skipped when clang-19 / ld.lld-19 are absent."""
import os
import shutil
import subprocess

import numpy as np
import pytest

from drivers.emu import simulate

pytestmark = pytest.mark.skipif(not (shutil.which("clang-19") and shutil.which("ld.lld-19")),
                                reason="clang-19 and ld.lld-19 are the oracle here")

SOURCE = r"""
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
typedef half v16h __attribute__((ext_vector_type(16)));
typedef short v16s __attribute__((ext_vector_type(16)));
typedef float v8f __attribute__((ext_vector_type(8)));
typedef int v8i __attribute__((ext_vector_type(8)));
typedef int v4i __attribute__((ext_vector_type(4)));

kernel void f32_f16(global const half *a, global const half *b, global float *c) {
  unsigned l = __builtin_amdgcn_workitem_id_x();
  v16h av, bv; v8f cv;
  for (int k = 0; k < 16; k++) { av[k] = a[16 * (l % 16) + k]; bv[k] = b[16 * k + l % 16]; }
  for (int r = 0; r < 8; r++) cv[r] = c[16 * (2 * r + l / 16) + l % 16];
  cv = __builtin_amdgcn_wmma_f32_16x16x16_f16_w32(av, bv, cv);
  for (int r = 0; r < 8; r++) c[16 * (2 * r + l / 16) + l % 16] = cv[r];
}

kernel void f16_f16(global const half *a, global const half *b, global half *c) {
  unsigned l = __builtin_amdgcn_workitem_id_x();
  v16h av, bv, cv = 0;
  for (int k = 0; k < 16; k++) { av[k] = a[16 * (l % 16) + k]; bv[k] = b[16 * k + l % 16]; }
  for (int r = 0; r < 8; r++) cv[2 * r] = c[16 * (2 * r + l / 16) + l % 16];
  cv = __builtin_amdgcn_wmma_f16_16x16x16_f16_w32(av, bv, cv, false);
  for (int r = 0; r < 8; r++) c[16 * (2 * r + l / 16) + l % 16] = cv[2 * r];
}

kernel void f32_bf16(global const short *a, global const short *b, global float *c) {
  unsigned l = __builtin_amdgcn_workitem_id_x();
  v16s av, bv; v8f cv;
  for (int k = 0; k < 16; k++) { av[k] = a[16 * (l % 16) + k]; bv[k] = b[16 * k + l % 16]; }
  for (int r = 0; r < 8; r++) cv[r] = c[16 * (2 * r + l / 16) + l % 16];
  cv = __builtin_amdgcn_wmma_f32_16x16x16_bf16_w32(av, bv, cv);
  for (int r = 0; r < 8; r++) c[16 * (2 * r + l / 16) + l % 16] = cv[r];
}

kernel void i32_iu8(global const int *a, global const int *b, global int *c) {
  unsigned l = __builtin_amdgcn_workitem_id_x();
  v4i av, bv; v8i cv;
  for (int v = 0; v < 4; v++) { av[v] = a[4 * (l % 16) + v]; bv[v] = b[4 * (l % 16) + v]; }
  for (int r = 0; r < 8; r++) cv[r] = c[16 * (2 * r + l / 16) + l % 16];
  cv = __builtin_amdgcn_wmma_i32_16x16x16_iu8_w32(true, av, false, bv, cv, false);
  for (int r = 0; r < 8; r++) c[16 * (2 * r + l / 16) + l % 16] = cv[r];
}
"""


@pytest.fixture(scope="module")
def code_object(tmp_path_factory):
    d = tmp_path_factory.mktemp("wmma")
    src, obj, hsaco = (os.path.join(d, n) for n in ("wmma.cl", "wmma.o", "wmma.hsaco"))
    with open(src, "w") as f:
        f.write(SOURCE)
    for cmd in (["clang-19", "-target", "amdgcn-amd-amdhsa", "-mcpu=gfx1100", "-O3", "-x", "cl",
                 "-cl-std=CL2.0", "-nogpulib", "-c", "wmma.cl", "-o", obj],
                ["ld.lld-19", "-shared", obj, "-o", hsaco]):
        done = subprocess.run(cmd, cwd=d, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
    with open(hsaco, "rb") as f:
        return f.read()


rng = np.random.default_rng(1100)


def test_f32_accumulator_f16(code_object):
    a = rng.uniform(-2, 2, (16, 16)).astype(np.float16)
    b = rng.uniform(-2, 2, (16, 16)).astype(np.float16)
    c = rng.uniform(-2, 2, (16, 16)).astype(np.float32)
    want = (a.astype(np.float64) @ b.astype(np.float64) + c).astype(np.float32)
    args = [a.reshape(-1).copy(), b.reshape(-1).copy(), c.reshape(-1).copy()]
    simulate(code_object, "f32_f16", (1,), (32,), args)
    assert np.array_equal(args[2].reshape(16, 16), want)


def test_f16_accumulator(code_object):
    a = rng.uniform(-1, 1, (16, 16)).astype(np.float16)
    b = rng.uniform(-1, 1, (16, 16)).astype(np.float16)
    c = rng.uniform(-1, 1, (16, 16)).astype(np.float16)
    want = (a.astype(np.float64) @ b.astype(np.float64) + c).astype(np.float16)
    args = [a.reshape(-1).copy(), b.reshape(-1).copy(), c.reshape(-1).copy()]
    simulate(code_object, "f16_f16", (1,), (32,), args)
    assert np.array_equal(args[2].reshape(16, 16), want)


def test_f32_accumulator_bf16(code_object):
    def bf16(x):
        bits = x.astype(np.float32).view(np.uint32).astype(np.uint64)
        return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)
    a, b = bf16(rng.uniform(-2, 2, (16, 16))), bf16(rng.uniform(-2, 2, (16, 16)))
    c = rng.uniform(-2, 2, (16, 16)).astype(np.float32)
    val = lambda h: (h.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    want = (val(a) @ val(b) + c).astype(np.float32)
    args = [a.view(np.int16).reshape(-1).copy(), b.view(np.int16).reshape(-1).copy(),
            c.reshape(-1).copy()]
    simulate(code_object, "f32_bf16", (1,), (32,), args)
    assert np.array_equal(args[2].reshape(16, 16), want)


def test_i32_iu8_signed_a_unsigned_b(code_object):
    a = rng.integers(-128, 128, (16, 16)).astype(np.int8)        # row-major A
    b = rng.integers(0, 256, (16, 16)).astype(np.uint8)          # B[k, n]
    c = rng.integers(-2**20, 2**20, (16, 16)).astype(np.int32)
    want = a.astype(np.int64) @ b.astype(np.int64) + c
    b_by_column = np.ascontiguousarray(b.T)                      # lane n reads column n along K
    args = [a.reshape(-1).view(np.int32).copy(), b_by_column.reshape(-1).view(np.int32).copy(),
            c.reshape(-1).copy()]
    simulate(code_object, "i32_iu8", (1,), (32,), args)
    assert np.array_equal(args[2].reshape(16, 16).astype(np.int64), want)
