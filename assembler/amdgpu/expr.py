"""Integer expressions in directive operands (`.amdhsa_next_free_vgpr 2+3`, `0x100`, `(1<<4)-1`).

Literals: decimal, 0x hex, 0b binary, leading-0 octal. Operators, loosest first: | ^ & (<< >>)
(+ -) (* / %), unary - ~ +, parentheses. Symbols are not supported in kernel directives.
"""
import operator
import re

_TOKEN = re.compile(r"\s*(?:(0[xX][0-9a-fA-F]+|0[bB][01]+|[0-9]+)|(<<|>>|[-+*/%&|^~()]))")
_BINARY = [("|",), ("^",), ("&",), ("<<", ">>"), ("+", "-"), ("*", "/", "%")]


def _trunc_div(a, b):
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


_OPS = {"|": operator.or_, "^": operator.xor, "&": operator.and_, "<<": operator.lshift,
        ">>": operator.rshift, "+": operator.add, "-": operator.sub, "*": operator.mul,
        "/": _trunc_div, "%": lambda a, b: a - b * _trunc_div(a, b)}


class ExprError(ValueError):
    """Bad expression; `offset` is the 0-based character where the problem starts."""

    def __init__(self, reason, offset):
        self.reason, self.offset = reason, offset
        super().__init__(reason)


def evaluate(text):
    tokens = []
    pos = 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        m = _TOKEN.match(text, pos)
        if m is None:
            start = pos + len(text[pos:]) - len(text[pos:].lstrip())
            word = re.match(r"\S+", text[start:]).group(0)
            raise ExprError(f"{word!r} is not an integer expression", start)
        start = m.start(1) if m.group(1) else m.start(2)
        if m.group(1):
            lit = m.group(1)
            base = 16 if lit[:2] in ("0x", "0X") else 2 if lit[:2] in ("0b", "0B") else 8 if len(lit) > 1 and lit[0] == "0" else 10
            try:
                tokens.append(("num", int(lit[2:] if base in (16, 2) else lit, base), start))
            except ValueError:
                raise ExprError(f"bad octal literal {lit!r}", start) from None
        else:
            tokens.append(("op", m.group(2), start))
        pos = m.end()
    if not tokens:
        raise ExprError("expected a value", len(text))
    parser = _Parser(tokens, len(text))
    value = parser.binary(0)
    if parser.pos < len(tokens):
        raise ExprError(f"unexpected {tokens[parser.pos][1]!r}", tokens[parser.pos][2])
    return value


MAX_DEPTH = 100                 # nested parentheses / unary operators: far past any real directive


class _Parser:
    def __init__(self, tokens, end):
        self.tokens, self.pos, self.end = tokens, 0, end
        self.depth = 0

    def peek(self):
        return self.tokens[self.pos] if self.pos < len(self.tokens) else ("end", None, self.end)

    def binary(self, level):
        if level == len(_BINARY):
            return self.unary()
        left = self.binary(level + 1)
        while True:
            kind, op, at = self.peek()
            if kind != "op" or op not in _BINARY[level]:
                return left
            self.pos += 1
            right = self.binary(level + 1)
            if op in ("/", "%") and right == 0:
                raise ExprError("division by zero", at)
            if op in ("<<", ">>") and not 0 <= right <= 64:
                raise ExprError(f"shift count {right} outside 0..64", at)
            left = _OPS[op](left, right)

    def unary(self):
        kind, tok, at = self.peek()
        if kind == "op" and tok in "-~+(":
            self.depth += 1
            if self.depth > MAX_DEPTH:
                raise ExprError(f"expression nested more than {MAX_DEPTH} levels deep", at)
            try:
                self.pos += 1
                if tok != "(":
                    value = self.unary()
                    return -value if tok == "-" else ~value if tok == "~" else value
                value = self.binary(0)
                kind, tok, at2 = self.peek()
                if tok != ")":
                    raise ExprError("missing ')'", at2)
                self.pos += 1
                return value
            finally:
                self.depth -= 1
        if kind == "num":
            self.pos += 1
            return tok
        raise ExprError("expected a value" if kind == "end" else f"unexpected {tok!r}", at)
