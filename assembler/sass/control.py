"""Scheduling control of an instruction: bits 105..125 of the 128-bit word.

    bits 105..108  stall   cycles to wait before issuing the next instruction (0..15)
    bit  109       yield   0 = the warp scheduler may switch warps after this instruction
    bits 110..112  wbar    scoreboard (0..5) released when the result is written, 7 = none
    bits 113..115  rbar    scoreboard (0..5) released when the sources are read, 7 = none
    bits 116..121  wait    scoreboards (bit mask) to wait for before issuing
    bits 122..125  reuse   operand reuse cache flags; they print as .reuse on the operand

Text form, a comment after the statement (the convention of CuAssembler's listings):

    FADD R9, R2, R5 ;   // [B--2---:R-:W3:Y:S05]

    B......  wait mask, one column per scoreboard 0..5: its digit when waited on, else '-'
    R.       read scoreboard or '-'  (6 is encodable and nvdisasm takes it; the hardware has
    W.       write scoreboard or '-'   six scoreboards, 0..5, and the scheduler uses only those)
    Y / -    Y when bit 109 is 0 (yield), '-' when it is 1
    Snn      stall cycles, decimal

nvdisasm refuses '-' (bit 109 set) with a stall of 0 or of 12 and more.
"""
import re

CONTROL_SHIFT = 105
CONTROL_MASK = ((1 << 17) - 1) << CONTROL_SHIFT
REUSE_SHIFT = 122
_TEXT = re.compile(r"\[B([0-5-]{6}):R([0-6-]):W([0-6-]):([Y-]):S(\d\d?)\]")


class Control:
    __slots__ = ("stall", "yield_", "wbar", "rbar", "wait")

    def __init__(self, stall=0, yield_=False, wbar=7, rbar=7, wait=0):
        self.stall, self.yield_, self.wbar, self.rbar, self.wait = stall, yield_, wbar, rbar, wait

    @classmethod
    def from_word(cls, word):
        c = word >> CONTROL_SHIFT
        return cls(c & 15, not (c >> 4) & 1, (c >> 5) & 7, (c >> 8) & 7, (c >> 11) & 63)

    def bits(self):
        """The 17 control bits (shifted to bit 105)."""
        c = (self.stall & 15) | ((0 if self.yield_ else 1) << 4) | (self.wbar & 7) << 5 | \
            (self.rbar & 7) << 8 | (self.wait & 63) << 11
        return c << CONTROL_SHIFT

    def text(self):
        wait = "".join(str(i) if self.wait >> i & 1 else "-" for i in range(6))
        return "[B%s:R%s:W%s:%s:S%02d]" % (wait, "-" if self.rbar == 7 else self.rbar,
                                          "-" if self.wbar == 7 else self.wbar,
                                          "Y" if self.yield_ else "-", self.stall)

    def __eq__(self, other):
        return isinstance(other, Control) and self.bits() == other.bits()

    def __hash__(self):
        return self.bits()

    def __repr__(self):
        return "Control(%s)" % self.text()


def parse_control(text):
    """'[B--2---:R-:W3:Y:S05]' -> Control, or None when `text` holds no control comment.
    Raises ValueError on a malformed one."""
    m = _TEXT.search(text)
    if m is None:
        if "[B" in text:
            raise ValueError("malformed control %r (expected [B------:R-:W-:Y:S00])" % text.strip())
        return None
    wait_s, r, w, y, s = m.groups()
    wait = 0
    for i, ch in enumerate(wait_s):
        if ch != "-":
            if ch != str(i):
                raise ValueError("wait mask column %d must be '%d' or '-', not %r" % (i, i, ch))
            wait |= 1 << i
    stall = int(s)
    if stall > 15:
        raise ValueError("stall %d is out of range (0..15)" % stall)
    if y == "-" and not 1 <= stall <= 11:
        raise ValueError("'-' (no yield) takes a stall of 1..11, not %d (the word would be refused)" % stall)
    return Control(stall, y == "Y", 7 if w == "-" else int(w), 7 if r == "-" else int(r), wait)
