#!/usr/bin/env python3
"""Generate assembler/rdna3/tables.py from llvm-mc-19 (the oracle), for gfx1100.

Run:  python scripts/gen_rdna3_tables.py      (needs llvm-mc-19 on PATH; ~2.5 minutes)

For every encoding family it enumerates every opcode value through
`llvm-mc-19 -arch=amdgcn -mcpu=gfx1100 --disassemble`, with probe values in each operand field
(v20/v40/v60/v80, s4/s8/s12 ...) so that the printed text tells which field feeds which operand
and how wide it is. Further probes learn, per opcode:
  * which bits must keep their value (fields the instruction does not use are fixed to 0),
  * which operand codes each source accepts (SGPR alignment, constants, literal...),
  * the constant type of each source (assembling 1.5 / 0x3c00 / 0xffff and reading the bytes),
  * which modifier bits exist (neg, abs, op_sel, clamp, omod ...), whether DPP16/DPP8 exist.
Image instructions (MIMG) are learned by gen_rdna3_mimg.py.
The encoder and decoder in assembler/rdna3 are ours; only these facts come from the oracle.
"""
import itertools
import os
import pprint
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

from gen_rdna3_oracle import assemble_lines, disassemble_probes  # noqa: E402
from assembler.rdna3.formats import FORMATS, family_of, put  # noqa: E402

OUT = os.path.join(os.path.dirname(HERE), "assembler", "rdna3", "tables.py")
LIT = 0x12345678
REG = re.compile(r"^([-|]*)(?:(s|v|ttmp)(\d+)|(s|v|ttmp)\[(\d+):(\d+)\])(\.[lh])?\|?$")


def probe_bytes(fam, word, extra=LIT):
    size = FORMATS[fam][0]
    return word.to_bytes(size, "little") + (extra.to_bytes(4, "little") if extra is not None else b"")


def disasm_words(fam, words, extra=LIT):
    res = disassemble_probes([probe_bytes(fam, w, extra) for w in words])
    return [r[0] if r else None for r in res]


def split_top(rest, sep=", "):
    """Split on `sep` outside parentheses."""
    parts, depth, cur, i = [], 0, [], 0
    while i < len(rest):
        ch = rest[i]
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if depth == 0 and rest.startswith(sep, i):
            parts.append("".join(cur))
            cur = []
            i += len(sep)
            continue
        cur.append(ch)
        i += 1
    parts.append("".join(cur))
    return parts


def split_operands(text):
    """'mnem a, b, c mod mod' -> (mnem, [operands], [trailing modifiers])."""
    mnem, _, rest = text.partition(" ")
    if not rest:
        return mnem, [], []
    parts = split_top(rest)
    if mnem.startswith("s_") and not SMEM_MNEM.match(mnem):
        return mnem, parts, []
    toks = split_top(parts[-1], " ")
    parts[-1] = toks[0]
    return mnem, parts, toks[1:]


SMEM_MNEM = re.compile(r"s_(load|buffer_load|atc_probe|gl1_inv|dcache_inv)")


def parse_reg(tok):
    """'v[4:5]' -> ('v', 4, 2); '-|s3|' -> ('s', 3, 1); None when not a register."""
    m = REG.match(tok)
    if not m:
        return None
    if m.group(2):
        return m.group(2), int(m.group(3)), 1
    return m.group(4), int(m.group(5)), int(m.group(6)) - int(m.group(5)) + 1


# ------------------------------------------------------------------------------------------------
# Stage 1: which opcodes exist and which field feeds which printed operand.

# family -> {field: (absent value, [probe values])}; 9-bit sources try a VGPR, then an SGPR.
PROBE_FIELDS = {
    "SOP2": {"sdst": (0, [12]), "ssrc0": (0, [4]), "ssrc1": (0, [8])},
    "SOPK": {"sdst": (0, [12])},
    "SOP1": {"sdst": (0, [12]), "ssrc0": (0, [4])},
    "SOPC": {"ssrc0": (0, [4]), "ssrc1": (0, [8])},
    "SOPP": {},
    "VOP1": {"vdst": (0, [20]), "src0": (0, [296, 40])},
    "VOP2": {"vdst": (0, [20]), "src0": (0, [296, 40]), "vsrc1": (0, [60])},
    "VOPC": {"src0": (0, [296, 40]), "vsrc1": (0, [60])},
    "VOP3": {"vdst": (0, [20]), "src0": (0, [296, 40]), "src1": (0, [316, 60]),
             "src2": (0, [336, 80])},
    "VOP3P": {"vdst": (0, [20]), "src0": (0, [296, 40]), "src1": (0, [316, 60]),
              "src2": (0, [336, 80])},
}
PROBE_FIELDS.update({
    "SMEM": {"sdata": (0, [12]), "sbase": (0, [2]), "soffset": (124, [5])},
    "DS": {"vdst": (0, [20]), "addr": (0, [40]), "data0": (0, [60]), "data1": (0, [80])},
    "FLAT": {"vdst": (0, [20]), "addr": (0, [40]), "data": (0, [60]), "saddr": (124, [4]),
             "sve": (0, [1]), "glc": (0, [1])},
    "MUBUF": {"vdata": (0, [60]), "vaddr": (0, [40]), "srsrc": (0, [2]), "soffset": (0, [3]),
              "offen": (0, [1])},
})
PROBE_FIELDS["MTBUF"] = PROBE_FIELDS["MUBUF"]
PROBE_FIELDS["VINTERP"] = {"vdst": (0, [20]), "src0": (0, [296, 40]), "src1": (0, [316, 60]),
                           "src2": (0, [336, 80])}
PROBE_FIELDS["SOPP"] = {"simm16": (0, [3])}
PROBE_FIELDS["SOPK"] = {"sdst": (0, [12]), "simm16": (0, [0x1234])}
FIXED_BASE = {
              "VOP3P": {"opsel_hi": 3, "opsel_hi2": 1}, "SMEM": {"offset": 0x10},
              "MTBUF": {"format": 1}}
NOPS = {"SOP2": 128, "SOPK": 32, "SOP1": 256, "SOPC": 128, "SOPP": 128, "VOP1": 256, "VOP2": 64,
        "VOPC": 256, "VOP3": 1024, "VOP3P": 128, "SMEM": 256, "DS": 256, "FLAT": 128, "MUBUF": 256,
        "MTBUF": 16, "VINTERP": 128}
FIELD_CLASS = {"sdst": "sgpr", "ssrc0": "sgpr", "ssrc1": "sgpr", "vdst": "vgpr8", "vsrc1": "vgpr8",
               "src0": "src9", "src1": "src9", "src2": "src9", "addr": "vgpr8", "data": "vgpr8",
               "data0": "vgpr8", "data1": "vgpr8", "vdata": "vgpr8", "vaddr": "vgpr8",
               "sdata": "sgpr", "soffset": "sgpr", "saddr": "sgpr", "sbase": "sbase",
               "srsrc": "srsrc"}


def token_field(tok, values, fam):
    """Which probed field a printed register token comes from: (field, regkind, nregs) or None."""
    r = parse_reg(tok)
    if r is None:
        return None
    kind, num, nregs = r
    for field, v in values.items():
        cls = FIELD_CLASS.get(field)
        if cls is None or v == 0:
            continue
        if cls == "src9":
            if (kind == "v" and v == 256 + num) or (kind == "s" and v == num):
                return field, kind, nregs
        elif cls == "vgpr8":
            if v == num and kind in "vs":
                return field, kind, nregs
        elif cls == "sgpr" and kind == "s" and v == num:
            return field, kind, nregs
        elif cls == "sbase" and kind == "s" and 2 * v == num:
            return field, kind, nregs
        elif cls == "srsrc" and kind == "s" and 4 * v == num:
            return field, kind, nregs
    return None


def enumerate_family(fam, fixed=None):
    probe = PROBE_FIELDS[fam]
    names = list(probe)
    choices = [[probe[n][0]] + probe[n][1] for n in names]
    variants = list(itertools.product(*choices))
    words, keys = [], []
    for op in range(NOPS[fam]):
        for var in variants:
            vals = dict(zip(names, var))
            w = put(fam, op=op, **(fixed or FIXED_BASE.get(fam, {})), **vals)
            if family_of(w & 0xFFFFFFFF) != fam:
                break
            words.append(w)
            keys.append((op, vals))
    texts = disasm_words(fam, words)
    best = {}
    for (op, vals), text, word in zip(keys, texts, words):
        if text is None:
            continue
        score = sum(10 + (probe[n][1].index(v) == 0) for n, v in vals.items() if v != probe[n][0])
        if op not in best or score > best[op][0]:
            best[op] = (score, text, vals, word)
    return {op: (t, v, w) for op, (_, t, v, w) in best.items()}



def spec_from_text(fam, text, vals):
    """Printed operands -> operand spec tuples; raises on a token it cannot explain."""
    mnem, ops, mods = split_operands(text)
    spec = []
    for tok in ops:
        f = token_field(tok, vals, fam)
        if f is not None:
            field, kind, nregs = f
            if FIELD_CLASS[field] in ("src9",) or field in ("ssrc0", "ssrc1", "soffset"):
                spec.append(("src", field, nregs))
            else:
                spec.append(("reg", field, kind, nregs))
        elif tok == "vcc_lo":
            spec.append(("fixed", tok))
        elif tok == "off":
            spec.append(("off",))
        elif fam == "SMEM" and tok == str(vals.get("sdata")):
            spec.append(("imm", "sdata"))
        elif tok == "0x12345678":
            spec.append(("lit",))
        elif fam in ("SOPK", "SOPP"):
            spec.append(("imm", tok))
        elif tok.startswith("sendmsg("):
            spec.append(("src", "ssrc0", 1))
        elif tok.startswith(("s0", "v0")) or tok in ("s[0:1]",):
            spec.append(("zero", tok))
        else:
            raise ValueError("%s: cannot explain operand %r in %r" % (fam, tok, text))
    return mnem, spec, mods



# ------------------------------------------------------------------------------------------------
# Stage 2: per-opcode facts learned by varying one thing at a time.

DPP16_WORD = 40 | 0x0E4 << 8 | 0xF << 24 | 0xF << 28      # quad_perm:[0,1,2,3], all rows/banks
DPP8_WORD = 40 | 0xFAC688 << 8                             # dpp8:[0,1,2,3,4,5,6,7]
SRC_FIELDS = ("src0", "src1", "src2", "ssrc0", "ssrc1")
TYPE_TOKENS = ("1.5", "0x3c00", "0xffff", "0x3f800000", "-1", "0.15915494", "0x3fc45f306dc9c882",
               "1e-6", "5e-6")


def field_bits(fam, field):
    lo, width = FORMATS[fam][1][field]
    return ((1 << width) - 1) << lo


def with_field(fam, word, field, value):
    lo, width = FORMATS[fam][1][field]
    mask = ((1 << width) - 1) << lo
    return (word & ~mask) | ((value << lo) & mask)


def learn_accept(entries):
    """For every source operand, the set of operand codes llvm-mc decodes there; for VGPR-only
    fields, the highest register it takes (16-bit ops reach only v0..v127 in 32-bit encodings)."""
    words, keys = [], []
    for (name, op), e in entries.items():
        fam = e["fam"]
        for i, o in enumerate(e["ops"]):
            if o[0] == "src":
                codes = list(range(256))
                if FORMATS[fam][1][o[1]][1] == 9:
                    codes += [256, 383, 384, 511]
            elif o[0] == "reg" and o[2] == "v":
                codes = [0, 127, 128]
            elif o[0] == "reg" and o[2] == "s":
                codes = list(range(1 << FORMATS[fam][1][o[1]][1]))
            else:
                continue
            for c in codes:
                words.append((fam, with_field(fam, e["word"], o[1], c)))
                keys.append((name, op, i, c))
    res = disassemble_probes([probe_bytes(f, w) for f, w in words])
    acc = {}
    for (fam, op, i, c), r in zip(keys, res):
        acc.setdefault((fam, op, i), set())
        if r is not None:
            acc[(fam, op, i)].add(c)
    for (fam, op, i), codes in acc.items():
        e = entries[(fam, op)]
        o = e["ops"][i]
        if o[0] == "reg" and o[2] == "v":
            e["ops"][i] = o + (128 if 128 not in codes else 256,)
            continue
        if o[0] == "reg":
            e["ops"][i] = o + (sum(1 << c for c in codes),)
            continue
        nregs = o[2]
        mask = 0
        for c in codes:
            if c < 256 and c not in (233, 234, 250):
                mask |= 1 << c
        if 256 in codes:
            top = 128 if 384 not in codes else 256
            for n in range(top - nregs + 1):
                mask |= 1 << (256 + n)
        e["ops"][i] = o[:3] + (mask,)


def classify_type(outcomes):
    """Constant type of a source from how llvm-mc assembles a few probe constants."""
    f15, h1, ffff, f1, m1, inv, inv64, tiny, small = outcomes
    if f15 == ("L", 0x3FF80000):
        return "f64"
    if f15 is None and inv64 == ("I", 248):
        return "i64"
    # packed pairs of VOP3 forms (v_dot2_f16_f16, v_dot2_bf16_bf16) test a real for an inline
    # value on its f16 bits after a lossless single conversion (1e-6 -> integer 17), and take a
    # literal only if it converts to f16 without underflow (5e-6 does not): the "v" types
    if f15 == ("L", 0x3E00):
        if ffff == ("I", 193):
            return "f16"
        return "pf16v" if tiny == ("I", 145) else "pf16"
    if f15 == ("L", 0x3FC0):
        if ffff == ("I", 193):
            return "bf16"
        return "pbf16v" if small is None else "pbf16"
    if f15 == ("L", 0x3FC00000) and f1 is None and ffff == ("L", 0xFFFF):
        return "i16"
    return "b32"


def learn_types(entries):
    lines, keys = [], []
    for (fam, op), e in entries.items():
        mnem, ops_txt, mods = split_operands(e["text"])
        for i, o in enumerate(e["ops"]):
            if o[0] != "src":
                continue
            for tok in TYPE_TOKENS:
                t = list(ops_txt)
                t[i] = tok
                lines.append(mnem + " " + ", ".join(t) + "".join(" " + m for m in mods))
                keys.append((fam, op, i))
    res = assemble_lines(lines)
    out = {}
    for (fam, op, i), (enc, err), line in zip(keys, res, lines):
        if enc is None:
            out.setdefault((fam, op, i), []).append(None)
            continue
        rfam = family_of(int.from_bytes(enc[:4], "little"))
        if rfam == "VOP3" and (fam, op) in entries and entries[(fam, op)]["fam"] == "VOP3SD":
            rfam = "VOP3SD"
        size = FORMATS[rfam][0]
        word = int.from_bytes(enc[:size], "little")
        field = entries[(fam, op)]["ops"][i][1]
        if rfam != entries[(fam, op)]["fam"]:
            # promoted to VOP3: the source sits in the VOP3 field of the same name
            field = {"vsrc1": "src1"}.get(field, field)
        code = (word >> FORMATS[rfam][1][field][0]) & 0x1FF
        if FORMATS[rfam][1][field][1] == 8:
            code &= 0xFF
        if code == 255:
            out.setdefault((fam, op, i), []).append(("L", int.from_bytes(enc[size:size + 4], "little")))
        else:
            out.setdefault((fam, op, i), []).append(("I", code))
    for (fam, op, i), outcomes in out.items():
        e = entries[(fam, op)]
        dtype = classify_type(outcomes)
        if any(o[0] == "lit" for o in e["ops"]) and e["mnem"].endswith("_f16"):
            dtype = "f16"        # v_fmaak/fmamk_f16: a second literal cannot be probed; K is f16
        e["ops"][i] = e["ops"][i][:4] + (dtype,)
        e.setdefault("sig", []).append(outcomes)


def learn_bits(entries):
    """Flip every non-operand bit of the base word: must it keep its value, is it ignored, or is
    it a modifier llvm-mc prints?"""
    words, keys = [], []
    for (name, op), e in entries.items():
        fam = e["fam"]
        size, fields = FORMATS[fam]
        skip = field_bits(fam, "op") | ENC_MASK[fam] | (field_bits(fam, "seg") if fam == "FLAT" else 0)
        for o in e["ops"]:
            if len(o) > 1 and o[1] in fields:
                skip |= field_bits(fam, o[1])
            if o[0] == "imm":
                skip |= field_bits(fam, "simm16" if "simm16" in fields else o[1])
        for b in range(size * 8):
            if not (skip >> b) & 1:
                words.append((fam, e["word"] ^ (1 << b)))
                keys.append((name, op, b))
    res = disassemble_probes([probe_bytes(f, w) for f, w in words])
    for (name, op, b), r in zip(keys, res):
        e = entries[(name, op)]
        fam = e["fam"]
        if r is None:
            e["fixed"] |= 1 << b
        elif r[0] != e["text"]:
            e["mods"] |= 1 << b
            m = re.search(r"op_sel:\[([0-9,]+)\]", r[0])
            if m and 11 <= b <= 14 and fam != "VOP3P":
                bits = m.group(1).split(",")
                omap = list(e.get("opsel", (len(bits), -1, -1, -1, -1)))
                omap[b - 10] = bits.index("1")
                e["opsel"] = tuple(omap)
            if "sext(" in r[0] and b >= 61:
                e["sext"] = e.get("sext", 0) | 1 << (b - 61)


def learn_dpp_accept(entries):
    """Sources 1 and 2 of a VOP3 DPP form take fewer operand kinds than without DPP."""
    words, keys = [], []
    for (fam, op), e in entries.items():
        if fam not in ("VOP3", "VOP3SD", "VOP3P") or not e.get("dpp8"):
            continue
        size = FORMATS[fam][0]
        base = with_field(fam, e["word"], "src0", 233)
        for i, o in enumerate(e["ops"]):
            if o[0] != "src" or o[1] == "src0":
                continue
            for c in list(range(256)) + [256, 383, 384, 511]:
                w = with_field(fam, base, o[1], c)
                words.append(w.to_bytes(size, "little") + DPP8_WORD.to_bytes(4, "little"))
                keys.append((fam, op, i, c))
    acc = {}
    for (fam, op, i, c), r in zip(keys, disassemble_probes(words)):
        acc.setdefault((fam, op, i), set())
        if r is not None:
            acc[(fam, op, i)].add(c)
    for (fam, op, i), codes in acc.items():
        e = entries[(fam, op)]
        nregs = e["ops"][i][2]
        mask = sum(1 << c for c in codes if c < 256 and c != 255)   # no literal after a DPP word
        if 256 in codes:
            top = 128 if 384 not in codes else 256
            for n in range(top - nregs + 1):
                mask |= 1 << (256 + n)
        e.setdefault("dpp_accept", {})[e["ops"][i][1]] = mask


def learn_canonical(entries):
    """Bits the decoder ignores still have one value in llvm-mc's own encoding (v_cmpx writes
    exec_lo into vdst, 2-source VOP3P sets op_sel_hi of src2): assemble each base text to learn it."""
    keys = list(entries)
    res = assemble_lines([entries[k]["text"] for k in keys])
    for k, (enc, err) in zip(keys, res):
        e = entries[k]
        fam = e["fam"]
        size, fields = FORMATS[fam]
        if enc is None:
            e["canon"] = 0
            continue
        canon = int.from_bytes(enc[:size], "little")
        ident = field_bits(fam, "op") | ENC_MASK[fam]
        if len(enc) < size or (canon ^ e["word"]) & ident:
            e["canon"] = 0            # the text selects another encoding (v_nop is VOP1's)
            continue
        used = e["fixed"] | e["mods"] | field_bits(fam, "op") | ENC_MASK[fam]
        for o in e["ops"]:
            if len(o) > 1 and o[1] in fields:
                used |= field_bits(fam, o[1])
            if o[0] == "imm":
                used |= field_bits(fam, "simm16" if "simm16" in fields else o[1])
        if fam == "FLAT":
            used |= field_bits(fam, "seg")
        e["canon"] = canon & ~used & ((1 << (8 * size)) - 1)


def learn_dpp(entries):
    words, keys = [], []
    for (fam, op), e in entries.items():
        if fam not in ("VOP1", "VOP2", "VOPC", "VOP3", "VOP3SD", "VOP3P"):
            continue
        if not any(o[0] == "src" and o[1] == "src0" for o in e["ops"]):
            continue
        size = FORMATS[fam][0]
        for kind, code, ctl in (("dpp16", 250, DPP16_WORD), ("dpp8", 233, DPP8_WORD)):
            w = with_field(fam, e["word"], "src0", code)
            words.append(w.to_bytes(size, "little") + ctl.to_bytes(4, "little"))
            keys.append((fam, op, kind))
    res = disassemble_probes(words)
    flips, fkeys = [], []
    for (fam, op, kind), r, w in zip(keys, res, words):
        if r is not None and len(r[1]) > FORMATS[fam][0]:
            entries[(fam, op)][kind] = r[0].split(" ")[0]
            if kind == "dpp16":
                entries[(fam, op)]["dpp16_text"] = r[0]
                for b in range(18, 24):
                    flips.append(w[:-4] + (int.from_bytes(w[-4:], "little") ^ (1 << b)).to_bytes(4, "little"))
                    fkeys.append((fam, op, b))
            if kind == "dpp8" and fam in ("VOP3", "VOP3SD"):
                base = int.from_bytes(w[:8], "little")
                for b in (61, 62, 63):             # neg bits that only the DPP form knows
                    flips.append((base ^ (1 << b)).to_bytes(8, "little") + w[8:])
                    fkeys.append((fam, op, b))
    for (fam, op, b), r in zip(fkeys, disassemble_probes(flips)):
        if r is not None:
            e = entries[(fam, op)]
            if b >= 61:
                if "sext(" in r[0] and not (e["mods"] >> b) & 1:
                    e["dppmods"] = e.get("dppmods", 0) | 1 << (26 + b - 61)
                continue
            e["dppmods"] = e.get("dppmods", 0) | 1 << b
            if b >= 20 and r[0] != e["dpp16_text"]:
                e["dppmods"] |= 1 << (b + 14)              # a neg/abs llvm-mc prints (not ignored)
            if "sext(" in r[0] and b in (20, 22):          # integer sources print sext(...)
                e["dppmods"] |= 1 << (30 + (b - 20) // 2)


ENC_MASK = {f: m for f, (m, _) in __import__("assembler.rdna3.formats", fromlist=["x"]).ENCODING_BITS.items()}
ENC_MASK["VOP3SD"] = ENC_MASK["VOP3"]


def alu_entries():
    entries = {}
    for fam in ("SOP2", "SOPK", "SOP1", "SOPC", "SOPP", "VOP1", "VOP2", "VOPC", "VOP3", "VOP3P",
                "VINTERP"):
        for op, (text, vals, word) in enumerate_family(fam).items():
            mnem, spec, mods = spec_from_text(fam, text, vals)
            efam = fam
            if fam == "VOP3" and ("zero", "s0") in spec:
                efam = "VOP3SD"
                spec = [("reg", "sdst", "s", 1) if x == ("zero", "s0") else x for x in spec]
            entries[(efam, op)] = dict(fam=efam, op=op, mnem=mnem, ops=spec, text=text, word=word,
                                       fixed=0, mods=0)
    learn_accept(entries)
    learn_types(entries)
    learn_bits(entries)
    learn_dpp(entries)
    learn_dpp_accept(entries)
    learn_canonical(entries)
    return entries



# named scalar operands and their codes: the assembler takes them in places its decoder does
# not (src_* as SGPR destinations, truncated to the 7-bit field; lds_direct in VOPD) and refuses
# some the decoder prints (src_shared_base as an SMEM offset)
SPECIAL_NAMES = (("vcc_lo", 106), ("vcc_hi", 107), ("null", 124), ("m0", 125), ("exec_lo", 126),
                 ("exec_hi", 127), ("vcc", 106), ("exec", 126), ("src_shared_base", 235),
                 ("src_shared_limit", 236), ("src_private_base", 237), ("src_private_limit", 238),
                 ("src_scc", 253), ("src_lds_direct", 254),
                 # and constants: bit 129 stands for the integer inline constants, 242 for the
                 # float ones, 255 for a literal
                 ("1", 129), ("1.0", 242), ("0x1234", 255))


def probe_text(e):
    """(mnemonic, operands, modifiers) of an entry's text, made one llvm-mc assembles: K
    literals 0x1234 (fits 16-bit K too), null for the register of s_waitcnt_*cnt."""
    mnem, ops, mods = split_operands(e["text"])
    ops = ["0x1234" if o[0] == "lit" else t for o, t in zip(e["ops"], ops)] + ops[len(e["ops"]):]
    if e["mnem"].startswith("s_waitcnt_") and e["fam"] == "SOPK":
        ops[0] = "null"
    return mnem, ops, mods


def _special_lines(text, ops_spec):
    """Probe lines: the base text (K literals set to 0x1234, the probe literal) and the text with
    one scalar operand replaced by each special name."""
    mnem, ops, mods = split_operands(text)
    ops = ["0x1234" if o[0] == "lit" else t for o, t in zip(ops_spec, ops)] + ops[len(ops_spec):]
    tail = "".join(" " + m for m in mods)
    lines, keys = [mnem + " " + ", ".join(ops) + tail], [None]
    for i, o in enumerate(ops_spec):
        if o[0] not in ("reg", "src") or (o[0] == "reg" and o[2] != "s"):
            continue
        for name, code in SPECIAL_NAMES:
            if o[0] == "reg" and code in (129, 242, 255):
                continue
            t = list(ops)
            t[i] = name
            lines.append(mnem + " " + ", ".join(t) + tail)
            keys.append((i, code))
    return lines, keys


def learn_special(entries):
    """{entry key: {operand index: mask of special codes llvm-mc's assembler takes there}}, for
    the entries whose base text llvm-mc assembles."""
    lines, keys = [], []
    for k, e in entries.items():
        ls, ks = _special_lines(e["text"], e["ops"])
        lines += ls
        keys += [(k, x) for x in ks]
    out, dead = {}, set()
    for (k, x), (enc, err) in zip(keys, assemble_lines(lines)):
        ok = enc is not None and enc != "reloc"
        if x is None:
            if not ok:
                dead.add(k)
            continue
        i, code = x
        d = out.setdefault(k, {})
        d.setdefault(i, 0)
        if ok:
            d[i] |= 1 << code
    return {k: d for k, d in out.items() if k not in dead}


def learn_vopd_special(halves):
    """The same for the src0 of each VOPD half (paired with v_dual_mov_b32 / v_dual_mov_b32)."""
    lines, keys = [], []
    for side in ("X", "Y"):
        for op, (mnem, spec) in halves[side].items():
            ops = ["v%d" % (20 + (side == "Y")) if o[0] == "reg" and o[1] == "vdst" else
                   ("v%d" % (61 + 2 * (side == "Y")) if o[0] == "reg" else
                    ("0x1234" if o[0] == "lit" else "v%d" % (40 + (side == "Y"))))
                   for o in spec]
            i = next(j for j, o in enumerate(spec) if o[0] == "src")
            # the partner reads a constant: no VGPR bank or constant bus clash with the probe
            other = "v_dual_mov_b32 v%d, 2" % (21 if side == "X" else 20)
            for name, code in SPECIAL_NAMES:
                t = list(ops)
                t[i] = name
                half = mnem + " " + ", ".join(t)
                lines.append(half + " :: " + other if side == "X" else other + " :: " + half)
                keys.append((side, op, code))
    out = {}
    for (side, op, code), (enc, err) in zip(keys, assemble_lines(lines)):
        out.setdefault((side, op), 0)
        if enc is not None and enc != "reloc":
            out[(side, op)] |= 1 << code
    return out


def learn_dpp_literal(entries):
    """VOP3/VOP3P DPP forms whose src1/src2 llvm-mc-19 takes a literal in: {(family, opcode,
    operand index): whether the literal dword is emitted}. (It takes one in v_fma_mix* and
    writes operand code 255 without the dword: the DPP control word is where it would go.)"""
    lines, keys = [], []
    for (fam, op), e in sorted(entries.items()):
        if fam not in ("VOP3", "VOP3SD", "VOP3P") or not e.get("dpp8"):
            continue
        mnem, ops, mods = split_operands(e["text"])
        for i, o in enumerate(e["ops"]):
            if o[0] != "src" or o[1] == "src0":
                continue
            t = list(ops)
            t[i] = "0x1234"                          # fits 16-bit operands too
            lines.append(e["dpp8"] + " " + ", ".join(t) + " dpp8:[0,1,2,3,4,5,6,7]")
            keys.append((fam, op, i))
    out = {}
    for k, (enc, err) in zip(keys, assemble_lines(lines)):
        if enc is not None and enc != "reloc":
            out[k] = len(enc) > 12
    return out


_SUFFIXES = ("_e64_dpp", "_dpp", "_e32", "_e64")


def learn_forced(entries, is_mem=False):
    """Which of _e32 / _e64 llvm-mc-19 takes on each form's mnemonic, keeping this form:
    {key: 'e32' | 'e64' | 'e32 e64' | ''}. (It strips the suffix and keeps the forms of that
    size; v_readlane_b32, a VOP3 encoding on gfx11, is an e32 instruction for it.)"""
    lines, keys = [], []
    for k, e in sorted(entries.items()):
        mnem, ops, mods = probe_text(e)
        rest = ", ".join(ops) + "".join(" " + m for m in mods)
        base = mnem
        for suf in _SUFFIXES:
            if base.endswith(suf):
                base = base[:-len(suf)]
                break
        for suf in ("_e32", "_e64"):
            lines.append(base + suf + (" " + rest if rest else ""))
            keys.append((k, suf))
    out = {}
    for (k, suf), (enc, err) in zip(keys, assemble_lines(lines)):
        out.setdefault(k, [])
        if enc is None or enc == "reloc":
            continue
        fam = family_of(int.from_bytes(enc[:4], "little"))
        want = entries[k]["fam"]
        if fam == want or (fam == "VOP3" and want == "VOP3SD"):
            out[k].append(suf[1:])
    return {k: " ".join(v) for k, v in out.items()}


def emit_special(out, alu, mem, vopd):
    out.write("# special scalar operands (vcc_lo, null, m0, exec, src_shared_base, src_scc,\n"
              "# src_lds_direct...) llvm-mc-19's assembler takes, per operand: key -> mask over\n"
              "# operand codes; ALU keys (family, opcode, operand index), memory keys (name, opcode,\n"
              "# operand index), VOPD keys ('VOPD', 'X'|'Y', opcode)\n")
    out.write("ASM_SPECIAL = {\n")
    for (fam, op), d in sorted(alu.items()):
        for i, m in sorted(d.items()):
            out.write("    (%r, %d, %d): 0x%x,\n" % (fam, op, i, m))
    for (name, op), d in sorted(mem.items()):
        for i, m in sorted(d.items()):
            out.write("    (%r, %d, %d): 0x%x,\n" % (name, op, i, m))
    for (side, op), m in sorted(vopd.items()):
        out.write("    ('VOPD', %r, %d): 0x%x,\n" % (side, op, m))
    out.write("}\n")


# 16-bit immediates of SOPP/SOPK: which plain values llvm-mc-19 takes
SIMM_PROBES = ("65535", "65536", "-1", "-32768", "-32769", "0x100000000", "1.5")


def learn_simm_ranges(entries):
    """mnemonic -> 'any' (every 64-bit integer and real, truncated to 16 bits), 'u16'
    (0..65535), 'i16' (-32768..65535)."""
    lines, keys = [], []
    for (fam, op), e in sorted(entries.items()):
        if fam not in ("SOPP", "SOPK"):
            continue
        idx = [i for i, o in enumerate(e["ops"]) if o[0] == "imm"]
        if not idx:
            continue
        mnem, ops, mods = split_operands(e["text"])
        for v in SIMM_PROBES:
            t = list(ops)
            t[idx[0]] = v
            if e["mnem"].startswith("s_waitcnt_") and fam == "SOPK":
                t[0] = "null"                          # the only register these take
            lines.append(mnem + " " + ", ".join(t))
            keys.append(e["mnem"])
    res = assemble_lines(lines)
    seen = {}
    for m, (enc, err) in zip(keys, res):
        seen.setdefault(m, []).append(enc is not None)
    out = {}
    for m, ok in seen.items():
        acc = dict(zip(SIMM_PROBES, ok))
        if acc["0x100000000"] and acc["1.5"]:
            out[m] = "any"
        elif acc["-32768"] and acc["65535"]:
            out[m] = "i16"
        elif acc["65535"] and not acc["-1"]:
            out[m] = "u16"
        else:
            raise ValueError("unexpected immediate range of %s: %r" % (m, acc))
    return out


IMM_VALUES = (0, 3, 0x1234, 0xFFFF)


def learn_imm_styles(entries):
    """How a SOPP/SOPK 16-bit immediate prints: symbolic forms, decimal, hex..."""
    words, keys = [], []
    for (fam, op), e in entries.items():
        if fam not in ("SOPP", "SOPK") or not any(o[0] == "imm" for o in e["ops"]):
            continue
        for v in IMM_VALUES:
            words.append(probe_bytes(fam, with_field(fam, e["word"], "simm16", v)))
            keys.append((fam, op))
    res = disassemble_probes(words)
    for i in range(0, len(keys), len(IMM_VALUES)):
        fam, op = keys[i]
        e = entries[(fam, op)]
        t = [r[0] if r else "" for r in res[i:i + len(IMM_VALUES)]]
        joined = " ".join(x.partition(" ")[2] for x in t)
        for word, style in (("hwreg(", "hwreg"), ("sendmsg(", "sendmsg"), ("vmcnt", "waitcnt"),
                            ("instid", "delay_alu"), ("depctr", "depctr"), ("UC_VERSION", "version")):
            if word in joined:
                break
        else:
            if t[0] == e["mnem"]:
                style = "opt_dec"                  # s_endpgm: no operand when 0
            elif t[2].endswith(" 4660"):
                style = "udec"                     # branch offsets, s_call, loop counters
            elif t[1].endswith(" 0x3"):
                style = "hex"
            elif t[1].endswith(" 3") and t[2].endswith("0x1234"):
                style = "int16"                    # decimal up to 64, hex above
            else:
                raise ValueError("unknown immediate style: %r" % t)
        e["ops"] = [("imm", "simm16", style) if o[0] == "imm" else o for o in e["ops"]]
        # hwreg(...) was split into three pseudo operands; keep one
        out = []
        for o in e["ops"]:
            if not out or o != out[-1] or o[0] != "imm":
                out.append(o)
        e["ops"] = out


def sendmsg_src_fix(entries):
    for e in entries.values():
        if e["mnem"].startswith("s_sendmsg_rtn"):
            e["ops"] = [("msg", "ssrc0") if o[0] == "src" else o for o in e["ops"]]


def emit_alu(entries, out):
    fams, masks, dpp_accept = {}, {}, {}
    for (fam, op), e in sorted(entries.items()):
        for i, o in enumerate(e["ops"]):
            if o[0] == "src" and o[1] in ("src0", "src1", "src2") and \
                    e.get("sext", 0) >> int(o[1][3]) & 1:
                e["ops"][i] = o[:4] + ("i32" if o[4] == "b32" else o[4],)
        ops = tuple(o if o[0] != "src" else (o[0], o[1], o[2], o[4], masks.setdefault(o[3], len(masks)))
                    for o in e["ops"])
        ops = tuple(o if o[0] != "reg" or o[2] != "s" else o[:4] + (masks.setdefault(o[4], len(masks)),)
                    for o in ops)
        fams.setdefault(fam, {})[op] = (e["mnem"], ops, e["fixed"], e["word"] & e["fixed"] | e["canon"],
                                        e["mods"], e.get("dpp16"), e.get("dpp8"), e.get("dppmods", 0),
                                        e.get("opsel"))
        if e.get("dpp_accept"):
            dpp_accept[(fam, op)] = tuple(sorted((r, masks.setdefault(m, len(masks)))
                                                 for r, m in e["dpp_accept"].items()))
    out.write("# fixed_value also holds what llvm-mc writes into bits the decoder ignores\n")
    out.write("# family -> opcode -> (mnemonic, operands, fixed_mask, fixed_value, modifier_mask,\n"
              "#                      dpp16 mnemonic or None, dpp8 mnemonic or None, DPP16 word bits\n"
              "#                      allowed among fi/bound_ctrl/neg/abs [23:18]; bits 34..37: the\n"
              "#                      neg/abs llvm-mc prints; bits 30/31: src0/src1 negation prints\n"
              "#                      sext(); bits 26..28: VOP3 neg of src0..2 valid only with DPP),\n"
              "#                      op_sel printing:\n"
              "#                      (entries, index of bit 11, 12, 13, 14 or -1))\n"
              "# operand: ('reg', field, 's'|'v', nregs, vgpr limit | index into ACCEPT) | ('src', field, nregs, type,\n"
              "#          accepted codes\n"
              "#          index into ACCEPT) | ('fixed', text) | ('lit',) | ('imm', 'simm16', style) |\n"
              "#          ('msg', field)\n")

    out.write("ALU = {\n")
    for fam, ops in fams.items():
        out.write("    %r: {\n" % fam)
        for op, v in ops.items():
            out.write("        %d: %r,\n" % (op, v))
        out.write("    },\n")
    out.write("}\n")
    out.write("# (family, opcode) -> ((source, index into ACCEPT) ...): what src1/src2 of the VOP3\n"
              "# DPP form take (fewer kinds than without DPP)\n")
    out.write("DPP_ACCEPT = {\n")
    for k, v in sorted(dpp_accept.items()):
        out.write("    %r: %r,\n" % (k, v))
    out.write("}\n")
    return masks


def write_accept(out, masks):
    out.write("# ACCEPT[i]: bitmask over operand codes 0..511 that llvm-mc decodes in that operand\n")
    out.write("ACCEPT = [\n")
    for m in masks:
        out.write("    0x%x,\n" % m)
    out.write("]\n")


HEADER = """# Generated by scripts/gen_rdna3_tables.py from llvm-mc-19 (gfx1100); do not edit.
# Regenerate: python scripts/gen_rdna3_tables.py
# fmt: off
"""


def symbol_names(out):
    """Names llvm-mc prints inside hwreg(...), sendmsg(...) and s_version."""
    hw = disasm_words("SOPK", [put("SOPK", op=17, sdst=1, simm16=i | 31 << 11) for i in range(64)], None)
    names = {}
    for i, t in enumerate(hw):
        m = re.search(r"hwreg\((HW_REG_\w+)\)", t or "")
        if m:
            names[i] = m.group(1)
    msg = disasm_words("SOPP", [put("SOPP", op=54, simm16=i) for i in range(256)], None)
    msgs = {}
    for i, t in enumerate(msg):
        m = re.search(r"sendmsg\((MSG_\w+)\)", t or "")
        if m:
            msgs[i] = m.group(1)
    ver = disasm_words("SOPK", [put("SOPK", op=1, simm16=i) for i in range(256)], None)
    vers = {}
    for i, t in enumerate(ver):
        m = re.search(r"s_version (UC_VERSION_\w+)$", t or "")
        if m:
            vers[i] = m.group(1)
    lds = disasm_words("LDSDIR", [put("LDSDIR", op=i, vdst=1) for i in range(4)], None)
    ldsdir = {i: t.split()[0] for i, t in enumerate(lds) if t}
    exp = disasm_words("EXP", [put("EXP", target=i, en=1, vsrc0=1) for i in range(64)], None)
    targets = {i: t.split()[1] for i, t in enumerate(exp) if t and "invalid_target" not in t}
    out.write("LDSDIR_OPS = %s\n" % pprint.pformat(ldsdir, width=100))
    out.write("EXP_TARGETS = %s\n" % pprint.pformat(targets, width=100))
    out.write("HWREG_NAMES = %s\n" % pprint.pformat(names, width=100))
    out.write("SENDMSG_NAMES = %s\n" % pprint.pformat(msgs, width=100))
    out.write("VERSION_NAMES = %s\n" % pprint.pformat(vers, width=100))


SEGMENTS = ((0, "FLAT"), (1, "SCRATCH"), (2, "GLOBAL"))


def mem_entries():
    entries = {}
    for fam in ("SMEM", "DS", "FLAT", "MUBUF", "MTBUF"):
        variants = [(name, {"seg": seg}) for seg, name in SEGMENTS] if fam == "FLAT" else [(fam, None)]
        for name, fixed in variants:
            for op, (text, vals, word) in enumerate_family(fam, fixed).items():
                mnem, spec, mods = spec_from_text(fam, text, vals)
                entries[(name, op)] = dict(fam=fam, op=op, mnem=mnem, ops=spec, text=text, word=word,
                                           fixed=0, mods=0)
    learn_accept(entries)
    learn_bits(entries)
    learn_canonical(entries)
    return entries


def vopd_entries(alu):
    """VOPD halves: opx/opy -> (mnemonic, operands); types borrowed from the VOP1/VOP2 twin."""
    by_name = {}
    for (fam, op), e in alu.items():
        if fam in ("VOP1", "VOP2"):
            by_name[re.sub(r"_e32$", "", e["mnem"])] = e
    halves = {"X": {}, "Y": {}}
    for side, n in (("X", 16), ("Y", 32)):
        words, keys = [], []
        for op in range(n):
            for v1 in (60, 0):
                ox, oy = (op, 0) if side == "X" else (0, op)
                words.append(put("VOPD", opx=ox, opy=oy, srcx0=296, vsrcx1=v1 if side == "X" else 60,
                                 vdstx=20, srcy0=297, vsrcy1=v1 if side == "Y" else 61, vdsty=10))
                keys.append((op, v1))
        for (op, v1), t in zip(keys, disasm_words("VOPD", words)):
            if t is None or op in halves[side]:
                continue
            part = t.split(" :: ")[0 if side == "X" else 1]
            mnem, toks, _ = split_operands(part)
            base = by_name.get("v_" + mnem[len("v_dual_"):])
            dtype = "b32"
            if base is not None:
                dtype = next(o[4] for o in base["ops"] if o[0] == "src")
            ops = []
            for tok in toks:
                if tok == "0x12345678":
                    ops.append(("lit",))
                elif tok in ("v20", "v21"):
                    ops.append(("reg", "vdst", "v", 1))
                elif tok in ("v40", "v41"):
                    ops.append(("src", "src0", 1, dtype))
                elif tok in ("v60", "v61"):
                    ops.append(("reg", "vsrc1", "v", 1))
                else:
                    raise ValueError("VOPD operand %r in %r" % (tok, t))
            halves[side][op] = (mnem, tuple(ops))
    return halves


def emit_vopd(halves, out):
    out.write("# VOPD halves: 'X' (opx) / 'Y' (opy) -> opcode -> (mnemonic, operands)\n")
    out.write("VOPD = %s\n" % pprint.pformat(halves, width=110))


def emit_mem(entries, out, masks):
    out.write("# memory families: name -> opcode -> (mnemonic, operands, fixed_mask, fixed_value,\n"
              "#                                     modifier_mask); names FLAT/SCRATCH/GLOBAL share FLAT\n"
              "# operand: ('reg', field, 's'|'v', nregs, vgpr limit | index into ACCEPT) | ('src', field,\n"
              "#          nregs, type, index into ACCEPT) | ('off',) | ('imm', field)\n")
    fams = {}
    for (name, op), e in sorted(entries.items()):
        ops = []
        for o in e["ops"]:
            if o[0] == "src":
                o = ("src", o[1], o[2], "b32", masks.setdefault(o[3], len(masks)))
            elif o[0] == "reg" and o[2] == "s":
                o = o[:4] + (masks.setdefault(o[4], len(masks)),)
            ops.append(o)
        fams.setdefault(name, {})[op] = (e["mnem"], tuple(ops), e["fixed"], e["word"] & e["fixed"] | e["canon"],
                                         e["mods"])
    out.write("MEM = {\n")
    for fam, ops in fams.items():
        out.write("    %r: {\n" % fam)
        for op, v in ops.items():
            out.write("        %d: %r,\n" % (op, v))
        out.write("    },\n")
    out.write("}\n")
    fmts = disasm_words("MTBUF", [put("MTBUF", op=0, vdata=1, srsrc=1, format=f) for f in range(128)], None)
    names = {}
    for f, t in enumerate(fmts):
        m = re.search(r"format:\[(\w+)\]", t or "")
        if m:
            names[f] = m.group(1)
    out.write("BUF_FORMAT_NAMES = %s\n" % pprint.pformat(names, width=100))


# Spellings from before gfx11 that llvm-mc-19 still accepts. Candidate old names come from these
# renames (gfx11 moved to _bN/_uN/_iN type suffixes and load/store wording); every candidate is
# kept only if llvm-mc-19 assembles it to the same bytes as the gfx11 name.
RENAMES = [
    ("ds_load_", "ds_read_"), ("ds_store_", "ds_write_"), ("_2addr_stride64", "2st64"),
    ("_2addr", "2"), ("ds_storexchg", "ds_wrxchg"), ("ds_cmpstore", "ds_cmpst"),
    ("load_d16_hi_b16", "load_short_d16_hi"), ("load_d16_b16", "load_short_d16"),
    ("load_d16_hi_u8", "load_ubyte_d16_hi"), ("load_d16_hi_i8", "load_sbyte_d16_hi"),
    ("load_d16_u8", "load_ubyte_d16"), ("load_d16_i8", "load_sbyte_d16"),
    ("store_d16_hi_b8", "store_byte_d16_hi"), ("store_d16_hi_b16", "store_short_d16_hi"),
    ("d16_format", "format_d16"), ("d16_hi_format", "format_d16_hi"),
    ("_b512", "_dwordx16"), ("_b256", "_dwordx8"), ("_b128", "_dwordx4"), ("_b96", "_dwordx3"),
    ("_b64", "_dwordx2"), ("_b32", "_dword"), ("_u8", "_ubyte"), ("_i8", "_sbyte"),
    ("_u16", "_ushort"), ("_i16", "_sshort"), ("_b8", "_byte"), ("_b16", "_short"),
    ("atomic_add_u32", "atomic_add"), ("atomic_sub_u32", "atomic_sub"),
    ("atomic_swap_b32", "atomic_swap"), ("atomic_cmpswap_b32", "atomic_cmpswap"),
    ("atomic_and_b32", "atomic_and"), ("atomic_or_b32", "atomic_or"),
    ("atomic_xor_b32", "atomic_xor"), ("atomic_inc_u32", "atomic_inc"),
    ("atomic_dec_u32", "atomic_dec"), ("atomic_max_i32", "atomic_smax"),
    ("atomic_max_u32", "atomic_umax"), ("atomic_min_i32", "atomic_smin"),
    ("atomic_min_u32", "atomic_umin"), ("atomic_csub_u32", "atomic_csub"),
    ("atomic_add_u64", "atomic_add_x2"), ("atomic_sub_u64", "atomic_sub_x2"),
    ("atomic_swap_b64", "atomic_swap_x2"), ("atomic_cmpswap_b64", "atomic_cmpswap_x2"),
    ("atomic_and_b64", "atomic_and_x2"), ("atomic_or_b64", "atomic_or_x2"),
    ("atomic_xor_b64", "atomic_xor_x2"), ("atomic_inc_u64", "atomic_inc_x2"),
    ("atomic_dec_u64", "atomic_dec_x2"), ("atomic_max_i64", "atomic_smax_x2"),
    ("atomic_max_u64", "atomic_umax_x2"), ("atomic_min_i64", "atomic_smin_x2"),
    ("atomic_min_u64", "atomic_umin_x2"), ("atomic_max_f32", "atomic_fmax"),
    ("atomic_min_f32", "atomic_fmin"), ("atomic_cmpswap_f32", "atomic_fcmpswap"),
    ("s_and_not1_", "s_andn2_"), ("s_or_not1_", "s_orn2_"), ("s_and_not0_", "s_andn1_"),
    ("s_or_not0_", "s_orn1_"), ("s_ctz_i32_b32", "s_ff1_i32_b32"), ("s_ctz_i32_b64", "s_ff1_i32_b64"),
    ("s_clz_i32_u32", "s_flbit_i32_b32"), ("s_clz_i32_u64", "s_flbit_i32_b64"),
    ("s_cls_i32_i64", "s_flbit_i32_i64"), ("s_cls_i32", "s_flbit_i32"),
    ("v_clz_i32_u32", "v_ffbh_u32"), ("v_ctz_i32_b32", "v_ffbl_b32"), ("v_cls_i32", "v_ffbh_i32"),
    ("v_cvt_nearest_i32_f32", "v_cvt_rpi_i32_f32"), ("v_cvt_floor_i32_f32", "v_cvt_flr_i32_f32"),
    ("v_cvt_pk_rtz_f16_f32", "v_cvt_pkrtz_f16_f32"), ("_dx9_zero_f32", "_legacy_f32"),
    ("v_dot2acc_f32_f16", "v_dot2c_f32_f16"), ("v_mul_lo_u32", "v_mul_lo_i32"),
]


def _old_names(mnem):
    """Candidate pre-gfx11 spellings of a gfx11 mnemonic (any subset of the renames)."""
    out = {mnem}
    for new, old in RENAMES:
        out |= {m.replace(new, old) for m in out if new in m}
    out.discard(mnem)
    return out


def learn_aliases(texts):
    """{old spelling: gfx11 mnemonic}, each checked by llvm-mc-19 on a real instruction."""
    lines, keys = [], []
    for text in texts:
        mnem, _, rest = text.partition(" ")
        for old in sorted(_old_names(mnem)):
            lines.append(old + (" " + rest if rest else ""))
            keys.append((old, mnem, text))
    ref = {t: e for t, (e, _) in zip(texts, assemble_lines(texts))}
    aliases = {}
    for (old, mnem, text), (enc, err) in zip(keys, assemble_lines(lines)):
        if enc is not None and enc == ref.get(text):
            aliases.setdefault(old, mnem)
    return aliases


def main():
    import io
    entries = alu_entries()
    learn_imm_styles(entries)
    sendmsg_src_fix(entries)
    for e in entries.values():
        e.pop("sig", None)
    out = io.StringIO()
    out.write(HEADER)
    halves = vopd_entries(entries)
    masks = emit_alu(entries, out)
    emit_vopd(halves, out)
    mems = mem_entries()
    emit_mem(mems, out, masks)
    write_accept(out, masks)
    emit_special(out, learn_special(entries), learn_special(mems), learn_vopd_special(halves))
    forced = learn_forced(entries)
    forced.update(learn_forced(mems))
    out.write("# encoding suffixes llvm-mc-19 takes on each form's mnemonic (the base name with _e32\n"
              "# or _e64): (family, opcode) / (memory name, opcode) -> 'e32', 'e64', 'e32 e64' or ''\n")
    out.write("FORCED_SUFFIX = %s\n" % pprint.pformat(forced, width=100))
    out.write("# VOP3/VOP3P DPP sources llvm-mc-19 takes a literal in: (family, opcode, operand "
              "index) ->\n# whether it emits the literal dword (False: code 255, no dword)\n")
    out.write("DPP_LITERAL = %s\n" % pprint.pformat(learn_dpp_literal(entries), width=100))
    out.write("# SOPP/SOPK immediates: 'any' (any integer or real, truncated to 16 bits), 'u16', "
              "'i16'\n")
    out.write("SIMM_RANGE = %s\n" % pprint.pformat(learn_simm_ranges(entries), width=100))
    texts = [e["text"] for e in list(entries.values()) + list(mems.values())]
    aliases = learn_aliases(texts)
    out.write("# older spellings llvm-mc-19 accepts for gfx11 mnemonics: alias -> mnemonic\n")
    out.write("ALIASES = %s\n" % pprint.pformat(aliases, width=100))
    symbol_names(out)
    from gen_rdna3_mimg import emit as emit_mimg, learn_mimg
    emit_mimg(out, *learn_mimg())
    with open(OUT, "w") as f:
        f.write(out.getvalue())
    print("wrote", OUT, sum(1 for _ in entries), "ALU opcodes")


if __name__ == "__main__":
    main()
