"""Splitting one instruction statement into mnemonic, operands and modifiers, as llvm-mc does.

llvm-mc reads operands one after the other; the comma between two of them is optional (and one
may trail the last), `name : value` modifiers may carry blanks, and a modifier ends the operand
list. Every piece keeps its column so errors can point at it. Modifiers must then come in the
order llvm-mc prints them, each once (`check_modifier_order`).
"""
from .lexer import END, IDENT, INT, PUNCT, REAL, STRING, Cursor, LexError, tokenize


class SyntaxErr(Exception):
    """An error inside one instruction; `col` is 0-based within the line."""

    def __init__(self, reason, col):
        super().__init__(reason)
        self.reason, self.col = reason, col


def split_top(text, start, seps):
    """Split text at any char in `seps` outside (), [] and ||; -> [(piece, column)] stripped."""
    out, depth, cur0, i, n = [], 0, 0, 0, len(text)
    while i < n:
        ch = text[i]
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch in seps and depth == 0:
            out.append((cur0, i))
            cur0 = i + 1
        i += 1
    out.append((cur0, n))
    res = []
    for a, b in out:
        piece = text[a:b]
        stripped = piece.strip()
        if stripped:
            res.append((stripped, start + a + (len(piece) - len(piece.lstrip()))))
        else:
            res.append(("", start + a))
    return res


# identifiers that are instruction modifiers on their own
BARE_MODIFIERS = frozenset(("clamp", "glc", "slc", "dlc", "gds", "tfe", "offen", "idxen", "done",
                            "row_en", "row_mirror", "row_half_mirror", "lds", "nv", "unorm",
                            "r128", "a16", "d16", "lwe", "da", "tfe"))
# named bits llvm-mc also reads as no<name> (a bit left clear, in the bit's place in the order);
# which ones an instruction takes is up to its encoder
NEGATED = {"no" + n: n for n in ("clamp", "glc", "slc", "dlc", "gds", "tfe", "unorm", "r128",
                                 "a16", "d16", "lwe", "offen", "idxen", "lds", "done", "row_en",
                                 "da", "scc", "nv", "sc0", "sc1", "nt")}
BARE_MODIFIERS = BARE_MODIFIERS | frozenset(NEGATED)
_OPERAND_NAMES = ("neg", "abs", "sext", "lit")


def _group_end(toks, i, open_, close):
    """Index after the token closing the group that opens at toks[i]."""
    depth = 0
    while toks[i].kind != END:
        if toks[i].is_punct(open_):
            depth += 1
        elif toks[i].is_punct(close):
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise LexError("expected '%s'" % close, toks[i].col)


_BINARY = frozenset(("||", "&&", "==", "!=", "<>", "<", "<=", ">", ">=", "+", "-", "|", "^",
                     "&", "!", "*", "/", "%", "<<", ">>"))


def _primary_end(toks, i):
    """Index after one primary expression (with unary operators) starting at toks[i]."""
    while toks[i].kind == PUNCT and toks[i].text in ("-", "+", "~", "!"):
        i += 1
    t = toks[i]
    if t.kind in (INT, REAL, STRING):
        return i + 1
    if t.kind == IDENT:
        if toks[i + 1].is_punct("("):                     # swizzle(...), hwreg(...)
            return _group_end(toks, i + 1, "(", ")")
        if toks[i + 1].is_punct("["):                     # v[1:2]
            return _group_end(toks, i + 1, "[", "]")
        return i + 1
    if t.is_punct("("):
        return _group_end(toks, i, "(", ")")
    if t.is_punct("["):
        return _group_end(toks, i, "[", "]")
    raise LexError("unknown token in expression" if t.kind != END else "missing operand", t.col)


def _expression_end(toks, i):
    i = _primary_end(toks, i)
    while toks[i].kind == PUNCT and toks[i].text in _BINARY and toks[i + 1].kind != END:
        i = _primary_end(toks, i + 1)
    return i


def _operand_end(toks, i, is_reg):
    """Index after one operand (a source with modifiers, a register or a constant)."""
    from .lexer import is_register_start
    while True:                     # leading '-' signs, a loop (a long run must not recurse)
        if toks[i].kind == REAL:                 # a real is a whole operand, as in llvm's parseImm
            return i + 1
        if toks[i].is_punct("-") and toks[i + 1].kind == REAL:
            return i + 2
        if not toks[i].is_punct("-"):
            break
        j = i + 1
        cur = Cursor(toks)
        cur.i = j
        if toks[j].is_punct("|") or toks[j].is_punct("-") or is_register_start(cur, is_reg) or (
                toks[j].kind == IDENT and toks[j].text in _OPERAND_NAMES
                and toks[j + 1].is_punct("(")):
            i = j
            continue
        return _expression_end(toks, i)
    t = toks[i]
    if t.kind == IDENT and t.text in _OPERAND_NAMES and toks[i + 1].is_punct("("):
        return _group_end(toks, i + 1, "(", ")")
    if t.is_punct("|"):
        j = i + 1
        while toks[j].kind != END and not toks[j].is_punct("|"):
            j += 1
        if toks[j].kind == END:
            raise LexError("expected vertical bar", toks[j].col)
        return j + 1
    cur = Cursor(toks)
    cur.i = i
    if is_register_start(cur, is_reg):
        if t.is_punct("["):
            return _group_end(toks, i, "[", "]")
        if toks[i + 1].is_punct("[") and not is_reg(t.text, False):    # v[...], not v1 [...]
            return _group_end(toks, i + 1, "[", "]")
        return i + 1
    return _expression_end(toks, i)


def split_instruction(line, col0=0, mnem=None, bare=True):
    """'v_add_f32 v0, v1, v2 clamp' -> ('v_add_f32', [(op, col)...], [(modifier, col)...]).
    Modifier text is normalized to `name` or `name:value` without blanks. bare: names like
    clamp, glc, done are modifiers (False for scalar immediates, where they are labels)."""
    from .operands import is_register_name
    s = line
    if mnem is None:
        mnem = s.partition(" ")[0]
        if "\t" in mnem:
            mnem = mnem.partition("\t")[0]
    i = len(mnem)
    rest = s[i:]
    start = col0 + i
    if not rest.strip():
        return mnem, [], []
    try:
        toks = tokenize(rest, start)
    except LexError as e:
        raise SyntaxErr(e.reason, e.col) from None
    ops, mods = [], []
    k = 0
    try:
        while toks[k].kind != END:
            t = toks[k]
            if t.is_punct(","):
                raise SyntaxErr("empty operand", t.col)
            if t.kind == IDENT and toks[k + 1].is_punct(":"):
                # name:value
                j = k + 2
                v = toks[j]
                if t.text == "dim" and v.kind == INT and toks[j + 1].kind == IDENT and \
                        toks[j + 1].col == v.end:
                    j += 2                               # dim:2D is an integer and a name
                elif v.is_punct("["):
                    j = _group_end(toks, j, "[", "]")
                elif v.kind == END or v.is_punct(","):
                    raise SyntaxErr("missing value of %s" % t.text, v.col)
                else:
                    j = _expression_end(toks, j)
                value = "".join(x.text for x in toks[k + 2:j])
                mods.append(("%s:%s" % (t.text, value), t.col))
                k = j
            elif bare and t.kind == IDENT and t.text in BARE_MODIFIERS and \
                    not toks[k + 1].is_punct("("):
                mods.append((t.text, t.col))
                k += 1
            else:
                j = _operand_end(toks, k, is_register_name)
                a, b = t.col - start, toks[j - 1].end - start
                if mods and not (mods[-1][0].startswith("format:")):
                    raise SyntaxErr("operand %r after the modifiers" % rest[a:b].strip(), t.col)
                ops.append((rest[a:b], t.col))
                k = j
            if toks[k].is_punct(","):
                k += 1
    except LexError as e:
        raise SyntaxErr(e.reason, e.col) from None
    return mnem, ops, mods


# ---- modifier order ---------------------------------------------------------------------------

_CPOL = ("glc", "slc", "dlc")
_DPP = ("quad_perm", "row_shl", "row_shr", "row_ror", "row_share", "row_xmask", "row_mirror",
        "row_half_mirror", "dpp8")
# family -> ordered groups of modifier names; names in one group may come in any order
ORDER = {
    "VOP3": (("op_sel",), ("clamp",), ("mul", "div"), _DPP, ("row_mask",), ("bank_mask",),
             ("bound_ctrl",), ("fi",)),
    "VOP3P": (("op_sel",), ("op_sel_hi",), ("neg_lo",), ("neg_hi",), ("clamp",), _DPP,
              ("row_mask",), ("bank_mask",), ("bound_ctrl",), ("fi",)),
    "VINTERP": (("clamp",), ("op_sel",), ("wait_exp",)),
    "FLAT": (("offset",), _CPOL),
    "SMEM": (("offset",), _CPOL),
    "DS": (("offset", "offset0"), ("offset1",), ("gds",)),
    "MUBUF": (("idxen",), ("offen",), ("offset",), _CPOL, ("tfe",)),
    "MTBUF": (("format",), ("idxen",), ("offen",), ("offset",), _CPOL, ("tfe",)),
    "EXP": (("done",), ("row_en",)),
    "LDSDIR": (("wait_vdst",),),
}


def _key(name):
    name = NEGATED.get(name, name)
    return "omod" if name in ("mul", "div") else ("dpp" if name in _DPP else name)


def check_modifier_order(fam, mods, mnem):
    """Refuse a repeated modifier (two output modifiers, two DPP controls) or one out of
    llvm-mc's order: it refuses them too."""
    groups = ORDER.get(fam)
    if groups is None:
        return
    rank = {_key(name): i for i, g in enumerate(groups) for name in g}
    seen = {}
    last = -1
    for m, c in mods:
        name = m.partition(":")[0]
        key = _key(name)
        if key in seen:
            raise SyntaxErr("%s repeats %s (llvm-mc refuses it)" % (m, seen[key]), c)
        seen[key] = m
        r = rank.get(key)
        if r is None:
            continue                                     # the encoder refuses unknown ones
        if r < last:
            raise SyntaxErr("%s must come before the modifiers ahead of it (llvm-mc's order)"
                            % m, c)
        last = r
