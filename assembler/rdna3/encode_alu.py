"""Encode scalar and vector ALU instructions (SOP*, VOP1/2/C, VOP3, VOP3SD, VOP3P, VINTERP, DPP, VOPD).

Each form is driven by its row in tables.ALU: the operand list says which field each written
operand fills and what it may hold; the modifier mask says which modifier bits exist.
"""
from . import operands as O
from .constants import ConstError, encode_constant, literal_bits, parse_number
from .formats import ENCODING_BITS, FORMATS
from .simm_parse import parse_simm
from .syntax import SyntaxErr
from .tables import ACCEPT, DPP_ACCEPT, VOPD

_ABS_BIT = {"src0": 8, "src1": 9, "src2": 10}
_NEG_BIT = {"src0": 61, "src1": 62, "src2": 63}
_OPSEL_HI_BIT = {"src0": 59, "src1": 60, "src2": 14}
_NEG_HI_BIT = {"src0": 8, "src1": 9, "src2": 10}
_OMOD = {"mul:2": 1, "mul:4": 2, "div:2": 3}
_DPP_ROW = {"row_shl": 0x100, "row_shr": 0x110, "row_ror": 0x120, "row_share": 0x150,
            "row_xmask": 0x160}
_WIDTH_NAME = {1: "32-bit", 2: "64-bit", 3: "96-bit", 4: "128-bit", 8: "256-bit", 16: "512-bit"}


def _kind_name(kind, nregs):
    what = {"v": "VGPR", "s": "SGPR"}[kind]
    if nregs == 1:
        return "32-bit " + what
    return "%s %s range like %s[0:%d]" % (_WIDTH_NAME.get(nregs, "%d-dword" % nregs), what, kind,
                                          nregs - 1)


def strip_source_mods(tok, col):
    """'-|v1|' -> ('v1', neg, abs, sext); also neg(...), abs(...), sext(...)."""
    neg = abs_ = sext = False
    t = tok
    if t.startswith("neg(") and t.endswith(")"):
        neg, t = True, t[4:-1].strip()
    elif t.startswith("sext(") and t.endswith(")"):
        sext, t = True, t[5:-1].strip()
    elif t.startswith("-") and (t[1:2] in ("|", "v", "s", "t", "a", "e", "m", "n") and
                                parse_number(t) is None):
        neg, t = True, t[1:].strip()
    if t.startswith("|") and t.endswith("|") and len(t) >= 2:
        abs_, t = True, t[1:-1].strip()
    elif t.startswith("abs(") and t.endswith(")"):
        abs_, t = True, t[4:-1].strip()
    if t.startswith("neg(") and t.endswith(")") and not neg:
        neg, t = True, t[4:-1].strip()
    return t, neg, abs_, sext


def parse_reg(tok, col):
    try:
        r = O.parse_register(tok)
    except ValueError as e:
        raise SyntaxErr(str(e), col) from None
    return r


_REG_CACHE = {}
# operand codes the decoder prints but llvm-mc-19's assembler refuses for gfx11, per encoding
# (seen with the differential test; VOPD, VOP3SD and most VOP3P sources take them)
_SCALAR_VECTOR = frozenset(("SOP1", "SOP2", "SOPC", "SOPK", "VOP1", "VOP2", "VOPC", "MUBUF", "MTBUF"))
_NOT_ON_GFX11 = {251: _SCALAR_VECTOR, 252: _SCALAR_VECTOR, 239: _SCALAR_VECTOR,   # vccz execz pops
                 254: frozenset(("VOP1", "VOP2", "VOPC", "VOP3", "VOP3P"))}        # lds_direct


def not_on_gfx11(code, tok, col, fam, dest=False):
    if (dest and code in _NOT_ON_GFX11) or fam in _NOT_ON_GFX11.get(code, ()):
        raise SyntaxErr("%s is not available as an operand of a %s instruction on gfx11 (llvm-mc-19 "
                        "rejects it)" % (tok, fam), col)


_SRC_CACHE = {}


def reg_operand(tok, col, kind, nregs, accept, vlimit, role, mnem):
    """A register-only operand -> field value (SGPR code or VGPR number); memoized."""
    key = (tok, kind, nregs, accept, vlimit)
    v = _REG_CACHE.get(key)
    if v is None:
        v = _REG_CACHE[key] = _reg_operand(tok, col, kind, nregs, accept, vlimit, role, mnem)
    return v


def _reg_operand(tok, col, kind, nregs, accept, vlimit, role, mnem):
    r = parse_reg(tok, col)
    if r is None and kind == "s" and tok in O.NAMED_CODES:
        r = ("s", O.NAMED_CODES[tok], nregs)           # src_* names as destinations
    if r is None:
        raise SyntaxErr("operand %s of %s must be a %s, got %r" % (role, mnem, _kind_name(kind, nregs), tok),
                        col)
    rk, code, n = r
    if rk != kind:
        raise SyntaxErr("operand %s of %s must be a %s, got %r" % (role, mnem, _kind_name(kind, nregs), tok),
                        col)
    if n != nregs and not (kind == "s" and code in (124,) and n == 1):
        raise SyntaxErr("operand %s of %s must be a %s, got %d register%s %r"
                        % (role, mnem, _kind_name(kind, nregs), n, "s" if n > 1 else "", tok), col)
    if kind == "v":
        if code + nregs > vlimit:
            raise SyntaxErr("operand %s of %s: %s is out of range (v0..v%d)" % (role, mnem, tok,
                                                                                  vlimit - 1), col)
        return code
    if accept is not None and not (ACCEPT[accept] >> code) & 1:
        raise SyntaxErr("operand %s of %s cannot be %s" % (role, mnem, tok), col)
    return code


def source_operand(tok, col, nregs, dtype, accept, role, mnem):
    """A source (register or constant) -> (code, literal or None, neg, abs, sext); memoized."""
    key = (tok, nregs, dtype, accept)
    v = _SRC_CACHE.get(key)
    if v is None:
        v = _SRC_CACHE[key] = _source_operand(tok, col, nregs, dtype, accept, role, mnem)
    return v


def _source_operand(tok, col, nregs, dtype, accept, role, mnem):
    inner, neg, abs_, sext = strip_source_mods(tok, col)
    if not inner:
        raise SyntaxErr("missing operand %s of %s" % (role, mnem), col)
    r = parse_reg(inner, col)
    lit = None
    if r is not None:
        rk, code, n = r
        if rk == "v":
            code += 256
        wide_ok = rk == "s" and (code == 124 or code >= 235)
        if n != nregs and not wide_ok:
            raise SyntaxErr("operand %s of %s must be %s, got %r" % (
                role, mnem, _WIDTH_NAME.get(nregs, "%d-dword" % nregs) + " wide", inner), col)
    else:
        code = O.NAMED_CODES.get(inner)
        if code is None:
            num = parse_number(inner)
            if num is None:
                raise SyntaxErr("operand %s of %s: expected a register or a constant, got %r"
                                % (role, mnem, inner), col)
            try:
                code, lit = encode_constant(num[0], num[1], dtype)
            except ConstError as e:
                raise SyntaxErr("operand %s of %s: %s" % (role, mnem, e), col) from None
    if not (ACCEPT[accept] >> code) & 1:
        if code == O.LITERAL:
            raise SyntaxErr("operand %s of %s does not take a literal constant (%r)"
                            % (role, mnem, inner), col)
        raise SyntaxErr("operand %s of %s cannot be %r" % (role, mnem, inner), col)
    return code, lit, neg, abs_, sext


def _bits_list(text, n, col, name):
    if not (text.startswith("[") and text.endswith("]")):
        raise SyntaxErr("%s expects [..] with %d entries" % (name, n), col)
    items = [x.strip() for x in text[1:-1].split(",")]
    if len(items) != n or any(x not in ("0", "1") for x in items):
        raise SyntaxErr("%s expects %d entries of 0 or 1" % (name, n), col)
    return [int(x) for x in items]


def _int_value(text, col, name, lo, hi):
    num = parse_number(text)
    if num is None or num[1]:
        raise SyntaxErr("%s expects an integer, got %r" % (name, text), col)
    if not lo <= num[0] <= hi:
        raise SyntaxErr("%s value %d out of range [%d, %d]" % (name, num[0], lo, hi), col)
    return num[0]


def parse_dpp(mods, col_of):
    """DPP modifier words -> (kind, control dword without vsrc0, fi) or None."""
    ctl = None
    kind = None
    row_mask = bank_mask = 0xF
    bc = fi = 0
    for m, c in mods:
        name, _, val = m.partition(":")
        if name == "quad_perm":
            v = val.strip("[]").split(",")
            if len(v) != 4 or not all(x.strip() in "0123" and x.strip() for x in v):
                raise SyntaxErr("quad_perm expects 4 lane selects 0..3", c)
            ctl, kind = sum(int(x) << (2 * i) for i, x in enumerate(v)), "dpp16"
        elif name in _DPP_ROW:
            n = _int_value(val, c, name, 0 if name in ("row_share", "row_xmask") else 1, 15)
            ctl, kind = _DPP_ROW[name] + n, "dpp16"
        elif name in ("row_mirror", "row_half_mirror") and not val:
            ctl, kind = (0x140 if name == "row_mirror" else 0x141), "dpp16"
        elif name == "row_mask":
            row_mask = _int_value(val, c, name, 0, 15)
        elif name == "bank_mask":
            bank_mask = _int_value(val, c, name, 0, 15)
        elif name == "bound_ctrl":
            bc = 1 if _int_value(val, c, name, 0, 1) in (0, 1) else 0
        elif name == "fi":
            fi = _int_value(val, c, name, 0, 1)
        elif name == "dpp8":
            v = val.strip("[]").split(",")
            if len(v) != 8 or not all(x.strip() in "01234567" and x.strip() for x in v):
                raise SyntaxErr("dpp8 expects 8 lane selects 0..7", c)
            ctl, kind = sum(int(x) << (3 * i) for i, x in enumerate(v)), "dpp8"
    if kind is None:
        return None
    if kind == "dpp8":
        return kind, ctl << 8, fi
    return kind, ctl << 8 | fi << 18 | bc << 19 | bank_mask << 24 | row_mask << 28, fi


DPP_WORDS = frozenset(("quad_perm", "row_shl", "row_shr", "row_ror", "row_share", "row_xmask",
                       "row_mirror", "row_half_mirror", "row_mask", "bank_mask", "bound_ctrl", "fi",
                       "dpp8"))


_PLANS = {}
_VALU = frozenset(("VOP1", "VOP2", "VOPC", "VOP3", "VOP3SD", "VOP3P", "VINTERP"))
_ONE_SCALAR = frozenset(("v_lshlrev_b64", "v_lshrrev_b64", "v_ashrrev_i64"))


def _is_scalar(code):
    """Operand codes that travel on the constant bus: SGPRs and the src_* specials."""
    return code < 128 and code != 124 or 235 <= code <= 239 or 251 <= code <= 253


def scalar_limit(fam, mnem, spec):
    """(limit, implicit scalar reads) of a VALU form: gfx11 reads at most two scalar values
    (distinct SGPRs and the literal) per instruction, one for the 64-bit shifts."""
    if fam not in _VALU:
        return None
    base = mnem.rsplit("_e", 1)[0] if mnem.endswith(("_e32", "_e64")) else mnem
    implicit = set()
    if fam == "VOP2" and spec and spec[-1] == ("fixed", "vcc_lo"):
        implicit.add(106)                  # v_cndmask_b32 / v_add_co_ci_u32 read vcc_lo
    if base.startswith("v_div_fmas"):
        implicit.add(106)
    return (1 if base in _ONE_SCALAR else 2), implicit


def check_constant_bus(limit, scalars, lit, mnem, col):
    limit, implicit = limit
    n = len(scalars | implicit) + (lit is not None)
    if n > limit:
        raise SyntaxErr("%s reads %d scalar values (SGPRs, literal) but gfx11 allows %d (constant "
                        "bus)" % (mnem, n, limit), col)


def _plan(fam, op, entry, mnem):
    """Precomputed encoding of the plain form: (base word, size, default bits, items) or None
    when the form needs the general path (immediates, literals K, true16, packed defaults)."""
    spec = entry[1]
    if any(s[0] in ("imm", "msg", "lit") for s in spec) or (fam == "VOP1" and
                                                           mnem.startswith("v_mov_b16")):
        return None
    size, fields = FORMATS[fam]
    lo, _ = fields["op"]
    base = ENCODING_BITS["VOP3" if fam == "VOP3SD" else fam][1] | op << lo | entry[3]
    if fam == "VOP3P" and not mnem.startswith("v_fma_mix"):
        nsrc = sum(1 for s in spec if s[0] == "src")
        for r in ("src0", "src1", "src2")[:nsrc]:
            if (entry[4] >> _OPSEL_HI_BIT[r]) & 1:
                base |= 1 << _OPSEL_HI_BIT[r]
    items = []
    for s in spec:
        if s[0] == "fixed":
            items.append((2, 0, s[1], None, None, None))
        else:
            flo = fields[s[1]][0]
            if s[0] == "reg":
                items.append((0, flo, s[2], s[3], s[4] if s[2] == "s" else None,
                              s[4] if s[2] == "v" else 256))
            else:
                items.append((1, flo, s[2], s[3], s[4], None))
    return base, size, items, scalar_limit(fam, mnem, spec)


def encode_alu(fam, op, entry, variant, mnem, ops, mods, ctx):
    """Encode one ALU form; `variant` is None, 'dpp16' or 'dpp8'. Returns (bytes, fixups)."""
    spec = entry[1]
    nfixed = sum(1 for s in spec if s[0] == "fixed")
    if nfixed and len(ops) == len(spec) - nfixed:
        # vcc_lo operands of 32-bit encodings may be left out, as llvm-mc allows
        rest = iter(ops)
        ops = [(s[1], ctx.mnem_end) if s[0] == "fixed" else next(rest) for s in spec]
    if variant is None and not mods:
        key = (fam, op)
        plan = _PLANS.get(key, 0)
        if plan == 0:
            plan = _PLANS[key] = _plan(fam, op, entry, mnem)
        if plan is not None and len(ops) == len(plan[2]):
            try:
                out = _encode_plain(plan, [t for t, _ in ops], mnem)
            except SyntaxErr:
                out = None            # the general path words the error for this operand
            if out is not None:
                return out, ()
    return _encode_alu(fam, op, entry, variant, mnem, ops, mods, ctx)


def clear_caches():
    _REG_CACHE.clear()
    _SRC_CACHE.clear()
    _PLANS.clear()


def plain_plan(fam, op, entry, mnem):
    key = (fam, op)
    plan = _PLANS.get(key, 0)
    if plan == 0:
        plan = _PLANS[key] = _plan(fam, op, entry, mnem)
    return plan


def _encode_plain(plan, toks, mnem):
    """Fast path on bare operand strings: registers and constants only; None sends the statement
    to the general path (which also words any error with its column)."""
    word, size, items, limit = plan
    lit = None
    scalars = None
    reg_cache, src_cache = _REG_CACHE, _SRC_CACHE
    for (kind, flo, a, b, c, d), tok in zip(items, toks):
        if kind == 0:
            v = reg_cache.get((tok, a, b, c, d))
            if v is None:
                v = reg_operand(tok, 0, a, b, c, d, "operand", mnem)
            if a == "s" and v in _NOT_ON_GFX11:
                return None                            # an SGPR destination gfx11 refuses: the general path says so
            word |= v << flo
        elif kind == 1:
            if not tok or tok[0] in "-|ans" and (tok[0] in "-|" or tok.startswith(("neg(", "abs(", "sext("))):
                return None
            r = src_cache.get((tok, a, b, c))
            if r is None:
                r = source_operand(tok, 0, a, b, c, "operand", mnem)
            code, l = r[0], r[1]
            if code < 128 and code != 124 or 235 <= code <= 239 or 251 <= code <= 254:
                if code in _NOT_ON_GFX11:
                    return None                        # the general path decides
                if scalars is None:
                    scalars = {code}
                else:
                    scalars.add(code)
            word |= code << flo
            if l is not None:
                if lit is not None and lit != l:
                    return None
                lit = l
        elif tok != a:
            return None
    if limit is not None and (scalars is not None or lit is not None or limit[1]):
        check_constant_bus(limit, scalars or set(), lit, mnem, 0)
    out = word.to_bytes(size, "little")
    return out if lit is None else out + lit.to_bytes(4, "little")


def _encode_alu(fam, op, entry, variant, mnem, ops, mods, ctx):
    _, spec, fmask, fval, mmask, _, _, dppmods, opsel_map = entry
    size, fields = FORMATS[fam]
    enc = ENCODING_BITS["VOP3" if fam == "VOP3SD" else fam][1]
    lo, width = fields["op"]
    word = enc | op << lo | fval
    vop3 = fam in ("VOP3", "VOP3SD")
    vop3p = fam == "VOP3P"
    mix = vop3p and mnem.startswith("v_fma_mix")
    vinterp = fam == "VINTERP"
    t16 = fam == "VOP1" and mnem.startswith("v_mov_b16")
    want = [s for s in spec if not (s[0] == "imm" and s[2] == "opt_dec")]
    if len(ops) < len(want):
        col = ops[-1][1] + len(ops[-1][0]) if ops else ctx.mnem_end
        raise SyntaxErr("too few operands for %s: expected %d, got %d" % (mnem, len(want), len(ops)),
                        col)
    if len(ops) > len(spec):
        raise SyntaxErr("too many operands for %s: expected %d, got %d" % (mnem, len(spec), len(ops)),
                        ops[len(spec)][1])
    lit = None
    fixups = []
    dpp = None
    if variant is not None:
        dpp = parse_dpp(mods, None)
        if dpp is None or dpp[0] != variant:
            raise SyntaxErr("%s needs %s controls" % (mnem, variant), ctx.mnem_end)
    dppword = 0
    nsrc = 0
    scalars = set()
    bus_col = ctx.mnem_end

    def setf(name, v):
        nonlocal word
        flo, fw = fields[name]
        word = (word & ~(((1 << fw) - 1) << flo)) | ((v & ((1 << fw) - 1)) << flo)

    for s, (tok, col) in zip(spec, ops):
        kind = s[0]
        if kind == "reg":
            role, rk, nregs = s[1], s[2], s[3]
            if role == "vsrc1" and dpp is not None and dpp[0] == "dpp16" and not vop3:
                tok, neg, abs_, sext = strip_source_mods(tok, col)
                neg = neg or sext
                if (neg and not dppmods >> 36 & 1) or (abs_ and not dppmods >> 37 & 1):
                    raise SyntaxErr("operand %s of %s does not take this modifier" % (role, mnem), col)
                dppword |= neg << 22 | abs_ << 23
            if t16:
                v = _t16_reg(tok, col, role, mnem)
            else:
                v = reg_operand(tok, col, rk, nregs, s[4] if rk == "s" else None,
                                s[4] if rk == "v" else 256, role, mnem)
            if rk == "s":
                not_on_gfx11(v, tok, col, fam, dest=True)
            if role == "sdst" and fam == "SOPK" and mnem.startswith("s_waitcnt_") and v != 124:
                raise SyntaxErr("the register operand of %s must be null" % mnem, col)
            setf(role, v)
        elif kind == "src":
            role, nregs, dtype, acc = s[1], s[2], s[3], s[4]
            nsrc += 1
            if not (vop3 or mix) and tok.startswith("neg(") and tok.endswith(")"):
                inner = tok[4:-1].strip()
                if parse_number(inner) is not None:      # llvm-mc folds neg(c) into the constant
                    tok = inner[1:] if inner.startswith("-") else "-" + inner
            if dpp is not None and role != "src0" and (fam, op) in DPP_ACCEPT:
                acc = dict(DPP_ACCEPT[(fam, op)])[role]   # what the DPP form allows there
            if t16:
                code, l, neg, abs_, sext = _t16_src(tok, col, role, mnem, acc)
            else:
                code, l, neg, abs_, sext = source_operand(tok, col, nregs, dtype, acc, role, mnem)
            if role == "src0" and dpp is not None:
                if code < 256:
                    raise SyntaxErr("DPP source %s of %s must be a VGPR" % (role, mnem), col)
                dppword |= code - 256
                code = {"dpp16": O.DPP16, "dpp8": O.DPP8FI if dpp[2] else O.DPP8}[dpp[0]]
            if l is not None:
                if lit is not None and lit != l:
                    raise SyntaxErr("only one unique literal constant is allowed in %s" % mnem, col)
                lit = l
            not_on_gfx11(code, tok, col, fam)
            if code < 256 and _is_scalar(code):
                scalars.add(code)
                bus_col = col
            if vinterp and code < 256:
                raise SyntaxErr("operand %s of %s must be a VGPR" % (role, mnem), col)
            if dpp is not None and role == "src1" and (vop3 or vop3p) and code < 256:
                raise SyntaxErr("src1 of the DPP form %s must be a VGPR" % mnem, col)
            setf(role, code)
            if neg or abs_ or sext:
                if vinterp:
                    if abs_ or sext or not (mmask >> _NEG_BIT[role]) & 1:
                        raise SyntaxErr("operand %s of %s takes only a negation modifier"
                                        % (role, mnem), col)
                    word |= 1 << _NEG_BIT[role]
                elif vop3 or mix:
                    nb, ab = _NEG_BIT[role], _ABS_BIT[role]
                    if dpp is not None and dppmods >> (26 + nb - 61) & 1:
                        dtype = "i32"                    # sext(...) exists only in this DPP form
                        mmask |= 1 << nb
                    if sext and dtype != "i32" or (neg and dtype == "i32"):
                        raise SyntaxErr("operand %s of %s: use %s" % (
                            role, mnem, "sext(...)" if dtype == "i32" else "-x for negation"), col)
                    if (neg or sext) and not (mmask >> nb) & 1:
                        raise SyntaxErr("operand %s of %s does not take a negation modifier"
                                        % (role, mnem), col)
                    if abs_ and not (mmask >> ab) & 1:
                        raise SyntaxErr("operand %s of %s does not take an absolute-value modifier"
                                        % (role, mnem), col)
                    word |= (neg or sext) << nb | abs_ << ab
                elif dpp is not None and dpp[0] == "dpp16" and role == "src0":
                    neg = neg or sext
                    if (neg and not dppmods >> 34 & 1) or (abs_ and not dppmods >> 35 & 1):
                        raise SyntaxErr("operand %s of %s does not take this modifier" % (role, mnem),
                                        col)
                    dppword |= neg << 20 | abs_ << 21
                else:
                    raise SyntaxErr("operand %s of %s does not take source modifiers in this "
                                    "encoding" % (role, mnem), col)
        elif kind == "fixed":
            if tok != s[1]:
                raise SyntaxErr("operand of %s must be %s, got %r" % (mnem, s[1], tok), col)
        elif kind == "lit":
            num = parse_number(tok)
            if num is None:
                raise SyntaxErr("%s expects a constant here, got %r" % (mnem, tok), col)
            try:
                l = literal_bits(num[0], num[1], "f16" if mnem.endswith("_f16") else "b32")
            except ConstError as e:
                raise SyntaxErr(str(e), col) from None
            if mnem.endswith("_f16") and not (l <= 0xFFFF or l >= 0xFFFF8000):
                raise SyntaxErr("the constant of %s must fit in 16 bits" % mnem, col)
            if lit is not None and lit != l:
                raise SyntaxErr("only one unique literal constant is allowed in %s" % mnem, col)
            lit = l
        elif kind == "imm":
            v, fix = parse_simm(s[2], tok, col, mnem, ctx)
            setf("simm16", v)
            if fix is not None:
                fixups.append(fix)
        elif kind == "msg":
            v, _ = parse_simm("sendmsg", tok, col, mnem, ctx)
            if v > 0xFF:
                raise SyntaxErr("message id %d does not fit s_sendmsg_rtn" % v, col)
            setf("ssrc0", v)
    limit = scalar_limit(fam, mnem, spec)
    if limit is not None:
        check_constant_bus(limit, scalars, lit, mnem, bus_col)
    # instruction modifiers
    for m, c in mods:
        name, _, val = m.partition(":")
        if name in DPP_WORDS:
            if dpp is None:
                raise SyntaxErr("%s is a DPP control; %s has no DPP form here" % (name, mnem), c)
            continue
        if vop3:
            if m == "clamp":
                if not mmask >> 15 & 1:
                    raise SyntaxErr("%s does not support clamp" % mnem, c)
                word |= 1 << 15
            elif m in _OMOD:
                if not mmask >> 59 & 3:
                    raise SyntaxErr("%s does not support output modifiers" % mnem, c)
                word |= _OMOD[m] << 59
            elif name == "op_sel":
                if opsel_map is None:
                    raise SyntaxErr("%s does not support op_sel" % mnem, c)
                bits = _bits_list(val, opsel_map[0], c, "op_sel")
                for i in range(4):
                    idx = opsel_map[1 + i]
                    if idx >= 0 and bits[idx]:
                        word |= 1 << (11 + i)
            else:
                raise SyntaxErr("unknown modifier %r for %s" % (m, mnem), c)
        elif vinterp:
            if m == "clamp" and mmask >> 15 & 1:
                word |= 1 << 15
            elif name == "wait_exp":
                word |= _int_value(val, c, "wait_exp", 0, 7) << 8
            elif name == "op_sel" and opsel_map is not None:
                bits = _bits_list(val, opsel_map[0], c, "op_sel")
                for i in range(4):
                    if opsel_map[1 + i] >= 0 and bits[opsel_map[1 + i]]:
                        word |= 1 << (11 + i)
            else:
                raise SyntaxErr("unknown modifier %r for %s" % (m, mnem), c)
        elif vop3p:
            if m == "clamp":
                if not mmask >> 15 & 1:
                    raise SyntaxErr("%s does not support clamp" % mnem, c)
                word |= 1 << 15
            elif name in ("op_sel", "op_sel_hi", "neg_lo", "neg_hi"):
                bits = _bits_list(val, nsrc, c, name)
                roles = ("src0", "src1", "src2")[:nsrc]
                table = {"op_sel": {"src0": 11, "src1": 12, "src2": 13}, "op_sel_hi": _OPSEL_HI_BIT,
                         "neg_lo": _NEG_BIT, "neg_hi": _NEG_HI_BIT}[name]
                for r, b in zip(roles, bits):
                    bit = table[r]
                    if name == "op_sel_hi":
                        word = (word & ~(1 << bit)) | (b << bit)
                        ctx.opsel_hi_set = True
                    elif b:
                        if not (mmask >> bit) & 1:
                            raise SyntaxErr("%s does not support %s" % (mnem, name), c)
                        word |= 1 << bit
            else:
                raise SyntaxErr("unknown modifier %r for %s" % (m, mnem), c)
        else:
            raise SyntaxErr("unknown modifier %r for %s" % (m, mnem), c)
    if vop3p and not mix and not ctx.opsel_hi_set:
        for r in ("src0", "src1", "src2")[:nsrc]:
            bit = _OPSEL_HI_BIT[r]
            if (mmask >> bit) & 1:
                word |= 1 << bit
    ctx.opsel_hi_set = False
    out = word.to_bytes(size, "little")
    if dpp is not None:
        out += (dpp[1] | dppword).to_bytes(4, "little")
    if lit is not None:
        out += lit.to_bytes(4, "little")
    return out, fixups


def _t16_reg(tok, col, role, mnem):
    if tok[:1] == "v" and tok[-2:] in (".l", ".h") and tok[1:-2].isdigit():
        n = int(tok[1:-2])
        if n < 128:
            return n | (128 if tok.endswith(".h") else 0)
    raise SyntaxErr("operand %s of %s must be a 16-bit VGPR half like v1.l, got %r" % (role, mnem, tok),
                    col)


def _t16_src(tok, col, role, mnem, acc):
    inner, neg, abs_, sext = strip_source_mods(tok, col)
    if inner[:1] == "v" and inner[-2:] in (".l", ".h"):
        return 256 + _t16_reg(inner, col, role, mnem), None, neg, abs_, sext
    return source_operand(tok, col, 1, "i16", acc, role, mnem)


def encode_vopd(x, y, xops, yops, ctx, cols):
    """v_dual_X ... :: v_dual_Y ...; x/y are (opcode, (mnemonic, operands))."""
    word = ENCODING_BITS["VOPD"][1] | x[0] << 22 | y[0] << 17
    lit = None
    regs = {}
    for side, (op, (mnem, spec)), ops in (("X", x, xops), ("Y", y, yops)):
        if len(ops) != len(spec):
            raise SyntaxErr("%s expects %d operands, got %d" % (mnem, len(spec), len(ops)),
                            ops[-1][1] if ops else cols[side])
        r = {}
        for s, (tok, col) in zip(spec, ops):
            if s[0] == "reg":
                r[s[1]] = (reg_operand(tok, col, "v", 1, None, 256, s[1], mnem), col)
            elif s[0] == "src":
                inner, neg, abs_, sext = strip_source_mods(tok, col)
                if neg or abs_ or sext:
                    raise SyntaxErr("VOPD operands take no modifiers", col)
                acc = _VOPD_ACCEPT
                code, l, _, _, _ = source_operand(inner, col, 1, s[3], acc, "src0", mnem)
                if l is not None:
                    if lit is not None and lit != l:
                        raise SyntaxErr("only one unique literal constant is allowed in a VOPD pair",
                                        col)
                    lit = l
                r["src0"] = (code, col)
            else:
                num = parse_number(tok)
                if num is None:
                    raise SyntaxErr("%s expects a constant here, got %r" % (mnem, tok), col)
                try:
                    l = literal_bits(num[0], num[1], "b32")
                except ConstError as e:
                    raise SyntaxErr("%s: %s" % (mnem, e), col) from None
                if lit is not None and lit != l:
                    raise SyntaxErr("only one unique literal constant is allowed in a VOPD pair", col)
                lit = l
        regs[side] = r
    X, Y = regs["X"], regs["Y"]
    scalars = {r["src0"][0] for r in (X, Y) if _is_scalar(r["src0"][0])}
    if "v_dual_cndmask_b32" in (x[1][0], y[1][0]):
        scalars.add(106)                                   # cndmask reads vcc_lo
    if len(scalars) + (lit is not None) > 2:
        raise SyntaxErr("VOPD pair reads %d scalar values (SGPRs, literal) but gfx11 allows 2 "
                        "(constant bus)" % (len(scalars) + (lit is not None)), Y["src0"][1])
    # register bank rules of the dual-issue VALU: operands in the same position must sit in
    # different VGPR banks (register number % 4, % 2 for src2); the accumulators' src2 is their vdst
    if X["vdst"][0] & 1 == Y["vdst"][0] & 1:
        raise SyntaxErr("VOPD destinations must be one even and one odd VGPR (v%d, v%d)"
                        % (X["vdst"][0], Y["vdst"][0]), Y["vdst"][1])
    pos = {}
    for side, (op, (mnem, spec)) in (("X", x), ("Y", y)):
        r = regs[side]
        p = {}
        if r["src0"][0] >= 256:
            p[0] = (r["src0"][0] - 256, r["src0"][1])
        if "vsrc1" in r:
            p[2 if mnem == "v_dual_fmamk_f32" else 1] = r["vsrc1"]
        if mnem in ("v_dual_fmac_f32", "v_dual_dot2acc_f32_f16"):
            p[2] = r["vdst"]
        pos[side] = p
    for i in range(3):
        if i in pos["X"] and i in pos["Y"]:
            a, b = pos["X"][i][0], pos["Y"][i][0]
            banks = 2 if i == 2 else 4             # src2 (the accumulators) has two banks
            if a % banks == b % banks:
                raise SyntaxErr("VOPD src%d operands v%d and v%d must use different VGPR banks "
                                "(both %% %d == %d)" % (i, a, b, banks, a % banks), pos["Y"][i][1])
    word |= X["vdst"][0] << 56 | (Y["vdst"][0] >> 1) << 49
    word |= X["src0"][0] | Y["src0"][0] << 32
    if "vsrc1" in X:
        word |= X["vsrc1"][0] << 9
    if "vsrc1" in Y:
        word |= Y["vsrc1"][0] << 41
    out = word.to_bytes(8, "little")
    if lit is not None:
        out += lit.to_bytes(4, "little")
    return out


def _vopd_accept():
    """VOPD sources take what VOP2's v_add_f32_e32 src0 takes: VGPRs, SGPRs, constants, literal."""
    from .tables import ALU
    return ALU["VOP2"][3][1][1][4]


_VOPD_ACCEPT = _vopd_accept()
VOPD_X = {v[0]: (k, v) for k, v in VOPD["X"].items()}
VOPD_Y = {v[0]: (k, v) for k, v in VOPD["Y"].items()}
