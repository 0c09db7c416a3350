"""ir3 operands as readers: registers (full, half, relative to a0.x), consts, immediates.

Each source decodes once from its bit field (the layouts of mesa's isaspec: #multisrc for cat2
and cat4, #cat3-src, the cat1 forms, cat6 sources) into an object whose ``read(wg, ctx, i)``
returns the value of every fiber for repetition ``i`` of an (rptN) instruction, as uint32
(full) or uint16 (half) bits. ``rows(i)`` says which register units (state.units) a read
touches, for the hazard tracker (None: not known before run time, relative addressing).
"""
import math

import numpy as np

from drivers.errors import GPUError

from .state import A0, NONE_REG, P0, SHARED_END, SHARED_FIRST, half_row, regname, units

# #multisrc-immed-flut: index -> value
FLUT = (0.0, 0.5, 1.0, 2.0, math.e, math.pi, 1 / math.pi, 1 / math.log2(math.e), math.log2(math.e),
        1 / math.log2(10), math.log2(10), 4.0)


def sext(value, bits):
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >> (bits - 1) & 1 else value


def f32_bits(x):
    return int(np.float32(x).view(np.uint32))


def f16_bits(x):
    return int(np.float16(x).view(np.uint16))


class Limits:
    """What the dispatch grants: register rows (FULLREGFOOTPRINT * 4), const words (CONSTLEN *
    4); an operand outside them is refused when the program is prepared."""

    def __init__(self, full_regs, const_vec4):
        self.full_rows = full_regs * 4
        self.const_words = const_vec4 * 4

    def check_row(self, row, what):
        if row < self.full_rows or SHARED_FIRST <= row < SHARED_END or row >= A0:
            return
        raise GPUError(f"{what} is beyond the register footprint: SP_CS_CTRL_REG0.FULLREGFOOTPRINT grants "
                       f"{self.full_rows // 4} vec4 registers (r0..r{self.full_rows // 4 - 1})")

    def check_const(self, word, what):
        if word >= self.const_words:
            raise GPUError(f"{what} is beyond the const file the dispatch loads: HLSQ_CS_CNTL.CONSTLEN grants "
                           f"{self.const_words // 4} vec4 (c0..c{self.const_words // 4 - 1})")


class Src:
    half = False
    r = 0                       # register increment per (rptN) repetition

    def rows(self, i=0):
        return ()

    def __repr__(self):
        return self.text


class Reg(Src):
    def __init__(self, regid, half, r, limits, pc, reps=1):
        self.regid, self.half, self.r = regid, half, r
        self.text = regname(regid, half)
        if limits is not None and regid != NONE_REG and (regid < P0 or regid >= P0 + 4):
            for i in range(reps if r else 1):           # every register the repetitions touch
                reg = regid + i * r
                limits.check_row(half_row(reg)[0] if half else reg, f"{regname(reg, half)} at PC 0x{pc:x}")

    def read(self, wg, ctx, i=0):
        reg = self.regid + i * self.r
        return wg.half(reg) if self.half else wg.full(reg)

    def rows(self, i=0):
        return units(self.regid + i * self.r, self.half)


class Const(Src):
    """cN.c; a half-precision float instruction sees the const demoted to f16
    (SP_MODE_CONTROL.CONSTANT_DEMOTION_ENABLE, which every a6xx driver sets)."""

    def __init__(self, word, half, r, limits, pc, demote=False, reps=1):
        self.word, self.half, self.r, self.demote = word, half, r, demote
        self.text = ("h" if half else "") + f"c{word >> 2}.{'xyzw'[word & 3]}"
        if limits is not None:
            limits.check_const(word + (reps - 1) * r, f"{self.text} at PC 0x{pc:x}")

    def read(self, wg, ctx, i=0):
        v = ctx.consts[self.word + i * self.r]
        if self.half:
            v = np.float32(v.view(np.float32)).astype(np.float16).view(np.uint16) if self.demote \
                else np.uint16(v & 0xFFFF)
        return np.broadcast_to(v, (wg.F,))


class Imm(Src):
    def __init__(self, bits, half, text=None):
        self.half = half
        self.value = np.uint16(bits & 0xFFFF) if half else np.uint32(bits & 0xFFFFFFFF)
        self.text = text or str(bits)

    def read(self, wg, ctx, i=0):
        return np.broadcast_to(self.value, (wg.F,))


class RelReg(Src):
    """r<a0.x + offset>: each fiber's own a0.x picks the register."""

    def __init__(self, offset, half, pc):
        self.offset, self.half, self.pc = offset, half, pc
        self.text = ("h" if half else "") + f"r<a0.x + {offset}>"

    def read(self, wg, ctx, i=0):
        idx = wg.a0() + self.offset + i
        limit = 2 * ctx.limits.full_rows if self.half else ctx.limits.full_rows
        bad = (idx < 0) | (idx >= limit)
        if bad.any():
            f = int(np.flatnonzero(bad)[0])
            kind = "half registers" if self.half else "registers"
            raise GPUError(f"relative register {self.text} at PC 0x{self.pc:x}: fiber {f} has a0.x = "
                           f"{int(wg.a0()[f])}, outside the {limit} {kind} of the footprint")
        cols = np.arange(wg.F)
        if self.half:
            return wg.R16[idx >> 1, 2 * cols + (idx & 1)]
        return wg.R[idx, cols]

    def rows(self, i=0):
        return None


class RelConst(Src):
    """c<a0.x + offset>: each fiber's own a0.x picks the const word."""

    def __init__(self, offset, half, pc):
        self.offset, self.half, self.pc = offset, half, pc
        self.text = ("h" if half else "") + f"c<a0.x + {offset}>"

    def read(self, wg, ctx, i=0):
        idx = wg.a0() + self.offset + i
        bad = (idx < 0) | (idx >= ctx.limits.const_words)
        if bad.any():
            f = int(np.flatnonzero(bad)[0])
            raise GPUError(f"relative const {self.text} at PC 0x{self.pc:x}: fiber {f} reads c word "
                           f"{int(idx[f])}, outside the {ctx.limits.const_words} words of HLSQ_CS_CNTL.CONSTLEN")
        v = ctx.consts[np.clip(idx, 0, None)]
        return (v & 0xFFFF).astype(np.uint16) if self.half else v


def multisrc(raw, half, r, limits, pc, float_op=False, reps=1):
    """#multisrc (cat2 and cat4 sources): (Src, absneg) from the 16-bit field."""
    kind = (raw >> 11) & 7
    absneg = (raw >> 14) & 3
    if kind == 0:
        return Reg(raw & 0xFF, half, r, limits, pc, reps), absneg
    if kind & 3 == 2:
        return Const(raw & 0x7FF, half, r, limits, pc, demote=float_op, reps=reps), absneg
    if kind == 4:
        value = sext(raw & 0x7FF, 11)
        return Imm(value, half, str(value)), absneg
    if kind == 5:
        index = raw & 0x3FF
        if index >= len(FLUT):
            raise GPUError(f"PC 0x{pc:x}: float lookup-table immediate {index} does not exist (0..{len(FLUT) - 1})")
        value = FLUT[index]
        return Imm(f16_bits(value) if half else f32_bits(value), half, repr(value)), absneg
    if kind == 1:
        offset = sext(raw & 0x3FF, 10)
        return (RelConst if raw >> 10 & 1 else RelReg)(offset, half, pc), absneg
    raise GPUError(f"PC 0x{pc:x}: source encoding {kind:03b} is not a #multisrc form")


def cat3src(raw, half, r, limits, pc, immed_encoding, float_op=False, reps=1):
    """#cat3-src (cat3 src1 and src3), 13 bits."""
    kind = (raw >> 11) & 3
    if kind == 0:
        return Reg(raw & 0xFF, half, r, limits, pc, reps)
    if kind & 2:
        if immed_encoding:
            return Imm(raw & 0xFFF, half)
        return Const(raw & 0x7FF, half, r, limits, pc, demote=float_op, reps=reps)
    offset = sext(raw & 0x3FF, 10)
    return (RelConst if raw >> 10 & 1 else RelReg)(offset, half, pc)
