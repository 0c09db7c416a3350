"""Decode gfx11 machine code into structured instructions (and llvm-mc's canonical text).

`decode(data, offset)` returns (Instruction, size). An Instruction carries what an executor needs:
the mnemonic, the encoding family, the opcode, and one Operand per printed operand with register
numbers, widths, constant codes, literal bits and source modifiers; instruction-level modifiers
(clamp, omod, op_sel, cache bits, offsets) are in `.modifiers` and DPP controls in `.dpp`.
"""
from assembler.errors import AssemblerError

from . import operands as O
from .formats import FORMATS, family_of
from .simm import PRINTERS
from .tables import ACCEPT, ALU, DPP_ACCEPT


class _Record:
    """A small record with named fields, compared and printed field by field (a plain class, so
    importing the decoder does not import dataclasses and inspect)."""
    __slots__ = ()

    def __eq__(self, other):
        return type(other) is type(self) and all(getattr(self, k) == getattr(other, k) for k in self.__slots__)

    __hash__ = None

    def __repr__(self):
        return "%s(%s)" % (type(self).__name__, ", ".join("%s=%r" % (k, getattr(self, k)) for k in self.__slots__))


class Operand(_Record):
    __slots__ = ("role", "kind", "value", "nregs", "dtype", "neg", "abs", "text")

    def __init__(self, role, kind, value, nregs=1, dtype="", neg=False, abs=False, text=""):
        self.role = role        # encoding field it comes from: vdst, sdst, src0, vsrc1, simm16, ...
        self.kind = kind        # 'vgpr' | 'sgpr' | 'const' | 'literal' | 'imm' | 'fixed'
        self.value = value      # register number, operand code (sgpr/const), literal bits, immediate
        self.nregs = nregs
        self.dtype = dtype      # constant type of a source: b32 f16 i16 bf16 pf16 pbf16 f64 i64
        self.neg = neg
        self.abs = abs
        self.text = text


class Instruction(_Record):
    __slots__ = ("mnemonic", "family", "opcode", "size", "operands", "modifiers", "literal", "dpp",
                 "text", "second")

    def __init__(self, mnemonic, family, opcode, size, operands, modifiers=None, literal=None,
                 dpp=None, text="", second=None):
        self.mnemonic, self.family, self.opcode, self.size = mnemonic, family, opcode, size
        self.operands = operands
        self.modifiers = {} if modifiers is None else modifiers
        self.literal = literal
        self.dpp = dpp
        self.text = text
        self.second = second    # VOPD: the Y half (this object is the X half)

    def __str__(self):
        return self.text


def _invalid(data, offset, why=""):
    word = int.from_bytes(data[offset:offset + 4], "little")
    return AssemblerError("invalid instruction word 0x%08x at offset %d%s"
                          % (word, offset, ": " + why if why else ""))


def _const_value_text(bits, dtype, literal):
    """Text of a constant of the given type; `bits` is the literal dword or the inline code."""
    if not literal:
        if dtype == "i16" and bits >= 240:
            return "0x%x" % O.INLINE_BITS[16][bits]     # float codes print as their f16 bits
        return O.inline_text(bits, 64 if dtype in ("f64", "i64") else 32)
    if dtype in ("f16", "i16", "bf16"):
        v = bits & 0xFFFF
        s = v - 0x10000 if v & 0x8000 else v
        if -16 <= s <= 64:
            return str(s)
        if dtype == "f16":
            for code, fb in O.INLINE_BITS[16].items():
                if fb == v:
                    return O.inline_text(code, 16)
        return "0x%x" % v
    if dtype == "f64":
        v = bits << 32
        for code, fb in O.INLINE_BITS[64].items():
            if fb == v:
                return O.inline_text(code, 64)
        return "0x%x" % bits if bits else "0"
    s = bits - (1 << 32) if bits & 0x80000000 else bits
    if -16 <= s <= 64:
        return str(s)
    if dtype != "i64":
        for code, fb in O.INLINE_BITS[32].items():
            if fb == bits:
                return O.inline_text(code, 32)
    return "0x%x" % bits


def _source(role, code, nregs, dtype, lit):
    """Operand for a source code (0..511); `lit` is the literal dword when code == 255."""
    if code >= 256:
        return Operand(role, "vgpr", code - 256, nregs, dtype, text=O.vgpr_text(code - 256, nregs))
    if code == O.LITERAL:
        return Operand(role, "literal", lit, nregs, dtype, text=_const_value_text(lit, dtype, True))
    if 128 <= code <= 208 or 240 <= code <= 248:
        return Operand(role, "const", code, nregs, dtype, text=_const_value_text(code, dtype, False))
    if nregs > 1 and (code <= 105 or 108 <= code <= 123):
        code &= ~(min(nregs, 4) - 1)         # llvm-mc ignores the low bits of a misaligned tuple
    return Operand(role, "sgpr", code, nregs, dtype, text=O.sgpr_text(code, nregs))


DPP_ROW = {0x100: "row_shl", 0x110: "row_shr", 0x120: "row_ror", 0x150: "row_share",
           0x160: "row_xmask"}


def dpp16_text(ctl):
    if ctl <= 0xFF:
        return "quad_perm:[%d,%d,%d,%d]" % (ctl & 3, ctl >> 2 & 3, ctl >> 4 & 3, ctl >> 6 & 3)
    if ctl == 0x140:
        return "row_mirror"
    if ctl == 0x141:
        return "row_half_mirror"
    base = ctl & 0x1F0
    if base in DPP_ROW and (ctl & 15 or base >= 0x150):
        return "%s:%d" % (DPP_ROW[base], ctl & 15)
    return None


def _lit(data, pos, offset, what="literal"):
    """The dword after an instruction (literal constant, DPP control); a word cut short is invalid."""
    if pos + 4 > len(data):
        raise _invalid(data, offset, "truncated " + what)
    return int.from_bytes(data[pos:pos + 4], "little")


_ABS_BIT = {"src0": 8, "src1": 9, "src2": 10}
_NEG_BIT = {"src0": 61, "src1": 62, "src2": 63}
_OPSEL_BIT = {"src0": 11, "src1": 12, "src2": 13}
_OPSEL_HI_BIT = {"src0": 59, "src1": 60, "src2": 14}
_NEG_HI_BIT = {"src0": 8, "src1": 9, "src2": 10}
_OMOD = {1: "mul:2", 2: "mul:4", 3: "div:2"}


def _decode_alu(fam, op, entry, word, data, offset):
    mnem, spec, fmask, fval, mmask, dpp16m, dpp8m, dppmods, opsel_map = entry
    if (word ^ fval) & fmask:
        raise _invalid(data, offset)
    size, fields = FORMATS[fam]
    end = offset + size
    mods_bits = word & mmask
    src0 = (word >> fields["src0"][0]) & 0x1FF if "src0" in fields else None
    dpp = None
    if src0 in (O.DPP16, O.DPP8, O.DPP8FI) and (dpp16m if src0 == O.DPP16 else dpp8m):
        ctl = _lit(data, end, offset, "DPP word")
        end += 4
        if src0 == O.DPP16:
            ctext = dpp16_text((ctl >> 8) & 0x1FF)
            if ctext is None or ctl & 0xFC0000 & ~dppmods:
                raise _invalid(data, offset, "reserved dpp_ctrl")
            dpp = dict(kind="dpp16", ctrl=(ctl >> 8) & 0x1FF, text=ctext, fi=ctl >> 18 & 1,
                       bound_ctrl=ctl >> 19 & 1, row_mask=ctl >> 28 & 15, bank_mask=ctl >> 24 & 15)
        else:
            sel = [(ctl >> (8 + 3 * i)) & 7 for i in range(8)]
            dpp = dict(kind="dpp8", sel=sel, fi=int(src0 == O.DPP8FI))
        dpp["vsrc0"] = ctl & 0xFF
        dpp["word"] = ctl
        mnem = dpp16m if src0 == O.DPP16 else dpp8m
        if dppmods >> 26 & 7:           # integer sources whose VOP3 neg bit means sext only in DPP
            mods_bits |= word & ((dppmods >> 26 & 7) << 61)
    lit = None
    ops = []
    vop3 = fam in ("VOP3", "VOP3SD")
    vop3p = fam == "VOP3P"
    t16 = fam == "VOP1" and mnem.startswith("v_mov_b16")     # the one true16 VOP1 form
    mix = vop3p and mnem.startswith("v_fma_mix")     # neg_lo/neg_hi print as -x and |x| there
    vinterp = fam == "VINTERP"
    nsrc = 0
    for s in spec:
        kind = s[0]
        if kind == "src":
            _, role, nregs, dtype, acc = s
            code = (word >> fields[role][0]) & ((1 << fields[role][1]) - 1)
            if dpp is not None and role == "src0":
                code = 256 + dpp["vsrc0"]
                if not (ACCEPT[acc] >> code) & 1 and not t16:
                    raise _invalid(data, offset, "DPP source v%d" % dpp["vsrc0"])
            elif dpp is not None and role != "src0" and (fam, op) in DPP_ACCEPT:
                if not (ACCEPT[dict(DPP_ACCEPT[(fam, op)])[role]] >> code) & 1:
                    raise _invalid(data, offset, "operand %s of a DPP form" % role)
            elif not (ACCEPT[acc] >> code) & 1 and not (t16 and code >= 256):
                raise _invalid(data, offset, "operand %s" % role)
            if code == O.LITERAL:
                if lit is None:
                    lit = _lit(data, end, offset)
                    end += 4
            o = _source(role, code, nregs, dtype, lit)
            if t16 and code >= 256:
                v = code - 256
                o.value, o.text = v & 127, "v%d.%s" % (v & 127, "lh"[v >> 7])
            nsrc += 1
            if vinterp:
                o.neg = bool(mods_bits >> _NEG_BIT[role] & 1)
            elif vop3 or mix:
                o.abs = bool(mods_bits >> _ABS_BIT[role] & 1)
                o.neg = bool(mods_bits >> _NEG_BIT[role] & 1)
                if o.neg and dpp is not None and dppmods >> (26 + _NEG_BIT[role] - 61) & 1:
                    o.dtype = dtype = "i32"
            elif dpp is not None and dpp["kind"] == "dpp16" and fam != "VOP3P":
                i = 0 if role == "src0" else 1
                o.neg = bool(dpp["word"] >> (20 + 2 * i) & 1 and dppmods >> (34 + 2 * i) & 1)
                o.abs = bool(dpp["word"] >> (21 + 2 * i) & 1 and dppmods >> (35 + 2 * i) & 1)
                if o.neg and dppmods >> (30 + i) & 1:
                    o.dtype = dtype = "i32"
            t = o.text
            if o.abs:
                t = "|%s|" % t
            if o.neg:
                if dtype == "i32":
                    t = "sext(%s)" % t
                else:
                    t = ("neg(%s)" % t) if (o.kind in ("const", "literal") and not o.abs) else "-" + t
            o.text = t
            ops.append(o)
        elif kind == "reg":
            role, rk, nregs = s[1], s[2], s[3]
            v = (word >> fields[role][0]) & ((1 << fields[role][1]) - 1)
            if rk == "v":
                if t16:
                    o = Operand(role, "vgpr", v & 127, 1, text="v%d.%s" % (v & 127, "lh"[v >> 7]))
                    ops.append(o)
                    continue
                if v + nregs > s[4]:
                    raise _invalid(data, offset, "register v%d out of range" % v)
                o = Operand(role, "vgpr", v, nregs, text=O.vgpr_text(v, nregs))
                if role == "vsrc1" and dpp is not None and dpp["kind"] == "dpp16":
                    o.neg = bool(dpp["word"] >> 22 & 1 and dppmods >> 36 & 1)
                    o.abs = bool(dpp["word"] >> 23 & 1 and dppmods >> 37 & 1)
                    if o.abs:
                        o.text = "|%s|" % o.text
                    if o.neg:
                        o.text = ("sext(%s)" if dppmods >> 31 & 1 else "-%s") % o.text
                ops.append(o)
            else:
                if not (ACCEPT[s[4]] >> v) & 1:
                    raise _invalid(data, offset, "operand %s" % role)
                if nregs > 1 and (v <= 105 or 108 <= v <= 123):
                    v &= ~(min(nregs, 4) - 1)
                t = O.sgpr_text(v, nregs)
                if t is None or (v <= 105 and v + nregs > 106) or (108 <= v <= 123 and v + nregs > 124):
                    raise _invalid(data, offset, "operand %s" % role)
                ops.append(Operand(role, "sgpr", v, nregs, text=t))
        elif kind == "fixed":
            ops.append(Operand("implicit", "fixed", 106, 1, text=s[1]))
        elif kind == "lit":
            if lit is None:
                lit = _lit(data, end, offset)
                end += 4
            ops.append(Operand("simm32", "literal", lit, 1, text="0x%x" % lit))
        elif kind == "imm":
            v = word & 0xFFFF
            style = s[2]
            t = PRINTERS[style](v)
            if t is None:
                raise _invalid(data, offset, "immediate")
            if style == "opt_dec" and v == 0:
                continue
            ops.append(Operand("simm16", "imm", v, text=t))
        elif kind == "msg":
            v = word & 0xFF
            t = PRINTERS["sendmsg"](v)
            ops.append(Operand("ssrc0", "imm", v, text=t))
    modifiers = {}
    tail = []
    if vop3:
        opsel = (word >> 11) & 15 if mmask & (15 << 11) else 0
        if mods_bits & (15 << 11):
            bits = [0] * opsel_map[0]
            for i in range(4):
                if mods_bits >> (11 + i) & 1:
                    bits[opsel_map[1 + i]] = 1
            tail.append("op_sel:[%s]" % ",".join(map(str, bits)))
        modifiers["op_sel"] = opsel
        if mods_bits >> 15 & 1:
            tail.append("clamp")
        omod = (mods_bits >> 59) & 3
        if omod:
            tail.append(_OMOD[omod])
        modifiers.update(clamp=(mods_bits >> 15) & 1, omod=omod)
    elif vop3p:
        n = nsrc
        roles = ("src0", "src1", "src2")[:n]
        opsel = [(word >> _OPSEL_BIT[r]) & 1 for r in roles]
        opsel_hi = [(word >> _OPSEL_HI_BIT[r]) & 1 for r in roles]
        neg_lo = [(word >> _NEG_BIT[r]) & 1 for r in roles]
        neg_hi = [(word >> _NEG_HI_BIT[r]) & 1 for r in roles]
        default_hi = 0 if mnem.startswith("v_fma_mix") else 1
        if any(opsel) and mmask & (7 << 11):
            tail.append("op_sel:[%s]" % ",".join(map(str, opsel)))
        if any(b != default_hi for b in opsel_hi) and mmask & (3 << 59 | 1 << 14):
            tail.append("op_sel_hi:[%s]" % ",".join(map(str, opsel_hi)))
        if any(neg_lo) and mmask & (7 << 61) and not mix:
            tail.append("neg_lo:[%s]" % ",".join(map(str, neg_lo)))
        if any(neg_hi) and mmask & (7 << 8) and not mix:
            tail.append("neg_hi:[%s]" % ",".join(map(str, neg_hi)))
        if mods_bits >> 15 & 1:
            tail.append("clamp")
        modifiers.update(op_sel=opsel, op_sel_hi=opsel_hi, neg_lo=neg_lo, neg_hi=neg_hi,
                         clamp=(mods_bits >> 15) & 1)
    elif vinterp:
        if mods_bits >> 15 & 1:
            tail.append("clamp")
        if mods_bits & (15 << 11):
            bits = [0] * opsel_map[0]
            for i in range(4):
                if mods_bits >> (11 + i) & 1:
                    bits[opsel_map[1 + i]] = 1
            tail.append("op_sel:[%s]" % ",".join(map(str, bits)))
        tail.append("wait_exp:%d" % (word >> 8 & 7))
        modifiers.update(clamp=(mods_bits >> 15) & 1, op_sel=(mods_bits >> 11) & 15,
                         wait_exp=word >> 8 & 7)
    if dpp is not None:
        if dpp["kind"] == "dpp16":
            tail.append(dpp["text"])
            tail.append("row_mask:0x%x bank_mask:0x%x" % (dpp["row_mask"], dpp["bank_mask"]))
            if dpp["bound_ctrl"]:
                tail.append("bound_ctrl:1")
            if dpp["fi"]:
                tail.append("fi:1")
        else:
            tail.append("dpp8:[%s]" % ",".join(map(str, dpp["sel"])))
            if dpp["fi"]:
                tail.append("fi:1")
    text = mnem
    if ops:
        text += " " + ", ".join(o.text for o in ops)
    if tail:
        text += " " + " ".join(tail)
    return Instruction(mnem, fam, op, end - offset, ops, modifiers, lit, dpp, text)


def decode(data, offset=0):
    """Decode one instruction at `offset`: (Instruction, size in bytes)."""
    try:
        return _decode(data, offset)
    except AssemblerError as e:
        fam = family_of(int.from_bytes(data[offset:offset + 4], "little")) if offset + 4 <= len(data) \
            else None
        if fam is None or fam in e.reason or not e.reason.startswith("invalid"):
            raise
        raise AssemblerError("%s (%s encoding)" % (e.reason, fam)) from None


def _decode(data, offset):
    if offset + 4 > len(data):
        raise AssemblerError("truncated instruction at offset %d (%d bytes left)"
                             % (offset, len(data) - offset))
    dword = int.from_bytes(data[offset:offset + 4], "little")
    fam = family_of(dword)
    if fam is None:
        raise _invalid(data, offset)
    size = FORMATS[fam][0]
    if offset + size > len(data):
        raise AssemblerError("truncated %s instruction at offset %d" % (fam, offset))
    word = int.from_bytes(data[offset:offset + size], "little")
    if fam in ALU or fam == "VOP3":
        fields = FORMATS[fam][1]
        op = (word >> fields["op"][0]) & ((1 << fields["op"][1]) - 1)
        entry = ALU.get(fam, {}).get(op)
        if entry is None and fam == "VOP3":
            entry = ALU["VOP3SD"].get(op)
            fam = "VOP3SD"
        if entry is None:
            raise _invalid(data, offset)
        ins = _decode_alu(fam, op, entry, word, data, offset)
        return ins, ins.size
    if fam == "MIMG":
        from . import mimg
        return mimg.decode(word, data, offset)
    from . import decode_mem
    if fam == "VOPD":
        return decode_mem.decode_vopd(word, data, offset)
    if fam in ("LDSDIR", "EXP"):
        return decode_mem.decode_export(fam, word, data, offset)
    return decode_mem.decode(fam, word, data, offset)


def disassemble(data):
    """One canonical text line per instruction (disasm.py's plans, this module's decoder for
    what they leave)."""
    from .disasm import disassemble as fast
    return fast(data)
