"""Encode scalar and vector ALU instructions (SOP*, VOP1/2/C, VOP3, VOP3SD, VOP3P, VINTERP, DPP;
VOPD pairs are in encode_vopd.py).

Each form is driven by its row in tables.ALU: the operand list says which field each written
operand fills and what it may hold; the modifier mask says which modifier bits exist.
"""
import struct

from . import operands as O
from .constants import ConstError, encode_constant, literal_bits, parse_number, strip_lit
from .lexer import LexError, parse_source
from .formats import ENCODING_BITS, FORMATS
from .simm_parse import parse_simm
from .modifiers_alu import (DPP_WORDS, _bits_list, _check_opsel, _int_value, omod_value,
                            parse_dpp)
from .syntax import SyntaxErr, check_modifier_order
from .tables import ACCEPT, ASM_SPECIAL, DPP_ACCEPT, DPP_LITERAL

_ABS_BIT = {"src0": 8, "src1": 9, "src2": 10}
_NEG_BIT = {"src0": 61, "src1": 62, "src2": 63}
_OPSEL_HI_BIT = {"src0": 59, "src1": 60, "src2": 14}
_NEG_HI_BIT = {"src0": 8, "src1": 9, "src2": 10}
_OMOD = {"mul:2": 1, "mul:4": 2, "div:2": 3}
_WIDTH_NAME = {1: "32-bit", 2: "64-bit", 3: "96-bit", 4: "128-bit", 8: "256-bit", 16: "512-bit"}


def _kind_name(kind, nregs):
    what = {"v": "VGPR", "s": "SGPR"}[kind]
    if nregs == 1:
        return "32-bit " + what
    return "%s %s range like %s[0:%d]" % (_WIDTH_NAME.get(nregs, "%d-dword" % nregs), what, kind,
                                          nregs - 1)


def parse_src(tok, col, syn, role, mnem):
    """The source operand text -> lexer.Source, parsed with the modifier syntax `syn` = (fp, int)
    llvm-mc has for this operand position of the mnemonic (see src_syntax)."""
    try:
        src = parse_source(tok, syn[0], syn[1], O.is_register_name, col)
        if src.reg is None and ((syn[2] and (src.fp_mods or src.lit)) or (syn[3] and src.sext)):
            raise LexError("takes source modifiers on registers only (failed parsing operand)",
                           col)
        return src
    except LexError as e:
        sep = " " if e.reason.startswith(("does not", "takes")) else ": "
        raise SyntaxErr("operand %s of %s%s%s" % (role, mnem, sep, e.reason), e.col) from None


def strip_source_mods(tok, col, syn=(True, True, False, False), role="operand",
                      mnem="instruction"):
    """'-|v1|' -> ('v1', neg, abs, sext) for a register source; constants come back as text."""
    src = parse_src(tok, col, syn, role, mnem)
    if src.reg is None:
        return tok, False, False, False
    return src.reg, src.neg, src.abs, src.sext


_PARSED_REGS = {}        # register text -> operands.parse_register's answer (refusals not kept)


def parse_reg(tok, col):
    r = _PARSED_REGS.get(tok, False)
    if r is False:
        try:
            r = O.parse_register(tok)
        except ValueError as e:
            raise SyntaxErr(str(e), col) from None
        _PARSED_REGS[tok] = r
    return r


_NO_MODS = (False, False, False, False)      # source-modifier syntax of a position: none
_SPECIAL_CODES = sum(1 << c for c in (106, 107, 124, 125, 126, 127, 235, 236, 237, 238, 253, 254))
# what an operand accepts when assembling: ACCEPT (learned from llvm-mc's decoder) with the named
# scalar operands replaced by the ones llvm-mc's assembler takes there (tables.ASM_SPECIAL)
ASM_ACCEPT = list(ACCEPT)
_ASM_INDEX = {}


def asm_accept(acc, key):
    """Index into ASM_ACCEPT for an operand whose ACCEPT index is `acc`; key names the operand
    in tables.ASM_SPECIAL: (family, opcode, position), (memory name, opcode, position) or
    ('VOPD', side, opcode)."""
    special = ASM_SPECIAL.get(key)
    if special is None or acc is None:
        return acc
    return _combined(acc, special)


_INT_INLINE = sum(1 << c for c in range(128, 209))
_FLOAT_INLINE = sum(1 << c for c in range(240, 249))


def _combined(acc, special):
    k = (acc, special)
    i = _ASM_INDEX.get(k)
    if i is None:
        mask = ACCEPT[acc] & ~(_SPECIAL_CODES | _INT_INLINE | _FLOAT_INLINE | 1 << O.LITERAL)
        mask |= special & _SPECIAL_CODES
        # bits 129 / 242 / 255 of the learned mask stand for all integer inline constants,
        # all float ones, and a literal
        mask |= (_INT_INLINE if special >> 129 & 1 else 0) | (
            _FLOAT_INLINE if special >> 242 & 1 else 0) | (special & 1 << O.LITERAL)
        i = _ASM_INDEX[k] = len(ASM_ACCEPT)
        ASM_ACCEPT.append(mask)
    return i


def dpp_accept(fam, op, role, pos, literal=False):
    """What src1/src2 of a VOP3/VOP3P DPP form take; v_fma_mix* (tables.DPP_LITERAL) and 16-bit
    integer sources also take a literal code there, which llvm-mc-19 encodes as code 255
    without the literal dword."""
    acc = dict(DPP_ACCEPT[(fam, op)])[role]
    if (fam, op, pos) not in DPP_LITERAL and not literal:
        return acc
    return _combined(acc, (ACCEPT[acc] & (_SPECIAL_CODES | 1 << 129 | 1 << 242)) | 1 << O.LITERAL)


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
    if n != nregs and not (kind == "s" and (code == 124 or code >= 235) and n == 1):
        raise SyntaxErr("operand %s of %s must be a %s, got %d register%s %r"
                        % (role, mnem, _kind_name(kind, nregs), n, "s" if n > 1 else "", tok), col)
    if kind == "s" and code in O.VCCZ_EXECZ:
        raise SyntaxErr("%s is not an operand on gfx11 (llvm-mc-19 refuses it)" % tok, col)
    if kind == "v":
        if code + nregs > vlimit:
            raise SyntaxErr("operand %s of %s: %s is out of range (v0..v%d)" % (role, mnem, tok,
                                                                                  vlimit - 1), col)
        return code
    if accept is not None and not (ASM_ACCEPT[accept] >> code) & 1:
        raise SyntaxErr("operand %s of %s cannot be %s" % (role, mnem, tok), col)
    return code


def source_operand(tok, col, nregs, dtype, accept, role, mnem, syn=_NO_MODS,
                   fold=True):
    """A source (register or constant) -> (code, literal or None, neg, abs, sext); memoized.
    syn: (fp, int) modifier syntax this position accepts (src_syntax); fold: the encoding has no
    modifier bits for this source, so neg()/abs() of a constant change the constant itself (and
    the constant must then be one llvm-mc takes as a literal), as llvm-mc does in e32 forms."""
    key = (tok, nregs, dtype, accept, syn, fold)
    v = _SRC_CACHE.get(key)
    if v is None:
        v = _SRC_CACHE[key] = _source_operand(tok, col, nregs, dtype, accept, role, mnem, syn,
                                              fold)
    return v


_PARSED_SOURCES = {}     # (operand text, syntax) -> lexer.Source; read-only here (its col is the first one's)


def _source_operand(tok, col, nregs, dtype, accept, role, mnem, syn, fold):
    if not tok.strip():
        raise SyntaxErr("missing operand %s of %s" % (role, mnem), col)
    # one operand text is met under many (width, type, accept set) keys: lex it once per syntax
    src = _PARSED_SOURCES.get((tok, syn))
    if src is None:
        src = _PARSED_SOURCES[tok, syn] = parse_src(tok, col, syn, role, mnem)
    lit = None
    neg, abs_, sext = src.neg, src.abs, src.sext
    if src.reg is not None:
        inner = src.reg
        r = parse_reg(inner, col)
        rk, code, n = r
        if code in O.VCCZ_EXECZ and rk == "s" and not (neg or abs_):
            # llvm-mc refuses vccz/execz as plain operands on gfx11, and lets them through
            # behind -x / |x| (its check looks at unmodified registers only)
            raise SyntaxErr("%s is not an operand on gfx11 (llvm-mc-19 refuses it)" % inner, col)
        if rk == "v":
            code += 256
        wide_ok = rk == "s" and (code == 124 or code >= 235)
        if n != nregs and not wide_ok:
            raise SyntaxErr("operand %s of %s must be %s, got %r" % (
                role, mnem, _WIDTH_NAME.get(nregs, "%d-dword" % nregs) + " wide", inner), col)
    else:
        inner = tok.strip()
        lit_ok = (ASM_ACCEPT[accept] >> O.LITERAL) & 1
        mods = neg or abs_ or sext
        try:
            if fold and mods:
                # an e32 operand with modifiers only matches as a literal-capable operand; the
                # sign modifiers then apply to the constant's bits
                code, lit = encode_constant(src.value, src.is_float, dtype, neg, abs_,
                                            literal_ok=lit_ok, inline_ok=False)
                neg = abs_ = sext = False
            else:
                code, lit = encode_constant(src.value, src.is_float, dtype, fp_mods=neg or abs_)
        except ConstError as e:
            raise SyntaxErr("operand %s of %s: %s" % (role, mnem, e), col) from None
    if not (ASM_ACCEPT[accept] >> code) & 1:
        if code == O.LITERAL:
            raise SyntaxErr("operand %s of %s does not take a literal constant (%r)"
                            % (role, mnem, inner), col)
        raise SyntaxErr("operand %s of %s cannot be %r" % (role, mnem, inner), col)
    return code, lit, neg, abs_, sext


def _base_name(mnem):
    for suffix in ("_e64_dpp", "_dpp", "_e32", "_e64"):
        if mnem.endswith(suffix):
            return mnem[:-len(suffix)]
    return mnem


def build_src_syntax():
    """base mnemonic -> {written operand position: (fp, int, reg_only)}: which source-modifier
    syntax llvm-mc's parser accepts at that position, over every encoding of the mnemonic (and
    its spellings without the implicit vcc_lo operands, which shift the positions): -x, |x|,
    neg(), abs() where some encoding has neg/abs bits for it; sext() where one has a sign-extend
    bit. reg_only: only DPP forms have them there, whose sources are registers, so a constant
    with modifiers does not parse."""
    from .tables import ALU
    out = {}
    for fam, ops in ALU.items():
        for op, e in ops.items():
            mnem, spec, mmask, dppmods = e[0], e[1], e[4], e[7]
            table = out.setdefault(_base_name(mnem), {})
            mix = fam == "VOP3P" and mnem.startswith("v_fma_mix")
            shifted, k = [], 0
            for sp in spec:
                shifted.append(None if sp[0] == "fixed" else k)
                k += sp[0] != "fixed"
            layouts = [list(range(len(spec)))]
            if any(sp[0] == "fixed" for sp in spec):
                layouts.append(shifted)
            for i, sp in enumerate(spec):
                role = sp[1] if sp[0] in ("src", "reg") else None
                # (fp with constants, fp on registers only, int with constants, int registers)
                found = [False, False, False, False]
                if fam in ("VOP3", "VOP3SD", "VINTERP") or mix:
                    if role in _NEG_BIT and (mmask >> _NEG_BIT[role] & 1 or
                                             mmask >> _ABS_BIT[role] & 1):
                        if sp[0] == "src" and sp[3] == "i32":
                            found[2] = True              # an integer source: neg bit = sext()
                        else:
                            found[0] = True
                    if (e[5] or e[6]) and role in _NEG_BIT and dppmods >> (26 + _NEG_BIT[role]
                                                                           - 61) & 1:
                        # sext() of a VOP3 DPP form: src0 there is the DPP register; src1/src2
                        # also take constants, and llvm-mc puts sext(constant) in VOP3 too
                        found[3 if role == "src0" else 2] = True
                elif fam in ("VOP1", "VOP2", "VOPC") and e[5]:
                    k = {"src0": 0, "vsrc1": 1}.get(role)
                    if k is not None:
                        if dppmods >> (30 + k) & 1:      # the neg bit prints as sext()
                            found[3] = True
                        elif dppmods >> (34 + 2 * k) & 3:
                            found[1] = True
                if not any(found):
                    continue
                for layout in layouts:
                    pos = layout[i]
                    if pos is None:
                        continue
                    old = table.get(pos, [False] * 4)
                    table[pos] = [a or b for a, b in zip(old, found)]
    for table in out.values():
        for pos, (fpi, fpr, iti, itr) in list(table.items()):
            # (fp, int, fp on registers only, int on registers only)
            table[pos] = (fpi or fpr, iti or itr, fpr and not fpi, itr and not iti)
    return out


# build_src_syntax()'s tables as (position, syntax) pairs, generated by scripts/gen_rdna3_index.py
from .index_table import SRC_SYNTAX  # noqa: E402


def src_syntax(mnem, pos):
    for p, syn in SRC_SYNTAX.get(_base_name(mnem), ()):
        if p == pos:
            return syn
    return _NO_MODS


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
    mnem = _base_name(entry[0])
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
    mmask = entry[4]
    for pos, s in enumerate(spec):
        if s[0] == "fixed":
            items.append((2, 0, s[1], None, None, None))
        else:
            flo = fields[s[1]][0]
            if s[0] == "reg":
                # an SGPR destination field may be narrower than the code (src_* names, which
                # llvm-mc takes and truncates): flo carries the field's mask
                fmask_ = (1 << fields[s[1]][1]) - 1
                items.append((0, (flo, fmask_), s[2], s[3],
                              asm_accept(s[4], (fam, op, pos)) if s[2] == "s" else None,
                              s[4] if s[2] == "v" else 256))
            else:
                syn = src_syntax(mnem, pos)
                if fam == "VOP3P" and not mnem.startswith("v_fma_mix"):
                    syn = _NO_MODS
                if fam in ("VOP3", "VOP3SD") or mnem.startswith("v_fma_mix"):
                    fold = s[1] not in _NEG_BIT or not (mmask >> _NEG_BIT[s[1]] & 1 or
                                                        mmask >> _ABS_BIT[s[1]] & 1)
                else:
                    fold = fam != "VINTERP"
                items.append((1, flo, s[2], s[3], asm_accept(s[4], (fam, op, pos)), (syn, fold)))
    return base, size, items, scalar_limit(fam, mnem, spec)


def encode_alu(fam, op, entry, variant, mnem, ops, mods, ctx):
    """Encode one ALU form; `variant` is None, 'dpp16' or 'dpp8'. Returns (bytes, fixups)."""
    spec = entry[1]
    nfixed = sum(1 for s in spec if s[0] == "fixed")
    written = None
    if nfixed and len(ops) == len(spec) - nfixed:
        # vcc_lo operands of 32-bit encodings may be left out, as llvm-mc allows; the source
        # modifier syntax then follows the written positions (llvm-mc parses by position)
        rest = iter(ops)
        ops = [(s[1], ctx.mnem_end) if s[0] == "fixed" else next(rest) for s in spec]
        written, k = [], 0
        for s in spec:
            written.append(None if s[0] == "fixed" else k)
            k += s[0] != "fixed"
        return _encode_alu(fam, op, entry, variant, mnem, ops, mods, ctx, written)
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
    _PARSED_REGS.clear()
    _PARSED_SOURCES.clear()
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
            word |= (v & flo[1]) << flo[0]
        elif kind == 1:
            if not tok or tok[0] in "-|ans" and (tok[0] in "-|" or tok.startswith(("neg(", "abs(", "sext("))):
                return None
            r = src_cache.get((tok, a, b, c) + d)
            if r is None:
                r = source_operand(tok, 0, a, b, c, "operand", mnem, d[0], d[1])
            if r[2] or r[3] or r[4]:
                return None                            # modifier bits: the general path
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


def _encode_alu(fam, op, entry, variant, mnem, ops, mods, ctx, written=None):
    _, spec, fmask, fval, mmask, _, _, dppmods, opsel_map = entry
    size, fields = FORMATS[fam]
    enc = ENCODING_BITS["VOP3" if fam == "VOP3SD" else fam][1]
    lo, width = fields["op"]
    word = enc | op << lo | fval
    vop3 = fam in ("VOP3", "VOP3SD")
    vop3p = fam == "VOP3P"
    base = _base_name(entry[0])          # the typed mnemonic may carry a forced-encoding suffix
    mix = vop3p and base.startswith("v_fma_mix")
    vinterp = fam == "VINTERP"
    t16 = fam == "VOP1" and base.startswith("v_mov_b16")
    want = [s for s in spec if not (s[0] == "imm" and s[2] == "opt_dec")]
    if len(ops) < len(want):
        col = ops[-1][1] + len(ops[-1][0]) if ops else ctx.mnem_end
        raise SyntaxErr("too few operands for %s: expected %d, got %d" % (mnem, len(want), len(ops)),
                        col)
    if len(ops) > len(spec):
        extra, col = ops[len(spec)]
        if extra.isidentifier() and not O.is_register_name(extra, False):
            raise SyntaxErr("unknown modifier %r for %s" % (extra, mnem), col)
        raise SyntaxErr("too many operands for %s: expected %d, got %d" % (mnem, len(spec), len(ops)),
                        col)
    lit = None
    fixups = []
    dpp = None
    nwritten = len(ops) if written is None else sum(x is not None for x in written)
    for i, (m, c) in enumerate(mods):
        syn_here = src_syntax(base, nwritten + i)
        if m in ("row_mirror", "row_half_mirror") and (syn_here[0] and not syn_here[2]
                                                        or syn_here[1] and not syn_here[3]):
            # llvm-mc reads a bare name where some form of the mnemonic has a source operand as
            # a symbol (v_cmp_* without vcc_lo), and refuses the statement
            raise SyntaxErr("%s is read as a source operand of %s at this position; write the "
                            "vcc_lo operand" % (m, mnem), c)
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

    for pos, (s, (tok, col)) in enumerate(zip(spec, ops)):
        kind = s[0]
        if kind == "reg":
            role, rk, nregs = s[1], s[2], s[3]
            if role == "vsrc1" and dpp is not None and dpp[0] == "dpp16" and not vop3:
                tok, neg, abs_, sext = strip_source_mods(
                    tok, col, src_syntax(base, pos if written is None else written[pos]), role, mnem)
                neg = neg or sext
                if (neg and not dppmods >> 36 & 1) or (abs_ and not dppmods >> 37 & 1):
                    raise SyntaxErr("operand %s of %s does not take this modifier" % (role, mnem), col)
                dppword |= neg << 22 | abs_ << 23
            if t16:
                v = _t16_reg(tok, col, role, mnem)
            else:
                v = reg_operand(tok, col, rk, nregs,
                                asm_accept(s[4], (fam, op, pos)) if rk == "s" else None,
                                s[4] if rk == "v" else 256, role, mnem)
            if rk == "s":
                not_on_gfx11(v, tok, col, fam, dest=True)
            if role == "sdst" and fam == "SOPK" and base.startswith("s_waitcnt_") and v != 124:
                raise SyntaxErr("the register operand of %s must be null" % mnem, col)
            setf(role, v)
        elif kind == "src":
            role, nregs, dtype, acc = s[1], s[2], s[3], s[4]
            nsrc += 1
            syn = src_syntax(base, pos if written is None else written[pos])
            if vop3p and not mix:
                syn = _NO_MODS              # neg_lo/neg_hi, never -x or |x|
            if vop3 or mix:
                fold = role not in _NEG_BIT or not (mmask >> _NEG_BIT[role] & 1
                                                    or mmask >> _ABS_BIT[role] & 1
                                                    or dppmods >> (26 + _NEG_BIT[role] - 61) & 1)
            else:
                fold = not vinterp
            if dpp is not None and role != "src0" and (fam, op) in DPP_ACCEPT:
                proxy = {"i16": "i16d", "bf16": "bf16d"}.get(dtype)
                acc = dpp_accept(fam, op, role, pos, proxy is not None)  # what the DPP form takes
                if proxy is not None:
                    # llvm-mc-19 checks these as inline constants of another type and encodes
                    # them as their own: 0xfffffff1 (i16) or 0x3800 (bf16) become code 255
                    # with the literal dropped (constants.py, _DPP_PROXY)
                    dtype = proxy
            else:
                acc = asm_accept(acc, (fam, op, pos))
            if t16:
                code, l, neg, abs_, sext = _t16_src(tok, col, role, mnem, acc, syn)
            else:
                code, l, neg, abs_, sext = source_operand(tok, col, nregs, dtype, acc, role, mnem,
                                                          syn, fold)
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
                    # llvm-mc-19 parses |x| on VINTERP sources and drops it: there is no abs bit
                    if sext or (neg and not (mmask >> _NEG_BIT[role]) & 1):
                        raise SyntaxErr("operand %s of %s takes only a negation modifier"
                                        % (role, mnem), col)
                    word |= neg << _NEG_BIT[role]
                elif vop3 or mix:
                    nb, ab = _NEG_BIT[role], _ABS_BIT[role]
                    if dppmods >> (26 + nb - 61) & 1:
                        # sext(): llvm-mc's decoder shows it in the DPP form only; its assembler
                        # takes sext(constant) in the VOP3 form as well, not sext(register)
                        if dpp is None and not mmask >> nb & 1 and code >= 256 and sext:
                            raise SyntaxErr("operand %s of %s: sext() of a register needs the "
                                            "DPP form" % (role, mnem), col)
                        dtype = "i32"
                        mmask |= 1 << nb
                    if sext and dtype != "i32" or (neg and dtype == "i32"):
                        raise SyntaxErr("operand %s of %s: use %s" % (
                            role, mnem, "sext(...)" if dtype == "i32" else "-x for negation"), col)
                    if (neg or sext) and not (mmask >> nb) & 1:
                        raise SyntaxErr("operand %s of %s does not take a negation modifier"
                                        % (role, mnem), col)
                    if abs_ and not (mmask >> ab) & 1:
                        if fam == "VOP3SD":
                            abs_ = False   # no abs field (sdst is there): llvm-mc-19 drops |x|
                        else:
                            raise SyntaxErr("operand %s of %s does not take an absolute-value "
                                            "modifier" % (role, mnem), col)
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
            num = parse_number(strip_lit(tok))
            if num is None:
                raise SyntaxErr("%s expects a constant here, got %r" % (mnem, tok), col)
            if fam == "SOPK":
                # s_setreg_imm32_b32's dword is a plain 32-bit immediate: llvm-mc keeps the low
                # 32 bits of any integer (of a real's double bits)
                v = num[0]
                if num[1]:
                    v = struct.unpack("<Q", struct.pack("<d", v))[0]
                l = v & 0xFFFFFFFF
            else:
                try:
                    l = literal_bits(num[0], num[1], "f16" if base.endswith("_f16") else "b32")
                except ConstError as e:
                    raise SyntaxErr("%s: %s" % (mnem, e), col) from None
            if lit is not None and lit != l:
                raise SyntaxErr("only one unique literal constant is allowed in %s" % mnem, col)
            lit = l
        elif kind == "imm":
            v, fix = parse_simm(s[2], tok, col, base, ctx)
            setf("simm16", v)
            if fix is not None:
                fixups.append(fix)
        elif kind == "msg":
            v, _ = parse_simm("sendmsg", tok, col, "s_sendmsg", ctx)
            setf("ssrc0", v & 0xFF)            # llvm-mc takes 16 bits and keeps the field's 8
    limit = scalar_limit(fam, base, spec)
    if limit is not None:
        check_constant_bus(limit, scalars, lit, mnem, bus_col)
    # instruction modifiers
    check_modifier_order("VOP3P" if vop3p else ("VINTERP" if vinterp else "VOP3"), mods, mnem)
    for m, c in mods:
        name, _, val = m.partition(":")
        if name in DPP_WORDS:
            if dpp is None:
                raise SyntaxErr("%s is a DPP control; %s has no DPP form here" % (name, mnem), c)
            continue
        if m == "noclamp" and (vop3 or vinterp or vop3p):
            if not mmask >> 15 & 1:
                raise SyntaxErr("%s does not support clamp" % mnem, c)
            continue                                     # clamp left clear, as llvm-mc takes it
        if vop3:
            if m == "clamp":
                if not mmask >> 15 & 1:
                    raise SyntaxErr("%s does not support clamp" % mnem, c)
                word |= 1 << 15
            elif name in ("mul", "div") and val:
                if not mmask >> 59 & 3:
                    raise SyntaxErr("%s does not support output modifiers" % mnem, c)
                word |= omod_value(m, c) << 59
            elif name == "op_sel":
                if opsel_map is None:
                    raise SyntaxErr("%s does not support op_sel" % mnem, c)
                bits = _bits_list(val, opsel_map[0], c, "op_sel")
                _check_opsel(base, bits, opsel_map, c)
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
                if mix and name in ("neg_lo", "neg_hi"):
                    raise SyntaxErr("%s takes -x and |x| source modifiers, not %s" % (mnem, name), c)
                field = {"op_sel": 7 << 11, "op_sel_hi": 3 << 59 | 1 << 14, "neg_lo": 7 << 61,
                         "neg_hi": 7 << 8}[name]
                if not mmask & field:
                    raise SyntaxErr("%s does not support %s" % (mnem, name), c)
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
        lit = None              # llvm-mc-19 drops a DPP form's literal (v_fma_mix*: DPP_LITERAL)
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


def _t16_src(tok, col, role, mnem, acc, syn):
    src = parse_src(tok, col, syn, role, mnem)
    t = src.reg or ""
    if t[:1] == "v" and t[-2:] in (".l", ".h"):
        return 256 + _t16_reg(t, col, role, mnem), None, src.neg, src.abs, src.sext
    r = parse_reg(src.reg, col) if src.reg is not None else None
    if r is not None and r[0] == "v":
        raise SyntaxErr("operand %s of %s must be a 16-bit VGPR half like v1.l, got %r"
                        % (role, mnem, src.reg), col)
    return source_operand(tok, col, 1, "i16", acc, role, mnem, syn)
