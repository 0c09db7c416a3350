"""Image instructions (MIMG): decode and encode, bit-exact with llvm-mc-19.

    image_sample v[0:3], [v4, v8], s[8:15], s[12:15] dmask:0xf dim:SQ_RSRC_IMG_2D

Operands: the data registers (vdata), the address (vaddr: a VGPR range, or an NSA list of
separate VGPRs whose fifth entry is a range when more addresses are needed), the resource (8
SGPRs; 4 for the BVH ray queries) and, for sampling instructions, the sampler (4 SGPRs).
Modifiers come in llvm-mc's order: dmask dim unorm glc/slc/dlc r128 a16 tfe lwe d16 (each also
as no<name>). The register counts follow tables.MIMG, learned from llvm-mc-19 by
scripts/gen_rdna3_mimg.py: the data count from dmask (one register per channel, 4 for gather4),
d16 (two channels per register) and tfe (one more); the address count from the dim and a16.

The simulator has no texture unit: it refuses these instructions (drivers/emu/amd/shader).
"""
from . import operands as O
from .decoder import Instruction, Operand, _invalid
from .formats import ENCODING_BITS, FORMATS
from .syntax import SyntaxErr
from .tables import MIMG, MIMG_DIMS, MIMG_REGS

_F = FORMATS["MIMG"][1]
# modifier bits in llvm-mc's print order
MOD_ORDER = ("unorm", "glc", "slc", "dlc", "r128", "a16", "tfe", "lwe", "d16")
_BIT = {name: _F[name][0] for name in MOD_ORDER}
_BIT.update(tfe=53, lwe=54)
_DIM_IDS = {name: i for i, name in enumerate(MIMG_DIMS)}
BY_NAME = {e["mnem"]: (op, e) for op, e in MIMG.items()}


def _f(word, name):
    lo, width = _F[name]
    return (word >> lo) & ((1 << width) - 1)


def data_size(dmask, d16, tfe, gather):
    """Registers an image instruction reads or writes for these dmask / d16 / tfe bits."""
    n = 4 if gather else max(bin(dmask & 15).count("1"), 1)
    if d16:
        n = (n + 1) // 2
    return n + tfe


def _nsa_entries(first, regs, total):
    """(first register, count) of each NSA address entry for `total` address registers."""
    n = min(total, 5)
    starts = [first] + list(regs[:n - 1])
    sizes = [1] * n
    if total > 5:
        sizes[-1] = total - 4
    return list(zip(starts, sizes))


def decode(word, data, offset):
    op = _f(word, "op")
    e = MIMG.get(op)
    if e is None or (word ^ e["fval"]) & e["fmask"]:
        raise _invalid(data, offset)
    nsa = word & 1
    size = 12 if nsa else 8
    if offset + size > len(data):
        raise _invalid(data, offset, "truncated NSA address dword")
    regs = data[offset + 8:offset + 12] if nsa else b""
    vdata, vaddr = _f(word, "vdata"), _f(word, "vaddr")
    bvh = e["kind"] == "bvh"
    a16 = _f(word, "a16")
    mods = {name: (word >> _BIT[name]) & 1 for name in MOD_ORDER}
    if bvh:
        nd = 4
        if nsa:
            entries = [(r, n) for r, n in zip((vaddr,) + tuple(regs), e["asm_nsa"][a16][0])]
        else:
            entries = [(vaddr, e["asm_plain"][a16].bit_length() - 1)]
    else:
        dmask, dim = _f(word, "dmask"), _f(word, "dim")
        default, addr, counts = e["dec_nsa" if nsa else "dec"]
        nd, na = default
        # llvm-mc first decodes the opcode's default register counts
        if vdata + nd > 256 or (not nsa and vaddr + na > 256):
            raise _invalid(data, offset, "register out of range")
        want = counts[data_size(dmask, mods["d16"], mods["tfe"], e["gather"])]
        wa = addr[dim * 2 + a16]
        if want and wa and (want, wa) != default:
            # llvm-mc widens the default registers only when the wider ones exist
            fits = want == nd or vdata + want <= 256
            if wa != na:
                if not nsa:
                    fits = fits and vaddr + wa <= 256
                elif wa > 5:
                    fits = fits and regs[3] + wa - 4 <= 256
            if fits:
                nd, na = want, wa
        entries = _nsa_entries(vaddr, regs, na) if nsa else [(vaddr, na)]
    if vdata + nd > 256 or any(r + n > 256 for r, n in entries):
        raise _invalid(data, offset, "register out of range")
    res_n = 4 if bvh else 8
    srsrc = _f(word, "srsrc")
    if not (MIMG_REGS["srsrc4" if bvh else "srsrc8"] >> srsrc) & 1:
        raise _invalid(data, offset, "operand srsrc")
    ops = [Operand("vdata", "vgpr", vdata, nd, text=O.vgpr_text(vdata, nd))]
    for i, (r, n) in enumerate(entries):
        ops.append(Operand("vaddr%d" % i, "vgpr", r, n, text=O.vgpr_text(r, n)))
    ops.append(Operand("srsrc", "sgpr", srsrc * 4, res_n, text=O.sgpr_text(srsrc * 4, res_n)))
    if e["kind"] == "sampler":
        ssamp = _f(word, "ssamp")
        if not (MIMG_REGS["ssamp"] >> ssamp) & 1:
            raise _invalid(data, offset, "operand ssamp")
        ops.append(Operand("ssamp", "sgpr", ssamp * 4, 4, text=O.sgpr_text(ssamp * 4, 4)))
    tail = []
    modifiers = dict(mods, nsa=nsa)
    if not bvh:
        modifiers.update(dmask=dmask, dim=dim)
        if dmask:
            tail.append("dmask:0x%x" % dmask)
        tail.append("dim:SQ_RSRC_IMG_" + MIMG_DIMS[dim])
    for name in MOD_ORDER:
        if mods[name] and (e["mods"] >> _BIT[name]) & 1:
            tail.append(name)
    addr_text = ops[1].text if not nsa else "[" + ", ".join(o.text for o in ops[1:1 + len(entries)]) + "]"
    rest = [ops[0].text, addr_text] + [o.text for o in ops[1 + len(entries):]]
    text = e["mnem"] + (" " * e["nsa_blanks"] if nsa else " ") + ", ".join(rest)
    if tail:
        text += " " + " ".join(tail)
    return Instruction(e["mnem"], "MIMG", op, size, ops, modifiers, None, None, text), size


# ---- assembler ---------------------------------------------------------------------------------

# modifier groups in the order llvm-mc takes them; names in one group come in any order
_ORDER = {"dmask": 0, "dim": 1, "unorm": 2, "glc": 3, "slc": 3, "dlc": 3, "r128": 4, "a16": 5,
          "tfe": 6, "lwe": 7, "d16": 8}


def _modifiers(mods, e, mnem):
    """-> ({name: value}, {name: column}) from the statement's modifiers, in llvm-mc's order,
    each once (a cache bit and its no- form count as the same)."""
    vals, cols, last = {}, {}, -1
    for m, c in mods:
        name, colon, val = m.partition(":")
        neg = False
        if not colon and name.startswith("no") and name[2:] in _ORDER and name[2:] not in ("dmask", "dim"):
            name, neg = name[2:], True
        if name not in _ORDER or bool(colon) != (name in ("dmask", "dim")):
            raise SyntaxErr("unknown modifier %r for %s" % (m, mnem), c)
        if name in vals:
            raise SyntaxErr("%s repeats a modifier (llvm-mc refuses it)" % m, c)
        if _ORDER[name] < last:
            raise SyntaxErr("%s must come before the modifiers ahead of it (llvm-mc's order)" % m, c)
        last = _ORDER[name]
        if e["kind"] == "bvh" and name in ("dmask", "dim"):
            raise SyntaxErr("%s takes no %s" % (mnem, name), c)
        if name in _BIT and not (e["mods"] >> _BIT[name]) & 1 and name not in ("glc", "slc", "dlc"):
            raise SyntaxErr("%s does not take %s" % (mnem, name), c)
        if name in ("glc", "slc", "dlc") and (not neg or e["kind"] == "bvh") and not (e["mods"] >> _BIT[name]) & 1:
            # other images take noglc / noslc / nodlc where they have no such bit; BVH ones do not
            raise SyntaxErr("%s does not take %s" % (mnem, m), c)
        vals[name] = val if colon else (0 if neg else 1)
        cols[name] = c
    return vals, cols


def _dmask(text, col):
    from .constants import parse_number
    num = parse_number(text)
    if num is None:
        raise SyntaxErr("dmask expects a constant, got %r" % text, col)
    v = num[0]
    if num[1]:
        import struct
        v = struct.unpack("<q", struct.pack("<d", v))[0]
    return v & 15


def _dim(text, col):
    name = text[len("SQ_RSRC_IMG_"):] if text.startswith("SQ_RSRC_IMG_") else text
    dim = _DIM_IDS.get(name.upper())
    if dim is None:
        raise SyntaxErr("invalid dim %r (SQ_RSRC_IMG_1D ... 2D_MSAA_ARRAY, or 1D ...)" % text, col)
    return dim


def _vgprs(tok, col, role, mnem):
    """A VGPR operand -> (first, count)."""
    from .encode_alu import parse_reg
    r = parse_reg(tok, col)
    if r is None or r[0] != "v":
        raise SyntaxErr("operand %s of %s must be VGPRs, got %r" % (role, mnem, tok), col)
    return r[1], r[2]


def _address(tok, col, mnem):
    """vaddr text -> [(first, count)] (one entry: a plain range; more: an NSA list)."""
    t = tok.strip()
    if t.startswith("[") and t.endswith("]"):
        from .syntax import split_top
        inner = split_top(t[1:-1], col + 1 + (len(tok) - len(tok.lstrip())), ",")
        items = [(p, c) for p, c in inner]
        if any(not p for p, _ in items):
            raise SyntaxErr("empty entry in the address list of %s" % mnem, col)
        return [_vgprs(p, c, "vaddr", mnem) for p, c in items]
    return [_vgprs(tok, col, "vaddr", mnem)]


def _sgpr_tuple(tok, col, n, mask, role, mnem):
    from .encode_alu import parse_reg
    r = parse_reg(tok, col)
    if r is None or r[0] != "s" or r[2] != n or r[1] == 124 or r[1] >= 235:
        raise SyntaxErr("operand %s of %s must be %d SGPRs, got %r" % (role, mnem, n, tok), col)
    code = r[1]
    if code % 4 or not (mask >> (code // 4)) & 1:
        raise SyntaxErr("operand %s of %s cannot be %s" % (role, mnem, tok), col)
    return code // 4


def encode(op, e, mnem, ops, mods, ctx):
    bvh = e["kind"] == "bvh"
    want = 4 if e["kind"] == "sampler" else 3
    if len(ops) != want:
        what = "few" if len(ops) < want else "many"
        col = ops[min(len(ops), want) - 1][1] if ops else ctx.mnem_end
        raise SyntaxErr("too %s operands for %s: expected %d, got %d" % (what, mnem, want, len(ops)),
                        col)
    vals, cols = _modifiers(mods, e, mnem)
    w = ENCODING_BITS["MIMG"][1] | op << _F["op"][0] | e["fval"]
    for name in MOD_ORDER:
        if vals.get(name):
            w |= 1 << _BIT[name]
    off_data = ops[0][0].strip() == "off" and e.get("off_data")
    vfirst, nd = (0, 0) if off_data else _vgprs(ops[0][0], ops[0][1], "vdata", mnem)
    entries = _address(ops[1][0], ops[1][1], mnem)
    acol = ops[1][1]
    a16 = vals.get("a16", 0)
    tfe = vals.get("tfe", 0)
    if bvh:
        if not (e["asm_data"] >> nd) & 1:
            raise SyntaxErr("%s returns 4 registers, got %d" % (mnem, nd), ops[0][1])
        if len(entries) == 1:
            if not (e["asm_plain"][a16] >> entries[0][1]) & 1:
                raise SyntaxErr("image address size does not match a16 (%d registers)" % entries[0][1],
                                acol)
        elif tuple(n for _, n in entries) not in e["asm_nsa"][a16]:
            raise SyntaxErr("the address list of %s must be %s" % (
                mnem, " or ".join(str(list(lay)) for lay in e["asm_nsa"][a16]) + " registers"), acol)
    else:
        if "dim" not in vals:
            raise SyntaxErr("%s needs a dim: modifier" % mnem, ctx.mnem_end)
        dmask = _dmask(vals["dmask"], cols["dmask"]) if "dmask" in vals else 0
        dim = _dim(vals["dim"], cols["dim"])
        w |= dmask << _F["dmask"][0] | dim << _F["dim"][0]
        k = dim * 2 + a16
        if e["msaa"] and dim < 6:
            raise SyntaxErr("invalid dim; %s needs an MSAA one" % mnem, cols["dim"])
        if len(entries) == 1:
            n = entries[0][1]
            if not (e["asm_plain"][k] >> n) & 1:
                raise SyntaxErr("image address size does not match dim and a16 (%d registers)" % n,
                                acol)
        else:
            total = sum(n for _, n in entries)
            if any(n != 1 for _, n in entries[:-1]) or len(entries) > 5 or (
                    len(entries) < 5 and entries[-1][1] != 1):
                raise SyntaxErr("an NSA address list takes single VGPRs, a range only in its "
                                "fifth entry", acol)
            if not (e["asm_nsa"][k] >> total) & 1:
                raise SyntaxErr("image address size does not match dim and a16 (%d registers)"
                                % total, acol)
        if (e["atomic"] or off_data) and dmask not in (1, 3, 15):
            raise SyntaxErr("invalid atomic image dmask 0x%x" % dmask, cols.get("dmask", ctx.mnem_end))
        if e["gather"] and dmask not in (1, 2, 4, 8):
            raise SyntaxErr("invalid %s dmask: only one bit must be set" % mnem,
                            cols.get("dmask", ctx.mnem_end))
        need = data_size(dmask, vals.get("d16", 0), tfe, e["gather"])
        if not off_data and (nd != need or not (e["asm_data"] >> nd) & 1):
            raise SyntaxErr("image data size does not match dmask, d16 and tfe (%d registers, %s "
                            "takes %d)" % (nd, mnem, need), ops[0][1])
    w |= vfirst << _F["vdata"][0] | entries[0][0] << _F["vaddr"][0]
    w |= _sgpr_tuple(ops[2][0], ops[2][1], 4 if bvh else 8,
                     MIMG_REGS["srsrc4" if bvh else "srsrc8"], "srsrc", mnem) << _F["srsrc"][0]
    if e["kind"] == "sampler":
        w |= _sgpr_tuple(ops[3][0], ops[3][1], 4, MIMG_REGS["ssamp"], "ssamp", mnem) << _F["ssamp"][0]
    out = w.to_bytes(8, "little")
    if len(entries) > 1:
        out = (w | 1).to_bytes(8, "little") + bytes([r for r, _ in entries[1:]] + [0] * (5 - len(entries)))
    return out, []
