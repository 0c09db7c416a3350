"""AMDDevice: one AMD GPU driven through amdkfd, on real hardware or the virtual gfx1100.

    dev = AMDDevice(0)                     # or AMDDevice(emulate="gfx1100"), or GPU_EMULATE=gfx1100
    buf = dev.alloc(nbytes)                # VRAM; host=True (pinned host memory), uncached=True (GTT)
    buf.copyin(a); buf.copyout(b)
    prg = dev.load(code_object_bytes)
    secs = prg["kernel"](buf, 3.0, 17, grid=(gx, gy, gz), block=(bx, by, bz), wait=True)
    dev.synchronize(); dev.close()

Opening follows the ROCm thunk's order: /dev/kfd, GET_VERSION, the render node, ACQUIRE_VM,
RUNTIME_ENABLE (ABI >= 1.14), the event page and events (completion signal, memory
exception, hardware exception), then the queues (compute: PM4, or AQL on multi-XCC parts or with
AMD_AQL=1; copies: SDMA unless AMD_DISABLE_SDMA=1) whose creation maps the doorbell page.

A GPU memory fault surfaces as GPUFault from the wait that sees it; a wave exception (illegal
instruction, s_trap) as WaveException naming the PC and the reason; a wait past its timeout as
GPUHang. Either way the queues are recreated so the device stays usable, and close() releases
every BO, queue, event and mapping.
"""
import os
import sys

import numpy as np
from kfd_ioctl import KFD_MMIO_REMAP_HDP_MEM_FLUSH_CNTL

from drivers.amd import aql
from drivers.amd.compute import GPU_CLOCK_HZ, ComputeQueue
from drivers.amd.copy import CPUCopier, SDMACopier, as_bytes, check_range
from drivers.amd.memory import Buffer, GTT, MMIO_REMAP, PAGE, USERPTR, VRAM, VRAM_PUBLIC, round_up
from drivers.amd.process import KFDProcess
from drivers.amd.program import Program
from drivers.amd.signals import DEFAULT_TIMEOUT, Events, TimelineSignal, create_events, describe
from drivers.amd.kernargs import KernargError
from drivers.device import Device
from drivers.device import dims as _dims
from drivers.errors import GPUError, GPUFault, GPUHang, HardwareException, InvalidArgument, IoctlError
from drivers.kernel import RealKernel
from drivers.settings import debug_level, debug_line, env_flag

DOORBELL_PAGE_BYTES = 0x2000          # gfx9+: 1024 x 8-byte doorbells per process and GPU
TIMELINE_STRIDE = 64
TIMESTAMPS_OFFSET = 256               # in the signal page: [start, end] GPU clock of a timed launch
MAX_SCRATCH_WAVES = 4095              # COMPUTE_TMPRING_SIZE.WAVES is 12 bits
TMPRING_WAVESIZE_UNIT = 256           # COMPUTE_TMPRING_SIZE.WAVESIZE counts 256-byte blocks
TMPRING_WAVESIZE_MAX = (1 << 15) - 1


_HOST_KERNEL = []


def _host_kernel():
    """One RealKernel for the whole Python process: amdkfd keeps one process per address space,
    so every device must share one /dev/kfd (and its event page) through it."""
    if not _HOST_KERNEL:
        _HOST_KERNEL.append(RealKernel())
    return _HOST_KERNEL[0]


def check_shape(kernel, grid, block):
    """What a dispatch of ``kernel`` over ``grid`` x ``block`` (normalized) must satisfy."""
    items = block[0] * block[1] * block[2]
    if items > kernel.max_workgroup_items:
        raise InvalidArgument(f"kernel {kernel.name}: block {block} has {items} work-items; the kernel allows at most "
                              f"{kernel.max_workgroup_items}")
    if block[0] >= 1 << 16 or block[1] >= 1 << 16 or block[2] >= 1 << 16:
        raise InvalidArgument(f"block {block}: each dimension of a workgroup is below 65536")
    if grid[0] * block[0] >= 1 << 32 or grid[1] * block[1] >= 1 << 32 or grid[2] * block[2] >= 1 << 32:
        raise InvalidArgument(f"grid {grid} x block {block} exceeds 2**32 work-items in a dimension")


def _timeout(value, what="timeout"):
    """A wait's timeout in seconds: None (the device's), or a number >= 0 (inf: no limit)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)) or not value >= 0:
        raise InvalidArgument(f"{what} must be a number of seconds >= 0, got {value!r}")
    return float(value)


class AMDDevice(Device):
    def __init__(self, index=0, emulate=None, *, kernel=None, aql=None, sdma=None, timeout=DEFAULT_TIMEOUT,
                 ring_bytes=1 << 20):
        self.closed = True                 # until opened: close() and __repr__ have nothing to undo
        if isinstance(index, bool) or not isinstance(index, (int, np.integer)) or index < 0:
            raise InvalidArgument(f"AMDDevice index must be an int >= 0, got {index!r}")
        timeout = _timeout(timeout)
        self.debug = debug_level()
        aql = env_flag("AMD_AQL") if aql is None else aql
        sdma = not env_flag("AMD_DISABLE_SDMA") if sdma is None else sdma
        if kernel is None:
            from drivers.emu import emulation_target, make_kernel
            target = emulation_target(emulate)
            kernel = make_kernel(target) if target else _host_kernel()
        self.kernel, self.index, self.timeout = kernel, int(index), timeout
        self.closed = False
        self.flush_hdp_on_submit, self.hdp_flush_word, self.mmio = False, None, None
        self.compute = self.copier = self.events = self.signal_page = self.scratch = self.gpu = None
        self._doorbells, self._buffers, self._timelines = {}, {}, 0
        self._checked_shape = (None, None, 0)      # the (grid, block, workgroup limit) checked last
        self.scratch_va = self.tmpring_size = self.scratch_wave_bytes = 0
        self.process = KFDProcess.acquire(kernel)
        try:
            self._open(index, aql, sdma, ring_bytes)
        except BaseException:
            self.close()
            raise

    def _open(self, index, aql, sdma, ring_bytes):
        proc = self.process
        self.node = proc.node(index)
        self.gpu = proc.open_gpu(self.node)
        self.kfd, self.memory = proc.kfd, self.gpu.memory
        self.gpu_id, self.target = self.node.gpu_id, self.node.gfx_target
        self.node_lds_bytes = self.node.lds_bytes
        handle = proc.event_page_handle(self.gpu)
        signal, memory, hw = create_events(self.kfd, handle or 0)
        self.events = Events(self.kfd, proc.event_page[0], signal, memory, hw, self.gpu_id)
        self.signal_page = self.memory.alloc(PAGE, GTT)
        self.hdp_flush_word = self._map_hdp_flush()
        self.timestamps_va = self.signal_page.va + TIMESTAMPS_OFFSET
        self.timestamps = self.signal_page.view(np.uint64, TIMESTAMPS_OFFSET, 2)
        use_aql = aql or self.node.num_xcc > 1
        use_sdma = sdma
        self.compute = ComputeQueue(self, use_aql, ring_bytes)
        self.copier = SDMACopier(self, ring_bytes) if use_sdma else CPUCopier(self)
        self.compute.copy_timeline = self.copier.timeline
        if self.debug >= 1:
            debug_line(f"AMDDevice {index}: {self.target} gpu_id {self.gpu_id:#x} KFD {self.kfd.version[0]}."
                       f"{self.kfd.version[1]}, {self.compute.name}, {'SDMA' if use_sdma else 'CPU'} copies")

    def _map_hdp_flush(self):
        """The HDP flush register in the MMIO remap page: CPU writes to VRAM through the BAR sit
        in the host data path cache until it is flushed, so it is written before each submit
        once host-visible VRAM exists. None (no flush) if the kernel offers no remap page."""
        try:
            self.mmio = self.memory.alloc(PAGE, MMIO_REMAP)
        except IoctlError as e:
            self.mmio = None
            if self.debug >= 1:
                debug_line(f"AMDDevice {self.index}: no MMIO remap page ({e}); HDP is not flushed")
            return None
        return self.mmio.view(np.uint32, KFD_MMIO_REMAP_HDP_MEM_FLUSH_CNTL, 1)

    def hdp_flush(self):
        if self.hdp_flush_word is not None:
            self.hdp_flush_word[0] = 0

    # -- plumbing used by queues ----------------------------------------------------------------
    def doorbell(self, doorbell_offset):
        """(Mapping of this GPU's doorbell page, byte offset of one doorbell in it)."""
        base = doorbell_offset & ~(DOORBELL_PAGE_BYTES - 1)
        page = self._doorbells.get(base)
        if page is None:
            page = self._doorbells[base] = self.kernel.mmap(self.kfd.fd, DOORBELL_PAGE_BYTES, base)
        return page, doorbell_offset & (DOORBELL_PAGE_BYTES - 1)

    def new_timeline(self, name):
        offset = self._timelines * TIMELINE_STRIDE
        if offset + 8 > TIMESTAMPS_OFFSET:
            raise GPUError("no room for another timeline signal in the signal page")
        self._timelines += 1
        return TimelineSignal(self.signal_page, offset, self.events, name, self.timeout)

    @property
    def copy_timeline(self):
        return self.copier.timeline if self.copier is not None else None

    # -- memory ---------------------------------------------------------------------------------
    def alloc(self, nbytes, host=False, uncached=False, cpu_access=False):
        """A buffer of ``nbytes``: VRAM by default; ``host`` pinned host memory (USERPTR),
        ``uncached`` coherent GTT, ``cpu_access`` host-visible VRAM."""
        self._check_open()
        if host and uncached:
            raise InvalidArgument("choose one of host=True (USERPTR) and uncached=True (GTT)")
        heap = USERPTR if host else GTT if uncached else \
            VRAM_PUBLIC if cpu_access or isinstance(self.copier, CPUCopier) else VRAM
        buf = self.memory.alloc(nbytes, heap)
        buf.device = self
        if heap is VRAM_PUBLIC:
            self.flush_hdp_on_submit = True
        self._buffers[buf.va] = buf
        return buf

    def _own(self, buf, what):
        """``buf`` as a live Buffer of this device, or InvalidArgument saying what it is instead."""
        if type(buf) is not Buffer:
            raise InvalidArgument(f"{what}: expected a Buffer of this device, got {type(buf).__name__}")
        if buf.device is not self:
            owner = repr(buf.device) if buf.device is not None else "the driver"
            raise InvalidArgument(f"{what}: the buffer at 0x{buf.va:x} belongs to {owner}, not to {self!r}; "
                                  "use that device's copyin/copyout (or buf.copyin/buf.copyout)")
        if buf.freed:
            raise InvalidArgument(f"{what}: the buffer at 0x{buf.va:x} ({buf.size} bytes) was freed")
        return buf

    def copyin(self, buf, src, offset=0):
        self._check_open()
        self._own(buf, "copyin")
        src = as_bytes(src, "copyin source")
        check_range(buf, offset, src.size, "copyin")
        if src.size:
            self._guard(lambda: self.copier.copyin(buf, offset, src))

    def copyout(self, dst, buf, offset=0):
        self._check_open()
        self._own(buf, "copyout")
        out = as_bytes(dst, "copyout destination")
        if not out.flags.writeable:
            raise InvalidArgument("copyout destination is read-only")
        check_range(buf, offset, out.size, "copyout")
        if out.size:
            self._guard(lambda: self.copier.copyout(out, buf, offset))
        return dst

    def copy(self, dst, src, nbytes=None, dst_offset=0, src_offset=0):
        """Device-to-device copy; ``src`` may belong to another AMDDevice of this process (it is
        mapped into this GPU first)."""
        self._check_open()
        for b, what in ((dst, "copy destination"), (src, "copy source")):
            if type(b) is not Buffer:
                raise InvalidArgument(f"{what}: expected a Buffer, got {type(b).__name__} (copyin/copyout move "
                                      "host arrays)")
            if b.freed:
                raise InvalidArgument(f"{what}: the buffer at 0x{b.va:x} was freed")
        for name, v in (("nbytes", nbytes), ("dst_offset", dst_offset), ("src_offset", src_offset)):
            if v is not None and (isinstance(v, bool) or not isinstance(v, (int, np.integer))):
                raise InvalidArgument(f"copy: {name} must be an int, got {v!r}")
        nbytes = min(dst.size - dst_offset, src.size - src_offset) if nbytes is None else int(nbytes)
        check_range(dst, dst_offset, nbytes, "copy destination")
        check_range(src, src_offset, nbytes, "copy source")
        for b in (dst, src):
            if b.device is not self:
                if b.device is None or b.device.process is not self.process or b.device.closed:
                    raise InvalidArgument(f"buffer at 0x{b.va:x} belongs to {b.device!r}, a device of another "
                                          "KFD process (or a closed one)")
                b.device.synchronize()
                b.memory.map_peer(b, self.gpu_id)
        if not nbytes:
            return
        if isinstance(self.copier, CPUCopier):
            self.copier.copy_buffers(dst, dst_offset, src, src_offset, nbytes)
            return
        value = self.copier.copy(dst.va + dst_offset, src.va + src_offset, nbytes)
        self._wait(self.copier.timeline, value)

    # -- programs and launches ------------------------------------------------------------------
    def load(self, code_object, source=None):
        """A Program from code object bytes or the path of a code object file."""
        self._check_open()
        if isinstance(code_object, (str, os.PathLike)):
            source = source or str(code_object)
            try:
                with open(code_object, "rb") as f:
                    code_object = f.read()
            except OSError as e:
                raise InvalidArgument(f"cannot read code object {source}: {e.strerror or e}") from None
        return Program(self, code_object, source or "<code object>")

    def kernarg_pointer(self, buf, what):
        """The VA a kernel argument passes for ``buf``, a buffer of another device: a peer GPU's
        buffer in this KFD process is mapped into this GPU first; anything else is refused."""
        owner = getattr(buf, "device", None)
        if type(buf) is Buffer and owner is not None and owner.process is self.process and not owner.closed:
            if self.gpu_id not in buf.mapped_gpus:
                buf.memory.map_peer(buf, self.gpu_id)
            return buf.va
        if type(buf) is Buffer:
            raise KernargError(f"{what} is a buffer of {owner!r}, which this GPU cannot reach (another KFD process, "
                               "or a closed device)")
        va = buf.va
        if isinstance(va, bool) or not isinstance(va, int) or not 0 <= va < 1 << 64:
            raise KernargError(f"{what} must be a buffer (or drivers.amd.Pointer) with a 64-bit address, "
                               f"got {type(buf).__name__}")
        return va

    def launch(self, kernel, args, grid, block, wait=False, timeout=None):
        if self.closed:
            self._check_open()
        if kernel.refusal is not None:
            raise kernel.refusal
        last = self._checked_shape
        if grid is not last[0] or block is not last[1] or kernel.max_workgroup_items != last[2]:
            grid, block = _dims(grid, "grid"), _dims(block, "block")
            check_shape(kernel, grid, block)
            # these very tuple objects (immutable, and kept alive here) need no checking again
            self._checked_shape = (grid, block, kernel.max_workgroup_items)
        if kernel.needs_scratch:
            self.ensure_scratch(kernel)
        q = self.compute
        layout = kernel.layout or kernel.layout_for(args)
        size = layout.launch_bytes
        arena = q.kernargs
        align = layout.launch_align
        start = -(-arena.head // align) * align
        if kernel.needs_dispatch_ptr or start % arena.size + size > arena.size or \
                start + size - arena.retired > arena.size:
            off = arena.alloc(size + aql.PACKET_BYTES if kernel.needs_dispatch_ptr else size, align)
        else:                                  # Arena.alloc's common case, inline
            arena.head = start + size
            off = start % arena.size
        lds = layout.pack_into(q.kernarg_mv, off, args, grid, block, q.hw.ctl.va, kernel.group_segment_size, self)
        if lds > self.node_lds_bytes:
            detail = f"{kernel.group_segment_size} static + {lds - kernel.group_segment_size} dynamic" \
                if lds != kernel.group_segment_size else "static"
            raise InvalidArgument(f"kernel {kernel.name} needs {lds} bytes of LDS ({detail}); {self.target} has "
                                  f"{self.node_lds_bytes}")
        kernarg_va = q.kernarg_buf.va + off
        packet_va = 0
        if kernel.needs_dispatch_ptr:
            packet_va = kernarg_va + size
            bx, by, bz = block
            dims = 3 if grid[2] > 1 or bz > 1 else 2 if grid[1] > 1 or by > 1 else 1
            aql.pack_kernel_dispatch(q.kernarg_mv, kernel.kd_va, kernarg_va, dims, bx, by, bz, grid[0] * bx,
                                     grid[1] * by, grid[2] * bz, kernel.private_segment_size, lds, offset=off + size)
        what = ("dispatch of {} grid {} block {}", kernel.name, grid, block)     # formatted on demand
        if self.debug >= 1:
            debug_line(f"AMDDevice {self.index}: {describe(what)}")
        if self.flush_hdp_on_submit:
            self.hdp_flush()
        try:
            value = q.launch(kernel, kernarg_va, packet_va, grid, block, lds, wait, what)
        except (GPUFault, GPUHang, HardwareException):      # seen while waiting for ring space
            self.recover()
            raise
        if not wait:
            return None
        self._wait(q.timeline, value, timeout)
        start, end = int(self.timestamps[0]), int(self.timestamps[1])
        return (end - start) / GPU_CLOCK_HZ

    def ensure_scratch(self, kernel):
        """Grow the scratch (private segment) backing so ``kernel`` fits; waits for idle first."""
        lanes = 32 if kernel.wave32 else 64
        wave_bytes = round_up(max(kernel.private_segment_size, 4) * lanes, TMPRING_WAVESIZE_UNIT)
        if wave_bytes <= self.scratch_wave_bytes:
            return
        if wave_bytes // TMPRING_WAVESIZE_UNIT > TMPRING_WAVESIZE_MAX:
            raise GPUError(f"kernel {kernel.name} needs {kernel.private_segment_size} bytes of scratch per work-item; "
                           f"COMPUTE_TMPRING_SIZE allows at most {TMPRING_WAVESIZE_MAX * 256 // lanes}")
        waves = min(MAX_SCRATCH_WAVES, max(1, self.node.prop("max_slots_scratch_cu", 32)) * self.node.compute_units)
        self.synchronize()
        old = self.scratch
        self.scratch = self.memory.alloc(waves * wave_bytes, VRAM)
        if old is not None:
            old.free()
        self.scratch_va, self.scratch_wave_bytes, self.scratch_lanes = self.scratch.va, wave_bytes, lanes
        self.tmpring_size = waves | (wave_bytes // TMPRING_WAVESIZE_UNIT) << 12
        self._describe_scratch()

    def _describe_scratch(self):
        """The scratch fields of the queue's amd_queue_t (what the AQL CP reads)."""
        if self.scratch is not None:
            aql.set_scratch(self.compute.hw.ctl.view(), self.tmpring_size, self.scratch_va, self.scratch.size,
                            self.scratch_wave_bytes // self.scratch_lanes, self.scratch_srd())

    def scratch_srd(self):
        """Buffer resource (V#) over the scratch backing, for kernels that take the private
        segment buffer in user SGPRs: swizzled per lane, index stride = wave size."""
        va = self.scratch_va
        size = self.scratch.size if self.scratch is not None else 0
        word1 = ((va >> 32) & 0xFFFF) | (1 << 30)                         # SWIZZLE_ENABLE
        word3 = (20 << 12) | (2 << 21) | (1 << 23) | (2 << 28)           # FORMAT, INDEX_STRIDE 32, ADD_TID, OOB_SELECT
        return [va & 0xFFFFFFFF, word1, size & 0xFFFFFFFF, word3]

    def command_buffer(self):
        """A recorder for launches that are then replayed with one INDIRECT_BUFFER per submit."""
        from drivers.amd.replay import CommandBuffer
        return CommandBuffer(self)

    # -- waiting, faults, teardown --------------------------------------------------------------
    def _check_open(self):
        if self.closed:
            raise GPUError(f"AMDDevice {self.index} is closed")

    def _guard(self, fn):
        """Run a submission step; a fault or hang seen while it waits for ring space recovers."""
        try:
            return fn()
        except (GPUFault, GPUHang, HardwareException):
            self.recover()
            raise

    def _wait(self, timeline, value, timeout=None):
        timeout = _timeout(timeout)
        try:
            timeline.wait(value, self.timeout if timeout is None else timeout)
        except GPUHang as e:
            where = "; ".join(q.hw.position() for q in (self.compute, self.copier) if getattr(q, "timeline", None) is timeline)
            self.recover()
            raise GPUHang(e.last_value, e.expected, f"{e.in_flight}; {where}" if where else e.in_flight) from None
        except (GPUFault, HardwareException):
            self.recover()
            raise

    def synchronize(self, timeout=None):
        """Wait until every submitted launch and copy has finished."""
        self._check_open()
        for q in (self.compute, self.copier):
            t = getattr(q, "timeline", None)
            if t is not None and t.value < t.last_submitted:
                self._wait(t, t.last_submitted, timeout)

    def recover(self):
        """Recreate the queues after a fault or hang; work in flight is dropped."""
        for q in (self.compute, self.copier):
            if q is not None:
                q.recreate()
        self._describe_scratch()                 # the new queue's amd_queue_t starts blank

    def close(self):
        if self.closed:
            return
        self.closed = True
        errors = []

        def attempt(fn):
            try:
                fn()
            except Exception as e:      # teardown goes on; the first problem is re-raised at the end
                errors.append(e)

        for q in (self.compute, self.copier):
            self._finish_before_close(getattr(q, "timeline", None))
        for q in (self.copier, self.compute):
            if q is not None:
                attempt(q.destroy)
        for buf in list(self._buffers.values()):
            attempt(buf.free)
        for b in (self.scratch, self.signal_page, self.mmio):
            if b is not None:
                attempt(b.free)
        if self.events is not None:
            for ev in (self.events.signal_event, self.events.memory_event, self.events.hw_event):
                attempt(lambda ev=ev: self.kfd.destroy_event(ev.event_id))
        for page in self._doorbells.values():
            attempt(lambda page=page: self.kernel.munmap(page))
        self._doorbells.clear()
        if self.gpu is not None:
            self.process.release_gpu(self.gpu)
        attempt(self.process.release)
        if errors and not isinstance(sys.exc_info()[1], BaseException):
            raise errors[0]

    def __repr__(self):
        state = "closed" if self.closed else f"{self.target} gpu_id {self.gpu_id:#x}"
        return f"AMDDevice({self.index}, {state})"
