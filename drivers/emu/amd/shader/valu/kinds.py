"""Operand access per float width: how a source is read and how a result is written back.

- f32: the whole 32-bit register;
- f16: one half of a 32-bit register, chosen by op_sel; the result goes to the half op_sel[3]
  names and the other half is preserved (gfx11 16-bit VALU ops; LLVM's zeroesHigh16BitsOfDest is
  false for every gfx10+ opcode);
- f64: a register pair (uint64).
"""
from dataclasses import dataclass

from .bits import src_half, write_half
from .fp import F16, F32, F64, Fmt, finish, modify


@dataclass(frozen=True)
class Kind:
    fmt: Fmt
    reg_bits: int           # register width of a source / destination of this kind

    def read(self, ctx, srcs, i, flush_denorm=True):
        fmt = self.fmt
        if fmt is F16:
            return modify(ctx, fmt, src_half(ctx, srcs, i), i, flush_denorm)
        if (ctx.neg | ctx.abs) >> i & 1 or flush_denorm and not fmt.keep_in(ctx.mode):
            return modify(ctx, fmt, srcs[i], i, flush_denorm)
        return srcs[i].astype(fmt.utype, copy=False).view(fmt.dtype)     # modify() without modifiers

    def raw(self, ctx, srcs, i):
        """Source bits without modifiers (integer-typed operands of float ops)."""
        return src_half(ctx, srcs, i) if self.fmt is F16 else srcs[i]

    def write(self, ctx, old, r, **kw):
        bits = finish(ctx, self.fmt, r, **kw)
        return self.store(ctx, old, bits)

    def store(self, ctx, old, bits):
        """Place result bits of this kind in the destination register."""
        return write_half(ctx, old, bits) if self.fmt is F16 else bits

    def accumulator(self, ctx, old, i):
        """The destination read as the addend of v_fmac_* (modifiers of source slot i)."""
        if self.fmt is F16:
            bits = old >> 16 if ctx.opsel >> 3 & 1 else old
            return modify(ctx, self.fmt, bits.astype(self.fmt.utype), i)
        return modify(ctx, self.fmt, old, i)


K16, K32, K64 = Kind(F16, 32), Kind(F32, 32), Kind(F64, 64)
KINDS = {"f16": K16, "f32": K32, "f64": K64}
