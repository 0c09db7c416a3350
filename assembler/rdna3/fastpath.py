"""Per-mnemonic encoders compiled once for the common statement shapes.

Most statements are plain ALU forms (registers and constants), VOP3 forms with source modifiers
and clamp, VOPD pairs, or simple loads and stores. For those, `encoder(mnem)` returns a function
`rest -> bytes or None` that splits the operand text itself and looks every operand up in a
cache keyed by its raw text, so a statement costs a few dict lookups and ORs. None means "not
this shape": the caller then takes the general path of asm.py, which also words every error, so
these functions never raise and never decide an error. The loads and stores are compiled in
fastpath_mem.py, on the operand caches (_slot) defined here.
"""
from .encode_alu import (_ABS_BIT, _NEG_BIT, _NOT_ON_GFX11, _OMOD, SyntaxErr, asm_accept,
                         plain_plan, reg_operand, source_operand)
from .encode_vopd import _VOPD_ACCEPT, VOPD_X, VOPD_Y
from .formats import ENCODING_BITS

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
        if mnem in plain:
            fn = _ENCODERS[mnem] = _compile(mnem, plain[mnem], fast.get(mnem))
        elif mnem in VOPD_X:
            fn = _ENCODERS[mnem] = _compile_vopd(mnem)
        else:
            return False
    return fn


def _compile(mnem, cands, plain):
    if plain is not None:
        return _compile_alu(mnem, cands, plain)
    if len(cands) == 1 and cands[0][0] == "mem":
        from .fastpath_mem import compile_mem           # (it builds on _slot below)
        _, seg, op, entry, _ = cands[0]
        return compile_mem(mnem, seg, op, entry)
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


def _any_negative_number(toks):
    for t in toks:
        t = t.strip()
        if t[:1] == "-" and (t[1:2].isdigit() or t[1:2] == "."):
            return True
    return False


def _alu_slot(item, mnem, bus=True):
    """The cache and miss function of one planned operand. ``bus``: the form has a constant-bus
    limit (VALU), so SGPR and literal sources come back as (bits, code, literal) for finish()
    to count; without one (SALU) an SGPR source is a plain field like a register."""
    kind, flo, a, b, c, d = item
    if kind == 0:
        def reg(t):
            code = reg_operand(t, 0, a, b, c, d, "operand", mnem)
            if a == "s" and code in _NOT_ON_GFX11:
                return _BAIL                           # an SGPR destination gfx11 refuses: the general path says so
            return (code & flo[1]) << flo[0]
        return _slot(item, reg)
    if kind == 2:
        return _slot(item, lambda t: 0 if t == a else _BAIL)

    def src(t):
        if not t or t[0] in "-|ans" and (t[0] == "|" or t[0] == "-" and not _negative_number(t)
                                          or t.startswith(("neg(", "abs(", "sext("))):
            return _BAIL                               # source modifiers: the general path
        r = source_operand(t, 0, a, b, c, "operand", mnem, d[0], d[1])
        if r[2] or r[3] or r[4]:
            return _BAIL                               # modifier bits: the general path
        code, lit = r[0], r[1]
        scalar = code < 128 and code != 124 or 235 <= code <= 239 or 251 <= code <= 254
        if scalar and code in _NOT_ON_GFX11:
            return _BAIL
        if lit is not None or scalar and bus:
            return code << flo, code if scalar else None, lit
        return code << flo
    return _slot(item if bus else item + ("no bus",), src)


def _alu_form(plan, mnem):
    """One form of a mnemonic: operand pieces -> bytes, or None when the form does not take them
    (the next form is tried then, as llvm-mc does)."""
    base, size, items, limit = plan
    slots = tuple(_alu_slot(item, mnem, limit is not None) for item in items)
    n = len(items)
    bus_limit, implicit = limit if limit is not None else (0, None)

    def finish(values):
        """The statement from its operands' cached values."""
        word = base
        lit = scalars = None
        for v in values:
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

    def form(toks):
        if len(toks) != n:
            return None
        values = []
        for (cache, miss), tok in zip(slots, toks):
            v = cache.get(tok)
            if v is None:
                v = miss(tok)
            if v is _BAIL:
                return None
            values.append(v)
        return finish(values)
    if limit is not None and implicit and len(implicit) > bus_limit:
        return form
    return _unrolled(slots, base, size, form, finish)


def _unrolled(slots, base, size, general, finish):
    """`general` with its loop unrolled for two to four operands; statements whose operands are
    all plain fields (VGPRs, SGPR destinations, inline constants: a plain int from the cache,
    nothing on the constant bus, no literal) are put together here, the others by `finish`."""
    n = len(slots)
    caches = tuple(c for c, _ in slots) + (None,) * (4 - n)
    if n == 2:
        (c0, m0), (c1, m1) = slots

        def form(toks):
            if len(toks) != 2:
                return None
            t0, t1 = toks
            v0 = c0.get(t0)
            if v0 is None:
                v0 = m0(t0)
            v1 = c1.get(t1)
            if v1 is None:
                v1 = m1(t1)
            if v0.__class__ is int and v1.__class__ is int:
                return (base | v0 | v1).to_bytes(size, "little")
            return finish((v0, v1))
        form.fields = caches, n, base, size
        return form
    if n == 3:
        (c0, m0), (c1, m1), (c2, m2) = slots

        def form(toks):
            if len(toks) != 3:
                return None
            t0, t1, t2 = toks
            v0 = c0.get(t0)
            if v0 is None:
                v0 = m0(t0)
            v1 = c1.get(t1)
            if v1 is None:
                v1 = m1(t1)
            v2 = c2.get(t2)
            if v2 is None:
                v2 = m2(t2)
            if v0.__class__ is int and v1.__class__ is int and v2.__class__ is int:
                return (base | v0 | v1 | v2).to_bytes(size, "little")
            return finish((v0, v1, v2))
        form.fields = caches, n, base, size
        return form
    if n == 4:
        (c0, m0), (c1, m1), (c2, m2), (c3, m3) = slots

        def form(toks):
            if len(toks) != 4:
                return None
            t0, t1, t2, t3 = toks
            v0 = c0.get(t0)
            if v0 is None:
                v0 = m0(t0)
            v1 = c1.get(t1)
            if v1 is None:
                v1 = m1(t1)
            v2 = c2.get(t2)
            if v2 is None:
                v2 = m2(t2)
            v3 = c3.get(t3)
            if v3 is None:
                v3 = m3(t3)
            if v0.__class__ is int and v1.__class__ is int and v2.__class__ is int and v3.__class__ is int:
                return (base | v0 | v1 | v2 | v3).to_bytes(size, "little")
            return finish((v0, v1, v2, v3))
        form.fields = caches, n, base, size
        return form
    return general


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
    with_mods = _vop3_mods_form(mnem, cands)
    single = forms[0] if len(forms) == 1 else None
    # the written-out case below treats '-1' like any cached constant, as encode does when its
    # negative-number form is this single form
    fields = getattr(single, "fields", None) if first is single else None

    def encode(rest):
        if "(" in rest or ":[" in rest or "\t" in rest:
            return None
        toks = rest.split(",") if rest else []
        if toks and " " in toks[-1].strip():
            return with_mods(toks) if with_mods else None
        if "-" in rest and _any_negative_number(toks):
            out = first(toks) if first else None
        elif single is not None:
            out = single(toks)
            if out is not None:
                return out
        else:
            for form in forms:
                out = form(toks)
                if out is not None:
                    return out
        if out is None and with_mods:
            return with_mods(toks)                     # -v1, |v2|: what _encode_alu would do
        return out
    if fields is None:
        return encode
    return _plain_first(fields, encode)


def _plain_first(fields, encode):
    """``encode`` of a mnemonic with one planned form, preceded by the commonest case written out:
    every operand already cached as a plain field (VGPRs, SALU SGPRs, inline constants). Those
    statements are what ``encode`` would make of them through that form; anything else (a miss,
    a constant-bus value, a literal, modifiers, another operand count) is left to ``encode``."""
    (c0, c1, c2, c3), n, base, size = fields
    if n == 2:
        def plain(rest):
            toks = rest.split(",")
            if len(toks) == 2 and "(" not in rest and ":[" not in rest and "\t" not in rest:
                v0 = c0.get(toks[0])
                v1 = c1.get(toks[1])
                if v0.__class__ is int and v1.__class__ is int:
                    return (base | v0 | v1).to_bytes(size, "little")
            return encode(rest)
    elif n == 3:
        def plain(rest):
            toks = rest.split(",")
            if len(toks) == 3 and "(" not in rest and ":[" not in rest and "\t" not in rest:
                t0, t1, t2 = toks
                v0 = c0.get(t0)
                v1 = c1.get(t1)
                v2 = c2.get(t2)
                if v0.__class__ is int and v1.__class__ is int and v2.__class__ is int:
                    return (base | v0 | v1 | v2).to_bytes(size, "little")
            return encode(rest)
    else:
        def plain(rest):
            toks = rest.split(",")
            if len(toks) == 4 and "(" not in rest and ":[" not in rest and "\t" not in rest:
                t0, t1, t2, t3 = toks
                v0 = c0.get(t0)
                v1 = c1.get(t1)
                v2 = c2.get(t2)
                v3 = c3.get(t3)
                if v0.__class__ is int and v1.__class__ is int and v2.__class__ is int and v3.__class__ is int:
                    return (base | v0 | v1 | v2 | v3).to_bytes(size, "little")
            return encode(rest)
    return plain


def _negative_form(mnem, cands, form):
    """The first form for statements with a negative constant ('-17'), or False. The general path
    takes those statements to _encode_alu; the plan agrees with it on the first candidate when
    that is a planned, non-VINTERP form (SGPR destinations gfx11 refuses bail in _alu_slot)."""
    fam, op, entry, _ = cands[0][1:] if cands[0][0] == "alu" else (None,) * 4
    plan = plain_plan(fam, op, entry, mnem) if fam is not None else None
    if plan is None or fam == "VINTERP":
        return False
    return form


def _vop3_mods_form(mnem, cands):
    """For a mnemonic whose only form is VOP3/VOP3SD (the _e64 spellings): statements with
    -x, |x| sources and clamp / mul:2 / mul:4 / div:2, encoded the way _encode_alu does; False
    for other mnemonics. None from the returned function: the general path decides."""
    if len(cands) != 1 or cands[0][0] != "alu" or cands[0][1] not in ("VOP3", "VOP3SD"):
        return False
    _, fam, op, entry, _ = cands[0]
    plan = plain_plan(fam, op, entry, mnem)
    spec, mmask = entry[1], entry[4]
    if plan is None or any(s[0] == "fixed" for s in spec):
        return False
    base, size, items, limit = plan
    bus_limit, implicit = limit
    can_clamp, can_omod = mmask >> 15 & 1, mmask >> 59 & 3
    slots = []
    for s, item in zip(spec, items):
        if s[0] == "reg":
            cache, miss = _alu_slot(item, mnem)
            slots.append((cache, miss, item[1][0] if s[2] == "s" else -1))
            continue
        role, nregs, dtype, acc = s[1], s[2], s[3], item[4]      # the assembler's accept set
        nb, ab = _NEG_BIT[role], _ABS_BIT[role]
        neg_ok = dtype != "i32" and mmask >> nb & 1
        flo = item[1]
        syn, fold = item[5]

        def src(t, nregs=nregs, dtype=dtype, acc=acc, role=role, flo=flo, syn=syn, fold=fold):
            code, lit, neg, abs_, sext = source_operand(t, 0, nregs, dtype, acc, role, mnem, syn,
                                                        fold)
            if sext or code in _NOT_ON_GFX11 or (fold and (neg or abs_)):
                return _BAIL
            scalar = code < 128 and code != 124 or 235 <= code <= 239 or 251 <= code <= 253
            return code << flo, code if scalar else None, lit, neg, abs_
        cache, miss = _slot(("vop3 src", flo, nregs, dtype, acc, syn, fold), src)
        slots.append((cache, miss, (neg_ok, 1 << nb, mmask >> ab & 1, 1 << ab)))
    slots = tuple(slots)
    n = len(slots)

    def form(toks):
        if len(toks) != n or not n:
            return None
        words = toks[-1].split()
        if not words:
            return None
        word = base
        omod = 0
        for m in words[1:]:
            if m == "clamp" and can_clamp and not word >> 15 & 1 and not omod:
                word |= 1 << 15
            elif m in _OMOD and can_omod and not omod:      # clamp, then one omod, as llvm-mc
                omod = _OMOD[m]
                word |= omod << 59
            else:
                return None
        lit = scalars = None
        last = n - 1
        for i, (cache, miss, info) in enumerate(slots):
            tok = toks[i] if i != last else words[0]
            v = cache.get(tok)
            if v is None:
                v = miss(tok)
            if v is _BAIL:
                return None
            if info.__class__ is int:                  # a register destination
                if info >= 0 and v >> info in _NOT_ON_GFX11:
                    return None
                word |= v
                continue
            bits, code, l, neg, abs_ = v
            neg_ok, neg_bit, abs_ok, abs_bit = info
            if neg:
                if not neg_ok:
                    return None
                word |= neg_bit
            if abs_:
                if not abs_ok:
                    return None
                word |= abs_bit
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
        if scalars is not None or lit is not None or implicit:
            if len((scalars or set()) | implicit) + (lit is not None) > bus_limit:
                return None
        out = word.to_bytes(size, "little")
        return out if lit is None else out + lit.to_bytes(4, "little")
    return form


# ---- VOPD: dual-issue pairs without literals (encode_vopd's rules, precomputed) ----

def _vopd_scalar(code):
    return code < 128 and code != 124 or 235 <= code <= 239 or 251 <= code <= 253


def _vopd_half(mnem, spec, key):
    """The reader of one half's operand text -> (vdst, src0 value, vsrc1 or -1) or None, for the
    halves written vdst, src0[, vsrc1]; None for the others (a fmaak / fmamk literal: pairs with
    such a half go to the general path, see encode_vopd.vopd_dtype). A src0 value is (code, literal
    or None, VGPR bank position or -1, the code when it is a scalar value else None)."""
    roles = [s[:2] for s in spec]
    if roles not in ([("reg", "vdst"), ("src", "src0")], [("reg", "vdst"), ("src", "src0"), ("reg", "vsrc1")]):
        return None
    vc, vm = _slot(("VOPD", "v"), lambda t: reg_operand(t, 0, "v", 1, None, 256, "vdst", mnem))
    acc = asm_accept(_VOPD_ACCEPT, key)

    def src(t, dtype=spec[1][3], acc=acc):
        code, lit = source_operand(t, 0, 1, dtype, acc, "src0", mnem)[:2]
        # lds_direct counts as VGPR bank 3 (encode_vopd)
        bank = code - 256 if code >= 256 else 255 if code == 254 else -1
        return code, lit, bank, code if _vopd_scalar(code) else None
    sc, sm = _slot(("VOPD", "src", spec[1][3], acc), src)
    if len(roles) == 2:
        def read(text):
            toks = text.split(",")
            if len(toks) != 2:
                return None
            t0, t1 = toks
            v0 = vc.get(t0)
            if v0 is None:
                v0 = vm(t0)
            v1 = sc.get(t1)
            if v1 is None:
                v1 = sm(t1)
            if v0 is _BAIL or v1 is _BAIL:
                return None
            return v0, v1, -1
        return read

    def read(text):
        toks = text.split(",")
        if len(toks) != 3:
            return None
        t0, t1, t2 = toks
        v0 = vc.get(t0)
        if v0 is None:
            v0 = vm(t0)
        v1 = sc.get(t1)
        if v1 is None:
            v1 = sm(t1)
        v2 = vc.get(t2)
        if v2 is None:
            v2 = vm(t2)
        if v0 is _BAIL or v1 is _BAIL or v2 is _BAIL:
            return None
        return v0, v1, v2
    return read


def _vopd_pair(xread, yread, base, implicit_vcc):
    """The encoder of one X / Y mnemonic pair: encode_vopd's constant-bus, destination-parity and
    VGPR-bank rules on the halves' cached values. The accumulators' src2 bank rule (their vdst,
    % 2) always holds once the destinations are one even and one odd VGPR."""
    def pair(left, yrest):
        X = xread(left)
        if X is None:
            return None
        Y = yread(yrest)
        if Y is None:
            return None
        xd, (xs, xl, xb, xsc), xv = X
        yd, (ys, yl, yb, ysc), yv = Y
        if xd & 1 == yd & 1:
            return None
        if xl is None:
            lit = yl
        elif yl is not None and yl != xl:
            return None
        else:
            lit = xl
        if xsc is not None or ysc is not None or lit is not None:
            if ((xsc is not None) + (ysc is not None and ysc != xsc) + implicit_vcc + (lit is not None)) > 2:
                return None
        if xb >= 0 and yb >= 0 and xb & 3 == yb & 3:
            return None
        word = base | xd << 56 | (yd >> 1) << 49 | xs | ys << 32
        if xv >= 0:
            word |= xv << 9
            if yv >= 0:
                if xv & 3 == yv & 3:
                    return None
                word |= yv << 41
        elif yv >= 0:
            word |= yv << 41
        out = word.to_bytes(8, "little")
        return out if lit is None else out + lit.to_bytes(4, "little")
    return pair


def _compile_vopd(xm):
    xop, (_, xspec) = VOPD_X[xm]
    xread = _vopd_half(xm, xspec, ("VOPD", "X", xop))
    if xread is None:
        return False
    base = ENCODING_BITS["VOPD"][1] | xop << 22
    pairs = {}                                # Y mnemonic -> pair encoder, or False

    def encode(rest):
        left, sep, right = rest.partition("::")
        if not sep or "(" in rest or "|" in rest or "\t" in rest:
            return None
        ym, _, yrest = right.strip().partition(" ")
        pair = pairs.get(ym)
        if pair is None:
            if ym not in VOPD_Y:
                return None
            yop, (_, yspec) = VOPD_Y[ym]
            yread = _vopd_half(ym, yspec, ("VOPD", "Y", yop))
            pair = pairs[ym] = yread is not None and _vopd_pair(
                xread, yread, base | yop << 17, int("v_dual_cndmask_b32" in (xm, ym)))
        if pair is False:
            return None
        return pair(left, yrest)
    return encode
