"""The uniform datapath (one value per warp): UMOV, UIADD3, UIMAD, ULEA, ULOP3, USHF, USEL, UISETP,
UPLOP3, UFLO, UPOPC, UBREV, S2UR and R2UR.

A uniform instruction runs once for a warp that has any executing lane; its registers UR0..UR62 (URZ
reads 0) and predicates UP0..UP6 (UPT) hold one value per warp.  R2UR takes the executing lanes'
value, which must be the same on all of them (a divergent value has no uniform meaning: the virtual
SM refuses it loudly rather than pick one).
"""
import numpy as np

from drivers.emu.nv.faults import ESR_ILLEGAL_INSTR_PARAM, SmException
from drivers.emu.nv.sass.executor import Impl, op
from drivers.emu.nv.sass.operands import DecodeProblem, dst_reg, pred_src, reg_file, src
from drivers.emu.nv.sass.ops_int import _BOOL, _ICMP, compare_ex, flo32, lut3, popcount32, brev32, setp_parts, special
from drivers.emu.nv.sass.state import PT, URZ

U32, U64 = np.uint32, np.uint64
M32 = np.uint64(0xFFFFFFFF)


def uval(s, st, G, pc, raw=False):
    """A uniform source as uint64 per warp, '-' and '~' applied (two's complement / not) unless `raw`."""
    if s.kind == "UR":
        v = st.ur(s.n, G).astype(U64)
    elif s.kind == "imm":
        v = U64(s.value & 0xFFFFFFFF)
    elif s.kind == "cbuf":
        v = U64(st.cbuf(s.bank, s.offset, 4, pc))
    else:
        raise SmException(ESR_ILLEGAL_INSTR_PARAM, pc, f"a {s.kind} operand in a uniform instruction")
    if raw:
        return v
    if s.inv:
        v = v ^ M32
    if s.neg:
        v = ((v ^ M32) + U64(1)) & M32
    return v


def upred(s, st, G):
    if s.n == PT:
        return np.bool_(not s.neg)
    v = st.UP[s.n][G]
    return ~v if s.neg else v


def _ureads(*srcs):
    return [("UR", s.n) for s in srcs if s.kind == "UR" and s.n != URZ]


def _uw(d):
    return [("UR", d)] if d != URZ else []


@op("UMOV")
def umov(ins, ctx):
    d = dst_reg(ins, ins.operands[0], ("UR",))[1]
    a = src(ins, ins.operands[1])

    def fn(st, G, m, gm, ins):
        st.wur(d, G, gm.any(axis=1), (uval(a, st, G, ins.pc) & M32).astype(U32))
    return Impl(fn, _ureads(a), _uw(d))


@op("UIADD3")
def uiadd3(ins, ctx):
    ops = list(ins.operands)
    d = dst_reg(ins, ops[0], ("UR",))[1]
    i, pouts = 1, []
    while reg_file(ops[i]) and reg_file(ops[i])[0] == "UP":
        pouts.append(pred_src(ins, ops[i]))
        i += 1
    a, b, c = (src(ins, o) for o in ops[i:i + 3])
    pins = [pred_src(ins, o) for o in ops[i + 3:]]

    def fn(st, G, m, gm, ins):
        warps = gm.any(axis=1)
        terms, ones = [], 0
        for s in (a, b, c):
            v = uval(s, st, G, ins.pc, raw=True)
            terms.append(v ^ M32 if s.inv or s.neg else v)
            ones += 1 if s.neg else 0
        cin = sum((upred(p, st, G).astype(U64) if p.n != PT else U64(0 if p.neg else 1)) for p in pins) \
            if pins else U64(0)
        first = terms[0] + terms[1] + U64(ones) + cin
        total = (first & M32) + terms[2]
        st.wur(d, G, warps, (total & M32).astype(U32))
        if pouts:
            c0, c1 = first >> U64(32), total >> U64(32)
            if len(pouts) == 1:
                st.wup(pouts[0].n, G, warps, np.broadcast_to((c0 + c1) != 0, warps.shape))
            else:
                st.wup(pouts[0].n, G, warps, np.broadcast_to(c0 != 0, warps.shape))
                st.wup(pouts[1].n, G, warps, np.broadcast_to(c1 != 0, warps.shape))
    return Impl(fn, _ureads(a, b, c), _uw(d))


@op("UIMAD")
def uimad(ins, ctx):
    d = dst_reg(ins, ins.operands[0], ("UR",))[1]
    a, b, c = (src(ins, o) for o in ins.operands[1:4])
    if ins.has("WIDE") or ins.has("HI"):
        raise DecodeProblem(ins, "UIMAD.WIDE / .HI")

    def fn(st, G, m, gm, ins):
        r = (uval(a, st, G, ins.pc) * uval(b, st, G, ins.pc) + uval(c, st, G, ins.pc)) & M32
        st.wur(d, G, gm.any(axis=1), np.broadcast_to(r, (gm.shape[0],)).astype(U32))
    return Impl(fn, _ureads(a, b, c), _uw(d))


@op("ULEA")
def ulea(ins, ctx):
    ops = list(ins.operands)
    d = dst_reg(ins, ops[0], ("UR",))[1]
    if ins.has("X") or (reg_file(ops[1]) and reg_file(ops[1])[0] == "UP"):
        raise DecodeProblem(ins, "ULEA with carries")
    hi = ins.has("HI")
    if hi:
        a, b, c, s = (src(ins, o) for o in ops[1:5])
    else:
        (a, b, s), c = (src(ins, o) for o in ops[1:4]), None
    shift = s.value & 31

    def fn(st, G, m, gm, ins):
        av, bv = uval(a, st, G, ins.pc), uval(b, st, G, ins.pc)
        if hi:
            cv = uval(c, st, G, ins.pc) if not ins.has("SX32") else np.where(av >> U64(31), M32, U64(0))
            part = ((cv << U64(32) | av) << U64(shift)) >> U64(32) & M32 if shift else cv
            r = (part + bv) & M32
        else:
            r = (((av << U64(shift)) & M32) + bv) & M32
        st.wur(d, G, gm.any(axis=1), np.broadcast_to(r, (gm.shape[0],)).astype(U32))
    return Impl(fn, _ureads(a, b, *([c] if c else [])), _uw(d))


@op("ULOP3")
def ulop3(ins, ctx):
    ops = list(ins.operands)
    pout = None
    if reg_file(ops[0]) and reg_file(ops[0])[0] == "UP":
        pout, ops = pred_src(ins, ops[0]), ops[1:]
    d = dst_reg(ins, ops[0], ("UR",))[1]
    a, b, c = (src(ins, o) for o in ops[1:4])
    table = src(ins, ops[4]).value & 0xFF

    def fn(st, G, m, gm, ins):
        vals = [np.broadcast_to(uval(s, st, G, ins.pc), (gm.shape[0],)).astype(U32) for s in (a, b, c)]
        r = lut3(table, *vals)
        warps = gm.any(axis=1)
        st.wur(d, G, warps, r)
        if pout is not None:
            st.wup(pout.n, G, warps, r != 0)
    return Impl(fn, _ureads(a, b, c), _uw(d))


@op("USHF")
def ushf(ins, ctx):
    d = dst_reg(ins, ins.operands[0], ("UR",))[1]
    a, s, c = (src(ins, o) for o in ins.operands[1:4])
    left, hi = ins.has("L"), ins.has("HI")
    signed, wide = ins.has("S32") or ins.has("S64"), ins.has("U64") or ins.has("S64")
    limit = 64 if wide else 32

    def fn(st, G, m, gm, ins):
        n = gm.shape[0]
        av, cv = (np.broadcast_to(uval(x, st, G, ins.pc), (n,)) for x in (a, c))
        sv = np.minimum(np.broadcast_to(uval(s, st, G, ins.pc), (n,)), U64(limit))
        v = (cv << U64(32)) | av
        if left:
            r = np.where(sv >= 64, U64(0), v << np.minimum(sv, U64(63)))
            r = (r >> U64(32)) if hi else r & M32
        else:
            if signed:
                r = (v.astype(np.int64) >> np.minimum(sv, U64(63)).astype(np.int64)).astype(U64)
            else:
                r = np.where(sv >= 64, U64(0), v >> np.minimum(sv, U64(63)))
            r = (r >> U64(32)) if hi else r & M32
        st.wur(d, G, gm.any(axis=1), (r & M32).astype(U32))
    return Impl(fn, _ureads(a, s, c), _uw(d))


@op("USEL")
def usel(ins, ctx):
    d = dst_reg(ins, ins.operands[0], ("UR",))[1]
    a, b = src(ins, ins.operands[1]), src(ins, ins.operands[2])
    p = pred_src(ins, ins.operands[3])

    def fn(st, G, m, gm, ins):
        r = np.where(upred(p, st, G), uval(a, st, G, ins.pc), uval(b, st, G, ins.pc))
        st.wur(d, G, gm.any(axis=1), np.broadcast_to(r, (gm.shape[0],)).astype(U32))
    return Impl(fn, _ureads(a, b), _uw(d))


@op("UISETP")
def uisetp(ins, ctx):
    ops = list(ins.operands)
    p, q = pred_src(ins, ops[0]), pred_src(ins, ops[1])
    a, b = src(ins, ops[2]), src(ins, ops[3])
    c = pred_src(ins, ops[4])
    ex = pred_src(ins, ops[5]) if ins.has("EX") else None
    cmp, bop = setp_parts(ins)
    combine, unsigned = _BOOL[bop], ins.has("U32")

    def fn(st, G, m, gm, ins):
        n = gm.shape[0]
        av, bv = (np.broadcast_to(uval(x, st, G, ins.pc), (n,)) for x in (a, b))
        if not unsigned:
            av = av.astype(U32).view(np.int32).astype(np.int64)
            bv = bv.astype(U32).view(np.int32).astype(np.int64)
        r = compare_ex(cmp, av, bv, upred(ex, st, G)) if ex is not None else _ICMP[cmp](av, bv)
        cv = upred(c, st, G)
        warps = gm.any(axis=1)
        st.wup(p.n, G, warps, np.broadcast_to(combine(r, cv), (n,)))
        st.wup(q.n, G, warps, np.broadcast_to(combine(~r, cv), (n,)))
    return Impl(fn, _ureads(a, b), ())


@op("UPLOP3")
def uplop3(ins, ctx):
    ops = list(ins.operands)
    p, q = pred_src(ins, ops[0]), pred_src(ins, ops[1])
    a, b, c = (pred_src(ins, o) for o in ops[2:5])
    lut0 = src(ins, ops[5]).value & 0xFF
    lut1 = src(ins, ops[6]).value & 0xFF if len(ops) > 6 else 0

    def fn(st, G, m, gm, ins):
        n = gm.shape[0]
        vals = [np.broadcast_to(upred(s, st, G), (n,)).astype(U32) for s in (a, b, c)]
        warps = gm.any(axis=1)
        st.wup(p.n, G, warps, (lut3(lut0, *vals) & 1).astype(bool))
        st.wup(q.n, G, warps, (lut3(lut1, *vals) & 1).astype(bool))
    return Impl(fn, (), ())


def _unary(ins, f):
    d = dst_reg(ins, ins.operands[0], ("UR",))[1]
    a = src(ins, ins.operands[-1])

    def fn(st, G, m, gm, ins):
        v = np.broadcast_to(uval(a, st, G, ins.pc), (gm.shape[0],)).astype(U32)
        st.wur(d, G, gm.any(axis=1), f(v))
    return Impl(fn, _ureads(a), _uw(d))


@op("UFLO")
def uflo(ins, ctx):
    signed, shift = not ins.has("U32"), ins.has("SH")
    return _unary(ins, lambda v: flo32(v, signed, shift))


@op("UPOPC")
def upopc(ins, ctx):
    return _unary(ins, popcount32)


@op("UBREV")
def ubrev(ins, ctx):
    return _unary(ins, brev32)


@op("S2UR")
def s2ur(ins, ctx):
    d = dst_reg(ins, ins.operands[0], ("UR",))[1]
    name = ins.operands[1].holes[0].strip() if ins.operands[1].kind == "name" else None
    if name is None:
        raise DecodeProblem(ins, "a special-register operand that is not a name")

    def fn(st, G, m, gm, ins):
        v = np.broadcast_to(special(st, G, name, ins.pc), gm.shape)
        if not (v == v[:, :1]).all():
            raise SmException(ESR_ILLEGAL_INSTR_PARAM, ins.pc, f"S2UR of {name}, which differs between lanes")
        st.wur(d, G, gm.any(axis=1), v[:, 0].astype(U32))
    return Impl(fn, (), _uw(d), queue="s2r")


@op("R2UR")
def r2ur(ins, ctx):
    ops = [o for o in ins.operands if not (reg_file(o) and reg_file(o)[0] == "UP")]
    d = dst_reg(ins, ops[0], ("UR",))[1]
    a = src(ins, ops[1])
    if a.kind != "R":
        raise DecodeProblem(ins, "R2UR of something other than a register")

    def fn(st, G, m, gm, ins):
        v = st.r(a.n, G)
        first = v[np.arange(len(v)), np.argmax(gm, axis=1)]
        warps = gm.any(axis=1)
        if ((v != first[:, None]) & gm).any():
            raise SmException(ESR_ILLEGAL_INSTR_PARAM, ins.pc, f"R2UR of R{a.n}, which holds different values on "
                              "the executing lanes")
        st.wur(d, G, warps, first)
    return Impl(fn, [("R", a.n)], _uw(d), queue="s2r")
