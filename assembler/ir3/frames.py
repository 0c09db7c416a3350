"""Bits bound while a line is matched against display templates, and the constraints that
expressions put on the fields a text does not show.

A `Frame` holds the bits one bitset scope has bound (the instruction, or an operand inside it)
and the values still allowed for fields that derived fields constrain without fixing. `solve`
inverts a derived field a text prints ({OFF_HI}{OFF_LO} from one number), `require` makes an
override's expression true or false (so find_display() picks the case whose template matched),
by enumerating the few open fields it reads.
"""
import re
from itertools import product

from . import isa


class Frame:
    """Bits bound so far in one bitset scope (the instruction, or an operand inside it), and
    the values still allowed for fields that derived fields constrain without fixing
    (`allowed`: {(low, width): frozenset})."""
    __slots__ = ("bitset", "case", "val", "known", "params", "parent", "low", "allowed")

    def __init__(self, bitset, case, val, known, params, parent, low, allowed=None):
        self.bitset, self.case, self.val, self.known = bitset, case, val, known
        self.params, self.parent, self.low = params, parent, low
        self.allowed = allowed or {}

    def copy(self):
        return Frame(self.bitset, self.case, self.val, self.known, self.params, self.parent,
                      self.low, self.allowed)


_LOOKUP = {}


def field_lookup(bitset, case, name):
    """The fields `name` may be when `case` supplies the display: the case's own, those of
    overrides without a display (find_field may pick them while the display comes from another
    case), then the default case; up the chain."""
    key = (bitset.name, id(case), name)
    out = _LOOKUP.get(key)
    if out is None:
        out = _LOOKUP[key] = _lookup(bitset, case, name)
    return out


def _lookup(bitset, case, name):
    out = []
    b = bitset
    while b is not None:
        if case in b.cases:
            f = case.fields.get(name)
            if f is not None:
                out.append(f)
        for c in b.cases:
            if c is not case and c.expr is not None and c.parts is None:
                f = c.fields.get(name)
                if f is not None and f not in out:
                    out.append(f)
        f = b.cases[-1].fields.get(name)
        if f is not None and f not in out:
            out.append(f)
        if out:
            return out
        b = b.parent
    return out


def bind(frame, f, raw):
    """frame with field f set to raw, or None when it contradicts what is bound."""
    m = f.mask << f.low
    if frame.known & m:
        return frame if (frame.val >> f.low) & f.mask == raw else None
    allowed = frame.allowed.get((f.low, f.width))
    if allowed is not None and raw not in allowed:
        return None
    nf = frame.copy()
    nf.val = (nf.val & ~m) | (raw << f.low)
    nf.known |= m
    return nf


_START = {}


def new_frame(leaf, case, params, parent, low):
    """A frame with the leaf's pattern, and what the case's expression and asserts require."""
    key = (leaf.name, id(case))
    start = _START.get(key, False)
    if start is False:
        start = _START[key] = _new_frame(leaf, case)
    if start is None:
        return None
    fr = start.copy()
    fr.params, fr.parent, fr.low = params, parent, low
    return fr


def _new_frame(leaf, case):
    fr = Frame(leaf, case, leaf.match & ~leaf.dontcare, leaf.mask, (), None, 0)
    for f in case.fields.values():
        if f.kind == "assert":
            fr = bind(fr, f, f.val)
    for fname, val in isa.tables.EXPR_EQ.get(case.expr_name, ()):
        for f in field_lookup(leaf, case, fname)[:1]:
            if f.expr is None and f.kind != "bitset" and fr is not None:
                fr = bind(fr, f, val & f.mask)
    return fr


def _invert(f, target, frame):
    """The assignments [[(field, value)]] of the real fields a derived field reads that make it
    `target` ([] when none does), or None when the expression cannot be inverted here."""
    names = isa.tables.EXPR_FIELDS.get(f.expr_name, ())
    fields = []
    for n in names:
        cands = field_lookup(frame.bitset, frame.case, n)
        if not cands or cands[0].expr is not None or cands[0].kind == "bitset":
            return None
        fields.append(cands[0])
    bits = sum(x.width for x in fields)
    if not fields or bits > 16:
        return None
    fixed = {x.name: (frame.val >> x.low) & x.mask for x in fields if frame.known & (x.mask << x.low)}
    free = [x for x in fields if x.name not in fixed]

    def ev(values):
        env = dict(fixed)
        env.update(values)
        return f.expr(lambda n: env.get(n, 0), isa.GPU_ID) & ((1 << 64) - 1)

    # a bit-field concatenation ((HI << 8) | LO): each input bit lands on its own output bit
    mapping, linear = [], ev({}) == 0 and not fixed
    if linear:
        for x in free:
            for b in range(x.width):
                out = ev({x.name: 1 << b})
                if out & (out - 1) or out == 0 or any(o == out for _, _, o in mapping):
                    linear = False
                    break
                mapping.append((x, b, out))
            if not linear:
                break
    if linear:
        values = {x.name: 0 for x in free}
        rest = target & f.mask if f.width > 1 else target
        for x, b, out in mapping:
            if rest & out:
                values[x.name] |= 1 << b
                rest &= ~out
        if rest == 0 and ev(values) & f.mask == target & f.mask:
            return [[(x, values[x.name]) for x in free]]
        return []
    if sum(x.width for x in free) > 10:
        return None
    from itertools import product
    out = []
    for combo in product(*[range(1 << x.width) for x in free]):
        values = {x.name: v for x, v in zip(free, combo)}
        if ev(values) == target:
            out.append([(x, values[x.name]) for x in free])
    return out


def solve(frame, f, target):
    """frame with derived field f made `target`: the fields it reads bound where the solutions
    agree, a field they leave open constrained to their values; None when impossible."""
    sols = _invert(f, target, frame)
    if sols is None:
        return frame              # not invertible here: the decode check holds it to the text
    if not sols:
        return None
    fr = frame
    varying = []
    for i, (x, v) in enumerate(sols[0]):
        vals = {s[i][1] for s in sols}
        if len(vals) == 1:
            fr = bind(fr, x, v)
            if fr is None:
                return None
        else:
            varying.append((x, vals))
    if len(varying) == 1:
        x, vals = varying[0]
        key = (x.low, x.width)
        if fr.known & (x.mask << x.low):
            return fr if (fr.val >> x.low) & x.mask in vals else None
        vals = frozenset(vals) & fr.allowed.get(key, frozenset(vals))
        if not vals:
            return None
        if len(vals) == 1:
            return bind(fr, x, next(iter(vals)))
        fr = fr.copy()
        fr.allowed = dict(fr.allowed)
        fr.allowed[key] = vals
        return fr
    for x, _ in varying:      # several open fields: take the first solution
        fr = bind(fr, x, sols[0][[y for y, _ in sols[0]].index(x)][1]) if fr is not None else None
    return fr


def _resolve(frames, fid, name):
    """(frame id, Field) that `name` is from frame fid, following <param> renames; or None."""
    for _ in range(8):
        frame = frames[fid]
        cands = field_lookup(frame.bitset, frame.case, name)
        if cands:
            return fid, cands[0]
        for pname, alias in frame.params:
            if alias == name:
                fid, name = frame.parent, pname
                break
        else:
            return None
        if fid is None:
            return None
    return None


def _gather(frames, fid, expr_name, out, depth=0):
    """The raw fields an expression reads, through derived fields and params: out[(frame id,
    low, width)] = Field for the open ones. False when it reads something else (a bitset)."""
    if depth > 6:
        return False
    for name in isa.tables.EXPR_FIELDS.get(expr_name, ()):
        r = _resolve(frames, fid, name)
        if r is None:
            return False
        rfid, fld = r
        if fld.expr is not None:
            if not _gather(frames, rfid, fld.expr_name, out, depth + 1):
                return False
        elif fld.kind in ("bitset", "assert"):
            return False
        elif not frames[rfid].known & (fld.mask << fld.low):
            out[(rfid, fld.low, fld.width)] = fld
    return True


def _evaluate(frames, fid, fn, assign, where):
    """An expression's value with open raw fields taken from `assign` (`where` caches name
    resolutions)."""
    def field(name):
        r = where.get((fid, name))
        if r is None:
            r = where[(fid, name)] = _resolve(frames, fid, name)
        rfid, fld = r
        if fld.expr is not None:
            return _evaluate(frames, rfid, fld.expr, assign, where)
        frame = frames[rfid]
        if frame.known & (fld.mask << fld.low):
            return (frame.val >> fld.low) & fld.mask
        return assign.get((rfid, fld.low, fld.width), 0)
    return fn(field, isa.GPU_ID) & ((1 << 64) - 1)


_EQUALS = re.compile(r"int\(f\('(\w+)'\) == (\d+)\)$")


def require(frames, fid, fn, expr_name, truth):
    """frames where expression fn (in frame fid) is true / false: the open fields it reads
    bound or constrained to the values that make it so; None when no value does. Left alone
    when it reads too much to enumerate (the decode check still judges)."""
    opened = {}
    if not _gather(frames, fid, expr_name, opened):
        return frames
    keys = list(opened)
    if sum(k[2] for k in keys) > 10:
        return frames
    domains = []
    for key in keys:
        rfid, low, width = key
        allowed = frames[rfid].allowed.get((low, width))
        domains.append(sorted(allowed) if allowed is not None else range(1 << width))
    eq = _EQUALS.match(isa.tables.EXPR_SOURCE.get(expr_name, ""))
    if eq and len(keys) == 1 and opened[keys[0]].name == eq.group(1):
        n = int(eq.group(2))         # {FIELD} == N on an open field (a0.x / p0.x registers)
        sols = [(v,) for v in domains[0] if (v == n) == truth]
    else:
        sols = _solutions(frames, fid, fn, keys, domains, truth)
    if not sols:
        return None
    if not keys:
        return frames
    frames = dict(frames)
    varying = [i for i in range(len(keys)) if len({s[i] for s in sols}) > 1]
    for i, key in enumerate(keys):
        rfid, low, width = key
        fld = opened[key]
        if i not in varying:
            fr = bind(frames[rfid], fld, sols[0][i])
        elif len(varying) == 1:
            fr = frames[rfid].copy()
            fr.allowed = dict(fr.allowed)
            fr.allowed[(low, width)] = frozenset(s[i] for s in sols)
        else:
            continue
        if fr is None:
            return None
        frames[rfid] = fr
    return frames


def _solutions(frames, fid, fn, keys, domains, truth):
    """The value combinations of `keys` that give fn the truth value. With several keys, the
    first two values of each are tried first: when every key already takes two values among
    those solutions, require binds and narrows nothing, so they are enough."""
    where = {}

    def holds(combo):
        return bool(_evaluate(frames, fid, fn, dict(zip(keys, combo)), where)) == truth

    if len(keys) >= 2:
        sols = [c for c in product(*[d[:2] for d in domains]) if holds(c)]
        if all(len({c[i] for c in sols}) > 1 for i in range(len(keys))):
            return sols
    return [c for c in product(*domains) if holds(c)]


_REQUIREMENTS = {}


def case_requirements(leaf, case):
    """[(fn, expr name, truth)] that make find_display() choose `case` for `leaf`: every
    override before it with a display is false, its own expression true."""
    key = (leaf.name, id(case))
    out = _REQUIREMENTS.get(key)
    if out is None:
        out = _REQUIREMENTS[key] = _case_requirements(leaf, case)
    return out


def _case_requirements(leaf, case):
    out = []
    for b in leaf.chain:
        for c in b.cases:
            if c is case:
                if c.expr is not None:
                    out.append((c.expr, c.expr_name, True))
                return out
            if c.expr is not None and c.parts is not None:
                out.append((c.expr, c.expr_name, False))
    return out
