"""One decoded SASS instruction as the simulator sees it, and its scheduling control bits.

An instruction is what nvdisasm prints, structured: the guard predicate (file, number, negated), the
opcode and its modifiers, the operands (assembler.sass's Operand: kind, shape, holes), and the
control bits of the high word (bits 105..125 of the 128-bit instruction):

    stall 105..108   yield 109   write scoreboard 110..112   read scoreboard 113..115 (7 = none)
    wait mask 116..121 (scoreboards to wait for before issue)   reuse 122..125
"""
from dataclasses import dataclass

NO_SB = 7


@dataclass(frozen=True)
class Control:
    stall: int
    yield_: bool
    write_sb: int
    read_sb: int
    wait: int
    reuse: int

    @classmethod
    def from_hi(cls, hi):
        c = hi >> 41
        return cls(c & 0xF, bool(c >> 4 & 1), c >> 5 & 7, c >> 8 & 7, c >> 11 & 0x3F, c >> 17 & 0xF)


@dataclass
class Instr:
    pc: int                       # byte offset from the start of the code
    guard: tuple                  # (file 'P'/'UP', number, negated) or None
    opcode: str
    mods: tuple                   # modifier tokens in order ('WIDE', 'U32')
    operands: tuple               # assembler.sass.syntax.Operand
    ctrl: Control
    text: str = ""

    def has(self, *mods):
        return all(m in self.mods for m in mods)

    def __str__(self):
        return self.text or ".".join((self.opcode,) + self.mods)
