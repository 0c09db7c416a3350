"""The hand-written bring-up kernels against the LLVM 19 oracle.

1. Each hw_tests/kernels/*.s assembles with llvm-mc-19 and links with ld.lld-19 (so the sources
   are valid gfx1100 code whatever our assembler says).
2. Our assembler's code for each kernel equals llvm-mc-19's, byte for byte (once
   assembler.rdna3.assemble_program exists).
3. The compute stages pass on the virtual GPU running the oracle's code objects: this checks the
   kernels, the stages' numpy references and the simulator together, independently of our
   assembler.
"""
import shutil
import subprocess

import pytest
from elftools.elf.elffile import ELFFile

from assembler.rdna3 import assemble_program
from hw_tests import programs
from hw_tests.context import Context
from hw_tests.runner import Runner
from hw_tests.stages import build_registry

TOOLS = ("llvm-mc-19", "ld.lld-19")
needs_llvm = pytest.mark.skipif(any(shutil.which(t) is None for t in TOOLS),
                                reason="llvm-mc-19 / ld.lld-19 not installed")
COMPUTE_STAGES = [s.name for s in build_registry() if s.name == "first_dispatch" or "first_dispatch" in s.depends or
                  s.name.startswith("peak_")]


def oracle_object(name, tmp):
    """(relocatable object, linked code object) of kernel NAME built by llvm-mc-19 + ld.lld-19."""
    obj, hsaco = tmp / f"{name}.o", tmp / f"{name}.hsaco"
    mc = subprocess.run(["llvm-mc-19", "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx1100", "-filetype=obj",
                         programs.source_path(name), "-o", str(obj)], capture_output=True, text=True)
    assert mc.returncode == 0, mc.stderr
    ld = subprocess.run(["ld.lld-19", "-shared", str(obj), "-o", str(hsaco)], capture_output=True, text=True)
    assert ld.returncode == 0, ld.stderr
    return obj.read_bytes(), hsaco.read_bytes()


def text_section(path_or_bytes):
    import io
    elf = ELFFile(io.BytesIO(path_or_bytes))
    return elf.get_section_by_name(".text").data()


@pytest.fixture(scope="module")
def oracle(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("kernels")
    return {name: oracle_object(name, tmp) for name in programs.kernel_names()}


@needs_llvm
@pytest.mark.parametrize("name", programs.kernel_names())
def test_kernel_assembles_and_links_with_llvm(oracle, name):
    obj, hsaco = oracle[name]
    assert text_section(obj)
    assert hsaco[:4] == b"\x7fELF"


@needs_llvm
@pytest.mark.parametrize("name", programs.kernel_names())
def test_our_assembler_matches_llvm_mc(oracle, name):
    with open(programs.source_path(name)) as f:
        program = assemble_program(f.read(), source=programs.source_path(name))
    want = text_section(oracle[name][0])
    assert bytes(program.data)[:len(want)] == want


@pytest.fixture(scope="module")
def oracle_runner(oracle):
    saved = programs.build
    programs.build = lambda name: oracle[name][1]
    ctx = Context("amd:0", "gfx1100")
    try:
        yield Runner(build_registry(), ctx)
    finally:
        programs.build = saved
        ctx.close()


@needs_llvm
@pytest.mark.parametrize("name", COMPUTE_STAGES)
def test_compute_stage_passes_with_the_oracles_code(oracle_runner, name):
    r = oracle_runner.run_stage(name)
    assert r.status == "PASS", f"{r.status}: {r.error or r.skip_reason}; notes: {r.notes}"
