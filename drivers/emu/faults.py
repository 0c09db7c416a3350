"""Faults the virtual GPU raises while it executes: what a shader or packet did wrong, and where.

The queue processors turn them into what amdkfd would report: a MemoryFault becomes a
memory-exception event (VA + NotPresent/ReadOnly/NoExecute); a wave exception (an illegal
instruction, s_trap) is sent to the runtime through the queue's context-save-area header when the
runtime asked for it, else raised as a hardware-exception event like a packet error or a hang; and
the queue stops.  The shader simulator raises the same classes from inside a dispatch.
"""
from drivers.errors import GPUError, GPUFault

NOT_PRESENT, READ_ONLY, NO_EXECUTE = "NotPresent", "ReadOnly", "NoExecute"
# enum kfd_dbg_trap_exception_code (kfd_ioctl.h): what a wave exception reports
EC_QUEUE_WAVE_ABORT, EC_QUEUE_WAVE_TRAP, EC_QUEUE_WAVE_ILLEGAL_INSTRUCTION = 1, 2, 4


class MemoryFault(GPUFault):
    """A GPU access to ``va`` the VM refuses: reason is NotPresent, ReadOnly or NoExecute."""

    def __init__(self, va, reason, write=False, detail=""):
        self.write = bool(write)
        super().__init__(va, reason, detail or ("write" if write else "read"))


class WaveFault(GPUError):
    """A wave stopped on an exception at ``pc``; ``exception_code`` is its EC_QUEUE_WAVE_* code."""
    exception_code = EC_QUEUE_WAVE_ABORT
    kind = "wave fault"

    def __init__(self, pc, text):
        self.pc, self.text = pc, text
        super().__init__(f"{self.kind} at PC 0x{pc:x}: {text}")


class IllegalInstruction(WaveFault):
    """A wave fetched a word the ISA does not define (or the simulator does not implement), named
    a VGPR past its allocation, or jumped to a misaligned PC."""
    exception_code = EC_QUEUE_WAVE_ILLEGAL_INSTRUCTION
    kind = "illegal instruction"


class WaveTrap(WaveFault):
    """s_trap with no trap handler to run (llvm.trap / abort is s_trap 2)."""
    exception_code = EC_QUEUE_WAVE_TRAP
    kind = "trap"


class Preempted(GPUError):
    """The dispatch in progress was stopped because its queue is being destroyed."""


class ShaderHang(GPUError):
    """A wave ran past the instruction budget: probably an endless loop (or a missed s_endpgm)."""

    def __init__(self, pc, executed):
        self.pc, self.executed = pc, executed
        super().__init__(f"shader hang: still running at PC 0x{pc:x} after {executed} instructions")


class PacketError(GPUError):
    """A queue packet the command processor cannot execute; the message names packet and dword."""


class HazardError(GPUError):
    """A shader read (or overwrote) a register before the sync its producer requires: the code is
    scheduled wrong and would read stale data on hardware. Names the PC, the register, and the
    instruction that still owns it."""

    def __init__(self, pc, text, detail):
        self.pc, self.text, self.detail = pc, text, detail
        super().__init__(f"hazard at PC 0x{pc:x} ({text}): {detail}")


class MissingWait(WaveFault):
    """An AMD wave read or overwrote a register a memory operation in flight still writes, with no
    s_waitcnt retiring that operation: on hardware it would see (or leave) a stale value.  The text
    names the instruction, the register and the PC of the operation not waited for."""
    kind = "missing s_waitcnt"
