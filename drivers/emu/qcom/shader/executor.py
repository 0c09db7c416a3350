"""Running a compute dispatch: workgroups one after another, fibers of a workgroup in lockstep.

Each step runs the instruction at the lowest PC any runnable fiber of the workgroup sits at, for
every fiber sitting there (numpy, one column per fiber); flow instructions move fibers apart,
reaching the same PC brings them together again. Waves (64 or 128 fibers, THREADSIZE) matter
where the hardware decides per wave: shared registers, bany/ball, getone, movmsk. The (ss)/(sy)
scoreboard and the ALU latency check (hazards.py) follow each fiber's path.

``run(dispatch)`` is a generator: it yields after every SLICE steps so whoever drives the GPU
(the virtual KGSL's command processor) can stop at a deadline and resume later, which is how a
wait gives up at its timeout while a shader is still running. ``dispatch.executed`` counts
wave-instructions; past ``dispatch.budget`` the shader is declared hung (ShaderHang).
"""
from dataclasses import dataclass, field

import numpy as np

from drivers.emu.faults import ShaderHang
from drivers.errors import GPUError

from .hazards import Hazards, Latency
from .operands import Limits
from .program import ShaderProgram
from .state import Workgroup

SLICE = 64                        # steps between yields
NO_REG = 0xFC                     # regid r63.x: "not provided" in HLSQ_CS_CNTL_0/1


@dataclass
class Ibo:
    """One IBO descriptor (A6XX_TEX_CONST layout) as the shader sees it: a linear buffer."""
    index: int
    base: int
    elements: int
    element_bytes: int
    format: str


@dataclass
class Dispatch:
    vm: object                          # drivers.emu.vm.GpuVM
    code: bytes                         # the shader image
    consts: np.ndarray                  # uint32 words of the const file (CONSTLEN * 4)
    full_regs: int                      # FULLREGFOOTPRINT (vec4 registers)
    local_size: tuple
    groups: tuple
    wave: int = 64                      # 64 or 128 fibers (THREADSIZE)
    entry: int = 0                      # first instruction
    half_regs: int = 0
    localid_regid: int = NO_REG
    wgid_regid: int = NO_REG
    wgsize_regid: int = NO_REG
    wgoffset_regid: int = NO_REG
    linear_localid_regid: int = NO_REG
    global_offset: tuple = (0, 0, 0)
    first_group: tuple = (0, 0, 0)
    local_bytes: int = 0
    ibos: dict = field(default_factory=dict)
    ubos: dict = field(default_factory=dict)
    private: tuple = (0, 0, 0)          # (base VA, bytes per fiber, fiber slots)
    budget: int = None                  # wave-instructions before the shader counts as hung
    executed: int = 0
    preamble_done: bool = False
    limits: Limits = None

    def __post_init__(self):
        if self.wave not in (64, 128):
            raise GPUError(f"THREADSIZE gives waves of {self.wave} fibers; a6xx has 64 or 128")
        if self.limits is None:
            self.limits = Limits(self.full_regs, self.consts.size // 4)

    def ibo(self, index, pc):
        ibo = self.ibos.get(index)
        if ibo is None:
            have = ", ".join(str(i) for i in sorted(self.ibos)) or "none"
            raise GPUError(f"PC 0x{pc:x}: IBO {index} is not loaded (CP_LOAD_STATE6 ST6_IBO loaded: {have})")
        return ibo

    def ubo(self, index, pc):
        ubo = self.ubos.get(index)
        if ubo is None:
            raise GPUError(f"PC 0x{pc:x}: UBO {index} is not loaded (CP_LOAD_STATE6 ST6_UBO)")
        return ubo

    def private_slot(self, wg, fibers):
        return np.asarray(fibers, np.int64)


class Runner:
    """The executor state the ops see: registers, dispatch, per-fiber PCs and barrier state."""

    def __init__(self, prog, ctx, wg):
        self.prog, self.ctx, self.wg = prog, ctx, wg
        F = wg.F
        self.pcs = np.full(F, ctx.entry, np.int64)
        self.alive = wg.valid.copy()
        self.blocked = np.zeros(F, bool)
        self.bar_pc = np.zeros(F, np.int64)
        self.hazards = Hazards(F, prog.ops, wg.wave)
        self.latency = Latency(F, prog.ops, wg.wave)

    def steps(self):
        ops, ctx, wg = self.prog.ops, self.ctx, self.wg
        n = len(ops)
        pcs, alive, blocked = self.pcs, self.alive, self.blocked
        count = 0
        while True:
            runnable = alive & ~blocked
            if not runnable.any():
                if not alive.any():
                    return
                waiting = self.bar_pc[alive]
                if (waiting != waiting[0]).any():
                    raise GPUError(f"barrier deadlock: fibers wait at bar instructions at PCs "
                                   f"{', '.join(f'0x{int(p):x}' for p in np.unique(waiting))}")
                blocked[:] = False
                continue
            pc = int(pcs[runnable].min())
            if pc >= n:
                raise GPUError(f"fibers ran past the last instruction (PC 0x{n - 1:x}) without reaching end")
            active = runnable & (pcs == pc)
            op = ops[pc]
            self.hazards.before(op, active)
            self.latency.before(op, active)
            op.run(self, active)
            self.hazards.after(op, active)
            self.latency.after(op, active)
            if not op.flow:
                pcs[active] = pc + 1
            ctx.executed += int(np.count_nonzero(wg.waves_active(active)))
            if ctx.budget is not None and ctx.executed > ctx.budget:
                raise ShaderHang(pc, ctx.executed)
            count += 1
            if count % SLICE == 0:
                yield


def _set3(wg, regid, values):
    """Three consecutive full registers from ``regid`` (r63.x = none)."""
    if regid == NO_REG or regid is None:
        return
    for k, v in enumerate(values):
        if v is not None:
            wg.R[regid + k] = v


def run(d):
    """Run every workgroup of dispatch ``d``; a generator (see the module docstring)."""
    prog = ShaderProgram.get(d.code, d.limits)
    if not 0 <= d.entry < len(prog):
        raise GPUError(f"shader entry at instruction {d.entry} is outside the {len(prog)}-instruction program")
    lx, ly, lz = d.local_size
    fibers = lx * ly * lz
    lin = np.arange(fibers)
    lid = (lin % lx, (lin // lx) % ly, lin // (lx * ly))
    gx0, gy0, gz0 = d.first_group
    gx, gy, gz = d.groups
    for z in range(gz0, gz0 + gz):
        for y in range(gy0, gy0 + gy):
            for x in range(gx0, gx0 + gx):
                wg = Workgroup(fibers, d.wave, d.local_bytes)
                pad = wg.F - fibers
                local = [np.pad(v.astype(np.uint32), (0, pad)) for v in lid]
                _set3(wg, d.localid_regid, local)
                _set3(wg, d.wgid_regid, (x, y, z))
                _set3(wg, d.wgsize_regid, (lx, ly, lz))
                ox, oy, oz = d.global_offset
                _set3(wg, d.wgoffset_regid, (x * lx + ox, y * ly + oy, z * lz + oz))
                if d.linear_localid_regid not in (NO_REG, None):
                    wg.R[d.linear_localid_regid] = np.pad(lin.astype(np.uint32), (0, pad))
                yield from Runner(prog, d, wg).steps()


def run_to_end(d):
    """Run dispatch ``d`` without slicing; returns wave-instructions executed."""
    for _ in run(d):
        pass
    return d.executed
