"""NVDevice: one NVIDIA GPU driven through the RM and UVM, on real hardware or the virtual sm_86/89/90.

    dev = NVDevice(0)                      # or NVDevice(emulate="sm_90"), or GPU_EMULATE=sm_90
    buf = dev.alloc(nbytes)                # VRAM; host=True (pinned host memory), cpu_access=True (BAR1)
    buf.copyin(a); buf.copyout(b)
    prg = dev.load(cubin_bytes)
    secs = prg["kernel"](buf, 3.0, 17, grid=(gx, gy, gz), block=(bx, by, bz), wait=True)
    dev.synchronize(); dev.close()

Opening follows CUDA's (and tinygrad's) order: /dev/nvidiactl, an RM client, /dev/nvidia-uvm
(UVM_INITIALIZE, and UVM_MM_INITIALIZE on a second fd), NV_ESC_CARD_INFO, /dev/nvidiaN registered
with the control fd, GPU_GET_ID_INFO_V2, the device and subdevice, the class list (the compute,
copy, GPFIFO and usermode classes of the chip), GR info, the usermode page mapped (the doorbell), a
VA space owned by UVM and registered with it, then one channel group with a compute channel and a
copy channel (each with its error notifier and USERD, registered with UVM, scheduled) and a
debugger bound to the compute object for fault reports.

A GPU page fault surfaces as GPUFault (with the VA) from the wait that sees the channel stopped, an
SM exception as ShaderError (with the PC), a wait past its timeout as GPUHang; either way the channel
group is recreated so the device stays usable, and close() releases every object, mapping and fd.
"""
import os
import sys

import numpy as np

import nv_ioctl as NV
from nv_ioctl import qmd as Q

from drivers.arena import Arena
from drivers.device import Device, as_bytes, check_range, debug_level, describe, dims
from drivers.errors import DeviceNotFound, GPUError, GPUFault, GPUHang
from drivers.kernel import MAP_ANONYMOUS, MAP_NORESERVE, MAP_PRIVATE, PROT_NONE, RealKernel
from drivers.nv import chips
from drivers.nv.compute import MAX_SHARED_PER_CTA, cbuf0_driver, launch_push, set_cbuf, set_grid, set_shared
from drivers.nv.copy import Copier
from drivers.nv.faults import ChannelError, report
from drivers.nv.gpfifo import SUBCH_COMPUTE, Channel
from drivers.nv.memory import HOST, VRAM, VRAM_CPU, Memory, round_up
from drivers.nv.process import NvProcess
from drivers.nv.rm import NvCtl, pci_address
from drivers.nv.signals import DEFAULT_TIMEOUT, SLOT_BYTES, TimelineSignal

GPU_CLOCK_HZ = 1_000_000_000               # semaphore timestamps count nanoseconds
WINDOW_BYTES = 1 << 32                     # the shared and local generic-address windows
LAUNCH_ARENA_BYTES = 4 << 20
COMPUTE_CLASSES = (NV.HOPPER_COMPUTE_A, NV.ADA_COMPUTE_A, NV.AMPERE_COMPUTE_B)
COPY_CLASSES = (NV.HOPPER_DMA_COPY_A, NV.AMPERE_DMA_COPY_B)
GPFIFO_CLASSES = (NV.HOPPER_CHANNEL_GPFIFO_A, NV.AMPERE_CHANNEL_GPFIFO_A)
USERMODE_CLASSES = (NV.HOPPER_USERMODE_A, NV.AMPERE_USERMODE_A, NV.TURING_USERMODE_A)
SLOTS = {"compute": 0, "copy": 1, "start": 2}      # 16-byte slots of the signal page


class _Tsg:
    def __init__(self, handle, ctxshare):
        self.handle, self.ctxshare = handle, ctxshare


class NVDevice(Device):
    def __init__(self, index=0, emulate=None, *, kernel=None, timeout=DEFAULT_TIMEOUT):
        if kernel is None:
            from drivers.emu import emulation_target, make_kernel
            target = emulation_target(emulate)
            if target is not None and not any(target.startswith(t) for t in chips.SUPPORTED_TARGETS):
                raise DeviceNotFound(f"emulation target {target!r} is not an NVIDIA target "
                                     f"({', '.join(chips.SUPPORTED_TARGETS)}, or sm_XXxN)")
            kernel = make_kernel(target) if target else RealKernel()
        self.kernel, self.index, self.timeout = kernel, index, timeout
        self.closed = False
        self.debug = debug_level()
        self.process = None
        self.gpu_file = self.memory = self.tsg = self.compute = self.copier = self.copy_channel = None
        self.doorbell = self.signal_page = self.launch_buffer = self.local_memory = None
        self.h_device = self.h_subdevice = self.h_vaspace = self.h_usermode = self.h_debugger = None
        self.reservations = []
        self.local_per_thread = 0
        self.uuid = None
        self.process = NvProcess.acquire(kernel)
        self.L = self.process.layouts
        try:
            self._open(index)
        except BaseException:
            self.close()
            raise

    @property
    def name(self):
        return f"NVDevice {self.index}"

    # -- opening --------------------------------------------------------------------------------
    def _open(self, index):
        proc, L = self.process, self.L
        rm = proc.client
        cards = proc.cards()
        if not 0 <= index < len(cards):
            raise DeviceNotFound(f"no NVIDIA GPU with index {index}: NV_ESC_CARD_INFO lists {len(cards)}")
        card = cards[index]
        self.gpu_id, self.pci_device_id = card.gpu_id, card.pci_info.device_id
        self.pci_address = pci_address(card)
        self.sku = chips.sku(device_id=self.pci_device_id)
        self.gpu_path = f"/dev/nvidia{card.minor_number}"
        self.gpu_file = NvCtl.open(self.kernel, L, self.gpu_path)
        self.gpu_file.escape("NV_ESC_REGISTER_FD", L.new("nv_ioctl_register_fd_t", ctl_fd=proc.ctl.fd))
        ids = rm.control(rm.handle, NV.NV0000_CTRL_CMD_GPU_GET_ID_INFO_V2,
                         L.new("NV0000_CTRL_GPU_GET_ID_INFO_V2_PARAMS", gpuId=card.gpu_id))
        self.h_device = rm.alloc(rm.handle, NV.NV01_DEVICE_0, L.new(
            "NV0080_ALLOC_PARAMETERS", deviceId=ids.deviceInstance, hClientShare=rm.handle,
            vaMode=NV.NV_DEVICE_ALLOCATION_VAMODE_OPTIONAL_MULTIPLE_VASPACES))
        self.h_subdevice = rm.alloc(self.h_device, NV.NV20_SUBDEVICE_0, L.new("NV2080_ALLOC_PARAMETERS"))
        classes = set(rm.class_list(self.h_device))
        pick = lambda options, what: next((c for c in options if c in classes), None) or self._no_class(what)  # noqa
        self.compute_class = pick(COMPUTE_CLASSES, "compute")
        self.copy_class = pick(COPY_CLASSES, "DMA copy")
        self.gpfifo_class = pick(GPFIFO_CLASSES, "GPFIFO channel")
        self.usermode_class = usermode_class = pick(USERMODE_CLASSES, "usermode")
        G = NV
        info = rm.gr_info(self.h_subdevice, [G.NV2080_CTRL_GR_INFO_INDEX_SM_VERSION,
                                             G.NV2080_CTRL_GR_INFO_INDEX_MAX_WARPS_PER_SM,
                                             G.NV2080_CTRL_GR_INFO_INDEX_LITTER_NUM_GPCS,
                                             G.NV2080_CTRL_GR_INFO_INDEX_LITTER_NUM_TPC_PER_GPC,
                                             G.NV2080_CTRL_GR_INFO_INDEX_LITTER_NUM_SM_PER_TPC,
                                             G.NV2080_CTRL_GR_INFO_INDEX_SHADER_PIPE_SUB_COUNT])
        self.sm_version = info[G.NV2080_CTRL_GR_INFO_INDEX_SM_VERSION]
        self.target, self.arch = chips.target(self.sm_version)
        reason = chips.unsupported_reason(self.target)
        if reason:
            raise DeviceNotFound(f"NVIDIA GPU {index}: {reason}")
        self.max_warps_per_sm = info[G.NV2080_CTRL_GR_INFO_INDEX_MAX_WARPS_PER_SM]
        self.sms_per_tpc = info[G.NV2080_CTRL_GR_INFO_INDEX_LITTER_NUM_SM_PER_TPC]
        self.tpcs = info[G.NV2080_CTRL_GR_INFO_INDEX_SHADER_PIPE_SUB_COUNT]
        self.tpcs_total = info[G.NV2080_CTRL_GR_INFO_INDEX_LITTER_NUM_GPCS] * \
            info[G.NV2080_CTRL_GR_INFO_INDEX_LITTER_NUM_TPC_PER_GPC]
        self.sms = self.tpcs * self.sms_per_tpc
        self.qmd_layout = Q.layout_for_class(self.compute_class)
        self.max_shared = MAX_SHARED_PER_CTA[self.sm_version]
        gid = rm.control(self.h_subdevice, NV.NV2080_CTRL_CMD_GPU_GET_GID_INFO, L.new(
            "NV2080_CTRL_GPU_GET_GID_INFO_PARAMS", flags=NV.NV2080_GPU_CMD_GPU_GET_GID_FLAGS_FORMAT.num(
                NV.NV2080_GPU_CMD_GPU_GET_GID_FLAGS_FORMAT_BINARY)))
        self.uuid = bytes(gid.data[0:16])
        self.h_usermode = rm.alloc(self.h_subdevice, usermode_class)
        self.doorbell = self._map_usermode()
        self.h_vaspace = rm.alloc(self.h_device, NV.FERMI_VASPACE_A, L.new(
            "NV_VASPACE_ALLOCATION_PARAMETERS", flags=NV.NV_VASPACE_ALLOCATION_FLAGS_ENABLE_PAGE_FAULTING
            | NV.NV_VASPACE_ALLOCATION_FLAGS_IS_EXTERNALLY_OWNED, vaBase=0x1000, vaSize=0x1FFFFFB000000))
        proc.register_gpu(self.uuid)
        p = L.new("UVM_REGISTER_GPU_VASPACE_PARAMS", rmCtrlFd=proc.ctl.fd, hClient=rm.handle, hVaSpace=self.h_vaspace)
        p.gpuUuid.uuid = list(self.uuid)
        proc.uvm.ioctl("UVM_REGISTER_GPU_VASPACE", p)
        self.memory = Memory(self)
        self.shared_window = self._reserve_window()
        self.local_window = self._reserve_window()
        self.signal_page = self.memory.alloc(4096, HOST, low=True)
        self.compute_timeline = TimelineSignal(self.signal_page, SLOTS["compute"] * SLOT_BYTES, self.check_faults,
                                               "compute", self.timeout)
        self.copy_timeline = TimelineSignal(self.signal_page, SLOTS["copy"] * SLOT_BYTES, self.check_faults,
                                            "copy", self.timeout)
        self.start_stamp = self.signal_page.va + SLOTS["start"] * SLOT_BYTES
        self.launch_buffer = self.memory.alloc(LAUNCH_ARENA_BYTES, HOST, low=True)
        self._create_channels()
        self.copier = Copier(self, self.copy_channel)
        self.launch_arena = Arena(self.launch_buffer, self.compute_timeline, "launch arena")
        if self.debug >= 1:
            print(f"NVDevice {index}: {self.target} ({self.arch}) {self.sms} SMs, {NV.class_name(self.compute_class)}, "
                  f"{NV.class_name(self.copy_class)}, driver {proc.driver}", file=sys.stderr)

    def _no_class(self, what):
        raise DeviceNotFound(f"NVIDIA GPU {self.index} offers no {what} class this driver knows")

    def _map_usermode(self):
        L, rm, proc = self.L, self.process.client, self.process
        from drivers.kernel import O_RDWR, MAP_SHARED, PROT_READ, PROT_WRITE
        fd = self.kernel.open(self.gpu_path, O_RDWR)
        try:
            self.kernel.ioctl(fd, L.request("NV_ESC_REGISTER_FD"), L.new("nv_ioctl_register_fd_t", ctl_fd=proc.ctl.fd),
                              "NV_ESC_REGISTER_FD")
            p = L.new("nv_ioctl_nvos33_parameters_with_fd", fd=fd)
            p.params.hClient, p.params.hDevice, p.params.hMemory = rm.handle, self.h_subdevice, self.h_usermode
            p.params.length = NV.NVC361_NV_USERMODE__SIZE
            proc.ctl.escape("NV_ESC_RM_MAP_MEMORY", p)
            if p.params.status != NV.NV_OK:
                raise GPUError(f"NV_ESC_RM_MAP_MEMORY of the usermode page: {L.status_name(p.params.status)}")
            self.usermode_cookie = p.params.pLinearAddress
            return self.kernel.mmap(fd, NV.NVC361_NV_USERMODE__SIZE, 0, PROT_READ | PROT_WRITE, MAP_SHARED)
        finally:
            self.kernel.close(fd)

    def _reserve(self, size, align):
        m = self.kernel.mmap(None, size, 0, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE)
        self.reservations.append(m)
        return round_up(m.address, align)

    def _reserve_window(self):
        """4 GiB of address space nothing else may take: a generic-address window (shared, local)."""
        return self._reserve(2 * WINDOW_BYTES, WINDOW_BYTES)

    def _create_channels(self):
        L, rm = self.L, self.process.client
        tsg = rm.alloc(self.h_device, NV.KEPLER_CHANNEL_GROUP_A, L.new(
            "NV_CHANNEL_GROUP_ALLOCATION_PARAMETERS", hVASpace=self.h_vaspace,
            engineType=NV.NV2080_ENGINE_TYPE_GRAPHICS))
        ctxshare = rm.alloc(tsg, NV.FERMI_CONTEXT_SHARE_A, L.new(
            "NV_CTXSHARE_ALLOCATION_PARAMETERS", hVASpace=self.h_vaspace,
            flags=NV.NV_CTXSHARE_ALLOCATION_FLAGS_SUBCONTEXT.num(NV.NV_CTXSHARE_ALLOCATION_FLAGS_SUBCONTEXT_ASYNC)))
        self.tsg = _Tsg(tsg, ctxshare)
        self.compute = Channel(self, self.tsg, self.compute_class, SUBCH_COMPUTE, self.compute_timeline, "compute")
        self.copy_channel = Channel(self, self.tsg, self.copy_class, 4, self.copy_timeline, "copy")
        rm.control(tsg, NV.NVA06C_CTRL_CMD_GPFIFO_SCHEDULE, L.new("NVA06C_CTRL_GPFIFO_SCHEDULE_PARAMS", bEnable=1))
        self.h_debugger = rm.alloc(self.h_device, NV.GT200_DEBUGGER, L.new(
            "NV83DE_ALLOC_PARAMETERS", hAppClient=rm.handle, hClass3dObject=self.compute.engine))
        pb = self.compute.bind()
        for method, va in ((NV.NVC7C0_SET_SHADER_SHARED_MEMORY_WINDOW_A, self.shared_window),
                           (NV.NVC7C0_SET_SHADER_LOCAL_MEMORY_WINDOW_A, self.local_window)):
            pb.method(SUBCH_COMPUTE, method, va >> 32, va & 0xFFFFFFFF)
        if self.local_memory is not None:
            from drivers.nv.compute import local_memory_bytes_per_tpc
            per_tpc = local_memory_bytes_per_tpc(self, self.local_per_thread)
            va = self.local_memory.va
            pb.method(SUBCH_COMPUTE, NV.NVC7C0_SET_SHADER_LOCAL_MEMORY_A, va >> 32, va & 0xFFFFFFFF)
            pb.method(SUBCH_COMPUTE, NV.NVC7C0_SET_SHADER_LOCAL_MEMORY_NON_THROTTLED_A, per_tpc >> 32,
                      per_tpc & 0xFFFFFFFF, 0xFF)
        self.compute.submit(pb, "compute channel setup")
        self.copy_channel.submit(self.copy_channel.bind(), "copy channel setup")

    def _destroy_channels(self):
        errors = []
        rm = self.process.client
        for ch in (self.copy_channel, self.compute):
            if ch is not None:
                try:
                    ch.destroy()
                except Exception as e:
                    errors.append(e)
        for h in (self.h_debugger, self.tsg.handle if self.tsg else None):
            if h is not None:
                try:
                    rm.free(h)
                except Exception as e:
                    errors.append(e)
        self.h_debugger = self.tsg = self.compute = self.copy_channel = None
        return errors

    # -- faults, waits, recovery -----------------------------------------------------------------
    def check_faults(self):
        """Raise what stopped the channels, if the RM stopped them (read from the error notifiers)."""
        for ch in (self.compute, self.copy_channel):
            xid = ch.error() if ch is not None else 0
            if xid:
                exc = report(self, xid)
                t = ch.timeline
                pending = sorted(v for v in t.in_flight if v > t.value)
                if pending:                  # the oldest unfinished submission of the stopped channel
                    exc.args = (f"{exc}; {ch.name} channel was running: {describe(t.in_flight[pending[0]])}",)
                raise exc

    def wait(self, timeline, value, timeout=None):
        try:
            timeline.wait(value, timeout)
        except (GPUFault, GPUHang, ChannelError):
            self.recover()
            raise

    def synchronize(self, timeout=None):
        self._check_open()
        for t in (self.compute_timeline, self.copy_timeline):
            if t.value < t.last_submitted:
                self.wait(t, t.last_submitted, timeout)

    def recover(self):
        """Recreate the channel group after a fault or hang; work in flight is dropped."""
        if self.closed or self.tsg is None:
            return
        errors = self._destroy_channels()
        for t in (self.compute_timeline, self.copy_timeline):
            t.reset()
        self.launch_arena.reset()
        if errors and self.debug >= 1:
            print(f"NVDevice {self.index}: recovery: {errors[0]}", file=sys.stderr)
        self._create_channels()
        self.copier.channel = self.copy_channel
        self.copier.staging_value = [0, 0]

    # -- memory -----------------------------------------------------------------------------------
    def alloc(self, nbytes, host=False, cpu_access=False, low=False):
        """A buffer of `nbytes`: VRAM by default; `host` pinned host memory, `cpu_access` host-visible VRAM;
        `low` places it below 2^40, where host semaphores, push buffers and QMDs must be."""
        self._check_open()
        buf = self.memory.alloc(nbytes, HOST if host else VRAM_CPU if cpu_access else VRAM, low=low)
        buf.device = self
        return buf

    def copyin(self, buf, src, offset=0):
        self._check_open()
        src = as_bytes(src, "copyin source")
        check_range(buf, offset, src.size, "copyin")
        if src.size:
            self.copier.copyin(buf, offset, src)

    def copyout(self, dst, buf, offset=0):
        self._check_open()
        out = as_bytes(dst, "copyout destination")
        if not out.flags.writeable:
            raise ValueError("copyout destination is read-only")
        check_range(buf, offset, out.size, "copyout")
        if out.size:
            self.copier.copyout(out, buf, offset)
        return dst

    def copy(self, dst, src, nbytes=None, dst_offset=0, src_offset=0):
        """Device-to-device copy; `src` or `dst` may belong to another NVDevice of this process (it is
        mapped into this GPU's VA space first, with peer access)."""
        self._check_open()
        nbytes = min(dst.size - dst_offset, src.size - src_offset) if nbytes is None else nbytes
        check_range(dst, dst_offset, nbytes, "copy destination")
        check_range(src, src_offset, nbytes, "copy source")
        for b in (dst, src):
            if b.device is not self:
                if b.device is None or b.device.process is not self.process:
                    raise GPUError(f"buffer at 0x{b.va:x} belongs to a device of another process or kernel")
                b.device.synchronize()
                b.memory.map_peer(b, self)
        if nbytes:
            value = self.copier.copy(dst.va + dst_offset, src.va + src_offset, nbytes,
                                     ("copy of {} bytes 0x{:x} -> 0x{:x}", nbytes, src.va, dst.va))
            self.wait(self.copy_timeline, value)

    # -- programs and launches ---------------------------------------------------------------------
    def load(self, cubin, source=None):
        self._check_open()
        from drivers.nv.program import Program
        if isinstance(cubin, (str, os.PathLike)):
            source = source or str(cubin)
            with open(cubin, "rb") as f:
                cubin = f.read()
        return Program(self, cubin, source or "<cubin>")

    def check_launch(self, kernel, args, grid, block, shared=0):
        """Check a launch (shape, arguments; peers' buffers mapped here) -> (grid, block, packed params)."""
        grid, block = dims(grid, "grid"), dims(block, "block")
        if kernel.program.device is not self:
            raise GPUError(f"kernel {kernel.name} was loaded on another device")
        threads = block[0] * block[1] * block[2]
        if threads > kernel.max_threads:
            raise ValueError(f"kernel {kernel.name}: block {block} has {threads} threads; at most {kernel.max_threads}")
        if grid[0] >= 1 << 31 or grid[1] >= 1 << 16 or grid[2] >= 1 << 16:
            raise ValueError(f"grid {grid} exceeds (2**31-1, 65535, 65535)")
        if shared < 0 or kernel.shared_bytes + shared > self.max_shared:
            raise ValueError(f"kernel {kernel.name}: {kernel.shared_bytes} + {shared} bytes of shared memory; "
                             f"at most {self.max_shared}")
        params = kernel.pack(args)
        if kernel.local_bytes:
            from drivers.nv.compute import ensure_local_memory, local_bytes_per_thread
            ensure_local_memory(self, local_bytes_per_thread(kernel.local_bytes))
        for a in args:
            if hasattr(a, "mapped_gpus") and self.uuid not in a.mapped_gpus and not a.freed:
                a.device.synchronize()
                a.memory.map_peer(a, self)
        return grid, block, params

    @staticmethod
    def launch_bytes(kernel, params):
        """Bytes of constant buffer 0 and the QMD of one launch (256-byte aligned)."""
        return round_up(kernel.param_base + max(len(params), kernel.param_size), 256) + kernel.qmd.layout.size

    def write_launch(self, kernel, params, grid, block, shared, buffer, off):
        """Constant buffer 0 and the QMD of a launch into `buffer` at `off` -> the QMD's VA."""
        cbuf_size = round_up(kernel.param_base + max(len(params), kernel.param_size), 64)
        qmd = kernel.qmd.copy()
        set_grid(qmd, grid, block)
        set_shared(qmd, self, kernel.shared_bytes + shared)
        qmd_off = round_up(cbuf_size, 256)
        mem = buffer.view(np.uint8, off, qmd_off + qmd.layout.size)
        mem[:cbuf_size] = 0
        mem[:0x30] = cbuf0_driver(self, grid, block).view(np.uint8)
        mem[kernel.param_base:kernel.param_base + len(params)] = np.frombuffer(params, np.uint8)
        set_cbuf(qmd, 0, buffer.va + off, cbuf_size)
        mem[qmd_off:] = qmd.words.view(np.uint8)
        return buffer.va + off + qmd_off

    def prepare_launch(self, kernel, args, grid, block, shared=0):
        """Check a launch and write its constant buffer 0 and QMD into the launch arena -> QMD VA."""
        grid, block, params = self.check_launch(kernel, args, grid, block, shared)
        off = self.launch_arena.alloc(self.launch_bytes(kernel, params), 256)
        return self.write_launch(kernel, params, grid, block, shared, self.launch_buffer, off), grid, block

    def launch(self, kernel, args, grid, block, wait=False, timeout=None, shared=0):
        self._check_open()
        qmd_va, grid, block = self.prepare_launch(kernel, args, grid, block, shared)
        what = ("launch of {} grid {} block {}", kernel.name, grid, block)
        if self.debug >= 1:
            print(f"NVDevice {self.index}: {describe(what)}", file=sys.stderr)
        pb = launch_push(self, qmd_va, self.start_stamp if wait else None)
        value = self.compute.submit(pb, what)
        self.launch_arena.tag(value)
        if not wait:
            return None
        return self.wait_launch(value, timeout)

    def wait_launch(self, value, timeout=None):
        """Wait for a timed submission -> seconds between its start stamp and its release."""
        self.wait(self.compute_timeline, value, timeout)
        start = int(self.signal_page.view(np.uint64, SLOTS["start"] * SLOT_BYTES + 8, 1)[0])
        return (self.compute_timeline.timestamp - start) / GPU_CLOCK_HZ

    def command_buffer(self):
        from drivers.nv.replay import CommandBuffer
        return CommandBuffer(self)

    def submit_raw(self, pb, what="raw push buffer", channel="compute", wait=True, timeout=None):
        """Submit a caller-built PushBuffer on the compute or copy channel (bring-up and tests)."""
        self._check_open()
        ch = self.compute if channel == "compute" else self.copy_channel
        value = ch.submit(pb, what)
        if wait:
            self.wait(ch.timeline, value, timeout)
        return value

    # -- teardown -----------------------------------------------------------------------------------
    def close(self):
        if self.closed:
            return
        self.closed = True
        errors = []

        def attempt(fn):
            try:
                fn()
            except Exception as e:
                errors.append(e)

        if self.tsg is not None:
            for t in (self.compute_timeline, self.copy_timeline):
                self._finish_before_close(t)
            errors += self._destroy_channels()
        if self.copier is not None:
            attempt(self.copier.free)
        if self.memory is not None:
            attempt(self.memory.close)
        proc, rm = self.process, self.process.client if self.process else None
        if self.doorbell is not None:
            attempt(lambda: self.kernel.munmap(self.doorbell))
        for m in self.reservations:
            attempt(lambda m=m: self.kernel.munmap(m))
        self.reservations = []
        if self.uuid is not None and proc is not None:
            attempt(lambda: proc.unregister_gpu(self.uuid))
        if rm is not None:
            for h in (self.h_vaspace, self.h_usermode, self.h_subdevice, self.h_device):
                if h is not None:
                    attempt(lambda h=h: rm.free(h))
        if self.gpu_file is not None:
            attempt(self.gpu_file.close)
        if proc is not None:
            attempt(proc.release)
        if errors and sys.exc_info()[1] is None:
            raise errors[0]

    def __repr__(self):
        state = "closed" if self.closed else f"{self.target} ({self.arch})"
        return f"NVDevice({self.index}, {state})"
