"""The SASS simulator of the virtual NVIDIA GPU (sm_86, sm_89, sm_90).

``execute(launch)`` runs one grid the compute class decoded from a QMD (drivers.emu.nv.compute.Launch):
warps of 32 lanes, vectorized across lanes and warps with numpy, each lane with its own PC (Volta and
later), the uniform datapath, convergence barriers, shared, local and constant memory, atomics, the
tensor cores (HMMA), and the rules of the control bits: scoreboards (hazards.py) and the stall counts
that must cover fixed latencies (stalls.py).  The instruction words are decoded by the SASS assembler
(assembler.sass).  Modules: executor (scheduling), state (register files and memories), operands,
hazards, stalls, memory, and the instruction families ops_int, ops_float,
ops_half, ops_memory, ops_warp, ops_uniform, ops_control.
"""
from drivers.emu.nv.sass.executor import execute
from drivers.emu.nv.sass.hazards import HazardError

__all__ = ["HazardError", "execute"]
