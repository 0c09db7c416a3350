"""Packed half precision and the tensor cores: HADD2, HMUL2, HFMA2 (.MMA: the same operation issued on
the tensor pipe), HMNMX2, HSETP2, and HMMA.16816 / .1688 (f16 inputs, f32 or f16 accumulators).

A register holds two f16 values (H0 in bits 0..15, H1 in 16..31); a source selector .H0_H0 / .H1_H1
broadcasts one of them, and an immediate pair is printed high half first.  Each half is computed
exactly in float64 (a product of two f16 is exact) and rounded once to f16; .F32 forms return one f32.

HMMA.16816.F32 D, A, B, C is mma.sync m16n8k16 of the PTX ISA: lane (group g = lane / 4, t = lane % 4)
holds A rows g and g + 8, columns 2t, 2t+1 (+8 for its third and fourth registers), B rows 2t, 2t+1
(+8) of column g, and C/D rows g (registers 0, 1) and g + 8 (2, 3) at columns 2t, 2t+1.  Products are
exact and summed in float64 before one rounding; the hardware's accumulation order is not IEEE either,
so results agree with it to the accumulator's rounding.
"""
import numpy as np

from drivers.emu.nv.sass.executor import Impl, op
from drivers.emu.nv.sass.operands import DecodeProblem, dst_reg, pred_src, src
from drivers.emu.nv.sass.ops_float import fcompare, fsetp_parts
from drivers.emu.nv.sass.ops_int import _BOOL, _reads
from drivers.emu.nv.sass.state import PT, RZ

U32, F16, F32, F64 = np.uint32, np.float16, np.float32, np.float64


def halves(s, st, G, pc):
    """(h0, h1) float64 arrays of a packed-half source, selector and |x| / -x applied."""
    if s.kind == "imm2":
        h1, h0 = s.value
        h0, h1 = F64(h0), F64(h1)
    else:
        u = np.asarray(s.u32(st, G, pc), U32)
        lo = (u & U32(0xFFFF)).astype(np.uint16).view(F16).astype(F64)
        hi = (u >> U32(16)).astype(np.uint16).view(F16).astype(F64)
        sel = s.half or "H1_H0"
        h0, h1 = {"H0_H0": (lo, lo), "H1_H1": (hi, hi), "H1_H0": (lo, hi), "H0_H1": (hi, lo)}.get(sel, (lo, hi))
    if s.abs:
        h0, h1 = np.abs(h0), np.abs(h1)
    if s.neg:
        h0, h1 = -h0, -h1
    return h0, h1


def pack(h0, h1):
    with np.errstate(over="ignore"):
        lo = np.asarray(h0, F64).astype(F16).view(np.uint16).astype(U32)
        hi = np.asarray(h1, F64).astype(F16).view(np.uint16).astype(U32)
    return lo | (hi << U32(16))


def _sources(ins, operands):
    """Sources of a packed-half instruction: registers, c[][], or immediate pairs (high half first)."""
    out, i = [], 0
    ops = list(operands)
    while i < len(ops):
        o = ops[i]
        if o.kind == "imm" and i + 1 < len(ops) and ops[i + 1].kind == "imm":
            s = src(ins, o)
            s.kind, s.value = "imm2", (float(o.holes[0]), float(ops[i + 1].holes[0]))
            out.append(s)
            i += 2
            continue
        if o.kind == "reg" and o.shape[0] in ("P", "UP"):
            break
        out.append(src(ins, o, f16=True))
        i += 1
    return out, ops[i:]


def _half_op(ins, kind):
    d = dst_reg(ins, ins.operands[0])[1]
    srcs, rest = _sources(ins, ins.operands[1:])
    f32_out = ins.has("F32")
    pred = pred_src(ins, rest[0]) if rest else None
    if ins.has("BF16_V2") or ins.has("BF16"):
        raise DecodeProblem(ins, "bf16 packed arithmetic")

    def fn(st, G, m, gm, ins):
        vals = [halves(s, st, G, ins.pc) for s in srcs]
        out = []
        for k in range(2):
            a = vals[0][k]
            if kind == "add":
                r = a + vals[1][k]
            elif kind == "mul":
                r = a * vals[1][k]
            elif kind == "fma":
                r = a * vals[1][k] + vals[2][k]
            else:                                   # min / max by the predicate
                b = vals[1][k]
                use_min = pred.pred(st, G) if pred.n != PT else np.bool_(not pred.neg)
                lo = np.where(np.isnan(a), b, np.where(np.isnan(b), a, np.minimum(a, b)))
                hi = np.where(np.isnan(a), b, np.where(np.isnan(b), a, np.maximum(a, b)))
                r = np.where(use_min, lo, hi)
            out.append(r)
        if f32_out:
            res = np.asarray(out[0], F64).astype(F32).view(U32)
        else:
            res = pack(out[0], out[1])
        st.w(d, G, gm, np.broadcast_to(res, gm.shape))
    reads = _reads(*[s for s in srcs if s.kind != "imm2"]) + ([("P", pred.n)] if pred is not None and pred.n != PT else [])
    return Impl(fn, reads, [("R", d)] if d != RZ else [])


@op("HADD2")
def hadd2(ins, ctx):
    return _half_op(ins, "add")


@op("HMUL2")
def hmul2(ins, ctx):
    return _half_op(ins, "mul")


@op("HFMA2")
def hfma2(ins, ctx):
    return _half_op(ins, "fma")


@op("HMNMX2")
def hmnmx2(ins, ctx):
    return _half_op(ins, "minmax")


@op("HSETP2")
def hsetp2(ins, ctx):
    ops = list(ins.operands)
    p, q = pred_src(ins, ops[0]), pred_src(ins, ops[1])
    srcs, rest = _sources(ins, ops[2:])
    c = pred_src(ins, rest[0])
    cmp, bop = fsetp_parts(ins)
    combine = _BOOL[bop]
    if not ins.has("H_AND"):
        raise DecodeProblem(ins, "HSETP2 without .H_AND (one predicate per half)")

    def fn(st, G, m, gm, ins):
        (a0, a1), (b0, b1) = (halves(s, st, G, ins.pc) for s in srcs)
        r = fcompare(cmp, a0, b0) & fcompare(cmp, a1, b1)
        r = np.broadcast_to(r, gm.shape)
        cv = c.pred(st, G) if c.n != PT else np.bool_(not c.neg)
        st.wp(p.n, G, gm, np.broadcast_to(combine(r, cv), gm.shape))
        st.wp(q.n, G, gm, np.broadcast_to(combine(~r, cv), gm.shape))
    return Impl(fn, _reads(*[s for s in srcs if s.kind != "imm2"]), [("P", x.n) for x in (p, q) if x.n != PT])


def _unpack16(u):
    u = np.asarray(u, U32)
    return (u & U32(0xFFFF)).astype(np.uint16).view(F16).astype(F64), \
        (u >> U32(16)).astype(np.uint16).view(F16).astype(F64)


@op("HMMA")
def hmma(ins, ctx):
    shape = next((m for m in ins.mods if m in ("16816", "1688")), None)
    if shape is None:
        raise DecodeProblem(ins, "an HMMA shape other than 16816 / 1688")
    f32_acc = ins.has("F32")
    if ins.has("BF16") or ins.has("TF32"):
        raise DecodeProblem(ins, "bf16 / tf32 tensor-core inputs")
    d = dst_reg(ins, ins.operands[0])[1]
    a, b, c = (src(ins, o) for o in ins.operands[1:4])
    k_dim = 16 if shape == "16816" else 8
    na, nb = (4, 2) if k_dim == 16 else (2, 1)
    nc = 4 if f32_acc else 2

    def fn(st, G, m, gm, ins):
        nG = gm.shape[0]
        lanes = np.arange(32)
        g, t = lanes // 4, lanes % 4
        A = np.zeros((nG, 16, k_dim))
        for r in range(na):
            lo, hi = _unpack16(st.r(a.n + r, G))
            row = g + 8 * (r & 1)
            col = 2 * t + 8 * (r >> 1)
            A[:, row, col] = lo
            A[:, row, col + 1] = hi
        B = np.zeros((nG, k_dim, 8))
        for r in range(nb):
            lo, hi = _unpack16(st.r(b.n + r, G))
            k = 2 * t + 8 * r
            B[:, k, g] = lo
            B[:, k + 1, g] = hi
        C = np.zeros((nG, 16, 8))
        if c.kind == "R" and c.n != RZ:
            for r in range(4):
                row, col = g + 8 * (r >> 1), 2 * t + (r & 1)
                if f32_acc:
                    C[:, row, col] = st.r(c.n + r, G).view(F32).astype(F64)
                else:
                    lo, hi = _unpack16(st.r(c.n + (r >> 1), G))
                    C[:, row, col] = lo if (r & 1) == 0 else hi
        D = np.einsum("wik,wkj->wij", A, B) + C
        for r in range(4):
            row, col = g + 8 * (r >> 1), 2 * t + (r & 1)
            val = D[:, row, col]
            if f32_acc:
                st.w(d + r, G, gm, val.astype(F32).view(U32))
        if not f32_acc:
            for r in range(2):
                row = g + 8 * r
                st.w(d + r, G, gm, pack(D[:, row, 2 * t], D[:, row, 2 * t + 1]))
    reads = [("R", a.n + r) for r in range(na)] + [("R", b.n + r) for r in range(nb)]
    if c.kind == "R" and c.n != RZ:
        reads += [("R", c.n + r) for r in range(nc)]
    # the tensor pipe has a fixed latency: ptxas paces HMMA with stall counts, not scoreboards
    return Impl(fn, reads, [("R", d + r) for r in range(nc)])
