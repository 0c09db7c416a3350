"""Lexing one instruction line: mnemonic, comma-separated operands, trailing modifiers.

Every piece keeps its column so errors can point at it.
"""


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


def split_instruction(line, col0=0):
    """'v_add_f32 v0, v1, v2 clamp' -> ('v_add_f32', [(op, col)...], [(modifier, col)...])."""
    s = line
    i = 0
    while i < len(s) and not s[i].isspace():
        i += 1
    mnem = s[:i]
    rest = s[i:]
    start = col0 + i
    if not rest.strip():
        return mnem, [], []
    parts = split_top(rest, start, ",")
    for p, c in parts:
        if not p:
            raise SyntaxErr("empty operand", c)
    # modifiers follow the last operand, separated by blanks
    last, lcol = parts[-1]
    words = [w for w in split_top(last, lcol, " \t") if w[0]]
    ops = parts[:-1] + [words[0]]
    mods = words[1:]
    return mnem, ops, mods
