"""The bring-up stages of a Qualcomm Adreno through KGSL (``--device qcom:0``, ``--emulate a630``).

The same shape as the AMD suite: what the kernel says (KGSL's sysfs, the device's properties),
memory, timestamps and waits, faults and hangs, one hand-written ir3 program per instruction
family on both wave sizes, dispatch shapes and command buffers, then FP32 and memory
throughput against the chip's quoted peaks.
"""
from hw_tests.qcom import dispatch, isa, memory, peak, platform, signals
from hw_tests.registry import Registry

MODULES = (platform, memory, signals, isa, dispatch, peak)


def build_registry():
    reg = Registry()
    for module in MODULES:
        module.register(reg)
    return reg
