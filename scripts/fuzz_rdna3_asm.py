#!/usr/bin/env python3
"""Differential fuzzer of the gfx1100 assembler against llvm-mc-19: same bytes or same refusal.

    python scripts/fuzz_rdna3_asm.py [N] [SEED]        mutate N statements (default 50000) and
                                                       compare every one with llvm-mc-19
    python scripts/fuzz_rdna3_asm.py --freeze          rewrite the CI sample tests/data/rdna3/fuzz.txt
    python scripts/fuzz_rdna3_asm.py --show CLASS      print the statements of one mutation class

Seeds are the golden corpus (tests/data/rdna3/corpus.s: every opcode of every family, llvm-mc's
canonical text) and the hand-written spellings (syntax.s). Each statement gets one to three
mutations of these kinds:

  const     an operand becomes a constant of some width and form: decimal, hex, octal, binary,
            negative, 64-bit, out of range, integer expressions, floats (exponents, hex floats,
            values that overflow or underflow a 16/32-bit operand), and spellings llvm-mc refuses
            (Unicode digits, 1_000, -01.0, --14, 0x, 08...)
  reg       an operand becomes another register kind: VGPR/SGPR/TTMP ranges of other widths,
            misaligned or out-of-range tuples, vcc/exec/m0/null/scc, vccz/execz, src_* names, off
  srcmod    an operand gets source modifiers: -x, |x|, -|x|, neg(), abs(), sext(), nested ones
  mod       an instruction modifier is added, duplicated, or made to conflict with another one
            (clamp, omod, op_sel, offsets, cache bits, DPP controls and masks, dpp8, formats...)
  arity     an operand is dropped or repeated
  suffix    the mnemonic gets another encoding suffix (_e32, _e64, _dpp, _e64_dpp) or none
  near      small changes that keep most statements valid: another register of the same kind
            and width, a source constant of every form, -x / |x| on a register source, a
            modifier of the statement's own kind in its place, blanks and commas moved

Every statement is assembled by llvm-mc-19 and by assembler.rdna3; they must agree on accepting
it and, when both accept, on the bytes. Statements llvm-mc turns into a relocation (a bare name
like `inf` becomes an undefined symbol) are counted apart: this assembler does not emit
relocations and refuses them (README, "Not supported").
"""
import os
import random
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)

DATA = os.path.join(ROOT, "tests", "data", "rdna3")
SAMPLE = os.path.join(DATA, "fuzz.txt")
SAMPLE_SEED, SAMPLE_SIZE = 20261124, 6000

INTS = ["0", "1", "-1", "7", "16", "-16", "-17", "63", "64", "65", "-0", "0x10", "0X1f", "0xffff",
        "0x7fff", "0x8000", "0x10000", "0xfffffff0", "0xffffffff", "0xfffffff1", "0x80000000",
        "0x7fffffff", "-0x80000000", "0x100000000", "0xffffffff00000000", "0x3f800000",
        "0x3f000000", "0xbf800000", "0x3e22f983", "0x3c00", "0xbc00", "0x3800", "0x3118",
        "0x3ff0000000000000", "0x3fe0000000000000", "0xbff0000000000000", "0x3fc45f306dc9c882",
        "0x4000000000000000", "0x8000000000000000", "0xffffffffffffffff", "0x1ffffffffffffffff",
        "-4294967296", "4294967295", "-2147483649", "12345", "-12345", "010", "-010", "08", "0b101",
        "0B11", "0b", "0x", "0o17", "1_000", "1000", "10u", "10ll", "10ULL", "10h", "0ah", "1h",
        "\u0663", "v\u0663", "1\u0660", "0xg"]
EXPRS = ["1+2", "(1<<4)", "1<<31", "1<<32", "(1<<63)", "-(3)", "~0", "~0x0f", "!0", "!5", "-~0",
         "2*-3", "4/2", "7/0", "5%3", "-7/2", "-7%3", "-16>>2", "0xff&0x0f", "1|2", "1^3",
         "1==1", "1!=1", "2<3", "2>=3", "1&&0", "0||2", "(1)", "((2))", "-(-2)", "- 2", "+1",
         "+1.0", "1+", "(1", "1)", "1 2", "64-1", "0-17", "0x10*2", "16*4+1", "1<>2",
         "1<=1", "3>2>1"]
FLOATS = ["0.0", "-0.0", "0.5", "-0.5", "1.0", "-1.0", "2.0", "-2.0", "4.0", "-4.0", "1.5",
          "-1.5", "0.15915494", "0.15915494309189532", "0.1591549430918953", "0.15915493",
          "3.0", "100.0", "65504.0", "65505.0", "65520.0", "1e5", "1e-5", "1e-8", "1e-10",
          "6e-8", "5.96e-8", "3e-8", "1e-40", "1.0e-50", "1e38", "3.4028235e38", "3.5e38",
          "1e40", "1e300", "1e-300", "1.", ".5", "-.5", "5.", "1e2", "1E2", "1.e2", "1e+2",
          "1.5e", "1e", "1.5e+", "0x1p3", "0x1.8p1", "0x.8p1", "0x1p-126", "-0x1p0", "01.0",
          "-01.0", "00.5", "0.5.5", "1.5f", "--1.0", "- 1.0", "(1.0)", "-(1.0)", "1.0+1",
          "1+1.0", "inf", "-inf", "nan", "1.0e1000"]
SGPRS = ["s0", "s1", "s5", "s101", "s104", "s105", "s106", "s[0:1]", "s[2:3]", "s[1:2]",
         "s[4:7]", "s[2:5]", "s[0:3]", "s[8:15]", "s[0:15]", "s[104:105]", "s[105:106]", "s[4:4]",
         "s[5:4]", "s[0:2]", "s[0 : 1]", "ttmp0", "ttmp15", "ttmp[0:1]", "ttmp[4:7]", "ttmp16",
         "vcc", "vcc_lo", "vcc_hi", "exec", "exec_lo", "exec_hi", "m0", "null", "scc", "vccz",
         "execz", "src_vccz", "src_execz", "src_scc", "src_shared_base", "src_shared_limit",
         "src_private_base", "src_private_limit", "shared_base", "private_limit",
         "src_pops_exiting_wave_id", "pops_exiting_wave_id", "lds_direct", "src_lds_direct",
         "flat_scratch", "xnack_mask", "tba", "tma", "[s0,s1]", "[s1,s2]", "s", "S0", "M0",
         "VCC"]
VGPRS = ["v0", "v1", "v127", "v128", "v255", "v256", "v[0:1]", "v[1:2]", "v[254:255]",
         "v[255:256]", "v[0:3]", "v[1:4]", "v[0:7]", "v[8:15]", "v[0:2]", "v[4:4]", "v[5:4]",
         "v1.l", "v1.h", "v200.l", "v[1:2].l", "[v0,v1]", "[v1,v3]", "v", "V1", "a0", "a[0:1]",
         "off", "OFF", "v[0:1:2]", "v[-1:0]", "v[0:4]", "v[2:6]", "v[0:5]", "v[0:8]",
         "v[0:10]", "v[0:11]", "v[0:12]", "v[250:255]",
         # image address lists (NSA)
         "[v4]", "[v[4:5]]", "[v4, v8]", "[v4, v5]", "[v4, v9, v2]", "[v4, v5, v6, v7]",
         "[v4, v5, v6, v7, v8]", "[v4, v5, v6, v7, v[8:9]]", "[v4, v5, v6, v7, v[8:11]]",
         "[v4, v[5:6]]", "[v4, v5, v6, v7, v8, v9]", "[v4, s5]", "[v4,]", "[v4 v5]", "[]",
         "[v255, v0]", "[v4, v5, v[6:8], v[9:11], v[12:14]]", "[v4, v5, v[6:8], v[9:11]]",
         "[v[4:5], v6, v[7:9], v[10:12], v[13:15]]", "[v4, v5, v6, v7, v[254:256]]"]
SRCMODS = ["-{x}", "|{x}|", "-|{x}|", "neg({x})", "abs({x})", "neg(abs({x}))", "neg(|{x}|)",
           "abs(|{x}|)", "|abs({x})|", "abs(neg({x}))", "|neg({x})|", "-neg({x})", "sext({x})",
           "sext(-{x})", "-sext({x})", "neg(sext({x}))", "--{x}", "- {x}", "-(-{x})",
           "|-{x}|", "neg(-{x})", "abs(-{x})", "-abs({x})", "neg({x}", "|{x}", "neg ({x})",
           "NEG({x})", "lit({x})"]
MODS = ["clamp", "mul:2", "mul:4", "div:2", "mul:3", "mul:1", "div:4", "glc", "slc", "dlc", "gds",
        "tfe", "offen", "idxen", "lds", "nv", "sc0", "scc", "offset:0", "offset:1", "offset:4095",
        "offset:4096", "offset:-1", "offset:-4096", "offset:-4097", "offset:0xfffff",
        "offset:0x100000", "offset:-0x100000", "offset:65535", "offset:65536", "offset:1.0",
        "offset:s0", "offset:", "offset", "offset0:255", "offset0:256", "offset1:1",
        "op_sel:[1,0]", "op_sel:[0,1,0]", "op_sel:[1,1,1,1]", "op_sel:[0,0,0,1]",
        "op_sel:[1,0,0]", "op_sel:[2,0]", "op_sel:[1]", "op_sel_hi:[1,1]", "op_sel_hi:[0,0,0]",
        "op_sel_hi:[1,0,1]", "neg_lo:[1,0]", "neg_lo:[1,1,1]", "neg_hi:[0,1,0]",
        "neg_lo:[0,0,1]", "quad_perm:[0,1,2,3]", "quad_perm:[3,2,1,0]", "quad_perm:[23,0,0,0]",
        "quad_perm:[0,0,0,123]", "quad_perm:[0,1,2]", "quad_perm:[0,1,2,3,0]",
        "quad_perm:[0,1,2,4]", "quad_perm:[-1,0,0,0]", "row_shl:1", "row_shl:0", "row_shl:15",
        "row_shl:16", "row_shr:3", "row_ror:7", "row_mirror", "row_half_mirror", "row_share:0",
        "row_share:15", "row_xmask:5", "row_newbcast:1", "row_bcast:15", "wave_shl:1",
        "row_mask:0x0", "row_mask:0xf", "row_mask:0x10", "bank_mask:0x5", "bank_mask:16",
        "bound_ctrl:0", "bound_ctrl:1", "bound_ctrl:2", "fi:0", "fi:1", "fi:2",
        "dpp8:[0,1,2,3,4,5,6,7]", "dpp8:[7,6,5,4,3,2,1,0]", "dpp8:[0,1,2,3,4,5,6,8]",
        "dpp8:[0,1,2,3,4,5,6]", "dpp8:[0,1,2,3,4,5,6,7", "dpp8:[0,1,2,3,4,5,6,7]]",
        "wait_exp:3", "wait_exp:8", "wait_vdst:2", "wait_vdst:16", "format:[BUF_FMT_32_FLOAT]",
        "format:22", "format:127", "format:128", "format:[BUF_FMT_8_UNORM]", "done", "row_en",
        "vm", "compr", "high", "neg:[1,0]", "abs:[0,1]",
        # image instructions, and the no- forms of named bits (llvm-mc takes noglc, noclamp...)
        "dmask:0x1", "dmask:0xf", "dmask:0x3", "dmask:0x2", "dmask:0", "dmask:0x10", "dmask:-1",
        "dmask:1.0", "dmask:(1<<2)", "dmask", "dmask:0x10000000000000001", "dim:1D", "dim:2D",
        "dim:3D", "dim:CUBE", "dim:cube", "dim:1d", "dim:SQ_RSRC_IMG_2D_ARRAY", "dim:2D_MSAA",
        "dim:SQ_RSRC_IMG_2D_MSAA_ARRAY", "dim:2d_msaa_array", "dim:0", "dim:4D", "dim",
        "dim:sq_rsrc_img_1D", "dim:SQ_RSRC_IMG_1D_ARRAY", "unorm", "r128", "a16", "d16", "lwe",
        "da", "a16:1", "unorm:1", "noglc", "noslc", "nodlc", "nounorm", "nor128", "noa16", "notfe",
        "nolwe", "nod16", "noclamp", "nogds", "nooffen", "noidxen", "nodone", "nolds", "noscc",
        "nosc0", "NOGLC", "no glc"]
SUFFIXES = ["", "_e32", "_e64", "_dpp", "_e64_dpp", "_sdwa"]


def _split(text):
    """'mnem a, b, c mod mod' -> (mnem, [operands], [modifiers]) at the top level."""
    mnem, _, rest = text.partition(" ")
    parts, depth, cur = [], 0, ""
    for ch in rest:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur.strip())
    mods = []
    if parts:
        words, depth, w = [], 0, ""
        for ch in parts[-1]:
            if ch in "([":
                depth += 1
            elif ch in ")]":
                depth -= 1
            if ch == " " and depth == 0:
                if w:
                    words.append(w)
                w = ""
            else:
                w += ch
        if w:
            words.append(w)
        if words:
            parts[-1], mods = words[0], words[1:]
    return mnem, parts, mods


def _join(mnem, ops, mods):
    s = mnem
    if ops:
        s += " " + "".join(o if o.endswith((",", " ")) and i < len(ops) - 1 else
                           o + (", " if i < len(ops) - 1 else "") for i, o in enumerate(ops))
    if mods:
        s += " " + " ".join(mods)
    return s


def _constant(rng):
    pool = rng.choice((INTS, INTS, EXPRS, FLOATS, FLOATS))
    c = rng.choice(pool)
    if rng.random() < 0.1:
        c = str(rng.choice((rng.randrange(-20, 70), rng.getrandbits(16), rng.getrandbits(32),
                            -rng.getrandbits(31), rng.getrandbits(40))))
    elif rng.random() < 0.05:
        c = hex(rng.getrandbits(rng.choice((8, 16, 32, 64))))
    return c


_REG = re.compile(r"^(v|s|ttmp)(?:(\d+)|\[(\d+):(\d+)\])$")
_SMALL_CONSTS = ["0", "1", "-1", "16", "-16", "64", "65", "-17", "0.5", "-0.5", "1.0", "-4.0",
                 "2.0", "0.15915494", "0x3118", "0x3c00", "0x3e22f983", "0xfffffff0", "0xffff",
                 "0xfff0", "0x12345678", "1.5", "100.0", "0x1234", "-0.0", "3", "42"]
_FAMILY_MODS = {"v_": ["clamp", "mul:2", "mul:4", "div:2", "op_sel:[0,1]", "op_sel:[1,0,0,1]",
                       "op_sel_hi:[0,1]", "neg_lo:[1,0]", "neg_hi:[0,1,1]", "quad_perm:[1,0,3,2]",
                       "row_shl:3", "row_mirror", "dpp8:[1,0,3,2,5,4,7,6]", "fi:1",
                       "bound_ctrl:1", "row_mask:0x3 bank_mask:0x5", "wait_exp:2"],
                "global_": ["offset:-8", "offset:4095", "glc", "slc", "dlc", "glc slc",
                            "offset:16 dlc"],
                "flat_": ["offset:8", "glc", "slc dlc"], "scratch_": ["offset:-16", "glc"],
                "ds_": ["offset:256", "offset0:1 offset1:2", "gds", "offset:65535"],
                "buffer_": ["offset:4095", "offen", "idxen", "glc", "tfe", "idxen offen"],
                "tbuffer_": ["format:[BUF_FMT_32_FLOAT]", "format:22", "offset:12"],
                "s_load": ["offset:0x10", "glc", "dlc"], "s_buffer": ["glc"],
                "image_": ["glc", "dlc slc", "unorm", "r128", "a16", "tfe", "lwe", "d16",
                           "noa16", "nod16", "notfe", "dmask:0x3", "dmask:0xf", "dmask:0x1",
                           "dmask:0x8", "dim:2D", "dim:SQ_RSRC_IMG_3D", "dim:1D_ARRAY",
                           "dim:2D_MSAA", "tfe lwe", "unorm glc"]}
_VGPR_RANGE = re.compile(r"^v(?:(\d+)|\[(\d+):(\d+)\])$")


def _nsa(rng, n):
    """An NSA address list of n registers (the fifth entry a range when n > 5)."""
    regs = ["v%d" % rng.randrange(0, 256) for _ in range(min(n, 5))]
    if n > 5:
        lo = rng.randrange(0, 256 - (n - 4) + 1)
        regs[4] = "v[%d:%d]" % (lo, lo + n - 5)
    return "[" + ", ".join(regs) + "]"


def _near(rng, mnem, ops, mods):
    """A change that usually keeps the statement valid."""
    r = rng.random()
    if mnem.startswith("image_") and len(ops) > 1 and r < 0.15:
        m = _VGPR_RANGE.match(ops[1])                  # the address as an NSA list, or back
        if m:
            n = 1 if m.group(1) else int(m.group(3)) - int(m.group(2)) + 1
            ops[1] = _nsa(rng, n + rng.choice((0, 0, 0, 1, -1)))
        elif ops[1].startswith("["):
            n = ops[1].count(",") + 1
            lo = rng.randrange(0, 250)
            ops[1] = "v%d" % lo if n == 1 else "v[%d:%d]" % (lo, lo + n - 1)
        return
    if ops and r < 0.35:
        i = rng.randrange(len(ops))
        m = _REG.match(ops[i])
        if m:
            pre = m.group(1)
            width = 1 if m.group(2) else int(m.group(4)) - int(m.group(3)) + 1
            top = {"v": 256, "s": 106, "ttmp": 16}[pre]
            align = 1 if pre == "v" else min(1 << (width - 1).bit_length(), 4)
            lo = rng.randrange(0, max(1, top - width + 1), align)
            ops[i] = "%s%d" % (pre, lo) if width == 1 else "%s[%d:%d]" % (pre, lo, lo + width - 1)
        return
    if ops and r < 0.65:
        i = rng.randrange(1, len(ops)) if len(ops) > 1 else 0
        ops[i] = rng.choice(_SMALL_CONSTS)
        return
    if ops and r < 0.8:
        i = rng.randrange(1, len(ops)) if len(ops) > 1 else 0
        if _REG.match(ops[i]):
            ops[i] = rng.choice(("-%s", "|%s|", "-|%s|", "neg(%s)", "abs(%s)")) % ops[i]
        return
    if r < 0.95:
        for pre, pool in _FAMILY_MODS.items():
            if mnem.startswith(pre):
                new = rng.choice(pool).split()
                at = rng.randrange(len(mods) + 1)
                mods[at:at] = new
                return
        return
    # spelling: commas optional, blanks around them
    ops[:] = [o + rng.choice(("", " ", ",")) for o in ops[:-1]] + ops[-1:]


def mutate(rng, text):
    """One to three mutations of a statement -> (new text, mutation classes)."""
    mnem, ops, mods = _split(text)
    if " :: " in text:
        left, _, right = text.partition(" :: ")
        if rng.random() < 0.5:
            new, kinds = mutate(rng, left)
            return new + " :: " + right, kinds
        new, kinds = mutate(rng, right)
        return left + " :: " + new, kinds
    kinds = []
    for _ in range(rng.choice((1, 1, 1, 2, 2, 3))):
        kind = rng.choice(("const", "const", "const", "reg", "srcmod", "srcmod", "mod", "mod",
                           "arity", "suffix", "near", "near", "near", "near", "near", "near"))
        if kind == "near":
            _near(rng, mnem, ops, mods)
            kinds.append(kind)
            continue
        if kind in ("const", "reg", "srcmod") and not ops:
            kind = "mod"
        if kind == "const":
            i = rng.randrange(len(ops))
            ops[i] = _constant(rng)
        elif kind == "reg":
            i = rng.randrange(len(ops))
            ops[i] = rng.choice(SGPRS if rng.random() < 0.5 else VGPRS)
        elif kind == "srcmod":
            i = rng.randrange(len(ops))
            if rng.random() < 0.4:
                ops[i] = _constant(rng)
            ops[i] = rng.choice(SRCMODS).replace("{x}", ops[i])
        elif kind == "mod":
            r = rng.random()
            if mods and r < 0.25:
                mods.append(rng.choice(mods))                      # duplicate
            elif mods and r < 0.35:
                mods.insert(0, rng.choice(MODS))                   # before the others
            elif mods and r < 0.45:
                del mods[rng.randrange(len(mods))]
            else:
                mods.append(rng.choice(MODS))
        elif kind == "arity":
            if ops and rng.random() < 0.5:
                del ops[rng.randrange(len(ops))]
            elif ops:
                ops.insert(rng.randrange(len(ops) + 1), rng.choice(ops))
        else:
            base = re.sub(r"(_e32|_e64|_dpp|_e64_dpp|_sdwa)$", "", mnem)
            mnem = base + rng.choice(SUFFIXES)
        kinds.append(kind)
    return _join(mnem, ops, mods), kinds


def seeds():
    out = []
    for name in ("corpus.s", "syntax.s"):
        with open(os.path.join(DATA, name)) as f:
            for line in f:
                if not line.startswith(";"):
                    out.append(line.rpartition(" ; [")[0])
    return out


def statements(n, seed):
    """n mutated statements (deterministic for a seed) with their mutation classes."""
    rng = random.Random(seed)
    pool = seeds()
    out, seen = [], set()
    while len(out) < n:
        text, kinds = mutate(rng, rng.choice(pool))
        if text in seen or "\n" in text or ";" in text or "//" in text or "#" in text:
            continue
        seen.add(text)
        out.append((text, kinds))
    return out


def llvm_verdicts(lines):
    """llvm-mc-19's verdict per line: bytes, None (refused) or 'reloc' (needs a relocation)."""
    from gen_rdna3_oracle import assemble_lines
    out = []
    for i in range(0, len(lines), 20000):
        for enc, err in assemble_lines(lines[i:i + 20000]):
            out.append(None if err is not None else enc)
    return out


def our_verdict(text):
    from assembler.errors import AssemblerError
    from assembler.rdna3 import assemble
    try:
        return assemble(text)
    except AssemblerError as e:
        return e


def compare(items, theirs):
    """-> (counts, [(text, kinds, llvm verdict, ours)] disagreements)."""
    counts = dict(statements=len(items), agree=0, disagree=0, both_accept=0, both_refuse=0,
                  relocation=0)
    bad = []
    for (text, kinds), t in zip(items, theirs):
        o = our_verdict(text)
        if t == "reloc":
            counts["relocation"] += 1
            if isinstance(o, bytes):
                bad.append((text, kinds, t, o))
                counts["disagree"] += 1
            continue
        if t is None and not isinstance(o, bytes):
            counts["both_refuse"] += 1
            counts["agree"] += 1
        elif t is not None and isinstance(o, bytes) and o == t:
            counts["both_accept"] += 1
            counts["agree"] += 1
        else:
            counts["disagree"] += 1
            bad.append((text, kinds, t, o))
    return counts, bad


def _show(t):
    if t is None:
        return "refused"
    if t == "reloc":
        return "relocation"
    if isinstance(t, bytes):
        return t.hex()
    return "refused: %s" % t


def freeze():
    items = statements(SAMPLE_SIZE, SAMPLE_SEED)
    theirs = llvm_verdicts([t for t, _ in items])
    with open(SAMPLE, "w") as f:
        f.write("# Generated by scripts/fuzz_rdna3_asm.py --freeze with llvm-mc-19 (gfx1100); do not "
                "edit.\n# statement<TAB>llvm-mc's bytes in hex, or 'refused', or 'relocation'\n")
        for (text, _), t in zip(items, theirs):
            f.write("%s\t%s\n" % (text, _show(t)))
    print("wrote %s: %d statements, %d accepted by llvm-mc" % (
        SAMPLE, len(items), sum(isinstance(t, bytes) for t in theirs)))


def main(argv):
    if "--help" in argv or "-h" in argv:
        print(__doc__)
        return 0
    from gen_rdna3_oracle import available
    if not available():
        print("llvm-mc-19 is not installed: the CI sample (tests/data/rdna3/fuzz.txt) is what "
              "tests/test_rdna3_fuzz.py checks without it", file=sys.stderr)
        return 2
    if "--freeze" in argv:
        freeze()
        return 0
    show = None
    if "--show" in argv:
        show = argv[argv.index("--show") + 1]
        argv = [a for a in argv if a not in ("--show", show)]
    args = [a for a in argv if not a.startswith("-")]
    n = int(args[0]) if args else 50000
    seed = int(args[1]) if len(args) > 1 else 1
    t0 = time.time()
    items = statements(n, seed)
    theirs = llvm_verdicts([t for t, _ in items])
    counts, bad = compare(items, theirs)
    by_kind = {}
    for text, kinds, t, o in bad:
        by_kind.setdefault("+".join(sorted(set(kinds))), []).append((text, t, o))
    for kind, rows in sorted(by_kind.items(), key=lambda kv: -len(kv[1])):
        if show and show != kind:
            continue
        print("== %s: %d" % (kind, len(rows)))
        for text, t, o in rows[:None if show else 8]:
            print("   %s\n      llvm-mc: %s\n      ours:    %s" % (text, _show(t), _show(o)))
    print("statements %(statements)d  agree %(agree)d (both accept %(both_accept)d, both refuse "
          "%(both_refuse)d)  disagree %(disagree)d  relocations %(relocation)d" % counts,
          "(%.1fs)" % (time.time() - t0))
    return 1 if counts["disagree"] else 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except BrokenPipeError:
        sys.exit(0)
