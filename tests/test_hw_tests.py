"""The bring-up framework on synthetic stages: registry, runner, console, schema, CLI, plugin."""
import io
import json
import os
import subprocess
import sys

import pytest

from hw_tests import cli
from hw_tests.console import Console
from hw_tests.registry import Registry
from hw_tests.runner import FAIL, PASS, SKIP, CheckFailed, LayerMissing, Runner, Skip, check
from hw_tests.schema import SchemaError, load_schema, validate

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class FakeContext:
    def __init__(self):
        self.ran, self.after = [], []

    def after_stage(self, stage, result):
        self.after.append(stage.name)


def synthetic():
    reg = Registry()

    def base(ctx, r):
        """Base stage"""
        ctx.ran.append("base")
        r.step("measuring")
        r.measure("value", 42, "units")
        r.summary = "42 units"

    def broken(ctx, r):
        """Broken on purpose"""
        ctx.ran.append("broken")
        r.note("got this far")
        raise RuntimeError("the widget is on fire")

    def short(ctx, r):
        """Too small"""
        check(1 + 1 == 3, "1 + 1 is not 3")

    def missing(ctx, r):
        raise LayerMissing("assembler.rdna3", "no assemble_program yet")

    def optional(ctx, r):
        raise Skip("the card has no such engine")

    reg.add("base", base)
    reg.add("broken", broken, depends=["base"])
    reg.add("after_broken", lambda ctx, r: ctx.ran.append("after_broken"), depends=["broken"], title="After")
    reg.add("transitive", lambda ctx, r: ctx.ran.append("transitive"), depends=["after_broken"], title="Deeper")
    reg.add("short", short, depends=["base"])
    reg.add("missing", missing)
    reg.add("optional", optional)
    reg.add("after_optional", lambda ctx, r: None, depends=["optional"], title="After optional")
    return reg


# -- registry ------------------------------------------------------------------------------------
def test_registry_orders_and_resolves_dependencies():
    reg = synthetic()
    assert reg.names[:3] == ["base", "broken", "after_broken"]
    assert [s.name for s in reg.closure(["transitive"])] == ["base", "broken", "after_broken", "transitive"]
    assert [s.name for s in reg.dependents("broken")] == ["after_broken", "transitive"]
    assert reg["base"].title == "Base stage"


def test_registry_refuses_bad_stages():
    reg = Registry()
    with pytest.raises(ValueError, match="not registered before it"):
        reg.add("b", lambda c, r: None, depends=["a"])
    reg.add("a", lambda c, r: None)
    with pytest.raises(ValueError, match="registered twice"):
        reg.add("a", lambda c, r: None)
    with pytest.raises(ValueError, match="identifier"):
        reg.add("no spaces", lambda c, r: None)
    with pytest.raises(KeyError, match="no stage named 'zzz'; stages: a"):
        reg["zzz"]


# -- runner --------------------------------------------------------------------------------------
def test_runner_fail_skips_dependents_with_the_reason():
    ctx = FakeContext()
    runner = Runner(synthetic(), ctx)
    results = {r.name: r for r in runner.run()}
    assert results["base"].status == PASS and results["base"].numbers == {"value": {"value": 42, "unit": "units"}}
    assert results["broken"].status == FAIL
    assert results["broken"].error["type"] == "RuntimeError"
    assert results["broken"].error["message"] == "the widget is on fire"
    assert "traceback" in results["broken"].error and results["broken"].notes == ["got this far"]
    assert results["after_broken"].status == SKIP
    assert results["after_broken"].skip_reason == "depends on broken, which failed"
    assert results["transitive"].skip_reason == "depends on after_broken, which was skipped because broken failed"
    assert results["short"].error == {"type": "CheckFailed", "message": "1 + 1 is not 3"}
    assert results["missing"].status == FAIL and results["missing"].error["layer"] == "assembler.rdna3"
    assert results["optional"].status == SKIP and results["optional"].skip_reason == "the card has no such engine"
    assert results["after_optional"].skip_reason == \
        "depends on optional, which was skipped (the card has no such engine)"
    assert ctx.ran == ["base", "broken"]                 # skipped stages never ran
    assert "after_broken" not in ctx.after and "broken" in ctx.after
    assert runner.exit_code == 1


def test_runner_only_runs_the_stage_and_its_dependencies():
    ctx = FakeContext()
    runner = Runner(synthetic(), ctx)
    results = runner.run(only=["short"])
    assert [r.name for r in results] == ["base", "short"]
    assert ctx.ran == ["base"]


def test_exit_code_is_zero_when_everything_passes_or_skips():
    reg = Registry()
    reg.add("a", lambda c, r: None)
    reg.add("b", lambda c, r: (_ for _ in ()).throw(Skip("not on this card")))
    runner = Runner(reg, FakeContext())
    assert [r.status for r in runner.run()] == [PASS, SKIP]
    assert runner.exit_code == 0


def test_check_raises_checkfailed():
    check(True, "never")
    with pytest.raises(CheckFailed, match="boom"):
        check(False, "boom")


# -- console -------------------------------------------------------------------------------------
def test_console_in_a_log_prints_a_line_per_step():
    out = io.StringIO()
    Runner(synthetic(), FakeContext(), Console(out, tty=False)).run(only=["broken"])
    lines = out.getvalue().splitlines()
    assert lines[0] == "[ 1/2] base"
    assert lines[1].strip() == "measuring"
    assert lines[2].startswith("[ 1/2] base ....") and " PASS " in lines[2] and lines[2].endswith("42 units")
    assert " FAIL " in lines[3] and "RuntimeError: the widget is on fire" in lines[3]
    assert lines[4].strip() == "note: got this far"
    assert "\r" not in out.getvalue()


def test_console_on_a_tty_overwrites_progress():
    out = io.StringIO()
    Runner(synthetic(), FakeContext(), Console(out, tty=True)).run(only=["base"])
    text = out.getvalue()
    assert "\r\033[K" in text and "measuring" in text and text.endswith("42 units\n")


# -- schema --------------------------------------------------------------------------------------
def test_validator_reports_each_problem_with_its_path():
    schema = {"type": "object", "required": ["a"], "additionalProperties": False,
              "properties": {"a": {"type": "integer", "minimum": 0},
                             "b": {"type": "array", "items": {"enum": ["x", "y"]}},
                             "c": {"$ref": "#/$defs/s"}},
              "$defs": {"s": {"type": "string", "pattern": "^ok"}}}
    assert validate({"a": 1, "b": ["x"], "c": "okay"}, schema) == []
    errors = validate({"a": -1, "b": ["z"], "c": "no", "d": 1}, schema)
    assert errors == ["$.a: -1 is below the minimum 0", "$.b[0]: 'z' is not one of ['x', 'y']",
                      "$.c: 'no' does not match /^ok/", "$: unexpected property 'd'"]
    assert validate({}, schema) == ["$: missing required property 'a'"]
    assert validate({"a": True}, schema) == ["$.a: expected integer, got boolean"]


def test_validator_refuses_keywords_it_does_not_check():
    with pytest.raises(SchemaError, match="oneOf"):
        validate(1, {"oneOf": [{"type": "integer"}]})


def test_report_schema_uses_only_supported_keywords():
    schema = load_schema()
    assert validate({}, schema)                      # it parses and finds the missing fields


# -- command line ----------------------------------------------------------------------------------
def test_cli_lists_stages(capsys):
    assert cli.main(["--list"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith("sysfs ")
    assert "(needs sysfs)" in out


@pytest.mark.parametrize("argv, message", [
    (["--only", "nonsense", "--emulate", "gfx1100"], "unknown stage nonsense"),
    (["--device", "nv:x"], "expected VENDOR:INDEX"),
    (["--device", "intel:0"], "vendor 'intel' is not supported; supported: amd, qcom, nv"),
    (["--emulate", "gfx9999"], "unknown emulation target 'gfx9999'"),
    (["--device", "amd:0", "--emulate", "a630"], "'a630' is a virtual QCOM GPU, but --device amd:0 asks for AMD"),
])
def test_cli_bad_arguments_exit_2_with_a_clear_message(argv, message, capsys):
    assert cli.main(argv) == 2
    assert message in capsys.readouterr().err


def test_cli_without_a_gpu_fails_the_first_stage_and_skips_the_rest(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("GPU_EMULATE", raising=False)
    if os.path.exists("/dev/kfd"):
        pytest.skip("this machine has /dev/kfd")
    path = tmp_path / "r.json"
    assert cli.main(["--device", "amd:0", "--json", str(path)]) == 1
    report = json.loads(path.read_text())
    assert validate(report, load_schema()) == []
    first, *rest = report["stages"]
    assert first["status"] == "FAIL" and "no KFD topology" in first["error"]["message"]
    assert "python -m hw_tests --emulate gfx1100 runs every stage on the built-in virtual GPU" in \
        first["error"]["message"]
    assert all(s["status"] == "SKIP" for s in rest)


def test_plugin_skips_with_the_reason_when_there_is_no_device():
    if os.path.exists("/dev/kfd"):
        pytest.skip("this machine has /dev/kfd")
    env = {k: v for k, v in os.environ.items() if k != "GPU_EMULATE"}
    proc = subprocess.run([sys.executable, "-m", "pytest", "hw_tests", "-q", "-rs", "-p", "no:cacheprovider"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "no GPU to test: /dev/kfd does not exist" in proc.stdout
    assert " passed" not in proc.stdout and " skipped" in proc.stdout


def test_plugin_runs_stages_on_the_virtual_gpu():
    proc = subprocess.run([sys.executable, "-m", "pytest", "hw_tests", "--emulate", "gfx1100", "-q",
                           "-p", "no:cacheprovider", "-k", "sysfs or open or memory and not peak"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "4 passed" in proc.stdout


@pytest.mark.parametrize("how", ["path", "pyargs"])
def test_plugin_options_work_from_any_directory(tmp_path, how):
    """From a directory outside the checkout: the stages by path (the repository's conftest loads
    the plugin) or as the hw_tests package (``-p hw_tests.plugin``, what an install registers)."""
    args = [os.path.join(ROOT, "hw_tests")] if how == "path" else ["-p", "hw_tests.plugin", "--pyargs", "hw_tests"]
    env = dict(os.environ, PYTHONPATH=ROOT)
    proc = subprocess.run([sys.executable, "-m", "pytest", *args, "--emulate", "gfx1100", "--collect-only", "-q",
                           "-p", "no:cacheprovider"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "test_stage[sysfs]" in proc.stdout and "test_stage[peak_memory]" in proc.stdout


def test_the_package_registers_the_plugin_with_pytest():
    with open(os.path.join(ROOT, "setup.py")) as f:
        setup = f.read()
    assert '"pytest11": ["hw_tests.plugin = hw_tests.plugin"]' in setup
    assert '"hw_tests": ["kernels/*.s", "kernels/ir3/*.asm"]' in setup    # an installed suite has its kernels


def test_plugin_reports_a_failed_stage_with_its_error(tmp_path):
    """A conftest-level monkeypatch breaks the memory stage: its test fails with the stage's error and
    the stages after it are skipped naming it."""
    plugin = tmp_path / "break_memory.py"
    plugin.write_text("from hw_tests.stages import memory\n"
                      "def broken(ctx, r):\n"
                      "    raise RuntimeError('deliberately broken')\n"
                      "memory.memory_heaps = broken\n")
    env = dict(os.environ, PYTHONPATH=f"{tmp_path}{os.pathsep}{ROOT}")
    proc = subprocess.run([sys.executable, "-m", "pytest", "hw_tests", "--emulate", "gfx1100", "-q", "-rs",
                           "-p", "no:cacheprovider", "-p", "break_memory",
                           "-k", "sysfs or open or memory and not peak"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "memory: RuntimeError: deliberately broken" in proc.stdout
    assert "memory_limits: depends on memory, which failed" in proc.stdout
    assert "2 passed" in proc.stdout and "1 failed" in proc.stdout and "1 skipped" in proc.stdout


def test_compare_names_the_first_differing_element():
    import numpy as np
    from hw_tests.stages.isa import compare
    compare("same", np.arange(4, dtype=np.uint32), np.arange(4, dtype=np.uint32))
    with pytest.raises(CheckFailed, match=r"v_add: element 2 is np.uint32\(7\), numpy says np.uint32\(2\) "
                                          r"\(1 of 4 elements differ\)"):
        compare("v_add", np.array([0, 1, 7, 3], np.uint32), np.arange(4, dtype=np.uint32))
    with pytest.raises(CheckFailed, match=r"got \(3,\) x uint32, numpy has \(4,\) x uint32"):
        compare("short", np.arange(3, dtype=np.uint32), np.arange(4, dtype=np.uint32))


def test_a_failed_stage_notes_the_error_of_the_virtual_gpu_under_test():
    """On a two-GPU virtual machine, device amd:1's failures carry GPU 1's error, not GPU 0's."""
    from types import SimpleNamespace

    from hw_tests.context import Context
    from hw_tests.runner import FAIL, StageResult
    ctx = Context("amd:1", "gfx1100x2")
    try:
        ctx.open_device()
        gpu0, gpu1 = ctx.kernel.gpus
        gpu0.last_error = "illegal instruction at PC 0x100 on GPU 0"
        gpu1.last_error = "illegal instruction at PC 0x200 on GPU 1"
        result = StageResult(SimpleNamespace(name="valu_f32"))
        result.status, result.error = FAIL, {"type": "CheckFailed", "message": "mismatch"}
        ctx.after_stage(result.stage, result)
        assert result.notes == ["virtual GPU: illegal instruction at PC 0x200 on GPU 1"]
        assert result.error["layer"] == "drivers.emu.amd.shader"
    finally:
        ctx.close()


def test_share_of_peak_words_the_three_vendors_peaks():
    from hw_tests.units import share_of_peak
    assert share_of_peak(812e9, 960e9, "GB/s", 1e9, "RX 7900 XTX's", False) == (
        pytest.approx(84.583, abs=1e-3), "812 GB/s, 84.6% of the RX 7900 XTX's 960 GB/s")
    pct, text = share_of_peak(3e6, 35.6e12, "GFLOPS", 1e9, "NVIDIA GeForce RTX 3090's quoted", True)
    assert text == ("virtual GPU: 0.00300 GFLOPS, 8.4e-06% of the NVIDIA GeForce RTX 3090's quoted 35600 GFLOPS"
                    " -- this measures the simulator")
