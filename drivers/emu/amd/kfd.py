"""The virtual amdkfd: /dev/kfd and the GPUs' render nodes, validating every ioctl like Linux.

``kfd_ioctl()`` in kfd_chardev.c dispatches on _IOC_NR alone: a number outside the command table
is ENOTTY, the caller's _IOC_SIZE bytes are copied in and the rest of the kernel's struct is
zero-filled (so the 88- and 96-byte CREATE_QUEUE both work), and the caller's bytes are copied
back even when the command fails.  Each command lives in a handler here or in kfd_memory.py
(buffers), kfd_queues.py (queues) and events.py (events); a refusal raises the kernel's errno
with a message naming the rule (printed to stderr with DEBUG>=2).

Memory handed to the driver: BOs are mmapped through their GPU's render node at their DRM offset
(the same host pages every GPU VM mapping them translates to), each GPU's doorbell page and MMIO
page through /dev/kfd at an offset naming that GPU.
"""
import errno
import time

import kfd_ioctl as K

from drivers.emu.amd.cp import CommandProcessor
from drivers.emu.amd.events import KFD_MMAP_TYPE_EVENTS
from drivers.emu.amd.gpu import DOORBELL_PAGE_SIZE, DoorbellPage, log
from drivers.emu.kernel import DeviceFile
from drivers.emu.amd.kfd_memory import (DRM_FILE_PAGE_OFFSET_START, KFD_MMAP_GPU_ID_SHIFT, KFD_MMAP_TYPE_DOORBELL,
                                        KFD_MMAP_TYPE_MMIO, MemoryIoctls, MemoryLimits, user_memory)
from drivers.emu.amd.kfd_queues import QueueIoctls
from drivers.emu.memory import PAGE_SIZE, HostMemory
from drivers.emu.amd.process import KfdError, KfdProcess, fail
from drivers.kernel import MAP_PRIVATE, PROT_NONE, RealKernel

KFD_ABI_MINOR = 18                      # the level of kfd_ioctl's declarations (RUNTIME_ENABLE: >= 1.14)
DEPRECATED_NRS = range(0x0D, 0x11)      # the removed DBG_* commands answer EPERM
WAIT_EVENTS_NR = 0x0C
DESTROY_QUEUE_NR = 0x03
_host = RealKernel()


class KfdDevice:
    """The machine's amdkfd instance: its GPUs (sharing one lock), one process per address
    space (= per kernel)."""

    def __init__(self, kernel, gpus):
        self.kernel, self.gpus = kernel, list(gpus)
        self.lock = self.gpus[0].lock
        if any(g.lock is not self.lock for g in self.gpus):     # a queue may wait on another GPU's writes
            raise ValueError("the GPUs of one amdkfd must share one lock (VirtualGPU(lock=...))")
        self.process = None
        self.limits = MemoryLimits(self._ram_bytes())
        self.cp = CommandProcessor(self.lock, f"virtual CP ({', '.join(g.target for g in self.gpus)})")
        self._mmio = {}                     # gpu_id -> the GPU's MMIO remap page
        self._next_drm_offset = {g.gpu_id: DRM_FILE_PAGE_OFFSET_START for g in self.gpus}

    def _ram_bytes(self):
        """The machine's system memory: the heap_type 0 banks of its topology's nodes."""
        files, total = getattr(self.kernel, "files", {}), 0
        for path, text in files.items():
            if path.endswith("/properties") and "/mem_banks/" in path:
                props = dict(line.split() for line in text.splitlines() if len(line.split()) == 2)
                if props.get("heap_type") == "0":
                    total += int(props.get("size_in_bytes", 0))
        return total or 16 << 30

    def new_drm_offset(self, gpu, size):
        """A fake mmap offset on ``gpu``'s render node (each DRM device has its own space)."""
        offset = self._next_drm_offset[gpu.gpu_id]
        self._next_drm_offset[gpu.gpu_id] += size
        return offset

    def mmio(self, gpu):
        """The MMIO remap page (HDP flush registers): writes are accepted and have no effect."""
        if gpu.gpu_id not in self._mmio:
            self._mmio[gpu.gpu_id] = HostMemory(PAGE_SIZE, f"mmio-remap-{gpu.gpu_id:x}")
        return self._mmio[gpu.gpu_id]

    def open_kfd(self):
        if self.process is None:
            self.process = KfdProcess(self.gpus, self.lock, self.cp)
            for pdd in self.process.devices.values():
                pdd.gpu.processes.append(pdd)
        self.process.files += 1
        return KfdFile(self, self.process)

    def close_kfd(self, proc):
        proc.files -= 1
        if proc.files == 0:
            self.cp.host_enter()
            try:
                proc.preempt(proc.all_queues())
            finally:
                self.cp.host_leave()
            self.cp.stop()
            with self.lock:
                proc.release()
                for pdd in proc.devices.values():
                    pdd.gpu.processes.remove(pdd)
            self.process = None

    def open_render(self, gpu):
        return RenderFile(self, gpu)

    def live(self):
        """What processes still hold on the whole machine: each GPU's counts added up, the
        processes and their events (which span GPUs) counted once."""
        total = {"processes": 0, "bos": 0, "queues": 0, "events": 0, "mappings": 0}
        for gpu in self.gpus:
            for key, n in gpu.live().items():
                if key not in ("processes", "events"):
                    total[key] += n
        if self.process is not None:
            total["processes"], total["events"] = 1, self.process.events.counts()
        return total


class KfdFile(MemoryIoctls, QueueIoctls, DeviceFile):
    """An open /dev/kfd."""

    def __init__(self, dev, proc):
        self.dev, self.proc = dev, proc
        self.closed = False

    # -- ioctl dispatch -----------------------------------------------------------------------
    def ioctl(self, request, buf):
        nr, usize = K._IOC_NR(request), K._IOC_SIZE(request)
        info = K.IOCTLS.get(nr)
        name = info.name if info else f"KFD ioctl nr 0x{nr:02x}"
        if info is None:
            fail(errno.ENOTTY, f"{name}: no amdkfd command has this number")
        if nr in DEPRECATED_NRS:
            fail(errno.EPERM, f"{name}: the debugger interface of ABI < 1.13 was removed")
        handler = self.HANDLERS.get(nr)
        if handler is None:
            fail(errno.EINVAL, f"{name}: not emulated by the virtual amdkfd")
        if len(buf) < usize:
            fail(errno.EFAULT, f"{name}: _IOC_SIZE says {usize} bytes but the argument has {len(buf)}")
        ksize = K.ffi.sizeof(f"struct {info.struct}")
        kdata = bytearray(max(usize, ksize))
        if info.copies_in:
            kdata[:usize] = bytes(buf[:usize])
        args = K.ffi.from_buffer(f"struct {info.struct} *", kdata)
        log(2, f"kfd: {name} ({usize} bytes)")
        try:
            if nr == WAIT_EVENTS_NR:     # sleeps: must not hold the GPUs while their queues run
                handler(self, self.proc, args)
            else:
                self.dev.cp.host_enter()       # the command processor yields after its current packet
                try:
                    if nr == DESTROY_QUEUE_NR:     # a queue going away stops its dispatch first
                        q = self.proc.find_queue(args.queue_id)
                        if q is not None:
                            self.proc.preempt([q])
                    with self.dev.lock:
                        handler(self, self.proc, args)
                finally:
                    self.dev.cp.host_leave()
        finally:
            if info.copies_out:
                buf[:usize] = bytes(kdata[:usize])
        return 0

    # -- small commands ----------------------------------------------------------------------
    def get_version(self, proc, a):
        a.major_version, a.minor_version = K.KFD_IOCTL_MAJOR_VERSION, KFD_ABI_MINOR

    def acquire_vm(self, proc, a):
        what = "ACQUIRE_VM"
        try:
            drm = self.dev.kernel.file(a.drm_fd)
        except OSError:
            fail(errno.EINVAL, f"{what}: drm_fd {a.drm_fd} is not an open file")
        pdd = proc.device(a.gpu_id, what)
        if pdd.drm_file is not None:
            if pdd.drm_file is drm:
                return
            fail(errno.EBUSY, f"{what}: the VM of gpu 0x{a.gpu_id:x} was already acquired through another render node fd")
        if not isinstance(drm, RenderFile) or drm.dev is not self.dev:
            fail(errno.EINVAL, f"{what}: drm_fd {a.drm_fd} is not a render node of gpu 0x{a.gpu_id:x}")
        # Another GPU's render node: Linux refuses it (EINVAL) once that node's VM is a compute
        # VM already; the virtual amdkfd always does, since the VM belongs to another device.
        if drm.gpu is not pdd.gpu:
            fail(errno.EINVAL, f"{what}: drm_fd {a.drm_fd} is the render node of gpu 0x{drm.gpu.gpu_id:x}, "
                 f"not of gpu 0x{a.gpu_id:x}")
        pdd.drm_file = drm

    def runtime_enable(self, proc, a):
        if a.mode_mask & K.KFD_RUNTIME_ENABLE_MODE_ENABLE_MASK:
            if proc.runtime_enabled:
                fail(errno.EBUSY, "RUNTIME_ENABLE: the runtime is already enabled for this process")
            if proc.all_queues():
                fail(errno.EEXIST, "RUNTIME_ENABLE: the process already has queues; enable the runtime first")
            proc.runtime_enabled = True
        else:
            proc.runtime_enabled = False
        a.capabilities_mask = 0

    @staticmethod
    def _apertures(ap, gpu):
        ap.lds_base, ap.lds_limit = 1 << 48, (1 << 48) + 0xFFFFFFFF
        ap.scratch_base, ap.scratch_limit = 2 << 48, (2 << 48) + 0xFFFFFFFF
        ap.gpuvm_base, ap.gpuvm_limit = PAGE_SIZE, (1 << 47) - 1
        ap.gpu_id = gpu.gpu_id

    def get_process_apertures(self, proc, a):
        pdds = list(proc.devices.values())[:len(a.process_apertures)]    # NUM_OF_SUPPORTED_GPUS
        for ap, pdd in zip(a.process_apertures, pdds):
            self._apertures(ap, pdd.gpu)
        a.num_of_nodes = len(pdds)

    def get_process_apertures_new(self, proc, a):
        """num_of_nodes 0 asks how many; otherwise up to that many entries are written."""
        pdds = list(proc.devices.values())
        if a.num_of_nodes == 0:
            a.num_of_nodes = len(pdds)
            return
        pdds = pdds[:a.num_of_nodes]
        out = K.ffi.new(f"struct kfd_process_device_apertures[{len(pdds)}]")
        for ap, pdd in zip(out, pdds):
            self._apertures(ap, pdd.gpu)
        dst = user_memory(a.kfd_process_device_apertures_ptr, K.ffi.sizeof(out))
        dst[:] = K.ffi.buffer(out)[:]
        a.num_of_nodes = len(pdds)

    def get_clock_counters(self, proc, a):
        pdd = proc.devices.get(a.gpu_id)
        a.gpu_clock_counter = pdd.gpu.clock() if pdd else 0
        a.cpu_clock_counter = time.clock_gettime_ns(time.CLOCK_MONOTONIC_RAW)
        a.system_clock_counter = time.clock_gettime_ns(getattr(time, "CLOCK_BOOTTIME", time.CLOCK_MONOTONIC))
        a.system_clock_freq = 1_000_000_000

    def set_xnack_mode(self, proc, a):
        if a.xnack_enabled < 0:
            a.xnack_enabled = proc.xnack_enabled
            return
        if proc.all_queues():
            fail(errno.EBUSY, "SET_XNACK_MODE: the process has user queues")
        if a.xnack_enabled and not proc.xnack_enabled:
            targets = sorted({g.target for g in self.dev.gpus})
            fail(errno.EPERM, f"SET_XNACK_MODE: {', '.join(targets)} does not support XNACK (retry on page fault)")
        proc.xnack_enabled = 0

    def set_scratch_backing_va(self, proc, a):
        pdd = self._pdd(proc, a.gpu_id, "SET_SCRATCH_BACKING_VA")
        self._bound(pdd, "SET_SCRATCH_BACKING_VA")
        pdd.scratch_backing_va = a.va_addr

    def set_memory_policy(self, proc, a):
        for field in ("default_policy", "alternate_policy"):
            if getattr(a, field) not in (K.KFD_IOC_CACHE_POLICY_COHERENT, K.KFD_IOC_CACHE_POLICY_NONCOHERENT):
                fail(errno.EINVAL, f"SET_MEMORY_POLICY: {field} {getattr(a, field)} is not COHERENT or NONCOHERENT")
        pdd = self._pdd(proc, a.gpu_id, "SET_MEMORY_POLICY")
        self._bound(pdd, "SET_MEMORY_POLICY", errno.ESRCH)

    def set_trap_handler(self, proc, a):
        pdd = self._pdd(proc, a.gpu_id, "SET_TRAP_HANDLER")
        self._bound(pdd, "SET_TRAP_HANDLER", errno.ESRCH)
        pdd.trap_handler = (a.tba_addr, a.tma_addr)

    # -- events -------------------------------------------------------------------------------
    def create_event(self, proc, a):
        what = "CREATE_EVENT"
        if a.event_page_offset and proc.events.page is None:
            handle = a.event_page_offset
            pdd = proc.devices.get(handle >> 32)
            if pdd is None:
                fail(errno.EINVAL, f"{what}: event page handle 0x{handle:x} names no device of this process")
            self._bound(pdd, what)
            bo = proc.find_bo_by_handle(handle)
            if bo.kind != "GTT":
                fail(errno.EINVAL, f"{what}: the event page must be a GTT buffer, {bo} is not")
            proc.events.set_page(bo.mem.array, handle)
            proc.signal_handle = handle
        elif a.event_page_offset:
            fail(errno.EINVAL, f"{what}: the event page is already set")
        ev = proc.events.create(a.event_type, a.auto_reset, a.node_id)
        if ev.is_signal:
            a.event_page_offset, a.event_slot_index = KFD_MMAP_TYPE_EVENTS, ev.id
        a.event_id = a.event_trigger_data = ev.id

    def destroy_event(self, proc, a):
        proc.events.destroy(a.event_id)

    def set_event(self, proc, a):
        proc.events.set(a.event_id)

    def reset_event(self, proc, a):
        proc.events.reset(a.event_id)

    def wait_events(self, proc, a):
        size = K.ffi.sizeof("struct kfd_event_data")
        raw = user_memory(a.events_ptr, size * a.num_events)
        data = K.ffi.from_buffer(f"struct kfd_event_data[{a.num_events}]", raw)
        a.wait_result = proc.events.wait(data, a.wait_for_all, a.timeout)

    HANDLERS = {
        0x01: get_version, 0x02: QueueIoctls.create_queue, 0x03: QueueIoctls.destroy_queue,
        0x04: set_memory_policy, 0x05: get_clock_counters, 0x06: get_process_apertures,
        0x07: QueueIoctls.update_queue, 0x08: create_event, 0x09: destroy_event, 0x0A: set_event,
        0x0B: reset_event, 0x0C: wait_events, 0x11: set_scratch_backing_va, 0x13: set_trap_handler,
        0x14: get_process_apertures_new, 0x15: acquire_vm,
        0x16: MemoryIoctls.alloc_memory_of_gpu, 0x17: MemoryIoctls.free_memory_of_gpu,
        0x18: MemoryIoctls.map_memory_to_gpu, 0x19: MemoryIoctls.unmap_memory_from_gpu,
        0x1A: QueueIoctls.set_cu_mask, 0x21: set_xnack_mode, 0x23: MemoryIoctls.get_available_memory,
        0x25: runtime_enable,
    }

    # -- mmap ---------------------------------------------------------------------------------
    def mmap(self, kernel, length, offset, prot, flags, address):
        try:
            return self._mmap(length, offset, prot, flags, address)
        except KfdError as e:
            raise OSError(e.errno, f"mmap of /dev/kfd at offset {offset:#x}: {e.strerror}") from None

    def _mmap(self, length, offset, prot, flags, address):
        kind = offset & (3 << 62)
        gpu_id = (offset >> KFD_MMAP_GPU_ID_SHIFT) & 0xFFFF
        pdd = next((p for p in self.proc.devices.values() if p.gpu.gpu_id & 0xFFFF == gpu_id), None)
        if kind in (KFD_MMAP_TYPE_DOORBELL, KFD_MMAP_TYPE_MMIO) and pdd is None:
            fail(errno.ENODEV, f"gpu_id 0x{gpu_id:x} in the offset is not a GPU of this machine")
        if kind == KFD_MMAP_TYPE_DOORBELL:
            if length != DOORBELL_PAGE_SIZE:
                fail(errno.EINVAL, f"the doorbell slice is mapped whole ({DOORBELL_PAGE_SIZE} bytes), not {length}")
            host = pdd.doorbells.map_at(0, length, prot, address)
            return DoorbellPage(host.address, length, self, pdd.gpu, pdd, host)
        if kind == KFD_MMAP_TYPE_EVENTS:
            events = self.proc.events
            if events.page is None:
                fail(errno.EINVAL, "no event page is set for this process")
            if length != K.KFD_SIGNAL_EVENT_LIMIT * 8:
                fail(errno.EINVAL, f"the event page is mapped whole ({K.KFD_SIGNAL_EVENT_LIMIT * 8} bytes), not {length}")
            bo = self.proc.find_bo_by_handle(events.page_handle)
            return bo.mem.map_at(0, length, prot, address)
        if kind == KFD_MMAP_TYPE_MMIO:
            if length != PAGE_SIZE:
                fail(errno.EINVAL, f"the MMIO remap page is {PAGE_SIZE} bytes, not {length}")
            return self.dev.mmio(pdd.gpu).map_at(0, length, prot, address)
        fail(errno.EFAULT, f"offset {offset:#x} names no kfd mmap type")

    def unmap(self, mapping):
        _host.munmap(mapping)

    def release(self):
        if not self.closed:
            self.closed = True
            self.dev.close_kfd(self.proc)


class RenderFile(DeviceFile):
    """An open /dev/dri/renderD<minor> of one GPU: KFD buffers allocated on that GPU are mmapped
    here at their DRM offsets."""

    def __init__(self, dev, gpu):
        self.dev, self.gpu = dev, gpu

    def mmap(self, kernel, length, offset, prot, flags, address):
        proc = self.dev.process
        pdd = proc.devices[self.gpu.gpu_id] if proc is not None else None
        bo = None
        if pdd is not None:
            bo = next((b for b in pdd.bos.values() if b.mmap_offset <= offset < b.mmap_offset + b.size
                       and b.kind in ("VRAM", "GTT", "USERPTR")), None)
        if bo is None:
            raise OSError(errno.EINVAL, f"mmap of the render node of gpu 0x{self.gpu.gpu_id:x}: offset {offset:#x} "
                          "names no buffer")
        if pdd.drm_file is not self:
            raise OSError(errno.EACCES, f"mmap of {bo}: the buffer belongs to the render node fd passed to ACQUIRE_VM")
        if bo.kind == "USERPTR":
            raise OSError(errno.EPERM, f"mmap of {bo}: USERPTR buffers are already host memory")
        if flags & MAP_PRIVATE and prot != PROT_NONE:
            raise OSError(errno.EINVAL, f"mmap of {bo}: TTM refuses copy-on-write (MAP_PRIVATE) mappings; "
                          "the GPU would never see the CPU's writes")
        start = offset - bo.mmap_offset
        if start % PAGE_SIZE or start + length > bo.size:
            raise OSError(errno.EINVAL, f"mmap of {length:#x} bytes at +{start:#x} does not fit {bo}")
        return bo.mem.map_at(start, length, prot, address)
