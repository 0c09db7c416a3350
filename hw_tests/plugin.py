"""pytest plugin: the bring-up stages as tests.

    pytest hw_tests --device amd:0                     # a real card, from the repository root
    pytest hw_tests --emulate gfx1100                  # the virtual GPU (or GPU_EMULATE=gfx1100)
    pytest hw_tests --emulate a630                     # the virtual Adreno 630 (or --device qcom:0 on a phone)
    pytest --pyargs hw_tests --emulate gfx1100         # the installed package, from any directory
    pytest -p hw_tests.plugin --pyargs hw_tests ...    # the same without installing it

The repository's conftest.py loads this plugin, and an installed package registers it with
pytest (entry point ``pytest11``), so the options exist wherever the stages are collected from;
the driver and the stages are imported only when they are collected. With neither option the
stages run on amd:0 when /dev/kfd exists, and otherwise skip with the reason. One test per
stage; a stage whose dependency failed is skipped with that reason, as on the command line.
"""
import os

import pytest


def pytest_addoption(parser):
    group = parser.getgroup("hw_tests", "bring-up stages (hw_tests)")
    group.addoption("--device", default=None, metavar="VENDOR:N", help="run the hw_tests stages on this GPU (amd:0)")
    group.addoption("--emulate", default=None, metavar="TARGET",
                    help="run the hw_tests stages on the virtual GPU (gfx1100); also GPU_EMULATE")


def _option(config, name):
    # getoption with a default: the options exist only when this plugin was loaded at start-up
    return config.getoption(name, default=None)


def device_choice(config):
    """(device spec, emulation target) to test, or (None, reason to skip)."""
    from drivers.emu import emulation_target
    from hw_tests.context import UsageError, vendor_of
    target = emulation_target(_option(config, "emulate"))
    device = _option(config, "device")
    if target or device:
        try:
            return device or f"{vendor_of(None, target)}:0", target
        except UsageError:
            return device or "amd:0", target
    if os.path.exists("/dev/kfd"):
        return "amd:0", None
    return None, ("no GPU to test: /dev/kfd does not exist; pass --device amd:N on a machine with an AMD GPU, "
                  "or --emulate gfx1100 (GPU_EMULATE=gfx1100) for the virtual GPU")


_REGISTRIES = {}


def registry_for(config):
    """The stages of the vendor under test, built on first use."""
    from hw_tests.context import UsageError, vendor_of
    from hw_tests.stages import build_registry
    device, target = device_choice(config)
    try:
        vendor = vendor_of(device, target) if device else "amd"
    except UsageError:
        vendor = "amd"
    if vendor not in _REGISTRIES:
        _REGISTRIES[vendor] = build_registry(vendor)
    return _REGISTRIES[vendor]


@pytest.fixture(scope="session")
def bringup(request):
    from hw_tests.console import Console
    from hw_tests.context import Context, UsageError
    from hw_tests.runner import Runner
    device, target = device_choice(request.config)
    if device is None:
        pytest.skip(target)
    try:
        ctx = Context(device, target)
    except UsageError as e:
        pytest.fail(str(e), pytrace=False)
    runner = Runner(registry_for(request.config), ctx, Console() if request.config.getoption("verbose") > 1 else None)
    yield runner
    ctx.close()


def pytest_generate_tests(metafunc):
    if "stage_name" in metafunc.fixturenames:
        metafunc.parametrize("stage_name", registry_for(metafunc.config).names)


def stage_outcome(runner, name):
    """Run ``name`` (and what it needs) and turn its result into a pytest outcome."""
    from hw_tests.runner import FAIL, SKIP
    r = runner.run_stage(name)
    if r.status == SKIP:
        pytest.skip(f"{name}: {r.skip_reason}")
    if r.status == FAIL:
        err = r.error or {}
        layer = f" [blocked by {err['layer']}]" if err.get("layer") else ""
        detail = "\n".join([f"{name}: {err.get('type')}: {err.get('message')}{layer}"] +
                           [f"note: {n}" for n in r.notes] + ([err["traceback"]] if err.get("traceback") else []))
        pytest.fail(detail, pytrace=False)
    return r
