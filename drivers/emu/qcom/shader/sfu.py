"""cat4: the special function unit (rcp, rsq, sqrt, log2, exp2, sin, cos and the h* forms).

Accuracy: each result is computed in float64 and rounded once to the destination precision,
so it is the correctly rounded value (within 0.5 ulp of f32/f16). The hardware's SFU is an
approximation (a few ulp for rcp/rsq/sqrt/log2/exp2; sin/cos with an absolute error around 2^-20
for arguments within [-pi, pi]), so a result that matches numpy here can be a few ulp away on a
phone: compare with a tolerance of about 4 ulp (rcp, rsq, sqrt, log2, exp2) and 1e-5 absolute
(sin, cos) when the same check must pass on hardware. Special values follow IEEE: rcp(0) = inf,
rsq(-x) = sqrt(-x) = log2(-x) = NaN, log2(0) = -inf.

An SFU result arrives late: reading it, or overwriting a source the SFU may still be reading,
needs (ss) first (the hazard tracker enforces both).
"""
import numpy as np

from drivers.errors import GPUError

from . import convert as C
from .alu import _writer
from .op import SS, WAR_SS, Op, rows_of, timing_of
from .operands import multisrc

_FN = {
    "rcp": lambda a: 1.0 / a,
    "rsq": lambda a: 1.0 / np.sqrt(a), "hrsq": lambda a: 1.0 / np.sqrt(a),
    "sqrt": np.sqrt,
    "log2": np.log2, "hlog2": np.log2,
    "exp2": np.exp2, "hexp2": np.exp2,
    "sin": np.sin, "cos": np.cos,
}


def build_cat4(ins, pc, limits):
    f, name = ins.fields, ins.name
    fn = _FN.get(name)
    if fn is None:
        raise GPUError(f"PC 0x{pc:x}: {ins.text}: {name} is not emulated")
    half = not f["FULL"]
    rpt = ins.repeat
    src, mod = multisrc(f["SRC"], half, f.get("SRC_R", 0) if rpt else 0, limits, pc, True, rpt + 1)
    dhalf = bool(f.get("DST_HALF"))
    write, wrows = _writer(f["DST"], dhalf, pc, limits, rpt)
    sat = bool(f.get("SAT"))

    def run(x, active):
        with np.errstate(all="ignore"):
            for i in range(rpt + 1):
                a = C.as_float(src.read(x.wg, x.ctx, i), half)
                if mod & 2:
                    a = np.abs(a)
                if mod & 1:
                    a = -a
                v = fn(a)
                if sat:
                    v = np.clip(v, 0.0, 1.0)
                write(x, i, C.to_bits(v, dhalf), active)
    reads = rows_of([src], rpt)
    return Op(pc, ins, run, reads, wrows, produces=SS, war=WAR_SS, timing=timing_of([src], rpt))
