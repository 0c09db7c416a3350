"""The wave scheduler: runs a dispatch's waves, batched, grouped by PC.

All waves of a batch live in one WaveState.  The scheduler picks the lowest PC among the waves
that can run, takes every wave sitting at that PC as a group, and runs the group straight
through non-branching instructions (one closure call executes an instruction for the whole
group).  After a branch the waves are regrouped; waves that wait in s_barrier are released when
no wave can run any more (then every live wave of every workgroup has arrived).  An instruction
budget turns an endless loop into ShaderHang.
"""
import os
from dataclasses import dataclass

import numpy as np

from drivers.emu.faults import PacketError, ShaderHang
from drivers.emu.amd.gpu import log

from .launch import (build_state, check_dispatch, lds_allocation, vgpr_count, waves_in, workgroup_extent,
                     workgroup_ids)
from .program import Program
from .state import LANE_IDS, WAVE32

DEFAULT_BUDGET = 50_000_000          # wave-instructions per dispatch
DEFAULT_BATCH_WAVES = 4096
MAX_PROGRAMS = 64                    # decoded programs kept per executor (oldest dropped first)
BATCH_VGPR_BYTES = 64 << 20          # a batch's VGPR file stays below this (256 VGPRs: 2048 waves)
BATCH_LDS_BYTES = 64 << 20           # and its LDS (64 KiB workgroups: 1024 at a time)
BUDGET_ENV = "GPU_EMULATE_BUDGET"


@dataclass
class Stats:
    """What one or more dispatches executed."""
    dispatches: int = 0
    workgroups: int = 0
    waves: int = 0
    wave_instructions: int = 0       # instructions executed, counted once per wave
    lane_ops: int = 0                # vector (VALU, memory, LDS) wave-instructions x 32 lanes

    def add(self, other):
        for k in ("dispatches", "workgroups", "waves", "wave_instructions", "lane_ops"):
            setattr(self, k, getattr(self, k) + getattr(other, k))


class ValuEnv:
    """The VALU library seen by the closures: the op registry and a Ctx factory."""

    def __init__(self, registry=None):
        from .valu import VALU, Ctx, FloatMode
        self.registry = VALU if registry is None else registry
        self.Ctx, self.FloatMode = Ctx, FloatMode
        self._modes = {}
        self._lanes = {}                       # lane-id arrays per group size (read-only views)

    def float_mode(self, mode):
        fm = self._modes.get(mode)
        if fm is None:
            fm = self._modes[mode] = self.FloatMode(
                # FP_DENORM per format: bit 0 keeps denormal inputs, bit 1 denormal results
                denorm_f32=bool(mode >> 5 & 1), denorm_f16_64=bool(mode >> 7 & 1),
                denorm_in_f32=bool(mode >> 4 & 1), denorm_in_f16_64=bool(mode >> 6 & 1),
                ieee=bool(mode >> 9 & 1), dx10_clamp=bool(mode >> 8 & 1),
                round_f32=mode & 3, round_f16_64=(mode >> 2) & 3)
        return fm

    def ctx_factory(self, st, sel, lane_mask, kw, cache=None):
        """The Ctx of one execution; ``cache`` (a dict owned by the instruction) keeps mask-free
        ones per (MODE, group size), the only things they depend on."""
        first = int(st.wave_ids[sel][0]) if not isinstance(sel, slice) else 0
        n = st.pc[sel].shape[0]
        mode = int(st.mode[first])
        if lane_mask is None and cache is not None:
            ctx = cache.get((mode, n))
            if ctx is not None:
                return ctx
        lane = self._lanes.get(n)
        if lane is None:
            lane = self._lanes[n] = np.broadcast_to(LANE_IDS, (n, WAVE32))
        ctx = self.Ctx(mode=self.float_mode(mode), mask=lane_mask, lane=lane, wave32=True, **kw)
        if lane_mask is None and cache is not None:
            if len(cache) > 64:
                cache.clear()
            cache[(mode, n)] = ctx
        return ctx


def budget_from_env():
    value = os.environ.get(BUDGET_ENV)
    if not value:
        return DEFAULT_BUDGET
    try:
        return int(value)
    except ValueError:
        raise ValueError(f"{BUDGET_ENV}={value!r} is not an integer instruction budget") from None


class WaveExecutor:
    """``executor(dispatch)`` runs a Dispatch; usable as ``VirtualGPU.executor``.

    budget: wave-instructions a dispatch may execute before ShaderHang (default 50M, or the
    GPU_EMULATE_BUDGET environment variable); valu: an op registry replacing the VALU library;
    batch_waves: waves simulated together (workgroups are never split); keep_state: keep the
    final WaveState of every batch in ``states``.
    """

    def __init__(self, budget=None, valu=None, batch_waves=DEFAULT_BATCH_WAVES, keep_state=False):
        self.budget = budget                  # None: GPU_EMULATE_BUDGET or the default, per dispatch
        self.keep_state = keep_state          # keep each batch's final WaveState (tests inspect it)
        self.states = []
        self.env = ValuEnv(valu)
        self.batch_waves = batch_waves
        self.programs = {}
        self.stats = Stats()
        self.last = None

    def program(self, vm, code_va, vgprs):
        # the first bytes of code tell apart kernels loaded at the same VA one after another
        r = vm.lookup(code_va)
        head = r.mem[code_va - r.start:code_va - r.start + 64].tobytes() if r is not None else b""
        key = (code_va, vgprs, head)
        p = self.programs.get(key)
        if p is None or not p.matches(vm):
            if len(self.programs) >= MAX_PROGRAMS:
                self.programs.pop(next(iter(self.programs)))
            p = self.programs[key] = Program(vm, vgprs, self.env)
        return p

    def __call__(self, d, budget=None):
        """Run dispatch ``d``; ``budget`` overrides the executor's for this dispatch."""
        check_dispatch(d)
        vgprs = vgpr_count(d.rsrc1)
        program = self.program(d.vm, d.code_va, vgprs)
        stats = Stats(dispatches=1)
        scratch = scratch_layout(d)
        limit = min(self.batch_waves, max(1, BATCH_VGPR_BYTES // (vgprs * WAVE32 * 4)))
        if scratch is not None and scratch[3]:
            limit = min(limit, scratch[3])       # waves with a scratch slot at the same time
        group_limit = max(1, BATCH_LDS_BYTES // max(1, lds_allocation(d)))
        batch, batch_waves = [], 0
        allowed = budget if budget is not None else self.budget if self.budget is not None else budget_from_env()
        budget = [allowed, allowed]               # remaining, allowed
        for wg_id in workgroup_ids(d):
            n = waves_in(workgroup_extent(d, wg_id))
            if scratch is not None and scratch[3] and n > scratch[3]:
                raise PacketError(f"COMPUTE_TMPRING_SIZE.WAVES is {scratch[3]}: fewer scratch slots than "
                                  f"the {n} waves of one workgroup")
            if batch and (batch_waves + n > limit or len(batch) >= group_limit):
                self._run(d, batch, vgprs, program, scratch, stats, budget)
                batch, batch_waves = [], 0
            batch.append(wg_id)
            batch_waves += n
        if batch:
            self._run(d, batch, vgprs, program, scratch, stats, budget)
        self.stats.add(stats)
        self.last = stats
        log(2, f"wave simulator: {stats.workgroups} workgroups, {stats.waves} waves, "
               f"{stats.wave_instructions} wave-instructions at 0x{d.code_va:x}")
        return stats

    def _run(self, d, wg_ids, vgprs, program, scratch, stats, budget):
        st = build_state(d, wg_ids, vgprs, scratch[:3] if scratch is not None else None)
        stats.workgroups += len(wg_ids)
        stats.waves += st.W
        if self.keep_state:
            self.states.append(st)
        try:
            run_waves(st, program, budget)
        finally:
            stats.wave_instructions += st.wave_instructions
            stats.lane_ops += st.lane_ops


def scratch_layout(d):
    """(base VA, bytes per wave, bytes per lane, concurrent wave slots) or None without scratch."""
    per_lane = d.private_segment_size
    if not (d.rsrc2 & 1) and not per_lane:
        return None
    tmpring_waves = d.tmpring_size & 0xFFF
    tmpring_wave_bytes = ((d.tmpring_size >> 12) & 0x7FFF) * 256
    if per_lane:
        per_lane = -(-per_lane // 4) * 4
    else:                       # PM4 dispatches only say how much scratch a wave has (TMPRING_SIZE)
        per_lane = tmpring_wave_bytes // WAVE32 // 4 * 4
    per_wave = max(tmpring_wave_bytes, per_lane * WAVE32)
    return (d.scratch_base, per_wave, per_lane, tmpring_waves)


def run_waves(st, program, budget):
    """Execute every wave of ``st`` to s_endpgm.  budget: [remaining, allowed] wave-instructions,
    shared by the batches of a dispatch."""
    W = st.W
    everyone = slice(None)
    while True:
        runnable = ~(st.done | st.at_barrier)
        if not runnable.any():
            if st.at_barrier.any():
                st.at_barrier[:] = False
                continue
            return
        pc = int(st.pc[runnable].min())
        members = runnable & (st.pc == pc)
        n = int(members.sum())
        sel = everyone if n == W else np.flatnonzero(members)
        whole = n == int(runnable.sum())         # no other wave could join this group
        while True:
            step = program.step(pc)
            budget[0] -= n
            if budget[0] < 0:
                st.pc[sel] = pc
                raise ShaderHang(pc, budget[1] - budget[0] - n)
            st.wave_instructions += n
            if step.vector:
                st.lane_ops += n * WAVE32
            if step.sets_pc or step.ends:
                st.pc[sel] = pc
                target = step.fn(st, sel)
                if target is not None and whole:
                    pc = int(target)          # a uniform branch: the group stays together
                    continue
                break
            if step.fn is not None:
                try:
                    step.fn(st, sel)
                except BaseException:
                    st.pc[sel] = pc
                    raise
            pc = step.next_pc
