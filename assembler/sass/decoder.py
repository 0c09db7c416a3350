"""128-bit SASS words -> structured instructions and nvdisasm's text.

    decode(data, arch, offset=0, pc=None) -> Instruction
    disassemble(data, arch, base=0) -> list[str]        nvdisasm's text, one per instruction

The format of a word is chosen by its opcode class (low 12 bits) and the class's format bits;
every field is then read as the learned tables say (assembler/sass/tables). A word whose class,
format, modifier value, decoration or reserved bits the tables do not know is refused with an
AssemblerError naming the offset and the word, never printed as something else; so are
scoreboards a format takes none of and pairs of modifier values nvdisasm refuses together.
"""
import struct

from assembler.errors import AssemblerError

from . import aliases
from .control import Control
from .holes import read_hole
from .syntax import Operand, reg_name
from .tables import canonical_arch, load

_M64 = (1 << 64) - 1


class Instruction:
    """One decoded instruction.

    pc        byte address of the instruction
    word      the 128-bit word (int)
    opclass   low 12 bits of the word; fkey: its format key
    guard     (file, number, negated) of the @predicate, or None (always executes)
    opcode    'IMAD'; modifiers: ('WIDE', 'U32') (as printed, value-derived aliases included)
    operands  [Operand] in print order (assembler.sass.syntax.Operand)
    control   Control (stall, yield, scoreboards, wait mask); reuse: 4 reuse bits
    text      nvdisasm's text of the statement
    nosb      "w" / "r" / "wr": the scoreboards this instruction cannot name ("" none)
    """
    __slots__ = ("pc", "word", "arch", "opclass", "fkey", "guard", "opcode", "modifiers", "operands",
                 "control", "reuse", "text", "nosb")

    def __repr__(self):
        return "<%s %04x: %s>" % (self.arch, self.pc, self.text)

    @property
    def mnemonic(self):
        return ".".join((self.opcode,) + self.modifiers)

    @property
    def lo(self):
        return self.word & _M64

    @property
    def hi(self):
        return self.word >> 64

    def to_bytes(self):
        return struct.pack("<QQ", self.lo, self.hi)


def _bad(word, pc, why):
    return AssemblerError("cannot decode the word at offset 0x%x (0x%016x 0x%016x): %s"
                          % (pc, word & _M64, word >> 64, why))


def _getbits(w, bits):
    v = 0
    for i, b in enumerate(bits):
        v |= ((w >> b) & 1) << i
    return v


def semicolon(word, variable=False, blank=False):
    """nvdisasm writes ';' without the blank only when bits 102..103 are clear, the stall is 0,
    the yield bit is 0 and no scoreboard is waited on (the other control bits and 126..127 do
    not matter); a variable-latency instruction with a scoreboard, and some formats (`blank`
    in the tables: DSETP, DFMA ...), print the blank always."""
    c = word >> 105
    if blank or (variable and (c >> 5) & 63 != 63):
        return " ;"
    return ";" if (word >> 102) & 3 == 0 and c & 0x1f == 0 and (c >> 11) & 63 == 0 else " ;"


def _bf16_view(op):
    """HFMA2.BF16_V2, HFMA2.MMA.BF16_V2, HMNMX2.BF16_V2 ... and MUFU.*.BF16 read 32-bit immediate
    fields but nvdisasm prints them truncated to bf16 (their upper 16 bits)."""
    if op.kind != "imm" or op.shape != ("float",) or not isinstance(op.holes[0], float):
        return op
    raw = struct.unpack("<I", struct.pack("<f", op.holes[0]))[0] & 0xffff0000
    return Operand("imm", op.shape, (struct.unpack("<f", struct.pack("<I", raw))[0],))


def control_problem(word):
    """Why nvdisasm refuses the word's control bits whatever the instruction, or None."""
    stall, reuse = (word >> 105) & 15, (word >> 122) & 15
    if (word >> 109) & 1:
        if stall == 0 or stall >= 12:
            return "no yield ('-') with a stall of %d: nvdisasm takes it only with stalls 1..11" % stall
    elif (stall == 0 and reuse & 7) or reuse & 6 == 6:
        # reuse flags with the yield bit clear (where nvdisasm does not print them): a stall of 0
        # takes the fourth flag alone, other stalls any flags but the second and third together
        return "reuse flags 0x%x with yield and a stall of %d, which nvdisasm refuses" % (reuse, stall)
    return None


def format_problem(word, fmt):
    """Why nvdisasm refuses a word of this format whose every field it knows (the tables'
    "noreuse", "noreuse_mix", "nosb" and "forbid"), or None."""
    reuse = (word >> 122) & 15
    if (word >> 109) & 1 and reuse:
        stray = reuse & fmt.get("noreuse", 0)
        for i, v, mask in fmt.get("noreuse_by", ()):
            if reuse & mask and _getbits(word, fmt["groups"][i][0]) == v:
                stray |= reuse & mask
        if stray:
            return "reuse flag 0x%x on an operand slot that takes none, which nvdisasm refuses" % stray
        if fmt.get("noreuse_mix", 0) >> reuse & 1:
            return "reuse flags 0x%x together, which nvdisasm refuses here (it takes each alone)" % reuse
    nosb = fmt.get("nosb")
    if nosb is not None:
        if "w" in nosb and (word >> 110) & 7 != 7:
            return "a write scoreboard (W%d) on an instruction that takes none" % ((word >> 110) & 7)
        if "r" in nosb and (word >> 113) & 7 != 7:
            return "a read scoreboard (R%d) on an instruction that takes none" % ((word >> 113) & 7)
    forbid = fmt.get("forbid")
    if forbid is not None:
        groups = fmt["groups"]
        for i, vi, j, vj in forbid:
            if _getbits(word, groups[i][0]) == vi and _getbits(word, groups[j][0]) == vj:
                return "modifier fields %s = %d and %s = %d, which nvdisasm refuses together" \
                    % (list(groups[i][0]), vi, list(groups[j][0]), vj)
    return None


def decode_word(word, arch, pc=0):
    why = control_problem(word)
    if why:
        raise _bad(word, pc, why)
    tables = load(arch)
    cls = tables.CLASSES.get(word & 0xfff)
    if cls is None:
        raise _bad(word, pc, "unknown opcode class 0x%03x" % (word & 0xfff))
    fkey = _getbits(word, cls["fbits"])
    fmt = cls["formats"].get(fkey)
    while fmt is not None and "split" in fmt:
        fmt = fmt["formats"].get(_getbits(word, fmt["split"]))
    if fmt is None:
        raise _bad(word, pc, "opcode class 0x%03x has no format for these bits" % (word & 0xfff))
    var = _VARIABLE.get(tables.ARCH)
    if var is None:
        sched = getattr(tables, "SCHEDULE", {})
        var = _VARIABLE[tables.ARCH] = frozenset(sched.get("variable_write", ())) | \
            frozenset(sched.get("variable_read", ()))
    strict = fmt.get("strict")
    if strict is not None and word & strict[0] != strict[1]:
        bad = strict[0] & (word ^ strict[1])
        raise _bad(word, pc, "bits %s, which nvdisasm does not print, hold values it refuses"
                   % [b for b in range(128) if bad >> b & 1])
    why = format_problem(word, fmt)
    if why:
        raise _bad(word, pc, why)
    nosb = fmt.get("nosb")
    ins = decode_with_format(word, fmt, pc, var)
    ins.arch, ins.fkey, ins.nosb = tables.ARCH, fkey, nosb or ""
    return ins


_VARIABLE = {}


def _hidden_mod(fmt, word, group, value):
    """Whether the modifier text of `group` at `value` is left out because an operand is at its
    zero register (the tables' "hide_mod": LDG.???0 with a 64-bit address and an RZ base
    prints as LDG)."""
    for i, v, bits, raw in fmt.get("hide_mod", ()):
        if i == group and v == value and _getbits(word, bits) == raw:
            return True
    return False


def decode_with_format(word, fmt, pc=0, variable_ops=frozenset()):
    """Decode a word with a given format entry of the tables (the table generator checks
    formats it is learning with this)."""
    ins = Instruction()
    ins.pc, ins.word, ins.arch, ins.opclass, ins.fkey, ins.nosb = pc, word, None, word & 0xfff, None, ""
    g = fmt["guard"]
    num, neg = (word >> 12) & 7, (word >> 15) & 1
    ins.guard = None if (g is None or (num == 7 and not neg)) else (g, num, bool(neg))
    tokens = []
    groups = fmt["groups"]
    for item in fmt["mnem"]:
        if item.__class__ is str:
            tokens.append(item)
        else:
            g = groups[item]
            bits, table = g[0], g[1]
            v = _getbits(word, bits)
            t = table.get(v)
            if t is None:
                raise _bad(word, pc, "modifier field %s holds %d, which nvdisasm does not print"
                           % (list(bits), v))
            if t and not _hidden_mod(fmt, word, item, v):
                tokens.extend(t.split("."))
    ops = []
    # nvdisasm shows .reuse only when bit 109 is set
    oword = word if (word >> 109) & 1 else word & ~(0xf << 122)
    for spec in fmt["ops"]:
        hide = spec.get("hide")
        if hide is not None:
            shown = None
            for i, v, show in spec.get("hide_by", ()):
                if _getbits(word, groups[i][0]) == v:
                    shown = show
                    break
            if shown == 0 or (shown is None and _getbits(oword, hide[0]) == hide[1]):
                continue
        dbits = spec.get("dbits")
        dv = _getbits(oword, dbits) if dbits else 0
        shape = spec["shapes"].get(dv)
        if shape is None:
            raise _bad(word, pc, "operand %d: decoration bits %s hold %d, which nvdisasm does not "
                       "print" % (len(ops), list(dbits), dv))
        holes = tuple(read_hole(h, oword, pc) for h in spec["holes"])
        if any(h is None for h in holes):
            raise _bad(word, pc, "operand %d has a value nvdisasm does not print" % len(ops))
        rz = None
        if spec["kind"] == "mem":
            learned = spec.get("rz", {}).get(dv, ()) if shape[2] and holes[1] == 255 else ()
            if learned is None:
                raise _bad(word, pc, "operand %d: an RZ base, which nvdisasm refuses here" % len(ops))
            if learned and holes[3]:
                # what nvdisasm printed for this address on RZ (LDGSTS [RZ.64+-0x61e], [-0x100])
                rz, unsigned = learned
                unsigned = unsigned and not rz and not shape[3]
            else:
                unsigned = not shape[3] and \
                    (not shape[2] or (holes[1] == 255 and not (shape[1] and shape[0])))
            if unsigned and holes[3] < 0:
                # an address that is only an offset prints unsigned: [0x970be7], never [-0x68f419]
                h = spec["holes"][3]
                if h[0] == "bits" and h[2]:
                    holes = holes[:3] + (holes[3] + (1 << h[2]),)
        ops.append(Operand(spec["kind"], shape, holes, rz))
    if "BF16_V2" in tokens or (tokens[0] == "MUFU" and "BF16" in tokens):
        ops = [_bf16_view(o) for o in ops]
    tokens = aliases.add(tuple(tokens), ops, 0 if (word >> 109) & 1 else (word >> 122) & 15)
    ins.opcode, ins.modifiers, ins.operands = tokens[0], tuple(tokens[1:]), ops
    ins.control = Control.from_word(word)
    ins.reuse = (word >> 122) & 15
    head = ""
    if ins.guard is not None:
        head = "@%s%s " % ("!" if ins.guard[2] else "", reg_name(ins.guard[0], ins.guard[1]))
    text = head + ".".join(tokens)
    if ops:
        text += " " + ", ".join(o.render() for o in ops)
    ins.text = text + semicolon(word, tokens[0] in variable_ops or fmt.get("sbblank", 0), fmt.get("blank", 0))
    return ins


def decode(data, arch, offset=0, pc=None):
    """Decode the 16-byte instruction at data[offset:] -> Instruction (pc defaults to offset)."""
    if offset + 16 > len(data):
        raise AssemblerError("truncated instruction at offset 0x%x: %d of 16 bytes"
                             % (offset, len(data) - offset))
    lo, hi = struct.unpack_from("<QQ", data, offset)
    return decode_word(lo | hi << 64, arch, offset if pc is None else pc)


def decode_all(data, arch, base=0):
    """Every instruction of a code blob (its length a multiple of 16)."""
    arch = canonical_arch(arch)
    if len(data) % 16:
        raise AssemblerError("code is %d bytes, not a multiple of 16" % len(data))
    return [decode(data, arch, off, base + off) for off in range(0, len(data), 16)]


def disassemble(data, arch, base=0):
    """nvdisasm's text of each instruction (as `nvdisasm -b SMxx` prints it)."""
    return [ins.text for ins in decode_all(data, arch, base)]
