"""The tensor test modules (``tests/test_tensor_*.py``) run once per tensor device.

Every test in them gets the ``tensor_device`` parameter: "CPU" (the numpy reference backend)
and "AMD" (a real AMD GPU when /dev/kfd exists, otherwise the virtual RX 7900 XTX pair,
``GPU_EMULATE=gfx1100x2``), so the same assertions, with the same tolerances, hold on every
backend.  ``TENSOR_TEST_DEVICES=CPU`` (a comma-separated list) restricts the run.  The example
training runs (``test_tensor_examples``: minutes per run on the wave simulator) take the AMD
device only when asked (``TENSOR_TEST_DEVICES`` naming AMD, or ``TENSOR_SLOW_TESTS=1``); the
AMD suite's own training tests (``test_amd_tensor``) run every time.

Every kernel the RDNA3 code generator makes during the session is checked
(``RDNA3_VERIFY=1``): its disassembly re-assembles to the same bytes, and at the end of the
session llvm-mc-19 must encode all of their text to the same bytes and llvm-objdump-19 read
all of their code objects (skipped, and said so, when LLVM 19 is not installed).
"""
import os

import pytest

os.environ.setdefault("RDNA3_VERIFY", "1")

ALL_DEVICES = ("CPU", "AMD")
SLOW_ON_THE_SIMULATOR = {"test_tensor_examples"}


def tensor_test_devices(module):
    chosen = os.environ.get("TENSOR_TEST_DEVICES")
    if chosen:
        return tuple(d.strip().upper() for d in chosen.split(",") if d.strip())
    if module in SLOW_ON_THE_SIMULATOR and os.environ.get("TENSOR_SLOW_TESTS") != "1":
        return ("CPU",)
    return ALL_DEVICES


def pytest_generate_tests(metafunc):
    name = metafunc.module.__name__.rpartition(".")[2]
    if name.startswith("test_tensor") and "tensor_device" in metafunc.fixturenames:
        metafunc.parametrize("tensor_device", tensor_test_devices(name), indirect=True)


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


@pytest.fixture(autouse=True, scope="session")
def generated_kernels_are_valid_rdna3():
    yield
    from tensor.codegen.rdna3 import validate as verify
    if not verify.SEEN or not verify.enabled():
        return
    if not verify.llvm_available():
        print(f"\nRDNA3: {len(verify.SEEN)} generated kernels re-assembled to the same bytes; "
              "llvm-mc-19/llvm-objdump-19 not installed, the LLVM check is skipped")
        return
    problems = verify.llvm_problems(verify.SEEN)
    assert not problems, "\n".join(problems)
    print(f"\nRDNA3: {len(verify.SEEN)} generated kernels re-assembled to the same bytes, "
          "encoded identically by llvm-mc-19 and read by llvm-objdump-19")
