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

from drivers.emu.faults import MissingWait, PacketError, Preempted, ShaderHang
from drivers.emu.amd.gpu import debug_level, log

from .launch import TEMPLATE_WORKGROUPS, Template, build_state, check_dispatch, lds_allocation, vgpr_count, \
    workgroup_table
from .block_runtime import count_nonzero
from .block_views import register_views
from .program import Program
from .state import EXEC_LO, LANE_IDS, WAVE32
from .waits import WaveStates

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
        self.dispatches += other.dispatches
        self.workgroups += other.workgroups
        self.waves += other.waves
        self.wave_instructions += other.wave_instructions
        self.lane_ops += other.lane_ops


class ValuEnv:
    """The VALU library seen by the closures: the op registry and a Ctx factory."""

    def __init__(self, registry=None):
        self._registry = registry              # None: the VALU library, loaded on first use
        self._modes = {}
        self._lanes = {}                       # lane-id arrays per group size (read-only views)

    @property
    def registry(self):
        if self._registry is None:
            from .valu import VALU
            self._registry = VALU
        return self._registry

    @property
    def Ctx(self):
        from .valu import Ctx
        return Ctx

    @property
    def FloatMode(self):
        from .valu import FloatMode
        return FloatMode

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

    def lanes(self, n):
        lane = self._lanes.get(n)
        if lane is None:
            lane = self._lanes[n] = np.broadcast_to(LANE_IDS, (n, WAVE32))
        return lane

    def ctx_factory(self, st, sel, lane_mask, kw, cache=None):
        """The Ctx of one execution; ``cache`` (a dict owned by the instruction) keeps mask-free
        ones per (MODE, group size), the only things they depend on."""
        first = int(st.wave_ids[sel][0])
        n = st.pc[sel].shape[0]
        mode = int(st.mode[first])
        if lane_mask is None and cache is not None:
            ctx = cache.get((mode, n))
            if ctx is not None:
                return ctx
        lane = self.lanes(n)
        ctx = self.Ctx(mode=self.float_mode(mode), mask=lane_mask, lane=lane, wave32=True, **kw)
        if lane_mask is None and cache is not None:
            if len(cache) > 64:
                cache.clear()
            cache[(mode, n)] = ctx
        return ctx


_BUDGETS = {}                        # GPU_EMULATE_BUDGET text -> its checked value


def budget_from_env():
    """GPU_EMULATE_BUDGET, checked (a SettingError naming it), or the default (each text is
    checked once; a bad one raises every time)."""
    raw = os.environ.get(BUDGET_ENV)
    value = _BUDGETS.get(raw)
    if value is None:
        from drivers.settings import env_int
        value = env_int(BUDGET_ENV, DEFAULT_BUDGET, 1, None, "expected a positive number of wave-instructions "
                        f"one dispatch may execute (default {DEFAULT_BUDGET})")
        if len(_BUDGETS) >= 16:
            _BUDGETS.clear()
        _BUDGETS[raw] = value
    return value


class WaveExecutor:
    """``executor(dispatch)`` runs a Dispatch; usable as ``VirtualGPU.executor``.

    budget: wave-instructions a dispatch may execute before ShaderHang (None: the
    GPU_EMULATE_BUDGET environment variable, read and checked at the executor's first dispatch,
    or 50M; the virtual machine reads it once when it is created, simulate() at each call
    without an executor given); valu: an op registry replacing the VALU
    library; batch_waves: waves simulated together (workgroups are never split); keep_state: keep
    the final WaveState of every batch in ``states``; blocks: run straight-line blocks compiled
    into one function each (False: one instruction at a time, the reference they must match).
    ``preempt()`` (from another thread) stops the dispatch in progress at its next instruction.
    """

    def __init__(self, budget=None, valu=None, batch_waves=DEFAULT_BATCH_WAVES, keep_state=False,
                 blocks=True):
        self.blocks = blocks                  # compiled blocks (False: one instruction at a time)
        self.budget = budget                  # None: GPU_EMULATE_BUDGET or the default (_settings)
        self.keep_state = keep_state          # keep each batch's final WaveState (tests inspect it)
        self.states = []
        self.env = ValuEnv(valu)
        self.batch_waves = batch_waves
        self.programs = {}
        self._shapes = {}                     # what a dispatch shape fixes (_Shape)
        self.stats = Stats()
        self.last = None
        self._budget = None                   # [remaining, allowed] of the dispatch in progress
        self._preempted = False
        self._settings = None                 # (budget, DEBUG level) read at the first dispatch

    def preempt(self):
        """Make the dispatch in progress stop at its next instruction (its queue is going away):
        the remaining budget drops below zero, which every instruction checks."""
        self._preempted = True
        budget = self._budget
        if budget is not None:
            budget[0] = -(1 << 62)

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
        key = (d.code_va, d.rsrc1, d.rsrc2, d.wave32, d.grid_workgroups, d.workgroup_size, d.grid_size,
               d.lds_bytes, d.scratch_base, d.tmpring_size, d.private_segment_size)
        try:
            shape = self._shapes.get(key)
        except TypeError:                         # lists in place of tuples
            key = tuple(tuple(v) if isinstance(v, list) else v for v in key)
            shape = self._shapes.get(key)
        if shape is None:
            shape = self._shape(d, key)
        program = shape.program
        if program is None or not program.matches(d.vm):
            program = shape.program = self.program(d.vm, d.code_va, shape.vgprs)
        settings = self._settings
        if settings is None:                      # (the environment is read once: it costs a small dispatch)
            settings = self._settings = (self.budget if self.budget is not None else budget_from_env(),
                                         debug_level())
        workgroups = waves = executed = lane_ops = 0
        allowed = budget if budget is not None else settings[0]
        budget = self._budget = [allowed, allowed]        # remaining, allowed
        self._preempted = False
        user, clock = d.user_sgprs[:shape.user_sgprs], getattr(d, "clock", None)
        try:
            with np.errstate(all="ignore"):       # NaN, inf, overflow in a lane are ISA results
                for ids, extents, template in shape.batches:
                    if self._preempted:
                        raise ShaderHang(d.code_va, 0)
                    if template is not None:
                        st = template.instantiate(d.vm, user, clock)
                    else:
                        st = build_state(d, ids, extents, shape.vgprs, shape.scratch)
                    workgroups += len(ids)
                    waves += st.W
                    if self.keep_state:
                        self.states.append(st)
                    try:
                        run_waves(st, program, budget, self.blocks, d.code_va)
                    finally:
                        executed += st.wave_instructions
                        lane_ops += st.lane_ops
                    if template is not None and not self.keep_state:
                        template.release(st)
        except ShaderHang:
            if self._preempted:
                raise Preempted(f"dispatch at 0x{d.code_va:x} preempted after {executed} "
                                "wave-instructions: its queue is being destroyed") from None
            raise
        finally:
            self._budget = None
        stats = self.last = Stats(1, workgroups, waves, executed, lane_ops)
        self.stats.add(stats)
        if settings[1] >= 2:
            log(2, f"wave simulator: {stats.workgroups} workgroups, {stats.waves} waves, "
                   f"{stats.wave_instructions} wave-instructions at 0x{d.code_va:x}")
        return stats

    def _shape(self, d, key):
        """The _Shape of dispatch ``d`` (checked: a dispatch that fails a check is never kept)."""
        check_dispatch(d)
        vgprs = vgpr_count(d.rsrc1)
        scratch = scratch_layout(d)
        limit = min(self.batch_waves, max(1, BATCH_VGPR_BYTES // (vgprs * WAVE32 * 4)))
        if scratch is not None and scratch[3]:
            limit = min(limit, scratch[3])       # waves with a scratch slot at the same time
        group_limit = max(1, BATCH_LDS_BYTES // max(1, lds_allocation(d)))
        ids, extents, waves = workgroup_table(d)
        for a in (ids, extents):
            a.flags.writeable = False             # kept: the batches' views of them are reused
        if scratch is not None and scratch[3] and int(waves.max()) > scratch[3]:
            raise PacketError(f"COMPUTE_TMPRING_SIZE.WAVES is {scratch[3]}: fewer scratch slots than "
                              f"the {int(waves.max())} waves of one workgroup")
        cuts, first, batch_waves = [], 0, 0
        for i, n in enumerate(waves.tolist()):    # batches of whole workgroups, in launch order
            if i > first and (batch_waves + n > limit or i - first >= group_limit):
                cuts.append((first, i))
                first, batch_waves = i, 0
            batch_waves += n
        cuts.append((first, len(waves)))
        scratch = scratch[:3] if scratch is not None else None
        keep = len(cuts) <= MAX_TEMPLATED_BATCHES
        batches = []
        for lo, hi in cuts:
            b_ids, b_extents = ids[lo:hi], extents[lo:hi]
            template = Template(d, b_ids, b_extents, vgprs, scratch) \
                if keep and hi - lo <= TEMPLATE_WORKGROUPS else None
            batches.append((b_ids, b_extents, template))
        shape = _Shape(vgprs, scratch, tuple(batches), d.user_sgpr_count)
        if len(self._shapes) >= MAX_SHAPES:
            self._shapes.pop(next(iter(self._shapes)))
        self._shapes[key] = shape
        return shape


class _Shape:
    """What the executor works out once per dispatch shape (everything of a Dispatch but its VM,
    user SGPR values and clock): VGPRs, scratch layout, the batches of workgroups with the
    Template of each batch's initial state (small ones), and the program it last ran."""
    __slots__ = ("vgprs", "scratch", "batches", "user_sgprs", "program")

    def __init__(self, vgprs, scratch, batches, user_sgprs):
        self.vgprs, self.scratch, self.batches, self.user_sgprs = vgprs, scratch, batches, user_sgprs
        self.program = None


MAX_SHAPES = 16                      # dispatch shapes kept per executor
MAX_TEMPLATED_BATCHES = 4            # shapes with more batches build every batch's state anew


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


def run_waves(st, program, budget, blocks=True, start=None):
    """Execute every wave of ``st`` to s_endpgm.  budget: [remaining, allowed] wave-instructions,
    shared by the batches of a dispatch.  blocks: run compiled blocks (block.py) where they
    apply; False executes one instruction at a time (the reference the blocks must match).
    start: the PC every wave of ``st`` sits at, none done or parked (a new batch: the first
    group is every wave)."""
    env = program.env
    waits = program.waits
    compiled, parks = program.blocks, program.parks
    states = WaveStates(waits, st.W)          # each wave's memory operations in flight (waits.py)
    group = pending = None
    held, joined = 0, False                   # (see the end of the loop)
    if start is not None:
        group = (start, slice(None), st.W, True, _PAST_EVERY_PC)
    st.split = None
    while True:
        if group is None:
            group = _next_group(st)
            if group is None:
                return
        pc, sel, n, whole, others = group
        group = None
        if states.common is not None:             # (every wave in the same state: the usual case)
            ws, same = states.common, True
        else:
            ws, sel, n, same = states.enter(sel, n)
            if not same:                          # the rest of the waves at pc run later
                whole, others = False, pc
        entry, stepping, riders = ws, False, None
        views = register_views(st, sel) if blocks and type(sel) is slice else None
        while True:
            if blocks and st.mode_uniform and not stepping:
                block = compiled.get(pc) or program.block(pc)
                cost = n * block.count
                if riders is not None:            # (what the waves riding along do not execute)
                    cost -= riders[0] * riders[1]
                after = ws.blocks.get(pc) or waits.after_block(ws, block)
                if after is None:                 # a missing wait in it: one instruction at a time
                    stepping = True
                elif budget[0] >= cost:
                    budget[0] -= cost
                    base, lanes = st.wave_instructions, st.lane_ops
                    st.wave_instructions = base + cost
                    st.lane_ops = lanes + WAVE32 * (n * block.vector - (riders[0] * riders[2] if riders else 0))
                    try:
                        consts = block.prepared(int(st.mode[0]), n, env)
                        if views is None:
                            target = (block.fx or block.index_fn())(st, sel, n, consts)
                        else:
                            target = (block.fs or block.slice_fn())(st, sel, n, consts, views)
                    except BaseException as e:
                        i = block.failed_at(e.__traceback__)
                        i = block.count - 1 if i is None else i
                        done, vector = n * (i + 1), n * block.vector_upto[i]
                        if riders is not None and i < riders[1]:
                            done -= riders[0] * (i + 1)
                            vector -= riders[0] * block.vector_upto[i]
                        elif riders is not None:
                            done -= riders[0] * riders[1]
                            vector -= riders[0] * riders[2]
                        st.wave_instructions = base + done
                        st.lane_ops = lanes + WAVE32 * vector
                        budget[0] += cost - done
                        st.pc[sel] = block.pcs[i]
                        if riders is not None and i < riders[1]:    # (they are still at their target)
                            rows = np.arange(st.W)[sel][riders[3]]
                            st.pc[rows] = riders[4]
                        raise
                    ws, riders = after, None
                    if target is None and st.split is not None:
                        riders = _riders(program, st, sel, n, ws, budget)
                        if riders is not None:    # the other waves' block, with these along
                            pc = riders[5]
                            continue
                    if not (block.sets_pc or block.ends):
                        pc = block.next_pc
                        continue
                    if target is not None and (whole or target < others):
                        pc = int(target)          # a uniform branch: the group runs on (see below)
                        continue
                    barrier = 0 if block.ends else parks.get(block.pcs[-1])
                    if barrier is None:
                        barrier = program.parks_at(block.pcs[-1])
                    parked = block.ends or barrier
                    break
            step = program.step(pc)
            budget[0] -= n
            if budget[0] < 0:
                st.pc[sel] = pc
                raise ShaderHang(pc, budget[1] - budget[0] - n)
            st.wave_instructions += n
            if step.vector:
                st.lane_ops += n * WAVE32
            try:
                ws = ws.steps.get(pc) or waits.after_step(ws, pc)
            except MissingWait:
                st.pc[sel] = pc
                raise
            if step.sets_pc or step.ends:
                st.pc[sel] = pc
                target = step.fn(st, sel)
                if target is not None and (whole or target < others):
                    pc = int(target)          # a uniform branch: the group runs on (see below)
                    continue
                barrier = step.next_pc if getattr(step.fn, "parks", False) else 0
                parked = step.ends or barrier
                break
            if step.fn is not None:
                try:
                    step.fn(st, sel)
                except BaseException:
                    st.pc[sel] = pc
                    raise
            pc = step.next_pc
        if ws is not entry:
            states.leave(sel, n, ws)
        # Picks of _next_group known without asking it: the halves of a divergent branch of
        # every runnable wave (the lower PC's half, then the other once the first has parked at
        # s_barrier or ended: nothing else is runnable then).  When every runnable wave has just
        # parked at s_barrier, every live wave waits there: released at once; and when those
        # are every wave of the batch, parked at one s_barrier (by one group, or by the two
        # halves of one branch), they go on from it as one group.
        split, st.split = st.split, None
        waiting, held = held, 0
        if pending is not None:
            if same and parked:
                group, held = pending, barrier    # (where the first half waits, if at a barrier)
            pending = None
        elif whole and split is not None:
            group, pending = _halves(sel, split)
            joined = n == st.W
        elif whole and barrier:
            st.at_barrier.fill(False)
            if n == st.W or joined and waiting == barrier:
                group = (barrier, slice(None), st.W, True, _PAST_EVERY_PC)
        elif whole and parked and not np.count_nonzero(st.at_barrier):
            return                                # every runnable wave has ended, none waits


# Only small groups ride: there a block call costs numpy's fixed cost per operation, whatever the
# waves, and splitting costs two groups' overhead; a big group would do the riders' masked work too.
RIDE_WAVES = 64


def _riders(program, st, sel, n, ws, budget):
    """After a divergent branch of the group ``sel`` (``st.split``): when the waves that jump
    have EXEC zero and the fall-through block may carry them to their target (Program.ride),
    the whole group runs that block next (it leaves those waves as they were up to their target,
    then they go on with the others) instead of splitting.  Returns (their number, instructions
    and vector instructions of the block they do not execute, their mask over the group, their
    target, the block's PC), or None (then the group splits)."""
    if n > RIDE_WAVES:
        return None
    taken, target, nxt = st.split
    ride = program.rides.get((nxt, target), False)
    if ride is False:
        ride = program.ride(nxt, target)
    if ride is None or count_nonzero(st.sregs[EXEC_LO, sel][taken]):
        return None
    block = program.blocks.get(nxt) or program.block(nxt)
    k = int(count_nonzero(taken))
    after = ws.blocks.get(nxt) or program.waits.after_block(ws, block)
    if after is None or budget[0] < n * block.count - k * ride[0]:
        return None
    own = ws                                  # the memory counters of the waves riding along,
    try:                                      # from their target on: as the group's must end
        for at in block.pcs[ride[0]:]:
            own = own.steps.get(at) or program.waits.after_step(own, at)
    except MissingWait:
        return None
    if own is not after:
        return None
    st.split = None
    return k, ride[0], ride[1], taken, target, nxt


def _halves(sel, split):
    """The next two groups after the group ``sel`` (every runnable wave) branched divergently:
    ``split`` = (taken mask over the group, target, fall-through PC)."""
    taken, target, nxt = split
    if target == nxt:
        return None, None
    low = taken if target < nxt else ~taken
    lo_pc, hi_pc = (target, nxt) if target < nxt else (nxt, target)
    first, second = low.nonzero()[0], (~low).nonzero()[0]
    if type(sel) is slice:
        if sel.start:
            first += sel.start
            second += sel.start
    else:
        first, second = sel[first], sel[second]
    return (lo_pc, _as_sel(first), first.shape[0], False, hi_pc), \
        (hi_pc, _as_sel(second), second.shape[0], True, _PAST_EVERY_PC)


def _as_sel(rows):
    """Ascending batch indices as a slice when contiguous (views, not copies), else themselves."""
    lo, hi = int(rows[0]), int(rows[-1])
    return slice(lo, hi + 1) if hi - lo + 1 == rows.shape[0] else rows


SMALL_BATCH = 64           # up to this many waves the scheduler works on Python lists
_PAST_EVERY_PC = 1 << 64   # ``others`` when no other wave is runnable
_BLOCKED = 1 << 62         # the PC a blocked wave sorts at (past every VA, fits the int64 PCs)


def _next_group(st):
    """(pc, sel, n, whole, others) of the next group to run: every runnable wave at the lowest
    PC (``sel`` a slice when they are contiguous, else their indices; ``whole`` when no other
    wave is runnable; ``others`` the lowest PC of the other runnable waves, past every PC when
    there are none), after releasing a barrier every live wave waits in; None when all are
    done.  A group whose uniform branch lands below ``others`` is what this function would pick
    next, so the executor runs it on without asking (a divergent loop's iterations while the
    other waves wait at its exit)."""
    W = st.W
    if W <= SMALL_BATCH:                # (count_nonzero: several times cheaper than .any() here)
        blocked = st.done | st.at_barrier
        idle = np.count_nonzero(blocked)
        if idle:
            if idle == W:
                if np.count_nonzero(st.at_barrier):
                    st.at_barrier.fill(False)
                    return _next_group(st)
                return None
            key = np.where(blocked, _BLOCKED, st.pc)     # blocked waves sort after every real PC
        else:
            key = st.pc
        pcs = key.tolist()
        distinct = sorted(set(pcs))
        pc = distinct[0]
        if len(distinct) == 1:                           # (then nothing is blocked)
            return pc, slice(None), W, True, _PAST_EVERY_PC
        # the group is every runnable wave exactly when the next key up is the blocked waves'
        others = distinct[1]
        whole = others == _BLOCKED
        if whole:
            others = _PAST_EVERY_PC
        n = pcs.count(pc)
        first = pcs.index(pc)
        if pcs[first:first + n].count(pc) == n:          # contiguous waves: views, not copies
            sel = slice(first, first + n)
        else:
            sel = (key == pc).nonzero()[0]
        return pc, sel, n, whole, others
    runnable = ~(st.done | st.at_barrier)
    if not runnable.any():
        if st.at_barrier.any():
            st.at_barrier[:] = False
            return _next_group(st)
        return None
    pc = int(st.pc[runnable].min())
    members = runnable & (st.pc == pc)
    n = int(np.count_nonzero(members))
    if n == W:
        return pc, slice(None), n, True, _PAST_EVERY_PC
    sel = np.flatnonzero(members)
    if int(sel[-1]) - int(sel[0]) + 1 == n:          # contiguous waves: views, not copies
        sel = slice(int(sel[0]), int(sel[-1]) + 1)
    rest = runnable & ~members
    others = int(st.pc[rest].min()) if rest.any() else _PAST_EVERY_PC
    return pc, sel, n, n == int(np.count_nonzero(runnable)), others
