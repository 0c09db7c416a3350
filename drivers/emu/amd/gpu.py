"""The virtual gfx1100 itself: clock, memory budget, shader executor hook, and the queue runner.

A doorbell store (DoorbellPage.store64) publishes the queue's write pointer and wakes the
machine's command-processor thread (cp.py), which runs the queues of every GPU of the process in
a fixed order while the caller goes on; queues blocked on memory are polled again (a queue of one
GPU may wait for memory another GPU writes).
A packet the CP cannot execute, or a GPU access outside the VM, stops the queue and raises the
KFD hardware- or memory-exception event; the message is kept in ``last_error``.  A wave
exception (illegal instruction, s_trap) goes to the runtime the way amdkfd sends it: the
EC_QUEUE_WAVE_* bit is ORed into the 64-bit error payload the queue's context-save-area header
names (err_payload_addr) and the header's err_event_id is signaled.  The virtual GPU's trap
handler also leaves what a debugger would read: the faulting PC and the reason, right after that
word (see ``report_wave_exception``).  Without a payload address it is a hardware exception.
"""
import threading
import time

import numpy as np

from drivers.emu.faults import MemoryFault, PacketError, Preempted, ShaderHang, WaveFault
from drivers.kernel import Mapping
from drivers.settings import debug_level as _settings_level, debug_line

PAGE_SIZE = 4096
DOORBELL_PAGE_SIZE = 8192              # gfx9+: 1024 doorbells of 8 bytes per process and device
DOORBELL_SIZE = 8
GPU_CLOCK_HZ = 100_000_000             # the counter RELEASE_MEM/COPY_DATA/SDMA TIMESTAMP return


CSA_ERR_PAYLOAD_ADDR, CSA_ERR_EVENT_ID = 24, 32      # kfd_context_save_area_header fields
PAYLOAD_PC, PAYLOAD_REASON, PAYLOAD_REASON_BYTES = 8, 16, 240    # the trap handler's report


def debug_level():
    return _settings_level(strict=False)


def log(level, msg):
    if debug_level() >= level:
        debug_line(msg)


def node_queue_sizes(card):
    """CWSR, control-stack, debug-memory and EOP sizes a compute queue must bring (kfd_queue.c)."""
    gfxv = card.gfx_target_version
    cu_num = card.compute_units // card.num_xcc
    if gfxv >= 100100:
        wave_num = cu_num * 32
    else:
        wave_num = min(cu_num * 40, card.array_count // card.simd_arrays_per_engine * 512)
    vgpr = 0x60000 if gfxv in (110000, 110001, 120000, 120001) else \
        0x80000 if gfxv // 100 * 100 == 90400 or gfxv in (90010, 90008, 90500) else 0x40000
    align = lambda v: -(-v // PAGE_SIZE) * PAGE_SIZE    # noqa: E731
    wg_data = align(cu_num * (vgpr + 0x4000 + 0x10000 + 0x1000))
    ctl_stack = align(40 + wave_num * (12 if gfxv >= 100100 else 8) + 8)
    if gfxv // 10000 == 10:
        ctl_stack = min(ctl_stack, 0x7000)
    debug_memory = -(-wave_num * 32 // 64) * 64
    return {"cwsr_size": ctl_stack + wg_data, "ctl_stack_size": ctl_stack,
            "debug_memory_size": debug_memory, "eop_buffer_size": 4096}


class VirtualGPU:
    """One GPU node.  ``executor(dispatch)`` runs shaders; the CP calls it through :meth:`dispatch`.

    ``processes`` holds each KFD process's device data for this GPU (its VM, buffers, queues).
    The GPUs of one machine share ``lock``, so one thread runs the queues of all of them.
    """

    def __init__(self, card, gpu_id, node_id=1, target="gfx1100", lock=None):
        self.card, self.gpu_id, self.node_id, self.target = card, gpu_id, node_id, target
        self.executor = None
        self.vram_budget = card.vram_bytes
        self.vram_used = 0
        self.processes = []
        self.last_error = None
        self.dispatch_count = 0
        self.sizes = node_queue_sizes(card)
        self.sdma_queue_limit = card.sdma_engines * (6 if card.gfx_target_version >= 110000 else 8)
        self.lock = lock or threading.RLock()
        self.running = None                # the Queue whose dispatch the executor is running
        self._t0 = time.monotonic_ns()

    def clock(self):
        """The 100 MHz GPU timestamp counter: monotonic, starts near zero."""
        return (time.monotonic_ns() - self._t0) // (1_000_000_000 // GPU_CLOCK_HZ)

    def dispatch(self, d, queue=None):
        if self.executor is None:
            raise PacketError("no shader executor is attached to the virtual GPU (set gpu.executor)")
        self.dispatch_count += 1
        log(1, f"gpu {self.gpu_id:#x}: {d.source} dispatch of {d.grid_workgroups} workgroups of "
               f"{d.workgroup_size} at 0x{d.code_va:x}")
        self.running = queue
        try:
            self.executor(d)
        finally:
            self.running = None

    def preempt(self, queue):
        """Stop the dispatch ``queue`` is running, if any (from a thread that does not hold the
        lock): True once nothing of ``queue`` runs.  An executor without ``preempt`` is waited for."""
        if self.running is not queue:
            return True
        stop = getattr(self.executor, "preempt", None)
        if stop is not None:
            stop()
        return self.running is not queue

    def live(self):
        """Counts of what processes still hold on this GPU (events are the processes', which span
        every GPU): tests assert all zero after a driver closes."""
        counts = {"processes": len(self.processes), "bos": 0, "queues": 0, "events": 0, "mappings": 0}
        for p in self.processes:
            counts["bos"] += len(p.bos)
            counts["queues"] += len(p.queues)
            counts["events"] += p.events.counts()
            counts["mappings"] += len(p.vm)
        return counts

    # -- queue execution ----------------------------------------------------------------------
    def ring(self, pdd, index, value):
        """A doorbell of ``pdd`` (a process's device data on this GPU) was written: publish the
        value and wake the command processor.  Returns at once (the queues run on its thread)."""
        q = pdd.queue_by_doorbell.get(index)
        if q is None:
            log(2, f"gpu {self.gpu_id:#x}: doorbell {index} written but no queue uses it")
            return
        q.doorbell_value = value
        pdd.process.kick()

    def queue_failed(self, process, q, exc):
        """Stop ``q`` and tell the process the way amdkfd would (exception events)."""
        msg = f"{q.kind} queue {q.queue_id}: {exc}"
        where = getattr(q.processor, "where", None)
        if where and not isinstance(exc, PacketError):     # packet errors already say where
            msg += f" (executing {where})"
        q.error = self.last_error = msg
        log(1, f"gpu {self.gpu_id:#x}: {msg}")
        if isinstance(exc, MemoryFault):
            process.events.memory_exception(self.gpu_id, exc.va, exc.reason)
        elif not (isinstance(exc, WaveFault) and self.report_wave_exception(process, q, exc)):
            process.events.hw_exception(self.gpu_id)

    def report_wave_exception(self, process, q, exc):
        """kfd_send_exception_to_runtime: OR the exception's KFD_EC_MASK bit into the u64 at the
        queue's err_payload_addr and signal err_event_id.  The trap handler's report follows the
        word: the PC (u64 at +8) and the reason (UTF-8, NUL-padded, at +16).  False when the
        runtime gave no payload address (or it is not writable GPU memory)."""
        csa = q.ctx_save_restore_va
        if not csa:
            return False
        try:
            payload = q.process.vm.u64(csa + CSA_ERR_PAYLOAD_ADDR)
            event_id = q.process.vm.u32(csa + CSA_ERR_EVENT_ID)
            if not payload or payload % 8:
                return False
            word = q.process.vm.view(payload, np.uint64, 1, write=True)
            word[0] |= np.uint64(1 << (exc.exception_code - 1))
            q.process.vm.write_u64(payload + PAYLOAD_PC, exc.pc)
            reason = str(exc.text).encode("utf-8")[:PAYLOAD_REASON_BYTES - 1]
            q.process.vm.write(payload + PAYLOAD_REASON, reason.ljust(PAYLOAD_REASON_BYTES, b"\0"))
        except MemoryFault:
            return False
        process.events.set_from_gpu(event_id)
        return True


class Queue:
    """A user-mode queue the CP serves.  ``processor`` (PM4/AQL/SDMA) holds the packet logic;
    ``process`` is the process's device data on ``gpu`` (its VM, events, trap handler)."""

    def __init__(self, gpu, process, queue_id, queue_type, args, doorbell_index, held):
        self.gpu, self.process, self.queue_id, self.queue_type = gpu, process, queue_id, queue_type
        self.ring_va, self.ring_size = args.ring_base_address, args.ring_size
        self.rptr_va, self.wptr_va = args.read_pointer_address, args.write_pointer_address
        self.doorbell_index, self.doorbell_value = doorbell_index, None   # None: never rung
        self.held = held                   # BOs referenced by the queue (not unmappable meanwhile)
        self.error = None
        self.active = True                 # queue_percentage 0 parks a queue (kfd is_active)
        self.cu_mask = None                # SET_CU_MASK words, as given
        self.ring = process.vm.translate(self.ring_va, self.ring_size)
        self.ctx_save_restore_va = getattr(args, "ctx_save_restore_address", 0)
        self.processor = None              # set by the creator

    @property
    def kind(self):
        return self.processor.kind if self.processor else "?"

    def busy(self):
        """Published work the CP has not consumed (the queue is blocked, or not yet run)."""
        return self.active and self.error is None and self.processor.busy()

    def step(self):
        """Process what the doorbell published; True if anything was consumed."""
        if not self.active:
            return False
        try:
            return self.processor.run()
        except Preempted as e:
            self.error = f"{self.kind} queue {self.queue_id}: {e}"
            return True
        except (PacketError, MemoryFault, WaveFault, ShaderHang) as e:
            self.gpu.queue_failed(self.process, self, e)
            return True
        except Exception as e:
            # a bug in the executor or a processor: stop the queue so nothing runs half-done, and say so
            self.gpu.queue_failed(self.process, self, PacketError(f"internal error: {type(e).__name__}: {e}"))
            raise


class DoorbellPage(Mapping):
    """A process's 8 KiB doorbell page of one GPU as mapped from /dev/kfd: a 64-bit store rings a queue."""

    def __init__(self, address, size, owner, gpu, process, host_mapping):
        super().__init__(address, size, owner)
        self.gpu, self.process, self.host_mapping = gpu, process, host_mapping

    def store64(self, offset, value):
        if offset % DOORBELL_SIZE:
            raise ValueError(f"doorbell store at page offset {offset:#x} is not 8-byte aligned")
        super().store64(offset, value)
        self.gpu.ring(self.process, offset // DOORBELL_SIZE, int(value) & 0xFFFFFFFFFFFFFFFF)
