"""The RDNA3 (gfx1100) wave simulator: the executor the virtual GPU runs dispatches with.

    WaveExecutor(budget=..., valu=...)(dispatch) -> Stats

Layout: state (register files with a wave axis), program (decode cache of closures), executor
(PC-grouped scheduling, barriers, budget), launch (initial wave state), scalar/hwreg/control
(SALU), smem, vector/dpp (VALU dispatch to the valu library), memory/vmaccess/atomics
(GLOBAL/FLAT/SCRATCH), lds (DS), buffer (MUBUF).
"""
from .executor import DEFAULT_BUDGET, Stats, WaveExecutor

__all__ = ["DEFAULT_BUDGET", "Stats", "WaveExecutor"]
