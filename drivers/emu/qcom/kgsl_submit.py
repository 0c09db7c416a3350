"""Command submission and timestamps in the virtual KGSL: GPU_COMMAND, WAITTIMESTAMP_CTXTID,
READTIMESTAMP_CTXTID, GET_FAULT_REPORT.

GPU_COMMAND follows kgsl_ioctl_gpu_command and the adreno dispatcher of msm-4.9: more than
100000 command or memory objects or 32 sync points is EINVAL; a list whose count, pointer and
element size do not agree is EINVAL; each command object must be flagged IB or a preamble and
each memory object MEMOBJ (EINVAL); an IB of 0 bytes, not a whole number of dwords or over 2^20
dwords is EINVAL; a timestamp sync point needs an 8-byte payload, an existing context and, on
its own context, an already queued timestamp (EINVAL); a context that faulted is EDEADLK. With
no IBs the submission is a marker. A context holds at most 50 queued submissions; the next one
waits for room (ETIMEDOUT after the dispatcher's 2 s). Preamble IBs run only when the GPU
switches to the context, as KGSL skips them otherwise.

A context's timestamps count its submissions (or are the caller's with
KGSL_CONTEXT_USER_GENERATED_TS); the retired one is also in the memstore (soptimestamp and
eoptimestamp of the context's slot), which user space may map read-only. WAITTIMESTAMP drives
the GPU until the timestamp retires or the timeout (ms; 0 waits for ever) passes: ETIMEDOUT;
EINVAL for a timestamp not queued yet; EDEADLK once the context is invalidated.
"""
import errno
import time

import kgsl_ioctl as K

from .gpu import Submission

KGSL_MAX_NUMIBS = 100000
KGSL_MAX_SYNCPOINTS = 32
CONTEXT_QUEUE = 50                        # _context_drawqueue_size
CMDLIST_FLAGS = K.KGSL_CMDLIST_IB | K.KGSL_CMDLIST_CTXTSWITCH_PREAMBLE | K.KGSL_CMDLIST_IB_PREAMBLE
POLL_SLICE = 0.005                        # seconds of GPU progress a READTIMESTAMP allows


def _items(user_buffer, ptr, count, size, ctype, what):
    """copy_struct_from_user of ``count`` elements of ``size`` bytes into ``ctype`` structs."""
    full = K.ffi.sizeof(ctype)
    raw = user_buffer(ptr, count * size, what)
    out = []
    for i in range(count):
        item = K.ffi.new(f"{ctype} *")
        n = min(full, size)
        K.ffi.buffer(item)[:n] = raw[i * size:i * size + n]
        out.append(item)
    return out


class SubmitHandlers:
    """The submission ioctls of KgslFile."""

    def _context(self, ctx_id, what):
        ctx = self.dev.contexts.get(ctx_id)
        if ctx is None or ctx.owner is not self:
            self.fail(errno.EINVAL, f"{what}: context {ctx_id} does not exist")
        return ctx

    def _verify_list(self, count, ptr, size, what, name):
        """_verify_input_list: all three given (True), all three zero (False), else EINVAL."""
        if count == 0 and ptr == 0 and size == 0:
            return False
        if count == 0 or ptr == 0 or size == 0:
            self.fail(errno.EINVAL, f"{what}: {name} list has count {count}, pointer 0x{ptr:x}, element size {size}")
        return True

    def gpu_command(self, a):
        what = "IOCTL_KGSL_GPU_COMMAND"
        from .kgsl import user_buffer
        if a.numcmds > KGSL_MAX_NUMIBS or a.numobjs > KGSL_MAX_NUMIBS or a.numsyncs > KGSL_MAX_SYNCPOINTS:
            self.fail(errno.EINVAL, f"{what}: {a.numcmds} commands, {a.numobjs} objects, {a.numsyncs} sync points "
                                    f"(at most {KGSL_MAX_NUMIBS}, {KGSL_MAX_NUMIBS}, {KGSL_MAX_SYNCPOINTS})")
        marker = bool(a.flags & K.KGSL_CMDBATCH_MARKER)
        sync_only = bool(a.flags & K.KGSL_CMDBATCH_SYNC) and not marker
        ctx = self._context(a.context_id, what)
        syncs = []
        if a.numsyncs or sync_only:
            if not self._verify_list(a.numsyncs, a.synclist, a.syncsize, what, "sync point"):
                self.fail(errno.EINVAL, f"{what}: a SYNC submission without sync points")
            for sp in _items(user_buffer, a.synclist, a.numsyncs, a.syncsize, "struct kgsl_command_syncpoint", what):
                syncs.append(self._syncpoint(ctx, sp, what))
        ibs, preambles = [], []
        if not sync_only and not marker and a.numcmds:
            if self._verify_list(a.numcmds, a.cmdlist, a.cmdsize, what, "command"):
                for obj in _items(user_buffer, a.cmdlist, a.numcmds, a.cmdsize, "struct kgsl_command_object", what):
                    if not obj.flags & CMDLIST_FLAGS:
                        self.fail(errno.EINVAL, f"{what}: command object flags 0x{obj.flags:x} are neither "
                                                "KGSL_CMDLIST_IB nor a preamble")
                    if obj.size == 0 or obj.size % 4 or obj.size // 4 > 0xFFFFF or obj.gpuaddr == 0:
                        self.fail(errno.EINVAL, f"{what}: IB at 0x{obj.gpuaddr:x} of {obj.size} bytes (a non-zero "
                                                "address and 4 .. 4 MiB, a whole number of dwords)")
                    ib = (obj.gpuaddr + obj.offset if obj.offset else obj.gpuaddr, obj.size // 4)
                    (ibs if obj.flags & K.KGSL_CMDLIST_IB else preambles).append(ib)
            if a.numobjs and self._verify_list(a.numobjs, a.objlist, a.objsize, what, "memory object"):
                for obj in _items(user_buffer, a.objlist, a.numobjs, a.objsize, "struct kgsl_command_object", what):
                    if not obj.flags & K.KGSL_OBJLIST_MEMOBJ:
                        self.fail(errno.EINVAL, f"{what}: memory object flags 0x{obj.flags:x} lack "
                                                "KGSL_OBJLIST_MEMOBJ")
        if ctx.invalid:
            self.fail(errno.EDEADLK, f"{what}: context {ctx.id} was invalidated by a {ctx.fault_text}")
        self._make_room(ctx, what)
        if ctx.flags & K.KGSL_CONTEXT_USER_GENERATED_TS:
            if a.timestamp <= ctx.queued:
                self.fail(errno.ERANGE, f"{what}: user timestamp {a.timestamp} does not follow {ctx.queued}")
            ts = a.timestamp
        else:
            ts = ctx.queued + 1
        ctx.queued = ts
        gpu = self.dev.gpu
        gpu.submit(Submission(ctx, ts, ibs, syncs, preambles))
        a.timestamp = ts

    def _syncpoint(self, ctx, sp, what):
        from .kgsl import user_buffer
        if sp.type != K.KGSL_CMD_SYNCPOINT_TYPE_TIMESTAMP:
            self.fail(errno.EINVAL, f"{what}: sync point type {sp.type}; the virtual KGSL waits on timestamps "
                                    "(fences and timelines need sync files it does not have)")
        size = K.ffi.sizeof("struct kgsl_cmd_syncpoint_timestamp")
        if sp.size != size:
            self.fail(errno.EINVAL, f"{what}: timestamp sync point payload of {sp.size} bytes, {size} expected")
        payload = K.ffi.new("struct kgsl_cmd_syncpoint_timestamp *")
        K.ffi.buffer(payload)[:] = user_buffer(sp.priv, size, what)
        other = self.dev.contexts.get(payload.context_id)
        if other is None:
            self.fail(errno.EINVAL, f"{what}: sync point on context {payload.context_id}, which does not exist")
        if other is ctx and payload.timestamp > ctx.queued:
            self.fail(errno.EINVAL, f"{what}: sync point on timestamp {payload.timestamp} of its own context, "
                                    f"which has queued only {ctx.queued}")
        return other, payload.timestamp

    def _make_room(self, ctx, what):
        gpu = self.dev.gpu
        def queued():
            return sum(1 for s in gpu.pending if s.context is ctx)
        if queued() < CONTEXT_QUEUE:
            return
        gpu.run(lambda: queued() < CONTEXT_QUEUE or ctx.invalid, time.monotonic() + gpu.hang_timeout)
        if ctx.invalid:
            self.fail(errno.EDEADLK, f"{what}: context {ctx.id} was invalidated by a {ctx.fault_text}")
        if queued() >= CONTEXT_QUEUE:
            self.fail(errno.ETIMEDOUT, f"{what}: context {ctx.id} still has {CONTEXT_QUEUE} submissions queued")

    # -- timestamps ------------------------------------------------------------------------------
    def waittimestamp_ctxtid(self, a):
        what = "IOCTL_KGSL_DEVICE_WAITTIMESTAMP_CTXTID"
        ctx = self._context(a.context_id, what)
        if ctx.invalid:
            self.fail(errno.EDEADLK, f"{what}: context {ctx.id} was invalidated by a {ctx.fault_text}")
        if not ctx.flags & K.KGSL_CONTEXT_USER_GENERATED_TS and a.timestamp > ctx.queued:
            self.fail(errno.EINVAL, f"{what}: timestamp {a.timestamp} of context {ctx.id} is not queued "
                                    f"(last queued: {ctx.queued})")
        deadline = time.monotonic() + a.timeout / 1000 if a.timeout else None
        done = self.dev.gpu.run(lambda: ctx.retired >= a.timestamp or ctx.invalid, deadline)
        if ctx.invalid:
            self.fail(errno.EDEADLK, f"{what}: context {ctx.id} was invalidated by a {ctx.fault_text}")
        if not done:
            gpu = self.dev.gpu
            why = "" if deadline is not None else " (nothing on the GPU can retire it: the wait would never end)"
            if gpu.current is not None and gpu.current.context is ctx and gpu.cp.where is not None:
                level, va, pos, name = gpu.cp.where
                why += f"; the CP is at IB{level} 0x{va:x} dword {pos} ({name})"
            self.fail(errno.ETIMEDOUT, f"{what}: context {ctx.id} timestamp {a.timestamp} not retired after "
                                       f"{a.timeout} ms; retired {ctx.retired}{why}")

    def readtimestamp_ctxtid(self, a):
        what = "IOCTL_KGSL_CMDSTREAM_READTIMESTAMP_CTXTID"
        ctx = self._context(a.context_id, what)
        self.dev.gpu.run(lambda: False, time.monotonic() + POLL_SLICE)       # a poller sees progress
        if a.type == K.KGSL_TIMESTAMP_QUEUED:
            a.timestamp = ctx.queued
        elif a.type in (K.KGSL_TIMESTAMP_RETIRED, K.KGSL_TIMESTAMP_CONSUMED):
            a.timestamp = ctx.retired
        else:
            self.fail(errno.EINVAL, f"{what}: type {a.type} is not CONSUMED, RETIRED or QUEUED")

    def get_fault_report(self, a):
        """GET_FAULT_REPORT of newer KGSL: for an invalidated context created with FAULT_INFO,
        the number of fault types, the count per type, or the page fault records."""
        what = "IOCTL_KGSL_GET_FAULT_REPORT"
        from .kgsl import user_buffer
        ctx = self._context(a.context_id, what)
        if not ctx.flags & K.KGSL_CONTEXT_FAULT_INFO or not ctx.invalid:
            self.fail(errno.EINVAL, f"{what}: context {ctx.id} is {'valid' if not ctx.invalid else 'invalid'} and "
                                    f"{'has' if ctx.flags & K.KGSL_CONTEXT_FAULT_INFO else 'lacks'} "
                                    "KGSL_CONTEXT_FAULT_INFO (the report is for invalidated FAULT_INFO contexts)")
        if not a.faultlist:
            a.faultnents = K.KGSL_FAULT_TYPE_MAX
            return
        size = K.ffi.sizeof("struct kgsl_fault")
        stride = a.faultsize
        if stride == 0:
            self.fail(errno.EINVAL, f"{what}: faultsize is 0")
        entries = _items(user_buffer, a.faultlist, a.faultnents, stride, "struct kgsl_fault", what)
        pages = [f for f in ctx.faults]
        raw = user_buffer(a.faultlist, a.faultnents * stride, what)
        if all(e.fault == 0 for e in entries):          # a request for the counts
            if pages and a.faultnents:
                out = K.ffi.new("struct kgsl_fault *", {"type": K.KGSL_FAULT_TYPE_PAGEFAULT, "count": len(pages)})
                n = min(size, stride)
                raw[0:n] = K.ffi.buffer(out)[:n]
            return
        for e in entries:
            if e.type >= K.KGSL_FAULT_TYPE_MAX:
                self.fail(errno.EINVAL, f"{what}: fault type {e.type}")
            if e.type != K.KGSL_FAULT_TYPE_PAGEFAULT or not e.fault:
                continue
            rsize = K.ffi.sizeof("struct kgsl_pagefault_report")
            n = min(rsize, e.size)
            for k, (va, kind) in enumerate(pages[:e.count]):
                rec = K.ffi.new("struct kgsl_pagefault_report *", {"fault_addr": va, "fault_type": kind})
                user_buffer(e.fault + k * e.size, n, what)[:] = K.ffi.buffer(rec)[:n]

