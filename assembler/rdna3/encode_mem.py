"""Encode the memory families: SMEM, DS, FLAT/GLOBAL/SCRATCH, MUBUF, MTBUF, and LDSDIR / EXP."""
import re
import struct

from .constants import parse_number, strip_lit
from .encode_alu import _SPECIAL_CODES, asm_accept, not_on_gfx11, reg_operand, source_operand
from .formats import ENCODING_BITS, FORMATS
from .syntax import SyntaxErr, check_modifier_order
from .tables import ACCEPT, ASM_SPECIAL, BUF_FORMAT_NAMES, MEM

_FORMAT_IDS = {v: k for k, v in BUF_FORMAT_NAMES.items()}
_FORMAT_IDS["BUF_FMT_8_UNORM"] = 1         # the default format, which llvm-mc never prints
_SEG = {"FLAT": 0, "SCRATCH": 1, "GLOBAL": 2}


def _num(text, col, name, lo, hi):
    num = parse_number(text)
    if num is None or num[1]:
        raise SyntaxErr("%s expects an integer, got %r" % (name, text), col)
    if not lo <= num[0] <= hi:
        raise SyntaxErr("%s %d out of range [%d, %d]" % (name, num[0], lo, hi), col)
    return num[0]


def _swizzle(text, col):
    m = re.match(r"^swizzle\((\w+)\s*(?:,(.*))?\)$", text)
    if not m:
        return _num(text, col, "offset", 0, 0xFFFF)
    mode, args = m.group(1), [a.strip() for a in (m.group(2) or "").split(",") if a.strip()]
    if mode == "QUAD_PERM" and len(args) == 4:
        return 0x8000 | sum(_num(a, col, "lane", 0, 3) << (2 * i) for i, a in enumerate(args))
    if mode == "SWAP" and len(args) == 1:
        return 31 | _num(args[0], col, "swap mask", 1, 16) << 10
    if mode == "REVERSE" and len(args) == 1:
        return 31 | (_num(args[0], col, "reverse group", 2, 32) - 1) << 10
    if mode == "BROADCAST" and len(args) == 2:
        g = _num(args[0], col, "group size", 2, 32)
        return (32 - g) | _num(args[1], col, "lane", 0, g - 1) << 5
    if mode == "BITMASK_PERM" and len(args) == 1 and len(args[0]) == 7:
        and_m = or_m = xor_m = 0
        for i, ch in enumerate(args[0][1:-1]):
            bit = 1 << (4 - i)
            if ch == "0":
                pass
            elif ch == "1":
                or_m |= bit
            elif ch == "p":
                and_m |= bit
            elif ch == "i":
                and_m |= bit
                xor_m |= bit
            else:
                raise SyntaxErr("BITMASK_PERM characters are 0, 1, p, i", col)
        return and_m | or_m << 5 | xor_m << 10
    raise SyntaxErr("malformed swizzle %r" % text, col)


def _smem_lo(mnem):
    """Buffer loads and ATC probes take only unsigned 20-bit offsets."""
    return 0 if mnem.startswith(("s_buffer_", "s_atc_probe_buffer")) else -0x100000


def _scaled(tok, col, s, shift, role, mnem, key=None):
    """sbase/srsrc fields count SGPR pairs/quads."""
    code = reg_operand(tok, col, "s", s[3], None, 0, role, mnem)
    special = ASM_SPECIAL.get(key) if key is not None else None
    if special is not None and (_SPECIAL_CODES >> code) & 1:
        ok = (special >> code) & 1                 # what llvm-mc's assembler takes there
    else:
        ok = (ACCEPT[s[4]] >> (code >> shift)) & 1
    if not ok:
        raise SyntaxErr("operand %s of %s cannot be %s" % (role, mnem, tok), col)
    return code >> shift


class _Word:
    def __init__(self, fam, op, fval):
        self.fam = fam
        self.fields = FORMATS[fam][1]
        lo = self.fields["op"][0] if "op" in self.fields else 0     # EXP has no opcode
        self.w = ENCODING_BITS[fam][1] | op << lo | fval

    def set(self, name, v):
        lo, width = self.fields[name]
        self.w = (self.w & ~(((1 << width) - 1) << lo)) | ((v & ((1 << width) - 1)) << lo)


def encode_mem(name, op, entry, mnem, ops, mods, ctx):
    base, spec, fmask, fval, mmask = entry      # `mnem` as typed may carry an _e32 suffix
    fam = "FLAT" if name in _SEG else name
    w = _Word(fam, op, fval)
    if fam == "FLAT":
        w.set("seg", _SEG[name])
    size = FORMATS[fam][0]
    lit = None
    flags = {}
    check_modifier_order(fam, mods, mnem)
    if not spec and mods:
        raise SyntaxErr("%s takes no modifiers" % mnem, mods[0][1])
    for m, c in mods:
        key, _, val = m.partition(":")
        if key in ("noglc", "noslc", "nodlc") and fam != "DS":
            continue            # llvm-mc takes a cleared cache bit even where the bit does not exist
        if key == "nogds" and fam == "DS" and (mmask >> w.fields["gds"][0]) & 1:
            continue
        if key in ("glc", "slc", "dlc", "gds", "tfe", "offen", "idxen") and not val:
            if key not in w.fields or not (mmask >> w.fields[key][0]) & 1:
                raise SyntaxErr("%s does not support %s" % (mnem, key), c)
            flags[key] = c
        elif key in ("offset", "offset0", "offset1", "format") and val:
            flags[key] = (val, c)
        else:
            raise SyntaxErr("unknown modifier %r for %s" % (m, mnem), c)
    if "tfe" in flags and "store" in base:
        raise SyntaxErr("tfe has no meaning for the store %s" % mnem, flags["tfe"])
    for k in flags:
        if k in ("glc", "slc", "dlc", "gds", "tfe", "offen", "idxen"):
            w.set(k, 1)
    want = list(enumerate(spec))
    if fam == "FLAT" and "_atomic_" in base and "glc" not in flags:
        want = [(i, s) for i, s in want if not (s[0] == "reg" and s[1] == "vdst")]
    if fam == "SMEM" and len(ops) == len(want) - 1 and want[-1][1][1] == "soffset" and \
            "offset" not in flags:
        want = want[:-1]                 # no offset operand: offset 0, soffset null (llvm-mc)
        w.set("soffset", 124)
        w.set("offset", 0)
    if len(ops) != len(want):
        what = "few" if len(ops) < len(want) else "many"
        col = ops[min(len(ops), len(want)) - 1][1] if ops else ctx.mnem_end
        raise SyntaxErr("too %s operands for %s: expected %d, got %d" % (what, mnem, len(want), len(ops)),
                        col)
    for (pos, s), (tok, col) in zip(want, ops):
        if tok.strip() in ("scc", "sc0", "sc1", "nt", "nv") and not (
                tok.strip() == "scc" and fam in ("MUBUF", "MTBUF")):
            # llvm-mc reads these as cache-policy names of other GPUs here, not as registers
            # (but scc is src_scc as the buffer soffset, an operand that cannot be left out)
            raise SyntaxErr("%s is a cache-policy modifier gfx11 does not have" % tok.strip(), col)
        role = s[1] if s[0] != "off" else "addr"
        key = (name, op, pos)
        if len(s) > 4 and s[0] in ("reg", "src") and not (s[0] == "reg" and s[2] == "v"):
            s = s[:4] + (asm_accept(s[4], key),) + s[5:]
        if fam == "SMEM":
            if s[0] == "imm":
                # the probe mode: llvm-mc keeps the low 7 bits of any constant (a real's bits)
                num = parse_number(strip_lit(tok))
                if num is None:
                    raise SyntaxErr("s_atc_probe mode expects a constant, got %r" % tok, col)
                v = num[0]
                if num[1]:
                    v = struct.unpack("<q", struct.pack("<d", v))[0]
                w.set("sdata", v)
            elif role == "sdata":
                if tok == "null" and s[3] > 2:
                    raise SyntaxErr("null can receive at most a 64-bit load", col)
                w.set("sdata", reg_operand(tok, col, "s", s[3], s[4], 0, role, mnem))
            elif role == "sbase":
                if tok == "null" and s[3] == 4:
                    raise SyntaxErr("the buffer resource of %s must be 4 SGPRs, not null" % mnem, col)
                w.set("sbase", _scaled(tok, col, spec[pos], 1, role, mnem, key))
            else:
                num = parse_number(strip_lit(tok))
                if num is not None:
                    # a constant here is the immediate offset (soffset null), as in llvm-mc: a
                    # real counts by its double's bits (0.0 is offset 0); no offset: as well
                    if "offset" in flags:
                        raise SyntaxErr("%s takes a constant offset operand or offset:, not both"
                                        % mnem, flags["offset"][1])
                    v = num[0]
                    if num[1]:
                        v = struct.unpack("<q", struct.pack("<d", v))[0]
                    lo = _smem_lo(base)
                    if not lo <= v <= 0xFFFFF:
                        raise SyntaxErr("SMEM offset %d out of range [%d, %d]" % (v, lo, 0xFFFFF),
                                        col)
                    w.set("soffset", 124)
                    w.set("offset", v)
                else:
                    code, lit, *_ = source_operand(tok, col, 1, "b32", s[4], "soffset", mnem)
                    w.set("soffset", code)
        elif fam == "DS":
            w.set(role, reg_operand(tok, col, "v", s[3], None, 256, role, mnem))
        elif fam == "FLAT":
            if role == "addr":
                if tok == "off":
                    if name != "SCRATCH":
                        raise SyntaxErr("%s needs a VGPR address" % mnem, col)
                else:
                    n = 2 if name == "FLAT" or (name == "GLOBAL" and ops[-1][0] == "off") else 1
                    w.set("addr", reg_operand(tok, col, "v", n, None, 256, role, mnem))
                    if name == "SCRATCH":
                        w.set("sve", 1)
            elif role == "saddr":
                if tok == "off":
                    w.set("saddr", 124)
                else:
                    w.set("saddr", reg_operand(tok, col, "s", s[3], s[4], 0, role, mnem))
            else:
                w.set(role, reg_operand(tok, col, "v", s[3], None, 256, role, mnem))
        else:                                           # MUBUF / MTBUF
            if role == "vdata":
                n = s[3] + (1 if "tfe" in flags else 0)
                w.set("vdata", reg_operand(tok, col, "v", n, None, 256, role, mnem))
            elif role in ("vaddr", "addr"):
                n = ("offen" in flags) + ("idxen" in flags)
                if tok == "off":
                    if n:
                        raise SyntaxErr("%s with offen/idxen needs a VGPR address" % mnem, col)
                else:
                    if not n:
                        raise SyntaxErr("a VGPR address of %s needs offen or idxen" % mnem, col)
                    w.set("vaddr", reg_operand(tok, col, "v", n, None, 256, role, mnem))
            elif role == "srsrc":
                if tok == "null":
                    raise SyntaxErr("the buffer resource of %s must be 4 SGPRs, not null" % mnem, col)
                w.set("srsrc", _scaled(tok, col, spec[pos], 2, role, mnem, key))
            else:
                code, lit, *_ = source_operand(tok, col, 1, "b32", s[4], "soffset", mnem)
                not_on_gfx11(code, tok, col, fam)
                if lit is not None:
                    raise SyntaxErr("soffset of %s cannot be a literal constant" % mnem, col)
                w.set("soffset", code)
    for key in ("offset", "offset0", "offset1", "format"):
        if key not in flags:
            continue
        val, c = flags[key]
        if fam == "SMEM" and key == "offset":
            w.set("offset", _num(val, c, "SMEM offset", _smem_lo(base), 0xFFFFF))
        elif fam == "DS":
            two = "2addr" in base
            if (key == "offset") == two and key != "format":
                raise SyntaxErr("%s takes %s" % (mnem, "offset0:/offset1:" if two else "offset:"),
                                c)
            if key == "offset":
                v = _swizzle(val, c) if base == "ds_swizzle_b32" else _num(val, c, "DS offset", 0, 0xFFFF)
                w.set("offset0", v & 0xFF)
                w.set("offset1", v >> 8)
            elif key in ("offset0", "offset1"):
                w.set(key, _num(val, c, key, 0, 255))
            else:
                raise SyntaxErr("unknown modifier format for %s" % mnem, c)
        elif fam == "FLAT" and key == "offset":
            lo, hi = (0, 0xFFF) if name == "FLAT" else (-0x1000, 0xFFF)
            w.set("offset", _num(val, c, "%s offset" % name, lo, hi))
        elif fam in ("MUBUF", "MTBUF") and key == "offset":
            # llvm-mc-19 takes a 16-bit offset and keeps its low 12 bits (the field's width)
            w.set("offset", _num(val, c, "buffer offset", 0, 0xFFFF))
        elif fam == "MTBUF" and key == "format":
            if val.startswith("[") and val.endswith("]") and val[1:-1] in _FORMAT_IDS:
                w.set("format", _FORMAT_IDS[val[1:-1]])
            else:
                w.set("format", _num(val, c, "format", 0, 127))
        else:
            raise SyntaxErr("%s does not take %s" % (mnem, key), c)
    if fam == "MTBUF" and "format" not in flags:
        w.set("format", 1)
    out = w.w.to_bytes(size, "little")
    if lit is not None:
        out += lit.to_bytes(4, "little")
    return out, []


def encode_export(mnem, ops, mods, ctx):
    """lds_param_load / lds_direct_load (LDSDIR) and exp (EXP)."""
    from .tables import EXP_TARGETS, LDSDIR_OPS
    if mnem.endswith("_e32"):
        mnem = mnem[:-4]
    flags = {}
    for m, c in mods:
        key, _, val = m.partition(":")
        flags[key] = (val, c)
    if mnem != "exp":
        op = {v: k for k, v in LDSDIR_OPS.items()}[mnem]
        want = 2 if mnem == "lds_param_load" else 1
        if len(ops) != want:
            raise SyntaxErr("%s expects %d operand%s, got %d" % (mnem, want, "s" * (want > 1), len(ops)),
                            ops[-1][1] if ops else ctx.mnem_end)
        check_modifier_order("LDSDIR", mods, mnem)
        w = _Word("LDSDIR", op, 0)
        w.set("vdst", reg_operand(ops[0][0], ops[0][1], "v", 1, None, 256, "vdst", mnem))
        if want == 2:
            m = re.match(r"^attr(\d+)\.([xyzw])$", ops[1][0])
            if not m or int(m.group(1)) > 32:
                raise SyntaxErr("expected an attribute like attr0.x, got %r" % ops[1][0], ops[1][1])
            w.set("attr", int(m.group(1)))
            w.set("attr_chan", "xyzw".index(m.group(2)))
        for key, (val, c) in flags.items():
            if key != "wait_vdst":
                raise SyntaxErr("unknown modifier %r for %s" % (key, mnem), c)
            w.set("wait_vdst", _num(val, c, "wait_vdst", 0, 15))
        return w.w.to_bytes(4, "little"), []
    if len(ops) != 5:
        raise SyntaxErr("exp expects a target and 4 sources (exp mrt0 v0, v1, off, off)",
                        ops[-1][1] if ops else ctx.mnem_end)
    target_tok, tcol = ops[0]
    targets = {v: k for k, v in EXP_TARGETS.items()}
    if target_tok not in targets:
        raise SyntaxErr("unknown export target %r" % target_tok, tcol)
    check_modifier_order("EXP", mods, mnem)
    w = _Word("EXP", 0, 0)
    w.set("target", targets[target_tok])
    for i, (tok, c) in enumerate(ops[1:]):
        if tok == "off":
            continue
        w.set("vsrc%d" % i, reg_operand(tok, c, "v", 1, None, 256, "vsrc%d" % i, "exp"))
        w.w |= 1 << i
    for key, (val, c) in flags.items():
        if key == "done" and not val:
            w.set("done", 1)
        elif key == "row_en" and not val:
            w.set("row", 1)
        else:
            raise SyntaxErr("unknown modifier %r for exp" % key, c)
    return w.w.to_bytes(8, "little"), []


MEM_BY_NAME = {}
for _name, _ops in MEM.items():
    for _op, _entry in _ops.items():
        MEM_BY_NAME.setdefault(_entry[0], (_name, _op, _entry))
