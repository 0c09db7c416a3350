"""Listings of SASS code as nvdisasm prints a cubin: branch targets as labels, and, on request,
everything the assembler needs to give back the same words.

    listing(sections, arch, base=0, addresses=False, control=False, hex=False, exact=False)
        sections: [(code bytes, {address: [symbol names]})], in the cubin's order, each at base
        -> [[line, ...] for each section]
    branch_labels(sections, arch, base=0) -> {(section index, address): label}
    exact_texts(entries, arch, base=0) -> [(statement text, note)], annotated where needed

Labels follow nvdisasm: a target where a symbol is defined takes its name (`($f$g)), any other
one `(.L_x_N), N counting targets in the order they are first branched to, through the
sections in order. With addresses=True targets print as absolute addresses (nvdisasm -b).

Exact listings carry what nvdisasm's text does not say, so `asm` reassembles them bit for bit:
the scheduling control (a // [B------:R-:W-:Y:S00] comment), and, only where the assembler
would choose otherwise, two annotations (assembler.sass.asm):
    // ... desc=UR4     the memory descriptor of a global access before sm_90, a note in the
                        comment (nvdisasm does not print it; the assembler takes the first
                        dominating ULDC.64's pair; desc[UR4][...] is another encoding there)
    0x7ff00000          a NaN immediate as its raw bits (nvdisasm prints +QNAN whatever the
                        payload; a hex immediate in a floating-point slot is its bit pattern)
"""
from assembler.errors import AssemblerError

from .asm import DESC_FIELD, assemble_program
from .control import Control
from .decoder import decode
from .syntax import Operand, format_hex
from .tables import canonical_arch, load


def _targets(ins):
    """(operand index, absolute address) of each branch target of an instruction."""
    for j, op in enumerate(ins.operands):
        if op.kind == "target":
            yield j, op.holes[0]
        elif op.kind == "pair" and op.shape[2] == "target":
            yield j, op.holes[-1]


def decode_sections(sections, arch, base=0):
    return [[decode(code, arch, off, base + off) for off in range(0, len(code), 16)] for code, _ in sections]


def branch_labels(sections, arch, base=0, decoded=None):
    decoded = decoded or decode_sections(sections, arch, base)
    names, n = {}, 0
    for si, ((code, symbols), insns) in enumerate(zip(sections, decoded)):
        for ins in insns:
            for _, addr in _targets(ins):
                if (si, addr) in names or not base <= addr <= base + len(code) or (addr - base) % 16:
                    continue
                if symbols.get(addr):
                    names[si, addr] = symbols[addr][0]
                else:
                    names[si, addr] = ".L_x_%d" % n
                    n += 1
    return names


def _with_labels(ins, names, si):
    """The statement text with its branch targets written as labels."""
    text = ins.text
    swaps = [(j, names.get((si, addr))) for j, addr in _targets(ins)]
    swaps = [(j, name) for j, name in swaps if name]
    if not swaps:
        return text
    semi = " ;" if text.endswith(" ;") else ";"
    body = text[:-len(semi)]
    old = [o.render() for o in ins.operands]
    joined = ", ".join(old)
    head = body[:len(body) - len(joined)]
    new = list(old)
    for j, name in swaps:
        op = ins.operands[j]
        if op.kind == "pair":
            ka, sa = op.shape[:2]
            new[j] = Operand("pair", (ka, sa, "label", ()), op.holes[:-1] + (name,)).render()
        else:
            new[j] = "`(%s)" % name
    return head + ", ".join(new) + semi


def _float_bits(word, arch):
    """Raw bits of the floating-point immediate of a word (None if it has none)."""
    cls = load(arch).CLASSES.get(word & 0xfff)

    def bits(w, positions):
        return sum(((w >> b) & 1) << i for i, b in enumerate(positions))
    fmt = cls["formats"].get(bits(word, cls["fbits"])) if cls else None
    while fmt is not None and "split" in fmt:
        fmt = fmt["formats"].get(bits(word, fmt["split"]))
    for spec in (fmt or {}).get("ops", ()):
        h = spec["holes"][0] if spec["holes"] else None
        if spec["kind"] == "imm" and h and h[0] == "float":
            return bits(word, h[2])
    return None


def _annotate(text, word, arch, pc):
    """(text with a NaN immediate's bits spelled out, 'desc=URn' when word has a descriptor)"""
    ins = decode(word.to_bytes(16, "little"), arch, 0, pc)
    at = DESC_FIELD.get(arch, {}).get(word & 0xfff)
    note = "desc=UR%d" % ((word >> at) & 63) if at is not None else ""
    for op in ins.operands:
        if op.kind == "imm" and op.shape == ("float",) and isinstance(op.holes[0], str):
            raw = _float_bits(word, arch)
            if raw is not None:
                text = text.replace(op.render(), format_hex(raw), 1)
    return text, note


def _source(entries, notes, tail=()):
    lines = []
    for (names, text, word), note in zip(entries, notes):
        lines += ["%s:" % n for n in names]
        lines.append("%s  // %s %s" % (text, Control.from_word(word).text(), note))
    lines += ["%s:" % n for n in tail]
    return "\n".join(lines)


def exact_texts(entries, arch, base=0, tail=()):
    """entries: [(label names before it, statement text, word)] of one piece of code at base
    (tail: labels after its end). Returns [(text, note for its comment)], annotated where the
    assembler would otherwise not give back the word; AssemblerError names an instruction it
    still would not."""
    arch = canonical_arch(arch)
    out = [(t, "") for _, t, _ in entries]
    got = assemble_program(_source(entries, [""] * len(entries), tail), arch, base=base).words
    redo = [i for i, (_, _, w) in enumerate(entries) if got[i] != w]
    if not redo:
        return out
    for i in redo:
        out[i] = _annotate(entries[i][1], entries[i][2], arch, base + 16 * i)
    entries = [(n, t, w) for (n, _, w), (t, _) in zip(entries, out)]
    got = assemble_program(_source(entries, [note for _, note in out], tail), arch, base=base).words
    for i, (_, text, word) in enumerate(entries):
        if got[i] != word:
            raise AssemblerError("the instruction at 0x%x (%s) has bits its text does not say: it assembles "
                                 "back with bits 0x%x different" % (base + 16 * i, text, got[i] ^ word))
    return out


def listing(sections, arch, base=0, addresses=False, control=False, hex=False, exact=False):
    """Per section, the lines of its listing: symbol and label lines ('name:') and statement
    lines '        /*0040*/ STATEMENT ;' (with // control and /* hex */ comments on request;
    exact implies control)."""
    arch = canonical_arch(arch)
    decoded = decode_sections(sections, arch, base)
    names = {} if addresses else branch_labels(sections, arch, base, decoded)
    out = []
    for si, ((code, symbols), insns) in enumerate(zip(sections, decoded)):
        at = {}
        for addr, syms in symbols.items():
            at.setdefault(addr, []).extend(syms)
        for (s, addr), name in sorted(names.items(), key=lambda kv: kv[1]):
            if s == si and name not in at.get(addr, ()):
                at.setdefault(addr, []).append(name)
        entries = [(at.get(ins.pc, []), _with_labels(ins, names, si), ins.word) for ins in insns]
        texts = [(t, "") for _, t, _ in entries]
        if exact:
            texts = exact_texts(entries, arch, base, at.get(base + len(code), []))
        lines = []
        for (labels, _, word), (text, note), ins in zip(entries, texts, insns):
            lines += ["%s:" % n for n in labels]
            line = "        /*%04x*/ %s" % (ins.pc, text)
            if control or exact:
                line += "  // " + Control.from_word(word).text() + (" " + note if note else "")
            if hex:
                line += "  /* 0x%016x 0x%016x */" % (ins.lo, ins.hi)
            lines.append(line)
        lines += ["%s:" % n for n in at.get(base + len(code), [])]
        out.append(lines)
    return out
