"""NVIDIA cubins without NVIDIA's tools: write them from assembled SASS, read them to launch.

    read_cubin(data) -> Cubin          kernels with code, registers, parameters, shared and
                                       local memory, barriers, constant banks, relocations
    write_cubin(arch, [KernelSpec]) -> bytes
    build_cubin(text, arch=None) -> bytes     from the directive text format (assembler.cubin.text)

`python -m assembler.cubin FILE.cubin` prints what a launcher sees.
"""
import importlib

_EXPORTS = {"Cubin": "reader", "Kernel": "reader", "Param": "reader", "read_cubin": "reader",
            "KernelSpec": "writer", "ParamSpec": "writer", "write_cubin": "writer",
            "build_cubin": "text", "parse_cubin_text": "text"}
__all__ = sorted(_EXPORTS)


def __getattr__(name):
    mod = _EXPORTS.get(name)
    if mod is None:
        raise AttributeError("module 'assembler.cubin' has no attribute %r" % name)
    value = getattr(importlib.import_module("." + mod, __name__), name)
    globals()[name] = value
    return value
