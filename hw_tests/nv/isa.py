"""One CUDA kernel per instruction family (hw_tests/kernels/nv/*.cu, built by nvcc for sm_86, sm_89
and sm_90) against numpy: integer results exact, floats within CUDA's documented error for each
function (hw_tests/nv_kernels.py states each case's bound)."""
from hw_tests.nv.common import program
from hw_tests.nv_kernels import CASES

TITLES = {"saxpy": "FFMA, global loads and stores, parameters in constant bank 0",
          "transcendental": "MUFU (sin, cos, ex2, lg2, rsq, rcp) and the math library's slow paths",
          "shuffle_reduce": "SHFL (down, butterfly), VOTE, FMNMX", "smem_reduce": "shared memory and BAR.SYNC",
          "histogram": "shared and global atomics (ATOMS, ATOMG, RED)", "intdiv": "integer division, 32 and 64-bit",
          "divergent": "divergent branches, BSSY/BSYNC, BRX, loops", "sgemm": "a tiled SGEMM (shared, FFMA, barriers)",
          "half2": "packed half precision (HFMA2, HADD2, HMNMX2, conversions)",
          "index64": "64-bit addressing, IMAD.WIDE, I2F/F2I of 64-bit values", "mma": "HMMA.16816 tensor cores",
          "local_array": "local memory (a dynamically indexed array: STL/LDL)",
          "grid_ids": "special registers (ctaid, tid, nctaid, ntid) in 3D"}


def _stage(cls):
    def stage(ctx, r):
        prg = program(ctx, cls.name)
        case = cls()
        r.step(f"{cls.name}.{ctx.dev.target}.cubin")
        out = case.run(ctx.dev, prg)
        try:
            case.check(out)
        except AssertionError as e:
            raise AssertionError(f"{cls.name}: {e}") from None
        r.summary = f"{cls.name}.cu ({ctx.dev.target}): " + ", ".join(f"{k} {v.size} values" for k, v in out.items()) \
            + " match numpy"
    stage.__doc__ = f"{cls.name}.cu: {TITLES[cls.name]}"
    return stage


def register(reg):
    for cls in CASES:
        reg.add(f"isa_{cls.name}", _stage(cls), depends=["memory", "semaphores"])
