"""Disassembly to text at llvm-objdump's rate: one compiled plan per opcode, operand text tables.

`disassemble(data)` walks the code as a list of dwords.  The family of each instruction comes
from a 512-entry table of the first dword's top nine bits; the (family, opcode) pair then selects
a plan compiled on first use from the same decode tables as decoder.py: field shifts and masks,
the accepted-operand masks, and the text of every register and inline constant, each written
once.  A plan returns the instruction's text and size, or None for what it does not cover (DPP,
op_sel, true16 moves, VOP3P, VINTERP, MUBUF/MTBUF, images, exports, ds_swizzle, anything invalid or cut
short); the full decoder handles those, so its text and its errors stay the only definition.
tests/test_rdna3_disasm_fast.py holds both to the same text over the llvm-mc corpus, the clang
kernels and random words.
"""
import gc
import sys

from . import operands as O
from .decoder import _source, decode
from .decode_mem import KEEP
from .formats import _ORDER, ENCODING_BITS, FLAT_SEGMENTS, FORMATS
from .simm import PRINTERS, int16_text
from .tables import ACCEPT, ALU, MEM

_OMOD = {1: "mul:2", 2: "mul:4", 3: "div:2"}
_NEG_BIT = {"src0": 61, "src1": 62, "src2": 63}
_ABS_BIT = {"src0": 8, "src1": 9, "src2": 10}
_DPP_CODES = (O.DPP16, O.DPP8, O.DPP8FI)


def _family_table():
    """Family of a first dword by its top nine bits (every family's fixed bits lie within them)."""
    table = [None] * 512
    for top in range(512):
        word = top << 23
        for fam in _ORDER:
            mask, value = ENCODING_BITS[fam]
            if word & mask & 0xFF800000 == value & 0xFF800000 and not mask & ~0xFF800000:
                table[top] = fam
                break
    return table


_FAMILY = _family_table()


class _Texts:
    """Operand text tables, filled on first use."""

    def __init__(self):
        self.src = {}          # (nregs, dtype) -> [text or None per source code]
        self.vgpr = {}         # nregs -> [text per register]
        self.sgpr = {}         # (nregs, accept index) -> [text or None per code]
        self.lit = {}          # (literal, dtype) -> text
        self.imm = {}          # (style, value) -> text or None

    def sources(self, nregs, dtype):
        t = self.src.get((nregs, dtype))
        if t is None:
            t = self.src[(nregs, dtype)] = [None if c == O.LITERAL else _source("src", c, nregs, dtype, None).text
                                            for c in range(512)]
        return t

    def vgprs(self, nregs):
        t = self.vgpr.get(nregs)
        if t is None:
            t = self.vgpr[nregs] = [O.vgpr_text(v, nregs) for v in range(256)]
        return t

    def sgprs(self, nregs, acc, scale=1, alu=True):
        key = (nregs, acc, scale, alu)
        t = self.sgpr.get(key)
        if t is None:
            t = self.sgpr[key] = [self._sgpr(c, nregs, acc, scale, alu) for c in range(512)]
        return t

    @staticmethod
    def _sgpr(v, nregs, acc, scale, alu):
        """The decoders' checks of a scalar register field, as text (None: invalid); ALU fields
        also refuse tuples that run past s105 or ttmp15."""
        if not (ACCEPT[acc] >> v) & 1:
            return None
        v *= scale
        if nregs > 1 and (v <= 105 or 108 <= v <= 123):
            v &= ~(min(nregs, 4) - 1)
        t = O.sgpr_text(v, nregs)
        if t is None or alu and ((v <= 105 and v + nregs > 106) or (108 <= v <= 123 and v + nregs > 124)):
            return None
        return t

    def literal(self, lit, dtype):
        t = self.lit.get((lit, dtype))
        if t is None:
            t = self.lit[(lit, dtype)] = _source("src", O.LITERAL, 1, dtype, lit).text
        return t

    def immediate(self, style, v):
        key = (style, v)
        if key not in self.imm:
            self.imm[key] = PRINTERS[style](v)
        return self.imm[key]


TEXTS = _Texts()


def _field(fields, name):
    lo, width = fields[name]
    return lo, (1 << width) - 1


# -- ALU families -----------------------------------------------------------------------------
def _alu_plan(fam, op, entry):
    """The text plan of one ALU opcode, generated as Python source: each operand is one field
    extraction, one accept-mask test and one table lookup."""
    mnem, spec, fmask, fval, mmask, dpp16m, dpp8m, dppmods, opsel_map = entry
    if fam in ("VOP3P", "VINTERP") or (fam == "VOP1" and mnem.startswith("v_mov_b16")):
        return None
    size, fields = FORMATS[fam]
    vop3 = fam in ("VOP3", "VOP3SD")
    env = {"TEXTS": TEXTS, "DPP": _DPP_CODES, "OMOD": _OMOD, "MNEM": mnem}
    body = ["def plan(code, i, n, out):"]
    emit = body.append
    if size == 4:
        emit("    word = code[i]")
    else:
        emit("    if i + 1 >= n: return 0")
        emit("    word = code[i] | code[i + 1] << 32")
    emit(f"    if (word ^ {fval}) & {fmask}: return 0")
    if "src0" in fields:
        lo, width = fields["src0"]
        emit(f"    if (word >> {lo}) & {(1 << width) - 1} in DPP: return 0")
    emit(f"    mods = word & {mmask}")
    if vop3 and mmask & (15 << 11):
        emit(f"    if mods & {mmask & (15 << 11)}: return 0")
    emit(f"    end = i + {size // 4}")
    emit("    lit = None")
    parts, optional = [], None
    for k, s in enumerate(spec):
        kind = s[0]
        t = f"t{k}"
        if kind == "src":
            _, role, nregs, dtype, acc = s
            lo, width = fields[role]
            env[f"A{k}"], env[f"S{k}"] = ACCEPT[acc], TEXTS.sources(nregs, dtype)
            emit(f"    c = (word >> {lo}) & {(1 << width) - 1}")
            emit(f"    if not (A{k} >> c) & 1: return 0")
            emit("    if c == 255:")
            emit("        if lit is None:")
            emit("            if end >= n: return 0")
            emit("            lit = code[end]; end += 1")
            emit(f"        {t} = TEXTS.literal(lit, {dtype!r}); const = True")
            emit(f"    else: {t} = S{k}[c]; const = 128 <= c <= 208 or 240 <= c <= 248")
            if vop3:
                a, g = _ABS_BIT[role], _NEG_BIT[role]
                emit(f"    if mods & {1 << a | 1 << g}:")
                emit(f"        if mods >> {a} & 1: {t} = '|' + {t} + '|'")
                emit(f"        if mods >> {g} & 1:")
                if dtype == "i32":
                    emit(f"            {t} = 'sext(' + {t} + ')'")
                else:
                    emit(f"            {t} = ('neg(' + {t} + ')') if const and not mods >> {a} & 1 else '-' + {t}")
        elif kind == "reg":
            role, rk, nregs = s[1], s[2], s[3]
            lo, width = fields[role]
            if rk == "v":
                env[f"V{k}"] = TEXTS.vgprs(nregs)
                emit(f"    v = (word >> {lo}) & {(1 << width) - 1}")
                emit(f"    if v > {s[4] - nregs}: return 0")
                emit(f"    {t} = V{k}[v]")
            else:
                env[f"R{k}"] = TEXTS.sgprs(nregs, s[4])
                emit(f"    {t} = R{k}[(word >> {lo}) & {(1 << width) - 1}]")
                emit(f"    if {t} is None: return 0")
        elif kind == "fixed":
            env[f"F{k}"] = s[1]
            emit(f"    {t} = F{k}")
        elif kind == "lit":
            emit("    if lit is None:")
            emit("        if end >= n: return 0")
            emit("        lit = code[end]; end += 1")
            emit(f"    {t} = '0x%x' % lit")
        elif kind == "imm":
            emit(f"    {t} = TEXTS.immediate({s[2]!r}, word & 0xFFFF)")
            emit(f"    if {t} is None: return 0")
            if s[2] == "opt_dec":
                optional = t
        elif kind == "msg":
            emit(f"    {t} = TEXTS.immediate('sendmsg', word & 0xFF)")
        else:
            return None
        parts.append(t)
    if not parts:
        emit("    text = MNEM")
    elif optional is not None:             # s_nop-like: a zero immediate prints nothing
        rest = ", ".join(parts)
        emit(f"    text = MNEM if word & 0xFFFF == 0 and {len(parts)} == 1 else MNEM + ' ' + ', '.join([{rest}])")
        if len(parts) > 1:
            return None
    else:
        emit("    text = MNEM + ' ' + " + " + ', ' + ".join(parts))
    if vop3 and mmask & (1 << 15 | 3 << 59):
        emit(f"    if mods & {1 << 15 | 3 << 59}:")
        emit("        if mods >> 15 & 1: text += ' clamp'")
        emit("        if mods >> 59 & 3: text += ' ' + OMOD[mods >> 59 & 3]")
    emit("    out.append(text)")
    emit("    return end - i")
    exec(compile("\n".join(body) + "\n", f"<disasm {mnem}>", "exec"), env)
    return env["plan"]


# -- memory families --------------------------------------------------------------------------
def _mem_fields(fam, mmask):
    """decode_mem's field reader: a field the instruction does not define reads 0."""
    out = {}
    for name, (lo, width) in FORMATS[fam][1].items():
        if (mmask >> lo) & 1 or name in KEEP:
            out[name] = (lo, (1 << width) - 1)
        else:
            out[name] = (0, 0)
    return out


def _smem_plan(op, entry):
    """SMEM, generated like the ALU plans (decode_mem's rules)."""
    mnem, spec, fmask, fval, mmask = entry
    f = _mem_fields("SMEM", mmask)
    g = lambda k: "((word >> %d) & %d)" % f[k]    # noqa: E731
    env = {"MNEM": mnem, "int16_text": int16_text, "SOFF": TEXTS.sources(1, "b32")}
    body = ["def plan(code, i, n, out):",
            "    if i + 1 >= n: return 0",
            "    word = code[i] | code[i + 1] << 32",
            f"    if (word ^ {fval}) & {fmask}: return 0",
            f"    soff, off = {g('soffset')}, {g('offset')}",
            "    if off & 0x100000: off -= 0x200000",
            "    hexoff = ('-0x%x' % -off if off < 0 else '0x%x' % off) if off else ''",
            "    ops, tail = [], ''"]
    emit = body.append
    for k, s in enumerate(spec):
        if s[0] == "imm":
            emit(f"    ops.append(int16_text({g('sdata')}))")
        elif s[1] in ("sdata", "sbase"):
            env[f"R{k}"] = TEXTS.sgprs(s[3], s[4], 2 if s[1] == "sbase" else 1, False)
            emit(f"    t = R{k}[{g(s[1])}]")
            emit("    if t is None: return 0")
            emit("    ops.append(t)")
        elif s[1] == "soffset":
            env[f"A{k}"] = ACCEPT[s[4]]
            emit("    if soff == 124: ops.append(hexoff or 'null')")
            emit("    else:")
            emit(f"        if not (A{k} >> soff) & 1 or soff == 255: return 0")
            emit("        ops.append(SOFF[soff])")
            emit("        if off: tail = ' offset:' + hexoff")
        else:
            return None
    for bit in ("glc", "dlc"):
        if mmask >> FORMATS["SMEM"][1][bit][0] & 1:
            emit(f"    if {g(bit)}: tail += ' {bit}'")
    emit("    out.append((MNEM + ' ' + ', '.join(ops) if ops else MNEM) + tail)")
    emit("    return 2")
    exec(compile("\n".join(body) + "\n", f"<disasm {mnem}>", "exec"), env)
    return env["plan"]


def _ds_plan(op, entry):
    mnem, spec, fmask, fval, mmask = entry
    if mnem == "ds_swizzle_b32":
        return 0
    f = _mem_fields("DS", mmask)
    regs = tuple((f[s[1]], s[3], TEXTS.vgprs(s[3])) for s in spec)
    two = "2addr" in mnem

    def plan(code, i, n, out):
        if i + 1 >= n:
            return 0
        word = code[i] | code[i + 1] << 32
        if (word ^ fval) & fmask:
            return 0
        ops = []
        for (lo, m), nregs, texts in regs:
            v = (word >> lo) & m
            if v + nregs > 256:
                return 0
            ops.append(texts[v])
        o0, o1 = (word >> f["offset0"][0]) & f["offset0"][1], (word >> f["offset1"][0]) & f["offset1"][1]
        text = mnem + " " + ", ".join(ops) if ops else mnem
        if two:
            if o0 and mmask & 0xFF:
                text += " offset0:%d" % o0
            if o1 and mmask & 0xFF00:
                text += " offset1:%d" % o1
        elif (o0 or o1) and mmask & 0xFFFF:
            text += " offset:%d" % (o1 << 8 | o0)
        if (word >> f["gds"][0]) & f["gds"][1] and mmask & (1 << 17):
            text += " gds"
        out.append(text)
        return 2
    return plan


def _flat_plan(name, op, entry):
    """FLAT / GLOBAL / SCRATCH, generated like the ALU plans (decode_mem's rules)."""
    mnem, spec, fmask, fval, mmask = entry
    f = _mem_fields("FLAT", mmask)
    env = {"MNEM": mnem, "V1": TEXTS.vgprs(1)}
    g = lambda k: "((word >> %d) & %d)" % f[k]    # noqa: E731
    body = ["def plan(code, i, n, out):",
            "    if i + 1 >= n: return 0",
            "    word = code[i] | code[i + 1] << 32",
            f"    if (word ^ {fval}) & {fmask}: return 0",
            f"    saddr = {g('saddr')}",
            "    ops = []"]
    emit = body.append
    for k, s in enumerate(spec):
        role = s[1] if s[0] != "off" else "off"
        if role == "vdst":
            env[f"T{k}"] = TEXTS.vgprs(s[3])
            cond = f"if {g('glc')}: " if "_atomic_" in mnem else ""
            emit(f"    v = {g('vdst')}")
            emit(f"    if v + {s[3]} > 256: return 0")
            emit(f"    {cond}ops.append(T{k}[v])")
        elif role == "addr":
            env["PAIR"] = TEXTS.vgprs(2)
            if name == "SCRATCH":
                emit(f"    if not {g('sve')}: ops.append('off')")
                emit("    else:")
                emit(f"        v = {g('addr')}")
                emit("        if v + 1 > 256: return 0")
                emit("        ops.append(V1[v])")
            elif name == "FLAT":
                emit(f"    v = {g('addr')}")
                emit("    if v + 2 > 256: return 0")
                emit("    ops.append(PAIR[v])")
            else:
                emit(f"    v = {g('addr')}")
                emit("    if saddr == 124:")
                emit("        if v + 2 > 256: return 0")
                emit("        ops.append(PAIR[v])")
                emit("    else: ops.append(V1[v])")
        elif role == "data":
            env[f"T{k}"] = TEXTS.vgprs(s[3])
            emit(f"    v = {g('data')}")
            emit(f"    if v + {s[3]} > 256: return 0")
            emit(f"    ops.append(T{k}[v])")
        elif role == "saddr":
            env[f"S{k}"] = TEXTS.sgprs(s[3], s[4], 1, False)
            emit("    if saddr == 124: ops.append('off')")
            emit("    else:")
            emit(f"        t = S{k}[saddr]")
            emit("        if t is None: return 0")
            emit("        ops.append(t)")
        elif role == "off":
            emit("    ops.append('off')")
        else:
            return None
    emit("    text = MNEM + ' ' + ', '.join(ops) if ops else MNEM")
    emit(f"    off = {g('offset')}")
    if name != "FLAT":
        emit("    if off & 0x1000: off -= 0x2000")
    emit("    if off: text += ' offset:%d' % off")
    for bit in ("glc", "slc", "dlc"):
        emit(f"    if {g(bit)}: text += ' {bit}'")
    emit("    out.append(text)")
    emit("    return 2")
    exec(compile("\n".join(body) + "\n", f"<disasm {mnem}>", "exec"), env)
    return env["plan"]


def _vopd_plan(key):
    """One VOPD opcode pair (key: opy [4:0], opx [8:5] of the dispatch bits)."""
    from .tables import VOPD
    ex, ey = VOPD["X"].get(key >> 5), VOPD["Y"].get(key & 31)
    if ex is None or ey is None:
        return None
    halves = []
    for (mnem, spec), side in ((ex, "x"), (ey, "y")):
        roles = []
        for s in spec:
            if s[0] == "reg":
                roles.append(s[1])
            elif s[0] == "src":
                roles.append(("src", TEXTS.sources(1, s[3]), s[3]))
            else:
                roles.append("lit")
        halves.append((mnem, tuple(roles), any(s[0] == "reg" and s[1] == "vsrc1" for s in spec)))
    bad_src = frozenset(_DPP_CODES + tuple(range(209, 233)) + (249,))

    def plan(code, i, n, out):
        if i + 1 >= n:
            return 0
        lo, hi = code[i], code[i + 1]
        vdstx = hi >> 24
        regs = ((vdstx, lo & 0x1FF, (lo >> 9) & 0xFF),
                (((hi >> 17) & 0x7F) << 1 | ((vdstx & 1) ^ 1), hi & 0x1FF, (hi >> 9) & 0xFF))
        end = i + 2
        lit = None
        parts = []
        for (mnem, roles, has_vsrc1), (vdst, src0, vsrc1) in zip(halves, regs):
            if vsrc1 and not has_vsrc1:
                return 0
            ops = []
            for r in roles:
                if r == "vdst":
                    ops.append("v%d" % vdst)
                elif r == "vsrc1":
                    ops.append("v%d" % vsrc1)
                elif r == "lit":
                    if lit is None:
                        if end >= n:
                            return 0
                        lit = code[end]
                        end += 1
                    ops.append("0x%x" % lit)
                else:
                    if src0 in bad_src:
                        return 0
                    if src0 == 255:
                        if lit is None:
                            if end >= n:
                                return 0
                            lit = code[end]
                            end += 1
                        ops.append(TEXTS.literal(lit, r[2]))
                    else:
                        ops.append(r[1][src0])
            parts.append(mnem + " " + ", ".join(ops))
        out.append(parts[0] + " :: " + parts[1])
        return end - i
    return plan


# -- the walk ---------------------------------------------------------------------------------
_UNBUILT = object()


def _no_plan(code, i, n, out):
    return 0


def _dispatch_table():
    """Per top-nine-bit prefix: (shift, mask, plans by opcode key, family).  The key is the
    opcode field (FLAT: the segment bits too, VOPD: both opcodes); plans are built on first use."""
    table = []
    lists = {}
    for fam in _FAMILY:
        if fam is None or fam in ("EXP", "LDSDIR", "MIMG"):
            table.append((0, 0, [_no_plan], fam))
            continue
        if fam == "FLAT":
            shift, mask = 16, 0x1FF                 # seg [17:16], op [24:18]
        elif fam == "VOPD":
            shift, mask = 17, 0x1FF                 # opy [21:17], opx [25:22]
        else:
            shift, width = FORMATS[fam][1]["op"]
            mask = (1 << width) - 1
        plans = lists.setdefault(fam, [_UNBUILT] * (mask + 1))
        table.append((shift, mask, plans, fam))
    return table


_TABLE = _dispatch_table()


def _build_plan(fam, key):
    if fam == "VOPD":
        plan = _vopd_plan(key)
    elif fam == "FLAT":
        name, op = FLAT_SEGMENTS.get(key & 3), key >> 2
        entry = MEM.get(name, {}).get(op)
        plan = _flat_plan(name, op, entry) if entry is not None else None
    elif fam == "SMEM":
        entry = MEM["SMEM"].get(key)
        plan = _smem_plan(key, entry) if entry is not None else None
    elif fam == "DS":
        entry = MEM["DS"].get(key)
        plan = _ds_plan(key, entry) if entry is not None else None
    elif fam in ALU or fam == "VOP3":
        entry = ALU.get(fam, {}).get(key)
        if entry is None and fam == "VOP3":
            entry, fam = ALU["VOP3SD"].get(key), "VOP3SD"
        plan = _alu_plan(fam, key, entry) if entry is not None else None
    else:
        plan = None
    return plan or _no_plan


def _dwords(data):
    n = len(data) // 4
    return memoryview(bytes(data[:n * 4])).cast("I").tolist() if sys.byteorder == "little" else \
        [int.from_bytes(data[4 * k:4 * k + 4], "little") for k in range(n)]


def disassemble_at(data, offsets=None, texts=None):
    """(byte offsets, texts) of every instruction of `data`.  An invalid or truncated word
    raises AssemblerError naming its offset, as decode() does; the lists passed in then hold
    everything before it."""
    code = _dwords(data)
    n = len(code)
    offsets = [] if offsets is None else offsets
    texts = [] if texts is None else texts
    table, unbuilt = _TABLE, _UNBUILT
    enabled = gc.isenabled()
    gc.disable()            # many short strings, none cyclic
    try:
        i, size = 0, len(data)
        while i < n:
            w = code[i]
            shift, mask, plans, fam = table[w >> 23]
            key = (w >> shift) & mask
            plan = plans[key]
            if plan is unbuilt:
                plan = plans[key] = _build_plan(fam, key)
            k = plan(code, i, n, texts)
            if not k:                         # the full decoder: its text or its error
                ins, nbytes = decode(data, 4 * i)
                texts.append(ins.text)
                k = nbytes // 4
            offsets.append(4 * i)
            i += k
        if 4 * i < size:
            decode(data, 4 * i)               # a truncated word: the decoder's error
        return offsets, texts
    finally:
        if enabled:
            gc.enable()


def disassemble(data):
    """One canonical text line per instruction."""
    return disassemble_at(data)[1]
