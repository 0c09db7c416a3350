"""The hand-written ir3 programs of hw_tests/kernels/ir3/ through QCOMDevice on the virtual Adreno
630: vector add, scaled copy with a constant, shifts and masks, a loop summing a buffer, a
workgroup reduction in local memory with barriers, atomics of every kind, half precision, a
divergent branch and the SFU, each on wave64 and wave128, compared with numpy."""
import numpy as np
import pytest

from drivers.qcom import QCOMDevice
from hw_tests.ir3_programs import CASES, assemble, check_outputs

GROUPS = {"branch": 1, "reduce": 2}          # the slow ones run fewer workgroups


@pytest.fixture(scope="module")
def dev():
    d = QCOMDevice(emulate="a630")
    yield d
    d.close()
    assert d.kernel.live() == {"files": 0, "contexts": 0, "objects": 0, "mappings": 0, "pending": 0}
    assert d.kernel.kgsl.leaked == []


@pytest.fixture(scope="module")
def programs():
    return {name: assemble(name) for name in CASES}


def run_case(dev, program, name, wave, groups):
    case = CASES[name]
    args, checks = case.make(np.random.default_rng(7), groups)
    prg = dev.load(program, name=name, threadsize=wave)
    bufs, call = [], []
    for a in args:
        if isinstance(a, np.ndarray):
            b = dev.alloc(a.nbytes)
            b.copyin(a)
            bufs.append((b, a))
            call.append(b)
        else:
            call.append(a)
    try:
        secs = prg[name](*call, grid=case.grid(groups), wait=True)
        for b, a in bufs:
            b.copyout(a)
        check_outputs(case, checks)
    finally:
        for b, _ in bufs:
            b.free()
        prg.free()
    return secs


@pytest.mark.parametrize("wave", [64, 128])
@pytest.mark.parametrize("name", sorted(CASES))
def test_program_matches_numpy(dev, programs, name, wave):
    secs = run_case(dev, programs[name], name, wave, GROUPS.get(name, 3))
    assert secs >= 0


def test_the_waves_really_differ(dev, programs):
    """wave64 vs wave128 is what SP_CS_CTRL_REG0.THREADSIZE says: the reduction's 128 fibers are
    two waves or one, which the simulator's wave-instruction count shows."""
    gpu = dev.kernel.kgsl.gpu
    counts = {}
    for wave in (64, 128):
        before = gpu.dispatches
        run_case(dev, programs["reduce"], "reduce", wave, 1)
        assert gpu.dispatches == before + 1
        counts[wave] = gpu.last_executed
    assert counts[64] > counts[128]
