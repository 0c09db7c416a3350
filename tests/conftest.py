"""The tensor test modules (``tests/test_tensor_*.py``) run once per tensor device.

Every test in them gets the ``tensor_device`` parameter: "CPU" (the numpy reference backend)
and "AMD" (a real AMD GPU when /dev/kfd exists, otherwise the virtual RX 7900 XTX pair,
``GPU_EMULATE=gfx1100x2``), so the same assertions, with the same tolerances, hold on every
backend.  ``TENSOR_TEST_DEVICES=CPU`` (a comma-separated list) restricts the run.
"""
import os

import pytest

ALL_DEVICES = ("CPU", "AMD")


def tensor_test_devices():
    chosen = os.environ.get("TENSOR_TEST_DEVICES")
    if chosen:
        return tuple(d.strip().upper() for d in chosen.split(",") if d.strip())
    return ALL_DEVICES


def pytest_generate_tests(metafunc):
    name = metafunc.module.__name__.rpartition(".")[2]
    if name.startswith("test_tensor") and "tensor_device" in metafunc.fixturenames:
        metafunc.parametrize("tensor_device", tensor_test_devices(), indirect=True)


@pytest.fixture(autouse=True)
def tensor_device(request, monkeypatch):
    """The default tensor device of a tensor test (None for other tests)."""
    dev = getattr(request, "param", None)
    if dev is None:
        yield None
        return
    if dev == "AMD" and not os.path.exists("/dev/kfd"):
        monkeypatch.setenv("GPU_EMULATE", "gfx1100x2")
    monkeypatch.setenv("TENSOR_DEVICE", dev)
    yield dev
