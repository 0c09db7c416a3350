"""The virtual gfx1100 itself: clock, memory budget, shader executor hook, and the queue runner.

Queues run synchronously when their doorbell is written (DoorbellPage.store64), and blocked
queues (WAIT_REG_MEM, POLL_REGMEM, AQL barriers) are looked at again whenever any doorbell of the
process rings, on any GPU, or a thread waits on an event, as the real command processors keep
polling (a queue of one GPU may wait for memory another GPU writes).
A packet the CP cannot execute, or a GPU access outside the VM, stops the queue and raises the
KFD hardware- or memory-exception event; the message is kept in ``last_error``.
"""
import os
import sys
import threading
import time

from drivers.emu.faults import IllegalInstruction, MemoryFault, PacketError, ShaderHang
from drivers.kernel import Mapping

PAGE_SIZE = 4096
DOORBELL_PAGE_SIZE = 8192              # gfx9+: 1024 doorbells of 8 bytes per process and device
DOORBELL_SIZE = 8
GPU_CLOCK_HZ = 100_000_000             # the counter RELEASE_MEM/COPY_DATA/SDMA TIMESTAMP return


def debug_level():
    try:
        return int(os.environ.get("DEBUG", "0"))
    except ValueError:
        return 0


def log(level, msg):
    if debug_level() >= level:
        print(msg, file=sys.stderr)


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
        self._t0 = time.monotonic_ns()

    def clock(self):
        """The 100 MHz GPU timestamp counter: monotonic, starts near zero."""
        return (time.monotonic_ns() - self._t0) // (1_000_000_000 // GPU_CLOCK_HZ)

    def dispatch(self, d):
        if self.executor is None:
            raise PacketError("no shader executor is attached to the virtual GPU (set gpu.executor)")
        self.dispatch_count += 1
        log(1, f"gpu {self.gpu_id:#x}: {d.source} dispatch of {d.grid_workgroups} workgroups of "
               f"{d.workgroup_size} at 0x{d.code_va:x}")
        self.executor(d)

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
        """A doorbell of ``pdd`` (a process's device data on this GPU) was written."""
        with self.lock:
            q = pdd.queue_by_doorbell.get(index)
            if q is None:
                log(2, f"gpu {self.gpu_id:#x}: doorbell {index} written but no queue uses it")
                return
            q.doorbell_value = value
            pdd.process.run_queues()

    def run(self, pdd):
        """Run the queues of ``pdd``'s process, on every GPU, until none makes progress."""
        pdd.process.run_queues()

    poll = run

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
        else:
            process.events.hw_exception(self.gpu_id)


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
        self.processor = None              # set by the creator

    @property
    def kind(self):
        return self.processor.kind if self.processor else "?"

    def step(self):
        """Process what the doorbell published; True if anything was consumed."""
        if not self.active:
            return False
        try:
            return self.processor.run()
        except (PacketError, MemoryFault, IllegalInstruction, ShaderHang) as e:
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
