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


def _split_commas(rest, start):
    """split_top(rest, start, ",") for the common case without (...) or name:[a,b] groups."""
    out, pos = [], 0
    for piece in rest.split(","):
        stripped = piece.strip()
        out.append((stripped, start + pos + (len(piece) - len(piece.lstrip()) if stripped else 0)))
        pos += len(piece) + 1
    return out


def split_instruction(line, col0=0, mnem=None):
    """'v_add_f32 v0, v1, v2 clamp' -> ('v_add_f32', [(op, col)...], [(modifier, col)...])."""
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
    if "(" not in rest and ":[" not in rest:
        parts = _split_commas(rest, start)
    else:
        parts = split_top(rest, start, ",")
    for p, c in parts:
        if not p:
            raise SyntaxErr("empty operand", c)
    # modifiers follow the last operand, separated by blanks
    last, lcol = parts[-1]
    if " " not in last and "\t" not in last:
        return mnem, parts, []
    if "(" not in last and "[" not in last and "|" not in last:
        words, pos = [], 0
        for w in last.split():
            pos = last.index(w, pos)
            words.append((w, lcol + pos))
            pos += len(w)
    else:
        words = [w for w in split_top(last, lcol, " \t") if w[0]]
    ops = parts[:-1] + [words[0]]
    mods = words[1:]
    return mnem, ops, mods
