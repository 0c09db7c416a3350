"""An independent reference of the gfx1100 (RDNA3) VALU and SALU semantics, one lane at a time.

Written from the "RDNA3" Instruction Set Architecture guide: the pseudocode of each opcode, and
the prose around it for what the pseudocode leaves out (MODE's rounding and denormal controls,
input modifiers, output modifiers, clamp). It shares no code with the simulator
(drivers/emu/amd/shader): values are Python integers and exact rationals (fractions.Fraction),
every float result is rounded once, by `round_float` below, to the destination format under the
MODE rounding mode. scripts/check_rdna3_semantics.py runs it against the simulator and against
LLVM 19's constant folding.

A float result is a `Res`: the result bits, and a tolerance -- `nan_any` (any quiet NaN is
right: the guide does not say which NaN an arithmetic operation returns) or `ulp` (the guide's
transcendentals, reciprocals and square roots are approximations; the reference computes them
in double precision and accepts 1 ulp of the destination format).

Choices where the guide's text is silent or ambiguous are marked CHOICE in the code.

The parts: core.py (float formats, MODE, results, exact arithmetic, the op table), valu_float.py
(float arithmetic, rounding, transcendentals, compares, conversions), valu_int.py (integer
VALU), valu_special.py (division helpers, DX9 legacy and cube maps, trig_preop, packed math, dot
products, fma_mix), salu.py (SOP1/SOP2/SOPC/SOPK).
"""
from . import valu_float, valu_int, valu_special  # noqa: F401  (each registers its ops in OPS)
from .core import (BF16, DEVIATIONS, F16, F32, F64, FMTS, M32, M64, OPS, RDOWN, RNE,  # noqa: F401
                   RUP, RZERO, Ctx, F, Fmt, Mode, Op, Res, decode, exponent_field, is_denorm,
                   sx, ux)
from .salu import SALU, SOPC, SOPK  # noqa: F401
