"""The virtual KGSL: /dev/kgsl-3d0 answering ioctls as the kernel of Snapdragon 845 phones does.

This file: dispatch, properties and draw contexts. GPU memory is kgsl_memory.py, command
submission and timestamps kgsl_submit.py, the GPU they drive gpu.py (command processor cp.py,
ir3 simulator shader/).

Dispatch follows kgsl_ioctl_helper(): the command number (_IOC_NR) indexes the kernel's table of
its own request numbers; a number with no entry is ENOTTY (the VFS's answer to ENOIOCTLCMD).
min(caller's _IOC_SIZE, kernel's) bytes are copied in when both requests say _IOC_WRITE, the
rest of the kernel's struct is zero, and the struct is copied back only when the command
succeeds. So a caller with another struct size is not refused at the door: its fields land
where the kernel reads them, and the command's own checks (sizebytes, ids) refuse it.

The property and context rules are those of the msm-4.9 kernels those phones run: every
property checks `sizebytes` against its struct (EINVAL), an unknown property is EINVAL, a bad
`value` pointer EFAULT; a context must bring PREAMBLE and NO_GMEM_ALLOC (legacy context
switching is gone: EINVAL), a secure or LPAC context is EOPNOTSUPP here, a process may hold 200
contexts (ENOSPC past that), and an id it does not own is EINVAL. Commands of the kernel's
table that this virtual GPU does not serve yet are EINVAL with "not emulated", never a silent
success. Each refusal raises the kernel's errno with a message naming the rule (printed to
stderr with DEBUG>=2). One addition from newer KGSL: IOCTL_KGSL_GET_FAULT_REPORT, which tells a
context created with KGSL_CONTEXT_FAULT_INFO the address of the page fault that invalidated it.

Closing the last file of the process releases what it still holds (contexts, GPU objects), as
kgsl_release does; what was left that way is recorded in ``KgslDevice.leaked`` so a test can
tell a driver that cleans up from one that relies on the kernel.
"""
import errno
import os
import sys

import kgsl_ioctl as K
from cffi import FFI

from drivers.emu.kernel import DeviceFile
from drivers.emu.memory import PAGE_SIZE, HostMemory, host_range_mapped

from .gpu import FAULT_PAGE, AdrenoGPU
from .kgsl_memory import GPU_ONLY_BASE, MEMORY_BUDGET, MemoryHandlers
from .kgsl_submit import SubmitHandlers

_ffi = FFI()

# The kernel's ioctl table (kgsl_ioctl_funcs plus adreno's own), by command number.
KERNEL_TABLE = {K.by_request(getattr(K, name)).nr: getattr(K, name) for name in (
    "IOCTL_KGSL_DEVICE_GETPROPERTY", "IOCTL_KGSL_DEVICE_WAITTIMESTAMP_CTXTID",
    "IOCTL_KGSL_RINGBUFFER_ISSUEIBCMDS", "IOCTL_KGSL_SUBMIT_COMMANDS",
    "IOCTL_KGSL_CMDSTREAM_READTIMESTAMP_CTXTID", "IOCTL_KGSL_CMDSTREAM_FREEMEMONTIMESTAMP_CTXTID",
    "IOCTL_KGSL_DRAWCTXT_CREATE", "IOCTL_KGSL_DRAWCTXT_DESTROY", "IOCTL_KGSL_MAP_USER_MEM",
    "IOCTL_KGSL_SHAREDMEM_FROM_PMEM", "IOCTL_KGSL_SHAREDMEM_FREE", "IOCTL_KGSL_SHAREDMEM_FLUSH_CACHE",
    "IOCTL_KGSL_GPUMEM_ALLOC", "IOCTL_KGSL_TIMESTAMP_EVENT", "IOCTL_KGSL_SETPROPERTY",
    "IOCTL_KGSL_GPUMEM_ALLOC_ID", "IOCTL_KGSL_GPUMEM_FREE_ID", "IOCTL_KGSL_GPUMEM_GET_INFO",
    "IOCTL_KGSL_GPUMEM_SYNC_CACHE", "IOCTL_KGSL_GPUMEM_SYNC_CACHE_BULK", "IOCTL_KGSL_SYNCSOURCE_CREATE",
    "IOCTL_KGSL_SYNCSOURCE_DESTROY", "IOCTL_KGSL_SYNCSOURCE_CREATE_FENCE", "IOCTL_KGSL_SYNCSOURCE_SIGNAL_FENCE",
    "IOCTL_KGSL_GPUOBJ_ALLOC", "IOCTL_KGSL_GPUOBJ_FREE", "IOCTL_KGSL_GPUOBJ_INFO", "IOCTL_KGSL_GPUOBJ_IMPORT",
    "IOCTL_KGSL_GPUOBJ_SYNC", "IOCTL_KGSL_GPU_COMMAND", "IOCTL_KGSL_GPUOBJ_SET_INFO",
    "IOCTL_KGSL_SPARSE_PHYS_ALLOC", "IOCTL_KGSL_SPARSE_PHYS_FREE", "IOCTL_KGSL_SPARSE_VIRT_ALLOC",
    "IOCTL_KGSL_SPARSE_VIRT_FREE", "IOCTL_KGSL_SPARSE_BIND", "IOCTL_KGSL_GPU_SPARSE_COMMAND",
    "IOCTL_KGSL_PERFCOUNTER_GET", "IOCTL_KGSL_PERFCOUNTER_PUT", "IOCTL_KGSL_PERFCOUNTER_QUERY",
    "IOCTL_KGSL_PERFCOUNTER_READ", "IOCTL_KGSL_PREEMPTIONCOUNTER_QUERY", "IOCTL_KGSL_GET_FAULT_REPORT")}

IOC_IN, IOC_OUT = K._IOC_WRITE << 30, K._IOC_READ << 30
KGSL_MAX_CONTEXTS_PER_PROC = 200
# Context ids index the memstore: 8 pages of kgsl_devmemstore, less the global slot and the
# ringbuffers' (kgsl.h KGSL_MEMSTORE_MAX).
KGSL_MEMSTORE_SIZE = 8 * PAGE_SIZE
KGSL_MEMSTORE_MAX = KGSL_MEMSTORE_SIZE // K.ffi.sizeof("struct kgsl_devmemstore") - 2 - 4
KGSL_CONSTRAINT_PWR_MAXLEVELS = 2
# The virtual memstore's token in DEVICE_SHADOW (a GPU address of the global region on a6xx).
MEMSTORE_GPUADDR = 0xFC000000
CONTEXT_FLAGS_KEPT = (K.KGSL_CONTEXT_PREAMBLE | K.KGSL_CONTEXT_NO_GMEM_ALLOC | K.KGSL_CONTEXT_PER_CONTEXT_TS
                      | K.KGSL_CONTEXT_USER_GENERATED_TS | K.KGSL_CONTEXT_NO_FAULT_TOLERANCE
                      | K.KGSL_CONTEXT_INVALIDATE_ON_FAULT | K.KGSL_CONTEXT_CTX_SWITCH
                      | K.KGSL_CONTEXT_PRIORITY_MASK | K.KGSL_CONTEXT_TYPE_MASK | K.KGSL_CONTEXT_PWR_CONSTRAINT
                      | K.KGSL_CONTEXT_IFH_NOP | K.KGSL_CONTEXT_SECURE | K.KGSL_CONTEXT_PREEMPT_STYLE_MASK
                      | K.KGSL_CONTEXT_LPAC | K.KGSL_CONTEXT_NO_SNAPSHOT | K.KGSL_CONTEXT_FAULT_INFO)
KGSL_CONTEXT_PRIORITY_MED = 8
PROP_NAMES = {getattr(K, n): n for n in dir(K) if n.startswith("KGSL_PROP_")}


def log(level, msg):
    try:
        if int(os.environ.get("DEBUG", "0")) >= level:
            print(msg, file=sys.stderr)
    except ValueError:
        pass


class KgslError(OSError):
    """An ioctl refused the way KGSL refuses it; the message names the rule."""


def fail(err, rule):
    log(2, f"kgsl: {rule} -> {errno.errorcode.get(err, err)}")
    raise KgslError(err, rule)


def user_buffer(address, size, what):
    """The caller's memory at `address` (copy_from_user/copy_to_user): EFAULT if not mapped."""
    start = address & ~(PAGE_SIZE - 1)
    end = -(-(address + size) // PAGE_SIZE) * PAGE_SIZE
    if not address or not host_range_mapped(start, end - start):
        fail(errno.EFAULT, f"{what}: user pointer 0x{address:x} (+{size} bytes) is not mapped memory")
    return _ffi.buffer(_ffi.cast("char *", address), size)


class Context:
    """A draw context (kgsl_context): its id, the flags KGSL kept, who opened it, its timestamps
    (queued, retired; the retired one mirrored in the memstore) and what invalidated it."""

    def __init__(self, ctx_id, flags, owner, dev):
        self.id, self.flags, self.owner, self.dev = ctx_id, flags, owner, dev
        self.queued = 0
        self.retired = 0
        self.invalid = self.detached = False
        self.fault_text = None
        self.faults = []                    # [(VA, KGSL_PAGEFAULT_TYPE_*)] for GET_FAULT_REPORT
        self.reset_status = K.KGSL_CTX_STAT_NO_ERROR
        self.frees = []                     # [(timestamp, MemEntry)]: GPUOBJ_FREE on a timestamp
        self.pwr_constraint = (K.KGSL_CONSTRAINT_NONE, 0)

    @property
    def timestamp(self):
        return self.queued

    @property
    def priority(self):
        return (self.flags & K.KGSL_CONTEXT_PRIORITY_MASK) >> K.KGSL_CONTEXT_PRIORITY_SHIFT

    def retire(self, timestamp):
        self.retired = max(self.retired, timestamp)
        words = self.dev.memstore.array.view("uint32")
        base = self.id * K.ffi.sizeof("struct kgsl_devmemstore") // 4
        words[base] = words[base + 2] = self.retired & 0xFFFFFFFF       # soptimestamp, eoptimestamp
        due = [e for ts, e in self.frees if ts <= self.retired]
        if due:
            self.frees = [(ts, e) for ts, e in self.frees if ts > self.retired]
            for entry in due:
                self.owner.free_entry(entry)

    def invalidate(self, kind, error, text):
        """A fault: the context is done (adreno_drawctxt_invalidate); waiters see its last queued
        timestamp retired, and every later wait or submission on it is EDEADLK."""
        self.invalid = True
        self.fault_text = text
        self.reset_status = K.KGSL_CTX_STAT_GUILTY_CONTEXT_RESET_EXT
        if kind == FAULT_PAGE:
            rw = K.KGSL_PAGEFAULT_TYPE_WRITE if getattr(error, "write", False) else K.KGSL_PAGEFAULT_TYPE_READ
            self.faults.append((error.va, rw | K.KGSL_PAGEFAULT_TYPE_TRANSLATION))
        self.dev.gpu.drop(self)
        self.retire(self.queued)
        log(1, f"kgsl: {text}")

    def detach(self):
        """DRAWCTXT_DESTROY / release: let queued work finish (up to the dispatcher's timeout),
        then drop what is left."""
        import time
        gpu = self.dev.gpu
        if self.retired < self.queued and not self.invalid:
            gpu.run(lambda: self.retired >= self.queued or self.invalid, time.monotonic() + gpu.hang_timeout)
        self.detached = True
        gpu.drop(self)
        self.retire(self.queued)


class KgslDevice:
    """The machine's kgsl-3d0 (struct kgsl_device): the card it reports and the live contexts."""

    def __init__(self, card, preemption=True):
        self.card = card
        self.preemption = preemption        # the A630 supports it (ADRENO_PREEMPTION)
        self.contexts = {}                  # id -> Context
        self.files = []
        self.pwrctrl_enabled = True
        self.gpu = AdrenoGPU(card)
        self.memstore = HostMemory(KGSL_MEMSTORE_SIZE, "memstore")
        self.gpu.vm.map(MEMSTORE_GPUADDR, self.memstore.array, writable=False)
        # the process's GPU memory (one process per virtual machine)
        self.entries = {}                   # id -> MemEntry
        self.zombies = set()                # freed, still mapped
        self.next_id = 1
        self.gpu_only_next = GPU_ONLY_BASE
        self.memory_used = 0
        self.memory_budget = MEMORY_BUDGET
        self.leaked = []                    # what a closing process left for the kernel to clean up
        self.all_files = []                 # every file ever opened (mappings outlive their file)

    def open(self):
        f = KgslFile(self)
        self.files.append(f)
        return f

    def live(self):
        """What the process holds: open files, contexts, GPU objects (freed ones still mapped
        count), CPU mappings of KGSL, submissions not yet retired."""
        return {"files": len(self.files), "contexts": len(self.contexts),
                "objects": len(self.entries) + len(self.zombies) + sum(len(c.frees) for c in self.contexts.values()),
                "mappings": sum(len(f.mappings) for f in self.all_files),
                "pending": len(self.gpu.pending) + (self.gpu.current is not None)}


class KgslFile(MemoryHandlers, SubmitHandlers, DeviceFile):
    """One open /dev/kgsl-3d0 (struct kgsl_device_private)."""

    def __init__(self, dev):
        self.dev = dev
        self.mappings = []                  # CPU mappings made through this file, not yet unmapped
        dev.all_files.append(self)

    @staticmethod
    def fail(err, rule):
        fail(err, rule)

    # -- dispatch --------------------------------------------------------------------------------
    def ioctl(self, request, buf):
        nr, usize = K._IOC_NR(request), K._IOC_SIZE(request)
        kernel_request = KERNEL_TABLE.get(nr)
        if kernel_request is None:
            fail(errno.ENOTTY, f"KGSL ioctl 0x{request:08x}: no KGSL command has number 0x{nr:02x}")
        info = K.by_request(kernel_request)
        if len(buf) < usize:
            fail(errno.EFAULT, f"{info.name}: _IOC_SIZE says {usize} bytes but the argument has {len(buf)}")
        kdata = bytearray(info.size)
        copy = min(usize, info.size)
        if kernel_request & IOC_IN and request & IOC_IN:
            kdata[:copy] = bytes(buf[:copy])
        handler = self.HANDLERS.get(info.name)
        if handler is None:
            fail(errno.EINVAL, f"{info.name}: not emulated by the virtual KGSL yet")
        log(2, f"kgsl: {info.name} ({usize} bytes)")
        handler(self, K.ffi.from_buffer(f"{info.ctype} *", kdata))
        if kernel_request & IOC_OUT and request & IOC_OUT:
            buf[:copy] = bytes(kdata[:copy])
        return 0

    def release(self):
        """Closing the file detaches the contexts created through it (kgsl_release); closing the
        process's last file frees its GPU objects (mapped ones live until munmap)."""
        dev = self.dev
        for ctx in [c for c in dev.contexts.values() if c.owner is self]:
            dev.leaked.append(f"context {ctx.id}")
            ctx.detach()
            del dev.contexts[ctx.id]
        dev.files.remove(self)
        if not dev.files:
            for entry in list(dev.entries.values()):
                dev.leaked.append(f"GPU object {entry.id} ({entry.size} bytes)")
                self.free_entry(entry)
        if not self.mappings:
            dev.all_files.remove(self)

    # -- properties -----------------------------------------------------------------------------
    def getproperty(self, param):
        what = f"IOCTL_KGSL_DEVICE_GETPROPERTY({PROP_NAMES.get(param.type, hex(param.type))})"
        prop = self.PROPERTIES.get(param.type)
        if prop is None:
            fail(errno.EINVAL, f"{what}: not a property this kernel serves")
        ctype, exact, handler = prop
        size = K.ffi.sizeof(ctype)
        if exact and param.sizebytes != size:
            fail(errno.EINVAL, f"{what}: sizebytes is {param.sizebytes}, the property is {size} bytes ({ctype})")
        if not exact and param.sizebytes < size:
            fail(errno.EINVAL, f"{what}: sizebytes is {param.sizebytes}, at least {size} needed ({ctype})")
        value = K.ffi.new(f"{ctype} *")
        handler(self, value, param, what)
        user_buffer(param.value, size, what)[:] = K.ffi.buffer(value)

    def _devinfo(self, v, param, what):
        card = self.dev.card
        v.device_id = 1                     # kgsl-3d0: device->id + 1
        v.chip_id = card.chip_id
        v.mmu_enabled = 1
        v.gmem_gpubaseaddr = 0              # a6xx GMEM has no GPU address
        v.gpu_id = 0                        # adreno leaves it 0: use the chip id
        v.gmem_sizebytes = card.gmem_bytes

    def _shadow(self, v, param, what):
        v.gpuaddr = MEMSTORE_GPUADDR
        v.size = KGSL_MEMSTORE_SIZE
        v.flags = K.KGSL_FLAGS_INITIALIZED | K.KGSL_FLAGS_PER_CONTEXT_TIMESTAMPS

    def _version(self, v, param, what):
        v.drv_major, v.drv_minor = K.KGSL_VERSION_MAJOR, K.KGSL_VERSION_MINOR
        v.dev_major, v.dev_minor = 3, 1

    def _reset_stat(self, v, param, what):
        ctx_id = int(_ffi.cast("uint32_t *", _ffi.from_buffer(user_buffer(param.value, 4, what)))[0])
        ctx = self.dev.contexts.get(ctx_id)
        if ctx is None:
            fail(errno.EINVAL, f"{what}: context {ctx_id} does not exist")
        v[0] = ctx.reset_status

    def _one(value):
        def handler(self, v, param, what):
            v[0] = value(self) if callable(value) else value
        return handler

    def _zero(self, v, param, what):
        pass                                # a zeroed struct: nothing of it exists here

    def _ucode(self, v, param, what):
        v.pfp = v.pm4 = 0                   # the virtual GPU runs no SQE firmware

    def _gpmu(self, v, param, what):
        fail(errno.EOPNOTSUPP, f"{what}: {self.dev.card.gpu_model} has no GPMU (a5xx feature)")

    # type -> (C type of value, sizebytes must equal its size (else: at least), handler)
    PROPERTIES = {
        K.KGSL_PROP_DEVICE_INFO: ("struct kgsl_devinfo", True, _devinfo),
        K.KGSL_PROP_DEVICE_SHADOW: ("struct kgsl_shadowprop", True, _shadow),
        K.KGSL_PROP_MMU_ENABLE: ("int32_t", False, _one(1)),
        K.KGSL_PROP_INTERRUPT_WAITS: ("int32_t", True, _one(1)),
        K.KGSL_PROP_VERSION: ("struct kgsl_version", True, _version),
        K.KGSL_PROP_GPU_RESET_STAT: ("uint32_t", True, _reset_stat),
        K.KGSL_PROP_UCHE_GMEM_VADDR: ("uint64_t", True, _one(0)),     # non-zero on a5xx only
        K.KGSL_PROP_SP_GENERIC_MEM: ("struct kgsl_sp_generic_mem", True, _zero),
        K.KGSL_PROP_UCODE_VERSION: ("struct kgsl_ucode_version", True, _ucode),
        K.KGSL_PROP_GPMU_VERSION: ("struct kgsl_gpmu_version", True, _gpmu),
        K.KGSL_PROP_HIGHEST_BANK_BIT: ("uint32_t", False, _one(lambda self: self.dev.card.highest_bank_bit)),
        K.KGSL_PROP_DEVICE_BITNESS: ("uint32_t", True, _one(48)),
    }
    del _one

    def setproperty(self, param):
        what = f"IOCTL_KGSL_SETPROPERTY({PROP_NAMES.get(param.type, hex(param.type))})"
        if param.type == K.KGSL_PROP_PWRCTRL:
            if param.sizebytes != 4:
                fail(errno.EINVAL, f"{what}: sizebytes is {param.sizebytes}, expected 4 (unsigned int)")
            enable = _ffi.cast("uint32_t *", _ffi.from_buffer(user_buffer(param.value, 4, what)))[0]
            self.dev.pwrctrl_enabled = bool(enable)
        elif param.type == K.KGSL_PROP_PWR_CONSTRAINT:
            size = K.ffi.sizeof("struct kgsl_device_constraint")
            if param.sizebytes != size:
                fail(errno.EINVAL, f"{what}: sizebytes is {param.sizebytes}, expected {size} "
                                   f"(struct kgsl_device_constraint)")
            constraint = K.ffi.new("struct kgsl_device_constraint *")
            K.ffi.buffer(constraint)[:] = user_buffer(param.value, size, what)
            ctx = self.dev.contexts.get(constraint.context_id)
            if ctx is None:
                fail(errno.EINVAL, f"{what}: context {constraint.context_id} does not exist")
            self._set_constraint(ctx, constraint, what)
        else:
            fail(errno.EINVAL, f"{what}: not a property this kernel lets a process set")

    def _set_constraint(self, ctx, constraint, what):
        if constraint.type == K.KGSL_CONSTRAINT_PWRLEVEL:
            if constraint.size != 4:
                fail(errno.EINVAL, f"{what}: constraint size is {constraint.size}, expected 4 "
                                   f"(struct kgsl_device_constraint_pwrlevel)")
            level = _ffi.cast("uint32_t *", _ffi.from_buffer(user_buffer(constraint.data, 4, what)))[0]
            if level >= KGSL_CONSTRAINT_PWR_MAXLEVELS:
                fail(errno.EINVAL, f"{what}: power level {level} is neither KGSL_CONSTRAINT_PWR_MIN nor _MAX")
            ctx.pwr_constraint = (K.KGSL_CONSTRAINT_PWRLEVEL, int(level))
        elif constraint.type == K.KGSL_CONSTRAINT_NONE:
            ctx.pwr_constraint = (K.KGSL_CONSTRAINT_NONE, 0)
        else:
            fail(errno.EINVAL, f"{what}: constraint type {constraint.type} is not KGSL_CONSTRAINT_NONE "
                               f"or _PWRLEVEL")

    # -- draw contexts --------------------------------------------------------------------------
    def drawctxt_create(self, a):
        what = "IOCTL_KGSL_DRAWCTXT_CREATE"
        flags = a.flags & CONTEXT_FLAGS_KEPT
        if not self.dev.preemption:
            flags &= ~K.KGSL_CONTEXT_PREEMPT_STYLE_MASK
        if not flags & K.KGSL_CONTEXT_PREAMBLE or not flags & K.KGSL_CONTEXT_NO_GMEM_ALLOC:
            fail(errno.EINVAL, f"{what}: flags 0x{a.flags:08x} lack KGSL_CONTEXT_PREAMBLE and "
                               f"KGSL_CONTEXT_NO_GMEM_ALLOC (legacy context switching is not supported)")
        if flags & K.KGSL_CONTEXT_SECURE:
            fail(errno.EOPNOTSUPP, f"{what}: secure contexts need a secure MMU, which the virtual GPU has not")
        if flags & K.KGSL_CONTEXT_LPAC:
            fail(errno.EOPNOTSUPP, f"{what}: LPAC contexts are not supported by {self.dev.card.gpu_model}")
        owned = len(self.dev.contexts)      # one process per virtual machine
        if owned > KGSL_MAX_CONTEXTS_PER_PROC:   # the kernel checks before counting the new one
            fail(errno.ENOSPC, f"{what}: the process already has {owned} contexts "
                               f"(KGSL_MAX_CONTEXTS_PER_PROC {KGSL_MAX_CONTEXTS_PER_PROC})")
        ctx_id = next((i for i in range(1, KGSL_MEMSTORE_MAX) if i not in self.dev.contexts), None)
        if ctx_id is None:
            fail(errno.ENOSPC, f"{what}: all {KGSL_MEMSTORE_MAX - 1} memstore slots are in use")
        flags |= K.KGSL_CONTEXT_PER_CONTEXT_TS
        if not flags & K.KGSL_CONTEXT_PRIORITY_MASK:
            flags |= KGSL_CONTEXT_PRIORITY_MED << K.KGSL_CONTEXT_PRIORITY_SHIFT
        self.dev.contexts[ctx_id] = ctx = Context(ctx_id, flags, self, self.dev)
        ctx.retire(0)                       # its memstore slot starts at 0
        a.flags, a.drawctxt_id = flags, ctx_id

    def drawctxt_destroy(self, a):
        ctx = self.dev.contexts.get(a.drawctxt_id)
        if ctx is None or ctx.owner is not self:
            fail(errno.EINVAL, f"IOCTL_KGSL_DRAWCTXT_DESTROY: context {a.drawctxt_id} does not exist")
        ctx.detach()
        del self.dev.contexts[a.drawctxt_id]

    HANDLERS = {
        "IOCTL_KGSL_DEVICE_GETPROPERTY": getproperty,
        "IOCTL_KGSL_SETPROPERTY": setproperty,
        "IOCTL_KGSL_DRAWCTXT_CREATE": drawctxt_create,
        "IOCTL_KGSL_DRAWCTXT_DESTROY": drawctxt_destroy,
        "IOCTL_KGSL_GPUOBJ_ALLOC": MemoryHandlers.gpuobj_alloc,
        "IOCTL_KGSL_GPUOBJ_FREE": MemoryHandlers.gpuobj_free,
        "IOCTL_KGSL_GPUOBJ_INFO": MemoryHandlers.gpuobj_info,
        "IOCTL_KGSL_GPUOBJ_SYNC": MemoryHandlers.gpuobj_sync,
        "IOCTL_KGSL_GPUMEM_ALLOC_ID": MemoryHandlers.gpumem_alloc_id,
        "IOCTL_KGSL_GPUMEM_FREE_ID": MemoryHandlers.gpumem_free_id,
        "IOCTL_KGSL_GPUMEM_GET_INFO": MemoryHandlers.gpumem_get_info,
        "IOCTL_KGSL_GPUMEM_SYNC_CACHE": MemoryHandlers.gpumem_sync_cache,
        "IOCTL_KGSL_GPU_COMMAND": SubmitHandlers.gpu_command,
        "IOCTL_KGSL_DEVICE_WAITTIMESTAMP_CTXTID": SubmitHandlers.waittimestamp_ctxtid,
        "IOCTL_KGSL_CMDSTREAM_READTIMESTAMP_CTXTID": SubmitHandlers.readtimestamp_ctxtid,
        "IOCTL_KGSL_GET_FAULT_REPORT": SubmitHandlers.get_fault_report,
    }
