"""Robust-channel recovery: what the virtual RM does when a channel faults.

Every channel of the faulting channel's group stops (RC scope is the TSG), each one's error notifier
(NvNotification at NVC56F_NOTIFIERS_RC of its hObjectError) gets the error code in info32, the engine
in info16, the time and status 0xFFFF, as krcErrorWriteNotifier does; the context keeps what the
debugger (GT200_DEBUGGER) reads back: the MMU fault (VA, fault type, access type) and the SM error
state (warp error code, PC, address).  The reason, naming the VA, method or PC, goes to
`gpu.last_error` and, as the RM's "NVRM: Xid" line, to the kernel log.
"""
import time
from dataclasses import dataclass, field

import numpy as np

import nv_ioctl as NV

from drivers.emu.faults import READ_ONLY, MemoryFault
from drivers.emu.nv.faults import ESR_MMU_FAULT, ChannelError, Preempted, SmException
from drivers.emu.nv.gpu import log

NOTIFICATION_BYTES = 16


@dataclass
class MmuFault:
    address: int
    fault_type: int
    access_type: int


@dataclass
class SmError:
    warp_esr: int
    pc: int
    address: int = 0
    global_esr: int = 0


@dataclass
class Context:
    mmu_faults: list = field(default_factory=list)
    sm_errors: dict = field(default_factory=dict)          # SM id -> SmError


def classify(exc):
    """(xid, message) of an exception that stopped a channel."""
    if isinstance(exc, MemoryFault):
        return NV.ROBUST_CHANNEL_FIFO_ERROR_MMU_ERR_FLT, str(exc)
    if isinstance(exc, SmException):
        return NV.ROBUST_CHANNEL_GR_EXCEPTION, str(exc)
    if isinstance(exc, ChannelError):
        return exc.xid, str(exc)
    if isinstance(exc, Preempted):
        return NV.ROBUST_CHANNEL_PREEMPTIVE_REMOVAL, str(exc)
    return NV.ROBUST_CHANNEL_PBDMA_ERROR, f"{type(exc).__name__}: {exc}"


def fail_channel(channel, exc):
    """Stop `channel` (and its channel group) for `exc`, recording and notifying as the RM does."""
    gpu = channel.gpu
    xid, message = classify(exc)
    where = getattr(channel.pbdma, "where", "")
    detail = message if message.startswith(channel.describe()) else f"{channel.describe()}: {message}"
    if where and where not in message:
        detail += f" (while executing {where})"
    text = f"Xid {xid}: {detail}"
    context = gpu.context_of(channel)
    if isinstance(exc, MemoryFault):
        fault_type = NV.NV_PFAULT_FAULT_TYPE_RO_VIOLATION if exc.reason == READ_ONLY else NV.NV_PFAULT_FAULT_TYPE_PTE
        access = getattr(exc, "access_type", None)
        if access is None:
            access = NV.NV_PFAULT_ACCESS_TYPE_VIRT_WRITE if exc.write else NV.NV_PFAULT_ACCESS_TYPE_VIRT_READ
        context.mmu_faults.append(MmuFault(exc.va, fault_type, access))
        pc = getattr(exc, "pc", None)
        if pc is not None:
            context.sm_errors[getattr(exc, "sm", 0)] = SmError(ESR_MMU_FAULT, pc, exc.va)
    elif isinstance(exc, SmException):
        context.sm_errors[getattr(exc, "sm", 0)] = SmError(exc.esr, exc.pc, exc.address)
    group = channel.tsg.channels if channel.tsg is not None else [channel]
    for ch in group:
        if ch.error is None:
            ch.error = text if ch is channel else f"stopped with {channel.describe()} of its channel group: {text}"
        if not isinstance(exc, Preempted):
            write_notifier(ch, xid)
    gpu.last_error = text
    if gpu.machine is not None:             # the RM's Xid line in the kernel log, as dmesg shows it
        gpu.machine.printk(f"NVRM: Xid (PCI:{gpu.board.pci_address.rsplit('.', 1)[0]}): {xid}, {detail}")
    log(1, f"virtual GPU {gpu.board.minor}: {text}")


def write_notifier(channel, xid):
    notifier = channel.notifier
    offset = NV.NVC56F_NOTIFIERS_RC * NOTIFICATION_BYTES
    if notifier.size < offset + NOTIFICATION_BYTES:
        return
    words = notifier.array(offset, NOTIFICATION_BYTES).view(np.uint32)
    now = time.time_ns()
    words[0], words[1], words[2] = now & 0xFFFFFFFF, now >> 32, xid
    words[3] = channel.engine_type | (0xFFFF << 16)      # info16, then status last (the RM's order)
