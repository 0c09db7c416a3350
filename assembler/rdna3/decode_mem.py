"""Decode the memory families: SMEM, DS, FLAT/GLOBAL/SCRATCH, MUBUF, MTBUF, LDSDIR and EXP
(and VOPD's pairs).

Operand lists come from tables.MEM; how addresses, offsets and cache bits print is written out
here per family, in llvm-mc's order.
"""
from . import operands as O
from .decoder import Instruction, Operand, _invalid, _lit, _source
from .formats import FLAT_SEGMENTS, FORMATS
from .simm import int16_text
from .tables import ACCEPT, BUF_FORMAT_NAMES, MEM


def _field(fam, word, name):
    lo, width = FORMATS[fam][1][name]
    return (word >> lo) & ((1 << width) - 1)


def _sgpr(data, offset, role, code, nregs, acc, scale=1):
    if not (ACCEPT[acc] >> code) & 1:
        raise _invalid(data, offset, "operand %s" % role)
    code *= scale
    if nregs > 1 and (code <= 105 or 108 <= code <= 123):
        code &= ~(min(nregs, 4) - 1)
    t = O.sgpr_text(code, nregs)
    if t is None:
        raise _invalid(data, offset, "operand %s" % role)
    return Operand(role, "sgpr", code, nregs, text=t)


def _vgpr(data, offset, role, v, nregs):
    if v + nregs > 256:
        raise _invalid(data, offset, "register v%d out of range" % v)
    return Operand(role, "vgpr", v, nregs, text=O.vgpr_text(v, nregs))


KEEP = frozenset(("op", "seg", "vdst", "addr", "data", "data0", "data1", "saddr", "sdata", "sbase",
                  "soffset", "vdata", "vaddr", "srsrc"))


def swizzle_text(v):
    """ds_swizzle_b32 offset as llvm-mc prints it."""
    if v & 0xFF00 == 0x8000:
        return "swizzle(QUAD_PERM,%d,%d,%d,%d)" % (v & 3, v >> 2 & 3, v >> 4 & 3, v >> 6 & 3)
    if v & 0x8000:
        return str(v)
    and_m, or_m, xor_m = v & 31, v >> 5 & 31, v >> 10 & 31
    if and_m == 31 and or_m == 0 and bin(xor_m).count("1") == 1:
        return "swizzle(SWAP,%d)" % xor_m
    if and_m == 31 and or_m == 0 and xor_m and not (xor_m + 1) & xor_m:
        return "swizzle(REVERSE,%d)" % (xor_m + 1)
    group = 32 - and_m
    if group > 1 and not group & (group - 1) and or_m < group and xor_m == 0:
        return "swizzle(BROADCAST,%d,%d)" % (group, or_m)
    p0, p1 = or_m ^ xor_m, ((31 & and_m) | or_m) ^ xor_m
    chars = []
    for i in range(4, -1, -1):
        b0, b1 = p0 >> i & 1, p1 >> i & 1
        chars.append(("01"[b0]) if b0 == b1 else ("pi"[b0]))
    return 'swizzle(BITMASK_PERM,"%s")' % "".join(chars)


def _hex_signed(v):
    return "-0x%x" % -v if v < 0 else "0x%x" % v


def decode(fam, word, data, offset):
    name = FLAT_SEGMENTS.get(_field(fam, word, "seg")) if fam == "FLAT" else fam
    op = _field(fam, word, "op")
    entry = MEM.get(name, {}).get(op)
    if entry is None:
        raise _invalid(data, offset)
    mnem, spec, fmask, fval, mmask = entry
    if (word ^ fval) & fmask:
        raise _invalid(data, offset)
    size = FORMATS[fam][0]
    end = offset + size
    ops, tail, mods = [], [], {}
    fields = FORMATS[fam][1]

    def f(n):
        lo, width = fields[n]
        return (word >> lo) & ((1 << width) - 1) if (mmask >> lo) & 1 or n in KEEP else 0

    lit = None
    if fam == "SMEM":
        soff, off = f("soffset"), f("offset")
        off = off - (1 << 21) if off & (1 << 20) else off
        for s in spec:
            if s[0] == "imm":
                ops.append(Operand("sdata", "imm", f("sdata"), text=int16_text(f("sdata"))))
            elif s[1] == "sdata":
                ops.append(_sgpr(data, offset, "sdata", f("sdata"), s[3], s[4]))
            elif s[1] == "sbase":
                ops.append(_sgpr(data, offset, "sbase", f("sbase"), s[3], s[4], 2))
            elif s[1] == "soffset":
                if soff == 124:
                    ops.append(Operand("offset", "imm", off, text=_hex_signed(off) if off else "null"))
                else:
                    if not (ACCEPT[s[4]] >> soff) & 1:
                        raise _invalid(data, offset, "operand soffset")
                    if soff == O.LITERAL:
                        lit = _lit(data, end, offset)
                        end += 4
                    ops.append(_source("soffset", soff, 1, "b32", lit))
                    if off:
                        tail.append("offset:" + _hex_signed(off))
        mods.update(offset=off, soffset=soff, glc=f("glc"), dlc=f("dlc"))
        for bit in ("glc", "dlc"):
            if mmask & (1 << FORMATS[fam][1][bit][0]) and f(bit):
                tail.append(bit)
    elif fam == "DS":
        for s in spec:
            ops.append(_vgpr(data, offset, s[1], f(s[1]), s[3]))
        o0, o1 = f("offset0"), f("offset1")
        if mnem == "ds_swizzle_b32":
            if (o0 or o1) and mmask & 0xFFFF:
                tail.append("offset:" + swizzle_text(o1 << 8 | o0))
        elif "2addr" in mnem:
            if o0 and mmask & 0xFF:
                tail.append("offset0:%d" % o0)
            if o1 and mmask & 0xFF00:
                tail.append("offset1:%d" % o1)
        elif (o0 or o1) and mmask & 0xFFFF:
            tail.append("offset:%d" % (o1 << 8 | o0))
        if f("gds") and mmask & (1 << 17):
            tail.append("gds")
        mods.update(offset0=o0, offset1=o1, gds=f("gds"))
    elif fam == "FLAT":
        saddr, sve, glc = f("saddr"), f("sve"), f("glc")
        atomic_rtn = "_atomic_" in mnem
        for s in spec:
            role = s[1] if s[0] != "off" else "off"
            if role == "vdst":
                if atomic_rtn and not glc:
                    continue
                ops.append(_vgpr(data, offset, "vdst", f("vdst"), s[3]))
            elif role == "addr":
                if name == "SCRATCH" and not sve:
                    ops.append(Operand("addr", "off", 0, text="off"))
                else:
                    n = 2 if (name == "FLAT" or (name == "GLOBAL" and saddr == 124)) else 1
                    ops.append(_vgpr(data, offset, "addr", f("addr"), n))
            elif role == "data":
                ops.append(_vgpr(data, offset, "data", f("data"), s[3]))
            elif role == "saddr":
                if saddr == 124:
                    ops.append(Operand("saddr", "off", 124, text="off"))
                else:
                    ops.append(_sgpr(data, offset, "saddr", saddr, s[3], s[4]))
            elif role == "off":
                ops.append(Operand("addr", "off", 0, text="off"))
        off = f("offset")
        if name != "FLAT" and off & 0x1000:
            off -= 0x2000
        if off:
            tail.append("offset:%d" % off)
        for bit in ("glc", "slc", "dlc"):
            if f(bit):
                tail.append(bit)
        mods.update(offset=off, glc=glc, slc=f("slc"), dlc=f("dlc"), sve=sve, saddr=saddr)
    else:                                                       # MUBUF / MTBUF
        offen, idxen, tfe = f("offen"), f("idxen"), f("tfe")
        for s in spec:
            role = s[1] if s[0] != "off" else "off"
            if role == "vdata":
                ops.append(_vgpr(data, offset, "vdata", f("vdata"), s[3] + tfe))
            elif role == "vaddr" or role == "off":
                n = offen + idxen
                if n == 0:
                    ops.append(Operand("vaddr", "off", 0, text="off"))
                else:
                    ops.append(_vgpr(data, offset, "vaddr", f("vaddr"), n))
            elif role == "srsrc":
                ops.append(_sgpr(data, offset, "srsrc", f("srsrc"), 4, s[4], 4))
            elif role == "soffset":
                soff = f("soffset")
                if not (ACCEPT[s[4]] >> soff) & 1:
                    raise _invalid(data, offset, "operand soffset")
                if soff == O.LITERAL:
                    lit = _lit(data, end, offset)
                    end += 4
                ops.append(_source("soffset", soff, 1, "b32", lit))
        if fam == "MTBUF":
            fmt = f("format")
            mods["format"] = fmt
            if fmt != 1:
                tail.append("format:[%s]" % BUF_FORMAT_NAMES[fmt] if fmt in BUF_FORMAT_NAMES
                            else "format:%d" % fmt)
        if idxen:
            tail.append("idxen")
        if offen:
            tail.append("offen")
        if f("offset"):
            tail.append("offset:%d" % f("offset"))
        for bit in ("glc", "slc", "dlc", "tfe"):
            if f(bit):
                tail.append(bit)
        mods.update(offset=f("offset"), offen=offen, idxen=idxen, glc=f("glc"), slc=f("slc"),
                    dlc=f("dlc"), tfe=tfe)
    text = mnem
    if ops:
        text += " " + ", ".join(o.text for o in ops)
    if tail:
        text += " " + " ".join(tail)
    ins = Instruction(mnem, name, op, end - offset, ops, mods, lit, None, text)
    return ins, ins.size


def decode_vopd(word, data, offset):
    """VOPD: two VALU halves issued together; the Y half is in `.second`."""
    from .tables import VOPD
    f = FORMATS["VOPD"][1]
    g = lambda n: (word >> f[n][0]) & ((1 << f[n][1]) - 1)  # noqa: E731
    ex, ey = VOPD["X"].get(g("opx")), VOPD["Y"].get(g("opy"))
    if ex is None or ey is None:
        raise _invalid(data, offset)
    end = offset + 8
    lit = None
    vdstx = g("vdstx")
    regs = {"X": dict(vdst=vdstx, src0=g("srcx0"), vsrc1=g("vsrcx1")),
            "Y": dict(vdst=(g("vdsty") << 1) | ((vdstx & 1) ^ 1), src0=g("srcy0"), vsrc1=g("vsrcy1"))}
    halves = []
    for side, (mnem, spec) in (("X", ex), ("Y", ey)):
        r = regs[side]
        if not any(s[0] == "reg" and s[1] == "vsrc1" for s in spec) and r["vsrc1"]:
            raise _invalid(data, offset, "unused vsrc1 of %s" % mnem)
        ops = []
        for s in spec:
            if s[0] == "reg":
                ops.append(Operand(s[1], "vgpr", r[s[1]], 1, text="v%d" % r[s[1]]))
            elif s[0] == "src":
                code = r["src0"]
                if code in (O.DPP8, O.DPP8FI, O.DPP16) or 209 <= code <= 232 or code == 249:
                    raise _invalid(data, offset, "operand src0")
                if code == O.LITERAL and lit is None:
                    lit = _lit(data, end, offset)
                    end += 4
                ops.append(_source("src0", code, 1, s[3], lit))
            else:
                if lit is None:
                    lit = _lit(data, end, offset)
                    end += 4
                ops.append(Operand("simm32", "literal", lit, 1, text="0x%x" % lit))
        halves.append(Instruction(mnem, "VOPD", g("opx" if side == "X" else "opy"), 0, ops, {},
                                  lit, None, mnem + " " + ", ".join(o.text for o in ops)))
    x, y = halves
    x.second = y
    x.size = y.size = end - offset
    x.text = x.text + " :: " + y.text
    return x, x.size


def decode_export(fam, word, data, offset):
    """LDSDIR (LDS parameter / direct loads) and EXP (exports), pixel-shader families."""
    from .tables import EXP_TARGETS, LDSDIR_OPS
    f = FORMATS[fam][1]
    g = lambda n: (word >> f[n][0]) & ((1 << f[n][1]) - 1)  # noqa: E731
    size = FORMATS[fam][0]
    if fam == "LDSDIR":
        mnem = LDSDIR_OPS.get(g("op"))
        if mnem is None or word & 0x00C00000:
            raise _invalid(data, offset)
        ops = [_vgpr(data, offset, "vdst", g("vdst"), 1)]
        if mnem == "lds_param_load":
            t = "attr%d.%s" % (g("attr"), "xyzw"[g("attr_chan")])
            ops.append(Operand("attr", "imm", g("attr") << 2 | g("attr_chan"), text=t))
        mods = dict(wait_vdst=g("wait_vdst"))
        text = "%s %s wait_vdst:%d" % (mnem, ", ".join(o.text for o in ops), g("wait_vdst"))
        ins = Instruction(mnem, fam, g("op"), size, ops, mods, None, None, text)
        return ins, size
    target = EXP_TARGETS.get(g("target"), "invalid_target_%d" % g("target"))
    ops = [Operand("target", "imm", g("target"), text=target)]
    for i in range(4):
        if g("en") >> i & 1:
            ops.append(_vgpr(data, offset, "vsrc%d" % i, g("vsrc%d" % i), 1))
        else:
            ops.append(Operand("vsrc%d" % i, "off", 0, text="off"))
    tail = [m for m in ("done", "row") if g(m)]
    text = "exp %s %s" % (target, ", ".join(o.text for o in ops[1:]))
    text += "".join(" " + ("row_en" if m == "row" else m) for m in tail)
    ins = Instruction("exp", fam, 0, size, ops, dict(done=g("done"), row_en=g("row"), en=g("en")),
                      None, None, text)
    return ins, size
