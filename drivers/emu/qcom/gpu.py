"""The Adreno behind KGSL: the process's GPU address space and the submissions of every
context, executed one after another by the command processor in bounded slices.

Nothing runs when GPU_COMMAND queues work: the GPU advances only while someone waits for it
(WAITTIMESTAMP, READTIMESTAMP, a context or process teardown), and only until that wait's
deadline, so a submission returns at once and a wait gives up at its timeout with the shader
still mid-flight, deterministically (no thread). Within the GPU, each context's submissions
run in order; a submission whose sync points (timestamps of other contexts) have not retired
waits while others may run.

Faults end a submission the way KGSL's fault handling does for a context created with
KGSL_CONTEXT_NO_FAULT_TOLERANCE (the virtual KGSL never replays): the context is invalidated
(its later submissions are dropped, its memstore timestamps jump to the last queued one, waits
on it fail with EDEADLK, GPU_RESET_STAT says it was guilty), the GPU is reset, and other
contexts carry on. Two kinds of hang are detected, as KGSL's dispatcher detects them: a shader
that executes more than ``shader_budget`` wave-instructions in one dispatch, and a command
processor stuck in one wait (CP_WAIT_REG_MEM) for ``hang_timeout`` seconds.
"""
import time
from collections import deque

from drivers.emu.faults import HazardError, IllegalInstruction, MemoryFault, PacketError, ShaderHang
from drivers.emu.vm import GpuVM
from drivers.errors import GPUError

from .cp import BLOCKED, CommandProcessor

ALWAYS_ON_HZ = 19_200_000            # CP_ALWAYS_ON_COUNTER (the XO clock)
HANG_TIMEOUT = 2.0                   # adreno_drawobj_timeout: 2000 ms
SHADER_BUDGET = 50_000_000           # wave-instructions per dispatch before the GPU is declared hung
IDLE, PROGRESS = "idle", "progress"

FAULT_PAGE, FAULT_HANG, FAULT_GPU = "page fault", "GPU hang", "GPU fault"


class Submission:
    """One GPU_COMMAND: its context and timestamp, IB1s [(gpuaddr, dwords)], sync points
    [(context, timestamp)], and the preamble IBs that run when the GPU switches to the context."""
    __slots__ = ("context", "timestamp", "ibs", "syncs", "preambles", "gen", "blocked_since")

    def __init__(self, context, timestamp, ibs, syncs, preambles=()):
        self.context, self.timestamp, self.ibs, self.syncs = context, timestamp, ibs, syncs
        self.preambles = list(preambles)
        self.gen = None
        self.blocked_since = None

    def ready(self):
        return all(c.invalid or c.detached or c.retired >= ts for c, ts in self.syncs)


class AdrenoGPU:
    def __init__(self, card):
        self.card = card
        self.vm = GpuVM()
        self.cp = CommandProcessor(self)
        self.pending = deque()
        self.current = None
        self.shader_budget = SHADER_BUDGET
        self.hang_timeout = HANG_TIMEOUT
        self.dispatches = 0
        self.submissions = 0
        self.last_error = None
        self.last_dispatch = None           # the Dispatch the CP ran last (tests read what it did)
        self.last_context = None
        self._t0 = time.monotonic_ns()

    def always_on(self):
        """CP_ALWAYS_ON_COUNTER: 19.2 MHz ticks since the GPU came up."""
        return (time.monotonic_ns() - self._t0) * 24 // 1250

    @property
    def last_executed(self):
        """Wave-instructions the last dispatch executed."""
        return self.last_dispatch.executed if self.last_dispatch is not None else 0

    def submit(self, sub):
        self.pending.append(sub)
        self.submissions += 1

    def busy(self):
        return self.current is not None or bool(self.pending)

    def drop(self, context):
        """Forget every queued submission of ``context`` (invalidated or destroyed)."""
        self.pending = deque(s for s in self.pending if s.context is not context)
        if self.current is not None and self.current.context is context:
            self.current = None
            self.cp = CommandProcessor(self)

    # -- running ---------------------------------------------------------------------------------
    def run(self, done, deadline=None):
        """Advance until ``done()`` or the monotonic ``deadline``; returns done()."""
        while not done():
            if deadline is not None and time.monotonic() >= deadline:
                return done()
            state = self.step()
            if state == IDLE:
                return done()
            if state == BLOCKED:
                time.sleep(0.0005)         # a CP poll or a sync point: give the host a moment
        return True

    def _next_ready(self):
        seen = set()
        for sub in self.pending:
            if id(sub.context) in seen:
                continue                   # a context's submissions run in order
            seen.add(id(sub.context))
            if sub.ready():
                return sub
        return None

    def step(self):
        """One slice of work: IDLE (nothing can run), BLOCKED (waiting) or PROGRESS."""
        sub = self.current
        if sub is None:
            sub = self._next_ready()
            if sub is None:
                return BLOCKED if self.pending and self._sync_can_progress() else IDLE
            self.pending.remove(sub)
            switch = self.last_context is not sub.context
            self.last_context = sub.context
            sub.gen = self.cp.execute(sub.preambles + sub.ibs if switch else sub.ibs)
            self.current = sub
        try:
            result = next(sub.gen)
        except StopIteration:
            self.current = None
            sub.context.retire(sub.timestamp)
            return PROGRESS
        except (MemoryFault, PacketError, IllegalInstruction, ShaderHang, HazardError, GPUError) as e:
            self.current = None
            self.fault(sub, e)
            return PROGRESS
        if result == BLOCKED:
            now = time.monotonic()
            if sub.blocked_since is None:
                sub.blocked_since = now
            elif now - sub.blocked_since > self.hang_timeout:
                self.current = None
                where = self.cp.where
                self.fault(sub, GPUError(f"the CP made no progress for {self.hang_timeout:g} s at IB{where[0]} "
                                         f"0x{where[1]:x} dword {where[2]} ({where[3]})"), FAULT_HANG)
                return PROGRESS
            return BLOCKED
        sub.blocked_since = None
        return PROGRESS

    def _sync_can_progress(self):
        """Pending work waits on sync points: can anything still satisfy them?"""
        return any(c.retired < ts and any(s.context is c for s in self.pending)
                   for sub in self.pending for c, ts in sub.syncs)

    def fault(self, sub, error, kind=None):
        if kind is None:
            kind = FAULT_PAGE if isinstance(error, MemoryFault) else \
                FAULT_HANG if isinstance(error, ShaderHang) else FAULT_GPU
        ctx = sub.context
        msg = f"{kind} in context {ctx.id}, timestamp {sub.timestamp}: {error}"
        self.last_error = msg
        self.cp = CommandProcessor(self)            # the GPU is reset: CP state is gone
        self.last_context = None
        ctx.invalidate(kind, error, msg)
