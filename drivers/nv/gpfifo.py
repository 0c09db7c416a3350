"""GPFIFO channels from the driver's side: push buffers, the ring, USERD and the doorbell.

    pb = PushBuffer()
    pb.method(SUBCH_COMPUTE, NVC7C0_SEND_PCAS_A, qmd_va >> 8)
    value = channel.submit(pb, "launch of saxpy")      # the timeline value that marks it done

A submission copies the push buffer's dwords into the channel's push-buffer arena (pinned host
memory the GPU reads), appends a 64-bit SEM_EXECUTE release of the channel's timeline (with
RELEASE_WFI and the timestamp), writes one GPFIFO entry, moves GP_PUT in USERD and stores the
work-submit token at the usermode page's NOTIFY_CHANNEL_PENDING.  A full ring waits for GP_GET to
move (GPUHang past the timeout).
"""
import sys
import time

import numpy as np

import nv_ioctl as NV

from drivers.arena import Arena
from drivers.errors import GPUError
from drivers.kernel import MAP_ANONYMOUS, MAP_NORESERVE, MAP_PRIVATE, PROT_NONE
from drivers.nv.memory import HOST, SYSMEM, round_up

SUBCH_COMPUTE, SUBCH_COPY = 1, 4                     # tinygrad's and NVK's convention
USERD_BYTES = 512
CHANNEL_RANGE_BYTES = 64 << 20        # the VA range UVM_REGISTER_CHANNEL keeps for a channel
GP_GET, GP_PUT = 0x88 // 4, 0x8C // 4
_SEM_RELEASE = (NV.NVC56F_SEM_EXECUTE_OPERATION.num(NV.NVC56F_SEM_EXECUTE_OPERATION_RELEASE)
                | NV.NVC56F_SEM_EXECUTE_RELEASE_WFI.num(NV.NVC56F_SEM_EXECUTE_RELEASE_WFI_EN)
                | NV.NVC56F_SEM_EXECUTE_PAYLOAD_SIZE.num(NV.NVC56F_SEM_EXECUTE_PAYLOAD_SIZE_64BIT)
                | NV.NVC56F_SEM_EXECUTE_RELEASE_TIMESTAMP.num(NV.NVC56F_SEM_EXECUTE_RELEASE_TIMESTAMP_EN))
_SEM_ACQUIRE_GEQ = (NV.NVC56F_SEM_EXECUTE_OPERATION.num(NV.NVC56F_SEM_EXECUTE_OPERATION_ACQ_CIRC_GEQ)
                    | NV.NVC56F_SEM_EXECUTE_PAYLOAD_SIZE.num(NV.NVC56F_SEM_EXECUTE_PAYLOAD_SIZE_64BIT))


def _method_names():
    """{(class prefix, method offset): name} of the methods nv_ioctl.methods declares (the values of
    fields, GPFIFO-entry and header constants left out)."""
    from nv_ioctl import methods
    from nv_ioctl.drf import Field
    items = {n: v for n, v in vars(methods).items() if n.startswith("NVC")}
    fields = [n for n, v in items.items() if isinstance(v, Field)]
    names = {}
    for n, v in sorted(items.items(), key=lambda kv: len(kv[0]), reverse=True):
        if isinstance(v, bool) or not isinstance(v, int) or v % 4 or "__" in n or "NUMBER_OF" in n:
            continue
        if any(s in n for s in ("_GP_ENTRY", "_DMA_", "NOTIFIERS", "_NV_USERMODE")):
            continue
        if not any(n.startswith(f + "_") for f in fields):
            names[(n.split("_")[0], v)] = n
    return names


_NAMES = None
_SEC_OP_NAMES = {NV.NVC56F_DMA_SEC_OP_INC_METHOD: "INC", NV.NVC56F_DMA_SEC_OP_NON_INC_METHOD: "NON_INC",
                 NV.NVC56F_DMA_SEC_OP_ONE_INC: "ONE_INC"}


def describe(dwords, engine_class, subch):
    """One line per method of a push buffer (DEBUG=2): subchannel, method name, data."""
    global _NAMES
    if _NAMES is None:
        _NAMES = _method_names()
    engine = {NV.AMPERE_COMPUTE_B: "NVC7C0", NV.ADA_COMPUTE_A: "NVC7C0", NV.HOPPER_COMPUTE_A: "NVC7C0"}.get(
        engine_class, "NVC7B5")
    lines, i = [], 0
    while i < len(dwords):
        h = dwords[i]
        i += 1
        op, sc = NV.NVC56F_DMA_SEC_OP.val(h), NV.NVC56F_DMA_METHOD_SUBCHANNEL.val(h)
        method, count = NV.NVC56F_DMA_METHOD_ADDRESS.val(h) << 2, NV.NVC56F_DMA_METHOD_COUNT.val(h)
        data = [count] if op == NV.NVC56F_DMA_SEC_OP_IMMD_DATA_METHOD else dwords[i:i + count]
        i += 0 if op == NV.NVC56F_DMA_SEC_OP_IMMD_DATA_METHOD else count
        for k, d in enumerate(data):
            m = method + 4 * (k if op == NV.NVC56F_DMA_SEC_OP_INC_METHOD else
                              min(k, 1) if op == NV.NVC56F_DMA_SEC_OP_ONE_INC else 0)
            cls = "NVC56F" if m < 0x100 else engine if sc == subch else f"subch{sc}"
            lines.append(f"subch {sc} {_NAMES.get((cls, m), f'{cls} method 0x{m:x}')} 0x{d:x}"
                         + (" (immediate)" if op == NV.NVC56F_DMA_SEC_OP_IMMD_DATA_METHOD else ""))
    return lines


def _check_sem(address):
    if address >> 40 or address & 7:
        raise GPUError(f"semaphore at 0x{address:x}: the host's semaphores take an 8-byte aligned address below "
                       "2^40 (allocate it with low=True)")


class PushBuffer:
    """Methods as push-buffer dwords (INC_METHOD headers unless told otherwise)."""

    def __init__(self):
        self.dwords = []

    def method(self, subch, method, *data):
        self.dwords.append(NV.push_header(NV.NVC56F_DMA_SEC_OP_INC_METHOD, subch, method, len(data)))
        self.dwords.extend(int(d) & 0xFFFFFFFF for d in data)
        return self

    def non_inc(self, subch, method, data):
        self.dwords.append(NV.push_header(NV.NVC56F_DMA_SEC_OP_NON_INC_METHOD, subch, method, len(data)))
        self.dwords.extend(int(d) & 0xFFFFFFFF for d in data)
        return self

    def immediate(self, subch, method, value):
        self.dwords.append(NV.push_header(NV.NVC56F_DMA_SEC_OP_IMMD_DATA_METHOD, subch, method, value))
        return self

    def release(self, address, value, wfi=True):
        """SEM_EXECUTE release of a 64-bit `value` at `address` (with the timestamp at +8)."""
        _check_sem(address)
        op = _SEM_RELEASE if wfi else _SEM_RELEASE & ~NV.NVC56F_SEM_EXECUTE_RELEASE_WFI.num(1)
        return self.method(0, NV.NVC56F_SEM_ADDR_LO, address & 0xFFFFFFFF, address >> 32, value & 0xFFFFFFFF,
                           value >> 32, op)

    def acquire(self, address, value):
        """Wait (on the GPU) until the 64-bit counter at `address` is >= `value`."""
        _check_sem(address)
        return self.method(0, NV.NVC56F_SEM_ADDR_LO, address & 0xFFFFFFFF, address >> 32, value & 0xFFFFFFFF,
                           value >> 32, _SEM_ACQUIRE_GEQ)

    def extend(self, other):
        self.dwords.extend(other.dwords)
        return self

    def __len__(self):
        return len(self.dwords)


class Channel:
    """One GPFIFO channel with one engine object (compute or copy) bound to `subch`."""

    def __init__(self, dev, tsg, engine_class, subch, timeline, name, entries=1024, push_bytes=4 << 20):
        self.dev, self.tsg, self.engine_class, self.subch = dev, tsg, engine_class, subch
        self.timeline, self.name, self.entries = timeline, name, entries
        L, rm = dev.L, dev.process.client
        self.ring = dev.memory.alloc(round_up(entries * 8, USERD_BYTES) + USERD_BYTES, HOST, low=True)
        self.userd_offset = round_up(entries * 8, USERD_BYTES)
        self.notifier = dev.memory.alloc(4096, SYSMEM)
        self.push = dev.memory.alloc(push_bytes, HOST, low=True)
        self.handle = self.engine = self.range = None
        self.registered = False
        try:
            p = L.new("NV_CHANNEL_ALLOC_PARAMS", hObjectError=self.notifier.handle, hObjectBuffer=self.ring.handle,
                      gpFifoOffset=self.ring.va, gpFifoEntries=entries, hContextShare=tsg.ctxshare)
            p.hUserdMemory[0], p.userdOffset[0] = self.ring.handle, self.userd_offset
            self.handle = rm.alloc(tsg.handle, dev.gpfifo_class, p)
            self.engine = rm.alloc(self.handle, engine_class)
            token = rm.control(self.handle, NV.NVC36F_CTRL_CMD_GPFIFO_GET_WORK_SUBMIT_TOKEN)
            self.token = token.workSubmitToken
            # UVM maps the channel's RM-owned buffers into a VA range of its own, which we keep free
            self.range = dev.kernel.mmap(None, 2 * CHANNEL_RANGE_BYTES, 0, PROT_NONE,
                                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE)
            dev.process.uvm.call_register_channel(dev.uuid, dev.process.ctl.fd, rm.handle, self.handle,
                                                  round_up(self.range.address, CHANNEL_RANGE_BYTES),
                                                  CHANNEL_RANGE_BYTES)
            self.registered = True
        except BaseException:
            self.destroy()
            raise
        self.words = self.ring.view(np.uint32)
        self.userd = self.ring.view(np.uint32, self.userd_offset, USERD_BYTES // 4)
        self.put = 0
        self.arena = Arena(self.push, timeline, f"{name} push buffer")
        self.notifier_words = self.notifier.view(np.uint32, 0, 4)

    def bind(self):
        """A push buffer starting with SET_OBJECT of the engine class on the channel's subchannel."""
        return PushBuffer().method(self.subch, NV.NVC56F_SET_OBJECT, self.engine_class)

    def error(self):
        """The robust-channel error code the RM wrote to the notifier (0: none)."""
        w = self.notifier_words
        return int(w[2]) if int(w[3]) >> 16 == 0xFFFF else 0

    def submit(self, pb, what, release=True):
        """Put `pb` (and the timeline release) on the ring and ring the doorbell -> timeline value."""
        value = self.timeline.next_value(what)
        if release:
            pb.release(self.timeline.address, value)
        n = len(pb.dwords)
        off = self.arena.alloc(4 * n, 64)
        self.push.view(np.uint32, off, n)[:] = pb.dwords
        self.arena.tag(value)
        self._gp_entry(self.push.va + off, n, pb.dwords)
        return value

    def submit_recorded(self, pre, va, dwords, what):
        """`pre`, then `dwords` dwords already in GPU memory at `va` (a recorded push buffer, one GPFIFO
        entry of its own), then the timeline release -> timeline value."""
        value = self.timeline.next_value(what)
        post = PushBuffer().release(self.timeline.address, value)
        n, m = len(pre.dwords), len(post.dwords)
        off = self.arena.alloc(4 * (n + m), 64)
        self.push.view(np.uint32, off, n + m)[:] = pre.dwords + post.dwords
        self.arena.tag(value)
        if n:
            self._gp_entry(self.push.va + off, n, pre.dwords)
        self._gp_entry(va, dwords)
        self._gp_entry(self.push.va + off + 4 * n, m, post.dwords)
        return value

    def _gp_entry(self, va, dwords, words=None):
        if self.dev.debug >= 2:
            print(f"NVDevice {self.dev.index} {self.name} GPFIFO entry {self.put} @ 0x{va:x} ({dwords} dwords"
                  + (")" if words is not None else ", recorded)"), file=sys.stderr)
            for line in describe(words, self.engine_class, self.subch) if words is not None else ():
                print(f"  {line}", file=sys.stderr)
        nxt = (self.put + 1) % self.entries
        deadline = time.perf_counter() + self.timeline.timeout
        while int(self.userd[GP_GET]) == nxt:            # ring full: the host must fetch first
            self.dev.check_faults()
            if time.perf_counter() > deadline:
                raise self.timeline.hang(self.timeline.last_submitted, f"{self.name} GPFIFO ring full")
            time.sleep(1e-4)
        e0 = va & 0xFFFFFFFC
        e1 = NV.NVC56F_GP_ENTRY1_GET_HI.num((va >> 32) & 0xFF) | NV.NVC56F_GP_ENTRY1_LENGTH.num(dwords)
        if va >> 40:
            raise GPUError(f"push buffer at 0x{va:x} is above 2^40, which a GPFIFO entry cannot address")
        self.words[2 * self.put], self.words[2 * self.put + 1] = e0, e1
        self.put = nxt
        self.userd[GP_PUT] = nxt
        self.dev.doorbell.store32(NV.NVC361_NOTIFY_CHANNEL_PENDING, self.token)

    def destroy(self):
        """Unregister and free the channel (its engine object goes with it) and its memory."""
        dev, errors = self.dev, []
        steps = []
        if self.registered:
            steps.append(lambda: dev.process.uvm.call_unregister_channel(dev.uuid, dev.process.client.handle,
                                                                         self.handle))
        if self.handle is not None:
            steps.append(lambda: dev.process.client.free(self.handle))
        if self.range is not None:
            steps.append(lambda: dev.kernel.munmap(self.range))
        for fn in steps:
            try:
                fn()
            except Exception as e:      # teardown goes on
                errors.append(e)
        self.handle = self.range = None
        self.registered = False
        for b in (self.push, self.notifier, self.ring):
            try:
                b.free()
            except Exception as e:
                errors.append(e)
        if errors:
            raise errors[0]
