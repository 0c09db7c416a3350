"""Assembly templates: a decoding path run backwards, so a line assembles in microseconds.

A decoding plan (trace.py) records, per instruction form, the paths mesa's decoder takes: the
text it prints (literals and field values) and the decisions that chose that text. One path,
read backwards, is a template for the lines printed along it:
  - a regular expression: the path's literals, and a group for each value it prints;
  - the word's bits: the form's pattern, the patterns of the operand encodings the path decided
    on, asserted bits, the constants mesa's encoder writes, and each printed field set from its
    group (a derived field through the fields it concatenates, e.g. {OFF_HI}{OFF_LO});
  - a check compiled from the path: the word decodes along it (each decision gives the recorded
    outcome, each expression reads the recorded fields) and prints the values the line says.
Fields the text does not show but the path reads (FULL, DST_CONV, a descriptor mode, the (r)
bits behind (nopN)) are solved as the matcher solves them (what one printed value or display
choice pins down), then searched in the matcher's order, fewest non-zero first; where that
order leaves this path for another one printing the same text, the decoder judges.

The matcher (encoder.py) stays the definition of what a line assembles to: a template is
indexed by the skeleton of a line (numbers and optional flags taken out) only after it gave
the matcher's word for that line, and serves the later lines of that skeleton (it is built when
the second one comes: a shape met once costs the matcher only). A line of a new shape goes
through the matcher (a few milliseconds), one of a known shape through its template (tens of
microseconds); the words are the same either way (IR3_ASM_VERIFY=1 checks each one).

How one printed value reads back into its field (the line's regex groups, the raw values) is
fieldtext.py's job.
"""
import re
from itertools import product

from . import decoder, isa, trace
from .exprcode import expr_lines
from .fieldtext import literal_pattern, parse_token, slot_pattern, to_int, token_parser

_U64 = (1 << 64) - 1
_MAX_SEARCH = 256
_MAX_JUDGED = 2


class _Unusable(Exception):
    """A path this module cannot run backwards (the slow encoder handles its lines)."""


def _linear(node):
    """For a derived node that concatenates raw fields: [(raw node, bit, output bit)]."""
    if node.kind != "e" or not node.args or any(a.kind != "r" for a in node.args):
        return None
    code = dict(zip(node.names, node.args))

    def ev(values):
        return node.expr(lambda n: values.get(n, 0), decoder.gpu_id(None)) & _U64
    if ev({}) != 0:
        return None
    out, seen = [], set()
    for name, a in code.items():
        for b in range(a.width):
            o = ev({name: 1 << b})
            if o == 0 or o & (o - 1) or o in seen:
                return None
            seen.add(o)
            out.append((a, b, o))
    return out


class Template:
    """One path of a plan, run backwards (see the module docstring)."""

    def __init__(self, plan, items):
        self.plan = plan
        leaf = plan.leaf
        slots, pieces = [], []
        base = leaf.match & _U64
        covered = leaf.mask & ~leaf.dontcare & _U64
        checks = []                  # (kind, event, outcome) in path order
        for e, outcome in items:
            k = e[0]
            if k == "lit":
                pieces.append(e[1])
            elif k == "fmt":
                f, node = e[1], e[2]
                if f.kind in ("bool", "bool_inv") and f.display == "":
                    continue         # prints nothing whatever the value
                pieces.append(len(slots))
                slots.append((f, node))
            elif k == "err":
                if not e[1].startswith("dontcare"):
                    raise _Unusable(e[1])
            elif k == "errv":
                raise _Unusable(e[1])
            elif k == "dc":
                continue
            elif k == "leaf":
                node, name = e[2], outcome
                if name is None or name == "!" or node.kind != "r":
                    raise _Unusable("no operand encoding")
                sub = isa.BITSETS[name]
                m = (sub.mask & ~sub.dontcare) << node.low
                base = (base & ~m) | ((sub.match << node.low) & m)
                covered |= m
                checks.append((k, e, outcome))
            elif k == "expr":         # a soft evaluation, or a decision between readings
                checks.append((k, e, e[2] if len(e) == 3 else outcome))
            else:                    # case, as
                checks.append((k, e, outcome))
        self.slots, self.pieces = slots, pieces
        self.regex = self._regex()
        # what the printed values set directly
        direct, derived = [], []
        for i, (f, node) in enumerate(slots):
            if node.kind == "r":
                direct.append((i, token_parser(f), node.low, node.mask))
                covered |= node.deps
            elif node.kind == "e" and (lin := _linear(node)) is not None:
                direct.append((i, token_parser(f), None, lin))
                for a, _, _ in lin:
                    covered |= a.deps
            elif node.kind in ("e", "c"):
                derived.append(i)
            else:
                raise _Unusable("value of %r" % node)
        self.direct, self.derived = direct, derived
        self.slotmask = covered & ~(leaf.mask & ~leaf.dontcare)
        for kind, e, outcome in checks:
            if kind == "as":
                node, value = e[1], e[2]
                if node.kind == "r" and not node.deps & covered:
                    base = (base & ~node.deps) | (value << node.low)
                    covered |= node.deps
        for b in leaf.chain:         # constants mesa's encoder writes (stg's DST_OFF = 1)
            for fname, v in isa.tables.ENCODE_CONSTS.get(b.name, {}).items():
                for case in b.cases:
                    f = case.fields.get(fname)
                    if f is not None and f.expr is None and not covered & (f.mask << f.low):
                        base |= (v & f.mask) << f.low
                        break
        relevant = {}

        def collect(node):
            if node.kind == "r":
                if node.deps & ~covered:
                    relevant[(node.low, node.width)] = True
            elif node.kind == "b":
                collect(node.parent)
            elif node.kind == "e":
                for a in node.args:
                    collect(a)
        for kind, e, node in checks:
            if kind != "leaf":       # an operand's encoding is set from its pattern
                collect(node if kind == "expr" else e[1])
        for i in derived:
            collect(slots[i][1])
        spans = sorted(relevant, key=lambda s: (s[1], s[0]))
        for low, width in spans:
            if (((1 << width) - 1) << low) & covered:
                raise _Unusable("a hidden field overlaps printed bits")
        if sum(w for _, w in spans) > 16:
            raise _Unusable("too many hidden bits")
        self.spans, self.base = spans, base
        # what the matcher solves before it searches, over the hidden fields they read: the
        # expressions that chose a display, and derived values the line prints (the path's
        # other decisions are the check's and the judge's)
        self.solve = [(e[1], outcome, True) for kind, e, outcome in checks
                      if kind == "case" and len(e) == 3]
        self.solve += [(slots[i][1], None, slots[i][0].kind in ("bool", "bool_inv"))
                       for i in derived]
        self._checks = checks
        self._check = self._values = None
        self._solved = {}
        self.solve_mask = 0
        for node, _, _ in self.solve:
            self.solve_mask |= node.deps
        self.bools = tuple(slots[i][0].kind in ("bool", "bool_inv") for i in derived)

    def _regex(self):
        return re.compile("".join(literal_pattern(p) if isinstance(p, str) else
                                  slot_pattern(self.slots[p][0], True) for p in self.pieces))

    @property
    def check(self):
        if self._check is None:
            derived = [self.slots[i][1] for i in self.derived]
            self._check = _check_function(self.plan, self._checks, derived, self.bools,
                                          self.plan.gpu, self.slotmask)
        return self._check

    def encode(self, text, pc=0, labels=None):
        """(word, judged) for normalized line `text`, or None when this path does not fit it;
        judged: the word decodes along another path (the decoder said it prints the line).

        None as well when the word leaves FULL / DST_CONV other than mesa's encoder would set
        them although the text would print the same with mesa's values (a path learned from a
        line with full sources, met by one with half sources where the destination prints
        alike): the matcher, which tries mesa's values first, decides such a line."""
        r = self._encode(text, pc, labels)
        if r is None:
            return None
        mask, value = _hint_fields()(self.plan.leaf, text)
        if mask and r[0] & mask != value:
            alt = (r[0] & ~mask) | value
            st = decoder._State(self.plan.gpu)
            m = self.regex.fullmatch(text)
            if (decoder._decode_word(alt, self.plan.gpu, st) is not None
                    and "".join(st.out) == self._canonical(m.groups(), pc, labels)
                    and all(e.startswith("dontcare") for e in st.errors)):
                return None
        return r

    def _encode(self, text, pc, labels):
        m = self.regex.fullmatch(text)
        if m is None:
            return None
        groups = m.groups()
        r = self.values(groups, pc, labels)
        if r is None:
            return None
        w, want = r
        # solve what has one solution, narrow what has one open field, as the matcher does
        key = (want, w & self.solve_mask)
        solved = self._solved.get(key)
        if solved is None:
            solved = self._solved[key] = self._solve(w, want)
        if solved is False:
            return None
        delta, first, cons, free = solved
        w ^= delta
        hint = _hint_bits()(self.plan.leaf, text, ~self.free_mask(free))
        if hint:                             # the matcher tries mesa's choice first
            cand = w | first | hint
            got = self.check(cand)
            if got is not None and not got[0] and got[1] == want:
                return cand, False
            if got is not None and self._judge(cand, groups, pc, labels):
                return cand, True
        got = self.check(w | first)          # the matcher's first candidate, usually the word
        if got is None:
            return None
        if not got[0] and got[1] == want:
            return w | first, False
        tries = judged = 0
        canon = None
        for cvals in product(*[v for _, v in cons]):
            cbase = w
            for ((low, _), _), v in zip(cons, cvals):
                cbase |= v << low
            for assign in _assignments()(free):
                cand = cbase
                for j, v in assign.items():
                    low, width = free[j]
                    cand |= v << low
                got = self.check(cand)
                if got is None:
                    return None          # the printed values do not fit this path
                if not got[0] and got[1] == want:
                    return cand, False
                # the hidden fields took the word off this path, and another path may print
                # the same text (the matcher takes the first word in this order that does):
                # the decoder judges
                if canon is None:
                    canon = self._canonical(groups, pc, labels)
                judged += 1
                if judged > _MAX_JUDGED:
                    return None          # the search is not near this path: the matcher will do
                st = decoder._State(self.plan.gpu)
                if (decoder._decode_word(cand, self.plan.gpu, st) is not None
                        and "".join(st.out) == canon
                        and all(e.startswith("dontcare") for e in st.errors)):
                    return cand, True
                tries += 1
                if tries >= _MAX_SEARCH:
                    return None
        return None

    @property
    def values(self):
        """values(groups, pc, labels) -> (word with the printed fields set, derived values),
        or None when a value is out of its field's range: compiled once."""
        if self._values is None:
            self._values = _values_function(self)
        return self._values

    def _solve(self, w, want):
        """(bits to flip in w, [(span, values)] narrowed, [span] left free) or False."""
        domains = {}
        targets = iter(want)
        w0 = w
        for node, outcome, boolean in self.solve:
            target = outcome if outcome is not None else next(targets)
            w = _narrow(node, target, boolean, w, self.spans, domains, self.plan.gpu)
            if w is None:
                return False
        cons = [(sp, sorted(domains[sp])) for sp in self.spans if sp in domains]
        first = 0
        for (low, _), vals in cons:
            first |= vals[0] << low
        return (w ^ w0, first, cons, [sp for sp in self.spans if sp not in domains])

    @staticmethod
    def free_mask(free):
        m = 0
        for low, width in free:
            m |= ((1 << width) - 1) << low
        return m

    def _judge(self, cand, groups, pc, labels):
        """Whether the decoder prints the line's text for cand (with no warning but dontcare)."""
        st = decoder._State(self.plan.gpu)
        return (decoder._decode_word(cand, self.plan.gpu, st) is not None
                and "".join(st.out) == self._canonical(groups, pc, labels)
                and all(e.startswith("dontcare") for e in st.errors))

    def _canonical(self, groups, pc, labels):
        """The text the line stands for: the path's literals and each value as printed."""
        st = decoder._State(self.plan.gpu)
        out = []
        for p in self.pieces:
            if isinstance(p, str):
                out.append(p)
            else:
                f = self.slots[p][0]
                out.append(decoder.value_text(st, f, parse_token(f, groups[p], pc, labels)))
        return "".join(out)


def _values_function(t):
    """Source for Template.values: each printed field set from its group, straight-line."""
    ns = {"P": parse_token, "to_int": to_int}
    lines = ["w = %d" % t.base]
    bits = 0
    overlap = False
    for i, parse, low, mask in t.direct:
        m = mask << low if low is not None else 0
        if low is None:
            for a, _, _ in mask:
                m |= a.deps
        overlap |= bool(bits & m)
        bits |= m
    for i, parse, low, mask in t.direct:
        f = t.slots[i][0]
        g = "g[%d]" % i
        ns["p%d" % i] = parse
        if overlap or low is None:       # the careful way, one field at a time
            ns["s%d" % i] = (parse, low, mask)
            lines.append("w = set_field(w, s%d, %s, pc, labels)" % (i, g))
            lines.append("if w is None: return None")
            ns["set_field"] = _set_field
            continue
        if f.kind in ("bool", "bool_inv") and f.display is not None and mask == 1:
            on = (1 << low) if f.kind == "bool" else 0
            off = 0 if f.kind == "bool" else (1 << low)
            if on:
                lines.append("if %s: w |= %d" % (g, on))
            else:
                lines.append("if not %s: w |= %d" % (g, off))
            continue
        if f.kind == "enum":
            table = {}
            for v, d in sorted(isa.tables.ENUMS[f.type].items(), key=lambda kv: -len(kv[1])):
                if v <= f.mask:
                    table.setdefault(d, v)
            ns["T%d" % i] = table
            lines.append("v = T%d.get(%s)" % (i, g))
            lines.append("if v is None:")
            lines.append("    v = p%d(%s)" % (i, g))
            lines.append("    if v is None or v > %d: return None" % mask)
        elif f.kind == "uint" and f.expr is None:
            lines.append("t = %s" % g)
            lines.append("v = int(t) if t.isdigit() else to_int(t)")
            lines.append("if v < 0 or v > %d: return None" % mask)
        else:
            lines.append("v = p%d(%s, pc, labels)" % (i, g))
            lines.append("if v is None or v > %d: return None" % mask)
        lines.append("w |= v << %d" % low if low else "w |= v")
    want = []
    for i, boolean in zip(t.derived, t.bools):
        ns["d%d" % i] = token_parser(t.slots[i][0])
        lines.append("x%d = d%d(g[%d], pc, labels)" % (i, i, i))
        lines.append("if x%d is None: return None" % i)
        want.append(("(1 if x%d else 0)" if boolean else "x%d") % i)
    lines.append("return w, (%s)" % "".join(x + ", " for x in want))
    src = "def values(g, pc, labels):\n" + "".join("    %s\n" % x for x in lines)
    exec(compile(src, "<ir3 template values %s>" % t.plan.leaf.name, "exec"), ns)
    return ns["values"]


def _set_field(w, slot, tok, pc, labels):
    """w with a printed field set from its token, refusing a clash with bits set before."""
    parse, low, mask = slot
    raw = parse(tok, pc, labels)
    if raw is None:
        return None
    if low is None:                      # a concatenation of raw fields
        for a, b, o in mask:
            bit = 1 << (a.low + b)
            w = (w & ~bit) | (bit if raw & o else 0)
            raw &= ~o
        return None if raw else w
    if raw > mask:
        return None
    return (w & ~(mask << low)) | (raw << low)


def _hidden(node, spans, out):
    """The hidden spans (of `spans`) node reads, in out; False if it reads through something
    that cannot be evaluated bit by bit."""
    if node.kind == "r":
        if (node.low, node.width) in spans:
            out[(node.low, node.width)] = True
        return True
    if node.kind == "c":
        return True
    if node.kind == "b":
        return _hidden(node.parent, spans, out)
    return all(_hidden(a, spans, out) for a in node.args)


def _plain(node, w, gpu):
    """node's value for word w, by its expression (whatever fields the evaluation reads)."""
    k = node.kind
    if k == "r":
        return (w >> node.low) & node.mask
    if k == "c":
        return node.value
    if k == "b":
        return (_plain(node.parent, w, gpu) >> node.low) & node.mask
    args = dict(zip(node.names, node.args))

    def field(name):
        a = args.get(name)
        if a is None:
            raise _Unusable(name)
        return _plain(a, w, gpu)
    return node.expr(field, gpu) & _U64


def _narrow(node, target, boolean, w, spans, domains, gpu):
    """w with the hidden spans node reads bound where only one value makes node == target,
    or their domains narrowed when one span is left open (frames.solve / require)."""
    reads = {}
    if not _hidden(node, set(spans), reads) or not reads:
        return w
    keys = list(reads)
    if sum(k[1] for k in keys) > 10:
        return w
    ranges = [sorted(domains[k]) if k in domains else range(1 << k[1]) for k in keys]
    sols = []
    for combo in product(*ranges):
        cand = w
        for (low, width), v in zip(keys, combo):
            cand = (cand & ~(((1 << width) - 1) << low)) | (v << low)
        try:
            v = _plain(node, cand, gpu)
        except _Unusable:
            return w
        if (bool(v) if boolean else v) == target:
            sols.append(combo)
    if not sols:
        return None
    varying = [i for i in range(len(keys)) if len({s[i] for s in sols}) > 1]
    for i, (low, width) in enumerate(keys):
        if i not in varying:
            w = (w & ~(((1 << width) - 1) << low)) | (sols[0][i] << low)
            domains[(low, width)] = {sols[0][i]}
        elif len(varying) == 1:
            domains[(low, width)] = {s[i] for s in sols}
    return w


def _hint_bits():
    global _HINT_BITS
    if _HINT_BITS is None:
        from .encoder import hint_bits
        _HINT_BITS = hint_bits
    return _HINT_BITS


_HINT_BITS = None


def _hint_fields():
    global _HINT_FIELDS
    if _HINT_FIELDS is None:
        from .encoder import hint_fields
        _HINT_FIELDS = hint_fields
    return _HINT_FIELDS


_HINT_FIELDS = None


def _assignments():
    """encoder._assignments (the matcher's search order; imported late: encoder imports us)."""
    global _ASSIGNMENTS
    if _ASSIGNMENTS is None:
        from .encoder import _assignments as a
        _ASSIGNMENTS = a
    return _ASSIGNMENTS


_ASSIGNMENTS = None


def _check_function(plan, checks, derived, bools, gpu, slotmask):
    """check(w) -> None if a decision that reads printed fields leaves the path (the line is
    not this path's), else (whether one that reads only hidden fields does, the values of the
    derived printed nodes)."""
    lines = ["off = False"]
    ns = {"sub_leaf": trace.sub_leaf}

    def fail(node):
        return "return None" if node.deps & slotmask else "off = True"

    def val(n):
        k = n.kind
        if k == "r":
            return "((w >> %d) & %d)" % (n.low, n.mask) if n.low else "(w & %d)" % n.mask
        if k == "c":
            return "%d" % n.value
        if k == "b":
            return "((%s >> %d) & %d)" % (val(n.parent), n.low, n.mask)
        if n.id not in done:
            lines.extend(expr_lines(n, val, gpu, True, fail=fail(n)))
            done.add(n.id)
        return "v%d" % n.id
    done = set()
    for kind, e, outcome in checks:
        if kind == "case":
            lines.append("if bool(%s) != %r: %s" % (val(e[1]), outcome, fail(e[1])))
        elif kind == "leaf":
            m = trace._root_mask(e[1])
            lines.append("if sub_leaf(%r, %s & %d) != %r: return None" % (e[1], val(e[2]), m, outcome))
        elif kind == "as":
            lines.append("if %s != %d: %s" % (val(e[1]), e[2], fail(e[1])))
        elif kind == "expr" and outcome.id not in done:
            lines.extend(expr_lines(outcome, val, gpu, True, fail=fail(outcome)))
            done.add(outcome.id)
    ret = "".join((("(1 if %s else 0)" if b else "%s") % val(n)) + ", " for n, b in zip(derived, bools))
    lines.append("return off, (%s)" % ret)
    src = "def check(w):\n" + "".join("    %s\n" % x for x in lines)
    exec(compile(src, "<ir3 template %s>" % plan.leaf.name, "exec"), ns)
    return ns["check"]


def paths(plan):
    """Every root-to-end path of a plan's trie: [(event, outcome)] (soft evaluations as
    ("expr", fn, node) events; a "try" decision adds nothing, its paths check themselves)."""
    out = []
    stack = [(plan.root, [])]
    while stack:
        seg, items = stack.pop()
        items = items + [(e, None) for e in seg.events]
        d = seg.decide
        if d is None:
            out.append(items)
            continue
        for outcome, child in seg.children.items():
            stack.append((child, items if d[0] == "try" else items + [(d, outcome)]))
    return out


# ---------------------------------------------------------------------------------------------
# The index


_OPTIONAL = re.compile(r"\((?:sy|ss|jp|ul|sat|eq|ei|neg|abs|absneg|r|last|even|pos_infinity|"
                       r"neg_infinity|rpt\d|nop\d)\)|(?<![A-Za-z0-9_])h(?=[rc][0-9<])")
_DIGITS = re.compile(r"\d+")
_INDEX = {}            # (gpu, skeleton) -> [Template]
_PENDING = {}          # (gpu, skeleton) -> the matcher's first line of it, not yet indexed
_PLAN_TEMPLATES = {}   # plan -> (segments, {path: Template or None})
STATS = {"indexed": 0, "missed": 0}


def _number_class(m):
    # a plain number of a float ALU source is an immediate below 12 and from 1024 on, and an
    # index into the float lookup table (which prints such indexes plainly) from 12 to 1023:
    # lines on either side of those bounds must not share a template
    n = int(m.group())
    return "#" if n < 12 else "#m" if n < 1024 else "#l"


def skeleton(text):
    """A normalized line without its numbers and optional flags: lines of one template share it."""
    return _DIGITS.sub(_number_class, _OPTIONAL.sub("", text))


def _templates(plan):
    seen = _PLAN_TEMPLATES.get(plan)
    if seen is not None and seen[0] == plan.segments:
        return seen[1]
    old = seen[1] if seen else {}
    new = {}
    for items in paths(plan):
        key = tuple((e, o) for e, o in items)
        t = old.get(key, False)
        if t is False:
            try:
                t = Template(plan, items)
            except _Unusable:
                t = None
        new[key] = t
    _PLAN_TEMPLATES[plan] = (plan.segments, new)
    return new


def lookup(text, gpu, pc=0, labels=None):
    """The word for normalized line `text` from a template indexed under its skeleton, or None."""
    key = (gpu, skeleton(text))
    known = _INDEX.get(key)
    pending = _PENDING.pop(key, None)
    if pending is not None:          # the second line of this shape: now the template pays off
        _index(*pending)
        known = _INDEX.get(key)
    if known:
        for t in known:
            r = t.encode(text, pc, labels)
            if r is not None:
                STATS["indexed"] += 1
                return r[0]
    STATS["missed"] += 1
    return None


def learned(text, word, gpu, pc=0, labels=None):
    """The matcher gave `word` for `text`, and the decoder's plan has learned word's path.
    Building the template costs more than the matcher did, so it waits for a second line of
    the skeleton (`lookup` then indexes it): a line of a shape met once costs the matcher only."""
    key = (gpu, skeleton(text))
    if key not in _INDEX:
        _PENDING[key] = (text, word, gpu, pc, labels)
        return True
    return _index(text, word, gpu, pc, labels)


def _index(text, word, gpu, pc=0, labels=None):
    """If the path of the matcher's `word` for `text` gives the same word as a template, index
    that template for lines of this skeleton.

    Only the matcher's own choices are indexed: where several paths print the same text, the
    matcher's order decides (an operand encoding listed before another, the display case met
    first, hidden fields zero first), and a line shaped like one the matcher took a path for
    is taken along the same path. So templates change how fast a line assembles, never what
    it assembles to, whatever was decoded or assembled before."""
    decoder.learn(word, gpu)     # the plan gets the path the word decodes along
    plan = decoder._PLANS.get((decoder._leaf_of(word), gpu))
    if plan is None:
        return False
    key = (gpu, skeleton(text))
    for t in _templates(plan).values():
        if t is not None:
            r = t.encode(text, pc, labels)
            if r is not None and r[0] == word:
                lst = _INDEX.setdefault(key, [])
                if t not in lst:
                    lst.insert(0, t)
                return True
    return False


def clear():
    _INDEX.clear()
    _PENDING.clear()
    _PLAN_TEMPLATES.clear()
