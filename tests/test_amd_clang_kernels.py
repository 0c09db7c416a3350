"""Every clang-19 kernel of tests/clang_kernels through AMDDevice(emulate="gfx1100"), on the PM4
and on the AQL queue, checked against numpy by tests/clang_kernels/cases.run_case.

Two executors run the dispatches:

* "reference": a stand-in for the shader simulator that finds the kernel's arguments where the
  CP says the kernarg segment is, reads every buffer through the GPU VM, checks each by-value
  argument's bytes, applies the case's numpy reference and writes the outputs back through the
  VM. It proves the driver end to end for each kernel signature: metadata-driven kernarg
  packing, SDMA copies in and out, dispatch shape, signals and waits.
* "simulator": the RDNA3 wave simulator (drivers.emu.amd.shader) actually running the code.
"""
import copy

import numpy as np
import pytest

from drivers.amd.device import AMDDevice
from drivers.emu import make_kernel
from tests.clang_kernels import cases as C


def kernarg_va(d, kd):
    """The kernarg pointer the wave gets: AQL packet field, or the user SGPRs after the private
    segment buffer (4), dispatch ptr (2) and queue ptr (2) when the descriptor enables them."""
    if d.source == "aql":
        return d.kernarg_va
    first = sum(n for bit, n in (("ENABLE_SGPR_PRIVATE_SEGMENT_BUFFER", 4), ("ENABLE_SGPR_DISPATCH_PTR", 2),
                                 ("ENABLE_SGPR_QUEUE_PTR", 2)) if kd.get(bit))
    return d.user_sgprs[first] | d.user_sgprs[first + 1] << 32


def reference_executor(case, host_args, kernel):
    layout = kernel.layout

    def run(d):
        assert d.grid_workgroups == case.grid and d.workgroup_size == case.block
        ka = kernarg_va(d, kernel.descriptor)
        on_gpu, pointers = [], {}
        for spec, host in zip(layout.args, host_args):
            if spec.kind == "pointer":
                va = d.vm.u64(ka + spec.offset)
                pointers[spec.index] = va
                on_gpu.append(np.frombuffer(d.vm.read(va, host.nbytes), host.dtype).reshape(host.shape).copy())
            else:
                raw = d.vm.read(ka + spec.offset, spec.size)
                assert raw == np.asarray(host).tobytes(), f"{case.name}: {spec.describe()} packed as {raw!r}"
                on_gpu.append(host)
        for index, expect in case.reference(copy.deepcopy(on_gpu)).items():
            values = expect.values if isinstance(expect, C.Expect) else expect
            data = np.asarray(values).astype(host_args[index].dtype).reshape(host_args[index].shape)
            d.vm.write(pointers[index], data.tobytes())
    return run


def simulator_executor(kernel):
    """The wave simulator: the one the virtual GPU comes with, or drivers.emu.amd.shader's."""
    if kernel.gpu.executor is not None:
        return kernel.gpu.executor
    try:
        from drivers.emu.amd.shader import WaveExecutor
    except ImportError:
        return None
    return WaveExecutor()


def make_simulate(queue_kind, executor_kind):
    def simulate(code_object_bytes, kernel_name, grid, block, args):
        kernel = make_kernel("gfx1100")
        sim = simulator_executor(kernel)
        if executor_kind == "simulator" and sim is None:
            pytest.skip("the virtual GPU has no shader simulator attached yet")
        with AMDDevice(kernel=kernel, aql=queue_kind == "aql") as dev:
            prg = dev.load(code_object_bytes)
            k = prg[kernel_name]
            if executor_kind == "reference":
                kernel.gpu.executor = reference_executor(C.CASES_BY_NAME[simulate.case], args, k)
            else:
                kernel.gpu.executor = sim
            bufs, launch_args = {}, []
            for i, a in enumerate(args):
                if isinstance(a, np.ndarray):
                    bufs[i] = dev.alloc(max(a.nbytes, 1))
                    bufs[i].copyin(a)
                    launch_args.append(bufs[i])
                else:
                    launch_args.append(a)
            k(*launch_args, grid=grid, block=block, wait=True)
            for i, b in bufs.items():
                b.copyout(args[i])
        assert kernel.gpu.live()["bos"] == 0 and kernel.open_files == {}
    return simulate


@pytest.mark.parametrize("executor_kind", ["reference", "simulator"])
@pytest.mark.parametrize("queue_kind", ["pm4", "aql"])
@pytest.mark.parametrize("case", C.CASES, ids=lambda c: c.name)
def test_clang_kernel_through_the_driver(case, queue_kind, executor_kind):
    simulate = make_simulate(queue_kind, executor_kind)
    simulate.case = case.name
    C.run_case(case, simulate)
