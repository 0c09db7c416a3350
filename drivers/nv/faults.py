"""Why a channel stopped, as the driver can learn it: the error notifier and the debugger.

When the RM stops a channel (robust-channel recovery) it writes the error code (info32, the "Xid")
to the channel's error notifier; the driver sees it between polls of a wait.  For the details it asks
the GT200_DEBUGGER bound to the compute object: NV83DE_CTRL_CMD_DEBUG_READ_MMU_FAULT_INFO for a page
fault (the VA, the fault and access types) and NV83DE_CTRL_CMD_DEBUG_READ_ALL_SM_ERROR_STATES for an SM
exception (the warp error code and PC).  A page fault becomes GPUFault with the VA; an SM exception a
ShaderError with the PC; anything else (a malformed push buffer, a method the class refuses) a
ChannelError naming the code and what the RM's "NVRM: Xid" line in the kernel log says.
"""
import nv_ioctl as NV

from drivers.errors import GPUError, GPUFault
from drivers.nv.rm import RMError

XID_NAMES = {NV.ROBUST_CHANNEL_GR_EXCEPTION: "graphics/compute exception",
             NV.ROBUST_CHANNEL_FIFO_ERROR_MMU_ERR_FLT: "MMU fault",
             NV.ROBUST_CHANNEL_PBDMA_ERROR: "PBDMA error (malformed GPFIFO entry or push buffer)",
             NV.ROBUST_CHANNEL_CE0_ERROR: "copy engine error",
             NV.ROBUST_CHANNEL_PREEMPTIVE_REMOVAL: "channel removed while it ran",
             NV.ROBUST_CHANNEL_GR_CLASS_ERROR: "class error (a method the compute class refuses)"}
FAULT_TYPES = {NV.NV_PFAULT_FAULT_TYPE_PDE: "no page directory", NV.NV_PFAULT_FAULT_TYPE_PTE: "page not present",
               NV.NV_PFAULT_FAULT_TYPE_VA_LIMIT_VIOLATION: "past the VA limit",
               NV.NV_PFAULT_FAULT_TYPE_RO_VIOLATION: "write to a read-only page",
               NV.NV_PFAULT_FAULT_TYPE_ATOMIC_VIOLATION: "atomic on a page that refuses atomics"}
ACCESS_TYPES = {NV.NV_PFAULT_ACCESS_TYPE_VIRT_READ: "read", NV.NV_PFAULT_ACCESS_TYPE_VIRT_WRITE: "write",
                NV.NV_PFAULT_ACCESS_TYPE_VIRT_ATOMIC: "atomic"}
# SM warp error codes (HWW_WARP_ESR ERROR field of Volta and later)
WARP_ESR_NAMES = {0x01: "stack error", 0x05: "misaligned PC", 0x06: "PC overflow", 0x08: "misaligned register",
                  0x09: "illegal instruction encoding", 0x0B: "illegal instruction parameter",
                  0x0D: "register out of range", 0x0E: "address out of range", 0x0F: "misaligned address",
                  0x10: "invalid address space", 0x12: "constant address out of range (LDC)", 0x17: "MMU fault",
                  0x3F: "scoreboard hazard (the virtual GPU's check of the control bits)"}


class ChannelError(GPUError):
    """The RM stopped the device's channels: `xid` (ROBUST_CHANNEL_*) and what the debugger told."""

    def __init__(self, xid, detail=""):
        self.xid = xid
        super().__init__(f"GPU channel error Xid {xid} ({XID_NAMES.get(xid, 'unknown')})" +
                         (f": {detail}" if detail else ""))


class ShaderError(ChannelError):
    """An SM exception: the warp error code (`esr`) and the PC of the faulting warp."""

    def __init__(self, xid, esr, pc, sm, address=0):
        self.esr, self.pc, self.sm, self.address = esr, pc, sm, address
        name = WARP_ESR_NAMES.get(esr, f"warp error 0x{esr:x}")
        at = f" (address 0x{address:x})" if address else ""
        super().__init__(xid, f"SM {sm}: {name} at PC 0x{pc:x}{at}")


def report(dev, xid):
    """The exception describing channel error `xid`, with what the debugger can read."""
    rm, L = dev.process.client, dev.L
    if dev.h_debugger is None:
        return ChannelError(xid, "no debugger object to ask for details")
    try:
        if xid == NV.ROBUST_CHANNEL_FIFO_ERROR_MMU_ERR_FLT:
            info = rm.control(dev.h_debugger, NV.NV83DE_CTRL_CMD_DEBUG_READ_MMU_FAULT_INFO)
            if info.count:
                e = info.mmuFaultInfoList[info.count - 1]
                reason = FAULT_TYPES.get(e.faultType, f"fault type {e.faultType}")
                return GPUFault(e.faultAddress, reason, f"{ACCESS_TYPES.get(e.accessType, 'access')}, Xid {xid}")
        if xid in (NV.ROBUST_CHANNEL_GR_EXCEPTION, NV.ROBUST_CHANNEL_FIFO_ERROR_MMU_ERR_FLT):
            count = min(dev.sms, NV.NV83DE_CTRL_DEBUG_MAX_SMS_PER_CALL)
            for start in range(0, dev.sms, count):
                n = min(count, dev.sms - start)
                p = L.new("NV83DE_CTRL_DEBUG_READ_ALL_SM_ERROR_STATES_PARAMS", startingSM=start, numSMsToRead=n)
                rm.control(dev.h_debugger, NV.NV83DE_CTRL_CMD_DEBUG_READ_ALL_SM_ERROR_STATES, p)
                for i in range(n):
                    s = p.smErrorStateArray[i]
                    if s.hwwWarpEsr or s.hwwGlobalEsr:
                        exc = ShaderError(xid, s.hwwWarpEsr, s.hwwWarpEsrPc64, start + i, s.hwwEsrAddr)
                        said = xid_line(dev, xid).split(f"at PC 0x{s.hwwWarpEsrPc64:x}: ", 1)
                        if len(said) == 2:          # the kernel log says more (the instruction, the register)
                            exc.args = (f"{exc}: {said[1].split(' (while executing ')[0]}",)
                        return exc
    except RMError as e:
        return ChannelError(xid, f"the debugger could not say more ({e})")
    return ChannelError(xid, xid_line(dev, xid))


def xid_line(dev, xid):
    """What the RM wrote to the kernel log about Xid `xid` of this GPU (the method or entry at fault
    of a PBDMA error, say), or '' when the log cannot be read or says nothing."""
    prefix = f"NVRM: Xid (PCI:{dev.pci_address.rsplit('.', 1)[0]}): {xid}, "
    try:
        lines = dev.kernel.kernel_log()
    except OSError:
        return ""
    return next((line[len(prefix):] for line in reversed(lines) if line.startswith(prefix)), "")
