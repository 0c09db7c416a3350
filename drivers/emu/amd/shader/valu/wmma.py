"""v_wmma_*_16x16x16_*: D = A x B + C on 16x16 tiles spread over a wave32's VGPRs.

gfx11 wave32 layout (RDNA3 ISA "Wave Matrix Multiply Accumulate"; AMD GPUOpen's RDNA3 WMMA guide):
- A (16x16, M x K): lane l holds row M = l % 16; its VGPR v packs K = 2v (low half) and 2v + 1
  (high half) for f16/bf16, K = 4v..4v+3 (bytes) for iu8, K = 8v..8v+7 (nibbles) for iu4.
  Lanes 16-31 must replicate lanes 0-15; the values of lanes 0-15 are used.
- B (16x16, K x N): lane l holds column N = l % 16, packed along K the same way.
- C and D: VGPR r of lane l is element (M = 2r + l // 16, N = l % 16); 32-bit types fill the
  VGPR, f16/bf16 results take the half op_sel[2] selects (the other half is preserved).
Float forms accumulate exactly in float64 and round once to the destination type. The integer
forms take neg_lo[0] / neg_lo[1] as "A / B are signed"; clamp saturates the int32 results.
"""
import numpy as np

from .bits import U16, U32, U64, bf16_to_f32, sext
from .dot import round_bf16
from .fp import F16, F32, finish
from .registry import op


def _halves(t):
    """(W, k, 32) uint32 -> (W, 2k, 16): 16-bit values of lanes 0-15, index 2v + half."""
    lo = t[:, :, :16] & U32(0xFFFF)
    hi = t[:, :, :16] >> U32(16)
    return np.stack([lo, hi], axis=2).reshape(t.shape[0], -1, 16).astype(U16)


def _dwords(t):
    """A register tuple as (W, k, 32) uint32 (a 2-dword tuple arrives as uint64 (W, 32))."""
    if t.ndim == 2:
        return np.stack([(t & U64(0xFFFFFFFF)).astype(U32), (t >> U64(32)).astype(U32)], axis=1)
    return t


def _subwords(t, width, signed):
    """(W, k, 32) -> (W, K, 16) integers of `width` bits packed along K (lanes 0-15)."""
    t = _dwords(t)
    per = 32 // width
    parts = [(t[:, :, :16].astype(np.int64) >> (width * j)) & ((1 << width) - 1)
             for j in range(per)]
    v = np.stack(parts, axis=2).reshape(t.shape[0], -1, 16)
    return sext(v, width) if signed else v


def _c_tile(t):
    """(W, 8, 32) -> (W, 16, 16) indexed [M, N]."""
    return t.reshape(t.shape[0], 8, 2, 16).reshape(t.shape[0], 16, 16)


def _d_regs(tile):
    """(W, 16, 16) [M, N] -> (W, 8, 32) register layout."""
    return tile.reshape(tile.shape[0], 8, 2, 16).reshape(tile.shape[0], 8, 32)


def _float_ab(ctx, srcs, decode):
    a = decode(_halves(srcs[0])).astype(np.float64)          # [K, M]
    b = decode(_halves(srcs[1])).astype(np.float64)          # [K, N]
    return np.transpose(a, (0, 2, 1)), b


def _f16(h):
    return h.view(np.float16)


def _bf16(h):
    return bf16_to_f32(h)


def _c16(ctx, srcs, decode):
    sel = ctx.opsel >> 2 & 1
    h = ((srcs[2] >> U32(16 * sel)) & U32(0xFFFF)).astype(U16)
    return _c_tile(decode(h).astype(np.float64))


def _c_sign(ctx, c):
    if ctx.neg_hi >> 2 & 1:
        c = np.abs(c)
    return -c if ctx.neg >> 2 & 1 else c


def _wmma_f32(name, decode):
    @op(name, (256, 256, 256), 256)
    def run(ctx, srcs, old):
        a, b = _float_ab(ctx, srcs, decode)
        c = _c_sign(ctx, _c_tile(srcs[2].view(np.float32).astype(np.float64)))
        d = (a @ b + c).astype(np.float32)
        return _d_regs(finish(ctx, F32, d, omod=False))
    return run


def _wmma_16(name, decode, encode):
    @op(name, (256, 256, 256), 256)
    def run(ctx, srcs, old):
        a, b = _float_ab(ctx, srcs, decode)
        d = encode(ctx, a @ b + _c_sign(ctx, _c16(ctx, srcs, decode)))
        sel = ctx.opsel >> 2 & 1
        keep = U32(0xFFFF0000) if sel == 0 else U32(0xFFFF)
        return (old & keep) | (_d_regs(d).astype(U32) << U32(16 * sel))
    return run


_wmma_f32("v_wmma_f32_16x16x16_f16", _f16)
_wmma_f32("v_wmma_f32_16x16x16_bf16", _bf16)
_wmma_16("v_wmma_f16_16x16x16_f16", _f16,
         lambda ctx, d: finish(ctx, F16, d.astype(np.float16), omod=False))
_wmma_16("v_wmma_bf16_16x16x16_bf16", _bf16,
         lambda ctx, d: round_bf16(np.clip(d, 0, 1) if ctx.clamp else d.astype(np.float32)))


def _wmma_int(name, width, nregs):
    @op(name, (32 * nregs, 32 * nregs, 256), 256)
    def run(ctx, srcs, old):
        a = _subwords(srcs[0], width, ctx.neg & 1)          # [K, M]
        b = _subwords(srcs[1], width, ctx.neg >> 1 & 1)     # [K, N]
        c = _c_tile(srcs[2].view(np.int32).astype(np.int64))
        d = np.einsum("wkm,wkn->wmn", a, b) + c
        d = np.clip(d, -2**31, 2**31 - 1) if ctx.clamp else d
        return _d_regs((d & 0xFFFFFFFF).astype(U32))
    return run


_wmma_int("v_wmma_i32_16x16x16_iu8", 8, 4)
_wmma_int("v_wmma_i32_16x16x16_iu4", 4, 2)
