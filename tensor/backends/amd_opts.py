"""Which lowering optimizations the AMD backend asks for, per kernel.

The heuristic works on the kernel's canonical iteration space (output axes, reduce axes):
no optimization for now; the code generator chooses the launch shape.
"""


def choose(backend, info):
    return []
