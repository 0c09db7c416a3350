"""The table every family module fills: base mnemonic -> ValuOp."""
import functools

import numpy as np

from .ctx import ValuOp

OPS: dict[str, ValuOp] = {}


def op(name, src_bits, dst_bits=32, *, mask_in=False, mask_out=False):
    """Register the decorated function as the semantics of `name`."""
    def register(fn):
        if name in OPS:
            raise ValueError("VALU op %s registered twice" % name)
        @functools.wraps(fn)
        def quiet_fn(ctx, srcs, old):
            # NaN / inf / overflow in lanes are ISA results, not Python warnings
            with np.errstate(all="ignore"):
                return fn(ctx, srcs, old)
        OPS[name] = ValuOp(name, quiet_fn, tuple(src_bits), dst_bits, mask_in, mask_out)
        return fn
    return register


def alias(name, fn, src_bits, dst_bits=32, **kw):
    """Register an already written function under another mnemonic."""
    op(name, src_bits, dst_bits, **kw)(fn)
