"""MIMG (image instruction) facts for assembler/rdna3/tables.py, learned from llvm-mc-19.

Used by gen_rdna3_tables.py; `python scripts/gen_rdna3_mimg.py` prints the learned table and
`python scripts/gen_rdna3_mimg.py --write` replaces only the image part of tables.py (~1 minute).

The decoder facts come from llvm-mc-19 --disassemble over every opcode with every dmask / d16 /
tfe / dim / a16 combination, in both the plain and the NSA (non-sequential address) layout:
  * which opcodes exist, whether they take a sampler (ssamp), whether they are BVH ray queries,
  * which bits must keep their value and which modifier bits exist,
  * how many data and address registers llvm-mc prints for each combination. llvm-mc decodes a
    default register count for an opcode and widens it to the size that dmask/d16/tfe and
    dim/a16 call for only when an instruction variant of that size exists (and the widened
    range fits below v256); otherwise it prints the default. The model learned here -- the
    address count per dim/a16, the data count per data size, the default -- is checked against
    every probe before it is written.
The assembler facts come from llvm-mc-19 assembling statements: which address register counts
(plain ranges, and NSA lists) it takes for each dim/a16, which data register counts, whether
dmask must name one channel (gather4) or an atomic size (0x1, 0x3, 0xf), whether the dim must be
an MSAA one, and for the BVH queries which NSA layouts it takes.
"""
import itertools
import os
import pprint
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

from gen_rdna3_oracle import assemble_lines, disassemble_probes  # noqa: E402

DIM_NAMES = ("1D", "2D", "3D", "CUBE", "1D_ARRAY", "2D_ARRAY", "2D_MSAA", "2D_MSAA_ARRAY")
# modifier bits, in llvm-mc's print order, and their position in the 64-bit word
MOD_BITS = (("unorm", 7), ("glc", 14), ("slc", 12), ("dlc", 13), ("r128", 15), ("a16", 16),
            ("tfe", 53), ("lwe", 54), ("d16", 17))
OPERAND_BITS = (0x1F << 58 | 0x3F << 26 | 0x1F << 48 | 0xFF << 40 | 0xFF << 32 | 0xFF << 18 | 0xF << 8
                | 0x7 << 2 | 1)                    # ssamp srsrc vdata vaddr op dmask dim nsa


def word(op, nsa=0, dim=0, dmask=1, vaddr=4, vdata=20, srsrc=2, ssamp=0, regs=(8, 9, 10, 11),
         **bits):
    w = nsa | dim << 2 | dmask << 8 | op << 18 | 0x3C << 26
    w |= vaddr << 32 | vdata << 40 | srsrc << 48 | ssamp << 58
    for name, pos in MOD_BITS:
        if bits.get(name):
            w |= 1 << pos
    out = w.to_bytes(8, "little")
    if nsa:
        out += bytes(regs)
    return out


def _count(tok):
    """'v4' -> 1, 'v[4:6]' -> 3."""
    if tok.startswith("v["):
        a, b = tok[2:-1].split(":")
        return int(b) - int(a) + 1
    return 1


def parse_text(text):
    """-> (mnemonic, data count, [address entry counts], srsrc text, ssamp text or None, mods)."""
    mnem, _, rest = text.partition(" ")
    rest = rest.strip()
    data, _, rest = rest.partition(", ")
    if rest.startswith("["):
        addr, _, rest = rest[1:].partition("], ")
        entries = [_count(t) for t in addr.split(", ")]
    else:
        addr, _, rest = rest.partition(", ")
        entries = [_count(addr)]
    parts = rest.split(" ")
    res = parts[0].rstrip(",")
    samp = None
    i = 1
    if parts[0].endswith(","):
        samp = parts[1]
        i = 2
    return mnem, _count(data), entries, res, samp, parts[i:]


def data_size(dmask, d16, tfe, gather):
    n = 4 if gather else max(bin(dmask & 15).count("1"), 1)
    if d16:
        n = (n + 1) // 2
    return n + tfe


def enumerate_ops():
    probes, keys = [], []
    for op in range(256):
        for kind in ("plain", "sampler", "bvh"):
            kw = dict(plain=dict(), sampler=dict(ssamp=3),
                      bvh=dict(dmask=15, r128=1, unorm=1))[kind]
            probes.append(word(op, **kw))
            keys.append((op, kind))
    found = {}
    for (op, kind), r in zip(keys, disassemble_probes(probes)):
        if r is not None and op not in found:
            if kind != "bvh":
                kind = "sampler" if parse_text(r[0])[4] is not None else "plain"
            found[op] = (kind, r[0].split(" ")[0])
    return found


def learn_bits(ops):
    """Fixed bits (flipping one makes llvm-mc refuse the word) and the modifier bits each opcode
    has; (fixed mask, fixed value, modifier mask)."""
    probes, keys = [], []
    for op, (kind, _) in ops.items():
        base = int.from_bytes(_base(op, kind), "little")
        for b in range(64):
            if (OPERAND_BITS >> b) & 1 and not (kind != "sampler" and b >= 58) and not (
                    kind == "bvh" and (b < 12 and b >= 2)):
                continue
            probes.append((base ^ (1 << b)).to_bytes(8, "little"))
            keys.append((op, b))
    out = {op: [0, 0, 0] for op in ops}
    for (op, b), r in zip(keys, disassemble_probes(probes)):
        base = int.from_bytes(_base(op, ops[op][0]), "little")
        if r is None:
            out[op][0] |= 1 << b
            out[op][1] |= base & (1 << b)
        elif any(pos == b for _, pos in MOD_BITS):
            out[op][2] |= 1 << b
    return out


def _base(op, kind):
    if kind == "bvh":
        return word(op, dmask=15, r128=1, unorm=1)
    return word(op, ssamp=3 if kind == "sampler" else 0)


def learn_regs(ops):
    """Register masks of srsrc (8 or 4 SGPRs) and ssamp: field values llvm-mc decodes."""
    probes, keys = [], []
    for op, (kind, _) in ops.items():
        for v in range(32):
            b = _base(op, kind)
            w = int.from_bytes(b, "little")
            probes.append(((w & ~(0x1F << 48)) | v << 48).to_bytes(8, "little"))
            keys.append((kind == "bvh", "srsrc", v))
            if kind == "sampler":
                probes.append(((w & ~(0x1F << 58)) | v << 58).to_bytes(8, "little"))
                keys.append((False, "ssamp", v))
    masks = {}
    for (bvh, field, v), r in zip(keys, disassemble_probes(probes)):
        k = ("srsrc4" if bvh else "srsrc8") if field == "srsrc" else "ssamp"
        masks.setdefault(k, {}).setdefault(v, set()).add(r is not None)
    out = {}
    for k, d in masks.items():
        m = 0
        for v, seen in d.items():
            if len(seen) != 1:
                raise ValueError("%s %d decodes for some opcodes only" % (k, v))
            if True in seen:
                m |= 1 << v
        out[k] = m
    return out


def learn_sizes(ops, bits):
    """Per opcode and layout (plain / NSA): how llvm-mc decodes register counts.
    -> {op: (gather, {nsa: (default (data, addr), {dim*2+a16: addr}, {data size: data count})})}"""
    out = {}
    probes, keys = [], []
    for op, (kind, _) in ops.items():
        if kind == "bvh":
            continue
        d16s = (0, 1) if bits[op][2] >> 17 & 1 else (0,)
        ss = 3 if kind == "sampler" else 0
        for nsa in (0, 1):
            probes.append(word(op, nsa=nsa, dmask=15, tfe=1, vdata=252, ssamp=ss))
            keys.append((op, nsa, "default"))
            for dm, d16, tfe, dim, a16 in itertools.product((0, 1, 3, 7, 15), d16s, (0, 1),
                                                            range(8), (0, 1)):
                probes.append(word(op, nsa=nsa, dmask=dm, d16=d16, tfe=tfe, dim=dim, a16=a16,
                                   ssamp=ss))
                keys.append((op, nsa, (dm, d16, tfe, dim, a16)))
    res = {}
    for k, r in zip(keys, disassemble_probes(probes)):
        if r is None:
            raise ValueError("MIMG probe %r refused" % (k,))
        _, nd, entries, _, _, _ = parse_text(r[0])
        res[k] = (nd, sum(entries))
    for op, (kind, _) in ops.items():
        if kind == "bvh":
            continue
        d16s = (0, 1) if bits[op][2] >> 17 & 1 else (0,)
        gather = res[(op, 0, (1, 0, 0, 0, 0))][0] == res[(op, 0, (15, 0, 0, 0, 0))][0] and \
            res[(op, 0, (1, 0, 0, 0, 0))][0] != res[(op, 0, (1, 0, 1, 0, 0))][0] and \
            res[(op, 0, (1, 0, 0, 0, 0))][0] != 1
        layouts = {}
        for nsa in (0, 1):
            default = res[(op, nsa, "default")]
            addr, data = {}, {}
            for dm, d16, tfe, dim, a16 in itertools.product((0, 1, 3, 7, 15), d16s, (0, 1),
                                                            range(8), (0, 1)):
                got = res[(op, nsa, (dm, d16, tfe, dim, a16))]
                if got == default:
                    continue
                size = data_size(dm, d16, tfe, gather)
                k = dim * 2 + a16
                if addr.setdefault(k, got[1]) != got[1] or data.setdefault(size, got[0]) != got[0]:
                    raise ValueError("MIMG op %d: register counts do not follow the model" % op)
            # the model must reproduce every probe
            for dm, d16, tfe, dim, a16 in itertools.product((0, 1, 3, 7, 15), d16s, (0, 1),
                                                            range(8), (0, 1)):
                got = res[(op, nsa, (dm, d16, tfe, dim, a16))]
                size, k = data_size(dm, d16, tfe, gather), dim * 2 + a16
                want = (data[size], addr[k]) if size in data and k in addr else default
                if want != got:
                    raise ValueError("MIMG op %d nsa %d %r: model %r, llvm-mc %r"
                                     % (op, nsa, (dm, d16, tfe, dim, a16), want, got))
            layouts[nsa] = (default, tuple(addr.get(k, 0) for k in range(16)),
                            tuple(data.get(n, 0) for n in range(8)))
        out[op] = (gather, layouts)
    return out


def learn_text(ops):
    """Opcodes whose NSA form llvm-mc prints with two blanks after the mnemonic."""
    probes, keys = [], []
    for op, (kind, _) in ops.items():
        if kind == "bvh":
            probes.append(word(op, nsa=1, dmask=15, r128=1, unorm=1))
        else:
            probes.append(word(op, nsa=1, dim=1, ssamp=3 if kind == "sampler" else 0))
        keys.append(op)
    return {op for op, r in zip(keys, disassemble_probes(probes))
            if r is not None and r[0].split(" ")[1] == ""}


# ---- assembler probes ----------------------------------------------------------------------

def _vr(first, n):
    return "v%d" % first if n == 1 else "v[%d:%d]" % (first, first + n - 1)


def _statement(mnem, kind, nd, addr, dmask=None, dim=None, mods=()):
    s = "%s %s, %s, s[8:%d]" % (mnem, _vr(20, nd), addr, 11 if kind == "bvh" else 15)
    if kind == "sampler":
        s += ", s[12:15]"
    if dmask is not None:
        s += " dmask:0x%x" % dmask
    if dim is not None:
        s += " dim:SQ_RSRC_IMG_" + DIM_NAMES[dim]
    for m in mods:
        s += " " + m
    return s


def _nsa_text(total):
    """The canonical NSA list for `total` address registers: singles, the last one a range when
    more than 5 are needed."""
    if total <= 5:
        return "[" + ", ".join("v%d" % (40 + 2 * i) for i in range(total)) + "]"
    return "[v40, v42, v44, v46, %s]" % _vr(50, total - 4)


def learn_asm(ops, bits, sizes):
    """What llvm-mc's assembler takes, per opcode:
    (vdata counts mask, atomic dmask rule, msaa dims only, {dim*2+a16: plain address counts
    mask}, {dim*2+a16: NSA totals mask}) -- masks over register counts."""
    def addr(op, dim, a16=0):
        default, table, _ = sizes[op][1][0]
        return _vr(4, table[dim * 2 + a16] or default[1])

    lines, keys = [], []
    # a data shape llvm-mc takes for the opcode, to probe addresses with
    shape = {}
    for op, (kind, mnem) in ops.items():
        if kind == "bvh":
            continue
        for dmask, nd in ((1, 1), (3, 2), (15, 4), (1, 4)):
            for dim in (0, 6):
                lines.append(_statement(mnem, kind, nd, addr(op, dim), dmask, dim))
                keys.append(("shape", op, dmask, nd, dim))
    for (_, op, dmask, nd, dim), (enc, _) in zip(keys, assemble_lines(lines)):
        if enc is not None and op not in shape:
            shape[op] = (dmask, nd)
    lines, keys = [], []
    for op, (kind, mnem) in ops.items():
        if kind == "bvh":
            continue
        dmask, nd = shape[op]
        for dim, a16 in itertools.product(range(8), (0, 1)):
            mods = ("a16",) if a16 else ()
            for na in range(1, 17):
                lines.append(_statement(mnem, kind, nd, _vr(4, na), dmask, dim, mods))
                keys.append((op, "plain", dim * 2 + a16, na))
            for total in range(2, 17):
                lines.append(_statement(mnem, kind, nd, _nsa_text(total), dmask, dim, mods))
                keys.append((op, "nsa", dim * 2 + a16, total))
        for dm, tfe in itertools.product((1, 2, 3, 7, 15), (0, 1)):
            lines.append(_statement(mnem, kind, 1, addr(op, 6), dm, 6, ("tfe",) * tfe)
                         .replace(" v20,", " off,", 1))
            keys.append((op, "off", (dm, tfe), 0))
        d16s = (0, 1) if bits[op][2] >> 17 & 1 else (0,)
        for dm, d16, tfe in itertools.product(range(16), d16s, (0, 1)):
            for n in range(1, 7):
                mods = ("tfe",) * tfe + ("d16",) * d16
                lines.append(_statement(mnem, kind, n, addr(op, 6), dm, 6, mods))
                keys.append((op, "data", (dm, d16, tfe), n))
    plain, nsa, data, off = {}, {}, {}, {}
    for (op, what, k, n), (enc, _) in zip(keys, assemble_lines(lines)):
        ok = enc is not None and enc != "reloc"
        if what == "off":
            off.setdefault(op, {})[k] = ok
        elif what == "plain":
            plain.setdefault(op, {}).setdefault(k, 0)
            plain[op][k] |= ok << n
        elif what == "nsa":
            nsa.setdefault(op, {}).setdefault(k, 0)
            nsa[op][k] |= ok << n
        else:
            data.setdefault(op, {})[(k, n)] = ok
    out = {}
    for op, (kind, mnem) in ops.items():
        if kind == "bvh":
            continue
        gather = sizes[op][0]
        d16cap = bool(bits[op][2] >> 17 & 1)
        counts = 0
        for ((dm, d16, tfe), n), ok in data[op].items():
            if ok:
                counts |= 1 << n

        def base_rule(dm, d16, tfe, n):
            ok = n == data_size(dm, d16 and d16cap, tfe, gather) and (counts >> n) & 1
            return bool(ok and (not gather or dm in (1, 2, 4, 8)))
        atomic = any(base_rule(dm, d16, tfe, n) and not ok
                     for ((dm, d16, tfe), n), ok in data[op].items())
        # the rule must reproduce every probe
        for ((dm, d16, tfe), n), ok in data[op].items():
            want = base_rule(dm, d16, tfe, n)
            if atomic:
                want = want and dm in (1, 3, 15)
            if bool(want) != ok:
                raise ValueError("MIMG %s data probe %r count %d: rule %r, llvm-mc %r"
                                 % (mnem, (dm, d16, tfe), n, bool(want), ok))
        msaa = not any(plain[op][k] for k in range(12)) and any(plain[op][k] for k in (12, 13))
        # image_sample* take `off` for the data registers (encoded v0), with any data size and
        # the atomic dmask rule (0x1, 0x3, 0xf)
        off_data = any(off[op].values())
        for (dm, tfe), ok in off[op].items():
            if ok != (off_data and dm in (1, 3, 15)):
                raise ValueError("MIMG %s: off as data, dmask 0x%x tfe %d: llvm-mc %r"
                                 % (mnem, dm, tfe, ok))
        out[op] = (counts, atomic, msaa, tuple(plain[op][k] for k in range(16)),
                   tuple(nsa[op][k] for k in range(16)), off_data)
    return out


def _layouts():
    for n in range(1, 6):
        for sizes in itertools.product((1, 2, 3), repeat=n):
            yield sizes


def _layout_text(sizes):
    regs, first = [], 40
    for s in sizes:
        regs.append(_vr(first, s))
        first += 4
    return "[" + ", ".join(regs) + "]"


def learn_bvh(ops):
    """BVH queries: {op: ({a16: plain address counts mask}, {a16: accepted NSA layouts})}."""
    lines, keys = [], []
    for op, (kind, mnem) in ops.items():
        if kind != "bvh":
            continue
        for a16 in (0, 1):
            mods = ("a16",) if a16 else ()
            for na in range(1, 17):
                lines.append(_statement(mnem, kind, 4, _vr(4, na), mods=mods))
                keys.append((op, a16, "plain", na))
            for lay in _layouts():
                lines.append(_statement(mnem, kind, 4, _layout_text(lay), mods=mods))
                keys.append((op, a16, "nsa", lay))
        for nd in range(1, 7):
            lines.append(_statement(mnem, kind, nd, "v[4:15]" if "64" in mnem else "v[4:14]"))
            keys.append((op, 0, "data", nd))
    out = {}
    for (op, a16, what, v), (enc, _) in zip(keys, assemble_lines(lines)):
        ok = enc is not None and enc != "reloc"
        e = out.setdefault(op, [{0: 0, 1: 0}, {0: [], 1: []}, 0])
        if what == "plain":
            e[0][a16] |= ok << v
        elif what == "nsa":
            if ok:
                e[1][a16].append(v)
        elif ok:
            e[2] |= 1 << v
    return {op: (e[0], {k: tuple(v) for k, v in e[1].items()}, e[2]) for op, e in out.items()}


def learn_mimg():
    """-> (MIMG table {op: entry}, register masks)."""
    ops = enumerate_ops()
    bits = learn_bits(ops)
    regs = learn_regs(ops)
    sizes = learn_sizes(ops, bits)
    twospace = learn_text(ops)
    asm = learn_asm(ops, bits, sizes)
    bvh = learn_bvh(ops)
    table = {}
    for op, (kind, mnem) in sorted(ops.items()):
        fmask, fval, mmask = bits[op]
        e = dict(mnem=mnem, kind=kind, fmask=fmask, fval=fval, mods=mmask,
                 nsa_blanks=2 if op in twospace else 1)
        if kind == "bvh":
            e.update(asm_plain=bvh[op][0], asm_nsa=bvh[op][1], asm_data=bvh[op][2])
        else:
            gather, lay = sizes[op]
            counts, atomic, msaa, plain, nsa, off_data = asm[op]
            e.update(gather=gather, atomic=atomic, msaa=msaa, dec=lay[0], dec_nsa=lay[1],
                     asm_data=counts, asm_plain=plain, asm_nsa=nsa, off_data=off_data)
        table[op] = e
    return table, regs


def emit(out, table, regs):
    out.write("# MIMG: opcode -> dict. kind: 'plain' | 'sampler' (takes ssamp) | 'bvh' (ray queries);\n"
              "# fmask/fval: bits that must keep their value; mods: modifier bits the opcode has;\n"
              "# nsa_blanks: blanks llvm-mc prints after the mnemonic of the NSA form;\n"
              "# gather: data is 4 registers whatever dmask (one channel); atomic: dmask 0x1/0x3/0xf;\n"
              "# msaa: the dim must be an MSAA one; off_data: llvm-mc's assembler takes `off` for\n"
              "# the data registers (encoded v0), with dmask 0x1, 0x3 or 0xf and no data size check.\n"
              "# dec / dec_nsa (decoder, plain / NSA layout): (default (data, address) counts,\n"
              "#   address count per dim*2+a16 (0: never widened), data count per data size (0: never\n"
              "#   widened)); llvm-mc prints the default unless both are widened and fit below v256.\n"
              "# asm_data: mask over data register counts llvm-mc's assembler takes; asm_plain /\n"
              "#   asm_nsa: per dim*2+a16 (bvh: per a16) mask over address register counts (NSA: the\n"
              "#   total of a list of single registers, the fifth entry a range when more are needed;\n"
              "#   bvh: the accepted lists of entry sizes)\n")
    out.write("MIMG = {\n")
    for op, e in sorted(table.items()):
        out.write("    %d: %s,\n" % (op, pprint.pformat(e, width=100, sort_dicts=True)
                                     .replace("\n", "\n        ")))
    out.write("}\n")
    out.write("# field values llvm-mc decodes: srsrc of 8 SGPRs (4 for bvh), ssamp (x4 = first SGPR)\n")
    out.write("MIMG_REGS = %s\n" % pprint.pformat(regs, width=100))
    out.write("MIMG_DIMS = %r\n" % (DIM_NAMES,))


MARK = "# MIMG: opcode"


def main():
    import io
    if "--help" in sys.argv or "-h" in sys.argv:
        print(__doc__)
        return
    t, r = learn_mimg()
    buf = io.StringIO()
    emit(buf, t, r)
    if "--write" in sys.argv:
        from gen_rdna3_tables import OUT
        with open(OUT) as f:
            old = f.read()
        with open(OUT, "w") as f:
            f.write(old[:old.index(MARK)] + buf.getvalue())
        print("rewrote the MIMG part of", OUT)
    else:
        print(buf.getvalue())


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:                     # ... | head
        sys.stdout = None
