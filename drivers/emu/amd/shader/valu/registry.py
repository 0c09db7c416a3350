"""The table every family module fills: base mnemonic -> ValuOp."""
import functools

import numpy as np

from .ctx import ValuOp

OPS: dict[str, ValuOp] = {}


def op(name, src_bits, dst_bits=32, *, mask_in=False, mask_out=False, integer=False):
    """Register the decorated function as the semantics of `name`. Float ops run with numpy's
    floating-point warnings off (NaN / inf / overflow in a lane is an ISA result, not a Python
    warning), so their bodies need no guard of their own; `integer` ops cannot raise them and
    skip it.  The unguarded function stays reachable as ``fn.__wrapped__`` for callers that
    silence numpy once around many ops (the simulator does, for a whole dispatch)."""
    def register(fn):
        if name in OPS:
            raise ValueError("VALU op %s registered twice" % name)
        OPS[name] = ValuOp(name, fn if integer else _quiet(fn), tuple(src_bits), dst_bits,
                           mask_in, mask_out)
        return fn
    return register


def _quiet(fn):
    @functools.wraps(fn)
    def run(ctx, srcs, old):
        with np.errstate(all="ignore"):
            return fn(ctx, srcs, old)
    return run


integer_op = functools.partial(op, integer=True)
