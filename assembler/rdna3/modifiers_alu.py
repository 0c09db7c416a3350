"""Values of the ALU modifiers as llvm-mc-19 reads them: lists (op_sel, neg_lo, quad_perm,
dpp8), output modifiers, integer fields, and the DPP controls of a statement.
"""
from .constants import parse_number
from .lexer import LexError
from .syntax import SyntaxErr

_DPP_ROW = {"row_shl": 0x100, "row_shr": 0x110, "row_ror": 0x120, "row_share": 0x150,
            "row_xmask": 0x160}


def list_value(text, col, name, most, lo, hi):
    """'[e0, e1, ...]' -> [values]: 1..most integer expressions in [lo, hi] (llvm-mc's operand
    arrays: op_sel:[..] and friends take 1..4 entries of 0 or 1)."""
    from .lexer import END, Cursor, tokenize
    try:
        cur = Cursor(tokenize(text))
        cur.expect("[", "%s expects a list [..]" % name)
        out = []
        while True:
            v = cur.expression()
            if not lo <= v <= hi:
                raise SyntaxErr("%s entries must be in [%d, %d], got %d" % (name, lo, hi, v), col)
            out.append(v)
            if cur.skip("]"):
                break
            if len(out) == most:
                raise SyntaxErr("%s takes at most %d entries" % (name, most), col)
            cur.expect(",", "%s: expected a comma" % name)
        if cur.tok.kind != END:
            raise SyntaxErr("unexpected text after %s:[..]" % name, col)
    except (LexError, ValueError) as e:
        raise SyntaxErr("%s: %s" % (name, getattr(e, "reason", e)), col) from None
    return out


def _bits_list(text, n, col, name):
    """op_sel-style list: 1..4 entries of 0 or 1, padded with 0 to n entries (llvm-mc ignores
    entries past the ones an instruction has)."""
    bits = list_value(text, col, name, 4, 0, 1)
    return (bits + [0] * n)[:max(n, len(bits))]


def _check_opsel(base, bits, opsel_map, col):
    """llvm-mc's extra op_sel rules: v_permlane16/x16 use entries 0 and 1 only (fi,
    bound_ctrl); v_dot2_f16_f16 / v_dot2_bf16_bf16 take op_sel only for src2 and the result."""
    used = {i for i in opsel_map[1:] if i >= 0}
    if base in ("v_permlane16_b32", "v_permlanex16_b32", "v_dot2_f16_f16", "v_dot2_bf16_bf16"):
        bad = [i for i, b in enumerate(bits) if b and i not in used]
        if bad:
            raise SyntaxErr("invalid op_sel operand: entry %d of %s has no meaning" % (bad[0], base),
                            col)


def omod_value(m, col):
    """'mul:2' / 'mul:4' / 'div:2' (and mul:1, div:1: no scaling) -> omod field, or None when m is
    not an output modifier."""
    name, _, val = m.partition(":")
    if name not in ("mul", "div") or not val:
        return None
    v = _int_value(val, col, name, -(1 << 63), (1 << 64) - 1)
    table = {1: 0, 2: 1, 4: 2} if name == "mul" else {1: 0, 2: 3}
    if v not in table:
        raise SyntaxErr("invalid %s value %d (%s)" % (name, v, "1, 2 or 4" if name == "mul"
                                                        else "1 or 2"), col)
    return table[v]


def _int_value(text, col, name, lo, hi):
    num = parse_number(text)
    if num is None or num[1]:
        raise SyntaxErr("%s expects an integer, got %r" % (name, text), col)
    if not lo <= num[0] <= hi:
        raise SyntaxErr("%s value %d out of range [%d, %d]" % (name, num[0], lo, hi), col)
    return num[0]


def parse_dpp(mods, col_of):
    """DPP modifier words -> (kind, control dword without vsrc0, fi) or None. Values are
    expressions; llvm-mc keeps the low bit of fi:, the low 4 bits of row_mask:/bank_mask:, and
    refuses masks and bound_ctrl with dpp8."""
    ctl = None
    kind = None
    row_mask = bank_mask = 0xF
    bc = fi = 0
    extra = None
    for m, c in mods:
        name, _, val = m.partition(":")
        if name == "quad_perm":
            v = list_value(val, c, name, 4, 0, 3)
            if len(v) != 4:
                raise SyntaxErr("quad_perm expects 4 lane selects 0..3", c)
            ctl, kind = sum(x << (2 * i) for i, x in enumerate(v)), "dpp16"
        elif name in _DPP_ROW:
            n = _int_value(val, c, name, 0 if name in ("row_share", "row_xmask") else 1, 15)
            ctl, kind = _DPP_ROW[name] + n, "dpp16"
        elif name in ("row_mirror", "row_half_mirror") and not val:
            ctl, kind = (0x140 if name == "row_mirror" else 0x141), "dpp16"
        elif name == "row_mask":
            row_mask = _int_value(val, c, name, -(1 << 63), (1 << 64) - 1) & 15
            extra = extra or (name, c)
        elif name == "bank_mask":
            bank_mask = _int_value(val, c, name, -(1 << 63), (1 << 64) - 1) & 15
            extra = extra or (name, c)
        elif name == "bound_ctrl":
            bc = _int_value(val, c, name, 0, 1)
            extra = extra or (name, c)
        elif name == "fi":
            fi = _int_value(val, c, name, -(1 << 63), (1 << 64) - 1)     # dpp8: any non-zero
        elif name == "dpp8":
            v = list_value(val, c, name, 8, 0, 7)
            if len(v) != 8:
                raise SyntaxErr("dpp8 expects 8 lane selects 0..7", c)
            ctl, kind = sum(x << (3 * i) for i, x in enumerate(v)), "dpp8"
    if kind is None:
        return None
    if kind == "dpp8":
        if extra is not None:
            raise SyntaxErr("%s is not a dpp8 control" % extra[0], extra[1])
        return kind, ctl << 8, int(fi != 0)
    fi &= 1                                                                # DPP16: its low bit
    return kind, ctl << 8 | fi << 18 | bc << 19 | bank_mask << 24 | row_mask << 28, fi


DPP_WORDS = frozenset(("quad_perm", "row_shl", "row_shr", "row_ror", "row_share", "row_xmask",
                       "row_mirror", "row_half_mirror", "row_mask", "bank_mask", "bound_ctrl", "fi",
                       "dpp8"))
