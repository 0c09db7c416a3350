"""Decoding plans: mesa's decoder, recorded once per path and replayed as compiled Python.

The reference decoder (decoder.py) interprets the bitset tree for every word: it walks override
cases, resolves fields through the parent chain, evaluates expressions with mesa's cache and
recursion guard. Almost all of that work depends on a few decisions (which override a case
expression selects, which operand encoding a sub-field matches); the rest is formatting field
values. So the decoder can run in *recording* mode: every value it computes becomes a `Node`
(bits of the word, a constant, or an expression over the nodes of the fields it read), and every
step becomes an event (literal text, a formatted value, a warning, or a decision with its
outcome). The events of one word go into a trie per instruction form (a `Plan`), cut at the
decisions. Another word of the same form replays the trie: segments emit its text, decisions
pick the next segment. A plan that stops learning new paths is compiled into one Python
function: nested ifs over straight-line code that builds the text by concatenation.

This is exact by construction. The reference decoder is deterministic given the outcomes of its
decisions and the fields its expressions read, so a word that agrees with a recorded path on
all of them goes through the recorded steps. Expression evaluations are decisions too: mesa's
expressions short-circuit (`({SRC1_R} != 0 || {SRC2_R} != 0) && {REPEAT} == 0`), so which fields
one reads depends on the values. A recorded evaluation maps each field it read to the node it
resolved to; a replay must read exactly that set of fields, otherwise it is another outcome.
Every recorded path checks all its decisions and readings, so where two paths part before the
difference can be computed (an evaluation nested in another shows up before the outer one's
reading is known), they are simply tried in order. An outcome the trie has not seen is a `Miss`:
the word goes through the reference decoder in recording mode and its path is added.
"""
from . import isa
from .exprcode import expr_lines as _expr_lines, read_mask as _want, code_for as _code

_U64 = (1 << 64) - 1


class Miss(Exception):
    """An outcome the plan has not recorded yet."""


class _Uncompilable(Exception):
    """A plan the code generator does not handle (it stays interpreted)."""


class Diverge(Exception):
    """A replayed expression read other fields than the recorded evaluation did."""


# ---------------------------------------------------------------------------------------------
# Nodes: values of the reference decoder, interned so equal structures are the same object


class Node:
    """kind 'r': bits [low, low+width) of the word; 'c': the constant `value`; 'b': bits of node
    `parent`; 'e': expression `expr` that read field `names[i]` as node `args[i]` (a replay must
    read exactly those: `required` is their mask for `ev`)."""
    __slots__ = ("id", "kind", "low", "width", "mask", "value", "expr", "expr_name", "names", "args",
                 "required", "parent", "deps")

    def __repr__(self):
        if self.kind == "r":
            return "bits[%d:%d]" % (self.low + self.width - 1, self.low)
        if self.kind == "c":
            return "%d" % self.value
        if self.kind == "b":
            return "%r[%d:%d]" % (self.parent, self.low + self.width - 1, self.low)
        return "%s(%s)" % (self.expr_name, ", ".join("%s=%r" % (n, a) for n, a in zip(self.names, self.args)))


_INTERN = {}
EXPR_NAMES = {id(fn): name for name, fn in isa.tables.EXPRS.items()}


def _node(key, **attrs):
    n = _INTERN.get(key)
    if n is None:
        n = Node()
        n.id = len(_INTERN)
        n.kind = key[0]
        n.low = n.width = n.mask = n.value = n.expr = n.expr_name = n.parent = None
        n.names = n.args = ()
        n.required = n.deps = 0
        for k, v in attrs.items():
            setattr(n, k, v)
        _INTERN[key] = n
    return n


def raw(low, width):
    mask = (1 << width) - 1 if width < 64 else _U64
    return _node(("r", low, width), low=low, width=width, mask=mask, deps=mask << low)


def const(value):
    return _node(("c", value), value=value)


def bits(parent, low, width):
    """Bits of a node: of the word directly when the node is word bits."""
    if parent.kind == "r":
        return raw(parent.low + low, width)
    mask = (1 << width) - 1
    return _node(("b", parent.id, low, width), parent=parent, low=low, width=width, mask=mask,
                 deps=parent.deps)


def expr(fn, reads):
    """The node of an evaluation that read `reads` [(name, node)], or None when one name
    resolved to two different nodes (then the path is left to the reference decoder)."""
    names, args = [], []
    for name, node in reads:
        if name in names:
            if args[names.index(name)] is not node:
                return None
        else:
            names.append(name)
            args.append(node)
    required = (1 << len(names)) - 1
    deps = 0
    for a in args:
        deps |= a.deps
    names, args = tuple(names), tuple(args)
    return _node(("e", id(fn), names, tuple(a.id for a in args), required), expr=fn,
                 expr_name=EXPR_NAMES.get(id(fn), "?"), names=names, args=args, required=required,
                 deps=deps)


CONST0 = const(0)
WORD = raw(0, 64)


def ev(fn, names, vals, required, gpu):
    """Run expression `fn` over the recorded reads: it must read exactly those fields."""
    seen = 0

    def field(name):
        nonlocal seen
        for i, n in enumerate(names):
            if n == name:
                seen |= 1 << i
                return vals[i]
        raise Diverge(name)
    ret = fn(field, gpu) & _U64
    if required & ~seen:
        raise Diverge()
    return ret


def evaluate(node, w, gpu, memo):
    """The value of `node` for word `w` (raises Diverge as a compiled replay would)."""
    k = node.kind
    if k == "r":
        return (w >> node.low) & node.mask
    if k == "c":
        return node.value
    if k == "b":
        return (evaluate(node.parent, w, gpu, memo) >> node.low) & node.mask
    v = memo.get(node.id)
    if v is None:
        v = ev(node.expr, node.names, tuple(evaluate(a, w, gpu, memo) for a in node.args),
               node.required, gpu)
        memo[node.id] = v
    return v


# ---------------------------------------------------------------------------------------------
# Recording


class Trace:
    """What the reference decoder did for one word: events, with the outcome of each decision.

    events: ("lit", text) | ("err", message) | ("errv", format, node) | ("fmt", field, node)
            | ("dc", node, mask, bitset name) | ("as", node, value, low, high, bitset name)
            | decisions: ("case", node) -> bool (in a plan ("case", node, True) when it chose
              a display) | ("leaf", root, node) -> leaf name, None or "!"
            | ("expr", function) -> the node of its evaluation
    """
    __slots__ = ("events", "outcomes", "decided", "reads", "last", "broken", "display")

    def __init__(self):
        self.events = []
        self.outcomes = {}     # index of a decision event -> outcome
        self.decided = set()   # a repeated decision on one node is no event (same outcome)
        self.reads = []        # one list of (name, node) per expression being evaluated
        self.last = None       # node of the value the decoder produced last
        self.broken = False    # the path cannot be replayed (left to the reference decoder)
        self.display = set()   # nodes of the case expressions that chose a display

    def event(self, ev):
        self.events.append(ev)

    def decide(self, ev, outcome):
        if ev[0] != "expr":
            if ev in self.decided:
                return
            self.decided.add(ev)
        self.outcomes[len(self.events)] = outcome
        self.events.append(ev)

    def evaluated(self, fn, reads):
        node = expr(fn, reads)
        if node is None:
            self.broken = True
            node = CONST0
        self.decide(("expr", fn), node)
        return node


# ---------------------------------------------------------------------------------------------
# Plans: a trie of segments per leaf bitset


class Segment:
    """Straight-line events (a soft expression event ("expr", fn, node) evaluates the only
    reading recorded so far), then a decision (None at the end) and its children by outcome."""
    __slots__ = ("events", "decide", "children")

    def __init__(self, events, decide):
        self.events, self.decide = events, decide
        self.children = {}


COMPILE_AFTER = 8      # replays without a new path before a plan is compiled to Python


class Plan:
    """The recorded paths of one instruction form (leaf bitset) for one gpu. While it learns,
    it is replayed by `interpret`; once it has gone COMPILE_AFTER replays without a new path,
    the whole trie is compiled into one Python function (`fn`)."""

    def __init__(self, leaf, gpu, emit_value, value_text):
        self.leaf, self.gpu, self.emit_value, self.value_text = leaf, gpu, emit_value, value_text
        self.root = None
        self.fixed_mask = leaf.mask & ~leaf.dontcare & _U64
        self.fixed_word = leaf.match & self.fixed_mask
        self._fixed = {}
        self.segments = 0
        self.fn = None
        self.source = None
        self.stable = 0

    def fixed(self, node):
        """True when `node` only depends on bits the leaf's pattern fixes."""
        f = self._fixed.get(node.id)
        if f is None:
            if node.kind == "e":
                f = all(self.fixed(a) for a in node.args)
            else:
                f = node.deps & ~self.fixed_mask == 0
            self._fixed[node.id] = f
        return f

    def _fixed_leaf(self, e):
        """A sub-field whose leaf the pattern decides (or which has a single, pattern-free one)."""
        m = _root_mask(e[1])
        node = e[2]
        return node.kind == "r" and (m << node.low) & ~self.fixed_mask == 0

    def _items(self, trace, state_factory):
        """The trace as [(event, outcome)], with what the leaf's pattern fixes folded into text."""
        items, memo = [], {}
        for i, e in enumerate(trace.events):
            kind = e[0]
            if kind == "case":
                if not self.fixed(e[1]):
                    # ("case", node, True) when it chose a display (the assembler solves those)
                    items.append((e + (True,) if e[1] in trace.display else e, trace.outcomes[i]))
                continue
            if kind == "leaf":
                if not self.fixed(e[2]) and not self._fixed_leaf(e):
                    items.append((e, trace.outcomes[i]))
                continue
            if kind == "expr":
                node = trace.outcomes[i]
                if not self.fixed(node):
                    items.append((e, node))
                continue
            if kind == "fmt" and e[1].kind not in ("branch", "absbranch") and self.fixed(e[2]):
                st = state_factory()
                self.emit_value(st, e[1], evaluate(e[2], self.fixed_word, self.gpu, memo))
                e = ("lit", "".join(st.out))
            elif kind == "dc" and not e[2]:
                continue                    # no dontcare bits to warn about
            elif kind in ("dc", "as", "errv"):
                node = e[2] if kind == "errv" else e[1]
                if self.fixed(node):
                    msg = _static_error(e, evaluate(node, self.fixed_word, self.gpu, memo))
                    if msg is None:
                        continue
                    e = ("err", msg)
            if e[0] == "lit":
                if not e[1]:
                    continue
                if items and items[-1][0][0] == "lit":
                    items[-1] = (("lit", items[-1][0][1] + e[1]), None)
                    continue
            items.append((e, None))
        return items

    def insert(self, trace, state_factory):
        """Add a recorded path; False when it does not fit (the word stays with the reference)."""
        if trace.broken:
            return False
        items = self._items(trace, state_factory)
        self.fn, self.stable = None, 0
        if self.root is None:
            self.root = self._chain(items)
            return True
        seg, i = self.root, 0
        while True:
            for j, e in enumerate(seg.events):
                if i >= len(items):
                    return False
                ne, out = items[i]
                if e[0] == "expr" and ne == e[:2]:
                    if out is not e[2]:
                        self._split(seg, j, e[:2], e[2], out, items[i + 1:])
                        return True
                elif e != ne:
                    self._split(seg, j, ("try",), 0, 1, items[i:])
                    return True
                i += 1
            d = seg.decide
            if i >= len(items):
                return d is None
            if d is None or (d[0] != "try" and items[i][0] != d):
                self._split(seg, len(seg.events), ("try",), 0, 1, items[i:])
                return True
            if d[0] == "try":
                for child in seg.children.values():
                    if _starts(child, items[i][0]):
                        seg = child
                        break
                else:
                    seg.children[len(seg.children)] = self._chain(items[i:])
                    return True
                continue
            out = items[i][1]
            nxt = seg.children.get(out)
            if nxt is None:
                seg.children[out] = self._chain(items[i + 1:])
                return True
            seg, i = nxt, i + 1

    def _chain(self, items):
        """Segments for items (expression events stay inline, as soft decisions)."""
        events = []
        for k, (e, out) in enumerate(items):
            if e[0] == "expr":
                events.append(e + (out,))
            elif e[0] in ("case", "leaf"):
                seg = self._new(events, e)
                seg.children[out] = self._chain(items[k + 1:])
                return seg
            else:
                events.append(e)
        return self._new(events, None)

    def _split(self, seg, j, decide, old, new, rest):
        """seg becomes its events before j and a decision: the old remainder as outcome `old`,
        the new path as `new`. An expression decision at a soft evaluation (outcomes: the old
        and new readings), or a "try" decision: the recorded paths are tried in order, each
        checks its own decisions and readings, so the first that fits is the word's path (an
        evaluation inside another one shows up before the outer one's reading is known)."""
        skip = 1 if decide[0] == "expr" else 0
        tail = self._new(seg.events[j + skip:], seg.decide)
        tail.children = seg.children
        seg.events, seg.decide, seg.children = seg.events[:j], decide, {old: tail}
        seg.children[new] = self._chain(rest)

    def _new(self, events, decide):
        self.segments += 1
        return Segment(events, decide)

    # -- replay

    def interpret(self, w, st):
        """Replay by walking the segments (raises Miss or Diverge)."""
        if self.root is None:
            raise Miss()
        self._run(self.root, w, st, {})

    def _run(self, seg, w, st, V):
        gpu = self.gpu
        A, E = st.out.append, st.error
        while True:
            for e in seg.events:
                k = e[0]
                if k == "lit":
                    A(e[1])
                elif k == "fmt":
                    self.emit_value(st, e[1], evaluate(e[2], w, gpu, V))
                elif k == "expr":
                    evaluate(e[2], w, gpu, V)
                elif k == "err":
                    E(e[1])
                else:
                    msg = _static_error(e, evaluate(e[2] if k == "errv" else e[1], w, gpu, V))
                    if msg is not None:
                        E(msg)
            d = seg.decide
            if d is None:
                return
            if d[0] == "try":
                snap = st.snapshot()
                for child in seg.children.values():
                    try:
                        return self._run(child, w, st, dict(V))
                    except (Miss, Diverge):
                        st.restore(snap)
                raise Miss()
            if d[0] == "case":
                o = bool(evaluate(d[1], w, gpu, V))
            elif d[0] == "leaf":
                o = sub_leaf(d[1], evaluate(d[2], w, gpu, V))
            else:
                o = pick(seg, w, V, gpu)
            seg = seg.children.get(o)
            if seg is None:
                raise Miss()

    def compile(self):
        """The whole trie as one Python function (w, st, A, E)."""
        try:
            self.source, ns = _plan_source(self)
        except _Uncompilable:
            self.stable = -1 << 30          # stays interpreted
            return
        exec(compile(self.source, "<ir3 plan %s>" % self.leaf.name, "exec"), ns)
        self.fn = ns["plan"]


def _starts(seg, e):
    """Whether a path through seg can begin with event e."""
    head = seg.events[0] if seg.events else seg.decide
    if head is None:
        return False
    if head[0] == "expr" and len(head) == 3:
        return e == head[:2]
    return e == head


def _static_error(e, v):
    """The warning event e prints for value v, or None."""
    kind = e[0]
    if kind == "dc":
        return "dontcare bits in %s: %016x" % (e[3], v & e[2]) if v & e[2] else None
    if kind == "as":
        _, _, value, low, high, name = e
        return (None if v == value else "WARNING: unexpected bits[%u:%u] in %s: %016x vs %016x"
                % (low, high, name, v, value))
    return e[1] % v


# ---------------------------------------------------------------------------------------------
# Code generation: the trie as nested ifs over straight-line code


def _plan_source(plan):
    """Source of `plan(w, st, A, E)`: per segment, the evaluations it needs, its warnings, its
    text as one concatenation, then its decision as if/elif over the recorded outcomes."""
    ns = {"sub_leaf": sub_leaf, "VT": plan.value_text, "Diverge": Diverge, "Miss": Miss}
    lines = []
    gpu = plan.gpu

    def const(obj, prefix):
        key = "%s%d" % (prefix, len(ns))
        ns[key] = obj
        return key

    def val(n):
        k = n.kind
        if k == "r":
            return "((w >> %d) & %d)" % (n.low, n.mask) if n.low else "(w & %d)" % n.mask
        if k == "c":
            return "%d" % n.value
        if k == "b":
            return "((%s >> %d) & %d)" % (val(n.parent), n.low, n.mask)
        if plan.fixed(n):
            return "%d" % evaluate(n, plan.fixed_word, gpu, {})
        return "v%d" % n.id

    def text(f, v):
        """An expression for field f's display of value (source) v."""
        kind = f.kind
        if kind in ("bool", "bool_inv") and f.display is not None:
            if not f.display:
                return None
            return "(%r if %s%s else '')" % (f.display, "not " if kind == "bool_inv" else "", v)
        if kind == "uint":
            return "str(%s)" % v
        if kind == "enum":
            table = isa.tables.ENUMS[f.type]
            if all(i in table for i in range(1 << f.width)):
                return "%s[%s]" % (const(tuple(table[i] for i in range(1 << f.width)), "T"), v)
            t = const(table, "T")
            return "(%s[t] if (t := %s) in %s else '%%u' %% (t & 0xffffffff))" % (t, v, t)
        return "VT(st, %s, %s)" % (const(f, "F"), v)

    def emit(seg, ind, done):
        pad = "    " * ind
        parts = []
        done = set(done)
        for e in seg.events:
            kind = e[0]
            if kind == "lit":
                parts.append(repr(e[1]))
            elif kind == "fmt":
                t = text(e[1], val(e[2]))
                if t is not None:
                    parts.append(t)
            elif kind == "err":
                lines.append(pad + "E(%r)" % e[1])
            elif kind == "errv":
                lines.append(pad + "E(%r %% %s)" % (e[1], val(e[2])))
            elif kind == "dc":
                lines.append(pad + "t = %s & %d" % (val(e[1]), e[2]))
                lines.append(pad + "if t: E('dontcare bits in %s: %%016x' %% t)" % e[3])
            elif kind == "as":
                _, node, value, low, high, name = e
                lines.append(pad + "if (t := %s) != %d: E('WARNING: unexpected bits[%u:%u] in %s: "
                             "%%016x vs %016x' %% t)" % (val(node), value, low, high, name, value))
            elif kind == "expr" and e[2].id not in done:
                lines.extend(pad + x for x in _expr_lines(e[2], val, gpu, True))
                done.add(e[2].id)
        if parts:
            lines.append(pad + "A(%s)" % " + ".join(parts))
        d = seg.decide
        if d is None:
            lines.append(pad + "return")
            return
        if d[0] == "case":
            lines.append(pad + "if %s:" % val(d[1]))
            for outcome in (True, False):
                if not outcome:
                    lines.append(pad + "else:")
                child = seg.children.get(outcome)
                if child is None:
                    lines.append(pad + "    raise Miss()")
                else:
                    emit(child, ind + 1, done)
            return
        if d[0] == "leaf":
            m = _root_mask(d[1])
            table = const({}, "L")
            lines.append(pad + "k = %s & %d" % (val(d[2]), m))
            lines.append(pad + "o = %s[k] if k in %s else %s.setdefault(k, sub_leaf(%r, k))"
                         % (table, table, table, d[1]))
            for i, (outcome, child) in enumerate(seg.children.items()):
                lines.append(pad + ("if" if i == 0 else "elif") + " o == %r:" % outcome)
                emit(child, ind + 1, done)
            lines.append(pad + "else:")
            lines.append(pad + "    raise Miss()")
            return
        if d[0] == "try":
            children = list(seg.children.values())
            lines.append(pad + "snap = st.snapshot()")
            for child in children:
                lines.append(pad + "try:")
                emit(child, ind + 1, done)
                lines.append(pad + "except (Diverge, Miss):")
                lines.append(pad + "    st.restore(snap)")
            lines.append(pad + "raise Miss()")
            return
        # an expression decision: which recorded reading fits, by the fields it reads
        nodes = list(seg.children)
        union = {}
        for node in nodes:
            for name, a in zip(node.names, node.args):
                if union.setdefault(name, a) is not a:
                    raise _Uncompilable(name)
        code = _code(nodes[0])
        lines.append(pad + "m = %s" % code.mask({k: val(a) for k, a in union.items()}, gpu))
        for i, node in enumerate(nodes):
            lines.append(pad + ("if" if i == 0 else "elif") + " m == %d:" % _want(node))
            lines.extend(pad + "    " + x for x in _expr_lines(node, val, gpu, True, False, False))
            emit(seg.children[node], ind + 1, done | {node.id})
        lines.append(pad + "else:")
        lines.append(pad + "    raise Miss()")

    emit(plan.root, 1, set())
    return "def plan(w, st, A, E):\n" + "".join(x + "\n" for x in lines), ns


def pick(seg, w, V, gpu):
    """The recorded evaluation (outcome node) of seg's expression decision that fits word w."""
    for node in seg.children:
        try:
            v = ev(node.expr, node.names, tuple(evaluate(a, w, gpu, V) for a in node.args),
                   node.required, gpu)
        except Diverge:
            continue
        V[node.id] = v
        return node
    raise Miss()


_ROOT_MASK = {}
_SUB_LEAF = {}


def _root_mask(root):
    """The bits of a sub-field that decide which of root's leaves it is."""
    m = _ROOT_MASK.get(root)
    if m is None:
        m = 0
        for b in isa.LEAVES[root]:
            m |= b.mask & ~b.dontcare
        _ROOT_MASK[root] = m
    return m


def sub_leaf(root, val):
    """The leaf of `root` matching `val`: its name, None for no match, '!' for a conflict
    (what decoder.find_bitset decides; only the leaves' pattern bits matter)."""
    key = (root, val & _root_mask(root))
    r = _SUB_LEAF.get(key)
    if r is None:
        r = ""
        for b in isa.candidates(root, val):
            if (val & b.mask & ~b.dontcare) == b.match:
                if r:
                    r = "!"
                    break
                r = b.name
        _SUB_LEAF[key] = r
    return r or None


def replay(plan, w, st):
    """Run the plan for word w into state st (out, errors); raises Miss."""
    try:
        if plan.fn is not None:
            plan.fn(w, st, st.out.append, st.error)
            return
        plan.interpret(w, st)
    except Diverge:
        raise Miss() from None
    plan.stable += 1
    if plan.stable >= COMPILE_AFTER:
        plan.compile()
