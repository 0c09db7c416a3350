"""Faults the virtual GPU raises while it executes: what a shader or packet did wrong, and where.

The queue processors turn them into what amdkfd would report: a MemoryFault becomes a
memory-exception event (VA + NotPresent/ReadOnly/NoExecute), the others a hardware-exception
event, and the queue stops.  The shader simulator raises the same classes from inside a dispatch.
"""
from drivers.errors import GPUError, GPUFault

NOT_PRESENT, READ_ONLY, NO_EXECUTE = "NotPresent", "ReadOnly", "NoExecute"


class MemoryFault(GPUFault):
    """A GPU access to ``va`` the VM refuses: reason is NotPresent, ReadOnly or NoExecute."""

    def __init__(self, va, reason, write=False, detail=""):
        self.write = bool(write)
        super().__init__(va, reason, detail or ("write" if write else "read"))


class IllegalInstruction(GPUError):
    """A wave fetched a word the ISA does not define (or the simulator does not implement)."""

    def __init__(self, pc, text):
        self.pc, self.text = pc, text
        super().__init__(f"illegal instruction at PC 0x{pc:x}: {text}")


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
