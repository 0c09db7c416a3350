"""Why the virtual NVIDIA GPU stops a channel, in the terms the RM reports it.

Each error carries the robust-channel code the RM writes to the channel's error notifier
(info32, the kernel log's "Xid"): a bad GPU VA is an MMU fault (31, with the VA, fault type and
access type the debugger's READ_MMU_FAULT_INFO returns), a malformed GPFIFO entry or push buffer a
PBDMA error (32), a method the class does not have a class error (69) or a copy-engine error (39),
a shader that does something illegal an SM exception (13, with the warp error code and PC the
debugger's READ_ALL_SM_ERROR_STATES returns).  Messages name the channel, the method, the VA or the PC.
"""
import nv_ioctl as NV

from drivers.emu.faults import PacketError
from drivers.errors import GPUError

# SM warp error codes (the HWW_WARP_ESR ERROR field of Volta and later GPUs) the virtual SM reports.
ESR_NONE = 0x00
ESR_STACK_ERROR = 0x01
ESR_MISALIGNED_PC = 0x05
ESR_PC_OVERFLOW = 0x06
ESR_MISALIGNED_REG = 0x08
ESR_ILLEGAL_INSTR_ENCODING = 0x09
ESR_ILLEGAL_INSTR_PARAM = 0x0B
ESR_OOR_REG = 0x0D
ESR_OOR_ADDR = 0x0E
ESR_MISALIGNED_ADDR = 0x0F
ESR_INVALID_ADDR_SPACE = 0x10
ESR_INVALID_CONST_ADDR_LDC = 0x12
ESR_MMU_FAULT = 0x17
# Not a hardware code: the virtual SM's scoreboard check (a register used before the control bits made
# the warp wait for it), reported through the same path so a driver sees it as an SM exception.
ESR_SCOREBOARD_HAZARD = 0x3F
ESR_NAMES = {ESR_STACK_ERROR: "STACK_ERROR", ESR_MISALIGNED_PC: "MISALIGNED_PC", ESR_PC_OVERFLOW: "PC_OVERFLOW",
             ESR_MISALIGNED_REG: "MISALIGNED_REG", ESR_ILLEGAL_INSTR_ENCODING: "ILLEGAL_INSTR_ENCODING",
             ESR_ILLEGAL_INSTR_PARAM: "ILLEGAL_INSTR_PARAM", ESR_OOR_REG: "OOR_REG", ESR_OOR_ADDR: "OOR_ADDR",
             ESR_MISALIGNED_ADDR: "MISALIGNED_ADDR", ESR_INVALID_ADDR_SPACE: "INVALID_ADDR_SPACE",
             ESR_INVALID_CONST_ADDR_LDC: "INVALID_CONST_ADDR_LDC", ESR_MMU_FAULT: "MMU_FAULT",
             ESR_SCOREBOARD_HAZARD: "SCOREBOARD_HAZARD (virtual GPU)"}


class ChannelError(PacketError):
    """The channel cannot go on: `xid` is the ROBUST_CHANNEL_* code for its error notifier."""
    xid = NV.ROBUST_CHANNEL_PBDMA_ERROR


class PbdmaError(ChannelError):
    """A GPFIFO entry or push-buffer word the PBDMA refuses."""
    xid = NV.ROBUST_CHANNEL_PBDMA_ERROR


class ClassError(ChannelError):
    """A method (or method data) the engine's class does not take."""

    def __init__(self, message, xid=NV.ROBUST_CHANNEL_GR_CLASS_ERROR):
        super().__init__(message)
        self.xid = xid


class SmException(GPUError):
    """A warp did something the SM traps on: `esr` (warp error code), `pc`, and the address involved."""

    def __init__(self, esr, pc, reason, address=0):
        self.esr, self.pc, self.reason, self.address = esr, pc, reason, address
        super().__init__(f"SM exception {ESR_NAMES.get(esr, hex(esr))} at PC 0x{pc:x}: {reason}")


class Preempted(GPUError):
    """The channel was torn down (or its client went away) while it executed."""
