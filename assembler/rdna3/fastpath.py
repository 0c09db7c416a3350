"""Per-mnemonic encoders compiled once for the common statement shapes.

Most statements are plain ALU forms (registers and constants) or simple loads and stores. For
those, `encoder(mnem)` returns a function `rest -> bytes or None` that splits the operand text
itself and looks every operand up in a cache keyed by its raw text, so a statement costs a few
dict lookups and ORs. None means "not this shape": the caller then takes the general path of
asm.py, which also words every error, so these functions never raise and never decide an error.
"""
from .constants import parse_number
from .encode_alu import _NOT_ON_GFX11, SyntaxErr, plain_plan, reg_operand, source_operand
from .encode_mem import _SEG, _num, _scaled, _smem_lo
from .formats import ENCODING_BITS, FORMATS

_BAIL = "bail"          # cached verdict: this operand text needs the general path
_ENCODERS = {}          # mnemonic -> compiled encoder, or False when there is none
_SLOTS = {}             # operand kind -> {raw operand text: field bits or _BAIL}


def clear_caches():
    _ENCODERS.clear()
    _SLOTS.clear()


def encoder(mnem, plain, fast):
    """The compiled encoder of `mnem` (False when it has none); built on first use. `plain`:
    mnemonic -> the forms the general path tries, in order; `fast`: their planned ALU forms."""
    fn = _ENCODERS.get(mnem)
    if fn is None:
        if mnem not in plain:
            return False
        fn = _ENCODERS[mnem] = _compile(mnem, plain[mnem], fast.get(mnem))
    return fn


def _compile(mnem, cands, plain):
    if plain is not None:
        return _compile_alu(mnem, cands, plain)
    if len(cands) == 1 and cands[0][0] == "mem":
        _, seg, op, entry, _ = cands[0]
        if seg == "SMEM":
            return _compile_smem(mnem, op, entry)
        if seg == "DS" and mnem != "ds_swizzle_b32":
            return _compile_ds(mnem, op, entry)
        if seg == "GLOBAL" and "_atomic_" not in mnem:
            return _compile_global(mnem, op, entry)
    return False


def _slot(key, resolve):
    """The shared cache of one operand kind, and the function that fills it on a miss."""
    cache = _SLOTS.get(key)
    if cache is None:
        cache = _SLOTS[key] = {}

    def miss(tok):
        try:
            v = resolve(tok.strip())
        except SyntaxErr:
            v = _BAIL
        cache[tok] = v
        return v
    return cache, miss


# ---- ALU: the plans of encode_alu (registers and constants, no modifiers) ----

def _negative_number(t):
    """'-17', '-4.0', '-.5': a constant, where strip_source_mods sees no negation modifier."""
    return t[:1] == "-" and (t[1:2].isdigit() or t[1:2] == ".")


def _alu_slot(item, mnem):
    kind, flo, a, b, c, d = item
    if kind == 0:
        return _slot(item, lambda t: reg_operand(t, 0, a, b, c, d, "operand", mnem) << flo)
    if kind == 2:
        return _slot(item, lambda t: 0 if t == a else _BAIL)

    def src(t):
        if not t or t[0] in "-|ans" and (t[0] == "|" or t[0] == "-" and not _negative_number(t)
                                          or t.startswith(("neg(", "abs(", "sext("))):
            return _BAIL                               # source modifiers: the general path
        r = source_operand(t, 0, a, b, c, "operand", mnem)
        code, lit = r[0], r[1]
        scalar = code < 128 and code != 124 or 235 <= code <= 239 or 251 <= code <= 254
        if scalar and code in _NOT_ON_GFX11:
            return _BAIL
        if scalar or lit is not None:
            return code << flo, code if scalar else None, lit
        return code << flo
    return _slot(item, src)


def _alu_form(plan, mnem):
    """One form of a mnemonic: operand pieces -> bytes, or None when the form does not take them
    (the next form is tried then, as llvm-mc does)."""
    base, size, items, limit = plan
    slots = tuple(_alu_slot(item, mnem) for item in items)
    n = len(items)
    bus_limit, implicit = limit if limit is not None else (0, None)

    def form(toks):
        if len(toks) != n:
            return None
        word = base
        lit = scalars = None
        for (cache, miss), tok in zip(slots, toks):
            v = cache.get(tok)
            if v is None:
                v = miss(tok)
            if v.__class__ is int:
                word |= v
            elif v is _BAIL:
                return None
            else:                                      # an SGPR or a literal: constant bus
                bits, code, l = v
                word |= bits
                if code is not None:
                    if scalars is None:
                        scalars = {code}
                    else:
                        scalars.add(code)
                if l is not None:
                    if lit is not None and lit != l:
                        return None
                    lit = l
        if limit is not None and (scalars is not None or lit is not None or implicit):
            if len((scalars or set()) | implicit) + (lit is not None) > bus_limit:
                return None
        out = word.to_bytes(size, "little")
        return out if lit is None else out + lit.to_bytes(4, "little")
    return form


def _compile_alu(mnem, cands, plain):
    forms = []
    for fam, op, entry in plain:
        plan = plain_plan(fam, op, entry, mnem)
        if plan is not None:
            forms.append(_alu_form(plan, mnem))
    if not forms:
        return False
    forms = tuple(forms)
    first = _negative_form(mnem, cands, forms[0])

    def encode(rest):
        if "(" in rest or ":[" in rest or "\t" in rest:
            return None
        toks = rest.split(",") if rest else []
        if toks and " " in toks[-1].strip():
            return None                                # modifiers: the general path
        if "-" in rest and any(_negative_number(t.strip()) for t in toks):
            return first(toks) if first else None
        for form in forms:
            out = form(toks)
            if out is not None:
                return out
        return None
    return encode


def _negative_form(mnem, cands, form):
    """The first form for statements with a negative constant ('-17'), or False. The general path
    takes those statements to _encode_alu; the plan agrees with it on the first candidate when
    that is a planned, non-VINTERP form and no SGPR destination is one gfx11 refuses."""
    fam, op, entry, _ = cands[0][1:] if cands[0][0] == "alu" else (None,) * 4
    plan = plain_plan(fam, op, entry, mnem) if fam is not None else None
    if plan is None or fam == "VINTERP":
        return False
    _, _, items, _ = plan
    sdst = [(_alu_slot(item, mnem)[0], i, item[1]) for i, item in enumerate(items)
            if item[0] == 0 and item[2] == "s"]

    def first(toks):
        out = form(toks)
        if out is None:
            return None
        for cache, i, flo in sdst:
            if cache[toks[i]] >> flo in _NOT_ON_GFX11:
                return None
        return out
    return first


# ---- memory: SMEM loads, DS and GLOBAL without flags (encode_mem's rules, precomputed) ----

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
    lo_limit = _smem_lo(mnem)

    def sdata(t):
        if t == "null" and sd[3] > 2:
            return _BAIL
        return (reg_operand(t, 0, "s", sd[3], sd[4], 0, "sdata", mnem) & d_mask) << d_lo

    def sbase(t):
        if t == "null" and sb[3] == 4:
            return _BAIL
        return (_scaled(t, 0, sb, 1, "sbase", mnem) & b_mask) << b_lo

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
    sa_lo, sa_mask = _field(fields, "saddr")

    def saddr(t):
        code = 124 if t == "off" else reg_operand(t, 0, "s", sa[3], sa[4], 0, "saddr", mnem)
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
