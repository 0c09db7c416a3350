"""The ir3 bitset tree of tables.py as objects: bitsets, cases, fields, parsed display templates.

mesa's isaspec describes each 64-bit instruction as a hierarchy of bitsets: a leaf (one
instruction form, e.g. `add.f`) extends parents (`#instruction-cat2-2src`, `#instruction-cat2`,
`#instruction`) that contribute patterns and fields; a field may itself be decoded by another
bitset hierarchy (a register, a multi-source operand), an enum, or a builtin type; overrides
select another display template or other fields when an expression over the fields is true.
"""
import re

from . import tables

GPU_ID = tables.GPU_ID
_FIELD_REF = re.compile(r"\{([^}]*)\}")


class Field:
    __slots__ = ("name", "low", "high", "type", "kind", "expr", "expr_name", "display", "params",
                 "val", "call", "width", "mask")

    def __init__(self, name, low, high, type_, expr, display, params, val, call):
        self.name, self.low, self.high, self.type = name, low, high, type_
        self.expr = tables.EXPRS[expr] if expr else None
        self.expr_name = expr
        self.display, self.params, self.val, self.call = display, params, val, call
        self.width = high - low + 1
        self.mask = (1 << self.width) - 1
        if type_ == "assert":
            self.kind = "assert"
        elif type_ in tables.ENUMS:
            self.kind = "enum"
        elif type_ in tables.ROOTS:
            self.kind = "bitset"
        else:
            self.kind = type_

    def __repr__(self):
        return "Field(%s [%d:%d] %s)" % (self.name, self.high, self.low, self.type)


class Case:
    __slots__ = ("expr", "expr_name", "display", "parts", "fields")

    def __init__(self, expr, display, fields):
        self.expr_name = expr
        self.expr = tables.EXPRS[expr] if expr else None
        self.display = display
        self.fields = {f[0]: Field(*f) for f in fields}
        self.parts = None
        if display is not None:
            # literal text and field references, alternating: ("lit", text) / ("ref", name)
            parts, pos = [], 0
            for m in _FIELD_REF.finditer(display):
                if m.start() > pos:
                    parts.append(("lit", display[pos:m.start()]))
                parts.append(("ref", m.group(1)))
                pos = m.end()
            if pos < len(display):
                parts.append(("lit", display[pos:]))
            self.parts = tuple(parts)


class BitSet:
    __slots__ = ("name", "parent", "root", "match", "dontcare", "mask", "cases", "chain", "size",
                 "category")

    def __init__(self, name, entry):
        parent, root, match, dontcare, mask, cases = entry
        self.name, self.root = name, root
        self.parent = parent
        self.match, self.dontcare, self.mask = match, dontcare, mask
        self.cases = tuple(Case(*c) for c in cases)
        self.size = tables.ROOTS[root][0]
        self.category = None

    def __repr__(self):
        return "BitSet(%s)" % self.name


BITSETS = {name: BitSet(name, entry) for name, entry in tables.BITSETS.items()}
for _b in BITSETS.values():
    _b.parent = BITSETS[_b.parent] if _b.parent else None
    chain, p = [], _b
    while p is not None:
        chain.append(p)
        p = p.parent
    _b.chain = tuple(chain)

# root name -> leaf bitsets in description order
LEAVES = {root: tuple(BITSETS[n] for n in leaves) for root, (_, leaves) in tables.ROOTS.items()}
INSTRUCTIONS = LEAVES["#instruction"]

# Every instruction fixes its category in bits 61..63: decoding scans only that category's forms.
_CAT_MASK = 7 << 61
BY_CATEGORY = {}
for _b in INSTRUCTIONS:
    if (_b.mask & ~_b.dontcare & _CAT_MASK) != _CAT_MASK:
        BY_CATEGORY = None
        break
    _b.category = (_b.match >> 61) & 7
    BY_CATEGORY.setdefault(_b.category, []).append(_b)
if BY_CATEGORY is not None:
    BY_CATEGORY = {k: tuple(v) for k, v in BY_CATEGORY.items()}


def candidates(root, val):
    """The leaves of `root` that may match `val` (all of them, or the word's category)."""
    if root == "#instruction" and BY_CATEGORY is not None:
        return BY_CATEGORY.get((val >> 61) & 7, ())
    return LEAVES[root]
