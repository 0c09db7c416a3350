"""The bring-up stages of an NVIDIA GPU through the RM and UVM (``--device nv:N``, ``--emulate sm_90``).

The same shape as the AMD suite: what the kernel module says (/proc/driver/nvidia), the device
opened (classes, SMs), memory and the copy engine, semaphores, hangs and faults, one CUDA kernel
per instruction family (nvcc's cubins of hw_tests/kernels/nv), dispatch shapes, a kernel the
host releases, command buffers, then FP32 and memory throughput against the board's quoted peaks.
"""
from hw_tests.nv import dispatch, isa, memory, peak, platform, signals
from hw_tests.registry import Registry

MODULES = (platform, memory, signals, isa, dispatch, peak)


def build_registry():
    reg = Registry()
    for module in MODULES:
        module.register(reg)
    return reg
