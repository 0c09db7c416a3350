"""The examples run as a new user runs them, and the hand-written kernel means the same to llvm-mc-19."""
import io
import os
import shutil
import subprocess
import sys

import pytest
from elftools.elf.elffile import ELFFile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = os.path.join(ROOT, "examples")
LLVM = ("clang-19", "llvm-mc-19", "ld.lld-19")


def run_example(*args):
    env = {k: v for k, v in os.environ.items() if k != "GPU_EMULATE"}
    return subprocess.run([sys.executable, os.path.join(EXAMPLES, "vector_add.py"), *args], cwd=EXAMPLES, env=env,
                          capture_output=True, text=True, timeout=300)


def test_assembly_example_runs_on_the_virtual_gpu():
    proc = run_example("--emulate", "gfx1100", "-n", "1000")
    assert proc.returncode == 0, proc.stderr
    assert "vector_add.s (rdna3 assembler) on gfx1100: 1000 elements in 4 workgroups of 256" in proc.stdout
    assert "largest error vs numpy 0.0" in proc.stdout


@pytest.mark.skipif(any(shutil.which(t) is None for t in LLVM[::2]), reason="clang-19 / ld.lld-19 not installed")
def test_opencl_example_runs_on_the_virtual_gpu():
    proc = run_example("--emulate", "gfx1100", "--opencl", "-n", "777")
    assert proc.returncode == 0, proc.stderr
    assert "vector_add.cl (clang-19) on gfx1100: 777 elements in 4 workgroups" in proc.stdout
    assert "largest error vs numpy 0.0" in proc.stdout


def test_without_a_gpu_the_example_points_to_the_emulator():
    if os.path.exists("/dev/kfd"):
        pytest.skip("this machine has /dev/kfd")
    proc = run_example("-n", "10")
    assert proc.returncode == 1 and "--emulate gfx1100" in proc.stderr and "Traceback" not in proc.stderr


def _text(data):
    return ELFFile(io.BytesIO(data)).get_section_by_name(".text").data()


@pytest.mark.skipif(any(shutil.which(t) is None for t in LLVM[1:]), reason="llvm-mc-19 / ld.lld-19 not installed")
def test_llvm_mc_assembles_the_example_to_the_same_code(tmp_path):
    from assembler.amdgpu import load_code_object
    sys.path.insert(0, EXAMPLES)
    try:
        import vector_add
    finally:
        sys.path.remove(EXAMPLES)
    ours = vector_add.assembled()
    obj, so = tmp_path / "v.o", tmp_path / "v.hsaco"
    subprocess.run(["llvm-mc-19", "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx1100", "-filetype=obj",
                    os.path.join(EXAMPLES, "vector_add.s"), "-o", str(obj)], check=True)
    subprocess.run(["ld.lld-19", "-shared", str(obj), "-o", str(so)], check=True)
    theirs = so.read_bytes()
    assert _text(ours) == _text(theirs)
    a, b = load_code_object(ours).kernels["vector_add"], load_code_object(theirs).kernels["vector_add"]
    fields = ("compute_pgm_rsrc1", "compute_pgm_rsrc2", "compute_pgm_rsrc3", "kernel_code_properties", "kernarg_size")
    assert [getattr(a.descriptor, f) for f in fields] == [getattr(b.descriptor, f) for f in fields]
    assert [(x.offset, x.size, x.value_kind) for x in a.metadata.args] == \
        [(x.offset, x.size, x.value_kind) for x in b.metadata.args]
