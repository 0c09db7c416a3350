"""Integer instructions: IMAD (.WIDE, .HI, .X, carries), IADD3 (negated and inverted sources, two carry
outs, .X carry ins), LEA (.HI, .X, .SX32), LOP3.LUT, SHF (funnel shifts), ISETP (.EX for 64-bit
compares), SEL, IMNMX/VIMNMX, VIADD, IABS, POPC, FLO, BREV, PRMT, MOV, PLOP3, S2R/CS2R.

Values are uint32 arrays; 64-bit work is done in uint64 (products of two 32-bit values fit), signed
views where the modifier says so.  A source decorated '-' is the two's complement (~x + 1, which is
how the adders see it: it matters for carries), '~' the bitwise not.
"""
import numpy as np

from drivers.emu.nv.sass.executor import Impl, op
from drivers.emu.nv.sass.operands import DecodeProblem, dst_reg, pred_src, reg_file, src
from drivers.emu.nv.sass.state import LANES, PT, RZ

U32, U64 = np.uint32, np.uint64
M32 = np.uint64(0xFFFFFFFF)
S32 = np.uint64(32)


def _reads(*srcs):
    r = []
    for s in srcs:
        r += [("R", n) for n in s.regs] + [("UR", n) for n in s.uregs]
        if s.kind == "P" and s.n != PT:
            r.append(("P", s.n))
    return r


def _val(s, st, G, pc):
    v = s.u32(st, G, pc)
    v = v.astype(U64) if isinstance(v, np.ndarray) else U64(v)
    if s.inv:
        v = v ^ M32
    if s.neg:
        v = (v ^ M32) + U64(1)
    return v & M32


def _signed(v):
    return np.asarray(v, dtype=np.uint64).astype(np.uint32).view(np.int32).astype(np.int64)


def _pred_in(st, G, s):
    if s is None:
        return U64(0)
    if s.n == PT:
        return U64(0 if s.neg else 1)
    return s.pred(st, G).astype(U64)


@op("IMAD")
def imad(ins, ctx):
    ops = list(ins.operands)
    d = dst_reg(ins, ops[0])[1]
    i = 1
    pout = None
    if reg_file(ops[1]) and reg_file(ops[1])[0] == "P":
        pout, i = pred_src(ins, ops[1]), 2
    a, b, c = (src(ins, o) for o in ops[i:i + 3])
    pin = pred_src(ins, ops[i + 3]) if len(ops) > i + 3 else None
    wide, hi, signed, x = ins.has("WIDE"), ins.has("HI"), not ins.has("U32"), ins.has("X")
    if c.kind == "cbuf_idx" or a.kind == "cbuf_idx" or b.kind == "cbuf_idx":
        raise DecodeProblem(ins, "an indexed constant operand")
    dn = 2 if wide else 1
    writes = [("R", d + k) for k in range(dn) if d != RZ] + ([("P", pout.n)] if pout and pout.n != PT else [])
    reads = _reads(a, b, c) + ([("R", c.n + 1)] if (wide or hi) and c.kind == "R" and c.n != RZ else []) + \
        ([("P", pin.n)] if pin and pin.n != PT else [])

    def fn(st, G, m, gm, ins):
        pc = ins.pc
        av, bv = _val(a, st, G, pc), _val(b, st, G, pc)
        cin = _pred_in(st, G, pin) if x else U64(0)
        if wide:
            if signed:
                prod = (_signed(av) * _signed(bv)).astype(np.uint64)
            else:
                prod = av * bv
            cv = c.u64(st, G, pc)
            if c.neg:
                cv = ~cv + U64(1)
            if c.inv:
                cv = ~cv
            low = (prod & M32) + (cv & M32) + cin
            res = prod + cv + cin
            carry = (((prod >> S32) + (cv >> S32) + (low >> S32)) >> S32) != 0
            st.w(d, G, gm, (res & M32).astype(U32))
            if d != RZ:
                st.w(d + 1, G, gm, (res >> S32).astype(U32))
            if pout is not None:
                st.wp(pout.n, G, gm, np.broadcast_to(carry, gm.shape))
            return
        if hi:
            # the addend is the 64-bit pair {Rc+1, Rc}: d = (a * b + c) >> 32, carry out of bit 64
            cv = c.u64(st, G, pc)
            if c.neg or c.inv:
                cv = ~cv + (U64(1) if c.neg else U64(0))
            if signed:
                prod = (_signed(av) * _signed(bv)).astype(np.uint64)
            else:
                prod = av * bv
            low = (prod & M32) + (cv & M32) + cin
            high = (prod >> S32) + (cv >> S32) + (low >> S32)
            st.w(d, G, gm, (high & M32).astype(U32))
            if pout is not None:
                st.wp(pout.n, G, gm, np.broadcast_to(((high >> S32) & U64(1)) != 0, gm.shape))
            return
        cv = _val(c, st, G, pc)
        res = (av * bv & M32) + cv + cin
        st.w(d, G, gm, (res & M32).astype(U32))
        if pout is not None:
            st.wp(pout.n, G, gm, np.broadcast_to((res >> S32) != 0, gm.shape))
    return Impl(fn, reads, writes)


@op("IADD3")
def iadd3(ins, ctx):
    ops = list(ins.operands)
    d = dst_reg(ins, ops[0])[1]
    i, pouts = 1, []
    while reg_file(ops[i]) and reg_file(ops[i])[0] == "P":
        pouts.append(pred_src(ins, ops[i]))
        i += 1
    a, b, c = (src(ins, o) for o in ops[i:i + 3])
    pins = [pred_src(ins, o) for o in ops[i + 3:]]
    writes = [("R", d)] if d != RZ else []
    writes += [("P", p.n) for p in pouts if p.n != PT]
    reads = _reads(a, b, c, *pins)

    def fn(st, G, m, gm, ins):
        pc = ins.pc
        terms = []
        ones = 0
        for s in (a, b, c):
            v = s.u32(st, G, pc)
            v = v.astype(U64) if isinstance(v, np.ndarray) else U64(v)
            if s.neg or s.inv:
                v = v ^ M32
            terms.append(v)
            ones += 1 if s.neg else 0
        cin = U64(0)
        for p in pins:
            cin = cin + _pred_in(st, G, p)
        first = terms[0] + terms[1] + U64(ones) + cin
        total = (first & M32) + terms[2]
        st.w(d, G, gm, (total & M32).astype(U32))
        if pouts:
            c0 = first >> S32
            c1 = total >> S32
            if len(pouts) == 1:
                st.wp(pouts[0].n, G, gm, np.broadcast_to((c0 + c1) != 0, gm.shape))
            else:
                st.wp(pouts[0].n, G, gm, np.broadcast_to(c0 != 0, gm.shape))
                st.wp(pouts[1].n, G, gm, np.broadcast_to(c1 != 0, gm.shape))
    return Impl(fn, reads, writes)


@op("VIADD")
def viadd(ins, ctx):
    d = dst_reg(ins, ins.operands[0])[1]
    a, b = (src(ins, o) for o in ins.operands[1:3])

    def fn(st, G, m, gm, ins):
        res = (_val(a, st, G, ins.pc) + _val(b, st, G, ins.pc)) & M32
        st.w(d, G, gm, res.astype(U32))
    return Impl(fn, _reads(a, b), [("R", d)] if d != RZ else [])


@op("LEA")
def lea(ins, ctx):
    ops = list(ins.operands)
    d = dst_reg(ins, ops[0])[1]
    i, pout = 1, None
    if reg_file(ops[1]) and reg_file(ops[1])[0] == "P":
        pout, i = pred_src(ins, ops[1]), 2
    hi, x, sx = ins.has("HI"), ins.has("X"), ins.has("SX32")
    pin = None
    rest = ops[i:]
    if rest and reg_file(rest[-1]) and reg_file(rest[-1])[0] == "P":
        pin, rest = pred_src(ins, rest[-1]), rest[:-1]
    if hi and not sx:
        a, b, c, s = (src(ins, o) for o in rest)
    else:
        (a, b, s), c = (src(ins, o) for o in rest), None
    if s.kind != "imm":
        raise DecodeProblem(ins, "a register shift count")
    shift = s.value & 31
    reads = _reads(a, b, *([c] if c else [])) + ([("P", pin.n)] if pin and pin.n != PT else [])
    writes = ([("R", d)] if d != RZ else []) + ([("P", pout.n)] if pout and pout.n != PT else [])

    def fn(st, G, m, gm, ins):
        pc = ins.pc
        av, bv = _val(a, st, G, pc), _val(b, st, G, pc)
        cin = _pred_in(st, G, pin) if x else U64(0)
        if hi:
            if sx:
                cv = np.where(av >> U64(31), M32, U64(0))
            else:
                cv = _val(c, st, G, pc)
            wide = (cv << S32) | av
            part = (wide << U64(shift)) >> S32 & M32 if shift else cv
            res = part + bv + cin
        else:
            res = ((av << U64(shift)) & M32) + bv + cin
        st.w(d, G, gm, (res & M32).astype(U32))
        if pout is not None:
            st.wp(pout.n, G, gm, np.broadcast_to((res >> S32) != 0, gm.shape))
    return Impl(fn, reads, writes)


def lut3(lut, a, b, c):
    """LOP3.LUT: bit i of the result is bit ((a<<2)|(b<<1)|c) of `lut`, for every bit position."""
    res = np.zeros(np.broadcast(a, b, c).shape, np.uint32)
    for k in range(8):
        if lut >> k & 1:
            t = (a if k & 4 else ~a) & (b if k & 2 else ~b) & (c if k & 1 else ~c)
            res |= t
    return res


@op("LOP3")
def lop3(ins, ctx):
    ops = list(ins.operands)
    pout = None
    if reg_file(ops[0]) and reg_file(ops[0])[0] == "P":
        pout, ops = pred_src(ins, ops[0]), ops[1:]
    d = dst_reg(ins, ops[0])[1]
    a, b, c = (src(ins, o) for o in ops[1:4])
    lut = src(ins, ops[4])
    if lut.kind != "imm":
        raise DecodeProblem(ins, "a non-immediate LUT")
    tail = pred_src(ins, ops[5]) if len(ops) > 5 else None
    if tail is not None and not (tail.n == PT and tail.neg):
        raise DecodeProblem(ins, "a predicate input other than !PT")
    table = lut.value & 0xFF
    writes = ([("R", d)] if d != RZ else []) + ([("P", pout.n)] if pout and pout.n != PT else [])

    def fn(st, G, m, gm, ins):
        pc = ins.pc
        vals = [np.asarray(_val(s, st, G, pc)).astype(U32) for s in (a, b, c)]
        res = lut3(table, *vals)
        st.w(d, G, gm, np.broadcast_to(res, gm.shape))
        if pout is not None:
            st.wp(pout.n, G, gm, np.broadcast_to(res != 0, gm.shape))
    return Impl(fn, _reads(a, b, c), writes)


@op("SHF")
def shf(ins, ctx):
    d = dst_reg(ins, ins.operands[0])[1]
    a, s, c = (src(ins, o) for o in ins.operands[1:4])
    left = ins.has("L")
    hi = ins.has("HI")
    signed = ins.has("S32") or ins.has("S64")
    wide = ins.has("U64") or ins.has("S64")
    wrap = ins.has("W")
    limit = 64 if wide else 32

    def fn(st, G, m, gm, ins):
        pc = ins.pc
        av, cv = _val(a, st, G, pc), _val(c, st, G, pc)
        sv = _val(s, st, G, pc)
        sv = (sv & U64(limit - 1)) if wrap else np.minimum(sv, U64(limit))
        v = (cv << S32) | av                                   # uint64: high:low
        if left:
            lo = np.where(sv >= 64, U64(0), v << np.minimum(sv, U64(63)))
            # the bits shifted out of the 64-bit value feed .HI when shifting past 32
            res_hi = np.where(sv >= 64, U64(0), lo >> S32)
            res = res_hi if hi else lo & M32
        else:
            if signed:
                sv_ = np.minimum(sv, U64(63)).astype(np.int64)
                r = (v.astype(np.int64) >> sv_).astype(np.uint64) if isinstance(v, np.ndarray) else \
                    U64(np.int64(v) >> sv_)
                r = np.where(sv >= 64, np.where(v >> U64(63), ~U64(0), U64(0)), r)
            else:
                r = np.where(sv >= 64, U64(0), v >> np.minimum(sv, U64(63)))
            res = (r >> S32) if hi else r & M32
        st.w(d, G, gm, np.broadcast_to((res & M32).astype(U32), gm.shape))
    return Impl(fn, _reads(a, s, c), [("R", d)] if d != RZ else [])


_ICMP = {"EQ": np.equal, "NE": np.not_equal, "LT": np.less, "LE": np.less_equal, "GT": np.greater,
         "GE": np.greater_equal}
_BOOL = {"AND": np.logical_and, "OR": np.logical_or, "XOR": np.logical_xor}


def compare_ex(cmp, a, b, low):
    """64-bit compare continued from the low words' result `low` (ISETP.EX on the high words)."""
    if cmp == "EQ":
        return (a == b) & low
    if cmp == "NE":
        return (a != b) | low
    strict = {"LT": np.less, "LE": np.less, "GT": np.greater, "GE": np.greater}[cmp]
    return strict(a, b) | ((a == b) & low)


def setp_parts(ins):
    cmp = next((m for m in ins.mods if m in _ICMP or m in ("T", "F")), None)
    bop = next((m for m in ins.mods if m in _BOOL), "AND")
    return cmp, bop


@op("ISETP")
def isetp(ins, ctx):
    ops = list(ins.operands)
    p, q = pred_src(ins, ops[0]), pred_src(ins, ops[1])
    a, b = src(ins, ops[2]), src(ins, ops[3])
    c = pred_src(ins, ops[4])
    ex = pred_src(ins, ops[5]) if ins.has("EX") else None
    cmp, bop = setp_parts(ins)
    if cmp is None:
        raise DecodeProblem(ins, "no comparison")
    unsigned = ins.has("U32")
    combine = _BOOL[bop]
    reads = _reads(a, b) + [("P", x.n) for x in (c, ex) if x is not None and x.n != PT]
    writes = [("P", x.n) for x in (p, q) if x.n != PT]

    def fn(st, G, m, gm, ins):
        pc = ins.pc
        av, bv = _val(a, st, G, pc), _val(b, st, G, pc)
        if not unsigned:
            av, bv = _signed(av), _signed(bv)
        if cmp in ("T", "F"):
            r = np.full(gm.shape, cmp == "T")
        elif ex is not None:
            r = compare_ex(cmp, av, bv, ex.pred(st, G) if ex.n != PT else (not ex.neg))
        else:
            r = _ICMP[cmp](av, bv)
        r = np.broadcast_to(r, gm.shape)
        cv = c.pred(st, G) if c.n != PT else np.bool_(not c.neg)
        st.wp(p.n, G, gm, np.broadcast_to(combine(r, cv), gm.shape))
        st.wp(q.n, G, gm, np.broadcast_to(combine(~r, cv), gm.shape))
    return Impl(fn, reads, writes)


@op("SEL")
def sel(ins, ctx):
    d = dst_reg(ins, ins.operands[0])[1]
    a, b = src(ins, ins.operands[1]), src(ins, ins.operands[2])
    p = pred_src(ins, ins.operands[3])

    def fn(st, G, m, gm, ins):
        cond = p.pred(st, G) if p.n != PT else np.bool_(not p.neg)
        res = np.where(cond, a.u32(st, G, ins.pc), b.u32(st, G, ins.pc))
        st.w(d, G, gm, np.broadcast_to(res, gm.shape))
    return Impl(fn, _reads(a, b) + ([("P", p.n)] if p.n != PT else []), [("R", d)] if d != RZ else [])


@op("IMNMX", "VIMNMX")
def imnmx(ins, ctx):
    d = dst_reg(ins, ins.operands[0])[1]
    a, b = src(ins, ins.operands[1]), src(ins, ins.operands[2])
    p = pred_src(ins, ins.operands[3])
    unsigned = ins.has("U32")

    def fn(st, G, m, gm, ins):
        av, bv = _val(a, st, G, ins.pc), _val(b, st, G, ins.pc)
        if not unsigned:
            av, bv = _signed(av), _signed(bv)
        use_min = p.pred(st, G) if p.n != PT else np.bool_(not p.neg)
        res = np.where(use_min, np.minimum(av, bv), np.maximum(av, bv))
        st.w(d, G, gm, np.broadcast_to(np.asarray(res).astype(np.int64).astype(np.uint64).astype(U32), gm.shape))
    return Impl(fn, _reads(a, b), [("R", d)] if d != RZ else [])


@op("IABS")
def iabs(ins, ctx):
    d = dst_reg(ins, ins.operands[0])[1]
    a = src(ins, ins.operands[1])

    def fn(st, G, m, gm, ins):
        v = _signed(_val(a, st, G, ins.pc))
        st.w(d, G, gm, np.broadcast_to(np.abs(v).astype(np.uint64).astype(U32), gm.shape))
    return Impl(fn, _reads(a), [("R", d)] if d != RZ else [])


def popcount32(v):
    v = np.asarray(v, np.uint32)
    v = v - ((v >> 1) & np.uint32(0x55555555))
    v = (v & np.uint32(0x33333333)) + ((v >> 2) & np.uint32(0x33333333))
    v = (v + (v >> 4)) & np.uint32(0x0F0F0F0F)
    return ((v * np.uint32(0x01010101)) >> 24).astype(np.uint32)


@op("POPC")
def popc(ins, ctx):
    d = dst_reg(ins, ins.operands[0])[1]
    a = src(ins, ins.operands[1])

    def fn(st, G, m, gm, ins):
        st.w(d, G, gm, np.broadcast_to(popcount32(np.asarray(_val(a, st, G, ins.pc)).astype(U32)), gm.shape))
    return Impl(fn, _reads(a), [("R", d)] if d != RZ else [], queue="xu")


def flo32(v, signed, shift):
    """Position of the most significant 1 (of the first bit differing from the sign for .S32), or
    0xFFFFFFFF when there is none; with .SH the distance from bit 31 instead."""
    v = np.asarray(v, np.uint32)
    if signed:
        v = np.where(v >> 31, ~v, v)
    pos = np.where(v == 0, -1, np.floor(np.log2(np.maximum(v, 1).astype(np.float64))).astype(np.int64))
    if shift:
        pos = np.where(pos < 0, -1, 31 - pos)
    return pos.astype(np.int64).astype(np.uint64).astype(np.uint32)


@op("FLO")
def flo(ins, ctx):
    d = dst_reg(ins, ins.operands[0])[1]
    a = src(ins, ins.operands[-1])
    signed, shift = not ins.has("U32"), ins.has("SH")

    def fn(st, G, m, gm, ins):
        st.w(d, G, gm, np.broadcast_to(flo32(np.asarray(_val(a, st, G, ins.pc)).astype(U32), signed, shift),
                                       gm.shape))
    return Impl(fn, _reads(a), [("R", d)] if d != RZ else [], queue="xu")


def brev32(v):
    v = np.asarray(v, np.uint32)
    out = np.zeros_like(v)
    for i in range(32):
        out |= ((v >> i) & 1) << (31 - i)
    return out


@op("BREV")
def brev(ins, ctx):
    d = dst_reg(ins, ins.operands[0])[1]
    a = src(ins, ins.operands[1])

    def fn(st, G, m, gm, ins):
        st.w(d, G, gm, np.broadcast_to(brev32(np.asarray(_val(a, st, G, ins.pc)).astype(U32)), gm.shape))
    return Impl(fn, _reads(a), [("R", d)] if d != RZ else [], queue="xu")


@op("PRMT")
def prmt(ins, ctx):
    d = dst_reg(ins, ins.operands[0])[1]
    a, s, b = (src(ins, o) for o in ins.operands[1:4])
    if any(m in ins.mods for m in ("F4E", "B4E", "RC8", "ECL", "ECR", "RC16")):
        raise DecodeProblem(ins, "a PRMT mode other than the default byte select")

    def fn(st, G, m, gm, ins):
        pc = ins.pc
        av, bv = np.asarray(a.u32(st, G, pc), U32), np.asarray(b.u32(st, G, pc), U32)
        sv = np.asarray(s.u32(st, G, pc), U32)
        word = np.broadcast_to(av.astype(U64) | (bv.astype(U64) << S32), gm.shape)
        sv = np.broadcast_to(sv, gm.shape)
        res = np.zeros(gm.shape, U32)
        for i in range(4):
            nib = (sv >> U32(4 * i)) & U32(0xF)
            byte = ((word >> (U64(8) * (nib & U32(7)).astype(U64))) & U64(0xFF)).astype(U32)
            sign = np.where(byte >> 7, U32(0xFF), U32(0))
            res |= np.where(nib & U32(8), sign, byte) << U32(8 * i)
        st.w(d, G, gm, res)
    return Impl(fn, _reads(a, s, b), [("R", d)] if d != RZ else [])


@op("MOV")
def mov(ins, ctx):
    d = dst_reg(ins, ins.operands[0])[1]
    a = src(ins, ins.operands[1])
    if len(ins.operands) > 2:
        lanes = src(ins, ins.operands[2])
        if lanes.kind != "imm" or lanes.value & 0xF != 0xF:
            raise DecodeProblem(ins, "a MOV with a partial byte mask")
    if a.kind == "cbuf_idx":
        raise DecodeProblem(ins, "an indexed constant operand")

    def fn(st, G, m, gm, ins):
        st.w(d, G, gm, np.broadcast_to(a.u32(st, G, ins.pc), gm.shape))
    return Impl(fn, _reads(a), [("R", d)] if d != RZ else [])


@op("PLOP3")
def plop3(ins, ctx):
    ops = list(ins.operands)
    p, q = pred_src(ins, ops[0]), pred_src(ins, ops[1])
    a, b, c = (pred_src(ins, o) for o in ops[2:5])
    lut0, lut1 = src(ins, ops[5]).value & 0xFF, src(ins, ops[6]).value & 0xFF if len(ops) > 6 else 0

    def fn(st, G, m, gm, ins):
        vals = []
        for s in (a, b, c):
            v = s.pred(st, G) if s.n != PT else np.full(gm.shape, not s.neg)
            vals.append(np.broadcast_to(v, gm.shape).astype(np.uint32))
        r0 = lut3(lut0, *vals) & 1
        r1 = lut3(lut1, *vals) & 1
        st.wp(p.n, G, gm, r0.astype(bool))
        st.wp(q.n, G, gm, r1.astype(bool))
    reads = [("P", s.n) for s in (a, b, c) if s.n != PT]
    return Impl(fn, reads, [("P", x.n) for x in (p, q) if x.n != PT])


def special(st, G, name, pc):
    """A special register (S2R / S2UR / CS2R) for the warps `G` -> uint32 broadcastable to [len(G), 32]."""
    base, _, axis = name.partition(".")
    k = "XYZ".index(axis) if axis in ("X", "Y", "Z") else None
    if base == "SR_TID" and k is not None:
        return st.tid[k][G]
    if base == "SR_CTAID" and k is not None:
        return st.ctaid[k][st.cta_of_warp[G]][:, None]
    if base == "SR_NTID" and k is not None:
        return np.uint32(st.launch.block[k])
    if base == "SR_NCTAID" and k is not None:
        return np.uint32(st.launch.grid[k])
    if name == "SR_LANEID":
        return LANES[None, :]
    if name in ("SR_EQMASK", "SR_LTMASK", "SR_LEMASK", "SR_GTMASK", "SR_GEMASK"):
        return st.lane_masks()[name][None, :]
    if name in ("SR_VIRTID", "SR_WARPID"):
        return st.warp_in_cta[G][:, None].astype(np.uint32)
    if name in ("SR_SMID", "SR_VIRTUALSMID"):
        return (st.cta_of_warp[G] % st.launch.gpu.card.sms)[:, None].astype(np.uint32)
    if name == "SR_CgaCtaId":
        return np.uint32(0)                      # one CTA per cluster: the shared window of CTA 0
    if name == "SR_SWINHI":
        return np.uint32(st.launch.shared_window >> 32)
    if name == "SR_SWINLO":
        return np.uint32(st.launch.shared_window & 0xFFFFFFFF)
    if name in ("SR_CLOCKLO", "SR_CLOCKHI", "SR_GLOBALTIMERLO", "SR_GLOBALTIMERHI"):
        t = st.launch.gpu.ptimer() + st.executed
        return np.uint32(t >> 32 if name.endswith("HI") else t & 0xFFFFFFFF)
    if name == "SRZ":
        return np.uint32(0)
    raise DecodeProblem(type("I", (), {"pc": pc, "__str__": lambda s: name})(), f"special register {name}")


def _special_name(ins, op_):
    if op_.kind != "name":
        raise DecodeProblem(ins, "a special-register operand that is not a name")
    return op_.holes[0].strip()


@op("S2R")
def s2r(ins, ctx):
    d = dst_reg(ins, ins.operands[0])[1]
    name = _special_name(ins, ins.operands[1])

    def fn(st, G, m, gm, ins):
        st.w(d, G, gm, np.broadcast_to(special(st, G, name, ins.pc), gm.shape))
    return Impl(fn, (), [("R", d)] if d != RZ else [], queue="s2r")


@op("CS2R")
def cs2r(ins, ctx):
    d = dst_reg(ins, ins.operands[0])[1]
    name = _special_name(ins, ins.operands[1])
    wide = "32" not in ins.mods

    def fn(st, G, m, gm, ins):
        if name == "SRZ":
            lo = hi = np.uint32(0)
        elif name in ("SR_CLOCKLO", "SR_GLOBALTIMERLO"):
            t = st.launch.gpu.ptimer() + st.executed
            lo, hi = np.uint32(t & 0xFFFFFFFF), np.uint32(t >> 32)
        else:
            lo, hi = special(st, G, name, ins.pc), np.uint32(0)
        st.w(d, G, gm, np.broadcast_to(lo, gm.shape))
        if wide and d != RZ:
            st.w(d + 1, G, gm, np.broadcast_to(hi, gm.shape))
    return Impl(fn, (), [("R", d + k) for k in range(2 if wide else 1)] if d != RZ else [])
