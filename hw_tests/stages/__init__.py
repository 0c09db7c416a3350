"""The bring-up stages, in dependency order. Each module registers its stages with ``register``."""
from hw_tests.registry import Registry
from hw_tests.stages import copies, dispatch, isa, memory, peak, platform, signals

MODULES = (platform, memory, copies, signals, isa, dispatch, peak)


def build_registry():
    reg = Registry()
    for module in MODULES:
        module.register(reg)
    return reg
