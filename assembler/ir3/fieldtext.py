"""A printed value read back: the regular expression of a field's place in a line, and the raw
field value a token stands for, as the matcher reads it (encoder._Matcher.values()).

Assembly templates (templates.py) build their line patterns from these and set the printed fields
of a word through them; the matcher takes C-style integers through to_int.
"""
import re
import struct

from . import isa

_U64 = (1 << 64) - 1
_NUM = r"[-+]?(?:0[xX][0-9a-fA-F]+|\d+)"
_FLOAT = r"[-+]?(?:nan|inf|(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)"
_LABEL = r"[A-Za-z_.$][A-Za-z0-9_.$]*"


def literal_pattern(text):
    """Regex for literal text: a space may be missing where encoder.normalize() removes one."""
    out = []
    for i, ch in enumerate(text):
        if ch == " ":
            near = text[i - 1:i] + text[i + 1:i + 2]
            edge = i == 0 or i == len(text) - 1
            out.append(" ?" if edge or any(c in "-+<>[]," for c in near) else " ")
        else:
            out.append(re.escape(ch))
    return "".join(out)


def slot_pattern(f, allow_labels):
    """Regex group for the value field f prints (optional where it may print nothing)."""
    kind = f.kind
    if kind in ("bool", "bool_inv"):
        return "(%s)?" % re.escape(f.display) if f.display is not None else "([01])"
    if kind == "enum":
        disp = sorted({d for d in isa.tables.ENUMS[f.type].values()}, key=len, reverse=True)
        return "(%s|\\d+)" % "|".join(re.escape(d) for d in disp)
    if kind == "offset":
        return "([-+](?:0[xX][0-9a-fA-F]+|\\d+))?"
    if kind == "uoffset":
        return "(\\+(?:0[xX][0-9a-fA-F]+|\\d+))?"
    if kind == "hex":
        return "((?:0[xX])?[0-9a-fA-F]+)"
    if kind == "float":
        return "(%s)" % _FLOAT
    if kind in ("branch", "absbranch"):
        return "(%s|%s)" % (_NUM, _LABEL) if allow_labels else "(%s)" % _NUM
    return "(%s)" % _NUM


def to_int(text):
    """A C-style integer literal (decimal or 0x hex, optional sign), as mesa's strtol reads it
    (leading zeros stay decimal here)."""
    neg = text[:1] == "-"
    t = text.lstrip("+-")
    v = int(t[2:], 16) if t[:2] in ("0x", "0X") else int(t, 10)
    return -v if neg else v


def parse_token(f, tok, pc, labels):
    """The raw value of field f that token `tok` reads as (encoder._Matcher.values()), or None."""
    kind = f.kind
    width, mask = f.width, f.mask
    if f.expr is not None and width == 1 and kind not in ("bool", "bool_inv"):
        width, mask = 64, _U64
    if kind in ("bool", "bool_inv"):
        on = tok == (f.display if f.display is not None else "1") and bool(tok)
        return (1 if on else 0) if kind == "bool" else (0 if on else 1)
    if kind == "enum":
        table = isa.tables.ENUMS[f.type]
        for v, d in sorted(table.items(), key=lambda kv: -len(kv[1])):
            if d == tok and v <= f.mask:
                return v
        if tok.isdigit() and int(tok) <= f.mask and int(tok) not in table:
            return int(tok)
        return None
    if kind in ("offset", "uoffset"):
        if tok is None:
            return 0
        v = to_int(tok)
        if v == 0:
            return 0
        if kind == "uoffset":
            return v if 0 < v <= mask else None
        return v & mask if -(1 << (width - 1)) <= v < (1 << (width - 1)) else None
    if kind in ("branch", "absbranch"):
        if re.fullmatch(_NUM, tok):
            v = to_int(tok)
        elif labels is not None and tok in labels:
            v = labels[tok] - pc if kind == "branch" else labels[tok]
        else:
            return None
        return v & mask if -(1 << (width - 1)) <= v < (1 << width) else None
    if kind == "int":
        v = to_int(tok)
        return v & mask if -(1 << (width - 1)) <= v < (1 << width) else None
    if kind == "uint":
        v = to_int(tok)
        return v if f.expr is not None or 0 <= v <= mask else None
    if kind == "hex":
        v = int(tok, 16)
        return v if v <= mask else None
    if kind == "float":
        x = float(tok)
        try:
            raw = struct.unpack("<H", struct.pack("<e", x))[0] if width == 16 else \
                struct.unpack("<I", struct.pack("<f", x))[0]
        except (OverflowError, struct.error):
            return None
        if tok.lstrip("+-").lower() == "nan" and tok.startswith("-"):
            raw |= 1 << (width - 1)
        return raw
    return None


_PARSERS = {}


def token_parser(f):
    """A function token -> raw value (None when refused) equivalent to parse_token for field f and
    tokens that carry no label."""
    p = _PARSERS.get(id(f))
    if p is not None:
        return p
    kind = f.kind
    if kind == "enum":
        table = {}
        for v, d in sorted(isa.tables.ENUMS[f.type].items(), key=lambda kv: -len(kv[1])):
            if v <= f.mask:
                table.setdefault(d, v)
        values = isa.tables.ENUMS[f.type]

        def p(tok, pc=0, labels=None):
            v = table.get(tok)
            if v is not None:
                return v
            if tok.isdigit() and int(tok) <= f.mask and int(tok) not in values:
                return int(tok)
            return None
    elif kind in ("bool", "bool_inv") and f.display is not None:
        on, off = (1, 0) if kind == "bool" else (0, 1)
        disp = f.display

        def p(tok, pc=0, labels=None):
            return on if tok == disp and tok else off
    elif kind == "uint" and f.expr is None:
        mask = f.mask

        def p(tok, pc=0, labels=None):
            v = int(tok) if tok.isdigit() else to_int(tok)
            return v if 0 <= v <= mask else None
    else:
        def p(tok, pc=0, labels=None):
            return parse_token(f, tok, pc, labels)
    _PARSERS[id(f)] = p
    return p
