"""One hand-written ir3 program per instruction family, on wave64 and wave128, against numpy
(hw_tests/ir3_programs.py has the programs' references). Integer and correctly rounded float
results are exact; the SFU program allows the tolerance its case states, which a phone's
approximate transcendentals need."""
import numpy as np

from hw_tests.ir3_programs import CASES
from hw_tests.programs import Buffers
from hw_tests.qcom.common import WAVES, program, upload_args

GROUPS = ((8, 4), (3, 2))          # workgroups (most programs, the slow ones) on a phone / the simulator
SLOW = ("branch", "reduce")


def _stage(name):
    case = CASES[name]

    def stage(ctx, r):
        groups = ctx.size(GROUPS[0][name in SLOW], GROUPS[1][name in SLOW], r, "workgroups")
        seconds = {}
        for wave in WAVES:
            r.step(f"wave{wave}")
            args, checks = case.make(np.random.default_rng(wave), groups)
            with Buffers(ctx.dev) as b:
                call, back = upload_args(b, args)
                seconds[wave] = program(ctx, name, wave)(*call, grid=case.grid(groups), wait=True)
                for buf, array in back:
                    buf.copyout(array)
            for what, (got, want) in checks.items():
                case.check(got, want, f"wave{wave} {what}")
            r.measure(f"wave{wave}_seconds", round(seconds[wave], 9), "s")
        r.summary = f"{name}.asm on {groups} workgroups: wave64 and wave128 match numpy" + \
            (" (within the SFU tolerance)" if case.tolerance else "")
    stage.__doc__ = f"{name}.asm: {(type(case).__doc__ or case.name).strip().splitlines()[0]}"
    return stage


TITLES = {"vadd": "f32 vector add", "scale": "scaled copy with a scalar argument and a program const",
          "bits": "shifts, masks, clz, bit reverse, getbit", "loopsum": "a loop per fiber summing a row",
          "reduce": "workgroup reduction in local memory with barriers", "atomics": "IBO, global and local atomics",
          "half": "half precision: mul, add, mad, max, conversions", "branch": "divergent loops and branches",
          "sfu": "the SFU: rcp, rsq, sqrt, log2, exp2, sin, cos"}


def register(reg):
    for name in CASES:
        reg.add(f"isa_{name}", _stage(name), depends=["memory", "timestamps"], title=f"{name}.asm: {TITLES[name]}")
