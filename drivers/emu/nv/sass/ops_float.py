"""FP32 and FP64 instructions: FADD, FMUL, FFMA (.FTZ .SAT and the four rounding modes), FMNMX, FSEL,
FSETP, FCHK, MUFU, the conversions F2I / I2F / I2FP / F2F / FRND, and DMUL / DADD / DFMA / DSETP.

Arithmetic is exact-then-rounded once (fp.py), NaN results are NVIDIA's canonical 0x7FFFFFFF, .FTZ
flushes denormal inputs and outputs.  MUFU returns the correctly rounded f32 of the exact function
(the hardware's are approximations within its documented error: RCP/RSQ/SQRT 1 ulp, EX2/LG2 2 ulp,
SIN/COS an absolute error near 2^-22): with inputs and outputs flushed (MUFU is FTZ) and SIN/COS taking
their argument in revolutions (x / 2pi), as ptxas feeds them.
"""
import math

import numpy as np

from drivers.emu.nv.sass.executor import Impl, op
from drivers.emu.nv.sass.fp import F32, F64, as_f32, canonical, ftz32, mode_of, round_f32, two_sum
from drivers.emu.nv.sass.operands import DecodeProblem, dst_reg, pred_src, src
from drivers.emu.nv.sass.ops_int import _BOOL, _reads, setp_parts
from drivers.emu.nv.sass.state import PT, RZ

U32, U64 = np.uint32, np.uint64


def fval(s, st, G, pc, ftz=False):
    """An f32 source as float32 with |x| and -x applied (and FTZ when asked)."""
    v = as_f32(np.asarray(s.u32(st, G, pc), U32))
    if ftz:
        v = ftz32(v)
    if s.abs:
        v = np.abs(v)
    if s.neg:
        v = -v
    return v


def _write_f32(st, G, gm, d, res, ins, ftz, sat):
    if sat:
        res = np.where(np.isnan(res), F32(0), np.clip(res, F32(0), F32(1))).astype(F32)
    if ftz:
        res = ftz32(res)
    st.w(d, G, gm, np.broadcast_to(canonical(res), gm.shape))


def _arith(ins, kind):
    d = dst_reg(ins, ins.operands[0])[1]
    srcs = [src(ins, o, fp=True) for o in ins.operands[1:]]
    ftz, sat, mode = ins.has("FTZ"), ins.has("SAT"), mode_of(ins)

    def fn(st, G, m, gm, ins):
        pc = ins.pc
        vals = [fval(s, st, G, pc, ftz).astype(F64) for s in srcs]
        with np.errstate(all="ignore"):
            if kind == "add":
                hi, lo = two_sum(vals[0], vals[1])
            elif kind == "mul":
                hi, lo = vals[0] * vals[1], np.zeros(1)
            else:
                hi, lo = two_sum(vals[0] * vals[1], vals[2])
            lo = np.where(np.isfinite(hi), lo, 0)
            res = round_f32(np.broadcast_to(hi, np.broadcast(hi, lo).shape), np.broadcast_to(lo, np.broadcast(hi, lo).shape),
                            mode)
        _write_f32(st, G, gm, d, res, ins, ftz, sat)
    return Impl(fn, _reads(*srcs), [("R", d)] if d != RZ else [])


@op("FADD")
def fadd(ins, ctx):
    return _arith(ins, "add")


@op("FMUL")
def fmul(ins, ctx):
    if any(m in ins.mods for m in ("D2", "D4", "D8", "M2", "M4", "M8")):
        raise DecodeProblem(ins, "an FMUL with a scale modifier")
    return _arith(ins, "mul")


@op("FFMA")
def ffma(ins, ctx):
    return _arith(ins, "fma")


@op("FMNMX")
def fmnmx(ins, ctx):
    d = dst_reg(ins, ins.operands[0])[1]
    a, b = src(ins, ins.operands[1], fp=True), src(ins, ins.operands[2], fp=True)
    p = pred_src(ins, ins.operands[3])
    ftz = ins.has("FTZ")

    def fn(st, G, m, gm, ins):
        av, bv = fval(a, st, G, ins.pc, ftz), fval(b, st, G, ins.pc, ftz)
        use_min = p.pred(st, G) if p.n != PT else np.bool_(not p.neg)
        # IEEE minNum/maxNum: a NaN loses to a number; -0 orders below +0
        lo = np.where(np.isnan(av), bv, np.where(np.isnan(bv), av,
                      np.where((av < bv) | ((av == bv) & np.signbit(av)), av, bv)))
        hi = np.where(np.isnan(av), bv, np.where(np.isnan(bv), av,
                      np.where((av > bv) | ((av == bv) & ~np.signbit(av)), av, bv)))
        _write_f32(st, G, gm, d, np.where(use_min, lo, hi).astype(F32), ins, ftz, False)
    return Impl(fn, _reads(a, b) + ([("P", p.n)] if p.n != PT else []), [("R", d)] if d != RZ else [])


@op("FSEL")
def fsel(ins, ctx):
    d = dst_reg(ins, ins.operands[0])[1]
    a, b = src(ins, ins.operands[1], fp=True), src(ins, ins.operands[2], fp=True)
    p = pred_src(ins, ins.operands[3])

    def fn(st, G, m, gm, ins):
        av, bv = fval(a, st, G, ins.pc), fval(b, st, G, ins.pc)
        cond = p.pred(st, G) if p.n != PT else np.bool_(not p.neg)
        st.w(d, G, gm, np.broadcast_to(np.where(cond, av, bv).astype(F32).view(U32), gm.shape))
    return Impl(fn, _reads(a, b) + ([("P", p.n)] if p.n != PT else []), [("R", d)] if d != RZ else [])


def fcompare(cmp, a, b):
    """FSETP / HSETP2 / DSETP comparisons: ordered ones are false on NaN, the U ones true."""
    nan = np.isnan(a) | np.isnan(b)
    with np.errstate(invalid="ignore"):
        base = {"EQ": a == b, "NE": a != b, "LT": a < b, "LE": a <= b, "GT": a > b, "GE": a >= b}
    if cmp in base:
        return base[cmp] & ~nan
    if cmp.endswith("U") and cmp[:-1] in base:
        return base[cmp[:-1]] | nan
    if cmp == "NUM":
        return ~nan
    if cmp == "NAN":
        return nan
    if cmp in ("T", "F"):
        return np.full(np.broadcast(a, b).shape, cmp == "T")
    raise ValueError(cmp)


FCMPS = ("EQ", "NE", "LT", "LE", "GT", "GE", "EQU", "NEU", "LTU", "LEU", "GTU", "GEU", "NUM", "NAN", "T", "F")


def fsetp_parts(ins):
    cmp = next((m for m in ins.mods if m in FCMPS), None)
    bop = next((m for m in ins.mods if m in _BOOL), "AND")
    if cmp is None:
        raise DecodeProblem(ins, "no comparison")
    return cmp, bop


@op("FSETP")
def fsetp(ins, ctx):
    ops = list(ins.operands)
    p, q = pred_src(ins, ops[0]), pred_src(ins, ops[1])
    a, b = src(ins, ops[2], fp=True), src(ins, ops[3], fp=True)
    c = pred_src(ins, ops[4])
    cmp, bop = fsetp_parts(ins)
    combine, ftz = _BOOL[bop], ins.has("FTZ")

    def fn(st, G, m, gm, ins):
        r = np.broadcast_to(fcompare(cmp, fval(a, st, G, ins.pc, ftz), fval(b, st, G, ins.pc, ftz)), gm.shape)
        cv = c.pred(st, G) if c.n != PT else np.bool_(not c.neg)
        st.wp(p.n, G, gm, np.broadcast_to(combine(r, cv), gm.shape))
        st.wp(q.n, G, gm, np.broadcast_to(combine(~r, cv), gm.shape))
    return Impl(fn, _reads(a, b) + ([("P", c.n)] if c.n != PT else []), [("P", x.n) for x in (p, q) if x.n != PT])


@op("FCHK")
def fchk(ins, ctx):
    """FCHK.DIVIDE P, a, b: true when a / b cannot take the fast path (rcp + Newton + one FFMA):
    a special or denormal operand, or exponents so far apart the intermediate over- or underflows."""
    p = pred_src(ins, ins.operands[0])
    a, b = src(ins, ins.operands[1], fp=True), src(ins, ins.operands[2], fp=True)

    def fn(st, G, m, gm, ins):
        av, bv = np.asarray(a.u32(st, G, ins.pc), U32), np.asarray(b.u32(st, G, ins.pc), U32)
        ea, eb = ((av >> 23) & 0xFF).astype(np.int64), ((bv >> 23) & 0xFF).astype(np.int64)
        special = (ea == 0) | (ea == 0xFF) | (eb == 0) | (eb == 0xFF)
        diff = ea - eb
        slow = special | (diff >= 126) | (diff <= -126) | (eb >= 253) | (ea >= 253) | (ea <= 24) | (eb <= 2)
        st.wp(p.n, G, gm, np.broadcast_to(slow, gm.shape))
    return Impl(fn, _reads(a, b), [("P", p.n)] if p.n != PT else [])


def _mufu(fn_name, x):
    with np.errstate(all="ignore"):
        x64 = x.astype(F64)
        if fn_name == "RCP":
            return 1.0 / x64
        if fn_name == "RSQ":
            return np.where(x64 < 0, np.nan, 1.0 / np.sqrt(np.abs(x64)) * np.where(x64 == 0, np.copysign(1, x64), 1))
        if fn_name == "SQRT":
            return np.sqrt(x64)
        if fn_name == "EX2":
            return np.exp2(x64)
        if fn_name == "LG2":
            return np.where(x64 < 0, np.nan, np.log2(x64))
        if fn_name == "SIN":
            return np.sin(2 * math.pi * x64)
        if fn_name == "COS":
            return np.cos(2 * math.pi * x64)
        if fn_name == "TANH":
            return np.tanh(x64)
    raise ValueError(fn_name)


@op("MUFU")
def mufu(ins, ctx):
    d = dst_reg(ins, ins.operands[0])[1]
    a = src(ins, ins.operands[1], fp=True)
    func = next((m for m in ins.mods if m in ("RCP", "RSQ", "SQRT", "EX2", "LG2", "SIN", "COS", "TANH", "RCP64H",
                                              "RSQ64H")), None)
    if func is None:
        raise DecodeProblem(ins, "a MUFU function the virtual SM does not know")

    def fn(st, G, m, gm, ins):
        if func in ("RCP64H", "RSQ64H"):
            hi_word = np.asarray(a.u32(st, G, ins.pc), U32).astype(U64) << U64(32)
            x = hi_word.view(F64)
            if a.abs:
                x = np.abs(x)
            if a.neg:
                x = -x
            with np.errstate(all="ignore"):
                r = 1.0 / x if func == "RCP64H" else 1.0 / np.sqrt(x)
            st.w(d, G, gm, np.broadcast_to((np.asarray(r, F64).view(U64) >> U64(32)).astype(U32), gm.shape))
            return
        x = fval(a, st, G, ins.pc, ftz=True)
        r = _mufu(func, x)
        res = ftz32(np.asarray(r, F64).astype(F32))
        st.w(d, G, gm, np.broadcast_to(canonical(res), gm.shape))
    return Impl(fn, _reads(a), [("R", d)] if d != RZ else [], queue="xu")


# -- conversions ----------------------------------------------------------------------------------

INT_TYPES = {"S32": (np.int64, 32, True), "U32": (np.int64, 32, False), "S64": (np.int64, 64, True),
             "U64": (np.int64, 64, False), "S16": (np.int64, 16, True), "U16": (np.int64, 16, False),
             "S8": (np.int64, 8, True), "U8": (np.int64, 8, False)}
FLOAT_TYPES = {"F32": 4, "F64": 8, "F16": 2}


def _round_int(x, mode):
    """Round float64 values to integral float64 by F2I/FRND's mode (nearest even by default)."""
    if mode in ("TRUNC", "RZ"):
        return np.trunc(x)
    if mode in ("FLOOR", "RM"):
        return np.floor(x)
    if mode in ("CEIL", "RP"):
        return np.ceil(x)
    return np.rint(x)


def _read_float(s, st, G, pc, size, ftz):
    if size == 8:
        v = np.asarray(s.u64(st, G, pc), U64).view(F64)
        if s.abs:
            v = np.abs(v)
        if s.neg:
            v = -v
        return v
    if size == 2:
        v = (np.asarray(s.u32(st, G, pc), U32) & U32(0xFFFF)).astype(np.uint16).view(np.float16).astype(F64)
        if s.half == "H1_H1":
            v = (np.asarray(s.u32(st, G, pc), U32) >> U32(16)).astype(np.uint16).view(np.float16).astype(F64)
        return -np.abs(v) if s.neg and s.abs else (np.abs(v) if s.abs else (-v if s.neg else v))
    return fval(s, st, G, pc, ftz).astype(F64)


def _types(ins, default_dst, default_src):
    mods = [m for m in ins.mods if m in INT_TYPES or m in FLOAT_TYPES]
    if len(mods) >= 2:
        return mods[0], mods[1]
    if len(mods) == 1:
        one = mods[0]
        if ins.opcode == "F2I":
            return (one, default_src) if one in INT_TYPES else (default_dst, one)
        if ins.opcode in ("I2F", "I2FP"):
            return (one, default_src) if one in FLOAT_TYPES else (default_dst, one)
        return default_dst, one
    return default_dst, default_src


@op("F2I")
def f2i(ins, ctx):
    d = dst_reg(ins, ins.operands[0])[1]
    a = src(ins, ins.operands[1], fp=True)
    dst_t, src_t = _types(ins, "S32", "F32")
    if dst_t not in INT_TYPES or src_t not in FLOAT_TYPES:
        raise DecodeProblem(ins, f"F2I from {src_t} to {dst_t}")
    _, nbits, signed = INT_TYPES[dst_t]
    mode = next((m for m in ins.mods if m in ("TRUNC", "FLOOR", "CEIL", "RN", "RZ", "RM", "RP")), "RN")
    ftz = ins.has("FTZ")
    lo_lim, hi_lim = (-(1 << (nbits - 1)), (1 << (nbits - 1)) - 1) if signed else (0, (1 << nbits) - 1)
    n = 2 if nbits == 64 else 1

    def fn(st, G, m, gm, ins):
        x = _read_float(a, st, G, ins.pc, FLOAT_TYPES[src_t], ftz)
        with np.errstate(invalid="ignore"):
            r = _round_int(x, mode)
            nan = np.isnan(r)
            r = np.where(nan, 0, r)
            if nbits == 64:
                big = r >= 2.0 ** 63
                val = np.where(r >= float(hi_lim), hi_lim if signed else 0,
                               np.where(r <= float(lo_lim), lo_lim, r.astype(np.int64) if signed else 0))
                if not signed:
                    val = np.where(r <= 0, 0, np.where(r >= 2.0 ** 64, (1 << 64) - 1,
                                   np.where(big, (r - 2.0 ** 63).astype(np.int64).astype(U64) + U64(1 << 63),
                                            r.astype(np.int64).astype(U64))))
                    u = np.asarray(val, U64)
                else:
                    u = np.where(r >= 2.0 ** 63, U64(hi_lim), np.where(r < -2.0 ** 63, U64(1 << 63),
                                 np.asarray(np.clip(r, -2.0 ** 63, 2.0 ** 63 - 1024)).astype(np.int64).astype(U64)))
                st.w(d, G, gm, np.broadcast_to((u & U64(0xFFFFFFFF)).astype(U32), gm.shape))
                st.w(d + 1, G, gm, np.broadcast_to((u >> U64(32)).astype(U32), gm.shape))
                return
            v = np.clip(r, lo_lim, hi_lim).astype(np.int64)
        st.w(d, G, gm, np.broadcast_to((v & 0xFFFFFFFF).astype(U32), gm.shape))
    return Impl(fn, _reads(a) + ([("R", a.n + 1)] if FLOAT_TYPES[src_t] == 8 and a.kind == "R" and a.n != RZ else []),
                [("R", d + k) for k in range(n)] if d != RZ else [], queue="xu")


def _int_source(s, st, G, pc, type_):
    _, nbits, signed = INT_TYPES[type_]
    if nbits == 64:
        u = np.asarray(s.u64(st, G, pc), U64)
        return u.view(np.int64) if signed else u
    u = np.asarray(s.u32(st, G, pc), U32).astype(np.int64) & ((1 << nbits) - 1)
    if signed:
        u = np.where(u >> (nbits - 1), u - (1 << nbits), u)
    return u


def int_to_float(v, size, mode):
    """Integers (int64 or uint64 arrays) to f32 / f64 / f16 bits in `mode`."""
    v = np.asarray(v)
    if v.dtype == U64:
        hi = (v >> U64(11) << U64(11)).astype(F64)        # exact: 53 significant bits
        lo = (v & U64(0x7FF)).astype(F64)
    else:
        hi = (v >> 11 << 11).astype(F64)
        lo = (v & 0x7FF).astype(F64)
    hi, lo2 = two_sum(hi, lo)
    if size == 4:
        return round_f32(hi, lo2, mode).view(U32)
    if size == 2:
        return np.asarray(round_f32(hi, lo2, mode), F32).astype(np.float16).view(np.uint16).astype(U32)
    if mode != "RN":
        # directed f64 rounding: step from the nearest double by the sign of the remainder
        adj = np.where(lo2 > 0, 1, np.where(lo2 < 0, -1, 0))
        if mode == "RP":
            hi = np.where(adj > 0, np.nextafter(hi, np.inf), hi)
        elif mode == "RM":
            hi = np.where(adj < 0, np.nextafter(hi, -np.inf), hi)
        else:
            hi = np.where((adj < 0) & (hi > 0), np.nextafter(hi, 0), np.where((adj > 0) & (hi < 0),
                                                                              np.nextafter(hi, 0), hi))
    return np.asarray(hi, F64).view(U64)


@op("I2F", "I2FP")
def i2f(ins, ctx):
    d = dst_reg(ins, ins.operands[0])[1]
    a = src(ins, ins.operands[1])
    dst_t, src_t = _types(ins, "F32", "S32")
    if dst_t not in FLOAT_TYPES or src_t not in INT_TYPES:
        raise DecodeProblem(ins, f"I2F from {src_t} to {dst_t}")
    size = FLOAT_TYPES[dst_t]
    mode = mode_of(ins)
    wide_src = INT_TYPES[src_t][1] == 64

    def fn(st, G, m, gm, ins):
        v = _int_source(a, st, G, ins.pc, src_t)
        r = int_to_float(v, size, mode)
        if size == 8:
            st.w(d, G, gm, np.broadcast_to((r & U64(0xFFFFFFFF)).astype(U32), gm.shape))
            st.w(d + 1, G, gm, np.broadcast_to((r >> U64(32)).astype(U32), gm.shape))
        else:
            st.w(d, G, gm, np.broadcast_to(np.asarray(r).astype(U32), gm.shape))
    reads = _reads(a) + ([("R", a.n + 1)] if wide_src and a.kind == "R" and a.n != RZ else [])
    # I2FP is the fixed-latency ALU form (no scoreboard); I2F goes through the XU
    return Impl(fn, reads, [("R", d + k) for k in range(2 if size == 8 else 1)] if d != RZ else [],
                queue="xu" if ins.opcode == "I2F" else None)


@op("F2F")
def f2f(ins, ctx):
    d = dst_reg(ins, ins.operands[0])[1]
    a = src(ins, ins.operands[1], fp=True)
    dst_t, src_t = _types(ins, "F32", "F32")
    if dst_t not in FLOAT_TYPES or src_t not in FLOAT_TYPES:
        raise DecodeProblem(ins, f"F2F from {src_t} to {dst_t}")
    mode, ftz = mode_of(ins), ins.has("FTZ")
    size = FLOAT_TYPES[dst_t]

    def fn(st, G, m, gm, ins):
        x = _read_float(a, st, G, ins.pc, FLOAT_TYPES[src_t], ftz)
        if size == 8:
            u = np.asarray(x, F64).view(U64)
            st.w(d, G, gm, np.broadcast_to((u & U64(0xFFFFFFFF)).astype(U32), gm.shape))
            st.w(d + 1, G, gm, np.broadcast_to((u >> U64(32)).astype(U32), gm.shape))
            return
        if FLOAT_TYPES[src_t] == 8 and mode != "RN":
            r = round_f32(x, np.zeros_like(x), "RN")       # exact pair not needed: x is one double
            # directed rounding of a double to f32
            r = round_f32(x.astype(F32).astype(F64), x - x.astype(F32).astype(F64), mode)
        else:
            with np.errstate(over="ignore"):
                r = np.asarray(x).astype(F32)
        if size == 2:
            st.w(d, G, gm, np.broadcast_to(np.asarray(r, F32).astype(np.float16).view(np.uint16).astype(U32), gm.shape))
            return
        if ftz:
            r = ftz32(r)
        st.w(d, G, gm, np.broadcast_to(canonical(r), gm.shape))
    reads = _reads(a) + ([("R", a.n + 1)] if FLOAT_TYPES[src_t] == 8 and a.kind == "R" and a.n != RZ else [])
    return Impl(fn, reads, [("R", d + k) for k in range(2 if size == 8 else 1)] if d != RZ else [], queue="xu")


@op("FRND")
def frnd(ins, ctx):
    d = dst_reg(ins, ins.operands[0])[1]
    a = src(ins, ins.operands[1], fp=True)
    mode = next((m for m in ins.mods if m in ("TRUNC", "FLOOR", "CEIL")), "RN")
    ftz = ins.has("FTZ")

    def fn(st, G, m, gm, ins):
        x = fval(a, st, G, ins.pc, ftz)
        r = _round_int(x.astype(F64), mode).astype(F32)
        st.w(d, G, gm, np.broadcast_to(canonical(np.copysign(r, x)), gm.shape))
    return Impl(fn, _reads(a), [("R", d)] if d != RZ else [], queue="xu")


# -- FP64 -----------------------------------------------------------------------------------------

def _dval(s, st, G, pc):
    if s.kind == "imm":
        v = np.uint64(s.value) << np.uint64(32)        # a double immediate is its high word
        x = np.asarray(v, U64).view(F64)
    else:
        x = np.asarray(s.u64(st, G, pc), U64).view(F64)
    if s.abs:
        x = np.abs(x)
    if s.neg:
        x = -x
    return x


def _dreads(*srcs):
    out = []
    for s in srcs:
        if s.kind == "R" and s.n != RZ:
            out += [("R", s.n), ("R", s.n + 1)]
        elif s.kind == "UR":
            out += [("UR", s.n), ("UR", s.n + 1)]
    return out


def _darith(ins, ctx, kind):
    d = dst_reg(ins, ins.operands[0])[1]
    srcs = [src(ins, o, f64=True) for o in ins.operands[1:]]
    if mode_of(ins) != "RN":
        raise DecodeProblem(ins, "a directed-rounding FP64 operation")

    def fn(st, G, m, gm, ins):
        v = [_dval(s, st, G, ins.pc) for s in srcs]
        with np.errstate(all="ignore"):
            if kind == "mul":
                r = v[0] * v[1]
            elif kind == "add":
                r = v[0] + v[1]
            else:
                r = _dfma(v[0], v[1], v[2])
        u = np.asarray(r, F64).view(U64)
        u = np.where(np.isnan(np.asarray(r, F64)), U64(0xFFFFFFFFFFFFFFFF) >> U64(1), u)
        st.w(d, G, gm, np.broadcast_to((u & U64(0xFFFFFFFF)).astype(U32), gm.shape))
        if d != RZ:
            st.w(d + 1, G, gm, np.broadcast_to((u >> U64(32)).astype(U32), gm.shape))
    # consumer Ampere/Ada run FP64 on a slow, variable-latency unit; Hopper's FP64 pipe is fixed-latency
    return Impl(fn, _dreads(*srcs), [("R", d), ("R", d + 1)] if d != RZ else [], queue=_fp64_queue(ctx))


def _fp64_queue(ctx):
    return "fp64" if ctx.sm < 0x900 else None


def _dfma(a, b, c):
    """Correctly rounded fused a*b + c in float64 (exact through Python's fractions, lane by lane)."""
    from fractions import Fraction
    a, b, c = np.broadcast_arrays(a, b, c)
    out = np.empty(a.shape, F64)
    for i in np.ndindex(a.shape):
        x, y, z = float(a[i]), float(b[i]), float(c[i])
        if not (math.isfinite(x) and math.isfinite(y) and math.isfinite(z)):
            out[i] = x * y + z
        else:
            out[i] = float(Fraction(x) * Fraction(y) + Fraction(z))
    return out


@op("DMUL")
def dmul(ins, ctx):
    return _darith(ins, ctx, "mul")


@op("DADD")
def dadd(ins, ctx):
    return _darith(ins, ctx, "add")


@op("DFMA")
def dfma(ins, ctx):
    return _darith(ins, ctx, "fma")


@op("DSETP")
def dsetp(ins, ctx):
    ops = list(ins.operands)
    p, q = pred_src(ins, ops[0]), pred_src(ins, ops[1])
    a, b = src(ins, ops[2], f64=True), src(ins, ops[3], f64=True)
    c = pred_src(ins, ops[4])
    cmp, bop = fsetp_parts(ins)
    combine = _BOOL[bop]

    def fn(st, G, m, gm, ins):
        r = np.broadcast_to(fcompare(cmp, _dval(a, st, G, ins.pc), _dval(b, st, G, ins.pc)), gm.shape)
        cv = c.pred(st, G) if c.n != PT else np.bool_(not c.neg)
        st.wp(p.n, G, gm, np.broadcast_to(combine(r, cv), gm.shape))
        st.wp(q.n, G, gm, np.broadcast_to(combine(~r, cv), gm.shape))
    return Impl(fn, _dreads(a, b), [("P", x.n) for x in (p, q) if x.n != PT], queue=_fp64_queue(ctx))


__all__ = ["fval", "fcompare", "setp_parts"]
