"""Compiled encoders of the commonest memory statements, in fastpath.py's scheme (operand text ->
cached field bits, None for anything else): SMEM loads, DS and GLOBAL without flags, with
encode_mem's rules precomputed."""
from .constants import parse_number
from .encode_alu import asm_accept, reg_operand
from .encode_mem import _SEG, _num, _scaled, _smem_lo
from .fastpath import _BAIL, _slot
from .formats import ENCODING_BITS, FORMATS


def compile_mem(mnem, seg, op, entry):
    """The encoder of a memory mnemonic with one form, or False when it has none."""
    if seg == "SMEM":
        return _compile_smem(mnem, op, entry)
    if seg == "DS" and mnem != "ds_swizzle_b32" and "2addr" not in entry[0]:
        return _compile_ds(mnem, op, entry)
    if seg == "GLOBAL" and "_atomic_" not in mnem:
        return _compile_global(mnem, op, entry)
    return False


def _field(fields, name):
    lo, width = fields[name]
    return lo, (1 << width) - 1


def _base(fam, op, fval, fields, cleared):
    """The instruction word with the fields the operands fill cleared (as _Word.set does)."""
    word = ENCODING_BITS[fam][1] | op << fields["op"][0] | fval
    for name in cleared:
        lo, mask = _field(fields, name)
        word &= ~(mask << lo)
    return word


def _mem_split(rest, n):
    """Operand pieces and the `offset:` value (or None); False when the shape is not simple."""
    if "(" in rest or ":[" in rest or "|" in rest or "\t" in rest:
        return False
    toks = rest.split(",")
    if len(toks) != n:
        return False
    words = toks[-1].split()
    if len(words) == 1:
        return toks, None
    if len(words) != 2 or not words[1].startswith("offset:") or len(words[1]) == 7:
        return False
    toks[-1] = words[0]
    return toks, words[1][7:]


def _compile_smem(mnem, op, entry):
    _, spec, _, fval, _ = entry
    if [s[:2] for s in spec] != [("reg", "sdata"), ("reg", "sbase"), ("src", "soffset")]:
        return False
    size, fields = FORMATS["SMEM"]
    word = _base("SMEM", op, fval, fields, ("sdata", "sbase", "soffset", "offset"))
    so_lo, so_mask = _field(fields, "soffset")
    word |= (124 & so_mask) << so_lo                   # no soffset register: null
    d_lo, d_mask = _field(fields, "sdata")
    b_lo, b_mask = _field(fields, "sbase")
    o_lo, o_mask = _field(fields, "offset")
    sd, sb = spec[0], spec[1]
    sd_acc = asm_accept(sd[4], ("SMEM", op, 0))
    lo_limit = _smem_lo(mnem)

    def sdata(t):
        if t == "null" and sd[3] > 2:
            return _BAIL
        return (reg_operand(t, 0, "s", sd[3], sd_acc, 0, "sdata", mnem) & d_mask) << d_lo

    def sbase(t):
        if t == "null" and sb[3] == 4:
            return _BAIL
        return (_scaled(t, 0, sb, 1, "sbase", mnem, ("SMEM", op, 1)) & b_mask) << b_lo

    def offset(t):
        num = parse_number(t)
        if num is None or num[1]:
            return _BAIL                               # an SGPR or a literal soffset
        return (_num(t, 0, "SMEM offset", lo_limit, 0xFFFFF) & o_mask) << o_lo

    slots = (_slot(("SMEM", "sdata") + sd[2:], sdata), _slot(("SMEM", "sbase") + sb[2:], sbase),
             _slot(("SMEM", "offset", lo_limit), offset))

    def encode(rest):
        if "(" in rest or ":[" in rest or "|" in rest or "\t" in rest:
            return None
        toks = rest.split(",")
        if len(toks) != 3 or " " in toks[2].strip():
            return None
        w = word
        for (cache, miss), tok in zip(slots, toks):
            v = cache.get(tok)
            if v is None:
                v = miss(tok)
            if v is _BAIL:
                return None
            w |= v
        return w.to_bytes(size, "little")
    return encode


def _offset_slot(fam, fields, name, lo_limit, hi):
    if fam == "DS":        # offset0 and offset1 are the low and high byte of one 16-bit offset
        return _slot(("DS", "offset"), lambda t: _num(t, 0, "DS offset", 0, 0xFFFF))
    lo, mask = _field(fields, "offset")
    return _slot((fam, "offset", name), lambda t: (_num(t, 0, "%s offset" % name, lo_limit, hi)
                                                   & mask) << lo)


def _compile_ds(mnem, op, entry):
    _, spec, _, fval, _ = entry
    if not spec or any(s[0] != "reg" or s[2] != "v" for s in spec):
        return False
    size, fields = FORMATS["DS"]
    word = _base("DS", op, fval, fields, [s[1] for s in spec] + ["offset0", "offset1"])
    slots = []
    for s in spec:
        lo, mask = _field(fields, s[1])
        slots.append(_slot(("DS", lo, s[3]), lambda t, s=s, lo=lo, mask=mask: (
            reg_operand(t, 0, "v", s[3], None, 256, s[1], mnem) & mask) << lo))
    slots = tuple(slots)
    off_cache, off_miss = _offset_slot("DS", fields, "DS", 0, 0xFFFF)
    n = len(spec)
    if n == 2:
        return _ds2(slots, word, size, off_cache, off_miss)

    def encode(rest):
        split = _mem_split(rest, n)
        if split is False:
            return None
        toks, off = split
        w = word
        for (cache, miss), tok in zip(slots, toks):
            v = cache.get(tok)
            if v is None:
                v = miss(tok)
            if v is _BAIL:
                return None
            w |= v
        if off is not None:
            v = off_cache.get(off)
            if v is None:
                v = off_miss(off)
            if v is _BAIL:
                return None
            w |= v
        return w.to_bytes(size, "little")
    return encode


def _ds2(slots, word, size, off_cache, off_miss):
    """The DS encoder of two register operands (ds_load_b32 v0, v1 / ds_store_b32 v1, v2), with
    _mem_split and the operand loop written out."""
    (c0, m0), (c1, m1) = slots

    def encode(rest):
        if "(" in rest or ":[" in rest or "|" in rest or "\t" in rest:
            return None
        toks = rest.split(",")
        if len(toks) != 2:
            return None
        t0, t1 = toks
        words = t1.split()
        if len(words) == 1:
            off = None
        elif len(words) == 2 and words[1].startswith("offset:") and len(words[1]) != 7:
            t1, off = words[0], words[1][7:]
        else:
            return None
        v0 = c0.get(t0)
        if v0 is None:
            v0 = m0(t0)
        v1 = c1.get(t1)
        if v1 is None:
            v1 = m1(t1)
        if v0 is _BAIL or v1 is _BAIL:
            return None
        w = word | v0 | v1
        if off is not None:
            v = off_cache.get(off)
            if v is None:
                v = off_miss(off)
            if v is _BAIL:
                return None
            w |= v
        return w.to_bytes(size, "little")
    return encode


def _compile_global(mnem, op, entry):
    _, spec, _, fval, _ = entry
    roles = [s[1] for s in spec]
    if (any(s[0] != "reg" for s in spec) or roles[-1] != "saddr" or "addr" not in roles
            or len(set(roles)) != len(roles)):
        return False
    size, fields = FORMATS["FLAT"]
    word = _base("FLAT", op, fval, fields, roles + ["seg", "offset"])
    seg_lo, seg_mask = _field(fields, "seg")
    word |= (_SEG["GLOBAL"] & seg_mask) << seg_lo
    sa = spec[-1]
    sa_acc = asm_accept(sa[4], ("GLOBAL", op, len(spec) - 1))
    sa_lo, sa_mask = _field(fields, "saddr")

    def saddr(t):
        code = 124 if t == "off" else reg_operand(t, 0, "s", sa[3], sa_acc, 0, "saddr", mnem)
        return (code & sa_mask) << sa_lo
    saddr_cache, saddr_miss = _slot(("GLOBAL", "saddr") + sa[2:], saddr)
    # the address is a VGPR pair without saddr ("off"), one VGPR with it
    by_width = {}
    for width in (1, 2):
        slots = []
        for s in spec[:-1]:
            nregs = width if s[1] == "addr" else s[3]
            lo, mask = _field(fields, s[1])
            slots.append(_slot(("GLOBAL", s[1], nregs), lambda t, s=s, n=nregs, lo=lo, mask=mask: (
                reg_operand(t, 0, "v", n, None, 256, s[1], mnem) & mask) << lo))
        by_width[width] = tuple(slots)
    off_cache, off_miss = _offset_slot("FLAT", fields, "GLOBAL", -0x1000, 0xFFF)
    n = len(spec)
    if n == 3:
        return _global3(by_width, (saddr_cache, saddr_miss), word, size, off_cache, off_miss)

    def encode(rest):
        split = _mem_split(rest, n)
        if split is False:
            return None
        toks, off = split
        sa_tok = toks[-1]
        v = saddr_cache.get(sa_tok)
        if v is None:
            v = saddr_miss(sa_tok)
        if v is _BAIL:
            return None
        w = word | v
        for (cache, miss), tok in zip(by_width[1 + (sa_tok.strip() == "off")], toks):
            v = cache.get(tok)
            if v is None:
                v = miss(tok)
            if v is _BAIL:
                return None
            w |= v
        if off is not None:
            v = off_cache.get(off)
            if v is None:
                v = off_miss(off)
            if v is _BAIL:
                return None
            w |= v
        return w.to_bytes(size, "little")
    return encode


def _global3(by_width, saddr, word, size, off_cache, off_miss):
    """The GLOBAL encoder of three operands (global_load_b32 v0, v[2:3], off / global_store_b32
    v1, v2, s[4:5]), with _mem_split and the operand loop written out."""
    (sa_cache, sa_miss) = saddr
    ((c0, m0), (c1, m1)), ((d0, n0), (d1, n1)) = by_width[1], by_width[2]

    def encode(rest):
        if "(" in rest or ":[" in rest or "|" in rest or "\t" in rest:
            return None
        toks = rest.split(",")
        if len(toks) != 3:
            return None
        t0, t1, t2 = toks
        words = t2.split()
        if len(words) == 1:
            off = None
        elif len(words) == 2 and words[1].startswith("offset:") and len(words[1]) != 7:
            t2, off = words[0], words[1][7:]
        else:
            return None
        v2 = sa_cache.get(t2)
        if v2 is None:
            v2 = sa_miss(t2)
        if t2.strip() == "off":            # the address is a VGPR pair without saddr
            v0 = d0.get(t0)
            if v0 is None:
                v0 = n0(t0)
            v1 = d1.get(t1)
            if v1 is None:
                v1 = n1(t1)
        else:
            v0 = c0.get(t0)
            if v0 is None:
                v0 = m0(t0)
            v1 = c1.get(t1)
            if v1 is None:
                v1 = m1(t1)
        if v0 is _BAIL or v1 is _BAIL or v2 is _BAIL:
            return None
        w = word | v0 | v1 | v2
        if off is not None:
            v = off_cache.get(off)
            if v is None:
                v = off_miss(off)
            if v is _BAIL:
                return None
            w |= v
        return w.to_bytes(size, "little")
    return encode
