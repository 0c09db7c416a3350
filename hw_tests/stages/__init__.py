"""The bring-up stages, in dependency order. Each module registers its stages with ``register``."""
from hw_tests.registry import Registry
from hw_tests.stages import copies, dispatch, isa, memory, peak, platform, signals

MODULES = (platform, memory, copies, signals, isa, dispatch, peak)


def build_registry(vendor="amd"):
    """The stages for ``vendor``: AMD's here, Qualcomm's in hw_tests.qcom, NVIDIA's in hw_tests.nv."""
    if vendor == "nv":
        from hw_tests.nv import build_registry as build_nv
        return build_nv()
    if vendor == "qcom":
        from hw_tests.qcom import build_registry as build_qcom
        return build_qcom()
    reg = Registry()
    for module in MODULES:
        module.register(reg)
    return reg
