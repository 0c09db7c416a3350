"""QCOMDevice: the Adreno GPU of a Snapdragon phone driven through KGSL, or the virtual Adreno 630.

    dev = QCOMDevice()                     # /dev/kgsl-3d0; or QCOMDevice(emulate="a630"), or GPU_EMULATE=a630
    buf = dev.alloc(nbytes)                # shared CPU/GPU memory (cached=True: write-back + cache maintenance)
    buf.copyin(a); buf.copyout(b)
    prg = dev.load("vadd.asm")             # an assembler.ir3 Program, container bytes, or a .asm/.ir3 path
    secs = prg["vadd"](x, y, out, grid=(n // 64,), wait=True)
    dev.synchronize(); dev.close()

Opening: /dev/kgsl-3d0 (an arm64 process), DEVICE_INFO (an a6xx chip, else DeviceNotFound with
the reason), a compute context (PREAMBLE | NO_GMEM_ALLOC | NO_FAULT_TOLERANCE | PWR_CONSTRAINT,
fine-grained preemption, and FAULT_INFO where the kernel keeps it), the clock pinned at its top
level (SETPROPERTY PWR_CONSTRAINT, best effort), the memstore mapped read-only so timestamps
are read without a system call, then a command arena and a page for timestamps.

Every launch is one GPU_COMMAND whose timestamp is the completion the device waits on (see
signals.py). A page fault or a hang KGSL detects invalidates the context: the wait that sees it
raises GPUFault (with the faulting address when the kernel reports it, GET_FAULT_REPORT) or
GPUHang, and the device makes a new context so it stays usable. A wait past its timeout is
GPUHang naming the pending launch; the stuck context is replaced the same way. close()
releases every buffer, the context, the mappings and the file.
"""
import errno
import os
import sys

import numpy as np

import kgsl_ioctl as K
from drivers.device import Device, as_bytes, check_range, debug_level, describe, dims
from drivers.errors import DeviceNotFound, GPUFault, GPUHang, IoctlError
from drivers.kernel import MAP_SHARED, PROT_READ, RealKernel
from drivers.qcom import chips, kgsl
from drivers.qcom.compute import ALWAYS_ON_HZ, ComputeQueue, private_bytes_per_sp
from drivers.qcom.memory import Memory
from drivers.qcom.program import Program
from drivers.qcom.signals import DEFAULT_TIMEOUT, ContextLost, KgslTimeline

SIGNAL_PAGE = 4096
TIMESTAMPS_OFFSET, FLUSH_OFFSET = 0, 64
EMULATE_HINT = "to use the virtual Adreno 630 instead: QCOMDevice(emulate='a630') or GPU_EMULATE=a630"
CONTEXT_FLAGS = kgsl.COMPUTE_CONTEXT_FLAGS | K.KGSL_CONTEXT_FAULT_INFO


class QCOMDevice(Device):
    def __init__(self, index=0, emulate=None, *, kernel=None, timeout=DEFAULT_TIMEOUT, path=kgsl.KGSL_DEVICE):
        if index != 0:
            raise DeviceNotFound(f"Qualcomm GPU {index}: a phone has one Adreno (kgsl-3d0); use index 0")
        if kernel is None:
            from drivers.emu import emulation_target, make_kernel, parse_target, targets
            target = emulation_target(emulate)
            if target:
                vendor = targets().get(parse_target(target)[0])
                if vendor != "qcom":
                    raise DeviceNotFound(f"emulation target {target!r} is a virtual {vendor.upper()} GPU, not an Adreno")
                kernel = make_kernel(target)
            else:
                kernel = RealKernel()
        self.kernel, self.index, self.timeout, self.path = kernel, index, timeout, path
        self.closed = False
        self.debug = debug_level()
        self.fd = self.context_id = self.memory = self.queue = self.timeline = None
        self.signal_page = self.memstore = self.private = None
        self.fault_info = False
        self._open()

    @property
    def name(self):
        return f"QCOMDevice {self.index}"

    # -- opening ---------------------------------------------------------------------------------
    def _open(self):
        try:
            self._open_node()
            self.info = kgsl.device_info(self.kernel, self.fd)
            reason = chips.unsupported_reason(self.info.chip_id)
            if reason:
                raise DeviceNotFound(f"{self.path}: {reason}")
            chip = chips.lookup(self.info.chip_id)
            self.chip = chip
            self.target = f"a{chip.gpu_id}"
            self.context_id, kept = kgsl.create_context(self.kernel, self.fd, CONTEXT_FLAGS)
            self.fault_info = bool(kept & K.KGSL_CONTEXT_FAULT_INFO)
            self._pin_clock()
            self.memory = Memory(self.kernel, self.fd)
            self.timeline = KgslTimeline(self.kernel, self.fd, self.context_id, self._map_memstore(),
                                         timeout=self.timeout)
            self.signal_page = self.alloc(SIGNAL_PAGE)
            self.timestamps_va = self.signal_page.va + TIMESTAMPS_OFFSET
            self.flush_va = self.signal_page.va + FLUSH_OFFSET
            self.timestamps = self.signal_page.view(np.uint64, TIMESTAMPS_OFFSET, 2)
            self.queue = ComputeQueue(self)
        except BaseException:
            self.close()
            raise
        if self.debug >= 1:
            print(f"QCOMDevice {self.index}: {self.chip.name} (chip 0x{self.info.chip_id:08x}), KGSL "
                  f"{self.info.kgsl_version or '?'}, context {self.context_id}"
                  f"{', fault reports' if self.fault_info else ''}", file=sys.stderr)

    def _open_node(self):
        if not self.kernel.exists(self.path):
            raise DeviceNotFound(f"no Qualcomm GPU: {self.path} does not exist (not a Snapdragon device, or its "
                                 f"kernel drives the Adreno with drm/msm instead of KGSL); {EMULATE_HINT}")
        try:
            self.fd = kgsl.open_device(self.kernel, self.path)
        except K.UnsupportedABI as e:
            raise DeviceNotFound(str(e)) from None
        except PermissionError:
            from drivers.qcom.probe import permission_hint
            raise DeviceNotFound(f"permission denied opening {self.path}: "
                                 f"{permission_hint(self.kernel, self.path)}") from None
        except OSError as e:
            raise DeviceNotFound(f"cannot open {self.path}: {os.strerror(e.errno or errno.EIO)}") from None

    def _pin_clock(self):
        """Ask for the top power level while the context lives (as tinygrad does); a kernel that
        refuses only costs speed."""
        level = K.ffi.new("uint32_t *", K.KGSL_CONSTRAINT_PWR_MAX)
        c = K.new("kgsl_device_constraint", type=K.KGSL_CONSTRAINT_PWRLEVEL, context_id=self.context_id,
                  data=K.address_of(level), size=4)
        args = K.new("kgsl_device_getproperty", type=K.KGSL_PROP_PWR_CONSTRAINT, value=K.address_of(c),
                     sizebytes=K.ffi.sizeof(c[0]))
        try:
            self.kernel.ioctl(self.fd, K.IOCTL_KGSL_SETPROPERTY, args, "IOCTL_KGSL_SETPROPERTY(KGSL_PROP_PWR_CONSTRAINT)")
        except IoctlError as e:
            if self.debug >= 1:
                print(f"QCOMDevice {self.index}: clock not pinned ({e})", file=sys.stderr)

    def _map_memstore(self):
        """The memstore, read-only; None when the kernel does not offer it (timestamps are then
        read with READTIMESTAMP)."""
        try:
            addr, size = kgsl.shadow(self.kernel, self.fd)
            self.memstore = self.kernel.mmap(self.fd, size, addr, PROT_READ, MAP_SHARED)
        except (IoctlError, OSError) as e:
            if self.debug >= 1:
                print(f"QCOMDevice {self.index}: memstore not mapped ({e}); timestamps by ioctl", file=sys.stderr)
            return None
        return self.memstore.view(np.uint32)

    # -- memory ----------------------------------------------------------------------------------
    def alloc(self, nbytes, cached=False, gpu_readonly=False):
        """A buffer of ``nbytes``; ``cached``: write-back CPU mapping (fast CPU access, copyin /
        copyout do the cache maintenance); ``gpu_readonly``: the GPU may not write it."""
        self._check_open()
        buf = self.memory.alloc(nbytes, cached=cached, gpu_readonly=gpu_readonly)
        buf.device = self
        return buf

    def copyin(self, buf, src, offset=0):
        """Host -> buffer: waits for submitted work (which may use the buffer), then copies."""
        src = as_bytes(src, "copyin source")
        check_range(buf, offset, src.size, "copyin")
        self._check_open()
        if src.size:
            self.synchronize()
            buf.view()[offset:offset + src.size] = src
            buf.sync_to_gpu(offset, src.size)

    def copyout(self, dst, buf, offset=0):
        out = as_bytes(dst, "copyout destination")
        if not out.flags.writeable:
            raise ValueError("copyout destination is read-only")
        check_range(buf, offset, out.size, "copyout")
        self._check_open()
        if out.size:
            self.synchronize()
            buf.sync_from_gpu(offset, out.size)
            out[:] = buf.view()[offset:offset + out.size]
        return dst

    def private_va(self, kernel):
        """Private memory big enough for ``kernel`` (grown when needed, after the GPU is idle)."""
        if not kernel.private_bytes:
            return 0
        need = private_bytes_per_sp(kernel) * 2
        if self.private is None or self.private.size < need:
            self.synchronize()
            if self.private is not None:
                self.private.free()
            self.private = self.alloc(need)
        return self.private.va

    # -- programs and launches -------------------------------------------------------------------
    def load(self, program, name=None, threadsize=None):
        """An ir3 program (assembler.ir3 Program, container bytes, .asm or .ir3 path) in GPU
        memory; ``threadsize`` 64 or 128 overrides the program's @threadsize."""
        self._check_open()
        return Program(self, program, name, threadsize)

    def launch(self, kernel, args, grid, block=None, wait=False, timeout=None):
        self._check_open()
        grid = dims(grid, "grid")
        block = kernel.localsize if block is None else dims(block, "block")
        items = block[0] * block[1] * block[2]
        if items > 1024:
            raise ValueError(f"kernel {kernel.name}: block {block} has {items} work-items; the Adreno 630 takes "
                             "at most 1024")
        words, buffers = kernel.pack(args, grid)
        what = ("dispatch of {} grid {} block {}", kernel.name, grid, block)
        if self.debug >= 1:
            print(f"QCOMDevice {self.index}: dispatch of {kernel.name} grid {grid} block {block} "
                  f"wave{kernel.threadsize}", file=sys.stderr)
        value = self._guard(lambda: self.queue.launch(kernel, words, buffers, grid, block, wait, what))
        if not wait:
            return None
        self._wait(value, timeout)
        start, end = int(self.timestamps[0]), int(self.timestamps[1])
        return (end - start) / ALWAYS_ON_HZ

    def submit_pm4(self, words, description="raw PM4"):
        """Run a raw A6XX command stream (a list of dwords) as one IB; returns the timeline value
        that marks its completion (``synchronize`` or ``wait(value)`` waits for it)."""
        self._check_open()
        q = self.queue
        return self._guard(lambda: q.submit([(q.put(words), len(words))], description))

    def wait(self, value, timeout=None):
        """Wait until the timeline reaches ``value`` (a launch's or submit_pm4's)."""
        self._check_open()
        self._wait(value, timeout)

    def command_buffer(self):
        """A recorder for launches replayed with one GPU_COMMAND per submit."""
        from drivers.qcom.replay import CommandBuffer
        return CommandBuffer(self)

    # -- waiting, faults, teardown ---------------------------------------------------------------
    def _guard(self, fn):
        """A submission step; a fault or hang seen while it waits for arena space recovers."""
        before = self.timeline.value
        try:
            return fn()
        except ContextLost as e:
            raise self._lost(e, self.timeline.last_submitted, before) from None
        except GPUHang:
            self.recover()
            raise

    def _wait(self, value, timeout=None):
        before = self.timeline.value
        try:
            self.timeline.wait(value, self.timeout if timeout is None else timeout)
        except GPUHang as e:
            self.recover()
            raise GPUHang(e.last_value, e.expected, f"{e.in_flight}; the context was replaced") from None
        except ContextLost as e:
            raise self._lost(e, value, before) from None

    def _lost(self, lost, value, before):
        """KGSL invalidated the context: ask why (GPU_RESET_STAT, GET_FAULT_REPORT), make a new
        context, and say it as GPUFault or GPUHang."""
        faults = []
        if self.fault_info:
            try:
                faults = kgsl.page_faults(self.kernel, self.fd, self.context_id)
            except IoctlError:
                faults = []
        t = self.timeline
        # KGSL retires everything of an invalidated context: name the first submission that had
        # not completed when the wait began
        pending = sorted(v for v in t.in_flight if before < v <= value) or [value]
        what = f"{t.name} value {pending[0]}: {describe(t.in_flight.get(pending[0], 'unknown work'))}"
        self.recover()
        if faults:
            va, kind = faults[0]
            access = "write" if kind & K.KGSL_PAGEFAULT_TYPE_WRITE else "read"
            reason = "page not present" if kind & K.KGSL_PAGEFAULT_TYPE_TRANSLATION else "permission"
            return GPUFault(va, reason, f"{access}; {what}; {lost.error}")
        return GPUHang(before, value, f"{what} (KGSL reset the GPU: {lost.error})")

    def recover(self):
        """Replace the context (after a fault, a hang, or a wait that gave up): the old one is
        destroyed with whatever it still had queued, the timeline continues on the new one."""
        old = self.context_id
        try:
            kgsl.destroy_context(self.kernel, self.fd, old)
        except IoctlError as e:
            if self.debug >= 1:
                print(f"QCOMDevice {self.index}: destroying context {old}: {e}", file=sys.stderr)
        self.context_id, _ = kgsl.create_context(self.kernel, self.fd, CONTEXT_FLAGS)
        self.timeline.rebase(self.context_id)
        self.queue.reset()
        if self.debug >= 1:
            print(f"QCOMDevice {self.index}: context {old} replaced by {self.context_id}", file=sys.stderr)

    def synchronize(self, timeout=None):
        """Wait until every submitted launch has finished."""
        self._check_open()
        t = self.timeline
        if t is not None and t.value < t.last_submitted:
            self._wait(t.last_submitted, timeout)

    def close(self):
        if self.closed:
            return
        self.closed = True
        errors = []

        def attempt(fn):
            try:
                fn()
            except Exception as e:          # teardown goes on; the first problem is re-raised at the end
                errors.append(e)

        self._finish_before_close(self.timeline)
        if self.context_id is not None:
            attempt(lambda: kgsl.destroy_context(self.kernel, self.fd, self.context_id))
        if self.memory is not None:
            attempt(self.memory.close)
        if self.memstore is not None:
            attempt(lambda: self.kernel.munmap(self.memstore))
        if self.fd is not None:
            attempt(lambda: self.kernel.close(self.fd))
        if errors:
            raise errors[0]

    def __repr__(self):
        state = "closed" if self.closed else f"{self.target} context {self.context_id}"
        return f"QCOMDevice({self.index}, {state})"
