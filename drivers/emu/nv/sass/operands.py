"""Operands of a decoded instruction, turned into readers over the batch state.

A source becomes a `Src`: `u32(st, G)` gives its raw 32 bits for the selected warps (an array
broadcastable to [len(G), 32]: lanes for R, one value per warp for UR, a scalar for immediates and
constant-bank reads), `u64` a 64-bit value (register pair, c[][] pair, or a 64-bit constant);
decorations are kept aside for the opcode to apply as its type says: `neg` ('-x': negate an integer or
a float, '!p' for predicates), `inv` ('~x', bitwise not), `abs` ('|x|'), and the half selector
(.H0_H0 / .H1_H1) of packed-half operands.  `regs` lists the registers it reads (hazard tracking).
"""
import struct

import numpy as np

from drivers.emu.nv.faults import ESR_ILLEGAL_INSTR_ENCODING, SmException
from drivers.emu.nv.sass.state import PT, RZ, URZ

M32 = 0xFFFFFFFF


class DecodeProblem(SmException):
    def __init__(self, ins, what):
        super().__init__(ESR_ILLEGAL_INSTR_ENCODING, ins.pc, f"{ins}: {what} (not emulated by the virtual SM)")


def reg_file(op):
    """('R'|'UR'|'P'|'UP'|'B'|'SB', number) of a register operand, or None."""
    if op.kind == "reg":
        return op.shape[0], op.holes[0]
    if op.kind == "name" and len(op.holes[0]) >= 2 and op.holes[0][0] == "B" and op.holes[0][1:].isdigit():
        return "B", int(op.holes[0][1:])
    return None


def imm_value(op):
    return op.holes[0]


def f32_bits(v):
    return struct.unpack("<I", struct.pack("<f", v))[0]


def f64_bits(v):
    return struct.unpack("<Q", struct.pack("<d", v))[0]


class Src:
    __slots__ = ("kind", "n", "value", "bank", "offset", "neg", "inv", "abs", "half", "regs", "uregs", "width",
                 "index", "fp")

    def __init__(self, kind, n=None, value=0, neg=False, inv=False, abs_=False, half=None):
        self.kind, self.n, self.value = kind, n, value
        self.neg, self.inv, self.abs, self.half = neg, inv, abs_, half
        self.bank = self.offset = self.index = None
        self.regs, self.uregs = (), ()
        self.fp = False

    # 32-bit raw value
    def u32(self, st, G, pc=0):
        k = self.kind
        if k == "R":
            return st.r(self.n, G)
        if k == "UR":
            return st.ur(self.n, G)[:, None]
        if k == "imm":
            return np.uint32(self.value & M32)
        if k == "cbuf":
            return np.uint32(st.cbuf(self.bank, self.offset, 4, pc))
        raise AssertionError(k)

    def u64(self, st, G, pc=0):
        k = self.kind
        if k == "R":
            if self.n == RZ:
                return np.uint64(0)
            return st.r(self.n, G).astype(np.uint64) | (st.r(self.n + 1, G).astype(np.uint64) << np.uint64(32))
        if k == "UR":
            if self.n == URZ:
                return np.uint64(0)
            return (st.ur(self.n, G).astype(np.uint64) | (st.ur(self.n + 1, G).astype(np.uint64) << np.uint64(32)))[:, None]
        if k == "imm":
            return np.uint64(self.value & (2 ** 64 - 1))
        if k == "cbuf":
            return np.uint64(st.cbuf(self.bank, self.offset, 8, pc))
        raise AssertionError(k)

    def pred(self, st, G):
        """A predicate source (P or UP): bool, '!' applied."""
        v = st.p(self.n, G) if self.kind == "P" else st.UP[self.n][G][:, None]
        return ~v if self.neg else v

    def __repr__(self):
        return f"Src({self.kind}, {self.n if self.kind in ('R', 'UR', 'P', 'UP') else self.value})"


def src(ins, op, fp=False, f16=False, f64=False):
    """A Src for operand `op` of `ins`; float immediates are encoded as f32 (f16, or the high word of
    an f64) bits when `fp` (`f16`, `f64`)."""
    kind = op.kind
    if kind == "reg":
        file, neg, bars, suff0, suffixes = op.shape
        n = op.holes[0]
        half = next((s for s in suff0 + suffixes if s in ("H0_H0", "H1_H1", "H0_H1", "H1_H0", "F32", "B1", "B2",
                                                              "B3", "H1", "H0")), None)
        s = Src(file, n, neg=neg in ("-", "!"), inv=neg == "~", abs_=bars, half=half)
        if file == "R":
            s.regs = (n,) if n != RZ else ()
        elif file == "UR":
            s.uregs = (n,) if n != URZ else ()
        elif file not in ("P", "UP"):
            raise DecodeProblem(ins, f"a {file} register as a source")
        return s
    if kind == "imm":
        fmt, = op.shape
        v = op.holes[0]
        if fmt == "float":
            if f16:
                v = int(np.float16(v).view(np.uint16))
            elif f64:
                v = f64_bits(v) >> 32
            else:
                v = f32_bits(v)
        elif fp and fmt == "hex":
            v = v & M32
        return Src("imm", value=v)
    if kind == "cbuf":
        c, neg, bar, _space, reg_present, _suff, ureg_present, suffix, suffix2 = op.shape
        bank, reg, off, ureg = op.holes
        if c != "c" or ureg_present:
            raise DecodeProblem(ins, "a bindless (cx[]) or uniform-indexed constant operand")
        s = Src("cbuf", neg=neg == "-", inv=neg == "~", abs_=bar)
        s.bank, s.offset = bank, off
        if reg_present and reg != RZ:
            s.kind, s.index = "cbuf_idx", reg
            s.regs = (reg,)
        return s
    raise DecodeProblem(ins, f"operand {op.render() if hasattr(op, 'render') else op} as a source")


def dst_reg(ins, op, files=("R",)):
    """(file, number) of a destination register."""
    rf = reg_file(op)
    if rf is None or rf[0] not in files:
        raise DecodeProblem(ins, f"destination {op.render() if hasattr(op, 'render') else op} is not a "
                                 f"{'/'.join(files)} register")
    return rf


def pred_src(ins, op):
    rf = reg_file(op)
    if rf is None or rf[0] not in ("P", "UP"):
        raise DecodeProblem(ins, f"{op.render() if hasattr(op, 'render') else op} is not a predicate")
    s = Src(rf[0], rf[1], neg=op.shape[1] == "!")
    return s


def const_pred(s):
    """True/False when a predicate source is PT or !PT (a constant), else None."""
    if s.n == PT:
        return not s.neg
    return None
