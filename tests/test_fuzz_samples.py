"""A sample of each fuzzer in scripts/ (the full runs are on demand): every input answered or
refused with a project error, no hang, nothing left open."""
import importlib.util
import os
import sys

import pytest

SCRIPTS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts")


def fuzzer(name):
    sys.path.insert(0, SCRIPTS)
    try:
        spec = importlib.util.spec_from_file_location(name, os.path.join(SCRIPTS, f"{name}.py"))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(SCRIPTS)


@pytest.mark.parametrize("name, n", [("fuzz_runtime", 150), ("fuzz_probe", 40), ("fuzz_cli", 400)])
def test_fuzzer_sample_is_clean(name, n, monkeypatch):
    monkeypatch.setenv("GPU_EMULATE_BUDGET", "20000")
    report = fuzzer(name).run(n, seed=1234, hang=120)
    assert report.inputs == n and report.clean, report.text()
    assert report.ok or report.errors                 # something was exercised
