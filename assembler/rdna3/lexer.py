"""Tokens and constant expressions of an operand, as LLVM's assembler lexes and folds them.

llvm-mc-19 is the reference for what a statement means, so numbers, expressions and source
modifiers are read the way its AsmLexer / MCExpr / AMDGPU operand parser read them:

  integers   decimal, 0x hex, 0b binary, a leading 0 is octal; U/L/UL/LL/ULL suffixes are
             ignored; values are 64-bit (a literal past 2**64 is an error) and wrap like int64
  reals      1.5, 1., .5, 1e5, 1e (an exponent without digits counts as 0), 0x1.8p1 hex floats;
             a real is a float operand on its own (with an optional leading '-'); inside an
             expression it stands for the integer of its double's bits
  expressions  GNU as precedence: || ; && ; == != <> < <= > >= ; + - ; | ^ & ! ; * / % << >>;
             unary - + ~ !. Comparisons give -1 for true, && and || give 1; >> is logical;
             shift counts use their low 6 bits; / and % truncate toward zero; a division by
             zero or a name leaves the expression unresolved (a relocation in llvm-mc)
  operands   [-] [neg(] [abs(] [|] register-or-constant [|] [)] [)], sext(...), lit(...); '-'
             is a modifier only before a register, '|' or abs(; '--x' is refused

Errors raise LexError(message, column).
"""
import re
import struct

M64 = (1 << 64) - 1


class LexError(ValueError):
    def __init__(self, reason, col):
        super().__init__(reason)
        self.reason, self.col = reason, col


class Unresolved(LexError):
    """The expression names a symbol (or divides by zero): llvm-mc would emit a relocation."""

    def __init__(self, what, col=0):
        super().__init__(what, col)


# token kinds
IDENT, INT, REAL, STRING, PUNCT, END = "ident", "int", "real", "string", "punct", "end"


class Token:
    __slots__ = ("kind", "text", "value", "col", "end")

    def __init__(self, kind, text, value, col, end):
        self.kind, self.text, self.value, self.col, self.end = kind, text, value, col, end

    def __repr__(self):
        return "Token(%s %r)" % (self.kind, self.text)

    def is_punct(self, p):
        return self.kind == PUNCT and self.text == p


_PUNCT2 = ("<<", ">>", "<=", ">=", "==", "!=", "<>", "&&", "||")
_PUNCT1 = frozenset(",:[]()|-+*/%~!^&<>=")
_ID_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_.$")
_ID_CHAR = _ID_START | frozenset("0123456789")
_DIGITS = frozenset("0123456789")
_HEX = frozenset("0123456789abcdefABCDEF")


def _wrap64(v):
    v &= M64
    return v - (1 << 64) if v >> 63 else v


def _int_token(text, digits, radix, col, end, src):
    try:
        v = int(digits, radix)
    except ValueError:
        name = {8: "octal", 10: "decimal", 16: "hexadecimal", 2: "binary"}[radix]
        raise LexError("invalid %s number %r" % (name, text), col) from None
    if v > M64:
        raise LexError("integer %r does not fit in 64 bits" % text, col)
    return Token(INT, src[col:end], _wrap64(v), col, end)


def _skip_suffix(s, i):
    """The U, L, UL, LL, ULL suffixes LLVM ignores after an integer (U first, then up to two L)."""
    if s[i:i + 1] in ("u", "U"):
        i += 1
    for _ in range(2):
        if s[i:i + 1] in ("l", "L"):
            i += 1
    return i


def _lex_float_tail(s, i):
    """After the integer digits and an optional '.': fraction digits and an exponent."""
    n = len(s)
    while i < n and s[i] in _DIGITS:
        i += 1
    if i < n and s[i] in "+-":
        # llvm's lexer: 1.0+1 is an error token, not 1.0 followed by +1 (1.0 +1 is two operands)
        raise LexError("invalid sign in float literal", i)
    if i < n and s[i] in "eE":
        i += 1
        if i < n and s[i] in "+-":
            i += 1
        while i < n and s[i] in _DIGITS:
            i += 1
    return i


def _lex_number(s, i):
    """A number token starting at s[i] (a digit). Returns (token, next index)."""
    n = len(s)
    start = i
    if s[i] != "0" or (i + 1 < n and s[i + 1] == "."):
        j = i
        while j < n and s[j] in _DIGITS:
            j += 1
        if j < n and s[j] in ".eE":
            k = _lex_float_tail(s, j + 1 if s[j] == "." else j)
            return Token(REAL, s[start:k], None, start, k), k
        k = _skip_suffix(s, j)
        return _int_token(s[start:j], s[start:j], 10, start, k, s), k
    # a leading 0: binary, hex, hex float or octal
    c = s[i + 1] if i + 1 < n else ""
    if c in ("b", "B"):
        j = i + 2
        if j >= n or s[j] not in _DIGITS:
            # '0b' alone is a backward reference to label 0 in LLVM: never a number here
            raise LexError("'0b' is a directional label reference, not a number", start)
        while j < n and s[j] in "01":
            j += 1
        if j == i + 2:
            raise LexError("invalid binary number", start)
        k = _skip_suffix(s, j)
        return _int_token(s[start:j], s[i + 2:j], 2, start, k, s), k
    if c in ("x", "X"):
        j = i + 2
        while j < n and s[j] in _HEX:
            j += 1
        if j < n and s[j] in ".pP":
            return _lex_hex_float(s, start, i + 2, j)
        if j == i + 2:
            raise LexError("invalid hexadecimal number", start)
        k = _skip_suffix(s, j)
        return _int_token(s[start:j], s[i + 2:j], 16, start, k, s), k
    j = i
    while j < n and s[j] in _DIGITS:
        j += 1
    k = _skip_suffix(s, j)
    return _int_token(s[start:j], s[start:j], 8, start, k, s), k


def _lex_hex_float(s, start, int_start, j):
    n = len(s)
    no_int = j == int_start
    no_frac = True
    if j < n and s[j] == ".":
        j += 1
        f0 = j
        while j < n and s[j] in _HEX:
            j += 1
        no_frac = j == f0
    if no_int and no_frac:
        raise LexError("invalid hexadecimal floating-point constant: no significand digits", start)
    if j >= n or s[j] not in "pP":
        raise LexError("invalid hexadecimal floating-point constant: expected exponent part 'p'",
                       start)
    j += 1
    if j < n and s[j] in "+-":
        j += 1
    e0 = j
    while j < n and s[j] in _DIGITS:
        j += 1
    if j == e0:
        raise LexError("invalid hexadecimal floating-point constant: no exponent digits", start)
    return Token(REAL, s[start:j], None, start, j), j


def tokenize(s, col0=0):
    """Tokens of an operand string (columns are offsets into `s` plus col0)."""
    try:
        return _tokenize(s, col0)
    except LexError as e:
        e.col += col0                  # the error points at the character in the line
        raise


def _tokenize(s, col0):
    out = []
    i, n = 0, len(s)
    while i < n:
        c = s[i]
        if c in " \t":
            i += 1
            continue
        if c in _DIGITS:
            tok, i = _lex_number(s, i)
        elif c == "." and i + 1 < n and s[i + 1] in _DIGITS:
            # '.5' is a real unless letters follow the digits ('.5x' is a name)
            j = i + 1
            while j < n and s[j] in _DIGITS:
                j += 1
            if j < n and s[j] in _ID_CHAR and s[j] not in "eE":
                while j < n and s[j] in _ID_CHAR:
                    j += 1
                tok = Token(IDENT, s[i:j], None, i, j)
            else:
                k = _lex_float_tail(s, j)
                tok = Token(REAL, s[i:k], None, i, k)
            i = tok.end
        elif c in _ID_START:
            j = i + 1
            while j < n and s[j] in _ID_CHAR:
                j += 1
            tok = Token(IDENT, s[i:j], None, i, j)
            i = j
        elif c == '"':
            j = s.find('"', i + 1)
            if j < 0:
                raise LexError("unterminated string", i)
            tok = Token(STRING, s[i:j + 1], s[i + 1:j], i, j + 1)
            i = j + 1
        elif s[i:i + 2] in _PUNCT2:
            tok = Token(PUNCT, s[i:i + 2], None, i, i + 2)
            i += 2
        elif c in _PUNCT1:
            tok = Token(PUNCT, c, None, i, i + 1)
            i += 1
        else:
            raise LexError("invalid character %r in operand" % c, i)
        out.append(tok)
    out.append(Token(END, "", None, n, n))
    if col0:
        for t in out:
            t.col += col0
            t.end += col0
    return out


# ---- reals -----------------------------------------------------------------------------------

_DEC_REAL = re.compile(r"^(\d*)(?:\.(\d*))?(?:[eE]([+-]?)(\d*))?$")


def real_value(text):
    """The double a real token means (APFloat's correctly rounded conversion)."""
    if text[:2] in ("0x", "0X"):
        return float.fromhex(text)
    m = _DEC_REAL.match(text)
    if m is None or not (m.group(1) or m.group(2)):
        raise ValueError(text)
    mant = (m.group(1) or "0") + "." + (m.group(2) or "0")
    exp = m.group(4) or "0"
    try:
        return float("%se%s%s" % (mant, m.group(3) or "", exp))
    except OverflowError:
        return float("inf")


# ---- integer expressions ---------------------------------------------------------------------

_PREC = {"||": 1, "&&": 2, "==": 3, "!=": 3, "<>": 3, "<": 3, "<=": 3, ">": 3, ">=": 3,
         "+": 4, "-": 4, "|": 5, "^": 5, "&": 5, "!": 5, "*": 6, "/": 6, "%": 6, "<<": 6, ">>": 6}


def _trunc_div(a, b):
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def _binop(op, a, b):
    if op == "+":
        return _wrap64(a + b)
    if op == "-":
        return _wrap64(a - b)
    if op == "*":
        return _wrap64(a * b)
    if op in ("/", "%"):
        if b == 0:
            raise Unresolved("division by zero", 0)
        q = _trunc_div(a, b)
        return _wrap64(q if op == "/" else a - q * b)
    if op == "<<":
        return _wrap64(a << (b & 63))
    if op == ">>":
        return _wrap64((a & M64) >> (b & 63))
    if op == "&":
        return a & b
    if op == "|":
        return a | b
    if op == "^":
        return a ^ b
    if op == "!":
        return a | ~b
    if op == "&&":
        return int(bool(a) and bool(b))
    if op == "||":
        return int(bool(a) or bool(b))
    r = {"==": a == b, "!=": a != b, "<>": a != b, "<": a < b, "<=": a <= b, ">": a > b,
         ">=": a >= b}[op]
    return -1 if r else 0


class Cursor:
    """A position in a token list with the parsing steps llvm's operand parser uses."""

    MAX_DEPTH = 100                 # nesting of unary operators and parentheses

    def __init__(self, toks):
        self.toks, self.i, self.depth = toks, 0, 0

    @property
    def tok(self):
        return self.toks[self.i]

    def peek(self, k=1):
        return self.toks[min(self.i + k, len(self.toks) - 1)]

    def next(self):
        t = self.toks[self.i]
        if t.kind != END:
            self.i += 1
        return t

    def at(self, p):
        return self.tok.kind == PUNCT and self.tok.text == p

    def skip(self, p):
        if self.at(p):
            self.i += 1
            return True
        return False

    def expect(self, p, what):
        if not self.skip(p):
            raise LexError(what, self.tok.col)

    def at_id(self, name):
        return self.tok.kind == IDENT and self.tok.text == name

    # -- expressions --
    def primary(self):
        t = self.tok
        if t.kind == INT:
            self.i += 1
            return t.value
        if t.kind == PUNCT and t.text in ("-", "+", "~", "!", "("):
            # Python recursion is bounded where llvm's is not: refuse by name past a depth no
            # hand-written expression reaches
            if self.depth >= self.MAX_DEPTH:
                raise LexError("expression nested more than %d levels deep" % self.MAX_DEPTH, t.col)
            self.depth += 1
            self.i += 1
            if t.text == "(":
                v = self.expression()
                self.expect(")", "expected ')' in expression")
            else:
                v = {"-": lambda x: _wrap64(-x), "+": lambda x: x, "~": lambda x: ~x,
                     "!": lambda x: int(x == 0)}[t.text](self.primary())
            self.depth -= 1
            return v
        if t.kind == IDENT:
            self.i += 1
            raise Unresolved(t.text, t.col)
        if t.kind == REAL:
            # llvm's expression parser reads a real as the integer of its double's bits
            self.i += 1
            return _wrap64(struct.unpack("<Q", struct.pack("<d", real_value(t.text)))[0])
        raise LexError("unknown token in expression", t.col)

    def expression(self, min_prec=1):
        lhs = self.primary()
        while True:
            t = self.tok
            prec = _PREC.get(t.text) if t.kind == PUNCT else None
            if prec is None or prec < min_prec:
                return lhs
            self.i += 1
            rhs = self.expression(prec + 1)
            lhs = _binop(t.text, lhs, rhs)


def int_expression(text, col=0):
    """An absolute integer expression filling all of `text` -> int64 value.
    Raises LexError (malformed, or not an absolute value)."""
    toks = tokenize(text, col)
    cur = Cursor(toks)
    try:
        v = cur.expression()
    except Unresolved as e:
        raise LexError("expected an absolute expression (%s)" % e, col) from None
    if cur.tok.kind != END:
        raise LexError("unexpected %r after the expression" % cur.tok.text, cur.tok.col)
    return v


# ---- source operands -------------------------------------------------------------------------

class Source:
    """A parsed source operand: a register (`reg` = the text of the register part) or a constant
    (`value`: int64 for integers, the double for reals), with its source modifiers."""
    __slots__ = ("reg", "value", "is_float", "neg", "abs", "sext", "lit", "col")

    def __init__(self):
        self.reg = self.value = None
        self.is_float = self.neg = self.abs = self.sext = self.lit = False
        self.col = 0

    @property
    def fp_mods(self):
        return self.neg or self.abs


def _reg_end(cur, is_reg):
    """Index just past a register starting at the cursor (name, name[..] or a [...] list)."""
    i = cur.i
    toks = cur.toks
    if toks[i].is_punct("["):
        depth = 0
        while toks[i].kind != END:
            if toks[i].is_punct("["):
                depth += 1
            elif toks[i].is_punct("]"):
                depth -= 1
                if depth == 0:
                    return i + 1
            i += 1
        raise LexError("expected a closing square bracket", toks[i].col)
    if toks[i + 1].is_punct("[") and not is_reg(toks[i].text, False):
        # v[...]: only a bare prefix takes an index (v1 [v2] is two operands)
        j = i + 2
        while toks[j].kind != END and not toks[j].is_punct("]"):
            j += 1
        if toks[j].kind == END:
            raise LexError("expected a closing square bracket", toks[j].col)
        return j + 1
    return i + 1


def is_register_start(cur, is_reg):
    """Does a register start here (llvm's isRegister)? `is_reg(name, followed_by_bracket)`."""
    t = cur.tok
    if t.kind == IDENT:
        return is_reg(t.text, cur.peek().is_punct("["))
    return t.is_punct("[") and cur.peek().kind == IDENT and is_reg(cur.peek().text,
                                                                      cur.peek(2).is_punct("["))


def _immediate(cur, src, sp3_abs, text, col0):
    """llvm's parseImm: an optionally negated real, or an integer expression (only a primary
    expression inside |...|)."""
    t = cur.tok
    neg = False
    if t.is_punct("-") and cur.peek().kind == REAL:
        cur.next()
        t = cur.tok
        neg = True
    if t.kind == REAL:
        cur.next()
        v = real_value(t.text)
        src.value, src.is_float = (-v if neg else v), True
        return
    try:
        src.value = cur.primary() if sp3_abs else cur.expression()
    except Unresolved as e:
        if str(e) == "division by zero":
            raise LexError("division by zero in %r" % text.strip(), t.col) from None
        raise LexError("expected a register or a constant, got %r (a symbol would need a "
                       "relocation, which this assembler does not emit)" % str(e), t.col) from None


def plain_number(text):
    """(value, is_float) of a short decimal integer or real without exponent ('17', '-3',
    '0.5', '-4.0'), as tokenizing it would give; None for anything else (hex, octal, leading
    zeros, exponents, whitespace...), which takes the tokenizer."""
    digits = text[1:] if text[:1] == "-" else text
    whole, dot, frac = digits.partition(".")
    if not (whole.isascii() and whole.isdigit() and len(digits) <= 15) or (whole[0] == "0" and len(whole) > 1):
        return None
    if not dot:
        return (-int(whole) if digits is not text else int(whole)), False
    if not (frac.isascii() and frac.isdigit()):
        return None
    v = float(digits)
    return (-v if digits is not text else v), True


_REG_RANGE = re.compile(r"(?:v|s|ttmp)\[\d+:\d+\]\Z", re.ASCII)


def parse_source(text, fp_mods, int_mods, is_reg, col0=0):
    """A source operand as llvm's parseRegOrImmWith{FP,Int}InputMods reads it.
    fp_mods: -x, |x|, neg(), abs() are allowed; int_mods: sext() is allowed; is_reg(name,
    bracket) tells register names. Returns a Source; raises LexError."""
    # the commonest operands, a register name (v7, s12, vcc) or a plain decimal (17, -4.0),
    # read as the tokens below would read them, without tokenizing
    if text.isalnum() and text.isascii() and is_reg(text, False):
        src = Source()
        src.reg, src.col = text, col0
        return src
    num = plain_number(text)
    if num is not None:
        src = Source()
        (src.value, src.is_float), src.col = num, col0
        return src
    if _REG_RANGE.match(text) and is_reg(text[:text.index("[")], True):     # s[2:3], v[4:7]
        src = Source()
        src.reg, src.col = text, col0
        return src
    toks = tokenize(text, col0)
    cur = Cursor(toks)
    src = Source()
    src.col = toks[0].col
    closers = []

    def modifier_ahead():
        # '-' before a register, '|' or abs(...) is the neg modifier; 'neg(', 'abs(', 'sext('
        t = cur.tok
        if t.kind == IDENT and t.text in ("neg", "abs", "sext") and cur.peek().is_punct("("):
            return True
        if t.is_punct("|"):
            return True
        if t.is_punct("-"):
            nxt = Cursor(toks)
            nxt.i = cur.i + 1
            return (is_register_start(nxt, is_reg) or nxt.at("|")
                    or (nxt.tok.kind == IDENT and nxt.tok.text in ("neg", "abs", "sext")
                        and nxt.peek().is_punct("(")))
        return False

    if fp_mods:
        if cur.at("-") and cur.peek().is_punct("-"):
            raise LexError("invalid syntax, expected 'neg' modifier", cur.tok.col)
        sp3_neg = False
        if cur.at("-"):
            nxt = Cursor(toks)
            nxt.i = cur.i + 1
            if is_register_start(nxt, is_reg) or nxt.at("|") or nxt.at_id("abs"):
                cur.next()
                sp3_neg = True
        loc = cur.tok.col
        neg = cur.at_id("neg") and cur.peek().is_punct("(")
        if neg:
            if sp3_neg:
                raise LexError("expected register or immediate", loc)
            cur.next()
            cur.next()
            closers.append(")")
        abs_ = cur.at_id("abs") and cur.peek().is_punct("(")
        if abs_:
            cur.next()
            cur.next()
            closers.append(")")
        if cur.at_id("lit") and cur.peek().is_punct("("):      # lit(|x|) as well as |lit(x)|
            cur.next()
            cur.next()
            closers.insert(0, ")")
            src.lit = True
        loc = cur.tok.col
        sp3_abs = cur.skip("|")
        if sp3_abs and abs_:
            raise LexError("expected register or immediate", loc)
        src.neg, src.abs = sp3_neg or neg, abs_ or sp3_abs
    else:
        sp3_abs = False
        if int_mods and cur.at_id("sext") and cur.peek().is_punct("("):
            cur.next()
            cur.next()
            closers.append(")")
            src.sext = True
    if not src.lit and cur.at_id("lit") and cur.peek().is_punct("("):
        cur.next()
        cur.next()
        lit = src.lit = True
    else:
        lit = False
    if is_register_start(cur, is_reg):
        if src.lit:
            raise LexError("expected immediate with lit modifier", cur.tok.col)
        end = _reg_end(cur, is_reg)
        a, b = toks[cur.i].col - col0, toks[end - 1].end - col0
        src.reg = text[a:b]
        cur.i = end
    else:
        if modifier_ahead():
            what = cur.tok.text if cur.tok.kind == IDENT else {"-": "negation", "|": "|...|"}.get(
                cur.tok.text, cur.tok.text)
            raise LexError("does not take %s modifier here" % (
                "a negation" if what in ("neg", "negation") else ("a sign-extension" if what ==
                                                                  "sext" else "an absolute-value")),
                cur.tok.col)
        if cur.tok.kind == END:
            raise LexError("missing operand", cur.tok.col)
        _immediate(cur, src, sp3_abs, text, col0)
    if lit:
        cur.expect(")", "expected closing parentheses")
    if sp3_abs:
        cur.expect("|", "expected vertical bar")
    for c in reversed(closers):
        cur.expect(c, "expected closing parentheses")
    if cur.tok.kind != END:
        raise LexError("unexpected %r after the operand" % cur.tok.text, cur.tok.col)
    return src
