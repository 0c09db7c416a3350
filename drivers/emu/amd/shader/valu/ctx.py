"""What a VALU function is handed besides its operands: modifiers, float mode, lane data.

The simulator core builds one `Ctx` per executed instruction from the decoded fields (VOP3 neg/abs/
op_sel/clamp/omod, VOP3P op_sel_hi/neg_hi, DPP16 source modifiers) and the wave's MODE register.
"""
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

# MODE.FP_ROUND encodings (RDNA3 ISA, "MODE register"): 0 nearest even, 1 +inf, 2 -inf, 3 zero.
ROUND_NEAREST_EVEN, ROUND_PLUS_INF, ROUND_MINUS_INF, ROUND_TOWARD_ZERO = range(4)


@dataclass(frozen=True)
class FloatMode:
    """The float controls of the MODE register (COMPUTE_PGM_RSRC1 / s_setreg)."""
    denorm_f32: bool = True         # True = keep single-precision denormal results
    denorm_f16_64: bool = True      # True = keep half/double-precision denormal results
    # denormal inputs (MODE.FP_DENORM bit 0 of each pair; bit 1 is the results'): None = as
    # the results
    denorm_in_f32: bool | None = None
    denorm_in_f16_64: bool | None = None
    ieee: bool = True               # IEEE mode: sNaN quieting in min/max, output modifiers off
    dx10_clamp: bool = True         # clamp turns NaN into 0
    round_f32: int = ROUND_NEAREST_EVEN
    round_f16_64: int = ROUND_NEAREST_EVEN


@dataclass
class Ctx:
    """Per-instruction modifiers; bit i of neg/abs/opsel/... belongs to source i."""
    neg: int = 0
    abs: int = 0
    neg_hi: int = 0                 # VOP3P (v_fma_mix*: this field is the abs of each source)
    opsel: int = 0                  # VOP3: bit i = high half of 16-bit source i, bit 3 = dst high
    opsel_hi: int = 0b111           # VOP3P: bit i = high lane of packed source i reads high half
    clamp: bool = False
    omod: int = 0                   # 0 none, 1 *2, 2 *4, 3 /2
    mode: FloatMode = field(default_factory=FloatMode)
    mask: np.ndarray | None = None  # bool (W, 32): VCC / carry-in / SGPR mask for mask_in ops
    lane: np.ndarray | None = None  # uint32 (W, 32): lane id 0..31 (v_mbcnt_*)
    wave32: bool = True


@dataclass(frozen=True)
class ValuOp:
    name: str
    fn: Callable                    # fn(ctx, srcs, old) -> dst | (dst, mask) | mask (VOPC)
    src_bits: tuple                 # width of each source as read: 32, 64, or 32*k (WMMA)
    dst_bits: int                   # 0 (VOPC), 32, 64 or 32*k
    mask_in: bool = False
    mask_out: bool = False
