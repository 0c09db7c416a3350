"""The command stream of a compute dispatch on A6XX, in the order mesa's computerator and turnip
emit it, and the queue that submits it.

Per kernel (built once): invalidate the loaded compute state, SP_MODE_CONTROL (const demotion,
GL isam mode), HLSQ_CS_CNTL (const length), SP_CS_CONFIG + SP_CS_INSTRLEN, SP_CS_CTRL_REG0
(thread size, register footprint, merged registers, branch stack), SP_CS_UNKNOWN_A9B1 (local
memory), HLSQ_CS_CNTL_0/1 (where the workgroup id and local id arrive, thread size), the
shader address, the instruction preload (CP_LOAD_STATE6 ST6_SHADER), private memory.

Per launch: the const file (CP_LOAD_STATE6 ST6_CONSTANTS from memory), the IBO descriptors
(ST6_IBO + SP_CS_IBO), CP_SET_MARKER(RM6_COMPUTE), HLSQ_CS_NDRANGE_0..6 (local size, global
size), KERNEL_GROUP_X/Y/Z = 1, CP_EXEC_CS(groups), CP_WAIT_FOR_IDLE, and a CACHE_FLUSH_TS
event so the results are in memory when KGSL retires the timestamp. A timed launch brackets
CP_EXEC_CS with two CP_REG_TO_MEM of the 19.2 MHz always-on counter.
"""
import sys

import numpy as np

from drivers.arena import Arena
from drivers.qcom import kgsl, pm4
from drivers.qcom.program import PVT_UNIT

ALWAYS_ON_HZ = 19_200_000
ARENA_BYTES = 1 << 20
FIBERS_PER_SP, SP_CORES = 2048, 2        # a630: 128 x 16 fibers per SP, 2 SPs


def program_words(kernel, private_va=0):
    """The launch-independent state of ``kernel`` (cached on it)."""
    cached = kernel.state_cache
    if cached is not None and cached[0] == private_va:
        return cached[1]
    ir3 = kernel.program.ir3
    nibo = len(kernel.bufs)
    thread = pm4.THREAD128 if kernel.threadsize == 128 else pm4.THREAD64
    ctrl0 = (kernel.half_regs << 1 | kernel.full_regs << 7 | kernel.branchstack << 14 | thread << 20 | 1 << 31)
    shared = max(1, (kernel.local_bytes - 1) // 1024) if kernel.local_bytes else 1
    wgid = ir3.wgid if ir3.wgid is not None else pm4.NO_REG
    localid = ir3.invocationid if ir3.invocationid is not None else pm4.NO_REG
    code = kernel.code_va
    words = []
    words += pm4.pkt4(pm4.HLSQ_INVALIDATE_CMD, 0x3F | 1 << 6 | 1 << 7)   # every stage's state and both IBO sets
    words += pm4.pkt4(pm4.SP_MODE_CONTROL, 1 | pm4.ISAMMODE_GL << 1)
    words += pm4.pkt4(pm4.SP_PERFCTR_ENABLE, 1 << 5)
    words += pm4.pkt4(pm4.HLSQ_CS_CNTL, kernel.constlen // 4 | 1 << 8)
    words += pm4.pkt4(pm4.SP_CS_CONFIG, 1 << 8 | nibo << 22, kernel.instrlen)
    words += pm4.pkt4(pm4.SP_CS_CTRL_REG0, ctrl0, shared | 1 << 6)
    words += pm4.pkt4(pm4.HLSQ_CS_CNTL_0, wgid | pm4.NO_REG << 8 | pm4.NO_REG << 16 | localid << 24,
                      pm4.NO_REG | thread << 9)
    words += pm4.pkt4(pm4.SP_CS_OBJ_FIRST_EXEC_OFFSET, 0, *pm4.lo_hi(code))
    words += pm4.load_state6(pm4.ST6_SHADER, min(kernel.instrlen, pm4.INSTR_CACHE_UNITS), va=code)
    if kernel.private_bytes:
        per_sp = private_bytes_per_sp(kernel)
        words += pm4.pkt4(pm4.SP_CS_PVT_MEM_PARAM, kernel.private_bytes // PVT_UNIT, *pm4.lo_hi(private_va),
                          per_sp >> 12)
        words += pm4.pkt4(pm4.SP_CS_PVT_MEM_HW_STACK_OFFSET, per_sp >> 11)
    kernel.state_cache = (private_va, words)
    return words


def private_bytes_per_sp(kernel):
    return -(-kernel.private_bytes * FIBERS_PER_SP // 4096) * 4096


def dispatch_words(kernel, consts_va, ibo_va, nibo, grid, block, timestamps_va=None, flush_va=None, flush_value=0):
    bx, by, bz = block
    gx, gy, gz = grid
    words = pm4.load_state6(pm4.ST6_CONSTANTS, kernel.constlen, va=consts_va)
    if nibo:
        words += pm4.load_state6(pm4.ST6_IBO, nibo, va=ibo_va)
        words += pm4.pkt4(pm4.SP_CS_IBO, *pm4.lo_hi(ibo_va))
        words += pm4.pkt4(pm4.SP_CS_IBO_COUNT, nibo)
    words += pm4.pkt7(pm4.CP_SET_MARKER, pm4.RM6_COMPUTE)
    words += pm4.pkt4(pm4.HLSQ_CS_NDRANGE_0, 3 | (bx - 1) << 2 | (by - 1) << 12 | (bz - 1) << 22,
                      bx * gx, 0, by * gy, 0, bz * gz, 0)
    words += pm4.pkt4(pm4.HLSQ_CS_KERNEL_GROUP_X, 1, 1, 1)
    if timestamps_va is not None:
        words += pm4.reg_to_mem64(pm4.CP_ALWAYS_ON_COUNTER, timestamps_va)
    words += pm4.pkt7(pm4.CP_EXEC_CS, 0, gx, gy, gz)
    words += pm4.pkt7(pm4.CP_WAIT_FOR_IDLE)
    if timestamps_va is not None:
        words += pm4.reg_to_mem64(pm4.CP_ALWAYS_ON_COUNTER, timestamps_va + 8)
    if flush_va is not None:
        words += pm4.event_write_ts(flush_va, flush_value)
    return words


def ibo_words(buffers):
    out = []
    for buf in buffers:
        out += pm4.ibo_descriptor(buf.va, buf.size // 4)
    return out


class ComputeQueue:
    """Submission through GPU_COMMAND on the device's context, with a ring arena for the const
    images, IBO descriptors and IBs of launches in flight."""

    def __init__(self, device):
        self.device = device
        self.buffer = device.memory.alloc(ARENA_BYTES)
        self.arena = Arena(self.buffer, device.timeline, "command arena")
        self.bytes = self.buffer.view()

    def put(self, words, align=64):
        """Copy ``words`` (uint32) into the arena -> their GPU address."""
        data = np.asarray(words, np.uint32).view(np.uint8)
        off = self.arena.alloc(max(data.size, 4), align)
        self.bytes[off:off + data.size] = data
        return self.buffer.va + off

    def submit(self, ibs, description):
        """GPU_COMMAND with IBs [(va, dwords)] -> the timeline value that marks completion."""
        dev = self.device
        if dev.debug >= 2:
            for va, n in ibs:
                words = self.bytes.view(np.uint32)[(va - self.buffer.va) // 4:(va - self.buffer.va) // 4 + n] \
                    if self.buffer.va <= va < self.buffer.va + self.buffer.size else None
                if words is not None:
                    for name, payload in pm4.split_packets([int(w) for w in words]):
                        print(f"  {name}: {' '.join(f'{int(x):08x}' for x in payload[:8])}"
                              f"{' ...' if len(payload) > 8 else ''}", file=sys.stderr)
        ts = kgsl.gpu_command(dev.kernel, dev.fd, dev.context_id, [(va, 4 * n) for va, n in ibs])
        value = dev.timeline.submitted(ts, description)
        self.arena.tag(value)
        return value

    def launch(self, kernel, words, buffers, grid, block, timed, description):
        dev = self.device
        if any(g * b >= 1 << 32 for g, b in zip(grid, block)):
            raise ValueError(f"grid {grid} x block {block} exceeds 2**32 work-items in a dimension")
        consts_va = self.put(words, 64)
        ibo_va = self.put(ibo_words(buffers), 64) if buffers else 0
        ib = program_words(kernel, dev.private_va(kernel))
        ib = ib + dispatch_words(kernel, consts_va, ibo_va, len(buffers), grid, block,
                                 dev.timestamps_va if timed else None, dev.flush_va, dev.timeline.last_submitted + 1)
        ib_va = self.put(ib, 64)
        return self.submit([(ib_va, len(ib))], description)

    def reset(self):
        self.arena.reset()

    def destroy(self):
        if not self.buffer.freed:
            self.buffer.memory.free(self.buffer)

