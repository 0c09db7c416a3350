"""The cffi modules generated ahead of time (scripts/gen_ffi_modules.py) match their declarations,
and the CLIs that only probe do not import what they do not use."""
import importlib.util
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _generator():
    spec = importlib.util.spec_from_file_location("gen_ffi_modules", os.path.join(ROOT, "scripts", "gen_ffi_modules.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("index", [0, 1])
def test_committed_module_is_what_the_generator_writes(index):
    gen = _generator()
    rel, name, cdef, source = gen.modules()[index]
    with open(os.path.join(ROOT, rel)) as f:
        assert f.read() == gen.render(name, cdef, source), f"{rel} is stale: run python scripts/gen_ffi_modules.py"


def test_struct_layouts_match_a_parse_at_run_time():
    import cffi

    import kfd_ioctl
    from kfd_ioctl.cdefs import CDEF
    live = cffi.FFI()
    live.cdef(CDEF)
    for tag in kfd_ioctl.STRUCT_NAMES:
        assert kfd_ioctl.ffi.sizeof(f"struct {tag}") == live.sizeof(f"struct {tag}"), tag
        assert [(n, f.offset) for n, f in kfd_ioctl.ffi.typeof(f"struct {tag}").fields] == \
            [(n, f.offset) for n, f in live.typeof(f"struct {tag}").fields], tag


def _modules_after(code):
    out = subprocess.run([sys.executable, "-c", code + "\nimport sys\nprint(' '.join(sorted(sys.modules)))"],
                         capture_output=True, text=True, cwd=ROOT, check=True)
    return set(out.stdout.split())


def test_probe_and_assembler_imports_stay_small():
    probe = _modules_after("import runpy, sys\nsys.argv = ['probe', '--sysfs-root', '/nonexistent']\n"
                           "try:\n    runpy.run_module('drivers.amd.probe', run_name='__main__')\n"
                           "except SystemExit:\n    pass")
    assert "pycparser" not in probe and "numpy" not in probe, sorted(probe & {"pycparser", "numpy"})
    asm = _modules_after("import assembler.rdna3.__main__, assembler.rdna3.asm, assembler.rdna3.disasm")
    assert not asm & {"dataclasses", "numpy", "elftools", "pycparser", "ast"}, sorted(
        asm & {"dataclasses", "numpy", "elftools", "pycparser", "ast"})
