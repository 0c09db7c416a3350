"""Copies: on an SDMA queue, or by the CPU when SDMA is turned off.

Host <-> device copies on SDMA go through two pinned host staging buffers used alternately, so
the CPU fills (or drains) one while the engine works on the other. Device <-> device copies
(including a peer GPU's buffer mapped into this GPU) are one COPY_LINEAR chain.

Ordering: an SDMA submission first waits (POLL_REGMEM) for the compute timeline value the host
last handed out, so a copy never races a kernel submitted before it.

The CPU fallback needs CPU-visible buffers (the device allocates host-visible VRAM by default
when SDMA is off) and waits for the GPU to be idle before touching memory.
"""

from drivers.amd import sdma
from drivers.amd.memory import USERPTR
from drivers.amd.queues import SDMAQueue
from drivers.device import as_bytes, check_range  # noqa: F401 (part of this module's interface)
from drivers.errors import GPUError

STAGING_BYTES = 4 << 20
SDMA_RING_BYTES = 1 << 20


class SDMACopier:
    def __init__(self, device, ring_bytes=SDMA_RING_BYTES):
        self.device = device
        self.hw = SDMAQueue(device, ring_bytes, "SDMA queue")
        # behind the timeline's low fence: its high fence, the mailbox fence and the trap
        self.hw.signal_tail = 4 * (len(sdma.fence(0, 0)) * 2 + len(sdma.trap(0)))
        self.staging = []
        try:
            self.timeline = device.new_timeline("copy")
            for _ in range(2):
                self.staging.append(device.memory.alloc(STAGING_BYTES, USERPTR))
        except BaseException:
            self.destroy()
            raise
        self.staging_bytes = [s.view() for s in self.staging]
        self.staging_value = [0, 0]

    def destroy(self):
        for s in self.staging:
            s.free()
        self.hw.destroy()

    def recreate(self):
        self.hw.recreate()
        self.timeline.reset(self.timeline.last_submitted)
        self.staging_value = [0, 0]

    def submit(self, dwords, description):
        dev = self.device
        value = self.timeline.next_value(description)
        compute = dev.compute.timeline
        cmds = []
        if compute.last_submitted and compute.value < compute.last_submitted:
            cmds += sdma.poll_regmem(compute.address, compute.last_submitted)
        cmds += dwords
        cmds += sdma.fence64(self.timeline.address, value)
        cmds += sdma.fence(dev.events.mailbox, dev.events.event_id) + sdma.trap(dev.events.event_id)
        self.hw.submit(cmds, value, self.timeline)
        return value

    def copy(self, dst_va, src_va, nbytes):
        return self.submit(sdma.copy_linear(dst_va, src_va, nbytes),
                           f"SDMA copy of {nbytes} bytes 0x{src_va:x} -> 0x{dst_va:x}")

    def copyin(self, buf, offset, src):
        n = src.size
        for i, start in enumerate(range(0, n, STAGING_BYTES)):
            b, size = i % 2, min(STAGING_BYTES, n - start)
            self.timeline.wait(self.staging_value[b])
            self.staging_bytes[b][:size] = src[start:start + size]
            self.staging_value[b] = self.copy(buf.va + offset + start, self.staging[b].va, size)

    def copyout(self, dst, buf, offset):
        n = dst.size
        starts = list(range(0, n, STAGING_BYTES))
        values = {}

        def issue(i):
            size = min(STAGING_BYTES, n - starts[i])
            values[i] = self.copy(self.staging[i % 2].va, buf.va + offset + starts[i], size)

        if starts:
            issue(0)
        for i, start in enumerate(starts):
            if i + 1 < len(starts):
                issue(i + 1)       # the other staging buffer was drained in the previous step
            self.timeline.wait(values[i])
            size = min(STAGING_BYTES, n - start)
            dst[start:start + size] = self.staging_bytes[i % 2][:size]


class CPUCopier:
    """Copies with the CPU through the buffers' own mappings (``AMD_DISABLE_SDMA=1``)."""
    timeline = None

    def __init__(self, device):
        self.device = device

    def destroy(self):
        pass

    def recreate(self):
        pass

    def _bytes(self, buf, what):
        if buf.mapping is None:
            raise GPUError(f"{what}: buffer at 0x{buf.va:x} is in {buf.heap.name}, which the CPU cannot reach, and "
                           "SDMA copies are disabled; allocate it host-visible (cpu_access=True) or enable SDMA")
        return buf.view()

    def copyin(self, buf, offset, src):
        self.device.synchronize()
        self._bytes(buf, "copyin")[offset:offset + src.size] = src
        self.device.hdp_flush()

    def copyout(self, dst, buf, offset):
        self.device.synchronize()
        dst[:] = self._bytes(buf, "copyout")[offset:offset + dst.size]

    def copy_buffers(self, dst, dst_offset, src, src_offset, nbytes):
        self.device.synchronize()
        s = self._bytes(src, "copy source")[src_offset:src_offset + nbytes]
        self._bytes(dst, "copy destination")[dst_offset:dst_offset + nbytes] = s
        self.device.hdp_flush()
