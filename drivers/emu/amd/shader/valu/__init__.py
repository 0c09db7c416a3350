"""VALU semantics of the gfx1100 (RDNA3) vector ALU for the wave simulator.

`VALU[base_mnemonic]` is a ValuOp whose fn(ctx, srcs, old) computes one instruction for every lane
of every wave at once: sources and the old destination are raw register bits (uint32 (W, 32),
uint64 (W, 32) for 64-bit operands, uint32 (W, k, 32) for WMMA tuples), in the printed operand
order of the instruction (v_fmamk: S0, K, S1; v_fmaak: S0, S1, K). The result is the full new
destination content, `(dst, mask)` for ops that also write a lane mask, or the mask alone (VOPC).
"""
from . import (arith, compare, convert, division, dot, int16, int32, int64, legacy, moves, packed,
               rounding, transcendental, wmma)
from .ctx import Ctx, FloatMode, ValuOp
from .registry import OPS as VALU

# importing a family module registers its ops in registry.OPS
FAMILIES = (arith, compare, convert, division, dot, int16, int32, int64, legacy, moves, packed,
            rounding, transcendental, wmma)

__all__ = ["VALU", "Ctx", "FloatMode", "ValuOp", "FAMILIES"]
