"""cat1 (moves and conversions), cat2 (one- and two-source ALU) and cat3 (three-source ALU).

Semantics follow what mesa's ir3 backend relies on when it translates NIR to these
instructions (ir3_compiler_nir.c): cmps.* write 1 or 0; sel.b32 picks src1 when src2 is
non-zero; mull.u multiplies the low 16 bits of its sources; clz.b and clz.s return -1 when no
bit differs from the sign; (ei) on add.u/add.s halves the sum (uhadd/ihadd); the (neg) source
modifier is a float negate on .f instructions, an integer negate on .u/.s and a bitwise NOT on
.b; (sat) clamps floats to [0, 1] and saturates integer add/sub.

Each repetition of an (rptN) instruction reads its (r) sources and writes its destination one
register further, in order, so a repetition sees what the previous one wrote.
"""
import numpy as np

from drivers.errors import GPUError

from . import convert as C
from .op import Op, rows_of, timing_of
from .operands import Const, Imm, Reg, RelConst, RelReg, cat3src, multisrc, sext
from .state import A0, A1, NONE_REG, P0, units

def _unsupported(ins, pc, why="is not emulated"):
    return GPUError(f"PC 0x{pc:x}: {ins.text}: {ins.name} {why}")


# -- destinations ----------------------------------------------------------------------------------
def _dst_rows(regid, half, repeat):
    out = []
    for i in range(repeat + 1):
        out.extend(units(regid + i, half))
    return out


def _writer(regid, half, pc, limits, repeat=0, relative=False):
    """(write(x, i, bits, active), rows) for a destination register."""
    if relative:
        def write(x, i, bits, active):
            wg = x.wg
            idx = wg.a0() + regid + i
            limit = 2 * x.ctx.limits.full_rows if half else x.ctx.limits.full_rows
            if ((idx < 0) | (idx >= limit))[active].any():
                raise GPUError(f"relative destination r<a0.x + {regid}> at PC 0x{pc:x} leaves the register footprint")
            for f in np.flatnonzero(active):      # a relative write lands in a different row per fiber
                if half:
                    wg.R16[idx[f] >> 1, 2 * f + (idx[f] & 1)] = bits[f]
                else:
                    wg.R[idx[f], f] = bits[f]
        return write, [None]
    if regid not in (NONE_REG, A0, A1) and not P0 <= regid < P0 + 4:
        Reg(regid, half, 1, limits, pc, repeat + 1)               # footprint check of every repetition
    if regid in (A0, A1):
        def write(x, i, bits, active):               # a0.x/a1.x: signed 16-bit, kept sign-extended
            v = np.asarray(bits).astype(np.uint16).view(np.int16).astype(np.int32).view(np.uint32)
            x.wg.write_full(regid, v, active, pc)
        write.timing = [(u, 0, False) for u in units(regid)]
        return write, list(units(regid))
    if half:
        def write(x, i, bits, active):
            x.wg.write_half(regid + i, bits, active, pc)
    else:
        def write(x, i, bits, active):
            x.wg.write_full(regid + i, bits, active, pc)
    write.timing = [(u, i, half) for i in range(repeat + 1) for u in units(regid + i, half)]
    return write, _dst_rows(regid, half, repeat)


# -- cat1 ------------------------------------------------------------------------------------------
def build_cat1(ins, pc, limits):
    f, name = ins.fields, ins.name
    rpt = ins.repeat
    if name == "movmsk":
        return _movmsk(ins, pc, limits)
    if name in ("swz", "gat", "sct", "movs-immed", "movs-a0"):
        raise _unsupported(ins, pc)
    st, dt = f["SRC_TYPE"], f["DST_TYPE"]
    if C.U8_32 in (st, dt):
        raise _unsupported(ins, pc, "uses type u8_32, which only cat6 loads take")
    shalf, dhalf = st in C.HALF_TYPES, dt in C.HALF_TYPES
    r = f.get("SRC_R", 0) if rpt else 0
    raw = f["SRC"]
    if name == "mov-immed":
        src = Imm(raw, shalf)
    elif name == "mov-const":
        src = Const(raw, shalf, r, limits, pc, reps=rpt + 1)
    elif name == "mov-gpr":
        src = Reg(raw, shalf, r, limits, pc, rpt + 1)
    elif name == "mov-relgpr":
        src = RelReg(sext(raw, 10), shalf, pc)
    elif name == "mov-relconst":
        src = RelConst(sext(raw, 10), shalf, pc)
    else:
        raise _unsupported(ins, pc)
    dst = f["DST"]
    write, wrows = _writer(dst, dhalf and dst not in (A0, A1), pc, limits, rpt, relative=bool(f.get("DST_REL")))
    mode = f.get("ROUND", 0)

    def run(x, active):
        for i in range(rpt + 1):
            bits = src.read(x.wg, x.ctx, i)
            write(x, i, C.convert(bits, st, dt, mode), active)
    return Op(pc, ins, run, rows_of([src], rpt), wrows, timing=timing_of([src], rpt),
              dst_timing=getattr(write, "timing", None))


def _movmsk(ins, pc, limits):
    """movmsk.wN rD: the active-fiber mask of the wave, 32 fibers per register."""
    rpt = ins.repeat
    write, wrows = _writer(ins.fields["DST"], False, pc, limits, rpt)

    def run(x, active):
        wg = x.wg
        bits = active.reshape(wg.waves, wg.wave)
        for i in range(rpt + 1):
            chunk = bits[:, 32 * i:32 * i + 32]
            words = (chunk.astype(np.uint64) << np.arange(chunk.shape[1], dtype=np.uint64)).sum(axis=1)
            write(x, i, np.repeat(words.astype(np.uint32), wg.wave), active)
    return Op(pc, ins, run, (), wrows, dst_timing=getattr(write, "timing", None))


# -- cat2 ------------------------------------------------------------------------------------------
def _fcmp(cond):
    return (np.less, np.less_equal, np.greater, np.greater_equal, np.equal, np.not_equal)[cond]


def _rndaz(a):
    return np.trunc(a + np.copysign(0.5, a))


# name -> (kind, function); kind: f float, i signed int, u unsigned int, b bits
_CAT2 = {
    "add.f": ("f", np.add), "mul.f": ("f", np.multiply), "min.f": ("f", np.fmin), "max.f": ("f", np.fmax),
    "sign.f": ("f1", np.sign), "absneg.f": ("f1", lambda a: a), "floor.f": ("f1", np.floor),
    "ceil.f": ("f1", np.ceil), "rndne.f": ("f1", np.rint), "rndaz.f": ("f1", _rndaz), "trunc.f": ("f1", np.trunc),
    "cmps.f": ("fcmp", None),
    "add.u": ("u", np.add), "add.s": ("i", np.add), "sub.u": ("u", np.subtract), "sub.s": ("i", np.subtract),
    "min.u": ("u", np.minimum), "min.s": ("i", np.minimum), "max.u": ("u", np.maximum), "max.s": ("i", np.maximum),
    "cmps.u": ("ucmp", None), "cmps.s": ("icmp", None), "absneg.s": ("i1", lambda a: a),
    "and.b": ("b", np.bitwise_and), "or.b": ("b", np.bitwise_or), "xor.b": ("b", np.bitwise_xor),
    "not.b": ("b1", np.invert),
    "mul.u24": ("u", lambda a, b: (a & 0xFFFFFF) * (b & 0xFFFFFF)),
    "mul.s24": ("i", lambda a, b: _s24(a) * _s24(b)),
    "mull.u": ("u", lambda a, b: (a & 0xFFFF) * (b & 0xFFFF)),
    "shl.b": ("shift", "shl"), "shr.b": ("shift", "shr"), "ashr.b": ("shift", "ashr"),
    "getbit.b": ("shift", "getbit"),
    "bfrev.b": ("bits1", "bfrev"), "clz.b": ("bits1", "clz"), "clz.s": ("bits1", "clzs"),
    "cbits.b": ("bits1", "cbits"),
}


def _s24(a):
    a = a & 0xFFFFFF
    return np.where(a & 0x800000, a - 0x1000000, a)


def _bits1(which, a, width):
    """bfrev/clz/clz.s/cbits on ``width``-bit values held in int64."""
    if which == "cbits":
        return np.bitwise_count(a.astype(np.uint64)).astype(np.int64)
    if which == "bfrev":
        out = np.zeros_like(a)
        for b in range(width):
            out |= ((a >> b) & 1) << (width - 1 - b)
        return out
    if which == "clzs":                      # count the leading bits equal to the sign bit
        a = np.where((a >> (width - 1)) & 1, ~a & ((1 << width) - 1), a)
    n = np.full(a.shape, -1, np.int64)       # -1 when there is no set bit (mesa's find_lsb relies on it)
    for b in range(width - 1, -1, -1):
        n[(n < 0) & (((a >> b) & 1) == 1)] = width - 1 - b
    return n


def build_cat2(ins, pc, limits):
    f, name = ins.fields, ins.name
    spec = _CAT2.get(name)
    if spec is None:
        raise _unsupported(ins, pc)
    kind, fn = spec
    full = bool(f["FULL"])
    half = not full
    rpt = ins.repeat
    r1 = f.get("SRC1_R", 0) if rpt else 0
    r2 = f.get("SRC2_R", 0) if rpt else 0
    float_op = kind in ("f", "f1", "fcmp")
    s1, m1 = multisrc(f["SRC1"], half, r1, limits, pc, float_op, rpt + 1)
    srcs, mods = [s1], [m1]
    if kind not in ("f1", "i1", "b1", "bits1"):
        s2, m2 = multisrc(f["SRC2"], half, r2, limits, pc, float_op, rpt + 1)
        srcs.append(s2)
        mods.append(m2)
    dst = f["DST"]
    to_pred = P0 <= dst < P0 + 4
    dhalf = bool(f.get("DST_HALF")) and not to_pred
    write, wrows = _writer(dst, dhalf, pc, limits, rpt)
    sat, ei = bool(f.get("SAT")), bool(f.get("EI"))
    cond = f.get("COND", 0)
    width = 16 if half else 32
    mask = (1 << width) - 1
    wrap = (lambda v: v & mask)

    def fsrc(x, i, k):
        a = C.as_float(srcs[k].read(x.wg, x.ctx, i), half)
        m = mods[k]
        if m & 2:
            a = np.abs(a)
        return -a if m & 1 else a

    def isrc(x, i, k, signed):
        bits = srcs[k].read(x.wg, x.ctx, i)
        a = C.value_of(bits, C.S16 if half else C.S32) if signed else C.value_of(bits, C.U16 if half else C.U32)
        m = mods[k]
        if kind in ("b", "b1", "shift", "bits1"):
            return (~a & mask) if m & 1 else a           # (neg) on a .b source is a bitwise NOT
        if m & 2:
            a = np.abs(C.value_of(bits, C.S16 if half else C.S32))
        return -a if m & 1 else a

    def fout(x, i, v, active):
        if sat:
            v = np.clip(v, 0.0, 1.0)
        write(x, i, C.to_bits(v, dhalf), active)

    def iout(x, i, v, active):
        bits = v & ((1 << 16) - 1 if dhalf else 0xFFFFFFFF)
        write(x, i, bits.astype(np.uint16 if dhalf else np.uint32), active)

    if kind in ("f", "f1"):
        def run(x, active):
            with np.errstate(all="ignore"):
                for i in range(rpt + 1):
                    args = [fsrc(x, i, k) for k in range(len(srcs))]
                    fout(x, i, fn(*args), active)
    elif kind == "fcmp":
        cmp = _fcmp(cond)

        def run(x, active):
            with np.errstate(all="ignore"):
                for i in range(rpt + 1):
                    iout(x, i, cmp(fsrc(x, i, 0), fsrc(x, i, 1)).astype(np.int64), active)
    elif kind in ("ucmp", "icmp"):
        cmp = _fcmp(cond)
        signed = kind == "icmp"

        def run(x, active):
            for i in range(rpt + 1):
                iout(x, i, cmp(isrc(x, i, 0, signed), isrc(x, i, 1, signed)).astype(np.int64), active)
    elif kind in ("u", "i", "i1", "b", "b1"):
        signed = kind in ("i", "i1")
        lo, hi = (-(1 << (width - 1)), (1 << (width - 1)) - 1) if signed else (0, mask)

        def run(x, active):
            for i in range(rpt + 1):
                args = [isrc(x, i, k, signed) for k in range(len(srcs))]
                v = fn(*args)
                if ei and name in ("add.u", "add.s"):
                    v = v >> 1
                if sat and name in ("add.u", "add.s", "sub.u", "sub.s"):
                    v = np.clip(v, lo, hi)
                iout(x, i, wrap(v) if not dhalf else v, active)
    elif kind == "shift":
        def run(x, active):
            for i in range(rpt + 1):
                a, b = isrc(x, i, 0, fn == "ashr"), isrc(x, i, 1, False) & (width - 1)
                if fn == "shl":
                    v = a << b
                elif fn == "getbit":
                    v = (a >> b) & 1
                else:
                    v = a >> b
                iout(x, i, wrap(v), active)
    else:  # bits1
        def run(x, active):
            for i in range(rpt + 1):
                iout(x, i, wrap(_bits1(fn, isrc(x, i, 0, False), width)), active)
    return Op(pc, ins, run, rows_of(srcs, rpt), wrows, timing=timing_of(srcs, rpt),
              dst_timing=getattr(write, "timing", None))


# -- cat3 ------------------------------------------------------------------------------------------
_CAT3 = {
    "mad.f32": "f", "mad.f16": "f",
    "mad.u16": ("u", lambda a, b, c: (a & 0xFFFF) * (b & 0xFFFF) + c),
    "mad.s16": ("i", lambda a, b, c: _s16(a) * _s16(b) + c),
    "madsh.u16": ("u", lambda a, b, c: (((a & 0xFFFF) * (b & 0xFFFF)) << 16) + c),
    "madsh.m16": ("u", lambda a, b, c: (((a >> 16) * (b & 0xFFFF)) << 16) + c),
    "mad.u24": ("u", lambda a, b, c: (a & 0xFFFFFF) * (b & 0xFFFFFF) + c),
    "mad.s24": ("i", lambda a, b, c: _s24(a) * _s24(b) + c),
    "sel.b16": ("sel", None), "sel.b32": ("sel", None),
    "sad.s16": ("i", lambda a, b, c: np.abs(a - b) + c), "sad.s32": ("i", lambda a, b, c: np.abs(a - b) + c),
}


def _s16(a):
    a = a & 0xFFFF
    return np.where(a & 0x8000, a - 0x10000, a)


def build_cat3(ins, pc, limits):
    f, name = ins.fields, ins.name
    spec = _CAT3.get(name)
    if spec is None:
        raise _unsupported(ins, pc)
    half = not f.get("FULL", 1)
    rpt = ins.repeat
    r1 = f.get("SRC1_R", 0) if rpt else 0
    r2 = f.get("SRC2_R", 0) if rpt else 0
    r3 = f.get("SRC3_R", 0) if rpt else 0
    float_op = spec == "f"
    imm = bool(f.get("IMMED_ENCODING"))
    srcs = [cat3src(f["SRC1"], half, r1, limits, pc, imm, float_op, rpt + 1),
            Reg(f["SRC2"], half, r2, limits, pc, rpt + 1),
            cat3src(f["SRC3"], half, r3, limits, pc, imm, float_op, rpt + 1)]
    negs = [bool(f.get("SRC1_NEG")), bool(f.get("SRC2_NEG")), bool(f.get("SRC3_NEG"))]
    dst = f["DST"]
    dhalf = bool(f.get("DST_HALF"))
    write, wrows = _writer(dst, dhalf, pc, limits, rpt)
    sat = bool(f.get("SAT"))

    if spec == "f":
        def run(x, active):
            with np.errstate(all="ignore"):
                for i in range(rpt + 1):
                    a, b, c = (C.as_float(s.read(x.wg, x.ctx, i), half) for s in srcs)
                    a, b, c = (-v if n else v for v, n in zip((a, b, c), negs))
                    # not fused: the product is rounded to the source precision before the add
                    prod = C.as_float(C.to_bits(a * b, half), half)
                    v = prod + c
                    if sat:
                        v = np.clip(v, 0.0, 1.0)
                    write(x, i, C.to_bits(v, dhalf), active)
    else:
        kind, fn = spec
        signed = kind == "i"
        mask = 0xFFFF if dhalf else 0xFFFFFFFF

        def run(x, active):
            for i in range(rpt + 1):
                vals = []
                for s, n in zip(srcs, negs):
                    bits = s.read(x.wg, x.ctx, i)
                    v = C.value_of(bits, (C.S16 if half else C.S32) if signed else (C.U16 if half else C.U32))
                    vals.append(-v if n else v)
                if kind == "sel":
                    v = np.where(vals[1] != 0, vals[0], vals[2])
                else:
                    v = fn(*vals)
                write(x, i, (v & mask).astype(np.uint16 if dhalf else np.uint32), active)
    return Op(pc, ins, run, rows_of(srcs, rpt), wrows, timing=timing_of(srcs, rpt, cat3=True),
              dst_timing=getattr(write, "timing", None))
