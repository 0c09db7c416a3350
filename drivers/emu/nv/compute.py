"""The compute class of the virtual GPU (AMPERE_COMPUTE_B, ADA_COMPUTE_A, HOPPER_COMPUTE_A): its
methods, the QMD decoded field by field, and the launch handed to the SASS simulator.

State methods (local-memory backing store and windows, shared window, SPA/QMD version, timeouts...)
are latched; SEND_PCAS_A + SEND_SIGNALING_PCAS2_B (or the older SEND_SIGNALING_PCAS_B) schedule the
QMD at the latched address; SET_INLINE_QMD_ADDRESS + LOAD_INLINE_QMD_DATA(0..n) write a QMD and
schedule it with its last dword; LAUNCH_DMA + LOAD_INLINE_DATA write memory inline (I2M, pitch
layout); SET_REPORT_SEMAPHORE_A..D release (or reduce into) a semaphore; INVALIDATE_SHADER_CACHES*
and WAIT_FOR_IDLE have nothing to wait for in a GPU that runs a launch to completion.

A QMD is read with the layout of the class (V03_00 before Hopper, V04_00 on Hopper): its version,
program VA, grid and block, registers, shared memory, barriers, constant buffers 0..7, local memory,
then, after the grid ran, its release semaphores and its dependent QMD.  Anything out of range
(a block over 1024 threads, registers x threads over the register file, shared memory over the SM's,
a local-memory backing store that is missing or too small, a SASS version of another chip) is a
ClassError naming the QMD and the field.
"""
import functools
from dataclasses import dataclass, field

import nv_ioctl as NV
from nv_ioctl import qmd as Q

from drivers.emu.nv.faults import ClassError
from drivers.emu.nv.gpu import log
from drivers.emu.nv.pbdma import semaphore_reduce, write_semaphore

MAX_THREADS_PER_BLOCK = 1024
REGISTER_FILE = 65536                  # 32-bit registers per SM
MAX_DEPENDENT_CHAIN = 1 << 16
_SCHEDULE_ACTIONS = {NV.NVC7C0_SEND_SIGNALING_PCAS2_B_PCAS_ACTION_SCHEDULE,
                     NV.NVC7C0_SEND_SIGNALING_PCAS2_B_PCAS_ACTION_INVALIDATE_COPY_SCHEDULE,
                     NV.NVC7C0_SEND_SIGNALING_PCAS2_B_PCAS_ACTION_PREFETCH_SCHEDULE,
                     NV.NVC7C0_SEND_SIGNALING_PCAS2_B_PCAS_ACTION_INVALIDATE_PREFETCH_COPY_SCHEDULE}
_QUIET_ACTIONS = {NV.NVC7C0_SEND_SIGNALING_PCAS2_B_PCAS_ACTION_NOP,
                  NV.NVC7C0_SEND_SIGNALING_PCAS2_B_PCAS_ACTION_INVALIDATE,
                  NV.NVC7C0_SEND_SIGNALING_PCAS2_B_PCAS_ACTION_PREFETCH}
# Methods that only latch state (the value is kept; nothing else happens).
_STATE = {NV.NVC7C0_NO_OPERATION, NV.NVC7C0_WAIT_FOR_IDLE, NV.NVC7C0_SET_QMD_VERSION, NV.NVC7C0_CHECK_QMD_VERSION,
          NV.NVC7C0_SET_SHADER_SHARED_MEMORY_WINDOW_A, NV.NVC7C0_SET_SHADER_SHARED_MEMORY_WINDOW_B,
          NV.NVC7C0_SET_CWD_SLOT_COUNT, NV.NVC7C0_SEND_PCAS_A, NV.NVC7C0_SEND_PCAS_B,
          NV.NVC7C0_SET_SHADER_LOCAL_MEMORY_NON_THROTTLED_A, NV.NVC7C0_SET_SHADER_LOCAL_MEMORY_NON_THROTTLED_B,
          NV.NVC7C0_SET_SHADER_LOCAL_MEMORY_NON_THROTTLED_C, NV.NVC7C0_SET_SPA_VERSION,
          NV.NVC7C0_SET_INLINE_QMD_ADDRESS_A, NV.NVC7C0_SET_INLINE_QMD_ADDRESS_B,
          NV.NVC7C0_SET_SHADER_LOCAL_MEMORY_A, NV.NVC7C0_SET_SHADER_LOCAL_MEMORY_B,
          NV.NVC7C0_SET_SHADER_LOCAL_MEMORY_WINDOW_A, NV.NVC7C0_SET_SHADER_LOCAL_MEMORY_WINDOW_B,
          NV.NVC7C0_SET_SHADER_CACHE_CONTROL, NV.NVC7C0_SET_SM_TIMEOUT_INTERVAL, NV.NVC7C0_SET_SHADER_EXCEPTIONS,
          NV.NVC7C0_SET_RENDER_ENABLE_OVERRIDE, NV.NVC7C0_PIPE_NOP, NV.NVC7C0_SET_REPORT_SEMAPHORE_A,
          NV.NVC7C0_SET_REPORT_SEMAPHORE_B, NV.NVC7C0_SET_REPORT_SEMAPHORE_C, NV.NVC7C0_SET_TRAP_HANDLER_A,
          NV.NVC7C0_SET_TRAP_HANDLER_B, NV.NVC7C0_LINE_LENGTH_IN, NV.NVC7C0_LINE_COUNT, NV.NVC7C0_OFFSET_OUT_UPPER,
          NV.NVC7C0_OFFSET_OUT, NV.NVC7C0_PITCH_OUT}
# What each chip's SM offers a block (shared memory carve-out maximum, bytes).
SHARED_MEMORY_PER_SM = {0x806: 100 * 1024, 0x809: 100 * 1024, 0x900: 228 * 1024}


@dataclass
class Launch:
    """One grid, as the QMD and the class state describe it, for the SASS simulator."""
    gpu: object
    channel: object
    vm: object
    sm_version: int                    # 0x806, 0x809, 0x900
    qmd_va: int
    program_va: int
    grid: tuple
    block: tuple
    registers: int
    shared_bytes: int
    barriers: int
    cbufs: dict                        # index -> (va, size)
    local_low: int                     # per-thread local memory below and above the stack top
    local_high: int
    shared_window: int                 # generic-address windows (SET_SHADER_*_MEMORY_WINDOW)
    local_window: int
    should_stop: object = field(default=lambda: False)

    @property
    def threads(self):
        return self.block[0] * self.block[1] * self.block[2]


def _should_stop(channel):
    """Between instructions of a grid: let a waiting ioctl in, then say whether the channel was torn down."""
    channel.gpu.machine.lock.yield_to_waiters()
    return channel.preempt


class ComputeEngine:
    def __init__(self, channel, class_id):
        self.channel, self.class_id = channel, class_id
        self.layout = Q.layout_for_class(class_id)
        self.state = {}
        self.inline_qmd = {}
        self.i2m = None                     # (dst, bytearray, total) while LOAD_INLINE_DATA fills it
        self.launches = 0

    def bind(self, subch):
        pass

    def release(self):
        self.i2m = None

    def _reg(self, method):
        return self.state.get(method, 0)

    def _address(self, upper, lower, upper_bits=32):
        return ((self._reg(upper) & ((1 << upper_bits) - 1)) << 32) | self._reg(lower)

    def fail(self, where, message):
        raise ClassError(f"{self.channel.describe()}: {where}: {NV.class_name(self.class_id)} {message}")

    # -- methods ------------------------------------------------------------------------------
    def method(self, method, data, where):
        if method == NV.NVC7C0_SET_OBJECT:
            if NV.NVC7C0_SET_OBJECT_CLASS_ID.val(data) != self.class_id:
                self.fail(where, f"SET_OBJECT names class 0x{data & 0xFFFF:04X}")
            return None
        if self.i2m is not None and method != NV.NVC7C0_LOAD_INLINE_DATA:
            self.fail(where, f"method 0x{method:x} arrived while LAUNCH_DMA waits for "
                             f"{self.i2m[2] - len(self.i2m[1])} more bytes of LOAD_INLINE_DATA")
        if method in _STATE:
            self.state[method] = data
            return None
        if NV.load_inline_qmd_data(0) <= method < NV.load_inline_qmd_data(self.layout.dwords):
            return self._inline_qmd((method - NV.load_inline_qmd_data(0)) // 4, data, where)
        if method == NV.NVC7C0_SEND_SIGNALING_PCAS2_B:
            action = NV.NVC7C0_SEND_SIGNALING_PCAS2_B_PCAS_ACTION.val(data)
            if action in _SCHEDULE_ACTIONS:
                return self.schedule(self._reg(NV.NVC7C0_SEND_PCAS_A) << 8, where)
            if action not in _QUIET_ACTIONS:
                self.fail(where, f"SEND_SIGNALING_PCAS2_B action {action} is not emulated")
            return None
        if method == NV.NVC7C0_SEND_SIGNALING_PCAS_B:
            if data & 2:                                       # SCHEDULE
                return self.schedule(self._reg(NV.NVC7C0_SEND_PCAS_A) << 8, where)
            return None
        if method in (NV.NVC7C0_INVALIDATE_SHADER_CACHES, NV.NVC7C0_INVALIDATE_SHADER_CACHES_NO_WFI):
            return None
        if method == NV.NVC7C0_SET_REPORT_SEMAPHORE_D:
            return self._report_semaphore(data, where)
        if method == NV.NVC7C0_LAUNCH_DMA:
            return self._launch_i2m(data, where)
        if method == NV.NVC7C0_LOAD_INLINE_DATA:
            return self._inline_data(data, where)
        self.fail(where, f"method 0x{method:x} (data 0x{data:x}) is not one the virtual GPU implements")

    def _report_semaphore(self, data, where):
        op = NV.NVC7C0_SET_REPORT_SEMAPHORE_D_OPERATION.val(data)
        if op != NV.NVC7C0_SET_REPORT_SEMAPHORE_D_OPERATION_RELEASE:
            self.fail(where, f"SET_REPORT_SEMAPHORE_D operation {op} is not emulated (RELEASE is)")
        addr = self._address(NV.NVC7C0_SET_REPORT_SEMAPHORE_A, NV.NVC7C0_SET_REPORT_SEMAPHORE_B, 8)
        payload = self._reg(NV.NVC7C0_SET_REPORT_SEMAPHORE_C)
        vm, what = self.channel.vaspace.vm, f"{self.channel.describe()}: {where}: SET_REPORT_SEMAPHORE_D"
        one_word = NV.NVC7C0_SET_REPORT_SEMAPHORE_D_STRUCTURE_SIZE.val(data) == \
            NV.NVC7C0_SET_REPORT_SEMAPHORE_D_STRUCTURE_SIZE_ONE_WORD
        if NV.NVC7C0_SET_REPORT_SEMAPHORE_D_REDUCTION_ENABLE.val(data):
            signed = NV.NVC7C0_SET_REPORT_SEMAPHORE_D_REDUCTION_FORMAT.val(data) == 1
            op = _RED_TO_SEM[NV.NVC7C0_SET_REPORT_SEMAPHORE_D_REDUCTION_OP.val(data)]
            payload = semaphore_reduce(op, vm.u32(addr), payload, 32, signed)
        write_semaphore(vm, addr, payload, False, None if one_word else self.channel.gpu.ptimer(), what)
        if not one_word:
            vm.write_u32(addr + 4, 0)
        return None

    def _launch_i2m(self, data, where):
        if NV.NVC7C0_LAUNCH_DMA_DST_MEMORY_LAYOUT.val(data) != NV.NVC7C0_LAUNCH_DMA_DST_MEMORY_LAYOUT_PITCH:
            self.fail(where, "LAUNCH_DMA to a BLOCKLINEAR destination is not emulated (PITCH is)")
        if NV.NVC7C0_LAUNCH_DMA_COMPLETION_TYPE.val(data) == NV.NVC7C0_LAUNCH_DMA_COMPLETION_TYPE_RELEASE_SEMAPHORE:
            self.fail(where, "LAUNCH_DMA with COMPLETION_TYPE RELEASE_SEMAPHORE is not emulated")
        length, lines = self._reg(NV.NVC7C0_LINE_LENGTH_IN), max(1, self._reg(NV.NVC7C0_LINE_COUNT))
        dst = self._address(NV.NVC7C0_OFFSET_OUT_UPPER, NV.NVC7C0_OFFSET_OUT, 17)
        if length == 0:
            return None
        self.i2m = (dst, bytearray(), length * lines, length, self._reg(NV.NVC7C0_PITCH_OUT) or length)
        return None

    def _inline_data(self, data, where):
        if self.i2m is None:
            self.fail(where, "LOAD_INLINE_DATA without a LAUNCH_DMA before it")
        dst, buf, total, length, pitch = self.i2m
        buf += data.to_bytes(4, "little")
        if len(buf) >= total:
            self.i2m = None
            vm = self.channel.vaspace.vm
            for line in range(total // length):
                vm.write(dst + line * pitch, bytes(buf[line * length:(line + 1) * length]))
        return None

    def _inline_qmd(self, index, data, where):
        if index == 0:
            self.inline_qmd = {}
        self.inline_qmd[index] = data
        if index != self.layout.dwords - 1:
            return None
        if len(self.inline_qmd) != self.layout.dwords:
            self.fail(where, f"LOAD_INLINE_QMD_DATA delivered {len(self.inline_qmd)} of {self.layout.dwords} dwords")
        va = self._address(NV.NVC7C0_SET_INLINE_QMD_ADDRESS_A, NV.NVC7C0_SET_INLINE_QMD_ADDRESS_B) << 8
        words = b"".join(self.inline_qmd[i].to_bytes(4, "little") for i in range(self.layout.dwords))
        self.channel.vaspace.vm.write(va, words)
        return self.schedule(va, where)

    # -- QMDs ---------------------------------------------------------------------------------
    def schedule(self, qmd_va, where):
        for _ in range(MAX_DEPENDENT_CHAIN):
            qmd_va = self.run_qmd(qmd_va, where)
            if qmd_va is None:
                return None
            where = f"dependent QMD at 0x{qmd_va:x}"
        self.fail(where, f"dependent QMDs chain more than {MAX_DEPENDENT_CHAIN} launches")

    def read_qmd(self, qmd_va, where):
        import numpy as np
        words = self.channel.vaspace.vm.view(qmd_va, np.uint32, self.layout.dwords).copy()
        q = Q.Qmd(self.layout, words)
        if q.get("QMD_MAJOR_VERSION") != self.layout.major or q.get(self.layout.version_field) != self.layout.minor:
            self.fail(where, f"takes QMD V{self.layout.major:02d}_{self.layout.minor:02d}; the QMD at 0x{qmd_va:x} "
                             f"says version {q.get('QMD_MAJOR_VERSION')}.{q.get(self.layout.version_field)}")
        return q

    def decode(self, q, qmd_va, where):
        """The Launch a QMD describes (checked against the chip)."""
        gpu, v4 = self.channel.gpu, self.layout.major >= 4
        card = gpu.card
        bad = lambda msg: self.fail(where, f"QMD at 0x{qmd_va:x}: {msg}")    # noqa: E731
        grid = (q.get("GRID_WIDTH"), q.get("GRID_HEIGHT"), q.get("GRID_DEPTH")) if v4 else \
            (q.get("CTA_RASTER_WIDTH"), q.get("CTA_RASTER_HEIGHT"), q.get("CTA_RASTER_DEPTH"))
        block = tuple(q.get(f"CTA_THREAD_DIMENSION{i}") for i in range(3))
        threads = block[0] * block[1] * block[2]
        if not 1 <= threads <= MAX_THREADS_PER_BLOCK:
            bad(f"CTA_THREAD_DIMENSION {block} is {threads} threads (1 to {MAX_THREADS_PER_BLOCK})")
        registers = q.get("REGISTER_COUNT" if v4 else "REGISTER_COUNT_V")
        warps = -(-threads // 32)
        if registers == 0 or registers > 255 or registers * 32 * warps > REGISTER_FILE:
            bad(f"REGISTER_COUNT {registers} x {warps * 32} threads does not fit the {REGISTER_FILE}-register file "
                "(1 to 255 per thread)")
        shared = q.get("SHARED_MEMORY_SIZE")
        if shared > SHARED_MEMORY_PER_SM[card.sm_version]:
            bad(f"SHARED_MEMORY_SIZE {shared} exceeds the {SHARED_MEMORY_PER_SM[card.sm_version]} bytes an SM offers")
        sass = q.get("SASS_VERSION")
        expected = (card.sm_version >> 8) << 4 | (card.sm_version & 0xF)
        if sass and sass != expected:
            bad(f"SASS_VERSION 0x{sass:x}; {card.chip} runs 0x{expected:x}")
        cbufs = {}
        for i in range(8):
            if not q.get("CONSTANT_BUFFER_VALID", i):
                continue
            if v4:
                va = q.address("CONSTANT_BUFFER_ADDR_LOWER_SHIFTED6", "CONSTANT_BUFFER_ADDR_UPPER_SHIFTED6", i, 6)
            else:
                va = q.address("CONSTANT_BUFFER_ADDR_LOWER", "CONSTANT_BUFFER_ADDR_UPPER", i)
            cbufs[i] = (va, q.get("CONSTANT_BUFFER_SIZE_SHIFTED4", i) << 4)
        low, high = q.get("SHADER_LOCAL_MEMORY_LOW_SIZE"), q.get("SHADER_LOCAL_MEMORY_HIGH_SIZE")
        if low or high:
            self._check_local_memory(low + high, bad)
        program = q.address("PROGRAM_ADDRESS_LOWER", "PROGRAM_ADDRESS_UPPER")
        if program % 128:
            bad(f"PROGRAM_ADDRESS 0x{program:x} is not 128-byte aligned")
        return Launch(gpu, self.channel, self.channel.vaspace.vm, card.sm_version, qmd_va, program, grid, block,
                      registers, shared, q.get("BARRIER_COUNT"), cbufs, low, high,
                      self._address(NV.NVC7C0_SET_SHADER_SHARED_MEMORY_WINDOW_A,
                                    NV.NVC7C0_SET_SHADER_SHARED_MEMORY_WINDOW_B, 17),
                      self._address(NV.NVC7C0_SET_SHADER_LOCAL_MEMORY_WINDOW_A,
                                    NV.NVC7C0_SET_SHADER_LOCAL_MEMORY_WINDOW_B, 17),
                      functools.partial(_should_stop, self.channel))

    def _check_local_memory(self, per_thread, bad):
        """The backing store SET_SHADER_LOCAL_MEMORY_A/B names must hold every resident warp's
        local memory, per TPC as NON_THROTTLED_A/B says, and be mapped."""
        card = self.channel.gpu.card
        base = self._address(NV.NVC7C0_SET_SHADER_LOCAL_MEMORY_A, NV.NVC7C0_SET_SHADER_LOCAL_MEMORY_B, 17)
        per_tpc = self._address(NV.NVC7C0_SET_SHADER_LOCAL_MEMORY_NON_THROTTLED_A,
                                NV.NVC7C0_SET_SHADER_LOCAL_MEMORY_NON_THROTTLED_B, 8)
        need = -(-per_thread * 32 // 0x200) * 0x200 * card.max_warps_per_sm * card.sms_per_tpc
        if base == 0:
            bad(f"needs {per_thread} bytes of local memory per thread, but no SET_SHADER_LOCAL_MEMORY_A/B "
                "backing store was given")
        if per_tpc < need:
            bad(f"needs {per_thread} bytes of local memory per thread ({need:#x} per TPC); "
                f"SET_SHADER_LOCAL_MEMORY_NON_THROTTLED gives {per_tpc:#x}")
        vm = self.channel.vaspace.vm
        vm.translate(base, 1)                                  # MemoryFault when it is not mapped
        vm.translate(base + per_tpc * card.tpcs - 1, 1)

    def run_qmd(self, qmd_va, where):
        """Execute one QMD: the grid, its releases; -> the dependent QMD's VA or None."""
        q = self.read_qmd(qmd_va, where)
        launch = self.decode(q, qmd_va, where)
        gpu = self.channel.gpu
        self.launches += 1
        log(1, f"virtual GPU {gpu.board.minor}: chid {self.channel.chid} launch QMD 0x{qmd_va:x}: program "
               f"0x{launch.program_va:x} grid {launch.grid} block {launch.block} {launch.registers} regs "
               f"{launch.shared_bytes} B shared")
        if launch.grid[0] and launch.grid[1] and launch.grid[2]:
            gpu.execute(launch)
        self._releases(q, where)
        return self._dependent(q)

    def _releases(self, q, where):
        vm, gpu = self.channel.vaspace.vm, self.channel.gpu
        what = f"{self.channel.describe()}: {where}: QMD release"
        if self.layout.major >= 4:
            releases = [(i, f"RELEASE_SEMAPHORE{i}_") for i in range(3) if q.get("RELEASE_ENABLE", i)]
        else:
            count = 3 if "RELEASE2_ENABLE" in self.layout.fields else 2        # V03_00 has three
            releases = [(None, f"RELEASE{i}_") for i in range(count) if q.get(f"RELEASE{i}_ENABLE")]
        for i, prefix in releases:
            if self.layout.major >= 4:
                addr = q.address(prefix + "ADDR_LOWER", prefix + "ADDR_UPPER")
                get = lambda name: q.get(name, i)                                      # noqa: E731
                names = ("RELEASE_STRUCTURE_SIZE", "RELEASE_PAYLOAD64B", "RELEASE_REDUCTION_ENABLE",
                         "RELEASE_REDUCTION_OP", "RELEASE_REDUCTION_FORMAT")
            else:
                addr = q.address(prefix + "ADDRESS_LOWER", prefix + "ADDRESS_UPPER")
                get = q.get
                names = tuple(prefix + n for n in ("STRUCTURE_SIZE", "PAYLOAD64B", "REDUCTION_ENABLE",
                                                   "REDUCTION_OP", "REDUCTION_FORMAT"))
            size, wide, reduce_, op, fmt = (get(n) for n in names)
            payload = q.address(prefix + "PAYLOAD_LOWER", prefix + "PAYLOAD_UPPER") if wide else \
                q.get(prefix + "PAYLOAD_LOWER")
            if reduce_:
                old = vm.u64(addr) if wide else vm.u32(addr)
                payload = semaphore_reduce(_RED_TO_SEM[op], old, payload, 64 if wide else 32, fmt == 1)
            four_words = size == 0
            write_semaphore(vm, addr, payload, wide, gpu.ptimer() if four_words else None, what)
            if four_words and not wide:
                vm.write_u32(addr + 4, 0)

    def _dependent(self, q):
        if self.layout.major >= 4:
            for i, pointer in ((0, "DEPENDENT_QMD0_POINTER"), (1, "DEPENDENT_QMD1_POINTER")):
                if q.get("DEPENDENT_QMD_ENABLE", i):
                    return q.get(pointer) << 8
            return None
        if q.get("DEPENDENT_QMD0_ENABLE"):
            return q.get("DEPENDENT_QMD0_POINTER") << 8
        return None


# SET_REPORT_SEMAPHORE_D / QMD release reduction ops -> the host semaphore's reduction codes
_RED_TO_SEM = {0: NV.NVC56F_SEM_EXECUTE_REDUCTION_IADD, 1: NV.NVC56F_SEM_EXECUTE_REDUCTION_IMIN,
               2: NV.NVC56F_SEM_EXECUTE_REDUCTION_IMAX, 3: NV.NVC56F_SEM_EXECUTE_REDUCTION_INC,
               4: NV.NVC56F_SEM_EXECUTE_REDUCTION_DEC, 5: NV.NVC56F_SEM_EXECUTE_REDUCTION_IAND,
               6: NV.NVC56F_SEM_EXECUTE_REDUCTION_IOR, 7: NV.NVC56F_SEM_EXECUTE_REDUCTION_IXOR}
